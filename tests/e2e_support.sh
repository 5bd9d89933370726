# The helpers of the end-to-end shell tests, sourced by them after they set $tablescribe:
# counting, expecting, running the command, their work folder, and the fixtures they read.
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }
expect() { local what=$1; shift; if "$@"; then ok; else bad "$what"; fi; }
contains() { [[ $1 == *"$2"* ]]; }
one_line() { [ -n "$1" ] && [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ]; }

# run EXPECTED ARGS...: tablescribe with stdout in $out, stderr in $err (out.txt, err.txt in
# the current folder).
run() {
    local expected=$1; shift
    "$tablescribe" "$@" >out.txt 2>err.txt
    local status=$?
    out=$(cat out.txt)
    err=$(cat err.txt)
    if [ "$status" -ne "$expected" ]; then
        bad "tablescribe $* exited $status, expected $expected (stderr: $err)"
        return 1
    fi
    ok
}

# The fixtures folder, and the short scripted 2-player game that render --script records.
fixtures=$(realpath "$(dirname "${BASH_SOURCE[0]}")/../fixtures")
el_2p_short="$fixtures/games/el-2p-short.txt"

# e2e_setup NAME: a fresh work folder in $work (removed at exit), made the current folder, with
# HOME inside it so that the default archive is the test's own.
e2e_setup() {
    work=$(mktemp -d "${TMPDIR:-/tmp}/tablescribe-$1-XXXXXX")
    trap 'rm -rf "$work"' EXIT
    export HOME="$work/home"
    unset XDG_DATA_HOME
    mkdir -p "$HOME"
    cd "$work" || exit 1
}
