#!/bin/sh
# write_errors.sh: every write is checked (a full disk ends with a message and exit 1, a
# closed pipe under `| head` is quiet) and `--export -o` never replaces what is not a
# regular file (FIFO, device, /dev/stdout, symlinks), keeps the umask and the old mode, a
# closed stdout nothing is written to is no error,
# accepts any valid name and leaves no temp file behind (issue 16). A writable file in a
# directory that takes no temp file: the message says so and how to write it in place. A
# path that holds a blank is quoted in the message.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
B=$TSCOPE_BIN

# 1. /dev/full: message and exit 1 for each kind of output, with the write's errno
# (ENOSPC, not a guessed EIO: the report is longer than stdio's buffer); `index` too.
gen_pair="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
[ -x "$gen_pair" ] || gen_pair="$TSCOPE_BUILD/tests/gen_pair"
"$gen_pair" pa 4 40 1 >/dev/null && "$gen_pair" pb 4 40 2 1 20 >/dev/null
for args in "--print $demo" "--print --ascii $demo" "--print pa pb" "--export ranks $demo" "--export ranks -o - $demo" \
	"--list-views" "--list-keys" "--help" "--version" \
	"index pa" "index --status pa" "index --slurm --dry-run pa" "index --help"; do
	# shellcheck disable=SC2086
	"$B" $args >/dev/full 2>err
	rc=$?
	tap_check "$args > /dev/full: exit 1 with a message" '[ "$rc" -eq 1 ] && grep -q "No space left on device" err'
done

# A closed stdout: an error once something was to be written there (--print), none when
# nothing was (--export -o FILE writes its CSV to the file; gnulib's close_stdout alike).
"$B" --print "$demo" >&- 2>err
tap_check "--print with stdout closed: exit 1 with a message" \
	'[ $? -eq 1 ] && grep -q "write error on standard output: Bad file descriptor" err'
"$B" --export ranks -o closed.csv "$demo" >&- 2>err
tap_check "--export -o FILE with stdout closed: exit 0, the file written, no write error" \
	'[ $? -eq 0 ] && [ -s closed.csv ] && ! grep -q "write error" err'

# --follow's line output onto a full disk (a finished 4-rank job: findings at once).
FOLLOW_WRITER_FINISH=1 sh "$TSCOPE_ROOT/tests/tools/follow_writer.sh" fol 4 0 30 0 >/dev/null
timeout 60 "$B" --follow --interval 0.2 --stall 1 fol >/dev/full 2>err
tap_check "--follow > /dev/full: exit 1 with a message" '[ $? -eq 1 ] && grep -q "writing a finding: No space left on device" err'

# 2. `| head -1`: quiet (SIGPIPE ends us silently, or we finish), nothing on stderr.
for args in "--print $demo" "--export steps $demo" "--list-views"; do
	# shellcheck disable=SC2086
	{ "$B" $args 2>err; echo $? >rc; } | head -1 >/dev/null
	tap_check "$args | head -1: quiet, not an error" '[ ! -s err ] && { [ "$(cat rc)" -eq 0 ] || [ "$(cat rc)" -eq 141 ]; }'
done

# 3. -o onto things that are not regular files.
"$B" --export ranks -o /dev/null --force "$demo" 2>err
tap_check "--force -o /dev/null: written in place, /dev/null still a device" '[ $? -eq 0 ] && [ -c /dev/null ]'
"$B" --export ranks -o /dev/stdout "$demo" >out 2>err
tap_check "-o /dev/stdout: written to stdout (not refused as existing)" '[ $? -eq 0 ] && head -1 out | grep -q "^rank,"'
mkfifo fifo
cat fifo >fifo.out &
"$B" --export ranks -o fifo --force "$demo" 2>err
rc=$?
wait
tap_check "--force -o FIFO: written in place, still a FIFO" '[ "$rc" -eq 0 ] && [ -p fifo ] && head -1 fifo.out | grep -q "^rank,"'
ln -s "$TSCOPE_TMP/nowhere/x.csv" dangling
"$B" --export ranks -o dangling "$demo" 2>err
tap_check "dangling symlink: refused without --force, link kept" '[ $? -eq 1 ] && [ -L dangling ] && grep -q "dangling symbolic link" err'
"$B" --export ranks -o dangling --force "$demo" 2>err
tap_check "dangling symlink: refused with --force too" '[ $? -eq 1 ] && [ -L dangling ] && [ ! -e nowhere ]'
echo old >target.csv
chmod 600 target.csv
ln -s target.csv link.csv
"$B" --export ranks -o link.csv "$demo" 2>err
tap_check "symlink to a file: refused without --force" '[ $? -eq 1 ] && grep -q "exists; use --force" err && [ "$(cat target.csv)" = old ]'
"$B" --export ranks -o link.csv --force "$demo" 2>err
tap_check "symlink to a file, --force: the target is replaced, the link stays" \
	'[ $? -eq 0 ] && [ -L link.csv ] && head -1 target.csv | grep -q "^rank,"'
tap_eq "--force keeps a 0600 file 0600" "600" "$(stat -c %a target.csv)"
mkdir adir
"$B" --export ranks -o adir --force "$demo" 2>err
tap_check "a directory: refused" '[ $? -eq 1 ] && [ -d adir ] && grep -q "Is a directory" err'

# 4. umask, long names, no temp file.
(umask 077 && "$B" --export ranks -o private.csv "$demo")
tap_eq "a new export follows the umask (077 -> 600)" "600" "$(stat -c %a private.csv)"
(umask 022 && "$B" --export ranks -o public.csv "$demo")
tap_eq "a new export follows the umask (022 -> 644)" "644" "$(stat -c %a public.csv)"
long=$(printf 'n%.0s' $(seq 250)).csv
"$B" --export ranks -o "$long" "$demo" 2>err
tap_check "a 254-character name works" '[ $? -eq 0 ] && [ -s "$long" ]'
(ulimit -f 1 && "$B" --export steps -o big.csv "$demo") 2>err
rc=$?
tap_check "file size limit mid-export: exit 1 with a message, no signal" '[ "$rc" -eq 1 ] && grep -q "File too large" err'
tap_check "file size limit mid-export: no temp file left, no partial file" '[ -z "$(ls -A | grep -e "\.tscope-" -e "\.tmp")" ] && [ ! -e big.csv ]'

# 4b. -o FILE, a file this user may write in a directory where it may not create one: the
# temp file cannot be made there, and the message says so (it said "cannot write ro/w.csv:
# Permission denied" of a writable file) and how to write it in place: through stdout.
# As root, file modes bind only without CAP_DAC_OVERRIDE (setpriv --bounding-set).
as_user() {
	if [ "$(id -u)" != 0 ]; then
		"$@"
	elif command -v setpriv >/dev/null 2>&1; then
		setpriv --bounding-set -dac_override,-dac_read_search "$@"
	else
		return 125
	fi
}
mkdir ro && echo old >ro/w.csv && echo old >ro/r.csv && chmod 666 ro/w.csv && chmod 444 ro/r.csv && chmod 555 ro
if ! as_user true 2>/dev/null || as_user sh -c ': >ro/probe' 2>/dev/null; then
	for t in "the temp file named" "the way the message gives" "a file not writable either"; do
		tap_skip "a read-only directory, $t: file modes do not bind here (root without setpriv, or it failed)"
	done
else
	as_user "$B" --export ranks --force -o ro/w.csv "$demo" 2>err
	rc=$?
	tap_eq "a writable file in a read-only directory: the temp file named, and -o - > FILE" \
		"tscope-tui: cannot create a temporary file in ro/ (Permission denied): the CSV is written there and \
renamed over ro/w.csv; write to stdout instead: -o - > ro/w.csv" "$(cat err)"
	as_user sh -c '"$1" --export ranks -o - "$2" >ro/w.csv' sh "$B" "$demo"
	tap_check "... exit 1, the file left as it was, and the way the message gives writes it" \
		'[ "$rc" -eq 1 ] && head -1 ro/w.csv | grep -q "^rank," && [ -z "$(ls -A ro | grep "\.tscope-")" ]'
	as_user "$B" --export ranks --force -o ro/r.csv "$demo" 2>err
	tap_eq "a read-only file in a read-only directory: cannot write it" \
		"tscope-tui: cannot write ro/r.csv: Permission denied" "$(cat err)"
fi
chmod 755 ro
# 4c. a path holding a blank is quoted as a shell word in the message (as the explorer's e
# says it), so where the name ends shows
"$B" --export ranks -o "no dir/x.csv" "$demo" 2>err
tap_eq "-o 'no dir/x.csv' in no directory: the path quoted" \
	"tscope-tui: cannot write 'no dir/x.csv': No such file or directory" "$(cat err)"

# 5. Raw arguments are never echoed: unknown options, bad numbers, --sort, --filter.
esc=$(printf '\033]52;c;SGVsbG8=\007')
for args in "--bogus$esc" "--jobs x$esc" "--export ranks --sort $esc $demo" "--export ranks --filter $esc=1 $demo"; do
	# shellcheck disable=SC2086
	"$B" $args >/dev/null 2>err
	tap_check "$(echo "$args" | cut -c1-14 | tr -d '\033\007'): message without raw escapes" '! grep -q "$(printf "\033")" err && grep -q "\^\[" err'
done

tap_plan
