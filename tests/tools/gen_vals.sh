#!/bin/sh
# gen_vals.sh: pytscope step records whose values a fresh load rounds or widens, for the
# index tests of a growing run (tests/cli/index_grow.sh, index_delta.sh): steps A..B-1 of
# rank R on stdout. Before step 300 lr, memory and backward are constant (run-length
# columns); from 300 on they vary in their last digits: lr then is no float32 (rounded on
# every rank but the lowest), backward no nanosecond multiple, memory no float32.
# usage: gen_vals.sh R A B
awk -v r="$1" -v a="$2" -v b="$3" 'BEGIN { srand(r * 7 + a); for (s = a; s < b; s++) {
	lr = s < 300 ? 0.0001 : 0.00003 + rand() * 1e-12; mem = s < 300 ? 1234.5678 : 1234.5678 + s + rand() * 1e-9
	printf "{\"step\":%d,\"timestamp\":%.6f,\"phases\":{\"forward\":%.17g,\"backward\":%.17g},", s, 1700000000.123456 + s * 0.731, rand() * 0.1, s < 300 ? 0.25 : 0.25 + rand() * 1e-9
	printf "\"scalars\":{\"loss\":%.17g,\"lr\":%.17g},\"memory\":{\"allocated_mb\":%.17g}}\n", 2 / (s + 1) + rand() * 1e-7, lr, mem } }'
