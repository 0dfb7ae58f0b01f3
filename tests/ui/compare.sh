#!/bin/sh
# compare.sh: compare mode in the explorer, headless (TSCOPE_SCRIPT). Generated 8-rank
# pairs (tests/tools/gen_pair): rank 5 regresses from step 100 in B. The session opens
# on the B - A heatmap (as one run opens on its heatmap); the Overview (1) leads
# with the verdict naming rank 5; `n` lands on rank 5 at its onset in the B - A heatmap;
# `m` flips the heatmap to A; the Ranks tab (diff_ranks) lists rank 5 first; `e` exports
# it. An identical pair shows "no difference" and `n` says there is no regression. Tabs
# that would only say "needs ..." for the pair (Kernels, Sweep; Heatmap for sweeps) are
# left out. A verdict longer than a summary line reaches the Overview whole. At 80x24 the
# Overview keeps the changed ranks on screen (quality in one line, the lowest lines give
# way); ranks compared by step time say so in their lines. `v` and `:view` list and open
# the pair's views (diff_*, sources) and refuse a view of one run with --export's reason
# (they showed B's tables under the pair's title); `:heatmap` (B's grids) is refused too;
# F and R say follow mode follows one run (they said "paused" and "read" and read nothing).
# The status row says what the scope line says of the common part: no range when no step
# is in common (it showed "0 common steps (-1--1)"), a count per rank when the ranks have
# other counts (it showed the largest alone). diff_findings' s on severity_a sorts by
# severity, high first (it sorted A to Z). When B stopped recording a phase A records,
# the B - A heatmap has no cell and says why (it coloured every cell faster in B). A
# sweep's knee B could not judge (no level 16 in B) is not judged in B on the Overview and
# the Findings tab, as --print says (they said resolved). Enter on a straggler of the
# Findings tab lands on its rank and steps, critical steps marked (it landed on step 0); `?`
# says what n/N do comparing two runs. B without step records has no Env tab. n names the
# order it steps in (by time lost, or by the increase in step time of single ranks, which
# have none).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
cd "$TSCOPE_TMP" || exit 1
"$gen" a 8 200 1 && "$gen" same 8 200 1 && "$gen" reg 8 200 2 5 100 || { tap_notok "pairs generated"; exit 1; }

cat >keys <<KEYS
:dump $PWD/open
1
:dump $PWD/ov
n
:dump $PWD/n
m
:dump $PWD/m
3
:dump $PWD/ranks
e<C-u>ranks.csv<Enter>
q
KEYS
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui a reg >out 2>err
tap_rc $? "compare mode: headless session exits 0"
tap_check "title names A and B" 'head -1 ov | grep -q "A pair vs B pair  1 Overview  2 Heatmap  3 Ranks"'
tap_check "compare mode opens on the B - A heatmap" 'grep -q "^ compute B - A: " open'
tap_check "Overview leads with the verdict naming rank 5" \
	'sed -n 3p ov | grep -q "verdict *B is [0-9.]*% slower per step; rank 5 regressed from step 100"'
tap_check "n: the message names the regression" 'grep -q "^regression 1/1: rank 5, onset at step 100 in B" n'
tap_check "n: the cursor is on rank 5 at its onset (B - A heatmap)" 'grep -q "^ rank 5  step [0-9]*-10[0-9]  compute B - A" n'
# TERM=dumb is mono: the sign of a cell is its underline alone, and the texts say so
tap_check "n: the diverging scale is named (mono: by underline)" \
	'grep -q "scale +-[0-9.]* [mu]*s (faster in B underlined, slower not)" n'
tap_check "m: the heatmap flips to A" 'grep -q "^ rank 5  step [0-9-]*  compute A " m'
tap_check "Ranks: rank 5 first, regressed" 'sed -n 3p ranks | grep -q "^▶ *5 regressed"'
tap_check "e: diff_ranks exported as shown" 'sed -n 2p ranks.csv | grep -q "^5,regressed,"'

# Enter on the Findings tab's straggler (new in B: rank 5, slow from step 100) lands on its
# rank and steps in the B - A heatmap, its critical steps marked, as one run's Enter does
# (it landed on step 0, nothing marked). `?` says what n and N do in compare mode.
printf '5\n<Enter>\n:dump %s/fe\n?\n:dump %s/help\nq\n' "$PWD" "$PWD" >keysf
TSCOPE_SCRIPT=keysf TERM=dumb LINES=60 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui a reg >outf 2>errf
tap_check "Findings: Enter on the straggler lands on rank 5 at step 100 in B - A, critical steps marked" \
	'grep -q "^ rank 5  step [0-9]*-*10[0-9]  compute B - A" fe && sed -n 2p fe | grep -q "▲"'
tap_check "? help: n and N say what they step through comparing two runs" \
	'sed -n "/^ n  /,/^ N  /p" help | tr -s " \n" "  " | grep -q "comparing two runs: next regressed rank" &&
	 sed -n "/^ N  /,/^ [^ ]/p" help | tr -s " \n" "  " | grep -q "comparing two runs: previous regressed"'

cat >keysv <<KEYS
v
:dump $PWD/v_list
<Down><Down><Down><Enter>
:dump $PWD/v_open
:view ranks
:dump $PWD/v_ranks
:view sources
:dump $PWD/v_sources
:heatmap steps
:dump $PWD/v_heat
F
:dump $PWD/v_F
R
:dump $PWD/v_R
KEYS
TSCOPE_SCRIPT=keysv TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui a reg >outv 2>errv
tap_check "v lists the pair's views, not one run's" \
	'grep -q "Views of runs A vs B" v_list && grep -q "^ *diff_ranks  " v_list &&
	 grep -q "^ *diff_findings  " v_list &&
	 grep -q "^ *sources  *runs A vs B" v_list && ! grep -qE "^ *(ranks|steps|heatmap_cells|nodes) " v_list'
tap_check "v: Enter opens diff_findings as a tab" 'grep -q "^ diff_findings  row" v_open'
tap_check ":view ranks is refused with the reason --export gives" \
	'tail -1 v_ranks | grep -q "^.ranks. is a view of one run; two runs give the diff_\* views"'
tap_check ":view sources opens the pair's sources (a side column)" \
	'head -1 v_sources | grep -q " sources *$" && sed -n 2p v_sources | grep -q "^ *side "'
tap_check ":heatmap is refused: the pair has the B - A heatmap" \
	'tail -1 v_heat | grep -q "^a comparison has one heatmap: 2 Heatmap (B - A"'
tap_check "F and R say follow mode follows one run" \
	'tail -1 v_F | grep -q "^follow mode follows one run, not a comparison" &&
	 tail -1 v_R | grep -q "^follow mode follows one run, not a comparison"'

cat >keys3 <<KEYS
:dump $PWD/open3
i
:dump $PWD/legend3
q
q
KEYS
for term in dumb xterm-256color; do
	TSCOPE_SCRIPT=keys3 TERM=$term LINES=40 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui a reg >out3 2>err3
	mv open3 "open3.$term" && mv legend3 "legend3.$term"
done
tap_check "colour: the diverging scale is named by colour" \
	'grep -q "(slower in B warm, faster blue)" open3.xterm-256color'
tap_check "colour: the legend says faster is blue" \
	'grep -q "faster in B (same ramp of glyphs, in blue)" legend3.xterm-256color'
tap_check "mono: the legend says faster is underlined" \
	'grep -q "faster in B (same ramp of glyphs, underlined)" legend3.dumb &&
	 grep -q "faster in B underlined, slower" legend3.dumb'
tap_check "mono: no colour word in the heatmap's texts" '! grep -qE "warm|blue" open3.dumb legend3.dumb'

cat >keys2 <<KEYS
1
:dump $PWD/ov2
n
:dump $PWD/n2
q
KEYS
TSCOPE_SCRIPT=keys2 TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui a same >out2 2>err2
tap_rc $? "identical pair: headless session exits 0"
tap_check "identical pair: no difference" 'grep -q "verdict *no difference: identical per-step times" ov2'
tap_check "identical pair: n finds no regression" 'grep -q "^no regression: no rank is slower in B" n2'
tap_check "identical pair: Reproducible" 'grep -q "Reproducible: identical environment, config, and step-for-step loss" ov2'
tap_check "a step pair without traces or sweeps: no Kernels or Sweep tab" \
	'head -1 ov2 | grep -q "1 Overview  2 Heatmap  3 Ranks  4 Budget  5 Findings  6 Env *$"'
# B without step records (logs empty): no Env tab and no diff_env in v, which would only
# say it needs step records on both sides (they were offered).
cp -r a none && for f in none/rank*/steps.jsonl; do : >"$f"; done
printf ':dump %s/ne\nv\n:dump %s/nev\nq\n' "$PWD" "$PWD" >keysne
TSCOPE_SCRIPT=keysne TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui a none >/dev/null 2>&1
tap_check "B without step records: no Env tab, v does not offer diff_env" \
	'head -1 ne | grep -q "1 Overview  5 Findings *$" && grep -q "^ *diff_findings  " nev &&
	 ! grep -q "diff_env" nev'

# Two sweeps: only the tabs that have something for them, and the session opens on the
# Overview (no heatmap: they have no steps).
sgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_sweep"
"$sgen" sa 40 4 3 >/dev/null && "$sgen" sb 40 4 3 2 >/dev/null || { tap_notok "sweeps generated"; exit 1; }
printf ':dump %s/sw\nn\n:dump %s/swn\nq\n' "$PWD" "$PWD" >keys3
TSCOPE_SCRIPT=keys3 TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui sa sb >out3 2>err3
tap_check "two sweeps: Overview, Findings and Sweep tabs; opens on the Overview" \
	'head -1 sw | grep -q "A .* vs B .*  1 Overview  5 Findings  8 Sweep *$" &&
	 grep -q "^  verdict  *largest change: latency p[59]9 +10.0% at concurrency 2" sw'
tap_check "two sweeps: the status names the level comparison, n has no ranks to step through" \
	'grep -q "^ compare: two sweeps, level by level (8 Sweep)" sw && ! grep -q "n/N:\|m:A/B" sw &&
	 grep -q "Esc:back  1,5,8:panes" sw &&
	 grep -q "^no ranks to step through: two sweeps, level by level (8 Sweep)" swn'
# A knee B could not judge (A's is from concurrency 8 to 16, B has no level 16): not judged
# in B on the Overview and the Findings tab, as --print and diff_findings say, never resolved.
"$sgen" ka 200 8 5 4 >/dev/null && "$sgen" kb 100 8 4 >/dev/null || { tap_notok "knee sweeps generated"; exit 1; }
printf ':dump %s/kov\n5\n:dump %s/kfi\nq\n' "$PWD" "$PWD" >keysk
TSCOPE_SCRIPT=keysk TERM=dumb LINES=24 COLUMNS=120 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui ka kb >outk 2>errk
tap_check "a knee B could not judge: not judged in B on the Overview and the Findings tab" \
	'grep -q "^  findings A/B  0 new in B, 0 resolved, 0 persisting, 2 not judged in B " kov &&
	 grep -q "^.not judged in B (no conc.* SWEEP.SATURATION  *med  *- .* saturates at concurrency 8$" kfi &&
	 grep -q " status=not judged in B (no concurrency 16)$" kfi'
# Two DASF runs: Overview, Findings and Functions; n says there are no ranks to step
# through and where the comparison is.
dgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf"
"$dgen" run da 0 aaaa transpose && "$dgen" run db 50 bbbb reshape || { tap_notok "DASF runs generated"; exit 1; }
printf ':dump %s/dv\n9\n:dump %s/dfn\n<Enter>\n:dump %s/dent\nn\n:dump %s/dn\nq\n' "$PWD" "$PWD" "$PWD" "$PWD" \
	>keys5
TSCOPE_SCRIPT=keys5 TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui da db >out5 2>err5
tap_check "two DASF runs: Overview, Findings and Functions tabs; the verdict names the slower function" \
	'head -1 dv | grep -q "A .* vs B .*  1 Overview  5 Findings  9 Functions *$" &&
	 grep -q "^  verdict  *function predict slower in B: mean task 1.1 s -> 1.65 s" dv &&
	 grep -q "^  task time  *77.2 s -> 99.2 s (+21.9 s, +28.4%)$" dv'
tap_check "two DASF runs: 9 shows diff_functions, the slower function first" \
	'grep -q "^▶predict  *slower  *40  *40 " dfn && grep -q "^ diff_functions  row 1/6" dfn'
tap_check "two DASF runs: the status names the comparison, n has no ranks to step through" \
	'grep -q "^ compare: two DASF runs, function by function (9 Functions)" dv &&
	 grep -q "Esc:back  1,5,9:panes" dv &&
	 grep -q "^no ranks to step through: two DASF runs, function by function (9 Functions)" dn'
tap_check "Enter on a row with nothing to open says so" \
	'tail -1 dent | grep -q "^nothing to open from a diff_functions row"'
# A pair of 8 common steps: no regression is called, and n says why, not "no regression".
"$gen" a8 8 8 1 && "$gen" reg8 8 8 2 5 2 || { tap_notok "short pair generated"; exit 1; }
printf 'n\n:dump %s/n8\nq\n' "$PWD" >keys4
TSCOPE_SCRIPT=keys4 TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --tui a8 reg8 >out4 2>err4
tap_check "8 common steps: n says no regression is called under 16" \
	'grep -q "^no regression called: 8 common steps, the noise test needs 16" n8'
# The status row: B's steps shifted by 500 (nothing in common), then B without two of
# rank 1's steps (198-200 common steps per rank).
cp -r a far && cp -r a gap
for r in a/rank*; do
	awk '{ match($0, /^[{]"step":[0-9]+/)
	       print "{\"step\":" substr($0, 9, RLENGTH - 8) + 500 substr($0, RLENGTH + 1) }' \
		"$r/steps.jsonl" >"far/${r#a/}/steps.jsonl"
done
grep -v '^{"step":\(5\|10\),' a/rank1/steps.jsonl >gap/rank1/steps.jsonl
printf '1\n:dump %s/stfar\nq\n' "$PWD" >keysfar
TSCOPE_SCRIPT=keysfar TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui a far >/dev/null 2>&1
tap_check "no step in common: the status has no step range" \
	'grep -q "^ compare: 0 of 8 common ranks, 0 common steps (nothing to compare)" stfar &&
	 ! grep -q "(-1--1)" stfar'
sed "s|stfar|stgap|" keysfar >keysgap
TSCOPE_SCRIPT=keysgap TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui a gap >/dev/null 2>&1
tap_check "ranks with other counts of common steps: the status gives the range per rank, as the scope line" \
	'grep -q "^ compare: 8 common ranks, 198-200 common steps per rank (steps 0-199)" stgap'
# Another workload (batch_size 32 -> 64): the explorer calls rank 5 slower, not regressed.
for r in a/rank*; do sed 's/"config": {"lr": 0.001}/"config": {"lr": 0.001, "batch_size": 32}/' $r/run.json >t &&
	mv t $r/run.json; done
for r in reg/rank*; do sed 's/"config": {"lr": 0.001}/"config": {"lr": 0.001, "batch_size": 64}/' $r/run.json >t &&
	mv t $r/run.json; done
printf '1\n:dump %s/uov\nn\n:dump %s/un\nq\n' "$PWD" "$PWD" >keys5
TSCOPE_SCRIPT=keys5 TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui a reg >out5 2>err5
tap_check "another workload: Overview lists rank 5 as slower, not regressed" \
	'grep -q "but the workload differs (batch_size 32 -> 64)" uov &&
	 grep -q "Ranks that changed (1 slower, 0 faster" uov && grep -q "^  rank 5  *slower from step 100" uov &&
	 ! grep -q "regressed from\|[0-9] regressed" uov'
tap_check "another workload: n says slower rank, not regression" \
	'tail -1 un | grep -q "^slower rank 1/1: rank 5, onset at step 100 in B"'
# n names the order it steps in: by time lost when the ranks have one, else by the increase
# of what they are compared by (single ranks, by step time, have no time lost: it said
# "ordered by increase in time lost" all the same).
"$gen" s1 1 200 1 && "$gen" s1r 1 200 2 0 100 || { tap_notok "single-rank pair generated"; exit 1; }
printf 'n\n:dump %s/ns1\nq\n' "$PWD" >keys7
TSCOPE_SCRIPT=keys7 TERM=dumb LINES=24 COLUMNS=200 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui s1 s1r >/dev/null 2>&1
sed "s|ns1|nreg|" keys7 >keys8
"$gen" a40 8 40 1 && "$gen" reg40 8 40 2 5 20 || { tap_notok "40-step pair generated"; exit 1; }
TSCOPE_SCRIPT=keys8 TERM=dumb LINES=24 COLUMNS=200 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui a40 reg40 \
	>/dev/null 2>&1
tap_check "n: the order named is the one used (time lost; step time for single ranks)" \
	'tail -1 nreg | grep -q "^regression 1/1: rank 5, .* (ordered by increase in time lost)" &&
	 tail -1 ns1 | grep -q "^regression 1/1: rank 0, .* (ordered by increase in step time over the common steps)"'
# A verdict longer than a summary line (long model names, GPUs, ranks and steps of one
# side only): the Overview shows all of it, the words --print has, never cut mid-word.
"$gen" la 4 60 1 && "$gen" lb 8 80 2 || { tap_notok "long-verdict pair generated"; exit 1; }
python3 -c 'import json,sys,glob
for d, model, gpu in (("la", "Llama-3.1-8B-Instruct", "NVIDIA A100-SXM4-80GB"), ("lb", "Llama-3.1-70B-Instruct",
                      "NVIDIA H100 80GB HBM3")):
    for f in glob.glob(d + "/rank*/run.json"):
        j = json.load(open(f))
        j["config"].update(model="meta-llama/" + model, seq_len=2048 if d == "la" else 4096)
        j.setdefault("environment", {}).update(gpu=gpu, gpu_count=8 if d == "la" else 16)
        json.dump(j, open(f, "w"))'
"$TSCOPE_BIN" --print --no-index --color never la lb 2>/dev/null | sed -n "s/^● COMPARISON — //p" >lv.print
printf '1\n:dump %s/lov\nq\n' "$PWD" >keys6
for cols in 200 100; do
	TSCOPE_SCRIPT=keys6 TERM=dumb LINES=40 COLUMNS=$cols LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui la lb \
		>out6 2>err6
	sed -n '/^  verdict/,/^  A  /p' lov | sed '$d' | cut -c17- | tr '\n' ' ' | tr -s ' ' | sed 's/ $//' >"lv.$cols"
done
tap_check "a verdict of $(wc -c <lv.print | tr -d ' ') bytes: all of it in the Overview, 200 and 100 columns" \
	'[ "$(wc -c <lv.print)" -gt 300 ] &&
	 grep -q "not a like-for-like comparison; .*not compared: .*ranks 4-7 (only in B)$" lv.print &&
	 [ "$(cat lv.200)" = "$(cat lv.print)" ] && [ "$(cat lv.100)" = "$(cat lv.print)" ]'
# 80x24: B's ranks 1, 2, 3, 5, 6 slower, rank 7 only in A, losses that differ (pytscope's
# notes). The quality of clean sides is one short line; the lowest lines (the notes) give
# way to "N more lines" so the list of changed ranks stays on screen, End reaching its last.
# A second pair with phases fwd and bwd: its rank lines say step time, not compute.
python3 -c 'import json, os, random
for d, slow, n in (("ma", (), 8), ("mb", (1, 2, 3, 5, 6), 7), ("fa", (), 4), ("fb", (2,), 4)):
    for r in range(n):
        rnd = random.Random(hash((d, r)) & 0xffff)
        os.makedirs(f"{d}/rank{r}", exist_ok=True)
        json.dump({"name": d, "rank": r, "world_size": max(n, 8) if d[0] == "m" else n},
                  open(f"{d}/rank{r}/run.json", "w"))
        names = ("fwd", "bwd") if d[0] == "f" else ("forward", "backward")
        with open(f"{d}/rank{r}/steps.jsonl", "w") as f:
            for s in range(40):
                k = (1.3 if r in slow else 1.0) * (1 + 0.04 * (rnd.random() - 0.5))
                ph = {names[0]: 0.03 * k, names[1]: 0.06 * k, "comm": 0.01}
                f.write(json.dumps({"step": s, "phases": ph, "scalars": {"loss": 2 + rnd.random()}}) + "\n")' ||
	{ tap_notok "80x24 pairs generated"; exit 1; }
printf '1\n:dump %s/s80\nG\n:dump %s/s80end\nq\n' "$PWD" "$PWD" >keys7
TSCOPE_SCRIPT=keys7 TERM=dumb LINES=24 COLUMNS=80 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui ma mb >out7 2>err7
tap_check "80x24: quality in one line, the lowest lines give way, the changed ranks on screen" \
	'grep -q "^  quality  *A and B clean$" s80 && grep -q "^  [0-9]* more lines\? (a taller window shows them" s80 &&
	 grep -q "^  Ranks that changed (5 regressed" s80 && grep -q "^  rank [0-9]  *regressed" s80'
tap_check "... End scrolls the list to its last changed ranks" \
	'[ "$(grep -c "^  rank [0-9]  *regressed" s80end)" -ge 3 ] &&
	 [ "$(grep "^  rank [0-9]  *regressed" s80end | tail -1)" != "$(grep "^  rank [0-9]  *regressed" s80 | tail -1)" ]'
printf '1\n:dump %s/f80\nq\n' "$PWD" >keys8
TSCOPE_SCRIPT=keys8 TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui fa fb >out8 2>err8
tap_check "ranks compared by step time: the rank lines say step time" \
	'grep -q "^  Ranks that changed by step time (1 regressed" f80 &&
	 grep -q "^  rank 2  *regressed .* step time " f80 && ! grep -q "compute per step" f80'
# B without the data phase: A's and B's times add up different phases, so the B - A
# heatmap has no cell (no scale), its note says why; A (m) still shows A's compute.
"$gen" pa 4 40 1 >/dev/null && cp -r pa pnd && python3 -c 'import json,glob
for f in glob.glob("pnd/rank*/steps.jsonl"):
    L = [json.loads(l) for l in open(f)]
    [j["phases"].pop("data") for j in L]
    open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))' ||
	{ tap_notok "a pair without data generated"; exit 1; }
printf ':dump %s/nd\nm\n:dump %s/ndA\nq\n' "$PWD" "$PWD" >keysnd
TSCOPE_SCRIPT=keysnd TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui pa pnd >outnd 2>errnd
tap_check "a phase in A only: B - A has no cell nor scale, the note says why" \
	'grep -q "^ compute B - A: .* scale n/a: no cell has a value" nd &&
	 grep -q "^ B - A not shown: phase data recorded in A only, so A.s and B.s times add up different phases$" nd &&
	 [ "$(grep -c "^    [0-3] ·*$" nd)" = 4 ] && grep -q "^ rank 0  step 0  compute B - A missing" nd'
tap_check "... A (m) still shows A's compute" 'grep -q "^ rank 0  step 0  compute A [0-9]* ms" ndA'
# diff_findings: s on severity_a sorts by severity (it sorted A to Z: high, low, med)
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo" d1 4 100 >/dev/null && cp -r d1 d2 ||
	{ tap_notok "demo pair generated"; exit 1; }
printf ':view diff_findings\n<Right>\n<Right>\ns\n:dump %s/fs\ns\n:dump %s/fss\nq\n' "$PWD" "$PWD" >keys9
TSCOPE_SCRIPT=keys9 TERM=dumb LINES=24 COLUMNS=100 LC_ALL=C.UTF-8 "$TSCOPE_BIN" --no-index --tui d1 d2 >out9 2>err9
sev_a() { sed -n '3,5p' "$1" | awk '{ print $3 }' | paste -sd' '; }
tap_check "diff_findings: s on severity_a sorts high, med, low; s again low first" \
	'[ "$(sev_a fs)" = "high med low" ] && [ "$(sev_a fss)" = "low med high" ]'
tap_plan
