/* SPDX-License-Identifier: MIT */
/* fuzz_dasf.c: libFuzzer harness for the DASF loader (framing, structural check,
 * msgpack-c decoding, legacy `trace: {json}` lines) and every DASF analysis and view.
 * Not built by `make`; build and run with clang (seeds: gen_dasf fixture/legacy files):
 *   clang -g -O1 -fsanitize=fuzzer,address,undefined -I. -D_GNU_SOURCE -o fuzz_dasf \
 *     tests/fuzz/fuzz_dasf.c $(ls model/*.c model/*/*.c) -lmsgpackc -lcsv -lz -lpthread -lm
 *   ./fuzz_dasf -max_total_time=60 -max_len=65536 CORPUS_DIR */
#include <stddef.h>
#include <stdint.h>
#include "model/dasf/dasf.h"
#include "model/registry.h"
#include "model/run.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct opts opts;
	struct run *run = run_open(NULL, 0, &opts, NULL);
	struct load_ctx ctx = { .run = run, .opts = &opts };
	dasf_load_mem(&ctx, "fuzz.msgpack", data, size);
	static const char *const views[] = {
		"function_bottleneck", "task_bottleneck", "task_balance", "task_graph", "critical_path", "tasks",
	};
	for (size_t i = 0; i < sizeof(views) / sizeof(views[0]); i++) {
		char err[256];
		struct table *t = registry_view(views[i])->build(run, err, sizeof(err));
		table_free(t);
	}
	run_findings(run);
	run_free(run);
	return 0;
}
