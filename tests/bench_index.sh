#!/bin/sh
# bench_index.sh: the persistent index (`make bench`; issue 15 targets). On one generated
# run (64 ranks x BENCH_INDEX_STEPS steps, gen_demo lines), page cache warm:
#   - per core, side by side (CPU s = user + sys of the process, min / median of 3,
#     --jobs 1 each, tests/tools/bench_lib.sh): the plain load (bench_load DIR 1: parse +
#     finalize), `--print --no-index` (parse + the analyses the report needs) and
#     `tscope-tui index --jobs 1` (parse, distributed analysis, both pyramids, write the
#     part and the summary) as a first build (no index before) and as a rewrite (--force; which
#     also frees the old index's pages); target: index <= the plain load;
#   - index size (parts and summary) against the JSONL (target <= 40%);
#   - reopen: bench_load DIR 1 index and --print from the index: CPU s and peak RSS;
#   - 2 shards on 2 cores, BENCH_INDEX_ROUNDS rounds (default 3): `index --jobs 1
#     --shard 0/2` and `1/2` started together against one `index --jobs 1 --shard 0/1`
#     (the same work in one process: parse + parts, no summary) and one whole `index
#     --jobs 1`: wall seconds (target >= 1.7x; wall time by nature, so the load average
#     is printed with it), and the two shards' CPU seconds summed against the one
#     process's (the work splits without overhead when the ratio is about 1.00).
#   - side by side (issue 15 target: indexing per core at least the plain load's), the
#     commands alternated BENCH_INDEX_PAIRS rounds (default 9): `--print --no-index
#     --jobs 1`, `index --jobs 1` as a first build and as a rewrite, the print again
#     (each index against the mean of the two prints around it); CPU ms of each
#     (perf stat task-clock when perf runs here, else user + sys of /usr/bin/time at
#     10 ms resolution) and the median of the rounds' ratios index / --print --no-index
#     (target <= 1.00), and the ratio of the sums; with BENCH_INDEX_BIG=1 the same at
#     10,000 ranks x 1,000 steps (BENCH_INDEX_BIG_PAIRS rounds, default 3); with
#     BENCH_INDEX_SMALL=1 the same and
#     the index size at 10,000 ranks x 10 steps, where per-rank costs dominate
#     (BENCH_INDEX_SMALL_PAIRS rounds, default 15; also with BENCH_INDEX_PART=pairs).
# BENCH_INDEX_PART=shards runs the shard part only (the lead's one-line re-measure on an
# idle machine: BENCH_INDEX_PART=shards sh tests/bench_index.sh); BENCH_INDEX_PART=pairs
# the side-by-side part only, and with BENCH_INDEX_RUN=DIR over that run dir alone (its
# index is rewritten). Nothing is asserted.
# BENCH_KEEP=1 keeps the files.
set -u
cd "$(dirname "$0")/.."
. tests/tools/bench_lib.sh
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
steps=${BENCH_INDEX_STEPS:-10000}
rounds=${BENCH_INDEX_ROUNDS:-3}
part=${BENCH_INDEX_PART:-all}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-index.XXXXXX")
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT
run="$dir/run"

now() { date +%s.%N; }
cpu_of() { awk '{printf "%.2f", $1 + $2}' "$1"; }
mb_of() { awk '{printf "%.0f", $3 / 1024}' "$1"; }
field() { sed -n "s/.* $2=\([^ ]*\).*/\1/p" "$1" | head -1; }

# shard K N: `index --jobs 1 --shard K/N`, its CPU seconds (user + sys) in $dir/shard-K-N.t
shard() { /usr/bin/time -f '%U %S' -o "$dir/shard-$1-$2.t" "$BIN" index --force --jobs 1 --shard "$1/$2" "$run" >/dev/null; }
cpu_sum() { cat "$@" | awk '{ s += $1 + $2 } END { printf "%.2f", s }'; }

# CPU of one command (output discarded), in ms: "total user system". The total is
# perf stat's task-clock when perf runs here, else user + sys of /usr/bin/time (10 ms
# resolution); user and system are the kernel's tick-sampled split of it (rusage), so
# only their sums over many rounds mean much.
if perf stat -x, -e task-clock true >/dev/null 2>&1; then
	cpu_ms() {
		perf stat -e task-clock -o "$dir/cpu.t" "$@" >/dev/null 2>&1
		awk '/task-clock/ { t = $1 } / seconds user/ { u = $1 } / seconds sys/ { s = $1 }
		     END { gsub(",", "", t); printf "%.1f %.1f %.1f", t, 1000 * u, 1000 * s }' "$dir/cpu.t"
	}
	cpu_how="perf stat task-clock"
else
	cpu_ms() {
		/usr/bin/time -f '%U %S' -o "$dir/cpu.t" "$@" >/dev/null 2>&1
		awk '{ printf "%.1f %.1f %.1f", 1000 * ($1 + $2), 1000 * $1, 1000 * $2 }' "$dir/cpu.t"
	}
	cpu_how="/usr/bin/time user + sys (10 ms resolution)"
fi

# pairs RUN ROUNDS: per round `--print --no-index`, `index` as a first build and as a
# rewrite, `--print --no-index` again; each index against the mean of the round's two
# prints. The same command runs a few % slower later in a round on this VM (the print
# before and after the index runs differ by 2-4% on average), so one print before
# would favour it; the two around balance that drift. Then the same sums split into
# user and system CPU: on a virtual machine whose disk writes stall the writer's vCPU
# (Firecracker's block device), the index's writes show up as system time.
pairs() {
	: >"$dir/pairs"
	i=1
	while [ "$i" -le "$2" ]; do
		p=$(cpu_ms "$BIN" --print --no-index --jobs 1 "$1")
		rm -rf "$1/.tscope-index"
		f=$(cpu_ms "$BIN" index --force --jobs 1 "$1")
		w=$(cpu_ms "$BIN" index --force --jobs 1 "$1")
		q=$(cpu_ms "$BIN" --print --no-index --jobs 1 "$1")
		echo "$p $f $w $q" >>"$dir/pairs"
		i=$((i + 1))
	done
	# columns: print (total user sys) 1-3, first build 4-6, rewrite 7-9, print 10-12
	awk '{ m = ($1 + $10) / 2; printf "round %-3d --print --no-index %8.1f / %8.1f ms  index first %8.1f (%.3f)  rewrite %8.1f (%.3f)\n", NR, $1, $10, $4, $4 / m, $7, $7 / m }' "$dir/pairs"
	med() { sort -g | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] }'; }
	printf 'side by side, %s rounds (%s): index / mean of the two --print --no-index, median of the rounds: first build %s, rewrite %s (target <= 1.00)\n' \
		"$2" "$cpu_how" "$(awk '{ print 2 * $4 / ($1 + $10) }' "$dir/pairs" | med)" "$(awk '{ print 2 * $7 / ($1 + $10) }' "$dir/pairs" | med)"
	awk '{ p += $1 + $10; f += $4; w += $7 } END { printf "summed over the rounds: first build %.3f, rewrite %.3f of the prints'"'"' mean\n", 2 * f / p, 2 * w / p }' "$dir/pairs"
	awk '{ pu += $2 + $11; ps += $3 + $12; fu += $5; fs += $6; wu += $8; ws += $9 }
	     END { n = NR ? NR : 1; printf "the same sums split, ms a run: user  --print --no-index %.1f, first build %.1f (%.3f), rewrite %.1f (%.3f)\n", pu / 2 / n, fu / n, pu ? 2 * fu / pu : 0, wu / n, pu ? 2 * wu / pu : 0
	           printf "                               system --print --no-index %.1f, first build %.1f (%.3f), rewrite %.1f (%.3f)\n", ps / 2 / n, fs / n, ps ? 2 * fs / ps : 0, ws / n, ps ? 2 * ws / ps : 0 }' "$dir/pairs"
}

if [ "$part" = pairs ] && [ -n "${BENCH_INDEX_RUN:-}" ]; then   # an existing run dir (its index is rewritten)
	echo "side by side on $BENCH_INDEX_RUN (load average $(bench_load_avg)):"
	pairs "$BENCH_INDEX_RUN" "${BENCH_INDEX_PAIRS:-9}"
	exit 0
fi

"$BUILD/tests/gen_demo" "$run" 64 "$steps" >/dev/null || exit 1
jsonl=$(cat "$run"/rank*/steps.jsonl | wc -c)
mb=$(echo "$jsonl / 1000000" | bc -l)
echo "input: $(echo "$jsonl / 1000000" | bc) MB of JSONL, 64 ranks x $steps steps; load average: $(bench_load_avg)"

# The shard part: per round, wall of one whole index, of one process doing the shards'
# work (--shard 0/1) and of shards 0/2 and 1/2 started together; CPU of the shards summed.
shards() {
	echo
	echo "2 shards on 2 cores, $rounds rounds; load average before: $(bench_load_avg)"
	printf '%-6s %8s %8s %8s %9s %9s %9s %10s %9s\n' round "index" "0/1" "0+1 of 2" "x index" "x 0/1" \
		"CPU 0/1" "CPU 0+1/2" "CPU ratio"
	i=1
	while [ "$i" -le "$rounds" ]; do
		t0=$(now)
		"$BIN" index --force --jobs 1 "$run" >/dev/null
		t1=$(now)
		shard 0 1
		t2=$(now)
		shard 0 2 &
		a=$!
		shard 1 2 &
		b=$!
		wait $a $b
		t3=$(now)
		whole=$(echo "$t1 - $t0" | bc -l) one=$(echo "$t2 - $t1" | bc -l) two=$(echo "$t3 - $t2" | bc -l)
		c1=$(cpu_sum "$dir/shard-0-1.t") c2=$(cpu_sum "$dir/shard-0-2.t" "$dir/shard-1-2.t")
		printf '%-6s %8.2f %8.2f %8.2f %8sx %8sx %9s %10s %9s\n' "$i" "$whole" "$one" "$two" \
			"$(bench_ratio "$whole" "$two")" "$(bench_ratio "$one" "$two")" "$c1" "$c2" "$(bench_ratio "$c2" "$c1")"
		i=$((i + 1))
	done
	echo "load average after: $(bench_load_avg)"
	echo "index: a whole index --jobs 1 (parts + summary); 0/1: one process, parts only (the shards' work)"
	echo "command: BENCH_INDEX_PART=shards sh tests/bench_index.sh   (target: 0+1 of 2 >= 1.7x one, wall)"
	rm -rf "$run/.tscope-index"
}

# BENCH_INDEX_SMALL=1: 10,000 ranks x 10 steps (rank dirs hard-linked to 64 distinct
# gen_demo ranks), the index size against its JSONL and the side by side.
small_shape() {
	[ "${BENCH_INDEX_SMALL:-0}" = 1 ] || return 0
	"$BUILD/tests/gen_demo" "$dir/sbase" 64 10 >/dev/null || return 1
	bench_linked_run "$dir/small" 10000 "$dir/sbase" || return 1
	"$BIN" index --force --jobs 1 "$dir/small" >/dev/null
	sj=$(find "$dir/small" -name steps.jsonl -printf '%s\n' | awk '{ s += $1 } END { print s }')
	si=$(cat "$dir/small"/.tscope-index/*.tsx | wc -c)
	echo
	printf '10,000 x 10: index %s of %s bytes = %.1f%% of the JSONL (target <= 40%%); side by side:\n' \
		"$si" "$sj" "$(echo "100 * $si / $sj" | bc -l)"
	pairs "$dir/small" "${BENCH_INDEX_SMALL_PAIRS:-15}"
}

if [ "$part" = shards ]; then
	shards
	exit 0
fi
if [ "$part" = pairs ]; then
	echo "load average before: $(bench_load_avg)"
	pairs "$run" "${BENCH_INDEX_PAIRS:-9}"
	small_shape
	echo "load average after: $(bench_load_avg)"
	exit 0
fi

echo
bench_header "per core (--jobs 1), 3 runs each"
bench_cpu3 "$dir" "plain load (bench_load DIR 1)" "$mb" "$BUILD/tests/bench_load" "$run" 1
plain_min=$BENCH_MIN plain_med=$BENCH_MED
bench_cpu3 "$dir" "--print --no-index" "$mb" "$BIN" --print --no-index --jobs 1 "$run"
print_min=$BENCH_MIN print_med=$BENCH_MED
BENCH_BEFORE="rm -rf '$run/.tscope-index'"
bench_cpu3 "$dir" "index --jobs 1 (first build)" "$mb" "$BIN" index --force --jobs 1 "$run"
BENCH_BEFORE=
idx_min=$BENCH_MIN idx_med=$BENCH_MED
bench_cpu3 "$dir" "index --jobs 1 (rewrites the index)" "$mb" "$BIN" index --force --jobs 1 "$run"
re_min=$BENCH_MIN re_med=$BENCH_MED
size=$(cat "$run"/.tscope-index/*.tsx | wc -c)   # the part and the summary
printf 'indexing per core: index / plain load %s (min) %s (median); index / --print --no-index %s / %s (target <= 1)\n' \
	"$(bench_ratio "$idx_min" "$plain_min")" "$(bench_ratio "$idx_med" "$plain_med")" \
	"$(bench_ratio "$idx_min" "$print_min")" "$(bench_ratio "$idx_med" "$print_med")"
printf 'a rewrite (the old index freed too) / --print --no-index %s / %s\n' \
	"$(bench_ratio "$re_min" "$print_min")" "$(bench_ratio "$re_med" "$print_med")"
printf 'index size: %s of %s bytes = %.1f%% of the JSONL (target <= 40%%)\n' "$size" "$jsonl" "$(echo "100 * $size / $jsonl" | bc -l)"
echo
echo "load average: $(bench_load_avg)"
pairs "$run" "${BENCH_INDEX_PAIRS:-9}"

"$BUILD/tests/bench_load" "$run" 1 index >"$dir/reopen.txt"
/usr/bin/time -f '%U %S %M' -o "$dir/p_idx.t" "$BIN" --print "$run" >/dev/null
/usr/bin/time -f '%U %S %M' -o "$dir/p_raw.t" "$BIN" --print --no-index "$run" >/dev/null
echo
printf '%-44s %8s %8s\n' "reopen" "CPU s" "peak MB"
printf '%-44s %8s %8s\n' "through the index (bench_load ... index)" "$(field "$dir/reopen.txt" cpu_seconds)" "$(field "$dir/reopen.txt" peak_rss_MB)"
printf '%-44s %8s %8s\n' "--print from the index" "$(cpu_of "$dir/p_idx.t")" "$(mb_of "$dir/p_idx.t")"
printf '%-44s %8s %8s\n' "--print --no-index" "$(cpu_of "$dir/p_raw.t")" "$(mb_of "$dir/p_raw.t")"
shards
small_shape
echo "load average at the end: $(bench_load_avg)"
echo "command: sh tests/bench_index.sh   (BENCH_INDEX_STEPS=N resizes, BENCH_INDEX_ROUNDS=N shard rounds)"

# BENCH_INDEX_BIG=1: reopen at scale, 10,000 ranks x 1,000 steps (rank dirs hard-linked
# to 64 distinct gen_demo ranks, 3.6 GB of JSONL as read): `index --jobs 2`, then the
# explorer's first frame from the index (script + --max-frames 1) and --print from it,
# CPU seconds and peak RSS; then tests/bench_ui.py drives the keys (first n, moves,
# zoom, pan) on it. Only the pytscope loader probes (--format pytscope): the other
# formats' probes walk every rank dir (BENCHMARKS.md, open cost against the rank count).
[ "${BENCH_INDEX_BIG:-0}" = 1 ] || exit 0
big="$dir/big"
"$BUILD/tests/gen_demo" "$dir/base" 64 1000 >/dev/null || exit 1
bench_linked_run "$big" 10000 "$dir/base" || exit 1
/usr/bin/time -f '%U %S %M' -o "$dir/big_idx.t" "$BIN" index --force --jobs 2 "$big" >/dev/null
"$BIN" --print --format pytscope "$big" >/dev/null 2>&1   # warm
/usr/bin/time -f '%U %S %M' -o "$dir/big_ff.t" script -qec "$BIN --tui --max-frames 1 --format pytscope $big" /dev/null >/dev/null
/usr/bin/time -f '%U %S %M' -o "$dir/big_p.t" "$BIN" --print --format pytscope "$big" >/dev/null
echo
echo "10,000 x 1,000, side by side (load average $(bench_load_avg)):"
pairs "$big" "${BENCH_INDEX_BIG_PAIRS:-3}"   # leaves the index (a rewrite) for the keys below
echo
echo "10,000 x 1,000 (load average $(cut -d' ' -f1-3 /proc/loadavg)); index $(cat "$big"/.tscope-index/*.tsx | wc -c) bytes"
printf '%-44s %8s %8s\n' "" "CPU s" "peak MB"
printf '%-44s %8s %8s\n' "index --jobs 2" "$(cpu_of "$dir/big_idx.t")" "$(mb_of "$dir/big_idx.t")"
printf '%-44s %8s %8s\n' "first frame from the index (target 0.3 s, 150 MB)" "$(cpu_of "$dir/big_ff.t")" "$(mb_of "$dir/big_ff.t")"
printf '%-44s %8s %8s\n' "--print from the index" "$(cpu_of "$dir/big_p.t")" "$(mb_of "$dir/big_p.t")"
bin_abs="$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")"
cat >"$dir/wrap.sh" <<SH
#!/bin/sh
exec "$bin_abs" --tui --format pytscope "$big"
SH
chmod +x "$dir/wrap.sh"
python3 tests/bench_ui.py "$dir/wrap.sh" 10000 1000
