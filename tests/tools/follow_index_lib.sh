# follow_index_lib.sh: shared helpers for the tests of follow mode's index deltas
# (tests/cli/index_delta.sh, index_delta_shard.sh, index_sources.sh; sourced, not
# run). Needs T (the binary) and writer (tests/tools/follow_writer.sh); keeps the
# writer's and the follower's pids in wpid and fpid.
#   fi_begin NAME                  a fresh work dir $TSCOPE_TMP/NAME.PID in $work,
#                                  entered; at exit the follower and the writer are
#                                  killed and the dir removed (KEEP=1 keeps it)
#   fi_same DIR VIEW...            --print and each --export VIEW from DIR's index equal
#                                  a plain load's (--no-index); leaves the last
#                                  --export in got.csv
#   fi_wait COMMAND...             runs COMMAND until it succeeds, at most 60 s (a
#                                  bound, not a timing check)
#   fi_plan DIR NRANKS LAST        each of NRANKS ranks of DIR gets a run.json with
#                                  n_steps LAST+1 (the finish marker), written before the
#                                  index (one that appears while following leaves the
#                                  index stale), so a follower finishes at step LAST
#   fi_follow DIR NRANKS LAST      the writer appends steps 5..LAST to NRANKS ranks of
#                                  DIR while a follower (a save every 0.1 s) follows it
#                                  to its end: it finishes (fi_plan), or, a job without
#                                  the finish marker, is stopped (SIGTERM: its last save)
#                                  once it says the job idle or stalled; returns the
#                                  follower's exit status
#   fi_kill9 DIR NRANKS LAST COMMAND...
#                                  the writer appends steps 5..LAST to NRANKS ranks of
#                                  DIR while a follower (a save every 0.1 s) follows it;
#                                  once COMMAND succeeds the follower is killed with
#                                  SIGKILL, then the writer is waited for

fi_begin() {
	work="$TSCOPE_TMP/$1.$$"
	rm -rf "$work"
	mkdir -p "$work" && cd "$work" || exit 1
	fpid=
	wpid=
	trap '[ -n "$fpid" ] && kill -9 "$fpid" 2>/dev/null; [ -n "$wpid" ] && kill "$wpid" 2>/dev/null; [ -z "${KEEP:-}" ] && rm -rf "$work"' EXIT
}

fi_same() {
	fi_dir=$1
	shift
	"$T" --print --no-index "$fi_dir" >want.txt 2>/dev/null
	"$T" --print "$fi_dir" >got.txt 2>/dev/null
	fi_ok=0
	cmp -s want.txt got.txt || fi_ok=1
	for fi_v in "$@"; do
		"$T" --export "$fi_v" --no-index "$fi_dir" >want.csv 2>/dev/null
		"$T" --export "$fi_v" "$fi_dir" >got.csv 2>/dev/null
		cmp -s want.csv got.csv || fi_ok=1
	done
	return $fi_ok
}

fi_wait() {
	fi_i=0
	while ! "$@" && [ $fi_i -lt 600 ]; do sleep 0.1; fi_i=$((fi_i + 1)); done
}

fi_plan() {
	fi_r=0
	while [ $fi_r -lt "$2" ]; do
		printf '{"rank": %d, "world_size": %d, "n_steps": %d}\n' $fi_r "$2" $(($3 + 1)) >"$1/rank$fi_r/run.json"
		fi_r=$((fi_r + 1))
	done
}

# the follower has ended, or says the job is idle or stalled (it cannot finish)
fi_ended() { ! kill -0 "$fpid" 2>/dev/null || grep -q "LIVE.JOB_IDLE\|LIVE.JOB_STALL" "$1.out"; }

fi_follow() {
	sh "$writer" "$1" "$2" 5 "$3" 0.03 &
	wpid=$!
	TSCOPE_INDEX_EVERY=0.1 "$T" --follow --interval 0.1 --stall 2 "$1" >"$1.out" 2>"$1.err" &
	fpid=$!
	wait "$wpid"
	wpid=
	fi_wait fi_ended "$1"
	kill -TERM "$fpid" 2>/dev/null
	wait "$fpid"
	fi_rc=$?
	fpid=
	return $fi_rc
}

fi_kill9() {
	fi_dir=$1 fi_n=$2 fi_last=$3
	shift 3
	sh "$writer" "$fi_dir" "$fi_n" 5 "$fi_last" 0.05 &
	wpid=$!
	TSCOPE_INDEX_EVERY=0.1 "$T" --follow --interval 0.1 --stall 30 "$fi_dir" >"$fi_dir.out" 2>"$fi_dir.err" &
	fpid=$!
	fi_wait "$@"
	kill -9 "$fpid" 2>/dev/null
	wait "$fpid" 2>/dev/null
	fpid=
	wait "$wpid"
	wpid=
}
