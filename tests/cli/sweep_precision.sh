#!/bin/sh
# sweep_precision.sh: a GenAI-Perf verdict is true of the figures in front of it, to their
# precision. The knee's thresholds hold at their value (latency up exactly 20%: 100 -> 120 ms,
# 0.19999999999999996 in doubles); neighbouring levels are compared on one latency statistic
# both have (never p50 at one and the average at the next), and a step with none in common is
# not compared, said in the headline, the report and the not-judged list (in a comparison, a
# knee across it is not judged there), and makes a later knee "at or before"; a step whose
# verdict a CSV's 2 decimals could decide (0.05 -> 0.05 req/s against a 10% rule) is not
# compared either, and the best config names the configs it ties with, equal or within that
# rounding. A level with 0 successful requests has no percentile: its requests beyond p95/p99
# are empty, its low_confidence n/a, and the fit's low-confidence note does not count it. A
# flat fit is exact, not poor, in the sizing view as in the report (and no verdict that puts a
# NAT calculator first in the headline); a 2-point fit through 0 has an intercept of 0, not
# -1.66533e-16.
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# mkjs DIR CONCURRENCY RPS COUNT LATENCY: one *_genai_perf.json; LATENCY the request_latency
# statistics ("p50":100,"avg":130), "-" for none
mkjs() {
	mkdir -p "$1"
	{
		printf '{"request_throughput":{"unit":"requests/sec","avg":%s},' "$3"
		[ "$5" = - ] || printf '"request_latency":{"unit":"ms",%s},' "$5"
		printf '"request_count":{"unit":"count","avg":%s},' "$4"
		printf '"input_config":{"perf_analyzer":{"stimulus":{"concurrency":%s}}}}\n' "$2"
	} >"$1/profile_export_genai_perf.json"
}
# mklv DIR CONCURRENCY RPS LAT [COUNT]: p50 = avg = LAT, p95 1.3 x, p99 1.5 x
mklv() {
	mkjs "$1/m-openai-chat-concurrency$2" "$2" "$3" "${5:-1000}" \
		"$(awk -v l="$4" 'BEGIN { printf "\"p50\":%s,\"avg\":%s,\"p95\":%.10g,\"p99\":%.10g", l, l, l * 1.3, l * 1.5 }')"
}
# mkcsv DIR P50 P95 RPS: one *_genai_perf.csv (2 decimals, as GenAI-Perf writes it)
mkcsv() {
	mkdir -p "$1"
	{
		printf 'Metric,avg,p99,p95,p50\nRequest Latency (ms),%s,%s,%s,%s\n' "$2" "$3" "$3" "$2"
		printf '\nMetric,Value\nRequest Throughput (per sec),%s\nRequest Count (count),1000.00\n' "$4"
	} >"$1/profile_export_genai_perf.csv"
}
pr() { "$BIN" --print --no-index --color never "$1" >"$1.txt" 2>/dev/null; }

# --- the knee's thresholds at their value ---------------------------------------------
mklv k20 1 10 100; mklv k20 2 20 100; mklv k20 4 40 100; mklv k20 8 40 120
mklv k20b 1 10 50; mklv k20b 2 20 50; mklv k20b 4 40 50; mklv k20b 8 40 60
pr k20
pr k20b
tap_check "throughput flat, latency up exactly 20% (100 -> 120 ms; 50 -> 60 ms): a knee at concurrency 4" \
	'grep -q "^  saturation  *throughput knee at concurrency 4 (SWEEP.SATURATION)$" k20.txt &&
	 grep -q "^  saturation  *throughput knee at concurrency 4 (SWEEP.SATURATION)$" k20b.txt'

# --- one latency statistic both levels have ----------------------------------------------
for c in 1:10 2:20 4:40; do
	mkjs mx/m-openai-chat-concurrency${c%:*} ${c%:*} ${c#*:} 1000 '"p50":100,"avg":130,"p95":140,"p99":150'
done
mkjs mx/m-openai-chat-concurrency8 8 41 1000 '"avg":130'
pr mx
tap_check "p50 100 ms at 4, only an average of 130 ms at 8 (130 at 4 too): no knee, not p50 against avg" \
	'grep -q "^  saturation  *no knee: request throughput still rises at concurrency 8$" mx.txt &&
	 ! grep -q "SWEEP.SATURATION\|(p50) ->" mx.txt'
for c in 1:10 2:20 4:40; do
	mkjs dj/m-openai-chat-concurrency${c%:*} ${c%:*} ${c#*:} 1000 '"p50":100'
done
mkjs dj/m-openai-chat-concurrency8 8 41 1000 '"avg":200'
pr dj
tap_check "p50 only up to 4, the average only at 8: the step not compared, said, no knee and no 'no knee'" \
	'grep -q "^  saturation  *not judged: concurrency 4 to 8 not compared (no latency statistic at both: p50 \
at 4, avg at 8)$" dj.txt &&
	 grep -q "^    throughput knee not judged: concurrency 4 to 8 not compared" dj.txt &&
	 grep -q "^  - throughput saturation of m-openai-chat-concurrency\* (concurrency 4 to 8 not compared" dj.txt &&
	 ! grep -q "SWEEP.SATURATION\|no knee" dj.txt'
mklv da 1 10 100; mklv da 2 20 100; mklv da 4 40 100; mklv da 8 41 200
"$BIN" --print --no-index --color never da dj >dadj.txt 2>/dev/null
tap_check "... in a comparison, A's knee at 4 is not judged in B, whose step 4 -> 8 was not compared" \
	'grep -q "^  not judged in B (concurrency 4 to 8 not compared (no latency statistic at both: p50 at 4, avg at \
8)) \[MED \] Throughput saturates at concurrency 4" dadj.txt'
mkjs db/m-openai-chat-concurrency1 1 10 1000 '"p50":100'
for c in 2:20:100 4:40:100 8:41:200; do
	IFS=: read -r n r l <<EOF
$c
EOF
	mkjs db/m-openai-chat-concurrency$n $n $r 1000 "\"avg\":$l"
done
pr db
tap_check "... a step not compared before the knee: the knee is at or before, served at or below the last judged" \
	'grep -q "^  saturation  *throughput knee at or before concurrency 4 (SWEEP.SATURATION); concurrency 1 to 2 \
not compared" db.txt &&
	 grep -q "while avg request latency goes 100 -> 200 ms. Concurrency 1 to 2 not compared" db.txt &&
	 grep -q "until then serve at or below concurrency 1, the highest level known" db.txt'

# --- a CSV's 2 decimals ------------------------------------------------------------------
mkcsv q/m-openai-chat-concurrency1 1000.00 1300.00 0.02
mkcsv q/m-openai-chat-concurrency2 1000.00 1300.00 0.05
mkcsv q/m-openai-chat-concurrency4 1300.00 1690.00 0.05
pr q
tap_check "CSV 0.02, 0.05, 0.05 req/s (0.046 -> 0.054 exactly): the step 2 -> 4 not compared, no knee claimed" \
	'grep -q "^  saturation  *not judged: concurrency 2 to 4 not compared (request throughput 0.05 -> 0.05 \
req/s has 2 decimals in the CSV: its rounding could decide the knee)$" q.txt &&
	 grep -q "^  - throughput saturation of m-openai-chat-concurrency\* (concurrency 2 to 4 not compared" q.txt &&
	 ! grep -q "SWEEP.SATURATION\|no knee" q.txt'
tap_check "... the best config names the tie the CSV's rounding leaves" \
	'grep -q "^  best config  *m-openai-chat-concurrency2 and m-openai-chat-concurrency4 tie at the highest \
request throughput within the CSV.s 2 decimals: 0.05 and 0.05 req/s (no --objective)$" q.txt'
mkcsv qb/m-openai-chat-concurrency1 100.00 130.00 20.00
mkcsv qb/m-openai-chat-concurrency2 100.00 130.00 50.00
mkcsv qb/m-openai-chat-concurrency4 130.00 169.00 50.00
pr qb
tap_check "CSV 20, 50, 50 req/s: the rounding cannot decide it, a knee at concurrency 2 and a tie of equals" \
	'grep -q "^  saturation  *throughput knee at concurrency 2 (SWEEP.SATURATION)$" qb.txt &&
	 grep -q "^  best config  *m-openai-chat-concurrency2 and m-openai-chat-concurrency4 tie at the highest \
request throughput within the CSV.s 2 decimals: 50 and 50 req/s" qb.txt'

# --- a tie, exact ------------------------------------------------------------------------
mklv t 1 10 100; mklv t 2 20 100; mklv t 4 20 100
pr t
tap_check "two configs at 20 req/s: the best config names the tie, not one 'highest'" \
	'grep -q "^  best config  *m-openai-chat-concurrency2 and m-openai-chat-concurrency4 tie at the highest \
request throughput, 20 req/s (no --objective)$" t.txt'

# --- 0 successful requests -----------------------------------------------------------------
mklv z 1 10 100; mklv z 2 20 105; mklv z 8 22 300
mkjs z/m-openai-chat-concurrency4 4 0 0 -
pr z
"$BIN" --export sweep --no-index -o - z >z.csv 2>/dev/null
tap_check "a level with 0 successful requests: no percentile, so no low-confidence p95 under the fit" \
	'grep -q "vs concurrency: .* · 3 of 4 points$" z.txt && ! grep -q "low confidence" z.txt'
tap_check "... its requests beyond p95/p99 empty and low_confidence n/a, never 0,0 and p50 p90 p95 p99" \
	'awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		\$col[\"config\"] == \"m-openai-chat-concurrency4\" { v = \$col[\"request_count\"] \"/\" \
\$col[\"requests_beyond_p95\"] \"/\" \$col[\"requests_beyond_p99\"] \"/\" \$col[\"low_confidence\"] }
		END { exit !(v == \"0///n/a\") }" z.csv'

# --- fits ----------------------------------------------------------------------------------
for c in 1:10 2:20 4:40 8:42 16:43; do mklv fl ${c%:*} ${c#*:} 100; done
pr fl
"$BIN" --export sizing --no-index -o - fl >fl.csv 2>/dev/null
tap_check "a flat fit: exact in the report, poor_fit no in the sizing view (not yes)" \
	'grep -q "(flat: every point equal" fl.txt && ! grep -q "POOR_FIT" fl.txt &&
	 awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next } { v = \$col[\"poor_fit\"]; n++ }
		END { exit !(n == 1 && v == \"no\") }" fl.csv'
# nat FILE "conc runtime latency"...: a calc_runner_output.json
nat() {
	f=$1
	shift
	mkdir -p "$(dirname "$f")"
	{
		printf '{"calc_data": {\n'
		sep=''
		for row in "$@"; do
			set -- $row
			printf '%s"%s": {"sizing_metrics": {"alerts": {"workflow_interrupted": false}, ' "$sep" "$1"
			printf '"llm_latency_p95": %s, "workflow_runtime_p95": %s, "total_runtime": 30.0}}' "$3" "$2"
			sep=',
'
		done
		printf '\n}}\n'
	} >"$f"
}
for j in A B C; do nat nf/calc$j/online/job_1/calc_runner_output.json "1 4 1" "2 5 1.2" "4 7 1.6" "8 11 2.4"; done
nat nf/calcD/online/job_1/calc_runner_output.json "1 5 2" "2 5 2" "4 5 2" "8 5 2"
pr nf
tap_check "four NAT calculators, one flat: the flat one has no verdict, so it is the one counted, not put first" \
	'grep -q "^  GPU sizing  *and 1 more (see the sizing view): nf/calcD/online/job_1$" nf.txt &&
	 grep -q "^  GPU sizing  *nf/calcA/online/job_1: NAT calculator" nf.txt'
mklv two 4 40 100; mklv two 8 41 200
pr two
tap_check "a 2-point fit through 0: intercept 0 s, no rounding noise" \
	'grep -q "slope 0.0325 s per concurrency · intercept 0 s · 2 points" two.txt'
tap_plan
