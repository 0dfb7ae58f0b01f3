#!/bin/sh
# `make bench`: run every tests/bench_*.sh in turn. Each prints its figures and the
# exact commands; the figures are copied into BENCHMARKS.md by hand.
set -u
cd "$(dirname "$0")/.."
export TSCOPE_BUILD=${TSCOPE_BUILD:-build} TSCOPE_BIN="$PWD/${TSCOPE_BUILD:-build}/tscope-tui"
rc=0
for b in tests/bench_*.sh; do
	[ -f "$b" ] || continue
	echo "== $b"
	sh "$b" || rc=1
done
exit $rc
