#!/bin/sh
# progress.sh: the load progress line (src/main.c on_progress). It appears on stderr
# when loading takes more than 0.5 s and stderr is a tty, and never otherwise. The tty
# is a pty from util-linux `script`. A slow load without any test hook in the binary:
# the run's steps.jsonl is a named pipe fed in two halves with a pause between them
# (a file still being written over a slow filesystem looks the same to the loader).
# A trickle (25 lines every 0.5 s): the bytes read and the rate never read 0 (the
# Numbers rule: "0.0358 MB · 0.0179 MB/s", not "0 MB · 0.0 MB/s"). With --ascii, the
# line is in ASCII under a UTF-8 locale too.
# Bytes beyond the sizes known (three ranks' files and a fourth rank's FIFO fed slowly:
# a FIFO's bytes are in no total): never above 100% nor "ETA 0 s", "(total unknown)".
# Ctrl-Z and fg during a slow load (a job-control shell in the pty): the terminal
# given back while stopped, the load going on after fg, q still cancelling.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

if ! command -v script >/dev/null 2>&1 || ! command -v mkfifo >/dev/null 2>&1; then
	tap_skip "util-linux script or mkfifo not installed"
	tap_plan
	exit 0
fi
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
[ -x "$gen" ] || gen="$TSCOPE_BUILD/tests/gen_demo"
work="$TSCOPE_TMP/progress.$$"
rm -rf "$work"
mkdir -p "$work" && cd "$work" || exit 1
"$gen" gen 1 3000 >/dev/null && mv gen/rank0 src || exit 1
lines=$(wc -l <src/steps.jsonl)

# A run dir whose steps.jsonl arrives slowly: half, a 1.2 s pause, the rest.
slow_run() {
	rm -rf slow && mkdir slow && cp src/run.json slow/ && mkfifo slow/steps.jsonl || exit 1
	{ head -n 1500 src/steps.jsonl; sleep 1.2; tail -n +1501 src/steps.jsonl; } >slow/steps.jsonl &
}

# Under a pty (stdout and stderr are the tty); --print so that no TUI starts.
on_tty() {
	TERM=xterm script -q -e -c "\"$TSCOPE_BIN\" --print --color never $1" /dev/null </dev/null >"$2" 2>&1
}

slow_run
on_tty slow tty.out
rc=$?
wait
tap_check "slow load on a tty: exit 0" '[ "$rc" -eq 0 ]'
tap_check "slow load on a tty: a \"loading\" progress line on the terminal" \
	'grep -q "tscope-tui: loading [0-9.]* MB" tty.out'
tap_check "slow load on a tty: the progress line is erased before the report" \
	'[ "$(grep -c "$(printf "\r\033\\[K")" tty.out)" -ge 1 ] && grep -q "^● TIMING" tty.out'
tap_check "slow load on a tty: all $lines steps loaded" 'grep -q "$lines steps" tty.out'

slow_run
"$TSCOPE_BIN" --print --color never slow >pipe.out 2>pipe.err
rc=$?
wait
tap_check "slow load, stderr not a tty: exit 0, no progress line" '[ "$rc" -eq 0 ] && ! grep -q "loading" pipe.err pipe.out'

# --ascii under a UTF-8 locale: the progress line in ASCII as the report is (its middle
# dots were UTF-8: the line only looked at the locale)
slow_run
on_tty "--ascii slow" ascii.out
rc=$?
wait
tr '\r' '\n' <ascii.out | grep "tscope-tui: loading" >ascii.lines
tap_check "--ascii under LC_ALL=$LC_ALL: the progress line in ASCII (\" - \", no middle dot)" \
	'[ "$rc" -eq 0 ] && grep -q "MB.* - " ascii.lines && ! grep -q "·" ascii.lines'
sed 's/^/# /' ascii.lines | head -2

on_tty src quick.out
rc=$?
tap_check "quick load on a tty: no progress line" '[ "$rc" -eq 0 ] && ! grep -q "loading" quick.out && grep -q "TIMING" quick.out'

rm -rf slow && mkdir slow && cp src/run.json slow/ && mkfifo slow/steps.jsonl || exit 1
{ i=1; while [ $i -lt 200 ]; do sed -n "$i,$((i + 24))p" src/steps.jsonl; sleep 0.5; i=$((i + 25)); done; } \
	>slow/steps.jsonl &
on_tty slow trickle.out
rc=$?
wait
tr '\r' '\n' <trickle.out | grep "tscope-tui: loading" >trickle.lines
tap_check "a trickle on a tty: the bytes read and the rate never read 0 (3 significant digits)" \
	'[ "$rc" -eq 0 ] && grep -qE "loading 0\.0[0-9]+ MB · 0\.0[0-9]+ MB/s" trickle.lines &&
	 ! grep -qE "loading 0 MB| 0\.0 MB/s" trickle.lines'
sed 's/^/# /' trickle.lines | head -3

# Three ranks' files and a FIFO for rank 3 fed a line every 0.1 s: its bytes are in no
# total, so once past the files' sizes the line says the total is unknown.
"$gen" four 4 40 >/dev/null && mv four/rank3/steps.jsonl r3.jsonl && mkfifo four/rank3/steps.jsonl || exit 1
{ while IFS= read -r l; do printf '%s\n' "$l"; sleep 0.1; done <r3.jsonl; } >four/rank3/steps.jsonl &
on_tty "--no-index four" fifo.out
rc=$?
wait
tr '\r' '\n' <fifo.out | grep "tscope-tui: loading" >fifo.lines
tap_check "bytes past the total known (a FIFO): never above 100% nor \"ETA 0 s\", the total said unknown" \
	'[ "$rc" -eq 0 ] && grep -q "MB (total unknown) · " fifo.lines &&
	 ! grep -qE "\((10[1-9]|1[1-9][0-9]|[2-9][0-9][0-9])%\)|ETA 0 s" fifo.lines'
sed 's/^/# /' fifo.lines | tail -2

# Ctrl-C while the line is shown (steps arriving 100 lines every 0.1 s): the line is
# erased, the last bytes on the terminal are "\r\033[K", and the process dies by SIGINT.
rm -rf slow && mkdir slow && cp src/run.json slow/ && mkfifo slow/steps.jsonl || exit 1
{ i=1; while [ $i -lt 3000 ]; do sed -n "$i,$((i + 99))p" src/steps.jsonl; sleep 0.1; i=$((i + 100)); done; } \
	>slow/steps.jsonl 2>/dev/null &
feeder=$!
rm -f pid.txt
TERM=xterm script -q -e -f -c "sh -c 'echo \$\$ > pid.txt; exec \"\$0\" --print --color never slow' \"$TSCOPE_BIN\"" \
	/dev/null </dev/null >int.out 2>&1 &
i=0
while ! grep -q "tscope-tui: loading" int.out 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT "$(cat pid.txt)"
wait $!
rc=$?
kill "$feeder" 2>/dev/null
wait 2>/dev/null
tap_check "Ctrl-C during a load on a tty: the progress line is erased (status $rc)" \
	'grep -q "tscope-tui: loading" int.out && [ "$(tail -c 4 int.out | od -An -c | tr -d " ")" = "\\r033[K" ]'

# Ctrl-Z during the load, then fg, under a job-control shell in the pty that sets the
# terminal back to line mode while the job is stopped (as an interactive shell does): the
# user's terminal while stopped, the load going on after fg, and q cancelling it then.
rm -rf slow && mkdir slow && cp src/run.json slow/ && mkfifo slow/steps.jsonl || exit 1
{ i=1; while [ $i -lt 3000 ]; do sed -n "$i,$((i + 99))p" src/steps.jsonl; sleep 0.1; i=$((i + 100)); done; } \
	>slow/steps.jsonl 2>/dev/null &
feeder=$!
cat >job.sh <<'EOF'
set -m
sh -c 'echo $$ > pid.txt; exec "$0" --print --color never slow' "$T" >/dev/null
echo "stopped $?" >state.txt
stty -a >stty.txt
stty icanon echo
fg >/dev/null
echo "done $?" >>state.txt
EOF
rm -f pid.txt state.txt keys && mkfifo keys || exit 1
T=$TSCOPE_BIN TERM=xterm script -q -e -f -c "sh job.sh" /dev/null <keys >tstp.out 2>&1 &
job=$!
exec 9>keys
i=0
while ! grep -q "tscope-tui: loading" tstp.out 2>/dev/null && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -TSTP "$(cat pid.txt)"
i=0
while ! grep -q "^stopped" state.txt 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.6
printf q >&9
i=0
while ! grep -q "^done" state.txt 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
grep -q "^done" state.txt 2>/dev/null || kill "$(cat pid.txt)" 2>/dev/null
exec 9>&-
wait $job
kill "$feeder" 2>/dev/null
wait 2>/dev/null
tap_check "Ctrl-Z during a load: it stops (status 148) with the user's terminal (line mode, echo)" \
	'grep -q "^stopped 148" state.txt && grep -q "[^-]icanon" stty.txt && grep -q "[^-]echo " stty.txt'
tap_check "... after fg the load goes on and q cancels it" \
	'grep -q "^done 1" state.txt && grep -q "tscope-tui: load cancelled" tstp.out'

cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
