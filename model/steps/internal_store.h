/* SPDX-License-Identifier: MIT */
/* internal_store.h: the step family's storage (store*.c): column encodings, the column,
 * rank and model structures and the inline readers and writers the loader's line loop
 * and the analyses use. Included by internal.h alone, at the place of its storage
 * section (the declarations before it name these structures only by pointer); include
 * internal.h, not this file. */
#ifndef MODEL_STEPS_INTERNAL_STORE_H
#define MODEL_STEPS_INTERNAL_STORE_H

/* ---- storage (store.c, store_follow.c, store_index.c) ------------------------------ */

/* Column encodings. A phase column starts NANO and becomes F64 on the first value that
 * is not a nanosecond multiple (so phase sums stay bit-exact); a memory column starts
 * F32 and becomes F64 on the first value float32 cannot hold exactly; scalar columns
 * are F32 (about 7 significant digits), or follow the memory rule on a rank marked
 * rank_exact_scalars(). RLE replaces any of them at finalize. */
enum col_enc { ENC_NANO, ENC_F32, ENC_F64, ENC_RLE };

/* A run-length column holds runs of equal values over positions; missing records
 * inside a run do not break it (presence is the bitmap's business). */
struct column { /* 64 bytes: the flags together, no padding between the words */
	unsigned char enc;
	bool all_present;        /* after finalize: every record has the value, no bitmap */
	bool exact;              /* F32 columns: upgrade to F64 instead of rounding */
	bool wide;               /* data is a loader's scratch buffer with room for cap
				  * doubles (store_body.c): the upgrade happens in place */
	size_t cap, count;       /* entries allocated; values present */
	void *data;              /* cap entries of col_elem(enc) bytes */
	uint64_t *present;       /* bitmap, cap bits (NULL when all_present) */
	size_t nruns;            /* ENC_RLE */
	uint32_t *run_start;
	double *run_val;
};

struct rank_steps {
	struct steps_model *m;
	int rank;
	char *path;
	size_t n, cap;
	long step0;
	bool contiguous;         /* step[i] == step0 + i for every i: no step array */
	bool lazy;               /* the body is still in the index part (below); beside the
				  * other fields a pass over the bodies reads, in the record's
				  * first two cache lines */
	int64_t *step;           /* materialized once the steps stop being contiguous */
	double ts0;
	bool have_ts0;
	float *ts;               /* offset from ts0 */
	uint64_t *ts_present;    /* NULL after finalize when every record has one */
	struct column *col;      /* indexed by metric id; enc of an unused slot: cap == 0 */
	size_t ncol;
	/* Where the body (step, ts, ts_present, col and the columns' arrays) lives
	 * (store_body.c): in a loader thread's scratch while the rank loads (scratch), in
	 * one block of its exact size once compacted (block), else each array on its own
	 * (a large, live or decoded body). Never both set. */
	void *block;
	size_t block_len;        /* its bytes (steps_rank_prefetch_body) */
	struct store_scratch *scratch;
	struct steps_meta meta;
	bool exact_scalars;      /* scalar columns upgrade to F64 instead of rounding */
	size_t loss_not_number;  /* "loss" scalars the loader skipped as not numbers (load.c) */
	bool live;               /* appendable after finalize (steps_rank_grow, or published late) */
	bool sealed;             /* compacted and indexed already (steps_rank_seal, or decoded) */
	bool dirty;              /* appended to since finalize / the last steps_refresh() */
	/* index of distinct steps (non-contiguous ranks only): sorted, last position wins */
	int64_t *idx_step;
	uint32_t *idx_pos;
	size_t ndistinct;
	size_t nindexed;         /* records the index covers (store_rank_build_index) */
	long span_lo, span_hi;   /* smallest and largest step number (n > 0) */
	/* A rank restored from an index part holds only its shell (id, path, counts, span,
	 * run.json) until its body (steps, timestamps, columns) is first read: `lazy` (above)
	 * is set and the body is body_len bytes at body_off of `part` with CRC-32 body_crc
	 * (store_index.c; read with the acquire/release pair of rank_need_body()). */
	const struct steps_part *part;
	uint64_t body_off, body_len;
	uint32_t body_crc;
	/* Delta segments (model/index/index.h DELTAS): records a follower appended after the
	 * part was written, replayed onto the body when it is read. The shell above is the
	 * rank after the last segment; base_shape what the part's body holds. */
	struct rank_seg *seg;
	size_t nseg;
	struct rank_shape *base_shape;
	struct seal_inputs *sealed_in; /* the body went to the part at the seal (seal.h) */
};

/* The counts and span a shell records (store_extend.c). */
struct rank_shape {
	size_t n, ndistinct;
	bool contiguous, have_ts0;
	long step0, span_lo, span_hi;
	double ts0;
};

/* A delta segment of a lazy rank: len bytes at off of part, CRC-32 crc, appending to
 * a rank of `from` records. */
struct rank_seg {
	const struct steps_part *part;
	uint64_t off, len;
	uint32_t crc;
	size_t from;
};
/* Replay r's delta segments onto its freshly decoded base body (store_extend.c, under
 * the body lock): NULL, or why not (r's body is then freed; *bad_part names the file). */
const char *store_rank_apply_segs(struct rank_steps *r, const struct rank_shape *final,
				  const struct steps_part **bad_part);
/* r's shape now, and setting it (store_extend.c). */
void store_rank_shape(const struct rank_steps *r, struct rank_shape *s);
void store_rank_set_shape(struct rank_steps *r, const struct rank_shape *s);
/* Free r's segments and base shape. */
void store_rank_free_segs(struct rank_steps *r);
/* Undo r's compaction for appends (steps_rank_grow without reading the body). */
void store_rank_thaw(struct rank_steps *r);
/* Read len bytes at off of part p with pread and check their CRC-32: a malloc'd buffer
 * in *out, or NULL and why not (store_index.c). */
const char *store_part_read(const struct steps_part *p, uint64_t off, uint64_t len, uint32_t crc,
			    unsigned char **out);

/* An index part file whose rank bodies are read on demand (store_index.c): the file
 * as checked when the run was opened, and its metric table in model ids. */
struct steps_part {
	char *path;
	char *base;              /* the run dir (paths in the part are relative to it) */
	long long size, mtime_ns, ino;
	int *map;
	size_t nmap;
	bool invalidated;        /* a body read found it unusable (under lock): its other ranks say no more */
};

struct steps_model {
	pthread_mutex_t lock;
	struct metric_def *metric;
	size_t nmetric, metric_cap;
	int *order, order_inline[64]; /* ids by (kind, first, id): steps_metric_nth; inline while they fit */
	struct rank_steps **rank;
	size_t nrank, rank_cap;
	/* rank id -> index in rank[], open addressing, at most half full: a slot is the id
	 * (its 32 bits) << 32 | index + 1, 0 empty (a probe reads no rank: store_slot_*) */
	uint64_t *slot;
	size_t nslot;
	bool aligned_contiguous;
	long aligned_lo;
	int64_t *aligned;
	size_t naligned;
	size_t nunion;
	/* heatmap columns after the aligned ones (store_build_tail): steps after the last
	 * aligned step that some rank has, ascending; a range when every rank is contiguous */
	bool live;
	bool tail_range;
	long tail_lo;
	int64_t *tail;
	size_t ntail;
	void *analysis;
	bool analysis_lag;       /* analysis_allow_lag(): hold the slow results after appends */
	bool finalized;          /* steps_finalize() ran: later publishing marks the model for resort */
	/* For the loading screen's reader (progress.h), under lock: finalize began (ranks may
	 * be sorted and rewritten from then on), ranks replaced by a publish so far, and the
	 * ranks the loaders planned (steps_expect_ranks) */
	bool closed;
	size_t nreplaced, expect;
	/* the loader's listing of its rank dirs (steps_discover_begin), under lock: going
	 * on, and how many of the `expect` ranks it has sized so far */
	bool listing;
	size_t listed;
	bool resort;             /* a rank was published after finalize */
	size_t left_out;         /* rank dirs --ranks left out (steps_left_out) */
	struct run *run;         /* the run it belongs to (diagnostics of lazy body reads) */
	struct steps_part **part;/* index parts lazy ranks read from (owned) */
	size_t npart;
	pthread_mutex_t body_lock[16]; /* lazy body reads, striped by rank id */
	size_t body_reads;       /* steps_bodies_read() */
	size_t body_failures;    /* steps_bodies_failed() */
	/* aligned set and union size restored from an index summary (analysis_index.c):
	 * steps_finalize() takes them instead of computing them from every rank's steps */
	bool preset;
	bool preset_contiguous;
	long preset_lo;
	int64_t *preset_aligned;
	size_t preset_naligned, preset_nunion;
	void *summary;           /* the summary analyses restore from (analysis_index.c) */
	char *summary_dir;       /* run dir whose summary finalize writes (NULL: none) */
	/* inode of the summary a heatmap row read found unusable (under lock; 0: none): its
	 * grids all read that file, the first failure says so and invalidates it, once */
	long long summary_failed_ino;
	/* store_read.c's NATIVE STEPS, for the shape they were found for (native_key: ranks,
	 * aligned steps, steps, later columns, a live run's records, budget sums known),
	 * under lock: the run's steps and the last step of any rank */
	size_t native_key[6];
	size_t native_nunion;
	long native_top;
	/* every rank came from the index and the summary could not be used: finalize
	 * rebuilds it rank by rank (analysis_index_rebuild.c), reporting its progress to
	 * the open's load (load_ctx, NULL after finalize) */
	bool summary_rebuild;
	struct load_ctx *load_ctx;
	/* the index shards' parts of the summary, opened by finalize for the aligned set
	 * (steps_summary_inputs_align) and handed to the rebuild */
	struct summary_inputs *inputs;
};

/* Read a lazy rank's body now (store_index.c). A body that cannot be read (the part was
 * truncated, replaced or damaged since it was opened) is diagnosed, the part invalidated
 * (the next open rebuilds it) and the rank re-read from its steps.jsonl. */
void store_rank_load_body(struct rank_steps *r);
/* Hand back the memory of a body read from an index part (it is read again when next
 * needed); a rank whose steps did not come from a part is left alone. Only while no
 * other thread reads r's body (the summary rebuild at finalize). */
void steps_rank_release_body(struct rank_steps *r);
static inline void rank_need_body(const struct rank_steps *r)
{
	if (__atomic_load_n(&r->lazy, __ATOMIC_ACQUIRE))
		store_rank_load_body((struct rank_steps *)r);
}
/* For a reader on another thread that must not make r's body resident for good: NULL in
 * *copy when r's body is resident already (read r), else r's body read into a copy that
 * nobody else sees (r stays lazy). False when it cannot be read (nothing diagnosed: the
 * caller says so, and the next ordinary read of the rank diagnoses it). The copy shares
 * r's path and run.json: free it with steps_rank_body_copy_free(), before the model. */
bool steps_rank_body_copy(struct rank_steps *r, struct rank_steps **copy);
void steps_rank_body_copy_free(struct rank_steps *c);
/* The index summary (analysis_index.c): steps_summary_open() reads RUN_DIR's summary
 * after every rank came from the index (before steps_finalize: it presets the aligned
 * set); a missing, stale or damaged one is not used (damage is diagnosed).
 * steps_summary_restore() (after finalize) hands its analyses to the analysis cache;
 * false when there was none. steps_summary_write() computes the distributed analysis
 * and the summary's pyramids and writes the summary (0 or an errno). */
void steps_summary_open(struct run *run, const char *run_dir);
bool steps_summary_restore(struct run *run);
/* After an open whose every rank came from the index (summary_rebuild), rank by rank
 * in bounded memory (analysis_index_rebuild.c); otherwise from the run as loaded. */
int steps_summary_write(struct run *run, const char *run_dir);
/* After a follower appended to RUN_DIR's whole index (a delta, or rewrote: the index
 * rewritten whole): keep its summary current, with a summary delta (analysis_index.h
 * FOLLOW MODE) or a whole summary. 0, an errno, or ENOTSUP (not kept: the next open
 * computes it). */
int steps_summary_follow(struct run *run, const char *run_dir, bool rewrote);
/* The same with pyramid chunks of chunk_words words (0: SUMMARY_CHUNK_WORDS; tests: a
 * summary as builds with another chunk size wrote it). */
int steps_summary_write_chunks(struct run *run, const char *run_dir, size_t chunk_words);
void steps_summary_free(void *summary);
/* What a summary holds, as its writer takes it: steps_summary_write() fills it from the
 * loaded run; tests/tools/gen_index.c from a run of D distinct ranks that N ranks copy.
 * A grid's rows are its stored rows; rank i uses stored row row_src[i] (NULL: row i):
 * ranks whose rows are the same bytes share one. steps_summary_write_out() writes
 * RUN_DIR's summary (its index parts must be written first): 0 or an errno. */
struct summary_grid_out {
	const struct heat_grid *g;
	const uint32_t *row_src;
};
/* Rank ri's budget phase sums over all its records, as the budget sums them (the index
 * summary keeps them, so an indexed open's budget reads no body): records, compute
 * (forward, backward, optimizer, compute), data, comm and other seconds. */
struct budget_sums {
	size_t n;
	double compute, data, comm, other;
	unsigned has;   /* bit BUDGET_LANE_x: a value of the line's phases among the records */
	size_t lane_n[BUDGET_NLANES]; /* records with a value of the line: the most values any
				       * one of its phase columns has */
	struct phase_flaw flaw_compute, flaw_comm; /* analysis.h: its compute phases', comm's */
	/* What the native budget leaves out (analysis_budget.c budget_left_out; 0 in the sums
	 * the index summary keeps): the records without any phase among n, the records with a
	 * phase right after one with a phase of the same step (a micro-batch: no step of its
	 * own to MFU), and the seconds of the phases in no line (left out as pytscope does,
	 * spec §6.5), foreign_metric the costliest of them, foreign_more: others have time too */
	size_t unphased, again;
	double foreign;
	int foreign_metric;
	bool foreign_more;
};
void analysis_budget_sums(struct run *run, size_t ri, struct budget_sums *out);
/* Rank ri's compute and comm at every aligned step into out and comm
 * (analysis_rank_compute()) and, when its records are the aligned steps, its budget
 * sums with them, from the same blocks of its columns (true; false: out and comm only,
 * the caller takes analysis_budget_sums()). */
struct budget_plan;
bool analysis_rank_compute_sums(struct run *run, const struct phase_sets *ps, const struct budget_plan *bp,
				size_t ri, double *out, double *comm, struct budget_sums *sums);
/* The budget line of each of ps's compute phases (-1: none) and the lines that have a
 * column, the same for every rank: taken once for a pass of
 * analysis_rank_compute_sums(). */
struct budget_plan {
	int *line;
	bool has[BUDGET_NLANES];
};
void analysis_budget_plan(const struct steps_model *m, const struct phase_sets *ps, struct budget_plan *bp);
void analysis_budget_plan_free(struct budget_plan *bp);

struct summary_out {
	size_t nranks;
	const int *rank_id;            /* ascending */
	bool aligned_contiguous;
	long aligned_lo;
	size_t naligned;
	const int64_t *aligned;        /* naligned steps unless contiguous */
	size_t nunion;
	const struct distributed *dist;   /* NULL: none */
	const struct budget_sums *bsum;   /* per rank; NULL: none */
	struct summary_grid_out grid[2];
	size_t ngrid;
	size_t chunk_words;               /* words per checked chunk; 0: SUMMARY_CHUNK_WORDS */
};
int steps_summary_write_out(const char *run_dir, const struct summary_out *s);
/* An index shard's part of the summary, next to its part file part_path (shard k of n;
 * analysis_index_inputs.c): 0 or an errno. */
int steps_summary_inputs_write(struct run *run, const char *part_path, unsigned k, unsigned n);
/* At finalize, when the summary is to be rebuilt (summary_rebuild) and some rank's steps
 * are not contiguous: the aligned set and the union size from the ranks' spans and the
 * step indexes the shards kept (analysis_index_inputs.c), the same as the steps give,
 * no rank's steps read; the inputs stay in m->inputs for the rebuild. False (nothing
 * set): the steps are needed. */
bool steps_summary_inputs_align(struct steps_model *m);
struct summary_inputs;
void summary_inputs_free(struct summary_inputs *in);

/* Re-read rank r's steps.jsonl and run.json into its body (load.c). */
void steps_rank_reparse(struct run *run, struct rank_steps *r);

static inline bool bit_get(const uint64_t *b, size_t i)
{
	return (b[i >> 6] >> (i & 63)) & 1u;
}

static inline void bit_set(uint64_t *b, size_t i)
{
	b[i >> 6] |= (uint64_t)1 << (i & 63);
}

/* ---- writing values (rank_set, rank_set_nano; inline for the loader's line loop) ---- */

/* Exact nanosecond code of v (v == code / 1e9 bit for bit), when there is one. */
static inline bool store_nano_code(double v, uint32_t *code)
{
	if (!(v >= 0) || v > 4.294967295)
		return false;
	uint32_t c = (uint32_t)(v * 1e9 + 0.5);
	if ((double)c / 1e9 != v)
		return false;
	*code = c;
	return true;
}

/* Column metric of r, created (store.c) or grown to hold position pos. */
struct column *store_col_room(struct rank_steps *r, int metric, size_t pos);
/* Re-encode a column as doubles (a value its encoding cannot hold exactly). */
void store_col_to_f64(struct column *c);

static inline struct column *store_col_at(struct rank_steps *r, int metric, size_t pos)
{
	if ((size_t)metric < r->ncol && pos < r->col[metric].cap)
		return &r->col[metric];
	return store_col_room(r, metric, pos);
}

/* Mark position pos present (counted once). */
static inline void store_col_mark(struct column *c, size_t pos)
{
	uint64_t *w = &c->present[pos / 64], bit = (uint64_t)1 << (pos % 64);
	c->count += !(*w & bit);
	*w |= bit;
}

/* rank_set (see steps.h). */
static inline void store_set(struct rank_steps *r, size_t pos, int metric, double value)
{
	struct column *c = store_col_at(r, metric, pos);
	uint32_t code = 0;
	if ((c->enc == ENC_NANO && !store_nano_code(value, &code)) ||
	    (c->enc == ENC_F32 && c->exact && (double)(float)value != value && value == value))
		store_col_to_f64(c);
	if (c->enc == ENC_NANO)
		((uint32_t *)c->data)[pos] = code;
	else if (c->enc == ENC_F32)
		((float *)c->data)[pos] = (float)value;
	else
		((double *)c->data)[pos] = value;
	store_col_mark(c, pos);
}

/* rank_set_nano (see steps.h): the code itself where the column holds codes. */
static inline void store_set_nano(struct rank_steps *r, size_t pos, int metric, uint32_t code)
{
	struct column *c = store_col_at(r, metric, pos);
	if (c->enc != ENC_NANO) {
		store_set(r, pos, metric, (double)code / 1e9);
		return;
	}
	((uint32_t *)c->data)[pos] = code;
	store_col_mark(c, pos);
}

static inline size_t bitmap_bytes(size_t nbits)
{
	return ((nbits + 63) / 64) * sizeof(uint64_t);
}

/* Grow a bitmap from old_bits to new_bits, zeroing the new part. */
static inline uint64_t *bitmap_grow(uint64_t *b, size_t old_bits, size_t new_bits)
{
	size_t ob = b ? bitmap_bytes(old_bits) : 0, nb = bitmap_bytes(new_bits);
	b = xrealloc(b, nb);
	if (nb > ob)
		memset((char *)b + ob, 0, nb - ob);
	return b;
}

/* Make r->col hold at least n columns (new ones empty: cap 0); r->col is only ever
 * grown through here (store_body.c). */
void store_rank_cols(struct rank_steps *r, size_t n);
/* Set the capacity of r's column metric to exactly ncap entries (new entries zero and
 * missing; store.c). */
void store_col_resize(struct rank_steps *r, size_t metric, size_t ncap);

/* Shared by store.c (finalize) and store_follow.c / store_index.c. */
void store_build_aligned(struct steps_model *m);
void store_build_tail(struct steps_model *m);
void store_build_union(struct steps_model *m);
int store_cmp_rank(const void *a, const void *b);
size_t store_col_elem(unsigned char enc);
/* The encoding a fresh load ends with after storing the n values v in a column of this
 * kind (exact: c->exact): phases in nanosecond codes unless one has none, others float32
 * unless exact and one is not a float; store_col_encode() replaces c's data by v in
 * that encoding (thawing a run-length column for appends: the values appended next are
 * rounded as a fresh load rounds them). */
unsigned char store_col_fresh_enc(const double *v, size_t n, enum metric_kind kind, bool exact);
void store_col_encode(struct column *c, const double *v, size_t n, unsigned char enc);
void store_column_free(struct column *c);
/* Free a rank's body (columns, steps, timestamps, step index) and clear those fields. */
void store_rank_free_body(struct rank_steps *r);
/* r's body pointers cleared, not freed (a copy of another rank's shell starts so). */
void store_rank_forget_body(struct rank_steps *r);
void store_rank_build_index(struct rank_steps *r);
void store_rank_compact(struct rank_steps *r);
void store_slots_rebuild(struct steps_model *m, size_t need);
/* Follow mode (store_follow.c): rank ri takes meta's run.json, read again (and its heap
 * members); the next steps_refresh() drops the analyses, as after a reload. */
void steps_rank_replace_meta(struct steps_model *m, size_t ri, struct steps_meta *meta);
/* Shared by store.c and store_read.c. */
/* A column's raw (non-RLE) value at pos, decoded to double (inline: the analyses read
 * every value of a column through it). */
static inline double store_col_raw(const struct column *c, size_t pos)
{
	switch (c->enc) {
	case ENC_NANO: return (double)((const uint32_t *)c->data)[pos] / 1e9;
	case ENC_F32: return (double)((const float *)c->data)[pos];
	default: return ((const double *)c->data)[pos];
	}
}
/* n values of column c (not RLE) from position p0 on into x: store_col_raw() of each. */
void analysis_column_decode(const struct column *c, size_t p0, double *x, size_t n);
/* An RLE column's value at pos: the last run starting at or before pos. */
static inline double store_col_rle_get(const struct column *c, size_t pos)
{
	size_t lo = 0, hi = c->nruns;
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (c->run_start[mid] <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return c->run_val[lo];
}

/* A cursor reading one column of a (loaded) rank at mostly ascending positions:
 * steps_value() without the call, an RLE column's run found by walking on from the
 * previous one (a binary search when the position went back). */
struct col_cursor {
	const struct column *c;   /* NULL: the rank has no such column */
	size_t n, run;
};

static inline void col_cursor_init(struct col_cursor *k, const struct rank_steps *r, int metric)
{
	k->c = metric >= 0 && (size_t)metric < r->ncol ? &r->col[metric] : NULL;
	k->n = r->n;
	k->run = 0;
}

static inline bool col_cursor_get(struct col_cursor *k, size_t pos, double *out)
{
	const struct column *c = k->c;
	if (!c || pos >= k->n || (c->cap == 0 && c->enc != ENC_RLE))
		return false;
	if (!c->all_present && (pos >= c->cap || !bit_get(c->present, pos)))
		return false;
	if (c->enc != ENC_RLE) {
		*out = store_col_raw(c, pos);
		return true;
	}
	if (c->run_start[k->run] > pos) {
		*out = store_col_rle_get(c, pos);
		return true;
	}
	while (k->run + 1 < c->nruns && c->run_start[k->run + 1] <= pos)
		k->run++;
	*out = c->run_val[k->run];
	return true;
}
/* The table slot holding rank id `rank`, or the empty slot where it would go. */
uint64_t *store_slot_find(const struct steps_model *m, int rank);
/* A slot for rank id `rank` at index ri; the index a full slot holds. */
static inline uint64_t store_slot_make(int rank, size_t ri)
{
	return (uint64_t)(uint32_t)rank << 32 | (uint32_t)(ri + 1);
}

static inline size_t store_slot_index(uint64_t slot)
{
	return (size_t)(uint32_t)slot - 1;
}
/* The k-th distinct step of a rank, in step order. */
long store_rank_distinct_step(const struct rank_steps *r, size_t k);
/* steps_value(), steps_step(), steps_timestamp() of a loaded rank (or a body copy). */
bool store_rank_value(const struct rank_steps *r, int metric, size_t pos, double *out);
long store_rank_step(const struct rank_steps *r, size_t pos);
bool store_rank_timestamp(const struct rank_steps *r, size_t pos, double *out);

#endif
