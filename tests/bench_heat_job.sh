#!/bin/sh
# bench_heat_job.sh: `m` to a heatmap metric that the index summary does not hold, at
# 10,000 ranks x 100,000 steps (issue 15): computed off the UI thread
# (model/steps/heat_job.c), in 64-step blocks there. The explorer runs in tmux (200x50)
# on an index generated as tests/bench_browse.sh does (gen_demo template of
# BENCH_BROWSE_TEMPLATE ranks, gen_index copies to BENCH_BROWSE_RANKS ranks); or on
# BENCH_HEAT_JOB_RUN, an indexed run dir you have. Measured from /proc: the explorer's CPU
# seconds (user+sys) for the whole computation, its peak RSS (VmHWM) before and after,
# and per key (TSCOPE_KEYTIME: CPU and wall ms from key to frame) the `m` that starts it
# and keys pressed while it runs; then `m` again (another metric) and leaving the pane
# (3), after which the CPU stays flat (the build stopped).
# Opt-in: BENCH_INDEX_HUGE=1 (generates ~1.5 GB of template JSONL, deleted, and ~0.3 GB
# of index under BENCH_BROWSE_DIR, default a temp dir removed at the end) or
# BENCH_HEAT_JOB_RUN=DIR.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
command -v tmux >/dev/null 2>&1 || { echo "bench_heat_job: tmux is not installed, skipped"; exit 0; }
run=${BENCH_HEAT_JOB_RUN:-}
if [ -z "$run" ]; then
	[ "${BENCH_INDEX_HUGE:-0}" = 1 ] || { echo "bench_heat_job: opt-in, skipped (BENCH_INDEX_HUGE=1 or BENCH_HEAT_JOB_RUN=DIR)"; exit 0; }
	dir=${BENCH_BROWSE_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tscope-heatjob.XXXXXX")}
	[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
	"$BUILD/tests/gen_demo" "$dir/tmpl" "${BENCH_BROWSE_TEMPLATE:-40}" "${BENCH_BROWSE_STEPS:-100000}" >/dev/null &&
		"$BUILD/tests/gen_index" "$dir/tmpl" "$dir/run" "${BENCH_BROWSE_RANKS:-10000}" --placeholder >/dev/null || exit 1
	rm -rf "$dir/tmpl"
	run="$dir/run"
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/tscope-heatjob-w.XXXXXX")
sock="heatjob-$$"
T() { tmux -L "$sock" "$@"; }
trap 'T kill-server 2>/dev/null; rm -rf "$work"; [ -n "${dir:-}" ] && [ "${BENCH_KEEP:-0}" != 1 ] && rm -rf "$dir"' EXIT
bin_abs="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
T -f /dev/null new-session -d -s h -x 200 -y 50 \
	"env TERM=xterm-256color LC_ALL=C.UTF-8 TSCOPE_KEYTIME=$work/keys sh -c 'echo \$\$ >$work/pid; exec \"$bin_abs\" --tui \"$run\"'"
screen_has() { T capture-pane -p -t h 2>/dev/null | grep -q -- "$1"; }
wait_screen() {   # TEXT [SECONDS]
	i=0
	while ! screen_has "$1"; do
		i=$((i + 1))
		[ $i -gt $((${2:-120} * 10)) ] && { echo "bench_heat_job: no '$1' on the screen"; T capture-pane -p -t h; exit 1; }
		sleep 0.1
	done
}
nkeys() { [ -f "$work/keys" ] && wc -l <"$work/keys" || echo 0; }
key() {   # send one key, wait for its frame line in TSCOPE_KEYTIME
	n=$(nkeys)
	T send-keys -t h "$1"
	i=0
	while [ "$(nkeys)" -le "$n" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
}
cpu() { awk '{ printf "%.2f", ($14 + $15) / 100 }' "/proc/$(cat "$work/pid")/stat"; }
hwm() { awk '/VmHWM/ { printf "%.0f", $2 / 1024 }' "/proc/$(cat "$work/pid")/status"; }
rss() { awk '/VmRSS/ { printf "%.0f", $2 / 1024 }' "/proc/$(cat "$work/pid")/status"; }
wait_screen "compute: " 300
echo "run: $run; load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "first frame: $(cpu) CPU s, peak RSS $(hwm) MB"
key m
wait_screen "slowdown vs step median: "
c0=$(cpu)
t0=$(date +%s.%N)
key m
wait_screen "computing step time"
echo "m (step time): $(tail -1 "$work/keys" | awk '{ printf "%s ms CPU, %s ms wall", $2, $3 }')"
for k in j j j l l l k k h h; do key $k; done
echo "10 keys while it computes (CPU ms, wall ms):"
tail -10 "$work/keys" | awk '{ printf "  %s %s %s\n", $1, $2, $3 }'
wait_screen "'step time' computed" 3600
c1=$(cpu)
t1=$(date +%s.%N)
echo "step time computed: $(awk -v a="$c0" -v b="$c1" 'BEGIN { printf "%.1f", b - a }') CPU s," \
	"$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s wall; peak RSS $(hwm) MB, RSS now $(rss) MB"
T capture-pane -p -t h | grep "step time: " | sed 's/^/  note: /'
key m
wait_screen "computing comm"
key 3
sleep 1
a=$(cpu)
sleep 3
b=$(cpu)
echo "comm started, pane left (3): CPU over the next 3 s $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", b - a }') s (the build stopped)"
echo "peak RSS at the end: $(hwm) MB; load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
T send-keys -t h Q
echo "command: BENCH_INDEX_HUGE=1 sh tests/bench_heat_job.sh   (or BENCH_HEAT_JOB_RUN=DIR)"
