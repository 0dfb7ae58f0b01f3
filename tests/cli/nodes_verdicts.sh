#!/bin/sh
# nodes_verdicts.sh: what the node roll-up (model/steps/nodes.c) says when hostnames are
# partial or mixed short/qualified, how NODE.SLOW_TOGETHER names a host's ranks, the
# nodes view's stragglers when nothing was judged, and the steps views of a run without
# step records (refused with the reason, never an empty table).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/nodes_verdicts.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT

# mk DIR HOSTS SLOW [NOCOMPUTE]: 16 ranks of 100 steps; HOSTS a Python expression of r
# (None: no hostname), SLOW the ranks 20% slower in forward and backward, NOCOMPUTE a
# rank that records no forward/backward phase.
mk() {
	python3 - "$@" <<'EOF' || exit 1
import json, os, random, sys
d, hosts, slow = sys.argv[1], sys.argv[2], {int(x) for x in sys.argv[3].split(",") if x}
nocomp = int(sys.argv[4]) if len(sys.argv) > 4 else -1
random.seed(1)
for r in range(16):
    rd = os.path.join(d, "rank%d" % r)
    os.makedirs(rd)
    env = {"gpu": "NVIDIA A100", "gpu_count": 8}
    h = eval(hosts, {"r": r})
    if h is not None:
        env["hostname"] = h
    json.dump({"name": "run", "config": {}, "rank": r, "world_size": 16, "environment": env,
               "started": 1795344000.0}, open(os.path.join(rd, "run.json"), "w"))
    t = 1795344000.0
    with open(os.path.join(rd, "steps.jsonl"), "w") as f:
        for s in range(100):
            fw = 0.03 * (1.2 if r in slow else 1.0) * (1 + random.uniform(-0.01, 0.01))
            ph = {"data": 0.005, "forward": fw, "backward": 2 * fw, "optimizer": 0.005, "comm": 0.012}
            if r == nocomp:
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

# A host whose ranks are not consecutive: listed as they are, not first-last.
mk inter '"gpu-%d" % (r % 4)' 1,5,9,13
"$T" --print --no-index inter >inter.txt 2>/dev/null
tap_check "a host's ranks as ranges" 'grep -q "Every rank on host gpu-1 (ranks 1,5,9,13) is at least" inter.txt'

# A short hostname and its qualified form on different ranks: one host, the short name.
mk fqdn '"gpu-" + "abcd"[r // 4] + (".cluster" if r in (5, 6) else "")' 4,5,6,7
"$T" --export nodes --no-index fqdn >fqdn.csv 2>/dev/null
tap_eq "short and qualified hostname: one node, named by the short name" \
	"gpu-a,4 gpu-b,4 gpu-c,4 gpu-d,4" "$(rows fqdn.csv 1,2)"
"$T" --print --no-index fqdn >fqdn.txt 2>/dev/null
tap_eq "short and qualified hostname: one finding" 1 "$(grep -c '(NODE.SLOW_TOGETHER)' fqdn.txt)"

# Stragglers not judged: missing, not 0 (5 aligned steps; a rank without compute).
"$gen" short 8 5 >/dev/null || exit 1
"$T" --export nodes --no-index short >short.csv 2>/dev/null
tap_eq "5 aligned steps: stragglers and slow_together not judged" ",n/a" "$(rows short.csv 10,11)"
mk nocomp '"gpu-" + "abcd"[r // 4]' "" 3
"$T" --export nodes --no-index nocomp >nocomp.csv 2>/dev/null
tap_eq "a rank without compute: stragglers and slow_together not judged" \
	",n/a ,n/a ,n/a ,n/a" "$(rows nocomp.csv 10,11)"

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
"$T" --export steps --no-index short >ss.csv 2>/dev/null
tap_check "with records: --export steps writes them" '[ "$(tail -n +2 ss.csv | wc -l)" -eq 40 ]'
tap_plan
