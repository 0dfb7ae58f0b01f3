#!/bin/sh
# heatmap_bytes.sh: what the heatmap sends (issue 17). On the noisy 512-rank run of
# tests/tools/bench_ui (per-rank speeds, jitter, stalls, four slow ranks, rare spikes) and
# its spike-dense variant (spiky: a spike in about one cell in ten) at 200x50: a full
# repaint (Ctrl-L) is at most 12 KB and a cursor move at most 200 B, counted in a pty by
# tests/bench_ui.py (bytes, not time: the same on every run), in 256 colours with UTF-8
# glyphs and, on the spiky run, in 8 colours with ASCII glyphs and in mono. The screen's
# attributes show why: levels 1-5 share one colour pair, 6 and 7 one each; levels 1-3
# are one-byte marks; a quiet cell in a run shorter than 8 keeps its neighbour's pair
# (no colour change), while longer quiet runs stay plain.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
bench="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/bench_ui"
cd "$TSCOPE_TMP" || exit 1
command -v python3 >/dev/null 2>&1 || { tap_skip "python3 missing"; tap_plan; exit 0; }

# bytes KIND TERM LC_ALL: "repaint move" medians of tests/bench_ui.py's repaint plan
bytes() {
	BENCH_UI_TERM=$2 BENCH_UI_LC_ALL=$3 BENCH_UI_PLAN=repaint python3 "$TSCOPE_ROOT/tests/bench_ui.py" \
		"$bench" 512 5000 "$1" >bytes.txt 2>&1
	awk '/^full repaint/ { r = $(NF - 5) } /^heatmap cursor move/ { m = $(NF - 5) } END { print r, m }' bytes.txt
}
for run in "noisy xterm-256color C.UTF-8" "spiky xterm-256color C.UTF-8" "spiky xterm C" "spiky vt100 C.UTF-8"; do
	set -- $run
	got=$(bytes "$@")
	repaint=${got% *} move=${got#* }
	tap_check "full repaint at 200x50, $1 run, TERM=$2 LC_ALL=$3: at most 12 KB (got ${repaint:-?} B)" \
		'[ -n "$repaint" ] && [ "$repaint" -le 12288 ]'
	tap_check "cursor move, $1 run, TERM=$2 LC_ALL=$3: at most 200 B (got ${move:-?} B)" \
		'[ -n "$move" ] && [ "$move" -le 200 ]'
done

printf '2\n:dump %s/text\n:dumpattr %s/attr\n' "$PWD" "$PWD" >keys
LINES=50 COLUMNS=200 TERM=xterm-256color LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$PWD/keys" "$bench" 512 5000 noisy >/dev/null 2>&1
tap_check "the heatmap was dumped" '[ -s text ] && [ -s attr ]'
python3 - text attr >check.txt <<'PY'
import re, sys
text = [l.rstrip("\n") for l in open(sys.argv[1], encoding="utf-8")]
attr = [l.rstrip("\n") for l in open(sys.argv[2], encoding="utf-8")]
level = {".": 1, ":": 2, ";": 3, "\u2584": 4, "\u2585": 5, "\u2586": 6, "\u2588": 7}
x0 = len(text[1]) - len(text[1].lstrip())   # the cells start under the first column label
pairs = {}            # level -> set of pairs
carried = long_carried = 0
for y in range(2, 49):   # the heat rows: a row label ("12-23", "108-…") before the cells
    t, a = text[y], attr[y]
    if not re.fullmatch(r" *[0-9][0-9\u2026-]* ", t[:x0]):
        continue
    cells = [(t[x] if x < len(t) else " ", a[2 * x:2 * x + 2] if 2 * x < len(a) else ". ") for x in range(200)]
    first = next((x for x, (c, _) in enumerate(cells) if x >= x0 and c in level), None)
    if first is None:
        continue
    x = first
    while x < 200:
        c, pa = cells[x]
        if c in level and pa[1] != "r":          # not the cursor
            pairs.setdefault(level[c], set()).add(pa[0])
        if c == " ":
            n = 0
            while x + n < 200 and cells[x + n][0] == " ":
                n += 1
            if x + n < 200:                          # a gap, not the row's tail
                heat = [cells[k][1][0] for k in range(x, x + n)]
                carried += sum(1 for p in heat if p != ".")
                if n >= 8:
                    long_carried += sum(1 for p in heat if p != ".")
            x += n
            continue
        x += 1
def one(levels):
    s = set().union(*(pairs.get(l, set()) for l in levels))
    return len(s) <= 1
bands = [(1, 2, 3, 4, 5), (6,), (7,)]
print("bands", all(one(b) for b in bands) and len({min(pairs[l]) for b in bands for l in b if l in pairs}) == len([b for b in bands if any(l in pairs for l in b)]))
print("levels", len(pairs))
print("carried", carried)
print("long_carried", long_carried)
PY
tap_check "levels 1-5, 6 and 7 each share one colour pair, different between bands" 'grep -qx "bands True" check.txt'
tap_check "the noisy heatmap shows at least five levels" '[ "$(sed -n "s/^levels //p" check.txt)" -ge 5 ]'
tap_check "quiet cells in short gaps keep their neighbour's pair" '[ "$(sed -n "s/^carried //p" check.txt)" -gt 0 ]'
tap_check "quiet gaps of 8 cells or more are plain" 'grep -qx "long_carried 0" check.txt'
tap_plan
