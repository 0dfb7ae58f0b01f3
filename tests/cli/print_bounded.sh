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
"$T" --print --compat pytscope --no-index a >c.txt 2>/dev/null
tap_eq "--compat pytscope: one glyph per step" 1000 "$(glyphs '  step time' c.txt)"
tap_eq "--compat pytscope: one line per rank" 40 "$(grep -c '^    rank [0-9]*:' c.txt)"
tap_plan
