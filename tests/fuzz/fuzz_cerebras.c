/* SPDX-License-Identifier: MIT */
/* fuzz_cerebras.c: a Cerebras run's performance/performance.json. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("cb/performance/performance.json", data, size);
	fuzz_load("cb", NULL);
	return 0;
}
