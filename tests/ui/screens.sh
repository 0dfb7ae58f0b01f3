#!/bin/sh
# Headless scripted UI tests: each tests/ui/NAME.keys drives the real explorer without
# a tty (TSCOPE_SCRIPT) and dumps screens with ":dump @DIR@/N"; the dumps, joined, must
# equal tests/ui/NAME.screen. UPDATE=1 rewrites the goldens (review the diff).
# Header lines of a .keys file:
#   # fixture: f1 | f2 | demo | hostile   (run directory the session opens)
#   # env: LINES=24 COLUMNS=80 TERM=dumb LC_ALL=C.UTF-8
#   # args: --ascii                   (extra command-line options)
#   # contains: FILE TEXT             (a dump not in the golden, e.g. a list other
#                                     subsystems extend, must contain TEXT)
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
dir="$TSCOPE_ROOT/tests/ui"
gen="$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_fixtures"
fx="$TSCOPE_TMP/fixtures"
mkdir -p "$fx"
"$gen" f1 "$fx/f1" >/dev/null && "$gen" f2 "$fx/f2" >/dev/null || { tap_notok "gen_fixtures failed"; exit 0; }
ln -sfn "$TSCOPE_ROOT/testdata/demo" "$fx/demo"
# hostile: escape sequences and C1 bytes in the run name and a phase name
mkdir -p "$fx/hostile/rank0" "$fx/hostile/rank1"
for r in 0 1; do
	printf '{"name":"evil\\u001b]0;pwned\\u0007\\u001b[2J\\u009b31m","rank":%d,"world_size":2}\n' $r >"$fx/hostile/rank$r/run.json"
	i=0
	while [ $i -lt 12 ]; do
		c=0.01; [ $r = 1 ] && c=0.02
		printf '{"step":%d,"timestamp":%d.5,"phases":{"forward":%s,"\\u001b[31mbwd\\u009b":0.004,"comm":0.001}}\n' $i $((1000 + i)) $c
		i=$((i + 1))
	done >"$fx/hostile/rank$r/steps.jsonl"
done
# nodes40: 40 ranks at gpu_count 8 (five nodes), rank 21 slow in forward: more ranks
# than an 80x24 screen has rows, so the heatmap and Ranks open with node rows
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$fx/nodes40" 40 60 >/dev/null || { tap_notok "gen_demo failed"; exit 0; }
sed 's/"forward":[0-9.]*/"forward":0.09/' "$fx/nodes40/rank21/steps.jsonl" >"$fx/nodes40/slow" &&
	mv "$fx/nodes40/slow" "$fx/nodes40/rank21/steps.jsonl"
# hosts8: 8 ranks on two nodes with 97-character hostnames (k8s FQDNs, ranks_hostname)
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$fx/hosts8" 8 60 >/dev/null || { tap_notok "gen_demo failed"; exit 0; }
for r in 0 1 2 3 4 5 6 7; do
	h="pytorchjob-llama3-70b-pretrain-2026-11-20-worker-$((r / 4)).training-svc.ml-platform.svc.cluster.local"
	sed "s/\"python\":/\"hostname\": \"$h\", \"python\":/" "$fx/hosts8/rank$r/run.json" >"$fx/hosts8/run.json" &&
		mv "$fx/hosts8/run.json" "$fx/hosts8/rank$r/run.json"
done
# demo64: a summary taller than an 80x24 Overview leaves room for (overview_8024)
"$TSCOPE_ROOT/$TSCOPE_BUILD/tests/gen_demo" "$fx/demo64" 64 100 >/dev/null || { tap_notok "gen_demo failed"; exit 0; }

for keys in "$dir"/*.keys; do
	name=$(basename "$keys" .keys)
	fixture=$(sed -n 's/^# fixture: *//p' "$keys")
	envs=$(sed -n 's/^# env: *//p' "$keys")
	args=$(sed -n 's/^# args: *//p' "$keys")
	work="$TSCOPE_TMP/$name"
	rm -rf "$work" && mkdir -p "$work"
	sed "s|@DIR@|$work|g" "$keys" >"$work/script"
	(cd "$work" && env LINES=24 COLUMNS=80 TERM=dumb LC_ALL=C.UTF-8 $envs TSCOPE_SCRIPT="$work/script" \
		"$TSCOPE_BIN" --tui $args "../fixtures/$fixture" >"$work/stdout" 2>"$work/stderr")
	rc=$?
	got="$work/got"
	: >"$got"
	for d in $(ls "$work" | grep -E '^[0-9]+$' | sort -n); do
		echo "--- screen $d" >>"$got"
		cat "$work/$d" >>"$got"
	done
	for f in $(ls "$work" | grep -E '\.csv$' | sort); do
		echo "--- file $f" >>"$got"
		cat "$work/$f" >>"$got"
	done
	want="$dir/$name.screen"
	if [ "${UPDATE:-}" = 1 ]; then
		cp "$got" "$want"
	fi
	if [ $rc -ne 0 ]; then
		tap_notok "$name: exit status $rc"
		sed 's/^/# /' "$work/stderr"
	elif cmp -s "$got" "$want"; then
		tap_ok "$name"
	else
		tap_notok "$name: screen differs from $name.screen (UPDATE=1 rewrites)"
		diff -u "$want" "$got" | head -60 | sed 's/^/# /'
	fi
	sed -n 's/^# contains: *//p' "$keys" >"$work/contains"
	while read -r file text; do
		if grep -qF -- "$text" "$work/$file"; then
			tap_ok "$name: $file contains '$text'"
		else
			tap_notok "$name: $file lacks '$text'"
		fi
	done <"$work/contains"
	if [ "$fixture" = hostile ]; then
		if LC_ALL=C grep -q "$(printf '[\033\007\233]')" "$got" || LC_ALL=C grep -q "$(printf '\302[\200-\237]')" "$got"; then
			tap_notok "$name: raw escape or C1 bytes reached the screen or the CSV"
		else
			tap_ok "$name: only sanitized text on screen and in the CSV"
		fi
	fi
done
tap_plan
