/* SPDX-License-Identifier: MIT */
/* fuzz_dasf.c: the DASF loader: framing (8-byte length + msgpack map), the structural
 * check before msgpack-c decodes, resynchronisation, the legacy `trace: {json}` lines.
 * Byte 0 chooses: even = the rest is decoded from memory (dasf_load_mem), odd = it is
 * written as a .msgpack file and opened as the program would (pread window, legacy
 * detection); then every DASF view, the findings and the report run on it. */
#include "model/dasf/dasf.h"
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	static const struct opts opts = { .jobs = 1, .format = "dasf" };
	if (data[0] & 1) {
		fuzz_write("d/x.msgpack", data + 1, size - 1);
		fuzz_load("d/x.msgpack", &opts);
		return 0;
	}
	struct run *run = run_open(NULL, 0, &opts, NULL);
	struct load_ctx ctx = { .run = run, .opts = &opts };
	dasf_load_mem(&ctx, "fuzz.msgpack", data + 1, size - 1);
	fuzz_exercise(run);
	run_free(run);
	return 0;
}
