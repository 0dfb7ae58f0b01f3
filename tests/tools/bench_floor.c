/* SPDX-License-Identifier: MIT */
/* bench_floor.c: the kernel's floor under a per-rank load, for tests/bench_ranks.sh.
 *   bench_floor RUN   -> "ranks=N files=F bytes=B"
 * Lists RUN once, then for every entry named rank* opens, reads to the end and closes
 * its run.json and steps.jsonl (openat relative to RUN, one 1 MiB buffer, reads until
 * a short read: a regular file ends there). No parsing, no allocation per rank: what
 * any loader of these files must at least pay in system calls and page-cache copies,
 * printed beside tscope-tui's own CPU seconds over the same dirs. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define FLOOR_BUF (1 << 20)

static char buf[FLOOR_BUF];

/* Bytes of DIR/NAME read to its end, -1 when it cannot be opened. */
static long long read_all(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	long long total = 0;
	ssize_t n;
	while ((n = read(fd, buf, sizeof buf)) > 0) {
		total += n;
		if (n < (ssize_t)sizeof buf)
			break;
	}
	close(fd);
	return total;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: bench_floor RUN\n");
		return 2;
	}
	DIR *d = opendir(argv[1]);
	if (!d) {
		perror(argv[1]);
		return 1;
	}
	int dfd = dirfd(d);
	long ranks = 0, files = 0;
	long long bytes = 0;
	const struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "rank", 4) != 0)
			continue;
		ranks++;
		static const char *const names[] = { "run.json", "steps.jsonl" };
		for (size_t i = 0; i < 2; i++) {
			char path[512];
			snprintf(path, sizeof path, "%s/%s", e->d_name, names[i]);
			long long n = read_all(dfd, path);
			if (n >= 0) {
				files++;
				bytes += n;
			}
		}
	}
	closedir(d);
	printf("ranks=%ld files=%ld bytes=%lld\n", ranks, files, bytes);
	return 0;
}
