/* SPDX-License-Identifier: MIT */
/* fuzz_steps.c: the steps.jsonl loader, fast path against jsmn fallback. The input is a
 * steps.jsonl; it is loaded with the line scanner (model/steps/scan.h) off, then on
 * with each structural path this CPU runs (portable, SSE2, AVX2), and every load must
 * store the same records, values (bit for bit), metrics and diagnostics (the scanner's
 * contract); then everything downstream runs on it. */
#include "model/steps/scan.h"
#include "tests/fuzz/fuzz.h"
#include "tests/steps_compare.h"

static struct run *load(bool scan, enum scan_isa isa)
{
	scan_isa_force(isa);
	static const struct opts opts = { .jobs = 1 };
	const char *paths[] = { fuzz_path("run") };
	pytscope_scan_enable(scan);
	struct run *run = run_open(paths, 1, &opts, NULL);
	pytscope_scan_enable(true);
	return run;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write("run/steps.jsonl", data, size);
	static const enum scan_isa isa[] = { SCAN_ISA_PORTABLE, SCAN_ISA_SSE2, SCAN_ISA_AVX2 };
	struct run *slow = load(false, SCAN_ISA_PORTABLE), *fast = NULL;
	for (size_t k = 0; k < sizeof(isa) / sizeof(isa[0]); k++) {
		if (!scan_isa_supported(isa[k]))
			continue;
		struct run *run = load(true, isa[k]);
		if (compare_runs(run, slow, "fast path vs jsmn") != 0)
			abort();
		run_free(fast);
		fast = run;
	}
	fuzz_exercise(fast);
	run_free(fast);
	run_free(slow);
	return 0;
}
