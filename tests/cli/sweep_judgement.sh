#!/bin/sh
# sweep_judgement.sh: sweep verdicts hold only for what they judged: series split by the
# other swept parameter when crossed with the first (concurrency x ISL; not
# num_dataset_entries = 20 x concurrency) and keyed by the stimulus number only (the
# last concurrency<N> of a name; a model name's digits neither split nor merge series; a
# config without a stimulus, run_50 beside run_1..run_25, is set apart, not a reason to
# split the others); the knee names the last level it
# weighed and SWEEP.SATURATION the level it compared (the next one with data); a step
# wider than a doubling counts as a doubling (throughput tripling from concurrency 1 to
# 32 is no knee; up 5% it is); SWEEP.SATURATION names the latency statistic it weighed
# (p50, else avg, else p99) and, when another, the p95 the Sweep pane plots, its rates
# as the headline gives them (1426 req/s, not 1.43e+03); a knee's saturation line names the levels not weighed,
# and with one before the knee says "at or before", as SWEEP.SATURATION and the report body do, the
# finding advising no level past the last one judged; configs
# lacking an objective metric or with 0 requests are not ranked; a rank 1 that fails
# the constraints is no best config; a constraint on a metric no config has is not
# judged; the first failing config a constraint finding names is the sweep table's first
# (series, then stimulus ascending; not path order, where c10_ sorts before c1_); a flat
# or 2-point fit is no poor fit (a 2-point fit: poor_fit empty, the headline says 2
# points and gives no R²); Cerebras ordinals missing the merge rule's
# keys give no recomputed aggregate, a file without a stored aggregate no mismatch (not
# judged), missing stored fields n/a, an ordinal without a rate a not-judged line, the
# Model Zoo's 0 for what it did not measure (total_time 0 and samples_per_sec 0 beside it,
# est_samples_per_sec 0) missing with a note, an ordinal's 0 time passed over by the merge
# rule and a stored time of 0 beside an ordinal's time a mismatch; a NAT
# file of 1 concurrency says so in the singular; a fit of fewer than 5 points says its
# outliers were not tested (the not-judged list); NAT points without per_item_metrics
# have no item count; time units other than ms (a JSON's "unit", a CSV's "(s)") are
# converted; a not-judged item names its series and is matched per series: listed beside
# another series' finding of its rule, and in a comparison never taken for another
# series' finding; in a comparison a series' finding is judged by its like on the other
# side (another name, one series a side), a knee only where that side's knee test
# compared the knee's two levels (not judged, never resolved, without them). A stored
# value that the raw export's recomputation disagrees with gives way to the recomputed one
# in the verdicts, the report and the sweep view, whose recomputed column names the metrics
# that differ (the warning keeps the stored value), and an analyze row repeating that
# export is still its directory's duplicate; a req/s read from a CSV alone is printed with
# the CSV's 2 decimals (0.06, never 0.060).
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

mkcfg() { # mkcfg DIR LATENCY RPS COUNT: one GenAI-Perf export CSV
	mkdir -p "$1"
	{
		printf 'Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\n'
		printf 'Request Latency (ms),%s,1,%s,%s,%s,%s,%s,%s,1,1,1,1\n' $2 $2 $2 $2 $2 $2 $2
		printf 'Output Sequence Length (tokens),100,10,200,190,180,170,150,100,50,20,15,11\n'
		printf '\nMetric,Value\nOutput Token Throughput (tokens/sec),%s\n' $3
		printf 'Request Throughput (per sec),%s\n' $3
		printf 'Request Count (count),%s\n' $4
	} >"$1/profile_export_genai_perf.csv"
}
analyze() { # analyze DIR HEADER ROW...
	d=$1
	shift
	mkdir -p "$d"
	printf '%s\n' "$@" >"$d/analyze_export_genai_perf.csv"
}
mkstim() { # mkstim DIR CONCURRENCY LATENCY RPS: one *_genai_perf.json whose input_config gives the stimulus
	mkdir -p "$1"
	printf '{"request_throughput":{"unit":"requests/sec","avg":%s},"request_latency":{"unit":"ms","avg":%s,' $4 $3 \
		>"$1/profile_export_genai_perf.json"
	printf '"p50":%s,"p95":%s,"p99":%s},"request_count":{"unit":"count","avg":600},' $3 $3 $3 \
		>>"$1/profile_export_genai_perf.json"
	printf '"input_config":{"perf_analyzer":{"stimulus":{"concurrency":%s}}}}\n' $2 \
		>>"$1/profile_export_genai_perf.json"
}
series_of() { "$BIN" --export sweep --no-index "$1" | tail -n +2 | cut -d, -f1 | sort | uniq -c | sed 's/^ *//'; }

# --- series -----------------------------------------------------------------------
analyze two_d 'Config Name,Concurrency,ISL,p99 Request Latency (ms),Request Throughput (requests/sec)' \
	g_0,1,1000,900,1.00 g_1,2,1000,1000,1.90 g_2,4,1000,1100,3.50 g_3,1,100,300,3.00 g_4,2,100,320,6.00 \
	g_5,4,100,340,11.00
"$BIN" --print --no-index --color never two_d >two_d.txt 2>/dev/null
tap_check "concurrency x ISL: one series per ISL, no knee from comparing ISL 100 with 1000" \
	'grep -q "^  inference sweep  *6 configs in 2 series" two_d.txt &&
	 grep -q "^  stimulus  *two_d/[^ ]* \[input_length=1000\]: concurrency 1, 2, 4 (3 levels)$" two_d.txt &&
	 grep -q "^  stimulus  *two_d/[^ ]* \[input_length=100\]: concurrency 1, 2, 4 (3 levels)$" two_d.txt &&
	 ! grep -q "SATURATION" two_d.txt'

for c in 1 2 4 8 16; do
	mkcfg ll/meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency$c $((100 + c * 10)) $c 600
done
tap_eq "Llama-3.1-8B at concurrency 1..16: one series, the model's digits kept" \
	"5 meta-llama_Llama-3.1-8B-Instruct-openai-chat-concurrency*" "$(series_of ll)"
for c in 1 2 4; do mkcfg gp/gpt2/gpt2-openai-chat-concurrency$c 100 $c 600; done
tap_eq "gpt2 at concurrency 1, 2, 4 (a gpt2 parent dir too): one series" \
	"3 gpt2/gpt2-openai-chat-concurrency*" "$(series_of gp)"
for c in 8 16 32; do mkcfg l3/llama$c-openai-chat-concurrency$c 100 $c 600; done
tap_eq "llama8 c8, llama16 c16, llama32 c32: three models, three series" \
	"$(printf '1 llama%s-openai-chat-concurrency*\n' 16 32 8)" \
	"$(series_of l3)"
for c in 1 10 25; do mkcfg rc/run_c${c}_artifacts/m-openai-chat-concurrency$c 100 $c 600; done
tap_eq "a parent dir tagged with the level (run_c10_artifacts): one series" \
	"3 run_c*_artifacts/m-openai-chat-concurrency*" "$(series_of rc)"
for c in 1 10 25; do mkstim ns/run_$c $c $((100 + c)) $c; done
mkcfg ns/run_50 200 40 600
"$BIN" --print --no-index --color never ns >ns.txt 2>/dev/null
tap_eq "run_1, run_10, run_25 with a stimulus and run_50 (a CSV alone) without: run_50 set apart, not 4 series" \
	"$(printf '3 run_*\n1 run_50')" "$(series_of ns)"
tap_check "run_50 without a stimulus: the 3 levels keep their knee test, run_50 named in the not-judged list" \
	'grep -q "^  stimulus  *run_\*: concurrency 1, 10, 25 (3 levels)$" ns.txt &&
	 grep -q "^  saturation  *no knee: request throughput still rises at concurrency 25$" ns.txt &&
	 grep -q "^  - throughput saturation of run_50 (no stimulus recorded: its files and name give no" ns.txt &&
	 ! grep -q "fewer than 3 configs" ns.txt'
for c in 1 2 4; do mkcfg de/m-openai-chat-concurrency$c-num_dataset_entries$((c * 20)) 100 $c 600; done
tap_eq "num_dataset_entries = 20 x concurrency (not crossed with it): one series, not one per value" \
	"3 m-openai-chat-concurrency*-num_dataset_entries*" "$(series_of de)"
for m in 4 8; do
	for c in 1 2 4; do mkcfg mc/model-concurrency$m/art-openai-chat-concurrency$c 100 $c 600; done
done
tap_eq "model-concurrency4 and model-concurrency8 dirs: the level is the last concurrency<N>, two series" \
	"$(printf '3 model-concurrency%s/art-openai-chat-concurrency*\n' 4 8)" "$(series_of mc)"
for c in 1 2 4; do mkcfg r1/runs/2024-06-01/model-concurrency4/art-openai-chat-concurrency$c 100 $c 600; done
tap_eq "one model-concurrency4 dir: its 4 (and the date) kept in the series name" \
	"3 runs/2024-06-01/model-concurrency4/art-openai-chat-concurrency*" "$(series_of r1)"

# --- knee -------------------------------------------------------------------------
KN='Config Name,Concurrency,p99 Request Latency (ms),Request Throughput (requests/sec)'
analyze kn "$KN" m_0,1,300.00,3.00 m_1,2,320.00,6.00 m_2,4,330.00,9.00 m_3,8,N/A,1.00
"$BIN" --print --no-index --color never kn >kn.txt 2>/dev/null
tap_check "the last level has no latency: the knee verdict names the last level judged and says why 8 is not" \
	'grep -q "^  saturation  *no knee: request throughput still rises at concurrency 4; concurrency 8 not judged \
(no request latency)$" kn.txt'
analyze kg "$KN" m_0,1,39.44,91.80 m_1,2,N/A,N/A m_2,4,46.21,72.30 m_3,8,50.00,70.00
"$BIN" --print --no-index --color never kg >kg.txt 2>/dev/null
analyze kp "$KN" m_0,1,39.44,91.80 m_1,2,N/A,95.00 m_2,4,46.21,72.30 m_3,8,50.00,70.00
"$BIN" --print --no-index --color never kp >kp.txt 2>/dev/null
tap_check "a level with a throughput but no latency between: no knee across it, the level named" \
	'! grep -q SWEEP.SATURATION kp.txt &&
	 grep -q "^  saturation  *no knee up to concurrency 8.*; concurrency 2 not judged \
(no request latency)$" kp.txt'
analyze k2 "$KN" m_0,1,39.44,91.80 m_1,2,N/A,N/A m_2,4,46.21,72.30
"$BIN" --print --no-index --color never k2 >k2.txt 2>/dev/null
tap_check "3 levels, 2 with a throughput and a latency: the knee is not judged, no SWEEP.SATURATION" \
	'grep -q "^  saturation  *not judged" k2.txt && ! grep -q SWEEP.SATURATION k2.txt'
tap_check "a level without data after the knee: SWEEP.SATURATION names the level compared, no n/a read as 0" \
	'grep -q "from concurrency 1 to 4 (the level between has no throughput or latency) request throughput goes \
91.8 -> 72.3 req/s while p99 request latency goes 39.44 -> 46.21 ms.$" kg.txt && ! grep -q -- "-> 0 " kg.txt'
tap_check "... the knee names that level, after it: at concurrency 1, not 'at or before'" \
	'grep -q "^  saturation  *throughput knee at concurrency 1 (SWEEP.SATURATION); concurrency 2 not judged \
(no request throughput or request latency)$" kg.txt'
analyze km "$KN" m_0,1,100,10 m_1,2,N/A,19 m_2,4,200,20 m_3,8,400,20.5
"$BIN" --print --no-index --color never km >km.txt 2>/dev/null
tap_check "a level without latency before the knee: named, and the knee is at or before the level found" \
	'grep -q "^  saturation  *throughput knee at or before concurrency 4 (SWEEP.SATURATION); concurrency 2 not \
judged (no request latency)$" km.txt'
tap_check "... the finding and the report body say 'at or before' too and name the level not judged" \
	'grep -q "^  \[MED \] Throughput saturates at or before concurrency 4  (SWEEP.SATURATION)$" km.txt &&
	 grep -q "^    throughput saturates at or before concurrency 4 (knee); concurrency 2 not judged (no request \
latency)$" km.txt &&
	 grep -q "ms. Concurrency 2 not judged (no request latency): the knee may be earlier.$" km.txt'
tap_check "... and advise no level past what was judged: serve at or below concurrency 1 until 2 is measured" \
	'grep -q "^        -> Place the knee (at or before concurrency 4) by re-measuring what the knee test could not \
weigh before it; until then serve at or below concurrency 1, the highest level known to be at or below \
the knee; " km.txt &&
	 ! grep -q "Serve at or below the knee" km.txt'
analyze k0 "$KN" m_0,1,N/A,10 m_1,2,100,19 m_2,4,200,20 m_3,8,400,20.5
"$BIN" --print --no-index --color never k0 >k0.txt 2>/dev/null
tap_check "the first level not judged: the finding names no level to serve at, only the knee to place" \
	'grep -q "^  \[MED \] Throughput saturates at or before concurrency 2  (SWEEP.SATURATION)$" k0.txt &&
	 grep -q "^        -> Place the knee (at or before concurrency 2) by re-measuring what the knee test could not \
weigh before it, then serve at or below it; " k0.txt'
analyze kw "$KN" m_0,1,100,10 m_1,32,1050,30 m_2,64,1100,58 m_3,128,2100,60
"$BIN" --print --no-index --color never kw >kw.txt 2>/dev/null
analyze ks "$KN" m_0,1,100,10 m_1,64,1000,60 m_2,128,2000,62
"$BIN" --print --no-index --color never ks >ks.txt 2>/dev/null
tap_check "wide steps (1, 32, 64, 128): throughput that triples is no knee; it is at 64, where it stops rising" \
	'grep -q "^  saturation  *throughput knee at concurrency 64 (SWEEP.SATURATION)$" kw.txt &&
	 grep -q "from concurrency 64 to 128 request throughput goes 58 -> 60 req/s" kw.txt &&
	 grep -q "^  saturation  *throughput knee at concurrency 64 (SWEEP.SATURATION)$" ks.txt'
analyze kf "$KN" m_0,1,100,10 m_1,32,300,10.5 m_2,64,310,21
"$BIN" --print --no-index --color never kf >kf.txt 2>/dev/null
tap_check "a wide step whose throughput grows by 5% while latency triples: the knee is before it" \
	'grep -q "^  saturation  *throughput knee at concurrency 1 (SWEEP.SATURATION)$" kf.txt'
# the knee weighs p50; the Sweep pane plots p95: the finding names both, its rates as the headline gives them
for lv in 1:1000:80:100 2:1400:90:110 4:1425.833:95.16:114.02 8:1199.318:111.78:153.1; do
	IFS=: read -r c rps p50 p95 <<L
$lv
L
	mkdir -p "ks2/m-openai-chat-concurrency$c"
	printf 'Metric,avg,p99,p95,p50\nRequest Latency (ms),%s,%s,%s,%s\n\nMetric,Value\n' \
		"$p50" "$p95" "$p95" "$p50" >"ks2/m-openai-chat-concurrency$c/p_genai_perf.csv"
	printf 'Request Throughput (per sec),%s\n' "$rps" >>"ks2/m-openai-chat-concurrency$c/p_genai_perf.csv"
done
"$BIN" --print --no-index --color never ks2 >ks2.txt 2>/dev/null
tap_check "SWEEP.SATURATION names its latency statistic (p50) and the pane's (p95), rates as the headline" \
	'grep -q "from concurrency 4 to 8 request throughput goes 1426 -> 1199 req/s while p50 request latency goes \
95.16 -> 111.8 ms (p95, which the Sweep pane plots: 114 -> 153 ms).$" ks2.txt &&
	 grep -q "^  best config  *m-openai-chat-concurrency4: highest request throughput 1426 req/s" ks2.txt'

# --- a stored value the raw export disagrees with -------------------------------------
mkraw() { # mkraw DIR CONCURRENCY LATENCY_MS START_S...: a non-streaming raw export, one response a request
	d=$1 c=$2 lat=$3
	shift 3
	mkdir -p "$d"
	sep=
	{
		printf '{"experiments":[{"experiment":{"mode":"concurrency","value":%s},"requests":[' "$c"
		for t in "$@"; do
			printf '%s{"timestamp":%s,"response_timestamps":[%s]}' "$sep" \
				"$(awk -v t="$t" 'BEGIN { printf "%.0f", 1.7e18 + t * 1e9 }')" \
				"$(awk -v t="$t" -v l="$lat" 'BEGIN { printf "%.0f", 1.7e18 + t * 1e9 + l * 1e6 }')"
			sep=,
		done
		printf ']}]}\n'
	} >"$d/profile_export.json"
}
# 2, 4, 8 req/s (4 requests over 2 s, 4 over 1 s, 8 over 1 s): throughput still rises; the export
# of concurrency 2 says 20 req/s and a p99 of 500 ms, which would make a knee at 2 (20 -> 8 req/s)
mkraw rd/m-openai-chat-concurrency1 1 100 0 0.5 1 1.9
mkraw rd/m-openai-chat-concurrency2 2 100 0 0.3 0.6 0.9
mkraw rd/m-openai-chat-concurrency4 4 300 0 0.1 0.2 0.3 0.4 0.5 0.6 0.7
printf '{"request_throughput":{"unit":"requests/sec","avg":20},%s%s\n' \
	'"request_latency":{"unit":"ms","avg":100,"p50":100,"p99":500},' '"request_count":{"unit":"count","avg":4}}' \
	>rd/m-openai-chat-concurrency2/profile_export_genai_perf.json
"$BIN" --print --no-index --color never rd >rd.txt 2>/dev/null
"$BIN" --export sweep --no-index -o - rd >rd.csv 2>/dev/null
tap_check "a stored throughput the raw export disagrees with: the verdicts use the recomputed one (no knee at 2)" \
	'grep -q "^  saturation  *no knee: request throughput still rises at concurrency 4$" rd.txt &&
	 grep -q "^  best config  *m-openai-chat-concurrency4: highest request throughput 8 req/s" rd.txt &&
	 ! grep -q "SWEEP.SATURATION\|20 req/s" rd.txt'
tap_check "... the report and the sweep view show the recomputed values, the row naming the metrics that differ" \
	'grep -q "^  *2  *-  *100.00\*  *100.00\*  *-  *-  *4.000 " rd.txt &&
	 grep -q "^[^,]*,m-openai-chat-concurrency2,artifacts,concurrency,2,,,,,2,no,100,100,100,100,100,4,4,0.2,0.04,\
p50 p90 p95 p99,\"yes, differs: request_latency, request_throughput\"$" rd.csv &&
	 grep -q "^[^,]*,m-openai-chat-concurrency4,.*,yes$" rd.csv'
tap_check "... the warning keeps the stored value and says the recomputed one is used" \
	'"$BIN" --export sources --no-index -o - rd 2>/dev/null | grep -q "recomputed request_throughput avg is 4 but \
the export says 20; the recomputed request_throughput is used$"'
cp -r rd rda
analyze rda 'Config Name,Concurrency,p99 Request Latency (ms),Request Throughput (requests/sec)' m_0,2,500.00,20.00
tap_check "... an analyze row repeating that directory's export is still known as its duplicate" \
	'[ "$("$BIN" --export sweep --no-index -o - rda 2>/dev/null | tail -n +2 | wc -l)" -eq 3 ] &&
	 "$BIN" --export sources --no-index -o - rda 2>/dev/null | grep -q "repeats run directory"'
# a level read from a CSV alone: its req/s has the CSV's 2 decimals, never "0.060" for its 0.06
mkraw rdc/m-openai-chat-concurrency1 1 100 0 0.5 1 1.9
mkcfg rdc/m-openai-chat-concurrency2 100 0.06 4
"$BIN" --print --no-index --color never rdc >rdc.txt 2>/dev/null
tap_check "req/s from a CSV printed with its 2 decimals (0.06), a recomputed one with 3 (2.000)" \
	'grep -q "^  *1  *-  *100.00\*  *100.00\*  *-  *-  *2.000 " rdc.txt && grep -q "^  *2 .* 0.06  *0.1 " rdc.txt &&
	 ! grep -q "0\.060" rdc.txt'

# --- ranking and constraints --------------------------------------------------------
analyze ob "$KN" m_0,1,300.00,3.00 m_1,2,320.00,6.00 m_2,4,330.00,9.00 m_3,8,N/A,12.00
"$BIN" --print --no-index --color never --objective 'latency_p99:1,rps:1' ob >ob.txt 2>/dev/null
"$BIN" --export sweep --no-index --objective 'latency_p99:1,rps:1' ob >ob.csv 2>/dev/null
tap_check "a config without an objective metric is unranked (no rank, no score), not the best config" \
	'grep -q "^  best config  *m_2 (rank 1 by the objective); 1 config unranked: no value for every objective \
metric$" ob.txt &&
	 grep -q "^[^,]*,m_3,analyze,concurrency,8,,,," ob.csv'
mkcfg one/m-openai-chat-concurrency1 100 5 600
"$BIN" --print --no-index --color never --objective ttft_p99 one >one.txt 2>/dev/null
tap_check "one config without TTFT, --objective ttft_p99: none ranked" \
	'grep -q "^  best config  *none ranked: no config has every objective metric$" one.txt'
"$BIN" --print --no-index --color never --objective rps:1 --constraint 'latency_p99<100' kn >none.txt 2>/dev/null
tap_check "no config passes the constraints: rank 1 is not called the best config" \
	'grep -q "^  best config  *none passes the constraints; rank 1 by the objective rps_avg:1: m_2 \
(fails latency_p99<100 (330))$" none.txt'
mkcfg z0/m-openai-chat-concurrency1 100 5 600
mkcfg z0/m-openai-chat-concurrency2 120 9 600
mkcfg z0/m-openai-chat-concurrency4 0 0 0
"$BIN" --print --no-index --color never --constraint 'latency_p99<110' --objective latency_p99 z0 >z0.txt 2>/dev/null
"$BIN" --export sweep --no-index --constraint 'latency_p99<110' --objective latency_p99 z0 >z0.csv 2>/dev/null
tap_check "0 successful requests: latency n/a, fails the constraint, unranked" \
	'grep -q "^  best config  *m-openai-chat-concurrency1 (rank 1 by the objective latency_p99:1)" z0.txt &&
	 grep -q ",m-openai-chat-concurrency4,artifacts,concurrency,4,,,no,latency_p99<110 (n/a)," z0.csv'
"$BIN" --print --no-index --color never --constraint 'gpu_power_usage_p99<200' kn >tel.txt 2>/dev/null
tap_check "a constraint on a metric no config has is not judged (not 'none given')" \
	'grep -q "^  constraints  *gpu_power_usage_p99<200 not judged (no config has that metric)$" tel.txt &&
	 grep -q "^  - SLO pass/fail of gpu_power_usage_p99<200 (no config has that metric)$" tel.txt'
# directories that sort otherwise than their stimulus (c10_ before c1_): the first failing
# config is the sweep table's first (series, then stimulus), not the first path
for c in 1 10 25; do mkcfg fo/m_c${c}_artifacts/m-openai-chat-concurrency$c $((220 - c)) $c 600; done
"$BIN" --print --no-index --color never --constraint 'latency_p99<200' fo >fo.txt 2>/dev/null
tap_check "constraints: the first failing config is concurrency 1, the sweep table's first, not c10_ by path" \
	'grep -q "^        First failing: m_c1_artifacts/m-openai-chat-concurrency1: latency_p99<200 (219)\.$" fo.txt'

# --- fits -------------------------------------------------------------------------
mkcfg fl/m-openai-chat-concurrency1 100 5 600
mkcfg fl/m-openai-chat-concurrency2 100 10 600
"$BIN" --print --no-index --color never fl >fl.txt 2>/dev/null
tap_check "two points of equal latency: no SIZING.POOR_FIT, the fit quality not judged" \
	'! grep -q "POOR_FIT\|Poor linear fit" fl.txt &&
	 grep -q "^  - fit quality of p95 request latency .*(2 points" fl.txt'
mkcfg f2/m-openai-chat-concurrency1 100 5 600
mkcfg f2/m-openai-chat-concurrency2 120 9 600
"$BIN" --export sizing --no-index f2 >f2.csv 2>/dev/null
tap_check "a 2-point fit: r2 kept, poor_fit empty (not judged), not 'no'" \
	'awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ v = \$col[\"points\"] \"/\" \$col[\"r2\"] \"/\" \$col[\"poor_fit\"]; n++ }
		END { exit !(n == 1 && v == \"2/1/\") }" f2.csv'
for c in 1 2 4 8; do mkcfg fl4/m-openai-chat-concurrency$c 100 $c 600; done
"$BIN" --print --no-index --color never fl4 >fl4.txt 2>/dev/null
tap_check "four points of equal latency: a flat line is an exact fit, no SIZING.POOR_FIT" \
	'! grep -q "POOR_FIT\|Poor linear fit" fl4.txt && grep -q "(flat: every point equal" fl4.txt'

# --- Cerebras ------------------------------------------------------------------------
mkdir -p cb1 cb2
printf '{"ordinals":[{"samples_per_sec":100.0},{"samples_per_sec":100.0}],"samples_per_sec":200.0}' \
	>cb1/performance.json
printf '{"ordinals":[{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0},%s' \
	'{"samples_per_sec":100.0,"total_time":10.0}],"samples_per_sec":200.0,"total_samples":2000,"total_time":10.0}' \
	>cb2/performance.json
"$BIN" --print --no-index --color never cb1 >cb1.txt 2>/dev/null
"$BIN" --print --no-index --color never cb2 >cb2.txt 2>/dev/null
tap_check "ordinals without total_samples/total_time: '-', no recomputed aggregate, no mismatch" \
	'grep -q "^    ordinal 0: 100.00 samples/s · - samples · - s$" cb1.txt &&
	 grep -q "^  Cerebras  *rate n/a: merge rule not applied over 2 ordinals (ordinal 0 has no total_samples); \
stored 200.00 samples/s$" cb1.txt &&
	 grep -q "^  - Cerebras aggregate of cb1/performance.json (merge rule not applied: ordinal 0 has no \
total_samples)$" cb1.txt &&
	 ! grep -q "MISMATCH\|disagrees" cb1.txt'
tap_check "one ordinal without total_samples: not summed as 0, no mismatch" \
	'grep -q "recomputed (merge rule): n/a, not applied: ordinal 1 has no total_samples$" cb2.txt &&
	 ! grep -q "MISMATCH\|disagrees" cb2.txt'
mkdir -p cbo cbt cbn cbz
printf '{"ordinals":[%s,%s]}' '{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0}' \
	'{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0}' >cbo/performance.json
"$BIN" --print --no-index --color never cbo >cbo.txt 2>/dev/null
"$BIN" --export cerebras --no-index cbo >cbo.csv 2>/dev/null
tap_check "ordinals only, no stored aggregate: mismatch empty, not 'no'; the aggregate listed as not judged" \
	'grep -q "^  stored: none (the file has no aggregate)$" cbo.txt &&
	 grep -q "^  - Cerebras aggregate of cbo/performance.json (no stored aggregate to check: no samples_per_sec, \
total_samples or total_time)$" cbo.txt &&
	 awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		\$col[\"row\"] == \"stored\" { n++; if (\$col[\"mismatch\"] != \"\") bad = 1 }
		END { exit bad || n != 1 }" cbo.csv'
printf '{"compile_time":12.0,"samples_per_sec":300.0,"total_samples":3000}' >cbn/performance.json
printf '{"flops_utilization":12.5,"total_samples":100}' >cbt/performance.json
"$BIN" --print --no-index --color never cbn >cbn.txt 2>/dev/null
"$BIN" --print --no-index --color never cbt >cbt.txt 2>/dev/null
tap_check "a stored aggregate missing fields: n/a, no blank gap" \
	'grep -q "^  stored: 300.00 samples/s · 3000 samples · n/a s · compile 12.000 s$" cbn.txt &&
	 grep -q "^  stored: n/a samples/s · 100 samples · n/a s · FLOPs utilization 12.50%$" cbt.txt &&
	 ! grep -q "·  ·" cbn.txt cbt.txt'
printf '{"ordinals":[%s,%s,%s],"samples_per_sec":200.0,"total_samples":2000,"total_time":10.0}' \
	'{"samples_per_sec":0.0,"total_samples":0,"total_time":0.0}' \
	'{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0}' \
	'{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0}' >cbz/performance.json
"$BIN" --print --no-index --color never cbz >cbz.txt 2>/dev/null
tap_check "an ordinal with 0 samples in 0 s cannot be rated: listed as not judged, with why" \
	'grep -q "^  - slow Cerebras ordinal 0 of cbz/performance.json (not rated: it has samples_per_sec 0 and \
total_time 0)$" cbz.txt'
# the Model Zoo's 0 for what it could not measure (formats.md §5.1): missing, never a rate of 0
mkdir -p cb0 cb0o
printf '{"compile_time":5.0,"est_samples_per_sec":0,"programming_time":1.0,%s}' \
	'"samples_per_sec":0,"total_samples":1000,"total_time":0' >cb0/performance.json
printf '{"ordinals":[%s,%s],"samples_per_sec":0,"total_samples":2000,"total_time":0}' \
	'{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0}' \
	'{"samples_per_sec":0,"total_samples":1000,"total_time":0}' >cb0o/performance.json
"$BIN" --print --no-index --color never cb0 >cb0.txt 2>/dev/null
"$BIN" --export cerebras --no-index cb0 >cb0.csv 2>/dev/null
"$BIN" --export sources --no-index cb0 >cb0_src.csv 2>/dev/null
tap_check "samples_per_sec 0 over total_time 0: rate n/a (not 0.00 samples/s), time n/a, a note says why" \
	'grep -q "^  Cerebras  *rate n/a: 0 samples/s over 0 s is the Model Zoo.s .not measured.; no ordinals$" \
		cb0.txt &&
	 grep -q "^  stored: n/a samples/s · 1000 samples · n/a s · compile 5.000 s" cb0.txt &&
	 ! grep -q "0\.00 samples/s" cb0.txt &&
	 grep -q "^info,cb0/performance.json,,,,121,,,\"total_time 0 in the aggregate read as not measured" \
		cb0_src.csv'
tap_check "... and est_samples_per_sec 0 (the counter absent) is an empty cell, as are the rate and time" \
	'awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ if (\$col[\"est_samples_per_sec\"] \$col[\"samples_per_sec\"] \$col[\"total_time_s\"] != \"\")
			bad = 1 }
		END { exit bad || NR != 2 }" cb0.csv'
"$BIN" --print --no-index --color never cb0o >cb0o.txt 2>/dev/null
tap_check "an ordinal's 0 time is passed over by the merge rule, and a stored time of 0 beside one disagrees" \
	'grep -q "^    ordinal 1: - samples/s · 1000 samples · - s$" cb0o.txt &&
	 grep -q "^  recomputed (merge rule): 200.00 samples/s · 2000 samples · 10.000 s  <- stored aggregate \
disagrees$" cb0o.txt'

# --- NAT --------------------------------------------------------------------------------
mkdir -p nat/online/job_1
{
	printf '{"calc_data": {"1": {"sizing_metrics": {"llm_latency_p95": 1.0, "workflow_runtime_p95": 4.0, '
	printf '"total_runtime": 30.0}}, "2": {"sizing_metrics": {"llm_latency_p95": 1.2, "workflow_runtime_p95": 4.5, '
	printf '"total_runtime": 30.0}}}}'
} >nat/online/job_1/calc_runner_output.json
mkdir -p nat4/online/job_1
{
	printf '{"calc_data": {"1": {"sizing_metrics": {"llm_latency_p95": 1.0, "workflow_runtime_p95": 4.0}}, '
	printf '"2": {"sizing_metrics": {"llm_latency_p95": 1.2, "workflow_runtime_p95": 4.5}}, '
	printf '"4": {"sizing_metrics": {}}, "8": {"sizing_metrics": {}}}}'
} >nat4/online/job_1/calc_runner_output.json
mkdir -p nat1/online/job_1
printf '{"calc_data": {"1": {"sizing_metrics": {"llm_latency_p95": 1.0, "workflow_runtime_p95": 4.0}}}}' \
	>nat1/online/job_1/calc_runner_output.json
"$BIN" --print --no-index --color never nat1 >nat1.txt 2>/dev/null
tap_check "NAT, 1 concurrency: no fit, said in the singular" \
	'grep -q "^● GPU SIZING — NAT calculator, 1 concurrency$" nat1.txt &&
	 grep -q "^  GPU sizing  *NAT calculator, 1 concurrency: p95 LLM latency no fit" nat1.txt'
"$BIN" --print --no-index --color never nat4 >nat4.txt 2>/dev/null
"$BIN" --export sizing --no-index nat4 >nat4.csv 2>/dev/null
tap_check "NAT, 4 concurrencies, 2 with data: the headline says 2 points and judges no R², poor_fit empty" \
	'grep -q "^  GPU sizing  *NAT calculator, 4 concurrencies: p95 LLM latency +0.2 s per unit of concurrency \
from 2 points (R² not judged); p95 workflow runtime +0.5 s per unit of concurrency from 2 points (R² not judged)$" \
		nat4.txt && ! grep -q "R² 1" nat4.txt &&
	 awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next } \$col[\"poor_fit\"] != \"\" { bad = 1 }
		END { exit bad || NR != 3 }" nat4.csv'
tap_check "NAT, 2 points: the outlier rules did not run and the not-judged list says so" \
	'grep -q "^  - outliers in the fit of p95 LLM latency in .*nat4/.* (2 points: the outlier rules need 5)$" nat4.txt'
"$BIN" --print --no-index --color never nat >nat2.txt 2>/dev/null
mkdir -p nat5/online/job_1
{
	printf '{"calc_data": {'
	for c in 1 2 3 4 5; do
		printf '"%d": {"sizing_metrics": {"llm_latency_p95": %d.0, "workflow_runtime_p95": %d.5}}' "$c" "$c" "$c"
		[ "$c" = 5 ] || printf ', '
	done
	printf '}}'
} >nat5/online/job_1/calc_runner_output.json
"$BIN" --print --no-index --color never nat5 >nat5.txt 2>/dev/null
tap_check "NAT, 5 points: the outlier rules ran, no outliers item; 2 points: one for each fit" \
	'! grep -q "outlier rules need" nat5.txt && [ "$(grep -c "outlier rules need 5)$" nat2.txt)" = 2 ]'
"$BIN" --export sizing_points --no-index --target-users 10 --target-runtime 10 --test-gpus 8 nat >pts.csv 2>/dev/null
tap_check "no per_item_metrics: items and items over target are empty, not 0" \
	'awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ if (\$col[\"items\"] != \"\" || \$col[\"items_over_runtime\"] != \"\") bad = 1; n++ }
		END { exit bad || n != 2 }" pts.csv'

# --- units ------------------------------------------------------------------------------
# A JSON export's "unit" is read (ns and s latencies were taken as ms), and a CSV "(s)" too.
mkdir -p units/m-openai-chat-concurrency1 units/m-openai-chat-concurrency2
{
	printf '{"request_latency": {"unit": "ns", "avg": 250000000.0, "p99": 400000000.0},\n'
	printf ' "time_to_first_token": {"unit": "s", "avg": 0.05, "p99": 0.09},\n'
	printf ' "request_throughput": {"unit": "requests/sec", "avg": 3.5}}\n'
} >units/m-openai-chat-concurrency1/profile_export_genai_perf.json
printf 'Metric,avg,p99\nRequest Latency (s),0.3,0.5\n\nMetric,Value\nRequest Throughput (per sec),6\n' \
	>units/m-openai-chat-concurrency2/profile_export_genai_perf.csv
"$BIN" --export sweep --no-index units >units.csv 2>/dev/null
tap_check "time units: a JSON ns and s, and a CSV (s), are converted to ms" \
	'awk -F, "NR == 1 { for (i = 1; i <= NF; i++) col[\$i] = i; next }
		{ v[NR] = \$col[\"latency_p99_ms\"] \"/\" \$col[\"ttft_p99_ms\"] }
		END { exit !(v[2] == \"400/90\" && v[3] == \"500/\") }" units.csv'
# --- not judged per series ----------------------------------------------------------------
# Two series, b with too few levels for a rule that fired on a: b's item is listed beside
# a's finding (its silence is no verdict), and a comparison matches it with b's findings
# only: A's finding on a is resolved when B judged a, even though B could not judge b (a
# line of its own, "not judged in A and B: outliers ... in b-...", no finding's status).
for cl in 1:101 2:118 4:139 8:600 16:262 32:418; do
	mkcfg oa/a-openai-chat-concurrency${cl%:*} ${cl#*:} ${cl%:*} 600
	mkcfg ob/a-openai-chat-concurrency${cl%:*} $([ "${cl%:*}" = 8 ] && echo 182 || echo ${cl#*:}) ${cl%:*} 600
done
for c in 1 2 4; do mkcfg oa/b-openai-chat-concurrency$c $((100 + c * 10)) $c 600; done
cp -r oa/b-openai-chat-concurrency* ob/
"$BIN" --print --no-index --color never oa >oa.txt 2>/dev/null
"$BIN" --export findings --no-index oa >oa.csv 2>/dev/null
b_out="outliers in the fit of p95 request latency in b-openai-chat-concurrency\* (3 points: the outlier rules need 5)"
tap_check "a's SIZING.OUTLIERS and b's outliers not judged: both in the report and the findings export" \
	'grep -q "(SIZING.OUTLIERS)$" oa.txt && grep -q "^  - $b_out$" oa.txt &&
	 grep -q "^low,SIZING.OUTLIERS,Outlier concurrency 8 " oa.csv &&
	 grep -q "^not judged,SIZING.OUTLIERS,$b_out," oa.csv'
"$BIN" --print --no-index --color never oa ob >oab.txt 2>/dev/null
"$BIN" --print --no-index --color never ob oa >oba.txt 2>/dev/null
tap_check "compare: a's outlier resolved in B (B judged a), new the other way; b's not-judged item is not a's" \
	'grep -q "^  resolved  *\[LOW \] Outlier concurrency 8 .*(SIZING.OUTLIERS)$" oab.txt &&
	 ! grep -q "^  not judged in [AB] (" oab.txt oba.txt &&
	 grep -q "^  new  *\[LOW \] Outlier concurrency 8 .*(SIZING.OUTLIERS)$" oba.txt'
# the knee: A's series a saturates, B's a does not (judged) and B's b has 2 levels
for c in 1 2 4; do
	mkcfg ka/a-openai-chat-concurrency$c $((100 + c * 5)) $c 600
	mkcfg ka/b-openai-chat-concurrency$c 100 $c 600
	mkcfg kb/a-openai-chat-concurrency$c 100 $c 600
done
mkcfg ka/a-openai-chat-concurrency8 400 4 600
mkcfg kb/a-openai-chat-concurrency8 100 8 600
for c in 1 2; do mkcfg kb/b-openai-chat-concurrency$c 100 $c 600; done
"$BIN" --print --no-index --color never ka kb >kab.txt 2>/dev/null
tap_check "compare: a's saturation resolved in B, not 'not judged' for B's 2-level series b" \
	'grep -q "^  resolved  *\[MED \] Throughput saturates at concurrency 4  (SWEEP.SATURATION)$" kab.txt &&
	 ! grep -q "^  not judged in B (" kab.txt'

# A series' finding is judged on the other side by that series' like there (the same
# name, else the one series of its workload each side has): A's knee is from concurrency
# 8 to 16, so a B whose knee test did not compare those levels (no level 16, no latency
# there) could not have given it: not judged in B (in A the other way), never resolved;
# a B whose knee is at 4 saturates too (persisting, the levels named); a B of another
# name (model) judges A's findings on the series with its own not-judged items; a B of
# one level has no latency fit to judge A's outliers by.
lv() { # lv DIR NAME C:LATENCY:RPS...: one level per argument
	d=$1 n=$2
	shift 2
	for cl; do
		l=${cl#*:}
		mkcfg "$d/$n-openai-chat-concurrency${cl%%:*}" "${l%:*}" "${cl##*:}" 600
	done
}
lv kn8 a 1:100:10 2:110:20 4:120:40 8:130:80 16:300:70
lv kn8b a 1:100:10 2:110:20 4:120:40 8:130:80
lv kn8l a 1:100:10 2:110:20 4:120:40 8:130:80 16:140:160
printf 'Metric,Value\nRequest Throughput (per sec),160\n' \
	>kn8l/a-openai-chat-concurrency16/profile_export_genai_perf.csv
lv kn4 a 1:100:10 2:110:20 4:120:40 8:300:35 16:600:30
lv kn8r llama 1:100:10 2:110:20 4:120:40 8:130:80
lv kn1 a 1:100:10
for b in kn8b kn8l kn4 kn8r kn1; do
	"$BIN" --print --no-index --color never kn8 $b >kn8-$b.txt 2>/dev/null
done
"$BIN" --print --no-index --color never kn8b kn8 >kn8b-kn8.txt 2>/dev/null
"$BIN" --export diff_findings --no-index -o - kn8 kn8b >kn8-kn8b.csv 2>/dev/null
sat="\[MED \] Throughput saturates at concurrency"
tap_check "compare: A's knee from 8 to 16 is not judged by a B without level 16, in --print and diff_findings" \
	'grep -q "^  not judged in B (no concurrency 16) $sat 8  (SWEEP.SATURATION)$" kn8-kn8b.txt &&
	 grep -q "^● FINDINGS — 0 new in B · 0 resolved · 0 persisting · [0-9]* not judged in B$" kn8-kn8b.txt &&
	 grep -q "^not judged in B (no concurrency 16),SWEEP.SATURATION,med,,,Throughput saturates at concurrency 8," \
		kn8-kn8b.csv && grep -q "^  not judged in A (no concurrency 16) $sat 8 " kn8b-kn8.txt'
tap_check "... nor by a B without a latency at level 16" \
	'grep -q "^  not judged in B (concurrency 16 has no request latency) $sat 8  (SWEEP.SATURATION)$" kn8-kn8l.txt'
tap_check "... a B whose knee is at 4 saturates too: persisting, the levels named" \
	'grep -q "^  persisting (concurrency 8 in A, 4 in B) $sat 4  (SWEEP.SATURATION)$" kn8-kn4.txt &&
	 ! grep -q "^  \(resolved\|new\) .*SATURATION" kn8-kn4.txt'
tap_check "... a B of another name: its series' not-judged items are the status, not lines of their own" \
	'grep -q "^  not judged in B (no concurrency 16) $sat 8  (SWEEP.SATURATION)$" kn8-kn8r.txt &&
	 grep -q "^  not judged in B (4 points: the outlier rules need 5) .*(SIZING.OUTLIERS)$" kn8-kn8r.txt &&
	 ! grep -q "^  resolved \|^  not judged in B: outliers" kn8-kn8r.txt'
tap_check "... a B of one level has no latency fit: A's outliers not judged there" \
	'grep -q "^  not judged in B (B.s series has no p95 request latency fit: fewer than 2 levels have one) \
.*(SIZING.OUTLIERS)$" kn8-kn1.txt'

# two constraints on metrics no config has: "those metrics"
"$BIN" --print --no-index --color never --constraint 'gpu_power_usage_p99<200' --constraint 'gpu_utilization_avg<2' \
	kn >tel2.txt 2>/dev/null
tap_check "two constraints not judged: 'no config has those metrics'" \
	'grep -q "no config has those metrics" tel2.txt && ! grep -q "that metric" tel2.txt'
tap_plan
