#!/bin/sh
# identity.sh: run identity (model/identity.h). Sources of different runs are never
# merged: two run dirs are compared (compare mode, tests/cli/diff*.sh); a run dir with
# an unrelated trace beside its rank dirs, a sweep next to a training run, a trace of a
# rank the step logs lack are refused with exit 1, what was found and how to open one (a
# rank of a traces dir whose trace has no ProfilerStep is no such rank: it loads, its
# steps missing); a run dir with its own trace.json is the documented combination, and
# the trace files beside a trace.json that it reads alone are named in a note; the same
# PATH twice counts once; --format picks one run of a mixed folder; rank dirs whose
# run.json names another run or world_size, and traces of another world_size, are named
# in the headline; a steps.jsonl beside rank dirs and a rank dir whose id repeats are
# noted as not read; trace files of one job given one by one are one run, as their
# directory is; two DASF or sweep dirs with a file of neither beside them are three
# runs, refused (a file under one of them joins it); a sweep or DASF file that the load
# of a directory given beside it reads is read once, with a note, whatever the order
# (one it does not read is read); a PATH inside another PATH in a run of its own (a
# sweep dir and its level dir, a run dir and its rank dir, a trace dir and its file) is
# refused with both named, never compared nor merged.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
"$gen" f2 a && "$gen" f2 b || { tap_notok "fixtures generated"; exit 1; }

"$TSCOPE_BIN" --print --color never a >one.out 2>one.err
"$TSCOPE_BIN" --print --color never a ./a/ a >twice.out 2>twice.err
rc=$?
tap_check "same PATH twice (and spelled differently): counted once" '[ "$rc" -eq 0 ] && cmp -s one.out twice.out && [ ! -s twice.err ]'

"$TSCOPE_BIN" --print --color never a b >two.out 2>two.err
rc=$?
tap_check "two run dirs: compared, not merged (compare mode)" '[ "$rc" -eq 0 ] && head -1 two.out | grep -qx "pytscope diff  (a  vs  b)"'
tap_check "two run dirs: the pair is judged identical" 'grep -q "^● COMPARISON — no difference" two.out'
"$TSCOPE_BIN" --export ranks a b >tworanks.csv 2>tworanks.err
rc=$?
tap_check "two run dirs: a one-run view is refused (exit 2), diff_* named" '[ "$rc" -eq 2 ] && [ ! -s tworanks.csv ] && grep -q "diff_" tworanks.err'

# A trace beside the rank dirs is not the run's own.
mkdir -p mixed
cp -r a/rank0 a/rank1 mixed/
printf '{"traceEvents":[{"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce","ts":0,"dur":900,"pid":0,"tid":7,"args":{"stream":7}},{"ph":"X","cat":"kernel","name":"gemm","ts":1000,"dur":100,"pid":0,"tid":7,"args":{"stream":7}}]}\n' >mixed/other.pt.trace.json
"$TSCOPE_BIN" --print mixed >mx.out 2>mx.err
rc=$?
tap_check "mixed folder: exit 1, nothing printed" '[ "$rc" -eq 1 ] && [ ! -s mx.out ]'
tap_check "mixed folder: the trace is named as a separate run" 'grep -q "run 2: Kineto traces: mixed/other.pt.trace.json" mx.err'
tap_check "mixed folder (one PATH): the two kinds and their --format, not compare mode's message" \
	'grep "^tscope-tui: the one PATH .mixed. holds 2 runs, never merged: a steps run (--format pytscope)" mx.err |
	 grep -q "and a trace run (--format kineto); choose one with --format$" &&
	 ! grep -q "cannot compare" mx.err'
# The refusal is a run in the model: the sources view lists what was found, each path
# with its run and the command that opens it alone (stderr says the same); exit 1.
"$TSCOPE_BIN" --export sources mixed >ms.csv 2>ms.err
rc=$?
tap_check "mixed folder: --export sources exits 1 and lists both runs as refused" \
	'[ "$rc" -eq 1 ] && grep -q "^refused,mixed,pytscope,.*refused: run 1 of 2 (pytscope run .ddp., 2 ranks); open it alone: tscope-tui --format pytscope mixed" ms.csv &&
	 grep -q "^refused,mixed/other.pt.trace.json,kineto,.*refused: run 2 of 2 (Kineto traces); open it alone: tscope-tui --format kineto mixed/other.pt.trace.json$" ms.csv'
tap_check "mixed folder: the sources view has the reason as an error row; stderr the same runs" \
	'grep -q "^error,.*refused: these paths hold 2 different runs; they are never merged" ms.csv && grep -q "run 2: Kineto traces: mixed/other.pt.trace.json" ms.err'
"$TSCOPE_BIN" --export ranks mixed >mr.csv 2>/dev/null
rc=$?
tap_check "mixed folder: another view is not written (exit 1)" '[ "$rc" -eq 1 ] && [ ! -s mr.csv ]'
printf ':dump %s/ro\n7\n:dump %s/rs\n' "$TSCOPE_TMP" "$TSCOPE_TMP" >rkeys
LINES=24 COLUMNS=120 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/rkeys" "$TSCOPE_BIN" --tui mixed >/dev/null 2>rt.err
rc=$?
tap_check "mixed folder, explorer: exit 1, the Overview says refused and analyses nothing" \
	'[ "$rc" -eq 1 ] && grep -q "^  refused  *these paths hold 2 different runs; they are never merged" ro && grep -q "not analysed: the input was refused" ro'
tap_check "mixed folder, explorer: the Sources pane lists both paths as refused" \
	'grep -q "^.refused mixed  .* pytscope .*refused: run 1 of 2" rs && grep -q "^ refused mixed/other.pt.trace.json kineto .*refused: run 2 of 2" rs'
"$TSCOPE_BIN" --print --color never --format pytscope mixed >mp.out 2>mp.err
rc=$?
tap_check "mixed folder: --format pytscope opens the step run alone" '[ "$rc" -eq 0 ] && ! grep -q EXPOSED_COMM mp.out && grep -q "^● DISTRIBUTED — 2 ranks" mp.out'

# The documented combination: the run dir's own trace.json (and traces in rank dirs).
mkdir -p own
cp -r a/rank0 a/rank1 own/
cp mixed/other.pt.trace.json own/trace.json
cp mixed/other.pt.trace.json own/rank1/rank1.pt.trace.json
"$TSCOPE_BIN" --print --color never own >own.out 2>own.err
rc=$?
tap_check "run dir with its own traces: one run" '[ "$rc" -eq 0 ] && grep -q "^● COMMUNICATION OVERLAP" own.out && grep -q "^● DISTRIBUTED" own.out'
# trace.json is read alone (pytscope's rule); the traces beside it are named, not dropped
cp mixed/other.pt.trace.json own/stray.pt.trace.json
"$TSCOPE_BIN" --export sources own >os.csv 2>/dev/null
tap_check "run dir with trace.json: a trace beside it is named as not read (a note)" \
	'grep -q "^info,own/trace.json,.*1 other trace file here not read (stray.pt.trace.json): a run dir.s trace.json is its trace" os.csv &&
	 ! grep -q "^file,own/stray.pt.trace.json" os.csv'
rm own/stray.pt.trace.json
mkdir -p tronly
cp mixed/other.pt.trace.json tronly/trace.json
cp mixed/other.pt.trace.json tronly/a.pt.trace.json
cp mixed/other.pt.trace.json tronly/b.pt.trace.json
"$TSCOPE_BIN" --export sources tronly >to.csv 2>/dev/null
rc=$?
tap_check "traces beside a trace.json (no step logs): trace.json read, the 2 others named" \
	'[ "$rc" -eq 0 ] && grep -q "^file,tronly/trace.json,kineto," to.csv &&
	 grep -q "2 other trace files here not read (a.pt.trace.json, b.pt.trace.json)" to.csv'
"$TSCOPE_BIN" --export sources a >ao.csv 2>/dev/null
tap_check "a run dir without trace.json: no such note" '! grep -q "not read" ao.csv'

# The run dir's own trace.json, but of a rank the step logs do not have: another run.
mkdir -p foreign
cp -r a/rank0 a/rank1 foreign/
printf '{"distributedInfo":{"rank":7,"world_size":8},"traceEvents":[{"ph":"X","cat":"kernel","name":"gemm","ts":0,"dur":100,"pid":0,"tid":7,"args":{"stream":7}}]}\n' >foreign/trace.json
"$TSCOPE_BIN" --print foreign >fo.out 2>fo.err
rc=$?
tap_check "trace of rank 7 beside step logs of ranks 0-1: exit 1, said why" \
	'[ "$rc" -eq 1 ] && [ ! -s fo.out ] && grep -q "is rank 7, which the step logs (2 ranks) do not have" fo.err'
"$TSCOPE_BIN" --export sources foreign >fs.csv 2>/dev/null
rc=$?
tap_check "trace of rank 7: --export sources (exit 1) marks that trace refused, the step logs ok" \
	'[ "$rc" -eq 1 ] && grep -q "^refused,foreign/trace.json,kineto,7,.*refused: rank 7, not a rank of the step logs" fs.csv &&
	 grep -q "^file,foreign/rank1/steps.jsonl,pytscope,1,,,50,0,ok$" fs.csv'
"$TSCOPE_BIN" --print --trace foreign/trace.json --format pytscope foreign >ft.out 2>&1
rc=$?
tap_check "the same trace attached with --trace: accepted" '[ "$rc" -eq 0 ]'
# A traces dir where one rank's trace has no ProfilerStep span: its steps are the traces'
# own, no step logs to be another run's: both ranks load, that rank without a step record
# (missing, named in the sources and the stragglers' not judged), its kernels read.
. "$TSCOPE_ROOT/tests/tools/trace_events.sh"
mkdir -p nostep
{ head_of 0 2; step 1 0 1000; step 2 1000 1000; step 3 2000 1000; kernel gemm 7 100 500 1; printf ,
  kernel gemm 7 1100 500 2; printf ,; kernel gemm 7 2100 500 3; printf ']}\n'; } >nostep/rank0.pt.trace.json
{ head_of 1 2; kernel gemm 7 100 500 1; printf ,; kernel gemm 7 1100 500 2; printf ']}\n'; } \
	>nostep/rank1.pt.trace.json
"$TSCOPE_BIN" --no-index --print --color never nostep >ns.out 2>ns.err
rc=$?
tap_check "traces dir, rank 1 without ProfilerStep: loaded (exit 0), not refused as another run" \
	'[ "$rc" -eq 0 ] && ! grep -q "another run" ns.err && grep -q "^  ranks  *2$" ns.out'
tap_check "... the stragglers say rank 1 has no step record" \
	'grep -q "^  stragglers  *not judged: rank 1 has no step record, so no step is on every rank" ns.out'
"$TSCOPE_BIN" --no-index --export sources nostep >nss.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export ranks nostep >nsr.csv 2>/dev/null
"$TSCOPE_BIN" --no-index --export kernels nostep >nsk.csv 2>/dev/null
tap_check "... the sources name its missing steps, the ranks view has it without records, its kernels read" \
	'grep -q "^warning,nostep/rank1.pt.trace.json,,1,,,,,\"no ProfilerStep span in this trace, while other \
ranks. traces have some: this rank has no step record, its steps are missing (not 0 ms)" nss.csv &&
	 grep -q "^1,0,.*,3,0," nsr.csv && grep -q "^0,3," nsr.csv && grep -q "^1,gemm,COMPUTATION,2," nsk.csv'
"$TSCOPE_BIN" --no-index --export temporal nostep >nst.csv 2>nst.err
rc=$?
tap_check "... --export temporal: both ranks" '[ "$rc" -eq 0 ] && grep -q "^0," nst.csv && grep -q "^1," nst.csv'
printf ':dump %s/nso\n' "$TSCOPE_TMP" >nskeys
LINES=24 COLUMNS=120 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/nskeys" "$TSCOPE_BIN" --no-index --tui nostep \
	>/dev/null 2>/dev/null
rc=$?
tap_check "... explorer: opens (exit 0), the Overview with both ranks" \
	'[ "$rc" -eq 0 ] && grep -q "^  ranks  *2$" nso && ! grep -q refused nso'
mkdir -p nostep0
sed 's/"rank":1,/"rank":0,/' nostep/rank1.pt.trace.json >nostep0/rank0.pt.trace.json
sed 's/"rank":0,/"rank":1,/' nostep/rank0.pt.trace.json >nostep0/rank1.pt.trace.json
"$TSCOPE_BIN" --no-index --print --color never nostep0 >ns0.out 2>/dev/null
rc=$?
tap_check "traces dir, the lowest rank without ProfilerStep: loaded, its budget n/a, not another run" \
	'[ "$rc" -eq 0 ] && grep -q "^  budget  *n/a: rank 0 has no step record$" ns0.out'
# --trace on a run dir without a trace of its own: the trace is read (the probe answer
# identification got without --trace is not reused by the load).
printf '{"distributedInfo":{"rank":0,"world_size":2},"traceEvents":[%s]}\n' \
	'{"ph":"X","cat":"kernel","name":"gemm","ts":0,"dur":100,"pid":0,"tid":7,"args":{"stream":7}}' >attached.json
"$TSCOPE_BIN" --no-index --export kernels --trace attached.json a >at.csv 2>at.err
rc=$?
tap_check "--trace FILE on a run dir without a trace: its kernels are loaded" \
	'[ "$rc" -eq 0 ] && grep -q "^0,gemm,COMPUTATION,1,100," at.csv'

# A sweep next to a training run.
real="$TSCOPE_ROOT/../shared/real/genai-perf-medium"
if [ -d "$real" ]; then
	"$TSCOPE_BIN" --print a "$real" >sw.out 2>sw.err
	rc=$?
	tap_check "sweep next to a training run: exit 1, both named" '[ "$rc" -eq 1 ] && grep -q "run 2: sweep: " sw.err && grep -q -- "--format genai-perf" sw.err'
else
	tap_skip "../shared/real/genai-perf-medium not present"
fi

# Rank dirs whose run.json names another run or world_size than the lowest rank's: named
# in the headline (read the same from the index), not merged in silence.
mkdir -p mix && cp -r "$TSCOPE_ROOT/testdata/demo/rank0" "$TSCOPE_ROOT/testdata/demo/rank1" \
	"$TSCOPE_ROOT/testdata/demo/rank2" mix/ || exit 1
sed 's/"name": *"demo-ddp"/"name": "other-run"/; s/"world_size": *16/"world_size": 8/' \
	"$TSCOPE_ROOT/testdata/demo/rank2/run.json" >mix/rank2/run.json
"$TSCOPE_BIN" --print --color never --no-index mix >mix.out 2>/dev/null
tap_check "ranks of another run: the headline names the first such rank, both names and the count" \
	'grep -q "^  mixed runs  *rank 2.s run.json names .other-run., rank 0.s .demo-ddp. (1 of 3 ranks differ)" mix.out &&
	 grep -q "^  mixed runs  *rank 2.s run.json says world_size 8, rank 0.s 16 (1 of 3 ranks differ)$" mix.out'
"$TSCOPE_BIN" index mix >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never mix >mix_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s mix.out mix_idx.out'
# Traces of different jobs (world_size 8 and 16) in one directory: named too
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
mkdir -p tmix && "$tgen" tmix/rank0.pt.trace.json 1 0 >/dev/null && "$tgen" t1.json 1 1 >/dev/null &&
	sed 's/"world_size": 8/"world_size": 16/' t1.json >tmix/rank1.pt.trace.json || exit 1
"$TSCOPE_BIN" --print --color never --no-index tmix >tmix.out 2>/dev/null
tap_check "traces of two world sizes: named in the headline" \
	'grep -q "^  mixed runs  *rank 1.s trace says world_size 16, rank 0.s 8 (1 of 2 traces differ): traces of" tmix.out'
# What pytscope's layout rules leave unread is named: a steps.jsonl beside rank dirs,
# a rank dir whose id a later name repeats (rank01 and rank1: rank1 is read)
mkdir -p lay && cp -r "$TSCOPE_ROOT/testdata/demo/rank0" "$TSCOPE_ROOT/testdata/demo/rank1" lay/ &&
	cp -r lay/rank1 lay/rank01 && cp lay/rank0/steps.jsonl lay/ || exit 1
"$TSCOPE_BIN" --export sources --no-index lay >lay.csv 2>/dev/null
tap_check "unread by the layout rules: a warning for rank01, a note for the top-level steps.jsonl" \
	'grep -q "^warning,lay/rank01,,1,,,,,\"not read: rank1, later by name, has the same rank id 1, and" lay.csv &&
	 grep -q "^info,lay/steps.jsonl,,,,,,,\"not read: the run has rank dirs" lay.csv'
"$TSCOPE_BIN" index lay >/dev/null 2>&1 && "$TSCOPE_BIN" --export sources lay >lay_idx.csv 2>/dev/null
tap_check "... the same from the index, once each" 'cmp -s lay.csv lay_idx.csv'
"$TSCOPE_BIN" --print --color never --no-index "$TSCOPE_ROOT/testdata/demo" >demo.out 2>/dev/null
tap_check "one run's ranks: no such line" '! grep -q "mixed runs" demo.out'

# Trace files given one by one: one run of their ranks, the same as their directory.
tgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace"
mkdir tp && "$tgen" tp/r0.json 1 0 && "$tgen" tp/r1.json 1 1 && "$tgen" tp/r2.json 1 2 || exit 1
for f in "" "--format kineto"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" $f --export ranks --no-index tp/r0.json tp/r1.json tp/r2.json >tp_files.csv 2>tp_files.err
	rc=$?
	"$TSCOPE_BIN" --export ranks --no-index tp >tp_dir.csv 2>/dev/null
	tap_check "three trace files one by one${f:+ ($f)}: one run of 3 ranks, as their directory" \
		'[ "$rc" -eq 0 ] && cmp -s tp_files.csv tp_dir.csv && [ "$(wc -l <tp_files.csv)" -eq 4 ] &&
		 ! grep -q refused tp_files.err'
done
# Two directories are two runs (DASF databases, GenAI-Perf sweeps): a file given beside
# them joins the run of the directory that holds it; one in neither is a run of its own,
# so the PATHs are refused (exit 1, each run named), never merged into one run.
bgen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
"$bgen/gen_dasf" run da 0 aaaa extra1 >/dev/null && "$bgen/gen_dasf" run db 50 bbbb extra2 >/dev/null &&
	"$bgen/gen_dasf" run dc 0 cccc extra3 >/dev/null || exit 1
for order in "da db dc/p-TracePlugin-h0.msgpack" "dc/p-TracePlugin-h0.msgpack da db"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --print --no-index $order >dl.out 2>dl.err
	rc=$?
	tap_check "two DASF dirs and a database of neither ($order): exit 1, three runs named" \
		'[ "$rc" -eq 1 ] && [ ! -s dl.out ] && grep -q "these paths hold 3 different runs" dl.err &&
		 grep -q "run [13]: DASF databases in none of the directories given: dc/p-TracePlugin-h0.msgpack$" \
			dl.err &&
		 grep -q "run [12]: DASF databases: da$" dl.err && grep -q "run [23]: DASF databases: db$" dl.err'
done
"$TSCOPE_BIN" --export sources da db dc/p-TracePlugin-h0.msgpack >dl.csv 2>/dev/null
rc=$?
tap_check "... --export sources (exit 1): the database refused as a run of its own" \
	'[ "$rc" -eq 1 ] && grep -q "^refused,dc/p-TracePlugin-h0.msgpack,dasf,.*refused: run 3 of 3 (DASF \
databases in none of the directories given); open it alone: tscope-tui --format dasf \
dc/p-TracePlugin-h0.msgpack$" dl.csv'
mkdir -p dbx && cp db/* dbx/ && mv dbx/p-TracePlugin-h1.msgpack dbx/later.bin &&
	cp db/p-TracePlugin-h1.msgpack dbx/sub.msgpack && mkdir dbx/more && mv dbx/sub.msgpack dbx/more/ || exit 1
"$TSCOPE_BIN" --export sources --no-index da dbx dbx/more/sub.msgpack >din.csv 2>din.err
rc=$?
tap_check "two DASF dirs and a database under the second: a pair, the database on B's side" \
	'[ "$rc" -eq 0 ] && grep -q "^B,file,dbx/more/sub.msgpack,dasf," din.csv && ! grep -q "^A,file,dbx" din.csv'
"$bgen/gen_sweep" sa 50 4 4 >/dev/null && "$bgen/gen_sweep" sb 50 4 4 2 >/dev/null &&
	"$bgen/gen_sweep" sc 50 4 4 >/dev/null || exit 1
"$TSCOPE_BIN" --print --no-index sa sb sc/m-openai-chat-concurrency2/profile_export.json >sl.out 2>sl.err
rc=$?
tap_check "two sweep dirs and a level file of neither: exit 1, three runs named" \
	'[ "$rc" -eq 1 ] && [ ! -s sl.out ] &&
	 grep -q "run 3: sweep in none of the directories given: sc/m-openai-chat-concurrency2/profile_export.json$" \
		sl.err'
"$TSCOPE_BIN" --print --no-index sa sb sb/m-openai-chat-concurrency2/profile_export.json >sin.out 2>/dev/null
rc=$?
tap_check "two sweep dirs and a level file under the second: compared" \
	'[ "$rc" -eq 0 ] && head -1 sin.out | grep -qx "tscope-tui compare  (sa  vs  sb)"'
# A PATH inside another PATH given, not one of its runs: refused (exit 1), both named.
for order in "sb sb/m-openai-chat-concurrency2/" "sa sb sb/m-openai-chat-concurrency2"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --print --no-index $order >nest.out 2>nest.err
	rc=$?
	tap_check "a sweep dir and its own level dir ($order): refused, both named" \
		'[ "$rc" -eq 1 ] && [ ! -s nest.out ] &&
		 grep -q "^tscope-tui: sb/m-openai-chat-concurrency2 is inside sb: give one of them; the" nest.err &&
		 ! grep -q "cannot compare" nest.err'
done
# each: the PATHs, then the inner and the outer one as the refusal names them
for case in "a a/rank1/|a/rank1|a" "a/rank1 a|a/rank1|a" "tp tp/r1.json|tp/r1.json|tp"; do
	order=${case%%|*} inner=${case#*|} inner=${inner%|*} outer=${case##*|}
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --export sources --no-index $order >nest.csv 2>nest.err
	rc=$?
	tap_check "a run or trace dir and a rank dir or file of it ($order): refused, both named" \
		'[ "$rc" -eq 1 ] && ! grep -q "^A," nest.csv &&
		 grep -q "^error,.*refused: $inner is inside $outer: give one of them" nest.csv &&
		 grep -q "^tscope-tui: $inner is inside $outer: give one of them" nest.err'
done
# A PATH that the load of a directory given beside it reads already is not read again
# (whatever the order and the number of directories): a note names it; the report is the
# directory's alone. One the load does not read (deeper than the loader looks) is read.
lvl=sb/m-openai-chat-concurrency2/profile_export.json
"$TSCOPE_BIN" --print --no-index sb >s1.out 2>/dev/null
"$TSCOPE_BIN" --print --no-index sa sb >s2.out 2>/dev/null
for order in "sb $lvl" "$lvl sb"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --print --no-index $order >s1d.out 2>/dev/null
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --export sources --no-index $order >s1d.csv 2>/dev/null
	tap_check "a sweep dir and its own level file ($order): read once, the dir's report, a note" \
		'cmp -s s1.out s1d.out && [ "$(grep -c "^file,$lvl," s1d.csv)" -eq 1 ] &&
		 grep -q "^info,$lvl,.*already read as part of sb$" s1d.csv && ! grep -q "results at" s1d.csv'
done
for order in "sa sb $lvl" "$lvl sa sb"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --print --no-index $order >s2d.out 2>/dev/null
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --export sources --no-index $order >s2d.csv 2>/dev/null
	tap_check "two sweep dirs and a level file the second reads ($order): the pair's report, a note of B" \
		'cmp -s s2.out s2d.out && [ "$(grep -c "^B,file,$lvl," s2d.csv)" -eq 1 ] &&
		 grep -q "^B,info,$lvl,.*already read as part of sb$" s2d.csv'
done
db0=da/p-TracePlugin-h0.msgpack
"$TSCOPE_BIN" --print --no-index da >d1.out 2>/dev/null
"$TSCOPE_BIN" --print --no-index da db >d2.out 2>/dev/null
for order in "da $db0" "$db0 da" "da db $db0" "$db0 da db"; do
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --print --no-index $order >dd.out 2>/dev/null
	# shellcheck disable=SC2086
	"$TSCOPE_BIN" --export sources --no-index $order >dd.csv 2>/dev/null
	case $order in *db*) want=d2.out side="A," ;; *) want=d1.out side= ;; esac
	tap_check "DASF dir(s) and a database the first reads ($order): read once, as without it, a note" \
		'cmp -s $want dd.out && [ "$(grep -c "^${side}file,$db0," dd.csv)" -eq 1 ] &&
		 grep -q "^${side}info,$db0,.*already read as part of da$" dd.csv && ! grep -q "repeat tasks" dd.csv'
done
mkdir -p cbd/performance nat/job1 && cp "$TSCOPE_ROOT/tests/unit/fixtures/sweep/cerebras_trainer.json" \
	cbd/performance/performance.json && cp "$TSCOPE_ROOT/tests/unit/fixtures/sweep/nat_stored_latency_fit.json" \
	nat/job1/calc_runner_output.json || exit 1
"$TSCOPE_BIN" --export sources --no-index cbd/performance/performance.json cbd >cbd.csv 2>/dev/null
"$TSCOPE_BIN" --export sources --no-index nat nat/job1/calc_runner_output.json >nat.csv 2>/dev/null
tap_check "a Cerebras or NAT dir and the file its load reads: read once, a note" \
	'[ "$(grep -c "^file," cbd.csv)" -eq 1 ] && grep -q "^info,cbd/performance/performance.json,.*part of cbd$" cbd.csv &&
	 [ "$(grep -c "^file," nat.csv)" -eq 1 ] && grep -q "^info,nat/job1/calc_runner_output.json,.*part of nat$" nat.csv'
"$TSCOPE_BIN" --export sources --no-index dbx dbx/more/sub.msgpack >dsub.csv 2>/dev/null
tap_check "a DASF dir and a database below what its load reads: both read, no note" \
	'grep -q "^file,dbx/more/sub.msgpack,dasf," dsub.csv && grep -q "^file,dbx/p-TracePlugin-h0.msgpack," dsub.csv &&
	 ! grep -q "already read" dsub.csv'
tap_plan
