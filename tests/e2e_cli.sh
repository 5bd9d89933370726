#!/usr/bin/env bash
# End-to-end tests of the real `tablescribe` command: help, exit statuses, the archive commands,
# the exports as the tools that read them see them, and bad input that must change nothing.
#
#   e2e_cli.sh TABLESCRIBE ARCHIVE_TOOL
set -u

tablescribe=$1
archive_tool=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/tablescribe-e2e-XXXXXX")
chmod 777 "$work"
trap 'rm -rf "$work"' EXIT
export HOME="$work/home"
unset XDG_DATA_HOME
mkdir -p "$HOME"

passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); printf 'FAIL: %s\n' "$*" >&2; }

# run EXPECTED_STATUS ARGS...: runs tablescribe, keeps stdout in $out and stderr in $err.
run() {
    local expected=$1; shift
    "$tablescribe" "$@" >"$work/out" 2>"$work/err"
    local status=$?
    out=$(cat "$work/out")
    err=$(cat "$work/err")
    if [ "$status" -ne "$expected" ]; then
        bad "tablescribe $* exited $status, expected $expected (stderr: $err)"
        return 1
    fi
    ok
}

expect() { # expect DESCRIPTION CONDITION...
    local what=$1; shift
    if "$@"; then ok; else bad "$what"; fi
}
contains() { [[ $1 == *"$2"* ]]; }
one_line() { [ -n "$1" ] && [ "$(printf '%s\n' "$1" | wc -l)" -eq 1 ]; }

# ---- help and usage ----
run 0 --help && expect "help lists export" contains "$out" "export"
run 0 --version && expect "version names the schema" contains "$out" "archive schema"
for command in watch replay recognise calibrate render play games show export; do
    run 0 "$command" --help && expect "$command --help shows usage" contains "$out" "usage: tablescribe $command"
done
run 2 && expect "no command prints help on stderr" contains "$err" "usage:"
run 2 frobnicate && expect "unknown command is one line" one_line "$err"
run 2 games --frob && expect "unknown option named" contains "$err" "--frob"
run 2 export && expect "export needs a format" contains "$err" "--format"
run 2 export --format yaml && expect "unknown format named" contains "$err" "yaml"
run 2 show && expect "show needs an id" contains "$err" "which game"
run 2 show 1x && expect "bad id named" contains "$err" "'1x'"

# ---- replay needs a source; watch's default is the demo table (e2e_replay.sh runs them) ----
run 2 watch --game expedition-luxor --source demo:x && {
    expect "watch on a bad demo spec names it ($err)" contains "$err" "demo:x"
    expect "watch on a bad demo spec: one line" one_line "$err"
    expect "watch on a bad demo spec prints nothing on stdout" [ -z "$out" ]
}
run 2 replay --game expedition-luxor && {
    expect "replay needs --source ($err)" contains "$err" "--source"
    expect "replay prints nothing on stdout" [ -z "$out" ]
}

# ---- the default archive ----
run 0 games && expect "empty archive says so" contains "$out" "No games"
expect "default archive under ~/.local/share" [ -f "$HOME/.local/share/tablescribe/games.sqlite" ]
XDG_DATA_HOME="$work/xdg" run 0 games
expect "XDG_DATA_HOME is honoured" [ -f "$work/xdg/tablescribe/games.sqlite" ]
run 2 games --db "$work/missing.sqlite" && expect "explicit missing archive is named" contains "$err" "$work/missing.sqlite"
expect "explicit missing archive is not created" [ ! -e "$work/missing.sqlite" ]

# ---- the archive commands on a sample ----
sample="$work/sample.sqlite"
"$archive_tool" sample "$sample" || bad "archive_tool sample failed"
run 0 games --db "$sample" && {
    expect "games lists two" [ "$(printf '%s\n' "$out" | grep -c -E '^ +[0-9]+ ')" -eq 2 ]
    expect "shared winners listed" contains "$out" "orange (Zoé) = black (Bob \"the <builder>\")"
    expect "live game listed" contains "$out" "live"
}
run 0 show 1 --db "$sample" && {
    expect "show prints 8 events" [ "$(printf '%s\n' "$out" | grep -c -E '^ +[0-9]+  [0-9]{2}:')" -eq 8 ]
    expect "show prints the flag's reason" contains "$out" "a hand rests on the table"
    expect "show prints final ranks" contains "$out" "Final: orange (Zoé) 4 (rank 1)"
}
run 2 show 99 --db "$sample" && expect "missing game named" contains "$err" "no game 99"

run 0 export --format json --db "$sample" --out "$work/all.json"
expect "json: two games, 8 events in the first" [ "$(jq -r '[(.games | length), (.games[0].events | length)] | @csv' "$work/all.json")" = "2,8" ]
expect "json: running scores" [ "$(jq -c '.games[0].events[7].scores' "$work/all.json")" = "[1,1,3]" ]
run 0 export --format json --db "$sample" 2 && expect "json to stdout, one game" [ "$(printf '%s' "$out" | jq '.games | length')" = 1 ]
run 0 export --format csv --db "$sample" --out "$work/events.csv"
expect "csv: header plus 9 events" [ "$(wc -l <"$work/events.csv")" -eq 10 ]
run 0 export --format bgstats --db "$sample" --out "$work/plays.bgsplay"
expect "bgstats: valid JSON with games, players, plays" \
    [ "$(jq -r '[(.games|length), (.players|length), (.plays|length), (.plays[0].playerScores|length)] | @csv' "$work/plays.bgsplay")" = "2,5,2,3" ]
run 0 export --format bgg-xml --db "$sample" --out "$work/plays.xml"
expect "bgg-xml parses" xmllint --noout "$work/plays.xml"
expect "bgg-xml: two plays, five players" [ "$(xmllint --xpath 'concat(count(//play), ",", count(//play/players/player))' "$work/plays.xml")" = "2,5" ]
expect "bgg-xml: winners marked" [ "$(xmllint --xpath 'count(//player[@win="1"])' "$work/plays.xml")" = 2 ]

# ---- bad input: a clear line, the right status, and nothing changed ----
checksum() { sha256sum "$1" | cut -d' ' -f1; }
before=$(checksum "$sample")

run 2 games --db "$work/no/such/folder/games.sqlite" && expect "missing folder: one line" one_line "$err"
printf 'these are my notes, not a database, and quite long enough to fill a header page...%.0s' 1 2 3 >"$work/notes.txt"
notes=$(checksum "$work/notes.txt")
run 2 games --db "$work/notes.txt" && expect "not SQLite is said" contains "$err" "not a SQLite database"
expect "not-SQLite file unchanged" [ "$(checksum "$work/notes.txt")" = "$notes" ]

cp "$sample" "$work/newer.sqlite"
sqlite3 "$work/newer.sqlite" "PRAGMA user_version = 42"
newer=$(checksum "$work/newer.sqlite")
run 2 games --db "$work/newer.sqlite" && expect "newer schema is said" contains "$err" "newer tablescribe (schema 42"
run 2 export --format json --db "$work/newer.sqlite" --out "$work/x.json"
expect "newer archive unchanged" [ "$(checksum "$work/newer.sqlite")" = "$newer" ]
expect "no export from a refused archive" [ ! -e "$work/x.json" ]

# A read-only archive: readable, and an export into a read-only folder is refused whole. Root
# writes through permissions, so the checks run as nobody when the tests run as root.
as_user=()
if [ "$(id -u)" -eq 0 ]; then as_user=(setpriv --reuid=65534 --regid=65534 --clear-groups); fi
mkdir -m 777 "$work/ro"
cp "$sample" "$work/ro/games.sqlite"
chmod 444 "$work/ro/games.sqlite"
mkdir -m 555 "$work/locked-folder"
ro_before=$(checksum "$work/ro/games.sqlite")
if "${as_user[@]}" "$tablescribe" games --db "$work/ro/games.sqlite" >"$work/out" 2>"$work/err"; then ok; else bad "read-only archive unreadable: $(cat "$work/err")"; fi
"${as_user[@]}" "$tablescribe" export --format csv --db "$work/ro/games.sqlite" --out "$work/locked-folder/x.csv" >"$work/out" 2>"$work/err"
status=$?
expect "export into a read-only folder exits 2 (got $status)" [ "$status" -eq 2 ]
expect "export failure is one line" one_line "$(cat "$work/err")"
expect "read-only archive unchanged" [ "$(checksum "$work/ro/games.sqlite")" = "$ro_before" ]
expect "nothing written in the read-only folder" [ -z "$(ls -A "$work/locked-folder")" ]

# A locked archive: another program holds it exclusively; the command waits, then says so.
cp "$sample" "$work/busy.sqlite"
busy_before=$(sqlite3 "$work/busy.sqlite" "SELECT count(*) FROM events")
sqlite3 "$work/busy.sqlite" "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM games;" ".shell sleep 8" "COMMIT;" >/dev/null &
locker=$!
sleep 1
run 1 games --db "$work/busy.sqlite" && expect "lock is said" contains "$err" "locked by another program"
wait "$locker"
run 0 games --db "$work/busy.sqlite"
expect "locked archive lost nothing" [ "$(sqlite3 "$work/busy.sqlite" "SELECT count(*) FROM events")" = "$busy_before" ]

expect "sample archive unchanged by every command above" [ "$(checksum "$sample")" = "$before" ]

# ---- a reader while a game is being written ----
"$archive_tool" append "$work/live.sqlite" 1 >/dev/null
"$archive_tool" append "$work/live.sqlite" 2000 >/dev/null &
writer=$!
reads=0
last=0
while kill -0 "$writer" 2>/dev/null; do
    if ! "$tablescribe" show 1 --db "$work/live.sqlite" >"$work/out" 2>"$work/err"; then
        bad "show while writing failed: $(cat "$work/err")"
        break
    fi
    events=$(grep -c -E '^ +[0-9]+  [0-9]{2}:' "$work/out")
    [ "$events" -ge "$last" ] || bad "events went from $last to $events while writing"
    last=$events
    reads=$((reads + 1))
done
wait "$writer"
expect "several reads during the write ($reads)" [ "$reads" -ge 3 ]
run 0 games --db "$work/live.sqlite"

# ---- the markers sheet ----
run 0 calibrate markers --out "$work/markers.png" --marker-mm 50
expect "markers sheet is a PNG" [ "$(head -c 8 "$work/markers.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
run 2 calibrate markers --out "$work/markers.png" --marker-mm 200 && expect "marker size range" contains "$err" "10 to 90"
run 2 calibrate markers --out "$work/markers.jpg"
run 2 calibrate markers --out "$work/no/such/markers.png" && expect "missing folder named" contains "$err" "$work/no/such/markers.png"

# ---- the camera board and the table ----
run 0 calibrate camera --print-board "$work/board.png" && expect "board says what it wrote" contains "$out" "$work/board.png"
expect "board sheet is a PNG" [ "$(head -c 8 "$work/board.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
run 2 calibrate camera --print-board "$work/board.jpg" && expect "board is PNG only" one_line "$err"
run 2 calibrate camera --image "$work/board.png" --profile "$work/camera.yml" && {
    expect "one view is too few: one line" one_line "$err"
    expect "one view is too few: says how many" contains "$err" "1 usable view of 1"
    expect "one view is too few: no profile" [ ! -e "$work/camera.yml" ]
}
run 2 calibrate camera --image "$work/missing.png" --profile "$work/camera.yml" && {
    expect "camera, missing image named" contains "$err" "$work/missing.png"
    expect "camera, missing image: no profile" [ ! -e "$work/camera.yml" ]
}
run 2 calibrate camera --profile "$work/camera.yml" && expect "camera needs images" contains "$err" "--image"

run 2 calibrate table --image "$work/missing.png" --profile "$work/table.yml" && {
    expect "table, missing image: one line" one_line "$err"
    expect "table, missing image named" contains "$err" "$work/missing.png"
    expect "table, missing image: no profile" [ ! -e "$work/table.yml" ]
}
# The markers sheet is a small flat table: its markers' centres are 105 x 128.5 mm apart.
run 0 calibrate markers --out "$work/kit.png"
run 0 calibrate table --image "$work/kit.png" --profile "$work/table.yml" --mat 105x128.5 && {
    expect "table reports the markers" contains "$out" "markers 0 1 2 3 found"
    expect "table reports the camera" contains "$out" "tilted"
    expect "table writes the mat" grep -q "width_mm: 105" "$work/table.yml"
}
cp "$work/table.yml" "$work/table-before.yml"
run 2 calibrate table --image "$work/kit.png" --profile "$work/table.yml" --mat 140x128.5 && {
    expect "wrong mat: one line" one_line "$err"
    expect "wrong mat: says so ($err)" contains "$err" "mat size"
    expect "wrong mat: profile untouched" cmp -s "$work/table.yml" "$work/table-before.yml"
}
run 2 calibrate table --image "$work/markers.png" --profile "$work/other.yml" && {
    expect "kit with the default mat: one line" one_line "$err"
    expect "kit with the default mat: no profile" [ ! -e "$work/other.yml" ]
}
run 0 calibrate table --profile "$work/mat.yml" --mat 600x560 --tile-mm 42 --marker-mm 45
expect "table without an image records the mat" grep -q "width_mm: 600" "$work/mat.yml"
run 2 calibrate table --profile "$work/mat.yml" --mat 20x20 && expect "bad mat named" contains "$err" "--mat"
run 2 calibrate table --profile "$work/mat.yml" --game luxor && expect "other game named" contains "$err" "a profile of expedition-luxor, not luxor"
run 2 calibrate table --profile "$work/new.yml" --game chess && expect "unknown game named" contains "$err" "'chess'"
printf 'format: 9\n' >"$work/newer.yml"
run 2 calibrate table --profile "$work/newer.yml" && expect "newer profile refused" contains "$err" "written by a newer tablescribe"

# ---- the scene renderer ----
fixtures=$(cd "$(dirname "$0")/../fixtures" && pwd)
png_size() { # the width and height in a PNG's header
    printf '%d %d' "0x$(od -An -tx1 -j16 -N4 "$1" | tr -d ' \n')" "0x$(od -An -tx1 -j20 -N4 "$1" | tr -d ' \n')"
}
truth="$fixtures/renders/small-layout.json"
run 0 render --game expedition-luxor --observation "$truth" --out "$work/scene.png" --seed 3 \
    --width 320 --height 200 --info "$work/scene.json" && {
    expect "render says what it wrote" contains "$out" "$work/scene.png"
    expect "render writes a PNG" [ "$(head -c 8 "$work/scene.png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ]
    expect "render writes the size asked for" [ "$(png_size "$work/scene.png")" = "320 200" ]
    expect "render's info has every tile" [ "$(jq '.tiles | length' "$work/scene.json")" = "$(jq '.tiles | length' "$truth")" ]
    expect "render's info has the markers" [ "$(jq '.camera.markers | length' "$work/scene.json")" = 4 ]
}
run 0 render --game expedition-luxor --observation "$truth" --out "$work/scene2.png" --seed 3 \
    --width 320 --height 200
expect "the same options give the same image" cmp -s "$work/scene.png" "$work/scene2.png"
run 0 render --game expedition-luxor --observation "$truth" --out "$work/scene.jpg" --seed 5 \
    --width 256 --height 144 --hands 2 --jpeg-quality 0 --noise 0
expect "render writes JPEG" [ "$(head -c 2 "$work/scene.jpg" | od -An -tx1 | tr -d ' \n')" = "ffd8" ]

printf '{"game": "expedition-luxor", "tiles": [{"row": 0, "col": 0, "type": "lake", "top": "teal", "height": 1, "token": null}]}' >"$work/teal.json"
printf '{"game": "expedition-luxor", "tiles": [' >"$work/broken.json"
for case in \
    "bad colour|--observation $work/teal.json|teal" \
    "broken JSON|--observation $work/broken.json|$work/broken.json" \
    "missing observation|--observation $work/missing.json|$work/missing.json" \
    "bad option|--observation $truth --tilt 90|--tilt" \
    "unknown option|--observation $truth --frob 1|--frob" \
    "bad mat|--observation $truth --mat 20x20|--mat" \
    "layout too large|--observation $truth --mat 150x150|does not fit" \
    "bad extension|--observation $truth --out $work/bad.gif|.gif"; do
    IFS='|' read -r what arguments needle <<<"$case"
    rm -f "$work/bad.png" "$work/bad.gif" "$work/bad.json"
    # shellcheck disable=SC2086 # the arguments are split on purpose
    run 2 render --game expedition-luxor --out "$work/bad.png" $arguments --info "$work/bad.json" && {
        expect "render, $what: one line" one_line "$err"
        expect "render, $what: names the input ($err)" contains "$err" "$needle"
        expect "render, $what: nothing written" [ ! -e "$work/bad.png" ] && [ ! -e "$work/bad.gif" ] && [ ! -e "$work/bad.json" ]
        expect "render, $what: no temporary file" [ -z "$(ls "$work" | grep '\.tmp\.')" ]
    }
done
run 1 render --game luxor --observation "$truth" --out "$work/bad.png" && {
    expect "render of another game: not yet" contains "$err" "not available yet for luxor"
    expect "render of another game: nothing written" [ ! -e "$work/bad.png" ]
}
run 2 render --game expedition-luxor --observation "$truth" && expect "render needs --out" contains "$err" "--out"

# ---- teaching a box and recognising a photo ----
seeing="$work/seeing"
mkdir -p "$seeing"
run 0 calibrate teach --print-layout --out "$seeing/layout.json" && {
    expect "the layout names every row" contains "$out" "row 4:"
    expect "the layout's truth has 16 tiles" [ "$(jq '.tiles | length' "$seeing/layout.json")" -eq 16 ]
}
run 0 render --game expedition-luxor --observation "$seeing/layout.json" --out "$seeing/teach.png" \
    --box 3 --seed 11 --glare 0
run 0 calibrate teach --image "$seeing/teach.png" --truth "$seeing/layout.json" \
    --profile "$seeing/box.yaml" && {
    expect "teach says what it learnt" contains "$out" "Taught expedition-luxor"
    expect "teach writes the profile" [ -s "$seeing/box.yaml" ]
    expect "teach keeps the focal length the tilted photo measured" contains "$out" "measured from the markers"
}
run 0 recognise --game expedition-luxor --profile "$seeing/box.yaml" "$seeing/teach.png" && {
    expect "recognise prints an observation" [ "$(printf '%s' "$out" | jq -r .game)" = expedition-luxor ]
    # The tile types read back from the photo it was taught with (the heights and tops of this
    # recogniser are measured in bench/, not promised here).
    right=$(jq -n --argjson seen "$out" --slurpfile truth "$seeing/layout.json" '
        [$truth[0].tiles[] as $t | $seen.tiles[] | select(.row == $t.row and .col == $t.col and .type == $t.type)] | length')
    expect "recognise reads back most tile types ($right of 16)" [ "$right" -ge 12 ]
}
run 0 recognise --game expedition-luxor --profile "$seeing/box.yaml" "$seeing/teach.png" "$seeing/teach.png" && \
    expect "several images: one object a line, each named" [ "$(printf '%s\n' "$out" | jq -r .image | grep -c teach.png)" -eq 2 ]
: >"$seeing/empty.png"
printf 'not a png' >"$seeing/corrupt.png"
run 0 calibrate camera --print-board "$seeing/board.png"
printf '{"game": "expedition-luxor", "tiles": [' >"$seeing/broken.json"
run 0 calibrate table --game luxor --profile "$seeing/luxor.yaml"
for case in \
    "missing profile|--profile $seeing/none.yaml $seeing/teach.png|none.yaml" \
    "profile of another game|--profile $seeing/luxor.yaml $seeing/teach.png|a profile of luxor" \
    "empty image|--profile $seeing/box.yaml $seeing/empty.png|empty.png" \
    "corrupt image|--profile $seeing/box.yaml $seeing/corrupt.png|corrupt.png" \
    "no markers|--profile $seeing/box.yaml $seeing/board.png|marker" \
    "one bad image of two|--profile $seeing/box.yaml $seeing/teach.png $seeing/corrupt.png|corrupt.png"; do
    IFS='|' read -r what arguments needle <<<"$case"
    # shellcheck disable=SC2086 # the arguments are split on purpose
    run 2 recognise --game expedition-luxor $arguments && {
        expect "recognise, $what: one line" one_line "$err"
        expect "recognise, $what: names the input ($err)" contains "$err" "$needle"
        expect "recognise, $what: prints nothing" [ -z "$out" ]
    }
done
run 1 recognise --game luxor --profile "$seeing/box.yaml" "$seeing/teach.png" && \
    expect "recognise of another game: not yet" contains "$err" "not available yet"
cp "$seeing/box.yaml" "$seeing/before.yaml"
for case in \
    "truth that does not parse|--image $seeing/teach.png --truth $seeing/broken.json|broken.json" \
    "image without markers|--image $seeing/board.png --truth $seeing/layout.json|marker" \
    "missing image|--image $seeing/none.png --truth $seeing/layout.json|none.png" \
    "an image without its truth|--image $seeing/teach.png|truth"; do
    IFS='|' read -r what arguments needle <<<"$case"
    # shellcheck disable=SC2086 # the arguments are split on purpose
    run 2 calibrate teach $arguments --profile "$seeing/box.yaml" && {
        expect "teach, $what: one line" one_line "$err"
        expect "teach, $what: names the input ($err)" contains "$err" "$needle"
        expect "teach, $what: the profile is untouched" cmp -s "$seeing/box.yaml" "$seeing/before.yaml"
    }
done

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
