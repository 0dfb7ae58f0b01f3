#!/bin/sh
# print_bounded.sh: the default --print fits a terminal whatever the run size (issue 15):
# sparklines are resampled to the width ($COLUMNS here; the terminal's when stdout is a
# tty), each glyph the worst value of its bucket; the per-rank list keeps the 16 ranks
# that matter (taken in turn by straggler cost, time lost and critical-path share, ties to
# the costlier) and counts the stragglers and the other ranks left out with bounds that
# hold for each of them; the spike lists count the spikes past the first 8. --compat
# pytscope keeps pytscope's layout: one glyph per step, one line per rank, 8 spikes.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/bounded.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
"$gen" a 40 1000 >/dev/null && "$gen" b 40 3000 >/dev/null || exit 1

# glyphs LABEL FILE: sparkline glyphs on the line that starts with LABEL.
glyphs() {
	python3 -c 'import sys
for l in open(sys.argv[2], encoding="utf-8"):
    if l.startswith(sys.argv[1]):
        print(sum(1 for c in l if "\u2581" <= c <= "\u2588")); break' "$1" "$2"
}
COLUMNS=100 "$T" --print --no-index a >a.txt 2>/dev/null
COLUMNS=100 "$T" --print --no-index b >b.txt 2>/dev/null
COLUMNS=60 "$T" --print --no-index a >a60.txt 2>/dev/null
tap_eq "step time: 1000 steps in 74 glyphs at 100 columns" 74 "$(glyphs '  step time' a.txt)"
tap_eq "loss: 74 glyphs at 100 columns" 74 "$(glyphs '  loss   ' a.txt)"
tap_eq "3000 steps: still 74 glyphs" 74 "$(glyphs '  step time' b.txt)"
tap_eq "60 columns: 34 glyphs" 34 "$(glyphs '  step time' a60.txt)"
# the dataloader stall (steps 250-269) falls in glyphs 18-19 of 74 (1000/74 steps each)
stall=$(python3 -c 'import sys
l = [c for c in open("a.txt", encoding="utf-8").read().split("  step time  ")[1].split("  ")[0]]
print("".join(l[17:21]))')
tap_eq "the one stall shows where it is (the worst step of each bucket)" "▁██▁" "$stall"
tap_eq "per-rank list: 16 ranks of 40" 16 "$(grep -c '^    rank [0-9]*:' a.txt)"
tap_check "per-rank list: the straggler is kept" 'grep -q "^    rank 11: .*<- straggler" a.txt'
tap_check "per-rank list: the others are counted" 'grep -q "^    … 24 more ranks" a.txt'
tap_eq "the report has as many lines at 3000 steps as at 1000" "$(wc -l <a.txt)" "$(wc -l <b.txt)"
# 40 stragglers of 120 ranks (rank dirs 100..219: labels of three digits; each third slowed
# from step 100 on, more for the higher ids): still 16 lines, the costliest stragglers,
# the labels aligned, the stragglers and the other ranks left out counted apart.
python3 - s 120 <<'PY' || exit 1
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
for k in range(n):
    os.makedirs(f"{d}/rank{k}", exist_ok=True)
    with open(f"{d}/rank{k}/run.json", "w") as f:
        json.dump({"name": "s", "rank": k, "world_size": n}, f)
    with open(f"{d}/rank{k}/steps.jsonl", "w") as f:
        for s in range(400):
            slow = 1.0 + (0.2 + k / 1000 if k % 3 == 0 and s >= 100 else 0) + ((s * 7 + k * 13) % 10) / 1000
            f.write(json.dumps({"step": s, "timestamp": 1000 + s, "phases": {"forward": 0.05 * slow,
                    "backward": 0.1 * slow, "comm": 0.01}}) + "\n")
PY
COLUMNS=100 "$T" --print --no-index s >s.txt 2>/dev/null
tap_eq "40 stragglers: 16 rank lines" 16 "$(grep -c '^    rank [0-9]*:' s.txt)"
tap_check "... the costliest stragglers (rank 117 and up: the slowest)" \
	'grep -q "^    rank 117: .*<- straggler" s.txt && ! grep -q "^    rank 0: " s.txt'
tap_check "... labels padded to the widest (the ms column aligned)" \
	'[ "$(grep "^    rank [0-9]*:" s.txt | awk -F" ms ·" "{print length(\$1)}" | sort -u | wc -l)" -eq 1 ]'
tap_check "... 24 more stragglers and 80 more ranks counted, each with its bounds and its export" \
	'grep -q "^    … 24 more stragglers, each costing 0 s (--export ranks --filter straggler=yes)$" s.txt &&
	 grep -q "^    … 80 more ranks, each at most 0.21% on critical path and 568 us lost (--export ranks: all)$" s.txt'

# bounds_hold REPORT DIR: the list keeps the rank that loses the most time, the one most
# often on the critical path and the costliest straggler (one of each when tied), keeps
# the costlier of tied ranks, and its "… N more" lines count the ranks left out and state
# bounds that hold for each of them (DIR's --export ranks).
bounds_hold() {
	"$T" --export ranks --no-index "$2" >"$2.csv" 2>/dev/null || return 1
	python3 - "$1" "$2.csv" <<'PY'
import csv, re, sys
rep = open(sys.argv[1], encoding="utf-8").read()
shown = {int(m) for m in re.findall(r"^    rank (\d+):", rep, re.M)}
rows = [dict(r, rank=int(r["rank"]), share=float(r["critical_share"]), lost=float(r["time_lost_s"]),
             strag=r["straggler"] == "yes") for r in csv.DictReader(open(sys.argv[2]))]
for r in rows:
    r["cost"] = float(r["straggler_cost_s"]) if r["strag"] else 0.0
cut = [r for r in rows if r["rank"] not in shown]
sec = lambda t: float(t.split()[0]) * {"s": 1, "ms": 1e-3, "us": 1e-6}[t.split()[1]]
bad = []
m = re.search(r"^    … (\d+) more ranks?, (never on the critical path|(?:each )?at most ([\d.]+)% on critical "
              r"path and ([\d.]+ \w+) lost) \(--export ranks: all\)$", rep, re.M)
others = [r for r in cut if not r["strag"]]
if others and not m:
    bad.append("no line counts the other ranks left out, with their bounds")
elif others:
    share, lost = (0, 0) if m.group(3) is None else (float(m.group(3)) / 100, sec(m.group(4)))
    if int(m.group(1)) != len(others) or any(r["share"] > share or r["lost"] > lost for r in others):
        bad.append("a rank left out is beyond the bounds said: " + m.group(0))
m = re.search(r"^    … (\d+) more stragglers?, (?:each )?costing (?:at most )?([\d.]+ \w+) \(", rep, re.M)
strag = [r for r in cut if r["strag"]]
if strag and (not m or int(m.group(1)) != len(strag) or any(r["cost"] > sec(m.group(2)) for r in strag)):
    bad.append("the stragglers left out are not counted with a bound that holds")
for key in ("lost", "share", "cost"):
    top = max(r[key] for r in rows)
    if top > 0 and not any(r[key] == top and r["rank"] in shown for r in rows):
        bad.append("the rank with the most " + key + " is left out")
for r in cut:
    if any(s["share"] == r["share"] and s["lost"] < r["lost"] for s in rows if s["rank"] in shown):
        bad.append(f"rank {r['rank']} is left out for a tied rank that costs less")
        break
for b in bad:
    print("# " + b)
sys.exit(1 if bad else 0)
PY
}
tap_check "40 stragglers: the ranks left out are within the bounds said" 'bounds_hold s.txt s'
# 20 stragglers of 64 ranks (the even ranks 0-38, 30% slower from step 80) and rank 51, no
# straggler but 3% slower throughout: the critical rank at 80% of the steps, losing more
# time than any straggler. The list keeps it, and says nothing false of the ranks it leaves out.
python3 - cr 64 100 <<'PY' || exit 1
import json, os, random, sys
d, n, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
random.seed(3)
for r in range(n):
    os.makedirs(f"{d}/rank{r}", exist_ok=True)
    with open(f"{d}/rank{r}/run.json", "w") as f:
        json.dump({"name": "cr", "rank": r, "world_size": n}, f)
    with open(f"{d}/rank{r}/steps.jsonl", "w") as f:
        for s in range(steps):
            k = 1 + random.gauss(0, 0.005)
            k *= (1.3 if r % 2 == 0 and r < 40 and s >= 80 else 1) * (1.03 if r == 51 else 1)
            f.write(json.dumps({"step": s, "timestamp": 1000 + 0.13 * s, "phases": {"data": 0.008,
                    "forward": 0.03 * k, "backward": 0.06 * k, "optimizer": 0.006, "comm": 0.014}}) + "\n")
PY
COLUMNS=100 "$T" --print --no-index cr >cr.txt 2>/dev/null
tap_check "20 stragglers: rank 51, on the critical path at 80% of the steps, is listed" \
	'grep -q "^    rank 51: .* 80% (z=" cr.txt && [ "$(grep -c "^    rank [0-9]*:" cr.txt)" -eq 16 ]'
tap_check "... the ranks left out are within the bounds said" 'bounds_hold cr.txt cr'
# 24 ranks, each the slowest at one step (rank r at step r, by (1 + r)%): tied shares,
# the costlier (higher ids) listed, the cheaper left out.
python3 - tie 24 <<'PY' || exit 1
import json, os, sys
d, n = sys.argv[1], int(sys.argv[2])
for r in range(n):
    os.makedirs(f"{d}/rank{r}", exist_ok=True)
    with open(f"{d}/rank{r}/run.json", "w") as f:
        json.dump({"name": "tie", "rank": r, "world_size": n}, f)
    with open(f"{d}/rank{r}/steps.jsonl", "w") as f:
        for s in range(n):
            k = 1 + (0.01 * (1 + r) if s == r else 0.0001 * r)
            f.write(json.dumps({"step": s, "timestamp": 1000 + s * 0.2, "phases": {"data": 0.008,
                    "forward": 0.03 * k, "backward": 0.06 * k, "comm": 0.014}}) + "\n")
PY
COLUMNS=100 "$T" --print --no-index tie >tie.txt 2>/dev/null
tap_eq "tied critical shares: the costliest ranks (8-23) listed" "$(seq 8 23 | tr '\n' ' ')" \
	"$(sed -n 's/^    rank \([0-9]*\):.*/\1/p' tie.txt | tr '\n' ' ')"
tap_check "... the 8 left out counted with their bounds (as often, costing less)" \
	'grep -q "^    … 8 more ranks, each at most 4.2% on critical path and 7.1 ms lost (--export ranks: all)$" tie.txt &&
	 bounds_hold tie.txt tie'
# loss and grad-norm spikes every 25 steps (24 of them): the default report lists the
# first 8 and counts the rest; --compat pytscope keeps pytscope's list alone.
python3 - spiky 600 <<'PY' || exit 1
import json, os, random, sys
d, n = sys.argv[1], int(sys.argv[2])
random.seed(1)
os.makedirs(f"{d}/rank0", exist_ok=True)
with open(f"{d}/rank0/run.json", "w") as f:
    json.dump({"name": "spiky", "rank": 0, "world_size": 1}, f)
with open(f"{d}/rank0/steps.jsonl", "w") as f:
    for s in range(n):
        sp = s % 25 == 10
        f.write(json.dumps({"step": s, "timestamp": 1000 + s, "phases": {"forward": 0.03, "backward": 0.06},
                "scalars": {"loss": 3.0 - s * 0.0001 + random.random() * 0.01 + (5 if sp else 0),
                            "grad_norm": 1.0 + random.random() * 0.05 + (30 if sp else 0)}}) + "\n")
PY
COLUMNS=100 "$T" --print --no-index spiky >spiky.txt 2>/dev/null
"$T" --print --compat pytscope --no-index spiky >spikyc.txt 2>/dev/null
tap_check "24 spikes: the first 8 listed, the 16 more counted up to the last" \
	'grep -q "^  loss spikes at steps \[10, 35, 60, 85, 110, 135, 160, 185\] and 16 more, up to step 585$" spiky.txt &&
	 grep -q "^  grad-norm spikes at steps \[10, 35, 60, 85, 110, 135, 160, 185\] and 16 more, up to step 585$" spiky.txt'
tap_check "... --compat pytscope: pytscope's list of 8, no count" \
	'grep -q "^  loss spikes at steps \[10, 35, 60, 85, 110, 135, 160, 185\]$" spikyc.txt &&
	 grep -q "^  grad-norm spikes at steps \[10, 35, 60, 85, 110, 135, 160, 185\]$" spikyc.txt'
"$T" --print --compat pytscope --no-index a >c.txt 2>/dev/null
tap_eq "--compat pytscope: one glyph per step" 1000 "$(glyphs '  step time' c.txt)"
tap_eq "--compat pytscope: one line per rank" 40 "$(grep -c '^    rank [0-9]*:' c.txt)"
tap_plan
