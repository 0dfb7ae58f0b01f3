#!/bin/sh
# diff_verdicts.sh: the compare verdict says what it could not judge, and why, and never
# claims more than its input holds. A side whose step records have no phases at the steps
# both runs have is named as the side that lacks phase values, never as "no step number in
# common" (both runs have steps 0-39); a side without a rank's phases is compared by step
# time and the verdict says so whether the pair is identical, not judged or judged; two
# trace sets whose lowest rank's trace names another GPU (deviceProperties) or another
# distributedInfo world_size are not like for like: slower, never regressed. An eval record
# (scalars alone) after a training record of its step leaves that step to the training
# record (as the distributed analysis aligns it): a copy of A with one is the same as A on
# every rank, compared by compute over all 40 steps, not "improved" by a step of 0 s.
# Sides whose lowest ranks differ (0-3 against 1-4) have their pytscope diff read on the
# lowest rank both have, said, never NONDETERMINISM from rank 0 against rank 1; with no
# rank in common reproducibility is not judged. A side that stopped recording a phase the
# other records (data, comm) is not called faster: not judged, the phase named, no
# per-rank delta. A trace's compute is its compute kernels' time: doubled compute kernels
# regress every rank, slower NCCL kernels improve none. A NaN phase value leaves its step
# uncompared, named with its cause, and the true reason the ranks are judged by step time
# is given. Another batch size is named in every verdict (no difference, not judged) and
# found nested in config (train.batch_size). Steps of one side only are named as the
# stretches they are (0-19, 40-59 around B's 20-39, never 0-59), and do not empty the time
# lost, which is over the common steps. A rank not compared (no records in B, or of A only
# without a compute phase) does not make the others' compute unweighable.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
B="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
cd "$TSCOPE_TMP" || exit 1

# nophases DIR [RANK]: drop "phases" from every record of DIR's ranks (of rank RANK only).
nophases() {
	python3 -c 'import json,sys,glob
for f in glob.glob(sys.argv[1] + "/rank" + sys.argv[2] + "/steps.jsonl"):
    L = [json.loads(l) for l in open(f)]
    [j.pop("phases", None) for j in L]
    open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))' "$1" "${2:-*}"
}
"$B/gen_pair" p 4 40 1 >/dev/null && cp -r p np && nophases np && cp -r p e1 && nophases e1 1 ||
	{ tap_notok "pairs generated"; exit 1; }

"$TSCOPE_BIN" --print --no-index p np >pnp.txt 2>/dev/null
want="^● COMPARISON — step times not compared: no common step has a phase value in B;"
want="$want not compared: ranks 0-3 (no phase value at its common steps in B)\$"
tap_check "B without phases: the side that lacks them named, not 'no step number in common'" \
	'grep -q "$want" pnp.txt && ! grep -q "no step number in common" pnp.txt'
"$TSCOPE_BIN" --print --no-index np p >npp.txt 2>/dev/null
tap_check "... A without phases: A named" \
	'grep -q "^● COMPARISON — step times not compared: no common step has a phase value in A;" npp.txt'
cp -r p half && python3 -c 'import json,sys,glob
for f in glob.glob("half/rank*/steps.jsonl"):
    L = [json.loads(l) for l in open(f)]
    [j.pop("phases") for j in L if j["step"] < 20]
    open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))' && cp -r p half2 && python3 -c 'import json,sys,glob
for f in glob.glob("half2/rank*/steps.jsonl"):
    L = [json.loads(l) for l in open(f)]
    [j.pop("phases") for j in L if j["step"] >= 20]
    open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))' || tap_notok "half pairs generated"
"$TSCOPE_BIN" --print --no-index half half2 >hh.txt 2>/dev/null
tap_check "... phases in A at steps 20-39 only, in B at 0-19 only: neither side has them at one step" \
	'grep -q "^● COMPARISON — step times not compared: no common step has a phase value in both A and B;" hh.txt'
"$B/gen_pair" q 4 40 1 >/dev/null && mkdir far && for r in q/rank*; do
	mkdir "far/${r#q/}" && cp "$r/run.json" "far/${r#q/}/" &&
		sed 's/"step": *\([0-9]*\)/"step": 10\1/' "$r/steps.jsonl" >"far/${r#q/}/steps.jsonl"
done
"$TSCOPE_BIN" --print --no-index q far >qfar.txt 2>/dev/null
tap_check "... steps 0-39 against 100-1039: still no step number in common" \
	'grep -q "^● COMPARISON — step times not compared: A and B have no step number in common;" qfar.txt'

# One rank of B without phases: the others compared by step time, said in the verdict.
"$TSCOPE_BIN" --print --no-index p e1 >pe1.txt 2>/dev/null
want="^● COMPARISON — no difference: identical per-step times on 40 common steps of 3 ranks;"
want="$want ranks judged by step time: B's compute cannot be weighed (rank 1 records no compute phase);"
want="$want not compared: rank 1"
tap_check "identical but for rank 1's phases: no difference, judged by step time and why" 'grep -q "$want" pe1.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index p e1 >pe1.csv 2>/dev/null
tap_check "... as diff_ranks' basis says" 'sed -n 2p pe1.csv | grep -q ",step_time$"'
"$B/gen_pair" s8 4 8 1 >/dev/null && "$B/gen_pair" t8 4 8 2 2 2 >/dev/null && nophases t8 1 ||
	tap_notok "short pair generated"
"$TSCOPE_BIN" --print --no-index s8 t8 >st8.txt 2>/dev/null
tap_check "not judged (8 steps): the basis said too" \
	'grep -q "^● COMPARISON — not judged: 8 common steps .*; ranks judged by step time: B.s compute cannot be" \
	 st8.txt'

# Trace pairs: B 1.3 times slower; on another GPU, or another world_size, not a regression.
mktraces() { # mktraces DIR GPU WORLD SCALE: ranks 0 and 1 of gen_trace, rewritten
	mkdir -p "$1" && for r in 0 1; do
		"$B/gen_trace" "$1/g$r.json" 1 "$r" >/dev/null && python3 -c 'import json,sys
p, gpu, world, k = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4])
j = json.load(open(p))
t0 = min(e["ts"] for e in j["traceEvents"])
for e in j["traceEvents"]:
    e["ts"] = t0 + round((e["ts"] - t0) * k)
    if "dur" in e:
        e["dur"] = round(e["dur"] * k)
j["distributedInfo"]["world_size"] = world
j["deviceProperties"] = [{"id": 0, "name": gpu, "totalGlobalMem": 16000000000}]
json.dump(j, open(sys.argv[5], "w"))' "$1/g$r.json" "$2" "$3" "$4" "$1/r$r.json" && rm "$1/g$r.json" || return 1
	done
}
mktraces tc "Tesla T4" 2 1 && mktraces tslow "Tesla T4" 2 1.3 && mktraces tgpu "NVIDIA A100-SXM4-80GB" 2 1.3 &&
	mktraces tw8 "Tesla T4" 8 1.3 && mktraces tcase " tesla t4" 2 1.3 || { tap_notok "traces generated"; exit 1; }
"$TSCOPE_BIN" --print --no-index --color never tc tslow >ts.txt 2>/dev/null
tap_check "trace pair, the same GPU and world_size, B slower: ranks regressed" \
	'grep -q "^● COMPARISON — B is 30.0% slower per step; rank [01] regressed" ts.txt'
"$TSCOPE_BIN" --print --no-index --color never tc tgpu >tg.txt 2>/dev/null
want="^● COMPARISON — B is 30.0% slower per step, but the workload differs (gpu Tesla T4 -> NVIDIA A100-SXM4-80GB):"
want="$want not a like-for-like comparison; 2 ranks slower and 0 faster beyond noise, none called regressed\$"
tap_check "trace pair on another GPU: not like for like, no rank regressed" \
	'grep -q "$want" tg.txt && ! grep -q "regressed from" tg.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index tc tgpu >tg.csv 2>/dev/null
tap_eq "... diff_ranks: slower_unlike" "slower_unlike" "$(tail -n +2 tg.csv | cut -d, -f2 | sort -u)"
"$TSCOPE_BIN" --print --no-index --color never tc tw8 >tw.txt 2>/dev/null
tap_check "trace pair of another world_size: named, not like for like" \
	'grep -q "^● COMPARISON — .*, but the workload differs (world_size 2 -> 8): not a like-for-like" tw.txt'
"$TSCOPE_BIN" --print --no-index --color never tc tcase >tk.txt 2>/dev/null
tap_check "a GPU name's case and white space: the same GPU, regressed" \
	'grep -q "^● COMPARISON — B is 30.0% slower per step; rank [01] regressed" tk.txt'
# A trace's compute is its compute kernels' time (the steps view's compute_ms), not the
# step less its comm: every compute kernel twice as long is a regression of every rank
# (the ProfilerSteps as long), NCCL kernels 1.5 times as long no compute improvement.
kscale() { # kscale SRC DST NCCL FACTOR: a copy of SRC's traces, the NCCL kernels (1) or the others (0) scaled
	mkdir -p "$2" && for f in "$1"/r*.json; do python3 -c 'import json,sys
j = json.load(open(sys.argv[1]))
for e in j["traceEvents"]:
    if e.get("cat") == "kernel" and ("nccl" in e["name"]) == (sys.argv[3] == "1"):
        e["dur"] = round(e["dur"] * float(sys.argv[4]))
json.dump(j, open(sys.argv[2], "w"))' "$f" "$2/${f##*/}" "$3" "$4" || return 1; done
}
kscale tc tkern 0 2 && kscale tc tnccl 1 1.5 || tap_notok "kernel-scaled traces generated"
"$TSCOPE_BIN" --print --no-index --color never tc tkern >tkern.txt 2>/dev/null
"$TSCOPE_BIN" --export diff_ranks --no-index tc tkern >tkern.csv 2>/dev/null
"$TSCOPE_BIN" --export steps --no-index tc >tc_steps.csv 2>/dev/null
tap_check "trace pair, compute kernels twice as long: every rank regressed, not 'no difference'" \
	'grep -q "^● COMPARISON — .*; rank [01] regressed from step [0-9]* (2 ranks regressed)" tkern.txt &&
	 ! grep -q "no difference" tkern.txt &&
	 [ "$(tail -n +2 tkern.csv | cut -d, -f2,12 | sort -u)" = "regressed,compute" ]'
tap_eq "... diff_ranks' compute in A: the steps view's compute_ms (rank 0), not the step less its comm" \
	"$(awk -F, 'NR > 1 && $1 == 0 { s += $5; n++ } END { printf "%.3f", s / n }' tc_steps.csv)" \
	"$(awk -F, '$1 == 0 { printf "%.3f", $3 }' tkern.csv)"
"$TSCOPE_BIN" --print --no-index --color never tc tnccl >tnccl.txt 2>/dev/null
"$TSCOPE_BIN" --export diff_ranks --no-index tc tnccl >tnccl.csv 2>/dev/null
tap_check "... NCCL kernels 1.5 times as long: no rank improved, their compute the same" \
	'grep -q "^● COMPARISON — .*; no rank regressed beyond its noise" tnccl.txt &&
	 ! grep -q "improved" tnccl.txt &&
	 [ "$(tail -n +2 tnccl.csv | cut -d, -f2,5 | sort -u)" = "same,0" ]'
cp -r p pe && python3 -c 'import json
f = "pe/rank1/steps.jsonl"
L = [json.loads(l) for l in open(f)]
i = [k for k, j in enumerate(L) if j["step"] == 10][0]
L.insert(i + 1, {"step": 10, "scalars": {"val_loss": 0.5}})
open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))'
"$TSCOPE_BIN" --export diff_ranks --no-index p pe >pe.csv 2>/dev/null
"$TSCOPE_BIN" --print --no-index --color never p pe >pe.txt 2>/dev/null
tap_check "B with an eval record after rank 1's training record of step 10: the same as A, by compute, 40 steps" \
	'[ "$(tail -n +2 pe.csv | cut -d, -f2,11,12 | sort -u)" = "same,40,compute" ] &&
	 grep -q "^● COMPARISON — no difference: identical per-step times on 40 common steps of 4 ranks" pe.txt'
# The pytscope diff of sides whose lowest ranks differ (A ranks 0-3, B ranks 1-4 of the same
# seed: ranks 1-3 byte-identical) reads rank 1 on both, says so, and finds them reproducible
# (not NONDETERMINISM from A's rank 0 against B's rank 1); with no rank in common it is not
# judged.
"$B/gen_pair" r0 4 60 1 >/dev/null && "$B/gen_pair" r5 6 60 1 >/dev/null && mkdir r14 r45 &&
	for r in 1 2 3 4; do cp -r "r5/rank$r" r14/; done && cp -r r5/rank4 r5/rank5 r45/ &&
	sed -i 's/"name": "pair"/"name": "high"/' r45/rank*/run.json || tap_notok "rank-shifted runs generated"
"$TSCOPE_BIN" --print --no-index --color never r0 r14 >r14.txt 2>/dev/null
tap_check "lowest ranks 0 and 1: rank 1 compared on both sides, said, reproducible, no NONDETERMINISM" \
	'grep -q "^Comparing  A=.pair.  vs  B=.pair.  (metrics of rank 1: the lowest rank both runs have)$" r14.txt &&
	 grep -q "^  • Metrics and losses of rank 1, the lowest rank both runs have (A.s lowest rank is 0" r14.txt &&
	 grep -q "^  • Reproducible: identical environment" r14.txt && ! grep -q "NONDETERMINISM\|diverge" r14.txt &&
	 grep -q "^  final_loss  *[0-9.]*  *[0-9.]*  *+0$" r14.txt'
"$TSCOPE_BIN" --print --no-index --color never r0 r45 >r45.txt 2>/dev/null
tap_check "... no rank in common: reproducibility not judged, both lowest ranks named" \
	'grep -q "^  • Reproducibility not judged: A.s lowest rank is rank 0 and B.s is rank 4, and no rank" \
	 r45.txt && ! grep -q "NONDETERMINISM\|diverge" r45.txt'

# B stopped recording a phase A records (data; comm): its time is missing there, not 0 s,
# so B is neither faster nor its ranks improved: not judged, the phase named.
dropphase() { # dropphase SRC DST PHASE: a copy of SRC whose records lack PHASE
	cp -r "$1" "$2" && python3 -c 'import json,sys,glob
for f in glob.glob(sys.argv[1] + "/rank*/steps.jsonl"):
    L = [json.loads(l) for l in open(f)]
    [j["phases"].pop(sys.argv[2], None) for j in L]
    open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))' "$2" "$3"
}
dropphase r0 nodata data && dropphase r0 nocomm comm || tap_notok "pairs without a phase generated"
"$TSCOPE_BIN" --print --no-index --color never r0 nodata >nd.txt 2>/dev/null
want="^● COMPARISON — step times not judged: phase data recorded in A only, so A's and B's times add up different"
tap_check "B without the data phase: not judged, the phase named, nothing faster or improved" \
	'grep -q "$want phases$" nd.txt && ! grep -q "faster\|improved\|mean step wall" nd.txt'
"$TSCOPE_BIN" --export diff_ranks --no-index r0 nodata >nd.csv 2>/dev/null
tap_eq "... diff_ranks: change n/a on every rank" "n/a" "$(tail -n +2 nd.csv | cut -d, -f2 | sort -u)"
tap_eq "... and no delta: A's and B's means add up different phases" "n/a,," \
	"$(tail -n +2 nd.csv | cut -d, -f2,5,6 | sort -u)"
"$TSCOPE_BIN" --print --no-index --color never nocomm r0 >nc.txt 2>/dev/null
tap_check "A without comm: not judged, comm in B only, B not slower" \
	'grep -q "^● COMPARISON — step times not judged: phase comm recorded in B only" nc.txt &&
	 ! grep -q "slower" nc.txt'

# A NaN phase value in B (rank 1's forward at step 10; at steps 10-12): that step is not
# compared and named with its cause, the ranks judged by step time say the true reason
# (not "no compute to weigh"), and "identical" counts the steps it compared (39-40).
nanphase() { # nanphase SRC DST STEPS: a copy of SRC, rank 1's forward NaN at STEPS (a,b,...)
	cp -r "$1" "$2" && python3 -c 'import json,sys
f = sys.argv[1] + "/rank1/steps.jsonl"; at = [int(x) for x in sys.argv[2].split(",")]
L = [json.loads(l) for l in open(f)]
for j in L:
    if j["step"] in at: j["phases"]["forward"] = float("nan")
open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))' "$2" "$3"
}
nanphase p pnan 10 && nanphase p pnan3 10,11,12 || tap_notok "runs with a NaN phase generated"
"$TSCOPE_BIN" --print --no-index --color never p pnan >pnan.txt 2>/dev/null
want="^● COMPARISON — no difference: identical per-step times on 39-40 common steps per rank of 4 ranks;"
want="$want ranks judged by step time: B's compute cannot be weighed (rank 1 records a NaN forward phase value at"
want="$want step 10); not compared: rank 1 step 10 (no value in B: a NaN forward phase value)\$"
tap_check "a NaN forward value in B: that step named, the true reason, identical over the steps compared" \
	'grep -q "$want" pnan.txt && ! grep -q "no compute to weigh" pnan.txt &&
	 grep -q "^  mean step wall .* over 39 common steps$" pnan.txt'
"$TSCOPE_BIN" --print --no-index --color never p pnan3 >pnan3.txt 2>/dev/null
tap_check "... at steps 10-12: their count and the first's cause" \
	'grep -q "; not compared: rank 1 steps 10-12 (3 with no value in B, the first: a NaN forward phase value)$" \
	 pnan3.txt'

# Another batch size is named in every verdict: no difference, not judged (10 common
# steps), and nested in config (config.train.batch_size).
setcfg() { # setcfg DIR KEY JSON: config KEY (a dotted path) set to JSON in DIR's run.json files
	python3 -c 'import json,sys,glob
for f in glob.glob(sys.argv[1] + "/rank*/run.json"):
    j = json.load(open(f)); c = j["config"]; path = sys.argv[2].split(".")
    for k in path[:-1]: c = c.setdefault(k, {})
    c[path[-1]] = json.loads(sys.argv[3]); json.dump(j, open(f, "w"))' "$1" "$2" "$3"
}
"$B/gen_pair" w0 4 40 1 >/dev/null && cp -r w0 w64 && "$B/gen_pair" w10 4 10 2 >/dev/null &&
	"$B/gen_pair" wslow 4 40 2 2 0 >/dev/null && cp -r w0 n0 && cp -r wslow n64 && setcfg w0 batch_size 32 &&
	setcfg w64 batch_size 64 && setcfg w10 batch_size 64 && setcfg n0 train.batch_size 32 &&
	setcfg n64 train.batch_size 64 || tap_notok "batch size pairs generated"
unlike="the workload differs (batch_size 32 -> 64): not a like-for-like comparison"
"$TSCOPE_BIN" --print --no-index --color never w0 w64 >w64.txt 2>/dev/null
tap_check "identical times, another batch size: no difference, the batch size named" \
	'grep -q "^● COMPARISON — no difference: identical per-step times on 40 common steps of 4 ranks; $unlike$" \
	 w64.txt'
"$TSCOPE_BIN" --print --no-index --color never w0 w10 >w10.txt 2>/dev/null
tap_check "... not judged (10 common steps): the batch size named" \
	'grep -q "^● COMPARISON — not judged: 10 common steps .*; $unlike; not compared:" w10.txt'
"$TSCOPE_BIN" --print --no-index --color never n0 n64 >n64.txt 2>/dev/null
want="^● COMPARISON — B is [0-9.]*% slower per step, but the workload differs (train.batch_size 32 -> 64): not a"
want="$want like-for-like comparison; 1 rank slower and 0 faster beyond noise, none called regressed\$"
tap_check "... nested in config: named by its path, no rank regressed" 'grep -q "$want" n64.txt'

# steps DIR LO HI: keep the records of steps LO-HI of DIR's ranks.
steps() {
	python3 -c 'import json,sys,glob
for f in glob.glob(sys.argv[1] + "/rank*/steps.jsonl"):
    L = [l for l in open(f) if int(sys.argv[2]) <= json.loads(l)["step"] <= int(sys.argv[3])]
    open(f, "w").write("".join(L))' "$1" "$2" "$3"
}
# B has steps 20-39 of A's 0-59: the steps only A has are named as the two stretches they
# are, not as 0-59, which holds the 20 compared ones.
"$B/gen_pair" t 4 60 1 >/dev/null && "$B/gen_pair" ts 4 60 1 2 45 >/dev/null && cp -r t tmid && steps tmid 20 39 &&
	cp -r ts tcut && steps tcut 20 59 && cp -r t tboth && steps tboth 20 59 || tap_notok "step ranges generated"
"$TSCOPE_BIN" --print --no-index --color never t tmid >tmid.txt 2>/dev/null
left="not compared: ranks 0-3 steps 0-19, 40-59 (40 only in A)\$"
tap_check "steps of A only on both sides of B's: two stretches, in the verdict and the scope" \
	'grep -q "^● COMPARISON — no difference: .*; $left" tmid.txt &&
	 grep -q "^  A: 4 ranks, steps 0-59; B: 4 ranks, steps 20-39; .*; $left" tmid.txt'
# B has steps 20-59 of A's 0-59 and rank 2 slower from 45: the time lost is over the common
# steps (the same as with A cut to them), not left empty; the report orders by it.
"$TSCOPE_BIN" --export diff_ranks --no-index t tcut >tcut.csv 2>/dev/null
"$TSCOPE_BIN" --export diff_ranks --no-index tboth tcut >tboth.csv 2>/dev/null
tap_check "steps of A only: time lost over the common steps, as with A cut to them" \
	'[ "$(cut -d, -f1,7,8 tcut.csv | sed -n 2p)" != "2,," ] &&
	 [ "$(cut -d, -f1,7,8 tcut.csv | sed "s/\(\.[0-9]\{9\}\)[0-9]*/\1/g")" = \
	   "$(cut -d, -f1,7,8 tboth.csv | sed "s/\(\.[0-9]\{9\}\)[0-9]*/\1/g")" ]'
"$TSCOPE_BIN" --print --no-index --color never t tcut >tcut.txt 2>/dev/null
tap_check "... the report's regressed rank with its time lost, ordered by it" \
	'grep -q "^  per-rank compute, A -> B (1 regressed, 0 improved; regressed by time lost first):$" tcut.txt &&
	 grep -q "^    rank 2: .* · time lost [0-9.]* -> [0-9.]* s · regressed from step 45$" tcut.txt'
# A rank without step records in B, or a rank only in A without a compute phase, is not
# compared: its lack is no reason to weigh the others' step time instead of their compute.
cp -r ts tempty && : >tempty/rank1/steps.jsonl && cp -r t tbare && python3 -c 'import json
f = "tbare/rank3/steps.jsonl"; L = [json.loads(l) for l in open(f)]
[j.update(phases={"comm": j["phases"]["comm"]}) for j in L]
open(f, "w").write("".join(json.dumps(j) + "\n" for j in L))' && cp -r ts t3 && rm -r t3/rank3 ||
	tap_notok "runs with a rank not compared generated"
"$TSCOPE_BIN" --print --no-index --color never t tempty >tempty.txt 2>/dev/null
"$TSCOPE_BIN" --print --no-index --color never tbare t3 >tbare.txt 2>/dev/null
want="^● COMPARISON — B is .*; rank 2 regressed from step 45; not compared:"
tap_check "a rank of B without records, a bare rank of A only: the others compared by compute" \
	'grep -q "$want rank 1 (no step records in B)\$" tempty.txt && grep -q "^  per-rank compute, A -> B" tempty.txt &&
	 grep -q "$want rank 3 (only in A)\$" tbare.txt && grep -q "^  per-rank compute, A -> B" tbare.txt'
tap_plan
