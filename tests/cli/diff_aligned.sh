#!/bin/sh
# diff_aligned.sh: a finding of a rule across ranks is judged on the other side only where
# that side aligns its steps across ranks (compares the ranks there). A rank slow on steps
# 0-29 (pytscope's straggler, evidence 0-29; the fastest rank after) against a B whose
# rank 2 joins at step 30: B compares no rank on steps 0-29, so the straggler is not
# judged in B, not resolved (and not judged in A, not new, the other way; its stall over
# 0-29 too). Two ranks slow on steps 0-29 only (pytscope's straggler one of them; the
# other is no rank slower throughout: it recovered) against such a B: not judged, B
# holding none of the slow steps. Against a B that aligns 80 of 160 steps, holding 20 of
# the rank's 100 slow steps, mostly where it was fine in A: not judged either (pytscope's
# straggler, its evidence 0-159: its slowness is where it is slow, not the steps it is
# critical on, 1 in 4 by chance). A rank slow on every step
# against a B that aligns 30 of them: judged there, resolved. A stall over steps 10-29
# against a B that aligns 10 of them: not judged ("B compares the ranks on only 10 of
# steps 10-29").
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# mk DIR NSTEPS [slow R LO HI FAC]... [late R FROM]...: 4 ranks x NSTEPS steps of
# pytscope's phases within 1% of each other; slow: rank R's compute FAC times over steps
# LO-HI; late: rank R logs from step FROM on.
mk() {
	python3 - "$@" <<'EOF'
import json, os, random, sys
out, n, a = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
slow, late = [], {}
while a:
    if a[0] == 'slow':
        slow.append((int(a[1]), int(a[2]), int(a[3]), float(a[4])))
        a = a[5:]
    else:
        late[int(a[1])] = int(a[2])
        a = a[3:]
for r in range(4):
    rnd = random.Random(r + 7)
    os.makedirs(f'{out}/rank{r}', exist_ok=True)
    with open(f'{out}/rank{r}/run.json', 'w') as f:
        json.dump({"name": out, "rank": r, "world_size": 4}, f)
    with open(f'{out}/rank{r}/steps.jsonl', 'w') as f:
        for s in range(late.get(r, 0), n):
            k = 1.0 + 0.01 * rnd.random()
            for sr, lo, hi, fac in slow:
                k *= fac if sr == r and lo <= s <= hi else 1
            ph = {"data": 0.01 * k, "forward": 0.03 * k, "backward": 0.06 * k, "optimizer": 0.005 * k,
                  "comm": 0.003}
            f.write(json.dumps({"step": s, "phases": ph, "scalars": {"loss": 2.0 / (1 + 0.02 * s)}}) + "\n")
EOF
}
mk full 60 slow 3 0 29 1.4 slow 3 30 59 0.97 && mk late 60 slow 3 0 29 1.4 slow 3 30 59 0.97 late 2 30 &&
	mk half 60 slow 2 0 29 1.4 slow 3 0 29 1.4 && mk fixed 60 late 1 30 &&
	mk long 160 slow 2 0 99 1.4 slow 3 0 99 1.4 && mk long2 160 late 1 80 &&
	mk thr 60 slow 3 0 59 1.4 && mk thr2 60 late 2 30 &&
	mk stall 60 slow 1 10 29 1.5 && mk stall2 60 late 2 20 || { tap_notok "runs generated"; exit 1; }

"$TSCOPE_BIN" --print --color never --no-index full late >fl.txt 2>/dev/null
want="^  not judged in B (B compares no rank on steps 0-29) \[HIGH\] Rank 3 is a persistent straggler"
head="^● FINDINGS — 0 new in B · 0 resolved · 0 persisting · 2 not judged in B\$"
tap_check "a straggler on steps 0-29, B aligning steps 30-59: not judged in B, not resolved" \
	'grep -q "$want" fl.txt && grep -q "$head" fl.txt'
"$TSCOPE_BIN" --export diff_findings --no-index late full >lf.csv 2>/dev/null
tap_check "... the other way: not judged in A, not new" \
	'grep -q "^not judged in A (A compares no rank on steps 0-29),DIST.STRAGGLER," lf.csv && ! grep -q "^new," lf.csv'

"$TSCOPE_BIN" --export diff_findings --no-index half fixed >hf.csv 2>/dev/null
tap_check "two ranks slow on steps 0-29 (none throughout), B aligning 30-59: not judged, not resolved" \
	'grep -q "^not judged in B (B compares no rank on steps 0-[0-9]*),DIST.STRAGGLER,med,,3," hf.csv &&
	 ! grep -q ",DIST.SLOW_RANK," hf.csv && ! grep -q "^resolved," hf.csv'
"$TSCOPE_BIN" --export diff_findings --no-index long long2 >ll.csv 2>/dev/null
want="^\"not judged in B (B compares the ranks on 80 of steps 0-159, holding 20 of the 100 where rank"
tap_check "... B aligning 80 of 160 steps, 20 of its 100 slow ones: mostly where it was fine in A, not judged" \
	'grep -q "$want 3 is slow in A)\",DIST.STRAGGLER," ll.csv && ! grep -q "^resolved,DIST.S[LT]" ll.csv'
"$TSCOPE_BIN" --export diff_findings --no-index thr thr2 >tt.csv 2>/dev/null
tap_check "slow on every step, B aligning 30 of them without it: resolved (judged there)" \
	'grep -q "^resolved,DIST.STRAGGLER,high,,3," tt.csv && ! grep -q "^\"*not judged.*,DIST.STRAGGLER," tt.csv'
"$TSCOPE_BIN" --export diff_findings --no-index stall stall2 >st.csv 2>/dev/null
tap_check "a stall over steps 10-29, B aligning 20-59: not judged in B (only 10 of its steps)" \
	'grep -q "^not judged in B (B compares the ranks on only 10 of steps 10-29),DIST.TRANSIENT_STALL,med,,1," st.csv'
tap_plan
