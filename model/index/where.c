/* SPDX-License-Identifier: MIT */
/* where.c: where the persistent index of a run dir lives for this user (index.h):
 * the run dir's .tscope-index (written when this user can, read when it is there), else
 * this user's cache directory; which of the two is read when both hold parts (the one
 * that gives an open more of the run, never both: a choice kept while their files stay
 * as they are); why a write there failed; and which ranks and rank dirs each shard of a
 * run holds. */
#include "model/index/index.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/index/codec.h"
#include "model/infile.h"
#include "model/steps/steps.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

int index_mkdir_p(const char *path)
{
	char *p = xstrdup(path);
	int err = 0;
	for (char *s = p + 1; *s; s++)
		if (*s == '/') {
			*s = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST && !err)
				err = errno;
			*s = '/';
		}
	if (mkdir(p, 0755) != 0 && errno != EEXIST && !err)
		err = errno;
	free(p);
	struct stat st;
	if (stat(path, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
	return err ? err : errno;
}

enum { CACHE_NAME_MAX = 200, CACHE_NAME_KEEP = 180 }; /* bytes; a file name holds 255 */

/* The cache directory's name for the absolute path abs: each '/' as '%'. A path with a
 * '%' of its own (two paths could then give one name) or too long for a file name keeps
 * its first bytes and ends in "%%" and the CRC-32 of the whole path: no plain name has
 * "%%" (realpath has no "//"), so names of different run dirs differ (up to the CRC). */
static char *cache_name(const char *abs)
{
	char *name = xstrdup(abs);
	for (char *s = name; *s; s++)
		if (*s == '/')
			*s = '%';
	size_t len = strlen(name);
	if (!strchr(abs, '%') && len <= CACHE_NAME_MAX)
		return name;
	size_t keep = len < CACHE_NAME_KEEP ? len : CACHE_NAME_KEEP;
	while (keep && ((unsigned char)name[keep] & 0xC0) == 0x80) /* not inside a UTF-8 character */
		keep--;
	char *hashed = xasprintf("%.*s%%%%%08x", (int)keep, name, (unsigned)index_crc32(0, abs, strlen(abs)));
	free(name);
	return hashed;
}

/* This user's cache base: $XDG_CACHE_HOME when it is an absolute path (the XDG spec has a
 * relative one ignored), else ~/.cache, HOME or (unset, as under cron or `env -i`) the
 * passwd entry's home; NULL when none: never a directory shared with other users. */
static char *cache_base(void)
{
	const char *xdg = getenv("XDG_CACHE_HOME");
	if (xdg && xdg[0] == '/')
		return xstrdup(xdg);
	const char *home = getenv("HOME");
	if (!home || home[0] != '/') {
		const struct passwd *pw = getpwuid(geteuid());
		home = pw && pw->pw_dir && pw->pw_dir[0] == '/' ? pw->pw_dir : NULL;
	}
	return home ? xasprintf("%s/.cache", home) : NULL;
}

/* <cache_base()>/tscope-tui/<cache_name(absolute run dir)>; NULL (the reason into *why)
 * when this user has no cache base, or that directory exists and is another user's or
 * writable by all: its parts could be anyone's, and the index is a cache, never the truth. */
static char *cache_dir_for(const char *run_dir, const char **why)
{
	char *base = cache_base();
	if (!base) {
		*why = "this user has no cache directory (no absolute XDG_CACHE_HOME or HOME)";
		return NULL;
	}
	char *abs = realpath(run_dir, NULL);
	char *name = cache_name(abs ? abs : run_dir);
	char *dir = xasprintf("%s/tscope-tui/%s", base, name);
	free(abs);
	free(name);
	free(base);
	struct stat st;
	if (lstat(dir, &st) == 0 && (st.st_uid != geteuid() || (st.st_mode & S_IWOTH) || !S_ISDIR(st.st_mode))) {
		*why = "the cache directory is not this user's own";
		free(dir);
		return NULL;
	}
	return dir;
}

bool index_holds_parts(const char *dir)
{
	bool found = false;
	index_newest_count(dir, "steps", &found);
	if (!found)
		index_newest_count(dir, "traces", &found);
	return found;
}

/* run_dir/.tscope-index (*own) and whether it is there, and this user can write it. */
static bool own_dir(const char *run_dir, char **own, bool *exists)
{
	struct stat st;
	*own = xasprintf("%s/.tscope-index", run_dir);
	*exists = stat(*own, &st) == 0 && S_ISDIR(st.st_mode);
	return *exists ? access(*own, W_OK) == 0 : access(run_dir, W_OK) == 0;
}

/* What the index in dir gives an open of run_dir as it is now (struct index_cover). */
static struct index_cover cover_of(const char *dir, const char *run_dir)
{
	struct index_cover c = { 0 };
	struct steps_rank_file *files = NULL;
	size_t nf = index_plan(run_dir, &files), unindexed;
	struct index_part_status *v = NULL;
	size_t n = index_status(dir, run_dir, files, nf, &v);
	for (size_t i = 0; i < n; i++)
		c.ranks += v[i].why ? 0 : v[i].hi - v[i].lo;
	index_status_free(v, n);
	steps_rank_files_free(files);
	struct trace_part_status *t = NULL;
	n = trace_index_status(dir, run_dir, &t, &unindexed, NULL);
	for (size_t i = 0; i < n; i++)
		c.traces += t[i].why ? 0 : t[i].traces - t[i].changed - t[i].gone;
	trace_index_status_free(t, n);
	return c;
}

/* The files in dir as they are (each one's name, inode, size and mtime, in any order): a
 * part written, replaced or removed changes it. */
static uint64_t dir_signature(const char *dir)
{
	DIR *d = opendir(dir);
	uint64_t sig = 0;
	struct dirent *e;
	while (d && (e = readdir(d))) {
		struct stat st;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		long long id[3] = { (long long)st.st_ino, (long long)st.st_size, infile_mtime_ns(&st) };
		uint32_t lo = index_crc32(index_crc32(0, e->d_name, strlen(e->d_name)), id, sizeof(id));
		sig += (uint64_t)index_crc32(lo, id, sizeof(id)) << 32 | lo;
	}
	if (d)
		closedir(d);
	return sig;
}

/* The covers of the two places of a run's index that both hold parts, kept for their
 * files as they were (dir_signature) by the last CHOICES choices of this process. */
enum { CHOICES = 4 };
static struct choice {
	char *own, *cache;
	uint64_t own_sig, cache_sig;
	struct index_cover own_cover, cache_cover;
} choices[CHOICES];
static unsigned choice_next;
static pthread_mutex_t choice_lock = PTHREAD_MUTEX_INITIALIZER;

/* What own (run_dir/.tscope-index) and cache give an open of run_dir: true when own gives
 * more (index_dir_for() reads it then). */
static bool own_gives_more(const char *run_dir, const char *own, const char *cache, struct index_cover *oc,
			   struct index_cover *cc)
{
	uint64_t os = dir_signature(own), cs = dir_signature(cache);
	bool known = false;
	pthread_mutex_lock(&choice_lock);
	for (unsigned i = 0; i < CHOICES && !known; i++) {
		const struct choice *m = &choices[i];
		known = m->own && strcmp(m->own, own) == 0 && strcmp(m->cache, cache) == 0 && m->own_sig == os &&
			m->cache_sig == cs;
		if (known) {
			*oc = m->own_cover;
			*cc = m->cache_cover;
		}
	}
	pthread_mutex_unlock(&choice_lock);
	if (!known) { /* computed unlocked: it reads both indexes */
		*oc = cover_of(own, run_dir);
		*cc = cover_of(cache, run_dir);
		pthread_mutex_lock(&choice_lock);
		struct choice *m = &choices[choice_next++ % CHOICES];
		free(m->own);
		free(m->cache);
		*m = (struct choice){ xstrdup(own), xstrdup(cache), os, cs, *oc, *cc };
		pthread_mutex_unlock(&choice_lock);
	}
	return oc->ranks + oc->traces > cc->ranks + cc->traces;
}

/* The places of run_dir's index when this user cannot write the run dir's and both hold
 * parts: *own and *cache (malloc'd), true. Else false, *own the place read (malloc'd). */
static bool two_places(const char *run_dir, char **own, char **cache)
{
	bool exists;
	const char *why;
	*cache = NULL;
	if (own_dir(run_dir, own, &exists))
		return false;
	*cache = cache_dir_for(run_dir, &why);
	if (*cache && exists && index_holds_parts(*cache) && index_holds_parts(*own))
		return true;
	if (*cache && (!exists || index_holds_parts(*cache))) {
		free(*own);
		*own = *cache;
	} else {
		free(*cache);
	}
	*cache = NULL;
	return false;
}

char *index_dir_for(const char *run_dir)
{
	char *own, *cache;
	if (!two_places(run_dir, &own, &cache))
		return own;
	struct index_cover oc, cc;
	bool own_read = own_gives_more(run_dir, own, cache, &oc, &cc);
	free(own_read ? cache : own);
	return own_read ? own : cache;
}

char *index_dir_unread(const char *run_dir, struct index_cover *read, struct index_cover *unread)
{
	char *own, *cache;
	if (!two_places(run_dir, &own, &cache)) {
		free(own);
		return NULL;
	}
	struct index_cover oc, cc;
	bool own_read = own_gives_more(run_dir, own, cache, &oc, &cc);
	*read = own_read ? oc : cc;
	*unread = own_read ? cc : oc;
	free(own_read ? own : cache);
	return own_read ? cache : own;
}

/* Without a cache directory of this user's, the run dir's: a write there fails, and
 * index_write_failure() says why. */
char *index_write_dir_for(const char *run_dir)
{
	char *own;
	bool exists;
	const char *why;
	if (own_dir(run_dir, &own, &exists))
		return own;
	char *cache = cache_dir_for(run_dir, &why);
	if (!cache)
		return own;
	free(own);
	return cache;
}

char *index_write_failure(const char *run_dir, int err)
{
	char *own;
	bool exists;
	const char *no_cache = NULL;
	char *cache = own_dir(run_dir, &own, &exists) ? NULL : cache_dir_for(run_dir, &no_cache);
	const char *why = exists ? "the run dir's .tscope-index is not writable here" : "the run dir is not writable";
	char *s;
	if (no_cache) /* index_write_dir_for() gave the run dir's */
		s = xasprintf("%s: %s (%s, and %s: set XDG_CACHE_HOME to a writable directory of this user's)", own,
			      strerror(err), why, no_cache);
	else if (cache)
		s = xasprintf("%s: %s (%s: the index goes to $XDG_CACHE_HOME/tscope-tui, ~/.cache without it; "
			      "set XDG_CACHE_HOME to a writable directory)", cache, strerror(err), why);
	else
		s = xasprintf("%s: %s", own, strerror(err));
	free(own);
	free(cache);
	return s;
}

const char *index_read_only_note(int err)
{
	return err == EACCES || err == EROFS || err == EPERM
		       ? " (this user can only read the run's index: that work is redone at each open until someone "
			 "who can write the index opens the run)" : "";
}

size_t index_plan(const char *run_dir, struct steps_rank_file **out)
{
	size_t n = steps_plan_files(run_dir, out);
	steps_rank_files_sort(*out, n);
	return n;
}

void index_shard_slice(size_t nfiles, unsigned k, unsigned n, size_t *lo, size_t *hi)
{
	*lo = n ? (size_t)((unsigned long long)nfiles * k / n) : 0;
	*hi = n ? (size_t)((unsigned long long)nfiles * (k + 1) / n) : nfiles;
}

struct shard_dir {
	char *name;
	bool mine;
};

static int cmp_shard_dir(const void *a, const void *b)
{
	return strcmp(((const struct shard_dir *)a)->name, ((const struct shard_dir *)b)->name);
}

void index_shard_dirs(const char *run_dir, unsigned k, unsigned n, struct index_shard_dirs *out)
{
	struct steps_rank_file *files = NULL;
	size_t nf = index_plan(run_dir, &files), lo, hi;
	index_shard_slice(nf, k, n, &lo, &hi);
	struct shard_dir *v = xcalloc(nf ? nf : 1, sizeof(*v));
	for (size_t i = 0; i < nf; i++) {
		const char *slash = strrchr(files[i].dir, '/');
		v[i] = (struct shard_dir){ xstrdup(slash ? slash + 1 : files[i].dir), i >= lo && i < hi };
	}
	steps_rank_files_free(files);
	qsort(v, nf, sizeof(*v), cmp_shard_dir);
	out->n = nf;
	out->name = xcalloc(nf ? nf : 1, sizeof(*out->name));
	out->mine = xcalloc(nf ? nf : 1, sizeof(*out->mine));
	for (size_t i = 0; i < nf; i++) {
		out->name[i] = v[i].name;
		out->mine[i] = v[i].mine;
	}
	free(v);
}

int index_shard_dir_of(const struct index_shard_dirs *s, const char *name)
{
	size_t lo = 0, hi = s->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(s->name[mid], name);
		if (c == 0)
			return s->mine[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

void index_shard_dirs_free(struct index_shard_dirs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->name[i]);
	free(s->name);
	free(s->mine);
	memset(s, 0, sizeof(*s));
}

