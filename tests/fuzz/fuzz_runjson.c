/* SPDX-License-Identifier: MIT */
/* fuzz_runjson.c: run.json (pytscope run metadata) beside a small valid steps.jsonl,
 * loaded as a run dir; everything downstream runs on it. Then the same run.json as ranks
 * 0 and 2 of a run dir whose rank 1 has a valid one with a config and an environment, so
 * what compares ranks' run.json (mixed runs, config and environment differences) weighs
 * it against another. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char steps[] =
		"{\"step\":0,\"phases\":{\"forward\":0.01,\"backward\":0.02},\"scalars\":{\"loss\":2.5}}\n"
		"{\"step\":1,\"phases\":{\"forward\":0.011,\"backward\":0.021},\"scalars\":{\"loss\":2.4}}\n";
	static const char other[] =
		"{\"name\":\"t\",\"rank\":1,\"world_size\":3,\"config\":{\"bs\":16,\"model\":\"m\"},"
		"\"environment\":{\"gpu\":\"A100\",\"gpu_count\":8,\"torch\":\"2.4\",\"hostname\":\"n1\"}}\n";
	fuzz_write("run/steps.jsonl", steps, sizeof(steps) - 1);
	fuzz_write("run/run.json", data, size);
	fuzz_load("run", NULL);
	for (int r = 0; r < 3; r++) {
		char rel[64];
		snprintf(rel, sizeof(rel), "ranks/rank%d/steps.jsonl", r);
		fuzz_write(rel, steps, sizeof(steps) - 1);
		snprintf(rel, sizeof(rel), "ranks/rank%d/run.json", r);
		if (r == 1)
			fuzz_write(rel, other, sizeof(other) - 1);
		else
			fuzz_write(rel, data, size);
	}
	fuzz_load("ranks", NULL);
	return 0;
}
