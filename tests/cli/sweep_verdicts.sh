#!/bin/sh
# sweep_verdicts.sh: the real GenAI-Perf sweep (../shared/real/genai-perf-medium) opens on
# its summary (stimulus and levels, knee, best config, constraints) in the Overview and
# the report headline; at 80 columns the tab row holds 8 Sweep and the key opens it; no
# training tabs and no training wording. Skips when ../shared/real is absent.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"

real="$TSCOPE_ROOT/../shared/real/genai-perf-medium"
if [ ! -d "$real" ]; then
	tap_skip "../shared/real/genai-perf-medium not present"
	tap_plan
	exit 0
fi
cd "$TSCOPE_TMP" || exit 1

"$TSCOPE_BIN" --print --color never "$real" >p.out 2>p.err
tap_check "report headline: stimulus and levels" 'grep -q "^  stimulus  *concurrency 1, 10, 25, 50 (4 levels)$" p.out'
tap_check "report headline: knee" 'grep -q "^  saturation  *no knee: request throughput still rises at concurrency 50$" p.out'
tap_check "report headline: best config" 'grep -q "^  best config  *.*concurrency50: highest request throughput 4.794 req/s (no --objective)$" p.out'
tap_check "report headline: constraints" 'grep -q "^  constraints  *none given" p.out'
tap_check "no training wording in the report" '! grep -qi "training\|straggler\|balanced" p.out'
"$TSCOPE_BIN" --print --color never --objective latency_p99:1 --constraint 'latency_p99<19200' "$real" >o.out 2>&1
tap_check "objective and constraints: best config by rank, pass/fail count" \
	'grep -q "^  best config  *.* (rank 1 by the objective latency_p99:1)$" o.out && grep -q "^  constraints  *2 of 4 configs pass (1 constraint)$" o.out'

"$TSCOPE_BIN" --print --color never "$real/simple_medium_response_c1_artifacts" >one.out 2>/dev/null
tap_check "one config: no saturation verdict, the only config, singular counts" \
	'grep -q "^  inference sweep  *1 config in 1 series" one.out && grep -q "(1 level)$" one.out &&
	 grep -q "^  saturation  *not judged: 1 level (the knee test needs 3)$" one.out &&
	 grep -q "^  best config  *auto-openai-chat-concurrency1: the only config (request throughput 0.06396 req/s)$" one.out'

cat >keys <<KEYS
:dump $TSCOPE_TMP/s1
8
:dump $TSCOPE_TMP/s2
KEYS
LINES=24 COLUMNS=80 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui "$real" >/dev/null 2>tui.err
tap_check "opens on the Overview with the sweep summary" 'grep -q "^  inference sweep   4 configs in 1 series" s1 && grep -q "^  stimulus          concurrency 1, 10, 25, 50" s1'
tap_check "80 columns: the tab row holds 8 Sweep, no training tabs" 'head -1 s1 | grep -q " 8 Sweep" && ! head -1 s1 | grep -q "Heatmap\|Ranks\|Steps\|Budget"'
tap_check "key 8 opens the Sweep pane" 'grep -q "vs concurrency" s2'
tap_check "no straggler hint in the footer" '! grep -q "straggler" s1'
tap_plan
