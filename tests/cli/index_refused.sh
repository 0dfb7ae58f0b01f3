#!/bin/sh
# index_refused.sh: traces an open refuses (src/index_cmd.c): the index holds the traces
# an open keeps, so a trace refused at each open (rank 1's trace misplaced in rank5/, a
# file without traceEvents) is never in it. `index --status` names such traces as
# refused, the first with why, and does not count them as traces `tscope-tui index`
# adds; `tscope-tui index` then says the index is current (nothing rewritten), and
# still rebuilds it for a new trace beside a refused one.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
work="$TSCOPE_TMP/index_refused.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
trap 'rm -rf "$work"' EXIT
ino() { ls -i "$1" 2>/dev/null | cut -d' ' -f1; }

# an 8-rank run, traces of ranks 0-3; rank 1's trace copied into rank5/
"$gen/gen_demo" r 8 100 >/dev/null && rm -rf r/.tscope-index
for k in 0 1 2 3; do "$gen/gen_trace" r/rank$k/trace.json 1 $k >/dev/null; done
cp -p r/rank1/trace.json r/rank5/trace.json
"$T" index r >/dev/null 2>&1
"$T" index --status r >st.txt 2>&1
rc=$?
want="^traces: 1 refused at each open, so not in the index, which holds the traces an open keeps"
want="$want (.tscope-tui index. cannot add it): r/rank5/trace.json: refused: its distributedInfo says rank 1"
want="$want of world_size 8, but it lies in rank 5.s dir (run.json: world_size 8): a trace of another job"
tap_check "status: the misplaced trace named as refused, with why, exit 0" \
	'[ $rc -eq 0 ] && grep -q "$want (or misplaced)$" st.txt'
tap_check "status: not counted as a trace the index adds" '! grep -q "not in the index (parsed" st.txt'
part=$(ino r/.tscope-index/steps-0-of-1.tsx)
"$T" index r >ix.txt 2>&1
tap_check "index: current, nothing rewritten" \
	'grep -q "^index current: r/.tscope-index (8 ranks, 4 traces); nothing to rebuild" ix.txt &&
	 [ "$(ino r/.tscope-index/steps-0-of-1.tsx)" = "$part" ]'

# a file without traceEvents (refused too) and a new trace of rank 7 (the index adds it)
echo '{"foo":1}' >r/rank6/bad.pt.trace.json
"$gen/gen_trace" r/rank7/trace.json 1 7 >/dev/null
"$T" index --status r >st2.txt 2>&1
tap_check "status: 2 refused (the first named, the other counted), 1 the index adds" \
	'grep -q "^traces: 2 refused at each open, .*(and 1 more: .--export sources. names it)$" st2.txt &&
	 grep -q "^traces: 1 not in the index (parsed at each open; .tscope-tui index. adds them)$" st2.txt'
"$T" index r >ix2.txt 2>&1
"$T" index r >ix3.txt 2>&1
tap_check "index: rebuilt for the new trace, then current" \
	'grep -q "^index written: .*(8 ranks, 5 traces" ix2.txt && grep -q "^index current: .*(8 ranks, 5 traces)" ix3.txt'
tap_plan
