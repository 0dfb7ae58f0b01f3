#!/bin/sh
# sweep_bad.sh: bad numbers and truncated files in the inference loaders are said, never
# dropped in silence: a GenAI-Perf JSON statistic that is NaN, 1e400 or a string, and a CSV
# cell abc/NaN/1e400 (an analyze CSV's too), are warned about with the file, the byte
# offset or line, the key and what is wrong, in the one wording of every sweep loader
# ("FIELD: unusable value 'TEXT' (not a finite number)", TEXT sanitized and cut after 40
# bytes), and counted as skipped; a CSV
# without its final newline is partial and its short last row (the cut-off tail) is
# skipped with its line; a CSV libcsv cannot parse names the line where it stopped, a
# truncated JSON file (a raw GenAI-Perf export) the byte offset where it ended and an
# invalid one (Cerebras) where the parser stopped; a
# Cerebras value that is non-finite is warned about and the merge rule says it is
# non-finite, not absent (a samples_per_sec of Infinity in the headline too); a Cerebras
# record (the aggregate, an ordinal) is skipped once however many of its values are unusable,
# an ordinal whose every value is unusable is not also said to have none, and the slow-ordinal
# test says it is unusable (an ordinal that is no object: that it is not one); a key given
# twice in a Cerebras file is warned about, the last used. A NAT p95 of 0, which the
# calculator leaves out of the fits as not measured, is missing (empty, -) with a note, and
# the report names the concurrencies left out of the fits and why. A negative zero prints and
# exports as 0. A negative time, rate or count is warned about with its offset
# or line and left out (never a constraint's pass; not judged when no config has a usable
# value): a GenAI-Perf JSON or CSV statistic, an
# analyze CSV cell, a NAT p95 or item time, a Cerebras rate, and a raw export's request
# whose response comes before it, or whose first response comes over a day after it (a
# timestamp of 0: counted as sent, no latency). A NAT concurrency given twice in calc_data
# (the key "4" twice, or "1" and "1.0") is warned about with both offsets and only the last
# is fitted and shown; a calc_data key that is no concurrency (inf, 16.5, 0x10) is skipped
# with its offset. A Cerebras file in its own place (performance/) cut before its
# first rate key is still claimed, its truncation named without --format. A JSON file that
# starts with a UTF-8 BOM is read.
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1

sources() { "$BIN" --export sources --no-index "$1" 2>/dev/null; }
uv() { printf "unusable value '%s' (%s)" "$1" "$2"; } # uv TEXT WHY: the one wording of a bad value
col() { # col FILE.csv NAME: the second row's value of column NAME, "none" without that column
	awk -F, -v n="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == n) c = i; next }
		NR == 2 { print c ? $c : "none" }' "$1"
}

# --- GenAI-Perf JSON ------------------------------------------------------------------
mkdir -p js/m-openai-chat-concurrency1
printf '{"request_latency": {"unit": "ms", "avg": 10.0, "p99": NaN, "p90": 1e400, "p50": "9.5", "p25": null},
 "request_throughput": {"unit": "requests/sec", "avg": 3.5}}\n' \
	>js/m-openai-chat-concurrency1/profile_export_genai_perf.json
sources js >js.csv
f=js/m-openai-chat-concurrency1/profile_export_genai_perf.json
tap_check "JSON: NaN and 1e400 are non-finite, a string is not a number, each with its offset; null is missing" \
	'grep -qx "warning,$f,,,,55,,,request_latency p99: $(uv "NaN" "not a finite number")" js.csv &&
	 grep -qx "warning,$f,,,,67,,,request_latency p90: $(uv "1e400" "not a finite number")" js.csv &&
	 grep -qx "warning,$f,,,,82,,,\"request_latency p50: $(uv "\"\"9.5\"\"" "not a finite number")\"" js.csv &&
	 ! grep -q "p25" js.csv'
tap_check "JSON: the bad statistics are counted as skipped in the data quality" \
	'grep -q "^file,$f,genai-perf,,,,2,3,ok$" js.csv'
"$BIN" --export sweep --no-index js >js_sweep.csv 2>/dev/null
tap_eq "JSON: latency p99 is missing, avg kept" "none/10" \
	"$(col js_sweep.csv latency_p99_ms)/$(col js_sweep.csv latency_avg_ms)"

# --- GenAI-Perf CSV -------------------------------------------------------------------
mkdir -p cs/m-openai-chat-concurrency1
printf 'Metric,avg,p99,p90,p50\nRequest Latency (ms),10,abc,NaN,N/A\nOutput Sequence Length (tokens),1e400,9,8,\n\n' \
	>cs/m-openai-chat-concurrency1/profile_export_genai_perf.csv
printf 'Metric,Value\nRequest Throughput (per sec),inf\n' >>cs/m-openai-chat-concurrency1/profile_export_genai_perf.csv
sources cs >cs.csv
f=cs/m-openai-chat-concurrency1/profile_export_genai_perf.csv
tap_check "CSV: abc is not a number, NaN, 1e400 and inf are non-finite, each with its line; N/A and empty are missing" \
	'grep -qx "warning,$f,,,2,,,,Request Latency p99: $(uv "abc" "not a finite number")" cs.csv &&
	 grep -qx "warning,$f,,,2,,,,Request Latency p90: $(uv "NaN" "not a finite number")" cs.csv &&
	 grep -qx "warning,$f,,,3,,,,Output Sequence Length avg: $(uv "1e400" "not a finite number")" cs.csv &&
	 grep -qx "warning,$f,,,6,,,,Request Throughput value: $(uv "inf" "not a finite number")" cs.csv &&
	 [ "$(grep -c "^warning" cs.csv)" = 4 ] && grep -q "^file,$f,genai-perf,,,,3,4,ok$" cs.csv'

# the JSON's bad p99 beside a CSV: the CSV's value fills it, and the JSON's is still warned about
cp js/m-openai-chat-concurrency1/profile_export_genai_perf.json cs/m-openai-chat-concurrency1/
tap_check "JSON NaN with the CSV beside it: still warned about" \
	'sources cs | grep -q "_genai_perf.json,,,,55,,,request_latency p99: $(uv "NaN" "not a finite number")"'

# --- a truncated CSV ------------------------------------------------------------------
mkdir -p tr/m-openai-chat-concurrency1
f=tr/m-openai-chat-concurrency1/profile_export_genai_perf.csv
printf 'Metric,avg,min,max,p99\nRequest Latency (ms),10,5,20,19\nInput Sequence Length (tokens),550.00,550.00,55' >"$f"
sources tr >tr.csv
tap_check "truncated CSV: partial, the missing newline and the short last row named with their line" \
	'grep -q "^file,$f,genai-perf,,,,1,1,partial" tr.csv &&
	 grep -qx "warning,$f,,,3,,,,no newline at the end: the file is truncated or still being written" tr.csv &&
	 grep -qx "warning,$f,,,3,,,,last row has 4 of its header.s 5 cells; skipped" tr.csv'
"$BIN" --export sweep --no-index tr >tr_sweep.csv 2>/dev/null
tap_eq "truncated CSV: the half row gives no input length" "none" "$(col tr_sweep.csv isl_avg)"


# cut inside the last cell of a 2-column section (Request Count 138.00 cut to 1)
mkdir -p tc/m-openai-chat-concurrency1
f=tc/m-openai-chat-concurrency1/profile_export_genai_perf.csv
printf 'Metric,avg,p99\nRequest Latency (ms),10,19\n\nMetric,Value\nRequest Count (count),1' >"$f"
sources tc >tc.csv
tap_check "truncated CSV, cut inside the last cell: the full-width last row is skipped too" \
	'grep -qx "warning,$f,,,5,,,,last row may be cut off within its last cell; skipped" tc.csv'
"$BIN" --export sweep --no-index tc >tc_sweep.csv 2>/dev/null
tap_eq "... so it gives no request count" "none" "$(col tc_sweep.csv request_count)"

# a CSV that libcsv cannot parse (a quote inside an unquoted cell): the line where it stopped
mkdir -p cq/m-openai-chat-concurrency1
f=cq/m-openai-chat-concurrency1/profile_export_genai_perf.csv
printf 'Metric,avg,p99\nRequest Latency (ms),10,19\nOutput Sequence Length (tokens),1"0,9\n' >"$f"
sources cq >cq.csv
tap_check "CSV parse error: the diagnostic names the line where the parse stopped" \
	'grep -qx "warning,$f,,,3,,,,CSV parse error; rows after it were ignored" cq.csv'

# --- truncated and invalid JSON ---------------------------------------------------------
mkdir -p tj/m-openai-chat-concurrency1
cp cq/m-openai-chat-concurrency1/profile_export_genai_perf.csv tj/m-openai-chat-concurrency1/
f=tj/m-openai-chat-concurrency1/profile_export.json
printf '{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[{"timestamp":1,"resp' >"$f"
sources tj >tj.csv
tap_check "truncated raw GenAI-Perf export: partial, the error at the byte offset where the JSON ended" \
	'grep -q "^file,$f,genai-perf,,,,0,1,partial" tj.csv &&
	 grep -qx "error,$f,,,,$(wc -c <"$f" | tr -d " "),,,truncated JSON" tj.csv'
mkdir -p cj
printf '{"samples_per_sec": 1.5,\n "total_samples": ]}\n' >cj/performance.json
"$BIN" --export sources --no-index cj >/dev/null 2>cj.err
tap_check "invalid JSON (a Cerebras file): the error at the byte offset where the parser stopped" \
	'grep -qx "tscope-tui: cj/performance.json@43: invalid JSON" cj.err'
# cut before its first rate key: claimed by its place (performance/), not by its keys
mkdir -p ct/performance
printf '{\n    "compile_time": 120.5,\n    "est_samples_per_sec": 0,\n    "ordinals": []\n}\n' | head -c 60 \
	>ct/performance/performance.json
"$BIN" --print --no-index ct >/dev/null 2>ct.err
tap_check "a Cerebras file in its own place cut before any rate key: the truncation named, without --format" \
	'grep -qx "tscope-tui: ct/performance/performance.json@60: truncated JSON" ct.err &&
	 ! grep -q "no supported data" ct.err'

# --- Cerebras -------------------------------------------------------------------------
mkdir -p cb
printf '%s%s%s\n' '{"compile_time":10,"est_samples_per_sec":0,"ordinals":[{"samples_per_sec":100,' \
	'"total_samples":1000,"total_time":Infinity},{"samples_per_sec":100,"total_samples":1000,"total_time":10}],' \
	'"programming_time":1,"samples_per_sec":200,"total_samples":2000,"total_time":"10"}' >cb/performance.json
sources cb >cb.csv
f=cb/performance.json
tap_check "Cerebras: an ordinal's Infinity and the aggregate's string are warned about with their offset" \
	'grep -qx "warning,$f,,,,112,,,ordinal 0 total_time: $(uv "Infinity" "not a finite number")" cb.csv &&
	 grep -qx "warning,$f,,,,262,,,\"total_time: $(uv "\"\"10\"\"" "not a finite number")\"" cb.csv &&
	 grep -q "^file,$f,cerebras,,,,3,2,ok$" cb.csv'
"$BIN" --print --no-index --color never cb >cb.txt 2>/dev/null
tap_check "Cerebras: the merge rule says the total_time is non-finite, not absent" \
	'grep -q "merge rule not applied over 2 ordinals (ordinal 0 has an unusable total_time: not a finite \
number)" cb.txt &&
	 ! grep -q "has no total_time" cb.txt'

# finite but unusable: a count too large, fractional or negative, a negative time
mkdir -p cn
printf '%s%s%s\n' '{"ordinals":[{"samples_per_sec":100,"total_samples":1e20,"total_time":10},' \
	'{"samples_per_sec":100,"total_samples":2000.5,"total_time":-10}],' \
	'"samples_per_sec":200,"total_samples":-5,"total_time":10}' >cn/performance.json
sources cn >cn.csv
f=cn/performance.json
tap_check "Cerebras: 1e20, 2000.5 and -5 samples and a negative time are warned about with their offset" \
	'grep -qx "warning,$f,,,,52,,,ordinal 0 total_samples: $(uv "1e20" "too large for a count")" cn.csv &&
	 grep -qx "warning,$f,,,,113,,,ordinal 1 total_samples: $(uv "2000.5" "not an integer")" cn.csv &&
	 grep -qx "warning,$f,,,,133,,,ordinal 1 total_time: $(uv "-10" "negative")" cn.csv &&
	 grep -qx "warning,$f,,,,177,,,total_samples: $(uv "-5" "negative")" cn.csv &&
	 grep -q "^file,$f,cerebras,,,,3,3,ok$" cn.csv'
"$BIN" --print --no-index --color never cn >cn.txt 2>/dev/null
tap_check "Cerebras: the merge rule names the unusable total_samples, not a missing one" \
	'grep -q "(ordinal 0 has an unusable total_samples: too large for a count)" cn.txt'

# an ordinal whose values are all there but unusable, and one that is no object: each one
# record skipped (2 of 5), no false "has no ..." warning, the not-judged reason says why
mkdir -p ca
printf '%s%s%s\n' '{"ordinals":[{"samples_per_sec":100,"total_samples":1000,"total_time":10},' \
	'{"samples_per_sec":100,"total_samples":1000,"total_time":10},{"samples_per_sec":NaN,"total_samples":-5,' \
	'"total_time":Infinity},"garbage"],"samples_per_sec":200,"total_samples":2000,"total_time":10}' \
	>ca/performance.json
sources ca >ca.csv
"$BIN" --print --no-index --color never ca >ca.txt 2>/dev/null
tap_check "Cerebras: an ordinal of unusable values is one record skipped, not said to have none" \
	'grep -q "^file,ca/performance.json,cerebras,,,,5,2,ok$" ca.csv &&
	 [ "$(grep -c "^warning.*ordinal 2" ca.csv)" = 3 ] && ! grep -q "has no samples_per_sec" ca.csv &&
	 grep -q ",ordinal 3 is not an object$" ca.csv'
tap_check "... the slow-ordinal test says it is unusable, or not an object, not that it has none" \
	'grep -q "(not rated: the first: it has an unusable samples_per_sec (not a finite number) and an unusable \
total_samples (negative))$" ca.txt && ! grep -q "it has no " ca.txt &&
	 grep -q "merge rule not applied: ordinal 2 has an unusable total_samples: negative" ca.txt'
sed 's/{"samples_per_sec":NaN,"total_samples":-5,"total_time":Infinity},//' ca/performance.json >ca/x.json &&
	mkdir -p cg && mv ca/x.json cg/performance.json
"$BIN" --print --no-index --color never cg >cg.txt 2>/dev/null
tap_check "... an ordinal that is no object: the merge rule and the slow-ordinal test say so" \
	'grep -q "merge rule not applied: ordinal 2 is not an object)$" cg.txt &&
	 grep -q "(not rated: it is not an object)$" cg.txt'

# a samples_per_sec that is there but unusable: the headline says so, not that it is absent
mkdir -p ci/performance
printf '{"compile_time": 1.0, "samples_per_sec": Infinity, "total_samples": 1000, "total_time": 10.0}\n' \
	>ci/performance/performance.json
"$BIN" --print --no-index --color never ci >ci.txt 2>/dev/null
tap_check "Cerebras: a samples_per_sec of Infinity is unusable in the headline, not absent" \
	'grep -q "^  Cerebras  *rate n/a: samples_per_sec unusable (not a finite number), no global rate, no ordinals$" \
	 ci.txt && ! grep -q "no samples_per_sec" ci.txt'

# a key given twice: the last is used (as the tools' Python readers keep it), warned about
# once in the aggregate and once in the ordinals
mkdir -p cd
printf '%s%s\n' '{"samples_per_sec": 100.0, "samples_per_sec": 5.0, "ordinals": [{"total_samples": 500, ' \
	'"total_time": 10, "total_time": 5}, {"total_samples": 500, "total_time": 5, "total_time": 9}]}' >cd/performance.json
sources cd >cd.csv
"$BIN" --export cerebras --no-index cd 2>/dev/null | cut -d, -f2,3,5 >cd_cb.csv
twice_key() { printf "key \"\"%s\"\"%s given twice (first at byte %s): the last is used, %s" "$1" "$2" "$3" \
	"as a Python JSON reader keeps the last"; }
tap_check "Cerebras: a key given twice: the last used (5 samples/s stored, ordinal times 5 and 9)" \
	'[ "$(tr "\n" " " <cd_cb.csv)" = "row,samples_per_sec,total_time_s stored,5, recomputed,200,5 ordinal 0,,5 \
ordinal 1,,9 " ]'
tap_check "... warned about once in the aggregate, once in the ordinals, with both offsets" \
	'grep -qxF "warning,cd/performance.json,,,,28,,,\"$(twice_key samples_per_sec "" 2)\"" cd.csv &&
	 grep -qxF "warning,cd/performance.json,,,,106,,,\"$(twice_key total_time " in ordinal 0" 88)\"" cd.csv &&
	 [ "$(grep -c "given twice" cd.csv)" -eq 2 ]'

# a negative zero (-0, -0.0) is 0 on screen and in the CSVs: Cerebras, NAT, GenAI-Perf
mkdir -p cz/performance nz/online/job_1 gz/m-openai-chat-concurrency1
printf '{"compile_time": -0, "samples_per_sec": 100.0, "total_samples": 1000, "total_time": 10.0}\n' \
	>cz/performance/performance.json
printf '{"calc_data": {"1": {"sizing_metrics": {%s}}}}\n' \
	'"llm_latency_p95": 1, "workflow_runtime_p95": 2, "total_runtime": -0' >nz/online/job_1/calc_runner_output.json
printf 'Metric,avg\nRequest Latency (ms),10.0\n\nMetric,Value\nOutput Token Throughput (tokens/sec),-0\n' \
	>gz/m-openai-chat-concurrency1/profile_export_genai_perf.csv
for d in cz nz gz; do "$BIN" --print --no-index --color never $d >$d.txt 2>/dev/null; done
"$BIN" --export cerebras --no-index cz >cz.csv 2>/dev/null
"$BIN" --export sizing_points --no-index nz >nz.csv 2>/dev/null
"$BIN" --export sweep --no-index gz >gz.csv 2>/dev/null
tap_check "a negative zero prints and exports as 0 (Cerebras compile_time, NAT total run, GenAI-Perf tok/s)" \
	'grep -q "· compile 0.000 s$" cz.txt && [ "$(col cz.csv compile_time_s)" = 0 ] &&
	 grep -q "^  *1  *1.0000  *2.0000  *0.0000 " nz.txt && [ "$(col nz.csv total_runtime_s)" = 0 ] &&
	 [ "$(col gz.csv output_token_throughput)" = 0 ] &&
	 ! grep -q -- "-0\.0\|-0 " cz.txt nz.txt gz.txt'

# --- negative values ------------------------------------------------------------------
mkdir -p ng/m-openai-chat-concurrency1 ng/m-openai-chat-concurrency2
f=ng/m-openai-chat-concurrency1/profile_export_genai_perf.json
printf '{"request_latency": {"unit": "ms", "avg": 10.0, "p99": -19113.6},
 "request_throughput": {"unit": "requests/sec", "avg": -3.5}}\n' >"$f"
g=ng/m-openai-chat-concurrency2/profile_export_genai_perf.csv
printf 'Metric,avg,p99\nRequest Latency (ms),10,-5\n\nMetric,Value\nRequest Count (count),-2\n' >"$g"
sources ng >ng.csv
tap_check "negative JSON statistics: warned about with their offset, counted as skipped" \
	'grep -qx "warning,$f,,,,55,,,request_latency p99: $(uv "-19113.6" "negative")" ng.csv &&
	 grep -qx "warning,$f,,,,121,,,request_throughput avg: $(uv "-3.5" "negative")" ng.csv &&
	 grep -q "^file,$f,genai-perf,,,,2,2,ok$" ng.csv'
tap_check "negative CSV cells: warned about with their line" \
	'grep -qx "warning,$g,,,2,,,,Request Latency p99: $(uv "-5" "negative")" ng.csv &&
	 grep -qx "warning,$g,,,5,,,,Request Count value: $(uv "-2" "negative")" ng.csv'
"$BIN" --print --no-index --color never --constraint 'latency_p99<10000' ng >ng.txt 2>/dev/null
tap_check "no usable p99 at all (both negative): the constraint on it is not judged, no config passes" \
	'grep -q "constraints *latency_p99<10000 not judged (no config has that metric)$" ng.txt &&
	 ! grep -q " yes$" ng.txt'
cp -R ng ng3
mkdir -p ng3/m-openai-chat-concurrency4
printf 'Metric,avg,p99\nRequest Latency (ms),10,20\n' >ng3/m-openai-chat-concurrency4/profile_export_genai_perf.csv
"$BIN" --print --no-index --color never --constraint 'latency_p99<10000' ng3 >ng3.txt 2>/dev/null
tap_check "a negative p99 passes no constraint: 1 of 3 configs pass (the one with a usable p99)" \
	'grep -q "constraints *1 of 3 configs pass" ng3.txt'
mkdir -p na
printf 'Config Name,Concurrency,p99 Request Latency (ms),Request Throughput (requests/sec)\n%s\n' \
	'm_run_config_0,1,-4.5,2.0' >na/analyze_export_genai_perf.csv
f=na/analyze_export_genai_perf.csv
tap_check "a negative analyze CSV cell: warned about with its line" \
	'sources na | grep -qx "warning,$f,,,2,,,,Request Latency p99: $(uv "-4.5" "negative")"'
# a cell of a known column that is no number (abc, NaN) was dropped in silence
printf 'Config Name,Concurrency,p99 Request Latency (ms),Request Throughput (requests/sec),Model\n%s\n' \
	'm_run_config_0,abc,NaN,2.0,gpt2' >na/analyze_export_genai_perf.csv
tap_check "analyze CSV cells abc and NaN: warned about with their line, as every loader words it" \
	'sources na >na.csv && grep -qx "warning,$f,,,2,,,,Concurrency: $(uv "abc" "not a finite number")" na.csv &&
	 grep -qx "warning,$f,,,2,,,,Request Latency p99: $(uv "NaN" "not a finite number")" na.csv &&
	 [ "$(grep -c "^warning" na.csv)" = 2 ]'

# a raw export request whose response comes 5 s before it
mkdir -p nr/m-openai-chat-concurrency1
f=nr/m-openai-chat-concurrency1/profile_export.json
printf '{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[%s,%s]}]}\n' \
	'{"timestamp":1000000000,"response_timestamps":[2000000000]}' \
	'{"timestamp":9000000000,"response_timestamps":[4000000000]}' >"$f"
sources nr >nr.csv
tap_check "raw export: a response before its request is warned about with the request's offset and skipped" \
	'grep -qx "warning,$f,,,,135,,,response 1 comes 5000 ms before its request; the request.s times are \
ignored" nr.csv &&
	 grep -q "^file,$f,genai-perf,,,,1,1,ok$" nr.csv'
"$BIN" --export sweep --no-index nr >nr_sweep.csv 2>/dev/null
tap_eq "... and gives no latency: the average is the other request's" "1000/1" \
	"$(col nr_sweep.csv latency_avg_ms)/$(col nr_sweep.csv request_count)"

# a request timestamp of 0: its first response comes 1.7e9 s (over a day) after it
mkdir -p t0/m-openai-chat-concurrency1
f=t0/m-openai-chat-concurrency1/profile_export.json
printf '{"experiments":[{"experiment":{"mode":"concurrency","value":1},"requests":[%s,%s,%s]}]}\n' \
	'{"timestamp":1700000000000000000,"response_timestamps":[1700000000100000000]}' \
	'{"timestamp":0,"response_timestamps":[1700000000150000000]}' \
	'{"timestamp":1700000000100000000,"response_timestamps":[1700000000200000000]}' >"$f"
sources t0 >t0.csv
tap_check "raw export: a request timestamp over a day before its first response (0) is warned about and skipped" \
	'grep -qx "warning,$f,,,,153,,,request timestamp 0 comes 1.7e+09 s before its first response (over a day: \
not a time of this run); the request.s times are ignored" t0.csv &&
	 grep -q "^file,$f,genai-perf,,,,2,1,ok$" t0.csv'
"$BIN" --export sweep --no-index t0 >t0_sweep.csv 2>/dev/null
tap_eq "... its latency left out, counted as sent: 3 requests over 0.2 s" "100/2/15" \
	"$(col t0_sweep.csv latency_p99_ms)/$(col t0_sweep.csv request_count)/$(col t0_sweep.csv request_throughput)"

mkdir -p nn/online/job_1
f=nn/online/job_1/calc_runner_output.json
printf '{"calc_data": {"1": {"sizing_metrics": {"llm_latency_p95": 1.1, "workflow_runtime_p95": 4.0}},
 "2": {"sizing_metrics": {"llm_latency_p95": -1.5, "workflow_runtime_p95": 4.7,
 "per_item_metrics": {"a": {"llm_latency": 1.0, "workflow_runtime": -4.0}}}}}}\n' >"$f"
sources nn >nn.csv
tap_check "NAT: a negative p95 and item time warned about with their offset" \
	'grep -qx "warning,$f,,,,140,,,concurrency 2 llm_latency_p95: $(uv "-1.5" "negative")" nn.csv &&
	 grep -qx "warning,$f,,,,243,,,concurrency 2 item a workflow_runtime: $(uv "-4.0" "negative")" nn.csv'
"$BIN" --export sizing_points --no-index nn >nn_pts.csv 2>/dev/null
tap_check "... and that concurrency is not valid for the fit, its latency empty" \
	'grep -q "^$f,online,2,,4.7,.*,no,"  nn_pts.csv'

# a p95 of 0 (-0 too) is the calculator's "not measured": it drops that concurrency from the fits
mkdir -p n0/online/job_1
f=n0/online/job_1/calc_runner_output.json
printf '{"calc_data": {%s,\n%s,\n%s,\n%s}}\n' \
	'"1": {"sizing_metrics": {"llm_latency_p95": 1.1, "workflow_runtime_p95": 4.0, "total_runtime": 30}}' \
	'"2": {"sizing_metrics": {"llm_latency_p95": 1.3, "workflow_runtime_p95": 4.7, "total_runtime": 30}}' \
	'"4": {"sizing_metrics": {"llm_latency_p95": 1.5, "workflow_runtime_p95": 0.0, "total_runtime": 30}}' \
	'"8": {"sizing_metrics": {"llm_latency_p95": -0, "workflow_runtime_p95": -1.0, "total_runtime": 30}}' >"$f"
sources n0 >n0.csv
"$BIN" --export sizing_points --no-index n0 >n0_pts.csv 2>/dev/null
"$BIN" --print --no-index --color never n0 >n0.txt 2>/dev/null
zero_note() { # zero_note CONCURRENCY KEY: the note of a p95 of 0
	printf '%s' "concurrency $1 $2 0 read as not measured: the calculator leaves a concurrency whose p95 \
is 0 or missing out of the fits"
}
tap_check "NAT: a p95 of 0 is not measured: empty in sizing_points, - in the report, never a measured 0" \
	'grep -q "^$f,online,4,1.5,,30,.*,no," n0_pts.csv && grep -q "^$f,online,8,,,30,.*,no," n0_pts.csv &&
	 grep -q "^  *4  *1.5000  *-  *30.0000 " n0.txt && grep -q "^  *8  *-  *-  *30.0000 " n0.txt'
tap_check "... with a note at its offset in the sources, as a missing one" \
	'grep -qx "info,$f,,,,290,,,$(zero_note 4 workflow_runtime_p95)" n0.csv &&
	 grep -qx "info,$f,,,,362,,,$(zero_note 8 llm_latency_p95)" n0.csv'
tap_check "... and the report names the concurrencies left out of the fits, and why" \
	'grep -q "^  left out of both fits: 4 — p95 workflow runtime 0 (not measured); 8 — p95 LLM latency 0 (not \
measured)$" n0.txt'

# a concurrency given twice: the key "4" twice, and "1" beside "1.0"
mkdir -p nd/online/job_1
f=nd/online/job_1/calc_runner_output.json
printf '{"calc_data": {%s,\n%s,\n%s,\n%s,\n%s,\n%s}}\n' \
	'"1": {"sizing_metrics": {"llm_latency_p95": 1.1, "workflow_runtime_p95": 4.0}}' \
	'"1.0": {"sizing_metrics": {"llm_latency_p95": 1.2, "workflow_runtime_p95": 4.3}}' \
	'"2": {"sizing_metrics": {"llm_latency_p95": 1.3, "workflow_runtime_p95": 4.7}}' \
	'"4": {"sizing_metrics": {"llm_latency_p95": 1.5, "workflow_runtime_p95": 5.7}}' \
	'"4": {"sizing_metrics": {"llm_latency_p95": 1.9, "workflow_runtime_p95": 6.9}}' \
	'"8": {"sizing_metrics": {"llm_latency_p95": 2.1, "workflow_runtime_p95": 7.9}}' >"$f"
sources nd >nd.csv
twice() { # twice CONC FIRST AT SECOND: the warning of a concurrency given twice
	printf "concurrency %s given twice in calc_data (key '%s' at byte %s, and '%s' here): the last is used, %s" \
		"$1" "$2" "$3" "$4" "as the calculator's JSON reader keeps the last; the first is left out"
}
tap_check "NAT: a concurrency given twice (the same key, or 1 and 1.0) is warned about with both offsets" \
	'grep -qxF "warning,$f,,,,96,,,\"$(twice 1 1 16 1.0)\"" nd.csv &&
	 grep -qxF "warning,$f,,,,338,,,\"$(twice 4 4 258 4)\"" nd.csv && grep -q "^file,$f,nat,,,,4,2,ok$" nd.csv'
"$BIN" --print --no-index --color never nd >nd.txt 2>/dev/null
"$BIN" --export sizing_points --no-index nd >nd_pts.csv 2>/dev/null
tap_check "... only the last is fitted and shown: 4 concurrencies, 4 points, no outlier flag on a level twice" \
	'grep -q "^● GPU SIZING — NAT calculator, 4 concurrencies$" nd.txt &&
	 ! grep -q "!LR\|outliers removed" nd.txt &&
	 [ "$(cut -d, -f3-5 nd_pts.csv | tr "\n" " ")" = "concurrency,llm_latency_p95_s,workflow_runtime_p95_s \
1,1.2,4.3 2,1.3,4.7 4,1.9,6.9 8,2.1,7.9 " ]'

# calc_data keys that are no concurrency as the calculator's reader takes one (an integer;
# "4.0" is 4): skipped with their key and offset, the others fitted; none printed or exported
mkdir -p nk/online/job_1
f=nk/online/job_1/calc_runner_output.json
printf '{"calc_data": {%s,\n%s,\n%s,\n%s,\n%s,\n%s}}\n' \
	'"1": {"sizing_metrics": {"llm_latency_p95": 1.1, "workflow_runtime_p95": 4.0}}' \
	'"2": {"sizing_metrics": {"llm_latency_p95": 1.3, "workflow_runtime_p95": 4.7}}' \
	'"inf": {"sizing_metrics": {"llm_latency_p95": 3.3, "workflow_runtime_p95": 12.6}}' \
	'"16.5": {"sizing_metrics": {"llm_latency_p95": 3.3, "workflow_runtime_p95": 12.6}}' \
	'"0x10": {"sizing_metrics": {"llm_latency_p95": 3.3, "workflow_runtime_p95": 12.6}}' \
	'"4.0": {"sizing_metrics": {"llm_latency_p95": 1.5, "workflow_runtime_p95": 5.7}}' >"$f"
sources nk >nk.csv
notconc() { printf "calc_data entry '%s' skipped: its key is not a concurrency (a positive whole number)" "$1"; }
tap_check "NAT: calc_data keys inf, 16.5 and 0x10 are skipped, named with their offset; 4.0 is 4" \
	'grep -qxF "warning,$f,,,,176,,,$(notconc inf)" nk.csv && grep -qxF "warning,$f,,,,259,,,$(notconc 16.5)" nk.csv &&
	 grep -qxF "warning,$f,,,,343,,,$(notconc 0x10)" nk.csv && grep -q "^file,$f,nat,,,,3,3,ok$" nk.csv'
"$BIN" --print --no-index --color never nk >nk.txt 2>/dev/null
"$BIN" --export sizing_points --no-index nk >nk_pts.csv 2>/dev/null
tap_check "... the others fitted, printed and exported alike: concurrencies 1, 2, 4" \
	'grep -q "^● GPU SIZING — NAT calculator, 3 concurrencies$" nk.txt && ! grep -q "inf\|16\.5\|0x10" nk.txt &&
	 [ "$(cut -d, -f3 nk_pts.csv | tr "\n" " ")" = "concurrency 1 2 4 " ]'

mkdir -p cr
printf '{"global_rate": -12.5, "samples_per_sec": 3.0}\n' >cr/performance.json
tap_check "Cerebras: a negative global_rate is warned about" \
	'sources cr | grep -qx "warning,cr/performance.json,,,,16,,,global_rate: $(uv "-12.5" "negative")"'

# the quoted value is the file's text, sanitized (an escape in caret notation) and clipped
mkdir -p lv/m-openai-chat-concurrency1
printf 'Metric,avg\nRequest Latency (ms),\033[2J%s\n' "$(printf '%060d' 7)" \
	>lv/m-openai-chat-concurrency1/profile_export_genai_perf.csv
tap_check "an unusable cell with an escape and 64 characters: quoted sanitized, cut after 40 bytes" \
	'sources lv | grep -q ",2,,,,Request Latency avg: unusable value .^\[\[2J0\{36\}…. (not a finite number)$"'

# --- a UTF-8 byte order mark -------------------------------------------------------------
mkdir -p bom/m-openai-chat-concurrency1 bomn/online/job_1 bomc
printf '\357\273\277{"request_latency": {"unit": "ms", "avg": 10.0}}\n' \
	>bom/m-openai-chat-concurrency1/profile_export_genai_perf.json
printf '\357\273\277{"calc_data": {"1": {"sizing_metrics": {"llm_latency_p95": 1.1, "workflow_runtime_p95": 4}}}}\n' \
	>bomn/online/job_1/calc_runner_output.json
printf '\357\273\277{"samples_per_sec": 1.5, "total_samples": 10, "total_time": 20}\n' >bomc/performance.json
tap_check "a BOM before the JSON of a GenAI-Perf export, a NAT output and a Cerebras file: read, no error" \
	'sources bom | grep -q ",genai-perf,,,,1,0,ok$" && sources bomn | grep -q ",nat,,,,1,0,ok$" &&
	 sources bomc | grep -q ",cerebras,,,,1,0,ok$" &&
	 ! { sources bom; sources bomn; sources bomc; } | grep -q "^error"'

# --- the CSV's 2-decimal rounding ------------------------------------------------------
real="$TSCOPE_ROOT/../shared/real/genai-perf-medium"
if [ -d "$real" ]; then
	cp -r "$real" csvonly && find csvonly -name '*_genai_perf.json' -exec rm {} +
	tap_eq "CSV-only real sweep: the recomputed values agree within the CSV's rounding" "0" \
		"$(sources csvonly | grep -c "but the export says")"
	f=csvonly/simple_medium_response_c1_artifacts/auto-openai-chat-concurrency1/simple_medium_response_c1_genai_perf.csv
	sed 's/^Request Throughput (per sec),\([0-9]*\)\.\([0-9]*\)/Request Throughput (per sec),1\1.\2/' "$f" >x.csv &&
		mv x.csv "$f"
	tap_check "... while a CSV value off by more than its rounding is still warned about" \
		'sources csvonly | grep -q "recomputed request_throughput avg is .* but the export says"'
else
	tap_skip "../shared/real/genai-perf-medium not present"
fi
tap_plan
