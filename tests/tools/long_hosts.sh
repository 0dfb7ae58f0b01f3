# long_hosts.sh: long_host_runs GEN RANKS STEPS writes two gen_demo runs, ./ascii and
# ./cjk, of RANKS ranks and STEPS steps, 8 ranks a node, whose run.json hostnames are
# long (superlongclusterprefix-...-node000K.hpc.example.org) and CJK (计算节点-...-x服务器0K):
# the label-clipping tests' nodes (sourced). Fails when gen_demo fails.
long_host_runs() {
	for kind in ascii cjk; do
		"$1" "$kind" "$2" "$3" >/dev/null || return 1
		r=0
		while [ "$r" -lt "$2" ]; do
			h="superlongclusterprefix-rack07-chassis03-node000$((r / 8)).hpc.example.org"
			[ $kind = cjk ] && h="计算节点-机房七-机架三-x服务器0$((r / 8))"
			sed "s/\"python\":/\"hostname\": \"$h\", \"python\":/" "$kind/rank$r/run.json" >"$kind/run.json" &&
				mv "$kind/run.json" "$kind/rank$r/run.json" || return 1
			r=$((r + 1))
		done
	done
}
