/* SPDX-License-Identifier: MIT */
/* grid.h: a rows x cols matrix of values (ranks x steps, workers x seconds, ...) that a
 * heatmap can draw without knowing where the numbers come from, plus per-block
 * aggregates so a frame costs what is visible, whatever the size of the matrix.
 *
 * A producer (model code: the step model, DASF task balance, ...) fills a struct
 * grid_src with an accessor and labels. grid_blocks_build() reads every value once
 * and keeps, per row and per block of `block` columns, the worst (largest) value, the
 * mean and the count of present values. grid_rect() then answers "worst and mean over
 * rows [r0,r1) x cols [c0,c1)" from whole blocks plus the ragged edges.
 *
 * Conventions: larger is worse (times, slowdowns, busy fractions). Missing values are
 * reported by value() returning false and never count as 0. Labels are unsanitized
 * (the UI sanitizes them). The grid_src and its ud must outlive any grid_blocks built
 * from it. Not thread-safe; build once, then read. */
#ifndef MODEL_GRID_H
#define MODEL_GRID_H

#include "model/base.h"

struct evidence;
struct groups;
struct outline;

struct grid_src {
	size_t nrows, ncols;
	const char *title;      /* "step compute (s)" */
	const char *row_axis;   /* "rank", "worker" */
	const char *col_axis;   /* "step", "second" */
	const char *unit;       /* "s", "%", "" */
	void *ud;
	/* Value at (row, col); false when missing. Required. */
	bool (*value)(void *ud, size_t row, size_t col, double *out);
	/* Label of a row / column ("12", "gpu12:3"); NULL means the index. */
	void (*row_label)(void *ud, size_t row, char *buf, size_t n);
	void (*col_label)(void *ud, size_t col, char *buf, size_t n);
	/* Optional: mean and worst of row over cols [c0,c1) from the producer's own
	 * aggregates (e.g. analysis.h heat_range); grid_rect then needs no grid_blocks. */
	bool (*range)(void *ud, size_t row, size_t c0, size_t c1, double *mean, double *worst);
	/* Optional: the worst of each of n buckets of spc columns from c0 in one row (NaN:
	 * no value), what range() gives bucket by bucket, in one pass over the row (a
	 * heatmap frame with many rows per line reads each row once). */
	void (*row_buckets)(void *ud, size_t row, size_t c0, size_t spc, size_t n, float *worst);
	/* Optional: the colour scale grid_colour_scale() gives for this grid, kept by the
	 * producer (an index summary), so opening a heatmap reads no row; false: compute it. */
	bool (*scale)(void *ud, double *lo, double *hi);
	/* Optional ids: row -> id (rank id), id -> row (-1 when absent), col -> id (step
	 * number), id -> col (the first col whose id is >= the given id, -1 when none). */
	long (*row_id)(void *ud, size_t row);
	long (*row_find)(void *ud, long id);
	long (*col_id)(void *ud, size_t col);
	long (*col_find)(void *ud, long id);
	/* Optional: extra detail of one cell for a status line ("data 0.01 fwd 0.20 ..."). */
	void (*describe)(void *ud, size_t row, size_t col, char *buf, size_t n);
	/* Optional: what Enter on the cells [c0, c1) of a row opens (model/findings.h): a
	 * bucket of columns (the heatmap zoomed out) opens all of them; false: nothing. The
	 * caller frees out with evidence_free(). */
	bool (*cell_evidence)(void *ud, size_t row, size_t c0, size_t c1, struct evidence *out);
	/* Signed differences (a comparison's B - A): the colour scale is symmetric around 0,
	 * larger still worse. */
	bool diverging;
	/* A coarse grid: each column is a block of up to col_span col_axis units (steps),
	 * its value the mean and its worst the worst of the block (a pyramid kept at a lower
	 * resolution than the data to fit memory); col_id is the block's first. 0 or 1: a
	 * column is one unit. */
	size_t col_span;
	/* Optional: the rows grouped (ranks by node, model/groups.h), owned by the producer;
	 * the heatmap can show one line per group. NULL: no grouping. */
	const struct groups *groups;
	/* Optional: what the columns leave out, said under the grid ("10 steps left out
	 * (20-29): missing on rank 3; ..."), owned by the producer. NULL: nothing. */
	const char *note;
};

struct run;
struct grid_job;

/* A family of grids over a model, one per metric choice; the heatmap pane draws any of
 * them. A subsystem lists its providers over a run (struct subsystem .grids, registry.h;
 * registry_grid() finds them by name); a comparison hands out its own over the pair
 * (model/compare/views.h compare_tabs). `model` is what the provider reads, as its owner
 * hands it out: the struct run for a subsystem's grid, the struct compare for the
 * comparison's. */
struct grid_provider {
	const char *name;       /* heatmap pane argument: "steps", "tasks" */
	const char *label;      /* its tab label: "Task balance" */
	const char *metric_keys;/* what `m` cycles through, for the pane's note: "metric" */
	size_t (*nmetrics)(void *model);               /* 0: no data */
	const char *(*metric_name)(void *model, size_t i);
	/* Fill src for metric i (src->ud allocated here); false with a reason in err. */
	bool (*open)(void *model, size_t metric, struct grid_src *src, char *err, size_t errn);
	void (*close)(struct grid_src *src);
	/* Optional: metric i's grid needs a pass over every row that is not in memory
	 * (seconds or more on a big run): a job that makes it on a thread of its own, or NULL
	 * (call open()). The model must not change while it runs. job_poll(): true once it
	 * ended; rows made so far of the total. job_end(): with src, the ended job's grid into
	 * src as open() fills it (false with why in err), the job freed; with src NULL, the
	 * job stopped (it may be running) and freed. */
	struct grid_job *(*job_start)(void *model, size_t metric);
	bool (*job_poll)(struct grid_job *job, size_t *done, size_t *total);
	bool (*job_end)(struct grid_job *job, struct grid_src *src, char *err, size_t errn);
};


struct grid_blocks {
	size_t nrows, ncols;
	size_t block;           /* columns per block */
	size_t nblocks;         /* ceil(ncols / block) */
	float *worst;           /* nrows * nblocks, NaN when the block has no value */
	float *sum;             /* nrows * nblocks */
	uint32_t *count;        /* nrows * nblocks */
	/* Whole-grid statistics over present values, for colour scales. */
	size_t npresent;
	double min, max, median, p99;
};

/* Read every value once. block == 0 picks a size (64). The caller frees with grid_blocks_free. */
struct grid_blocks *grid_blocks_build(const struct grid_src *src, size_t block);
void grid_blocks_free(struct grid_blocks *b);

/* Worst and mean over rows [r0,r1) x cols [c0,c1) (clamped). Returns the number of
 * present values; 0 means the whole rectangle is missing (worst/mean untouched). With
 * src->range (b may be NULL) the count is the number of rows with a value and the mean
 * is the mean of the row means. */
size_t grid_rect(const struct grid_src *src, const struct grid_blocks *b, size_t r0, size_t r1,
		 size_t c0, size_t c1, double *worst, double *mean);

/* A heatmap's colour scale: *lo the lower median and *hi the maximum of the row means
 * over 64 equal column ranges of every row (fewer when there are fewer columns), *hi
 * raised to the whole grid's worst. Reads every row once; NaN and NaN when nothing is
 * present. */
void grid_colour_scale(const struct grid_src *src, const struct grid_blocks *b, double *lo, double *hi);
/* The same a row at a time, for a producer that has one row at hand at once (the index
 * summary writes each pyramid row as it is built): init, add every row in order, done
 * (frees what init took). */
struct grid_scale {
	double *v;
	size_t n, nc, ncols;
	bool have_worst;
	double worst;
	/* a producer's cache of how it reads the segments (heat_row_scale: the pyramid
	 * blocks each one takes); one allocation, NULL until made, freed by done */
	void *plan;
};
void grid_scale_init(struct grid_scale *s, size_t nrows, size_t ncols);
void grid_scale_add_row(struct grid_scale *s, const struct grid_src *src, const struct grid_blocks *b, size_t r);
/* What grid_scale_add_row() does, for a producer that computes a row's ranges itself
 * (analysis_heatmap.c heat_row_scale): for each segment k < s->nc, columns [c0, c1),
 * the mean of its present cells (none: skip), then the row's worst (none: skip). */
void grid_scale_segment(const struct grid_scale *s, size_t k, size_t *c0, size_t *c1);
void grid_scale_add_mean(struct grid_scale *s, double mean);
void grid_scale_add_worst(struct grid_scale *s, double worst);
void grid_scale_done(struct grid_scale *s, double *lo, double *hi);

/* The same over an explicit list of rows; *worst_row (when not NULL) gets the row that
 * holds the worst value. */
size_t grid_rect_rows(const struct grid_src *src, const struct grid_blocks *b, const size_t *rows,
		      size_t n, size_t c0, size_t c1, double *worst, double *mean, size_t *worst_row);
/* The worst of rows (rows[0..n), or base..base+n when rows is NULL) in each of ncols
 * buckets of spc columns from c0 (NaN: no value), as grid_rect_rows gives cell by cell:
 * one pass per row with src->row_buckets. */
void grid_window_worst(const struct grid_src *src, const struct grid_blocks *b, const size_t *rows, size_t base,
		       size_t n, size_t c0, size_t spc, size_t ncols, double *worst);
/* Lines [l0, l1) of an outline over src->groups (groups.h): the rows they cover. */
size_t grid_rect_lines(const struct grid_src *src, const struct grid_blocks *b, const struct outline *ol,
		       size_t l0, size_t l1, size_t c0, size_t c1, double *worst, double *mean,
		       size_t *worst_row);
/* Label of an outline line: the group's name for a group line, else the row's label. */
void grid_line_label(const struct grid_src *src, const struct outline *ol, size_t l, char *buf, size_t n);

/* A heatmap window: rows (or outline lines) in buckets of rpr, columns
 * [c0, c0 + ncols * spc) in buckets of spc (each bucket one cell on screen). */
struct grid_window {
	size_t rpr, spc;        /* rows per cell, columns per cell (0 means 1) */
	size_t c0, ncols;       /* first column, cells across */
	const struct outline *ol; /* NULL: one line per row; else the lines of src->groups */
};

/* The cells of a window as a table ("heatmap_cells"): per cell its first/last row and
 * column labels (on outline lines the rows the cell holds: groups.h outline_span and
 * outline_last), the metric (src->title), worst and mean. The heatmap pane's `e` and
 * `--export heatmap_cells` both write this table. The caller frees it. */
struct table *grid_cells_table(const struct grid_src *src, const struct grid_blocks *b,
			       const struct grid_window *w);

/* Label helpers: the producer's label, or the index. */
void grid_row_label(const struct grid_src *src, size_t row, char *buf, size_t n);
void grid_col_label(const struct grid_src *src, size_t col, char *buf, size_t n);
/* The row's label in full, however long (a DASF worker's host and address fits no fixed
 * buffer); malloc'd, the caller frees. grid_cells_table writes labels so, whole. */
char *grid_row_label_dup(const struct grid_src *src, size_t row);
/* True when the rows are ranks with ids (row_axis "rank" and a row_id callback). */
bool grid_rows_are_ranks(const struct grid_src *src);

#endif
