#!/bin/sh
# print_goldens.sh: `--print --compat pytscope` is byte-identical to pytscope 0.2.1
# `--color never analyze` for the spec's fixtures F1 and F2 (goldens tests/cli/f1.out,
# f2.out; UPDATE=1 rewrites them) and the default report differs only where it should,
# plus the color layer (an empty NO_COLOR or FORCE_COLOR ignored, but under --compat),
# --compat pytscope refused (exit 2) on input pytscope does not read (sweeps, NAT,
# Cerebras, DASF; --print, --export, --tui, pairs, beside a --trace),
# --warmup, --flops-per-step/--peak-tflops, exit codes, --help and --version. TIMING's
# phase names are aligned by display columns (by code points under --compat pytscope).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
[ -x "$gen" ] || gen="$TSCOPE_BUILD/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
mkdir -p fx
"$gen" f1 fx/f1 && "$gen" f2 fx/f2 || { tap_notok "fixtures generated"; exit 1; }

for f in f1 f2; do
	golden="$TSCOPE_ROOT/tests/cli/$f.out"
	"$TSCOPE_BIN" --print --compat pytscope --color never "fx/$f" >"$f.got" 2>"$f.err"
	rc=$?
	if [ "${UPDATE:-0}" = 1 ]; then cp "$f.got" "$golden"; fi
	tap_check "$f: exit status 0" '[ "$rc" -eq 0 ]'
	if cmp -s "$f.got" "$golden"; then tap_ok "$f: output byte-identical to the golden"; else
		tap_notok "$f: output byte-identical to the golden"; diff "$golden" "$f.got" | sed 's/^/# /' | head -20; fi
done

# The default report: tscope-tui's header, the same sections; same findings on F1/F2.
"$TSCOPE_BIN" --print --color never fx/f2 >d2.got
tap_check "default report: tscope-tui header" 'head -1 d2.got | grep -qx "tscope-tui — ddp  (fx/f2)"'
# then the headline (every subsystem's summary lines, as in the Overview pane), then
# the same sections as pytscope.
sed -n '3,/^$/p' d2.got >d2.head
tap_check "default report: a headline of summary lines" 'grep -q "^  ranks  *4$" d2.head && grep -q "^  budget  *compute 76.9% of rank wall 650 ms (rank 0); MFU n/a" d2.head'
tap_check "default report: the headline names the straggler set" 'grep -qx "  stragglers  *1 (rank 2: 24% slower from step 5, cost 125 ms)" d2.head'
# ... except where pytscope's bare "wall" gets its glossary term (man page, Glossary)
# and the budget's seconds follow the units rule (README "Numbers": 650 ms, not 0.65s), the
# recoverable finding's too (150 ms, not 0.15s).
# Beside the findings, the rules that could not judge F2 (no data or optimizer phase, no
# memory): listed, their silence no verdict.
tap_check "default report: beside the findings, what could not be judged on F2" \
	'[ "$(sed -n "/^  not judged (no finding there is no verdict):\$/,\$p" d2.got)" = "  not judged (no finding there is no verdict):
  - phase-share rules (no data or optimizer phase recorded by rank 0)
  - memory (no memory recorded by rank 0)" ]'
tap_check "default report: the rest as pytscope on F2, walls and the lowest rank named" '[ "$(sed "3,/^\$/d; /^  not judged (no finding/,\$d" d2.got | tail -n +2)" = "$(tail -n +2 "$TSCOPE_ROOT/tests/cli/f2.out" |
	sed "s/^  wall lost to imbalance/  critical compute lost to imbalance/; s/wall-time decomposition/rank wall decomposition (rank 0)/; s/^  wall \(.*\)over/  rank wall \1over/" |
	sed "s/^\(. TIMING\) —/\1 (rank 0) —/; s/^\(. MEMORY\)$/\1 (rank 0)/; s/^\(. CONVERGENCE\)$/\1 (rank 0)/" |
	sed "s/0\.65s over/650 ms over/; s/   0\.50s\$/  500 ms/; s/   0\.15s (rec/  150 ms (rec/" |
	sed "s/(0\.15s over/(150 ms over/")" ]'
"$TSCOPE_BIN" --print --compat nope fx/f2 >/dev/null 2>cn.err
rc=$?
tap_check "--compat with an unknown tool: exit 2" '[ "$rc" -eq 2 ] && grep -q "expected pytscope" cn.err'

# --compat pytscope on input pytscope 0.2.1 does not read (a GenAI-Perf sweep, NAT or
# Cerebras output, a DASF database; alone, as a pair, beside a --trace): a usage error
# naming it, exit 2, nothing on stdout, in every mode; never pytscope's "Training looks
# balanced" over a sweep whose knee or merge rule could not be judged.
fx="$TSCOPE_ROOT/tests/unit/fixtures/sweep"
gen_dir="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests"
[ -x "$gen_dir/gen_sweep" ] || gen_dir="$TSCOPE_BUILD/tests"
mkdir -p un/cb un/nat un/one
cp "$fx/cerebras_sum_of_rates.json" un/cb/performance.json
cp "$fx/nat_stored_latency_fit.json" un/nat/calc_runner_output.json
cp "$fx/x_genai_perf.csv" un/one/
"$gen_dir/gen_sweep" un/sw 20 2 3 >/dev/null && "$gen_dir/gen_sweep" un/sw2 20 2 3 >/dev/null &&
	"$gen_dir/gen_dasf" fixture un/dasf >/dev/null && "$gen_dir/gen_trace" un/rank0.pt.trace.json 1 0 ||
	tap_notok "--compat refusal fixtures generated"
compat_refused() { # compat_refused DESC FAMILY TAIL ARGS...: exit 2, stdout empty, the family named
	_d=$1 _fam=$2 _tail=$3
	shift 3
	"$TSCOPE_BIN" --compat pytscope "$@" >un.out 2>un.err </dev/null
	_rc=$?
	_want="tscope-tui: --compat pytscope: pytscope 0.2.1 reads no $_fam; drop --compat $_tail"
	tap_check "$_d" '[ "$_rc" -eq 2 ] && [ ! -s un.out ] && [ "$(cat un.err)" = "$_want" ]'
}
compat_refused "--compat pytscope, a Cerebras performance.json: refused, no verdict" \
	"Cerebras performance.json" "for its report" --print --color never un/cb
compat_refused "--compat pytscope, a NAT sizing file: refused" "NeMo Agent Toolkit sizing" "for its report" \
	--print un/nat
compat_refused "--compat pytscope, a one-level GenAI-Perf sweep: refused" "GenAI-Perf sweep" "for its report" \
	--print un/one
compat_refused "--compat pytscope, a sweep with a knee: refused (no SWEEP rule under --compat)" \
	"GenAI-Perf sweep" "for its report" --print un/sw
compat_refused "--compat pytscope, a DASF database: refused" "DASF event database" "for its report" --print un/dasf
compat_refused "--compat pytscope, a sweep beside a --trace: refused" "GenAI-Perf sweep" "for its report" \
	--print --trace un/rank0.pt.trace.json un/sw
compat_refused "--compat pytscope, a pair of sweeps: refused, not compared" "GenAI-Perf sweep" "for its report" \
	--print un/sw un/sw2
compat_refused "--compat pytscope --export: refused" "GenAI-Perf sweep" "to export it" --export findings un/sw
compat_refused "--compat pytscope --tui: refused before the terminal is asked" "Cerebras performance.json" \
	"to explore it" --tui un/cb
"$TSCOPE_BIN" --print --color never un/cb >un.out 2>/dev/null
tap_check "... the same Cerebras file without --compat: its report, exit 0" \
	'[ $? -eq 0 ] && grep -q "^● CEREBRAS" un.out && ! grep -q "Training looks balanced" un.out'

# Color: SGR only, and stripping it gives the plain text exactly.
"$TSCOPE_BIN" --print --compat pytscope --color always fx/f2 >c.got
tap_check "--color always emits SGR" 'grep -q "$(printf "\033")\[" c.got'
sed 's/\x1b\[[0-9;]*m//g' c.got >c.plain
tap_check "stripping SGR gives the plain report" 'cmp -s c.plain "$TSCOPE_ROOT/tests/cli/f2.out"'
FORCE_COLOR=1 "$TSCOPE_BIN" --print --compat pytscope fx/f2 >fc.got
tap_check "FORCE_COLOR turns color on off a tty" 'cmp -s fc.got c.got'
NO_COLOR=1 FORCE_COLOR=1 "$TSCOPE_BIN" --print --compat pytscope fx/f2 >nc.got
tap_check "NO_COLOR wins over FORCE_COLOR" 'cmp -s nc.got "$TSCOPE_ROOT/tests/cli/f2.out"'
# An empty NO_COLOR or FORCE_COLOR counts as unset (no-color.org, force-color.org), but
# under --compat pytscope, whose rule is "set" whatever the value.
NO_COLOR= FORCE_COLOR=1 "$TSCOPE_BIN" --print fx/f2 >ne.got
tap_check "empty NO_COLOR: ignored, FORCE_COLOR turns color on" 'grep -q "$(printf "\033")\[" ne.got'
FORCE_COLOR= "$TSCOPE_BIN" --print fx/f2 >fe.got
tap_check "empty FORCE_COLOR: ignored, no color off a tty" '! grep -q "$(printf "\033")\[" fe.got'
NO_COLOR= FORCE_COLOR=1 "$TSCOPE_BIN" --print --compat pytscope fx/f2 >nec.got
tap_check "--compat pytscope: an empty NO_COLOR still wins (pytscope's rule)" \
	'cmp -s nec.got "$TSCOPE_ROOT/tests/cli/f2.out"'
"$TSCOPE_BIN" --compat pytscope fx/f2 >auto.got
tap_check "off a tty the default is the plain report" 'cmp -s auto.got "$TSCOPE_ROOT/tests/cli/f2.out"'

# Options of analyze.
"$TSCOPE_BIN" --print --color never --warmup 10 fx/f1 >w.got
tap_check "--warmup skips the first records" 'grep -q "^● TIMING — 50 steps" w.got'
"$TSCOPE_BIN" --print --color never --flops-per-step 1e10 --peak-tflops 1 fx/f2 >m.got
tap_check "--flops-per-step/--peak-tflops give an MFU line" 'grep -q "^  MFU 76.9%  ·  useful compute 76.9% of 650 ms rank wall" m.got'
"$TSCOPE_BIN" --print --color never --peak-tflops 624 fx/f1 >p.got
tap_check "--peak-tflops overrides run.json" 'grep -q "^  MFU 1.4%" p.got'

# Exit codes.
mkdir -p empty
"$TSCOPE_BIN" --print empty >e.out 2>e.err
rc=$?
tap_check "nothing found: exit 1" '[ "$rc" -eq 1 ]'
tap_check "nothing found: pytscope message on stderr" 'grep -qx "No steps or trace found in '"'"'empty'"'"'." e.err'
tap_check "nothing found: no stdout" '[ ! -s e.out ]'
"$TSCOPE_BIN" --print does-not-exist >/dev/null 2>e2.err
rc=$?
tap_check "missing dir: exit 1" '[ "$rc" -eq 1 ]'
"$TSCOPE_BIN" --no-such-option fx/f1 >/dev/null 2>&1
rc=$?
tap_check "usage error: exit 2" '[ "$rc" -eq 2 ]'
"$TSCOPE_BIN" --warmup abc fx/f1 >/dev/null 2>&1
rc=$?
tap_check "bad --warmup value: exit 2" '[ "$rc" -eq 2 ]'
"$TSCOPE_BIN" --help >h.out 2>&1
rc=$?
tap_check "--help: exit 0 and lists --print" '[ "$rc" -eq 0 ] && grep -q -- "--print" h.out'
"$TSCOPE_BIN" --version >v.out 2>&1
rc=$?
tap_check "--version: exit 0, one line" '[ "$rc" -eq 0 ] && [ "$(wc -l <v.out)" -eq 1 ] && grep -q "^tscope-tui " v.out'

# pytscope crashes on an Infinity loss; we report it as diverged.
mkdir -p inf
printf '{"step":0,"phases":{"forward":0.01},"scalars":{"loss":1.0}}\n{"step":1,"phases":{"forward":0.01},"scalars":{"loss":Infinity}}\n{"phases":{"forward":0.01}}\n' >inf/steps.jsonl
"$TSCOPE_BIN" --print --color never inf >i.out 2>i.err
rc=$?
tap_check "Infinity loss: exit 0" '[ "$rc" -eq 0 ]'
tap_check "Infinity loss: DIVERGED at step 1" 'grep -q "^  DIVERGED at step 1$" i.out && grep -q "CONVERGENCE.DIVERGED" i.out'
tap_check "line without step: counted on stderr (a warning, 1 record skipped)" \
	'grep -q "data quality: 0 errors, 1 warning, .* (1 record skipped)" i.err'

# Names from data reach the terminal and CSV only through the sanitizer.
mkdir -p hostile
printf '{"step":0,"phases":{"\\u001b[31mevil\\u009b":0.01,"forward":0.02}}\n{"step":1,"phases":{"\\u001b[31mevil\\u009b":0.01,"forward":0.02}}\n' >hostile/steps.jsonl
printf '{"name": "run\\u001b]0;pwned\\u0007"}' >hostile/run.json
"$TSCOPE_BIN" --print --color never hostile >h.out 2>&1
tap_check "hostile names: no ESC or C1 in the report" '! grep -q "$(printf "\033")" h.out && ! grep -q "$(printf "\302\233")" h.out'
tap_check "hostile names: shown in caret notation" 'grep -q "^tscope-tui — run^\[\]0;pwned^G  (hostile)" h.out && grep -q "^  ^\[\[31mevil" h.out'
"$TSCOPE_BIN" --export steps hostile >hs.csv 2>&1
tap_check "hostile names: CSV header sanitized" '! grep -q "$(printf "\033")" hs.csv && head -1 hs.csv | grep -q "\^\[\[31mevil"'

# TIMING's phase names are padded to 10 display columns ("前向" is 4 wide: 6 blanks, the
# bar where the others' starts); under --compat pytscope to 10 code points, as pytscope's
# len() counts (8 blanks); in an ASCII report by the columns printed ("Σx" as "sumx").
mkdir -p wide
for s in 0 1 2; do
	printf '{"step":%d,"phases":{"data":0.01,"前向":0.02,"Σx":0.01}}\n' "$s"
done >wide/steps.jsonl
"$TSCOPE_BIN" --print --color never wide >wu.out 2>/dev/null
"$TSCOPE_BIN" --print --compat pytscope --color never wide >wc.out 2>/dev/null
LC_ALL=C "$TSCOPE_BIN" --print --color never wide >wa.out 2>/dev/null
tap_check "TIMING: a wide phase name padded by display columns, its bar under the others'" \
	'grep -q "^  前向       [^ ]" wu.out && grep -q "^  data       [^ ]" wu.out'
tap_check "... under --compat pytscope by code points, as pytscope" 'grep -q "^  前向         [^ ]" wc.out'
tap_check "... in the ASCII report by the columns printed" \
	'grep -q "^  sumx       [^ ]" wa.out && grep -q "^  ??         [^ ]" wa.out'
tap_plan
