#!/bin/sh
# diff_sweep.sh: two GenAI-Perf sweep dirs form a pair (model/identity.c) and compare
# level by level (diff_sweep; --print's SWEEP section and verdict): generated sweeps
# where B is 10% slower at concurrency 2, identical sweeps (zero deltas), a sweep vs a
# training run (refused), a sweep dir with a Cerebras or NAT dir (one run in either
# order, never compared), ../shared/real/genai-perf-medium against a copy of itself, a
# truncated level file (B's data quality under the verdict), and levels one side only
# has (named after the verdict: "not compared: concurrency 2 (only in A)"). Two results at
# one level on a side (another sweep's level dir beside the sweep) are never compared by
# whichever comes first: a row each, its config named (a_config, b_config), no delta, and
# the verdict names both results, whatever the directory names (it took the first one
# and flipped between "no difference" and "+10%" with a directory's name). A sweep that
# records no throughput gets no "same latency and throughput": the verdict names the
# metrics it compared and those only one side records (not judged). Sweeps crossed with a
# second stimulus (concurrency x input_length) pair level by level per input length.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1
"$B/gen_sweep" sa 40 4 3 && "$B/gen_sweep" sb 40 4 3 2 && "$B/gen_sweep" sc 40 4 3 &&
	"$B/gen_pair" run 2 20 1 || { tap_notok "sweeps generated"; exit 1; }

hdr="stimulus,level,a_latency_p50_ms,b_latency_p50_ms,delta_latency_p50_ms,delta_latency_p50_pct,a_latency_p99_ms,\
b_latency_p99_ms,delta_latency_p99_ms,delta_latency_p99_pct,a_ttft_p99_ms,b_ttft_p99_ms,delta_ttft_p99_ms,\
delta_ttft_p99_pct,a_request_throughput,b_request_throughput,delta_request_throughput,delta_request_throughput_pct,\
a_output_token_throughput,b_output_token_throughput,delta_output_token_throughput,\
delta_output_token_throughput_pct,a_config,b_config,workload"
"$TSCOPE_BIN" --export diff_sweep sa sb >slow.csv 2>slow.err
tap_check "two sweep dirs: diff_sweep header" '[ "$(head -1 slow.csv)" = "$hdr" ]'
tap_eq "two sweep dirs: one row per level" "$(tail -n +2 slow.csv | cut -d, -f1,2 | tr '\n' ' ')" "concurrency,1 concurrency,2 concurrency,4 "
tap_check "B 10% slower at level 2: latency p50 delta +10%" \
	'awk -F, "\$2 == 2 && \$6 > 9.9 && \$6 < 10.1 { ok = 1 } END { exit !ok }" slow.csv'
tap_check "other levels: zero latency delta" \
	'[ "$(awk -F, "NR > 1 && \$2 != 2 && \$5 != 0" slow.csv | wc -l)" -eq 0 ]'

"$TSCOPE_BIN" --export diff_sweep sa sc >same.csv
tap_check "identical sweeps: every delta zero" \
	'[ "$(tail -n +2 same.csv | awk -F, "{ for (i = 5; i <= NF; i += 4) if (\$i != \"\" && \$i != 0) print }" | wc -l)" -eq 0 ] && [ "$(wc -l <same.csv)" -eq 4 ]'

"$TSCOPE_BIN" --print --color never sa sb >slow.txt 2>/dev/null
tap_check "--print: a SWEEP section whose heading gives the largest change, never a regression" \
	'grep -q "^● SWEEP — largest change: latency p[59]9 +10.0% at concurrency 2 (3 common levels; one run per \
level: no noise estimate, nothing called a regression)$" slow.txt'
tap_check "... then a line per common level (level 2: +10.0% p50 and p99)" \
	'grep -q "^ *level  *p50 A ms  *p50 B ms  *p50 %  *p99 %  *ttft p99 %  *req/s A  *req/s B  *req/s %$" slow.txt &&
	 grep -q "^ *2.00  *[0-9.]*  *[0-9.]*  *10.0  *10.0 " slow.txt'
tap_check "... and no step comparison or budget (sweeps have no steps)" '! grep -q "COMPARISON\|BUDGET" slow.txt'
"$TSCOPE_BIN" --print --color never sa sc >same.txt 2>/dev/null
tap_check "identical sweeps: no difference at the 3 common levels" \
	'grep -q "^● SWEEP — no difference: the same latency and throughput at 3 common concurrency levels$" same.txt'

# Levels of one side only are named after the verdict, "no difference" or not: A keeps
# levels 2 and 4, B levels 1 and 4.
cp -r sa sa2 && rm -r sa2/m-openai-chat-concurrency1 && cp -r sc sc2 && rm -r sc2/m-openai-chat-concurrency2
"$TSCOPE_BIN" --print --color never sa2 sc2 >part.txt 2>/dev/null
tap_check "levels of one side only: named after the verdict (not compared)" \
	'grep -q "^● SWEEP — no difference: the same latency and throughput at 1 common concurrency level; \
not compared: concurrency 2 (only in A), 1 (only in B)$" part.txt'
"$TSCOPE_BIN" --print --color never sa2 sb >part2.txt 2>/dev/null
tap_check "... after a change too" \
	'grep -q "^● SWEEP — largest change: .*(2 common levels; .*); not compared: concurrency 1 \
(only in B)$" part2.txt'

# B's level 2 file cut in half (partial, its record skipped): under the verdict, B's data
# quality and that levels only in A may be its lost data.
cp -r sa sq && f=sq/m-openai-chat-concurrency2/profile_export.json && truncate -s $(($(wc -c <"$f") / 2)) "$f"
"$TSCOPE_BIN" --print --color never sa sq >sq.txt 2>/dev/null
tap_check "a truncated level file in B: B's data quality under the SWEEP verdict" \
	'sed -n 4p sq.txt | grep -q "^  data quality of B: 1 record skipped, 0 files unreadable, 1 partial \
(--export sources A B); levels only in A may be B.s lost data$"'

# Two results at concurrency 2 in A: the sweep's own and a rerun's (B's, 10% slower), in a
# subdirectory named to sort after the sweep's (rerun/) or before it (0rerun/).
for d in sd se; do cp -r sa $d; done
mkdir sd/rerun se/0rerun && cp -r sb/m-openai-chat-concurrency2 sd/rerun/ &&
	cp -r sb/m-openai-chat-concurrency2 se/0rerun/
"$TSCOPE_BIN" --print --no-index --color never sd sc >sd.txt 2>/dev/null
"$TSCOPE_BIN" --print --no-index --color never se sc >se.txt 2>/dev/null
tap_check "two results at a level in A: not compared, both named; the other levels the same" \
	'grep -q "^● SWEEP — no difference: the same latency and throughput at 2 common concurrency levels; \
not compared: concurrency 2 (2 results in A: m-openai-chat-concurrency2, rerun/m-openai-chat-concurrency2)$" sd.txt'
tap_check "... the same verdict whatever the rerun directory's name" \
	'grep -q "^● SWEEP — no difference: .* at 2 common concurrency levels; not compared: concurrency 2 \
(2 results in A: 0rerun/m-openai-chat-concurrency2, m-openai-chat-concurrency2)$" se.txt'
"$TSCOPE_BIN" --export diff_sweep --no-index sd sc >sd.csv 2>/dev/null
tap_eq "diff_sweep: a row per result at that level, each config named, no delta" \
	"m-openai-chat-concurrency2:m-openai-chat-concurrency2:: \
rerun/m-openai-chat-concurrency2:m-openai-chat-concurrency2:: " \
	"$(awk -F, '$2 == 2 { printf "%s:%s:%s:%s ", $23, $24, $5, $6 }' sd.csv)"

# B records no throughput (no Metric,Value table): latency compared, throughput not judged.
mkcsv() { # mkcsv DIR RPS: a level's *_genai_perf.csv, its throughput table when RPS is given
	mkdir -p "$1"
	{
		printf 'Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\n'
		printf 'Request Latency (ms),100,50,200,190,180,170,150,100,80,70,60,55\n'
		if [ -n "${2:-}" ]; then
			printf '\nMetric,Value\nOutput Token Throughput (tokens/sec),400\n'
			printf 'Request Throughput (per sec),%s\n' "$2"
		fi
	} >"$1/p_genai_perf.csv"
}
for c in 1 2; do mkcsv tpa/x-openai-chat-concurrency$c $c && mkcsv tpb/x-openai-chat-concurrency$c; done
"$TSCOPE_BIN" --print --no-index --color never tpa tpb >cab.txt 2>/dev/null
tap_check "no throughput in B: the same latency only, throughput not judged (only in A)" \
	'grep -q "^● SWEEP — no difference: the same latency p50 and latency p99 at 2 common concurrency levels; \
not judged: request throughput and output token throughput (only in A)$" cab.txt'

# concurrency x input_length in one export: each input length's levels pair with their own.
analyze() { # analyze DIR ROW...: an analyze export of concurrency x ISL
	d=$1
	shift
	mkdir -p "$d"
	printf '%s\n' 'Config Name,Concurrency,ISL,p99 Request Latency (ms),Request Throughput (requests/sec)' "$@" \
		>"$d/analyze_export_genai_perf.csv"
}
analyze xa g_0,1,1000,900,1 g_1,2,1000,1000,1.9 g_3,1,100,300,3 g_4,2,100,320,6
analyze xb g_0,1,1000,900,1 g_1,2,1000,1000,1.9 g_3,1,100,300,3 g_4,2,100,352,6
"$TSCOPE_BIN" --print --no-index --color never xa xb >xab.txt 2>/dev/null
tap_check "crossed input lengths: paired per input length, the change found at ISL 100" \
	'grep -q "^● SWEEP — largest change: latency p99 +10.0% at concurrency 2 for input_length=100 \
(4 common levels;" xab.txt'

"$TSCOPE_BIN" --export diff_sweep sa run >mix.out 2>mix.err
rc=$?
tap_check "sweep vs training run: refused" '[ "$rc" -ne 0 ] && [ ! -s mix.out ]'

# A Cerebras or NAT PATH keeps the sweep PATHs one run, whichever comes first: each PATH
# is judged by the loader that claims it (not the first PATH's), so never compared.
mkdir -p cb nat/job_1
printf '{"compile_time": 1.0, "ordinals": [{"samples_per_sec": 100.0, "total_samples": 1000, "total_time": 10.0}],
 "programming_time": 1.0, "samples_per_sec": 100.0, "total_samples": 1000, "total_time": 10.0}\n' >cb/performance.json
{
	printf '{"gpu_estimates": {"gpu_estimate_by_wf_runtime": null, "gpu_estimate_by_llm_latency": null}, '
	printf '"calc_data": {'
	for c in 1 2 4; do
		sep=,
		[ $c = 1 ] && sep=
		printf '%s"%s": {"sizing_metrics": {"alerts": {"workflow_interrupted": false}, ' "$sep" $c
		printf '"llm_latency_p95": 1.%s, ' $c
		printf '"workflow_runtime_p95": 4.%s, "total_runtime": 30.0, "per_item_metrics": {}}}' $c
	done
	printf '}}\n'
} >nat/job_1/calc_runner_output.json
for other in cb nat; do
	for order in "sa $other" "$other sa"; do
		"$TSCOPE_BIN" --print --no-index --color never $order >mixed.txt 2>/dev/null
		first=${order%% *}
		tap_check "a sweep dir and a ${other} dir ($order): one run, not compared" \
			'head -1 mixed.txt | grep -qx "tscope-tui — $first  ($first)" &&
			 ! grep -q "^tscope-tui compare\|^● SWEEP —" mixed.txt'
	done
done

"$TSCOPE_BIN" --list-views >views.txt 2>&1
tap_check "--list-views names diff_sweep" 'grep -q "diff_sweep" views.txt'

real="$TSCOPE_ROOT/../shared/real/genai-perf-medium"
if [ -d "$real" ]; then
	cp -r "$real" medium
	"$TSCOPE_BIN" --export diff_sweep "$real" medium >real.csv
	tap_eq "real sweep vs its copy: levels 1 10 25 50" "$(tail -n +2 real.csv | cut -d, -f2 | tr '\n' ' ')" "1 10 25 50 "
	tap_check "real sweep vs its copy: zero deltas, ttft empty (non-streaming)" \
		'[ "$(tail -n +2 real.csv | awk -F, "{ for (i = 5; i <= NF; i += 4) if (\$i != \"\" && \$i != 0) print }" | wc -l)" -eq 0 ] && [ "$(tail -n +2 real.csv | cut -d, -f11 | grep -vc "^\$")" -eq 0 ]'
else
	tap_skip "../shared/real/genai-perf-medium not present"
fi
tap_plan
