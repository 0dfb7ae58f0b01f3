/* SPDX-License-Identifier: MIT */
/* follow_index.c: what a follower read, appended to each followed run dir's index
 * (follow.h CONTRACT, model/index/index.h DELTAS): the run dirs whose index existed when
 * following started, an append every opts.index_every seconds or opts.index_bytes read,
 * the analysis summary with it or at the stop (summary_at_stop), and the last append
 * when following stops. */
#include "model/steps/follow_private.h"

#include <stdlib.h>
#include <string.h>
#include "model/index/index.h"

/* Index appends (index.h DELTAS): every TSCOPE_INDEX_EVERY="SECONDS[,MIB]" (default
 * 60 s or 64 MiB read, whichever comes first). */
void follow_index_every(struct follow_opts *o)
{
	const char *e = getenv("TSCOPE_INDEX_EVERY");
	double secs = e && *e ? atof(e) : 0;
	const char *comma = e ? strchr(e, ',') : NULL;
	double mib = comma ? atof(comma + 1) : 0;
	if (!(o->index_every > 0))
		o->index_every = secs > 0 ? secs : FOLLOW_INDEX_EVERY;
	if (o->index_bytes <= 0)
		o->index_bytes = (long long)((mib > 0 ? mib : FOLLOW_INDEX_MIB) * 1048576.0);
}

long long follow_read_bytes(const struct follow *f)
{
	long long n = 0;
	for (size_t i = 0; i < f->nt; i++)
		n += f->t[i].tail ? steps_tail_offset(f->t[i].tail) : 0;
	return n;
}

void follow_logs_begin(struct follow *f)
{
	const struct opts *o = f->run->opts;
	if (!f->run->steps || (o && (o->no_index || o->ranks)))
		return;
	for (size_t i = 0; i < f->np; i++) {
		char **parts = NULL;
		size_t np = steps_is_dir(f->p[i].path) ? index_part_files(f->p[i].path, &parts) : 0;
		for (size_t k = 0; k < np; k++)
			free(parts[k]);
		free(parts);
		if (np)
			f->p[i].log = index_log_begin(f->run, f->p[i].path);
	}
}

/* Not while a big append is read in slices: its end comes soon. */
void follow_save_due(struct follow *f, double now)
{
	if (!f->grew || f->behind)
		return;
	if (now - f->t_saved < f->o.index_every && follow_read_bytes(f) - f->read_saved < f->o.index_bytes)
		return;
	follow_save_index(f);
	f->t_saved = now;
}

/* The summary of the index of path i (analysis_index.h FOLLOW MODE), now or at the stop. */
static void save_summary(struct follow *f, size_t i, bool rewrote, bool now)
{
	struct fpath *p = &f->p[i];
	p->summary_rewrote = p->summary_rewrote || rewrote;
	p->summary_due = true;
	if (!now)
		return;
	steps_summary_follow(f->run, p->path, p->summary_rewrote);
	p->summary_due = p->summary_rewrote = false;
}

static size_t save_index(struct follow *f, bool stop)
{
	size_t n = 0;
	bool rewrote_any = false, summary_now = stop || !f->o.summary_at_stop;
	for (size_t i = 0; f->grew && f->run->steps && i < f->np; i++) {
		bool rewrote = false;
		char *written = NULL;
		if (f->p[i].log && index_log_save(f->p[i].log, &rewrote, &written) == 0)
			n++;
		if (written) /* the summary follows the index */
			save_summary(f, i, rewrote, summary_now);
		free(written);
		rewrote_any = rewrote_any || rewrote;
	}
	for (size_t i = 0; stop && f->run->steps && i < f->np; i++)
		if (f->p[i].summary_due) /* a periodic save left it for the stop */
			save_summary(f, i, false, true);
	if (rewrote_any)   /* every rank was compacted: grow it again on its next append */
		for (size_t i = 0; i < f->nt; i++)
			f->t[i].r = NULL;
	f->grew = false;
	f->read_saved = follow_read_bytes(f);
	return n;
}

size_t follow_save_index(struct follow *f)
{
	return save_index(f, false);
}

size_t follow_stop_index(struct follow *f)
{
	return save_index(f, true);
}
