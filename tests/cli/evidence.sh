#!/bin/sh
# evidence.sh: each finding's Enter opens its own evidence, never the previous finding's
# cursor: on the demo run, CROSS.CORRELATED_INSTABILITY lands on step 300, then
# MEMORY.GROWTH on the memory series over the whole run (from step 0), and
# EFFICIENCY.LOW_MFU on the Budget pane. A sweep finding opens only its own rows (the
# config or file named exactly, not every name holding it: concurrency1 is not
# concurrency16, a/performance.json not ba/performance.json) with the cursor on its row,
# and a sizing finding on a GenAI-Perf fit opens that fit's row of sizing (not the
# sweep view's first config).
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
cat >keys <<KEYS
1
<Enter>
:dump $TSCOPE_TMP/cross
<Esc>
j
<Enter>
:dump $TSCOPE_TMP/growth
<Esc>
j
j
:dump $TSCOPE_TMP/sel
<Enter>
:dump $TSCOPE_TMP/mfu
KEYS
LINES=30 COLUMNS=110 TERM=dumb LC_ALL=C.UTF-8 TSCOPE_SCRIPT="$TSCOPE_TMP/keys" "$TSCOPE_BIN" --tui "$TSCOPE_ROOT/testdata/demo" >/dev/null 2>err
tap_check "CROSS.CORRELATED_INSTABILITY: the Steps pane at step 300" 'grep -q "^ rank 0 step 300 " cross'
tap_check "MEMORY.GROWTH next: the whole run from step 0, memory highlighted" 'grep -q "^ rank 0 step 0 " growth && grep -qi "memory" growth'
tap_check "the LOW_MFU finding is selected" 'grep -q "EFFICIENCY.LOW_MFU" sel'
tap_check "EFFICIENCY.LOW_MFU: the Budget pane" 'grep -q "^ rank 0  rank wall .* efficiency " mfu'

# explore DIR ARGS...: open finding ID (Findings tab, filter id=ID, Enter), dump to DIR.ID
explore() {
	out=$1 id=$2
	shift 2
	printf '6\nf\n<C-u>id=%s<Enter>\n<Enter>\n:dump %s\n' "$id" "$TSCOPE_TMP/$out" >"keys.$out"
	LINES=30 COLUMNS=200 TERM=dumb LC_ALL=C.UTF-8 XDG_STATE_HOME="$TSCOPE_TMP/st" XDG_CACHE_HOME="$TSCOPE_TMP/ca" \
		TSCOPE_SCRIPT="$TSCOPE_TMP/keys.$out" "$TSCOPE_BIN" --tui "$@" >/dev/null 2>"err.$out"
}
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_sweep"
"$gen" sw8 60 4 8 0 >/dev/null && "$gen" sw1 300 8 5 4 >/dev/null || tap_notok "gen_sweep"
explore con SWEEP.CONSTRAINT --constraint 'rps>900' sw8
tap_check "SWEEP.CONSTRAINT: only its config's row (not concurrency16, 128)" \
	'grep -q "^ sweep  row 1/1 (of 8) .* filter .config=m-openai-chat-concurrency1.$" con &&
	 grep -q "^▶.* m-openai-chat-concurrency1 " con && ! grep -q "concurrency1[26]" con'
explore out SIZING.OUTLIERS sw1
tap_check "SIZING.OUTLIERS of a GenAI-Perf fit: its row of sizing" \
	'grep -q "^ sizing  row 1/1 .* filter .file=m-openai-chat-concurrency\*.$" out &&
	 grep -q "^▶genai-perf  *m-openai-chat-concurrency\*  .* request_latency_p95  *5 .* 4 " out'
mkdir -p a ba
ords='{"samples_per_sec": 100.0, "total_samples": 1000, "total_time": 10.0}'
printf '{"ordinals": [%s, %s, {"samples_per_sec": 40.0, "total_samples": 400, "total_time": 10.0}]}\n' \
	"$ords" "$ords" >a/performance.json
printf '{"ordinals": [%s, %s]}\n' "$ords" "$ords" >ba/performance.json
explore cb CEREBRAS.SLOW_ORDINAL a/performance.json ba/performance.json
tap_check "CEREBRAS.SLOW_ORDINAL: only its file's rows (not ba/performance.json's), on its ordinal" \
	'grep -q "^ cerebras  row 5/5 (of 9) .* filter .file=a/performance.json.$" cb &&
	 grep -q "^▶a/performance.json  *ordinal 2 " cb && ! grep -q "^ ba/" cb'
tap_plan
