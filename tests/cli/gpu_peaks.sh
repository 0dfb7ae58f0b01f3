#!/bin/sh
# gpu_peaks.sh: MFU without peak_flops. A run.json naming "NVIDIA H100 80GB HBM3" with
# flops_per_step gets an MFU from the GPU table, labelled with the entry; --peak-tflops
# overrides it; an unknown GPU stays n/a; --compat pytscope never uses the table (its
# report stays pytscope's: MFU n/a).
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
tap_plan
