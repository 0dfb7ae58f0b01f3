/* SPDX-License-Identifier: MIT */
/* fuzz_genai.c: GenAI-Perf artifacts. Byte 0 chooses the file the rest becomes inside
 * an artifacts tree: the exported summary X_genai_perf.json or X_genai_perf.csv, the raw
 * profile export X.json (requests, SSE responses), or the analyze sweep's
 * analyze_export_genai_perf.csv; the tree is opened as a sweep. */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const names[] = {
		"a/m_concurrency1/m_genai_perf.json", "a/m_concurrency1/m_genai_perf.csv",
		"a/m_concurrency1/m.json", "a/analyze_export_genai_perf.csv",
	};
	if (size < 1)
		return 0;
	const char *name = names[data[0] % 4];
	for (size_t i = 0; i < 4; i++)
		unlink(fuzz_path(names[i]));
	fuzz_write(name, data + 1, size - 1);
	fuzz_load("a", NULL);
	return 0;
}
