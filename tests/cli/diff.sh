#!/bin/sh
# diff.sh: `--print A B` over two single-rank pytscope runs is byte-identical to
# pytscope 0.2.1 `--color never diff A B` (goldens tests/cli/golden/diff_*.out built from
# pytscope.md §6.8 and §11; UPDATE=1 rewrites them): identical runs, a config diff, an
# environment determinism diff (cudnn.benchmark ON, PYTHONHASHSEED unset), NONDETERMINISM
# with the first divergence index, a side without steps (exit 1), mixed families (exit 1),
# the color layer (removing its codes gives the plain report exactly; the delta column's
# padding counts them under --compat pytscope alone, as pytscope's), and `--export
# diff_env` (a pair whose run.json agree: refused with the reason, exit 1, as --export all
# leaves it out). Without a loss or a run.json, the default report says the
# reproducibility is not judged where pytscope's notes claim more.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

ENV_OK='{"python": "3.11.4", "platform": "Linux-6.1", "cpu_count": 8, "torch": "2.3.0", "cuda_available": true, "cuda": "12.1", "gpu": "Tesla T4", "gpu_count": 1, "cudnn_deterministic": true, "cudnn_benchmark": false, "env": {"PYTHONHASHSEED": "0", "CUBLAS_WORKSPACE_CONFIG": ":4096:8"}}'
ENV_BAD='{"python": "3.11.4", "platform": "Linux-6.1", "cpu_count": 8, "torch": "2.3.0", "cuda_available": true, "cuda": "12.1", "gpu": "Tesla T4", "gpu_count": 1, "cudnn_deterministic": false, "cudnn_benchmark": true, "env": {"CUBLAS_WORKSPACE_CONFIG": ":4096:8"}}'
CFG='{"lr": 0.001, "batch": 32, "layers": [1, 2.5], "opt": {"name": "sgd", "momentum": 0.9}}'
CFG2='{"lr": 0.002, "batch": 32.0, "layers": [1, 2.5], "opt": {"name": "adam", "betas": [0.9, 0.999]}, "seed": null}'

# mkrun DIR NAME ENV CONFIG LOSS... : a single-rank run, steps numbered from 5 (warmup 5)
mkrun() {
	dir=$1 name=$2 env=$3 cfg=$4
	shift 4
	mkdir -p "$dir"
	: >"$dir/steps.jsonl"
	s=5
	for loss in "$@"; do
		printf '{"step":%d,"timestamp":%d.5,"phases":{"data":0.01%d,"forward":0.004,"backward":0.006,"optimizer":0.001},"scalars":{"loss":%s},"memory":{"alloc":%d.0,"reserved":419430400.0}}\n' \
			"$s" $((1795344081 + s)) $((s % 3)) "$loss" $((209715200 + s * 1048576)) >>"$dir/steps.jsonl"
		s=$((s + 1))
	done
	printf '{\n  "name": "%s",\n  "config": %s,\n  "rank": 0,\n  "world_size": 1,\n  "environment": %s,\n  "n_steps": %d\n}' \
		"$name" "$cfg" "$env" "$s" >"$dir/run.json"
}

L1='2.5 2.25 2.0 1.75 1.5 1.25 1.0'
mkrun base base "$ENV_OK" "$CFG" $L1
mkrun same base "$ENV_OK" "$CFG" $L1
mkrun cfg cfg "$ENV_OK" "$CFG2" 2.5 2.3 2.1 1.9 1.7
mkrun envdet envdet "$ENV_BAD" "$CFG" 2.5 2.25 2.0 1.7500000000000002 1.5 1.25 1.0
mkrun nondet base "$ENV_OK" "$CFG" 2.5 2.25 2.0 1.75 NaN 1.25 1.0
mkdir -p nosteps
printf '{"name": "nosteps"}' >nosteps/run.json

golden() { # NAME A B: compare --print A B with tests/cli/golden/diff_NAME.out
	g="$TSCOPE_ROOT/tests/cli/golden/diff_$1.out"
	"$TSCOPE_BIN" --print --color never "$2" "$3" >"$1.got" 2>"$1.err"
	rc=$?
	if [ "${UPDATE:-0}" = 1 ]; then cp "$1.got" "$g"; fi
	tap_check "$1: exit status 0" '[ "$rc" -eq 0 ]'
	if cmp -s "$1.got" "$g"; then tap_ok "$1: byte-identical to the golden"; else
		tap_notok "$1: byte-identical to the golden"; diff "$g" "$1.got" | sed 's/^/# /' | head -20; fi
}
golden identical base same
golden config base cfg
golden envdet base envdet
golden nondet base nondet

"$TSCOPE_BIN" --print --color never --compat pytscope base envdet >compat.got
tap_check "--compat pytscope: the same bytes for a single-rank pair" 'cmp -s compat.got envdet.got'
tap_check "identical runs: Reproducible" 'grep -qx "  • Reproducible: identical environment, config, and step-for-step loss trajectory." identical.got'
tap_check "config: keys listed" 'grep -q "Config differs (lr, opt, seed)" config.got'
tap_check "config: 32 == 32.0 is no difference" '! grep -q "batch" config.got'
tap_check "envdet: cudnn.benchmark ON named" 'grep -q "cudnn.benchmark is ON in '"'"'envdet'"'"'" envdet.got'
tap_check "envdet: PYTHONHASHSEED unset named" 'grep -q "PYTHONHASHSEED is unset in '"'"'envdet'"'"'" envdet.got'
tap_check "envdet: first divergence is an index" 'grep -q "first diverge at step 3\." envdet.got'
tap_check "nondet: NONDETERMINISM" 'grep -q "NONDETERMINISM: identical config and environment" nondet.got'
tap_check "nondet: NaN differs, index 4" 'grep -q "first diverge at step 4\." nondet.got'

# runs without a loss or without run.json: pytscope still says NONDETERMINISM (and an
# unset PYTHONHASHSEED for a side without run.json); tscope-tui says what it cannot judge
for d in noloss1 noloss2 nojson; do
	mkdir -p $d && printf '{"step":5,"phases":{"forward":0.004}}\n{"step":6,"phases":{"forward":0.004}}\n' >$d/steps.jsonl
done
cp base/run.json noloss1/ && cp base/run.json noloss2/
"$TSCOPE_BIN" --print --color never noloss1 noloss2 >noloss.got
"$TSCOPE_BIN" --print --color never --compat pytscope noloss1 noloss2 >noloss_compat.got
tap_check "no loss on either side: not judged, not NONDETERMINISM (pytscope's kept under --compat pytscope)" \
	'grep -qx "  • Reproducibility not judged: neither run records a loss, so no loss trajectories are compared." \
	 noloss.got && ! grep -q NONDETERMINISM noloss.got && grep -q "NONDETERMINISM: identical" noloss_compat.got'
"$TSCOPE_BIN" --print --color never base nojson >nojson.got
"$TSCOPE_BIN" --print --color never --compat pytscope base nojson >nojson_compat.got
tap_check "a side without run.json nor loss: named, no config, PYTHONHASHSEED or divergence verdict on it" \
	'grep -qx "  • Reproducibility not judged: run B (.B.) has no readable run.json, so its environment and config \
are not known." \
	 nojson.got && ! grep -q "Config differs\|unset in .B.\|first diverge" nojson.got &&
	 grep -q "Config differs (batch" nojson_compat.got && grep -q "unset in .B." nojson_compat.got &&
	 grep -q "first diverge at step 0" nojson_compat.got'
mkdir badjson && cp nojson/steps.jsonl badjson/ && printf '{"name": "bad", "config": {' >badjson/run.json
"$TSCOPE_BIN" --print --color never badjson base >badjson.got 2>/dev/null
tap_check "a side whose run.json does not parse: no readable run.json" \
	'grep -q "Reproducibility not judged: run A (.A.) has no readable run.json, so" badjson.got'

"$TSCOPE_BIN" --print base nosteps >ns.out 2>ns.err
rc=$?
tap_check "a side without steps: exit 1" '[ "$rc" -eq 1 ]'
tap_check "a side without steps: pytscope message" 'grep -qx "Both run directories must contain steps." ns.err && [ ! -s ns.out ]'

mkdir -p sweep
printf 'Metric,avg,min,max,p99,p95,p90,p75,p50,p25\nTime To First Token (ms),1,1,1,1,1,1,1,1,1\n' >sweep/profile_export_genai_perf.csv
"$TSCOPE_BIN" --print base sweep >mx.out 2>mx.err
rc=$?
tap_check "mixed families: exit 1 with a message" '[ "$rc" -eq 1 ] && grep -q "cannot compare a steps run with a sweep run" mx.err'

"$TSCOPE_BIN" --print --color always base envdet >col.got
sed 's/\x1b\[[0-9;]*m//g' col.got >col.plain
tap_check "--color always: SGR present" 'grep -q "$(printf "\033")\[35m" col.got'
tap_check "--color always: stripped, the plain report exactly (the delta column aligned as without colour)" \
	'cmp -s col.plain envdet.got && grep -q "$(printf "\033")\[35m+" col.got'
# pytscope pads the colored delta with its escapes counted: kept under --compat pytscope
"$TSCOPE_BIN" --print --compat pytscope --color always base envdet | sed 's/\x1b\[[0-9;]*m//g' >colc.plain
tap_check "--compat pytscope --color always: pytscope's delta padding, the rest as the plain report" \
	'! cmp -s colc.plain envdet.got && [ "$(tr -d " " <colc.plain)" = "$(tr -d " " <envdet.got)" ]'

"$TSCOPE_BIN" --export diff_env base envdet >env.csv
tap_check "--export diff_env lists the determinism keys" \
	'grep -q "^environment,cudnn_benchmark,False,True$" env.csv && grep -q "^environment,env.PYTHONHASHSEED,0,<absent>$" env.csv'
"$TSCOPE_BIN" --export diff_env base same >envs.csv 2>envs.err
rc=$?
"$TSCOPE_BIN" --export all -o envall base same >/dev/null 2>&1
tap_check "--export diff_env of identical run.json: refused with the reason (exit 1), as --export all omits it" \
	'[ "$rc" -eq 1 ] && [ ! -s envs.csv ] && [ ! -e envall/diff_env.csv ] &&
	 grep -q "^tscope-tui: view .diff_env. has no rows for this pair of runs: no difference: " envs.err'
"$TSCOPE_BIN" --export ranks base same >/dev/null 2>one.err
rc=$?
tap_check "a one-run view with two runs: usage error" '[ "$rc" -eq 2 ] && grep -q "diff_" one.err'
tap_plan
