#!/bin/sh
# trace_kernel_names.sh: the headline's top kernels name each kernel briefly: no leading
# "void", no "(anonymous namespace)::", no argument list, template arguments as <...>
# when the name is long, a cut marked "..." on a character boundary; a hostile name (a
# thousand "<>", control bytes) stays within bounds and sanitized. The kernels view keeps
# the full names. Kernels are summed over ranks as the kernels view keys them: two names
# of one rank that differ only after a NUL are two kernels.
set -u
. "$TSCOPE_ROOT/tests/tap.sh"
cd "$TSCOPE_TMP" || exit 1
T=$TSCOPE_BIN

mkdir -p k
long='void at::native::(anonymous namespace)::multi_tensor_apply_kernel<at::native::(anonymous namespace)::TensorListMetadata<2>, float>(at::native::TensorListMetadata<2>, int)'
nccl='ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)'
plain='kernel_name_of_exactly_forty_four_bytes_hereé_then_more_of_it' # é at bytes 44-45
hostile=$(awk 'BEGIN { for (i = 0; i < 1000; i++) printf "<>"; printf "\033[31m(x)" }')
ev=""
for s in 0 1 2 3; do
	t=$((1000 + s * 10000))
	ev="$ev{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"$nccl\",\"pid\":0,\"tid\":7,\"ts\":$((t + 100)),\"dur\":4000,\"args\":{\"device\":0,\"stream\":7}},"
	ev="$ev{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"$long\",\"pid\":0,\"tid\":7,\"ts\":$((t + 4200)),\"dur\":3000,\"args\":{\"device\":0,\"stream\":7}},"
	ev="$ev{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"$plain\",\"pid\":0,\"tid\":7,\"ts\":$((t + 7300)),\"dur\":2000,\"args\":{\"device\":0,\"stream\":7}},"
done
printf '{"distributedInfo":{"rank":0,"world_size":1},"traceEvents":[%s{"ph":"i","name":"end","ts":0,"pid":1,"tid":1}]}\n' \
	"$ev" >k/rank0.pt.trace.json

"$T" --print --no-index k >p.txt 2>p.err
rc=$?
line=$(grep "^  top kernels" p.txt)
tap_check "a trace with long kernel names: --print exits 0 and lists the top kernels" '[ "$rc" -eq 0 ] && [ -n "$line" ]'
tap_check "the argument list goes" \
	'printf "%s" "$line" | grep -q "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t [0-9.]*%, " && ! printf "%s" "$line" | grep -q "ncclDev"'
tap_check "... so do \"void\" and \"(anonymous namespace)::\"; long template arguments become <...>" \
	'printf "%s" "$line" | grep -q ", at::native::multi_tensor_apply_kernel<...> [0-9.]*%"'
tap_check "a long plain name is cut to 48 bytes with \"...\", on a character boundary (44 + ...)" \
	'printf "%s" "$line" | grep -q ", kernel_name_of_exactly_forty_four_bytes_here\.\.\. [0-9.]*%"'
"$T" --export kernels --no-index k >k.csv 2>/dev/null
tap_check "the kernels view keeps the full names" 'grep -q "TensorListMetadata<2>, float>(at::native::TensorListMetadata<2>, int)" k.csv'
mkdir -p h
printf '{"distributedInfo":{"rank":0,"world_size":1},"traceEvents":[{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":100,"dur":50,"args":{"device":0,"stream":7}}]}\n' \
	"$(printf '%s' "$hostile" | sed 's/\x1b/\\u001b/')" >h/rank0.pt.trace.json
"$T" --print --no-index h >h.txt 2>/dev/null
rc=$?
tap_check "a hostile name (a thousand <>, an escape byte): exit 0, a bounded line, no control byte" \
	'[ "$rc" -eq 0 ] && grep -q "^  top kernels  *<\.\.\.><\.\.\.>.*\.\.\. 100\.0%$" h.txt &&
	 [ "$(grep "^  top kernels" h.txt | wc -c)" -lt 100 ] && ! grep -q "$(printf "\033")" h.txt'
# Two kernels whose names differ after a NUL (\u0000), on two ranks: two kernels in the top
# kernels as in the kernels view (300 and 200 us a rank), never summed as one name
mkdir -p nul
kn() { printf '{"ph":"X","cat":"kernel","name":"%s","pid":0,"tid":7,"ts":%d,"dur":%d,' "$@"
	printf '"args":{"device":0,"stream":7}}'; }
{ printf '{"distributedInfo":{"rank":0,"world_size":2},"traceEvents":['; kn 'ncclKernel_A\u0000ZZZ' 0 300; printf ,
  kn 'ncclKernel_A\u0000YYY' 400 200; printf ,; kn gemm_kernel 700 100; printf ']}\n'; } >nul/rank0.json
sed 's/"rank":0/"rank":1/' nul/rank0.json >nul/rank1.json
"$T" --print --no-index --color never nul >nul.txt 2>/dev/null
"$T" --export kernels --no-index nul >nul.csv 2>/dev/null
tap_check "names that differ after a NUL: two top kernels (50.0%, 33.3%), as the kernels view's two rows" \
	'grep -q "^  top kernels  *ncclKernel_A[^,]* 50\.0%, ncclKernel_A[^,]* 33\.3%, gemm_kernel 16\.7%$" nul.txt &&
	 [ "$(grep -c "^0,ncclKernel_A" nul.csv)" = 2 ]'
tap_plan
