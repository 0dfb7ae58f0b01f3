/* SPDX-License-Identifier: MIT */
/* fuzz_kineto.c: the Kineto / PyTorch profiler trace scanner and loader, plain or gzip.
 * Byte 0 chooses: even = the rest is a plain *.pt.trace.json, odd = the rest is gzip-
 * compressed here and written as *.pt.trace.json.gz (so the inflate pipeline, its
 * thread and a stream ending anywhere are exercised); bits 1-2 of byte 0 both set cut
 * the compressed stream short (truncated .gz); bit 3 loads with --ranks 1-3, so a
 * trace whose distributedInfo names another rank is read only that far (rank 0 of the
 * seeds) and one given a listed rank is read whole. */
#include <zlib.h>
#include "tests/fuzz/fuzz.h"

static void write_gz(const uint8_t *data, size_t size, bool truncate)
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
	fuzz_write("t/rank0.pt.trace.json.gz", out, truncate ? n / 2 : n);
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	bool gz = data[0] & 1, truncate = (data[0] & 6) == 6;
	unlink(fuzz_path("t/rank0.pt.trace.json"));
	unlink(fuzz_path("t/rank0.pt.trace.json.gz"));
	if (gz)
		write_gz(data + 1, size - 1, truncate);
	else
		fuzz_write("t/rank0.pt.trace.json", data + 1, size - 1);
	static const struct opts subset = { .jobs = 1, .ranks = "1-3" };
	fuzz_load(gz ? "t/rank0.pt.trace.json.gz" : "t/rank0.pt.trace.json", data[0] & 8 ? &subset : NULL);
	return 0;
}
