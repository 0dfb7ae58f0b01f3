#!/bin/sh
# slurm.sh: `tscope-tui index --slurm` against a real one-node Slurm (Debian's slurmctld,
# slurmd and munge), brought up in this test's temp dir: munged on a socket there
# (AuthInfo=socket=...), SlurmUser=root, proctrack/linuxproc, task/none, two free ports,
# SLURM_CONF pointing at the temp config; the daemons run in the foreground (as children
# of this script) and are stopped on every exit. A generated 12-rank run is indexed as a
# 4-task job array with --merge-step (a dependent job: index --status, then --print,
# whose open merges the summary); the merged index must give exactly the --print and
# --export ranks of a plain load. A run dir whose path has a space, '#', a quote and '%'
# gets its tasks' and merge step's logs where the submit says. Skips (with the reason)
# when not root, when the packages are missing, or when the daemons do not come up.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
T=$TSCOPE_BIN
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
work="$TSCOPE_TMP/slurm.$$"
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	for p in $pids; do wait "$p" 2>/dev/null; done
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP

skip() {
	tap_skip "$1"
	tap_plan
	exit 0
}

[ "$(id -u)" = 0 ] || skip "needs root to run slurmd and munged"
for c in munged slurmctld slurmd sbatch squeue sinfo python3; do
	command -v $c >/dev/null 2>&1 || skip "$c not installed (.ci/deps.sh --test installs slurmctld, slurmd, slurm-client, munge)"
done
host=$(hostname -s)
getent hosts "$host" >/dev/null 2>&1 || skip "host name '$host' does not resolve"
rm -rf "$work"
mkdir -p "$work/state" "$work/spool" && cd "$work" || exit 1

# Two free TCP ports (the kernel picks them; the sockets close at once).
set -- $(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("", 0))
print(*[x.getsockname()[1] for x in s])')
p1=$1 p2=$2

head -c 1024 /dev/urandom >munge.key && chmod 600 munge.key
munged -F -f --socket="$work/munge.sock" --key-file="$work/munge.key" --log-file="$work/munged.log" \
	--pid-file="$work/munged.pid" --seed-file="$work/munged.seed" >munged.out 2>&1 &
pids="$pids $!"
cat >slurm.conf <<EOF
ClusterName=tscope
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$p1
SlurmdPort=$p2
AuthType=auth/munge
AuthInfo=socket=$work/munge.sock
CredType=cred/munge
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/slurmctld.pid
SlurmdPidFile=$work/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$(nproc) State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$work/slurm.conf"
i=0
while [ ! -S munge.sock ] && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
[ -S munge.sock ] || skip "munged did not start: $(tail -n 1 munged.out)"
slurmctld -D -i -f "$SLURM_CONF" >slurmctld.out 2>&1 &
pids="$pids $!"
slurmd -D -f "$SLURM_CONF" >slurmd.out 2>&1 &
pids="$pids $!"
i=0
until sinfo -h -o %t 2>/dev/null | grep -q idle; do
	sleep 0.2
	i=$((i + 1))
	[ $i -lt 100 ] || skip "slurmctld/slurmd did not come up: $(tail -n 1 slurmctld.out) / $(tail -n 1 slurmd.out)"
done
tap_ok "one-node Slurm up (ports $p1, $p2)"

"$gen" run 12 200 >/dev/null || exit 1
"$T" --print --no-index run >want.txt 2>/dev/null
"$T" --export ranks --no-index run >want.csv 2>/dev/null
"$T" index --slurm --shards 4 --merge-step --time=5 run >submit.txt 2>&1
job=$(sed -n 's/^submitted job array \([0-9]*\):.*/\1/p' submit.txt)
tap_check "index --slurm submits a job array and prints its id" '[ -n "$job" ]'
tap_check "and says how to watch it" 'grep -q "^watch: squeue -j $job" submit.txt'
i=0
while [ -n "$(squeue -h 2>/dev/null)" ] && [ $i -lt 200 ]; do sleep 0.2; i=$((i + 1)); done
tap_check "the array and the merge step finished" '[ -z "$(squeue -h 2>/dev/null)" ]'
"$T" index --status run >status.txt
tap_eq "four shards written by the four tasks, all current" 4 "$(grep -c '^shard .*  ok  ' status.txt)"
tap_check "... and their summary, merged by the merge step" 'grep -q "^summary  ok  run/.tscope-index/summary.tsx$" status.txt'
tap_check "the dependent merge step ran after the array" 'grep -q "shard 3/4" run/.tscope-index/slurm-$job-status.out'
tap_check "... merged the summary (before any open here) and printed the report to its log" \
	'[ -s run/.tscope-index/summary.tsx ] && ! ls run/.tscope-index | grep -q "^inputs-" &&
	 grep -q "^  ranks  *12$" run/.tscope-index/slurm-$job-status.out'
"$T" --print run >got.txt 2>err.txt
"$T" --export ranks run >got.csv 2>/dev/null
tap_check "merged index: --print identical to a plain load" 'cmp -s want.txt got.txt'
tap_check "merged index: --export ranks identical to a plain load" 'cmp -s want.csv got.csv'
tap_check "merged index: no diagnostic" '[ ! -s err.txt ]'

# A run dir whose path has a space, a '#', a quote and a '%' (Slurm's %t in a log name
# unless doubled): the tasks' logs and the merge step's land where the submit says
# (sbatch read the whole --output), and the hints are sh-quoted paths that work.
odd="odd dir/r#1 'x' %t"
mkdir "odd dir" && "$gen" "$odd" 4 20 >/dev/null || exit 1
"$T" index --slurm --shards 2 --merge-step --time=5 "$odd" >submit2.txt 2>&1
job2=$(sed -n 's/^submitted job array \([0-9]*\):.*/\1/p' submit2.txt)
tap_check "an odd run dir path: submitted" '[ -n "$job2" ]'
i=0
while [ -n "$(squeue -h 2>/dev/null)" ] && [ $i -lt 200 ]; do sleep 0.2; i=$((i + 1)); done
logs=$(sed -n 's/^watch: squeue -j [0-9]*    logs: //p' submit2.txt)
mlog=$(sed -n 's/^merge step: job [0-9]* (.* printed to \(.*\))$/\1/p' submit2.txt)
then=$(sed -n 's/^then:  tscope-tui index --status \(.*\)    (missing .*/\1/p' submit2.txt)
tasks_logged() { # the glob it printed names both tasks' logs, each its shard's
	eval "set -- $logs"
	[ $# -eq 2 ] && grep -q "^index written: .*/steps-0-of-2.tsx" "$1" &&
		grep -q "^index written: .*/steps-1-of-2.tsx" "$2"
}
merge_logged() { # the merge step's log is where it said; --status's hint names the run dir
	eval "set -- $mlog" && [ $# -eq 1 ] && grep -q "^shard 1/2  ranks 2-3  ok" "$1" &&
		eval "set -- $then" && [ $# -eq 1 ] && [ "$1" = "$(cd "$odd" && pwd -P)" ]
}
tap_check "... both tasks' logs are where it says (the glob it prints, sh-quoted), each its shard's" tasks_logged
tap_check "... the merge step's log too, and the run dir of --status is the run dir" merge_logged
tap_check "... no log anywhere else" '[ "$(find . -name "slurm-$job2*" | wc -l)" -eq 3 ]'
tap_plan
