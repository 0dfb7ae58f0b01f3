# bench_lib.sh: shared helpers for tests/bench_*.sh (sourced, not run). Every figure
# is CPU seconds (user + system, /usr/bin/time) of 3 runs, reported as min / median,
# with the best wall time beside it, so peers measured in the same run compare per core
# even when other work holds the second core. Nothing is asserted.
#   bench_cpu3 TMPDIR LABEL MB COMMAND...   prints one row; sets BENCH_MIN, BENCH_MED
#   bench_cpu1 TMPDIR LABEL MB COMMAND...   the same with one run (slow peers)
#   BENCH_BEFORE                            when set, a shell command run before each run
#                                           (not timed), e.g. removing what the last one wrote
#   bench_python MODULE                     prints a python3 that imports MODULE, or nothing
#   bench_ratio A B                         A / B with 2 decimals
#   bench_load_avg                          the 1/5/15-minute load average
#   bench_linked_run RUN N BASE             RUN/rank0..rank{N-1}, each a hard link of
#                                           BASE/rank{k % 64}'s steps.jsonl and run.json
#   bench_generated_run TMPDIR NAME N STEPS TMPDIR/NAME: bench_linked_run of N ranks over the 64
#                                           ranks of STEPS steps $BUILD/tests/gen_demo writes
#                                           into TMPDIR/baseSTEPS (once for each STEPS)

bench_load_avg() { cut -d' ' -f1-3 /proc/loadavg; }

bench_ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else printf "n/a" }'; }

bench_python() {
	for py in python3 /usr/bin/python3; do
		if command -v "$py" >/dev/null 2>&1 && "$py" -c "import $1" 2>/dev/null; then
			echo "$py"
			return
		fi
	done
}

# bench_runs N TMPDIR LABEL MB COMMAND...: run N times, print "label  cpu min/median  wall  MB/cpu-s".
bench_runs() {
	n=$1 tmp=$2 label=$3 mb=$4
	shift 4
	: >"$tmp/runs"
	i=0
	while [ "$i" -lt "$n" ]; do
		[ -z "${BENCH_BEFORE:-}" ] || eval "$BENCH_BEFORE"
		/usr/bin/time -f '%e %U %S' -o "$tmp/t1" "$@" >/dev/null 2>"$tmp/err" || { echo "$label: failed:"; tail -3 "$tmp/err"; return 1; }
		tail -1 "$tmp/t1" | awk '{ printf "%.3f %.2f\n", $2 + $3, $1 }' >>"$tmp/runs"
		i=$((i + 1))
	done
	BENCH_MIN=$(sort -g "$tmp/runs" | head -1 | cut -d' ' -f1)
	BENCH_MED=$(sort -g "$tmp/runs" | sed -n "$(((n + 1) / 2))p" | cut -d' ' -f1)
	wall=$(cut -d' ' -f2 "$tmp/runs" | sort -g | head -1)
	printf '%-40s %7s / %-7s %6s s %8s\n' "$label" "$BENCH_MIN" "$BENCH_MED" "$wall" \
		"$(awk -v m="$mb" -v c="$BENCH_MED" 'BEGIN { if (m > 0 && c > 0) printf "%.0f", m / c; else printf "-" }')"
}

bench_cpu3() { bench_runs 3 "$@"; }
bench_cpu1() { bench_runs 1 "$@"; }

bench_header() {
	printf '%-40s %17s %8s %8s\n' "$1" "CPU s min / med" "wall" "MB/CPU s"
}

bench_linked_run() {
	python3 - "$1" "$2" "$3" <<'PY'
import os, sys
run, n, base = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.mkdir(run)
for k in range(n):
    d = "%s/rank%d" % (run, k)
    os.mkdir(d)
    for f in ("steps.jsonl", "run.json"):
        os.link("%s/rank%d/%s" % (base, k % 64, f), "%s/%s" % (d, f))
PY
}

bench_generated_run() {
	base="$1/base$4"
	[ -d "$base" ] || "$BUILD/tests/gen_demo" "$base" 64 "$4" >/dev/null || return 1
	bench_linked_run "$1/$2" "$3" "$base"
}
