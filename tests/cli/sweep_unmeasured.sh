#!/bin/sh
# sweep_unmeasured.sh: what a sweep does not measure is never judged as if it did. A
# --constraint on a metric no config has (ITL, TTFT or the per-user rate of a
# non-streaming run) is not judged, as one on telemetry the run lacks: no HIGH "fail",
# no failing config; a config lacking a metric that other configs have fails it (n/a),
# as a config without the telemetry does. Without a request count (older GenAI-Perf)
# the confidence of the percentiles is n/a: the sweep view keeps requests_beyond_p95/p99
# (empty) and low_confidence (n/a), and the report says the confidence was not judged
# under the table and the fit instead of leaving the stars out in silence. A negative
# GPU metric in checkpoint.json is warned about with its offset and left out (n/a), as
# in telemetry_stats: it meets no constraint.
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

mkcfg() { # mkcfg DIR LATENCY RPS COUNT [ITL]: one GenAI-Perf export CSV; COUNT - leaves the count out
	mkdir -p "$1"
	{
		printf 'Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\n'
		printf 'Request Latency (ms),%s,1,%s,%s,%s,%s,%s,%s,1,1,1,1\n' $2 $2 $2 $2 $2 $2 $2
		[ $# -ge 5 ] && printf 'Inter Token Latency (ms),%s,1,%s,%s,%s,%s,%s,%s,1,1,1,1\n' $5 $5 $5 $5 $5 $5 $5
		printf '\nMetric,Value\nRequest Throughput (per sec),%s\n' $3
		[ "$4" = - ] || printf 'Request Count (count),%s\n' $4
	} >"$1/profile_export_genai_perf.csv"
}

# --- a constraint on a metric no config has ------------------------------------------
for c in 1:100:5 2:120:9 4:150:12; do
	IFS=: read -r n lat rps <<EOF
$c
EOF
	mkcfg ns/m-openai-chat-concurrency$n $lat $rps 600
done
"$BIN" --print --no-index --color never --constraint 'itl_p99<50' ns >ns.txt 2>ns.err
"$BIN" --export sweep --no-index --constraint 'itl_p99<50' ns >ns.csv 2>/dev/null
tap_check "itl_p99<50 on a run without ITL: not judged, no HIGH fail, no config fails" \
	'grep -q "^  constraints  *itl_p99<50 not judged (no config has that metric)$" ns.txt &&
	 grep -q "^  - SLO pass/fail of itl_p99<50 (no config has that metric)$" ns.txt &&
	 ! grep -q "HIGH\|fail the constraints\|(n/a)\|Relax a constraint" ns.txt &&
	 ! grep -q "none: no config passes" ns.txt && ! grep -q ",no,itl" ns.csv'
tap_check "a request metric no config has is not an unknown metric: no stderr line for it" \
	'! grep -q "itl_p99" ns.err'
"$BIN" --print --no-index --color never --constraint 'ttft_p99<50' --constraint 'latency_p99<130' \
	--constraint 'tps_user_p50>1' ns >ns2.txt 2>/dev/null
tap_check "the judged constraint still judges; the unmeasured ones are named together" \
	'grep -q "^  constraints  *2 of 3 configs pass (1 constraint); ttft_p99<50, tps_user_p50>1 not" ns2.txt &&
	 grep -q "^  constraints .* not judged (no config has those metrics)$" ns2.txt &&
	 grep -q "^  constraints: latency_p99<130 · 2 of 3 configs pass$" ns2.txt'
mkcfg mix/m-openai-chat-concurrency1 100 5 600 20
mkcfg mix/m-openai-chat-concurrency2 120 9 600
"$BIN" --export sweep --no-index --constraint 'itl_p99<50' mix >mix.csv 2>/dev/null
tap_check "a config without the ITL another config has fails the constraint on it (n/a)" \
	'grep -q ",m-openai-chat-concurrency1,.*,yes,," mix.csv &&
	 grep -q ",m-openai-chat-concurrency2,.*,no,itl_p99<50 (n/a)," mix.csv'

# --- no request count: confidence n/a, said so -------------------------------------
mkcfg nc/m-openai-chat-concurrency1 100 5 -
mkcfg nc/m-openai-chat-concurrency2 120 9 -
mkcfg nc/m-openai-chat-concurrency4 150 12 -
"$BIN" --print --no-index --color never nc >nc.txt 2>/dev/null
"$BIN" --export sweep --no-index nc >nc.csv 2>/dev/null
tap_check "no request count: the report says the percentiles' confidence was not judged" \
	'grep -q "^    confidence of the percentiles not judged at 3 of 3 levels (no request count)$" nc.txt &&
	 grep -q "^      the p95'"'"'s confidence not judged at 3 of 3 levels (no request count)$" nc.txt'
tap_check "no request count: requests_beyond_p95/p99 empty, low_confidence n/a (columns kept)" \
	'head -1 nc.csv | grep -q ",requests_beyond_p95,requests_beyond_p99,low_confidence," &&
	 [ "$(tail -n +2 nc.csv | grep -c ",,,n/a,")" = 3 ]'
mkcfg pc/m-openai-chat-concurrency1 100 5 6
mkcfg pc/m-openai-chat-concurrency2 120 9 -
mkcfg pc/m-openai-chat-concurrency4 150 12 600
"$BIN" --print --no-index --color never pc >pc.txt 2>/dev/null
tap_check "a count at some levels: the stars and counts, and the level without one not judged" \
	'grep -q "^    \* low confidence: .*; requests per level: 6, n/a, 600$" pc.txt &&
	 grep -q "^    confidence of the percentiles not judged at 1 of 3 levels (no request count)$" pc.txt &&
	 grep -q "^      the p95'"'"'s confidence not judged at 1 of 3 levels (no request count)$" pc.txt'

# --- a negative GPU metric in checkpoint.json ----------------------------------------
mkdir -p ck
{
	printf '{"Results":{"run_configs":['
	sep=''
	for c in 0:1:80 1:2:-5.0; do
		IFS=: read -r i n u <<EOF
$c
EOF
		printf '%s{"name":"m_run_config_%s",' "$sep" $i
		printf '"perf_analyzer_config":{"_parameters":{"concurrency":%s}},' $n
		printf '"measurement":{"_gpu_metrics":{"gpu0":{"gpu_utilization_avg":["gpu_utilization_avg",'
		printf '{"_value":%s,"_timestamp":0}]}},"_model_config_measurements":{"m":{"_perf_metrics":' $u
		printf '{"request_throughput_avg":["request_throughput_avg",{"_value":%s,"_timestamp":0}]}}}}}' $n
		sep=','
	done
	printf ']}}\n'
} >ck/checkpoint.json
"$BIN" --export gpu_telemetry --no-index ck >ck_tel.csv 2>/dev/null
"$BIN" --export sources --no-index ck >ck_src.csv 2>/dev/null
"$BIN" --export sweep --no-index --constraint 'gpu_utilization<10' ck >ck.csv 2>/dev/null
tap_check "checkpoint.json: a negative GPU utilization is warned about with its offset and left empty" \
	'grep -q "^m_run_config_1,gpu0,gpu_utilization,,,," ck_tel.csv && ! grep -q -- "-5" ck_tel.csv &&
	 grep -q "^warning,ck/checkpoint.json,,,,[0-9][0-9]*,,,gpu_utilization avg: unusable value" ck_src.csv &&
	 grep -q ",gpu_utilization avg: unusable value '"'"'-5.0'"'"' (negative)$" ck_src.csv'
tap_check "checkpoint.json: the negative value meets no constraint (n/a), never passes" \
	'grep -q ",m_run_config_1,.*,no,gpu_utilization_avg<10 (n/a)," ck.csv && ! grep -q ",yes," ck.csv'
tap_plan
