#!/bin/sh
# gpu_peaks.sh: MFU without peak_flops. A run.json naming "NVIDIA H100 80GB HBM3" with
# flops_per_step gets an MFU from the GPU table, labelled with the entry; --peak-tflops
# overrides it; an unknown GPU stays n/a; --compat pytscope never uses the table (its
# report stays pytscope's: MFU n/a). MFU n/a says which part is missing (no
# flops_per_step; the GPU not in the table; no GPU named) in the headline, the report and
# the Budget pane. FLOPs at peak that take longer than the compute phases give no MFU
# natively (pytscope caps it at 100% of them: --compat pytscope still does), saying what
# they imply. A run.json peak_flops the table disagrees with for its own GPU (pytscope's
# 121e12 for an L40S) is kept and warned about; a flops_per_step or peak_flops that is
# no finite positive number (1e400, negative, a string, a boolean) is warned about with
# its file and key and not used (the peak then from the table).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_fixtures"
cd "$TSCOPE_TMP" || exit 1
mkdir -p fx
"$gen" f1 fx/f1 || { tap_notok "fixture generated"; tap_plan; exit 0; }
run_json() { # run_json DIR GPU: f1's steps, a run.json with flops_per_step but no peak
	mkdir -p "$1"
	cp fx/f1/steps.jsonl "$1/"
	printf '{\n  "name": "f1",\n  "config": {},\n  "rank": 0,\n  "world_size": 1,\n  "environment": {"gpu": "%s", "gpu_count": 1},\n  "flops_per_step": 200000000000.0,\n  "n_steps": 60\n}\n' "$2" >"$1/run.json"
}
run_json h100 "NVIDIA H100 80GB HBM3"
run_json l40 "NVIDIA L40"

# 60 steps x 2e11 FLOPs at 989.4e12 FLOP/s over f1's 1.396 s wall
want=$(awk 'BEGIN { printf "%.1f%%", 100 * 60 * 2e11 / 989.4e12 / 1.3956 }')
"$TSCOPE_BIN" --print --color never h100 >h100.out 2>/dev/null
tap_check "H100 80GB HBM3 + flops_per_step: MFU $want, labelled with the table entry" \
	'grep -q "^  MFU $want  ·  useful compute .* rank wall  (peak from GPU table: H100 SXM)$" h100.out'
tap_check "... in the headline too" 'grep -q "^  budget .*MFU $want (peak from GPU table: H100 SXM)$" h100.out'
"$TSCOPE_BIN" --export budget h100 >b.csv
tap_check "budget view: an mfu value" '[ -n "$(sed -n 2p b.csv | cut -d, -f5)" ]'
"$TSCOPE_BIN" --print --color never --peak-tflops 312 h100 >p.out 2>/dev/null
tap_check "--peak-tflops overrides the table (no table label)" \
	'grep -q "^  MFU 2.8%  ·  useful compute 2.8% of 1.4 s rank wall$" p.out'
"$TSCOPE_BIN" --print --color never l40 >l40.out 2>/dev/null
tap_check "unknown GPU (L40): MFU n/a as before" 'grep -q "(MFU: n/a)" l40.out && ! grep -q "GPU table" l40.out'
"$TSCOPE_BIN" --print --color never --compat pytscope h100 >c.out 2>/dev/null
tap_check "--compat pytscope: no table, MFU n/a as pytscope prints it" \
	'grep -q "^  wall 1.40s over 60 steps (MFU: n/a)$" c.out && ! grep -q "GPU table" c.out && ! grep -q "LOW_MFU" c.out'
# mk DIR MEMBERS: f1's steps, a run.json of the given JSON members
mk() {
	mkdir -p "$1"
	cp fx/f1/steps.jsonl "$1/"
	printf '{"name": "f1", "rank": 0, "world_size": 1, "n_steps": 60, %s}\n' "$2" >"$1/run.json"
}
rep() { "$TSCOPE_BIN" --print --no-index --color never "$@" 2>/dev/null; }
src() { "$TSCOPE_BIN" --export sources --no-index "$1" 2>/dev/null; }
# FLOPs/peak implying more time than the compute phases (2e13 FLOPs a step at the T4's
# 65 TFLOP/s is 18.5 s over 60 steps, against 0.66 s of compute): no MFU of 100%
mk t4 '"environment": {"gpu": "Tesla T4"}, "flops_per_step": 2e13'
rep t4 >t4.out
tap_check "FLOPs/peak above the compute: MFU n/a naming the implied share and what to check (headline)" \
	'grep -q "^  budget .*; MFU n/a: FLOPs/peak imply [0-9.]*% of the compute time: check flops_per_step" t4.out &&
	 grep -q " and the GPU table.s T4 peak$" t4.out'
tap_check "... and the report's budget, with no MFU figure and no LOW_MFU (its data stall is still judged)" \
	'grep -q "^  MFU n/a: FLOPs/peak imply" t4.out && ! grep -q "MFU [0-9]\|LOW_MFU" t4.out &&
	 grep -q "(EFFICIENCY.RECOVERABLE)" t4.out'
"$TSCOPE_BIN" --export budget --no-index t4 >t4.csv 2>/dev/null
tap_check "... the budget view: mfu and compute_overhead_s empty, not 0" \
	'[ "$(sed -n 3p t4.csv | cut -d, -f5,8)" = "," ]'
mk t4p '"environment": {"gpu": "Tesla T4"}, "flops_per_step": 2e13, "peak_flops": 65e12'
rep --compat pytscope t4p >t4c.out
tap_check "--compat pytscope keeps pytscope's cap (MFU = the compute share)" \
	'grep -q "^  MFU 48.4%  ·  useful compute 48.4% of 1.40s wall$" t4c.out'
tap_check "... natively n/a, naming run.json's peak" \
	'rep t4p | grep -q "; MFU n/a: FLOPs/peak imply .*: check flops_per_step and peak_flops$"'
printf '5\n:dump %s\nq\n' "$PWD/bp.txt" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=200 "$TSCOPE_BIN" --tui --no-index t4 >/dev/null 2>&1
tap_check "... the Budget pane: MFU n/a with why, compute_overhead n/a" \
	'grep -q "compute 48.4%, MFU n/a: FLOPs/peak imply" bp.txt &&
	 grep -q "compute_overhead .* - *n/a MFU n/a (above)" bp.txt'
# a run.json peak the table disagrees with for the GPU beside it: kept, warned about
mk l40s '"environment": {"gpu": "NVIDIA L40S"}, "flops_per_step": 2e11, "peak_flops": 121e12'
want=$(awk 'BEGIN { printf "%.1f%%", 100 * 60 * 2e11 / 121e12 / 1.3956 }')
tap_check "run.json peak_flops of an L40S at pytscope's 121e12: kept (MFU $want) ..." \
	'rep l40s | grep -q "; MFU $want$"'
tap_check "... and warned about, both values and the table entry named" \
	'src l40s | grep -q "^warning,l40s/run.json,,0,,,,,peak_flops 121 TFLOP/s is not the GPU table.s 362.05 TF" &&
	 src l40s | grep -q "for environment.gpu .NVIDIA L40S. (entry L40S): MFU uses run.json.s"'
mk h100r '"environment": {"gpu": "NVIDIA H100 80GB HBM3"}, "flops_per_step": 2e11, "peak_flops": 989e12'
tap_check "pytscope's 989e12 for an H100 SXM (989.4 in the table): rounding, no warning" \
	'! src h100r | grep -q "^warning"'
# values MFU cannot use: warned about with file and key, not used
mk pkinf '"environment": {"gpu": "NVIDIA A100-SXM4-80GB"}, "flops_per_step": 2e11, "peak_flops": 1e400'
tap_check "peak_flops 1e400: a warning, and the table's A100 peak, not MFU 0%" \
	'src pkinf | grep -q "^warning,pkinf/run.json,.*peak_flops 1e400 is not a finite number: not used for MFU" &&
	 rep pkinf | grep -q "; MFU 2.8% (peak from GPU table: A100)$"'
mk flinf '"flops_per_step": 1e400, "peak_flops": 312e12'
tap_check "flops_per_step 1e400: a warning, MFU n/a saying so" \
	'src flinf | grep -q "flops_per_step 1e400 is not a finite number: not used for MFU" &&
	 rep flinf | grep -q "; MFU n/a: flops_per_step is not a finite number; give --flops-per-step$"'
mk pkneg '"environment": {"gpu": "Acme Z9000"}, "flops_per_step": 2e11, "peak_flops": -3.12e14'
tap_check "peak_flops negative, GPU not in the table: a warning, MFU n/a naming both" \
	'src pkneg | grep -q "peak_flops -3.12e+14 is not a positive number: not used for MFU" &&
	 rep pkneg | grep -q "MFU n/a: peak_flops is negative and GPU .Acme Z9000. is not in the peak table; give"'
mk flstr '"flops_per_step": "12e12", "peak_flops": 312e12'
mk flbool '"flops_per_step": true, "peak_flops": 312e12'
tap_check "flops_per_step a string or a boolean: a warning each, MFU n/a: not a number" \
	'src flstr | grep -q "flops_per_step \"\"12e12\"\" is not a number: not used for MFU" &&
	 src flbool | grep -q "flops_per_step true is not a number: not used for MFU" &&
	 rep flstr | grep -q "; MFU n/a: flops_per_step is not a number; give --flops-per-step$"'
# which part is missing
tap_check "FLOPs but a GPU not in the table: MFU n/a names the GPU (headline, report)" \
	'grep -q "; MFU n/a: GPU .NVIDIA L40. is not in the peak table; give --peak-tflops$" l40.out &&
	 grep -q "^  MFU n/a: GPU .NVIDIA L40. is not in the peak table; give --peak-tflops$" l40.out'
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=200 "$TSCOPE_BIN" --tui --no-index l40 >/dev/null 2>&1
tap_check "... the Budget pane too" \
	'grep -q "MFU n/a: GPU .NVIDIA L40. is not in the peak table; give --peak-tflops" bp.txt'
mk nogpu '"flops_per_step": 2e11'
tap_check "FLOPs, no peak, no GPU named: says so" \
	'rep nogpu | grep -q "; MFU n/a: no peak_flops and no GPU named; give --peak-tflops$"'
mk noflops '"environment": {"gpu": "NVIDIA A100-SXM4-80GB"}'
tap_check "--peak-tflops without FLOPs: no flops_per_step" \
	'rep --peak-tflops 312 noflops | grep -q "; MFU n/a: no flops_per_step; give --flops-per-step$"'
mk nothing '"config": {}'
tap_check "neither FLOPs nor a peak nor a GPU: no FLOPs/peak, as before" \
	'rep nothing | grep -q "; MFU n/a: no FLOPs/peak (--flops-per-step, --peak-tflops)$"'
tap_plan

