/* SPDX-License-Identifier: MIT */
/* dirlist.c: directory listings and small files, memoized inside a scope (see dirlist.h). */
#include "model/dirlist.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/infile.h"
#include "model/xalloc.h"

struct slot {
	char *key;           /* a directory, or a memo's tag and path */
	struct dirlist *l;   /* listings: NULL when the directory could not be read */
	int val;             /* memos; files: the errno when data is NULL */
	char *data;          /* files: the whole file */
	size_t len;
	bool busy;           /* being read by one thread (the others wait on `ready`) */
};

struct table {
	struct slot *v;      /* open addressing, power-of-two size */
	size_t size, used;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;   /* a busy slot was filled */
static bool in_scope;
static struct table lists, memos, files;
static atomic_size_t reads, file_reads;

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct dirlist_entry *)a)->name, ((const struct dirlist_entry *)b)->name);
}

static enum dirent_kind kind_of(const char *dir, const struct dirent64 *e)
{
	if (e->d_type == DT_REG)
		return DIRENT_FILE;
	if (e->d_type == DT_DIR)
		return DIRENT_DIR;
	if (e->d_type != DT_LNK && e->d_type != DT_UNKNOWN)
		return DIRENT_OTHER;
	char *p = xasprintf("%s/%s", dir, e->d_name);
	struct stat st;
	enum dirent_kind k = stat(p, &st) != 0 ? DIRENT_OTHER
			     : S_ISREG(st.st_mode) ? DIRENT_FILE : S_ISDIR(st.st_mode) ? DIRENT_DIR : DIRENT_OTHER;
	free(p);
	return k;
}

/* The entries are read with getdents64 into a buffer on the stack: opendir() costs an
 * fstat and a 32 KB buffer per directory, per rank dir of a big run. A read error ends
 * the listing with what was read (as readdir() did). */
static struct dirlist *list_read(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	atomic_fetch_add(&reads, 1);
	struct dirlist *l = xcalloc(1, sizeof(*l));
	size_t cap = 0;
	uint64_t buf[1024];   /* 8 KB, aligned for struct dirent64 */
	ssize_t got;
	while ((got = getdents64(fd, buf, sizeof(buf))) > 0)
		for (ssize_t off = 0; off < got;) {
			const struct dirent64 *e = (const struct dirent64 *)((const char *)buf + off);
			off += e->d_reclen;
			if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
				continue;
			xgrow((void **)&l->v, &cap, l->n + 1, sizeof(*l->v));
			l->v[l->n++] = (struct dirlist_entry){ xstrdup(e->d_name), kind_of(dir, e) };
		}
	close(fd);
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), cmp_entry);
	return l;
}

static void list_free(struct dirlist *l)
{
	for (size_t i = 0; l && i < l->n; i++)
		free(l->v[i].name);
	if (l)
		free(l->v);
	free(l);
}

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

static struct slot *find(struct table *t, const char *key)
{
	size_t i = hash(key) & (t->size - 1);
	while (t->v[i].key && strcmp(t->v[i].key, key) != 0)
		i = (i + 1) & (t->size - 1);
	return &t->v[i];
}

/* The slot of key, added (empty) when new; under the lock. */
static struct slot *slot_of(struct table *t, const char *key, bool *added)
{
	if ((t->used + 1) * 2 > t->size) {
		struct slot *old = t->v;
		size_t n = t->size;
		t->size = n ? n * 2 : 1024;
		t->v = xcalloc(t->size, sizeof(*t->v));
		for (size_t i = 0; i < n; i++)
			if (old[i].key)
				*find(t, old[i].key) = old[i];
		free(old);
	}
	struct slot *s = find(t, key);
	*added = !s->key;
	if (*added) {
		s->key = xstrdup(key);
		t->used++;
	}
	return s;
}

static void table_clear(struct table *t)
{
	for (size_t i = 0; i < t->size; i++) {
		free(t->v[i].key);
		free(t->v[i].data);
		list_free(t->v[i].l);
	}
	free(t->v);
	*t = (struct table){ 0 };
}

/* Under the lock: s is filled, wake whoever waits for it. */
static void slot_done(struct slot *s)
{
	s->busy = false;
	pthread_cond_broadcast(&ready);
}

struct dirlist *dirlist_open(const char *dir)
{
	pthread_mutex_lock(&lock);
	if (!in_scope) {
		pthread_mutex_unlock(&lock);
		return list_read(dir);
	}
	bool added;
	struct slot *s = slot_of(&lists, dir, &added);
	if (added) {   /* read by this thread alone, outside the lock: others list other dirs */
		s->busy = true;
		pthread_mutex_unlock(&lock);
		struct dirlist *l = list_read(dir);
		if (l)
			l->cached = true;
		pthread_mutex_lock(&lock);
		s = find(&lists, dir);   /* the table may have grown meanwhile */
		s->l = l;
		slot_done(s);
	}
	while ((s = find(&lists, dir))->busy)
		pthread_cond_wait(&ready, &lock);
	struct dirlist *l = s->l;
	pthread_mutex_unlock(&lock);
	return l;
}

void dirlist_close(struct dirlist *l)
{
	if (l && !l->cached)
		list_free(l);
}

void dirlist_scope_begin(void)
{
	pthread_mutex_lock(&lock);
	in_scope = true;
	pthread_mutex_unlock(&lock);
}

void dirlist_scope_end(void)
{
	pthread_mutex_lock(&lock);
	table_clear(&lists);
	table_clear(&memos);
	table_clear(&files);
	in_scope = false;
	pthread_mutex_unlock(&lock);
}

static char *memo_key(const void *tag, const char *path)
{
	return xasprintf("%p\t%s", tag, path);
}

bool dirlist_memo_claim(const void *tag, const char *path, int *out)
{
	bool hit = false;
	pthread_mutex_lock(&lock);
	if (in_scope) {
		char *k = memo_key(tag, path);
		bool added;
		struct slot *s = slot_of(&memos, k, &added);
		if (added) {
			s->busy = true;   /* this caller computes it */
		} else {
			while ((s = find(&memos, k))->busy)
				pthread_cond_wait(&ready, &lock);
			*out = s->val;
			hit = true;
		}
		free(k);
	}
	pthread_mutex_unlock(&lock);
	return hit;
}

void dirlist_memo_put(const void *tag, const char *path, int v)
{
	pthread_mutex_lock(&lock);
	if (in_scope) {
		char *k = memo_key(tag, path);
		bool added;
		struct slot *s = slot_of(&memos, k, &added);
		s->val = v;
		slot_done(s);
		free(k);
	}
	pthread_mutex_unlock(&lock);
}

size_t dirlist_reads(void)
{
	return atomic_load(&reads);
}

/* Up to n bytes of the open file fd (of size `size` at open: no more is read, so a
 * small file takes one read; 0: to the end, as /proc files say 0) in a new
 * NUL-terminated buffer; NULL with errno on a read error. */
static char *read_fd(int fd, size_t size, size_t n, size_t *len)
{
	size_t cap = (size < n ? size : n) + 1, got = 0;
	char *buf = xmalloc(cap);
	for (;;) {
		if (got + 1 == cap) {
			if (got >= n)
				break;
			cap = cap > n / 2 ? n + 1 : cap * 2; /* the file grew */
			buf = xrealloc(buf, cap);
		}
		ssize_t r = read(fd, buf + got, cap - 1 - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			free(buf);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		got += (size_t)r;
		if (size && got >= size)
			break;
	}
	buf[got] = '\0';
	*len = got;
	return buf;
}

/* Open and read path: all of it when keep is set and it is small (*whole), else its
 * first n bytes. NULL and errno when it cannot be opened or read. */
static char *read_file(const char *path, size_t n, size_t *len, bool keep, bool *whole)
{
	*whole = false;
	struct stat st;
	int fd = infile_open_st(path, &st);
	if (fd < 0)
		return NULL;
	atomic_fetch_add(&file_reads, 1);
	size_t size = st.st_size > 0 ? (size_t)st.st_size : 0;
	*whole = keep && size <= DIRLIST_SMALL;
	char *buf = read_fd(fd, size, *whole ? DIRLIST_SMALL + 1 : n, len);
	int e = errno;
	close(fd);
	if (buf && *whole && *len > DIRLIST_SMALL) /* grew past small: not kept */
		*whole = false;
	errno = e;
	return buf;
}

/* A copy of the first n bytes of data[0..len). */
static char *head_copy(const char *data, size_t len, size_t n, size_t *out)
{
	*out = len < n ? len : n;
	char *c = xmalloc(*out + 1);
	memcpy(c, data, *out);
	c[*out] = '\0';
	return c;
}

char *dirlist_read(const char *path, size_t n, size_t *len)
{
	bool whole;
	pthread_mutex_lock(&lock);
	if (!in_scope) {
		pthread_mutex_unlock(&lock);
		return read_file(path, n, len, false, &whole);
	}
	bool added;
	struct slot *s = slot_of(&files, path, &added);
	if (added) { /* opened by this thread alone, outside the lock: others read other files */
		s->busy = true;
		pthread_mutex_unlock(&lock);
		size_t got = 0;
		char *buf = read_file(path, n, &got, true, &whole);
		int e = errno;
		pthread_mutex_lock(&lock);
		s = find(&files, path);   /* the table may have grown meanwhile */
		s->val = !buf ? e : whole ? 0 : -1;   /* -1: large, read each time */
		s->data = whole ? buf : NULL;
		s->len = whole ? got : 0;
		slot_done(s);
		if (buf && !whole) {
			pthread_mutex_unlock(&lock);
			*len = got;
			return buf;
		}
	}
	while ((s = find(&files, path))->busy)
		pthread_cond_wait(&ready, &lock);
	if (s->val == -1) {
		pthread_mutex_unlock(&lock);
		return read_file(path, n, len, false, &whole);
	}
	int e = s->val;
	char *c = s->data ? head_copy(s->data, s->len, n, len) : NULL;
	pthread_mutex_unlock(&lock);
	errno = e;
	return c;
}

size_t dirlist_file_reads(void)
{
	return atomic_load(&file_reads);
}
