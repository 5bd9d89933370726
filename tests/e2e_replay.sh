#!/usr/bin/env bash
# End-to-end tests of `tablescribe replay` and `tablescribe watch`: a box taught from one
# render, a short scripted 2-player game recorded with hands (a resting hand and a nudged camera
# among them) at 1280 x 720 and 5 frames per second, replayed through the whole pipeline.
# Checked: the source is read to its end; every committed action is the script's, in order (a
# flag is allowed, a wrong move never: the recogniser is far from exact, see bench/README.md,
# so how far it got is printed, not required); nothing is committed on a frame where a hand is
# over the table; the bad inputs give one line and exit 2 with nothing archived; watch killed
# mid-game (kill -9) and restarted with --resume ends with the same moves as the uninterrupted
# run, nothing doubled; bench_replay's game 23, whose camp the camera alone once committed
# wrong, commits nothing false; watch on the demo table teaches the demo's box, registers,
# commits the start layout and stops on Ctrl-C with the game kept live.
#
#   e2e_replay.sh TABLESCRIBE
set -u

tablescribe=$(realpath "$1")
source "$(dirname "$0")/e2e_support.sh"
script=$el_2p_short
e2e_setup replay

# ---- a taught box and a recording ----
size=(--width 1280 --height 720)
run 0 calibrate teach --print-layout --colours orange,black --out layout.json || exit 1
run 0 render --game expedition-luxor --observation layout.json --out teach.png --box 3 --seed 11 \
    --glare 0 "${size[@]}" || exit 1
run 0 calibrate teach --image teach.png --truth layout.json --profile box.yaml || exit 1
run 0 render --game expedition-luxor --script "$script" --out rec --box 3 --seed 12 "${size[@]}" \
    --fps 5 --pause 600 --glare 0 --tilt 15 --resting-hand --nudge || exit 1
fps=$(jq .fps rec/truth.json)

# The script's actions as the archive writes them ("start ..." bare, "orange: mountain@0,2").
grep -v '^#' "$script" | grep -v '^ *$' >expected.txt

# committed MOVES.jsonl: the moves of a replay's --json output, one "seat: action" a line
moves_of() { jq -r 'select(.event == "move") | if .seat then "\(.seat): \(.action)" else .action end' "$1"; }
is_prefix() { [ "$(head -n "$(wc -l <"$1")" "$2")" = "$(cat "$1")" ]; }

# ---- replay ----
run 0 replay --game expedition-luxor --source dir:rec --profile box.yaml --json --db replay.sqlite
cp out.txt replay.jsonl
expect "replay: an end object, the source read to its end" \
    [ "$(jq -r 'select(.event == "end") | .finished' replay.jsonl)" = true ]
expect "replay: every frame read" \
    [ "$(jq -r 'select(.event == "end") | .frames' replay.jsonl)" -eq "$(jq .frames rec/truth.json)" ]
moves_of replay.jsonl >committed.txt
expect "replay: every committed action is the script's, in order ($(paste -sd'|' committed.txt))" \
    is_prefix committed.txt expected.txt
committed=$(wc -l <committed.txt)
flags=$(jq -r 'select(.event == "flag")' replay.jsonl | jq -s length)
expect "replay: the start layout at least is committed" [ "$committed" -ge 1 ]
printf 'e2e_replay: committed %d of the script'"'"'s %d lines in order, %d flags, %d tables not read\n' \
    "$committed" "$(wc -l <expected.txt)" "$flags" \
    "$(jq -r 'select(.event == "unread")' replay.jsonl | jq -s length)"

# No move on a frame where a hand is over the table: an action's hand, or a resting hand.
hands=$(jq -c '[(.actions[] | .hand_frames), (.disturbances[] | select(.kind == "resting-hand") | .frames)]' rec/truth.json)
under_hand=$(jq -r --argjson hands "$hands" --argjson fps "$fps" '
    select(.event == "move") | (.time * $fps | round) as $f
    | select([$hands[] | select($f >= .[0] and $f <= .[1])] | length > 0) | .action' replay.jsonl)
expect "replay: nothing committed under a hand ($under_hand)" [ -z "$under_hand" ]
expect "replay: the nudged camera registered again" \
    [ "$(jq -r 'select(.event == "reregistered")' replay.jsonl | jq -s length)" -ge 1 ]
expect "replay: the archive holds the moves printed" \
    [ "$("$tablescribe" show 1 --db replay.sqlite | grep -c ' move ')" -eq "$committed" ]

# Plain text: the moves in the notation, the scores.
run 0 replay --game expedition-luxor --source dir:rec --profile box.yaml
expect "replay text: the start layout" contains "$out" "start desert@0,0"
expect "replay text: the scores" contains "$out" "scores: orange"
expect "replay text: nothing archived without --db" contains "$out" "nothing archived"
run 0 replay --game expedition-luxor --source dir:rec --profile box.yaml --expansion \
    --db expansion.sqlite
expect "replay --expansion: the game archived with its options" \
    contains "$("$tablescribe" show 1 --db expansion.sqlite)" '"expansion":true'

# ---- a camp whose stacks the camera alone once read a piece high, and sure ----
# bench_replay's game 23 as the bench records it (bench/README.md, session 38): its camp of
# three with two moved west was committed as five with three moved. The heights of a table
# with few stacks are no surer than their images' lean: nothing false is committed.
high=(--width 1920 --height 1080)
run 0 render --game expedition-luxor --observation layout.json --out teach-high.png --box 1 \
    --seed 1000 --glare 0 "${high[@]}" || exit 1
run 0 calibrate teach --image teach-high.png --truth layout.json --profile box-high.yaml || exit 1
run 0 render --game expedition-luxor --script "$fixtures/games/el-2p-camp-read-high.txt" \
    --out rec-high --box 1 --seed 1024 "${high[@]}" --fps 5 --pause 1000 --glare 0 \
    --resting-hand --nudge || exit 1
grep -v '^#' "$fixtures/games/el-2p-camp-read-high.txt" >expected-high.txt
run 0 replay --game expedition-luxor --source dir:rec-high --profile box-high.yaml --json
moves_of out.txt >committed-high.txt
expect "replay of the camp read high: every committed action is the script's, in order \
($(paste -sd'|' committed-high.txt))" is_prefix committed-high.txt expected-high.txt
expect "replay of the camp read high: the start layout at least is committed" \
    [ "$(wc -l <committed-high.txt)" -ge 1 ]

# ---- bad input: one line, exit 2, nothing archived ----
run 0 calibrate table --game luxor --profile luxor.yaml
mkdir nomarkers
cp teach.png nomarkers/0001.png
"$tablescribe" render --game expedition-luxor --observation layout.json --out nomarkers/0002.png \
    --width 64 --height 64 >/dev/null 2>&1
refuse() { # refuse DESCRIPTION NEEDLE ARGS...
    local what=$1 needle=$2; shift 2
    run 2 "$@" --db bad.sqlite && {
        expect "$what: one line ($err)" one_line "$err"
        expect "$what: names the input ($err)" contains "$err" "$needle"
        expect "$what: nothing printed" [ -z "$out" ]
    }
    expect "$what: no game archived" [ ! -s bad.sqlite ] || [ "$("$tablescribe" games --db bad.sqlite | grep -c expedition-luxor)" -eq 0 ]
}
replay=(replay --game expedition-luxor)
refuse "a missing profile" "none.yaml" "${replay[@]}" --source dir:rec --profile none.yaml
refuse "a profile of another game" "luxor" "${replay[@]}" --source dir:rec --profile luxor.yaml
refuse "a missing source folder" "missing" "${replay[@]}" --source dir:missing --profile box.yaml
refuse "not a source" "rec" "${replay[@]}" --source rec --profile box.yaml
refuse "no --source" "--source" "${replay[@]}" --profile box.yaml
refuse "not a game" "chess" replay --game chess --source dir:rec --profile box.yaml
refuse "--seats-at out of range" "--seats-at" "${replay[@]}" --source dir:rec --profile box.yaml --seats-at 0,400
refuse "--seats-at against --players" "--seats-at" "${replay[@]}" --source dir:rec --profile box.yaml --seats-at 0,90,180 --players 2
refuse "watch on a bad demo spec" "demo:-1" watch --profile box.yaml --source demo:-1
refuse "--expansion with --resume" "--expansion" watch --source dir:rec --profile box.yaml --resume --expansion
run 2 watch --source dir:rec --profile box.yaml --db none.sqlite --resume && \
    expect "watch --resume with nothing to resume: one line ($err)" one_line "$err"

# ---- watch takes the players' answers and turn ends on standard input ----
# 'e' comes before the first table is read: the turn end waits for that table, the start
# layout, after which the first seat has not acted yet.
printf 'hello\n99\ne\norange: desert@9,9\n' | "$tablescribe" watch --source dir:rec \
    --profile box.yaml --db answers.sqlite --turn-key >answers.txt 2>answers.err
expect "watch: an answer that is no number is explained ($(head -c 300 answers.err))" \
    grep -q "'hello': type e and Enter when a turn is over, the number of one" answers.err
expect "watch: what was played, typed where the rules refuse it, is refused with a reason" \
    grep -Eq "'orange: desert@9,9': desert@9,9: .+|nothing to play on: no table read yet" answers.err
expect "watch --turn-key says what to type" grep -q "type e and Enter at the end of every turn" \
    answers.txt
expect "watch: a turn end typed before the first table is noted" \
    grep -q "turn end noted: archived with the next table the camera can explain" answers.txt
expect "watch: a turn end typed before the first table is taken with it ($(grep -m2 warning answers.txt))" \
    grep -q "warning: turn end: orange cannot end the turn before acting" answers.txt
expect "watch: a number no candidate has is refused with its reason" \
    grep -Eq "candidate 99: the table waits on candidates 1 to|nothing to choose: no ambiguous table waits" \
    answers.err
expect "watch: the answers stop nothing" grep -q "the source ended" answers.txt

# ---- watch killed mid-game, then resumed ----
"$tablescribe" watch --source dir:rec --profile box.yaml --db watch.sqlite >watch1.txt 2>&1 &
watcher=$!
for _ in $(seq 1 100); do # until a move after the start is archived (at the source's pace)
    sleep 0.2
    [ "$(grep -c ': ' watch1.txt)" -ge 3 ] && break
done
sleep 2
kill -9 "$watcher"
wait "$watcher" 2>/dev/null
before=$("$tablescribe" show 1 --db watch.sqlite | grep -c ' move ')
run 0 watch --source dir:rec --profile box.yaml --db watch.sqlite --resume
expect "watch --resume: says it resumes" contains "$out" "resuming game 1"
"$tablescribe" show 1 --db replay.sqlite | grep ' move ' | sed 's/^ *[0-9]* *//' | awk '{$1=""; print}' >uninterrupted.txt
"$tablescribe" show 1 --db watch.sqlite | grep ' move ' | sed 's/^ *[0-9]* *//' | awk '{$1=""; print}' >resumed.txt
expect "watch killed after $before moves and resumed: the same moves as the uninterrupted replay ($(paste -sd'|' resumed.txt) vs $(paste -sd'|' uninterrupted.txt))" \
    cmp -s resumed.txt uninterrupted.txt
expect "watch resumed: one game in the archive" [ "$("$tablescribe" games --db watch.sqlite | grep -c expedition-luxor)" -eq 1 ]

# ---- watch on the demo table: no profile (it teaches the demo's box), stopped by Ctrl-C ----
"$tablescribe" watch --source 'demo:1?pace=0' --db demo.sqlite >demo.txt 2>demo.err &
watcher=$!
for _ in $(seq 1 600); do # until the start layout is committed (two minutes at most)
    sleep 0.2
    grep -q '] start ' demo.txt && break
    kill -0 "$watcher" 2>/dev/null || break
done
kill -INT "$watcher" 2>/dev/null
# Ctrl-C must end it at once: after 30 s it is killed, and the checks below fail.
(sleep 30 && kill -9 "$watcher" 2>/dev/null) >/dev/null 2>&1 & # not holding ctest's pipe
watchdog=$!
wait "$watcher"
status=$?
kill "$watchdog" 2>/dev/null
wait "$watchdog" 2>/dev/null
demo_show() { "$tablescribe" show 1 --db demo.sqlite; }
lacks() { ! grep -q "$1" "$2"; }
expect "watch on the demo: teaches the demo's box itself" grep -q 'teaching the demo box' demo.err
expect "watch on the demo: registers the table" grep -q 'registered: the camera' demo.txt
expect "watch on the demo: commits the start layout" grep -q '] start ' demo.txt
expect "watch on the demo: Ctrl-C stops it" grep -q '^stopped: ' demo.txt
expect "watch on the demo: Ctrl-C, not the demo's end" lacks 'the source ended' demo.txt
expect "watch on the demo: Ctrl-C ends it with status 0 ($status)" [ "$status" -eq 0 ]
expect "watch on the demo: says how to continue the game" grep -q 'watch --resume 1' demo.txt
expect "watch on the demo: the game stays live in the archive" \
    grep -qw live <("$tablescribe" games --db demo.sqlite)
expect "watch on the demo: its start archived as a move" grep -q ' move .* start ' <(demo_show)

printf 'e2e_replay: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
