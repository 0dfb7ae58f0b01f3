#!/bin/sh
# sweep_layouts.sh: GenAI-Perf sweeps laid out other ways than one directory per level.
# A raw profile_export.json holding several experiments (perf_analyzer's
# --concurrency-range, formats.md §3.2) is one series of that many levels, named
# "<dir>#concurrency10", with the same knee verdict and p95 fit as the same data in a
# directory per level; its experiments of another model (the payload's "model") or another
# stimulus (request_rate) stay apart; two such files in one directory stay two series; an
# export beside the file describes the experiment at its own level. A level directory
# holding only inputs.json (perf_analyzer failed) is warned about, naming the file, and
# shown as a level without values that the headline names as not judged, the other levels
# still judged; inputs.json beside results is no warning; a level without results beside
# one with them at the same level is no second result.
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

# mkraw FILE MODE:VALUE[:MODEL]...: a raw export, one non-streaming experiment per argument
# (model auto unless named), 20 requests each (latency 1000 + 9 x value ms, spaced latency
# / value apart: from 25 to 50, +18% latency, clear of the knee's 20%).
mkraw() {
	out=$1
	shift
	mkdir -p "$(dirname "$out")"
	awk -v specs="$*" 'BEGIN {
		q = "\\\""
		body = "{" q "object" q ":" q "chat.completion" q "," q "choices" q ":[{" q "message" q ":{" \
			q "content" q ":" q "hi" q "}}]," q "usage" q ":{" q "completion_tokens" q ":10}}"
		n = split(specs, sp, " ")
		printf "{\"experiments\":["
		for (e = 1; e <= n; e++) {
			model = split(sp[e], kv, ":") > 2 ? kv[3] : "auto"
			lat = (1000 + kv[2] * 9) * 1000000
			gap = int(lat / kv[2])
			t = 1000000000000 + e * 100000000000
			printf "%s{\"experiment\":{\"mode\":\"%s\",\"value\":%s},", (e > 1 ? "," : ""), kv[1], kv[2]
			printf "\"requests\":["
			for (i = 0; i < 20; i++) {
				t0 = t + i * gap
				printf "%s{\"timestamp\":%.0f,", (i ? "," : ""), t0
				printf "\"request_inputs\":{\"payload\":\"{%smodel%s:%s%s%s}\"},", q, q, q, model, q
				printf "\"response_timestamps\":[%.0f],\"response_outputs\":[{\"response\":\"%s\"}]}", \
					t0 + lat, body
			}
			printf "],\"window_boundaries\":[]}"
		}
		printf "],\"version\":\"0.0.0\",\"service_kind\":\"openai\",\"endpoint\":\"v1/chat/completions\"}\n"
	}' >"$out"
}
run() { # run NAME ARGS...: --print into NAME.txt, stderr into NAME.err
	name=$1
	shift
	"$BIN" --print --no-index --color never "$@" >"$name.txt" 2>"$name.err"
}
fit() { # fit DIR: points, slope and intercept of the sizing export's GenAI-Perf row
	"$BIN" --export sizing --no-index "$1" 2>/dev/null | awk -F, '$1 == "genai-perf" { print $5, $7, $9 }'
}

# --- several experiments in one raw export ------------------------------------------
mkraw one/auto-openai-chat/profile_export.json concurrency:1 concurrency:10 concurrency:25 concurrency:50
for c in 1 10 25 50; do
	mkraw dirs/auto-openai-chat-concurrency$c/profile_export.json concurrency:$c
done
run one one
run dirs dirs
tap_check "4 experiments in one file: one series of 4 levels" \
	'grep -q "^  inference sweep  *4 configs in 1 series (GenAI-Perf)" one.txt &&
	 grep -q "^  stimulus .*concurrency 1, 10, 25, 50 (4 levels)$" one.txt'
tap_check "... judged for saturation, as the same data in a directory per level" \
	'grep "^  saturation " one.txt >one.sat && ! grep -q "not judged" one.sat &&
	 grep "^  saturation " dirs.txt | cmp -s - one.sat'
tap_check "... each experiment named by its level: best config auto-openai-chat#concurrency50" \
	'grep -q "^  best config  *auto-openai-chat#concurrency50: highest request throughput" one.txt'
tap_check "... with a p95 latency fit over 4 points, the one the directories give" \
	'[ "$(fit one)" = "$(fit dirs)" ] && [ "$(fit one | cut -d" " -f1)" = 4 ]'
tap_check "... and no repeated level or other warning" 'grep -q " 0 warnings," one.err'

# Experiments of another model in one file: two workloads, never one series.
mkraw models/auto-openai-chat/profile_export.json concurrency:1:a concurrency:10:a concurrency:25:a concurrency:50:b
run models models
"$BIN" --export sweep --no-index models 2>/dev/null | tail -n +2 | cut -d, -f1 | sort | uniq -c | sed 's/^ *//' \
	>models.series
tap_check "an experiment of another model in the file: its own series, the model named" \
	'grep -q "^  inference sweep  *4 configs in 2 series (GenAI-Perf; different workloads: model differ)" \
		models.txt &&
	 [ "$(sed "s/auto-openai-chat#concurrency\* //" models.series | tr "\n" ";")" = "3 [model=a];1 [model=b];" ] &&
	 [ "$(cut -d" " -f2 models.series | sort -u)" = "auto-openai-chat#concurrency*" ]'

# A request_rate experiment beside concurrency ones: another stimulus, another series.
mkraw modes/auto-openai-chat/profile_export.json concurrency:1 concurrency:10 request_rate:5
run modes modes
tap_check "a request_rate experiment in the file: its own series (#request_rate5)" \
	'grep -q "^  inference sweep  *3 configs in 2 series" modes.txt &&
	 grep -q "^  stimulus .*concurrency 1, 10 (2 levels)$" modes.txt &&
	 grep -q "^  stimulus .*request_rate 5 (1 level)$" modes.txt'

# Two multi-experiment files in one directory: each is its own series.
mkraw two/auto-openai-chat/a_profile_export.json concurrency:1 concurrency:10 concurrency:25
mkraw two/auto-openai-chat/b_profile_export.json concurrency:1 concurrency:5
"$BIN" --export sweep --no-index two 2>/dev/null | tail -n +2 | cut -d, -f1,2 | sort >two.csv
a=auto-openai-chat/a_profile_export b=auto-openai-chat/b_profile_export
tap_eq "two multi-experiment files in one directory: two series, named by file and level" \
	"$(printf "$a#concurrency*,$a#concurrency%s\n" 1 10 25; printf "$b#concurrency*,$b#concurrency%s\n" 1 5)" \
	"$(cat two.csv)"

# An export beside the file describes its own level (10), not the file's first experiment:
# its request throughput is level 10's (20 requests in 3.161 s), level 1's is 0.99.
mkraw home/m-concurrency10/prof.json concurrency:1 concurrency:10 concurrency:25
cat >home/m-concurrency10/prof_genai_perf.json <<'EOF'
{"request_throughput":{"unit":"requests/sec","avg":6.3271116735210375},
 "input_config":{"perf_analyzer":{"stimulus":{"concurrency":10}}}}
EOF
"$BIN" --export sources --no-index home >home.src 2>/dev/null
"$BIN" --export sweep --no-index home 2>/dev/null | awk -F, 'NR > 1 { print $2, $10 }' >home.cfg
tap_check "an export beside a multi-experiment file: cross-checked against its own level, no mismatch" \
	'! grep -q "recomputed" home.src && grep -q "^m-concurrency10#concurrency10 10$" home.cfg'

# --- a level directory without results -----------------------------------------------
mklevel() { # mklevel ROOT C: a level with results
	mkraw "$1/run_c$2_artifacts/auto-openai-chat-concurrency$2/profile_export.json" concurrency:$2
	echo '{"data":[]}' >"$1/run_c$2_artifacts/auto-openai-chat-concurrency$2/inputs.json"
}
for c in 1 10 25 50; do mklevel gap $c; done
mkdir -p gap/run_c5_artifacts/auto-openai-chat-concurrency5
echo '{"data":[]}' >gap/run_c5_artifacts/auto-openai-chat-concurrency5/inputs.json
run gap gap
"$BIN" --export sources --no-index gap >gap.src 2>/dev/null
tap_check "a level dir with only inputs.json: a warning naming the file" \
	'grep -q "^warning,gap/run_c5_artifacts/auto-openai-chat-concurrency5/inputs.json,.*run directory without \
results: GenAI-Perf.s inputs.json but no profile export" gap.src && grep -q "1 warning" gap.err'
tap_check "... the level is in the sweep, named not judged where the knee is judged" \
	'grep -q "^  stimulus .*concurrency 1, 5, 10, 25, 50 (5 levels)$" gap.txt &&
	 grep "^  saturation " gap.txt |
		grep -q "; concurrency 5 not judged (no request throughput or request latency)$"'
tap_check "... the other 4 levels judged as without it (the same verdict and fit)" \
	'for c in 1 10 25 50; do mklevel full $c; done; run full full &&
	 [ "$(grep "^  saturation " gap.txt | sed "s/; concurrency 5 not judged.*//")" = \
		"$(grep "^  saturation " full.txt)" ] &&
	 [ "$(fit gap)" = "$(fit full)" ]'
"$BIN" --export sweep --no-index gap 2>/dev/null | awk -F, '$10 == 5' >gap.row
awk -F, '{ for (i = 11; i <= NF; i++) if ($i != "" && $i != "n/a" && $i != "no") print i }' gap.row >gap.values
tap_check "... its row in the sweep export: empty cells, not zeros" '[ -s gap.row ] && [ ! -s gap.values ]'
tap_check "inputs.json beside results: no warning" 'grep -q " 0 warnings," full.err'

# A level without results beside one with them at that level (run_c05_artifacts: the same
# shape of name, so the same series): no second result.
cp -r gap gap2
mkraw gap2/run_c05_artifacts/auto-openai-chat-concurrency5/profile_export.json concurrency:5
run gap2 gap2
"$BIN" --export sources --no-index gap2 >gap2.src 2>/dev/null
tap_check "a level without results beside one with results: no repeated-level warning, knee judged" \
	'grep -q "^  stimulus .*concurrency 1, 5, 5, 10, 25, 50 (6 levels)$" gap2.txt &&
	 grep -q "^  saturation  *no knee" gap2.txt && ! grep -q "results at concurrency 5" gap2.src'

tap_plan
