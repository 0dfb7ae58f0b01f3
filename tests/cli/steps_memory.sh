#!/bin/sh
# steps_memory.sh: memory growth is per step natively and per memory sample (pytscope's
# robust_slope over the allocs' list) under --compat pytscope. Memory logged every 20th
# step of 100 (200 -> 4200 MiB, 5 samples): the MEMORY section says 50 MB/step over its 5
# samples and steps 0 to 80, and MEMORY.GROWTH is not judged ("5 memory samples, needs
# 20": the rule counts samples, not records); --compat keeps pytscope's 1000 MB/step and
# "~100000 MB over 100 steps". Memory every 5th step of 200 (40 samples) fires natively
# with the per-step figure and the total over the steps the samples span, in --print
# and --export findings. Memory on steps 0-4 only of 100 records: 50 MB/step, not
# judged (not "~5000 MB over 100 steps"). Memory on every step (the spec's F1): the same
# figure as pytscope's, its total from step 0 to step 59. Samples whose step numbers end
# before they begin (a restart) give no per-step figure: not judged, saying why.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
[ -x "$gen" ] || gen="$TSCOPE_BUILD/tests/gen_fixtures"

# mk DIR N EVERY LAST SLOPE_MIB FRAG: N records (steps 0..N-1), alloc (200 + SLOPE_MIB*step) MiB
# on the steps that are multiples of EVERY and at most LAST; reserved alloc*FRAG.
mk() {
	mkdir -p "$1"
	awk -v n="$2" -v every="$3" -v last="$4" -v k="$5" -v fr="$6" 'BEGIN {
		mb = 1048576
		for (s = 0; s < n; s++) {
			mem = ""
			if (s % every == 0 && s <= last)
				mem = sprintf(",\"memory\":{\"alloc\":%.0f,\"reserved\":%.0f}", (200 + k * s) * mb,
					      (200 + k * s) * mb * fr)
			printf "{\"step\":%d,\"phases\":{\"forward\":0.004,\"backward\":0.006},", s
			printf "\"scalars\":{\"loss\":%g}%s}\n", 2 - 0.01 * s, mem
		}
	}' >"$1/steps.jsonl"
}
report() { "$TSCOPE_BIN" --print --color never --no-index "$@" 2>/dev/null; }

mk sparse 100 20 99 50 1.1
report sparse >sp.out
report --compat pytscope sparse >sp_compat.out
tap_check "sparse memory: growth per step over its samples (50 MB/step, not 1000)" \
	'grep -qx "  growth 50.00 MB/step (5 memory samples, steps 0 to 80)" sp.out'
tap_check "sparse memory: MEMORY.GROWTH not judged on 5 memory samples" \
	'! grep -q "MEMORY.GROWTH" sp.out && grep -q "^  - memory growth (5 memory samples, needs 20)$" sp.out'
tap_check "sparse memory, --compat pytscope: pytscope's per-sample figures" \
	'grep -qx "  growth 1000.00 MB/step" sp_compat.out &&
	 grep -q "rises ~1000.0 MB/step (~100000 MB over 100 steps)\. " sp_compat.out'

mk sparse40 200 5 199 10 1.1
report sparse40 >s40.out
"$TSCOPE_BIN" --export findings --no-index sparse40 >s40.csv 2>/dev/null
tap_check "memory every 5th step, 40 samples: MEMORY.GROWTH per step, total over the steps spanned" \
	'grep -q "rises ~9.2 MB/step (~1800 MB from step 0 to step 195, 40 memory samples)\. " s40.out &&
	 grep -qx "  growth 9.23 MB/step (40 memory samples, steps 0 to 195)" s40.out'
tap_check "... and so in --export findings" \
	'grep -q "^high,MEMORY.GROWTH,.*rises ~9.2 MB/step (~1800 MB from step 0 to step 195, 40 memory samples)" \
	 s40.csv'
report --compat pytscope sparse40 >s40_compat.out
tap_check "... --compat pytscope: per sample, over every record" \
	'grep -q "rises ~46.2 MB/step (~9231 MB over 200 steps)\. " s40_compat.out'

mk partial 100 1 4 50 1.1
report partial >pa.out
"$TSCOPE_BIN" --export findings --no-index partial >pa.csv 2>/dev/null
tap_check "memory on steps 0-4 of 100: 50 MB/step over those samples" \
	'grep -qx "  growth 50.00 MB/step (5 memory samples, steps 0 to 4)" pa.out'
tap_check "... MEMORY.GROWTH not judged (no ~5000 MB over 100 steps)" \
	'grep -q "^  - memory growth (5 memory samples, needs 20)$" pa.out &&
	 ! grep -q "^high,MEMORY.GROWTH" pa.csv && ! grep -q "5000 MB" pa.out &&
	 grep -q "^not judged,MEMORY.GROWTH,\"memory growth (5 memory samples, needs 20)\"" pa.csv'

mkdir -p fx
"$gen" f1 fx/f1 || tap_notok "fixture F1 generated"
report fx/f1 >f1.out
tap_check "memory on every step (F1): pytscope's figure, the total from step 0 to step 59" \
	'grep -qx "  growth 1.83 MB/step" f1.out &&
	 grep -q "rises ~1.8 MB/step (~108 MB from step 0 to step 59, 60 memory samples)\. " f1.out'

# steps 10..39, then a restart at step 0 that ends at step 9
mk restart 40 1 99 10 1.1
{ sed -n '11,40p' restart/steps.jsonl; sed -n '1,10p' restart/steps.jsonl; } >restart/s &&
	mv restart/s restart/steps.jsonl
report restart >re.out
tap_check "samples that end before they begin: no per-step growth, not judged saying why" \
	'! grep -q "growth .* MB/step" re.out && ! grep -q "(MEMORY.GROWTH)" re.out &&
	 grep -q "memory growth (the memory samples end at step 9, not after step 10 where they begin)" re.out'
tap_plan
