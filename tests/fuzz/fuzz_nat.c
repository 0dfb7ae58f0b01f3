/* SPDX-License-Identifier: MIT */
/* fuzz_nat.c: NeMo Agent Toolkit sizing calculator output (calc_runner_output.json) in
 * its online/job_N layout, loaded with sizing targets so the fits and estimates run. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct opts opts = { .jobs = 1, .target_users = 100, .target_runtime = 10,
					  .target_latency = 2, .test_gpus = 8 };
	fuzz_write("nat/online/job_1/calc_runner_output.json", data, size);
	fuzz_load("nat", &opts);
	return 0;
}
