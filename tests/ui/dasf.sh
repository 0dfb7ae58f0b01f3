#!/bin/sh
# dasf.sh: the explorer on the DASF fixture, headless (TSCOPE_SCRIPT): the Heatmap tab
# shows task balance (workers x seconds), Enter on a function in function_bottleneck
# lists its tasks on that row's worker (Function, Host and Worker exactly), Esc returns, and a
# worker-imbalance finding opens its row of the Heatmap tab (no second tab of that grid);
# each DASF function finding about a name the sanitizer rewrites (U+200B, ESC, tab,
# invalid UTF-8) opens the function_bottleneck row that holds it, never an empty table,
# and the worker finding that worker's tasks; a
# finding's evidence is exact: 'predict' is not 'predict_proba', a worker without Managed
# Memory events opens its tasks (its fix names no task_balance), names that differ by a
# per-call token open their group's tasks, functions tied for most idle GPU samples every
# function's row;
# on a database of Managed Memory events alone, v lists task_balance and no task view;
# task_graph of a database with a dependency cycle shows Critical missing, the legend why.
set -u
BIN=${TSCOPE_BIN:?}
BUILD=${TSCOPE_BUILD:-build}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"

FX="$TMP/fx"
"$BUILD/tests/gen_dasf" fixture "$FX" >/dev/null || { tap_notok "gen_dasf"; tap_plan; exit 0; }
cat >"$TMP/keys" <<EOF
:dump $TMP/heat.txt
:view function_bottleneck
:dump $TMP/fb.txt
j<Enter>
:dump $TMP/tasks.txt
<Esc>
:dump $TMP/back.txt
:pane Overview
:dump $TMP/overview.txt
q
EOF
TSCOPE_SCRIPT="$TMP/keys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$FX" >/dev/null 2>"$TMP/err"
tap_rc $? "headless session on the DASF fixture exits 0"
grep -q 'worker-hA-0' "$TMP/heat.txt" && grep -q 'worker-hB-0' "$TMP/heat.txt"
tap_rc $? "Heatmap tab: task balance rows are the workers"
grep -q 'tasks in memory' "$TMP/heat.txt"; tap_rc $? "Heatmap tab: titled task balance"
grep -q 'Function' "$TMP/fb.txt" && grep -q 'proc' "$TMP/fb.txt"; tap_rc $? ":view function_bottleneck shows the table"
grep -q 'load-1' "$TMP/tasks.txt" && grep -q 'load-2' "$TMP/tasks.txt" &&
	grep -q "filter 'Function=load Host=hA Worker=worker-hA-0'" "$TMP/tasks.txt"
tap_rc $? "Enter on function 'load' of worker-hA-0 (row 2) lists its two tasks there (Function, Host, Worker exactly)"
if grep -q 'proc-1\|load-3' "$TMP/tasks.txt"; then tap_notok "the task list holds only that row's function and worker"
else tap_ok "the task list holds only that row's function and worker"; fi
grep -q 'Percentage' "$TMP/back.txt"; tap_rc $? "Esc returns to function_bottleneck"
grep -q 'DASF tasks *7 tasks, 3 functions, 3 workers on 2 hosts' "$TMP/overview.txt" &&
	grep -q 'critical path *7 s over 3 tasks' "$TMP/overview.txt"
tap_rc $? "Overview: DASF summary and critical path"

# Findings: a worker-imbalance finding opens the worker's row in the task balance heatmap.
"$BUILD/tests/gen_dasf" skew "$TMP/skew.msgpack" >/dev/null
cat >"$TMP/keys2" <<EOF
:view findings
:filter id=DASF.WORKER_IMBALANCE
:dump $TMP/findings.txt
<Enter>
:dump $TMP/worker.txt
q
EOF
TSCOPE_SCRIPT="$TMP/keys2" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$TMP/skew.msgpack" >/dev/null 2>&1
grep -q 'DASF.WORKER_IMBALANCE' "$TMP/findings.txt"; tap_rc $? "findings pane lists DASF.WORKER_IMBALANCE"
grep -q 'task balance' "$TMP/worker.txt" && grep -q 'worker worker-x-0' "$TMP/worker.txt" &&
	! head -n 1 "$TMP/worker.txt" | grep -q 'Task balance'
tap_rc $? "Enter on it opens the task balance heatmap, 2 Heatmap (no second tab of it), on worker-x-0"
# ... on its row however far down (worker-x-0 the third, after two workers of Managed Memory events alone),
# its findings row naming no rank (a DASF run has none: the row number is not one)
mkdir "$TMP/mix" && "$BUILD/tests/gen_dasf" verdicts "$TMP/vd" >/dev/null && cp "$TMP/vd/memonly.msgpack" "$TMP/mix/" &&
	cp "$TMP/skew.msgpack" "$TMP/mix/" || tap_notok "gen_dasf verdicts"
printf ':view findings\n:filter id=DASF.WORKER_IMBALANCE\n<Enter>\n:dump %s\nq\n' "$TMP/mix.txt" >"$TMP/keys_mix"
TSCOPE_SCRIPT="$TMP/keys_mix" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$TMP/mix" >/dev/null 2>&1
grep -q '^ worker worker-x-0  second ' "$TMP/mix.txt" &&
	[ "$("$BIN" --export findings "$TMP/mix" 2>/dev/null | grep ',DASF.WORKER_IMBALANCE,' | cut -d, -f4)" = "" ]
tap_rc $? "Enter on it opens worker-x-0's row (the third), the findings rank empty"
# Enter on a function whose name holds glob characters and a space lists exactly its tasks.
"$BUILD/tests/gen_dasf" names "$TMP/names.msgpack"
cat >"$TMP/keys3" <<EOF
:view function_bottleneck
j<Enter>
:dump $TMP/names.txt
q
EOF
TSCOPE_SCRIPT="$TMP/keys3" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$TMP/names.msgpack" >/dev/null 2>&1
grep -q 'k1 *a b\[1\]\*' "$TMP/names.txt" && grep -q 'k2 *a b\[1\]\*' "$TMP/names.txt" &&
	! grep -q 'k3 ' "$TMP/names.txt"
tap_rc $? "Enter on 'a b[1]*' lists k1 and k2, not k3 of 'a bX1]'"

# Names the sanitizer rewrites: each function finding's Enter finds its function_bottleneck
# row; the worker's (no Managed Memory event) its tasks.
"$BUILD/tests/gen_dasf" hostile "$TMP/hostile" || tap_notok "gen_dasf hostile"
finding_dump() { # ID DIR OUT: Enter on finding ID of the run in DIR, the screen into OUT
	printf ':view findings\n:filter id=DASF.%s\n<Enter>\n:dump %s\nq\n' "$1" "$3" >"$TMP/hkeys"
	TSCOPE_SCRIPT="$TMP/hkeys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$2" >/dev/null 2>&1
}
for id in FUNCTION_DOMINATES GPU_IDLE; do
	finding_dump $id "$TMP/hostile" "$TMP/hostile_$id.txt"
	grep -q '^.h  *w^\[\[2J^I.* big<U+200B>x  *9 s' "$TMP/hostile_$id.txt" &&
		grep -q 'function_bottleneck  row 1/1 (of 2)' "$TMP/hostile_$id.txt"
	tap_rc $? "DASF.$id about a name the sanitizer rewrites opens its function_bottleneck row"
done
finding_dump WORKER_IMBALANCE "$TMP/hostile" "$TMP/hostile_w.txt"
grep -q "tasks  row 1/3 (of 4) .* filter 'Worker=w^\[\[2J^I.* Host=h'" "$TMP/hostile_w.txt"
tap_rc $? "DASF.WORKER_IMBALANCE about a worker the sanitizer rewrites opens its 3 tasks (Worker and Host exactly)"

# Exact evidence: 'predict' is not 'predict_proba'; a worker without Managed Memory events
# opens its tasks (the fix names no task_balance, which the run lacks); names that differ by a
# per-call token open the tasks of their group, not those of unc_fit_x.
python3 - "$TMP" <<'EOF' || tap_notok "databases written"
import os, struct, sys
def pack(o):
    if isinstance(o, float): return b'\xcb' + struct.pack('>d', o)
    if isinstance(o, int): return b'\xd3' + struct.pack('>q', o)
    if isinstance(o, str): return b'\xd9' + bytes([len(o.encode())]) + o.encode()
    return bytes([0x80 | len(o)]) + b''.join(pack(k) + pack(v) for k, v in o.items())
def compute(key, fn, ts, dur, thread):
    b = pack({'name': 'Compute', 'timestamp': ts, 'duration': dur, 'phase': 'X', 'process_id': 'h',
              'thread_id': thread, 'args': {'key': key, 'name': fn, 'size': 1000}})
    return struct.pack('>Q', len(b)) + b
def write(name, recs):
    open(os.path.join(sys.argv[1], name), 'wb').write(b''.join(recs))
write('exact.msgpack', [compute('p-%d' % i, 'predict', 10.0 + 5 * i, 5.0, 'worker-h-1') for i in range(4)] +
      [compute('q-%d' % i, 'predict_proba', 10.0, 1.0, 'worker-h-%d' % (2 * i)) for i in range(2)])
write('token.msgpack', [compute('u-%d' % i, 'unc_fit-%da2b3c4d-%d' % (i, i), 10.0 + 5 * i, 5.0, 'worker-h-0')
                        for i in range(3)] + [compute('x-0', 'unc_fit_x', 30.0, 1.0, 'worker-h-0')])
def sample(ts):
    b = pack({'name': 'Resource Usage', 'timestamp': ts, 'phase': 'I', 'process_id': 'h',
              'args': {'gpu_utilization': 2, 'gpu_memory_used': 1000}})
    return struct.pack('>Q', len(b)) + b
write('idletie.msgpack', [compute('p-0', 'p', 10.0, 3.0, 'worker-h-0'), compute('q-0', 'q', 20.0, 3.0, 'worker-h-1'),
                          compute('r-0', 'r', 30.0, 3.0, 'worker-h-1')] +
      [sample(t) for t in (10.5, 11.5, 12.5, 20.5, 21.5, 22.5, 30.5)])
EOF
finding_dump FUNCTION_DOMINATES "$TMP/exact.msgpack" "$TMP/exact_fn.txt"
grep -q "function_bottleneck  row 1/1 (of 3) .* filter 'Function=predict'" "$TMP/exact_fn.txt" &&
	! grep -q 'predict_proba' "$TMP/exact_fn.txt"
tap_rc $? "Enter on 'Function predict takes 91%': its function_bottleneck row, not predict_proba's"
finding_dump WORKER_IMBALANCE "$TMP/exact.msgpack" "$TMP/exact_w.txt"
grep -q "tasks  row 1/4 (of 6) .* filter 'Worker=worker-h-1 Host=h'" "$TMP/exact_w.txt"
tap_rc $? "Enter on a worker imbalance without Managed Memory events: the worker's 4 tasks"
"$BIN" --print --no-index --color never "$TMP/exact.msgpack" >"$TMP/exact.txt" 2>/dev/null
grep -A2 'Worker imbalance: worker-h-1' "$TMP/exact.txt" >"$TMP/exact_fix.txt"
grep -q -- '-> Spread the work' "$TMP/exact_fix.txt" && ! grep -qi 'task.balance' "$TMP/exact_fix.txt"
tap_rc $? "its fix names no task_balance (the run has no Managed Memory event)"
finding_dump FUNCTION_DOMINATES "$TMP/token.msgpack" "$TMP/token.txt"
grep -q "tasks  row 1/3 (of 4) .* filter 'Function group=unc_fit'" "$TMP/token.txt" &&
	! grep -q 'unc_fit_x' "$TMP/token.txt"
tap_rc $? "Enter on 'Function unc_fit-* takes 94%': the group's 3 tasks, not unc_fit_x's"
finding_dump GPU_IDLE "$TMP/idletie.msgpack" "$TMP/idletie.txt"
grep -q 'function_bottleneck  row 1/3 ' "$TMP/idletie.txt" && ! grep -q "filter '" "$TMP/idletie.txt" &&
	grep -q '^.h  *0  *p ' "$TMP/idletie.txt" && grep -q '^.h  *1  *q ' "$TMP/idletie.txt"
tap_rc $? "Enter on GPU idleness with p and q tied (3 idle samples each): every function's row, not p's alone"

# Managed Memory events alone: the v list offers what builds (task_balance), no task view
"$BUILD/tests/gen_dasf" verdicts "$TMP/v" >/dev/null
printf ':resize 40 100\nv\n:dump %s\n<Esc>:quit\n' "$TMP/v_mem.txt" >"$TMP/vkeys"
TSCOPE_SCRIPT="$TMP/vkeys" TERM=dumb LINES=40 COLUMNS=100 "$BIN" --tui "$TMP/v/memonly.msgpack" >/dev/null 2>&1
rows() { sed -n '/Views with data/,$p' "$TMP/v_mem.txt" | awk '{ print $1 }' | grep -x "$1"; }
rows task_balance >/dev/null &&
	! rows 'function_bottleneck\|task_bottleneck\|task_graph\|critical_path\|tasks' >/dev/null
tap_rc $? "v on a memory-only database: task_balance; no function or task view"

# A dependency cycle: task_graph's Critical cells are missing (-) and the legend's title says why
printf ':view task_graph\n:dump %s\ni\n:dump %s\nq\n' "$TMP/tg_cycle.txt" "$TMP/tg_legend.txt" >"$TMP/tgkeys"
TSCOPE_SCRIPT="$TMP/tgkeys" TERM=dumb LINES=40 COLUMNS=160 "$BIN" --tui "$TMP/v/cycle.msgpack" >/dev/null 2>&1
[ "$(sed -n '3,7p' "$TMP/tg_cycle.txt" | awk '{ print $NF }' | paste -sd' ' -)" = "- - - - -" ] &&
	grep -q "Critical not judged, no critical path: the task graph has a" "$TMP/tg_legend.txt"
tap_rc $? "task_graph without a critical path: Critical missing (-), the legend says why"
tap_plan
