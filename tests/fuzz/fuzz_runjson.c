/* SPDX-License-Identifier: MIT */
/* fuzz_runjson.c: run.json (pytscope run metadata) beside a small valid steps.jsonl,
 * loaded as a run dir; everything downstream runs on it. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char steps[] =
		"{\"step\":0,\"phases\":{\"forward\":0.01,\"backward\":0.02},\"scalars\":{\"loss\":2.5}}\n"
		"{\"step\":1,\"phases\":{\"forward\":0.011,\"backward\":0.021},\"scalars\":{\"loss\":2.4}}\n";
	fuzz_write("run/steps.jsonl", steps, sizeof(steps) - 1);
	fuzz_write("run/run.json", data, size);
	fuzz_load("run", NULL);
	return 0;
}
