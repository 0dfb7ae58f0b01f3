/* SPDX-License-Identifier: MIT */
/* gen_sweep.c: writes a synthetic GenAI-Perf artifacts tree for benchmarks: LEVELS run
 * directories (concurrency 1, 2, 4, ...) each holding a streaming profile_export.json
 * with REQUESTS requests of CHUNKS SSE chunks (the last carries usage) plus [DONE].
 * Usage: gen_sweep DIR [REQUESTS [CHUNKS [LEVELS [SLOW]]]]   (defaults 20000 32 4 0)
 * SLOW: the concurrency level whose requests take 10% longer (TTFT and chunk gaps). */
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int write_level(const char *dir, long conc, long nreq, long nchunk, bool slow)
{
	unsigned long long scale = slow ? 11 : 10;
	char path[4096];
	snprintf(path, sizeof(path), "%s/m-openai-chat-concurrency%ld", dir, conc);
	if (mkdir(path, 0755) != 0 && errno != EEXIST)
		return -1;
	snprintf(path, sizeof(path), "%s/m-openai-chat-concurrency%ld/profile_export.json", dir, conc);
	FILE *f = fopen(path, "w");
	if (!f)
		return -1;
	unsigned long long t0 = 1700000000000000000ULL;
	unsigned seed = (unsigned)conc * 2654435761u;
	fprintf(f, "{\"experiments\":[{\"experiment\":{\"mode\":\"concurrency\",\"value\":%ld},\"requests\":[", conc);
	for (long r = 0; r < nreq; r++) {
		seed = seed * 1103515245u + 12345u;
		unsigned long long start = t0 + (unsigned long long)r * 1000000ULL / (unsigned long long)conc;
		unsigned long long ttft = (20000000ULL + (seed >> 8) % 5000000ULL * (unsigned long long)conc) * scale / 10;
		fprintf(f, "%s{\"timestamp\":%llu,\"request_inputs\":{\"payload\":\"{}\"},\"response_timestamps\":[",
			r ? "," : "", start);
		for (long c = 0; c <= nchunk; c++)
			fprintf(f, "%s%llu", c ? "," : "", start + ttft + (unsigned long long)c * 800000ULL * scale);
		fprintf(f, "],\"response_outputs\":[");
		for (long c = 0; c < nchunk; c++) {
			if (c + 1 < nchunk)
				fprintf(f, "%s{\"response\":\"data: {\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"tok\\\"}}]}\\n\\n\"}",
					c ? "," : "");
			else
				fprintf(f, ",{\"response\":\"data: {\\\"object\\\":\\\"chat.completion.chunk\\\",\\\"choices\\\":[{\\\"delta\\\":{\\\"content\\\":\\\"end\\\"}}],"
					   "\\\"usage\\\":{\\\"completion_tokens\\\":%ld}}\\n\\n\"}", nchunk);
		}
		fprintf(f, ",{\"response\":\"data: [DONE]\\n\\n\"}]}");
	}
	fprintf(f, "],\"window_boundaries\":[]}],\"version\":\"0.0.0\",\"service_kind\":\"openai\","
		   "\"endpoint\":\"v1/chat/completions\"}\n");
	return fclose(f);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: gen_sweep DIR [REQUESTS [CHUNKS [LEVELS [SLOW]]]]\n");
		return 2;
	}
	long nreq = argc > 2 ? atol(argv[2]) : 20000, nchunk = argc > 3 ? atol(argv[3]) : 32;
	long levels = argc > 4 ? atol(argv[4]) : 4, slow = argc > 5 ? atol(argv[5]) : 0;
	if (nreq < 1 || nchunk < 2 || levels < 1 || (mkdir(argv[1], 0755) != 0 && errno != EEXIST)) {
		fprintf(stderr, "gen_sweep: bad arguments or cannot create %s\n", argv[1]);
		return 2;
	}
	for (long l = 0, conc = 1; l < levels; l++, conc *= 2)
		if (write_level(argv[1], conc, nreq, nchunk, conc == slow) != 0) {
			perror("gen_sweep");
			return 1;
		}
	return 0;
}
