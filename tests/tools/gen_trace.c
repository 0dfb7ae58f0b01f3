/* SPDX-License-Identifier: MIT */
/* gen_trace.c: write a large Kineto-like trace for the benchmark (tests/bench_trace.sh).
 * Usage: gen_trace OUT.json MEGABYTES [RANK]
 * The events copy the shape of real Kineto output (param DLRM sample): pretty-printed
 * spans, one ProfilerStep#N per iteration, cpu_op with args, cudaLaunchKernel runtime
 * calls with correlation ids, compute and NCCL kernels with the full kernel args block,
 * and ac2g flow pairs. Deterministic. */
#include <stdio.h>
#include <stdlib.h>

static const char *const kernels[] = {
	"void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<float>, "
	"at::detail::Array<char*, 3> >(int, at::native::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)",
	"volta_sgemm_128x64_nn",
	"void gemmSN_TN_kernel<float, 128, 16, 2, 4, 8, 9, false, cublasGemvTensorStridedBatched<float const>, "
	"cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float> >"
	"(cublasGemmSmallNParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float const>, "
	"cublasGemvTensorStridedBatched<float>, float>)",
	"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
};

static long long ts = 1694128201426674LL;
static long corr = 1000;

static void cpu_op(FILE *f, long ext)
{
	fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": 59811, \"tid\": 59811,\n"
		   "    \"ts\": %lld, \"dur\": 41,\n    \"args\": {\n      \"External id\": %ld,\"Ev Idx\": %ld, "
		   "\"Input Dims\": [[512], [2048, 1024], [1024, 512], [], []], \"Input type\": [\"float\", \"float\", "
		   "\"float\", \"Scalar\", \"Scalar\"]\n    }\n  },\n", ts, ext, ext + 7);
}

static void launch(FILE *f, int k, long ext)
{
	long c = corr++;
	fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": 59811, "
		   "\"tid\": 59811,\n    \"ts\": %lld, \"dur\": 6,\n    \"args\": {\n      \"External id\": %ld, "
		   "\"cbid\": 211, \"correlation\": %ld\n    }\n  },\n", ts + 3, ext, c);
	int stream = k == 3 ? 24 : 7;
	fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": %d,\n"
		   "    \"ts\": %lld, \"dur\": %d,\n    \"args\": {\n      \"External id\": %ld,\n"
		   "      \"queued\": 0, \"device\": 0, \"context\": 1,\n      \"stream\": %d, \"correlation\": %ld,\n"
		   "      \"registers per thread\": 72,\n      \"shared memory\": 13824,\n      \"blocks per SM\": 0.8,\n"
		   "      \"warps per SM\": 3.2,\n      \"grid\": [32, 2, 1],\n      \"block\": [128, 1, 1],\n"
		   "      \"est. achieved occupancy %%\": 5\n    }\n  },\n",
		kernels[k], stream, ts + 20, k == 3 ? 240 : 8 + k, ext, stream, c);
	fprintf(f, "  {\n    \"ph\": \"s\", \"id\": %ld, \"pid\": 59811, \"tid\": 59811, \"ts\": %lld,\n"
		   "    \"cat\": \"ac2g\", \"name\": \"ac2g\"\n  },\n", c, ts + 3);
	fprintf(f, "  {\n    \"ph\": \"f\", \"id\": %ld, \"pid\": 0, \"tid\": %d, \"ts\": %lld,\n"
		   "    \"cat\": \"ac2g\", \"name\": \"ac2g\", \"bp\": \"e\"\n  },\n", c, stream, ts + 20);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: gen_trace OUT.json MEGABYTES [RANK]\n");
		return 2;
	}
	FILE *f = fopen(argv[1], "w");
	if (!f)
		return 1;
	long long target = atoll(argv[2]) * 1000000LL;
	int rank = argc > 3 ? atoi(argv[3]) : 0;
	fprintf(f, "{\n  \"schemaVersion\": 1,\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %d, "
		   "\"world_size\": 8},\n  \"traceEvents\": [\n", rank);
	long ext = 1;
	for (long step = 1; ftell(f) < target; step++) {
		fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%ld\", "
			   "\"pid\": 59811, \"tid\": 59811,\n    \"ts\": %lld, \"dur\": 14455,\n    \"args\": {\n"
			   "      \"External id\": %ld,\"Ev Idx\": 684\n    }\n  },\n", step, ts, ext++);
		for (int i = 0; i < 40; i++) {
			cpu_op(f, ext);
			launch(f, i % 10 == 9 ? 3 : i % 3, ext++);
			ts += 350;
		}
		ts += 500;
	}
	fprintf(f, "  {\n    \"ph\": \"X\", \"cat\": \"Trace\", \"ts\": 1694128201426600, \"dur\": 1,\n"
		   "    \"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",\n    \"name\": \"PyTorch Profiler (0)\",\n"
		   "    \"args\": {\n      \"Op count\": 0\n    }\n  }\n  ],\n  \"traceName\": \"%s\"\n}\n", argv[1]);
	return fclose(f) == 0 ? 0 : 1;
}
