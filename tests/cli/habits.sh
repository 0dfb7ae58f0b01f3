#!/bin/sh
# habits.sh: what a terminal user tries first, on the command line (issue 14):
# --format validates (usage error listing the formats, exit 2), every message says
# "tscope-tui:" (getopt's own "./tscope-tui:" included), a folder of runs names the runs
# below it (one line each, exit 1), the Sources view reads in rank order; usage errors
# name the option as it was meant (a short option's letter, an ambiguous abbreviation's
# options, a value given to an option that takes none); --help and --version win over
# what follows them, an error before them (two modes) is still reported.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=$TSCOPE_BIN
demo="$TSCOPE_ROOT/testdata/demo"
cd "$TSCOPE_TMP" || exit 1

"$BIN" --format nosuch "$demo" >out 2>err
rc=$?
tap_check "--format nosuch: exit 2" '[ "$rc" -eq 2 ]'
tap_check "--format nosuch: lists the formats" 'grep -q "^tscope-tui: --format '"'"'nosuch'"'"': unknown format; expected one of pytscope, kineto, genai-perf, nat, cerebras, dasf" err'
tap_check "--help lists the formats" '"$BIN" --help | grep -q -- "--format NAME .*: pytscope, kineto"'
"$BIN" --format pytscope --export ranks "$demo" >out 2>err
tap_check "--format pytscope still loads the demo" '[ $? -eq 0 ] && [ "$(wc -l <out)" -eq 17 ]'

for args in "--bogus" "-x" "--color" "-o"; do
	"$BIN" $args >out 2>err
	rc=$?
	tap_check "$args: exit 2, every line prefixed tscope-tui: or Try" '[ "$rc" -eq 2 ] && ! grep -v "^tscope-tui: \|^Try '"'"'tscope-tui --help'"'"'" err | grep -q . && ! grep -q "/tscope-tui:" err'
done

# Usage errors name the option as it was meant: the letter inside a cluster (not argv[0] or
# the argument before it), both options an abbreviation could be, a value given to an option
# that takes none, the missing value's option by its full name; a PATH that begins with '-'
# is pointed after '--'. --help and --version win over the rest of the line (GNU's way),
# not over an error before them.
mkdir -p ./-dashrun
usage_is() { # TEXT ARGS...: exit 2, TEXT on stderr's first line, the pointer to --help
	want=$1
	shift
	"$BIN" "$@" >out 2>err
	[ $? -eq 2 ] && [ "$(head -1 err)" = "tscope-tui: $want" ] && grep -qx "Try 'tscope-tui --help'." err
}
tap_check "-dashrun: unknown option '-d' (not argv[0]), and how to give the path" \
	'usage_is "unknown option '"'"'-d'"'"'" -dashrun &&
	 grep -qx "tscope-tui: '"'"'-dashrun'"'"' is a path: give it after '"'"'--'"'"' or as '"'"'./-dashrun'"'"'" err'
tap_check "--print -dashrun: unknown option '-d' (not --print)" \
	'usage_is "unknown option '"'"'-d'"'"'" --print -dashrun'
tap_check "-xo out.csv after --export ranks: unknown option '-x' (not ranks)" \
	'usage_is "unknown option '"'"'-x'"'"'" --export ranks -xo out.csv "$demo" && ! grep -q "is a path" err'
tap_check "--rank: ambiguous, both options named" \
	'usage_is "option '"'"'--rank'"'"' is ambiguous: --ranks, --ranks-per-node" --rank 0 "$demo"'
tap_check "--print=yes: --print takes no value" \
	'usage_is "option '"'"'--print'"'"' takes no value: '"'"'--print=yes'"'"'" --print=yes "$demo"'
tap_check "--exp (last) and -o (last): the missing value's option by its name" \
	'usage_is "missing value for option '"'"'--export'"'"'" --exp &&
	 usage_is "missing value for option '"'"'-o'"'"'" "$demo" -o'
"$BIN" --export ranks "$demo" --help >out 2>err
tap_check "--export ranks PATH --help: the help, exit 0" \
	'[ $? -eq 0 ] && head -1 out | grep -q "^usage: tscope-tui" && [ ! -s err ]'
"$BIN" --list-views --version --print >out 2>err
tap_check "--list-views --version --print: the version, exit 0" \
	'[ $? -eq 0 ] && grep -q "^tscope-tui " out && [ ! -s err ]'
"$BIN" --list-views --print --version >out 2>err
tap_check "--list-views --print --version: the clash before --version is still reported (exit 2)" \
	'[ $? -eq 2 ] && grep -q "are exclusive" err && [ ! -s out ]'
tap_check "--print --tui: still exclusive (exit 2)" \
	'"$BIN" --print --tui "$demo" >out 2>err; [ $? -eq 2 ] && grep -q "are exclusive" err'

mkdir -p runs
ln -sfn "$demo" runs/b-demo
ln -sfn "$demo" runs/a-demo
mkdir -p runs/not-a-run
"$BIN" --print runs >out 2>err
rc=$?
tap_check "a folder of runs: exit 1" '[ "$rc" -eq 1 ]'
tap_check "a folder of runs: one header line, then one line per run, sorted" \
	'[ "$(wc -l <err)" -eq 3 ] && head -1 err | grep -q "^tscope-tui: '"'"'runs'"'"' holds 2 runs below it; open one:" &&
	 sed -n 2p err | grep -q "^  tscope-tui runs/a-demo  *(pytscope)" && sed -n 3p err | grep -q "^  tscope-tui runs/b-demo"'
tap_check "a folder of runs: nothing on stdout, no pytscope message" '[ ! -s out ] && ! grep -q "No steps" err'
"$BIN" --export ranks runs >out 2>err
tap_check "a folder of runs with --export: the same list" '[ $? -eq 1 ] && grep -q "runs/a-demo" err'

"$BIN" --export sources "$demo" | cut -d, -f2 | sed -n '2,7p' | sed "s|$demo/||" >order
printf 'rank0/run.json\nrank0/steps.jsonl\nrank1/run.json\nrank1/steps.jsonl\nrank2/run.json\nrank2/steps.jsonl\n' >want
tap_check "Sources: files in rank order (rank2 before rank10)" 'cmp -s order want'
tap_plan
