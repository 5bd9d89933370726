#!/usr/bin/env bash
# End-to-end tests of `tablescribe render --script`: a short scripted 2-player game recorded at
# a small size; the frames and times.txt agree with --fps; each settled table's observation is
# the engine's state after its line (its scores and adventurers as `tablescribe play` counts
# them after the same lines); the disturbances are where the index says; and every bad input
# is refused in one line with nothing written.
#
#   e2e_render_script.sh TABLESCRIBE
set -u

tablescribe=$(realpath "$1")
source "$(dirname "$0")/e2e_support.sh"
script=$el_2p_short
e2e_setup record
differ() { ! cmp -s "$1" "$2"; }
no_leftovers() { [ -z "$(ls "$work" | grep '\.tmp\.')" ]; }

small=(--game expedition-luxor --width 640 --height 360 --pause 600)

# ---- a recording at 10 frames per second, with a resting hand and a nudged camera ----
run 0 render "${small[@]}" --script "$script" --out rec --seed 9 --resting-hand --nudge || exit 1
expect "render says what it wrote" contains "$out" "Wrote rec:"
frames=$(jq .frames rec/truth.json)
expect "the index counts the frames in the folder" [ "$(ls rec | grep -c '^[0-9]*\.jpg$')" -eq "$frames" ]
expect "times.txt has a line a frame" [ "$(wc -l <rec/times.txt)" -eq "$frames" ]
expect "times.txt names the frames in name order" \
    [ "$(cut -d' ' -f1 rec/times.txt | tr '\n' ' ')" = "$(ls rec | grep '^[0-9]*\.jpg$' | tr '\n' ' ')" ]
expect "times.txt: frame i at i * 100 ms" \
    [ "$(awk '$2 != (NR - 1) * 100 { bad++ } END { print bad + 0 }' rec/times.txt)" -eq 0 ]
expect "the frames are JPEG" [ "$(head -c 2 rec/000000.jpg | od -An -tx1 | tr -d ' \n')" = "ffd8" ]
expect "the script is kept" cmp -s "$script" rec/script.txt
expect "the index names the game and its players" \
    [ "$(jq -r '.game + " " + (.players | tostring) + " " + (.fps | tostring)' rec/truth.json)" = "expedition-luxor 2 10" ]

# One table for the start and one for each action (every line but `end`, comments and the start).
actions=$(grep -v '^#' "$script" | grep -v '^start' | grep -cv ': end$')
tables=$(jq '.tables | length' rec/truth.json)
expect "a table for the start and each of the $actions actions" [ "$tables" -eq $((actions + 1)) ]
expect "an observation file per table" [ "$(ls rec/truth | grep -c '\.json$')" -eq "$tables" ]
expect "the tables follow each other through every frame" \
    [ "$(jq '[.tables[] | .frames] | (.[0][0] == 0) and ([range(1; length) as $i | .[$i][0] == .[$i - 1][1] + 1] | all)' rec/truth.json)" = true ]
expect "the last table is on view to the last frame" \
    [ "$(jq '.tables[-1].frames[1] == .frames - 1' rec/truth.json)" = true ]
expect "every table rests its pause (600 ms: 6 frames) with no hand" \
    [ "$(jq '[.tables[] | [.rests[] | select(.hand | not) | .frames[1] - .frames[0] + 1] | add >= 6] | all' rec/truth.json)" = true ]
expect "every action has its hand's frames" \
    [ "$(jq '[.actions[] | .hand_frames[1] > .hand_frames[0]] | all' rec/truth.json)" = true ]
expect "a frame at rest repeats the one before (a link: drawn once)" \
    [ "$(stat -c %i rec/000002.jpg)" = "$(stat -c %i rec/000001.jpg)" ]
first_hand=$(jq '.actions[0].hand_frames[0]' rec/truth.json)
expect "a hand's frames differ from the rest before them" \
    differ rec/000000.jpg "rec/$(printf '%06d' $((first_hand + 3))).jpg"

# Each table is the engine's state after its line: its scores (the top adventurer's colour on
# each camp, temple and pyramid) and each colour's adventurers on the table (30 less its
# supply) equal what `tablescribe play` counts after the same lines.
values='{"desert-camp": 1, "oasis-camp": 1, "desert-temple": 2, "oasis-temple": 2, "desert-pyramid": 3, "oasis-pyramid": 3}'
for ((t = 0; t < tables; t++)); do
    line=$(jq ".tables[$t].line" rec/truth.json)
    observation="rec/$(jq -r ".tables[$t].observation" rec/truth.json)"
    head -n "$line" "$script" >prefix.txt
    run 0 play --game expedition-luxor --players 2 --script prefix.txt --json --db play.sqlite || continue
    engine=$(printf '%s' "$out" | jq -c '[.seats[] | {(.colour): {score, on_table: (30 - .supply)}}] | add')
    seen=$(jq -c --argjson values "$values" '
        . as $o | ["orange", "black"] | map(. as $c | {($c): {
            score: ([$o.tiles[] | select(.top == $c) | $values[.type] // 0] | add // 0),
            on_table: ([$o.tiles[] | (.stack // [])[] | select(. == $c)] | length)}}) | add' \
        "$observation")
    expect "table $t (line $line): the observation is the engine's state ($seen vs $engine)" \
        [ "$seen" = "$engine" ]
    expect "table $t: its tiles" [ "$(jq '.tiles | length' "$observation")" -eq $((4 + t)) ]
done

# The disturbances asked for are in the index, where the frames say.
expect "a resting hand" [ "$(jq '[.disturbances[] | select(.kind == "resting-hand")] | length >= 1' rec/truth.json)" = true ]
expect "the resting hand rests in its table's rests" \
    [ "$(jq '. as $r | [$r.disturbances[] | select(.kind == "resting-hand") | . as $d | $r.tables[$d.table].rests[] | select(.hand)] | length >= 1' rec/truth.json)" = true ]
nudge=$(jq '[.disturbances[] | select(.kind == "camera-nudge") | .frames[0]][0]' rec/truth.json)
expect "one nudge of the camera" [ "$nudge" != null ]
if [ "$nudge" != null ]; then
    before=$(printf 'rec/%06d.jpg' $((nudge - 1)))
    after=$(printf 'rec/%06d.jpg' "$nudge")
    later=$(printf 'rec/%06d.jpg' $((nudge + 1)))
    expect "the nudge changes the picture" differ "$before" "$after"
    expect "the nudged camera then stays" cmp -s "$after" "$later"
fi

# ---- the same at 5 frames per second: half the frames, 200 ms apart ----
run 0 render "${small[@]}" --script "$script" --out rec5 --seed 9 --resting-hand --nudge --fps 5 \
    --width 320 --height 180
frames5=$(jq .frames rec5/truth.json)
expect "5 frames/s: half the frames ($frames5 of $frames)" [ $((frames5 * 2 - frames)) -ge -1 ] && [ $((frames5 * 2 - frames)) -le 1 ]
expect "5 frames/s: 200 ms apart" \
    [ "$(awk '$2 != (NR - 1) * 200 { bad++ } END { print bad + 0 }' rec5/times.txt)" -eq 0 ]
expect "5 frames/s: the same tables" cmp -s <(jq -c '[.tables[].action]' rec/truth.json) <(jq -c '[.tables[].action]' rec5/truth.json)
run 0 render "${small[@]}" --script "$script" --out rec5b --seed 9 --resting-hand --nudge --fps 5 \
    --width 320 --height 180
expect "the same options record the same frames" diff -rq rec5 rec5b

# An empty folder is taken; PNG frames on request.
mkdir empty
run 0 render "${small[@]}" --script "$script" --out empty --fps 2 --format png --width 160 --height 90
expect "an empty --out folder is filled" [ -f empty/truth.json ]
expect "--format png writes PNG" [ "$(head -c 4 empty/000000.png | od -An -tx1 | tr -d ' \n')" = "89504e47" ]

# ---- refusals: one line, exit 2, nothing written ----
refuse() { # refuse DESCRIPTION NEEDLE OUT ARGS...: OUT must not appear (unless it was there)
    local what=$1 needle=$2 target=$3 existed=false; shift 3
    [ -e "$target" ] && existed=true
    run 2 render "$@" && {
        expect "$what: one line ($err)" one_line "$err"
        expect "$what: names the input ($err)" contains "$err" "$needle"
        $existed || expect "$what: nothing written" [ ! -e "$target" ]
        expect "$what: no temporary folder" no_leftovers
    }
}
{ head -n 8 "$script"; echo "orange: lake@5,5"; tail -n +9 "$script"; } >refused.txt
refuse "a refused line" "refused.txt:9:" bad1 "${small[@]}" --script refused.txt --out bad1
expect "a refused line: the engine's reason" contains "$err" "lake@5,5"
refuse "a missing script" "missing.txt" bad2 "${small[@]}" --script missing.txt --out bad2
before=$(ls rec | md5sum)
refuse "a folder not empty" "not empty" rec "${small[@]}" --script "$script" --out rec
expect "a folder not empty: left as it was" [ "$(ls rec | md5sum)" = "$before" ]
touch afile
refuse "--out a file" "not a folder" bad3 "${small[@]}" --script "$script" --out afile
for fps in 0 61 2.5 ten; do
    refuse "--fps $fps" "--fps $fps" bad4 "${small[@]}" --script "$script" --out bad4 --fps "$fps"
done
refuse "--pause too short" "--pause 10" bad5 "${small[@]}" --script "$script" --out bad5 --pause 10
refuse "--hands with a script" "--hands" bad6 "${small[@]}" --script "$script" --out bad6 --hands 1
refuse "--fps without a script" "--script" bad7.png --game expedition-luxor \
    --observation "$fixtures/renders/small-layout.json" --out bad7.png --fps 5
printf 'orange: mountain@0,2\n' >nostart.txt
refuse "no start layout" "start layout" bad8 "${small[@]}" --script nostart.txt --out bad8
refuse "a third player's colour" "grey" bad9 "${small[@]}" --script <(sed 's/^black:/grey:/' "$script") --out bad9
refuse "--players against the start" "start" bad10 "${small[@]}" --script "$script" --out bad10 --players 3

printf 'e2e_render_script: %d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
