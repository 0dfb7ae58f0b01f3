#!/bin/sh
# run.sh: `make fuzz` after the harnesses are built: run each libFuzzer harness in turn
# (one at a time, each a single process: the machine is shared) for SECONDS, from its seed corpus
# (tests/fuzz/corpus/NAME) and its regression inputs (tests/fuzz/regress/NAME) into a
# working corpus kept between runs (FUZZ_WORK/corpus/NAME). A crash, a sanitizer report,
# a leak or a timeout leaves the input in FUZZ_WORK/crashes/ and fails the run: copy it
# to tests/fuzz/regress/NAME/ (make check replays that directory) once it is fixed.
# Appends one line per harness to FUZZ_WORK/stats.tsv: date, harness, seconds,
# executions, coverage (edges), features, corpus size; prints a summary.
# Usage: sh tests/fuzz/run.sh BINDIR SECONDS [HARNESS...]
set -u
bindir=$1 seconds=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
work=${FUZZ_WORK:-$root/build-fuzz}
mkdir -p "$work/crashes" "$work/logs"
names=${*:-$(ls "$root"/tests/fuzz/fuzz_*.c | sed 's|.*/fuzz_||; s|\.c$||')}
failed=0
for name in $names; do
	bin="$bindir/fuzz_$name"
	corpus="$work/corpus/$name"
	mkdir -p "$corpus" "$root/tests/fuzz/corpus/$name"
	dirs="$corpus $root/tests/fuzz/corpus/$name"
	[ -d "$root/tests/fuzz/regress/$name" ] && dirs="$dirs $root/tests/fuzz/regress/$name"
	log="$work/logs/$name.log"
	# shellcheck disable=SC2086
	ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=2048 -max_len=65536 \
		-print_final_stats=1 -artifact_prefix="$work/crashes/$name-" $dirs >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
	units=$(ls "$corpus" | wc -l)
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$seconds" "${execs:-0}" \
		"${cov:-0}" "${ft:-0}" "$units" "$rc" >>"$work/stats.tsv"
	if [ "$rc" -ne 0 ]; then
		failed=1
		echo "FAIL fuzz_$name (exit $rc): see $log and $work/crashes/"
		grep -m5 -E 'ERROR|runtime error|SUMMARY' "$log" | sed 's/^/    /'
	else
		echo "ok   fuzz_$name: ${execs:-0} executions in ${seconds} s, coverage ${cov:-0} edges, ${ft:-0} features, corpus $units"
	fi
done
exit $failed
