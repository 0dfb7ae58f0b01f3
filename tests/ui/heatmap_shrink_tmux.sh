#!/bin/sh
# heatmap_shrink_tmux.sh: the explorer follows a single-rank run whose log shrinks
# under the Heatmap pane, end to end in tmux. The log replaced by a shorter one: the
# cursor, which was past the new end, clamps to the newest step; truncated to nothing:
# no crash (the heatmap once read the old cursor column after the columns dropped to
# 0), the reload is said, the heatmap's tab goes and the Steps, Budget and Ranks panes
# say there are no records; records back: the heatmap draws them. The same for a run
# dir with its own steps.jsonl. And step numbers near 1e12 are whole on the heatmap's
# and the Steps pane's axes, never clipped to "1000000000…". Waits are bounded;
# nothing asserts a duration. Skips without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
work="$TSCOPE_TMP/heatmap_shrink.$$"
writer="$TSCOPE_ROOT/tests/tools/follow_writer.sh"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
tmux_start hs 100 24 "$work"

# steps FIRST..LAST of one rank, written into FILE at once (a new inode: "replaced")
records() {
	rm -rf gen && sh "$writer" gen 1 "$2" "$3" 0 && mv gen/rank0/steps.jsonl "$1"
}
# the explorer ended (a crash) or the screen matches REGEX
alive_re() {
	wait_text=$1
	wait_until '[ -s exit.txt ] || grep -qE -- "$wait_text" "$tmux_screen"' "${TSCOPE_WAIT:-60}"
	[ ! -s exit.txt ] && grep -qE -- "$wait_text" "$tmux_screen"
}

# follow DIR whose log is LOG (rank0/steps.jsonl, or the run dir's own)
shrink() {
	what=$1 log=$2
	rm -f exit.txt
	T send-keys -t hs "clear; '$TSCOPE_BIN' --follow --interval 0.3 $1; echo EXIT=\$? > exit.txt" Enter
	wait_for "2 Heatmap" >/dev/null
	T send-keys -t hs 2
	wait_re "^ rank 0 +step 0 " >/dev/null
	T send-keys -t hs l l l l l l l l l l l l l l l l l l l l
	wait_re "^ rank 0 +step 20 " >/dev/null
	records "$log" 0 9
	tap_check "$what: the log replaced by steps 0-9, the cursor on step 20 clamps to step 9" \
		'alive_re "^ rank 0 +step 9 "'
	: >"$log"
	tap_check "$what: the log truncated under the heatmap: no crash, the reload is said" \
		'alive_re "steps.jsonl shrank"'
	T send-keys -t hs 2
	tap_check "$what: ... no heatmap to draw, and 2 says so" 'alive_re "2: this run has no heatmap tab"'
	T send-keys -t hs 4
	tap_check "$what: ... the Steps pane says the rank has no records" 'alive_re "^ rank 0: no records"'
	T send-keys -t hs 5
	tap_check "$what: ... the Budget pane says there is none" 'alive_re "no efficiency budget"'
	T send-keys -t hs 3
	tap_check "$what: ... the Ranks pane says there are no records" 'alive_re "ranks: no step records"'
	records back.jsonl 0 4
	cat back.jsonl >>"$log"
	wait_for "2 Heatmap" >/dev/null
	T send-keys -t hs 2
	tap_check "$what: records back: the heatmap draws them (steps 0-4)" 'alive_re "^ rank 0 +step [0-4] "'
	T send-keys -t hs q
	wait_until '[ -s exit.txt ]' >/dev/null
	tap_eq "$what: q exits 0" "EXIT=0" "$(cat exit.txt 2>/dev/null)"
}

mkdir run && records run/rank0-steps 0 30 && mkdir run/rank0 && mv run/rank0-steps run/rank0/steps.jsonl
shrink run run/rank0/steps.jsonl
mkdir top && records top/steps.jsonl 0 30
shrink top top/steps.jsonl

# step numbers near 1e12: whole labels on both axes
rm -f exit.txt
sh "$writer" big 2 999999999970 1000000000040 0
T send-keys -t hs "clear; '$TSCOPE_BIN' big; echo EXIT=\$? > exit.txt" Enter
wait_for "2 Heatmap" >/dev/null
T send-keys -t hs 2
wait_re "^ rank 0 +step 999999999970 " >/dev/null
tap_check "steps near 1e12: the heatmap's axis labels are whole (999999999970 ... 1000000000012)" \
	'sed -n 2p "$work/screen" | grep -q "^ *999999999970 .* 1000000000012 " && ! sed -n 2p "$work/screen" | grep -q "…"'
T send-keys -t hs 4
wait_re "rank 0 \(1 of 2\)" >/dev/null
tap_check "steps near 1e12: the Steps pane's axis labels are whole (1000000000000)" \
	'grep -q "^ *▶ .* 1000000000000 " "$work/screen" && ! grep -q "[0-9]…" "$work/screen"'
T send-keys -t hs q
wait_until '[ -s exit.txt ]' >/dev/null
cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
