#!/bin/sh
# follow_tmux.sh: following a running job in the explorer, end to end in tmux. A writer
# process (tests/tools/follow_writer.sh) appends to 8 ranks while `tscope-tui --follow`
# shows the Ranks pane: the record count grows on screen, rank 3 (which stops writing)
# is marked stalled in Ranks and in the heatmap, a truncated-then-rewritten file is
# reloaded with a message, q exits 0; a job whose ranks stop together and have their
# run.json with n_steps (the finish marker) ends "finished" with no stall, and quitting
# appends what was followed to the run's index (the reopen reads it, nothing from the
# JSONL); ranks stopped together with no run.json are "idle", never finished; a stopped
# job with a rank that wrote no record is
# stalled, not finished; there a file that can no longer be read shows "unreadable" in
# Sources, and R after a trace was written says the trace is not read (a reopen reads
# it). --follow refused (a trace set): exit 2, the terminal restored (`stty -a` as before,
# the main screen) and the usage error on the shell's screen. Waits are bounded (60 s);
# nothing asserts a duration. Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/follow_tmux.$$"
# the records column of rank $1 in the Ranks pane
records() { snap; awk -v r="$1" '$1 == r || ($1 == "▶" && $2 == r) { print ($1 == "▶") ? $3 : $2; exit }' "$work/screen"; }

# --- a running job: rank 3 stops at step 20 --------------------------------------------
follow_start "$work" 4 20
tap_check "--follow opens live; the status row says so" 'wait_re "LIVE running.*newest record [0-9]+ s ago"'
T send-keys -t f 3
wait_re "^ *(▶ +)?0 +[0-9]{2,} " >/dev/null
a=$(records 0)
wait_re "^ *(▶ +)?0 +$((a + 5))" >/dev/null
b=$(records 0)
tap_check "the record count of rank 0 grows on screen ($a, then $b)" '[ -n "$a" ] && [ -n "$b" ] && [ "$b" -gt "$a" ]'
tap_check "rank 3 is marked stalled in Ranks at step 20" 'wait_re "^ +3 +21 +20 stalled"'
tap_check "the status row counts the stalled rank" 'wait_re "LIVE running, 1 stalled"'
T send-keys -t f 2
tap_check "the heatmap marks rank 3's row with !" 'wait_re "^ *!3( |$)"'
T send-keys -t f 3
: >run/rank5/steps.jsonl
tap_check "a truncated-then-rewritten file is reloaded, and it says so" 'wait_re "rank 5: steps.jsonl shrank .*reloaded from the start"'
T send-keys -t f 6
tap_check "the Findings pane lists LIVE.STALLED_RANK" 'wait_re "LIVE.STALLED_RANK"'
T send-keys -t f 4
wait_re "rank [0-9] \([0-9] of 8\)" >/dev/null
T send-keys -t f ":rank 5" Enter
wait_re "rank 5 \(6 of 8\)" >/dev/null
r1=$(grep -oE "rank [0-9] \([0-9] of 8\)" "$work/screen" | head -1)
sleep 1   # several polls (every 0.2 s) while the writer appends
snap
r2=$(grep -oE "rank [0-9] \([0-9] of 8\)" "$work/screen" | head -1)
tap_check "the Steps pane stays on the rank chosen with :rank 5 while data grows" '[ "$r1" = "rank 5 (6 of 8)" ] && [ "$r1" = "$r2" ]'
follow_quit q
tap_eq "q exits 0" "EXIT=0" "$(cat exit.txt 2>/dev/null)"

# --- a job whose ranks stop together: finished, not stalled -------------------------------
rm -f exit.txt
sh "$follow_writer" fin 8 0 4 0
for r in 0 1 2 3 4 5 6 7; do   # the finish marker before the index (one written while following makes it stale)
	printf '{"rank": %d, "world_size": 8, "n_steps": 31}' $r >fin/rank$r/run.json
done
"$TSCOPE_BIN" index fin >/dev/null 2>&1
T send-keys -t f "clear; '$TSCOPE_BIN' --follow --interval 0.2 --stall 3 fin; echo EXIT=\$? > exit.txt" Enter
wait_re "LIVE" >/dev/null
T send-keys -t f 3
sh "$follow_writer" fin 8 5 30 0.05
tap_check "the job ends \"finished\"" 'wait_re "LIVE finished"'
tap_check "no rank is marked stalled" '! grep -q "stalled" "$work/screen"'
tap_check "every rank shows step 30" '[ "$(grep -cE "^ *(▶ +)?[0-7] +31 +30 " "$work/screen")" -eq 8 ]'
follow_quit q
tap_eq "q exits 0 after the finish" "EXIT=0" "$(cat exit.txt 2>/dev/null)"
"$TSCOPE_BIN" --export sources fin >fin_src.csv 2>/dev/null
"$TSCOPE_BIN" --export ranks fin >fin_ranks.csv 2>/dev/null
tap_check "q appended what was followed to the index: the reopen uses it whole, 31 records a rank" \
	'! grep -q "grew\|not used" fin_src.csv && [ "$(grep -c "^[0-7],31," fin_ranks.csv)" -eq 8 ]'

# --- ranks stopped together, no run.json (a pause, a crash): idle, never finished ----------
rm -f exit.txt
sh "$follow_writer" id 2 0 10 0
T send-keys -t f "clear; '$TSCOPE_BIN' --no-index --follow --interval 0.2 --stall 1 id; echo EXIT=\$? > exit.txt" Enter
tap_check "ranks stopped together without run.json n_steps: the status row says idle, never finished" \
	'wait_re "LIVE idle, newest record" && ! grep -q "LIVE finished\|stalled" "$work/screen"'
follow_quit q

# --- a stopped job whose rank 3 wrote no record: stalled, not finished ----------------------
rm -f exit.txt
sh "$follow_writer" nr 4 0 10 0
: >nr/rank3/steps.jsonl
T send-keys -t f "clear; '$TSCOPE_BIN' --no-index --follow --interval 0.2 --stall 1 nr; echo EXIT=\$? > exit.txt" Enter
tap_check "a rank with no record: the status row says stalled, never finished" \
	'wait_re "LIVE stalled" && ! grep -q "LIVE finished" "$work/screen"'
T send-keys -t f 6
tap_check "... the Findings pane names the rank" 'wait_re "rank 3 wrote no step record"'
T send-keys -t f 7
wait_re "nr/rank1/steps.jsonl +pytscope +1 .* ok" >/dev/null
mv nr/rank1/steps.jsonl nr/rank1/steps.bak && ln -s steps.jsonl nr/rank1/steps.jsonl   # a loop: ELOOP, even for root
tap_check "a file that can no longer be read: its Sources row says unreadable" \
	'wait_re "nr/rank1/steps.jsonl +pytscope +1 .* unreadable"'
printf '{"traceEvents": []}' >nr/trace.json
T send-keys -t f R
tap_check "a trace written while following: R says it is not read, a reopen reads it" \
	'wait_re "1 trace appeared while following, not read: open the run again to read it"'
follow_quit q

# --- --follow refused (a trace set, written whole): the terminal restored first ------------
rm -f exit.txt
mkdir tr && "$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace" tr/rank0.pt.trace.json 1 0 >/dev/null
T send-keys -t f "clear; stty -a > stty.before; '$TSCOPE_BIN' --follow tr; echo EXIT=\$? > exit.txt; \
stty -a > stty.after" Enter
i=0
while [ ! -s stty.after ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
tap_check "--follow on traces in the explorer: exit 2, the terminal's modes as before (echo, icanon, onlcr)" \
	'grep -q "EXIT=2" exit.txt && cmp -s stty.before stty.after'
tap_check "... the usage error on the shell's screen, the loading screen gone" \
	'wait_for "open them without --follow" && ! grep -q "quits the load" "$work/screen" &&
	 [ "$(T display -p -t f "#{alternate_on}#{cursor_flag}")" = 01 ]'
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
