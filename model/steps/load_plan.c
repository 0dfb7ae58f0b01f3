/* SPDX-License-Identifier: MIT */
/* load_plan.c: what the load of a pytscope run dir reads (load.c pytscope_load): the
 * ranks from the index and which from their JSONL (whole, or only the new bytes of a
 * steps.jsonl that grew), --ranks and the shard's slice; and after the parse, the index
 * it writes (a shard's part, `tscope-tui index`, an automatic index of a big run) or
 * the delta it appends. */
#include "model/steps/load_plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "model/index/index.h"
#include "model/opts.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/xalloc.h"

/* Runs smaller than this are not indexed automatically (they load in well under a second). */
#define INDEX_AUTO_MIN_BYTES ((long long)256 << 20)


/* Keep the tasks in ranks (--ranks, NULL: all), in this shard, and not restored from the index. */
static void plan_filter(struct load_plan *lp, const char *ranks, const bool *covered)
{
	size_t k = 0;
	for (size_t i = 0; i < lp->tasks.n; i++) {
		struct rank_task *t = &lp->tasks.v[i];
		const struct steps_rank_file *f = steps_rank_files_find(lp->files + lp->lo, lp->hi - lp->lo, t->rank);
		bool asked = !ranks || ranklist_has(ranks, t->rank);
		lp->left_out += !asked;
		if (asked && (!lp->indexed || (f && !covered[f - lp->files]))) {
			lp->tasks.v[k++] = *t;
		} else {
			free(t->dir);
			free(t->steps_path);
		}
	}
	lp->tasks.n = k;
}

/* The plan t of path is path itself, without rank dirs (steps.h steps_files_flat). */
static bool plan_flat(const struct task_list *t, const char *path)
{
	if (t->n != 1)
		return false;
	struct steps_rank_file *v;
	steps_tasks_files(t, &v);
	bool flat = steps_files_flat(v, 1, path);
	steps_rank_files_free(v);
	return flat;
}

/* The ranks whose steps.jsonl grew since the index: parse their new bytes only. */
static void plan_extend(struct load_ctx *ctx, const char *path, struct load_plan *lp, const bool *grown)
{
	long long bytes = steps_ranks_extend(ctx, lp->files, grown, lp->nfiles, lp->lowest);
	char *dir = index_dir_for(path);
	diag_add(&ctx->run->diags, DIAG_INFO, dir, -1, -1, -1,
		 "index: %zu rank%s steps.jsonl grew since the index was written: only their %lld new bytes "
		 "were parsed", lp->grown, lp->grown == 1 ? "'s" : "s'", bytes);
	free(dir);
}

void steps_plan_load(struct load_ctx *ctx, const char *path, struct load_plan *lp)
{
	const struct opts *o = ctx->opts;
	memset(lp, 0, sizeof(*lp));
	steps_plan(path, &lp->tasks, &ctx->run->diags); /* its notes are made at each open, not indexed */
	/* --ranks names rank dirs: a PATH without them is loaded whole */
	const char *ranks = o && o->ranks && !plan_flat(&lp->tasks, path) ? o->ranks : NULL;
	lp->lowest = -1; /* before the index or a shard takes ranks away: the run's lowest */
	for (size_t i = 0; i < lp->tasks.n; i++) {
		long id = lp->tasks.v[i].rank;
		if ((!ranks || ranklist_has(ranks, id)) && (lp->lowest < 0 || id < lp->lowest))
			lp->lowest = id;
	}
	bool subset = ranks != NULL; /* the listed ranks may come from the index */
	lp->indexed = steps_is_dir(path) && (!o || !o->no_index);
	if (!lp->indexed) {
		plan_filter(lp, ranks, NULL);
		return;
	}
	lp->nfiles = steps_tasks_files(&lp->tasks, &lp->files); /* as index_plan(), without a second walk */
	steps_rank_files_sort(lp->files, lp->nfiles);
	lp->hi = lp->nfiles;
	if (o && o->shard_n)
		index_shard_slice(lp->nfiles, o->shard_k, o->shard_n, &lp->lo, &lp->hi);
	bool *covered = xcalloc(lp->nfiles ? lp->nfiles : 1, sizeof(*covered));
	bool *grown = xcalloc(lp->nfiles ? lp->nfiles : 1, sizeof(*grown));
	if (!o || (!o->index_build && !o->shard_n))
		lp->parts_used = index_load(ctx, path, lp->files, lp->nfiles, covered, grown, &lp->index_found);
	bool all = lp->parts_used > 0;
	for (size_t i = 0; i < lp->nfiles && all; i++)
		all = covered[i];
	lp->all_indexed = all;
	for (size_t i = 0; i < lp->nfiles; i++)
		lp->grown += grown[i];
	if (!all || lp->grown || subset) /* bytes to read: the screen counts them again */
		load_phase(ctx, NULL);
	if (lp->grown && all && !subset) /* what the index holds, before the tails are parsed */
		lp->log = index_log_begin(ctx->run, path);
	if (lp->grown)
		plan_extend(ctx, path, lp, grown);
	free(grown);
	if (all && !lp->grown && !subset) { /* every rank from the index: its summary may give the analyses */
		struct steps_model *m = steps_model_get(ctx->run);
		steps_summary_open(ctx->run, path);
		if (!m->summary) { /* finalize rebuilds it, reading every rank's steps once */
			free(m->summary_dir);
			m->summary_dir = xstrdup(path);
			m->summary_rebuild = true;
			m->load_ctx = ctx;
			long long bytes = 0;
			for (size_t i = 0; i < m->nrank; i++)
				bytes += (long long)m->rank[i]->body_len;
			load_phase(ctx, NULL);
			load_progress(ctx, 0, bytes);
		}
	}
	plan_filter(lp, ranks, covered);
	free(covered);
}

/* An open that parsed the tails of grown sources appends them to the index's parts as
 * delta segments (index.h DELTAS); the summary is written again at finalize. */
static void plan_append_index(struct load_ctx *ctx, const char *path, struct index_log *log)
{
	struct run *run = ctx->run;
	if (load_cancelled(ctx) || !log)
		return;
	bool rewrote; /* by a compaction: nothing to do, the open is over */
	int err = index_log_save(log, &rewrote, NULL);
	if (err) {
		diag_add(&run->diags, DIAG_INFO, path, -1, -1, -1, "index not appended to: %s%s",
			 err == EAGAIN ? "the run does not match its rank dirs" : strerror(err),
			 index_read_only_note(err));
		return;
	}
	struct steps_model *m = steps_model_get(run);
	free(m->summary_dir);
	m->summary_dir = xstrdup(path);
}

/* After the parse: write the index part this load is for (a shard, `tscope-tui index`),
 * or the whole index automatically: for a big run that had none, or in place of one
 * that was there but could not be used at all (stale, damaged, another version). An
 * index with some usable shards is left alone (other shards may still be running).
 * A run with a steps.jsonl that was a FIFO is not indexed: its bytes cannot be stamped
 * nor read again (and the stamp's open would wait for a writer forever). Nor is one with
 * a file that starts with a UTF-8 byte-order mark, which --compat pytscope reads otherwise
 * than a native open (internal.h STEPS_BOM_NOTE): the index serves both. */
void steps_plan_write_index(struct load_ctx *ctx, const char *path, struct load_plan *lp, long long bytes,
			    size_t src0, size_t d0)
{
	const struct opts *o = ctx->opts;
	bool want = o && (o->index_build || o->shard_n);
	if (!want && lp->grown && lp->all_indexed) { /* append the new records to the index */
		plan_append_index(ctx, path, lp->log);
		return;
	}
	bool rebuild = lp->index_found && !lp->parts_used; /* stale or damaged: replace it */
	if (!want && !rebuild && (lp->index_found || bytes < INDEX_AUTO_MIN_BYTES))
		return;
	if (!lp->indexed || load_cancelled(ctx) || !ctx->run->steps || (o && o->ranks)) /* a subset: not the run */
		return;
	struct run *run = ctx->run;
	if (lp->streamed >= 0) {
		const struct rank_task *t = &lp->tasks.v[lp->streamed];
		char *p = t->steps_path ? xstrdup(t->steps_path) : xasprintf("%s/steps.jsonl", t->dir);
		diag_add(&run->diags, want ? DIAG_ERROR : DIAG_INFO, p, -1, -1, -1, "index not written: not a "
			 "regular file (a pipe): an index needs sources it can stamp and read again");
		free(p);
		return;
	}
	if (lp->bom >= 0) {
		const struct rank_task *t = &lp->tasks.v[lp->bom];
		diag_add(&run->diags, want ? DIAG_ERROR : DIAG_INFO, t->dir, -1, -1, (int)t->rank,
			 "index not written: its run.json or steps.jsonl starts with a UTF-8 byte-order mark, which an "
			 "open reads but one with --compat pytscope does not (as pytscope): an index must serve both");
		return;
	}
	pthread_mutex_lock(&run->lock);
	size_t src1 = run->nsrc;
	pthread_mutex_unlock(&run->lock);
	size_t d1 = run->diags.n;
	char *written = NULL;
	int err = lp->stream && !load_stream_failed(lp->stream)
			  ? load_stream_write(lp->stream, run, path, lp, src0, src1, d0, d1, &written)
			  : index_write(run, path, o && o->shard_n ? o->shard_k : 0, o && o->shard_n ? o->shard_n : 1,
					lp->files, lp->lo, lp->hi, src0, src1, d0, d1, &written);
	if (!err && o && o->shard_n) /* the shard's part of the summary, merged at the open */
		err = steps_summary_inputs_write(run, written, o->shard_k, o->shard_n);
	if (err) {
		char *why = index_write_failure(path, err);
		diag_add(&run->diags, want ? DIAG_ERROR : DIAG_INFO, path, -1, -1, -1, "index not written: %s", why);
		free(why);
	} else {
		run_set_index_path(run, written);
	}
	if (!err && !(o && o->shard_n)) { /* a whole index: finalize adds its summary */
		struct steps_model *m = steps_model_get(run);
		free(m->summary_dir);
		m->summary_dir = xstrdup(path);
	}
	free(written);
}
