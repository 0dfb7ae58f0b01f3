#!/bin/sh
# evidence_all.sh: every finding id's Enter opens its own evidence (issue 10), never the
# previous finding's cursor. For each id a fixture fires it (generated here, or the demo,
# or ../shared/real); one explorer session per fixture opens its findings one after the
# other from the Findings tab (filter id=ID, Enter) and the screen must show that
# finding's evidence: its rank and steps on the heatmap, its series or phase marked in
# the Steps pane, its Budget, or its own row of the view that holds it; on traces without
# steps (no heatmap) a rank's finding opens its row of the view it names (comm_overlap)
# or of sources. The test fails when a registered rule (model/*/rules.c) has no row here.
# A drill-down into a tab that already has a filter (a finding's, or the user's) shows
# exactly its evidence, and Esc puts the tab's own filter back.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
build="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
real="$TSCOPE_ROOT/../shared/real"
sweepfx="$TSCOPE_ROOT/tests/unit/fixtures/sweep"
rm -rf ev && mkdir ev && cd ev || exit 1

# ---- fixtures -------------------------------------------------------------------------
"$build/gen_fixtures" f1 f1 >/dev/null && "$build/gen_fixtures" f2 f2 >/dev/null &&
	"$build/gen_fixtures" failslow fs >/dev/null || { tap_notok "gen_fixtures"; exit 0; }
"$build/gen_dasf" fixture dasf >/dev/null 2>&1 && "$build/gen_dasf" skew skew.db >/dev/null 2>&1 ||
	{ tap_notok "gen_dasf"; exit 0; }
# kitchen: one rank, backward 4x forward, optimizer 29% of the step, every 4th step 3x
# (jitter), loss rising (no progress)
mkdir kitchen
printf '{"name":"kitchen","world_size":1}\n' >kitchen/run.json
awk 'BEGIN { for (s = 0; s < 60; s++) { k = s % 4 == 3 ? 3 : 1
	printf "{\"step\":%d,\"timestamp\":%d.0,\"phases\":{\"forward\":%.6f,\"backward\":%.6f,\"optimizer\":%.6f},\"scalars\":{\"loss\":%.4f}}\n",
		s, 1000 + s, 0.01 * k, 0.04 * k, 0.02 * k, 2 + 0.01 * s } }' >kitchen/steps.jsonl
# imb: 4 ranks with +-40% compute noise (imbalance, no straggler), rank 0's loss NaN at step 40
# slow2: 4 ranks, ranks 2 and 3 30% slower throughout (pytscope takes one, SLOW_RANK the other)
for r in 0 1 2 3; do
	mkdir -p imb/rank$r slow2/rank$r
	printf '{"name":"imb","rank":%d,"world_size":4}\n' $r >imb/rank$r/run.json
	printf '{"name":"slow2","rank":%d,"world_size":4}\n' $r >slow2/rank$r/run.json
	awk -v r=$r 'BEGIN { srand(r + 1); for (s = 0; s < 60; s++) { c = 0.1 * (0.6 + 0.8 * rand())
		loss = r ? "" : s == 40 ? ",\"scalars\":{\"loss\":NaN}" : sprintf(",\"scalars\":{\"loss\":%.4f}", 2 - s * 0.001)
		printf "{\"step\":%d,\"timestamp\":%d.0,\"phases\":{\"forward\":%.6f,\"backward\":%.6f,\"comm\":0.003}%s}\n",
			s, 1000 + s, 0.4 * c, 0.6 * c, loss } }' >imb/rank$r/steps.jsonl
	awk -v r=$r 'BEGIN { srand(r + 11); for (s = 0; s < 60; s++) { c = 0.1 * (0.98 + 0.04 * rand()) * (r >= 2 ? 1.3 : 1)
		printf "{\"step\":%d,\"timestamp\":%d.0,\"phases\":{\"forward\":%.6f,\"backward\":%.6f,\"comm\":0.003}}\n",
			s, 1000 + s, 0.4 * c, 0.6 * c } }' >slow2/rank$r/steps.jsonl
done
# nodes: 16 ranks at 8 GPUs per node, node 1 (ranks 8-15) 20% slower; rank 11 launched
# with another batch size, rank 3 with another CUDA
"$build/gen_demo" run 16 300 >/dev/null && mv run nodes || { tap_notok "gen_demo"; exit 0; }
sed 's/"batch_size": 16/"batch_size": 32/' nodes/rank11/run.json >x && mv x nodes/rank11/run.json
sed 's/"cuda": "12.1"/"cuda": "11.8"/' nodes/rank3/run.json >x && mv x nodes/rank3/run.json
for r in 8 9 10 11 12 13 14 15; do
	awk '{ for (f = 1; f <= 2; f++) { key = f == 1 ? "\"forward\":" : "\"backward\":"
		if (match($0, key "[0-9.e-]+")) { v = substr($0, RSTART + length(key), RLENGTH - length(key))
			$0 = substr($0, 1, RSTART - 1) key sprintf("%.9f", v * 1.2) substr($0, RSTART + RLENGTH) } } print }' \
		nodes/rank$r/steps.jsonl >x && mv x nodes/rank$r/steps.jsonl
done
# sweeps: an analyze export (saturation; all configs fail ttft_p99<5), a Cerebras file
# whose aggregate is a sum of rates with one slow ordinal, NAT calculator outputs
mkdir an cb cb/performance nat nat3
cp "$sweepfx/analyze_export_genai_perf.csv" an/
cp "$sweepfx/cerebras_sum_of_rates.json" cb/performance/performance.json
cp "$sweepfx/nat_stored_latency_fit.json" nat/calc_runner_output.json
printf '{"calc_data":{"1":{"sizing_metrics":{"llm_latency_p95":5,"workflow_runtime_p95":5}},"2":{"sizing_metrics":{"llm_latency_p95":1,"workflow_runtime_p95":1}},"4":{"sizing_metrics":{"llm_latency_p95":6,"workflow_runtime_p95":6}},"8":{"sizing_metrics":{"llm_latency_p95":2,"workflow_runtime_p95":2}}}}\n' >nat3/calc_runner_output.json
ln -s "$TSCOPE_ROOT/testdata/demo" demo
# nostep: three traces without a ProfilerStep (no heatmap), rank 2's on another backend;
# exp2: a real one-rank trace without steps
mkdir nostep
for r in 0 1 2; do "$build/gen_trace" nostep/rank$r.pt.trace.json 1 $r || { tap_notok "gen_trace"; exit 0; }; done
sed -i 's/ProfilerStep#/NoStep#/g' nostep/*.json &&
	sed -i 's/"backend": *"nccl"/"backend": "gloo"/' nostep/rank2.pt.trace.json
[ -d "$real/pytscope-t4/exp2_bad" ] && ln -s "$real/pytscope-t4/exp2_bad" exp2
[ -d "$real/kineto-hta-2rank" ] && ln -s "$real/kineto-hta-2rank" hta
# dlrm3: the 8 DLRM traces, rank 3's with another GPU name (TRACE.ENV_DIFFERS)
if [ -d "$real/kineto-dlrm-8rank" ]; then
	mkdir dlrm3
	for f in "$real"/kineto-dlrm-8rank/worker*.json; do ln -s "$f" dlrm3/; done
	w3=$(ls dlrm3/worker3_*)
	rm "$w3" && sed 's/Tesla V100-SXM2-32GB/Tesla V100-SXM2-16GB/g' "$real/kineto-dlrm-8rank/${w3#dlrm3/}" >"$w3"
fi

# ---- the table: fixture | id | keys before Enter | what the evidence screen shows -----
# (grep -E patterns on the dump; "|" inside a pattern is written as \| and unescaped)
cat >table <<'T'
demo|CROSS.CORRELATED_INSTABILITY||^ rank 0 step 300 
demo|MEMORY.GROWTH||^▲memory 
demo|MEMORY.FRAGMENTATION||^▲memory 
demo|DIST.STRAGGLER||^ rank 11  step [0-9-]*  compute 
demo|EFFICIENCY.LOW_MFU||^ Budget of rank 0: rank wall 
f1|TIMING.DATALOADER_BOUND||▲data 
f2|EFFICIENCY.RECOVERABLE||^ Budget of rank 0: rank wall 
fs|DIST.FAIL_SLOW||^ rank 17  step (99[5-9]\|100[0-5])
fs|DIST.TRANSIENT_STALL||^ rank 30  step (39[0-9]-4[01][0-9]\|40[01])[ -]
kitchen|TIMING.BACKWARD_HEAVY||▲backward 
kitchen|TIMING.OPTIMIZER_HEAVY||▲optimizer
kitchen|TIMING.JITTER||^▲step_time 
kitchen|CONVERGENCE.NO_PROGRESS||^▲loss 
imb|CONVERGENCE.DIVERGED||^ rank 0 step 40 .*loss nan
imb|DIST.LOAD_IMBALANCE||^ ranks  row [1-4]/4  rank=@WORST@$
slow2|DIST.SLOW_RANK||^ rank 2  step 0 
nodes|NODE.SLOW_TOGETHER||^ rank (8\|9\|1[0-5])  step 
nodes|CONFIG.RANKS_DIFFER||^ rank 11  step 0-[0-9]*  compute 
nodes|ENV.RANKS_DIFFER||^ rank 3  step 0-[0-9]*  compute 
hta|DIST.COMM_BOUND||▲comm
hta|DIST.EXPOSED_COMM||^ rank 0  step 551 
hta|TRACE.GPU_IDLE||^ temporal  row 1/1 \(of 2\)  rank=1 
dlrm3|TRACE.ENV_DIFFERS||^ rank 3  step 10 
nostep|DIST.EXPOSED_COMM||^ comm_overlap  row 1/3  rank=0$
nostep|TRACE.ENV_DIFFERS||^▶file  .*/rank2\.pt\.trace\.json  *kineto  *2 
exp2|DIST.EXPOSED_COMM||^ comm_overlap  row 1/1  rank=0$
dasf|DASF.GPU_IDLE||^ function_bottleneck  row .* filter 'Function=proc'$
skew.db|DASF.FUNCTION_DOMINATES||^ function_bottleneck  row .* filter 'Function=big'$
skew.db|DASF.WORKER_IMBALANCE||^ worker worker-x-0  second 
an|SWEEP.SATURATION||^ sweep  row 1/1 .* filter 'config=gpt2_run_config_1'$
an|SWEEP.CONSTRAINT||^ sweep  row 1/1 .* filter 'config=gpt2_run_config_0'$
cb|CEREBRAS.AGGREGATE_MISMATCH||^▶cb/performance/performance.json  *stored 
cb|CEREBRAS.SLOW_ORDINAL||^▶cb/performance/performance.json  *ordinal 1 
nat|SIZING.OUTLIERS||^▶nat  .* llm_latency_p95 
nat|SIZING.STORED_DIFFERS||^▶nat  .* llm_latency_p95 
nat3|SIZING.POOR_FIT||^▶nat  .* llm_latency_p95 
nat3|SIZING.POOR_FIT|j|^▶nat  .* workflow_runtime_p
T
worst=$("$TSCOPE_BIN" --export ranks --sort -time_lost_s imb 2>/dev/null | sed -n 2p | cut -d, -f1)
sed -i "s/@WORST@/$worst/" table

# Every registered rule has a row.
grep -rhoE '\{ "[A-Z]+\.[A-Z_]+", [0-9]+, rule_' "$TSCOPE_ROOT/model" | sed 's/{ "\([^"]*\)".*/\1/' | sort -u >registered
cut -d'|' -f2 table | sort -u >tabled
missing=$(comm -23 registered tabled | tr '\n' ' ')
tap_check "every registered finding id ($(wc -l <registered | tr -d ' ')) has an evidence check${missing:+; missing: $missing}" \
	'[ -z "$missing" ] && [ "$(wc -l <registered)" -ge 29 ]'

# One session per fixture, its findings in table order.
args() { [ "$1" = an ] && echo "--constraint ttft_p99<5"; }
for fx in $(cut -d'|' -f1 table | uniq); do
	if [ ! -e "$fx" ]; then
		for id in $(awk -F'|' -v f="$fx" '$1 == f { print $2 }' table); do tap_skip "$id: ../shared/real not present"; done
		continue
	fi
	: >"$fx.keys"
	n=0
	awk -F'|' -v f="$fx" '$1 == f' table | while IFS='|' read -r f id keys want; do
		n=$((n + 1))
		printf '6\nf\n<C-u>id=%s<Enter>\n%s\n<Enter>\n:dump %s/ev/%s.%d\n' "$id" "$keys" "$TSCOPE_TMP" "$fx" "$n" >>"$fx.keys"
	done
	LINES=60 COLUMNS=140 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/ev/$fx.keys" \
		"$TSCOPE_BIN" --tui $(args "$fx") "$fx" >/dev/null 2>"$fx.err"
	rc=$?
	n=0
	awk -F'|' -v f="$fx" '$1 == f' table >"$fx.rows"
	while IFS='|' read -r f id keys want; do
		n=$((n + 1))
		pat=$(printf '%s' "$want" | sed 's/\\|/|/g')
		desc="$id ($fx${keys:+, $keys}): Enter opens its evidence /$pat/"
		if [ $rc -eq 0 ] && [ -f "$fx.$n" ] && grep -qE "$pat" "$fx.$n" && ! grep -q "no evidence to open" "$fx.$n"; then
			tap_ok "$desc"
		else
			tap_notok "$desc"
			[ -f "$fx.$n" ] && tail -3 "$fx.$n" | sed 's/^/# /'
			sed 's/^/# stderr: /' "$fx.err" | head -3
		fi
	done <"$fx.rows"
done

# A drill-down into a tab that has a filter shows exactly its evidence, and its filter
# is gone once Esc leaves it: the pane's own filter is back (the man page's "never the
# previous finding's cursor"). sw: after SWEEP.SATURATION filtered sweep to concurrency
# 8, Enter on the Sweep pane's first point (concurrency 1) opens that row of every row;
# nostep: comm_overlap filtered to rank 1 by hand, DIST.EXPOSED_COMM (rank 0) lands on
# rank 0's row, as its message says, and after Esc the tab is filtered to rank 1 again;
# TRACE.GPU_IDLE's rank filter on the GPU time tab (9) is gone after Esc.
"$build/gen_sweep" sw 200 8 5 4 >/dev/null || tap_notok "gen_sweep"
drill() {   # drill FIXTURE NAME KEYS: the session, dumps NAME.1, NAME.2, ...
	printf '%b' "$3" >"$2.keys"
	LINES=40 COLUMNS=140 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/ev/$2.keys" \
		"$TSCOPE_BIN" --tui "$1" >/dev/null 2>"$2.err"
}
st() { grep -E "^ $2  row " "$1"; }   # the status row of table NAME in dump FILE
D="$TSCOPE_TMP/ev"
drill sw dsw "6\nf\n<C-u>id=SWEEP.SATURATION<Enter>\n<Enter>\n:dump $D/dsw.1\n8\n<Enter>\n:dump $D/dsw.2\n"
tap_check "a Sweep point after a finding filtered sweep: its own row, every row shown" \
	'st dsw.1 sweep | grep -q "filter .config=" && st dsw.2 sweep | grep -qE "row 1/5  series=" &&
	 ! st dsw.2 sweep | grep -q filter'
drill nostep dno ":view comm_overlap\nf\n<C-u>rank=1<Enter>\n6\nf\n<C-u>id=DIST.EXPOSED_COMM<Enter>\n<Enter>\n\
:dump $D/dno.1\n<Esc>\n:view comm_overlap\n:dump $D/dno.2\n9\n:dump $D/dno.3\n6\nf\n<C-u>id=TRACE.GPU_IDLE<Enter>\n\
<Enter>\n:dump $D/dno.4\n<Esc>\n9\n:dump $D/dno.5\n"
tap_check "a rank's finding on a tab filtered to another rank: its rank's row, as the message says" \
	'st dno.1 comm_overlap | grep -qE "row 1/3  rank=0$" && grep -q "rank 0.s row of comm_overlap" dno.1'
tap_check "... and after Esc the tab's own filter is back" "st dno.2 comm_overlap | grep -q \"filter 'rank=1'\""
tap_check "TRACE.GPU_IDLE filters the GPU time tab to its rank, not after Esc" \
	'st dno.3 temporal | grep -q "row 1/3  rank=0" && st dno.4 temporal | grep -q "filter .rank=0." &&
	 st dno.5 temporal | grep -q "row 1/3  rank=0" && ! st dno.5 temporal | grep -q filter'
tap_plan
