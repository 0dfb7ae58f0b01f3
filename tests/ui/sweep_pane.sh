#!/bin/sh
# sweep_pane.sh: the Sweep pane, headless (TSCOPE_SCRIPT): the NAT fixture's runtime
# plot shows points, the removed outlier, the fit line, the target line and the
# estimate, in UTF-8 and with --ascii, its legend row naming runtime (m); Enter on a NAT
# point opens its own sizing_points row (a job's, a merge's); e exports the view of the
# source shown (sizing_points for a NAT file beside a GenAI-Perf sweep, sweep for the series);
# pass is - until a constraint is given; a point
# without a request count lists its confidence as n/a; a :constraint on a metric no
# config has is refused as not judged; a bare :constraint gives its usage, only
# `:constraint clear` clears;
# `:objective` and `:constraint` re-rank the sweep view at once (GPU telemetry metrics
# too); a bad objective is reported, not fatal; the sweep view's time columns carry
# their unit in the name (ttft_p99_ms) and :filter compares in it; on a NAT-only run, Enter on a sizing
# finding opens the sizing view; v lists only the views that build for the run; a level without a
# plottable value (NAT's interrupted concurrency or p95 of 0, a GenAI-Perf level without latency) is
# listed with its value or -, its alerts and why, left out of the plot and named under it; a y axis
# from 0 is labelled 0, never -0.
set -u
BIN=${TSCOPE_BIN:?}
TMP=${TSCOPE_TMP:-$(mktemp -d)}
. "$TSCOPE_ROOT/tests/tap.sh"
tui() { # tui SCRIPT ARGS...: run the explorer headless on SCRIPT, stderr to $TMP/err
	script=$1
	shift
	LC_ALL=C.UTF-8 TERM=xterm-256color TSCOPE_SCRIPT="$script" "$BIN" --tui "$@" >/dev/null 2>"$TMP/err"
}
NAT="$TMP/nat"
mkdir -p "$NAT"
# a stored latency fit without the outlier rule (differs from the recomputed one)
cp "$TSCOPE_ROOT/tests/unit/fixtures/sweep/nat_stored_latency_fit.json" "$NAT/calc_runner_output.json"
AN="$TMP/an"
mkdir -p "$AN"
printf '%s\n' \
	'Config Name,Concurrency,ISL,Num Dataset Entries,p99 Time To First Token (ms),p99 Inter Token Latency (ms),p99 Request Latency (ms),p99 Output Sequence Length (tokens),Avg. Output Token Throughput (tokens/sec),Request Throughput (requests/sec)' \
	'm_run_config_0,1,200,100,10.50,2.00,300.00,128.00,400.00,3.00' \
	'm_run_config_1,2,200,100,12.00,2.50,320.00,128.00,780.00,6.00' \
	'm_run_config_2,4,200,100,30.00,4.00,500.00,128.00,800.00,6.20' >"$AN/analyze_export_genai_perf.csv"

cat >"$TMP/s1" <<S
:resize 30 90
:pane Sweep
m
:dump $TMP/runtime.txt
:quit
S
tui "$TMP/s1" --target-users 100 --target-latency 2.5 --test-gpus 8 "$NAT"
tap_rc $? "Sweep pane script exits 0"
grep -q 'p95 workflow runtime (s) vs concurrency' "$TMP/runtime.txt"
tap_rc $? "m switches the plot to workflow runtime"
grep -q '   m: runtime   ' "$TMP/runtime.txt" && ! grep -q 'm: throughput' "$TMP/runtime.txt"
tap_rc $? "... and the legend row says runtime, not throughput"
cat >"$TMP/s2" <<S
:resize 30 90
:pane Sweep
:dump $TMP/lat.txt
:quit
S
sed "s|lat.txt|lat_ascii.txt|" "$TMP/s2" >"$TMP/s2a"
tui "$TMP/s2" --target-users 100 --target-latency 2.5 --test-gpus 8 "$NAT"
grep -q '●' "$TMP/lat.txt" && grep -q '✕' "$TMP/lat.txt" && grep -q '·' "$TMP/lat.txt" && grep -q '─' "$TMP/lat.txt"
tap_rc $? "UTF-8 latency plot: points, outlier 32, fit line, target line"
grep -q 'outlier (removed from fit)' "$TMP/lat.txt"
tap_rc $? "points list marks the removed outlier"
grep -q 'estimate c=' "$TMP/lat.txt"
tap_rc $? "legend shows the estimate concurrency"
tui "$TMP/s2a" --ascii --target-users 100 --target-latency 2.5 --test-gpus 8 "$NAT"
! grep -q '[●✕·─│]' "$TMP/lat_ascii.txt" && grep -q ' o' "$TMP/lat_ascii.txt" && grep -q 'x' "$TMP/lat_ascii.txt"
tap_rc $? "--ascii plot uses ASCII glyphs only"

cat >"$TMP/s3" <<S
:resize 24 160
:view sweep
:dump $TMP/before.txt
:pane Sweep
:dump $TMP/pane_before.txt
:view sweep
:objective ttft_p99:1
:constraint ttft_p99<20
:dump $TMP/after.txt
:pane Sweep
:dump $TMP/pane.txt
<Down>
<Down>
<Enter>
:dump $TMP/enter.txt
:objective bogus_p1:1
:dump $TMP/bad.txt
:quit
S
tui "$TMP/s3" "$AN"
tap_rc $? "objective/constraint script exits 0"
grep -q 'm_run_config_2 .*  3 .* no  *ttft_p99<20 (30)' "$TMP/after.txt"
tap_rc $? ":constraint marks config 2 failing in the sweep view at once"
grep -q 'm_run_config_0 .*  1 .* yes' "$TMP/after.txt"
tap_rc $? ":objective ranks config 0 first"
grep -q '^ *4  *500  *3  NO   confidence n/a (no request count) ttft_p99<20 (30)' "$TMP/pane.txt"
tap_rc $? "Sweep pane lists ranking, pass, confidence (n/a: no request count) and the failed constraint per point"
grep -q '^ *4  *500  *-  -    confidence n/a (no request count) *$' "$TMP/pane_before.txt" &&
	! grep -q ' yes' "$TMP/pane_before.txt"
tap_rc $? "no constraint given: the Sweep pane's pass is -, never a vacuous yes"
! grep -q 'm_run_config_2 .* yes' "$TMP/before.txt" && grep -q 'm_run_config_2' "$TMP/before.txt"
tap_rc $? "no constraint given: the sweep view's pass cell is empty"
grep -q 'sweep  row 3/3  ' "$TMP/enter.txt"
tap_rc $? "Enter on the third point opens its row in the sweep table"
grep -q "unknown metric 'bogus_p1'" "$TMP/bad.txt"
tap_rc $? "a bad :objective is reported in the status line"
# a bare :constraint gives its usage and keeps the constraints (it cleared them all);
# :constraint clear clears them
cat >"$TMP/s3c" <<S
:resize 24 160
:view sweep
:constraint ttft_p99<20
:constraint
:dump $TMP/con_bare.txt
:constraint clear
:dump $TMP/con_clear.txt
:quit
S
tui "$TMP/s3c" "$AN"
usage="usage: :constraint EXPR|clear, e.g. ttft_p99<10 ('clear' removes all; 1 in force)"
tail -n 1 "$TMP/con_bare.txt" | grep -qF "$usage" &&
	grep -q 'm_run_config_2 .* no  *ttft_p99<20 (30)' "$TMP/con_bare.txt"
tap_rc $? "a bare :constraint gives its usage; the constraint stays in force"
tail -n 1 "$TMP/con_clear.txt" | grep -q "^3 of 3 configs pass 0 constraints" &&
	! grep -q 'ttft_p99<20' "$TMP/con_clear.txt"
tap_rc $? ":constraint clear removes it"
# a time column's name carries its unit, and :filter takes the value in that unit
cat >"$TMP/s3u" <<S
:resize 24 160
:view sweep
:filter ttft_p99_ms<11
:dump $TMP/unit.txt
:quit
S
tui "$TMP/s3u" "$AN"
grep -q ' ttft_p99_ms  *latency_p' "$TMP/unit.txt" && grep -q 'm_run_config_0 .* 10.5 ms  *300 ms ' "$TMP/unit.txt" &&
	! grep -q 'm_run_config_[12]' "$TMP/unit.txt"
tap_rc $? "sweep view: ttft_p99_ms (unit in the name); :filter ttft_p99_ms<11 keeps the 10.5 ms config"
# :objective / :constraint on GPU telemetry (two GPUs per config: the mean is used)
AT="$TMP/an_tel"
mkdir -p "$AT"
printf '%s\n' \
	'Config Name,Concurrency,p99 Time To First Token (ms),Request Throughput (requests/sec)' \
	'm_run_config_0,1,10.50,3.00' \
	'm_run_config_1,2,12.00,6.00' \
	'' \
	'Config Name,GPU,p99 GPU Power Usage (W),p99 GPU Utilization (%)' \
	'm_run_config_0,gpu0,100.00,90.00' \
	'm_run_config_0,gpu1,300.00,90.00' \
	'm_run_config_1,gpu0,150.00,40.00' \
	'm_run_config_1,gpu1,150.00,40.00' >"$AT/analyze_export_genai_perf.csv"
cat >"$TMP/s5" <<S
:resize 24 160
:view sweep
:constraint gpu_power_usage_p99<180
:objective gpu_power_usage_p99:1
:dump $TMP/tel.txt
:objective gpu_temp_p99:1
:dump $TMP/tel_bad.txt
:quit
S
tui "$TMP/s5" "$AT"
tap_rc $? "telemetry objective/constraint script exits 0"
grep -q 'm_run_config_0 .*  2  *-28.57 no  *gpu_power_usage_p99<' "$TMP/tel.txt" &&
	grep -q 'm_run_config_1 .*  1  *28.57 yes' "$TMP/tel.txt"
tap_rc $? ":constraint/:objective on GPU power (mean over GPUs) re-rank the sweep view"
grep -q "unknown metric 'gpu_temp_p99'.*gpu_power_usage" "$TMP/tel_bad.txt"
tap_rc $? "a telemetry metric the run lacks is reported in the status line"

# NAT-only run: opening a sizing finding shows the sizing view (the sweep view is empty)
cat >"$TMP/s4" <<S
:resize 24 180
:view findings
<Enter>
:dump $TMP/nat_open.txt
:view findings
<Down>
<Enter>
:dump $TMP/nat_open2.txt
:quit
S
tui "$TMP/s4" "$NAT"
tap_rc $? "NAT findings script exits 0"
grep -q '^ source  *file  *jobs  *metric  *points  *stored_slo' "$TMP/nat_open.txt" &&
	grep -q '^▶nat .* llm_latency_p95 .* 32' "$TMP/nat_open.txt"
tap_rc $? "Enter on SIZING.OUTLIERS opens the sizing view at the NAT file's fit row"
grep -q '^ source  *file  *jobs  *metric  *points  *stored_slo' "$TMP/nat_open2.txt" &&
	! grep -q 'no evidence to open' "$TMP/nat_open2.txt"
tap_rc $? "Enter on SIZING.STORED_DIFFERS opens the sizing view too"

# few requests: a concurrency sweep whose 20-request level has a low-confidence p95
LC="$TMP/lc"
for nc in 1:20 2:400 4:800; do
	n=${nc%:*} count=${nc#*:}
	mkdir -p "$LC/m-openai-chat-concurrency$n"
	printf 'Metric,avg,min,max,p99,p95,p90,p75,p50,p25,p10,p5,p1\nRequest Latency (ms),%s00.00,1,2,3,%s50,3,3,3,3,3,3,3\n\nMetric,Value\nRequest Throughput (per sec),%s.00\nRequest Count (count),%s.00\n' \
		"$n" "$n" "$n" "$count" >"$LC/m-openai-chat-concurrency$n/p_genai_perf.csv"
done
cat >"$TMP/s6" <<S
:resize 30 100
:pane Sweep
:dump $TMP/lc.txt
:quit
S
tui "$TMP/s6" "$LC"
grep -q '○' "$TMP/lc.txt" && grep -q '●' "$TMP/lc.txt" && grep -q '○ few requests' "$TMP/lc.txt" &&
	grep -q '^ *1  *150  .*low confidence (20 requests)' "$TMP/lc.txt" && ! grep -q '^ *2  .*low confidence' "$TMP/lc.txt"
tap_rc $? "Sweep pane: the 20-request level's p95 is drawn ○ and listed as low confidence; 400 requests are not"
# no request count (older GenAI-Perf): each point says its confidence is n/a, never implied confident;
# a constraint on a metric no config has (no ITL here) is refused as not judged
NC="$TMP/nc"
cp -R "$LC" "$NC"
for f in "$NC"/*/p_genai_perf.csv; do
	grep -v '^Request Count' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
done
cat >"$TMP/s6n" <<S
:resize 30 100
:pane Sweep
:dump $TMP/nc.txt
:constraint itl_p99<50
:dump $TMP/nc_con.txt
:quit
S
tui "$TMP/s6n" "$NC"
[ "$(grep -c '^ *[124]  *[0-9]*  *-  -    confidence n/a (no request count) *$' "$TMP/nc.txt")" = 3 ] &&
	! grep -q 'low confidence (' "$TMP/nc.txt" && ! grep -v 'few requests' "$TMP/nc.txt" | grep -q '○'
tap_rc $? "Sweep pane without a request count: every point lists confidence n/a (no request count)"
grep -q 'itl_p99<50 not judged: no config has that metric' "$TMP/nc_con.txt" &&
	grep -q '^ *1  .*  -  -  ' "$TMP/nc_con.txt"
tap_rc $? ":constraint on a metric no config has is refused as not judged; pass stays -"

# two online jobs of one calc output dir: each job is a source, then their merge
for j in 1752000000:1,2,4 1752000100:8,16,32; do
	d="$TMP/natm/online/job_${j%:*}"
	mkdir -p "$d"
	printf '{"calc_data": {' >"$d/calc_runner_output.json"
	sep=''
	for c in $(echo "${j#*:}" | tr , ' '); do
		printf '%s"%s": {"sizing_metrics": {"llm_latency_p95": %s, "workflow_runtime_p95": %s}}' "$sep" "$c" "$c" "$c" >>"$d/calc_runner_output.json"
		sep=','
	done
	printf '}}\n' >>"$d/calc_runner_output.json"
done
cat >"$TMP/s7" <<S
:resize 30 100
:pane Sweep
:dump $TMP/m0.txt
<Right>
<Right>
:dump $TMP/m2.txt
:quit
S
tui "$TMP/s7" "$TMP/natm"
grep -q 'vs concurrency — job_1752000000' "$TMP/m0.txt" && grep -q 'source 1/3' "$TMP/m0.txt" &&
	grep -q 'vs concurrency — merged, 2 jobs' "$TMP/m2.txt" && grep -q '^ *32 ' "$TMP/m2.txt" && grep -q '^ *1 ' "$TMP/m2.txt"
tap_rc $? "NAT jobs and their merge are separate Sweep pane sources; the merge plots all 6 concurrencies"
# Enter on a NAT point opens that point's own sizing_points row (it opened the source's first row)
printf ':resize 30 100\n:pane Sweep\n<Right>\n<Down>\n<Down>\n<Enter>\n:dump %s\n' "$TMP/ne2.txt" >"$TMP/s7e"
printf '<Esc>\n<Right>\n<Down>\n<Enter>\n:dump %s\n:quit\n' "$TMP/ne3.txt" >>"$TMP/s7e"
(cd "$TMP" && tui "$TMP/s7e" natm)   # relative: the file column shows the job directory
grep -q 'sizing_points  row 6/12  ' "$TMP/ne2.txt" &&
	grep -q '^▶natm/online/job_1752000100/.* online  *32 ' "$TMP/ne2.txt" &&
	grep -q 'sizing_points  row 8/12  ' "$TMP/ne3.txt" &&
	grep -q '^▶natm/online/job_1752000000/.* merged  *2 ' "$TMP/ne3.txt"
tap_rc $? "Enter on a NAT point opens its own sizing_points row: job 2's concurrency 32, the merge's concurrency 2"
# a GenAI-Perf sweep and a NAT file in one directory: e exports the view of the source shown,
# sizing_points for the NAT file (it wrote the sweep view), sweep for the GenAI-Perf series
MX="$TMP/mix"
mkdir -p "$MX"
cp "$AN/analyze_export_genai_perf.csv" "$NAT/calc_runner_output.json" "$MX/"
printf ':resize 30 100\n:pane Sweep\n<Right>\ne<C-u>%s\n:dump %s\n<Enter>\n<Left>\ne<C-u>%s<Enter>\n:quit\n' \
	"$TMP/mix_nat.csv" "$TMP/mix_prompt.txt" "$TMP/mix_an.csv" >"$TMP/s12"
tui "$TMP/s12" "$MX"
"$BIN" --export sizing_points --no-index "$MX" >"$TMP/mix_nat_want.csv" 2>/dev/null
"$BIN" --export sweep --no-index "$MX" >"$TMP/mix_an_want.csv" 2>/dev/null
grep -q "^export CSV to: $TMP/mix_nat.csv" "$TMP/mix_prompt.txt" && cmp -s "$TMP/mix_nat.csv" "$TMP/mix_nat_want.csv" &&
	cmp -s "$TMP/mix_an.csv" "$TMP/mix_an_want.csv"
tap_rc $? "e on the Sweep pane exports sizing_points for the NAT source shown, sweep for the GenAI-Perf one"
# a level without a plottable value is listed, never dropped: NAT's interrupted concurrency 8 with
# its value and alert (as --print), a GenAI-Perf level without latency with -; both left out of
# the plot and named under it
d="$TMP/natint/online/job_1752000000"
mkdir -p "$d"
printf '{"calc_data": {' >"$d/calc_runner_output.json"
sep=''
for c in 1 2 4 8 16; do
	w=false
	[ "$c" = 8 ] && w=true
	printf '%s"%s": {"sizing_metrics": {"alerts": {"workflow_interrupted": %s}, "llm_latency_p95": %s.5, ' \
		"$sep" "$c" "$w" "$c" >>"$d/calc_runner_output.json"
	printf '"workflow_runtime_p95": %s}}' "$((c * 3))" >>"$d/calc_runner_output.json"
	sep=','
done
printf '}}\n' >>"$d/calc_runner_output.json"
cat >"$TMP/s10" <<S
:resize 40 120
:pane Sweep
<Down>
<Down>
<Down>
:dump $TMP/int.txt
:quit
S
tui "$TMP/s10" "$TMP/natint"
grep -q '^ *8  *8.5  *!W    not plotted: interrupted$' "$TMP/int.txt" &&
	grep -q '^not plotted: concurrency 8 (interrupted)' "$TMP/int.txt" &&
	grep -q 'concurrency=8  p95 LLM latency (s)=8.5  (not plotted: interrupted)' "$TMP/int.txt" &&
	[ "$(grep -o '●' "$TMP/int.txt" | wc -l)" -eq 5 ]
tap_rc $? "NAT: the interrupted concurrency is listed with its value and !W, named under the plot, not plotted"
# a p95 workflow runtime of 0 is the calculator's "not measured": - in the runtime plot's list, and
# out of the fits in the latency plot; the runtime axis from 0 is labelled 0, never -0
d="$TMP/natzero/online/job_1752000000"
mkdir -p "$d"
sed 's/"workflow_interrupted": true/"workflow_interrupted": false/
	s/"workflow_runtime_p95": 24}/"workflow_runtime_p95": 0}/' \
	"$TMP/natint/online/job_1752000000/calc_runner_output.json" >"$d/calc_runner_output.json"
printf ':resize 40 120\n:pane Sweep\n:dump %s\nm\n:dump %s\n:quit\n' "$TMP/zl.txt" "$TMP/zr.txt" >"$TMP/s13"
tui "$TMP/s13" "$TMP/natzero"
grep -q '^ *8  *8.5  *not plotted: p95 workflow runtime 0 (not measured), out of the fits$' "$TMP/zl.txt" &&
	grep -q '^ *8  *-  *not plotted: p95 workflow runtime 0 (not measured)$' "$TMP/zr.txt" &&
	grep -q '^not plotted: concurrency 8 (p95 workflow runtime 0 (not measured))' "$TMP/zr.txt" &&
	grep -q '^ *0 │' "$TMP/zr.txt" && ! grep -q -- '-0 │' "$TMP/zr.txt"
tap_rc $? "NAT: a p95 runtime of 0 is not measured (-), out of the fits; the runtime axis reads 0, not -0"
EM="$TMP/emiss"
for c in 1 2 4 8; do
	mkdir -p "$EM/m-openai-chat-concurrency$c"
	{
		printf 'Metric,avg,p99,p95,p50\n'
		[ "$c" = 2 ] || printf 'Request Latency (ms),%s00,%s00,%s00,%s00\n' "$c" "$c" "$c" "$c"
		printf '\nMetric,Value\nRequest Throughput (per sec),%s.5\n' "$c"
	} >"$EM/m-openai-chat-concurrency$c/p_genai_perf.csv"
done
printf ':resize 24 80\n:pane Sweep\n<Down>\n:dump %s\nm\n:dump %s\n:quit\n' "$TMP/em.txt" "$TMP/em_rps.txt" >"$TMP/s11"
tui "$TMP/s11" "$EM"
grep -q '^ *2  -  *-  -    not plotted: no p95 requ' "$TMP/em.txt" &&
	grep -q '^not plotted: concurrency 2 (no p95 request latency)' "$TMP/em.txt" &&
	grep -q 'concurrency=2  p95 request latency (ms)=-' "$TMP/em.txt" &&
	grep -q '^ *2  2.50  ' "$TMP/em_rps.txt" && ! grep -q 'not plotted' "$TMP/em_rps.txt"
tap_rc $? "GenAI-Perf: the level without latency is listed with - and named under the plot; its throughput plots"

# v lists only the views that build for the run (the test export makes): a Cerebras file
# has no sweep, sizing, GPU telemetry or heatmap; a GenAI-Perf sweep without telemetry no
# cerebras
CB="$TMP/cb"
mkdir -p "$CB"
printf '{"ordinals":[{"samples_per_sec":100.0,"total_samples":1000,"total_time":10.0}]}' >"$CB/performance.json"
printf ':resize 30 100\nv\n:dump %s\n<Esc>:quit\n' "$TMP/v_cb.txt" >"$TMP/s8"
tui "$TMP/s8" "$CB"
sed 's|v_cb|v_an|' "$TMP/s8" >"$TMP/s9"
tui "$TMP/s9" "$AN"
view_rows() { sed -n '/Views with data/,$p' "$1" | awk '{ print $1 }' | grep -x "$2"; }
view_rows "$TMP/v_cb.txt" cerebras >/dev/null && view_rows "$TMP/v_cb.txt" sources >/dev/null &&
	! view_rows "$TMP/v_cb.txt" 'sweep\|sizing\|sizing_points\|gpu_telemetry\|heatmap_cells' >/dev/null
tap_rc $? "v on a Cerebras file: cerebras, sources; no sweep, sizing, sizing_points, gpu_telemetry, heatmap_cells"
view_rows "$TMP/v_an.txt" sweep >/dev/null &&
	! view_rows "$TMP/v_an.txt" 'cerebras\|gpu_telemetry\|sizing_points' >/dev/null
tap_rc $? "v on a GenAI-Perf sweep without telemetry: sweep, no cerebras, gpu_telemetry or sizing_points"
tap_plan
