#!/bin/sh
# sweep_unread.sh: what the inference loaders cannot read is named, never dropped in
# silence. A GenAI-Perf level directory or a NAT job directory that cannot be listed is an
# error naming it and why (cannot open: Permission denied), an unreadable source, and the
# headline and the not-judged list say its configs or sizing jobs are left out of the
# verdicts. A file with its family's own name in its own place is read whatever its
# content, so an empty, unreadable or garbled one is named: a Cerebras
# performance/performance.json (or one given by path, or any file under --format
# cerebras), a GenAI-Perf *profile_export*.json and X.json beside X_genai_perf.json; a raw
# export that does not open makes no config of its own; a path whose loader named what it
# could not read is not also "no supported data found here". A GenAI-Perf level whose only
# file is a truncated raw export, and a NAT job whose calculator file is truncated, are named
# in the headline and the not-judged list as a directory that cannot be listed is (their
# Sources rows say partial, with the error). Another tool's JSON object named
# performance.json is not claimed. File modes are tested as a user they bind (root
# without CAP_DAC_OVERRIDE, as permissions.sh does).
set -u
BIN=${TSCOPE_BIN:?}
. "$TSCOPE_ROOT/tests/tap.sh"
work="$TSCOPE_TMP/sweep_unread.$$"
mkdir -p "$work" && cd "$work" || exit 1
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT

as_user() { # as_user CMD...: CMD as a user whom file modes bind
	if [ "$(id -u)" = 0 ]; then
		setpriv --bounding-set -dac_override,-dac_read_search "$@"
	else
		"$@"
	fi
}
modes_bind() {
	mkdir -p probe && : >probe/f && chmod 000 probe/f
	! as_user cat probe/f 2>/dev/null && as_user true 2>/dev/null
}
level() { # level DIR CONCURRENCY P50: one GenAI-Perf level
	mkdir -p "$1/m-openai-chat-concurrency$2"
	printf '{"request_latency": {"unit": "ms", "avg": %s, "p50": %s, "p99": %s},
 "request_throughput": {"unit": "requests/sec", "avg": %s}}\n' "$3" "$3" "$3" "$2" \
		>"$1/m-openai-chat-concurrency$2/profile_export_genai_perf.json"
}
nat_job() { # nat_job DIR: one sizing calculator output of 2 concurrencies
	mkdir -p "$1"
	printf '{"calc_data": {"1": {"sizing_metrics": {"llm_latency_p95": 1.1, "workflow_runtime_p95": 4.0}},
 "2": {"sizing_metrics": {"llm_latency_p95": 1.3, "workflow_runtime_p95": 4.7}}}}\n' >"$1/calc_runner_output.json"
}

if modes_bind; then
	# --- a GenAI-Perf level directory that cannot be listed --------------------------------
	level g 1 100 && level g 2 110 && level g 4 130 && level g 8 200
	chmod 000 g/m-openai-chat-concurrency4
	as_user "$BIN" --print --no-index --color never g >g.txt 2>g.err
	as_user "$BIN" --export sources --no-index g >g.csv 2>/dev/null
	d=g/m-openai-chat-concurrency4
	tap_check "GenAI-Perf: an unlistable level directory is an error naming it and why, and counted" \
		'grep -qx "error,$d,,,,,,,cannot open: Permission denied" g.csv &&
		 grep -qx "file,$d,genai-perf,,,,0,0,unreadable" g.csv && grep -q "data quality: 1 error" g.err'
	tap_check "... the headline says its configs are left out of the verdicts" \
		'grep -q "not read  *$d (cannot open: Permission denied): any config in it is left out of the \
verdicts below" g.txt'
	tap_check "... and so does the not-judged list" \
		'grep -q "^  - the configs in $d (cannot open: Permission denied)$" g.txt'

	# --- a NAT job directory that cannot be listed ------------------------------------------
	nat_job n/online/job_1 && nat_job n/online/job_2
	chmod 000 n/online/job_2
	as_user "$BIN" --print --no-index --color never n >n.txt 2>/dev/null
	tap_check "NAT: an unlistable job directory is an error naming it, and the headline says so" \
		'as_user "$BIN" --export sources --no-index n 2>/dev/null |
			grep -qx "error,n/online/job_2,,,,,,,cannot open: Permission denied" &&
		 grep -q "not read  *n/online/job_2 (cannot open: Permission denied): any sizing job in it" n.txt'

	# --- unreadable files with their family's own name -------------------------------------
	mkdir -p cp/performance
	printf '{"samples_per_sec": 1.5, "total_samples": 10, "total_time": 20}\n' >cp/performance/performance.json
	chmod 000 cp/performance/performance.json
	as_user "$BIN" --print --no-index cp >/dev/null 2>cp.err
	tap_check "Cerebras: an unreadable performance/performance.json is named with the reason" \
		'grep -qx "tscope-tui: cp/performance/performance.json: cannot read: Permission denied" cp.err'
	level gx 1 100
	x=gx/m-openai-chat-concurrency1/profile_export.json
	printf '{"experiments": []}\n' >"$x"
	chmod 000 "$x"
	tap_check "GenAI-Perf: an unreadable raw export beside its exports is named with the reason" \
		'as_user "$BIN" --export sources --no-index gx 2>/dev/null |
			grep -qx "error,$x,,,,,,,cannot read: Permission denied"'
else
	for t in 1 2 3 4 5 6; do
		tap_skip "file modes do not bind this user here (root, and setpriv could not drop CAP_DAC_OVERRIDE)"
	done
fi

# --- empty and garbled Cerebras files ------------------------------------------------------
mkdir -p ce/performance cg/performance co
: >ce/performance/performance.json
printf '\377\376garbage\n' >cg/performance/performance.json
printf '{"model": "another tool"}\n' >co/performance.json
"$BIN" --print --no-index ce >/dev/null 2>ce.err
rc=$?
tap_check "Cerebras: an empty performance/performance.json is named, not 'no supported data' alone; exit 1" \
	'[ $rc = 1 ] && grep -qx "tscope-tui: ce/performance/performance.json: empty file" ce.err'
tap_check "... and the path is not also said to hold no supported data (its loader said why)" \
	'! grep -q "no supported data found here" ce.err'
"$BIN" --print --no-index cg >/dev/null 2>cg.err
"$BIN" --print --no-index cg/performance/performance.json >/dev/null 2>cg2.err
tap_check "Cerebras: a garbled one is invalid JSON at offset 0, found in its place or given by path" \
	'grep -qx "tscope-tui: cg/performance/performance.json@0: invalid JSON" cg.err &&
	 grep -qx "tscope-tui: cg/performance/performance.json@0: invalid JSON" cg2.err'
"$BIN" --print --no-index co >/dev/null 2>co.err
"$BIN" --print --no-index --format cerebras co >/dev/null 2>co2.err
tap_check "another tool's performance.json is not claimed, but --format cerebras names it" \
	'! grep -q "Cerebras" co.err && grep -q "no supported data found here" co.err &&
	 grep -qx "tscope-tui: co/performance.json: no samples_per_sec, total_samples, global_rate or ordinals: not a \
Cerebras performance.json" co2.err'

# --- a level or job file that gives nothing: named as an unlistable directory is ---------
# a level whose only file is a truncated raw export; a level whose raw export is truncated
# beside its good *_genai_perf.json loses nothing and is not named
level gt 1 100 && level gt 2 110 && level gt 8 200 && level gt 16 210
t=gt/m-openai-chat-concurrency4/profile_export.json
mkdir -p "${t%/*}" && printf '{"experiments": [{"experiment": {"mode": "concurrency", "value": 4}, "requests": [' >"$t"
printf '{"experiments": [{"requests": [' >gt/m-openai-chat-concurrency8/profile_export.json
"$BIN" --print --no-index --color never gt >gt.txt 2>/dev/null
"$BIN" --export sources --no-index gt >gt.csv 2>/dev/null
tap_check "GenAI-Perf: a level whose raw export is truncated is named in the headline, its config left out" \
	'grep -q "^  not read  *$t (truncated JSON): any config in it is left out of the verdicts below$" gt.txt &&
	 grep -q "^  stimulus  *concurrency 1, 2, 8, 16 (4 levels)$" gt.txt &&
	 ! grep -q "not read.*concurrency8" gt.txt'
tap_check "... the not-judged list names it, and the data quality counts it: partial, its error named" \
	'grep -q "^  - the configs in $t (truncated JSON)$" gt.txt &&
	 grep -qx "file,$t,genai-perf,,,,0,1,partial (truncated tail or still being written)" gt.csv &&
	 grep -q "^error,$t,,,,[0-9]*,,,truncated JSON$" gt.csv'
nat_job nt/online/job_1
mkdir -p nt/online/job_2 && printf '{"calc_data": {"1": {"sizing_' >nt/online/job_2/calc_runner_output.json
"$BIN" --print --no-index --color never nt >nt.txt 2>/dev/null
tap_check "NAT: a truncated job file is named in the headline, its sizing job left out" \
	'grep -q "^  not read  *nt/online/job_2/calc_runner_output.json (truncated JSON): any sizing job in it is left \
out of the verdicts below$" nt.txt'

# --- empty and garbled GenAI-Perf raw exports -----------------------------------------------
level ge 1 100 && level ge 2 110
: >ge/m-openai-chat-concurrency1/profile_export.json
printf '\377\376garbage\n' >ge/m-openai-chat-concurrency2/m_c2.json
cp ge/m-openai-chat-concurrency2/profile_export_genai_perf.json ge/m-openai-chat-concurrency2/m_c2_genai_perf.json
rm ge/m-openai-chat-concurrency2/profile_export_genai_perf.json
"$BIN" --export sources --no-index ge >ge.csv 2>/dev/null
tap_check "GenAI-Perf: an empty profile_export.json and a garbled X.json beside X_genai_perf.json are named" \
	'grep -qx "error,ge/m-openai-chat-concurrency1/profile_export.json,,,,,,,empty file" ge.csv &&
	 grep -qx "error,ge/m-openai-chat-concurrency2/m_c2.json,,,,0,,,invalid JSON" ge.csv'
"$BIN" --print --no-index --color never ge >ge.txt 2>/dev/null
tap_check "... and make no config of their own: 2 configs in 1 series" \
	'grep -q "inference sweep  *2 configs in 1 series" ge.txt'
tap_plan
