#!/bin/sh
# alloc_failure.sh: running out of memory ends cleanly (issue 16): a message saying how
# much was needed and what to do, exit 1, no abort, no core file. Two ways in:
#   - the fault-injecting build (build/tests/tscope-tui-faulty, model/xalloc.c with
#     TSCOPE_FAULT_INJECT): TSCOPE_FAIL_ALLOC=N fails the Nth allocation, for N over
#     the first 25 and 25 spread over every allocation of a load, for every loader
#     (pytscope from JSONL and from its index, Kineto plain and gzip, GenAI-Perf, NAT,
#     Cerebras, DASF and its legacy text), through --print (load, analyses, report),
#     --export and the headless explorer;
#   - `ulimit -v` too small for a run: the same message and status.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
B="$TSCOPE_ROOT/$TSCOPE_BUILD/tests"
F="$B/tscope-tui-faulty"

# --- one input per loader -------------------------------------------------------
"$B/gen_demo" steps 2 30 >/dev/null
python3 -c '
import json
ev = [{"ph": "X", "cat": "kernel", "name": "k%d" % (i % 7), "ts": i * 10, "dur": 5, "pid": 0, "tid": 7} for i in range(300)]
ev += [{"ph": "X", "cat": "cpu_op", "name": "ProfilerStep#%d" % s, "ts": s * 1000, "dur": 900, "pid": 1, "tid": 1} for s in range(3)]
json.dump({"distributedInfo": {"rank": 0, "world_size": 1}, "traceEvents": ev}, open("small.pt.trace.json", "w"))'
gzip -c small.pt.trace.json >small.pt.trace.json.gz
"$B/gen_sweep" genai 20 4 2 >/dev/null
mkdir -p nat/online/job_1 cb/performance
printf '{"gpu_estimates":{"gpu_estimate_by_wf_runtime":7.5,"gpu_estimate_by_llm_latency":null},"fit_results":{"llm_latency_fit":null,"wf_runtime_fit":{"slope":0.65,"intercept":3.0,"r_squared":0.99,"outliers_removed":[]}},"calc_data":{"1":{"gpu_estimates":{"gpu_estimate_by_wf_runtime":3.2,"gpu_estimate_by_llm_latency":null},"alerts":{"outlier_workflow_runtime":false,"outlier_llm_latency":false,"num_items_greater_than_target_latency":0,"num_items_greater_than_target_runtime":0},"sizing_metrics":{"alerts":{"workflow_interrupted":false},"llm_latency_p95":1.1,"workflow_runtime_p95":4.0,"total_runtime":30.0,"per_item_metrics":{"a":{"llm_latency":1.0,"workflow_runtime":4.0}}}},"2":{"gpu_estimates":{"gpu_estimate_by_wf_runtime":3.7,"gpu_estimate_by_llm_latency":null},"alerts":{"outlier_workflow_runtime":false,"outlier_llm_latency":false,"num_items_greater_than_target_latency":0,"num_items_greater_than_target_runtime":0},"sizing_metrics":{"alerts":{"workflow_interrupted":false},"llm_latency_p95":1.3,"workflow_runtime_p95":4.7,"total_runtime":30.0,"per_item_metrics":{}}}}}\n' >nat/online/job_1/calc_runner_output.json
printf '{"compile_time":12.5,"est_samples_per_sec":0,"ordinals":[{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0},{"samples_per_sec":50.0,"total_samples":1000,"total_time":20.0}],"programming_time":3.0,"samples_per_sec":150.0,"total_samples":2000,"total_time":20.0}\n' >cb/performance/performance.json
"$B/gen_dasf" fixture dasf >/dev/null
"$B/gen_dasf" legacy legacy.txt >/dev/null

# fail_each NAME ARGS...: every chosen N must end with status 1 and the message.
fail_each() {
	name=$1; shift
	total=$(TSCOPE_ALLOC_COUNT=1 "$F" "$@" 2>&1 >/dev/null </dev/null | sed -n 's/^tscope-tui: \([0-9]*\) allocations$/\1/p')
	if [ -z "$total" ] || [ "$total" -lt 2 ]; then
		tap_notok "$name: the faulty build counts allocations ($total)"
		return
	fi
	bad="" n=1
	while [ "$n" -le "$total" ]; do
		(ulimit -c 0; TSCOPE_FAIL_ALLOC=$n exec "$F" "$@" >/dev/null 2>err </dev/null)
		rc=$?
		if [ "$rc" -ne 1 ] || ! grep -q "^tscope-tui: out of memory: [0-9]* bytes" err ||
			! grep -q -- "--ranks LIST loads a subset" err; then
			bad="$bad $n:$rc"
		fi
		if [ "$n" -lt 25 ]; then n=$((n + 1)); else n=$((n + total / 25 + 1)); fi
	done
	tap_check "$name: a failed allocation anywhere in $total ends with the message and exit 1${bad:+ (bad:$bad)}" '[ -z "$bad" ]'
}

fail_each "pytscope --print" --print --jobs 1 steps
fail_each "pytscope --export steps" --export steps --jobs 1 steps
cp -r steps indexed && "$TSCOPE_BIN" index indexed >/dev/null 2>&1
fail_each "pytscope from its index" --print --jobs 1 indexed
fail_each "Kineto plain" --print --jobs 1 small.pt.trace.json
fail_each "Kineto gzip" --print --jobs 1 small.pt.trace.json.gz
fail_each "GenAI-Perf" --print --jobs 1 genai
fail_each "NAT" --print nat --target-users 100 --target-runtime 10 --test-gpus 8
fail_each "Cerebras" --print cb
fail_each "DASF" --print dasf
fail_each "DASF legacy" --print --dasf legacy.txt
LINES=24 COLUMNS=80 TERM=dumb TSCOPE_SCRIPT=/dev/null fail_each "explorer (headless)" --tui --jobs 1 steps

# --- ulimit -v: a run too big for the limit (--export steps --sort holds the table) ---
case $TSCOPE_BUILD in
*asan*) tap_skip "ulimit -v: AddressSanitizer reserves terabytes of address space" ;;
*)
	"$B/gen_demo" big 16 2000 >/dev/null
	(ulimit -v 20000; ulimit -c 0; exec "$TSCOPE_BIN" --export steps --sort step --jobs 1 big >/dev/null 2>err)
	rc=$?
	tap_check "ulimit -v 20000, --export steps --sort step of 16 x 2000 steps: exit 1, no signal" '[ "$rc" -eq 1 ]'
	tap_check "ulimit -v: says how much and what to do" \
		'grep -q "out of memory: [0-9]* bytes" err && grep -q -- "--ranks LIST" err'
	tap_check "ulimit -v: no core file" '[ -z "$(ls | grep "^core")" ]'
	rm -rf big
	;;
esac

tap_plan
