/* SPDX-License-Identifier: MIT */
/* delta.h: private to model/index/: the delta segments follow mode appends to an index
 * part (index.h DELTAS): reading them at open (delta.c) and the pieces of the part
 * format they share with index.c and append.c.
 *
 * Each part has its own chain of deltas: steps-K-of-N.delta-SEQ.tsx extends part
 * steps-K-of-N.tsx (a whole index: K = 0, N = 1), SEQ = 1, 2, ... A delta names the
 * part it extends by that file's size, mtime and inode when the delta was written, so a
 * part rebuilt since (`index --shard K/N` again, which also removes the part's deltas,
 * or a whole rewrite) never takes a delta that extends its previous version: such a
 * delta is reported and dropped with every later one of its chain.
 *
 * A delta file is an index file (index.h header, bodies, head at the end, written by
 * index_file_write: a temporary file renamed, so a killed writer leaves the previous
 * deltas as they were). Head: u32 DELTA_TAG; the base part it extends (size, mtime_ns,
 * inode as when it was written); u32 sequence number (1, 2, ... in file name order);
 * the metric table (index_metrics_put); entries; per entry: rank id,
 * the records the rank held before (`from`), the steps.jsonl extent after
 * (extent.h), its source's bytes, records, skipped, err, partial, consumed, lines, the
 * rank's shell after the segment (steps_rank_encode_shell), the segment body's offset,
 * length and CRC-32 (steps_rank_encode_delta); then the diagnostics added (as in a
 * part). A delta that fails any check, extends another base or breaks the sequence is
 * reported and dropped with every later one: their ranks' sources then resume from the
 * last extent kept, so the bytes after it are parsed again (the open appends them to
 * the index as a grown open does). */
#ifndef MODEL_INDEX_DELTA_H
#define MODEL_INDEX_DELTA_H

#include "model/index/extent.h"
#include "model/index/index.h"
#include "model/steps/steps.h"

#define DELTA_TAG 0x41544c44u /* "DLTA" */

struct ibuf;
struct obuf;
struct rank_steps;
struct steps_model;

/* The metric table of a part's or a delta's head: n, then per model metric (in id
 * order, the columns of the bodies) u8 kind, string name and u64 where the run first
 * has it (steps_metric_first, METRIC_FIRST_NONE when not known), so that an open
 * lists the metrics in the run's order (steps_metric_nth) whatever order the writer's
 * threads met them in. _get gives the id of each entry (malloc'd, *n entries; -1 for
 * an entry that is no metric, which also marks b bad): ids->id's, or with ids NULL
 * the entry interned into m; _skip passes over one. */
struct index_metric_ids {
	int (*id)(void *ud, enum metric_kind kind, const char *name, uint64_t first);
	void *ud;
};
void index_metrics_put(struct obuf *o, const struct steps_model *m);
int *index_metrics_get(struct ibuf *b, struct steps_model *m, const struct index_metric_ids *ids, size_t *n);
void index_metrics_skip(struct ibuf *b);

/* Delta file seq of part k of n in dir (malloc'd). */
char *delta_path(const char *dir, unsigned k, unsigned n, unsigned seq);
/* How many deltas part k of n holds in sequence from 1 (files that exist). */
unsigned delta_count(const char *dir, unsigned k, unsigned n);
/* How many delta files each part k < n of dir has, in sequence or not (malloc'd, n
 * entries; one listing of dir). */
unsigned *delta_files_of(const char *dir, unsigned n);
/* Remove every delta file of dir (of any part), those of part k of n, or those a new
 * part k of n replaces: its own and every other shard count's. */
void delta_remove_all(const char *dir);
void delta_remove_part(const char *dir, unsigned k, unsigned n);
void delta_remove_replaced(const char *dir, unsigned k, unsigned n);

/* The valid deltas of part k of n in dir (the part as checked: base), for the ranks a
 * run restores from it; files: the part's delta files in dir (delta_files_of; the chain
 * is read when there are any). NULL when there are none. With run (an open), the first
 * bad one and every later one are reported in run and removed, and so are delta files
 * after a gap in the sequence (delta 2 missing: 3, 4, ...); without, only left out. */
struct delta_set;
struct delta_set *delta_set_read(struct run *run, const char *dir, unsigned k, unsigned n,
				 const char *base_dir, const struct index_file_id *base, unsigned files);
/* The extent the deltas recorded last for rank id (NULL: none). */
const struct index_extent *delta_set_extent(const struct delta_set *ds, long rank);
/* Register the deltas' files with m (after the base part: index_part_files() order),
 * their metric tables mapped as index_metrics_get(ids) maps them. */
void delta_set_register(struct delta_set *ds, struct steps_model *m, const char *base_dir,
			const struct index_metric_ids *ids);
/* Add rank x's segments (x: a lazy shell decoded from the base); false when a segment
 * does not continue it. */
bool delta_set_defer(const struct delta_set *ds, struct rank_steps *x);
/* What a subset load (--ranks) takes from the index: the listed ranks, except the lowest
 * when it is not the run's (the lowest rank loaded keeps its scalars exact, steps.h
 * rank_exact_scalars; the index has them so for the run's lowest only): that one is
 * parsed from its JSONL. */
struct index_subset {
	const char *only;    /* the --ranks list */
	long reparsed;       /* the listed rank parsed from its JSONL instead, or -1 */
};
/* Whether the load takes what the index holds for rank id `rank` (< 0: the run's own,
 * always; s NULL: the whole run, always). */
bool index_keeps(const struct index_subset *s, long rank);
/* A subset open interns of a part's metric tables (its own and its deltas') only the
 * metrics that the ranks it keeps from the part have, as a plain load of those ranks
 * does (subset.c): index_subset_plan_new() sets the ids the tables are read with (places
 * in the plan, not model ids); once the part's ranks are decoded and deferred,
 * index_subset_settle() finds which metrics the kept ones of r[0..nr) (in id order) have,
 * interns those into m and maps the registered tables of part and of ds's deltas to
 * their model ids (-1: a metric no kept rank has, whose column no kept rank's body holds). */
struct index_subset_plan;
struct index_subset_plan *index_subset_plan_new(struct index_metric_ids *ids);
void index_subset_settle(struct index_subset_plan *p, struct steps_model *m, const struct index_subset *s,
			 struct rank_steps *const *r, size_t nr, const struct steps_part *part,
			 const struct delta_set *ds);
void index_subset_plan_free(struct index_subset_plan *p);
/* The deltas' source updates and diagnostics into run (after the base's; those
 * index_keeps(s)). */
void delta_set_restore(const struct delta_set *ds, struct run *run, const char *base_dir,
		       const struct index_subset *s);
size_t delta_set_count(const struct delta_set *ds);
/* The file of delta i < delta_set_count() as registered (delta_set_register). */
const struct steps_part *delta_set_part(const struct delta_set *ds, size_t i);
/* The part's delta files the set does not take (bad, out of sequence, after a gap). */
size_t delta_set_unused(const struct delta_set *ds);
void delta_set_free(struct delta_set *ds);

/* Shared with index.c: the diagnostics list of a part (n; per diagnostic level,
 * file, line, offset, rank, message), idx[0..n) in run->diags. */
void index_put_diags(struct obuf *o, const char *base, const struct run *run, const size_t *idx, size_t first,
		     size_t n);
/* Read such a list; apply: add them to run (else only check), those index_keeps(s). */
void index_get_diags(struct ibuf *b, struct run *run, const char *base, bool apply, const struct index_subset *s);

#endif
