#!/bin/sh
# examples.sh: every example a user copies from --help, `?` / --list-keys, README.md and
# the man page runs. Paths in the examples are placeholders (runs/ddp-512, RUN_DIR,
# runs/before, runs/after, traces/, artifacts/, calc/, a.msgpack): they are mapped to
# fixtures. An example on a
# step run must exit 0; any other must at least not be a usage error (exit 2).
# Filter and sweep-term examples inside help texts (e.g. '...') run as --filter,
# --objective and --constraint.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
B="$TSCOPE_ROOT/$TSCOPE_BUILD/tests"
W="$TSCOPE_TMP/examples"
mkdir -p "$W/traces"
cd "$W" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
"$B/gen_trace" traces/rank0.pt.trace.json 1 0 >/dev/null && "$B/gen_trace" traces/rank1.pt.trace.json 1 1 >/dev/null &&
	"$B/gen_sweep" artifacts >/dev/null && "$B/gen_dasf" fixture dasf >/dev/null ||
	{ tap_notok "fixture generators failed"; exit 0; }
cp -r "$demo" after   # a second run for the compare examples
set -- dasf/*.msgpack
da=$1 db=$2

# one example line (without the leading "tscope-tui") -> exit status
run_example() {
	line=$(printf '%s' "$1" | sed "s|runs/before|$demo|g; s|runs/after|$W/after|g; s|runs/ddp-512|$demo|g; s|runs/exp3|$demo|g; s|RUN_DIR|$demo|g;
		s|run_dir|$demo|g; s|artifacts/|$W/artifacts|g; s|calc/|$W/artifacts|g; s|a\.msgpack|$da|g;
		s|b\.msgpack|$db|g")
	case $1 in
	*msgpack*) line=$(printf '%s' "$line" | sed "s|traces/|$W/dasf|g") ;;
	*) line=$(printf '%s' "$line" | sed "s|traces/|$W/traces|g") ;;
	esac
	rm -rf run && mkdir run && (cd run && eval "\"\$BIN\" $line" </dev/null >../out 2>../err)
}

check() {   # source, example text
	src=$1 ex=$2
	case $ex in "[options] PATH..."*) return ;; esac
	run_example "$ex"
	rc=$?
	case $ex in
	*runs/*|*RUN_DIR*|--list-views*) tap_check "$src: tscope-tui $ex (exit $rc)" '[ "$rc" -eq 0 ]' ;;
	*) tap_check "$src: tscope-tui $ex (exit $rc, not a usage error)" '[ "$rc" -ne 2 ]' ;;
	esac
	[ "$rc" -eq 2 ] && sed 's/^/# /' err
}

# README code lines and the man page's EXAMPLES
grep '^    tscope-tui ' "$TSCOPE_ROOT/README.md" | sed 's/^    tscope-tui //; s/  *#.*//' >readme.ex
while IFS= read -r ex; do check README "$ex"; done <readme.ex
sed -n 's/^\.Dl tscope-tui //p' "$TSCOPE_ROOT/man/tscope-tui.1" >man.ex
while IFS= read -r ex; do check "man page" "$ex"; done <man.ex
tap_check "README and the man page have examples" '[ -s readme.ex ] && [ -s man.ex ]'

# e.g. '...' in --help, --list-keys and the `?` overlay (keys and : commands), dumped
# headless from a wide screen so no line is cut
"$BIN" --help >help.txt
"$BIN" --list-keys >keys.txt
printf '?\n:dump %s/overlay.txt\n' "$W" >overlay.keys
TSCOPE_SCRIPT="$W/overlay.keys" TERM=dumb LINES=80 COLUMNS=200 "$BIN" --tui "$demo" >/dev/null 2>&1
tap_check "the ? overlay was dumped" 'grep -q "Commands" overlay.txt'
for src in help keys overlay; do
	grep -o "e\.g\. '[^']*'" "$src.txt" | sed "s/^e\.g\. '//; s/'\$//" >"$src.quoted"
	# unquoted sweep terms: e.g. ttft_p99:1,itl_p90:3 or e.g. ttft_p99<10
	grep -o "e\.g\. [a-z_0-9]*[:<][^ ()']*" "$src.txt" | sed 's/^e\.g\. //; s/,$//' >>"$src.quoted"
	while IFS= read -r expr; do
		case $expr in
		*ttft*|*gpu_*)
			case $expr in *:*) opt=--objective ;; *) opt=--constraint ;; esac
			"$BIN" --print "$opt" "$expr" artifacts >out 2>err ;;
		*) opt=--filter; "$BIN" --export ranks --filter "$expr" "$demo" >out 2>err ;;
		esac
		rc=$?
		tap_check "$src example $opt '$expr' runs (exit $rc)" '[ "$rc" -eq 0 ]'
		[ "$rc" -ne 0 ] && sed 's/^/# /' err
	done <"$src.quoted"
done
tap_check "every help source has an example" '[ -s help.quoted ] && [ -s keys.quoted ] && [ -s overlay.quoted ]'
tap_plan
