#!/usr/bin/env python3
# slow_ranks.py RUN FIRST LAST FACTOR: multiply the forward and backward phases of rank
# dirs FIRST..LAST of pytscope run RUN by FACTOR (rounded to the ns pytscope writes), in
# place: a slow host for the node roll-up tests (tests/cli/nodes.sh, subset.sh).
import json
import sys

run, first, last, factor = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
for r in range(first, last + 1):
    p = "%s/rank%d/steps.jsonl" % (run, r)
    out = []
    with open(p) as f:
        for line in f:
            d = json.loads(line)
            for k in ("forward", "backward"):
                d["phases"][k] = round(d["phases"][k] * factor, 9)
            out.append(json.dumps(d))
    with open(p, "w") as f:
        f.write("\n".join(out) + "\n")
