#!/bin/sh
# heatmap_cells.sh: the heatmap's cells are a model view (grid_cells_table): `--export
# heatmap_cells` (every rank, 100 cells across) and `e` on the heatmap pane (the cells
# on screen) write the same columns from the same code.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
DEMO="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1
"$TSCOPE_BIN" --export heatmap_cells "$DEMO" >cells.csv
tap_rc $? "--export heatmap_cells exits 0"
tap_check "header: row/col labels, metric, worst, mean" \
	'[ "$(head -1 cells.csv)" = "row_first,row_last,col_first,col_last,metric,worst,mean" ]'
tap_check "16 ranks x 100 cells" '[ "$(tail -n +2 cells.csv | wc -l)" -eq 1600 ]'
printf '2\ne<C-u>%s<Enter>\n:dump %s\nq\n' "$PWD/shown.csv" "$PWD/screen.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=24 COLUMNS=80 "$TSCOPE_BIN" --tui "$DEMO" >/dev/null 2>err
tap_check "e on the heatmap writes the cells shown, same columns" \
	'[ -s shown.csv ] && [ "$(head -1 shown.csv)" = "$(head -1 cells.csv)" ]'
tap_plan
