#!/bin/sh
# copy_tmux.sh: y copies the selected cell and Y the selected row, tab-separated, in full
# precision (OSC 52 into tmux's buffer), in every pane, never the rounded status row: the
# heatmap's Y is the row under the cursor (a line naming the metric and each bucket's
# steps, then the rank and each bucket's worst); Steps' y the step time and Y the record,
# Budget's y the useful fraction and Y the rank's budget row, as --export writes them; the
# Overview's y the selected finding's title and Y its findings row; the Sweep's y the
# point's value and Y the point (stimulus, value, ranking, pass, notes); y on a missing
# cell (Ranks' onset_step) says the value is missing and copies nothing. A cell longer
# than 1023 bytes is copied whole; one longer than the copy buffer (16 KiB) is cut after
# a whole UTF-8 character, and the message says so.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/copy.$$"
mkdir -p "$work" && cd "$work" || exit 1
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_sweep" sweep 40 4 3 >/dev/null ||
	{ tap_notok "sweep generated"; exit 1; }
demo="$TSCOPE_ROOT/testdata/demo"
"$TSCOPE_BIN" --no-index --export budget "$demo" | grep "^rank,11," | tr , '\t' >budget11
"$TSCOPE_BIN" --no-index --export steps "$demo" | grep "^11,0," | tr , '\t' >steps11
tmux_start copy 120 30 "$work"
T set -g set-clipboard on
buf() { T show-buffer 2>/dev/null; }
# copy KEY: press KEY (y or Y) once the buffer is cleared, and wait for the copy
copy() {
	T delete-buffer 2>/dev/null
	T send-keys -t copy "$1"
	wait_for "copied" >/dev/null && wait_until 'buf | grep -q .'
}
full='[0-9]+\.[0-9]{6,}'
T send-keys -t copy "'$TSCOPE_BIN' --tui --no-index '$demo'" Enter
wait_for "compute worst" >/dev/null
T send-keys -t copy n
wait_for "straggler 1/1" >/dev/null
copy Y
tap_check "heatmap Y: the metric and each bucket's steps, then rank 11 and each bucket's worst" \
	'buf | sed -n 1p | grep -qE "^rank \(compute worst, s\)	0-[0-9]+	" &&
	 buf | sed -n 2p | grep -qE "^11	$full	$full	" && [ "$(buf | wc -l)" -eq 1 ]'
copy y
tap_check "heatmap y: the cell alone" \
	'buf | grep -qE "^11	180-[0-9]+	compute	$full	$full	s$"'
T send-keys -t copy 4
wait_for "rank 11 step 0 " >/dev/null
copy y
tap_check "Steps y: the step time in full precision (ms, as --export steps)" 'buf | grep -qE "^[0-9]+\.[0-9]{4,}$"'
copy Y
tap_check "Steps Y: the record, the same as --export steps" '[ "$(buf)" = "$(cat steps11)" ]'
T send-keys -t copy 5
wait_for "rank 11  rank wall" >/dev/null
copy y
tap_check "Budget y: the useful fraction in full precision" 'buf | grep -qE "^0\.[0-9]{10,}$"'
copy Y
tap_check "Budget Y: the rank's row, the same as --export budget" '[ "$(buf)" = "$(cat budget11)" ]'
T send-keys -t copy 1
wait_for "finding 1/" >/dev/null
copy y
tap_check "Overview y: the selected finding's title" 'buf | grep -q "^Correlated instability at step 300$"'
copy Y
tap_check "Overview Y: the finding's row (severity, id, title, ...)" \
	'buf | grep -q "^high	CROSS.CORRELATED_INSTABILITY	Correlated instability at step 300	"'
T send-keys -t copy 3 g l l l l l l l l
wait_for "onset_step=-" >/dev/null
T send-keys -t copy y
tap_check "Ranks y on a missing cell (onset_step -) says its value is missing, not that nothing is selected" \
	'wait_for "the selected cell'"'"'s value is missing: nothing copied"'
T send-keys -t copy Q
wait_gone "compute worst" >/dev/null
T send-keys -t copy "'$TSCOPE_BIN' --tui --no-index sweep" Enter
wait_for "Overview" >/dev/null
T send-keys -t copy 8
wait_for "concurrency=1" >/dev/null
copy y
tap_check "Sweep y: the point's value in full precision" 'buf | grep -qE "^$full$"'
copy Y
tap_check "Sweep Y: stimulus, value, ranking and pass (none: empty), notes" \
	'buf | grep -qE "^1	$full			low confidence \(40 requests\)$"'
T send-keys -t copy Q
wait_gone "concurrency=1" >/dev/null

# Long cells: rank 0's host name is 2400 bytes (800 CJK characters), rank 1's 18001 ("x",
# then 6000 of them), in the Ranks table's last column (node).
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair" hosts 2 40 1 || { tap_notok "run generated"; exit 1; }
h0=$(i=0; while [ $i -lt 800 ]; do printf '节'; i=$((i + 1)); done)
h1=x$(i=0; while [ $i -lt 6000 ]; do printf '节'; i=$((i + 1)); done)
for r in 0 1; do
	h=$([ $r = 0 ] && echo "$h0" || echo "$h1")
	sed "s/\"environment\": {/\"environment\": {\"hostname\": \"$h\", /" hosts/rank$r/run.json >t &&
		mv t hosts/rank$r/run.json
done
T send-keys -t copy "'$TSCOPE_BIN' --tui --no-index hosts" Enter
wait_for "Overview" >/dev/null
T send-keys -t copy 3 l l l l l l l l l l l l l l l l l l l l
wait_for "ranks  row 1/2" >/dev/null
copy y
tap_check "Ranks y: a 2400-byte cell whole (it was cut at 1023 bytes)" \
	'wait_for "copied 2400 bytes: " && [ "$(buf)" = "$h0" ]'
T send-keys -t copy j
wait_for "ranks  row 2/2" >/dev/null
copy y
tap_check "Ranks y: an 18001-byte cell cut after the last whole character of 16 KiB, and the message says so" \
	'wait_for "copied 16381 bytes, the most y/Y copy (the rest left out)" && [ "$(buf | wc -c)" = 16381 ] &&
	 case $h1 in "$(buf)"*) true ;; *) false ;; esac'
T send-keys -t copy Q
tap_plan
