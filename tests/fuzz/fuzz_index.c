/* SPDX-License-Identifier: MIT */
/* fuzz_index.c: the persistent index reader (model/index, issue 15): a damaged index must
 * be rejected, never trusted. Byte 0 chooses: even = the rest is a whole part file (header
 * checks: magic, version, byte order, length, checksum); odd = the rest is a head (the
 * whole payload), wrapped in a valid header (so the checksum passes and the decoder runs
 * on it). The part
 * goes into a small run dir's .tscope-index/ and the run is opened as the program does
 * (index_load: shard, sources against the run dir, metrics, diagnostics, sealed ranks),
 * then everything downstream runs. The run's steps.jsonl and run.json are written once
 * with a fixed mtime, so a payload recorded from them (the seeds) is current; both
 * ranks' run.json share an environment (rank 1's shell marks it as rank 0's). The
 * seeds are `tscope-tui index` of that run (byte 0: 0 and the whole part, 1 and its
 * payload). */
#include <fcntl.h>
#include <sys/stat.h>
#include <zlib.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "tests/fuzz/fuzz.h"

#define FIXED_MTIME 1700000000

static void write_fixed(const char *rel, const char *text)
{
	fuzz_write(rel, text, strlen(text));
	struct timespec ts[2] = { { FIXED_MTIME, 0 }, { FIXED_MTIME, 0 } };
	if (utimensat(AT_FDCWD, fuzz_path(rel), ts, 0) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	if (!ready) {
		write_fixed("run/rank0/steps.jsonl",
			    "{\"step\":0,\"phases\":{\"forward\":0.01,\"backward\":0.02},\"scalars\":{\"loss\":2.5}}\n"
			    "{\"step\":1,\"phases\":{\"forward\":0.011,\"backward\":0.021},\"scalars\":{\"loss\":2.4}}\n");
		write_fixed("run/rank0/run.json", "{\"name\":\"fz\",\"rank\":0,\"world_size\":2,"
						 "\"environment\":{\"gpu\":\"H100\",\"torch\":\"2.4\"}}\n");
		write_fixed("run/rank1/steps.jsonl", "{\"step\":0,\"phases\":{\"forward\":0.02}}\n");
		write_fixed("run/rank1/run.json", "{\"name\":\"fz\",\"rank\":1,\"world_size\":2,"
						 "\"environment\":{\"gpu\":\"H100\",\"torch\":\"2.4\"}}\n");
		ready = true;
	}
	if (size < 1)
		return 0;
	if (data[0] & 1) {
		struct obuf o = { 0 };
		unsigned char hdr[INDEX_HEADER_LEN];
		index_header_put(hdr, size - 1, 0, size - 1, (uint32_t)crc32(0, data + 1, (uInt)(size - 1)));
		ob_bytes(&o, hdr, sizeof(hdr));
		ob_bytes(&o, data + 1, size - 1);
		fuzz_write("run/.tscope-index/steps-0-of-1.tsx", o.p, o.n);
		ob_free(&o);
	} else {
		fuzz_write("run/.tscope-index/steps-0-of-1.tsx", data + 1, size - 1);
	}
	index_check(data + 1, size - 1);
	fuzz_load("run", NULL);
	return 0;
}
