#!/bin/sh
# follow.sh: --follow without a tty (src/print_follow.c over model/steps/follow.h). A
# writer process (tests/tools/follow_writer.sh) appends to 8 ranks while tscope-tui
# follows: new findings come out one line each ("TIME SEVERITY ID TEXT"); a job whose
# ranks stop together and write run.json with n_steps (FOLLOW_WRITER_FINISH=1: the
# finish marker) finishes with exit 0 and no stall, also when its ranks end at different
# steps; ranks idle at one step with no run.json are idle (LIVE.JOB_IDLE, low), never
# finished (a pause, a buffered writer, a crash): following goes on, and the job that
# then writes again and finishes ends it; some ranks with the marker and others without
# is a stall naming those without; a rank that stops writing is
# reported stalled; a truncated-then-rewritten file, and one rewritten in place and longer,
# are reloaded; following a --ranks subset says nothing of the whole job; SIGINT ends
# with 130. A rank with no record, a rank of world_size with no rank dir or a half-written
# last record keeps a stopped job from "finished" (stalled, named), also when that
# world_size comes from a run.json written while following (as pytscope writes it, at
# finish()); a rank writing no record while the others advance is stalled. Rank dirs
# removed while the others go on (a job re-created with fewer ranks): said once each
# (LIVE.RANK_GONE), never judged stalled; the ranks left finish. An empty dir that becomes
# a GenAI-Perf sweep, followed with one of its files also given (read as part of the dir):
# each reload is one line counting the reloads, from one LIVE.RELOADED entry. The stderr
# line at the start fits the input: a job's findings until it finishes, a sweep's reloads
# until a signal (never "until the job finishes"); an empty dir alone: that it waits,
# then, once a sweep appears, that the sweep runs until a signal. Records skipped (garbage
# lines) are lines too (LIVE.SKIPPED): the load's, then each poll's, one per file with its
# first line's diagnostic, at most 4 a look and the rest in a count; at the end stderr has
# --print's data-quality line, counting what the follower read (an empty dir: why nothing).
# Six ranks replaced by copies of themselves in one poll: one line names them, as the
# same records (no advance: the job still finishes). A PATH not there yet that a job then
# writes to ends with no data-quality line, as a fresh --print (the start's "cannot open"
# goes); a rank dir moved away and back is said back (LIVE.RANK_BACK). Traces are refused
# (exit 2); rank dirs made with no file yet are followed until the job written finishes.
# A DASF database copied into a followed empty dir is said once (LIVE.NEW_DASF: not read,
# how to read it). A finding whose severity rises (med -> high) is a line again, once.
# Waits for output are bounded (60 s) but nothing asserts a duration.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
writer="$TSCOPE_ROOT/tests/tools/follow_writer.sh"
work="$TSCOPE_TMP/follow.$$"
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

# wait_for FILE PATTERN: until grep finds it (at most 60 s)
wait_for() {
	i=0
	while ! grep -q "$2" "$1" 2>/dev/null && [ "$i" -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
	grep -q "$2" "$1" 2>/dev/null
}

# 1. all ranks stop together at step 30 and write run.json: finished, exit 0, never a
#    stall (a 4 s floor: a writer paused by a loaded machine must not look finished)
sh "$writer" fin 8 0 4 0 >/dev/null
FOLLOW_WRITER_FINISH=1 sh "$writer" fin 8 5 30 0.05 &
wpid=$!
"$TSCOPE_BIN" --follow --interval 0.2 --stall 4 fin >fin.out 2>fin.err
rc=$?
wait "$wpid"
tap_eq "finished job: exit 0" 0 "$rc"
tap_check "finished job: one LIVE.FINISHED line at step 30" \
	'[ "$(grep -c "^[0-9T:-]*Z low LIVE.FINISHED job finished: all 8 ranks stopped at step 30$" fin.out)" -eq 1 ]'
tap_check "finished job: no stall reported" '! grep -q "STALL" fin.out'
tap_check "finished job: every line is TIME SEVERITY ID TEXT" \
	'! grep -vE "^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z (high|med|low) [A-Z_]+\.[A-Z_]+ ." fin.out'
tap_check "finished job: the run's other findings too (DIST.STRAGGLER)" 'grep -q " DIST.STRAGGLER " fin.out'
tap_check "finished job: stderr says at the start a line per new finding until the job finishes" \
	'grep -qx "tscope-tui: following every 0.2 s; a job: one line per new finding until it finishes" fin.err'

# 2. rank 3 stops at step 20 while the others go on; then rank 5's file is truncated and
#    rewritten (a restarted rank); SIGINT ends the follower
sh "$writer" st 8 0 4 0 >/dev/null
sh "$writer" st 8 5 100000 0.05 3 20 &
wpid=$!
"$TSCOPE_BIN" --follow --interval 0.2 --stall 1 st >st.out 2>st.err &
fpid=$!
wait_for st.out "LIVE.STALLED_RANK"
tap_check "stalled rank: reported with its step and the others' step" \
	'grep -qE " high LIVE.STALLED_RANK rank 3 stopped at step 20, [0-9]+ s ago; the others are at [0-9]+$" st.out'
tap_check "stalled rank: only rank 3" '! grep "LIVE.STALLED_RANK" st.out | grep -qv "rank 3 "'
: >st/rank5/steps.jsonl
wait_for st.out "LIVE.RELOADED"
tap_check "truncated file: the rank is reloaded and it says so" \
	'grep -qE " med LIVE.RELOADED rank 5: steps.jsonl shrank \([0-9]+ -> [0-9]+ bytes\); reloaded from the start" st.out'
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
kill -INT "$fpid"
wait "$fpid"
rc=$?
tap_eq "SIGINT ends the follower with 130" 130 "$rc"

# 3. rank 1's file rewritten in place with other records, longer: the same inode, never
#    shorter (dd conv=notrunc), so neither "replaced" nor "shrank"; the bytes read before
#    changed, so the rank is reloaded (it was read on from the old offset, mid-line)
sh "$writer" rw 4 0 10 0 >/dev/null
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 60 rw >rw.out 2>rw.err &
fpid=$!
wait_for rw.err "following every"
sed 's/"loss": *[0-9.e+-]*/"loss": 7.0/' rw/rank1/steps.jsonl >new.jsonl
tail -1 rw/rank1/steps.jsonl >>new.jsonl
dd if=new.jsonl of=rw/rank1/steps.jsonl conv=notrunc status=none
wait_for rw.out "LIVE.RELOADED rank 1"
tap_check "a file rewritten in place (same inode, longer): reloaded, and it says so" \
	'grep -qE " med LIVE.RELOADED rank 1: steps.jsonl was rewritten in place \([0-9]+ -> [0-9]+ bytes\)" rw.out'
tap_check "a file rewritten in place: no record skipped as invalid JSON (read mid-line)" \
	'! grep -q "invalid JSON" rw.err'
rm rw/rank2/steps.jsonl   # a file read before and gone: said once, not only "stopped"
wait_for rw.out "LIVE.UNREADABLE rank 2"
tap_check "a file that disappears while followed: said once" \
	'[ "$(grep -c "med LIVE.UNREADABLE rank 2: cannot read .*No such file or directory (reported once)" rw.out)" -eq 1 ]'
kill -INT "$fpid"
wait "$fpid"

# 4. --ranks 0-1 of a finished 4-rank job: the two followed ranks stopped; nothing is
#    said of the whole job, whose other ranks are not watched
FOLLOW_WRITER_FINISH=1 sh "$writer" sub 4 0 10 0 >/dev/null
"$TSCOPE_BIN" --no-index --ranks 0-1 --follow --interval 0.2 --stall 1 sub >sub.out 2>sub.err
tap_check "--ranks subset: 'the ranks followed finished', the files left out named, no 'job finished'" \
	'grep -q "LIVE.FINISHED the ranks followed finished: all 2 stopped at step 10 (--ranks: 2 rank files left" \
		sub.out && grep -q "left out, not watched)" sub.out &&
	 ! grep -q "job finished" sub.out'

# 5. no "job finished" (exit 0) while a rank cannot have finished: a rank file with no
#    record, a rank of run.json's world_size with no rank dir, a half-written last record;
#    the job is stalled and names the rank and why, the follower runs on (SIGINT: 130)
# unfinished DIR PATTERN NAME: follow the stopped job DIR until PATTERN, then stop it
unfinished() {
	d=$1 pat=$2
	"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 1 "$d" >"$d.out" 2>"$d.err" &
	fpid=$!
	wait_for "$d.out" "LIVE.JOB_STALL"
	kill -INT "$fpid" 2>/dev/null
	wait "$fpid"
	rc=$?
	tap_check "$3: job stalled, naming it; never finished; the follower ran on" \
		'grep -q " high LIVE.JOB_STALL job stalled: no rank advanced for [0-9]* s; $pat" "$d.out" &&
		 ! grep -q "LIVE.FINISHED" "$d.out" && [ "$rc" -eq 130 ]'
}
sh "$writer" nr 4 0 10 0 >/dev/null
: >nr/rank3/steps.jsonl
unfinished nr "rank 3 wrote no step record; the ranks with records stopped at step 10$" "a rank with no record"
sh "$writer" ws 3 0 10 0 >/dev/null
printf '{"rank": 0, "world_size": 4}' >ws/rank0/run.json
unfinished ws "rank 3 of world_size 4 has no rank dir; the ranks with records stopped at step 10$" \
	"a rank of world_size with no rank dir"
# run.json written while following (none when it started): its world_size is read
sh "$writer" rj 2 0 10 0 >/dev/null
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 5 rj >rj.out 2>rj.err &
fpid=$!
wait_for rj.err "following every"
for r in 0 1; do printf '{"rank": %d, "world_size": 4, "n_steps": 11}' "$r" >"rj/rank$r/run.json"; done
wait_for rj.out "LIVE.JOB_STALL\|LIVE.FINISHED"
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
tap_check "run.json written while following: read; ranks 2, 3 of its world_size 4 named, never finished" \
	'grep -q " high LIVE.JOB_STALL job stalled: no rank advanced for [0-9]* s; ranks 2, 3 of world_size 4 \
have no rank dir; the ranks with records stopped at step 10$" rj.out && ! grep -q "LIVE.FINISHED" rj.out'
sh "$writer" hw 3 0 10 0 >/dev/null
printf '{"step":11,"timestamp":1.0,"pha' >>hw/rank0/steps.jsonl
unfinished hw "rank 0 left an unfinished last line; the ranks with records stopped at step 10$" \
	"a half-written last record"
# rank 3 never writes while the others go on: stalled once idle past the threshold
sh "$writer" ne 4 0 4 0 3 -1 >/dev/null
sh "$writer" ne 4 5 100000 0.05 3 -1 &
wpid=$!
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 1 ne >ne.out 2>ne.err &
fpid=$!
wait_for ne.out "LIVE.STALLED_RANK"
kill "$wpid" 2>/dev/null
wait "$wpid" 2>/dev/null
kill -INT "$fpid"
wait "$fpid"
tap_check "a rank that writes no record while the others advance: stalled" \
	'grep -qE " high LIVE.STALLED_RANK rank 3 has written no step record in [0-9]+ s; the others are at [0-9]+$" \
		ne.out'

# 5b. the finish marker (a rank's run.json with n_steps; pytscope writes it at finish()
#     only). Ranks idle at one step without it (a checkpoint pause, a buffered writer
#     between flushes, a crash): idle, low, the follower runs on; the job goes on and
#     finishes: exit 0
sh "$writer" id 2 0 10 0 >/dev/null
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 1 id >id.out 2>id.err &
fpid=$!
wait_for id.out "LIVE.JOB_IDLE"
sleep 1
tap_check "ranks idle at one step, no run.json n_steps: idle (low), never finished, the follower runs on" \
	'grep -q " low LIVE.JOB_IDLE job idle: no rank advanced for [0-9]* s; all 2 ranks at step 10, no run.json \
with n_steps yet (a finished pytscope job writes one): paused, still writing in bursts, or stopped without finishing$" \
		id.out && ! grep -q "LIVE.FINISHED\|STALL" id.out && kill -0 "$fpid"'
FOLLOW_WRITER_FINISH=1 sh "$writer" id 2 11 15 0.05
wait "$fpid"
rc=$?
tap_check "... the job goes on and writes run.json: finished (exit 0)" \
	'[ "$rc" -eq 0 ] && grep -q " low LIVE.FINISHED job finished: all 2 ranks stopped at step 15$" id.out'
# uneven ends (rank 2's shard is shorter): every rank's run.json with its n_steps: finished
FOLLOW_WRITER_FINISH=1 sh "$writer" un 3 0 49 0 2 29 >/dev/null
cp -r un um   # (um: rank 2 never writes its run.json)
printf '{"rank": 2, "world_size": 3, "n_steps": 30}' >un/rank2/run.json
timeout 60 "$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 1 un >un.out 2>un.err </dev/null
rc=$?
tap_check "ranks that end at different steps, each with run.json n_steps: finished (exit 0), the steps said" \
	'[ "$rc" -eq 0 ] && grep -q " low LIVE.FINISHED job finished: all 3 ranks wrote run.json with n_steps; they \
stopped between steps 29 and 49$" un.out && ! grep -q "STALL" un.out'
unfinished um "rank 2 has no run.json with n_steps; the ranks with records stopped between steps 29 and 49$" \
	"ranks 0, 1 with run.json n_steps, rank 2 without"

# 6. usage
"$TSCOPE_BIN" --follow --export ranks fin >/dev/null 2>err.txt
tap_eq "--follow with --export: usage error 2" 2 "$?"
"$TSCOPE_BIN" --follow --interval 0 fin >/dev/null 2>err.txt
tap_eq "--interval 0: usage error 2" 2 "$?"

# Nothing a job appends to: a trace set is refused (exit 2, why), not followed forever.
mkdir tr
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_trace" tr/rank0.pt.trace.json 1 0 >/dev/null
"$TSCOPE_BIN" --follow tr >tr.out 2>tr.err </dev/null
rc=$?
tap_check "--follow on traces: exit 2, says it reads step logs, nothing followed" \
	'[ "$rc" -eq 2 ] && grep -q "^tscope-tui: --follow reads pytscope step logs (steps.jsonl) as a job writes them, \
and GenAI-Perf sweeps and NAT sizing jobs as they grow; these PATHs hold none" tr.err && [ ! -s tr.out ]'
# A GenAI-Perf sweep that exists already is followed (written a level at a time), as one
# that appears under a followed PATH is: not refused
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_sweep" swx 50 4 2 0 >/dev/null
timeout --preserve-status -s TERM 3 "$TSCOPE_BIN" --no-index --print --follow --interval 0.2 swx >swx.out 2>swx.err </dev/null
rc=$?
tap_check "--follow on an existing sweep: followed until SIGTERM (143), not refused" \
	'[ "$rc" -eq 143 ] && grep -q "following every 0.2 s; a sweep: one line per reload" swx.err &&
	 ! grep -q "reads pytscope step logs" swx.err'
# Rank dirs made, no file in them yet (a job's first seconds): followed, not refused; the
# job then written finishes (exit 0; a 4 s floor, as in 1).
mkdir -p early/rank0 early/rank1
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 4 early >early.out 2>early.err </dev/null &
fpid=$!
wait_for early.err "following every"
FOLLOW_WRITER_FINISH=1 sh "$writer" early 2 0 4 0.05
wait "$fpid"
rc=$?
tap_check "rank dirs with no file yet: followed (it waits), then the job written finishes (exit 0)" \
	'[ "$rc" -eq 0 ] && grep -q "nothing here yet: waiting" early.err && ! grep -q "hold none" early.err &&
	 grep -q "LIVE.FINISHED job finished: all 2 ranks stopped at step 4" early.out'

# 7. ranks 2 and 3's rank dirs removed, ranks 0 and 1 go on for longer than the stall
#    threshold (3 s: a writer paused by a loaded machine must not look finished): 2 and
#    3 are gone, not stalled
sh "$writer" gone 4 0 9 0 >/dev/null
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 3 gone >gone.out 2>gone.err &
fpid=$!
wait_for gone.err "following every"
rm -rf gone/rank2 gone/rank3
FOLLOW_WRITER_FINISH=1 sh "$writer" gone 2 10 90 0.05
wait_for gone.out "LIVE.FINISHED"
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
tap_check "rank dirs removed: each said gone once, never stalled; the 2 ranks left finish" \
	'[ "$(grep -c " med LIVE.RANK_GONE rank [23]: gone/rank[23] is gone; the rank is no longer judged" gone.out)" \
		-eq 2 ] && ! grep -q "STALL" gone.out &&
	 grep -q "LIVE.FINISHED job finished: all 2 ranks stopped at step 90" gone.out'

# 8. an empty dir that becomes a sweep, its first level's file also given (empty when
#    opened: identity leaves it out as read by the dir's load); three changes, three lines
#    from the one entry that counts the reloads
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_sweep" gs 20 4 3 >/dev/null
set -- $(ls gs)
mkdir -p "sw/$1" && : >"sw/$1/profile_export.json"
"$TSCOPE_BIN" --no-index --follow --interval 0.2 sw "sw/$1/profile_export.json" >sw.out 2>sw.err &
fpid=$!
wait_for sw.err "following every"
mv "gs/$1/profile_export.json" "sw/$1/"
wait_for sw.out "LIVE.RELOADED sweep: files changed under sw; reloaded$"
mv "gs/$2" sw/
wait_for sw.out "reloaded 2 times"
mv "gs/$3" sw/
wait_for sw.out "reloaded 3 times"
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
tap_check "a followed sweep: one line per reload, counting them (the file given beside its dir not watched apart)" \
	'[ "$(grep -c " low LIVE.RELOADED " sw.out)" -eq 3 ] &&
	 grep -q " low LIVE.RELOADED sweep: reloaded 2 times as its files changed, the last under sw$" sw.out &&
	 grep -q " low LIVE.RELOADED sweep: reloaded 3 times as its files changed, the last under sw$" sw.out'
sweep_says="a sweep: one line per reload or new finding until SIGINT or SIGTERM (a sweep never finishes)"
tap_check "a followed sweep: stderr says at the start it runs until a signal, never until the job finishes" \
	'grep -qxF "tscope-tui: following every 0.2 s; $sweep_says" sw.err && ! grep -q "finishes$" sw.err'

# 9. an empty dir alone: stderr says it waits, then, once a sweep level appears, that the
#    sweep runs until a signal
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_sweep" gs1 20 4 1 >/dev/null
mkdir es
"$TSCOPE_BIN" --no-index --follow --interval 0.2 es >es.out 2>es.err &
fpid=$!
wait_for es.err "following every"
mv gs1/* es/
wait_for es.err "now following"
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
wait_says="nothing here yet: waiting for a job's step records or a sweep"
tap_check "an empty dir that becomes a sweep: stderr says it waits, then that the sweep runs until a signal" \
	'grep -qxF "tscope-tui: following every 0.2 s; $wait_says" es.err &&
	 grep -qxF "tscope-tui: now following $sweep_says" es.err && ! grep -q "finishes$" es.err'

# 10. records skipped: rank 2's garbage line at load, then rank 1's record cut and run into
#     the next one while following; each said when read, and the data-quality line at the
#     end counts both, as a fresh --print says it
sh "$writer" sk 4 0 4 0 >/dev/null
echo garbage >>sk/rank2/steps.jsonl
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 4 sk >sk.out 2>sk.err &
fpid=$!
wait_for sk.out "LIVE.SKIPPED rank 2"
printf '{"step":5,"phases":{"forward":0.03' >>sk/rank1/steps.jsonl
FOLLOW_WRITER_FINISH=1 sh "$writer" sk 4 5 10 0.05
wait "$fpid"
rc=$?
tap_check "records skipped: the load's said at the start, with the line" \
	'grep -q " med LIVE.SKIPPED rank 2: 1 record skipped (sk/rank2/steps.jsonl:6: line skipped: " sk.out'
tap_check "records skipped: the one a poll read said then, with the line; the job finishes (exit 0)" \
	'grep -q " med LIVE.SKIPPED rank 1: 1 record skipped (sk/rank1/steps.jsonl:6: line skipped: " sk.out &&
	 [ "$(grep -c "LIVE.SKIPPED" sk.out)" -eq 2 ] && grep -q "LIVE.FINISHED" sk.out && [ "$rc" -eq 0 ]'
"$TSCOPE_BIN" --no-index --print sk 2>&1 >/dev/null | grep "data quality" >sk.want
tap_check "records skipped: at the end stderr has --print's data-quality line, with what the follower read" \
	'grep -q "(2 records skipped); see --export sources$" sk.want && grep -qxF -f sk.want sk.err'
# every rank's garbage at load: 4 lines, the rest in a count
FOLLOW_WRITER_FINISH=1 sh "$writer" sk8 8 0 4 0 >/dev/null
for r in 0 1 2 3 4 5 6 7; do echo garbage >>"sk8/rank$r/steps.jsonl"; done
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 1 sk8 >sk8.out 2>sk8.err
tap_check "records skipped in 8 files at once: 4 lines, then one counting the other 4" \
	'[ "$(grep -c " med LIVE.SKIPPED rank [0-9]: 1 record skipped" sk8.out)" -eq 4 ] &&
	 grep -q " med LIVE.SKIPPED 4 more records skipped in 4 more files; see --export sources$" sk8.out &&
	 grep -q "(8 records skipped); see --export sources$" sk8.err'
# a rank restarted with fewer garbage lines than before: its count starts over and is said
sh "$writer" rs 2 0 4 0 >/dev/null
for k in 1 2 3; do echo garbage >>rs/rank0/steps.jsonl; done
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 4 rs >rs.out 2>rs.err &
fpid=$!
wait_for rs.out "LIVE.SKIPPED rank 0: 3 records"
head -2 rs/rank0/steps.jsonl >rs.new && echo garbage >>rs.new && mv rs.new rs/rank0/steps.jsonl
sleep 1
FOLLOW_WRITER_FINISH=1 sh "$writer" rs 2 5 10 0.05
wait "$fpid"
tap_check "records skipped after a restart with fewer garbage lines: said again from its new count" \
	'grep -q " med LIVE.SKIPPED rank 0: 1 record skipped (rs/rank0/steps.jsonl:3: line skipped: " rs.out'
# an empty dir followed and stopped: why nothing came, as --print says it
mkdir nd
"$TSCOPE_BIN" --no-index --follow --interval 0.2 nd >nd.out 2>nd.err &
fpid=$!
wait_for nd.err "following every"
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
tap_check "an empty dir followed and stopped: stderr says why nothing came, as --print does" \
	'grep -qxF "tscope-tui: nd: no supported data found here" nd.err'

# 11. the six ranks of a finished job each replaced by a copy of itself in one poll (the
#     follower stopped meanwhile): one line names them, the same records, no advance; the
#     job finishes (exit 0)
FOLLOW_WRITER_FINISH=1 sh "$writer" cp 6 0 10 0 >/dev/null
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 3 cp >cp.out 2>cp.err &
fpid=$!
wait_for cp.err "following every"
kill -STOP "$fpid"
for r in 0 1 2 3 4 5; do cp "cp/rank$r/steps.jsonl" cp/copy && mv cp/copy "cp/rank$r/steps.jsonl"; done
kill -CONT "$fpid"
wait "$fpid"
rc=$?
tap_check "files replaced by copies in one poll: one line naming the ranks, the same records; the job finishes" \
	'[ "$rc" -eq 0 ] && [ "$(grep -c " LIVE.RELOADED " cp.out)" -eq 1 ] &&
	 grep -q " low LIVE.RELOADED 6 ranks (0-5): steps.jsonl was replaced; reloaded from the start: the same \
records (not an advance)$" cp.out && grep -q " LIVE.FINISHED job finished: all 6 ranks stopped at step 10$" cp.out'

# 12. a PATH not there yet: a job writes there and finishes; what the start said of the
#     PATH ("cannot open") goes: the data-quality line at the end is a fresh --print's
#     (none: nothing to say of a finished job)
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 2 nx >nx.out 2>nx.err &
fpid=$!
wait_for nx.err "following every"
FOLLOW_WRITER_FINISH=1 sh "$writer" nx 2 0 20 0.05
wait "$fpid"
rc=$?
"$TSCOPE_BIN" --no-index --print nx 2>&1 >/dev/null | grep "data quality" >nx.want
grep "data quality" nx.err >nx.got
# (a finished job, run.json in each rank dir: a fresh --print has nothing to say, no line)
tap_check "a PATH not there yet, then written to: the job finishes, its data-quality line a fresh --print's" \
	'[ "$rc" -eq 0 ] && grep -q "LIVE.FINISHED" nx.out && cmp -s nx.want nx.got && ! grep -q "cannot open" nx.err'

# 13. a rank dir moved away and back: said gone, then back
sh "$writer" bk 2 0 4 0 >/dev/null
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 30 bk >bk.out 2>bk.err &
fpid=$!
wait_for bk.err "following every"
mv bk/rank1 bk.away
wait_for bk.out "LIVE.RANK_GONE rank 1"
mv bk.away bk/rank1
wait_for bk.out "LIVE.RANK_BACK"
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
tap_check "a rank dir moved away and back: said back, once" \
	'[ "$(grep -c " low LIVE.RANK_BACK rank 1: bk/rank1 is back; the rank is judged again$" bk.out)" -eq 1 ]'

# 14. a DASF database copied into a followed empty dir: said once, naming it and how to
#     read it (following reads step logs and sweeps), never ignored
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_dasf" fixture dfx >/dev/null
mkdir df
"$TSCOPE_BIN" --no-index --follow --interval 0.2 df >df.out 2>df.err </dev/null &
fpid=$!
wait_for df.err "following every"
cp dfx/1-TracePlugin-hA.msgpack df/
wait_for df.out "LIVE.NEW_DASF"
sleep 1
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
tap_check "a DASF database appears in a followed empty dir: said once, how to read it" \
	'[ "$(grep -c " LIVE.NEW_DASF " df.out)" -eq 1 ] && grep -q " low LIVE.NEW_DASF DASF database \
df/1-TracePlugin-hA.msgpack appeared while following; --follow and R read step logs and sweeps only: open df \
without --follow to read it$" df.out'

# 15. rank 1 of 4 is 25% slower from step 40: at step 99 a med straggler, by step 199
#     high; the rise is one line (not a line a poll), saying from what
"$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair" gp 4 200 11 1 40 >/dev/null
for r in 0 1 2 3; do
	mkdir -p "esc/rank$r" && head -100 "gp/rank$r/steps.jsonl" >"esc/rank$r/steps.jsonl"
done
"$TSCOPE_BIN" --no-index --follow --interval 0.2 --stall 30 esc >esc.out 2>esc.err </dev/null &
fpid=$!
wait_for esc.out "DIST.STRAGGLER"
for r in 0 1 2 3; do sed -n 101,150p "gp/rank$r/steps.jsonl" >>"esc/rank$r/steps.jsonl"; done
wait_for esc.out "rose from"
for r in 0 1 2 3; do sed -n '151,$p' "gp/rank$r/steps.jsonl" >>"esc/rank$r/steps.jsonl"; done
sleep 1.5
kill -INT "$fpid" 2>/dev/null
wait "$fpid"
tap_check "a straggler said med that becomes high: one more line, saying it rose, then nothing more" \
	'[ "$(grep -c " DIST.STRAGGLER " esc.out)" -eq 2 ] &&
	 grep -q " med DIST.STRAGGLER Rank 1 is a persistent straggler$" esc.out &&
	 grep -q " high DIST.STRAGGLER Rank 1 is a persistent straggler (severity rose from med)$" esc.out'

cd "$TSCOPE_TMP" && rm -rf "$work"
tap_plan
