#!/bin/sh
# resize_fit.sh: a resize keeps the Heatmap and the Steps pane fitting the whole run
# when the user did not zoom (headless, TSCOPE_SCRIPT, :resize). The demo (400 steps)
# opened at 120x40 then resized to 80x24 draws what it draws opened at 80x24 (it kept 4
# steps a column, its axis stopping at 240 with steps past ~290 hidden); widened to 240
# then narrowed back, what it draws opened at 120x40. A zoom of the user's (+) is kept
# through a resize, and clamped: never coarser than the fit of the new width (at 240
# columns, zoomed to 2 steps a column, the fit is 2: the whole run, and the zoom ends).
# Zooming out (-) after zooming in (+) comes back to the whole run, whatever the fit.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
# shot NAME ROWS COLS KEYS: the explorer at ROWS x COLS runs KEYS (one a line), then
# dumps its screen to NAME
shot() {
	printf '%s\n:dump %s/%s\nq\n' "$4" "$PWD" "$1" >"$1.keys"
	LINES=$2 COLUMNS=$3 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$PWD/$1.keys" "$TSCOPE_BIN" --tui --no-index \
		"$demo" >/dev/null 2>"$1.err" || tap_notok "$1: the explorer failed"
}
note() { grep -o '[0-9]* steps/col' "$1"; }   # the heatmap's note: steps a column

shot hm_fresh80 24 80 '2'
shot hm_fresh120 40 120 '2'
shot hm_shrunk 40 120 "$(printf '2\n:resize 24 80')"
shot hm_back 40 120 "$(printf '2\n:resize 40 240\n:resize 40 120')"
tap_check "heatmap at 120x40 resized to 80x24: as opened at 80x24 (6 steps/col, the whole run)" \
	'[ "$(note hm_fresh80)" = "6 steps/col" ] && cmp -s hm_shrunk hm_fresh80'
tap_check "heatmap widened to 240 then back to 120: as opened at 120x40 (4 steps/col)" \
	'[ "$(note hm_fresh120)" = "4 steps/col" ] && cmp -s hm_back hm_fresh120'

shot hm_zoom 40 120 "$(printf '2\n+\n:resize 24 80')"
tap_check "heatmap zoomed in (+: 2 steps/col) then resized to 80x24: the zoom is kept" \
	'[ "$(note hm_zoom)" = "2 steps/col" ]'
shot hm_clamp 40 120 "$(printf '2\n+\n:resize 40 240\n:resize 40 120')"
tap_check "... widened to where 2 steps/col is the fit, then back: the zoom ended, the fit (4 steps/col)" \
	'[ "$(note hm_clamp)" = "4 steps/col" ]'

# - undoes +: at 100 columns the fit is 5 steps a column, + gives 2 and - the fit again
# (not 4, which left the last steps off screen); at 160 columns 3, 1, 3; after + + - -
# too. The screen is the one the heatmap opened with.
for c in 100 160; do
	shot hm_fit$c 40 $c '2'
	shot hm_inout$c 40 $c "$(printf '2\n+\n-')"
	shot hm_inout2_$c 40 $c "$(printf '2\n+\n+\n-\n-')"
done
tap_check "heatmap at 100 columns, + then -: back to the whole run (5 steps/col), as opened" \
	'[ "$(note hm_fit100)" = "5 steps/col" ] && cmp -s hm_inout100 hm_fit100 && cmp -s hm_inout2_100 hm_fit100'
tap_check "heatmap at 160 columns, + then -: back to the whole run (3 steps/col), as opened" \
	'[ "$(note hm_fit160)" = "3 steps/col" ] && cmp -s hm_inout160 hm_fit160 && cmp -s hm_inout2_160 hm_fit160'

# the same ladder in Steps: at 90 columns + then - came back at 6 records a column, not the
# fit's 7 (the last records off screen)
shot st_fit90 40 90 '4'
shot st_inout90 40 90 "$(printf '4\n+\n-')"
shot st_inout2_90 40 90 "$(printf '4\n+\n+\n-\n-')"
tap_check "Steps at 90 columns, + then - (and + + - -): back to the whole run, as opened" \
	'cmp -s st_inout90 st_fit90 && cmp -s st_inout2_90 st_fit90'

shot st_fresh80 24 80 '4'
shot st_fresh120 40 120 '4'
shot st_shrunk 40 120 "$(printf '4\n:resize 24 80')"
shot st_back 40 120 "$(printf '4\n:resize 40 240\n:resize 40 120')"
tap_check "Steps at 120x40 resized to 80x24: as opened at 80x24 (its axis reaches 288)" \
	'grep -q "▶ .* 288" st_fresh80 && cmp -s st_shrunk st_fresh80'
tap_check "Steps widened to 240 then back to 120: as opened at 120x40" 'cmp -s st_back st_fresh120'
shot st_zoom 40 120 "$(printf '4\n+\n:resize 24 80')"
tap_check "Steps zoomed in (+) then resized to 80x24: the zoom is kept (the axis stops short of 288)" \
	'grep -q "▶" st_zoom && ! grep -q "▶ .* 288" st_zoom && ! cmp -s st_zoom st_fresh80'
tap_plan
