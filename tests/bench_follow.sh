#!/bin/sh
# bench_follow.sh (`make bench`): the cost of following a running job. A writer
# (tests/tools/follow_writer.sh) appends one step per second to each of N ranks (default
# 1,024) after INIT initial steps (default 100; written by tests/tools/gen_demo); tscope-tui --follow --interval 1 follows it:
#   1. without a tty (one line per new finding): CPU seconds over SECS s of steady state;
#   2. the explorer in tmux on the Heatmap pane (the default), then on the Ranks pane;
#   3. the time from a record written to it on screen (Ranks pane, the first row's last_step),
#      sampled with tmux capture-pane every 0.05 s.
#   4. (FOLLOW_PART=open: this part alone) the open after follow deltas: on an indexed
#      run (FOLLOW_OPEN_RUN, an existing run dir: indexed first when it has no index;
#      else gen_demo FOLLOW_RANKS x FOLLOW_OPEN_STEPS, default 2,000), tests/tools/
#      bench_delta appends 60 steps to every rank twice, each time a delta and its summary
#      delta (CPU s, bytes); then the next open twice, `--export sources` and `--print`
#      (CPU s and peak RSS, /usr/bin/time).
# CPU is user+sys of the tscope-tui process from /proc/PID/stat (not wall time); the
# writer's own CPU is not counted. Environment: FOLLOW_RANKS, FOLLOW_SECS, FOLLOW_INIT,
# FOLLOW_SAMPLES (latency samples, at most 300 s of them), FOLLOW_WARMUP (seconds before
# each CPU window, default 10: the initial load and first analyses must be over; a
# 1,024 x 20,000 run needs about 60), FOLLOW_RUN (an existing run dir from an earlier
# run of this script, kept: the writer continues after rank0's last line).
set -u
cd "$(dirname "$0")/.."
N=${FOLLOW_RANKS:-1024} SECS=${FOLLOW_SECS:-60} INIT=${FOLLOW_INIT:-100} SAMPLES=${FOLLOW_SAMPLES:-20}
WARMUP=${FOLLOW_WARMUP:-10} RUN=${FOLLOW_RUN:-}
BIN=${TSCOPE_BIN:-$PWD/build/tscope-tui}
writer="$PWD/tests/tools/follow_writer.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/tscope-bench-follow.XXXXXX")
sock="tscope-bench-follow-$$"
wpid=
cleanup() { [ -n "$wpid" ] && kill "$wpid" 2>/dev/null; tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
hz=$(getconf CLK_TCK)
cpu() { awk -v hz="$hz" '{ printf "%.3f\n", ($14 + $15) / hz }' "/proc/$1/stat"; }
[ -n "$RUN" ] || RUN="$work/run"

# the open after follow deltas (part 4)
open_after_follow() {
	orun=${FOLLOW_OPEN_RUN:-$work/open}
	gen="$PWD/${TSCOPE_BUILD:-build}/tests/gen_demo"
	[ -d "$orun" ] || "$gen" "$orun" "$N" "${FOLLOW_OPEN_STEPS:-2000}" >/dev/null || return 1
	[ -d "$orun/.tscope-index" ] || "$BIN" index "$orun" >/dev/null 2>&1
	echo "open after follow deltas: $orun, load $(cut -d' ' -f1-3 /proc/loadavg)"
	echo "command: BENCH_DELTA_KEEP=1 ${TSCOPE_BUILD:-build}/tests/bench_delta RUN 60 2"
	BENCH_DELTA_KEEP=1 "$PWD/${TSCOPE_BUILD:-build}/tests/bench_delta" "$orun" 60 2 | grep -v '^open'
	for what in "--export sources" "--print" "--export sources" "--print"; do
		/usr/bin/time -f '%U %S %M' -o "$work/open.t" "$BIN" $what "$orun" >/dev/null 2>&1
		awk -v w="$what" '{ printf "open after the deltas, %s: %.2f CPU s, %.0f MB peak RSS\n", w, $1 + $2, $3 / 1024 }' \
			"$work/open.t"
	done
}
if [ "${FOLLOW_PART:-all}" = open ]; then
	open_after_follow
	exit $?
fi
lines() { wc -l <"$RUN/rank0/steps.jsonl"; }

echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min), $(nproc) cores"
if [ -d "$RUN/rank0" ]; then
	INIT=$(lines)
	echo "continuing $RUN at step $INIT"
else
	echo "writing $INIT initial steps to $N ranks ..."
	gen="$PWD/${TSCOPE_BUILD:-build}/tests/gen_demo"
	if [ -x "$gen" ]; then   # fast: the demo generator's records (then the writer's)
		"$gen" "$RUN" "$N" "$INIT" >/dev/null
	else
		sh "$writer" "$RUN" "$N" 0 $((INIT - 1)) 0
	fi
fi
sh "$writer" "$RUN" "$N" "$INIT" 100000000 1 &
wpid=$!

# measure PID LABEL: CPU over SECS s after WARMUP s
measure() {
	sleep "$WARMUP"
	c0=$(cpu "$1") l0=$(lines)
	sleep "$SECS"
	c1=$(cpu "$1") l1=$(lines)
	awk -v c="$(awk -v a="$c1" -v b="$c0" 'BEGIN { print a - b }')" -v s="$SECS" -v n="$N" -v st=$((l1 - l0)) -v lab="$2" 'BEGIN {
		printf "%s: %.2f CPU s in %d s = %.2f%% of one core (%d ranks, %.2f steps/s/rank written)\n",
		       lab, c, s, 100 * c / s, n, st / s }'
}

echo "command: $BIN --follow --interval 1 RUN >/dev/null   (no tty)"
"$BIN" --follow --interval 1 "$RUN" >"$work/lines.out" 2>/dev/null &
fpid=$!
measure "$fpid" "follow, no tty"
kill -INT "$fpid"
wait "$fpid" 2>/dev/null

if ! command -v tmux >/dev/null 2>&1; then
	echo "tmux not installed: explorer figures skipped"
	exit 0
fi
echo "command: $BIN --follow --interval 1 RUN   (explorer in tmux, 160x50)"
tmux -L "$sock" -f /dev/null new-session -d -s b -x 160 -y 50 \
	"env TERM=xterm-256color LC_ALL=C.UTF-8 '$BIN' --follow --interval 1 '$RUN'"
tpid=$(tmux -L "$sock" list-panes -t b -F '#{pane_pid}')
measure "$tpid" "explorer, Heatmap pane"
tmux -L "$sock" send-keys -t b 3
measure "$tpid" "explorer, Ranks pane"

# latency: the first row's last_step changes on screen; compare with the record's timestamp
# the first rank row's last_step (Ranks may group ranks by node: any rank will do, the
# writer stamps one step of every rank with one timestamp)
shown() { tmux -L "$sock" capture-pane -p -t b | awk 'NR > 2 && ($1 ~ /^[0-9]+$/ || $1 == "▶") { print ($1 == "▶") ? $4 : $3; exit }'; }
prev=$(shown) k=0 all= end=$(($(date +%s) + 300))
while [ "$k" -lt "$SAMPLES" ] && [ "$(date +%s)" -lt "$end" ]; do
	s=$(shown)
	if [ -n "$s" ] && [ "$s" != "$prev" ]; then
		now=$(date +%s.%N)
		ts=$(tail -n 2000 "$RUN/rank0/steps.jsonl" | grep -m1 "\"step\":$s," | sed 's/.*"timestamp":\([0-9.]*\).*/\1/')
		all="$all $(awk -v a="$now" -v b="$ts" 'BEGIN { printf "%.3f", a - b }')"
		prev=$s k=$((k + 1))
	fi
	sleep 0.05
done
echo "$all" | tr ' ' '\n' | sed '/^$/d' | sort -n | awk '{ v[NR] = $1 } END {
	printf "written -> on screen (Ranks pane, %d samples, interval 1 s): min %.2f s, median %.2f s, max %.2f s\n",
	       NR, v[1], v[int((NR + 1) / 2)], v[NR] }'
tmux -L "$sock" kill-server 2>/dev/null
kill "$wpid" 2>/dev/null
wpid=
open_after_follow
