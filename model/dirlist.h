/* SPDX-License-Identifier: MIT */
/* dirlist.h: directory listings for the probes and loaders, listed once per open.
 *
 * Identifying a run and opening it ask every loader's probe about the same paths, and
 * several probes walk into every rank directory (traces, GenAI-Perf, NAT, the pytscope
 * planner). Inside a scope (dirlist_scope_begin .. _end: main() around identification
 * and the load) each directory is read once: its names (without "." and ".."), sorted
 * by strcmp, each with its type from readdir (a stat only for links and file systems
 * that do not give one), and every later request is answered from memory; so is each
 * loader's probe of a path (dirlist_memo), and each small file (dirlist_read). Outside
 * a scope a listing or file is read fresh (follow mode sees new files). A scope also
 * keeps a few listed directories open (those with subdirectories: a run dir) and opens
 * the listings and files under them relative to them (dirlist.c "bases").
 *
 * CONTRACT. dirlist_open() returns NULL when dir cannot be read; release every listing
 * with dirlist_close() (a no-op for a cached one). Listings are immutable and
 * thread-safe to read; dirlist_open() may be called from any thread. Inside a scope the
 * first thread to ask for a directory or file reads it, without holding the others up:
 * a thread asking for the same one waits for that read, one asking for another reads it
 * meanwhile (identification's walk and a load that began early share a cold file system
 * in parallel). A scope's listings
 * live until dirlist_scope_end(), which the caller makes sure no one is reading. */
#ifndef MODEL_DIRLIST_H
#define MODEL_DIRLIST_H

#include "model/base.h"

enum dirent_kind { DIRENT_OTHER, DIRENT_FILE, DIRENT_DIR };

struct dirlist_entry {
	char *name;
	enum dirent_kind kind;   /* regular file, directory (links followed), or other */
};

struct dirlist {
	struct dirlist_entry *v;
	size_t n;
	bool cached;
};

struct dirlist *dirlist_open(const char *dir);
void dirlist_close(struct dirlist *l);
/* Why dirlist_open(dir) gave NULL: the errno of opening dir again now (a listing cached
 * in a scope keeps none); 0 when it opens by now (it failed for a while). */
int dirlist_open_errno(const char *dir);
/* "dir/name" in a new string to free(): the path of an entry, without printf (the
 * probes walk every rank dir of a big run). */
char *dirlist_path(const char *dir, const char *name);
/* The length of dir without its trailing slashes ("/" keeps its one). */
size_t dirlist_dir_len(const char *dir);
/* Whether file names an entry directly in dir ("dir/NAME", "dir//NAME" or, for "dir/",
 * the same), NAME without a '/'; *name (may be NULL) then points at NAME in file. */
bool dirlist_in_dir(const char *file, const char *dir, const char **name);
void dirlist_scope_begin(void);
void dirlist_scope_end(void);
/* Inside a scope, a number remembered per (tag, path): a loader's probe answer
 * (registry_probe), so identification and the load ask each probe once, even when
 * they run at once. claim is true with *out when the number is known (it waits while
 * another caller computes it); false when the caller is the first to ask: it computes
 * the number and must put it (the others wait for it). Outside a scope claim is false
 * and put does nothing. */
bool dirlist_memo_claim(const void *tag, const char *path, int *out);
void dirlist_memo_put(const void *tag, const char *path, int v);
/* The first n bytes of the regular file path (all of it when shorter) in a new
 * NUL-terminated buffer to free(), *len bytes; NULL with errno (infile_open's, or a
 * read error) when it cannot be read. Inside a scope a file of at most DIRLIST_SMALL
 * bytes is opened once and kept, with the error when it cannot be opened: a rank's
 * run.json is sniffed by the trace and sweep probes and read by the pytscope loader,
 * one open between them. Of a larger file the first DIRLIST_SMALL bytes are kept when
 * the first read asks at most that many (a loose trace file is sniffed by the sweep
 * probe, the trace probe and the trace discovery: one open between them), up to
 * DIRLIST_HEADS bytes of heads a scope; a read of more, or past that, opens it again. */
#define DIRLIST_SMALL ((size_t)64 << 10)
#define DIRLIST_HEADS ((size_t)32 << 20)
char *dirlist_read(const char *path, size_t n, size_t *len);
/* dirlist_read() that also gives the file's size and mtime (ns) as its fstat said at
 * the open the bytes came from (a kept file's first), in *st when it could be opened. */
struct dirlist_stamp {
	long long size, mtime_ns;
};
char *dirlist_read_stamp(const char *path, size_t n, size_t *len, struct dirlist_stamp *st);
/* Files opened by dirlist_read since the process started (tests and benchmarks). */
size_t dirlist_file_reads(void);
/* Listings read from disk since the process started (tests and benchmarks). */
size_t dirlist_reads(void);

#endif
