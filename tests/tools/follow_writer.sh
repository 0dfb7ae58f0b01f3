#!/bin/sh
# follow_writer.sh: a stand-in for a running training job, for the follow-mode tests and
# benchmark. Appends one pytscope step record per rank every PERIOD seconds to
# DIR/rank{k}/steps.jsonl (k < NRANKS), steps FIRST..LAST, with the wall clock as
# timestamp. Rank STOP_RANK (optional) writes no step after STOP_STEP.
# With FOLLOW_WRITER_FINISH=1 in the environment (opt-in: by default no run.json is
# written), each rank that wrote step LAST then finishes as pytscope's finish() does: it
# writes DIR/rank{k}/run.json with rank, world_size NRANKS and n_steps LAST+1 (the finish
# marker; written to a temporary name, then renamed). A rank that stopped early does not.
# usage: [FOLLOW_WRITER_FINISH=1] follow_writer.sh DIR NRANKS FIRST LAST PERIOD [STOP_RANK STOP_STEP]
set -u
dir=$1 n=$2 first=$3 last=$4 period=$5 stop_rank=${6:--1} stop_step=${7:-0}
r=0
while [ "$r" -lt "$n" ]; do mkdir -p "$dir/rank$r"; r=$((r + 1)); done
s=$first
while [ "$s" -le "$last" ]; do
	ts=$(date +%s.%N)
	r=0
	while [ "$r" -lt "$n" ]; do
		if [ "$r" -ne "$stop_rank" ] || [ "$s" -le "$stop_step" ]; then
			printf '{"step":%d,"timestamp":%s,"phases":{"forward":0.%03d,"backward":0.02},"scalars":{"loss":%d.5}}\n' \
				"$s" "$ts" $((r + 10)) $((1000 - s % 1000)) >>"$dir/rank$r/steps.jsonl"
		fi
		r=$((r + 1))
	done
	s=$((s + 1))
	[ "$s" -le "$last" ] && sleep "$period"
done
[ "${FOLLOW_WRITER_FINISH:-0}" = 1 ] || exit 0
r=0
while [ "$r" -lt "$n" ]; do
	if [ "$r" -ne "$stop_rank" ] || [ "$last" -le "$stop_step" ]; then
		printf '{"rank": %d, "world_size": %d, "n_steps": %d}\n' "$r" "$n" $((last + 1)) >"$dir/rank$r/run.json.tmp" &&
			mv "$dir/rank$r/run.json.tmp" "$dir/rank$r/run.json"
	fi
	r=$((r + 1))
done
exit 0
