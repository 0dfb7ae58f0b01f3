#!/bin/sh
# bench_ranks.sh: cost per record against the rank count, the same records (`make bench`;
# issue 17: per-rank work that does not grow with the rank count). Three run dirs of
# 1.28 M gen_demo records each: 64 ranks x 20,000 steps, 1,000 x 1,280 and 10,000 x 128.
# Each is built from 64 distinct generated ranks of its length (rank k's steps.jsonl and
# run.json are hard links to distinct rank k % 64, as in bench_scale.sh: every rank file
# is still listed, opened, read and parsed; page cache warm). Measured: `tscope-tui
# --print --jobs 1 --no-index RUN` (identification with every loader probing, the load,
# every analysis of the report), user and system CPU seconds apart (/usr/bin/time, 10 ms
# steps), median of BENCH_RANKS_ROUNDS (5) runs; then us per record and the ratio to 64
# ranks (target: 10,000 ranks within 1.15x). With TSCOPE_BIN_BEFORE=BINARY the runs
# alternate with that binary (before/after side by side). Nothing is asserted.
# Environment: BENCH_RANKS_DIV=N divides the step counts by N (a quick look);
# BENCH_KEEP=1 keeps the files.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
rounds=${BENCH_RANKS_ROUNDS:-5}
div=${BENCH_RANKS_DIV:-1}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-ranks.XXXXXX")
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT

. tests/tools/bench_lib.sh

# make_run NAME RANKS STEPS: rank dirs hard-linked to 64 distinct generated ranks.
make_run() {
	base="$dir/base$3"
	"$BUILD/tests/gen_demo" "$base" 64 "$3" >/dev/null || exit 1
	bench_linked_run "$dir/$1" "$2" "$base" || exit 1
	cat "$dir/$1"/rank*/steps.jsonl >/dev/null # warm the page cache
}

# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -g | sed -n "$(((rounds + 1) / 2))p"; }

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
specs="r64:64:$((20000 / div)) r1000:1000:$((1280 / div)) r10000:10000:$((128 / div))"
for spec in $specs; do
	IFS=: read -r name ranks steps <<EOF
$spec
EOF
	make_run "$name" "$ranks" "$steps"
done
bins="after:$BIN"
[ -n "${TSCOPE_BIN_BEFORE:-}" ] && bins="before:$TSCOPE_BIN_BEFORE $bins"
echo
printf '%-7s %-7s %9s %9s %9s %9s %12s %9s\n' binary ranks records "user s" "sys s" "CPU s" "us/record" "x 64 ranks"
for b in $bins; do
	: >"$dir/${b%%:*}.base"
done
for spec in $specs; do
	IFS=: read -r name ranks steps <<EOF
$spec
EOF
	records=$((ranks * steps))
	for b in $bins; do
		: >"$dir/${b%%:*}.$name"
	done
	i=0
	while [ "$i" -lt "$rounds" ]; do
		for b in $bins; do
			/usr/bin/time -f '%U %S' -o "$dir/t" "${b#*:}" --print --jobs 1 --no-index "$dir/$name" >/dev/null 2>&1
			tail -1 "$dir/t" >>"$dir/${b%%:*}.$name"
		done
		i=$((i + 1))
	done
	for b in $bins; do
		tag=${b%%:*}
		awk '{ print $1, $2, $1 + $2 }' "$dir/$tag.$name" >"$dir/$tag.$name.cpu"
		user=$(median "$dir/$tag.$name.cpu" 1)
		sys=$(median "$dir/$tag.$name.cpu" 2)
		cpu=$(median "$dir/$tag.$name.cpu" 3)
		[ "$name" = r64 ] && echo "$cpu" >"$dir/$tag.base"
		printf '%-7s %7s %9s %9s %9s %9s %12s %9s\n' "$tag" "$ranks" "$records" "$user" "$sys" "$cpu" \
			"$(awk -v c="$cpu" -v n="$records" 'BEGIN { printf "%.3f", c / n * 1e6 }')" \
			"$(awk -v c="$cpu" -v b="$(cat "$dir/$tag.base")" 'BEGIN { if (b > 0) printf "%.2fx", c / b; else printf "n/a" }')"
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: sh tests/bench_ranks.sh   (TSCOPE_BIN_BEFORE=BINARY alternates with a previous build)"
