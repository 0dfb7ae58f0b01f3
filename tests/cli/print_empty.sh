#!/bin/sh
# print_empty.sh: a PATH that yields nothing says why on stderr (the first diagnostics,
# then pytscope's message) and exits 1 (naming --format or --ranks when they kept the
# loaders from what is there, and what the PATH holds instead), and a finished run without step logs says they
# are missing (each log counted as missing, empty or unreadable with the reason, as the
# refusal of --export ranks/steps says it); non-pytscope formats get tscope-tui's header. Rank 0 without records
# beside a rank with them is a report, not "nothing found" (--compat pytscope: pytscope's
# exit 1, as it reads the lowest rank).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

"$TSCOPE_BIN" --print ./no-such-dir >out 2>err
rc=$?
tap_check "missing path: exit 1" '[ "$rc" -eq 1 ]'
tap_check "missing path: stdout empty" '[ ! -s out ]'
tap_check "missing path: the reason comes first" 'head -1 err | grep -q "no-such-dir: cannot open: No such file or directory"'
tap_check "missing path: pytscope message" 'grep -qx "No steps or trace found in '"'"'./no-such-dir'"'"'." err'

mkdir -p empty
"$TSCOPE_BIN" --print empty >out 2>err
rc=$?
tap_check "empty dir: exit 1" '[ "$rc" -eq 1 ]'
tap_check "empty dir: says nothing supported was found" 'grep -q "empty: no supported data found here" err'

# --format or --ranks kept the loaders from what is there: the reason names the option,
# what the PATH holds instead when a loader (or the runs below it) says, never "no
# supported data found here"
tools="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
mkdir -p fmt && "$tools/gen_demo" fmt/run 2 10 >/dev/null && "$tools/gen_demo" fmt/run2 2 10 >/dev/null &&
	"$tools/gen_trace" t.json 1 >/dev/null || tap_notok "--format fixtures generated"
# why_is PATH LINE OPTION...: --print with the options exits 1 and says LINE about PATH, first
why_is() {
	p=$1 line=$2
	shift 2
	"$TSCOPE_BIN" --print --no-index "$@" "$p" >out 2>err
	[ $? -eq 1 ] && [ ! -s out ] && head -1 err | grep -qxF "tscope-tui: $p: $line" &&
		! grep -q "no supported data" err
}
held="no data of --format dasf here: it holds pytscope data (--format pytscope, or no --format)"
tap_check "--format dasf on a pytscope run: what it holds and the --format that reads it" \
	'why_is fmt/run "$held" --format dasf'
tap_check "... --dasf the same" 'why_is fmt/run "$held" --dasf'
tap_check "--format pytscope on a trace: a kineto trace, not \"no steps or trace\" alone" \
	'why_is t.json "no data of --format pytscope here: it holds kineto data (--format kineto, or no --format)" \
	 --format pytscope'
below="no data of --format dasf here: it holds 2 runs below it of another format (pytscope): drop --format"
tap_check "--format dasf on a folder of pytscope runs: the runs below it" 'why_is fmt "$below" --format dasf'
tap_check "--format dasf on an empty dir: no other format either" \
	'why_is empty "no data of --format dasf here, nor of another format" --format dasf'
"$TSCOPE_BIN" --export sources --format dasf fmt/run >out 2>err
tap_check "... --export sources says it too" \
	'[ $? -eq 1 ] && grep -q "^tscope-tui: fmt/run: no data of --format dasf here: it holds pytscope data" err'
"$TSCOPE_BIN" --print --no-index --ranks 1 t.json >out 2>err
tap_check "--ranks 1 on a trace of rank 0: left out, then no data of a rank it names (not \"no supported data\")" \
	'[ $? -eq 1 ] && grep -q "^tscope-tui: t.json: 1 trace left out: not of a rank --ranks 1 names" err &&
	 grep -qx "tscope-tui: t.json: no data here of a rank --ranks 1 names" err && ! grep -q "no supported data" err'

# run.json of a finished run (n_steps, written at finish()) without a step log: a
# warning per rank, and the default report says the step logs are missing (--compat
# keeps pytscope's one line); a run.json without n_steps (a run still going) is no warning
mkdir -p fin/rank0 fin/rank1 live/rank0
for r in 0 1; do
	printf '{"name": "ddp", "rank": %d, "world_size": 2, "wall_time": 1.09, "n_steps": 205}' $r >fin/rank$r/run.json
done
printf '{"name": "ddp", "rank": 0, "world_size": 1}' >live/rank0/run.json
"$TSCOPE_BIN" --print fin >out 2>err
rc=$?
tap_check "finished run without step logs: exit 1, pytscope's line, then what is missing" \
	'[ "$rc" -eq 1 ] && grep -qx "No steps or trace found in '"'"'fin'"'"'." err &&
	 grep -qx "The run finished 205 steps (run.json n_steps, 2 ranks), but no step record is here: 2 step logs \
are missing (see --export sources)." err'
"$TSCOPE_BIN" --print --compat pytscope fin >out 2>err
tap_check "... --compat pytscope: pytscope's line alone" '! grep -q "The run finished" err'
"$TSCOPE_BIN" --export sources fin >src.csv 2>/dev/null
tap_check "... a warning per rank, not \"no steps recorded\"" \
	'[ "$(grep -c "^warning,fin/rank[01]/steps.jsonl,,[01],,,,,\"no step record, though run.json records n_steps 205" src.csv)" -eq 2 ] &&
	 ! grep -q "no steps recorded" src.csv'
"$TSCOPE_BIN" --export sources live >src.csv 2>/dev/null
"$TSCOPE_BIN" --print live >out 2>err
tap_check "run.json without n_steps (a run still going): no warning, nothing said of a missing log" \
	'! grep -q "^warning" src.csv && ! grep -q "The run finished" err'

"$TSCOPE_BIN" --export ranks fin >out 2>err
tap_check "finished run without step logs: --export ranks refused, the logs named missing, not empty" \
	'[ $? -eq 1 ] && [ ! -s out ] &&
	 grep -q "not available for this run: no step records in this run: 2 step logs are missing$" err'
# what each log is, counted: one empty, one missing; a FIFO no writer opens: its reason
mkdir -p fin1/rank0 fin1/rank1 fifo/rank0
cp fin/rank0/run.json fin1/rank0/ && cp fin/rank1/run.json fin1/rank1/ && : >fin1/rank1/steps.jsonl
cp fin/rank0/run.json fifo/rank0/ && mkfifo fifo/rank0/steps.jsonl || exit 1
why="1 step log is missing; 1 step log is empty"
"$TSCOPE_BIN" --print fin1 >out 2>err
"$TSCOPE_BIN" --export steps fin1 >out 2>err2
tap_check "a missing and an empty log: each said, in --print and --export" \
	'grep -q "no step record is here: $why (see --export sources)\.$" err &&
	 grep -q "no step records in this run: $why$" err2'
why="the step log cannot be read: a FIFO with no writer within 0.2 s (TSCOPE_FIFO_WAIT sets the wait)"
TSCOPE_FIFO_WAIT=0.2 timeout 20 "$TSCOPE_BIN" --print fifo >out 2>err
TSCOPE_FIFO_WAIT=0.2 timeout 20 "$TSCOPE_BIN" --export ranks fifo >out 2>err2
tap_check "a FIFO step log with no writer: its reason, not a broken pipe nor an empty log" \
	'grep -qF "no step record is here: $why (see --export sources)." err && ! grep -q "Broken pipe" err &&
	 grep -qF "no step records in this run: $why" err2'

real="$TSCOPE_ROOT/../shared/real/genai-perf-medium"
if [ -d "$real" ]; then
	"$TSCOPE_BIN" --print "$real" >out 2>err
	tap_check "GenAI-Perf run: tscope-tui header, not pytscope's" 'head -1 out | grep -q "^tscope-tui — genai-perf-medium  ("'
else
	tap_skip "../shared/real/genai-perf-medium is absent"
fi

# rank 0's steps.jsonl empty, rank 1 with records
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
"$gen" r0e 2 30 >/dev/null && : >r0e/rank0/steps.jsonl
"$TSCOPE_BIN" --print --no-index --color never r0e >r0.out 2>r0.err
rc=$?
tap_check "rank 0 without records, rank 1 with: the report, exit 0, TIMING says rank 0 has none" \
	'[ "$rc" -eq 0 ] && ! grep -q "No steps or trace found" r0.err &&
	 grep -qx "● TIMING (rank 0) — n/a: rank 0, the rank this section reads, has no step record" r0.out'
tap_check "... coverage names the rank present without a step record (never all ranks, good)" \
	'grep -qx "  coverage         2 of 2 ranks (world_size); rank 0 has no step record" r0.out'
"$TSCOPE_BIN" --print --no-index --compat pytscope r0e >r0c.out 2>r0c.err
rc=$?
tap_check "... --compat pytscope: pytscope's No steps or trace found, exit 1" \
	'[ "$rc" -eq 1 ] && [ ! -s r0c.out ] && grep -qx "No steps or trace found in .r0e.." r0c.err'
tap_plan
