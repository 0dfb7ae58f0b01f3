/* SPDX-License-Identifier: MIT */
/* wfile.c: an index file written through a temporary file beside it (codec.h struct
 * index_wfile; index.h index_file_write): opened with the header's place kept (around
 * the page cache for `tscope-tui index`: index_write_direct), streamed into, then its
 * header written and the file renamed into place, or removed. Its mode shows no more
 * than the run does (file_mode): in RUN_DIR/.tscope-index, 0600 and the group and other
 * read that the run dir and every source this process's index files summarize all grant
 * (index_note_source: each rank dir and each file read); in this user's cache, which no
 * other user reads (where.c), 0600; the umask applies as well. A source's group read is
 * for its group: unless every source grants other read too, the file keeps group read
 * only when every source that grants it has one group, which the file then has (given
 * it when it has another and this user may: else no group read). A source that grants
 * other read but not group read shuts its group out: it grants neither for the file. */
#include "model/index/codec.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/index.h"
#include "model/index/tmpfile.h"
#include "model/xalloc.h"

static bool write_direct;

void index_write_direct(bool on)
{
	write_direct = on;
}

/* The group and other read bits every source noted so far grants: one set for the
 * process, which only narrows (two runs' sources narrow it alike). */
static _Atomic unsigned sources_shown = S_IRGRP | S_IROTH;

/* The group of every source noted so far that grants group read: NO_GROUP before the
 * first, MIXED_GROUPS once two differ. */
#define NO_GROUP (-1LL)
#define MIXED_GROUPS (-2LL)
static _Atomic long long sources_group = NO_GROUP;

static void note_group(gid_t gid)
{
	long long was = NO_GROUP;
	if (!atomic_compare_exchange_strong(&sources_group, &was, (long long)gid) && was != (long long)gid)
		atomic_store(&sources_group, MIXED_GROUPS);
}

/* Narrow sources_shown to what path grants (other read counts only with group read:
 * without it the file's group is shut out) and note the group it grants read to:
 * nothing when it cannot be stat'ed, unless it is absent (a run.json that is not there
 * is no source). */
static void note_path(const char *path)
{
	struct stat st;
	unsigned bits = 0;
	if (stat(path, &st) == 0)
		bits = st.st_mode & S_IRGRP ? st.st_mode & (S_IRGRP | S_IROTH) : 0;
	else if (errno == ENOENT)
		return;
	if (bits & S_IRGRP)
		note_group(st.st_gid);
	atomic_fetch_and(&sources_shown, bits);
}

void index_note_source(const char *path)
{
	note_path(path);
	const char *slash = strrchr(path, '/');
	if (!slash)
		return;
	char *dir = slash == path ? xstrdup("/") : xstrndup(path, (size_t)(slash - path));
	note_path(dir);
	free(dir);
}

/* What an index file may show: its mode, and the group its group read is for (any when
 * it grants other read too). */
struct file_shown {
	mode_t mode;
	gid_t gid;
};

/* What the index file path may show (index.h's layout): in RUN_DIR/.tscope-index/, 0600
 * and the group and other read bits of RUN_DIR (none when it cannot be read) that every
 * source noted grants too, for the group of the sources that grant group read (RUN_DIR's
 * when none was noted; no group read when they have several); elsewhere (this user's
 * cache) 0600. */
static struct file_shown file_mode(const char *path)
{
	static const char own[] = "/.tscope-index/";
	size_t olen = sizeof(own) - 1;
	const char *name = strrchr(path, '/');
	struct file_shown fs = { 0600, 0 };
	if (!name || (size_t)(name - path) + 1 < olen || strncmp(name + 1 - olen, own, olen) != 0)
		return fs;
	size_t run_len = (size_t)(name + 1 - olen - path);
	char *run_dir = run_len ? xstrndup(path, run_len) : xstrdup("/");
	struct stat st;
	mode_t shown = (mode_t)atomic_load(&sources_shown);
	if (stat(run_dir, &st) == 0) {
		long long group = atomic_load(&sources_group);
		fs.mode |= st.st_mode & shown;
		fs.gid = group >= 0 ? (gid_t)group : st.st_gid;
		if (group == MIXED_GROUPS && !(fs.mode & S_IROTH))
			fs.mode &= ~(mode_t)S_IRGRP; /* no one group reads every source */
	}
	free(run_dir);
	return fs;
}

/* The file's mode narrowed to fs (a temporary file an earlier process of the same id
 * left keeps its mode through O_CREAT), and its group read kept only for fs's group:
 * the file given that group, or no group read. Returns 0 or an errno. */
static int narrow_mode(int fd, struct file_shown fs)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return errno;
	mode_t mode = fs.mode;
	if ((mode & S_IRGRP) && !(mode & S_IROTH) && st.st_gid != fs.gid && fchown(fd, (uid_t)-1, fs.gid) != 0)
		mode &= ~(mode_t)S_IRGRP;
	if (!(st.st_mode & 0777 & ~mode))
		return 0;
	return fchmod(fd, st.st_mode & 0777 & mode) != 0 ? errno : 0;
}

int index_file_begin(struct index_wfile *w, const char *path)
{
	memset(w, 0, sizeof(*w));
	w->path = xstrdup(path);
	w->tmp = index_tmp_begin(path);
	int flags = O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC;
	struct file_shown fs = file_mode(path);
	w->fd = write_direct ? open(w->tmp, flags | O_DIRECT, fs.mode) : -1;
	if (w->fd < 0)
		w->fd = open(w->tmp, flags, fs.mode);
	int err = w->fd < 0 ? errno : narrow_mode(w->fd, fs);
	if (!err && lseek(w->fd, INDEX_HEADER_LEN, SEEK_SET) < 0)
		err = errno;
	if (!err) {
		index_tmp_hold(w->fd);
		ob_stream(&w->o, w->fd);
		return 0;
	}
	index_file_end(w, false);
	return err;
}

/* The header of what was streamed into w->o (bodies, then the head from its ob_head()
 * on), written at the file's start; every byte out; the mode narrowed by the sources
 * noted since the file was opened. Returns 0 or an errno. */
static int file_seal(struct index_wfile *w)
{
	struct obuf *o = &w->o;
	if (!o->head_on)
		ob_head(o); /* a fill that stopped early: its error fails the write */
	uint64_t end = o->written + o->n;
	uint32_t hcrc = ob_sum_end(o);
	unsigned char hdr[INDEX_HEADER_LEN];
	index_header_put(hdr, end, o->head_at, end - o->head_at, hcrc);
	ob_pwrite(o, hdr, INDEX_HEADER_LEN, 0);
	int err = ob_finish(o);
	return err ? err : narrow_mode(w->fd, file_mode(w->path));
}

int index_file_end(struct index_wfile *w, bool keep)
{
	int err = 0;
	if (w->fd >= 0) {
		err = keep ? file_seal(w) : 0;
		ob_free(&w->o);
		if (close(w->fd) != 0 && keep && !err)
			err = errno;
		if (keep && !err && rename(w->tmp, w->path) != 0)
			err = errno;
		if (!keep || err)
			unlink(w->tmp);
	}
	index_tmp_end(w->tmp);
	free(w->path);
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	return err;
}

int index_file_write(const char *path, void (*fill)(struct obuf *o, void *ud), void *ud)
{
	struct index_wfile w;
	int err = index_file_begin(&w, path);
	if (err)
		return err;
	fill(&w.o, ud);
	return index_file_end(&w, true);
}
