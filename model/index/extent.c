/* SPDX-License-Identifier: MIT */
/* extent.c: per-rank source extents of the index parts (see extent.h): recording how
 * far a steps.jsonl was parsed and judging whether the file now only grew. */
#include "model/index/extent.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/index/index.h"
#include "model/infile.h"
#include "model/run.h"
#include "model/xalloc.h"

/* CRC-32 of [off, off + len) of fd; false when it cannot all be read. */
static bool crc_range(int fd, long long off, size_t len, uint32_t *out)
{
	unsigned char buf[EXTENT_WINDOW];
	if (!index_pread_all(fd, buf, len, off))
		return false;
	*out = index_crc32(0, buf, len);
	return true;
}

static size_t window(long long covered)
{
	return covered < EXTENT_WINDOW ? (size_t)covered : EXTENT_WINDOW;
}

/* A covered prefix this short is read whole: both windows in one call (a rank of a
 * few steps). */
#define WINDOWS_WHOLE (4 * EXTENT_WINDOW)

/* CRC-32 of [off, off + len) from mem when it holds those bytes. */
static bool crc_mem(const struct extent_mem *mem, long long off, size_t len, uint32_t *out)
{
	if (!mem || !mem->p || off < mem->off || off + (long long)len > mem->off + (long long)mem->len)
		return false;
	*out = index_crc32(0, (const unsigned char *)mem->p + (off - mem->off), len);
	return true;
}

/* The windows of the covered prefix of fd, from mem where it holds them. */
static bool windows(int fd, const struct extent_mem *mem, long long covered, uint32_t *head, uint32_t *tail)
{
	size_t w = window(covered);
	bool have_head = crc_mem(mem, 0, w, head), have_tail = crc_mem(mem, covered - (long long)w, w, tail);
	if (have_head && have_tail)
		return true;
	if (covered <= WINDOWS_WHOLE) {
		unsigned char buf[WINDOWS_WHOLE];
		if (!index_pread_all(fd, buf, (size_t)covered, 0))
			return false;
		*head = index_crc32(0, buf, w);
		*tail = index_crc32(0, buf + covered - (long long)w, w);
		return true;
	}
	return (have_head || crc_range(fd, 0, w, head)) && (have_tail || crc_range(fd, covered - (long long)w, w, tail));
}

/* The latest pytscope source of path: its index in run->src, or -1. */
static long source_of(const struct run *run, const char *path)
{
	long found = -1;
	pthread_mutex_lock((pthread_mutex_t *)&run->lock);
	for (size_t i = run->nsrc; i-- > 0 && found < 0;) {
		const struct source *s = &run->src[i];
		if (s->format && strcmp(s->format, "pytscope") == 0 && strcmp(s->path, path) == 0)
			found = (long)i;
	}
	pthread_mutex_unlock((pthread_mutex_t *)&run->lock);
	return found;
}

/* The size the source read and the bytes of complete lines it parsed. */
static bool source_extent(const struct run *run, long src, long long *size, long long *covered)
{
	if (src < 0)
		return false;
	pthread_mutex_lock((pthread_mutex_t *)&run->lock);
	const struct source *s = &run->src[src];
	*size = s->bytes;
	*covered = s->err || s->consumed > s->bytes ? -1 : s->consumed;
	pthread_mutex_unlock((pthread_mutex_t *)&run->lock);
	return true;
}

static void put_extent(struct obuf *o, const struct index_extent *e)
{
	unsigned char b[4 * 10 + 8]; /* put at once (col_encode, store_index.c) */
	size_t k = ob_sleb(b, e->size);
	k += ob_sleb(b + k, e->mtime_ns);
	k += ob_sleb(b + k, e->ino);
	k += ob_sleb(b + k, e->covered);
	ob_le32(b + k, e->head_crc);
	ob_le32(b + k + 4, e->tail_crc);
	ob_bytes(o, b, k + 8);
}

void extent_put(struct obuf *o, const struct run *run, const char *steps)
{
	extent_put_src(o, run, steps, source_of(run, steps));
}

void extent_stamp(struct run *run, size_t src, int fd, const struct stat *st, const struct extent_mem *mem)
{
	long long size, covered;
	if (!source_extent(run, (long)src, &size, &covered))
		return;
	struct source_stamp s = { .set = true, .size = size, .mtime_ns = infile_mtime_ns(st),
				  .ino = (long long)st->st_ino, .consumed = covered };
	if (size < 0 || size > (long long)st->st_size) /* extent_put_src() judges the file as it is then */
		return;
	s.windows = covered >= 0 && covered <= (long long)st->st_size &&
		    windows(fd, mem, covered, &s.head_crc, &s.tail_crc);
	pthread_mutex_lock(&run->lock);
	run->src[src].stamp = s;
	pthread_mutex_unlock(&run->lock);
}

/* The extent src's stamp gives, when the source still reads as stamped. */
static bool stamped_extent(const struct run *run, long src, struct index_extent *e)
{
	if (src < 0)
		return false;
	pthread_mutex_lock((pthread_mutex_t *)&run->lock);
	const struct source *so = &run->src[src];
	struct source_stamp s = so->stamp;
	long long covered = so->err || so->consumed > so->bytes ? -1 : so->consumed; /* source_extent's */
	bool ok = s.set && so->bytes == s.size && covered == s.consumed;
	pthread_mutex_unlock((pthread_mutex_t *)&run->lock);
	if (!ok)
		return false;
	*e = (struct index_extent){ .size = s.size, .mtime_ns = s.mtime_ns, .ino = s.ino, .covered = -1 };
	if (s.windows) {
		e->covered = s.consumed;
		e->head_crc = s.head_crc;
		e->tail_crc = s.tail_crc;
	}
	return true;
}

void extent_put_src(struct obuf *o, const struct run *run, const char *steps, long src)
{
	struct index_extent e = { .size = -1, .covered = -1 };
	if (stamped_extent(run, src, &e)) {
		put_extent(o, &e);
		return;
	}
	int fd = infile_open(steps); /* a FIFO put there since the load: refused, not waited for */
	struct stat st;
	if (fd < 0 && (errno == EACCES || errno == EPERM) && stat(steps, &st) == 0) /* what a plain load gets too */
		e = (struct index_extent){ .size = (long long)st.st_size, .mtime_ns = infile_mtime_ns(&st),
					   .ino = (long long)st.st_ino, .covered = EXTENT_UNREADABLE };
	if (fd >= 0 && fstat(fd, &st) == 0) {
		e.size = (long long)st.st_size;
		e.mtime_ns = infile_mtime_ns(&st);
		e.ino = (long long)st.st_ino;
		long long size, covered;
		/* the size the parse read, not the size now: a file that grew meanwhile is GREW
		 * at the next open, and its new bytes are parsed then */
		/* (a source that claims more than the file holds is not this file's read: the
		 * file's own stamp then, and no resuming) */
		if (source_extent(run, src, &size, &covered) && size >= 0 && size <= (long long)st.st_size) {
			e.size = size;
			if (covered >= 0 && covered <= (long long)st.st_size &&
			    windows(fd, NULL, covered, &e.head_crc, &e.tail_crc))
				e.covered = covered;
		}
	}
	if (fd >= 0)
		close(fd);
	put_extent(o, &e);
}

void extent_get(struct ibuf *b, struct index_extent *e)
{
	e->size = ib_svar(b);
	e->mtime_ns = ib_svar(b);
	e->ino = ib_svar(b);
	e->covered = ib_svar(b);
	e->head_crc = ib_u32(b);
	e->tail_crc = ib_u32(b);
}

/* This process's effective uid and gid and its groups (getgroups), read once. */
static struct {
	pthread_once_t once;
	uid_t uid;
	gid_t gid, *v;
	int n;
} me = { .once = PTHREAD_ONCE_INIT };

static void me_read(void)
{
	me.uid = geteuid();
	me.gid = getegid();
	int n = getgroups(0, NULL);
	me.v = xmalloc((n > 0 ? (size_t)n : 1) * sizeof(*me.v));
	me.n = n > 0 ? getgroups(n, me.v) : 0;
	if (me.n < 0)
		me.n = 0;
}

/* The mode bits let this process read a file of st's owner and mode. */
static bool mode_allows(const struct stat *st)
{
	pthread_once(&me.once, me_read);
	if (st->st_uid == me.uid)
		return (st->st_mode & S_IRUSR) != 0;
	bool member = st->st_gid == me.gid;
	for (int i = 0; i < me.n && !member; i++)
		member = me.v[i] == st->st_gid;
	return (st->st_mode & (member ? S_IRGRP : S_IROTH)) != 0;
}

bool extent_may_read(const char *path, const struct stat *st)
{
	if (mode_allows(st))
		return true;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC); /* root, an ACL: the open tells */
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/* A file its writer could not open (EXTENT_UNREADABLE) against the file now. */
static enum extent_state check_unreadable(const struct index_extent *e, const char *steps, const struct stat *st)
{
	if ((long long)st->st_size != e->size || infile_mtime_ns(st) != e->mtime_ns)
		return EXTENT_STALE;
	int fd = open(steps, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* rare: the mode bits may not tell (root squashed) */
	if (fd < 0)
		return EXTENT_SAME;
	close(fd);
	return EXTENT_READABLE;
}

enum extent_state extent_check(const struct index_extent *e, const char *steps)
{
	struct stat st;
	if (stat(steps, &st) != 0)
		return e->size < 0 ? EXTENT_SAME : errno == ENOENT ? EXTENT_GONE : EXTENT_DENIED;
	if (e->covered == EXTENT_UNREADABLE)
		return check_unreadable(e, steps, &st);
	if (e->size >= 0 && !extent_may_read(steps, &st))
		return EXTENT_DENIED;
	long long size = (long long)st.st_size;
	long long mtime = infile_mtime_ns(&st);
	if (size == e->size && mtime == e->mtime_ns)
		return EXTENT_SAME;
	if (e->size < 0 || e->covered < 0 || (long long)st.st_ino != e->ino || size <= e->size ||
	    !S_ISREG(st.st_mode))
		return EXTENT_STALE;
	int fd = open(steps, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return EXTENT_STALE;
	uint32_t head, tail;
	bool same = windows(fd, NULL, e->covered, &head, &tail) && head == e->head_crc && tail == e->tail_crc;
	close(fd);
	return same ? EXTENT_GREW : EXTENT_STALE;
}

bool extent_read_part(const char *path, const char *base, unsigned part_k, unsigned part_n,
		      struct index_file_id *id, long **ids, struct index_extent **ext, size_t *n)
{
	unsigned char *head;
	size_t len;
	*ids = NULL;
	*ext = NULL;
	*n = 0;
	if (index_head_read(path, &head, &len, id))
		return false;
	struct ibuf b = { head, len, 0, false };
	bool same = ib_u32(&b) == part_k && ib_u32(&b) == part_n;
	size_t k = same ? ib_count(&b, 17) : 0;
	*ids = xmalloc((k ? k : 1) * sizeof(**ids));
	*ext = xmalloc((k ? k : 1) * sizeof(**ext));
	for (size_t i = 0; i < k && !b.bad; i++) {
		(*ids)[i] = (long)ib_svar(&b);
		free(ib_path(&b, base));
		extent_get(&b, &(*ext)[i]);
		ib_svar(&b); /* run.json's stamp */
		ib_svar(&b);
	}
	free(head);
	*n = k;
	return same && !b.bad;
}
