/* SPDX-License-Identifier: MIT */
/* write_model.c: the parts of a loaded run (index_write, index_write_pick): the
 * callbacks that give index_write_spec() the step model's ranks (bodies, shells) and
 * its cache hints ahead of each pass over them. The file format and the writing itself:
 * index.c, codec.c. */
#include "model/index/index.h"

#include <stdlib.h>
#include <sys/stat.h>
#include "model/index/codec.h"
#include "model/run.h"
#include "model/steps/steps.h"
#include "model/xalloc.h"

/* A part of the loaded run: the spec and each file's rank in the step model (-1: none),
 * looked up once for the passes over them; back: once written, the part backs the
 * ranks' bodies (model_written). */
struct model_part {
	struct index_part_spec s;
	long *ri;
	bool back;
};

static long part_rank(const struct model_part *mp, size_t i)
{
	return mp->ri[i - mp->s.lo];
}

/* The columns go to the file from the store as they are (codec.h, OB_DIRECT), the
 * CRC-32 computed on the way; memory stays the stream's buffer. */
static bool model_body(void *ud, size_t i, struct obuf *o, struct index_body_loc *loc)
{
	const struct model_part *mp = ud;
	long ri = part_rank(mp, i);
	if (ri < 0)
		return false;
	index_body_begin(o, loc);
	steps_rank_encode_body(mp->s.run->steps, (size_t)ri, o);
	index_body_end(o, loc);
	return true;
}

static bool model_shell(void *ud, size_t i, size_t prev, struct obuf *o)
{
	const struct model_part *mp = ud;
	long ri = part_rank(mp, i);
	if (ri >= 0)
		steps_rank_encode_shell(mp->s.run->steps, (size_t)ri, prev == SIZE_MAX ? -1 : part_rank(mp, prev),
					mp->s.run_dir, o);
	return ri >= 0;
}

/* Each pass over the ranks asks for a rank's record AHEAD_FAR files before it is
 * written (the bodies' pass: only the fields that locate its body) and, the record then
 * in cache, AHEAD_NEAR files before, for what the pass reads beyond it: the body block
 * (bodies), the path and run.json (shells; the stamps are in the record). The misses of
 * several ranks overlap instead of following one another (BENCHMARKS.md, "Index
 * writer: prefetching the ranks"). */
#define AHEAD_FAR 8
#define AHEAD_NEAR 4

static void model_ahead(void *ud, size_t i, enum index_pass pass)
{
	const struct model_part *mp = ud;
	struct steps_model *m = mp->s.run->steps;
	long far = i + AHEAD_FAR < mp->s.hi ? part_rank(mp, i + AHEAD_FAR) : -1;
	long near = i + AHEAD_NEAR < mp->s.hi ? part_rank(mp, i + AHEAD_NEAR) : -1;
	if (far >= 0)
		steps_rank_prefetch(m, (size_t)far, pass != INDEX_PASS_BODIES);
	if (near >= 0 && pass == INDEX_PASS_BODIES)
		steps_rank_prefetch_body(m, (size_t)near);
	else if (near >= 0 && pass == INDEX_PASS_SHELLS)
		steps_rank_prefetch_meta(m, (size_t)near);
}

/* The part in place: each rank written can hand its body back and read it from the
 * part again (steps_rank_back_body), as a rank of an indexed open does. */
static void model_written(void *ud, const char *path, const bool *has, const struct index_body_loc *loc)
{
	const struct model_part *mp = ud;
	struct steps_model *m = mp->s.run->steps;
	struct stat st;
	if (!mp->back || stat(path, &st) != 0)
		return;
	size_t nm = steps_nmetrics(m);
	int *map = xmalloc((nm ? nm : 1) * sizeof(*map)); /* the head's metric table is the model's */
	for (size_t i = 0; i < nm; i++)
		map[i] = (int)i;
	const struct steps_part *part = steps_add_part(m, path, mp->s.run_dir, (long long)st.st_size,
						       (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
						       (long long)st.st_ino, map, nm);
	free(map);
	for (size_t i = mp->s.lo; i < mp->s.hi; i++)
		if (has[i - mp->s.lo])
			steps_rank_back_body(m, (size_t)part_rank(mp, i), part, loc[i - mp->s.lo].off,
					     loc[i - mp->s.lo].len, loc[i - mp->s.lo].crc);
}

/* Part k of n of the loaded run, from files[lo, hi): the sources and diagnostics of
 * pick, else the ranges; its bodies streamed into w beforehand (has, loc), else
 * written here. */
static int write_model_part(struct run *run, const char *run_dir, unsigned k, unsigned n,
			    const struct steps_rank_file *files, size_t lo, size_t hi, size_t src0, size_t src1,
			    size_t d0, size_t d1, const struct index_pick *pick, struct index_wfile *w,
			    const bool *has, const struct index_body_loc *loc, char **path_out)
{
	struct model_part mp = { { run, run_dir, k, n, files, lo, hi, src0, src1, d0, d1,
				   model_body, model_shell, NULL, pick, model_ahead, model_written }, NULL, false };
	mp.s.ud = &mp;
	/* `tscope-tui index` (a whole index of a fresh load): the bodies' memory then serves
	 * the summary's compute rows (analysis_distributed.c keep_rows); bodies streamed at
	 * their seal and freed are read from the part from now on, if at all */
	mp.back = w || (!pick && n == 1 && run->opts && run->opts->index_build);
	mp.ri = xmalloc((hi > lo ? hi - lo : 1) * sizeof(*mp.ri));
	for (size_t i = lo; i < hi; i++)
		mp.ri[i - lo] = steps_rank_index(run->steps, (int)files[i].rank);
	int err = w ? index_part_end(&mp.s, w, has, loc, path_out) : index_write_spec(&mp.s, path_out);
	free(mp.ri);
	return err;
}

int index_write(struct run *run, const char *run_dir, unsigned k, unsigned n,
		const struct steps_rank_file *files, size_t lo, size_t hi, size_t src0, size_t src1,
		size_t d0, size_t d1, char **path_out)
{
	return write_model_part(run, run_dir, k, n, files, lo, hi, src0, src1, d0, d1, NULL, NULL, NULL, NULL,
				path_out);
}

int index_write_streamed(struct run *run, const char *run_dir, unsigned k, unsigned n,
			 const struct steps_rank_file *files, size_t lo, size_t hi, size_t src0, size_t src1,
			 size_t d0, size_t d1, struct index_wfile *w, const bool *has, const struct index_body_loc *loc,
			 char **path_out)
{
	return write_model_part(run, run_dir, k, n, files, lo, hi, src0, src1, d0, d1, NULL, w, has, loc, path_out);
}

int index_write_pick(struct run *run, const char *run_dir, unsigned k, unsigned n,
		     const struct steps_rank_file *files, size_t lo, size_t hi, const struct index_pick *pick,
		     char **path_out)
{
	return write_model_part(run, run_dir, k, n, files, lo, hi, 0, 0, 0, 0, pick, NULL, NULL, NULL, path_out);
}
