/* SPDX-License-Identifier: MIT */
/* damage.c: an index file an open found damaged after it was opened (a rank's body, a
 * delta segment, a summary row that fails its checksum or was cut short): invalidating
 * it in place, and what the diagnostic says became of it (index.h). */
#include "model/index/index.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/text.h"
#include "model/xalloc.h"

/* The file open on fd becomes an invalidated one: its header alone, marked
 * (INDEX_INVALID_MARK), which every later read of it names. 0 or an errno. */
static int mark_invalid(int fd)
{
	unsigned char h[INDEX_HEADER_LEN];
	index_header_put(h, 0, 0, 0, 0);
	uint32_t mark = INDEX_INVALID_MARK;
	memcpy(h + INDEX_HEADER_LEN - sizeof(mark), &mark, sizeof(mark));
	ssize_t k = pwrite(fd, h, sizeof(h), 0);
	if (k < 0)
		return errno;
	if (k != (ssize_t)sizeof(h))
		return EIO;
	return ftruncate(fd, INDEX_HEADER_LEN) == 0 ? 0 : errno;
}

int index_file_invalidate(const char *path, long long ino)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? INDEX_REPLACED : errno;
	struct stat st;
	int err = INDEX_REPLACED;
	if (fstat(fd, &st) == 0 && (long long)st.st_ino == ino)
		err = mark_invalid(fd);
	close(fd);
	return err;
}

const char *index_damage_note(int err, bool summary)
{
	if (err == INDEX_REPLACED)
		return summary ? "the summary was replaced or removed since this open read it (the next open reads "
				 "what is there)"
			       : "the part was replaced or removed since this open read it (the next open reads what "
				 "is there)";
	if (!err)
		return summary ? "the summary is invalidated (the next open rewrites it)"
			       : "the part is invalidated (the next open rebuilds it)";
	return summary ? "the summary stays as it is (this user cannot write it: each open computes the rows again "
			 "until `tscope-tui index --force` builds an index this user can write)"
		       : "the part stays as it is (this user cannot write it: each open reads its ranks from the "
			 "JSONL again until `tscope-tui index --force` builds an index this user can write)";
}

char *index_part_damage_note(int err, const char *path, const char *run_dir)
{
	const char *name = strrchr(path, '/');
	name = name ? name + 1 : path;
	unsigned k, n;
	int end = 0;
	bool shard = sscanf(name, "steps-%u-of-%u.tsx%n", &k, &n, &end) == 2 && end > 0 && !name[end] && n > 1;
	if (!err && strstr(name, ".delta-"))
		return xstrdup("the delta is invalidated (the next open drops it and reads its records from the "
			       "JSONL)");
	if (err || !shard)
		return xstrdup(index_damage_note(err, false));
	char *run = text_shell_word_dup(run_dir);
	char *note = xasprintf("the part is invalidated: no open rebuilds a shard, `tscope-tui index --shard %u/%u %s` "
			       "does (`tscope-tui index %s` the whole index); until then each open reads its ranks "
			       "from the JSONL", k, n, run, run);
	free(run);
	return note;
}
