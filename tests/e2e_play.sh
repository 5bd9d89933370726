#!/usr/bin/env bash
# End-to-end tests of `tablescribe play`: random games printed and fed back, refusals that name
# the rule and keep the archive whole, resuming a game cut short, the JSON summary.
#
#   e2e_play.sh TABLESCRIBE
set -u

tablescribe=$(realpath "$1")
tests=$(realpath "$(dirname "$0")")
fixtures=$(realpath "$(dirname "$0")/../fixtures")
source "$tests/e2e_support.sh"
e2e_setup play

# ---- a random game printed, fed back, gives the same final scores ----
for setup in "2" "3" "4" "2 --expansion" "3 --expansion" "4 --expansion"; do
    read -r players expansion <<<"$setup"
    seed=$((players * 11 + ${#expansion}))
    run 0 play --game expedition-luxor --players "$players" $expansion --random "$seed" || continue
    printf '%s\n' "$out" >"game-$players$expansion.txt"
    run 0 play --game expedition-luxor --players "$players" $expansion --random "$seed" --json
    random_scores=$(printf '%s' "$out" | jq -c '[.seats[].score]')
    run 0 play --game expedition-luxor --players "$players" $expansion --script "game-$players$expansion.txt" --json --db round.sqlite
    expect "$players players$expansion: the script replays to the same scores" \
        [ "$(printf '%s' "$out" | jq -c '[.seats[].score]')" = "$random_scores" ]
    expect "$players players$expansion: the replay is finished" [ "$(printf '%s' "$out" | jq .finished)" = true ]
done
run 0 games --db round.sqlite
expect "six finished games archived" [ "$(grep -c finished <<<"$out")" -eq 6 ]

# ---- the JSON summary ----
run 0 play --game expedition-luxor --players 4 --expansion --random 3 --json
expect "json names the game" [ "$(printf '%s' "$out" | jq -r .game)" = expedition-luxor ]
expect "json: four seats with colour, score, supply, captured" \
    [ "$(printf '%s' "$out" | jq '[.seats[] | has("colour") and has("score") and has("supply") and has("captured")] | all')" = true ]
expect "json: winners are colours" [ "$(printf '%s' "$out" | jq '.winners | length >= 1')" = true ]
expect "json: the expansion" [ "$(printf '%s' "$out" | jq .expansion)" = true ]
expect "json: no archive without --db" [ "$(printf '%s' "$out" | jq .archive_game)" = null ]
expect "random games are not archived without --db" [ ! -e "$HOME/.local/share/tablescribe/games.sqlite" ]

# ---- a refused line: the rule in plain words, nothing lost, resumable ----
head -n 30 "game-2.txt" >part.txt
printf 'orange: oasis-temple@9,9\n' >>part.txt
sed -n '31,$p' "game-2.txt" >rest.txt
run 2 play --game expedition-luxor --players 2 --script part.txt --db cut.sqlite
expect "the refusal names file, line and rule" contains "$err" "part.txt:31: oasis-temple@9,9: "
expect "one line" [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ]
expect "the game stays open" contains "$out" "stays open"
events_before=$(sqlite3 cut.sqlite "SELECT count(*) FROM events")
expect "the 29 moves before the refusal are archived" [ "$events_before" -eq 29 ]
run 0 play --resume 1 --db cut.sqlite --script rest.txt --json
expect "resumed game ends with the random game's scores" \
    [ "$(printf '%s' "$out" | jq -c '[.seats[].score]')" = "$(jq -c '[.seats[].score]' <<<"$("$tablescribe" play --game expedition-luxor --players 2 --random 22 --json)")" ]
run 0 show 1 --db cut.sqlite
expect "show ends with the final ranks" contains "$out" "Final:"
run 2 play --resume 1 --db cut.sqlite --script rest.txt && expect "a finished game is not resumed" contains "$err" "is finished"

# ---- actions from standard input, and a seat prefix that is a check ----
printf 'start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1\norange: desert-camp@1,2 x3 > w 1\nend\nblack: desert@2,0\n' |
    "$tablescribe" play --game expedition-luxor --players 2 --db stdin.sqlite >out.txt 2>err.txt
expect "stdin: accepted" [ $? -eq 0 ]
expect "stdin: running scores printed" grep -q "orange 1, black 0" out.txt
printf 'start desert@0,0 mountain@0,1 desert-temple@1,0 desert@1,1\nblack: desert@0,2\n' >prefix.txt
run 2 play --game expedition-luxor --players 2 --script prefix.txt --db prefix.sqlite &&
    expect "the prefix is a check" contains "$err" "it is orange's turn, not black's"

# ---- Luxor: random games in every variant fed back, the summary, refusals, resume ----
for setup in "2" "3" "4" "4 --curse" "3 --sphinx" "2 --curse --sphinx --tile-pairs"; do
    read -r players variant <<<"$setup"
    seed=$((players * 7 + ${#variant}))
    name="luxor-$players${variant// /}"
    run 0 play --game luxor --players "$players" $variant --random "$seed" || continue
    printf '%s\n' "$out" >"$name.txt"
    run 0 play --game luxor --players "$players" $variant --random "$seed" --json
    random_scores=$(printf '%s' "$out" | jq -c '[.seats[].score]')
    run 0 play --game luxor --players "$players" $variant --script "$name.txt" --json --db luxor.sqlite
    expect "luxor $players$variant: the script replays to the same scores" \
        [ "$(printf '%s' "$out" | jq -c '[.seats[].score]')" = "$random_scores" ]
    expect "luxor $players$variant: finished" [ "$(printf '%s' "$out" | jq .finished)" = true ]
done
run 0 play --game luxor --players 4 --curse --random 5 --json
expect "luxor json: seats with colour, score, rank, sarcophagi, unvalued" \
    [ "$(printf '%s' "$out" | jq '[.seats[] | has("colour") and has("score") and has("rank") and has("sarcophagi") and has("unvalued")] | all')" = true ]
expect "luxor json: the variants" [ "$(printf '%s' "$out" | jq -c '[.curse, .sphinx, .tile_pairs]')" = '[true,false,false]' ]
expect "luxor json: every value entered by the end" [ "$(printf '%s' "$out" | jq '[.seats[].unvalued] | add')" = 0 ]
expect "luxor json: default colours" [ "$(printf '%s' "$out" | jq -c '[.seats[].colour]')" = '["red","blue","green","yellow"]' ]

cat >lx-part.txt <<'LUXOR'
pillars camel mule snake hippo ibis crocodile cat
red: drop 1 camel< mule>
blue: drop 2 camel< hippo>, camel+   # the two camels look the same way: blue may take the pillar
drop 3 hippo> mule<, mule   # the hippo pair is left out, and there is no mule pair
LUXOR
run 2 play --game luxor --players 3 --curse --script lx-part.txt --db lx-cut.sqlite
expect "luxor: a missing pair named" contains "$err" "lx-part.txt:4: drop 3 hippo> mule<, mule: this drop makes the pairs hippo x1"
expect "luxor: the game stays open" contains "$out" "stays open"
expect "luxor: running scores printed per line" contains "$out" "blue: drop 2 camel< hippo>, camel+"
printf 'drop 3 hippo> mule<, hippo+\ngreen: drop 4 cat< cat>\n' >lx-rest.txt
run 2 play --resume 1 --db lx-cut.sqlite --script lx-rest.txt
expect "luxor: the resumed game checks the prefix" contains "$err" "it is red's turn, not green's"
run 0 show 1 --db lx-cut.sqlite
expect "luxor: the resumed line archived" contains "$out" "drop 3 hippo> mule<, hippo+"
expect "luxor: the curse option kept in the archive" \
    [ "$(sqlite3 lx-cut.sqlite "SELECT options FROM games WHERE id = 1" | jq .curse)" = true ]
printf 'pillars camel mule snake hippo ibis crocodile cat\ncurse camel mule snake\n' >lx-curse.txt
run 2 play --game luxor --players 2 --script lx-curse.txt --db lx-x.sqlite &&
    expect "luxor: a curse round without the variant" contains "$err" "Curse of the Pharaoh"
run 2 play --game expedition-luxor --players 2 --curse && expect "a flag of another game" contains "$err" "Expedition Luxor has no --curse"
run 2 play --game luxor --players 2 --expansion && expect "luxor has no expansion" contains "$err" "Luxor has no --expansion"

# ---- Expéditions ----
for players in 2 3 4 5 6; do
    seed=$((players * 13))
    run 0 play --game expeditions --players "$players" --random "$seed"
    printf '%s\n' "$out" >"ex-$players.txt"
    run 0 play --game expeditions --players "$players" --random "$seed" --json
    random_scores=$(printf '%s' "$out" | jq -c '[.seats[].score]')
    run 0 play --game expeditions --players "$players" --script "ex-$players.txt" --json --db ex.sqlite
    expect "expeditions $players: the script replays to the same scores" \
        [ "$(printf '%s' "$out" | jq -c '[.seats[].score]')" = "$random_scores" ]
    expect "expeditions $players: finished" [ "$(printf '%s' "$out" | jq .finished)" = true ]
done
expect "expeditions json: seats with cards laid, in hand, tokens recovered, tickets" \
    [ "$(printf '%s' "$out" | jq '[.seats[] | has("cards_laid") and has("in_hand") and has("tokens_recovered") and has("tickets")] | all')" = true ]
expect "expeditions json: the board" [ "$(printf '%s' "$out" | jq -r .board)" = stand-in-world-1 ]
expect "expeditions: the board kept in the archive" \
    [ "$(sqlite3 ex.sqlite "SELECT options FROM games WHERE id = 1" | jq -r .board)" = stand-in-world-1 ]
expect "expeditions: default colours" \
    [ "$(printf '%s' "$out" | jq -c '[.seats[].colour]')" = '["green","purple","orange","black","white","pink"]' ]

# the rule book's example, steps 1-5 (Philippe green, Morgane purple, Bernard orange, Charles black)
run 0 play --game expeditions --players 4 --names Philippe,Morgane,Bernard,Charles \
    --script "$fixtures/games/expeditions-book-example.txt" --db ex-book.sqlite --json
expect "expeditions: the book's example scores" [ "$(printf '%s' "$out" | jq -c '[.seats[].score]')" = '[-11,-13,-9,-12]' ]
expect "expeditions: the book's example tickets" [ "$(printf '%s' "$out" | jq -c '[.seats[].tickets]')" = '[2,3,2,2]' ]
expect "expeditions: Bernard has his Harappa token back" [ "$(printf '%s' "$out" | jq '.seats[2].tokens_recovered')" = 1 ]
run 0 show 1 --db ex-book.sqlite
expect "expeditions: the turn archived in the notation" contains "$out" "ticket remove red, red petra, green claims petra"

grep -v '^#' "$fixtures/games/expeditions-book-example.txt" | head -18 >ex-part.txt
printf 'purple: red b1, red babylon\n' >>ex-part.txt
run 2 play --game expeditions --players 4 --script ex-part.txt --db ex-cut.sqlite
expect "expeditions: a missing segment named" contains "$err" "ex-part.txt:19: red babylon: no segment joins b1 and babylon"
expect "expeditions: the game stays open" contains "$out" "stays open"
printf 'purple: red b1, red caspian-sea\nred babylon, ticket red harappa\n' >ex-rest.txt
run 0 play --resume 1 --db ex-cut.sqlite --script ex-rest.txt
expect "expeditions: the resumed turn archived" contains "$out" "orange: red babylon, ticket red harappa"
jq '.id = "another-map"' "$fixtures/boards/expeditions-world.json" >other-map.json
run 2 play --resume 1 --db ex-cut.sqlite --board other-map.json --script ex-rest.txt
expect "expeditions: resume checks the board" contains "$err" "played on board stand-in-world-1, not another-map"
run 0 play --game expeditions --players 2 --board other-map.json --random 3 --json
expect "expeditions: --board reads another map" [ "$(printf '%s' "$out" | jq -r .board)" = another-map ]
printf '{"format": "tablescribe-board", "version": 1' >broken-map.json
run 2 play --game expeditions --players 2 --board broken-map.json
expect "expeditions: a broken board file named" contains "$err" "broken-map.json"
run 2 play --game expeditions --players 2 --board missing-map.json
expect "expeditions: a missing board file named" contains "$err" "missing-map.json"
run 2 play --game luxor --players 2 --board other-map.json
expect "expeditions: --board is for games on a board file" contains "$err" "Luxor is not played on a board file"
run 2 play --game expeditions --players 2 --colours red,green
expect "expeditions: a seat may not be an expedition's colour" contains "$err" "yellow, red and blue name the expeditions"
run 2 play --game expeditions --players 1
expect "expeditions: 2 to 6 players" contains "$err" "2 to 6"

# ---- Odyssée-land ----
for adventure in 1 2 3 4 5 6; do
    players=$((2 + adventure % 3))
    seed=$((adventure * 7))
    run 0 play --game odysseeland --players "$players" --adventure "$adventure" --random "$seed"
    printf '%s\n' "$out" >"od-$adventure.txt"
    expect "odysseeland $adventure: the script names its adventure" contains "$out" "--adventure $adventure"
    run 0 play --game odysseeland --players "$players" --adventure "$adventure" --random "$seed" --json
    random_scores=$(printf '%s' "$out" | jq -c '[.seats[].score]')
    run 0 play --game odysseeland --players "$players" --adventure "$adventure" \
        --script "od-$adventure.txt" --json --db od.sqlite
    expect "odysseeland $adventure: the script replays to the same scores" \
        [ "$(printf '%s' "$out" | jq -c '[.seats[].score]')" = "$random_scores" ]
    expect "odysseeland $adventure: finished" [ "$(printf '%s' "$out" | jq .finished)" = true ]
    expect "odysseeland $adventure: the adventure in the summary" \
        [ "$(printf '%s' "$out" | jq .adventure)" = "$adventure" ]
done
expect "odysseeland json: adventurers, companions, creatures, gold per seat" \
    [ "$(printf '%s' "$out" | jq -c '.seats[0] | keys')" = '["adventurers","colour","companions","creatures","gold","rank","score"]' ]
expect "odysseeland: the stand-in board" [ "$(printf '%s' "$out" | jq -r .board)" = odysseeland-standin ]
grep -v '^#' od-3.txt | head -6 >od-part.txt
printf 'turn A1, turn A1\n' >>od-part.txt
run 2 play --game odysseeland --players 2 --adventure 3 --script od-part.txt --db od-cut.sqlite
expect "odysseeland: a card turned twice named with its line" contains "$err" "od-part.txt:7"
expect "odysseeland: the game stays open" contains "$out" "stays open"
run 0 play --resume "$(sqlite3 od-cut.sqlite 'select max(id) from games')" --db od-cut.sqlite --json </dev/null
expect "odysseeland: resume keeps the adventure" [ "$(printf '%s' "$out" | jq .adventure)" = 3 ]
run 2 play --game odysseeland --players 2 --adventure 7
expect "odysseeland: adventures 1 to 6" contains "$err" "--adventure 7"
run 2 play --game luxor --players 2 --adventure 2
expect "odysseeland: --adventure is for Odyssée-land" contains "$err" "Luxor has no adventures"
run 2 play --game odysseeland --players 2 --adventure 1 --colossal
expect "odysseeland: the colossal giant is adventure 4's" contains "$err" "adventure 4"
run 2 play --game odysseeland --players 5
expect "odysseeland: 2 to 4 players" contains "$err" "2 to 4"
printf 'setup A1\n' >od-short.txt
run 2 play --game odysseeland --players 2 --script od-short.txt --db od-short.sqlite
expect "odysseeland: the setup's 8 cards" contains "$err" "8 and one more per fog card"

# ---- bad usage ----
run 2 play && expect "needs a game" contains "$err" "--game"
run 2 play --game chess --players 2 && expect "unknown game listed" contains "$err" "expedition-luxor"
run 2 play --game expedition-luxor --players 5 && expect "player range" contains "$err" "2 to 4"
run 2 play --game expedition-luxor --players 2 --colours red && expect "colour count" contains "$err" "1 colours for 2 players"
run 2 play --game expedition-luxor --players 2 --colours red,red --db x.sqlite && expect "repeated colour" contains "$err" "two seats are red"
run 2 play --game expedition-luxor --players 2 --script missing.txt --db x.sqlite && expect "missing script named" contains "$err" "missing.txt"
run 2 play --game expedition-luxor --players 2 --random -4 && expect "seed checked" contains "$err" "--random"
run 2 play --resume 9 --players 2 && expect "resume takes the archive's players" contains "$err" "from the archive"

printf '%d passed, %d failed\n' "$passed" "$failed"
[ "$failed" -eq 0 ]
