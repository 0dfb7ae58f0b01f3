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
#include "model/asan.h"
#include "model/infile.h"
#include "model/xalloc.h"

struct slot {
	char *key;           /* a directory, or a memo's tag and path */
	size_t hash;         /* of key: a probe compares it before the strings */
	struct dirlist *l;   /* listings: NULL when the directory could not be read */
	int val;             /* memos; files: the errno when data is NULL */
	char *data;          /* files: the whole file (scope memory), or (head) its first len
			      * bytes (the read's own buffer, freed at the scope's end) */
	size_t len;
	bool head;
	struct dirlist_stamp stamp; /* files: at the open data came from */
	bool busy;           /* being read by one thread (the others wait on `ready`) */
};

struct table {
	struct slot *v;      /* open addressing, power-of-two size */
	size_t size, used;
};

/* A scope's keys, listings and kept files are bump-allocated in chunks and go all at
 * once when it ends: a big run's scope holds ~5 small blocks a rank directory, and
 * freeing them one by one cost more than taking them (cold headers, and fast bins the
 * next large malloc() then had to consolidate). */
struct chunk {
	struct chunk *next;
	size_t used, cap;
	max_align_t mem[];
};

#define CHUNK_BYTES ((size_t)64 << 10)

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;   /* a busy slot was filled */
static bool in_scope;
static struct table lists, memos, files;
static struct chunk *chunks;   /* the scope's memory, newest first */
static atomic_size_t reads, file_reads;
static size_t head_bytes;      /* the scope's large files' heads kept (DIRLIST_HEADS) */

/* Directories a scope keeps open: each one listed in it whose entries include
 * directories (a run dir, up to DIRLIST_BASES), so that the listings and files under it
 * are opened relative to it and the kernel walks only the rest of their path (a run of
 * 10,000 rank dirs on a cluster path of seven components: five lookups less for each
 * rank dir's listing and run.json; about 3% of a `--print`, BENCHMARKS.md). Each fd
 * stays valid until dirlist_scope_end(). */
#define DIRLIST_BASES 8
struct base {
	char *path;          /* as listed (scope memory) */
	size_t len;
	int fd;
};
static struct base bases[DIRLIST_BASES];
static size_t nbases;

/* n bytes of the scope's memory; under the lock. A block larger than a chunk gets a
 * chunk of its own, behind the current one (whose room stays in use). Under ASan a
 * chunk is poisoned but for the blocks handed out (asan.h). */
static void *scope_alloc(size_t n)
{
	const size_t align = sizeof(max_align_t);
	size_t take = (n + ASAN_REDZONE + align - 1) / align * align;
	struct chunk *c = chunks;
	if (!c || c->cap - c->used < take) {
		size_t cap = take > CHUNK_BYTES ? take : CHUNK_BYTES;
		c = xmalloc(sizeof(*c) + cap);
		*c = (struct chunk){ .cap = cap };
		asan_poison(c->mem, cap);
		if (chunks && take > CHUNK_BYTES) {
			c->next = chunks->next;
			chunks->next = c;
		} else {
			c->next = chunks;
			chunks = c;
		}
	}
	void *p = (char *)c->mem + c->used;
	c->used += take;
	asan_unpoison(p, n);
	return p;
}

/* scope_alloc() outside the lock (a listing is read outside it). */
static void *scope_alloc_locked(size_t n)
{
	pthread_mutex_lock(&lock);
	void *p = scope_alloc(n);
	pthread_mutex_unlock(&lock);
	return p;
}

static void scope_free_all(void)
{
	while (chunks) {
		struct chunk *next = chunks->next;
		asan_unpoison(chunks->mem, chunks->cap);
		free(chunks);
		chunks = next;
	}
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct dirlist_entry *)a)->name, ((const struct dirlist_entry *)b)->name);
}

/* The kind of entry e of the directory open as fd: from d_type, else (a link, or a file
 * system that does not say) one stat relative to fd, following links. */
static enum dirent_kind kind_of(int fd, const struct dirent64 *e)
{
	if (e->d_type == DT_REG)
		return DIRENT_FILE;
	if (e->d_type == DT_DIR)
		return DIRENT_DIR;
	if (e->d_type != DT_LNK && e->d_type != DT_UNKNOWN)
		return DIRENT_OTHER;
	struct stat st;
	return fstatat(fd, e->d_name, &st, 0) != 0 ? DIRENT_OTHER
	       : S_ISREG(st.st_mode) ? DIRENT_FILE : S_ISDIR(st.st_mode) ? DIRENT_DIR : DIRENT_OTHER;
}

static bool dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2]));
}

/* The records getdents64 gave for fd, *used bytes, in buf (a stack buffer of cap bytes)
 * or, when they do not fit, a new heap buffer. A read error ends them (as readdir()
 * did). */
static char *dirents_read(int fd, char *buf, size_t cap, size_t *used)
{
	char *raw = buf;
	*used = 0;
	for (;;) {
		if (cap - *used < 4096) {   /* room for the longest record, and some */
			char *bigger = xmalloc(cap * 2);
			memcpy(bigger, raw, *used);
			if (raw != buf)
				free(raw);
			raw = bigger;
			cap *= 2;
		}
		ssize_t got = getdents64(fd, raw + *used, cap - *used);
		if (got <= 0)
			return raw;
		*used += (size_t)got;
	}
}

/* The entries are read with getdents64 into a buffer on the stack (opendir() costs an
 * fstat and a 32 KB buffer per directory, per rank dir of a big run), then the listing
 * is one block from alloc: the struct, its entries and their names. */
static struct dirlist *list_read(int at, const char *dir, void *(*alloc)(size_t), int *keep)
{
	int fd = openat(at, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	atomic_fetch_add(&reads, 1);
	uint64_t stack[1024];   /* 8 KB, aligned for struct dirent64 */
	size_t used;
	char *raw = dirents_read(fd, (char *)stack, sizeof(stack), &used);
	size_t n = 0, bytes = 0;
	for (size_t off = 0; off < used; off += ((const struct dirent64 *)(raw + off))->d_reclen) {
		const char *name = ((const struct dirent64 *)(raw + off))->d_name;
		if (!dot_or_dotdot(name)) {
			n++;
			bytes += strlen(name) + 1;
		}
	}
	struct dirlist *l = alloc(sizeof(*l) + n * sizeof(*l->v) + bytes);
	*l = (struct dirlist){ .v = (struct dirlist_entry *)(l + 1) };
	char *names = (char *)(l->v + n);
	for (size_t off = 0; off < used;) {
		const struct dirent64 *e = (const struct dirent64 *)(raw + off);
		off += e->d_reclen;
		if (dot_or_dotdot(e->d_name))
			continue;
		size_t k = strlen(e->d_name) + 1;
		memcpy(names, e->d_name, k);
		l->v[l->n++] = (struct dirlist_entry){ names, kind_of(fd, e) };
		names += k;
	}
	bool subdirs = false;
	for (size_t i = 0; i < l->n && keep; i++)
		subdirs |= l->v[i].kind == DIRENT_DIR;
	if (subdirs)
		*keep = fd;
	else
		close(fd);
	if (raw != (char *)stack)
		free(raw);
	if (l->n > 1)
		qsort(l->v, l->n, sizeof(*l->v), cmp_entry);
	return l;
}

/* Under the lock, in a scope: the kept directory path is under (the longest), *rest
 * the path relative to it; AT_FDCWD and path itself when there is none. */
static int base_of(const char *path, const char **rest)
{
	int fd = AT_FDCWD;
	size_t best = 0;
	*rest = path;
	for (size_t i = 0; i < nbases; i++) {
		const struct base *b = &bases[i];
		if (b->len > best && strncmp(path, b->path, b->len) == 0 && path[b->len] == '/' && path[b->len + 1]) {
			best = b->len;
			fd = b->fd;
			*rest = path + b->len + 1;
		}
	}
	return fd;
}

/* Under the lock: keep fd, the open directory dir (key: scope memory), as a base; closed
 * when there is no room. */
static void base_add(const char *dir, int fd)
{
	if (fd < 0)
		return;
	if (nbases == DIRLIST_BASES) {
		close(fd);
		return;
	}
	bases[nbases++] = (struct base){ (char *)dir, strlen(dir), fd };
}

char *dirlist_path(const char *dir, const char *name)
{
	size_t a = strlen(dir), b = strlen(name) + 1;
	char *p = xmalloc(a + 1 + b);
	memcpy(p, dir, a);
	p[a] = '/';
	memcpy(p + a + 1, name, b);
	return p;
}

int dirlist_open_errno(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

size_t dirlist_dir_len(const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return n;
}

bool dirlist_in_dir(const char *file, const char *dir, const char **name)
{
	size_t n = dirlist_dir_len(dir);
	if (n == 0 || strncmp(file, dir, n) != 0 || (dir[n - 1] != '/' && file[n] != '/')) /* "/": the root */
		return false;
	const char *base = file + n;
	while (*base == '/')
		base++;
	if (name)
		*name = base;
	return *base && !strchr(base, '/');
}

static size_t hash(const char *s)
{
	size_t h = 14695981039346656037ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return h;
}

/* The slot of key (hash h), or the empty one where it would go. */
static struct slot *find(struct table *t, const char *key, size_t h)
{
	size_t i = h & (t->size - 1);
	while (t->v[i].key && (t->v[i].hash != h || strcmp(t->v[i].key, key) != 0))
		i = (i + 1) & (t->size - 1);
	return &t->v[i];
}

/* The slot of key (hash h), added (empty) when new; under the lock. */
static struct slot *slot_of(struct table *t, const char *key, size_t h, bool *added)
{
	if ((t->used + 1) * 2 > t->size) {
		struct slot *old = t->v;
		size_t n = t->size;
		t->size = n ? n * 2 : 1024;
		t->v = xcalloc_written(t->size, sizeof(*t->v)); /* probed as it fills */
		for (size_t i = 0; i < n; i++)
			if (old[i].key)
				*find(t, old[i].key, old[i].hash) = old[i];
		free(old);
	}
	struct slot *s = find(t, key, h);
	*added = !s->key;
	if (*added) {
		size_t n = strlen(key) + 1;
		s->key = memcpy(scope_alloc(n), key, n);
		s->hash = h;
		t->used++;
	}
	return s;
}

/* The table's keys, listings and files are the scope's memory (scope_free_all). */
static void table_clear(struct table *t)
{
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
		return list_read(AT_FDCWD, dir, xmalloc, NULL);
	}
	bool added;
	size_t h = hash(dir);
	struct slot *s = slot_of(&lists, dir, h, &added);
	if (added) {   /* read by this thread alone, outside the lock: others list other dirs */
		s->busy = true;
		const char *rest;
		int at = base_of(dir, &rest), keep = -1;
		pthread_mutex_unlock(&lock);
		struct dirlist *l = list_read(at, rest, scope_alloc_locked, &keep);
		if (l)
			l->cached = true;
		pthread_mutex_lock(&lock);
		s = find(&lists, dir, h);   /* the table may have grown meanwhile */
		s->l = l;
		base_add(s->key, keep);
		slot_done(s);
	}
	while ((s = find(&lists, dir, h))->busy)
		pthread_cond_wait(&ready, &lock);
	struct dirlist *l = s->l;
	pthread_mutex_unlock(&lock);
	return l;
}

void dirlist_close(struct dirlist *l)
{
	if (l && !l->cached)
		free(l);   /* one block (list_read) */
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
	for (size_t i = 0; i < files.size; i++)
		if (files.v[i].key && files.v[i].head)
			free(files.v[i].data);
	table_clear(&files);
	for (size_t i = 0; i < nbases; i++)
		close(bases[i].fd);
	nbases = 0;
	scope_free_all();
	head_bytes = 0;
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
		size_t h = hash(k);
		struct slot *s = slot_of(&memos, k, h, &added);
		if (added) {
			s->busy = true;   /* this caller computes it */
		} else {
			while ((s = find(&memos, k, h))->busy)
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
		struct slot *s = slot_of(&memos, k, hash(k), &added);
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
 * first n bytes, and the file's stamp at the open. NULL and errno when it cannot be
 * opened or read. */
static char *read_file(int at, const char *path, size_t n, size_t *len, bool keep, bool *whole,
		       struct dirlist_stamp *stamp)
{
	*whole = false;
	struct stat st;
	int fd = infile_openat_st(at, path, &st);
	if (fd < 0)
		return NULL;
	*stamp = (struct dirlist_stamp){ (long long)st.st_size,
					 infile_mtime_ns(&st) };
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
	return dirlist_read_stamp(path, n, len, NULL);
}

char *dirlist_read_stamp(const char *path, size_t n, size_t *len, struct dirlist_stamp *st)
{
	bool whole;
	struct dirlist_stamp own;
	if (!st)
		st = &own;
	pthread_mutex_lock(&lock);
	if (!in_scope) {
		pthread_mutex_unlock(&lock);
		return read_file(AT_FDCWD, path, n, len, false, &whole, st);
	}
	bool added;
	size_t h = hash(path);
	struct slot *s = slot_of(&files, path, h, &added);
	if (added) { /* opened by this thread alone, outside the lock: others read other files */
		s->busy = true;
		bool may_keep = n <= DIRLIST_SMALL && head_bytes + DIRLIST_SMALL <= DIRLIST_HEADS;
		head_bytes += may_keep ? DIRLIST_SMALL : 0; /* its room, held while it is read */
		const char *rest;
		int at = base_of(path, &rest);
		pthread_mutex_unlock(&lock);
		size_t got = 0;
		char *buf = read_file(at, rest, may_keep ? DIRLIST_SMALL : n, &got, true, &whole, st);
		int e = errno;
		pthread_mutex_lock(&lock);
		s = find(&files, path, h);   /* the table may have grown meanwhile */
		s->head = buf && !whole && may_keep;
		bool keep = whole || s->head;
		if (may_keep && !s->head) /* no head kept: its room goes back */
			head_bytes -= DIRLIST_SMALL;
		s->val = !buf ? e : keep ? 0 : -1;   /* -1: large, read each time */
		s->data = s->head ? buf : whole ? memcpy(scope_alloc(got + 1), buf, got + 1) : NULL;
		s->len = keep ? got : 0;
		if (whole)
			free(buf);
		s->stamp = *st;
		slot_done(s);
		if (buf && !keep) {
			pthread_mutex_unlock(&lock);
			*len = got;
			return buf;
		}
	}
	while ((s = find(&files, path, h))->busy)
		pthread_cond_wait(&ready, &lock);
	if (s->val == -1 || (s->head && n > s->len)) {
		const char *rest;
		int at = base_of(path, &rest);
		pthread_mutex_unlock(&lock);
		return read_file(at, rest, n, len, false, &whole, st);
	}
	int e = s->val;
	char *c = s->data ? head_copy(s->data, s->len, n, len) : NULL;
	*st = s->stamp;
	pthread_mutex_unlock(&lock);
	errno = e;
	return c;
}

size_t dirlist_file_reads(void)
{
	return atomic_load(&file_reads);
}
