#!/bin/sh
# dasf_parity.sh: the DASF loader's results stay exactly what they were when the
# single-pass decoder replaced msgpack-c's unpack (issue 17): every DASF view and the
# sources view (`--export all`) of the DASF fixtures, the legacy text format, a database
# holding every value type and encoding (gen_dasf variants) and 900 byte-mutated
# databases (gen_dasf mutants) hash to the digests in tests/cli/golden/dasf_parity.md5,
# which the msgpack-c loader wrote (mut_legacy's since json_parse refuses an object with
# a key but no value: 16 mutants' broken lines are now "not a `trace: {json}` line" with
# their line number, as DASF's json.loads refuses them; var's and the mutants' since the
# sources view sorts diagnostics by file and offset: a change of their order only;
# mut_legacy's again since a file of which nothing was read says "nothing read: see its
# messages", not "ok": three mutants' file rows, which then lose the "no supported data
# found here" beside the loader's own error; fx's, var's and the mutants' when a length that
# frames no record resynchronised inside it (one "bad record length" where a "malformed"
# and a second bad length were, records after it recovered), a gpu_utilization or
# gpu_memory_used that is no usable number, a negative size or tasks count became
# warnings, one host's TracePlugin and ResourceMonitor files with different run parts
# (fx's 1- and 3-) two runs, and one worker's tasks in two files not told apart by their
# names two runs); all but legacy's when task_graph's Critical read "no" for a task off the
# critical path, not an empty cell (DASF writes no task graph: no parity to keep there);
# all when the tasks view (tscope-tui's own) gained the Worker and Function group columns;
# mut_fx's when a Managed Memory event too far from 0 for task_balance (m0136's, 3.5e145 s)
# became a skipped record with a warning, not an event task_balance dropped in silence;
# the mutants' when a Compute event without a numeric duration (a mutated byte) became a task
# whose time is missing, as a NaN one (and, kept, its repeats of another mutant's tasks
# warned of), not a skipped record; skew's when task_graph's Critical read yes on every chain
# as long as the critical path (big-1 and big-2, 3 s each, tie with big-0), not no; var's and
# mut_legacy's when a Compute event the loader skips (var's without an args map, mut_legacy's
# without a name) left the critical path unknown (Critical empty, no critical_path rows), as a
# task without a usable duration does, not a path that may miss the lost task.
# Diagnostics are in the sources view, so their file, offset and reason are compared too.
# Views of other layers (findings, heatmap cells) and the wording of `--print` change with
# other work and are pinned by their own tests; the
# report's exit status is compared. UPDATE=1 rewrites the digests (only for a deliberate
# change).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
BIN=${TSCOPE_BIN:?}
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf"
golden="$TSCOPE_ROOT/tests/cli/golden/dasf_parity.md5"
cd "$TSCOPE_TMP" || exit 1
rm -rf par && mkdir par && cd par || exit 1

"$gen" fixture fx >/dev/null && "$gen" bench 3000 bench >/dev/null && "$gen" legacy legacy.txt &&
	"$gen" skew skew.msgpack && "$gen" names names.msgpack && mkdir var && "$gen" variants var/var.msgpack &&
	"$gen" mutants fx/1-TracePlugin-hA.msgpack 300 mut_fx && "$gen" mutants var/var.msgpack 300 mut_var &&
	"$gen" mutants legacy.txt 300 mut_legacy
tap_rc $? "gen_dasf writes the fixtures, the variants and the mutants"
for f in mut_legacy/*.msgpack; do mv "$f" "${f%.msgpack}.txt"; done

# digest CASE PATH...: the loader's views and the report's exit status, in one md5
digest() {
	name=$1
	shift
	rm -rf "out_$name"
	"$BIN" --format dasf --export all -o "out_$name" "$@" >/dev/null 2>&1
	"$BIN" --format dasf --print --color never "$@" >/dev/null 2>&1
	echo "exit $?" >"print_$name"
	(cd "out_$name" 2>/dev/null &&
		for v in sources tasks function_bottleneck task_bottleneck task_balance task_graph critical_path; do
			[ -e "$v.csv" ] && echo "== $v" && cat "$v.csv"
		done
		cat "../print_$name") | md5sum | cut -d' ' -f1
}

: >got.md5
for c in fx bench legacy.txt skew.msgpack names.msgpack var mut_fx mut_var; do
	echo "$c $(digest "$(echo "$c" | tr ./ __)" "$c")" >>got.md5
done
echo "mut_legacy $(digest mut_legacy --dasf mut_legacy/*.txt)" >>got.md5
[ "${UPDATE:-0}" = 1 ] && cp got.md5 "$golden"
while read -r c want; do
	tap_eq "$c: the DASF views, sources and --print status as the msgpack-c loader gave them" "$want" "$(grep "^$c " got.md5 | cut -d' ' -f2)"
done <"$golden"
tap_plan
