#!/bin/sh
# bench_follow_keys.sh: how long a key waits while the explorer follows a big run and
# catches its held analyses up (issue 15; ui/app_follow.c, model/steps/analysis_recompute.c).
#   sh tests/bench_follow_keys.sh RUN [SECS]
# RUN: an existing pytscope run dir (e.g. `gen_demo RUN 1024 20000`, indexed), kept; a
# writer appends one step per second to every rank meanwhile. The explorer
# (`tscope-tui --follow --interval 1 RUN`, tmux 160x50) shows the Ranks pane; for SECS
# seconds (default 300) j / k are sent at random gaps of 0.5-4 s and each key's latency
# is the wall time until the cursor row on screen changed (capture-pane every 0.02 s).
# Prints the key count, median, p90, max and how many took over 0.25 s, and how many
# were sent while the status row said "updating" (the catch-up on the worker).
# TSCOPE_BIN picks the binary (compare two builds on the same run); FOLLOW_ARGS adds
# options (--no-index: two builds of other index versions on one run).
set -u
cd "$(dirname "$0")/.."
RUN=$1 SECS=${2:-300}
BIN=${TSCOPE_BIN:-$PWD/build/tscope-tui}
writer="$PWD/tests/tools/follow_writer.sh"
sock="tscope-bench-keys-$$"
wpid=
lat=$(mktemp)
cleanup() { [ -n "$wpid" ] && kill "$wpid" 2>/dev/null; tmux -L "$sock" kill-server 2>/dev/null; rm -f "$lat"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
N=$(ls -d "$RUN"/rank* | wc -l)
INIT=$(wc -l <"$RUN/rank0/steps.jsonl")
echo "machine load: $(cut -d' ' -f1-3 /proc/loadavg) (1/5/15 min), $(nproc) cores; $N ranks x $INIT steps; $BIN ${FOLLOW_ARGS:-}"
sh "$writer" "$RUN" "$N" "$INIT" 100000000 1 &
wpid=$!
tmux -L "$sock" -f /dev/null new-session -d -s k -x 160 -y 50 "'$BIN' --follow --interval 1 ${FOLLOW_ARGS:-} '$RUN'"
cap() { tmux -L "$sock" capture-pane -p -t k; }
row() { cap | grep -oE "ranks +row [0-9]+/" | head -1; }
i=0
while ! cap | grep -q "LIVE" && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
tmux -L "$sock" send-keys -t k 3
i=0
while [ -z "$(row)" ] && [ $i -lt 3000 ]; do sleep 0.1; i=$((i + 1)); done
echo "Ranks shown; keys for $SECS s"
end=$(($(date +%s) + SECS))
key=j
while [ "$(date +%s)" -lt "$end" ]; do
	sleep "$(awk -v s="$(date +%N)" 'BEGIN { srand(s); printf "%.2f", 0.5 + rand() * 3.5 }')"
	before=$(row)
	upd=0
	cap | grep -q "updating" && upd=1
	t0=$(date +%s.%N)
	tmux -L "$sock" send-keys -t k "$key"
	while [ "$(row)" = "$before" ]; do sleep 0.02; done
	t1=$(date +%s.%N)
	echo "$t0 $t1 $upd" | awk '{ printf "%.3f %d\n", $2 - $1, $3 }' >>"$lat"
	[ "$key" = j ] && key=k || key=j
done
sort -n "$lat" | awk '{ v[NR] = $1; u += $2; slow += $1 > 0.25 } END {
	printf "%d keys: median %.3f s, p90 %.3f s, max %.3f s; %d over 0.25 s; %d sent while updating\n",
	       NR, v[int((NR + 1) / 2)], v[int(NR * 0.9 + 0.5)], v[NR], slow, u }'
