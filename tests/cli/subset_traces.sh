#!/bin/sh
# subset_traces.sh: --ranks LIST holds for traces too. A pytscope run with per-rank traces
# in its rank dirs loads the listed ranks' steps and traces (the other rank dirs are not
# entered: no trace of a rank left out is read, none is refused as another run's); a
# trace-only run's rank dirs likewise; loose trace files are read and those of ranks the
# list does not name left out, with one note naming them; the coverage line says what was
# left out; over an indexed run the listed ranks' trace summaries come from the index;
# a list that names no rank with data says so.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
"$gen" mix 4 40 >/dev/null || exit 1
mkdir loose dirs
for r in 0 1 2 3; do
	"$tgen" mix/rank$r/trace.pt.trace.json 1 $r >/dev/null || exit 1
	cp mix/rank$r/trace.pt.trace.json loose/rank$r.json
	mkdir dirs/rank$r && cp loose/rank$r.json dirs/rank$r/t.pt.trace.json
	# the run's world_size (a trace of another in a rank dir is another job's)
	sed 's/"world_size": 8/"world_size": 4/' loose/rank$r.json >mix/rank$r/trace.pt.trace.json || exit 1
done
mkdir mix01 && cp -r mix/rank0 mix/rank1 mix01/
ids() { tail -n +2 "$1" | cut -d, -f1 | sort -un | tr '\n' ' ' | sed 's/ $//'; }

# steps and traces in the rank dirs
"$T" --print --color never --ranks 0-1 mix >p.txt 2>err.txt
tap_eq "--ranks 0-1 of a run with traces: loads (no trace refused as another run's)" 0 $?
tap_check "its coverage names the rank dirs left out" \
	'grep -q "coverage  *2 of 4 ranks (world_size), a subset: --ranks 0-1 left 2 rank dirs out$" p.txt'
"$T" --export sources --ranks 0-1 mix >src.csv 2>/dev/null
tap_eq "only the listed rank dirs' traces are read" "mix/rank0/trace.pt.trace.json mix/rank1/trace.pt.trace.json" \
	"$(grep -o 'mix/rank[0-9]*/trace[^,]*' src.csv | tr '\n' ' ' | sed 's/ $//')"
ok=0
for v in kernels idle temporal ranks step_kernels; do
	"$T" --export $v --ranks 0-1 mix >a.csv 2>/dev/null
	"$T" --export $v mix01 >b.csv 2>/dev/null
	cmp -s a.csv b.csv || { echo "# $v differs"; ok=1; }
done
tap_rc $ok "the subset's trace views = those of a run dir holding ranks 0-1 alone"

# a trace-only run in rank dirs
"$T" --export sources --ranks 1,3 dirs >src.csv 2>/dev/null
tap_eq "trace-only rank dirs: only the listed ones are read" "dirs/rank1/t.pt.trace.json dirs/rank3/t.pt.trace.json" \
	"$(grep -o 'dirs/rank[0-9]*/t[^,]*' src.csv | tr '\n' ' ' | sed 's/ $//')"

# loose trace files: read, then those of other ranks left out
"$T" --export ranks --ranks 0-1 loose >r.csv 2>/dev/null
tap_eq "loose traces: the listed ranks only" "0 1" "$(ids r.csv)"
"$T" --print --color never --ranks 0-1 loose >p.txt 2>/dev/null
tap_check "loose traces: the coverage names the ranks left out" \
	'grep -q "coverage  *2 of 8 ranks (the traces. world_size), a subset: --ranks 0-1 left 2 ranks out$" p.txt'
tap_check "loose traces: nothing called missing but ranks the list names" '! grep -q "missing" p.txt'
"$T" --export sources --ranks 0-1 loose >src.csv 2>/dev/null
tap_check "loose traces: one note names those left out" \
	'[ "$(grep -c "traces* left out" src.csv)" = 1 ] &&
	 grep -q "2 traces left out: not of a rank --ranks 0-1 names (rank 2 loose/rank2.json, rank 3 loose/rank3.json)" src.csv'
tap_eq "loose traces: each left out says so, its records not counted (n/a)" \
	"file,loose/rank2.json,kineto,2,,,,,left out: not a rank --ranks names
file,loose/rank3.json,kineto,3,,,,,left out: not a rank --ranks names" "$(grep 'loose/rank[23].json,kineto' src.csv)"
"$T" --export kernels --ranks 0-1 loose >k.csv 2>/dev/null
tap_eq "loose traces: the trace views hold the listed ranks only" "0 1" "$(ids k.csv)"

# a loose trace whose distributedInfo names a rank left out is read no further: its
# broken events raise no note; worker<N> dirs (named by the profiler, not by rank) alike;
# a second trace claiming a rank is left out, never relabelled to a listed rank
mkdir peek peek/worker0 peek/worker1 conflict
cp loose/rank0.json peek/worker0/a.pt.trace.json
sed 's/"traceEvents": \[/"traceEvents": [ 7,/' loose/rank1.json >peek/worker1/a.pt.trace.json
sed 's/"traceEvents": \[/"traceEvents": [ 7,/' loose/rank2.json >peek/b.pt.trace.json
"$T" --export sources --ranks 1-2 peek >all.csv 2>/dev/null
"$T" --export sources --ranks 0 peek >src.csv 2>/dev/null
tap_check "a trace of a rank left out (loose, in a worker dir) is not read past its distributedInfo" \
	'[ "$(grep -c "^warning,peek/.*unexpected .7. in traceEvents" all.csv)" = 2 ] && ! grep -q "^warning" src.csv &&
	 grep -q "2 traces left out: not of a rank --ranks 0 names (rank 2 peek/b.pt.trace.json, rank 1 peek/worker1/a" src.csv'
for r in 0 1; do
	sed "s/\"rank\": $r,/\"rank\": 5,/" loose/rank$r.json >conflict/t$r.json
done
"$T" --export kernels conflict 2>/dev/null | grep "^5," >whole.csv
"$T" --export kernels --ranks 5 conflict 2>/dev/null | grep "^5," >sub.csv
"$T" --export kernels --ranks 0 conflict >none.csv 2>/dev/null
"$T" --export sources --ranks 5 conflict >csrc.csv 2>/dev/null
tap_check "two traces of distributedInfo.rank 5: the first kept (read whole under --ranks 5), the second left out" \
	'[ -s whole.csv ] && cmp -s whole.csv sub.csv && ! grep -q "^0," none.csv &&
	 grep -q "^refused,conflict/t1.json,kineto,5,.*refused: rank 5, which conflict/t0.json claims too" csrc.csv'

# traces without ProfilerSteps (no step model): the same coverage line
mkdir nostep
for r in 0 1 2 3; do
	printf '{"distributedInfo": {"backend": "nccl", "rank": %d, "world_size": 8}, "traceEvents": [%s]}\n' $r \
		'{"ph": "X", "cat": "kernel", "name": "gemm", "ts": 100, "dur": 50, "pid": 0, "tid": 7, "args": {"stream": 7}}' \
		>nostep/rank$r.pt.trace.json
done
"$T" --print --color never --ranks 1-2,6 nostep >p.txt 2>/dev/null
tap_check "traces without steps: only a listed rank is missing, the subset named" \
	'grep -q "^  coverage  *2 of 8 ranks (the traces. world_size), a subset: --ranks 1-2,6 left 2 ranks out; missing 6$" p.txt'
"$T" --print --color never --ranks 1-2,6-9 nostep >p9.txt 2>/dev/null
tap_check "... and ids it names beyond the traces' world_size" \
	'grep -q "^  coverage  *2 of 8 ranks (the traces. world_size), a subset: --ranks 1-2,6-9 left 2 ranks out; it names \
ids from 8, beyond world_size 8; missing 6, 7$" p9.txt'

# an indexed run: the listed ranks' trace summaries come from the index (a trace changed
# behind its size and mtime shows only when parsed), loose files' records of other ranks
# are dropped, every view equals the parse's, and a subset writes no index
"$T" index mix >/dev/null 2>&1
"$T" index loose >/dev/null 2>&1
stamp() { stat -c '%i %Y %s' "$1"/.tscope-index/* | tr '\n' ' '; }
before="$(stamp mix) $(stamp loose)"
ok=0
for d in mix loose; do
	for v in --print "--export kernels" "--export idle" "--export temporal" "--export step_kernels" \
		"--export sources" "--export findings"; do
		# shellcheck disable=SC2086
		"$T" $v --color never --ranks 0-1 --no-index $d >a.txt 2>&1
		# shellcheck disable=SC2086
		"$T" $v --color never --ranks 0-1 $d >b.txt 2>&1
		cmp -s a.txt b.txt || { echo "# $d $v differs"; ok=1; }
	done
done
tap_rc $ok "--ranks 0-1 over the trace index = over the parsed traces (in rank dirs, loose)"
tap_eq "... and leaves the indexes as they were" "$before" "$(stamp mix) $(stamp loose)"
if strace -f -qq -o /dev/null true 2>/dev/null; then
	opens() { strace -f -qq -e trace=openat -o trace.txt "$T" --print "$@" mix >/dev/null 2>&1
		grep -c 'trace\.pt\.trace\.json' trace.txt; }
	tap_eq "an indexed open (whole, or --ranks 0-1) opens no trace file" "0 0" "$(opens) $(opens --ranks 0-1)"
	loose_opens() { strace -f -qq -e trace=openat -o trace.txt "$T" --print "$@" loose >/dev/null 2>&1
		grep -cE '"([^"]*/)?rank[0-9]\.json"' trace.txt; } # by its path, or relative to the run dir
	tap_eq "loose trace files: each opened once from the index, twice without (the probes share one head)" \
		"4 8" "$(loose_opens) $(loose_opens --no-index)"
else
	tap_skip "trace files opened: strace cannot trace here (not installed, or ptrace is not allowed)"
	tap_skip "loose trace files opened: strace cannot trace here"
fi
f=mix/rank1/trace.pt.trace.json
at=$(grep -b -o 'gemmSN_TN' $f | head -n 1 | cut -d: -f1)
touch -r $f ref
printf X | dd of=$f bs=1 seek=$((at + 4)) conv=notrunc 2>/dev/null
touch -r ref $f
"$T" --export kernels --ranks 0-1 mix 2>/dev/null | grep -c "^1,.*gemmXN_TN" >idx.txt
"$T" --export kernels --ranks 0-1 --no-index mix 2>/dev/null | grep -c "^1,.*gemmXN_TN" >raw.txt
tap_eq "--ranks 0-1: rank 1's kernels from the trace index, not its file" "0 1" "$(cat idx.txt raw.txt | tr '\n' ' ' | sed 's/ $//')"

# a list naming no rank with data
"$T" --print --ranks 99 loose >/dev/null 2>err.txt
tap_eq "--ranks naming no trace's rank: exit 1" 1 $?
tap_check "... and the note says the list left every trace out" \
	'grep -q "^tscope-tui: loose: 4 traces left out: not of a rank --ranks 99 names" err.txt'
for m in --print "--export ranks" ""; do
	# shellcheck disable=SC2086
	"$T" $m --ranks 20-30 mix >/dev/null 2>err.txt </dev/null
	tap_eq "--ranks naming no rank dir (${m:-explorer}): exit 1" 1 $?
	tap_check "... says so (not a folder of runs)" \
		'grep -q "^tscope-tui: mix: --ranks 20-30 left 4 rank dirs out, and none of the ranks it names has data$" err.txt &&
		 ! grep -q "below it" err.txt'
done
tap_plan
