#!/bin/sh
# nodes_verdicts.sh: what the node roll-up (model/steps/nodes.c) says when hostnames are
# partial (used when at least half of the ranks record one, --ranks-per-node not given),
# few or mixed short/qualified (one qualified name of a short name joins it; two stay
# apart, a warning says so; names compared ignoring case, as DNS does), how
# NODE.SLOW_TOGETHER names a host's ranks (a host of one rank, or the one host of a run,
# not judged: slow_together n/a, said in the not-judged list; a host judged not slow
# together: "no", never an empty cell) and its share (floored: high from 15%, 14.96% is
# never "at least 15%"), the "at most half" guard counting ranks (two small slow hosts
# beside a big one are slow together; nodes slow together holding more than half of the
# ranks are n/a, not "no", and the not-judged list says why), a host whose ranks all turn
# slow within a few steps of each other (slow together from that step, named, however early
# in the run, and from an index too; onsets far apart are not, nor "throughout"), the
# nodes view's stragglers as the ranks view judges them, a rank without a compute phase
# left out of its node's compute figures (not a 0 s in its mean; nor, one recording data
# and comm alone beside ranks with forward and backward, its data time, in the ranks view
# too, from an index too) and named in the budget
# view (an empty row), and the steps views of a run without step records or phase time
# (refused with the reason, never an empty table).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/nodes_verdicts.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

# mk DIR HOSTS SLOW [NOCOMPUTE]: NR ranks (16) of NS steps (100); HOSTS a Python
# expression of r (None: no hostname), SLOW the ranks SLOWF (1.2) times slower in forward
# and backward from step SLOWFROM (a Python expression of r, 0), NOCOMPUTE the ranks
# (comma-separated) that record no forward, backward or optimizer phase (data and comm).
mk() {
	python3 - "$@" <<'EOF' || exit 1
import json, os, random, sys
d, hosts, slow = sys.argv[1], sys.argv[2], {int(x) for x in sys.argv[3].split(",") if x}
nocomp = {int(x) for x in sys.argv[4].split(",")} if len(sys.argv) > 4 else set()
nr, ns = int(os.environ.get("NR", "16")), int(os.environ.get("NS", "100"))
slowf = float(os.environ.get("SLOWF", "1.2"))
slowfrom = os.environ.get("SLOWFROM", "0")
random.seed(1)
for r in range(nr):
    rd = os.path.join(d, "rank%d" % r)
    os.makedirs(rd)
    env = {"gpu": "NVIDIA A100", "gpu_count": 8}
    h = eval(hosts, {"r": r})
    if h is not None:
        env["hostname"] = h
    json.dump({"name": "run", "config": {}, "rank": r, "world_size": nr, "environment": env,
               "started": 1795344000.0}, open(os.path.join(rd, "run.json"), "w"))
    t, since = 1795344000.0, eval(slowfrom, {"r": r})
    with open(os.path.join(rd, "steps.jsonl"), "w") as f:
        for s in range(ns):
            fw = 0.03 * (slowf if r in slow and s >= since else 1.0) * (1 + random.uniform(-0.01, 0.01))
            ph = {"data": 0.005, "forward": fw, "backward": 2 * fw, "optimizer": 0.005, "comm": 0.012}
            if r in nocomp:
                del ph["forward"], ph["backward"], ph["optimizer"]
            t += sum(ph.values()) + 0.01
            f.write(json.dumps({"step": s, "timestamp": t, "phases": ph}) + "\n")
EOF
}
rows() { tail -n +2 "$1" | cut -d, -f"$2" | tr '\n' ' ' | sed 's/ $//'; }

# One rank (5) without a hostname: the others keep theirs; rank 5 is a node of its own.
mk part 'None if r == 5 else "gpu-" + "abcd"[r // 4]' 4,5,6,7
"$T" --export nodes --no-index part >part.csv 2>/dev/null
tap_eq "partial hostnames: grouped by the hostnames there are" \
	"gpu-a,4,hostname gpu-b,3,hostname (no hostname),1,hostname gpu-c,4,hostname gpu-d,4,hostname" \
	"$(rows part.csv 1,2,12)"
grep 'gpu-b\|no hostname' part.csv >part_b.csv
tap_eq "partial hostnames: the host is slow together, the hostless node is not judged" \
	"gpu-b,yes (no hostname),n/a" "$(cut -d, -f1,11 part_b.csv | tr '\n' ' ' | sed 's/ $//')"
"$T" --print --no-index part >part.txt 2>part.err
tap_check "partial hostnames: the finding names the host and the hostless rank" \
	'grep -q "All 3 ranks of host gpu-b slow together" part.txt &&
	 grep -q "Rank 5 records no hostname: it is on no host here" part.txt'
# Ranks 8-15 slow: by gpu_count they would be node 1, "No hostname is recorded" though 15 are.
mk part2 'None if r == 5 else "gpu-" + "abcd"[r // 4]' 8,9,10,11,12,13,14,15
"$T" --print --no-index part2 >part2.txt 2>/dev/null
tap_check "partial hostnames: the slow hosts named, never 'No hostname is recorded'" \
	'grep -q "All 4 ranks of host gpu-c slow together" part2.txt &&
	 grep -q "All 4 ranks of host gpu-d slow together" part2.txt &&
	 ! grep -q "No hostname is recorded" part.txt part2.txt'
"$T" --export sources --no-index part >part_src.csv 2>/dev/null
tap_check "partial hostnames: a data-quality warning names the rank" \
	'grep -q "^warning,.*rank 5 records no hostname (run.json or trace) while 15 ranks do: the node roll-up" \
		part_src.csv'

# Ranks 0-11 on one host, 12-13 and 14-15 on two small ones, slow: 4 of 16 ranks (the guard
# counts ranks, not the 2 nodes of 3), slow together.
mk uneq '"big" if r < 12 else "s1" if r < 14 else "s2"' 12,13,14,15
"$T" --export nodes --no-index uneq >uneq.csv 2>/dev/null
tap_eq "two small slow hosts beside a big one: both slow together" "big,no s1,yes s2,yes" "$(rows uneq.csv 1,11)"
# Host gpu-c (ranks 8-11) turns slow at step 60 of 100: slow together from step 60 (its
# whole-run median slowdown is under 5%); turning slow 40 steps apart is not together.
SLOWFROM=60 SLOWF=1.3 mk late '"gpu-" + "abcd"[r // 4]' 8,9,10,11
"$T" --export nodes --no-index late >late.csv 2>/dev/null
"$T" --print --no-index late >late.txt 2>/dev/null
tap_eq "a host turning slow at once: slow together" "gpu-a,no gpu-b,no gpu-c,yes gpu-d,no" "$(rows late.csv 1,11)"
tap_check "... the finding names the step" \
	'grep -q "All 4 ranks of host gpu-c slow together from step 60 (at least [0-9]*% slower)" late.txt &&
	 grep -q "(ranks 8-11) is at least [0-9]*% slower than the per-step median from step 60 to the end" late.txt'
# ... each figure it quotes over that span (its worst rank's compute since step 60, not over the whole run), as
# the nodes view's slow_from_step and from_ columns give them
"$T" --export findings --no-index late 2>/dev/null | grep NODE.SLOW_TOGETHER >late_f.csv
late_fmt='from step %d to the end (median over its ranks %.0f%%; worst rank %d at %.2f ms/step) at least %d%%'
tap_eq "... its figures over that span: the nodes view's slow_from_step and from_ columns" \
	"$(grep '^gpu-c,' late.csv | cut -d, -f13-17 | awk -F, -v f="$late_fmt" '{ printf f, $1, $5 * 100, $2, $3,
		int($4 * 100) }')" \
	"$(sed -n 's/.*median \(from step .*ms\/step)\)\. .*/\1/p' late_f.csv) $(grep -o 'at least [0-9]*%' late_f.csv |
		head -1)"
SLOWFROM='40 if r < 10 else 80' SLOWF=1.3 mk apart '"gpu-" + "abcd"[r // 4]' 8,9,10,11
"$T" --export nodes --no-index apart >apart.csv 2>/dev/null
tap_eq "... its ranks turning slow 40 steps apart: not together" "gpu-a,no gpu-b,no gpu-c,no gpu-d,no" \
	"$(rows apart.csv 1,11)"
# Turning slow at step 30 of 100 leaves the whole-run median slowdown above 5%: still slow
# together from step 30 (the slowdown since then, the steps as evidence), never "throughout";
# the same from an index. A host slow from the start is slow together throughout (no step);
# its ranks turning slow at steps 20 and 40 (each slow over most of the run) are not together.
SLOWFROM=30 SLOWF=1.3 mk early '"gpu-" + "abcd"[r // 4]' 8,9,10,11
"$T" --print --no-index --color never early >early.txt 2>/dev/null
"$T" --export findings --no-index early 2>/dev/null | grep NODE.SLOW_TOGETHER | cut -d, -f1,5,6 >early.csv
tap_check "a host turning slow at step 30 of 100: slow together from step 30" \
	'grep -q "^  \[HIGH\] All 4 ranks of host gpu-c slow together from step 30 (at least 2[0-9]% slower)" early.txt &&
	 grep -q "(ranks 8-11) is at least 2[0-9]% slower than the per-step median from step 30 to the end" early.txt'
tap_eq "... its steps as evidence" "high,30,99" "$(cat early.csv)"
"$T" index early >/dev/null 2>&1
"$T" --print --color never early >early_ix.txt 2>/dev/null
tap_check "... the same from an index" 'grep -q "host gpu-c slow together from step 30 (at least" early_ix.txt'
SLOWF=1.3 mk start '"gpu-" + "abcd"[r // 4]' 8,9,10,11
"$T" --print --no-index --color never start >start.txt 2>/dev/null
tap_check "... a host slow from the start: slow together throughout" \
	'grep -q "^  \[HIGH\] All 4 ranks of host gpu-c slow together (at least 2[0-9]% slower)" start.txt'
SLOWFROM='20 if r < 10 else 40' SLOWF=1.3 mk apart2 '"gpu-" + "abcd"[r // 4]' 8,9,10,11
"$T" --export nodes --no-index apart2 >apart2.csv 2>/dev/null
tap_eq "... its ranks turning slow at steps 20 and 40: not together" "gpu-a,no gpu-b,no gpu-c,no gpu-d,no" \
	"$(rows apart2.csv 1,11)"
# wide DIR STEPS FACTOR: 6 ranks; ranks 0-3 (hosts gpu-a, gpu-b) each FACTOR times slower at 3 of every 4
# steps, never 4 at once: both hosts at least 5% slower, 4 of 6 ranks: more than half, not judged (n/a, not
# "no"). Over 16 steps at 1.12 no rule fires, so the report lists what was not judged.
wide() {
	python3 - "$@" <<'EOF' || exit 1
import json, os, random, sys
d, ns, factor = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
random.seed(1)
for r in range(6):
    os.makedirs("%s/rank%d" % (d, r))
    json.dump({"name": "run", "rank": r, "world_size": 6, "environment": {"hostname": "gpu-" + "abc"[r // 2]}},
              open("%s/rank%d/run.json" % (d, r), "w"))
    with open("%s/rank%d/steps.jsonl" % (d, r), "w") as f:
        for s in range(ns):
            fw = 0.03 * (factor if r < 4 and s % 4 != r else 1.0) * (1 + random.uniform(-0.005, 0.005))
            f.write(json.dumps({"step": s, "phases": {"forward": fw, "backward": 2 * fw}}) + "\n")
EOF
}
wide wide 64 1.2
"$T" --export nodes --no-index wide >wide.csv 2>/dev/null
tap_eq "nodes slow together on 4 of 6 ranks: n/a" "gpu-a,n/a gpu-b,n/a gpu-c,no" "$(rows wide.csv 1,11)"
wide wide16 16 1.12
"$T" --print --no-index wide16 >wide16.txt 2>/dev/null
tap_check "... and the not-judged list says why" \
	'grep -q "^  - slow nodes (ranks 0-3 are on nodes slow together, 4 of the 6 ranks: more than half" wide16.txt'

# A host whose ranks are not consecutive: listed as they are, not first-last.
mk inter '"gpu-%d" % (r % 4)' 1,5,9,13
"$T" --print --no-index inter >inter.txt 2>/dev/null
tap_check "a host's ranks as ranges" 'grep -q "Every rank on host gpu-1 (ranks 1,5,9,13) is at least" inter.txt'

# Ranks 4-7 at least 14.96% slower (medium, high from 15%): the title and the detail say
# "at least 14%", not "at least 15%" of a medium finding; at 15.05% high, "at least 15%".
SLOWF=1.170 mk near '"gpu-" + "abcd"[r // 4]' 4,5,6,7
SLOWF=1.171 mk high '"gpu-" + "abcd"[r // 4]' 4,5,6,7
"$T" --print --no-index --color never near >near.txt 2>/dev/null
"$T" --print --no-index --color never high >high.txt 2>/dev/null
tap_check "NODE.SLOW_TOGETHER at 14.96% (medium): never 'at least 15%'" \
	'grep -q "^  \[MED \] All 4 ranks of host gpu-b slow together (at least 14% slower)" near.txt &&
	 grep -q "(ranks 4-7) is at least 14% slower than the per-step median" near.txt &&
	 ! grep -q "at least 15%" near.txt'
tap_check "... at 15.05%: high, at least 15%" \
	'grep -q "^  \[HIGH\] All 4 ranks of host gpu-b slow together (at least 15% slower)" high.txt'

# A short hostname and its qualified form on different ranks: one host, the short name.
mk fqdn '"gpu-" + "abcd"[r // 4] + (".cluster" if r in (5, 6) else "")' 4,5,6,7
"$T" --export nodes --no-index fqdn >fqdn.csv 2>/dev/null
tap_eq "short and qualified hostname: one node, named by the short name" \
	"gpu-a,4 gpu-b,4 gpu-c,4 gpu-d,4" "$(rows fqdn.csv 1,2)"
"$T" --print --no-index fqdn >fqdn.txt 2>/dev/null
tap_eq "short and qualified hostname: one finding" 1 "$(grep -c '(NODE.SLOW_TOGETHER)' fqdn.txt)"
# Hostnames are DNS names: the same but for case is one node, named as the lowest rank spells it.
mk hcase '("GPU-" if r % 2 == 0 else "gpu-") + "abcd"[r // 4]' 4,5,6,7
"$T" --export nodes --no-index hcase >hcase.csv 2>/dev/null
tap_eq "hostnames differing in case only: one node, the first spelling" \
	"GPU-a,4 GPU-b,4 GPU-c,4 GPU-d,4" "$(rows hcase.csv 1,2)"
# Qualified names are compared whole: node1.rack1 and node1.rack2 are two hosts; a short
# name joins its qualified name only when it is the only one (else a node of its own, said).
mk hdom '"gpu-a" if r < 4 else "gpu-b.rack%d.example" % (1 + r // 6) if r < 8 else "gpu-b" if r < 10 else "gpu-c"' ""
"$T" --export nodes --no-index hdom >hdom.csv 2>/dev/null
tap_eq "two qualified names of one short name, and it: three nodes, never joined" \
	"gpu-a,4 gpu-b.rack1.example,2 gpu-b.rack2.example,2 gpu-b,2 gpu-c,6" "$(rows hdom.csv 1,2)"
"$T" --export sources --no-index hdom >hdom_src.csv 2>/dev/null
tap_check "... a warning says which host the short name is on is not known" \
	'grep "^warning,hdom,,8,.*ranks 8-9 record host \"\"gpu-b\"\", the short name of 2 hosts here" hdom_src.csv |
	 grep -q "(gpu-b.rack1.example, gpu-b.rack2.example): which one is not known"'
mk hone '"gpu-a" if r < 4 else "GPU-B.rack1.example" if r < 8 else "gpu-b" if r < 10 else "gpu-c"' ""
"$T" --export nodes --no-index hone >hone.csv 2>/dev/null
"$T" --export sources --no-index hone >hone_src.csv 2>/dev/null
tap_check "one qualified name of a short name (another case): one node, the short name, no warning" \
	'[ "$(rows hone.csv 1,2)" = "gpu-a,4 gpu-b,6 gpu-c,6" ] && ! grep -q "short name of" hone_src.csv'

# One rank of 24 records a hostname: too few to group by; gpu_count groups them, and the
# slow node 1 (ranks 8-15) is found; --ranks-per-node wins over partial hostnames.
NR=24 mk few '"gpu-7" if r == 0 else None' 8,9,10,11,12,13,14,15
"$T" --export nodes --no-index few >few.csv 2>/dev/null
tap_eq "one hostname of 24: grouped by gpu_count, node 1 slow together" \
	"node 0,no,gpu_count 8 node 1,yes,gpu_count 8 node 2,no,gpu_count 8" "$(rows few.csv 1,11,12)"
"$T" --print --no-index few >few.txt 2>/dev/null
tap_check "one hostname of 24: the finding says the hostname is not used" \
	'grep -q "All 8 ranks of node 1 slow together" few.txt &&
	 grep -q "Only 1 of 24 ranks records a hostname, not used: nodes here are rank ids in blocks of 8" few.txt'
"$T" --export sources --no-index few >few_src.csv 2>/dev/null
tap_check "one hostname of 24: a warning says the hostname is not used" \
	'grep -q "ranks 1-23 record no hostname (run.json or trace) while 1 rank does: too few to group by" few_src.csv'
"$T" --export nodes --no-index --ranks-per-node 4 part >part_rpn.csv 2>/dev/null
tap_eq "15 hostnames of 16 and --ranks-per-node 4: the option wins" \
	"node 0,ranks-per-node 4 node 1,ranks-per-node 4 node 2,ranks-per-node 4 node 3,ranks-per-node 4" \
	"$(rows part_rpn.csv 1,12)"
mk half '"gpu-a" if r < 8 else None' ""
"$T" --print --no-index half >half.txt 2>/dev/null
tap_check "half of the ranks without a hostname: their nodes are named not judged" \
	'grep -q "^  - slow nodes among ranks 8-15 (they record no hostname: --ranks-per-node N groups them)$" half.txt'

# A host of one rank (alone there, or the one rank of a --ranks subset): slow together is
# not judged (n/a, never a blank "no"), and the not-judged list names its rank.
NR=9 mk lone '"gpu-z" if r == 8 else "gpu-" + "ab"[r // 4]' ""
"$T" --export nodes --no-index lone >lone.csv 2>/dev/null
tap_eq "a host of one rank: slow_together n/a" "gpu-a,no gpu-b,no gpu-z,n/a" "$(rows lone.csv 1,11)"
"$T" --print --no-index lone >lone.txt 2>/dev/null
tap_check "... and the not-judged list names it" \
	'grep -q "^  - slow nodes of rank 8 (alone on its node: a slow host is a slow rank)$" lone.txt'
NR=9 mk lone_nohost 'None if r == 8 else "gpu-" + "ab"[r // 4]' ""
"$T" --print --no-index lone_nohost >lnh.txt 2>/dev/null
tap_check "... a rank alone without a hostname: named as hostless, not alone on its node" \
	'grep -q "^  - slow nodes among rank 8 (it records no hostname: --ranks-per-node N groups them)$" lnh.txt &&
	 ! grep -q "alone on" lnh.txt'
"$T" --export nodes --no-index --ranks 0-4 part >sub.csv 2>/dev/null
tap_eq "a --ranks subset leaving one rank of a host: n/a" "gpu-a,no gpu-b,n/a" "$(rows sub.csv 1,11)"
# Every rank on one host: slow together is not judged (n/a: no other host to weigh it
# against), and the not-judged list says so (it said nothing beside the n/a).
NR=8 mk onehost '"gpu-a"' ""
"$T" --export nodes --no-index onehost >one.csv 2>/dev/null
tap_eq "every rank on one host: slow_together n/a" "gpu-a,n/a" "$(rows one.csv 1,11)"
"$T" --print --no-index onehost >one.txt 2>/dev/null
tap_check "... and the not-judged list says why" \
	'grep -q "^  - slow nodes (ranks 0-7 on one node, gpu-a: no other node to weigh it against)$" one.txt'

# 10 aligned steps: the ranks view judges rank 3 a straggler (pytscope's test); the
# node's count says so, the nodes whose ranks are all n/a are empty.
NR=8 NS=10 mk few_steps '"abcd"[r // 2]' 2,3
"$T" --export ranks --no-index few_steps >fs_ranks.csv 2>/dev/null
"$T" --export nodes --no-index few_steps >fs.csv 2>/dev/null
tap_eq "10 steps: the ranks view's verdicts" "n/a n/a n/a yes n/a n/a n/a n/a" \
	"$(rows fs_ranks.csv "$(head -1 fs_ranks.csv | tr , '\n' | grep -n '^straggler$' | cut -d: -f1)")"
tap_eq "10 steps: the node's stragglers as the ranks view's, slow_together not judged" \
	"a,,n/a b,1,n/a c,,n/a d,,n/a" "$(rows fs.csv 1,10,11)"

# Stragglers not judged: missing, not 0 (5 aligned steps; a rank without compute).
"$gen" short 8 5 >/dev/null || exit 1
"$T" --export nodes --no-index short >short.csv 2>/dev/null
tap_eq "5 aligned steps: stragglers and slow_together not judged" ",n/a" "$(rows short.csv 10,11)"
mk nocomp '"gpu-" + "abcd"[r // 4]' "" 3
"$T" --export nodes --no-index nocomp >nocomp.csv 2>/dev/null
tap_eq "a rank without compute: stragglers and slow_together not judged" \
	",n/a ,n/a ,n/a ,n/a" "$(rows nocomp.csv 10,11)"
# Ranks 3-7 record data and comm alone while ranks 0-2 record forward, backward and
# optimizer too: their data time is no compute of theirs. Empty in the ranks view (not
# 5 ms), left out of gpu-a's mean (100 ms, not 76), gpu-b (no rank with one) empty;
# --compat pytscope's report keeps pytscope's 5 ms; the same from an index.
NR=8 mk dataonly '"gpu-" + "ab"[r // 4]' "" 3,4,5,6,7
# ms CSV COLS: per row its first cell, then the columns COLS after the first rounded (ms)
ms() {
	tail -n +2 "$1" | awk -F, -v c="$2" '{ n = split(c, k, ","); l = $1
		for (i = 2; i <= n; i++) l = l "," ($k[i] == "" ? "" : sprintf("%.0f", $k[i]))
		printf "%s ", l }' | sed 's/ $//'
}
"$T" --export ranks --no-index dataonly >do_ranks.csv 2>/dev/null
"$T" --export nodes --no-index dataonly >do_nodes.csv 2>/dev/null
tap_eq "data and comm alone: the ranks view's mean and median compute empty, not the data phase's 5 ms" \
	"0,100,100 1,100,100 2,100,100 3,, 4,, 5,, 6,, 7,," "$(ms do_ranks.csv 1,3,4)"
tap_eq "... its node's worst and mean compute its other ranks' (100 ms, not 76), a node of such ranks empty" \
	"gpu-a,100,100 gpu-b,," "$(ms do_nodes.csv 1,6,7)"
tap_check "... the worst rank one with a compute of its own" \
	'rows do_nodes.csv 5 | grep -qx "[0-2] "'
"$T" --print --no-index --compat pytscope dataonly >do_compat.txt 2>/dev/null
tap_check "... --compat pytscope: pytscope's per-rank compute, the data phase's 5 ms" \
	'grep -q "^    rank 3:    5.00 ms" do_compat.txt && grep -q "^    rank 7:    5.00 ms" do_compat.txt'
"$T" index dataonly >/dev/null 2>&1
"$T" --export ranks dataonly >do_ranks_ix.csv 2>/dev/null
"$T" --export nodes dataonly >do_nodes_ix.csv 2>/dev/null
tap_check "... the same from an index" 'cmp -s do_ranks.csv do_ranks_ix.csv && cmp -s do_nodes.csv do_nodes_ix.csv &&
	[ -s dataonly/.tscope-index/summary.tsx ]'
# rank 3 of 4 records no phase: node 1's compute is rank 2's, not the mean of 75 and 0 ms
mkdir -p noph/rank0 noph/rank1 noph/rank2 noph/rank3
for s in $(seq 0 29); do
	echo "{\"step\":$s,\"phases\":{\"data\":0.01,\"forward\":0.02,\"backward\":0.04,\"optimizer\":0.005}}"
done | tee noph/rank0/steps.jsonl noph/rank1/steps.jsonl >noph/rank2/steps.jsonl
for s in $(seq 0 29); do echo "{\"step\":$s,\"scalars\":{\"loss\":1.0}}"; done >noph/rank3/steps.jsonl
"$T" --export nodes --no-index --ranks-per-node 2 noph >noph.csv 2>/dev/null
tap_eq "a rank without a compute phase: its node's worst and mean compute are its other rank's (75, not 37.5)" \
	"0,75,75 2,75,75" "$(rows noph.csv 5-7)"
"$T" --export budget --no-index noph >nophb.csv 2>/dev/null
tap_eq "... the budget view: the run line 'partial' (3 ranks' 90 steps), rank 3's row empty, not left out" \
	"partial,,90 rank,0,30 rank,1,30 rank,2,30 rank,3," "$(rows nophb.csv 1-3)"

# Rank dirs with run.json and no step records: the steps views are refused, exit 1.
mkdir -p bare/rank0 bare/rank1
for r in 0 1; do
	printf '{"name": "run", "rank": %d, "world_size": 2, "environment": {"gpu_count": 2}}\n' $r \
		>bare/rank$r/run.json
done
"$T" --export budget --no-index bare >b.csv 2>b.err; rc=$?
tap_check "no step records: --export budget refused with the reason" \
	'[ $rc -eq 1 ] && [ ! -s b.csv ] &&
	 grep -q "view .budget. is not available for this run: no efficiency budget: this run has no step rec" b.err'
"$T" --export steps --no-index bare >s.csv 2>s.err; rc=$?
tap_check "no step records: --export steps refused with the reason" \
	'[ $rc -eq 1 ] && [ ! -s s.csv ] &&
	 grep -q "view .steps. is not available for this run: no step records in this run" s.err'
"$T" --export budget --no-index --warmup 40 short >bw.csv 2>bw.err
tap_check "every record inside --warmup: --export budget says so" \
	'grep -q "no efficiency budget: all 40 records are inside --warmup 40 (nothing left to analyse)" bw.err'
mkdir zero
sed 's/"phases": {[^}]*}/"phases": {"forward": 0, "backward": 0}/' part/rank0/steps.jsonl >zero/steps.jsonl
"$T" --export budget --no-index zero >bz.csv 2>bz.err
"$T" --print --color never --no-index zero >bz.out 2>/dev/null
why="the 100 records of rank 0 have no phase time (no phase, or every phase 0)"
tap_check "every phase 0: --export budget says so, as the report's budget line" \
	'grep -q "no efficiency budget: $why$" bz.err && grep -q "^  budget  *n/a: $why$" bz.out'
: >zero/steps.jsonl
"$T" --export steps --no-index zero/steps.jsonl >se.csv 2>se.err
tap_check "an empty steps.jsonl, no rank dirs: --export steps names the file, not rank dirs" \
	'grep -q "no step records in this run: the step log is empty$" se.err'
"$T" --export steps --no-index short >ss.csv 2>/dev/null
tap_check "with records: --export steps writes them" '[ "$(tail -n +2 ss.csv | wc -l)" -eq 40 ]'
tap_plan
