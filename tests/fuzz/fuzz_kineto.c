/* SPDX-License-Identifier: MIT */
/* fuzz_kineto.c: the Kineto / PyTorch profiler trace scanner and loader, plain or gzip.
 * Byte 0 chooses: even = the rest is a plain *.pt.trace.json, odd = the rest is gzip-
 * compressed here and written as *.pt.trace.json.gz (so the inflate pipeline, its
 * thread and a stream ending anywhere are exercised); bits 1-2 of byte 0 both set cut
 * the compressed stream short (truncated .gz); bit 3 loads with --ranks 1-3, so a
 * trace whose distributedInfo names another rank is read only that far (rank 0 of the
 * seeds) and one given a listed rank is read whole; bit 4 writes it into a directory
 * whose rank 1 is a fixed trace with deviceProperties and CUDA versions, and loads the
 * directory, so the comparison of the traces' GPUs and CUDA (env_diff.c) runs on it. */
#include <zlib.h>
#include "tests/fuzz/fuzz.h"

static void write_gz(const char *path, const uint8_t *data, size_t size, bool truncate)
{
	z_stream z = { 0 };
	if (deflateInit2(&z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		abort();
	size_t cap = deflateBound(&z, size) + 64;
	unsigned char *out = malloc(cap);
	if (!out)
		abort();
	z.next_in = (unsigned char *)data;
	z.avail_in = (uInt)size;
	z.next_out = out;
	z.avail_out = (uInt)cap;
	if (deflate(&z, Z_FINISH) != Z_STREAM_END)
		abort();
	size_t n = z.total_out;
	deflateEnd(&z);
	fuzz_write(path, out, truncate ? n / 2 : n);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	if (!ready) {
		static const char rank1[] =
			"{\"schemaVersion\":1,\"deviceProperties\":[{\"id\":0,\"name\":\"NVIDIA H100\"}],"
			"\"cuda_runtime_version\":12020,\"cuda_driver_version\":12040,"
			"\"distributedInfo\":{\"rank\":1,\"world_size\":2},\"traceEvents\":[{\"ph\":\"X\","
			"\"cat\":\"kernel\",\"name\":\"gemm\",\"ts\":20,\"dur\":5,\"pid\":0,\"tid\":7,"
			"\"args\":{\"stream\":7}}]}\n";
		fuzz_write("p/rank1.pt.trace.json", rank1, sizeof(rank1) - 1);
		ready = true;
	}
	if (size < 1)
		return 0;
	bool gz = data[0] & 1, truncate = (data[0] & 6) == 6, pair = data[0] & 16;
	char path[64];
	snprintf(path, sizeof(path), "%s/rank0.pt.trace.json%s", pair ? "p" : "t", gz ? ".gz" : "");
	unlink(fuzz_path("t/rank0.pt.trace.json"));
	unlink(fuzz_path("t/rank0.pt.trace.json.gz"));
	unlink(fuzz_path("p/rank0.pt.trace.json"));
	unlink(fuzz_path("p/rank0.pt.trace.json.gz"));
	if (gz)
		write_gz(path, data + 1, size - 1, truncate);
	else
		fuzz_write(path, data + 1, size - 1);
	static const struct opts subset = { .jobs = 1, .ranks = "1-3" };
	fuzz_load(pair ? "p" : path, data[0] & 8 ? &subset : NULL);
	return 0;
}
