/* SPDX-License-Identifier: MIT */
/* load_genai.c: the GenAI-Perf loader (formats.md §3): probe, the artifacts-tree walk
 * (a directory it cannot list is an error, sweep_dir_unreadable), and one sweep_cfg per
 * run directory: *_genai_perf.json (full precision) first, then *_genai_perf.csv (or
 * AIPerf's *_aiperf.csv, load_genai_csv.c) to fill gaps and cross-check, then the raw
 * profile export recomputed (load_genai_raw.c). analyze_export_genai_perf.csv and
 * checkpoint.json add run configs of their own (load_genai_runs.c); rows repeating a
 * run directory are dropped. A raw export is known by its name where it can be
 * (*profile_export*.json, or X.json beside X_genai_perf.json/csv), so an empty,
 * unreadable or garbled one is named, as is any file of a GenAI-Perf name that is no
 * regular file (a FIFO: never read); one that does not open makes no config, and when no
 * export of its level made one, it is listed as unread (sweep_file_unread). The
 * experiments of a raw export holding several are named by their level (name_experiments).
 * A directory with GenAI-Perf's inputs.json but no export or raw file is a run without
 * results: warned about, and a config without values, so its level is missing in sight.
 * The bytes of every file of the run's PATHs are in the load's total before the first is
 * read (model/byteplan.h); a file's are reported done as its requests are walked (a raw
 * export), else when it is read. Problems become diagnostics; nothing here prints or exits. */
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "model/byteplan.h"
#include "model/dirlist.h"
#include "model/json.h"
#include "model/run.h"
#include "model/sweep/sweep.h"
#include "model/sweep/genai.h"
#include "model/sweep/io.h"
#include "model/text.h"
#include "model/xalloc.h"

#define WALK_MAX_DEPTH 6
#define WALK_MAX_FILES 20000
#define SNIFF_BYTES 4096
#define PROGRESS_STEP (1LL << 20)   /* bytes of a file reported done at a time */

/* ---------------------------------------------------------------------------------
 * Names */

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

static bool is_analyze_csv(const char *name)
{
	return strcmp(name, "analyze_export_genai_perf.csv") == 0;
}

static bool is_checkpoint(const char *name)
{
	return strcmp(name, "checkpoint.json") == 0;
}

/* GenAI-Perf's request inputs, written into a run directory before perf_analyzer runs. */
static bool is_inputs(const char *name)
{
	return strcmp(name, "inputs.json") == 0;
}

/* Exported summaries: X_genai_perf.json, X_genai_perf.csv and AIPerf's X_aiperf.csv. */
enum export_kind { EXP_NONE, EXP_JSON, EXP_CSV };

static const struct { const char *suffix; enum export_kind kind; } export_suffixes[] = {
	{ "_genai_perf.json", EXP_JSON }, { "_genai_perf.csv", EXP_CSV }, { "_aiperf.csv", EXP_CSV },
};

/* Kind of an export file name, and the length of its prefix X. */
static enum export_kind export_kind(const char *name, size_t *prefix_len)
{
	for (size_t i = 0; i < ARRAY_LEN(export_suffixes); i++)
		if (ends_with(name, export_suffixes[i].suffix)) {
			if (prefix_len)
				*prefix_len = strlen(name) - strlen(export_suffixes[i].suffix);
			return export_suffixes[i].kind;
		}
	return EXP_NONE;
}

static bool is_export(const char *name)
{
	return export_kind(name, NULL) != EXP_NONE;
}

/* A name a raw perf_analyzer export may have: *.json but no other kind's, nor a PyTorch
 * profiler trace's (*.pt.trace.json) or pytscope's run.json: a pytscope run has those in
 * every rank dir, and sniffing them cost every open of such a run, from its index too, a
 * read of each. */
static bool raw_candidate(const char *name)
{
	return ends_with(name, ".json") && !is_export(name) && !is_checkpoint(name) &&
	       !is_inputs(name) && strcmp(name, "run.json") != 0 &&
	       !ends_with(name, ".pt.trace.json");
}

/* perf_analyzer's name for its raw export (profile_export.json, with --profile-export-file
 * NAME.json: NAME_profile_export.json and the like): read whatever its content. */
static bool raw_by_name(const char *name)
{
	return raw_candidate(name) && strstr(name, "profile_export") != NULL;
}

/* A raw perf_analyzer export: a JSON object whose first bytes hold "experiments". */
static bool sniff_raw(const char *path)
{
	char buf[SNIFF_BYTES + 1];
	size_t n = sweep_sniff(path, buf, SNIFF_BYTES);
	buf[n] = '\0';
	return strstr(buf, "\"experiments\"") != NULL;
}

static bool relevant_name(const char *name)
{
	return is_export(name) || is_analyze_csv(name) || is_checkpoint(name) || raw_by_name(name);
}

static bool relevant_file(const char *path)
{
	const char *name = base_name(path);
	return relevant_name(name) || (raw_candidate(name) && sniff_raw(path));
}

static int cmp_entry_name(const void *key, const void *e)
{
	return strcmp(key, ((const struct dirlist_entry *)e)->name);
}

/* X.json beside X_genai_perf.json or X_genai_perf.csv in listing l (sorted by name): the
 * raw export the exports were named after (--profile-export-file X.json). */
static bool raw_by_export(const struct dirlist *l, const char *name)
{
	static const char *const ext[] = { "_genai_perf.json", "_genai_perf.csv" };
	size_t stem = strlen(name) - strlen(".json");
	for (size_t i = 0; i < ARRAY_LEN(ext); i++) {
		char *sib = xasprintf("%.*s%s", (int)stem, name, ext[i]);
		bool found = bsearch(sib, l->v, l->n, sizeof(*l->v), cmp_entry_name) != NULL;
		free(sib);
		if (found)
			return true;
	}
	return false;
}

/* The path of file name of listing l of dir when it is relevant, else NULL: decided by
 * the name where it can be (a raw export's too, by raw_by_name or raw_by_export, so an
 * empty, unreadable or garbled one is named, and one that is no regular file: a FIFO, a
 * dangling link), so the walk makes no path for most entries. */
static char *relevant_entry(const char *dir, const struct dirlist *l, const char *name)
{
	bool raw = !relevant_name(name);
	if (raw && !raw_candidate(name))
		return NULL;
	char *p = dirlist_path(dir, name);
	if (raw && !raw_by_export(l, name) && !sniff_raw(p)) {
		free(p);
		return NULL;
	}
	return p;
}

/* ---------------------------------------------------------------------------------
 * Directory walk: every relevant file, sorted, grouped by directory. */

struct file_list {
	char **v;
	size_t n, cap;
};

static void file_list_add(struct file_list *out, char *path)
{
	xgrow((void **)&out->v, &out->cap, out->n + 1, sizeof(*out->v));
	out->v[out->n++] = path;
}

/* The inputs.json of dir (listing l), which holds no relevant file, nor does any directory
 * under it: a run directory without results (GenAI-Perf writes inputs.json before
 * perf_analyzer runs). */
static void add_no_results(const char *dir, const struct dirlist *l, struct file_list *out)
{
	const struct dirlist_entry *e = bsearch("inputs.json", l->v, l->n, sizeof(*l->v), cmp_entry_name);
	if (e && e->kind == DIRENT_FILE && out->n < WALK_MAX_FILES)
		file_list_add(out, dirlist_path(dir, e->name));
}

/* Every relevant file under dir into out, and the inputs.json of a run directory without
 * results (first: only the first relevant file, for the probe; a run directory without
 * results is no reason to claim a path); run: the load's, told of a directory it cannot
 * list (NULL: nothing is reported). */
static void walk(struct run *run, const char *dir, int depth, bool first, struct file_list *out)
{
	if (depth > WALK_MAX_DEPTH || out->n >= WALK_MAX_FILES)
		return;
	struct dirlist *l = dirlist_open(dir);
	if (!l && run)
		sweep_dir_unreadable(run, dir, false);
	size_t before = out->n;
	for (size_t i = 0; l && i < l->n && out->n < WALK_MAX_FILES; i++) {
		const struct dirlist_entry *e = &l->v[i];
		if (e->name[0] == '.')
			continue;
		if (e->kind == DIRENT_DIR) {
			char *p = dirlist_path(dir, e->name);
			walk(run, p, depth + 1, first, out);
			free(p);
		} else {
			char *p = relevant_entry(dir, l, e->name);
			if (p)
				file_list_add(out, p);
		}
		if (first && out->n)
			break;
	}
	if (l && !first && out->n == before)
		add_no_results(dir, l, out);
	dirlist_close(l);
}

static void file_list_free(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
}

void sweep_genai_dir_files(const char *dir, char ***files, size_t *n)
{
	struct file_list l = { 0 };
	walk(NULL, dir, 0, false, &l);
	*files = l.v;
	*n = l.n;
}

int sweep_genai_probe(const char *path, const struct opts *opts)
{
	(void)opts;
	struct stat st;
	if (stat(path, &st) != 0)
		return 0;
	if (S_ISREG(st.st_mode))
		return relevant_file(path) ? 90 : 0;
	if (!S_ISDIR(st.st_mode))
		return 0;
	struct file_list l = { 0 };
	walk(NULL, path, 2, true, &l);
	int r = l.n ? 80 : 0;
	file_list_free(&l);
	return r;
}

/* ---------------------------------------------------------------------------------
 * *_genai_perf.json */

/* The statistics of obj (metric `what`) into v/has; a statistic that is there but not a
 * finite number (NaN, Infinity, 1e400, a string), or negative, is warned about with its
 * offset and left out. Returns how many were left out; null is missing, not bad. */
static size_t json_stats_into(struct run *run, const char *path, const struct json_doc *d, int obj,
			      const char *what, double *v, bool *has)
{
	size_t bad = 0;
	for (int k = 0; k < SS_N; k++) {
		double x;
		int t = json_get(d, obj, sweep_stat_name(k));
		if (t < 0 || json_is_null(d, t))
			continue;
		char field[128];
		snprintf(field, sizeof(field), "%s %s", what, sweep_stat_name(k));
		if (!json_number(d, t, &x) || !isfinite(x))
			sweep_bad_json(run, path, d, t, field, SWEEP_BAD_NOT_FINITE, &bad);
		else if (x < 0)
			sweep_bad_json(run, path, d, t, field, SWEEP_BAD_NEGATIVE, &bad);
		else {
			v[k] = x;
			has[k] = true;
		}
	}
	return bad;
}

void genai_set_stim(struct sweep_cfg *c, enum sweep_stim st, const struct json_doc *d, int tok)
{
	double v;
	if (tok >= 0 && !c->has_stim[st] && json_number_str(d, tok, &v, true) && isfinite(v)) {
		c->stim[st] = v;
		c->has_stim[st] = true;
	}
}

/* Workload key k of c from token tok (a string, or an array of strings joined by ","),
 * sanitized, unless already set or empty. */
static void set_workload(struct sweep_cfg *c, enum sweep_wl k, const struct json_doc *d, int tok)
{
	if (tok < 0 || c->wl[k] || !(json_is_string(d, tok) || json_is_array(d, tok)))
		return;
	char raw[256] = "";
	if (json_is_string(d, tok))
		json_strcpy(d, tok, raw, sizeof(raw));
	for (int e = json_is_array(d, tok) ? json_first(d, tok) : -1; e >= 0; e = json_next(d, tok, e)) {
		size_t used = strlen(raw);
		if (json_is_string(d, e) && used + 2 < sizeof(raw)) {
			if (used)
				raw[used++] = ',';
			json_strcpy(d, e, raw + used, sizeof(raw) - used);
		}
	}
	if (*raw)
		c->wl[k] = text_sanitize_dup(raw, 0);
}

/* What the config measures: model_names and the endpoint's url, service_kind, backend and
 * type (nested layout), else the flat keys of older versions (model, url, ...). */
static void read_workload(const struct json_doc *d, int ic, struct sweep_cfg *c)
{
	int ep = json_get(d, ic, "endpoint");
	if (ep >= 0 && !json_is_object(d, ep))
		ep = -1;
	static const char *const nested[WL_N] = { NULL, "url", "service_kind", "backend", "type" };
	static const char *const flat[WL_N] = { "model", "url", "service_kind", "backend", "endpoint_type" };
	set_workload(c, WL_MODEL, d, json_get(d, ic, "model_names"));
	for (int k = 0; k < WL_N; k++) {
		if (nested[k] && ep >= 0)
			set_workload(c, k, d, json_get(d, ep, nested[k]));
		set_workload(c, k, d, json_get(d, ic, flat[k]));
	}
}

/* input_config: the nested (2025) layout, and the flat keys of older versions. */
static void read_input_config(const struct json_doc *d, int ic, struct sweep_cfg *c)
{
	if (ic < 0 || !json_is_object(d, ic))
		return;
	int pa = json_get(d, ic, "perf_analyzer");
	int stim = pa >= 0 ? json_get(d, pa, "stimulus") : -1;
	int in = json_get(d, ic, "input");
	int ep = json_get(d, ic, "endpoint");
	genai_set_stim(c, ST_CONCURRENCY, d, stim >= 0 ? json_get(d, stim, "concurrency") : -1);
	genai_set_stim(c, ST_REQUEST_RATE, d, stim >= 0 ? json_get(d, stim, "request_rate") : -1);
	genai_set_stim(c, ST_CONCURRENCY, d, json_get(d, ic, "concurrency"));
	genai_set_stim(c, ST_REQUEST_RATE, d, json_get(d, ic, "request_rate"));
	int syn = in >= 0 ? json_get(d, in, "synthetic_tokens") : -1;
	genai_set_stim(c, ST_INPUT_LENGTH, d, syn >= 0 ? json_get(d, syn, "mean") : -1);
	genai_set_stim(c, ST_INPUT_LENGTH, d, json_get(d, ic, "synthetic_input_tokens_mean"));
	genai_set_stim(c, ST_BATCH_SIZE, d, in >= 0 ? json_get(d, in, "batch_size") : -1);
	genai_set_stim(c, ST_BATCH_SIZE, d, json_get(d, ic, "batch_size_text"));
	genai_set_stim(c, ST_BATCH_SIZE, d, json_get(d, ic, "batch_size"));
	genai_set_stim(c, ST_DATASET_ENTRIES, d, in >= 0 ? json_get(d, in, "num_dataset_entries") : -1);
	genai_set_stim(c, ST_DATASET_ENTRIES, d, json_get(d, ic, "num_dataset_entries"));
	genai_set_stim(c, ST_DATASET_ENTRIES, d, json_get(d, ic, "num_prompts"));
	read_workload(d, ic, c);
	bool b;
	int sk = ep >= 0 ? json_get(d, ep, "streaming") : json_get(d, ic, "streaming");
	if (json_bool(d, sk, &b)) {
		c->streaming = b;
		c->has_streaming = true;
	}
}

static size_t read_telemetry(struct run *run, const char *path, const struct json_doc *d, int tel,
			     struct sweep_set *s, size_t ci)
{
	size_t bad = 0;
	if (tel < 0 || !json_is_object(d, tel))
		return 0;
	for (int k = json_first(d, tel); k >= 0; k = json_next(d, tel, k)) {
		char metric[96], unit[32] = "";
		json_strcpy(d, k, metric, sizeof(metric));
		int mo = k + 1;
		if (!json_is_object(d, mo))
			continue;
		json_strcpy(d, json_get(d, mo, "unit"), unit, sizeof(unit));
		for (int g = json_first(d, mo); g >= 0; g = json_next(d, mo, g)) {
			if (!json_is_object(d, g + 1))
				continue;
			char gpu[64];
			json_strcpy(d, g, gpu, sizeof(gpu));
			struct sweep_gpu *row = sweep_add_gpu(s, ci, metric, unit, gpu);
			bad += json_stats_into(run, path, d, g + 1, metric, row->v, row->has);
		}
	}
	return bad;
}

static void load_export_json(struct run *run, struct sweep_set *s, size_t ci, const char *path)
{
	struct json_doc d;
	size_t src;
	int root = sweep_json_open(run, path, "genai-perf", &d, &src);
	if (root < 0)
		return;
	struct sweep_cfg *c = &s->cfg[ci];
	size_t recs = 0, bad = 0;
	for (int m = 0; m < SM_N; m++) {
		int o = json_get(&d, root, sweep_metric_info(m)->name);
		if (o < 0)
			continue;
		if (!json_is_object(&d, o)) {
			diag_add(&run->diags, DIAG_WARN, path, -1, d.tok[o].start, -1,
				 "%s is not an object", sweep_metric_info(m)->name);
			bad++;
			continue;
		}
		bad += json_stats_into(run, path, &d, o, sweep_metric_info(m)->name, c->stored.v[m],
				       c->stored.has[m]);
		char unit[32] = "";
		json_strcpy(&d, json_get(&d, o, "unit"), unit, sizeof(unit));
		double scale = genai_unit_scale(m, unit);
		for (int k = 0; k < SS_N && scale != 1.0; k++)
			c->stored.v[m][k] *= scale;
		c->has_stored = true;
		recs++;
	}
	read_input_config(&d, json_get(&d, root, "input_config"), c);
	bad += read_telemetry(run, path, &d, json_get(&d, root, "telemetry_stats"), s, ci);
	if (recs == 0)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "no GenAI-Perf metrics in this file");
	run_source_done(run, src, recs, bad, 0, false);
	sweep_json_close(&d);
}

/* ---------------------------------------------------------------------------------
 * Grouping per run directory and the loader entry point. */

/* The export prefix X of X_genai_perf.{csv,json}, or the raw file's stem. */
static char *file_prefix(const char *path)
{
	const char *name = base_name(path);
	size_t n = strlen(name);
	if (export_kind(name, &n) == EXP_NONE && ends_with(name, ".json"))
		n -= 5;
	char *dir = xstrndup(path, (size_t)(name - path));
	char *p = xasprintf("%s%.*s", dir, (int)n, name);
	free(dir);
	return p;
}

static char *cfg_name(const char *root, const char *prefix, bool root_is_file)
{
	const char *slash = strrchr(prefix, '/');
	size_t dl = slash ? (size_t)(slash - prefix) : 0;
	size_t rl = strlen(root);
	while (rl > 1 && root[rl - 1] == '/')
		rl--;
	if (!root_is_file && dl > rl && strncmp(prefix, root, rl) == 0 && prefix[rl] == '/') {
		size_t at = rl; /* past the slashes a join after a root ending in '/' doubled */
		while (prefix[at] == '/')
			at++;
		if (dl > at)
			return xstrndup(prefix + at, dl - at);
	}
	/* the run dir itself (or a file in it): its own base name */
	char *dir = xstrndup(prefix, dl ? dl : strlen(prefix));
	char *name = xstrdup(base_name(dir));
	free(dir);
	return name;
}

/* The first artifacts config of this load with path prefix (a file's config), SIZE_MAX none. */
static size_t find_prefix(const struct sweep_set *s, size_t first, const char *prefix)
{
	for (size_t i = first; i < s->ncfg; i++)
		if (strcmp(s->cfg[i].source, "artifacts") == 0 && s->cfg[i].path &&
		    strcmp(s->cfg[i].path, prefix) == 0)
			return i;
	return SIZE_MAX;
}

static size_t cfg_for_prefix(struct sweep_set *s, size_t first, const char *root,
			     const char *prefix, bool root_is_file)
{
	size_t found = find_prefix(s, first, prefix);
	if (found != SIZE_MAX)
		return found;
	char *name = cfg_name(root, prefix, root_is_file);
	struct sweep_cfg *c = sweep_add_cfg(s, name, prefix, "artifacts");
	free(name);
	return (size_t)(c - s->cfg);
}

static int order_of(const char *path)
{
	switch (export_kind(base_name(path), NULL)) {
	case EXP_JSON: return 0;
	case EXP_CSV: return 1;
	case EXP_NONE: break;
	}
	return 2;
}

/* Exports first (so the raw recompute can use the exported OSL), raw files last. */
static int cmp_files(const void *a, const void *b)
{
	const char *x = *(char *const *)a, *y = *(char *const *)b;
	int ox = order_of(x), oy = order_of(y);
	return ox != oy ? ox - oy : strcmp(x, y);
}

/* Disambiguate configs sharing a directory (several exports in one dir); the experiments
 * of one file share its path and take its config's name (name_experiments). */
static void name_by_prefix(struct sweep_set *s, size_t first)
{
	for (size_t i = first; i < s->ncfg; i++)
		for (size_t j = i + 1; j < s->ncfg; j++) {
			if (strcmp(s->cfg[i].source, "artifacts") || strcmp(s->cfg[j].source, "artifacts") ||
			    strcmp(s->cfg[i].name, s->cfg[j].name) || strcmp(s->cfg[i].path, s->cfg[j].path) == 0)
				continue;
			for (size_t k = 0; k < 2; k++) {
				struct sweep_cfg *c = &s->cfg[k ? j : i];
				char *n = xasprintf("%s/%s", c->name, base_name(c->path));
				free(c->name);
				c->name = n;
			}
		}
}

/* The experiments of a raw export holding several (load_genai_raw.c): "<file's
 * config>#concurrency10" by the experiment's concurrency or request rate ("#3" by its place
 * when it records neither), so their names have one shape and form one series
 * (analysis.c), an experiment of another stimulus another. Backwards: the file's config,
 * the first with its path, is renamed last. */
static void name_experiments(struct sweep_set *s, size_t first)
{
	for (size_t i = s->ncfg; i-- > first;) {
		struct sweep_cfg *c = &s->cfg[i];
		if (!c->experiment)
			continue;
		char level[64];
		enum sweep_stim k = c->has_stim[ST_CONCURRENCY] ? ST_CONCURRENCY : ST_REQUEST_RATE;
		if (c->has_stim[k])
			snprintf(level, sizeof(level), "%s%g", sweep_stim_name(k), c->stim[k]);
		else
			snprintf(level, sizeof(level), "%zu", c->experiment);
		char *n = xasprintf("%s#%s", s->cfg[find_prefix(s, first, c->path)].name, level);
		free(c->name);
		c->name = n;
	}
}

/* A run directory that holds GenAI-Perf's inputs.json (f) and no results: perf_analyzer
 * failed, was stopped or is still running (a followed sweep). Its config has no values
 * but keeps its level (the directory's name gives it), so the sweep shows that level
 * missing rather than leaving it out. */
static void load_no_results(struct run *run, struct sweep_set *s, size_t first, const char *root,
			    const char *f, bool root_is_file)
{
	char *prefix = file_prefix(f);
	cfg_for_prefix(s, first, root, prefix, root_is_file);
	free(prefix);
	diag_add(&run->diags, DIAG_WARN, f, -1, -1, -1,
		 "run directory without results: GenAI-Perf's inputs.json but no profile export or "
		 "*_genai_perf.json/csv (perf_analyzer failed, was stopped or is still running); its level is shown "
		 "with no values");
}

/* Artifacts config r's p99 request latency as GenAI-Perf exported it, which an analyze or
 * checkpoint row repeats: the stored one even where the recomputed one differs and is used. */
static bool exported_p99(const struct sweep_cfg *r, double *v)
{
	if (!sweep_value(r, SM_LATENCY, SS_P99, v))
		return false;
	if (r->differs[SM_LATENCY] && r->stored.has[SM_LATENCY][SS_P99])
		*v = r->stored.v[SM_LATENCY][SS_P99];
	return true;
}

/* The run directory of an analyze/checkpoint config: an artifacts config of the same
 * load with the same concurrency / request rate and the same exported p99 request latency
 * (the analyze CSV rounds it to 2 decimals). SIZE_MAX when none. */
static size_t duplicate_of(const struct sweep_set *s, size_t first, const struct sweep_cfg *c)
{
	double a, b;
	if (!sweep_value(c, SM_LATENCY, SS_P99, &a))
		return SIZE_MAX;
	for (size_t i = first; i < s->ncfg; i++) {
		const struct sweep_cfg *r = &s->cfg[i];
		if (strcmp(r->source, "artifacts") != 0 || !exported_p99(r, &b) ||
		    fabs(a - b) > 0.0051)
			continue;
		bool same = false;
		for (int k = ST_CONCURRENCY; k <= ST_REQUEST_RATE; k++) {
			if (c->has_stim[k] != r->has_stim[k] || (c->has_stim[k] && c->stim[k] != r->stim[k])) {
				same = false;
				break;
			}
			same |= c->has_stim[k];
		}
		if (same)
			return i;
	}
	return SIZE_MAX;
}

/* GenAI-Perf analyze writes a run directory per config next to the analyze CSV (and
 * the checkpoint repeats them): keep the run directory, which has every statistic, and
 * drop the summary row, moving its GPU rows over when the directory has none. */
static void drop_duplicates(struct run *run, struct sweep_set *s, size_t first)
{
	for (size_t i = first; i < s->ncfg;) {
		struct sweep_cfg *c = &s->cfg[i];
		size_t dup = strcmp(c->source, "artifacts") != 0 ? duplicate_of(s, first, c) : SIZE_MAX;
		if (dup == SIZE_MAX) {
			i++;
			continue;
		}
		diag_add(&run->diags, DIAG_INFO, c->path, -1, -1, -1,
			 "%s config '%s' repeats run directory '%s'; the directory is kept", c->source,
			 c->name, s->cfg[dup].name);
		bool dup_has_gpu = false;
		for (size_t g = 0; g < s->ngpu; g++)
			dup_has_gpu |= s->gpu[g].cfg == dup;
		size_t target = dup > i ? dup - 1 : dup;
		for (size_t g = 0; g < s->ngpu;) {
			struct sweep_gpu *row = &s->gpu[g];
			if (row->cfg == i && dup_has_gpu) {
				free(row->metric);
				free(row->unit);
				free(row->gpu);
				memmove(row, row + 1, (s->ngpu - g - 1) * sizeof(*row));
				s->ngpu--;
				continue;
			}
			if (row->cfg == i)
				row->cfg = target;
			else if (row->cfg > i)
				row->cfg--;
			g++;
		}
		free(c->name);
		free(c->path);
		free(c->series);
		free(c->failed);
		memmove(c, c + 1, (s->ncfg - i - 1) * sizeof(*c));
		s->ncfg--;
	}
}

/* Non-streaming runs measure no first token: GenAI-Perf still exports
 * time_to_first_token equal to request_latency (formats.md §3.5) and the raw export
 * has one response per request. Known from input_config.endpoint.streaming, else
 * inferred when every request had one response, or when TTFT equals request latency
 * at every statistic both have and there is no ITL. TTFT, TTST, ITL and the per-user
 * token rate are then cleared (shown as n/a), never copied from request latency. */
static bool ttft_is_latency(const struct sweep_stats *st)
{
	size_t same = 0;
	for (int k = 0; k < SS_N; k++) {
		if (!st->has[SM_TTFT][k] || !st->has[SM_LATENCY][k])
			continue;
		if (st->v[SM_TTFT][k] != st->v[SM_LATENCY][k])
			return false;
		same++;
	}
	for (int k = 0; k < SS_N; k++)
		if (st->has[SM_ITL][k])
			return false;
	return same > 0;
}

static void clear_token_timing(struct sweep_stats *st)
{
	static const enum sweep_metric ms[] = { SM_TTFT, SM_TTST, SM_ITL, SM_TPS_USER };
	for (size_t i = 0; i < ARRAY_LEN(ms); i++)
		for (int k = 0; k < SS_N; k++)
			st->has[ms[i]][k] = false;
}

static void check_streaming(struct run *run, struct sweep_cfg *c)
{
	if (!c->has_streaming && ((c->has_stored && ttft_is_latency(&c->stored)) ||
				  (!c->has_stored && c->has_calc && ttft_is_latency(&c->calc)))) {
		c->streaming = false;
		c->has_streaming = true;
	}
	if (!c->has_streaming || c->streaming)
		return;
	bool had = false;
	for (int k = 0; k < SS_N; k++)
		had |= c->stored.has[SM_TTFT][k] || c->calc.has[SM_TTFT][k];
	clear_token_timing(&c->stored);
	clear_token_timing(&c->calc);
	if (had)
		diag_add(&run->diags, DIAG_INFO, c->path, -1, -1, -1,
			 "non-streaming run: time to first token equals request latency and is "
			 "not a measurement; TTFT, TTST and ITL are left empty");
}

/* A raw export f that does not open (named by the open, why) makes no config: when no
 * export of its level made one, the level is missing from the verdicts, which the headline
 * and the not-judged list say (sweep_file_unread). */
static void raw_unread(struct run *run, const struct sweep_set *s, size_t first, const char *f, const char *why)
{
	char *prefix = file_prefix(f);
	if (find_prefix(s, first, prefix) == SIZE_MAX)
		sweep_file_unread(run, f, why, false);
	free(prefix);
}

void genai_progress_to(struct genai_progress *pg, long long off)
{
	off = off < pg->bytes ? off : pg->bytes;
	if (off <= pg->reported || (off - pg->reported < PROGRESS_STEP && off < pg->bytes))
		return;
	load_progress(pg->ctx, off - pg->reported, 0);
	pg->reported = off;
}

/* Read file f of the load of root (a file itself when root_is_file) into s (its configs
 * from first on), its bytes reported to pg. */
static void load_file(struct genai_progress *pg, struct sweep_set *s, size_t first, const char *root,
		      bool root_is_file, const char *f)
{
	struct run *run = pg->ctx->run;
	const char *name = base_name(f);
	if (is_analyze_csv(name)) {
		genai_load_analyze(run, s, f);
		return;
	}
	if (is_checkpoint(name)) {
		genai_load_checkpoint(run, s, f);
		return;
	}
	if (is_inputs(name)) {
		load_no_results(run, s, first, root, f, root_is_file);
		return;
	}
	enum export_kind kind = export_kind(name, NULL);
	struct json_doc raw;
	size_t src;
	char why[96];
	if (kind == EXP_NONE && sweep_json_open_why(run, f, "genai-perf", &raw, &src, why, sizeof(why)) < 0) {
		raw_unread(run, s, first, f, why);
		return;
	}
	char *prefix = file_prefix(f);
	size_t ci = cfg_for_prefix(s, first, root, prefix, root_is_file);
	free(prefix);
	switch (kind) {
	case EXP_JSON: load_export_json(run, s, ci, f); break;
	case EXP_CSV: genai_load_csv(run, s, ci, f); break;
	case EXP_NONE: genai_load_raw(run, s, ci, f, &raw, src, pg); break;
	}
}

/* The bytes of the regular file path now, 0 when it is none or cannot be stat'd. */
static long long file_bytes(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
}

/* The files the load reads at path: path itself when it is a file (*is_file), else the
 * walk's (run: told of a directory it cannot list, NULL: nothing is said). */
static void path_files(struct run *run, const char *path, struct file_list *l, bool *is_file)
{
	struct stat st;
	*is_file = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	if (*is_file)
		file_list_add(l, xstrdup(path));
	else
		walk(run, path, 0, false, l);
}

/* What the load reads at path, in bytes, as it is now (byteplan's sizer). */
static long long path_bytes(const char *path, const struct opts *opts)
{
	(void)opts;
	struct file_list l = { 0 };
	bool is_file;
	path_files(NULL, path, &l, &is_file);
	long long bytes = 0;
	for (size_t i = 0; i < l.n; i++)
		bytes += file_bytes(l.v[i]);
	file_list_free(&l);
	return bytes;
}

int sweep_genai_load(struct load_ctx *ctx, const char *path)
{
	struct run *run = ctx->run;
	struct stat st;
	if (stat(path, &st) != 0)
		return -1;
	struct file_list l = { 0 };
	bool is_file;
	path_files(run, path, &l, &is_file);
	if (l.n >= WALK_MAX_FILES)
		diag_add(&run->diags, DIAG_WARN, path, -1, -1, -1, "more than %d GenAI-Perf files; the rest were ignored",
			 WALK_MAX_FILES);
	qsort(l.v, l.n, sizeof(*l.v), cmp_files);
	long long *size = xmalloc(l.n * sizeof(*size)), bytes = 0;
	for (size_t i = 0; i < l.n; i++)
		bytes += size[i] = file_bytes(l.v[i]);
	struct sweep_set *s = sweep_get(run);
	byteplan_path(&s->genai_plan, ctx, "genai-perf", path, bytes, path_bytes);
	size_t first = s->ncfg;
	for (size_t i = 0; i < l.n && !load_cancelled(ctx); i++) {
		struct genai_progress pg = { .ctx = ctx, .bytes = size[i] };
		load_file(&pg, s, first, path, is_file, l.v[i]);
		genai_progress_to(&pg, pg.bytes);
	}
	free(size);
	name_by_prefix(s, first);
	name_experiments(s, first);
	drop_duplicates(run, s, first);
	for (size_t i = first; i < s->ncfg; i++)
		check_streaming(run, &s->cfg[i]);
	file_list_free(&l);
	s->derived = false;
	return s->ncfg > first ? 0 : -1;
}
