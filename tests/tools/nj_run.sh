# nj_run.sh: nj_run DIR writes a pytscope run of two ranks and 10 steps (forward, backward,
# comm; no loss, no memory) that no rule finds anything in and several rules cannot judge
# (stragglers need 16 aligned steps): the "not judged" rows' run (sourced).
nj_run() {
	for r in 0 1; do
		mkdir -p "$1/rank$r" || return 1
		printf '{"name":"nj","rank":%d,"world_size":2}\n' $r >"$1/rank$r/run.json"
		awk 'BEGIN { for (s = 0; s < 10; s++)
			printf "{\"step\":%d,\"phases\":{\"forward\":0.1,\"backward\":0.2,\"comm\":0.01}}\n", s }' \
			>"$1/rank$r/steps.jsonl" || return 1
	done
}
