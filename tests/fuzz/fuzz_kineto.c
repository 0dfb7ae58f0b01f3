/* SPDX-License-Identifier: MIT */
/* fuzz_kineto.c: the Kineto / PyTorch profiler trace scanner and loader, plain or gzip.
 * Byte 0 chooses: even = the rest is a plain *.pt.trace.json, odd = the rest is gzip-
 * compressed here and written as *.pt.trace.json.gz (so the inflate pipeline, its
 * thread and a stream ending anywhere are exercised); the other bits of byte 0 cut the
 * compressed stream short (truncated .gz) when set. */
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
	fuzz_load(gz ? "t/rank0.pt.trace.json.gz" : "t/rank0.pt.trace.json", NULL);
	return 0;
}
