#!/bin/sh
# index_signal.sh: what `tscope-tui index` leaves when it is stopped or cannot index.
#   - A signal that ends it while a file of the index is being written (Ctrl-C; Slurm's
#     SIGTERM at a time limit or scancel) removes the temporary file (a part's can be
#     gigabytes on a shared file system) and the process ends as the signal says
#     (128 + N); the index that was there stays byte for byte and usable. The same for
#     a --print whose load rewrites a damaged index. strace injects the signal at the
#     second pwrite64 (the temporary file exists then): exact, no timing; without a
#     working strace (no ptrace) those checks skip and say why.
#   - A writer killed by SIGKILL cannot clean up: the next write of the same file removes
#     its temporary files once nothing has written to them for 10 minutes and no process
#     holds their lock (a live writer, even one stopped for longer, keeps its file).
#   - A run whose steps.jsonl is a FIFO is not indexed (its bytes cannot be stamped nor
#     read again): `index` names the file and exits 1 instead of waiting forever for a
#     second writer, and a --print over a stale index reads the pipe and says why the
#     index is not rewritten.
#   - On a terminal (a pty from util-linux `script`), a build that takes more than 0.5 s
#     keeps a progress line on stderr (MB read, rate) and erases it before its last
#     lines; off a terminal it prints none.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
"$gen" run 16 3000 >/dev/null || exit 1
"$T" index run >/dev/null || exit 1
cp -r run/.tscope-index before

no_tmp() { ! ls "$1"/.tscope-index | grep -q '\.tmp$'; }
same_index() { cmp -s run/.tscope-index/steps-0-of-1.tsx before/steps-0-of-1.tsx &&
	cmp -s run/.tscope-index/summary.tsx before/summary.tsx; }
# signal SIG at the second pwrite64 of CMD...
at_write() {
	sig=$1
	shift
	strace -f -qq -o /dev/null -e trace=pwrite64 -e inject=pwrite64:signal="$sig":when=2 "$@" >/dev/null 2>&1
}

if ! strace -f -qq -o /dev/null true 2>/dev/null; then
	for what in "index, SIGTERM" "index, SIGINT" "--print rewriting a damaged index, SIGTERM"; do
		tap_skip "$what: strace cannot trace here (not installed, or ptrace is not allowed)"
	done
else
	at_write TERM "$T" index --force --jobs 1 run
	rc=$?
	tap_check "index, SIGTERM while writing: exit 143, no temporary file, the index as it was" \
		'[ "$rc" -eq 143 ] && no_tmp run && same_index && "$T" index --status run | grep -q "^shard 0/1 .* ok "'
	at_write INT "$T" index --force --jobs 1 run
	rc=$?
	tap_check "index, SIGINT (Ctrl-C) while writing: exit 130, no temporary file" \
		'[ "$rc" -eq 130 ] && no_tmp run && same_index'
	printf 'X' | dd of=run/.tscope-index/steps-0-of-1.tsx bs=1 seek=100000 conv=notrunc 2>/dev/null
	at_write TERM "$T" --print run
	rc=$?
	tap_check "--print rewriting a damaged index, SIGTERM while writing: exit 143, no temporary file" \
		'[ "$rc" -eq 143 ] && no_tmp run'
fi
# What a writer killed by SIGKILL (the OOM killer, a node gone) left: its temporary
# files are removed by the next write of the same file once untouched for 10 minutes.
ix=run/.tscope-index
: >$ix/steps-0-of-1.tsx.424242.tmp && : >$ix/summary.tsx.434343.tmp && : >$ix/steps-0-of-1.tsx.454545.tmp &&
	: >$ix/steps-0-of-1.tsx.x1.tmp && : >$ix/notes.tmp || exit 1
touch -d '1 hour ago' $ix/steps-0-of-1.tsx.424242.tmp $ix/summary.tsx.434343.tmp $ix/steps-0-of-1.tsx.x1.tmp \
	$ix/notes.tmp
"$T" index --force run >/dev/null 2>&1
tap_check "a killed writer's temporary files (an hour old) are removed by the next index" \
	'[ ! -e $ix/steps-0-of-1.tsx.424242.tmp ] && [ ! -e $ix/summary.tsx.434343.tmp ]'
tap_check "a fresh one (a writer at work) and other names are left alone" \
	'[ -e $ix/steps-0-of-1.tsx.454545.tmp ] && [ -e $ix/steps-0-of-1.tsx.x1.tmp ] && [ -e $ix/notes.tmp ]'
# A writer stopped longer than that (a Slurm job suspended by preemption, a stalled
# file system) holds its file's lock: its file stays until the lock is let go. The
# lock here is the shell's (fd 9), not passed to the indexer.
held=$ix/steps-0-of-1.tsx.474747.tmp
if command -v flock >/dev/null 2>&1; then
	exec 9>"$held" && flock -x 9 && touch -d '1 hour ago' "$held" || exit 1
	"$T" index --force run >/dev/null 2>&1 9>&-
	tap_check "an hour-old temporary file whose writer holds its lock (a suspended job) is left alone" \
		'[ -e "$held" ]'
	exec 9>&-
	"$T" index --force run >/dev/null 2>&1
	tap_check "... and removed once the lock is let go" '[ ! -e "$held" ]'
else
	tap_skip "a locked temporary file: no flock(1) here (util-linux)"
	tap_skip "... and removed once the lock is let go: no flock(1) here"
fi
# The same with tscope-tui's own lock: a writer held 6 s at its second write (strace's
# delay), its file aged meanwhile; another index of the run leaves it, and the first
# still ends with its index written (under ASan without the leak check, which cannot
# run under ptrace).
rm -f $ix/*.tmp
if strace -f -qq -o /dev/null true 2>/dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:-}:detect_leaks=0" \
		strace -f -qq -o /dev/null -e trace=pwrite64 -e inject=pwrite64:delay_enter=6000000:when=2 \
		"$T" index --force --jobs 1 run >first.out 2>&1 &
	first=$!
	n=0
	while [ -z "$(ls $ix | grep '\.tmp$')" ] && [ $n -lt 100 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	busy=$ix/$(ls $ix | grep '\.tmp$' | head -n 1)
	touch -d '1 hour ago' "$busy"
	"$T" index --force --jobs 1 run >/dev/null 2>&1
	tap_check "a writer's own lock: its hour-old temporary file outlives another index of the run" '[ -f "$busy" ]'
	wait $first
	rc=$?
	tap_check "... and that writer ends with its index written" '[ "$rc" -eq 0 ] && grep -q "^index written" first.out'
else
	tap_skip "a writer's own lock: strace cannot trace here"
	tap_skip "... and that writer ends with its index written: strace cannot trace here"
fi
rm -f $ix/*.tmp
"$T" --print --color never --no-index run >plain.txt 2>/dev/null
"$T" --print --color never run >after.txt 2>/dev/null
tap_check "the run still opens and reports as a plain load does" 'cmp -s plain.txt after.txt'

# A rank whose steps.jsonl arrives through a FIFO: half, a pause, the rest.
mkdir -p fifo/rank0 && cp run/rank0/run.json fifo/rank0/ && mkfifo fifo/rank0/steps.jsonl || exit 1
feed() { { head -n 1500 run/rank0/steps.jsonl; sleep "$1"; tail -n +1501 run/rank0/steps.jsonl; } \
	>fifo/rank0/steps.jsonl & }
feed 0
timeout 20 "$T" index fifo >fifo.out 2>fifo.err
rc=$?
wait
tap_check "index of a FIFO source: exit 1 (it does not wait for a second writer)" '[ "$rc" -eq 1 ]'
tap_check "and it names the file and why" \
	'grep -q "^tscope-tui index: no index written$" fifo.err &&
	 grep -q "fifo/rank0/steps.jsonl: index not written: not a regular file (a pipe)" fifo.err'
tap_check "no index file is left" '[ -z "$(ls fifo/.tscope-index 2>/dev/null)" ]'
tap_check "off a terminal: no progress line" '! grep -q "index: read" fifo.err'

if command -v script >/dev/null 2>&1; then
	feed 1.2
	TERM=xterm timeout 20 script -q -e -c "\"$T\" index fifo" /dev/null </dev/null >tty.out 2>&1
	wait
	tap_check "on a terminal, a build over 0.5 s: a progress line (MB read, rate)" \
		'grep -q "tscope-tui: index: read [0-9]* MB · [0-9.]* MB/s" tty.out'
	tap_check "erased before the lines that follow it" \
		'grep -q "$(printf "\r\033\\[K")tscope-tui index: no index written" tty.out'
else
	tap_skip "progress line on a terminal: util-linux script is not installed"
	tap_skip "progress line erased: util-linux script is not installed"
fi

# A stale index over a FIFO: --print reads the pipe, and says why no index is written.
rm -rf fifo2 && mkdir -p fifo2/rank0 && cp run/rank0/* fifo2/rank0/ && "$T" index fifo2 >/dev/null || exit 1
rm fifo2/rank0/steps.jsonl && mkfifo fifo2/rank0/steps.jsonl || exit 1
cat run/rank0/steps.jsonl >fifo2/rank0/steps.jsonl &
timeout 20 "$T" --print --color never fifo2 >f2.txt 2>/dev/null
rc=$?
wait
cat run/rank0/steps.jsonl >fifo2/rank0/steps.jsonl &
timeout 20 "$T" --export sources fifo2 >f2.csv 2>/dev/null
wait
tap_check "--print over a stale index and a FIFO: exit 0, every step of the pipe" \
	'[ "$rc" -eq 0 ] && grep -q "3000 aligned" f2.txt'
tap_check "the sources say why the index is not rewritten" \
	'grep -q "^info,fifo2/rank0/steps.jsonl,.*index not written: not a regular file (a pipe)" f2.csv'
tap_plan
