#!/bin/sh
# bench_ranks.sh: cost per record against the rank count (`make bench`; issue 17:
# per-rank work that does not grow with the rank count). Two questions:
# (a) the same 1.28 M gen_demo records over 64 ranks x 20,000 steps, 1,000 x 1,280 and
#     10,000 x 128: CPU seconds and the ratio to 64 ranks (target: 10,000 ranks within
#     1.15x);
# (b) linearity, the same per-rank files at two rank counts: 1,000 x 128 against
#     10,000 x 128 (target: 10x the CPU, not more; the fixed cost per rank does not grow
#     with the rank count).
# Each run dir is built from 64 distinct generated ranks of its length (rank k's
# steps.jsonl and run.json are hard links to distinct rank k % 64, as in bench_scale.sh:
# every rank file is still listed, opened, read and parsed; page cache warm). Measured:
# `tscope-tui --print --jobs 1 --no-index RUN` (identification with every loader probing,
# the load, every analysis of the report), user and system CPU seconds apart (the
# child's rusage from wait4, microseconds, not /usr/bin/time's 10 ms steps), median of
# BENCH_RANKS_ROUNDS (5) runs. Beside it the floor: tests/tools/bench_floor.c, a bare C
# loop that only opens, reads and closes each rank's run.json and steps.jsonl over the
# same dir (what the kernel costs any loader). With TSCOPE_BIN_BEFORE=BINARY the runs
# alternate with that binary (before/after side by side). Nothing is asserted.
# Environment: BENCH_RANKS_DIV=N divides the step counts by N (a quick look);
# BENCH_KEEP=1 keeps the files.
set -u
cd "$(dirname "$0")/.."
BUILD=${TSCOPE_BUILD:-build}
BIN=${TSCOPE_BIN:-$BUILD/tscope-tui}
FLOOR=$BUILD/tests/bench_floor
rounds=${BENCH_RANKS_ROUNDS:-5}
div=${BENCH_RANKS_DIV:-1}
dir=$(mktemp -d "${TMPDIR:-/tmp}/tscope-ranks.XXXXXX")
[ "${BENCH_KEEP:-0}" = 1 ] || trap 'rm -rf "$dir"' EXIT

. tests/tools/bench_lib.sh

# make_run NAME RANKS STEPS: rank dirs hard-linked to 64 distinct generated ranks.
make_run() {
	bench_generated_run "$dir" "$1" "$2" "$3" || exit 1
	cat "$dir/$1"/rank*/steps.jsonl >/dev/null # warm the page cache
}

# cpu_of OUT COMMAND...: appends "user sys" (seconds, from the child's rusage) to OUT.
cpu_of() {
	out=$1
	shift
	python3 - "$@" >>"$out" <<'PY'
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
print("%.4f %.4f" % (ru.ru_utime, ru.ru_stime))
PY
}

# median FILE COLUMN
median() { cut -d' ' -f"$2" "$1" | sort -g | sed -n "$(((rounds + 1) / 2))p"; }

# cpu_cols TAG NAME: sets user, sys, cpu (medians) from $dir/TAG.NAME.
cpu_cols() {
	awk '{ printf "%.4f %.4f %.4f\n", $1, $2, $1 + $2 }' "$dir/$1.$2" >"$dir/$1.$2.cpu"
	user=$(median "$dir/$1.$2.cpu" 1)
	sys=$(median "$dir/$1.$2.cpu" 2)
	cpu=$(median "$dir/$1.$2.cpu" 3)
}

echo "load average before: $(bench_load_avg)"
specs="r64:64:$((20000 / div)) r1000:1000:$((1280 / div)) r10000:10000:$((128 / div)) r1000s:1000:$((128 / div))"
for spec in $specs; do
	IFS=: read -r name ranks steps <<EOF2
$spec
EOF2
	make_run "$name" "$ranks" "$steps"
done
bins="after:$BIN"
[ -n "${TSCOPE_BIN_BEFORE:-}" ] && bins="before:$TSCOPE_BIN_BEFORE $bins"
echo
printf '%-7s %6s %6s %8s %8s %8s %8s %10s %9s %8s %8s\n' binary ranks steps records "user s" "sys s" "CPU s" \
	"us/record" "x 64 rk" "floor s" "x floor"
for spec in $specs; do
	IFS=: read -r name ranks steps <<EOF2
$spec
EOF2
	records=$((ranks * steps))
	for b in $bins floor:$FLOOR; do
		: >"$dir/${b%%:*}.$name"
	done
	i=0
	while [ "$i" -lt "$rounds" ]; do
		for b in $bins; do
			cpu_of "$dir/${b%%:*}.$name" "${b#*:}" --print --jobs 1 --no-index "$dir/$name"
		done
		cpu_of "$dir/floor.$name" "$FLOOR" "$dir/$name"
		i=$((i + 1))
	done
	cpu_cols floor "$name"
	floor=$cpu
	echo "$floor" >"$dir/floor.$name.med"
	for b in $bins; do
		tag=${b%%:*}
		cpu_cols "$tag" "$name"
		echo "$cpu" >"$dir/$tag.$name.med"
		x64=- # the linearity run holds a tenth of the records
		[ "$name" = r1000s ] || x64="$(bench_ratio "$cpu" "$(cat "$dir/$tag.r64.med")")x"
		printf '%-7s %6s %6s %8s %8s %8s %8s %10s %9s %8s %8s\n' "$tag" "$ranks" "$steps" "$records" "$user" "$sys" "$cpu" \
			"$(awk -v c="$cpu" -v n="$records" 'BEGIN { printf "%.3f", c / n * 1e6 }')" \
			"$x64" "$floor" "$(bench_ratio "$cpu" "$floor")x"
	done
done
echo
echo "(a) same records: 10,000 ranks / 64 ranks (target <= 1.15x)"
echo "(b) linearity, same per-rank files: 10,000 x $((128 / div)) / 1,000 x $((128 / div)) (target <= 10x)"
for b in $bins floor:$FLOOR; do
	tag=${b%%:*}
	c64=$(cat "$dir/$tag.r64.med") c10k=$(cat "$dir/$tag.r10000.med") c1k=$(cat "$dir/$tag.r1000s.med")
	printf '%-7s (a) %sx   (b) %sx   fixed cost per rank: %s us (10,000 ranks over 64, same records); whole cost per rank: %s us (10,000 x %s over 1,000 x %s, per added rank)\n' \
		"$tag" "$(bench_ratio "$c10k" "$c64")" "$(bench_ratio "$c10k" "$c1k")" \
		"$(awk -v a="$c10k" -v b="$c64" 'BEGIN { printf "%.1f", (a - b) / (10000 - 64) * 1e6 }')" \
		"$(awk -v a="$c10k" -v b="$c1k" 'BEGIN { printf "%.1f", (a - b) / 9000 * 1e6 }')" "$((128 / div))" "$((128 / div))"
done
echo "load average after: $(bench_load_avg)"
echo "command: sh tests/bench_ranks.sh   (TSCOPE_BIN_BEFORE=BINARY alternates with a previous build)"
