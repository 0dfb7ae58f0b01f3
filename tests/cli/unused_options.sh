#!/bin/sh
# unused_options.sh: an option for an input family the run does not have is named on
# stderr ("--objective and --constraint ignored: for GenAI-Perf sweeps only, and this run
# has none"), listing only the options given; options that apply say nothing.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
"$TSCOPE_BIN" --print --no-index --objective ttft_p99:1 --constraint 'ttft_p99<3' --test-gpus 2 "$demo" \
	>demo.out 2>demo.err
tap_check "a training run: the sweep and sizing options named, once each" \
	'grep -qx "tscope-tui: --objective and --constraint ignored: for GenAI-Perf sweeps only, and this run has none" \
	 demo.err && grep -qx "tscope-tui: --test-gpus ignored: for GPU sizing (NAT, GenAI-Perf) only, and this run has \
none" demo.err && [ "$(grep -c ignored demo.err)" -eq 2 ] && [ -s demo.out ]'
mkdir -p cb/performance
cp "$TSCOPE_ROOT/tests/unit/fixtures/sweep/cerebras_sum_of_rates.json" cb/performance/performance.json
"$TSCOPE_BIN" --print --no-index --warmup 3 --flops-per-step 1e12 --peak-tflops 3 --ranks 0-3 cb >cb.out 2>cb.err
tap_check "a Cerebras file: the step options listed as given (a, b and c), --ranks named" \
	'grep -qx "tscope-tui: --warmup, --flops-per-step and --peak-tflops ignored: for step records only, and this run \
has none" cb.err && grep -qx "tscope-tui: --ranks ignored: for ranks. step logs or traces only, and this run has none" \
	 cb.err'
"$TSCOPE_BIN" --print --no-index --warmup 3 --ranks 0-3 --ranks-per-node 4 "$demo" >ok.out 2>ok.err
tap_check "options that apply: nothing said of them" '! grep -q ignored ok.err'
tap_plan
