#!/bin/sh
# index_refused.sh: traces an open refuses (src/index_cmd.c): the index holds the traces
# an open keeps, so a trace refused at each open (rank 1's trace misplaced in rank5/, a
# file without traceEvents) is never in it. `index --status` names such traces as
# refused, the first with why, and does not count them as traces `tscope-tui index`
# adds; `tscope-tui index` then says the index is current (nothing rewritten), and
# still rebuilds it for a new trace beside a refused one.
# A run dir every open refuses as two runs (a trace beside the rank dirs, or in a
# worker9/ dir) is never indexed: `index`, each --shard, --status and --slurm exit 1 with
# the open's message and write nothing (they indexed it and --status called it ok); nor
# one whose trace names a rank the step logs lack (refused once loaded: no part kept, and
# --status and the next `index` say so, not "current"). A run whose traces have a part
# and whose ranks have none: --status names them not indexed, exit 1 (it said nothing).
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

# Two runs in one run dir: a trace beside the rank dirs, a trace in worker9/.
"$gen/gen_demo" two 4 50 >/dev/null && "$gen/gen_trace" two/host1.pt.trace.json 1 1 >/dev/null
"$gen/gen_demo" w9 4 50 >/dev/null && mkdir w9/worker9 && "$gen/gen_trace" w9/worker9/trace.json 1 9 >/dev/null
refused_as_open() { # DIR WHAT ARGS...: exit 1, the open's message, "WHAT: every open refuses", no part
	dir=$1 what=$2
	shift 2
	"$T" index "$@" "$dir" >ro.out 2>ro.err
	[ $? -eq 1 ] && [ ! -s ro.out ] && ! ls "$dir"/.tscope-index/*.tsx >/dev/null 2>&1 &&
		grep -q "^tscope-tui index: these paths hold 2 different runs; they are never merged:$" ro.err &&
		grep -q "^tscope-tui index: $what: every open refuses this run dir (above)" ro.err
}
"$T" --print --no-index two >/dev/null 2>&1
tap_check "two runs in one dir: an open refuses; so do index, each --shard, --status, --slurm (exit 1)" \
	'[ $? -eq 1 ] && refused_as_open two "no index written" &&
	 refused_as_open two "no index written" --shard 0/2 && refused_as_open two "no index written" --shard 1/2 &&
	 refused_as_open two "not usable" --status && refused_as_open two "no job submitted" --slurm --dry-run'
tap_check "... a trace in worker9/: the sharded build and --status refused as the open is" \
	'refused_as_open w9 "no index written" --shard 1/2 && refused_as_open w9 "not usable" --status &&
	 grep -q "run 2: Kineto traces: w9/worker9/trace.json$" ro.err'

# The run dir's trace.json names rank 9, which the 4 ranks' step logs lack: refused once loaded.
"$gen/gen_demo" m 4 50 >/dev/null && "$gen/gen_trace" m/trace.json 1 9 >/dev/null
"$T" index m >m.out 2>m.err
rc=$?
"$T" index --status m >m.st 2>&1
src=$?
"$T" index m >m2.out 2>&1
tap_check "a trace of a rank the step logs lack: index exit 1 with the open's message, no part kept" \
	'[ $rc -eq 1 ] && [ ! -s m.out ] && ! ls m/.tscope-index/*-of-*.tsx >/dev/null 2>&1 &&
	 grep -q "^tscope-tui index: the trace m/trace.json is rank 9, which the step logs (4 ranks) do not have" m.err &&
	 grep -q "^tscope-tui index: no index kept: every open refuses this run dir" m.err'
tap_check "... --status says so, exit 1 (not \"index adds them\"); index again refuses (not \"current\")" \
	'[ $src -eq 1 ] && grep -q "^traces: every open refuses this run dir, .*: the trace m/trace.json is rank 9" m.st &&
	 ! grep -q "adds them" m.st && grep -q "no index kept" m2.out'

# Traces indexed, ranks not (an open that parsed 64 MiB of traces writes their part alone).
"$gen/gen_demo" tp 8 20 >/dev/null && for k in 0 1 2 3; do "$gen/gen_trace" tp/rank$k/trace.json 1 $k >/dev/null; done
"$T" index tp >/dev/null 2>&1 && rm tp/.tscope-index/steps-0-of-1.tsx tp/.tscope-index/summary.tsx
"$T" index --status tp >tp.st 2>&1
rc=$?
tap_check "a trace part and no steps part: --status names the ranks not indexed, exit 1" \
	'[ $rc -eq 1 ] && grep -q "^steps: no part (8 ranks not indexed: each open reads them from the JSONL; " tp.st &&
	 grep -q "^traces 0/1  4 traces  ok  " tp.st'
tap_plan
