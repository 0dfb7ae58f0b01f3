#!/bin/sh
# sweep_headline.sh: the sweep family's headline (--print and the explorer's Overview).
# A NAT calculator's own GPU estimate (formats.md §4.2: gpu_estimates, the final answer) is
# shown without targets, marked as stored, with what recomputing it needs (a file that
# stores none still says what the estimate needs). Several series, NAT calculators or
# Cerebras files: each line names its source (a series by its name, a calculator by its job
# directory, a Cerebras file by its model directory), those with a verdict (a knee, a poor
# fit, a slow ordinal) come first, and the ones past the third are counted and named on an
# "and N more" line that says how many of them have a verdict, never dropped in silence.
# A NAT calculator beside a Cerebras file (or a GenAI-Perf sweep) is one run too, so each
# of them is named the same way, in either order, never merged into the first PATH's lines.
# Numbers: a Cerebras compile_time of 1e300 reads 1.00e+300 (never 300 digits), a
# programming_time of 1e-300 never reads 0.000; a total_samples too large for a count is
# named as such by the merge rule's reason; a NAT fit whose sums overflow is no fit (not
# judged, no GPU estimate), never an R² of nan.
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# nat FILE STORED_RT "conc runtime latency"...: a calc_runner_output.json, STORED_RT its
# gpu_estimate_by_wf_runtime (null: none)
nat() {
	f=$1 st=$2
	shift 2
	mkdir -p "$(dirname "$f")"
	{
		printf '{"gpu_estimates": {"gpu_estimate_by_wf_runtime": %s, ' "$st"
		printf '"gpu_estimate_by_llm_latency": null},\n'
		printf ' "calc_data": {\n'
		sep=''
		for row in "$@"; do
			set -- $row
			printf '%s  "%s": {"sizing_metrics": {"alerts": {"workflow_interrupted": false}, ' "$sep" "$1"
			printf '"llm_latency_p95": %s, "workflow_runtime_p95": %s, "total_runtime": 30.0}}' "$3" "$2"
			sep=',
'
		done
		printf '\n}}\n'
	} >"$f"
}
TABLE="1 4.03488 1.14981|2 4.71197 1.3591|4 5.67581 1.50682|8 7.90895 2.10668|16 12.677 3.30196|32 24.5307 6.57847"
table() { # table FILE STORED_RT: nat() over formats.md §4.4's table
	IFS='|'
	set -- "$1" "$2" $TABLE
	unset IFS
	nat "$@"
}
print() { "$BIN" --print --no-index --color never "$@" 2>/dev/null; }

# --- the calculator's stored GPU estimate --------------------------------------------
table n2/online/job_1700000000/calc_runner_output.json 75.35159084873075
print n2 >n2.txt
stored="75.35 GPUs by p95 workflow runtime, stored by the calculator (recomputing it needs --target-users,"
tap_check "no targets: the headline shows the file's stored estimate, marked as stored, and what recomputing needs" \
	'grep -q "^  GPU estimate  *$stored --test-gpus and --target-runtime)$" n2.txt && ! grep -q "n/a" n2.txt'
tap_check "no targets: the GPU SIZING section shows the stored estimate in full" \
	'grep -q "^  → stored 75.3516 GPUs by p95 workflow runtime (the calculator.s own estimate; " n2.txt &&
	 ! grep -q "(GPU estimates need" n2.txt'
printf ':dump %s/ov\n' "$PWD" >keys
LINES=30 COLUMNS=200 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT=keys "$BIN" --no-index --tui n2 >/dev/null 2>&1
tap_check "the explorer's Overview shows the same stored estimate" 'grep -q "GPU estimate  *$stored" ov'
print --target-users 100 --test-gpus 8 --target-latency 2 n2 >n2l.txt
tap_check "a latency target only: its estimate, and the stored runtime one (needs --target-runtime)" \
	'grep -q "^  GPU estimate  *[0-9.]* GPUs for 100 users at p95 LLM latency 2 s$" n2l.txt &&
	 grep -q "^  GPU estimate  *75.35 GPUs by p95 workflow runtime, stored by the calculator (recomputing it needs \
--target-runtime)$" n2l.txt'
print --target-users 100 --test-gpus 8 --target-runtime 10 n2 >n2r.txt
tap_check "every target: the recomputed estimate, the stored one beside it in the section" \
	'grep -q "^  GPU estimate  *75.35 GPUs for 100 users at p95 workflow runtime 10 s$" n2r.txt &&
	 grep -q "^  → 75.3516 GPUs for 100 users at p95 workflow runtime 10 s (concurrency 10.62 per 8 test \
GPUs) · stored 75.3516$" n2r.txt && ! grep -q "stored by the calculator" n2r.txt'
table n0/online/job_1/calc_runner_output.json null
print n0 >n0.txt
print --target-users 100 --test-gpus 8 n0 >n0u.txt
tap_check "a file that stores no estimate: n/a and what it needs (only the options missing)" \
	'grep -q "^  GPU estimate  *n/a: needs --target-users, --test-gpus and --target-latency or --target-runtime$" \
	 n0.txt && grep -q "^  GPU estimate  *n/a: needs --target-latency or --target-runtime$" n0u.txt &&
	 grep -q "^  (GPU estimates need --target-latency or --target-runtime)$" n0u.txt'

# --- several sources: named, verdicts first, the rest counted ---------------------------
cbfile() { # cbfile DIR RATE_OF_ORDINAL_1: two ordinals, the second at that rate (100: not slow)
	mkdir -p "$1/performance"
	t=$(awk -v r="$2" 'BEGIN { printf "%.17g", 1000 / r }')
	printf '{"compile_time": 1.0, "ordinals": [%s, %s], "samples_per_sec": 200.0, "total_samples": 2000, %s}\n' \
		'{"samples_per_sec": 100.0, "total_samples": 1000, "total_time": 10.0}' \
		"{\"samples_per_sec\": $2, \"total_samples\": 1000, \"total_time\": $t}" '"total_time": 10.0' \
		>"$1/performance/performance.json"
}
for m in m1 m2 m3; do cbfile cb4/$m 100; done
cbfile cb4/m4 50
print cb4/m1 cb4/m2 cb4/m3 cb4/m4 >cb4.txt
tap_check "four Cerebras files: each rate line names its file, the one with a slow ordinal first" \
	'sed -n 3p cb4.txt | grep -q "^  Cerebras  *cb4/m4: 200.00 samples/s over 2 ordinals (merge rule)$" &&
	 sed -n 4p cb4.txt | grep -q "^  slow ordinal  *ordinal 1 at 50% of the other ordinals. median rate$" &&
	 grep -q "^  Cerebras  *cb4/m1: 200.00 samples/s" cb4.txt &&
	 grep -q "^  Cerebras  *cb4/m2: 200.00 samples/s" cb4.txt'
tap_check "four Cerebras files: the fourth counted and named, not dropped" \
	'grep -q "^  Cerebras  *and 1 more (see the cerebras view): cb4/m3$" cb4.txt &&
	 [ "$(grep -c "^  Cerebras " cb4.txt)" -eq 4 ]'
for m in s1 s2 s3 s4; do cbfile cb5/$m 50; done
cbfile cb5/s5 100
print cb5/s1 cb5/s2 cb5/s3 cb5/s4 cb5/s5 >cb5.txt
more="and 2 more, 1 with a slow ordinal, a disagreeing aggregate or no rate (see the cerebras view)"
tap_check "four slow files of five: the hidden slow one is counted as such" \
	'grep -q "^  Cerebras  *$more: cb5/s4, cb5/s5$" cb5.txt'

for name in alpha beta gamma zeta; do
	for c in 1 2 4; do
		d=sw/$name-openai-chat-concurrency$c
		mkdir -p "$d"
		rps=$c lat=$((1000 + 100 * c))
		[ $name = zeta ] && [ $c = 4 ] && rps=2.05 lat=3000 # flat throughput, latency up: a knee at 2
		printf 'Metric,avg,p95,p50\nRequest Latency (ms),%s,%s,%s\n\n' $lat $lat $lat >"$d/e.csv"
		printf 'Metric,Value\nRequest Throughput (per sec),%s\n' "$rps" >>"$d/e.csv"
		mv "$d/e.csv" "$d/profile_export_genai_perf.csv"
	done
done
print sw >sw.txt
tap_check "four series: each stimulus line names its series, the one with a knee first" \
	'sed -n 4p sw.txt | grep -q "^  stimulus  *zeta-openai-chat-concurrency\*: concurrency 1, 2, 4 (3 levels)$" &&
	 sed -n 5p sw.txt | grep -q "^  saturation  *throughput knee at concurrency 2" &&
	 grep -q "^  stimulus  *alpha-openai-chat-concurrency\*: concurrency 1, 2, 4" sw.txt'
tap_check "four series: the fourth counted and named" \
	'grep -q "^  series  *and 1 more (see the sweep view): gamma-openai-chat-concurrency\*$" sw.txt'

for j in A B C; do table nm/calc$j/online/job_1/calc_runner_output.json null; done
nat nm/calcD/online/job_1/calc_runner_output.json null "1 5 1" "2 1 2" "4 6 3" "8 2 4" "16 7 5" "32 1 6"
print nm >nm.txt
tap_check "four NAT calculators: each named by its job directory, the poor fit first, the fourth counted" \
	'sed -n 3p nm.txt | grep -q "^  GPU sizing  *nm/calcD/online/job_1: NAT calculator, .*R² 0\.[0-6]" &&
	 grep -q "^  GPU sizing  *nm/calcA/online/job_1: NAT calculator" nm.txt &&
	 grep -q "^  GPU sizing  *and 1 more (see the sizing view): nm/calcC/online/job_1$" nm.txt'
print n2 cb4/m4 >mixed.txt
print cb4/m4 n2 >mixed2.txt
named="^  GPU sizing  *n2/online/job_1700000000: NAT calculator, 6 concurrencies"
tap_check "a NAT calculator and a Cerebras file, either order: each line names its input" \
	'grep -q "$named" mixed.txt && grep -q "^  Cerebras  *cb4/m4: 200.00 samples/s" mixed.txt &&
	 grep -q "$named" mixed2.txt && grep -q "^  Cerebras  *cb4/m4: 200.00 samples/s" mixed2.txt'
mkdir -p swn && cp -r sw/alpha-openai-chat-concurrency* swn/ && table swn/online/job_1/calc_runner_output.json null
print swn >swn.txt
tap_check "a GenAI-Perf sweep and a NAT calculator in one directory: the calculator's line names its job" \
	'grep -q "^  GPU sizing  *swn/online/job_1: NAT calculator" swn.txt &&
	 grep -q "^  inference sweep  *3 configs in 1 series (GenAI-Perf)" swn.txt'

# --- numbers --------------------------------------------------------------------------
mkdir -p huge/performance
printf '%s\n' '{"compile_time": 1e300, "ordinals": [' \
	'{"samples_per_sec": 100, "total_samples": 9000000000000000, "total_time": 9.0},' \
	'{"samples_per_sec": 100, "total_samples": 900, "total_time": 9.0}],' \
	'"programming_time": 1e-300, "samples_per_sec": 2e15, "total_samples": 900, "total_time": 9.0}' \
	>huge/performance/performance.json
print huge >huge.txt
tap_check "Cerebras 1e300 s compile time and 2e15 samples/s in exponent form, 1e-300 s not shown as 0.000" \
	'grep -q "^  stored: 2.00e+15 samples/s · 900 samples · 9.000 s · compile 1.00e+300 s · programming \
1e-300 s$" huge.txt && ! grep -q "[0-9]\{20\}" huge.txt'
tap_check "total_samples 9e15: the merge rule's reason says too large for a count, as the warning" \
	'grep -q "^  Cerebras  *rate n/a: merge rule not applied over 2 ordinals (ordinal 0 has an unusable \
total_samples: too large for a count); stored 2.00e+15 samples/s$" huge.txt'
nat nh/online/job_1/calc_runner_output.json null "1 1e200 1" "2 2e200 2" "4 4e200 3" "8 8.5e200 4"
print --target-users 100 --test-gpus 8 --target-runtime 10 nh >nh.txt
tap_check "NAT times of 1e200: the runtime fit overflows, so no fit, no R² of nan and no GPU estimate" \
	'grep -q "^  p95 workflow runtime fit: no fit (values too large to fit: the sums are not finite \
numbers)$" nh.txt &&
	 grep -q "^  GPU estimate  *n/a for p95 workflow runtime 10 s: no fit$" nh.txt &&
	 grep -q "^  - fit of p95 workflow runtime in .* (values too large to fit" nh.txt &&
	 ! grep -qi "nan" nh.txt && grep -q "^ *1 *1.0000 *1.00e+200 " nh.txt'
tap_plan
