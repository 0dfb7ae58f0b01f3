#!/bin/sh
# config_differs.sh: the headline and the CONFIG.RANKS_DIFFER finding name run.json
# config keys that fewer than half of the ranks set otherwise (a rank launched with
# another batch size: a straggler's likely cause, or ranks of another run merged in
# silence): the first such rank, its value and the others', how many ranks differ and the
# keys. With no majority (a key set per rank such as local_rank, a run of two ranks) the
# headline says "config varies" against the lowest rank, and there is no finding. Read
# the same from the index; never under --compat pytscope. The finding is high when that
# rank is in the straggler set. The same for the environment's software and hardware keys
# (another GPU on one rank: "env differs", ENV.RANKS_DIFFER), not for hostnames; there
# ranks split with no majority (two ranks, half the nodes) are a finding too. Comparing two
# runs (tests/tools/gen_pair, rank 2 slower in B), a workload key is named however it is
# spelled (batchSize, BATCH_SIZE), at any depth (deepspeed's micro batch and gradient
# accumulation), and so is a batch size B's ranks set otherwise (CONFIG.RANKS_DIFFER):
# not a like-for-like comparison, no rank called regressed; an unrelated key
# (eval_batch_size) is not, nor ranks that set it otherwise alike on both sides.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
gen="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_demo"
cd "$TSCOPE_TMP" || exit 1
# report DIR OUT [OPTION...]: the plain-text report of run DIR (no index) into OUT
report() {
	d=$1 o=$2
	shift 2
	"$TSCOPE_BIN" --print --color never --no-index "$@" "$d" >"$o" 2>/dev/null
}
# config RANKDIR SED: run.json of RANKDIR edited by SED
config() { sed -i "$2" "$1/run.json"; }
"$gen" cf 16 50 >/dev/null || exit 1
for r in $(seq 0 15); do # a key set per rank: local_rank
	sed "s/\"batch_size\": 16/\"batch_size\": 16, \"local_rank\": $((r % 8))/" cf/rank$r/run.json >rj &&
		mv rj cf/rank$r/run.json
done
two_keys='(2 of 16 ranks differ: 11,13; keys: model, batch_size)$' id='(CONFIG.RANKS_DIFFER)'
report cf same.out
tap_check "one config, local_rank set per rank: not \"config differs\", it varies against rank 0" \
	'! grep -q "config differs" same.out && grep -q "^  config varies  *rank 1.s local_rank=1, rank 0.s 0 \
(14 of 16 ranks differ from rank 0: 1-7,9-15, no majority; keys: local_rank)$" same.out'
config cf/rank11 's/"batch_size": 16/"batch_size": 32/'
config cf/rank13 's/"model": "gpt2-medium"/"model": "gpt2-large"/'
report cf cf.out
tap_check "ranks 11 and 13 set batch_size and model otherwise: the first named, the count, both keys" \
	'grep -q "^  config differs  *rank 11.s batch_size=32, the other ranks. 16 $two_keys" cf.out'
"$TSCOPE_BIN" index cf >/dev/null 2>&1 && "$TSCOPE_BIN" --print --color never cf >cf_idx.out 2>/dev/null
tap_check "... the same from the index" 'cmp -s cf.out cf_idx.out'
tap_check "the finding: medium (rank 11 is no straggler), its rank, value and the others'" \
	'grep -q "^  \[MED \] Rank 11 runs with batch_size=32, the others 16 (2 of 16 ranks differ: 11,13)  $id$" cf.out &&
	 ! grep -q "in the straggler set" cf.out'
tap_check "no finding for a key set per rank, nor \"config varies\" beside a minority" \
	'! grep -q "CONFIG.RANKS_DIFFER" same.out && ! grep -q "config varies" cf.out'
report cf compat.out --compat pytscope
tap_check "not in pytscope's layout" '! grep -q "config differs" compat.out && ! grep -q "$id" compat.out'
"$gen" slow 16 400 >/dev/null || exit 1
config slow/rank11 's/"batch_size": 16/"batch_size": 24/'
report slow slow.out
tap_check "the rank with another batch size is the straggler: high, and said" \
	'grep -q "^  \[HIGH\] Rank 11 runs with batch_size=24, the others 16  $id$" slow.out &&
	 grep -q "with batch_size=24 where the others have 16\..* That rank is in the straggler set\.$" slow.out'
config cf/rank0 's/"batch_size": 16/"batch_size": 8/'
report cf r0.out
tap_check "rank 0 the odd one: named against the others, not taken as the reference" \
	'grep -q "^  config differs  *rank 0.s batch_size=8, the other ranks. 16 (3 of 16 ranks differ: 0,11,13; \
keys: mod" r0.out'
"$gen" two 2 20 >/dev/null || exit 1
config two/rank1 's/"batch_size": 16/"batch_size": 32/'
report two two.out
tap_check "two ranks that differ: no majority, named against rank 0, no finding" \
	'grep -q "^  config varies  *rank 1.s batch_size=32, rank 0.s 16 (1 of 2 ranks differ from rank 0, no majority; \
keys: batch_size)$" two.out && ! grep -q "config differs\|CONFIG.RANKS_DIFFER" two.out'
config two/rank1 's/"gpu": "NVIDIA A100-SXM4-80GB"/"gpu": "NVIDIA H100 80GB HBM3"/'
report two two_env.out
tap_check "two ranks on two GPUs: env differs and a medium finding, against rank 0" \
	'grep -q "^  env differs  *rank 1.s gpu=NVIDIA H100 80GB HBM3, rank 0.s NVIDIA A100-SXM4-80GB (1 of 2" two_env.out &&
	 grep -q "^  \[MED \] Rank 1 runs with gpu=NVIDIA H100 80GB HBM3, rank 0 NVIDIA A100-SXM4-80GB (1 of 2 ranks \
differ from rank 0, no majority)  (ENV.RANKS_DIFFER)$" two_env.out'
config cf/rank0 's/"batch_size": 8/"batch_size": 16/'
config cf/rank11 's/"batch_size": 32, //'
report cf gone.out
tap_check "a key a rank does not have: (none)" \
	'grep -q "^  config differs  *rank 11.s batch_size=(none), the other ranks. 16 $two_keys" gone.out'
"$gen" env 16 400 >/dev/null || exit 1
for r in $(seq 0 15); do config env/rank$r "s/\"python\": /\"hostname\": \"node$((r / 8))\", \"python\": /"; done
report env env0.out
tap_check "hostnames by node: not an environment that differs" '! grep -q "env differs\|ENV.RANKS_DIFFER" env0.out'
config env/rank11 's/"gpu": "NVIDIA A100-SXM4-80GB"/"gpu": "NVIDIA A100-SXM4-40GB"/'
report env env.out
tap_check "rank 11 (the straggler) on another GPU: the headline and a high finding" \
	'grep -q "^  env differs  *rank 11.s gpu=NVIDIA A100-SXM4-40GB, the other ranks. NVIDIA A100-SXM4-80GB" env.out &&
	 grep -q "^  \[HIGH\] Rank 11 runs with gpu=NVIDIA A100-SXM4-40GB, the others NVIDIA A100-SXM4-80GB  (ENV" env.out &&
	 ! grep -q "config differs" env.out'
for r in $(seq 8 15); do config env/rank$r 's/"gpu": "NVIDIA A100-SXM4-80GB"/"gpu": "NVIDIA A100-SXM4-40GB"/'; done
report env half.out
tap_check "half the ranks on another GPU: no majority, against rank 0; high, naming the straggler" \
	'grep -q "^  env differs  *rank 8.s gpu=NVIDIA A100-SXM4-40GB, rank 0.s NVIDIA A100-SXM4-80GB (8 of 16 ranks \
differ from rank 0: 8-15, no majority; keys: gpu)$" half.out &&
	 grep -q "^  \[HIGH\] Rank 8 runs with gpu=NVIDIA A100-SXM4-40GB, rank 0 NVIDIA A100-SXM4-80GB (8 of 16" half.out &&
	 grep -q "where rank 0 has NVIDIA A100-SXM4-80GB\. .* Rank 11 is in the straggler set\.$" half.out'
# --- comparing runs: the workload keys however spelled, and those B's ranks set otherwise
pair="$TSCOPE_ROOT/${TSCOPE_BUILD:-build}/tests/gen_pair"
"$pair" pa 4 60 1 >/dev/null && "$pair" pb 4 60 2 2 20 >/dev/null || exit 1
# setcfg SRC DST PY: DST a copy of run SRC whose run.json files j went through the Python PY
setcfg() {
	rm -rf "$2" && cp -r "$1" "$2" && python3 -c 'import json,sys,glob
for f in glob.glob(sys.argv[1] + "/rank*/run.json"):
    j = json.load(open(f)); exec(sys.argv[2]); json.dump(j, open(f, "w"))' "$2" "$3"
}
# verdict A B: the COMPARISON line of A against B
verdict() { "$TSCOPE_BIN" --print --no-index --color never "$1" "$2" 2>/dev/null | grep "^● COMPARISON"; }
unlike=": not a like-for-like comparison; 1 rank slower and 0 faster beyond noise, none called regressed$"
setcfg pa da "j['config']['deepspeed'] = {'train_micro_batch_size_per_gpu': 4, 'gradient_accumulation_steps': 1}"
setcfg pb db "j['config']['deepspeed'] = {'train_micro_batch_size_per_gpu': 8, 'gradient_accumulation_steps': 4}"
tap_check "deepspeed's micro batch and gradient accumulation, nested: named, not like for like" \
	'verdict da db | grep -q "workload differs (deepspeed.gradient_accumulation_steps 1 -> 4, \
deepspeed.train_micro_batch_size_per_gpu 4 -> 8)$unlike"'
named=0
for k in batchSize BATCH_SIZE per_device_batch_size local_batch_size; do
	setcfg pa ka "j['config']['$k'] = 4" && setcfg pb kb "j['config']['$k'] = 8" &&
		verdict ka kb | grep -q "workload differs ($k 4 -> 8)$unlike" && named=$((named + 1))
done
tap_eq "batchSize, BATCH_SIZE, per_device_batch_size, local_batch_size: each named" 4 "$named"
setcfg pa ea "j['config']['eval_batch_size'] = 4" && setcfg pb eb "j['config']['eval_batch_size'] = 8"
tap_check "eval_batch_size is no workload key: rank 2 regressed" \
	'verdict ea eb | grep -q "^● COMPARISON — B is [0-9.]*% slower per step; rank 2 regressed from step 20$"'
setcfg pa a32 "j['config']['batch_size'] = 32"
setcfg pb bmix "j['config']['batch_size'] = 32 if j['rank'] == 0 else 64"
tap_check "B's rank 0 at batch size 32, its others at 64: named by rank, not like for like" \
	'verdict a32 bmix | grep -q "workload differs (batch_size 32 -> 32 on rank 0 / 64 on ranks 1-3)$unlike"'
setcfg pa amix "j['config']['batch_size'] = 32 if j['rank'] == 0 else 64"
tap_check "... A's ranks set alike: like for like, rank 2 regressed" \
	'verdict amix bmix | grep -q "^● COMPARISON — B is [0-9.]*% slower per step; rank 2 regressed from step 20$"'
tap_plan
