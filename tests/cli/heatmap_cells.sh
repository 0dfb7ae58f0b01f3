#!/bin/sh
# heatmap_cells.sh: the heatmap's cells are a model view (grid_cells_table): `--export
# heatmap_cells` (every rank, 100 cells across) and `e` on the heatmap pane (the cells
# on screen) write the same columns from the same code. Rank ids and steps are numbers
# (sorted and filtered as numbers), names stay text; worst/mean name the grid's unit.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
DEMO="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
"$TSCOPE_BIN" --export heatmap_cells "$DEMO" >cells.csv
tap_rc $? "--export heatmap_cells exits 0"
tap_check "header: row/col labels, metric, worst and mean in the grid's unit (seconds)" \
	'[ "$(head -1 cells.csv)" = "row_first,row_last,col_first,col_last,metric,worst_s,mean_s" ]'
tap_check "16 ranks x 100 cells" '[ "$(tail -n +2 cells.csv | wc -l)" -eq 1600 ]'
# rank ids and steps are numbers: --filter and --sort compare them as numbers
"$TSCOPE_BIN" --export heatmap_cells --filter 'col_first>=396' "$DEMO" | tail -n +2 | cut -d, -f3 | sort -u >ge
tap_check "col_first>=396 is numeric (only the cell from step 396)" '[ "$(cat ge)" = 396 ]'
"$TSCOPE_BIN" --export heatmap_cells --sort -row_first "$DEMO" | sed -n 2p | cut -d, -f1 >top
tap_check "--sort -row_first: rank 15 first (not 9)" '[ "$(cat top)" = 15 ]'
# negative steps: numbers, not text behind a formula guard
mkdir -p neg/rank0
i=-3
while [ "$i" -lt 3 ]; do
	printf '{"step": %d, "phases": {"forward": 0.1, "backward": 0.2}}\n' "$i"
	i=$((i + 1))
done >neg/rank0/steps.jsonl
"$TSCOPE_BIN" --no-index --export heatmap_cells neg 2>/dev/null | sed -n 2p | cut -d, -f3 >negc
tap_check "a negative step is written as a number (-3, not '-3)" '[ "$(cat negc)" = -3 ]'
# DASF workers are names: the row labels stay text there
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf" fixture dasf >/dev/null
"$TSCOPE_BIN" --export heatmap_cells dasf >dcells.csv 2>/dev/null
tap_check "DASF: worker names as text, seconds as numbers, worst/mean in tasks" \
	'sed -n 2p dcells.csv | grep -q "^worker-[^,]*,worker-[^,]*,0,0," &&
	 head -1 dcells.csv | grep -q ",worst_tasks,mean_tasks$" &&
	 "$TSCOPE_BIN" --export heatmap_cells --filter "col_first>=1 col_first<2" dasf | tail -n +2 | cut -d, -f3 |
		sort -u | grep -qx 1'
printf '2\ne<C-u>%s<Enter>\n:dump %s\nq\n' "$PWD/shown.csv" "$PWD/screen.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=80 "$TSCOPE_BIN" --tui "$DEMO" >/dev/null 2>err
tap_check "e on the heatmap writes the cells shown, same columns" \
	'[ -s shown.csv ] && [ "$(head -1 shown.csv)" = "$(head -1 cells.csv)" ]'
tap_plan
