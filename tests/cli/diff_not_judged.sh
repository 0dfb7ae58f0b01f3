#!/bin/sh
# diff_not_judged.sh: a comparison says what it could not judge instead of a verdict the
# input does not bear out. Phases outside pytscope's COMPUTE_PHASES (fwd, bwd) are no
# compute: the ranks are compared by step time, said why, and rank 2's slowdown in B is
# found (not "no difference" on the data phase alone); a side with one phase `step` has
# its step time as the wall (never 0, never "100% faster"); a side whose phases are all 0
# measured no time: not compared, no step wall line; a wall over steps with gaps gives
# their count. A finding of one side only is "not judged" on the other when that side
# has no records of the rule's family (a trace beside none) or its rules could not judge
# it (no memory recorded): never resolved or new. A rank whose records in B have no
# phase is 'no phase value at its common steps in B', not 'no step records in A'.
# A rule that names one rank of several persists whatever rank each side names, and
# says which: the idlest GPU (../shared/real/kineto-dlrm-8rank against a copy without
# rank 7, whose GPU is the idlest in A: not resolved, and rank 2 not new), a slow node's
# worst rank (a node B lacks: not judged in B); a rank that is the persistent straggler
# on one side and slow throughout on the other persists, and a straggler on another rank
# is another finding (resolved, new). A finding about steps the other side's rank lacks
# is not judged there: an instability at step 300 against a run that ends at 199 (or
# lacks steps 290-310), a straggler from step 18 against a run with 2 of its steps; a
# rank slow throughout A against B's first 20 steps (the 16 the straggler tests need) is
# resolved. Ranks that differ on run.json keys are matched by the keys: lr in A against
# batch_size in B is resolved and new, lr and batch_size against batch_size persists
# naming each side's keys (the same for the environment's). A rank slow on both sides
# but past the 8 ranks one side's DIST.SLOW_RANK findings list (10 slow ranks of 32) is
# persisting, that side named, neither resolved nor new; so is pytscope's straggler of
# one side that the other lists no finding for, being slow there past the 8.
# A rule a side could not judge, with no finding of it on either side, is said: memory
# recorded by neither run is "not judged in A and B: memory (no memory recorded by rank
# 0)" (--print's FINDINGS, a diff_findings row, the explorer's Findings tab; it said "0
# resolved" alone and diff_findings was the header alone), by one side "not judged in
# A" (or B); one that stands for a finding of the other side is that finding's status,
# not listed again. A pair with no finding whose rules judged both: --export
# diff_findings is refused with the reason (exit 1), as --export all leaves it out. A side
# without step records judged no rule: a row says so, and what the other could not judge
# is not judged in A and B.
# An MFU (FLOPs and a peak) on one side only: the budget's useful_compute,
# compute_overhead and mfu deltas are empty with the reason in the note (a side without
# counts all its compute as useful), and an EFFICIENCY finding of one side is not judged
# on the other (LOW_MFU not resolved, RECOVERABLE not new), the side without named.
# Budgets whose rank walls add up other lines (data in A only) have no point deltas, and a
# side that records only its compute no useful_compute share (not 100%), said why; a side
# without a run budget is refused with its own reason (a negative phase, --warmup).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1

# mkrun DIR SEED KIND [SLOW]: 4 ranks x 60 steps; KIND user (data fwd bwd comm), step
# (one phase `step`) or zero (data forward comm, all 0); SLOW 1: rank 2's fwd and bwd
# 30% slower from step 30.
mkrun() {
	python3 - "$@" <<'EOF'
import json, os, random, sys
out, seed, kind = sys.argv[1], int(sys.argv[2]), sys.argv[3]
slow = len(sys.argv) > 4 and sys.argv[4] == '1'
for r in range(4):
    rnd = random.Random(seed * 100 + r)
    os.makedirs(f'{out}/rank{r}', exist_ok=True)
    with open(f'{out}/rank{r}/steps.jsonl', 'w') as f:
        for s in range(60):
            fac = 1.3 if slow and r == 2 and s >= 30 else 1.0
            j = 1 + 0.06 * (rnd.random() - 0.5)
            if kind == 'user':
                ph = {"data": 0.008, "fwd": round(0.03 * j * fac, 9), "bwd": round(0.06 * j * fac, 9), "comm": 0.012}
            elif kind == 'step':
                ph = {"step": round(0.116 * j, 9)}
            else:
                ph = {"data": 0.0, "forward": 0.0, "comm": 0.0}
            f.write(json.dumps({"step": s, "phases": ph, "scalars": {"loss": 1.0}}) + "\n")
EOF
}
mkrun uA 1 user && mkrun uB 2 user 1 && mkrun sA 1 user && mkrun sB 3 step && mkrun zA 1 zero ||
	{ tap_notok "runs generated"; exit 1; }

"$TSCOPE_BIN" --print --color never --no-index uA uB >u.txt 2>/dev/null
want="^● COMPARISON — B is [0-9.]*% slower per step; rank 2 regressed from step 30; ranks judged by step time:"
want="$want compute leaves out phases fwd, bwd of A and B\$"
tap_check "phases fwd and bwd: judged by step time, said why, rank 2 regressed from step 30" 'grep -q "$want" u.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index uA uB >u.csv 2>/dev/null
tap_eq "... diff_ranks: rank 2 alone regressed" "2" "$(grep ',regressed,' u.csv | cut -d, -f1)"

"$TSCOPE_BIN" --print --color never --no-index uA sB >s.txt 2>/dev/null
want="^● COMPARISON — B is [0-9.]*% slower per step; .*; ranks judged by step time: B's compute cannot be weighed"
want="$want (no compute phase recorded)\$"
tap_check "B with one phase 'step': its step time is its wall (116 ms, not 0), not 100% faster" \
	'grep -q "$want" s.txt && ! grep -q "100.0%" s.txt &&
	 grep -q "^  mean step wall 111.[0-9]* -> 118.[0-9]* ms" s.txt'
"$TSCOPE_BIN" --print --color never --no-index sB uA >s2.txt 2>/dev/null
tap_check "... and A with it: the wall compared the other way, not 'no step that every rank has'" \
	'grep -q "^● COMPARISON — B is [0-9.]*% faster per step; " s2.txt &&
	 ! grep -q "no step that every" s2.txt &&
	 grep -q "^  mean step wall 118.[0-9]* -> 111.[0-9]* ms" s2.txt'

"$TSCOPE_BIN" --print --color never --no-index zA sA >z.txt 2>/dev/null
want="^● COMPARISON — step times not compared: every compared rank's step time is 0 in A at every common step"
want="$want (no time measured)\$"
tap_check "A's phases all 0: not compared, no step wall line, no rank called regressed" \
	'grep -q "$want" z.txt && ! grep -q "mean step wall\|regressed" z.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index zA sA >z.csv 2>/dev/null
tap_eq "... diff_ranks: change n/a on every rank, no noise" "n/a," \
	"$(tail -n +2 z.csv | cut -d, -f2,6 | sort -u)"

# rank 1 of B lacks steps 10, 20 and 30: the wall is over 57 steps of 0-59, said so
mkrun gap 4 user && sed -i '/"step": [123]0,/d' gap/rank1/steps.jsonl
"$TSCOPE_BIN" --print --color never --no-index sA gap >gap.txt 2>/dev/null
tap_check "a wall over steps with gaps: their count, not a range that claims 60" \
	'grep -q "^● COMPARISON — .* over 57 steps in 0-59, the ones every compared rank has in both;" gap.txt'

# A trace beside A's step logs, none beside B's: its findings are not judged in B.
"$B/gen_pair" p 4 60 1 >/dev/null && cp -r p pt && "$B/gen_trace" pt/trace.json 1 0 >/dev/null ||
	tap_notok "trace pair generated"
"$TSCOPE_BIN" --print --color never --no-index pt p >pt.txt 2>/dev/null
tap_check "a trace in A only: its findings not judged in B (no trace), none resolved" \
	'grep -q "^● FINDINGS — 0 new in B · 0 resolved · [0-9]* persisting · 2 not judged in B$" pt.txt &&
	 grep -q "^  not judged in B (no trace) \[HIGH\] .*(TRACE.GPU_IDLE)$" pt.txt &&
	 grep -q "^  not judged in B (no trace) .*(DIST.EXPOSED_COMM)$" pt.txt'
"$TSCOPE_BIN" --export diff_findings --no-index p pt >pt.csv 2>/dev/null
tap_check "... the other way: not judged in A, not new" \
	'grep -q "^not judged in A (no trace),TRACE.GPU_IDLE," pt.csv && ! grep -q "^new," pt.csv'

# B records no memory: A's memory findings are not judged in B, not resolved.
"$B/gen_fixtures" f1 f1 >/dev/null || tap_notok "f1 generated"
mkdir -p f1nomem && cp f1/run.json f1nomem/ &&
	python3 -c 'import json,sys
for l in open(sys.argv[1]):
    j=json.loads(l); j.pop("memory",None); print(json.dumps(j))' f1/steps.jsonl >f1nomem/steps.jsonl
"$TSCOPE_BIN" --export diff_findings --no-index f1 f1nomem >mem.csv 2>/dev/null
tap_check "no memory in B: MEMORY.GROWTH and MEMORY.FRAGMENTATION not judged in B, not resolved" \
	'grep -q "^not judged in B (no memory recorded),MEMORY.GROWTH," mem.csv &&
	 grep -q "^not judged in B (no memory recorded),MEMORY.FRAGMENTATION," mem.csv &&
	 ! grep -q "^resolved," mem.csv'
"$TSCOPE_BIN" --print --color never --compat pytscope f1 f1nomem >memc.txt 2>/dev/null
"$TSCOPE_BIN" --print --color never f1 f1nomem >mem.txt 2>/dev/null
tap_check "a single-rank pair: pytscope's diff alone, the same bytes with --compat pytscope" \
	'cmp -s memc.txt mem.txt && ! grep -q "FINDINGS" mem.txt'
tap_check "... B's not-judged memory stands for A's findings: their status, not a row of its own" \
	'! grep -q "^not judged in B,\|^not judged in A and B," mem.csv'

# Memory recorded by neither run (gen_pair records none), by B only, by both.
cp -r p p2 && cp -r p pm && for f in pm/rank*/steps.jsonl; do
	sed -i 's/}$/,"memory":{"alloc":2e8,"reserved":2e8,"peak_alloc":2e8,"peak_reserved":2e8}}/' "$f" || exit 1
done && cp -r pm pm2 || tap_notok "memory pairs generated"
"$TSCOPE_BIN" --print --color never --no-index p p2 >nm.txt 2>/dev/null
tap_check "memory recorded by neither run: not judged in A and B, under the FINDINGS heading" \
	'grep -A1 "^● FINDINGS — 0 new in B · 0 resolved · 0 persisting$" nm.txt |
	 grep -qx "  not judged in A and B: memory (no memory recorded by rank 0)"'
"$TSCOPE_BIN" --export diff_findings --no-index p p2 >nm.csv 2>/dev/null
want="not judged in A and B,MEMORY.FRAGMENTATION MEMORY.GROWTH,,,,memory (no memory recorded by rank 0),"
tap_check "... a diff_findings row, not the header alone" '[ "$(sed -n 2p nm.csv | cut -c1-${#want})" = "$want" ]'
"$TSCOPE_BIN" --export all -o nmall --no-index p p2 >/dev/null 2>&1
tap_check "... --export all writes it, as --export diff_findings" 'cmp -s nm.csv nmall/diff_findings.csv'
printf '5\n:dump %s/nm.screen\nq\n' "$PWD" >nm.keys
TSCOPE_SCRIPT=nm.keys TERM=dumb LINES=24 COLUMNS=120 "$TSCOPE_BIN" --tui --no-index p p2 >/dev/null 2>&1
tap_check "... the explorer's Findings tab lists it" \
	'grep -q "^.not judged in A and B MEMORY.FRAGMENTATION .* memory (no memory recorded by rank 0)" nm.screen'
"$TSCOPE_BIN" --print --color never --no-index p pm >nmb.txt 2>/dev/null
"$TSCOPE_BIN" --export diff_findings --no-index pm p >nma.csv 2>/dev/null
tap_check "memory recorded by B only: not judged in A (the other way, in B)" \
	'grep -qx "  not judged in A: memory (no memory recorded by rank 0)" nmb.txt &&
	 grep -q "^not judged in B,MEMORY.FRAGMENTATION MEMORY.GROWTH,,,,memory (no memory recorded" nma.csv'
"$TSCOPE_BIN" --export diff_findings --no-index pm pm2 >clean.csv 2>clean.err
rc=$?
"$TSCOPE_BIN" --export all -o cleanall --no-index pm pm2 >/dev/null 2>&1
want="tscope-tui: view .diff_findings. has no rows for this pair of runs: no finding in A or B, and every rule"
want="$want judged both"
tap_check "no finding, every rule judged both: diff_findings refused with the reason, as --export all leaves it out" \
	'[ "$rc" -eq 1 ] && [ ! -s clean.csv ] && [ -e cleanall/diff_ranks.csv ] &&
	 [ ! -e cleanall/diff_findings.csv ] && grep -qx "$want" clean.err'
# B without step records (its logs empty) judged no rule: memory, which A could not judge,
# is not judged in A and B (it said "in A" alone), and a row says B judged no rule; a clean
# A against it is that row, never refused as "every rule judged both".
cp -r p pe && cp -r pm pme && for f in pe/rank*/steps.jsonl pme/rank*/steps.jsonl; do : >"$f"; done
"$TSCOPE_BIN" --export diff_findings --no-index p pe >pe.csv 2>/dev/null
"$TSCOPE_BIN" --export diff_findings --no-index pme pm >pme.csv 2>/dev/null
every='"every rule (no step record, trace event or other record)"'
tap_check "B without step records: memory not judged in A and B, and B judged no rule" \
	'grep -q "^not judged in A and B,MEMORY.FRAGMENTATION MEMORY.GROWTH,,,,memory (no memory" pe.csv &&
	 ! grep -q "^not judged in A,MEMORY" pe.csv && grep -q "^not judged in B,,,,,$every," pe.csv'
tap_check "... a clean side against one without records: a row that says so (A), not refused" \
	'[ "$(sed 1d pme.csv | wc -l)" -eq 1 ] && grep -q "^not judged in A,,,,,$every," pme.csv'

# mkstd DIR RANKS SEED [--slow R] [--phases a=x,b=y] [--zero R]: RANKS ranks x 40 steps of
# pytscope's phases; --slow: rank R 30% slower throughout; --zero: rank R's phases all 0
# but comm.
mkstd() {
	python3 - "$@" <<'PY'
import json, os, random, sys
out, ranks, seed = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
a = sys.argv[4:]
opt = lambda k: a[a.index(k) + 1] if k in a else None
slow, zero = opt('--slow'), opt('--zero')
ph = [(k, float(v)) for k, v in (x.split('=') for x in (opt('--phases') or
      'data=0.008,forward=0.03,backward=0.06,optimizer=0.006,comm=0.012').split(','))]
for r in range(ranks):
    rnd = random.Random(seed * 1000 + r)
    os.makedirs(f'{out}/rank{r}', exist_ok=True)
    with open(f'{out}/rank{r}/run.json', 'w') as f:
        json.dump({"name": "pair", "rank": r, "world_size": ranks}, f)
    with open(f'{out}/rank{r}/steps.jsonl', 'w') as f:
        for s in range(40):
            fac = 1.3 if slow is not None and r == int(slow) else 1.0
            p = {k: (0.0 if zero is not None and r == int(zero) and k != 'comm' else
                     round(v * (1 + 0.06 * (rnd.random() - 0.5)) * (fac if k != 'comm' else 1), 9)) for k, v in ph}
            f.write(json.dumps({"step": s, "phases": p, "scalars": {"loss": 2.0 / (1 + 0.01 * s)}}) + "\n")
PY
}
mkstd T1A 4 1 --slow 2 && mkstd T1B 4 2 && cp -r T1B T1Bm && rm -rf T1Bm/rank3 &&
	mkstd eA 2 1 --phases data=0.04,forward=0.03,backward=0.06,optimizer=0.006,comm=0.06 &&
	mkstd eB 2 2 --phases compute=0.1 && mkstd z3A 4 1 --zero 3 && mkstd zB 4 2 &&
	"$B/gen_sweep" sw6 40 4 6 >/dev/null && "$B/gen_sweep" sw2 40 4 2 >/dev/null ||
	{ tap_notok "runs generated"; exit 1; }

"$TSCOPE_BIN" --print --color never --no-index T1Bm T1A >t1.txt 2>/dev/null
tap_check "A without rank 3 of 4 judged rank 2: B's straggler rank 2 is new, not 'not judged in A'" \
	'grep -q "^● FINDINGS — 1 new in B · " t1.txt &&
	 grep -q "^  new  *\[HIGH\] Rank 2 is a persistent straggler  (DIST.STRAGGLER)$" t1.txt'
"$TSCOPE_BIN" --print --color never --no-index --ranks 0-2 T1B T1A >t1r.txt 2>/dev/null
tap_check "... and with --ranks 0-2 on both sides" \
	'grep -q "^  new  *\[HIGH\] Rank 2 is a persistent straggler  (DIST.STRAGGLER)$" t1r.txt'
"$TSCOPE_BIN" --export diff_findings --no-index T1A T1Bm >t1m.csv 2>/dev/null
tap_check "... the other way: resolved, B without rank 3 having judged rank 2" \
	'grep -q "^resolved,DIST.STRAGGLER," t1m.csv'

"$TSCOPE_BIN" --print --color never --no-index eA eB >e.txt 2>/dev/null
tap_check "B records compute alone: A's recoverable time not judged in B, not resolved" \
	'grep -q "^  not judged in B (only compute is recorded by rank 0) .*(EFFICIENCY.RECOVERABLE)$" e.txt &&
	 ! grep -q "^  resolved .*EFFICIENCY" e.txt'
"$TSCOPE_BIN" --print --color never sw6 sw2 >sw.txt 2>/dev/null
"$TSCOPE_BIN" --print --color never sw2 sw6 >sw2.txt 2>/dev/null
tap_check "a sweep of 2 levels: A's saturation not judged in B, nor new the other way" \
	'grep -q "^  not judged in B (fewer than 3 configs) .*(SWEEP.SATURATION)$" sw.txt &&
	 grep -q "^  not judged in A (fewer than 3 configs) .*(SWEEP.SATURATION)$" sw2.txt'

"$TSCOPE_BIN" --print --color never --no-index z3A zB >z3.txt 2>/dev/null
tap_check "rank 3 measured no compute in A: not compared (named), not regressed" \
	'grep -q "^● COMPARISON — B takes the same time per step as A .*; not compared: rank 3 (no time measured in A)" \
	 z3.txt && grep -q "compared: 3 of 4 common ranks" z3.txt && ! grep -q "regressed from" z3.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index z3A zB >z3.csv 2>/dev/null
tap_eq "... diff_ranks: rank 3 n/a, no delta, no noise" "3,n/a,," "$(grep "^3," z3.csv | cut -d, -f1,2,5,6)"

tap_eq "ranks by step time: diff_ranks says so in a last column basis" "basis step_time" \
	"$(head -1 u.csv | awk -F, '{ print $NF }') $(sed -n 2p u.csv | awk -F, '{ print $NF }')"
mkstd xB 4 2 --phases data=0.008,fwd=0.03,x1=0.06,comm=0.012 || tap_notok "xB generated"
"$TSCOPE_BIN" --print --color never --no-index uA xB >uT.txt 2>/dev/null
tap_check "phases compute leaves out named with whose they are, not all 'of A and B'" \
	'grep -q "; ranks judged by step time: compute leaves out phases fwd (A and B), bwd (A only), x1 (B only);" uT.txt'

# rank 1 of B records steps but no phase: not compared, and said why (not "no step records")
cp -r T1B T1Bnp && python3 -c 'import json
p = "T1Bnp/rank1/steps.jsonl"
rows = [json.loads(l) for l in open(p)]
open(p, "w").write("".join(json.dumps({k: v for k, v in r.items() if k != "phases"}) + "\n" for r in rows))'
"$TSCOPE_BIN" --print --color never --no-index T1B T1Bnp >np.txt 2>/dev/null
tap_check "a rank without phases in B: 'no phase value at its common steps in B', not 'no step records'" \
	'grep -q "not compared: rank 1 (no phase value at its common steps in B)" np.txt && ! grep -q "no step records" np.txt'
# The idlest GPU: rank 7 in A, a rank B lacks; rank 2 was already that idle in A.
real="$TSCOPE_ROOT/../shared/real/kineto-dlrm-8rank"
if [ -d "$real" ]; then
	mkdir no7 && cp "$real"/*.json no7/ && rm no7/worker7_*
	"$TSCOPE_BIN" --print --color never "$real" no7 >idle.txt 2>/dev/null
	want="^  persisting (rank 7 in A, rank 2 in B) \[HIGH\] The GPU is idle .* on rank 2  (TRACE.GPU_IDLE)\$"
	tap_check "the idlest GPU, rank 7 in A, not in B: persisting, each side's rank named, none new or resolved" \
		'grep -q "^● FINDINGS — 0 new in B · 0 resolved · [0-9]* persisting$" idle.txt &&
		 grep -q "$want" idle.txt'
	"$TSCOPE_BIN" --export diff_findings no7 "$real" >idle.csv 2>/dev/null
	tap_check "... the other way round: diff_findings's status, rank 7 B's" \
		'grep -q "^\"persisting (rank 2 in A, rank 7 in B)\",TRACE.GPU_IDLE,high,high,7," idle.csv &&
		 ! grep -q "^new,\|^resolved," idle.csv'
else
	tap_skip "../shared/real/kineto-dlrm-8rank not present"
fi

# Node 1 (ranks 4-7) slow together; its worst rank 5 in A, 6 in B (the persistent straggler).
"$B/gen_demo" nA 8 60 >/dev/null && cp -r nA nB && python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" nA 4 7 1.2 &&
	python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" nB 4 7 1.2 &&
	python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" nA 5 5 1.1 &&
	python3 "$TSCOPE_ROOT/tests/tools/slow_ranks.py" nB 6 6 1.1 && cp -r nB nB4 && rm -r nB4/rank[4-7] ||
	tap_notok "node pair generated"
"$TSCOPE_BIN" --print --color never --no-index --ranks-per-node 4 nA nB >node.txt 2>/dev/null
tap_check "a slow node whose worst rank is another in B: persisting, each side's rank named" \
	'grep -q "^  persisting (rank 5 in A, rank 6 in B) \[MED \] All 4 ranks of node 1 slow together" node.txt &&
	 grep -q "^● FINDINGS — 0 new in B · 0 resolved · " node.txt'
tap_check "... rank 5 the persistent straggler in A, slow throughout in B: persisting, A's id named" \
	'grep -q "^  persisting (DIST.STRAGGLER in A) \[HIGH\] Rank 5 is slower than the others throughout" node.txt &&
	 grep -q "^  persisting (DIST.SLOW_RANK in A) \[HIGH\] Rank 6 is a persistent straggler" node.txt'
"$TSCOPE_BIN" --export diff_findings --no-index --ranks-per-node 4 nA nB4 >node4.csv 2>/dev/null
tap_check "... B without node 1's ranks: not judged in B (no node 1), not resolved" \
	'grep -q "^not judged in B (no node 1),NODE.SLOW_TOGETHER," node4.csv && ! grep -q "^resolved," node4.csv'
mkstd T1C 4 3 --slow 1 || tap_notok "T1C generated"
"$TSCOPE_BIN" --export diff_findings --no-index T1A T1C >t1c.csv 2>/dev/null
tap_check "the persistent straggler rank 2 in A, rank 1 in B: two findings, resolved and new" \
	'grep -q "^resolved,DIST.STRAGGLER,high,,2," t1c.csv && grep -q "^new,DIST.STRAGGLER,,high,1," t1c.csv'

# keep DIR LO HI: DIR's step records of steps LO-HI left out (every rank)
keep() {
	for f in "$1"/rank*/steps.jsonl; do
		python3 -c 'import json, sys
p, lo, hi = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rows = [l for l in open(p) if not lo <= json.loads(l)["step"] <= hi]
open(p, "w").write("".join(rows))' "$f" "$2" "$3" || return 1
	done
}
"$B/gen_demo" dm 8 400 >/dev/null && cp -r dm dm2 && keep dm2 200 399 && cp -r dm dmg && keep dmg 290 310 &&
	"$B/gen_pair" sp 4 40 2 2 20 >/dev/null && cp -r sp spt && keep spt 20 39 &&
	cp -r T1B T1Bh && keep T1Bh 20 39 || tap_notok "truncated runs generated"
"$TSCOPE_BIN" --print --color never --no-index dm dm2 >dm.txt 2>/dev/null
tap_check "an instability at step 300, B ending at step 199: not judged in B (no step 300), not resolved" \
	'grep -q "^  not judged in B (no step 300) \[HIGH\] Correlated instability at step 300 " dm.txt &&
	 grep -q "^● FINDINGS — 0 new in B · 0 resolved · " dm.txt'
"$TSCOPE_BIN" --export diff_findings --no-index dm2 dm >dm.csv 2>/dev/null
tap_check "... the other way: not judged in A, not new" \
	'grep -q "^not judged in A (no step 300),CROSS.CORRELATED_INSTABILITY," dm.csv && ! grep -q "^new," dm.csv'
"$TSCOPE_BIN" --export diff_findings --no-index dm dmg >dmg.csv 2>/dev/null
tap_check "... B lacking steps 290-310 within its range: not judged in B" \
	'grep -q "^not judged in B (no step 300),CROSS.CORRELATED_INSTABILITY," dmg.csv'
"$TSCOPE_BIN" --export diff_findings --no-index sp spt >sp.csv 2>/dev/null
tap_check "a straggler from step 18, B ending at step 19: not judged in B (2 of its steps), not resolved" \
	'grep -q "^not judged in B (rank 2 has only 2 of steps 18-39),DIST.STRAGGLER," sp.csv &&
	 ! grep -q "^resolved," sp.csv'
"$TSCOPE_BIN" --export diff_findings --no-index T1A T1Bh >t1h.csv 2>/dev/null
tap_check "rank 2 slow throughout A, B with its first 20 steps: resolved (B judged 20 of them)" \
	'grep -q "^resolved,DIST.STRAGGLER,high,,2," t1h.csv'

# keyed DIR RANK SED: rank RANK's run.json of DIR edited by SED
keyed() { sed -i "$3" "$1/rank$2/run.json"; }
"$B/gen_pair" kA 8 40 1 >/dev/null && "$B/gen_pair" kB 8 40 2 >/dev/null &&
	sed -i 's/"lr": 0.001}/"lr": 0.001, "batch_size": 16}/; s/"torch"/"python": "3.11", "torch"/' \
		kA/rank*/run.json kB/rank*/run.json && keyed kA 3 's/"lr": 0.001/"lr": 0.01/' &&
	keyed kB 5 's/"batch_size": 16/"batch_size": 32/' && keyed kA 2 's/"torch": "2.3.0"/"torch": "2.4.0"/' &&
	keyed kB 6 's/"python": "3.11"/"python": "3.12"/' || tap_notok "key pair generated"
"$TSCOPE_BIN" --export diff_findings --no-index kA kB >k.csv 2>/dev/null
tap_check "rank 3's lr in A, rank 5's batch_size in B: two findings, resolved and new, not persisting" \
	'grep -q "^resolved,CONFIG.RANKS_DIFFER,med,,3," k.csv && grep -q "^new,CONFIG.RANKS_DIFFER,,med,5," k.csv'
tap_check "... rank 2's torch in A, rank 6's python in B: resolved and new" \
	'grep -q "^resolved,ENV.RANKS_DIFFER,med,,2," k.csv && grep -q "^new,ENV.RANKS_DIFFER,,med,6," k.csv &&
	 ! grep -q "^.persisting" k.csv'
keyed kA 3 's/"batch_size": 16/"batch_size": 64/'
"$TSCOPE_BIN" --print --color never --no-index kA kB >k2.txt 2>/dev/null
want="^  persisting (rank 3 in A, rank 5 in B; keys lr, batch_size in A; batch_size in B) \[MED \] Rank 5 runs"
tap_check "... lr and batch_size in A, batch_size in B: persisting, each side's keys named" 'grep -q "$want" k2.txt'

# Ranks 1-10 of 32 slow throughout, slowest first in A (rank 1) and last in B (rank 10):
# each side lists 8 of them. ka: rank 10 alone slow, pytscope's persistent straggler.
S="$TSCOPE_ROOT/tests/tools/slow_ranks.py"
"$B/gen_pair" ca 32 60 1 >/dev/null && "$B/gen_pair" cb 32 60 2 >/dev/null && "$B/gen_pair" ka 32 60 3 >/dev/null &&
	python3 "$S" ka 10 10 1.3 || tap_notok "straggler run generated"
for r in $(seq 1 10); do
	python3 "$S" ca "$r" "$r" "1.$((40 - 2 * r))" && python3 "$S" cb "$r" "$r" "1.$((20 + 2 * r))" ||
		tap_notok "capped pair generated (rank $r)"
done
"$TSCOPE_BIN" --export diff_findings --no-index ca cb >cap.csv 2>/dev/null
tap_check "ranks 5 and 6 slow in B past the 8 it lists: persisting, not resolved" \
	'grep -q "^\"persisting (in B, beyond the 8 ranks it lists)\",DIST.SLOW_RANK,high,,5," cap.csv &&
	 grep -q "^\"persisting (in B, beyond the 8 ranks it lists)\",DIST.SLOW_RANK,high,,6," cap.csv &&
	 ! grep -q "^resolved," cap.csv'
tap_check "... ranks 9 and 10 slow in A past the 8 it lists: persisting, not new" \
	'grep -q "^\"persisting (in A, beyond the 8 ranks it lists)\",DIST.SLOW_RANK,,high,9," cap.csv &&
	 grep -q "^\"persisting (in A, beyond the 8 ranks it lists)\",DIST.SLOW_RANK,,high,10," cap.csv &&
	 ! grep -q "^new," cap.csv'
"$TSCOPE_BIN" --export diff_findings --no-index ka ca >kap.csv 2>/dev/null
tap_check "pytscope's straggler rank 10 in A, slow in B past the 8 listed: persisting, B's id named" \
	'grep -q "^\"persisting (DIST.SLOW_RANK in B, beyond the 8 ranks it lists)\",DIST.STRAGGLER,high,,10," kap.csv'

# An MFU on one side only: without FLOPs and a peak all of a side's compute is useful
# compute, so B's useful_compute (83%, all of it) against A's (19%, FLOPs at peak) is no
# change: its deltas and the MFU's are empty, why said; A's LOW_MFU is not judged in B
# (it read "resolved" and +64 points between runs with the same steps). fm: data stalls
# 27% and MFU 54% (no finding); fn: the same steps without FLOPs, RECOVERABLE of the data
# stall: not judged in A, not new.
"$B/gen_pair" mA 2 40 1 >/dev/null && cp -r mA mB && cp -r mA fm && cp -r mA fn || tap_notok "MFU pair generated"
mfu() { # mfu DIR FLOPS [DATA]: FLOPS per step at 312 TFLOP/s in run.json; the data phase DATA s
	python3 - "$@" <<'EOF2'
import glob, json, sys
d, flops = sys.argv[1], float(sys.argv[2])
for r in glob.glob(d + '/rank*'):
    j = json.load(open(r + '/run.json'))
    j.update(flops_per_step=flops, peak_flops=312e12)
    json.dump(j, open(r + '/run.json', 'w'))
    if len(sys.argv) > 3:
        rows = [json.loads(l) for l in open(r + '/steps.jsonl')]
        for x in rows:
            x['phases']['data'] = float(sys.argv[3])
        open(r + '/steps.jsonl', 'w').write(''.join(json.dumps(x) + '\n' for x in rows))
EOF2
}
mfu mA 7e12 && mfu fm 25e12 0.04 && cp fm/rank0/steps.jsonl fn/rank0/ && cp fm/rank1/steps.jsonl fn/rank1/ ||
	tap_notok "MFU pair edited"
"$TSCOPE_BIN" --print --color never --no-index mA mB >mfu.txt 2>/dev/null
sed -n "/^● BUDGET/,/^●/p" mfu.txt >mfub.txt
tap_check "MFU in A only: useful_compute and compute_overhead deltas empty, why said" \
	'grep -q "^  useful_compute, compute_overhead and mfu deltas not judged: B has no MFU (.*), so all of its \
compute counts as useful compute$" mfub.txt &&
	 grep -q "^  useful_compute  *[0-9.]*  *[0-9.]*  *-  *[0-9.]*  *[0-9.]*  *-$" mfub.txt &&
	 grep -q "^  data_stall  *[0-9.]*  *[0-9.]*  *[-0-9.]*  *[0-9.]*  *[0-9.]*  *[-0-9.]*$" mfub.txt'
"$TSCOPE_BIN" --export diff_budget --no-index mA mB >mfu.csv 2>mfu.err
tap_check "... diff_budget: those deltas empty, the others kept; the note on stderr" \
	'grep -q "^useful_compute,[0-9.]*,[0-9.]*,,[0-9.]*,[0-9.]*,,no$" mfu.csv &&
	 grep -q "^mfu,,,,[0-9.]*,,,$" mfu.csv &&
	 grep -q "^communication,[0-9.]*,[0-9.]*,[-0-9.e]*,.*,[-0-9.e]*,yes$" mfu.csv &&
	 grep -q "^tscope-tui: note on .diff_budget.: useful_compute, compute_overhead and mfu deltas not judged" \
		mfu.err'
"$TSCOPE_BIN" --export diff_findings --no-index mA mB >mfuf.csv 2>/dev/null
tap_check "... A's LOW_MFU not judged in B (why), not resolved" \
	'grep -q "^\"*not judged in B (.*)\"*,EFFICIENCY.LOW_MFU,high,," mfuf.csv && ! grep -q "^resolved," mfuf.csv'
"$TSCOPE_BIN" --export diff_findings --no-index mB mA >mfuf2.csv 2>/dev/null
tap_check "... the other way: not judged in A, not new" \
	'grep -q "^\"*not judged in A (.*)\"*,EFFICIENCY.LOW_MFU,,high," mfuf2.csv && ! grep -q "^new," mfuf2.csv'
"$TSCOPE_BIN" --export diff_findings --no-index fm fn >rec.csv 2>/dev/null
tap_check "B without an MFU: its RECOVERABLE not judged in A (A has an MFU), not new" \
	'grep -q "^\"*not judged in A (A has an MFU, B has none: .*)\"*,EFFICIENCY.RECOVERABLE,,med," rec.csv &&
	 ! grep -q "^new," rec.csv'

# Budgets whose rank walls add up other lines: A records data, B does not (or records only
# its compute). Their shares are of other sums, so no point delta is judged (it showed
# communication +1.8 points for the same 10 ms) and a compute-only side has no
# useful_compute share (it showed 100%, 14.3 points over A); the ms deltas stay.
# mkbud DIR PHASES [NEG]: 2 ranks x 20 steps of the given phases (a JSON members list);
# NEG 1: rank 1's data phase negative at step 3.
mkbud() {
	for r in 0 1; do
		mkdir -p "$1/rank$r"
		printf '{"name": "m", "rank": %d, "world_size": 2}\n' "$r" >"$1/rank$r/run.json"
		for s in $(seq 0 19); do
			ph=$2
			[ "${3:-0}" = 1 ] && [ "$r" = 1 ] && [ "$s" = 3 ] && ph=$(echo "$ph" | sed 's/"data":0.01/"data":-0.01/')
			printf '{"step":%d,"timestamp":%d.5,"phases":{%s}}\n' "$s" "$((1 + s))" "$ph"
		done >"$1/rank$r/steps.jsonl"
	done
}
mkbud bF '"data":0.01,"forward":0.02,"backward":0.04,"comm":0.01' &&
	mkbud bG '"forward":0.02,"backward":0.04,"comm":0.01' && mkbud bA '"data":0.01,"forward":0.02,"backward":0.04' &&
	mkbud bB '"forward":0.02,"backward":0.04' && mkbud bC '"data":0.01,"forward":0.02,"backward":0.04' 1 ||
	tap_notok "budget pairs generated"
"$TSCOPE_BIN" --print --color never --no-index bF bG >bfg.txt 2>/dev/null
sed -n "/^● BUDGET/,/^●/p" bfg.txt >bfgb.txt
tap_check "data_stall measured in A only: no point delta, why said; the ms deltas kept" \
	'grep -qx "  point deltas not judged: data_stall measured in A only, so A.s and B.s rank walls add up \
different lines" bfgb.txt && grep -q "^  useful_compute  *60.000  *60.000  *0.000  *75.0  *85.7  *-$" bfgb.txt &&
	 grep -q "^  communication  *10.000  *10.000  *0.000  *12.5  *14.3  *-$" bfgb.txt'
"$TSCOPE_BIN" --export diff_budget --no-index bA bB >bab.csv 2>bab.err
tap_check "B records only its compute: no useful_compute share in B (not 100%), no point delta, said why" \
	'grep -qx "useful_compute,60,60,0,85.7[0-9]*,,,no" bab.csv && grep -qx "data_stall,10,,,14.2[0-9]*,,,yes" bab.csv &&
	 grep -q "^tscope-tui: note on .diff_budget.: point deltas not judged: data_stall measured in A only, .*; \
B.s useful_compute share n/a: only compute is recorded (no data, comm or other phase)$" bab.err'
cp -r bA bA2 && "$TSCOPE_BIN" --export diff_budget --no-index bA bA2 >baa.csv 2>baa.err
tap_check "... the same lines on both sides: the point deltas kept, no note" \
	'grep -qx "useful_compute,60,60,0,85.7[0-9]*,85.7[0-9]*,0,no" baa.csv && [ ! -s baa.err ]'
# A side without a run budget says its own reason (it named every cause it might be).
"$TSCOPE_BIN" --export diff_budget --no-index bA bC >bac.csv 2>bac.err
tap_check "B without a run budget for rank 1's negative data phase: that reason" \
	'grep -q "not available for this pair of runs: B has no run budget: a negative phase value: data at step 3 on \
rank 1$" bac.err'
"$TSCOPE_BIN" --print --color never --no-index --warmup 30 bA bF >baw.txt 2>/dev/null
tap_check "every record inside --warmup: BUDGET says so" \
	'grep -qx "  not compared: A has no run budget: all 40 records are inside --warmup 30 (nothing left to analyse)" \
baw.txt'
mkbud bD '"data":0.01,"forward":0.02,"backward":0.04' && rm bD/rank1/steps.jsonl &&
	mkbud bE '"forward":0.02,"backward":0.04,"comm":0.01' && mv bE/rank1/steps.jsonl bD/rank1/ ||
	tap_notok "rank 0 with data, rank 1 with comm generated"
"$TSCOPE_BIN" --print --color never --no-index bD bF >bdf.txt 2>/dev/null
tap_check "rank 0 records data, rank 1 comm: BUDGET says neither measures every line, whole" \
	'grep -qx "  not compared: A has no run budget: no rank measures every line another rank measures (rank 0: no \
communication; a phase a rank does not record is not 0 s of it)" bdf.txt'
tap_plan
