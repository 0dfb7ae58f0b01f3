#!/bin/sh
# stats.sh: the totals of every `make fuzz` run recorded in build-fuzz/stats.tsv (or the
# file given): per harness, runs, seconds, executions, the last coverage (edges) and
# features, the working corpus size, and runs that failed. For BENCHMARKS.md's FUZZING.
f=${1:-build-fuzz/stats.tsv}
awk -F'\t' '
{ runs[$2]++; secs[$2] += $3; execs[$2] += $4; cov[$2] = $5; ft[$2] = $6; units[$2] = $7; if ($8 != 0) bad[$2]++ }
END {
	printf "| harness | runs | seconds | executions | coverage (edges) | features | corpus | failed runs |\n"
	printf "|---|---|---|---|---|---|---|---|\n"
	n = 0
	for (h in runs) names[n++] = h
	for (i = 0; i < n; i++) for (j = i + 1; j < n; j++) if (names[j] < names[i]) { t = names[i]; names[i] = names[j]; names[j] = t }
	for (i = 0; i < n; i++) { h = names[i]
		printf "| %s | %d | %d | %d | %d | %d | %d | %d |\n", h, runs[h], secs[h], execs[h], cov[h], ft[h], units[h], bad[h] + 0 }
}' "$f"
