#!/bin/sh
# steps_messy.sh: step logs of real training loops, judged for what they hold. A record
# without phases (an evaluation's scalars) logged with the step number of the training
# record before it does not replace that record where the ranks align: the ranks are
# weighed (the straggler found), not "rank 0 records no compute phase at 1 of the N
# aligned steps", and the same from the index; the sources note names such a record, not
# a restart; --compat pytscope keeps pytscope's alignment (the last record of a step: 0 s
# there) byte for byte, from the index too. Phases recorded under other names than
# pytscope's (fwd, bwd, h2d, allreduce) are named as such by the efficiency reason, the
# budget export's refusal and the run wall, sanitized, at most 4 of them named; on a run of
# one rank the export's refusal and the report's budget say the same (naming the rank).
# Beside pytscope's phases, the time of such a phase (pytscope's budget leaves it out of
# the wall) is named with its share of the phase time, in the headline and the budget.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

rep() { "$TSCOPE_BIN" --print --color never "$@" 2>/dev/null; }

# evalrun DIR: 4 ranks x 40 steps, rank 2's compute 1.3 x the others' (11.5 ms); rank 0 logs
# an evaluation record (scalars alone) after its training record of step 19
evalrun() {
	for r in 0 1 2 3; do
		mkdir -p "$1/rank$r"
		awk -v r=$r 'BEGIN {
			f = r == 2 ? 1.3 : 1
			for (s = 0; s < 40; s++) {
				printf "{\"step\":%d,\"phases\":{\"data\":0.001,\"forward\":%.6f,\"backward\":%.6f,", s,
					0.004 * f, 0.006 * f
				printf "\"optimizer\":0.0005,\"comm\":0.002},"
				printf "\"scalars\":{\"loss\":%.4f}}\n", 1 / (s + 1)
				if (r == 0 && s == 19) printf "{\"step\":19,\"scalars\":{\"val_loss\":0.5}}\n"
			}
		}' >"$1/rank$r/steps.jsonl"
		echo "{\"name\":\"ev\",\"rank\":$r,\"world_size\":4}" >"$1/rank$r/run.json"
	done
}
evalrun ev
rep --no-index ev >ev.out
rep --no-index --compat pytscope ev >evc.out
tap_check "an eval record after a training record of its step: the ranks weighed, rank 2 the straggler" \
	'grep -q "^  stragglers  *1 (rank 2: " ev.out && grep -q "^  run wall  *[0-9]" ev.out &&
	 grep -q "^    rank 0:   11.50 ms" ev.out && ! grep -q "no compute phase at" ev.out &&
	 [ "$(grep "^  - " ev.out)" = "  - loss plateau (41 steps, needs 50)
  - memory (no memory recorded by rank 0)" ]'
"$TSCOPE_BIN" --export sources --no-index ev >ev.csv 2>/dev/null
note="a record without phases (scalars alone: an evaluation, say) repeats step 19 after step 19: where"
note="$note the ranks align it does not replace a record of that step with phases"
tap_check "... the sources note names a record without phases, not a restart" \
	'grep -q "$note" ev.csv && ! grep -q "restart" ev.csv'
tap_check "... --compat pytscope: pytscope's alignment (rank 0 at 0 s there: 11.21 ms), its straggler" \
	'grep -q "^    rank 0:   11.21 ms" evc.out && grep -q "Rank 2 is a persistent straggler" evc.out'
"$TSCOPE_BIN" index ev >/dev/null 2>&1
rep ev >ev_idx.out
rep --compat pytscope ev >evc_idx.out
tap_check "... the same from the index, native and --compat" 'cmp -s ev.out ev_idx.out && cmp -s evc.out evc_idx.out'

# phases under other names
mkdir oddph
for s in $(seq 0 29); do
	echo "{\"step\":$s,\"phases\":{\"fwd\":0.004,\"bwd\":0.006,\"h2d\":0.003,\"allreduce\":0.002}}"
done >oddph/steps.jsonl
rep --no-index oddph >oddph.out
"$TSCOPE_BIN" --export budget --no-index oddph >oddph.csv 2>oddph.err
only="only fwd, bwd, h2d, allreduce"
none="no data, forward, backward, optimizer, compute, comm or other phase recorded"
tap_check "phases under other names: efficiency not judged for that, naming them (not \"no phase time\")" \
	'grep -qx "  - efficiency ($none, $only)" oddph.out && ! grep -q "no phase time recorded" oddph.out'
tap_check "... the budget export's refusal, the budget line and the EFFICIENCY BUDGET heading say the same" \
	'grep -q "no efficiency budget: rank 0: $none, $only$" oddph.err &&
	 grep -q "^  budget  *n/a: rank 0: $none, $only$" oddph.out &&
	 grep -q "EFFICIENCY BUDGET — n/a: rank 0: $none, $only$" oddph.out'
for r in 0 1 2 3; do mkdir -p oddph4/rank$r && cp oddph/steps.jsonl oddph4/rank$r/; done
rep --no-index oddph4 >oddph4.out
tap_check "... 4 ranks: the run wall n/a for that (not \"no phase recorded\"), efficiency said by rank 0" \
	'grep -q "^  run wall  *n/a: $none, $only$" oddph4.out &&
	 grep -qx "  - efficiency ($none by rank 0, $only)" oddph4.out'
mkdir oddmany
esc=$(printf '\033')
for s in $(seq 0 29); do
	echo "{\"step\":$s,\"phases\":{\"a${esc}[2J\":0.001,\"b\":1,\"c\":1,\"d\":1,\"e\":1,\"f\":1}}"
done >oddmany/steps.jsonl
"$TSCOPE_BIN" --export budget --no-index oddmany >/dev/null 2>oddmany.err
tap_check "... their names sanitized, at most 4 named" \
	'grep -q "$none, only a^\[\[2J, b, c, d and 2 more$" oddmany.err && ! grep -q "$esc" oddmany.err'
# a phase under another name beside pytscope's: 30 of the 128 ms of a step in data_loading
mkdir dl dlesc
for s in $(seq 0 59); do
	printf '{"step":%d,"phases":{"forward":0.03,"backward":0.06,"optimizer":0.005,%s}}\n' "$s" \
		'"comm":0.003,"data_loading":0.03'
done >dl/steps.jsonl
sed "s/data_loading/l${esc}[2J/" dl/steps.jsonl >dlesc/steps.jsonl
rep --no-index dl >dl.out
rep --no-index --compat pytscope dl >dlc.out
rep --no-index dlesc >dlesc.out
dl="data_loading 1.8 s, a phase the budget does not weigh (23.4% of the phase time)"
tap_check "a phase under another name beside them: the budget (compute 96.9%) says the time it leaves out" \
	'grep -q "^  budget  *compute 96\.9% of rank wall 5\.88 s" dl.out && grep -q "^  not in budget  *$dl$" dl.out &&
	 grep -q "^  left out: $dl$" dl.out'
tap_check "... its name sanitized; --compat pytscope: pytscope's budget, no such line" \
	'grep -q "^  left out: l^\[\[2J 1\.8 s, a phase" dlesc.out && ! grep -q "$esc" dlesc.out &&
	 ! grep -q "left out\|not in budget" dlc.out && grep -q "^  wall 5\.88s over 60 steps (MFU: n/a)$" dlc.out'
tap_plan
