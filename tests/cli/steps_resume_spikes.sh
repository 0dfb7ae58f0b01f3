#!/bin/sh
# steps_resume_spikes.sh: what a resume from a checkpoint (the step numbers go back) leaves the
# spike tests and the divergence to judge, natively. The first records after a resume are
# judged against the records it continues (those below the step it goes back to, through
# earlier resumes too), not against the run it leaves behind: a blow-up 3 records after the
# resume is found and named by its run; records logged out of order in pairs (51, 50) are no
# resume, so a spike among them is found and named by its step alone; a resume back to
# step 0 or 2, with fewer than the 6 earlier records the spike tests need, names the records
# it leaves unjudged (how many, which steps, why) in the report and in --export findings. A
# NaN loss that a resume left behind, with a finite loss after it, is a recovered
# divergence (medium, naming the resume, the trend that of the run that continued); one in
# the run that continued says which run at a step logged twice. --compat pytscope keeps
# pytscope's one series (its finding at the blow-up, its divergence).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

rep() { "$TSCOPE_BIN" --print --no-index --color never "$@" 2>/dev/null; }
csv() { "$TSCOPE_BIN" --export findings --no-index "$@" 2>/dev/null; }

# gen DIR [SPIKE [NAN_LO NAN_HI [BAD_LO BAD_HI]]]: one record per step number read from stdin, in
# order; the loss falls with the step number (the same value when a step is logged again); record
# SPIKE (1-based) has 5x the loss, grad_norm 40 and 3x the step time; records NAN_LO..NAN_HI have a
# NaN loss; records BAD_LO..BAD_HI have 10x the loss, grad_norm 80 and 6x the step time.
gen() {
	mkdir -p "$1"
	awk -v sp="${2:-0}" -v n0="${3:-0}" -v n1="${4:-0}" -v b0="${5:-0}" -v b1="${6:-0}" '{
		s = $1; loss = 2 * exp(-s / 100) + 0.1 + 0.002 * ((s * 7) % 5)
		g = 1 + 0.01 * ((s * 3) % 7); f = 0.004 + 0.0001 * ((s * 5) % 3)
		if (NR == sp) { loss *= 5; g = 40; f *= 3 }
		if (NR >= b0 && NR <= b1) { loss *= 10; g = 80; f *= 6 }
		l = NR >= n0 && NR <= n1 ? "NaN" : sprintf("%.17g", loss)
		printf "{\"step\":%d,\"phases\":{\"data\":0.001,\"forward\":%s,\"backward\":0.006},", s, f
		printf "\"scalars\":{\"loss\":%s,\"grad_norm\":%s}}\n", l, g
	}' >"$1/steps.jsonl"
}
back="the resume from step 59 back to 40"

# 1. steps 0-59, resumed at 40: the blow-up at step 43 of the resumed run (record 64)
{ seq 0 59; seq 40 99; } | gen resspike 64
rep resspike >resspike.out
rep --compat pytscope resspike >resspikec.out
csv resspike >resspike.csv
tap_check "a blow-up 3 records after a resume: found, named as after it" \
	'grep -q "^  \[HIGH\] Correlated instability at step 43 after $back  (CROSS" resspike.out &&
	 grep -q "^        At step 43 after $back, 3 independent axes spike" resspike.out &&
	 grep -q "^  loss spikes at steps \[43\]$" resspike.out && grep -q "^  grad-norm spikes at steps \[43\]$" resspike.out'
tap_check "a blow-up 3 records after a resume: in --export findings, not judged only the optimizer share and memory" \
	'grep -q "^high,CROSS.CORRELATED_INSTABILITY,Correlated instability at step 43 after $back," resspike.csv &&
	 [ "$(grep "^not judged" resspike.csv | cut -d, -f2)" = "TIMING.OPTIMIZER_HEAVY
MEMORY.FRAGMENTATION MEMORY.GROWTH" ]'
tap_check "a blow-up after a resume, --compat pytscope: pytscope's finding (no run named)" \
	'grep -q "^  \[HIGH\] Correlated instability at step 43  (CROSS" resspikec.out'

# 2. resumed twice: steps 0-59, 40-79 (from step 45 on 10 times as high, records 66-100), then
# 45-99; the blow-up at step 47 of the last run (record 103) is judged against steps 40-44 of the
# second run and the first run's before 40, not against the higher steps it left behind
{ seq 0 59; seq 40 79; seq 45 99; } | gen twice 103 0 0 66 100
rep twice >twice.out
tap_check "a blow-up 2 records after a second resume: judged with the history through both runs" \
	'grep -q "^  \[HIGH\] Correlated instability at step 47 after the resume from step 79 back to 45  (CROSS" twice.out &&
	 grep -q "^  loss spikes at steps \[45, 46, 47, 48, 49, 50, 47\]$" twice.out'

# 3. records logged out of order in pairs (1, 0, 3, 2, ...): no resume; the spike at step 50 (record 52)
seq 0 2 98 | awk '{ print $1 + 1; print $1 }' | gen ooo 52
rep ooo >ooo.out
tap_check "records out of order in pairs: no resume, the spike at step 50 found and named by its step" \
	'grep -q "^  \[HIGH\] Correlated instability at step 50  (CROSS" ooo.out &&
	 grep -q "^  loss spikes at steps \[50\]$" ooo.out && ! grep -q "resume" ooo.out'

# 4. too little history: a resume back to step 0, and one back to step 2
{ seq 0 59; seq 0 39; } | gen zero
rep zero >zero.out
csv zero >zero.csv
why0="spikes (loss, grad-norm, correlated) at steps 0–5 after the resume from step 59 back to 0 (6 records:"
why0="$why0 nothing was logged below step 0 before it, the spike tests need 6 earlier records)"
tap_check "a resume back to step 0: its first 6 records named as not judged, in the report and the export" \
	'grep -qxF "  - $why0" zero.out && grep -qF "not judged,CROSS.CORRELATED_INSTABILITY,\"$why0\"" zero.csv'
{ seq 0 59; seq 2 39; } | gen two
two="after the resume from step 59 back to 2 (4 records: only 2 records below step 2 were logged before it,"
two="$two the spike tests need 6 earlier records)"
rep two >two.out
tap_check "a resume back to step 2: the 4 records short of history named, with the 2 before them" \
	'grep -qxF "  - spikes (loss, grad-norm, correlated) at steps 2–5 $two" two.out'
tap_check "a resume with history enough: nothing named" '! grep -q "spike tests need" resspike.out twice.out ooo.out'
rep --compat pytscope zero >zeroc.out
tap_check "--compat pytscope: no such item (one series)" '! grep -q "spike tests need" zeroc.out'

# 5. NaN loss at steps 45-47 (records 46-48), then resumed at 40 and clean to 99: recovered
{ seq 0 47; seq 40 99; } | gen nanres 0 46 48
rep nanres >nanres.out
rep --compat pytscope nanres >nanresc.out
cont="The run that continued from there has a finite loss through its last step (99)"
tap_check "a divergence a resume left behind: medium, recovered, naming the resume" \
	'grep -q "^  \[MED \] Loss diverged (NaN/Inf), then recovered after a resume  (CONVERGENCE.DIVERGED)$" nanres.out &&
	 grep -q "^        Loss became non-finite at step 45 before the resume from step 47 back to 40. $cont" nanres.out &&
	 ! grep -q "broken from this point" nanres.out'
tap_check "a divergence a resume left behind: the trend is the run's that continued" \
	'grep -q "^  loss trend improving · " nanres.out'
tap_check "... CONVERGENCE says it was left behind and recovered (it read DIVERGED), pytscope's DIVERGED kept" \
	'grep -q "^  diverged at step 45 before the resume from step 47 back to 40; recovered$" nanres.out &&
	 ! grep -q "DIVERGED at" nanres.out && grep -q "^  DIVERGED at step 45$" nanresc.out'
tap_check "a divergence a resume left behind, --compat pytscope: pytscope's finding and trend" \
	'grep -q "^  loss trend diverged · " nanresc.out &&
	 grep -q "^  \[HIGH\] Loss diverged (NaN/Inf)  (CONVERGENCE.DIVERGED)$" nanresc.out &&
	 grep -q "^        Loss became non-finite at step 45. Training is broken from this point" nanresc.out'

# 6. the NaN after the resume (steps 45-99 of the resumed run): broken, and which run
{ seq 0 59; seq 40 99; } | gen nanafter 0 66 120
rep nanafter >nanafter.out
tap_check "a divergence in the run that continued, at a step logged twice: which run, still broken" \
	'grep -q "^  \[HIGH\] Loss diverged (NaN/Inf)  (CONVERGENCE.DIVERGED)$" nanafter.out &&
	 grep -q "^        Loss became non-finite at step 45 after $back. Training is broken from this point" nanafter.out &&
	 grep -q "^  loss trend diverged · " nanafter.out'
tap_plan
