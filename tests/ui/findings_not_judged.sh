#!/bin/sh
# findings_not_judged.sh: a run with records and no finding, where rules could not judge
# it (10 aligned steps, no loss, no memory): the Findings tab lists a "not judged" row per
# rule that could not judge it (with the ids it stands for), and `e` there and on the
# Overview writes the same CSV as `--export findings`, not the header alone (which reads
# as "no issues"); the Overview keeps its "no findings; not judged" line; Enter on such a
# row opens nothing and says so (headless, scripted keys). At 120 columns, a run with
# findings and a not judged part (one rank starts late, one ends early) keeps every
# finding's title: the not judged rows' long id list is cut with an ellipsis instead.
set -u
BIN=${TSCOPE_BIN:?}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TMP" || exit 1
RUN="$TMP/nj_run"
. "$TSCOPE_ROOT/tests/tools/nj_run.sh"
nj_run "$RUN"
cat >keys <<KEYS
6
:dump $TMP/fi.txt
e<C-u>$TMP/fi.csv<Enter>
<Enter>
:dump $TMP/enter.txt
1
:dump $TMP/ov.txt
e<C-u>$TMP/ov.csv<Enter>
q
KEYS
XDG_STATE_HOME="$TMP/state" XDG_CACHE_HOME="$TMP/cache" TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=30 COLUMNS=160 \
	LC_ALL=C.UTF-8 "$BIN" --tui "$RUN" >/dev/null 2>"$TMP/err"
tap_rc $? "the explorer opens the run and exits 0"
tap_check "Findings tab: a not judged row per rule that could not judge the run, not \"no rows\"" \
	'grep -q "^.not judged DIST.STRAGGLER .* stragglers (10 aligned steps, the noise test needs 16)" "$TMP/fi.txt" &&
	 grep -q "^.not judged MEMORY.FRAGMENTATION MEMORY.GROWTH .* memory (no memory recorded by rank 0)" "$TMP/fi.txt" &&
	 ! grep -q "no rows" "$TMP/fi.txt"'
"$BIN" --export findings "$RUN" >"$TMP/want.csv" 2>/dev/null
tap_check "--export findings: the header and a not judged row per item" \
	'[ "$(grep -c "^not judged," "$TMP/want.csv")" -ge 3 ] &&
	 [ "$(wc -l <"$TMP/want.csv")" -eq $(($(grep -c "^not judged," "$TMP/want.csv") + 1)) ]'
tap_check "e on the Findings tab writes the same CSV as --export findings" 'cmp -s "$TMP/want.csv" "$TMP/fi.csv"'
tap_check "e on the Overview writes the same CSV too" 'cmp -s "$TMP/want.csv" "$TMP/ov.csv"'
tap_check "Overview: no findings, and what was not judged" \
	'grep -q "no findings; not judged: stragglers (10 aligned steps, the noise test needs 16)" "$TMP/ov.txt"'
tap_check "Enter on a not judged row opens nothing and says so" \
	'grep -q "nothing to open from a findings row" "$TMP/enter.txt" && grep -q " findings  row 1/" "$TMP/enter.txt"'
# ranges: rank 2 starts at step 10, rank 3 ends at step 49
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$TMP/ranges" 4 60 >/dev/null
sed -i 1,10d "$TMP/ranges/rank2/steps.jsonl"
sed -i '51,$d' "$TMP/ranges/rank3/steps.jsonl"
printf '6\n:dump %s/ranges.txt\nq\n' "$TMP" >keys2
XDG_STATE_HOME="$TMP/state" XDG_CACHE_HOME="$TMP/cache" TSCOPE_SCRIPT="$TMP/keys2" TERM=dumb LINES=40 COLUMNS=120 \
	LC_ALL=C.UTF-8 "$BIN" --tui "$TMP/ranges" >/dev/null 2>>"$TMP/err"
ell=$(printf '\342\200\246')
tap_check "120 columns: the title stays beside a long not judged id list, which is cut" \
	'grep -q "^.high *MEMORY.GROWTH *Allocated memory grows steadily" "$TMP/ranges.txt" &&
	 grep -q "^.not jud.* DIST.STRAGGLER [^ ]*.*$ell stragglers and imbalance on steps 0-9 (rank 2 starts" \
	 "$TMP/ranges.txt"'
tap_plan
