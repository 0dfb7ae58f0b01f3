/* SPDX-License-Identifier: MIT */
/* replay.c: main() for a harness built without libFuzzer (build/tests/replay_NAME):
 * runs LLVMFuzzerTestOneInput on every file named on the command line (directories:
 * every file in them), so `make check` replays the seed and regression corpora under the
 * ordinary and the ASan builds. Exit 0 when every input ran (a crash ends the process). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	size_t cap = 1 << 16, n = 0;
	unsigned char *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf)
		return 1;
	LLVMFuzzerTestOneInput(buf, n);
	free(buf);
	return 0;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int run_dir(const char *dir, size_t *count)
{
	DIR *d = opendir(dir);
	if (!d)
		return run_file(dir) == 0 ? (++*count, 0) : 1;
	char **names = NULL;
	size_t n = 0;
	for (struct dirent *e; (e = readdir(d));)
		if (e->d_name[0] != '.') {
			names = realloc(names, (n + 1) * sizeof(*names));
			names[n] = malloc(strlen(dir) + strlen(e->d_name) + 2);
			sprintf(names[n++], "%s/%s", dir, e->d_name);
		}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), name_cmp);
	int bad = 0;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode))
			bad |= run_file(names[i]) == 0 ? (++*count, 0) : 1;
		free(names[i]);
	}
	free(names);
	return bad;
}

int main(int argc, char **argv)
{
	size_t count = 0;
	int bad = 0;
	for (int i = 1; i < argc; i++)
		bad |= run_dir(argv[i], &count);
	printf("replayed %zu inputs\n", count);
	return bad;
}
