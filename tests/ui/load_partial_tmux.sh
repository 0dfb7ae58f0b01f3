#!/bin/sh
# load_partial_tmux.sh: the loading screen is the Overview of what is loaded so far
# (issue 15; model/steps/progress.h, ui/ui.c ui_load_frame). A run of 5 ranks whose
# rank4/steps.jsonl is a named pipe that gets one line, then nothing until the test
# lets it go: ranks 0-3 load (rank 2 is about 1.8x slower), rank 4 holds the load.
# Checked: the run's identity, ranks and steps so far, step time and phase shares
# labelled partial, every run-wide figure "n/a: loading (4 of 5 ranks)", the slow rank
# as a partial finding and no verdict; a key typed during the load is answered on the
# status line and runs when the load ends (the explorer opens on the pane it picked);
# then a second load that q cancels. A third load trickles in (25 lines every 0.5 s): its
# bytes and rate never read 0 ("0.0358 MB · 0.0179 MB/s", not "0 MB · 0.0 MB/s").
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
command -v mkfifo >/dev/null 2>&1 || { tap_skip "mkfifo not installed"; tap_plan; exit 0; }
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/partial.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
"$gen" gen 5 400 >/dev/null && mkdir run && mv gen/rank0 gen/rank1 gen/rank3 run/ &&
	mkdir run/rank2 && cp gen/rank2/run.json run/rank2/ &&
	sed 's/"backward":0\.0/"backward":0.1/' gen/rank2/steps.jsonl >run/rank2/steps.jsonl &&
	mkdir run/rank4 && cp gen/rank4/run.json run/rank4/ && mkfifo run/rank4/steps.jsonl || exit 1
feeder=
feed() {
	rm -f go
	{ head -n 1 gen/rank4/steps.jsonl; while [ ! -f go ]; do sleep 0.1; done; tail -n +2 gen/rank4/steps.jsonl; } \
		>run/rank4/steps.jsonl 2>/dev/null &
	feeder=$!
}
tmux_start partial 120 30 "$work"
trap 'touch "$work/go"; T kill-server 2>/dev/null; [ -n "$feeder" ] && kill $feeder 2>/dev/null; rm -rf "$work"' EXIT
cat >after.sh <<'SH'
echo "rc=$1"
if stty -a | grep -q -e -icanon -e '-echo '; then echo tty-raw; else echo tty-ok; fi
SH
feed
T send-keys -t partial "'$TSCOPE_BIN' --tui --no-index --jobs 1 run; sh after.sh \$?" Enter
# Four ranks loaded and the listing over (the bar shows sizes only once every rank dir is
# listed, and on a loaded machine the discovery thread can lag behind the load).
wait_until 'grep -qE "ranks +4 of 5 ranks loaded *$" "$tmux_screen" && grep -qE "MB of [0-9]+ MB" "$tmux_screen"' 60
scr=$tmux_screen
tap_check "the loading screen is the Overview, with the progress bar" \
	'grep -q "1 Overview (loading run)" "$scr" && grep -qE "Loading .*%" "$scr" && grep -qE "MB of [0-9]+ MB" "$scr"'
tap_check "the run's identity from run.json" \
	'grep -qE "run +demo-ddp" "$scr" && grep -qE "identity +world_size 5, n_steps 400, gpu=" "$scr"'
tap_check "steps and records so far" 'grep -qE "steps +0-399 so far \(longest rank 400 records, 1600 records in all\)" "$scr"'
tap_check "step time of the ranks loaded, labelled partial" \
	'grep -qE "step time +partial, 4 of 5 ranks: median [0-9.]+ ms \(rank medians .* slowest rank 2\)" "$scr"'
tap_check "phase shares of the ranks loaded, labelled partial" 'grep -qE "phases +partial, 4 of 5 ranks: backward" "$scr"'
tap_check "figures that need every rank are n/a while loading" \
	'for k in coverage "run wall" imbalance stragglers budget; do
		grep -qE "$k +n/a: loading \(4 of 5 ranks\)" "$scr" || exit 1
	done'
tap_check "the slow rank is a partial finding, not a straggler verdict" \
	'grep -qE "partial +rank 2: median step [0-9.]+ ms, 1\.[0-9]+x the median of the ranks loaded so far" "$scr"'
tap_check "no verdict is claimed from a partial run" \
	'grep -qE "no verdict +n/a: loading \(4 of 5 ranks\): findings are judged when the load ends" "$scr" &&
	 ! grep -qiE "balanced|no findings|no issue|none \(no rank" "$scr"'
T send-keys -t partial 3
wait_for "(1 queued)"
tap_check "a key during the load is answered on the status line" \
	'grep -q "3 (ranks) waits for the load: it runs when the load ends (1 queued)" "$scr"'
T send-keys -t partial w
wait_for "(2 queued)"
tap_check "a key of no action is kept too (the text of a prompt typed ahead)" \
	'grep -q "w waits for the load: it runs when the load ends (2 queued)" "$scr" && grep -qE "ranks +4 of 5" "$scr"'
touch go
wait_re "ranks +row 1/5 +rank=0"
tap_check "when the load ends the explorer opens on the pane picked during it (3 Ranks)" \
	'! grep -q "loading run" "$scr" && grep -qE "rank +records +mean_compute" "$scr"'
T send-keys -t partial Q
wait_for "tty-"
tap_check "the explorer quits normally" 'grep -q "^rc=0" "$scr"'
wait $feeder 2>/dev/null
T send-keys -t partial "clear" Enter
feed
T send-keys -t partial "'$TSCOPE_BIN' --tui --no-index --jobs 1 run; sh after.sh \$?" Enter
wait_re "ranks +4 of 5 ranks loaded"
T send-keys -t partial q
wait_for "tty-"
tap_check "q during the load cancels it (status 0), though a loader is blocked in a read" \
	'grep -q "tscope-tui: load cancelled" "$scr" && grep -q "^rc=0" "$scr"'
tap_check "the terminal is restored" 'grep -q "^tty-ok" "$scr"'
touch go
wait $feeder 2>/dev/null
mkdir trickle && cp gen/rank4/run.json trickle/ && mkfifo trickle/steps.jsonl || exit 1
{ i=1; while [ $i -lt 400 ]; do sed -n "$i,$((i + 24))p" gen/rank4/steps.jsonl; sleep 0.5; i=$((i + 25)); done; } \
	>trickle/steps.jsonl 2>/dev/null &
feeder=$!
T send-keys -t partial "clear" Enter
T send-keys -t partial "'$TSCOPE_BIN' --tui --no-index trickle; sh after.sh \$?" Enter
wait_re "sources +1 file, [1-9][0-9][0-9]+ records loaded so far"
tap_check "a trickle: the bytes read and the rate never read 0 (3 significant digits)" \
	'grep -qE "Loading +0\.[0-9]+ MB · 0\.[0-9]+ MB/s \(size unknown\)" "$scr" && ! grep -qE " 0 MB| 0\.0 MB/s" "$scr"'
T send-keys -t partial q
wait_for "tty-"
kill $feeder 2>/dev/null
tap_plan
