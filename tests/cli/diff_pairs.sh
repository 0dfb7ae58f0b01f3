#!/bin/sh
# diff_pairs.sh: comparisons beyond pytscope's single-rank diff: generated 8-rank pairs
# (tests/tools/gen_pair) where rank 5 regresses from step 100 (diff_ranks puts it first
# with its onset, the verdict names it), identical pairs (no difference), pairs that
# differ only by run-to-run noise (no regression), different step ranges (stated, common
# part compared), and trace pairs from ../shared/real (diff_kernels, and the GPU each
# side's lowest-rank trace records: the report's ENVIRONMENT section and diff_env; the
# KERNELS section and diff_kernels put the largest change first, a decrease too; a kernel
# of one side only by its total there, the other side's cells and the deltas empty, and
# deltas of unlike scopes not judged, said beside the export); a
# workload key is compared by value (16 and "16", a GPU name's case and white space).
# The layout decides pytscope's single-rank diff, not the ranks loaded: rank0/ dirs, or
# rank dirs of which --ranks loads one, are multi-rank (COMPARISON follows; --compat
# pytscope refuses, in --print, --export and the explorer alike); a rank dir given alone
# keeps its rank id (its name's rank{k}, else its run.json's rank), so a/rank5 against
# rank dirs is matched with rank 5, and its own report says rank 5. Each side's data
# quality (broken lines, a truncated trace) is said on stderr naming the side, in the
# report under the verdict, in the explorer's Overview (a short line each, one "A and B
# clean" when neither lost anything), and `--export sources A B` lists both sides'
# sources, a first column side. diff_ranks ends with the
# basis the ranks are compared by (compute here), the ranks without a delta (of one run
# only, or that measured no time: every phase 0, no delta nor time lost, their zeros
# not counted in the others' time lost) after those with one. Kernels are compared over
# like scopes: traces with ProfilerStep spans (HTA leaves out each rank's last) against
# the same traces without any (counted whole) leave every kernel delta empty and say
# what each side counts (it showed the same GPU work as an increase, 136 -> 144 NCCL
# kernels); two trace sets of one kind keep their deltas. Sides that count other numbers
# of profiler steps (17 and 35 a rank) are compared per profiler step, said in the heading
# and on stderr; a side whose ranks count other numbers is not judged. A budget that
# leaves out 5% or more of its phase time in phases it does not weigh (fwd, bwd) leaves
# every budget delta empty, said why; a smaller share left out is said, the deltas kept.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
cd "$TSCOPE_TMP" || exit 1
"$gen" a 8 200 1 && "$gen" same 8 200 1 && "$gen" noise 8 200 2 && "$gen" reg 8 200 2 5 100 &&
	"$gen" short 8 120 1 || { tap_notok "pairs generated"; exit 1; }

"$TSCOPE_BIN" --print a reg >reg.txt
tap_check "multi-rank: pytscope's diff report comes first" 'head -1 reg.txt | grep -qx "pytscope diff  (a  vs  reg)"'
tap_check "regression: the verdict names rank 5 and its onset" \
	'grep -q "^● COMPARISON — B is [0-9.]*% slower per step; rank 5 regressed from step 100$" reg.txt'
tap_check "regression: the straggler finding is new in B" 'grep -q "^  new .*Rank 5 is a persistent straggler" reg.txt'
"$TSCOPE_BIN" --export diff_ranks a reg >reg.csv
tap_check "diff_ranks: rank 5 first, regressed, onset 100, by compute (basis)" \
	'sed -n 2p reg.csv | grep -q "^5,regressed,.*,100,200,compute$"'
tap_eq "diff_ranks: only rank 5 regressed" "$(grep -c ',regressed,' reg.csv)" 1

"$TSCOPE_BIN" --print a same >same.txt
tap_check "identical pair: no difference" 'grep -q "^● COMPARISON — no difference: identical per-step times on 200 common steps of 8 ranks$" same.txt'
"$TSCOPE_BIN" --export diff_ranks a same >same.csv
tap_check "identical pair: no rank regressed" '! grep -q regressed same.csv'

"$TSCOPE_BIN" --print a noise >noise.txt
tap_check "noise only: no regression called" 'grep -q "within noise.*no rank regressed beyond its noise$" noise.txt'

"$TSCOPE_BIN" --print a short >short.txt
tap_check "different step ranges are stated" \
	'grep -q "A: 8 ranks, steps 0-199; B: 8 ranks, steps 0-119; compared: 8 common ranks, 120 common steps" short.txt'

# --compat pytscope: pytscope 0.2.1's diff reads no rank dirs, so a multi-rank side has
# no steps for it; a single-rank pair prints the same bytes in both modes (diff.sh).
"$TSCOPE_BIN" --print --compat pytscope a reg >compat.out 2>compat.err
rc=$?
tap_check "--compat pytscope, multi-rank: pytscope's refusal, exit 1" \
	'[ "$rc" -eq 1 ] && [ ! -s compat.out ] && grep -qx "Both run directories must contain steps." compat.err'
# ... and --export VIEW, --export all and the explorer end the same way: nothing written or opened
"$TSCOPE_BIN" --export diff_ranks --compat pytscope a reg >compatx.out 2>compatx.err
rc=$?
tap_check "... --export diff_ranks: the same refusal, exit 1, no CSV" \
	'[ "$rc" -eq 1 ] && [ ! -s compatx.out ] && grep -qx "Both run directories must contain steps." compatx.err'
"$TSCOPE_BIN" --export all -o compat_all --compat pytscope a reg >/dev/null 2>compata.err
rc=$?
tap_check "... --export all: the same refusal, exit 1, no directory written" \
	'[ "$rc" -eq 1 ] && [ ! -e compat_all ] && grep -qx "Both run directories must contain steps." compata.err'
printf '1\n:dump %s/compat_ov\nq\n' "$PWD" >compat.keys
TSCOPE_SCRIPT=compat.keys TERM=dumb LINES=30 COLUMNS=140 "$TSCOPE_BIN" --tui --compat pytscope a reg >/dev/null \
	2>compatt.err
rc=$?
tap_check "... the explorer: the same refusal, exit 1, nothing opened" \
	'[ "$rc" -eq 1 ] && [ ! -e compat_ov ] && grep -qx "Both run directories must contain steps." compatt.err'
"$TSCOPE_BIN" --export diff_ranks --compat pytscope a/rank0 same/rank0 >compat1.csv 2>/dev/null
tap_check "... a single-rank pair (pytscope's layout) still exports under --compat pytscope" \
	'[ $? -eq 0 ] && [ "$(wc -l <compat1.csv)" -eq 2 ]'
"$TSCOPE_BIN" --export diff_ranks a >one.csv 2>one.err
rc=$?
tap_check "a diff_* view of one run: usage error naming two runs" '[ "$rc" -eq 2 ] && grep -q "compares two runs" one.err'

real="$TSCOPE_ROOT/../shared/real"
if [ -d "$real/kineto-dlrm-8rank" ] && [ -d "$real/kineto-hta-2rank" ]; then
	"$TSCOPE_BIN" --export diff_kernels "$real/kineto-dlrm-8rank" "$real/kineto-hta-2rank" >k.csv
	tap_check "trace pair: diff_kernels header" \
		'head -1 k.csv | grep -qx "kernel,type,status,a_count,b_count,delta_count,a_total_us,b_total_us,delta_total_us,a_mean_us,b_mean_us,delta_mean_us"'
	tap_check "trace pair: kernels only in B listed" 'grep -q ",only_in_B," k.csv'
	tap_check "trace pair: shared NCCL kernel with its delta" \
		'grep -q "^\"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm\*, unsigned long, ncclWork\*)\",COMMUNICATION,both,40,10,-30,37935,363354,325419," k.csv'
	cp -r "$real/kineto-dlrm-8rank" copy
	"$TSCOPE_BIN" --export diff_kernels "$real/kineto-dlrm-8rank" copy >kc.csv
	tap_check "trace set vs its copy: every kernel in both, no delta" \
		'[ "$(tail -n +2 kc.csv | grep -vc ",both,")" -eq 0 ] && [ "$(tail -n +2 kc.csv | awk -F, "\$(NF-3) != 0" | wc -l)" -eq 0 ]'
	"$TSCOPE_BIN" --print "$real/kineto-dlrm-8rank" copy >kc.txt
	tap_check "trace set vs its copy: no difference" 'grep -q "^● COMPARISON — no difference" kc.txt'
	tap_check "... and the GPU its lowest rank's trace records, the same" \
		'grep -A1 "^● ENVIRONMENT — what the lowest rank.s trace records, A -> B$" kc.txt |
		 grep -qx "  gpu: Tesla V100-SXM2-32GB  (the same)"'
	mkdir a100
	for f in copy/*.json; do sed "s/Tesla V100-SXM2-32GB/NVIDIA A100-SXM4-80GB/g" "$f" >"a100/${f#copy/}"; done
	"$TSCOPE_BIN" --print --color never "$real/kineto-dlrm-8rank" a100 >ka.txt
	tap_check "the same traces on another GPU: the environment names it, A -> B" \
		'grep -qx "  gpu: Tesla V100-SXM2-32GB  ->  NVIDIA A100-SXM4-80GB" ka.txt'
	"$TSCOPE_BIN" --export diff_env "$real/kineto-dlrm-8rank" a100 >ka.csv
	tap_check "--export diff_env of two trace sets: the GPU row, differs; the backend row, the same" \
		'[ "$(cat ka.csv)" = "$(printf "section,key,a,b,differs\ntrace,gpu,Tesla V100-SXM2-32GB,NVIDIA A100-SXM4-80GB,\
yes\ntrace,backend,nccl,nccl,no")" ]'
	printf '1\n:dump %s/kov\nq\n' "$PWD" >kov.keys
	TSCOPE_SCRIPT=kov.keys TERM=dumb LINES=30 COLUMNS=140 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui "$real/kineto-dlrm-8rank" \
		a100 >/dev/null 2>&1
	tap_check "the explorer's compare Overview: the GPU A -> B, and no pytscope reproducibility notes on traces" \
		'grep -q "^  environment  *gpu Tesla V100-SXM2-32GB -> NVIDIA A100-SXM4-80GB (the lowest rank.s trace)$" kov &&
		 ! grep -q "reproducible?\|NONDETERMINISM" kov'
	"$TSCOPE_BIN" --print --color never "$real/kineto-dlrm-8rank" "$real/kineto-hta-2rank" >kh.txt 2>/dev/null
	tap_check "KERNELS: a kernel gone in B (AllReduce, only in A, 10607 us) among the first rows, B's cells '-'" \
		'sed -n "/^● KERNELS/,/more rows/p" kh.txt |
		 grep -q "^  only_in_A  *24  *-  *10607.0  *-  *- ncclKernel_AllReduce"'
	# status:delta_total_us (field NF-3), or status:the total of the one side that has the kernel
	top5=$(tail -n +2 k.csv | awk -F, '{ print $(NF-9) ":" ($(NF-3) != "" ? $(NF-3) : $(NF-5) $(NF-4)) }' |
		head -5 | tr '\n' ' ')
	tap_eq "diff_kernels: largest |delta_total_us| first, a kernel of one side by its total there" \
		"both:325419 only_in_B:40609 only_in_B:25715 only_in_B:19367 only_in_A:10607 " "$top5"
	# the fields from the end: status NF-9, then a_, b_, delta_ of count (NF-8..), total (NF-5..), mean (NF-2..);
	# a kernel of one side only: the other side's three cells and the three deltas, joined
	miss=$(tail -n +2 k.csv | awk -F, '
		$(NF-9) == "only_in_A" { print "A:" $(NF-7) $(NF-4) $(NF-1) $(NF-6) $(NF-3) $NF }
		$(NF-9) == "only_in_B" { print "B:" $(NF-8) $(NF-5) $(NF-2) $(NF-6) $(NF-3) $NF }' |
		sort -u | tr '\n' ' ')
	tap_eq "diff_kernels: a kernel of one side only: the other side's cells and the deltas empty (missing, not 0)" \
		"A: B: " "$miss"
	"$TSCOPE_BIN" --export diff_kernels --sort delta_total_us "$real/kineto-dlrm-8rank" "$real/kineto-hta-2rank" \
		>ks.csv
	tap_check "... --sort delta_total_us still sorts by the signed delta (a kernel in both: -445 us)" \
		'sed -n 2p ks.csv | grep -q ",both,.*,483,38,-445,"'
	tr=$(ls copy/*.json | head -2 | tail -1)
	mkdir tt && cp copy/*.json tt/ && head -c $(($(wc -c <"$tr") / 2)) "$tr" >"tt/${tr#copy/}"
	"$TSCOPE_BIN" --print --color never "$real/kineto-dlrm-8rank" tt >tt.txt 2>tt.err
	tap_check "a truncated trace in B: B's data quality on stderr, named, and under the verdict" \
		'grep -q "^tscope-tui: data quality of B (tt): .* warning" tt.err &&
		 [ "$(grep -vc "^tscope-tui: data quality of A (.*): 0 errors, 0 warnings, " tt.err)" -eq 1 ] &&
		 grep -q "^  data quality of B: 0 records skipped, 0 files unreadable, 1 partial " tt.txt'
	"$TSCOPE_BIN" --export diff_env "$real/kineto-dlrm-8rank" "$real/kineto-hta-2rank" >kh.csv
	tap_check "... a side whose traces record no GPU: n/a there" 'grep -qx "trace,gpu,Tesla V100-SXM2-32GB,n/a,yes" kh.csv'
else
	tap_skip "../shared/real traces absent"
fi
# 2 ranks of 18 ProfilerSteps (A: HTA counts 17) against the same traces without their
# ProfilerStep spans (B: each whole, 18 steps of kernels).
mkdir ta tns
for r in 0 1; do
	"${gen%/*}/gen_trace" ta/rank$r.pt.trace.json 1 $r >/dev/null
	awk '/^  \{$/ { buf = $0 "\n"; ev = 1; next }
	     ev { buf = buf $0 "\n"
		  if ($0 ~ /^  \},?$/) { ev = 0; if (buf !~ /"ProfilerStep#/) printf "%s", buf }
		  next }
	     { print }' ta/rank$r.pt.trace.json >tns/rank$r.pt.trace.json
done
"$TSCOPE_BIN" --print --no-index --color never ta tns >tns.txt 2>/dev/null
tap_check "profiler steps vs whole traces: the KERNELS section says the scopes differ, no delta" \
	'sed -n "/^● KERNELS/,/^●/p" tns.txt | grep -qx "  kernel deltas not judged: A counts 17 profiler \
steps per rank (HTA leaves out the last), B counts its whole trace (no ProfilerStep spans): not like for like" &&
	 sed -n "/^● KERNELS/,/^●/p" tns.txt | grep -q "^  both  *136  *144  *32640.0  *34560.0  *- ncclKernel"'
"$TSCOPE_BIN" --export diff_kernels --no-index ta tns >tns.csv 2>tns.err
tap_eq "... diff_kernels: every delta empty (delta_count, delta_total_us, delta_mean_us)" "" \
	"$(tail -n +2 tns.csv | awk -F, '$(NF-6) $(NF-3) $NF != ""')"
tap_check "... and why said on stderr (the CSV has no title)" \
	'grep -qx "tscope-tui: note on .diff_kernels.: kernel deltas not judged: A counts 17 profiler steps per rank .*" \
	 tns.err'
cp -r tns tns2
"$TSCOPE_BIN" --export diff_kernels --no-index tns tns2 >tns2.csv 2>/dev/null
tap_check "two whole trace sets: deltas kept (0)" \
	'[ "$(tail -n +2 tns2.csv | awk -F, "\$(NF-3) != \"0\"" | wc -l)" -eq 0 ] && [ "$(wc -l <tns2.csv)" -gt 1 ]'

# The same traces at 2 MB (36 ProfilerSteps a rank: HTA counts 35), volta_sgemm twice as
# long: sides of other step counts are compared per profiler step (the totals, doubled with
# the steps, showed every kernel as an increase, AllReduce +106%); B of ranks that count 17
# and 35 has no one count to divide by: not judged, the counts named.
mkdir tc tm
for r in 0 1; do
	"${gen%/*}/gen_trace" tc$r.json 2 $r >/dev/null
	awk 'v && /"dur": 9,/ { sub(/"dur": 9,/, "\"dur\": 18,") } { v = /"name": "volta_sgemm_128x64_nn"/; print }' \
		tc$r.json >tc/rank$r.pt.trace.json
done
cp ta/rank0.pt.trace.json tm/ && cp tc/rank1.pt.trace.json tm/
"$TSCOPE_BIN" --print --no-index --color never ta tc >tc.txt 2>/dev/null
sed -n "/^● KERNELS/,/^●/p" tc.txt >tck.txt
tap_check "17 against 35 profiler steps: KERNELS compares per profiler step, says so, the changed kernel first" \
	'grep -q "^● KERNELS — largest changes in time per profiler step, A -> B " tck.txt &&
	 grep -qx "  deltas per profiler step: A counts 17 profiler steps per rank (HTA leaves out the last), \
B counts 35 profiler steps per rank (HTA leaves out the last)" tck.txt &&
	 grep -A1 " delta us/step kernel$" tck.txt |
		grep -q "^  both  *408  *840  *3672.0  *15120.0  *216.0 volta_sgemm" &&
	 grep -q "^  both  *136  *280  *32640.0  *67200.0  *0.0 ncclKernel" tck.txt'
"$TSCOPE_BIN" --export diff_kernels --no-index ta tc >tc.csv 2>tc.err
tap_eq "... diff_kernels: delta_count and delta_total_us per step (volta_sgemm +216 us, AllReduce 0)" "0,216|0,0" \
	"$(grep -e '^volta' -e '^"ncclKernel' tc.csv | awk -F, '{ print $(NF-6) "," $(NF-3) }' | tr '\n' '|' |
	   sed 's/|$//')"
tap_check "... said on stderr" \
	'grep -qx "tscope-tui: note on .diff_kernels.: deltas per profiler step: A counts 17 .*" tc.err'
"$TSCOPE_BIN" --print --no-index --color never ta tm >tm.txt 2>/dev/null
tap_check "B's ranks count 17 and 35 profiler steps: deltas not judged, the step counts named" \
	'sed -n "/^● KERNELS/,/^●/p" tm.txt >tmk.txt && grep -qx "  kernel deltas not judged: A counts 17 profiler \
steps per rank (HTA leaves out the last), B counts 17-35 profiler steps per rank (HTA leaves out the last): other \
step counts, not one a side to compare per step" tmk.txt &&
	 grep -q "^  both  *136  *208  *32640.0  *49920.0  *- ncclKernel" tmk.txt'

# Budgets that leave out phases they do not weigh: B's forward and backward renamed fwd
# and bwd (78% of its phase time in no budget line) leaves every budget delta empty and
# says why (it showed useful_compute 96.2 -> 6.0 ms as a change); a phase of 0.1% left
# out (extra) is said and the deltas kept.
"$gen" bl 2 40 1 && cp -r bl blren && cp -r bl blx || { tap_notok "budget pairs generated"; exit 1; }
sed -i 's/"forward"/"fwd"/; s/"backward"/"bwd"/' blren/rank*/steps.jsonl
sed -i 's/"comm":/"extra":0.0001,"comm":/' blx/rank*/steps.jsonl
"$TSCOPE_BIN" --print --no-index --color never bl blren >blren.txt 2>/dev/null
sed -n "/^● BUDGET/,/^●/p" blren.txt >blrenb.txt
tap_check "B's budget leaves out 78% of its phase time: BUDGET says so, every delta empty" \
	'grep -q "^  budget deltas not judged: B leaves out .* of phases the budget does not weigh (bwd and others; \
[0-9.]*% of the phase time): the budget.s rank wall misses that time$" blrenb.txt &&
	 grep -q "^  useful_compute  *[0-9.]*  *6.000  *-  *[0-9.]*  *[0-9.]*  *-$" blrenb.txt'
"$TSCOPE_BIN" --export diff_budget --no-index bl blren >blren.csv 2>blren.err
tap_eq "... diff_budget: delta_ms_per_step and delta_pct_points empty on every line" "" \
	"$(tail -n +2 blren.csv | awk -F, '$4 $7 != ""')"
tap_check "... and why said on stderr" \
	'grep -q "^tscope-tui: note on .diff_budget.: budget deltas not judged: B leaves out " blren.err'
"$TSCOPE_BIN" --export diff_budget --no-index bl blx >blx.csv 2>blx.err
tap_check "a phase of 0.1% left out: said, the deltas kept" \
	'grep -qx "tscope-tui: note on .diff_budget.: B leaves out extra .*, a phase the budget does not weigh \
(0.1% of the phase time)" blx.err && grep -q "^useful_compute,[0-9.]*,[0-9.]*,0,[0-9.]*,[0-9.]*,0,no$" blx.csv'

# Under 16 common steps the noise is not estimated: nothing is called a regression or
# slower, however large the difference (8 steps, rank 5 slow from step 2).
"$gen" a8 8 8 1 && "$gen" reg8 8 8 2 5 2 || { tap_notok "short pairs generated"; exit 1; }
"$TSCOPE_BIN" --print --color never a8 reg8 >short8.txt
tap_check "8 common steps: not judged, the raw difference given, no noise figure" \
	'grep -q "^● COMPARISON — not judged: 8 common steps (the noise test needs 16); mean step wall [-+][0-9.]*% in B$" short8.txt &&
	 grep -q "^  mean step wall .* (.* ms, noise n/a) over 8 common steps$" short8.txt && ! grep -q "regressed" short8.txt'
"$TSCOPE_BIN" --print --color always a8 reg8 >short8c.txt
tap_check "its heading is amber, not green" 'grep -q "^.\[33m.*COMPARISON" short8c.txt'
"$TSCOPE_BIN" --export diff_ranks a8 reg8 >short8.csv
tap_check "diff_ranks: change n/a and no noise on every rank" \
	'[ "$(tail -n +2 short8.csv | cut -d, -f2 | sort -u)" = "n/a" ] && [ -z "$(tail -n +2 short8.csv | cut -d, -f6 | sort -u)" ]'
"$gen" same8 8 8 1 || exit 1
"$TSCOPE_BIN" --print a8 same8 >same8.txt
tap_check "identical short pair: still no difference (exact, no noise needed)" \
	'grep -q "^● COMPARISON — no difference: identical per-step times on 8 common steps of 8 ranks$" same8.txt'
"$gen" a1 2 1 1 && "$gen" same1 2 1 1 || exit 1
"$TSCOPE_BIN" --print --color never a1 same1 >same1.txt
tap_check "one common step: step, singular" \
	'grep -q "^● COMPARISON — no difference: identical per-step times on 1 common step of 2 ranks$" same1.txt &&
	 grep -q "^  mean step wall .* (.* ms, noise n/a) over 1 common step$" same1.txt'

# Runs that record only comm: every rank's compute is 0, so the ranks are compared by
# their step time (said so), not called "same" on zeros; no time lost (read off compute).
for side in ca cb; do
	for r in 0 1; do
		mkdir -p "$side/rank$r"
		ms=$((r + 2))
		[ "$side" = cb ] && [ "$r" = 1 ] && ms=6
		for k in $(seq 0 39); do printf '{"step": %d, "phases": {"comm": 0.00%d}}\n' "$k" "$ms"; done \
			>"$side/rank$r/steps.jsonl"
	done
done
"$TSCOPE_BIN" --print --color never --no-index ca cb >nocpu.txt 2>/dev/null
tap_check "no compute phase: rank 1 regressed, judged by step time, said why" \
	'grep -q "^● COMPARISON — B is .*; rank 1 regressed from step 0; ranks judged by step time: " nocpu.txt &&
	 grep -q "; ranks judged by step time: the compute of A and B cannot be weighed (no compute phase recorded)$" \
	 nocpu.txt &&
	 grep -q "^  per-rank step time, A -> B (1 regressed, 0 improved; regressed by size first):$" nocpu.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index ca cb >nocpu.csv 2>/dev/null
tap_eq "... diff_ranks: rank 1 regressed, rank 0 same, no time lost" "1,regressed,,,,0,40|0,same,,,,,40" \
	"$(tail -n +2 nocpu.csv | cut -d, -f1,2,7,8,9,10,11 | tr '\n' '|' | sed 's/|$//')"
# A rank of B without step records is left out as an absent one is: the other ranks are
# compared by compute (its lack of records is no flaw of theirs), with the figures of a B
# without its rank dir, and that one named.
cp -r a norank3 && : >norank3/rank3/steps.jsonl
cp -r a gone3 && rm -r gone3/rank3
"$TSCOPE_BIN" --print --no-index a norank3 >norank3.txt 2>/dev/null
want="^● COMPARISON — no difference: identical per-step times on 200 common steps of 7 ranks;"
want="$want not compared: rank 3 (no step records in B)\$"
tap_check "a B rank without steps: named, the other 7 compared by compute" 'grep -q "$want" norank3.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index a norank3 >norank3.csv 2>/dev/null
tap_eq "... diff_ranks: 8 rows" "$(tail -n +2 norank3.csv | wc -l | tr -d ' ')" 8
"$TSCOPE_BIN" --export diff_ranks --no-index a gone3 >gone3.csv 2>/dev/null
tap_eq "... the 7 ranks' basis, means and time lost: those of a B without rank3/" \
	"$(grep -v '^3,' gone3.csv | cut -d, -f1,3,4,7,8,12 | tr '\n' '|')" \
	"$(grep -v '^3,' norank3.csv | cut -d, -f1,3,4,7,8,12 | tr '\n' '|')"

# A rank of B that stops early: every rank compared over its own common steps, B's
# range stated, the regression after the stop still found, the left-out steps named.
cp -r reg reg3 && head -100 reg/rank3/steps.jsonl >reg3/rank3/steps.jsonl
"$TSCOPE_BIN" --print --no-index a reg3 >reg3.txt 2>/dev/null
want="^● COMPARISON — .* over steps 0-99, the ones every compared rank has in both;"
want="$want rank 5 regressed from step 100; not compared: rank 3 steps 100-199 (100 only in A)\$"
scope="^  A: 8 ranks, steps 0-199; B: 8 ranks, steps 0-199; compared: 8 common ranks,"
scope="$scope 100-200 common steps per rank;"
tap_check "a B rank stopping early: rank 5 regressed, rank 3's steps 100-199 named" \
	'grep -q "$want" reg3.txt && grep -q "$scope" reg3.txt'

# Ranks of B only: not in the per-step wall, named.
"$gen" w4 4 200 5 && "$gen" w8 8 200 6 6 50 || tap_notok "world-size pair generated"
"$TSCOPE_BIN" --print --no-index w4 w8 >w48.txt 2>/dev/null
want="^● COMPARISON — B takes the same time per step as A within noise (+0.0%); no rank regressed beyond"
want="$want its noise over the steps compared; not compared: ranks 4-7 (only in B)\$"
tap_check "ranks only in B: the wall over the common ranks, those ranks named" 'grep -q "$want" w48.txt'
tap_check "... BUDGET says it covers each side whole, not the common part" \
	'grep -q "^● BUDGET — .* (all ranks and steps of each side)$" w48.txt &&
	 grep -qx "  each side whole (A: 4 ranks, B: 8 ranks), not only the common part compared above" w48.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index w4 w8 >w48.csv 2>/dev/null
tap_eq "diff_ranks: the ranks compared first (by regression size), then those of B only (nothing to weigh)" \
	"$(tail -n +2 w48.csv | cut -d, -f2 | uniq | tr '\n' ' ')" "same only_in_B "

# Ranks that measured no time (every phase 0): no delta, no time lost, none read off
# their zeros. zero_phases DIR RANK...: every phase of those ranks' records set to 0.
zero_phases() {
	d=$1
	shift
	for r in "$@"; do
		python3 -c 'import json,sys
p=sys.argv[1]
L=[json.loads(l) for l in open(p)]
[j.update(phases={k: 0.0 for k in j["phases"]}) for j in L]
open(p,"w").write("".join(json.dumps(j)+"\n" for j in L))' "$d/rank$r/steps.jsonl"
	done
}
"$gen" z4 4 40 1 || tap_notok "4-rank run generated"
cp -r z4 zall && zero_phases zall 0 1 2 3 && cp -r z4 zr1 && zero_phases zr1 1
"$TSCOPE_BIN" --export diff_ranks --no-index z4 zall >zall.csv 2>/dev/null
tap_eq "B measured no time: every rank n/a, delta_mean empty (not -A's mean)" \
	"$(tail -n +2 zall.csv | cut -d, -f2,5 | sort -u)" "n/a,"
"$TSCOPE_BIN" --export diff_ranks --no-index z4 zr1 >zr1.csv 2>/dev/null
tap_eq "rank 1 measured no time in B: last, n/a, its delta and time lost empty" \
	"$(tail -n 1 zr1.csv | cut -d, -f1,2,5,7,8,9)" "1,n/a,,,,"
tap_eq "... the others' time lost, over the ranks that measured time: the same in A and B (no wait on zeros)" \
	"$(tail -n +2 zr1.csv | head -3 | awk -F, '$7 == "" || $7 != $8 || $9 != 0' | wc -l | tr -d ' ')" 0

# A PATH with no data beside a run: named, nothing opened (not A's report alone).
mkdir -p emptydir
"$TSCOPE_BIN" --print --no-index a emptydir >ae.out 2>ae.err
rc=$?
tap_check "an empty B: exit 1, named, no report" \
	'[ "$rc" -eq 1 ] && [ ! -s ae.out ] && grep -qx "tscope-tui: emptydir: no supported data found here" ae.err'
"$TSCOPE_BIN" --print --no-index a ./no-such-dir >am.out 2>am.err
rc=$?
tap_check "a missing B: exit 1, named with why" \
	'[ "$rc" -eq 1 ] && [ ! -s am.out ] && grep -q "^tscope-tui: ./no-such-dir: cannot open: No such file" am.err'
"$TSCOPE_BIN" --print --no-index --compat pytscope a emptydir >ac.out 2>ac.err
rc=$?
tap_check "... --compat pytscope: pytscope diff's line alone" \
	'[ "$rc" -eq 1 ] && [ ! -s ac.out ] && [ "$(cat ac.err)" = "Both run directories must contain steps." ]'
# Another workload in B (run.json config and GPU): the per-step change is stated, not
# called a regression, and the keys that differ are named.
demo="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
"$demo" d1 4 100 >/dev/null && "$demo" d2 4 100 >/dev/null || tap_notok "demo pair generated"
for r in d2/rank*; do
	sed -i 's/"batch_size": 16/"batch_size": 32/;s/gpt2-medium/gpt2-large/' "$r/run.json"
	sed -i 's/A100-SXM4-80GB/H100 80GB HBM3/' "$r/run.json"
done
python3 -c 'import json,sys
for p in sys.argv[1:]:
    L=[json.loads(l) for l in open(p)]
    [j.update(phases={k:v*1.8 for k,v in j["phases"].items()}) for j in L]
    open(p,"w").write("".join(json.dumps(j)+"\n" for j in L))' d2/rank*/steps.jsonl
"$TSCOPE_BIN" --print --no-index d1 d2 >d12.txt 2>/dev/null
want="^● COMPARISON — B is 80.0% slower per step, but the workload differs (batch_size 16 -> 32,"
want="$want model gpt2-medium -> gpt2-large, gpu NVIDIA A100-SXM4-80GB -> NVIDIA H100 80GB HBM3): not a"
want="$want like-for-like comparison; 4 ranks slower and 0 faster beyond noise, none called regressed\$"
tap_check "another workload: the keys named, not like for like, no rank called regressed" \
	'grep -q "$want" d12.txt && ! grep -q "regressed from" d12.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index d1 d2 >d12.csv 2>/dev/null
tap_eq "... diff_ranks: slower_unlike, not regressed" "$(tail -n +2 d12.csv | cut -d, -f2 | sort -u)" slower_unlike
"$TSCOPE_BIN" --export diff_findings --no-index --sort -severity_a d1 d2 >d12fa.csv 2>/dev/null
"$TSCOPE_BIN" --export diff_findings --no-index --sort severity_b d1 d2 >d12fb.csv 2>/dev/null
# the last row a rule neither run could judge (slow nodes, a single node): no severity, last
tap_eq "diff_findings: --sort -severity_a is high, med, low (it sorted Z to A: med, low, high)" "high med low -" \
	"$(tail -n +2 d12fa.csv | cut -d, -f3 | sed 's/^$/-/' | paste -sd' ')"
tap_eq "... --sort severity_b low first (it sorted A to Z: high, high, low)" "low high high -" \
	"$(tail -n +2 d12fb.csv | cut -d, -f4 | sed 's/^$/-/' | paste -sd' ')"
# The same workload written differently (16 vs "16", a GPU name with a trailing space or
# in other case) is no other workload: rank 2's regression is called one; "32" still is.
"$gen" wa 4 100 1 && "$gen" wb 4 100 2 2 50 && "$gen" wc 4 100 2 2 50 || tap_notok "format pairs generated"
setrun() { # setrun DIR JSON: set run.json "config"/"environment" keys of every rank
	python3 -c 'import json,sys,glob
for f in glob.glob(sys.argv[1]+"/rank*/run.json"):
    j=json.load(open(f))
    for k,v in json.loads(sys.argv[2]).items():
        s,key=k.split(".")
        j.setdefault(s,{})[key]=v
    open(f,"w").write(json.dumps(j))' "$1" "$2"
}
setrun wa '{"config.batch_size": 16, "environment.gpu": "NVIDIA A100-SXM4-80GB"}'
setrun wb '{"config.batch_size": "16", "environment.gpu": "nvidia A100-SXM4-80GB "}'
setrun wc '{"config.batch_size": "32", "environment.gpu": "NVIDIA A100-SXM4-80GB"}'
"$TSCOPE_BIN" --print --no-index wa wb >wab.txt 2>/dev/null
"$TSCOPE_BIN" --print --no-index wa wc >wac.txt 2>/dev/null
tap_check "16 vs \"16\", a GPU name's case and trailing space: the same workload, rank 2 regressed" \
	'grep -q "^● COMPARISON — B is [0-9.]*% slower per step; rank 2 regressed from step 50$" wab.txt'
tap_check "16 vs \"32\": another workload, named" \
	'grep -q "^● COMPARISON — .*the workload differs (batch_size 16 -> 32): not a like-for-like" wac.txt'
# The layout decides pytscope's single-rank diff, not the count of ranks loaded.
"$gen" o1 1 40 1 && "$gen" o2 1 40 2 || tap_notok "rank0-only pair generated"
"$TSCOPE_BIN" --print --compat pytscope o1 o2 >o12c.out 2>o12c.err
rc=$?
tap_check "--compat pytscope, rank0/ dirs only: pytscope's refusal (it reads no rank dirs), exit 1" \
	'[ "$rc" -eq 1 ] && [ ! -s o12c.out ] && grep -qx "Both run directories must contain steps." o12c.err'
"$TSCOPE_BIN" --print --no-index o1 o2 >o12.txt 2>/dev/null
tap_check "rank0/ dirs only, default: pytscope's diff, then the COMPARISON section" \
	'head -1 o12.txt | grep -qx "pytscope diff  (o1  vs  o2)" && grep -q "^● COMPARISON" o12.txt'
"$TSCOPE_BIN" --print --no-index --ranks 5 a reg >r5.txt 2>/dev/null
tap_check "--ranks 5 of rank dirs: the COMPARISON section says rank 5 regressed from step 100" \
	'grep -q "^● COMPARISON — .*rank 5 regressed from step 100" r5.txt'
"$TSCOPE_BIN" --print --no-index a/rank0 same/rank0 >r0.txt 2>/dev/null
tap_check "rank dirs given themselves (a steps.jsonl in each PATH): pytscope's diff alone" \
	'head -1 r0.txt | grep -qx "pytscope diff  (a/rank0  vs  same/rank0)" && ! grep -q "^●" r0.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index a/rank5 reg >r5a.csv 2>/dev/null
"$TSCOPE_BIN" --print --no-index a/rank5 reg >r5a.txt 2>/dev/null
tap_check "a/rank5 alone against rank dirs: rank 5 compared with rank 5, regressed from step 100" \
	'sed -n 2p r5a.csv | grep -q "^5,regressed,.*,100,200,step_time$" &&
	 grep -q "^● COMPARISON — .*rank 5 regressed from step 100" r5a.txt'
cp -r a/rank5 solo5 && "$TSCOPE_BIN" --export diff_ranks --no-index solo5 reg >s5.csv 2>/dev/null
tap_check "... a dir of another name: the rank its run.json records" 'sed -n 2p s5.csv | grep -q "^5,regressed,"'
"$TSCOPE_BIN" --print --no-index a/rank5 >r5s.txt 2>/dev/null
tap_check "... its own report: rank 5, not rank 0" \
	'grep -q "^● EFFICIENCY BUDGET — rank wall decomposition (rank 5)$" r5s.txt && ! grep -q "(rank 0)" r5s.txt'

# Data quality in compare mode: B with 3 broken lines in rank 1's steps.jsonl.
cp -r a bad && sed -i '11s/.*/{"step": 10, "pha/;21s/$/ x/;31s/.*/[1]/' bad/rank1/steps.jsonl
"$TSCOPE_BIN" --print --no-index a bad >bad.txt 2>bad.err
tap_eq "broken lines in B: B's data-quality line on stderr, naming the side and its path" \
	"tscope-tui: data quality of B (bad): 0 errors, 3 warnings, 0 notes (3 records skipped); see --export sources" \
	"$(cat bad.err)"
tap_check "... and under the verdict, that steps only in A may be B's lost data" \
	'grep -q "^  data quality of B: 3 records skipped, 0 files unreadable, 0 partial (--export sources A B); \
steps or ranks only in A may be B.s lost data$" bad.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index a bad >/dev/null 2>badx.err
tap_check "--export of a pair says it too" 'grep -q "^tscope-tui: data quality of B (bad): " badx.err'
"$TSCOPE_BIN" --export sources --no-index a bad >src.csv 2>/dev/null
tap_check "--export sources A B: both sides' sources, a first column side" \
	'head -1 src.csv | grep -qx "side,kind,path,format,rank,line,offset,records,skipped,message" &&
	 grep -q "^A,file,a/rank0/steps.jsonl,pytscope,0,,,200,0,ok$" src.csv &&
	 grep -q "^B,file,bad/rank1/steps.jsonl,pytscope,1,,,197,3,ok$" src.csv &&
	 [ "$(grep -c "^B,warning,bad/rank1/steps.jsonl,,1,[0-9]*,,,,line skipped" src.csv)" -eq 3 ]'
printf '1\n:dump %s/bov\nq\n' "$PWD" >bov.keys
TSCOPE_SCRIPT=bov.keys TERM=dumb LINES=30 COLUMNS=140 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui --no-index a bad \
	>/dev/null 2>&1
tap_check "the explorer's compare Overview: each side's data quality, a short line each (counts not 0)" \
	'grep -q "^  quality A  *clean$" bov && grep -q "^  quality B  *3 skipped, 3 warnings (--export sources A B)$" bov'
printf '1\n:dump %s/cov\nq\n' "$PWD" >cov.keys
TSCOPE_SCRIPT=cov.keys TERM=dumb LINES=30 COLUMNS=140 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui --no-index a reg \
	>/dev/null 2>&1
tap_check "... both clean: one line" \
	'grep -q "^  quality  *A and B clean$" cov && ! grep -q "quality [AB] " cov'

# B has one step more: a single step reads "step 2 (only in B)", not "steps 2-2"
"$demo" s1 2 2 >/dev/null && "$demo" s3 2 3 >/dev/null || tap_notok "short pair generated"
"$TSCOPE_BIN" --print --no-index --color never s1 s3 >s13.out 2>/dev/null
tap_check "one step only in B: 'step 2 (only in B)'" \
	'grep -q "step 2 (only in B)" s13.out && ! grep -q "steps 2-2" s13.out'
tap_plan
