#!/bin/sh
# dasf.sh: the explorer on the DASF fixture, headless (TSCOPE_SCRIPT): the Heatmap tab
# shows task balance (workers x seconds), Enter on a function in function_bottleneck
# lists its tasks, Esc returns, and a worker-imbalance finding opens its row of the heatmap;
# each DASF finding about a name the sanitizer rewrites (U+200B, ESC, tab, invalid UTF-8)
# opens the function_bottleneck row that holds it, never an empty table;
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
grep -q 'load-1' "$TMP/tasks.txt" && grep -q 'load-2' "$TMP/tasks.txt" && grep -q 'load-3' "$TMP/tasks.txt"
tap_rc $? "Enter on function 'load' (row 2) lists its three tasks"
if grep -q 'proc-1' "$TMP/tasks.txt"; then tap_notok "the task list holds only that function"; else tap_ok "the task list holds only that function"; fi
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
grep -q 'Task balan' "$TMP/worker.txt" && grep -q 'worker worker-x-0' "$TMP/worker.txt"
tap_rc $? "Enter on it opens the task balance heatmap on worker-x-0"
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

# Names the sanitizer rewrites: each finding's Enter finds its function_bottleneck row.
"$BUILD/tests/gen_dasf" hostile "$TMP/hostile" || tap_notok "gen_dasf hostile"
for id in FUNCTION_DOMINATES WORKER_IMBALANCE GPU_IDLE; do
	printf ':view findings\n:filter id=DASF.%s\n<Enter>\n:dump %s\nq\n' $id "$TMP/hostile_$id.txt" >"$TMP/hkeys"
	TSCOPE_SCRIPT="$TMP/hkeys" TERM=dumb LINES=24 COLUMNS=100 "$BIN" --tui "$TMP/hostile" >/dev/null 2>&1
	grep -q '^.h  *w^\[\[2J^I.* big<U+200B>x  *9 s' "$TMP/hostile_$id.txt" &&
		grep -q 'function_bottleneck  row 1/1 (of 2)' "$TMP/hostile_$id.txt"
	tap_rc $? "DASF.$id about a name the sanitizer rewrites opens its function_bottleneck row"
done

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
