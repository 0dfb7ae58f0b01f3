#!/bin/sh
# sweep_mixed.sh: a GenAI-Perf sweep whose configs measure other workloads (input_config
# model_names, endpoint url / service_kind / backend / type, or the flat keys of older
# versions) is never one series: each workload is its own series, named by the keys that
# split it; no knee or fit spans two models; no best config is chosen across them and an
# --objective ranks within each workload. Two sweeps of other workloads compared: the
# SWEEP verdict names the keys and says it is not like for like; diff_sweep pairs levels
# by workload, its last column (and the report's, when a row has one) naming it. A level
# with two results (a sweep dir and another sweep's level file) is named in a warning with
# both files; the series' knee and latency fit are then not judged.
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

mkjson() { # mkjson DIR CONCURRENCY LATENCY RPS INPUT_CONFIG: one *_genai_perf.json
	mkdir -p "$1"
	cat >"$1/profile_export_genai_perf.json" <<EOF
{"request_throughput":{"unit":"requests/sec","avg":$4},
 "request_latency":{"unit":"ms","avg":$3,"p50":$3,"p95":$3,"p99":$3},
 "request_count":{"unit":"count","avg":600},
 "input_config":$5}
EOF
}
nested() { # nested MODEL URL CONCURRENCY: the 2025 input_config layout
	printf '{"model_names":["%s"],"endpoint":{"url":"%s","service_kind":"openai","backend":"tensorrtllm",' "$1" "$2"
	printf '"type":"chat","streaming":false},"perf_analyzer":{"stimulus":{"concurrency":%s}}}' "$3"
}

# Two models on two endpoints, artifact dirs named alike: 4 levels, 2 workloads.
for c in 1 10 25 50; do
	if [ $c -le 10 ]; then m=auto u=http://a:8000; else m=llama-70b u=http://other:8000; fi
	mkjson mx/run_c${c}_artifacts/auto-openai-chat-concurrency$c $c $((1000 + c * 10)) $((c * 2)) \
		"$(nested $m $u $c)"
done
"$BIN" --print --no-index --color never mx >mx.txt 2>/dev/null
tap_check "two models: two series, the summary names the keys that differ" \
	'grep -q "^  inference sweep  *4 configs in 2 series (GenAI-Perf; different workloads: model, url \
differ)" mx.txt'
tap_check "each series' stimulus line names its workload" \
	'grep -q "^  stimulus  *[^ ]* \[model=auto url=http://a:8000\]: concurrency 1, 10 (2 levels)$" mx.txt &&
	 grep -q "^  stimulus  *[^ ]* \[model=llama-70b url=http://other:8000\]: concurrency 25, 50 (2 levels)$" mx.txt'
tap_check "no knee verdict over levels of two models (2 levels each: not judged)" \
	'! grep -q "no knee" mx.txt && [ "$(grep -c "^  saturation  *not judged: 2 levels" mx.txt)" = 2 ]'
tap_check "no best config across models" \
	'grep -q "^  best config  *not chosen: the configs measure different workloads (model, url differ)" mx.txt'
"$BIN" --export sweep --no-index mx 2>/dev/null | tail -n +2 | cut -d, -f1 | sort | uniq -c | sed 's/^ *//' >mx.series
tap_eq "the export's series keys carry the workload" \
	"$(printf '2 run_c*_artifacts/auto-openai-chat-concurrency* [model=%s]\n' 'auto url=http://a:8000' \
		'llama-70b url=http://other:8000')" "$(cat mx.series)"
"$BIN" --print --no-index --color never --objective rps_avg:1 mx >mxo.txt 2>/dev/null
tap_check "--objective ranks within each workload, names no best across them" \
	'grep -q "^  objective: rps_avg:1 · ranked within each workload (model, url differ): no best across \
them$" mxo.txt &&
	 [ "$(grep -c "^ *10 .*  1     -$" mxo.txt)" = 1 ] && [ "$(grep -c "^ *50 .*  1     -$" mxo.txt)" = 1 ]'

# Control: one workload recorded alike at every level stays one series with a best config.
for c in 1 10 25; do
	mkjson one/m-openai-chat-concurrency$c $c $((1000 + c * 10)) $((c * 2)) "$(nested auto http://a:8000 $c)"
done
"$BIN" --print --no-index --color never one >one.txt 2>/dev/null
tap_check "one workload: one series, a best config, no workload note" \
	'grep -q "^  inference sweep  *3 configs in 1 series (GenAI-Perf); Sweep pane: 8$" one.txt &&
	 grep -q "^  best config  *m-openai-chat-concurrency25: highest request throughput" one.txt'


# Some configs record the model and url, the others record none: an unrecorded key is
# unknown, so one series and one ranking (a single rank 1, named alike everywhere).
bare() { printf '{"perf_analyzer":{"stimulus":{"concurrency":%s}}}' "$1"; }
for c in 1 10 25 50; do
	if [ $c -le 10 ]; then ic="$(nested auto http://a:8000 $c)"; else ic="$(bare $c)"; fi
	mkjson part/m-openai-chat-concurrency$c $c $((1000 + c * 10)) $((c * 2)) "$ic"
done
"$BIN" --export sweep --no-index --objective rps_avg:1 part >part.csv 2>/dev/null
tap_eq "partly recorded workload: one ranking 4 3 2 1" "$(tail -n +2 part.csv | cut -d, -f6 | tr '\n' ' ')" "4 3 2 1 "
"$BIN" --print --no-index --color never --objective rps_avg:1 part >part.txt 2>/dev/null
tap_check "... the summary and the objective line name the same best" \
	'grep -q "^  best config  *m-openai-chat-concurrency50 (rank 1 by the objective rps_avg:1)$" part.txt &&
	 grep -q "^  objective: rps_avg:1 · best m-openai-chat-concurrency50 (score" part.txt'
# Older flat input_config: model list and backend at the top level.
for c in 1 2 4; do
	for b in vllm tensorrtllm; do
		mkjson flat/$b/m-openai-chat-concurrency$c $c 1000 $c \
			"{\"model\":[\"gpt2\"],\"backend\":\"$b\",\"concurrency\":$c}"
	done
done
"$BIN" --print --no-index --color never flat >flat.txt 2>/dev/null
tap_check "flat layout: backends vllm and tensorrtllm are other workloads" \
	'grep -q "different workloads: backend differ" flat.txt && grep -q "^  best config  *not chosen" flat.txt'

# Two sweeps of other models compared.
for c in 1 10 25; do
	mkjson ca/m-openai-chat-concurrency$c $c 1000 $c "$(nested auto http://a:8000 $c)"
	mkjson cb/m-openai-chat-concurrency$c $c 1000 $c "$(nested llama-70b http://a:8000 $c)"
	mkjson cc/m-openai-chat-concurrency$c $c 1000 $c "$(nested auto http://a:8000 $c)"
done
"$BIN" --no-index --color never ca cb >cab.txt 2>/dev/null
tap_check "sweeps of two models compared: the verdict names the key, not like for like" \
	'grep -q "^● SWEEP — no difference: .*; but the workload differs (model auto -> llama-70b): not a \
like-for-like comparison$" cab.txt'
"$BIN" --no-index --color never ca cc >cac.txt 2>/dev/null
tap_check "sweeps of one model compared: no workload note" \
	'grep -q "^● SWEEP — no difference: the same latency and throughput at 3 common concurrency \
levels$" cac.txt'


# Both sides hold both workloads, in the other order: levels pair within a workload (auto
# with auto), never A's auto with B's llama; a workload only one side has is named.
for c in 1 10 25; do
	mkjson xa/a/m-openai-chat-concurrency$c $c 1000 $c "$(nested auto http://a:8000 $c)"
	mkjson xa/b/m-openai-chat-concurrency$c $c 5000 $c "$(nested llama http://a:8000 $c)"
	mkjson xb/a/m-openai-chat-concurrency$c $c 5000 $c "$(nested llama http://a:8000 $c)"
	mkjson xb/b/m-openai-chat-concurrency$c $c 1000 $c "$(nested auto http://a:8000 $c)"
	mkjson xc/a/m-openai-chat-concurrency$c $c 1000 $c "$(nested auto http://a:8000 $c)"
	mkjson xc/b/m-openai-chat-concurrency$c $c 1300 $c "$(nested mistral http://a:8000 $c)"
done
"$BIN" --no-index --color never xa xb >xab.txt 2>/dev/null
tap_check "both workloads on both sides: paired by workload, no difference" \
	'grep -q "^● SWEEP — no difference: the same latency and throughput at 6 common concurrency levels$" xab.txt'
"$BIN" --export diff_sweep xa xc >xac.csv 2>/dev/null
tap_eq "diff_sweep: a row per workload and level, the workload last" \
	"$(tail -n +2 xac.csv | awk -F, '{ printf "%s:%s:%s:%s ", $NF, $2, $3, $4 }')" \
	"model=auto:1:1000:1000 model=auto:10:1000:1000 model=auto:25:1000:1000 model=llama:1:5000: \
model=llama:10:5000: model=llama:25:5000: model=mistral:1::1300 model=mistral:10::1300 model=mistral:25::1300 "
"$BIN" --no-index --color never xa xc >xac.txt 2>/dev/null
tap_check "... the verdict names the series only one side has" \
	'grep -q "^● SWEEP — no difference: the same latency and throughput at 3 common concurrency levels; \
only in A: model=llama; only in B: model=mistral$" xac.txt'
tap_check "... and the report's level table has the workload column" \
	'grep -q " workload$" xac.txt && grep -q "^ *25.00 .* model=mistral$" xac.txt'
"$BIN" --export diff_sweep ca cb >cab.csv 2>/dev/null
tap_check "one other workload a side: every diff_sweep row says A's -> B's, not paired in silence" \
	'[ "$(tail -n +2 cab.csv | awk -F, "{ print \$NF }" | sort -u)" = "model auto -> llama-70b" ]'
"$BIN" --export diff_sweep ca cc >cac.csv 2>/dev/null
tap_check "... one and the same workload: the column is empty, the report has none" \
	'[ -z "$(tail -n +2 cac.csv | awk -F, "{ print \$NF }" | sort -u)" ] && ! grep -q " workload$" cac.txt'
# A sweep dir and a level file of another sweep: one run (one directory), but the two
# results at concurrency 2 are named in a warning with both files, and the series' knee
# and latency fit are not judged (neither would be true of one run); the sweep alone has both.
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
"$B/gen_sweep" ra 50 4 4 >/dev/null && "$B/gen_sweep" rb 50 4 4 2 >/dev/null || exit 1
"$BIN" --print --no-index --color never ra >ra.txt 2>/dev/null
tap_check "the sweep alone: a knee and a latency fit" \
	'grep -q "^  saturation  *throughput knee at concurrency 4" ra.txt &&
	 grep -q "p95 request latency (s) vs concurrency" ra.txt'
"$BIN" --print --no-index --color never ra rb/m-openai-chat-concurrency2/profile_export.json >rab.txt 2>rab.err
rc=$?
tap_check "with another sweep's level 2: exit 0, the 5 levels shown, saturation not judged and said why" \
	'[ "$rc" -eq 0 ] && grep -q "^  stimulus  *concurrency 1, 2, 2, 4, 8 (5 levels)$" rab.txt &&
	 grep -q "^  saturation  *not judged, nor the latency fit: more than one result at concurrency 2 " rab.txt'
tap_check "... no knee, no fit, no fit finding; named as not judged" \
	'! grep -q "knee\|vs concurrency\|SIZING\.\|SWEEP\.SATURATION" rab.txt &&
	 grep -q "^  - throughput saturation and latency fit of m-openai-chat-concurrency\* (more than one result \
at concurrency 2)$" rab.txt'
"$BIN" --export sources --no-index ra rb/m-openai-chat-concurrency2/profile_export.json >rab.csv 2>/dev/null
tap_check "... the warning names both files" \
	'grep -q "^warning,rb/m-openai-chat-concurrency2/profile_export,.*2 results at concurrency 2 in series \
.m-openai-chat-concurrency\*.: ra/m-openai-chat-concurrency2/profile_export\* and \
rb/m-openai-chat-concurrency2/profile_export\* (other runs, or a level measured twice)" rab.csv'
tap_plan
