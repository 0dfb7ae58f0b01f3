#!/bin/sh
# bench_coldframe.sh: the explorer's first frames on a big run with a cold page cache
# (`make bench`; issue 15, progressive first frame: the partial Overview with data
# within 0.5 s). Run: 1,024 rank dirs x 10,000 steps; each rank's steps.jsonl is a hard
# link to one of 64 gen_demo ranks (3.7 GB as read, 220 MB on disk), each run.json its
# own (rank k, world_size 1024), so every rank dir is listed and every run.json read.
# Command, in a tmux session of 120x30:
#   tscope-tui --tui --no-index --jobs 2 RUN
# with the page cache dropped before each run (`sync; echo 3 > /proc/sys/vm/drop_caches`:
# root only; otherwise the figures are warm and say so). Measured: wall seconds from
# send-keys to the first capture (every ~10 ms) that shows the loading screen, the
# "listing" state, and the partial Overview's "step time  partial" line (a rank parsed
# and digested); then q. Wall time, since a cold cache is about waiting for the disk;
# the load average is printed with each figure. Nothing is asserted.
# Environment: BENCH_COLD_RUNS (default 5), BENCH_COLD_RANKS (1024), BENCH_COLD_STEPS
# (10000), BENCH_COLD_ARGS (default --no-index), BENCH_KEEP=1 keeps the run.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$PWD/$BUILD/tscope-tui}
command -v tmux >/dev/null 2>&1 || { echo "bench_coldframe: tmux is not installed: skipped"; exit 0; }
ranks=${BENCH_COLD_RANKS:-1024} steps=${BENCH_COLD_STEPS:-10000} runs=${BENCH_COLD_RUNS:-5}
args=${BENCH_COLD_ARGS:---no-index}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-cold.XXXXXX")
sock=cold-$$
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'tmux -L $sock kill-server 2>/dev/null; rm -rf "$dir"' EXIT
"$BUILD/tests/gen_demo" "$dir/base" 64 "$steps" >/dev/null || exit 1
python3 - "$dir/run" "$ranks" "$dir/base" <<'PY' || exit 1
import json, os, sys
run, n, base = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.mkdir(run)
for k in range(n):
    d = "%s/rank%d" % (run, k)
    os.mkdir(d)
    os.link("%s/rank%d/steps.jsonl" % (base, k % 64), "%s/steps.jsonl" % d)
    meta = json.load(open("%s/rank%d/run.json" % (base, k % 64)))
    meta["rank"], meta["world_size"] = k, n
    json.dump(meta, open("%s/run.json" % d, "w"))
PY
cache=cold
[ "$(id -u)" = 0 ] || { cache=warm; echo "not root: the page cache cannot be dropped, figures are WARM"; }
since() { printf '%.2f' "$(echo "$(date +%s.%N) - $1" | bc -l)"; }
printf '%-5s %8s %8s %8s   %s\n' cache frame listing partial "load average"
tmux -L $sock -f /dev/null new-session -d -s m -x 120 -y 30 sh || { echo "tmux cannot start"; exit 0; }
i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	tmux -L $sock send-keys -t m "clear" Enter
	sleep 0.5
	[ $cache = cold ] && { sync; echo 3 >/proc/sys/vm/drop_caches; }
	t0=$(date +%s.%N)
	tmux -L $sock send-keys -t m "'$BIN' --tui $args --jobs 2 '$dir/run'" Enter
	frame=- list=- part=-
	while [ "$(echo "$(date +%s.%N) - $t0 < 30" | bc -l)" = 1 ]; do
		scr=$(tmux -L $sock capture-pane -p -t m)
		now=$(since "$t0")
		[ "$frame" = - ] && echo "$scr" | grep -q "Overview (loading" && frame=$now
		[ "$list" = - ] && echo "$scr" | grep -q "listing" && list=$now
		echo "$scr" | grep -qE "step time +partial" && { part=$now; break; }
		sleep 0.01
	done
	tmux -L $sock send-keys -t m q
	printf '%-5s %8s %8s %8s   %s\n' $cache "$frame" "$list" "$part" "$(cut -d' ' -f1-3 /proc/loadavg)"
	sleep 1
done
echo "command: tscope-tui --tui $args --jobs 2 RUN ($ranks rank dirs x $steps steps), in tmux 120x30"
echo "bench: sh tests/bench_coldframe.sh   (BENCH_COLD_RANKS / BENCH_COLD_STEPS for a smaller run)"
