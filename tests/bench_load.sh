#!/bin/sh
# bench_load.sh: pytscope step-log load benchmark (`make bench`). Generates a 64-rank x
# 20,000-step run (~0.46 GB, 1.28 M records; gen_demo's realistic lines) in a temp dir
# and reports side by side, on the same files in the same run (CPU seconds min / median
# of 3, tests/tools/bench_lib.sh): wc -l, our load only (bench_load; then with each of
# the scanner's structural paths forced, TSCOPE_SIMD=portable|sse2|avx2), `--print --jobs 1`
# end to end (load + every analysis of the report) and --jobs 2, Python json.loads per
# line, orjson when installed; then the per-core ratios and resident bytes per record.
# Targets: >= 1000 MB per CPU second end to end (issue 17), >= 8x Python json.loads,
# <= 48 B per record resident (perf-reliability.md §0). Nothing is asserted.
# The same readers then run on a second run dir written by Python's json.dumps (32 ranks
# x 10,000 steps; the issue's "three scalars and four memory fields" lines).
# Environment: BENCH_RANKS, BENCH_STEPS, BENCH_PY_RANKS, BENCH_PY_STEPS override the
# sizes; BENCH_KEEP=1 keeps the files.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
ranks=${BENCH_RANKS:-64}
steps=${BENCH_STEPS:-20000}
py_ranks=${BENCH_PY_RANKS:-32}
py_steps=${BENCH_PY_STEPS:-10000}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-bench.XXXXXX")
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT

. tests/tools/bench_lib.sh

cat >"$dir/peer_loads.py" <<'PY'
import sys
mod = __import__(sys.argv[1])
loads = mod.loads
for path in sys.argv[2:]:
    with open(path, "rb") as f:
        for line in f:
            line = line.strip()
            if line:
                try:
                    loads(line)
                except ValueError:
                    pass  # orjson rejects NaN / Infinity
PY

# The issue's second shape: lines as Python's json.dumps writes them (", " and ": "
# separators, shortest-repr floats of 16-17 digits), three scalars and four memory
# fields beside the step, timestamp and two phases (105 MB at 32 x 10,000, as in the issue).
cat >"$dir/gen_py.py" <<'PY'
import json, os, random, sys
out, ranks, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(17)
for r in range(ranks):
    d = os.path.join(out, "rank%d" % r)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "steps.jsonl"), "w") as f:
        t = 1795344000.0
        for s in range(steps):
            t += 0.12 + rng.random() * 0.01
            rec = {"step": s, "timestamp": t,
                   "phases": {"forward": 0.03 + rng.random() * 0.002, "backward": 0.06 + rng.random() * 0.004},
                   "scalars": {"loss": 3.4 - s * 1e-4 + rng.random() * 0.01, "grad_norm": 1 + rng.random(),
                               "lr": 6e-06 * min(s + 1, 1000)},
                   "memory": {"alloc": 4294967296 + rng.randrange(1 << 20), "reserved": 6979321856,
                              "peak_alloc": 5553281024 + rng.randrange(1 << 20), "peak_reserved": 6979321856}}
            f.write(json.dumps(rec) + "\n")
PY

# bench_set RUNDIR: every reader side by side on one run dir (hot cache).
bench_set() {
	run=$1
	bytes=$(cat "$run"/rank*/steps.jsonl | wc -c)
	mb=$(echo "$bytes / 1000000" | bc -l)
	printf 'input: %.1f MB, %s files, %s lines; load average before: %s\n' "$mb" \
		"$(ls -d "$run"/rank* | wc -l)" "$(cat "$run"/rank*/steps.jsonl | wc -l)" "$(bench_load_avg)"
	cat "$run"/rank*/steps.jsonl >/dev/null # warm the page cache
	echo
	bench_header "reader (same files, hot cache)"
	bench_cpu3 "$dir" "wc -l" "$mb" sh -c "cat '$run'/rank*/steps.jsonl | wc -l"
	wc_cpu=$BENCH_MED
	bench_cpu3 "$dir" "load only, --jobs 1 (bench_load)" "$mb" "$BUILD/tests/bench_load" "$run" 1
	load_cpu=$BENCH_MED
	for path in portable sse2 avx2; do # the scanner's structural paths (TSCOPE_SIMD)
		bench_cpu3 "$dir" "load only, TSCOPE_SIMD=$path" "$mb" env TSCOPE_SIMD=$path "$BUILD/tests/bench_load" "$run" 1
	done
	bench_cpu3 "$dir" "--print --jobs 1 --no-index (end to end)" "$mb" "$BIN" --print --jobs 1 --no-index "$run"
	print_cpu=$BENCH_MED
	bench_cpu3 "$dir" "--print --jobs 2 --no-index" "$mb" "$BIN" --print --jobs 2 --no-index "$run"
	py_cpu="" oj_cpu=""
	for mod in json orjson; do
		py=$(bench_python $mod)
		if [ -z "$py" ]; then
			echo "python3 $mod.loads per line: $mod not installed, skipped"
			continue
		fi
		bench_cpu1 "$dir" "python3 $mod.loads per line" "$mb" "$py" "$dir/peer_loads.py" $mod "$run"/rank*/steps.jsonl || continue
		if [ $mod = json ]; then py_cpu=$BENCH_MED; else oj_cpu=$BENCH_MED; fi
	done
	echo
	printf 'per core (median CPU s): --print --jobs 1 = %s MB per CPU second (target >= 1000), load only %s; %sx the CPU of wc -l\n' \
		"$(bench_ratio "$mb" "$print_cpu")" "$(bench_ratio "$mb" "$load_cpu")" "$(bench_ratio "$print_cpu" "$wc_cpu")"
	[ -n "$py_cpu" ] && printf 'vs python3 json.loads: %sx (load only), %sx (--print)\n' \
		"$(bench_ratio "$py_cpu" "$load_cpu")" "$(bench_ratio "$py_cpu" "$print_cpu")"
	[ -n "$oj_cpu" ] && printf 'vs orjson: %sx (load only), %sx (--print)\n' \
		"$(bench_ratio "$oj_cpu" "$load_cpu")" "$(bench_ratio "$oj_cpu" "$print_cpu")"
	echo "load average after: $(bench_load_avg)"
}

echo "== gen_demo lines: $ranks ranks x $steps steps in $dir"
"$BUILD/tests/gen_demo" "$dir/run" "$ranks" "$steps" >/dev/null || exit 1
bench_set "$dir/run"
"$BUILD/tests/bench_load" "$dir/run" 1 >"$dir/ours1.txt"
echo "memory (jobs 1): $(sed -n 's/.*\(store_B\/record=[^ ]*\).*\(peak_rss_MB=[^ ]*\) \(rss_after_load_MB=[^ ]*\) \(rss_B\/record=[^ ]*\).*/\1 \2 \3 \4/p' "$dir/ours1.txt" | head -1)"
py=$(bench_python json)
if [ -n "$py" ]; then
	echo
	echo "== json.dumps lines (three scalars, four memory fields, two phases): $py_ranks ranks x $py_steps steps"
	"$py" "$dir/gen_py.py" "$dir/pyrun" "$py_ranks" "$py_steps" || exit 1
	bench_set "$dir/pyrun"
else
	echo "json.dumps lines: no python3, skipped"
fi
echo "command: make bench   (or: sh tests/bench_load.sh; BENCH_RANKS/BENCH_STEPS to resize)"
