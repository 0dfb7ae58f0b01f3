#!/bin/sh
# unused_options.sh: an option for an input family the run does not have is named on
# stderr ("--objective and --constraint ignored: for GenAI-Perf sweeps only, and this run
# has none"), listing only the options given; options that apply say nothing. --ranks on
# a steps.jsonl given directly or a directory without rank dirs (also indexed, also
# followed) is named as ignored and the file's steps are loaded (they were left out as
# rank 0: "none of the ranks it names has data", exit 1); on a run of one rank dir it applies.
# The sizing options apply to NAT output and to a GenAI-Perf concurrency sweep with a p95
# latency fit (--target-runtime to NAT output alone): on a Cerebras file or a request-rate
# sweep they are named as ignored. --ranks-per-node on a run whose every rank records a
# hostname (the node roll-up groups by hostname then) is named as ignored. A comparison of
# two runs names the options neither run has a family for ("neither run has any").
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
demo="$TSCOPE_ROOT/testdata/demo"
"$TSCOPE_BIN" --print --no-index --objective ttft_p99:1 --constraint 'ttft_p99<3' --test-gpus 2 "$demo" \
	>demo.out 2>demo.err
fit="GPU sizing (NAT output, or a GenAI-Perf concurrency sweep with a p95 latency fit)"
tap_check "a training run: the sweep and sizing options named, once each" \
	'grep -qx "tscope-tui: --objective and --constraint ignored: for GenAI-Perf sweeps only, and this run has none" \
	 demo.err && grep -qx "tscope-tui: --test-gpus ignored: for $fit only, and this run has none" demo.err &&
	 [ "$(grep -c ignored demo.err)" -eq 2 ] && [ -s demo.out ]'
mkdir -p cb/performance
cp "$TSCOPE_ROOT/tests/unit/fixtures/sweep/cerebras_sum_of_rates.json" cb/performance/performance.json
"$TSCOPE_BIN" --print --no-index --warmup 3 --flops-per-step 1e12 --peak-tflops 3 --ranks 0-3 cb >cb.out 2>cb.err
tap_check "a Cerebras file: the step options listed as given (a, b and c), --ranks named" \
	'grep -qx "tscope-tui: --warmup, --flops-per-step and --peak-tflops ignored: for step records only, and this run \
has none" cb.err && grep -qx "tscope-tui: --ranks ignored: for rank dirs or traces only, and this run has none" \
	 cb.err'
sz="--target-users 100 --test-gpus 8 --target-latency 0.1"
sizing="tscope-tui: --target-users, --target-latency and --test-gpus ignored: for $fit only, and this run has none"
"$TSCOPE_BIN" --print --no-index $sz cb >cbs.out 2>cbs.err
tap_check "a Cerebras file: the sizing options named as ignored" 'grep -qx "$sizing" cbs.err'
csv() { # csv DIR P95_MS RPS: a GenAI-Perf CSV with a p95 request latency and a throughput
	mkdir -p "$1"
	printf 'Metric,avg,p95\nRequest Latency (ms),%s,%s\n\n' $2 $2 >"$1/profile_export_genai_perf.csv"
	printf 'Metric,Value\nRequest Throughput (per sec),%s\n' $3 >>"$1/profile_export_genai_perf.csv"
}
for r in 1 2 4; do csv rr/m-openai-chat-request_rate$r $((1000 + r * 100)) $r; done
"$TSCOPE_BIN" --print --no-index $sz rr >rr.out 2>rr.err
tap_check "a request-rate sweep (no concurrency fit): the sizing options named as ignored" 'grep -qx "$sizing" rr.err'
for c in 1 2 4; do csv cc/m-openai-chat-concurrency$c $((1000 + c * 100)) $c; done
"$TSCOPE_BIN" --print --no-index $sz --target-runtime 5 cc >cc.out 2>cc.err
tap_check "a concurrency sweep: --target-runtime (NAT only) named, the options its fit takes not" \
	'grep -qx "tscope-tui: --target-runtime ignored: for NAT sizing (p95 workflow runtime) only, and this run has \
none" cc.err && [ "$(grep -c ignored cc.err)" -eq 1 ] && grep -q "→ no GPU estimate for p95 latency 0.1 s" cc.out'
"$TSCOPE_BIN" --print --no-index --warmup 3 --ranks 0-3 --ranks-per-node 4 "$demo" >ok.out 2>ok.err
tap_check "options that apply: nothing said of them" '! grep -q ignored ok.err'
ign="tscope-tui: --ranks ignored: for rank dirs or traces only, and this run has none"
mkdir -p flat one/rank0
cp "$demo/rank3/steps.jsonl" "$demo/rank3/run.json" flat/ && cp flat/* one/rank0/
for p in flat/steps.jsonl flat; do
	"$TSCOPE_BIN" --print --no-index --ranks 5 "$p" >flat.out 2>flat.err
	tap_check "--ranks 5 on $p (no rank dirs): named as ignored, its steps loaded" \
		'[ $? -eq 0 ] && grep -qx "$ign" flat.err && grep -q "^  ranks  *1$" flat.out &&
		 ! grep -q "left 1" flat.err'
done
"$TSCOPE_BIN" index flat >/dev/null 2>&1
"$TSCOPE_BIN" --print --ranks 5 flat >flati.out 2>flati.err
tap_check "--ranks 5 on an indexed dir without rank dirs: ignored, its steps restored" \
	'[ $? -eq 0 ] && grep -qx "$ign" flati.err && grep -q "^  ranks  *1$" flati.out'
printf '1\n:dump %s/flatf\n' "$PWD" >keys
TSCOPE_SCRIPT=keys TERM=dumb LINES=30 COLUMNS=120 "$TSCOPE_BIN" --no-index --tui --follow --ranks 5 flat >/dev/null 2>&1
tap_check "--ranks 5 following a dir without rank dirs: its steps.jsonl followed, not left out" \
	'grep -q "^  coverage  *1 of 16 ranks" flatf && ! grep -q "subset\|no record yet" flatf'
"$TSCOPE_BIN" --print --no-index --ranks 0 one >one.out 2>one.err
tap_check "--ranks 0 on a run of one rank dir: it applies, nothing said" '[ $? -eq 0 ] && ! grep -q ignored one.err'
cp -r "$demo" hosts
for r in $(seq 0 15); do
	sed -i "s/\"environment\": *{/\"environment\": {\"hostname\": \"gpu-$((r / 4))\", /" hosts/rank$r/run.json
done
"$TSCOPE_BIN" --export nodes --no-index --ranks-per-node 8 hosts >hosts.csv 2>hosts.err
tap_check "--ranks-per-node where every rank records a hostname: named as ignored, nodes by hostname" \
	'grep -qx "tscope-tui: --ranks-per-node ignored: every rank records a hostname; nodes are by hostname" \
		hosts.err &&
	 [ "$(tail -n +2 hosts.csv | cut -d, -f12 | sort -u)" = hostname ]'
cp -r rr rr2 && printf "computation ^gemm_x\n" >kc.txt
"$TSCOPE_BIN" --print --no-index --objective ttft_p99:1 --kernel-classes kc.txt --target-users 3 "$demo" hosts \
	>pair.out 2>pair.err
"$TSCOPE_BIN" --print --no-index --warmup 5 --flops-per-step 1e9 rr rr2 >swp.out 2>swp.err
tap_check "a comparison: the options neither run has a family for named, once each" \
	'grep -qx "tscope-tui: --objective ignored: for GenAI-Perf sweeps only, and neither run has any" pair.err &&
	 grep -qx "tscope-tui: --kernel-classes ignored: for Kineto traces only, and neither run has any" pair.err &&
	 grep -qx "tscope-tui: --target-users ignored: for $fit only, and neither run has any" pair.err &&
	 [ "$(grep -c ignored pair.err)" -eq 3 ] &&
	 grep -qx "tscope-tui: --warmup and --flops-per-step ignored: for step records only, and neither run has any" \
		swp.err'
tap_plan
