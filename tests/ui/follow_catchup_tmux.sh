#!/bin/sh
# follow_catchup_tmux.sh: a big append is read in slices while following (issue 12/15;
# model/steps/load_follow.c follow_opts.slice, ui/app_follow.c), and keys are handled
# between the slices. 8 ranks of 100 steps are followed with 1 KB slices
# (TSCOPE_FOLLOW_SLICE); then 3,000 steps per rank (8.5 MB) are appended at once. The
# status row says "catching up, N to read"; `3` typed then opens Ranks while that is
# still shown (the key did not wait for the end of the reading); at the end every
# record is there, once. Order and state only: nothing asserts a duration.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/catchup.$$"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
"$gen" g 8 3100 >/dev/null || exit 1
for i in 0 1 2 3 4 5 6 7; do
	mkdir -p run/rank$i && cp g/rank$i/run.json run/rank$i/ &&
		head -n 100 g/rank$i/steps.jsonl >run/rank$i/steps.jsonl &&
		tail -n +101 g/rank$i/steps.jsonl >g/rank$i/rest || exit 1
done
tmux_start c 140 30 "$work"
trap 'T kill-server 2>/dev/null; rm -rf "$work"' EXIT
T send-keys -t c "TSCOPE_FOLLOW_SLICE=1024 '$TSCOPE_BIN' --follow --no-index run; echo EXIT=\$?" Enter
tap_check "--follow opens live" 'wait_re "LIVE running"'
for i in 0 1 2 3 4 5 6 7; do cat g/rank$i/rest >>run/rank$i/steps.jsonl; done
tap_check "a big append: the status row says it is catching up and how much is left" \
	'wait_re "LIVE catching up, [0-9.]+ [KM]iB to read"'
T send-keys -t c 3
# one screen shows both: Ranks drawn while the reading goes on (a key held until the end
# never shows them together; a check after the wait could find the reading just over)
both='grep -qE "ranks +row 1/8" "$tmux_screen" && grep -q "LIVE catching up" "$tmux_screen"'
tap_check "3 opens Ranks while the append is still being read" 'wait_until "$both"'
wait_until '! grep -q "catching up" "$tmux_screen" && grep -qE "^ *(▶ +)?7 +3100 +3099 " "$tmux_screen"' 120
tap_check "at the end every record is there, once (3,100 per rank)" \
	'grep -qE "^ *▶ +0 +3100 +3099 " "$tmux_screen" && grep -qE "^ +7 +3100 +3099 " "$tmux_screen" &&
	 ! grep -q "catching up" "$tmux_screen"'
T send-keys -t c Q
tap_check "Q quits with status 0" 'wait_for "EXIT=0"'
tap_plan
