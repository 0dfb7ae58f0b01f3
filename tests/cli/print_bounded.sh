#!/bin/sh
# print_bounded.sh: the default --print fits a terminal whatever the run size (issue 15):
# sparklines are resampled to the width ($COLUMNS here; the terminal's when stdout is a
# tty), each glyph the worst value of its bucket, and the per-rank list keeps the 16
# ranks that matter (stragglers always) plus a count. --compat pytscope keeps pytscope's
# layout: one glyph per step, one line per rank.
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
tap_check "... 24 more stragglers and 80 more ranks counted, each with its export" \
	'grep -q "^    … 24 more stragglers (--export ranks --filter straggler=yes)$" s.txt &&
	 grep -q "^    … 80 more ranks, less often on the critical path (--export ranks: all)$" s.txt'
"$T" --print --compat pytscope --no-index a >c.txt 2>/dev/null
tap_eq "--compat pytscope: one glyph per step" 1000 "$(glyphs '  step time' c.txt)"
tap_eq "--compat pytscope: one line per rank" 40 "$(grep -c '^    rank [0-9]*:' c.txt)"
tap_plan
