#!/bin/sh
# End to end in tmux, as a person would: open the demo, n to the straggler, Enter (the
# Steps pane of that rank), e and Enter to export with the default path (the prompt and the
# message name the rank and --export steps --filter rank=11); check the CSV.
# Then resize below 80x24 ("too small") and back, quit with Ctrl-C and check the exit
# status and that the terminal modes were restored; SIGTERM and SIGSEGV likewise. Skips
# without tmux.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
. "$TSCOPE_ROOT/tests/tmux.sh"
demo="$TSCOPE_ROOT/testdata/demo"
work="$TSCOPE_TMP/e2e"
mkdir -p "$work"

# start the explorer on the demo again (its pid in pid.txt), send it signal $1 once it
# draws, and wait (up to ~10 s) for the shell to write exit.txt and stty.after
run_and_kill() {
	rm -f "$work/exit.txt" "$work/stty.after" "$work/pid.txt"
	T send-keys -t e2e "sh -c 'echo \$\$ > pid.txt; exec \"\$0\" \"\$1\"' '$TSCOPE_BIN' '$demo'; echo EXIT=\$? > exit.txt; stty -a > stty.after" Enter
	wait_for "Heatmap" >/dev/null && [ -s "$work/pid.txt" ] && kill -"$1" "$(cat "$work/pid.txt")"
	i=0
	while [ ! -s "$work/exit.txt" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
}

tmux_start e2e 120 40 "$work"
T send-keys -t e2e "cd '$work' && stty -a > stty.before; '$TSCOPE_BIN' '$demo'; echo EXIT=\$? > exit.txt; stty -a > stty.after" Enter
tap_check "the explorer opens on the heatmap" 'wait_for "Heatmap" && wait_for "rank 0"'
T send-keys -t e2e n
tap_check "n jumps to the straggler (rank 11)" 'wait_for "straggler 1/" && grep -q "rank 11" "$work/screen"'
T send-keys -t e2e Enter
tap_check "Enter opens the Steps pane of rank 11" 'wait_for "rank 11 (12 of 16)"'
T send-keys -t e2e e
tap_check "e prompts for a path with a default, naming the rank" \
	'wait_for "export rank 11'"'"'s 400 rows to: tscope-demo-ddp-steps.csv"'
T send-keys -t e2e Enter
tap_check "the export is confirmed in the status line, with the --export that writes it" \
	'wait_for "exported rank 11'"'"'s 400 rows of '"'"'steps'"'"' to tscope-demo-ddp-steps.csv, as --export" &&
	 grep -qF -- "--export steps --filter rank=11 writes them" "$tmux_screen"'
csv="$work/tscope-demo-ddp-steps.csv"
tap_check "the CSV has a header and 400 rows of rank 11" \
	'[ -f "$csv" ] && [ "$(wc -l <"$csv")" -eq 401 ] && [ "$(tail -n +2 "$csv" | cut -d, -f1 | sort -u)" = 11 ]'
tap_check "the CSV header starts with rank,step" 'head -1 "$csv" | grep -q "^rank,step,"'
"$TSCOPE_BIN" --export steps --filter rank=11 "$demo" >"$work/want.csv" 2>/dev/null
tap_check "... the steps view's rows of rank 11 (the pane builds that rank's only)" 'cmp -s "$work/want.csv" "$csv"'
T resize-window -t e2e -x 70 -y 20
tap_check "below 80x24 the explorer says the terminal is too small" 'wait_for "terminal too small: 70x20"'
T resize-window -t e2e -x 120 -y 40
tap_check "back at 120x40 the pane is drawn again" 'wait_for "rank 11 (12 of 16)"'
T send-keys -t e2e C-c
tap_check "Ctrl-C quits with status 130" 'wait_for "\$" && sleep 0.3 && grep -q "EXIT=130" "$work/exit.txt"'
tap_check "the terminal modes are restored after Ctrl-C" 'sleep 0.2; cmp -s "$work/stty.before" "$work/stty.after"'
run_and_kill TERM
tap_check "SIGTERM quits with status 143" 'grep -q "EXIT=143" "$work/exit.txt"'
tap_check "the terminal modes are restored after SIGTERM" 'sleep 0.2; cmp -s "$work/stty.before" "$work/stty.after"'
# a crash: SIGSEGV runs the handler that only restores the tty, then dies by the signal
run_and_kill SEGV
tap_check "SIGSEGV: the process dies by the signal (status 139)" 'grep -q "EXIT=139" "$work/exit.txt"'
tap_check "the terminal modes are restored after SIGSEGV" 'sleep 0.2; cmp -s "$work/stty.before" "$work/stty.after"'
tap_plan
