/* SPDX-License-Identifier: MIT */
/* fuzz_steps.c: the steps.jsonl loader, fast path against jsmn fallback. The input is a
 * steps.jsonl; it is loaded twice, with the line scanner (model/steps/scan.c) on and
 * off, and both loads must store the same records, values (bit for bit), metrics and
 * diagnostics (the scanner's contract); then everything downstream runs on it. */
#include "model/steps/scan.h"
#include "tests/fuzz/fuzz.h"
#include "tests/steps_compare.h"

static struct run *load(bool scan)
{
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
	struct run *fast = load(true), *slow = load(false);
	if (compare_runs(fast, slow, "fast path vs jsmn") != 0)
		abort();
	fuzz_exercise(fast);
	run_free(fast);
	run_free(slow);
	return 0;
}
