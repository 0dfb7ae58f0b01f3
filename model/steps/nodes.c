/* SPDX-License-Identifier: MIT */
/* nodes.c: the node roll-up (nodes.h): grouping ranks by host (else by a count: the
 * option, the gpu_count most ranks record, the traces' GPUs), the per-node figures and
 * slow-together verdicts the `nodes` view and the NODE.SLOW_TOGETHER finding read, and
 * the warnings on hostnames and gpu_counts it cannot use as they are. */
#include "model/steps/nodes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/dirlist.h"
#include "model/groups.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/steps/analysis.h"
#include "model/steps/internal.h"
#include "model/steps/steps.h"
#include "model/trace/trace.h"
#include "model/xalloc.h"

static const char *const host_keys[] = { "hostname", "host", "node", "nodename" };

static const char *env_get(const struct steps_meta *meta, const char *key)
{
	for (size_t i = 0; i < meta->nenv; i++)
		if (strcmp(meta->env_key[i], key) == 0)
			return meta->env_val[i];
	return NULL;
}

/* A host key's value that is JSON's null, true or false: not a name (the environment is
 * kept as text, so the strings "null", "true" and "false" read the same). */
static bool host_literal(const char *v)
{
	return strcmp(v, "null") == 0 || strcmp(v, "true") == 0 || strcmp(v, "false") == 0;
}

/* Each of host_keys' first entry in rank ri's run.json environment (as env_get finds
 * it; NULL: none), in one pass over its keys, comparing only those that start as a host
 * key does: every open walks every rank (steps_nodes_check_hosts). */
static void env_host_values(const struct steps_model *m, size_t ri, const char *found[ARRAY_LEN(host_keys)])
{
	const struct steps_meta *meta = steps_rank_meta(m, ri);
	for (size_t k = 0; k < ARRAY_LEN(host_keys); k++)
		found[k] = NULL;
	for (size_t i = 0; i < meta->nenv; i++) {
		const char *key = meta->env_key[i];
		if (key[0] != 'h' && key[0] != 'n')
			continue;
		for (size_t k = 0; k < ARRAY_LEN(host_keys); k++)
			if (!found[k] && strcmp(key, host_keys[k]) == 0)
				found[k] = meta->env_val[i];
	}
}

/* The rank's host in its run.json environment: the value of the first of host_keys it
 * records with a name (not empty, not host_literal). */
static const char *env_host(const struct steps_model *m, size_t ri)
{
	const char *found[ARRAY_LEN(host_keys)];
	env_host_values(m, ri, found);
	for (size_t k = 0; k < ARRAY_LEN(host_keys); k++)
		if (found[k] && *found[k] && !host_literal(found[k]))
			return found[k];
	return NULL;
}

/* By host key (ranks without one last), then by rank index. */
static int cmp_by_host(const void *a, const void *b, void *ud)
{
	const char *const *host = ud;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	int c = !host[x] || !host[y] ? (!host[x]) - (!host[y]) : strcmp(host[x], host[y]);
	return c ? c : (x > y) - (x < y);
}

static int cmp_node_first(const void *a, const void *b)
{
	const struct node_stat *x = a, *y = b;
	return (x->ri[0] > y->ri[0]) - (x->ri[0] < y->ri[0]);
}

static void node_push(struct node_set *s, size_t *cap, char *name, const size_t *ri, size_t n)
{
	xgrow((void **)&s->v, cap, s->n + 1, sizeof(*s->v));
	struct node_stat *nd = &s->v[s->n++];
	memset(nd, 0, sizeof(*nd));
	nd->name = name;
	nd->ri = xmalloc(n * sizeof(*nd->ri));
	memcpy(nd->ri, ri, n * sizeof(*ri));
	nd->nranks = n;
	nd->slow_from = -1;
}

/* Each rank's host (run.json environment, else its trace's; NULL: none). Returns how
 * many ranks have one. */
static size_t rank_hosts(struct run *run, const char **host)
{
	const struct steps_model *m = run->steps;
	size_t n = 0;
	for (size_t r = 0; r < steps_nranks(m); r++) {
		host[r] = env_host(m, r);
		if (!host[r] && run->trace)
			host[r] = trace_rank_host(run, steps_rank_id(m, r));
		if (host[r] && !*host[r])
			host[r] = NULL;
		n += host[r] != NULL;
	}
	return n;
}

/* By host as DNS compares names (nodes.h): first label, a short name before the qualified
 * names of that label, then the whole name, ignoring case; then by rank index. Ranks
 * without a host last. */
static int cmp_by_dns(const void *a, const void *b, void *ud)
{
	const char *const *host = ud;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	const char *hx = host[x], *hy = host[y];
	int c = (!hx) - (!hy);
	if (!c && hx) {
		size_t lx = strcspn(hx, "."), ly = strcspn(hy, ".");
		c = strncasecmp(hx, hy, lx < ly ? lx : ly);
		if (!c)
			c = (lx > ly) - (lx < ly);
		if (!c)
			c = (hx[lx] != '\0') - (hy[ly] != '\0');
		if (!c)
			c = strcasecmp(hx, hy);
	}
	return c ? c : (x > y) - (x < y);
}

/* The rank indexes with a host in cmp_by_dns order (returned, malloc'd; *n of them), each
 * host[] made the spelling of the lowest rank whose host is the same name but for case. */
static size_t *hosts_by_dns(const char **host, size_t nr, size_t *n)
{
	size_t *ord = xmalloc((nr ? nr : 1) * sizeof(*ord));
	for (size_t r = 0; r < nr; r++)
		ord[r] = r;
	qsort_r(ord, nr, sizeof(*ord), cmp_by_dns, (void *)host);
	for (*n = 0; *n < nr && host[ord[*n]]; ++*n)
		if (*n && strcasecmp(host[ord[*n]], host[ord[*n - 1]]) == 0)
			host[ord[*n]] = host[ord[*n - 1]];
	return ord;
}

/* The end of the ranks of ord from i whose hosts have the first label of ord[i]'s. */
static size_t label_end(const char **host, const size_t *ord, size_t n, size_t i)
{
	size_t len = strcspn(host[ord[i]], "."), j = i + 1;
	while (j < n && strcspn(host[ord[j]], ".") == len && strncasecmp(host[ord[j]], host[ord[i]], len) == 0)
		j++;
	return j;
}

/* How many distinct qualified names the ranks ord[i..j) of one label record (hosts_by_dns:
 * the short name first, each name one spelling). */
static size_t label_qualified(const char **host, const size_t *ord, size_t i, size_t j)
{
	size_t k = 0;
	for (size_t x = i; x < j; x++)
		k += strchr(host[ord[x]], '.') && (x == i || host[ord[x]] != host[ord[x - 1]]);
	return k;
}

/* Each host as its node key (nodes.h): the same name but for case is one spelling, the
 * lowest rank's; a qualified name ("node-3.cluster") whose short name ("node-3") another
 * rank records is that short name, when no other qualified name has that short name. */
static void host_keys_dns(const char **host, size_t nr)
{
	size_t n, *ord = hosts_by_dns(host, nr, &n);
	for (size_t i = 0, j; i < n; i = j) {
		j = label_end(host, ord, n, i);
		const char *shrt = strchr(host[ord[i]], '.') ? NULL : host[ord[i]];
		if (shrt && label_qualified(host, ord, i, j) == 1)
			for (size_t x = i; x < j; x++)
				host[ord[x]] = shrt;
	}
	free(ord);
}

char *steps_nodes_ranklist(const struct steps_model *m, const size_t *ri, size_t n)
{
	long *ids = xmalloc((n ? n : 1) * sizeof(*ids));
	for (size_t i = 0; i < n; i++)
		ids[i] = steps_rank_id(m, ri[i]);
	size_t cap = n * 24 + 1; /* an id (20 bytes at most) and its ',' or '-' each: it fits */
	char *buf = xmalloc(cap);
	ranklist_format(ids, n, buf, cap);
	free(ids);
	return buf;
}

/* The same host: equal names, or one is the other's first label (a short name and its
 * fully qualified one: "node-3" and "node-3.cluster"), ignoring case as DNS does. */
static bool same_host(const char *a, const char *b)
{
	size_t la = strcspn(a, "."), lb = strcspn(b, ".");
	if (strcasecmp(a, b) == 0)
		return true;
	return la == lb && strncasecmp(a, b, la) == 0 && (!a[la] || !b[lb]);
}

/* Groups by host[] (some rank has one; modified: host_keys_dns). */
static void group_by_host(const char **host, size_t nr, struct node_set *s)
{
	size_t cap = 0;
	host_keys_dns(host, nr);
	size_t *ord = xmalloc(nr * sizeof(*ord));
	for (size_t r = 0; r < nr; r++)
		ord[r] = r;
	qsort_r(ord, nr, sizeof(*ord), cmp_by_host, (void *)host);
	for (size_t i = 0, j; i < nr; i = j) {
		const char *h = host[ord[i]];
		for (j = i + 1; j < nr && (h ? host[ord[j]] && strcmp(host[ord[j]], h) == 0 : !host[ord[j]]); j++)
			;
		node_push(s, &cap, xstrdup(h ? h : NODES_NO_HOST), ord + i, j - i);
		s->v[s->n - 1].no_host = !h;
	}
	free(ord);
	if (s->n)
		qsort(s->v, s->n, sizeof(*s->v), cmp_node_first);
	s->source = NODES_HOSTNAME;
}

static void group_by_count(const struct steps_model *m, struct node_set *s, long per)
{
	size_t nr = steps_nranks(m), cap = 0;
	size_t *ri = xmalloc(nr * sizeof(*ri));
	for (size_t i = 0, j; i < nr; i = j) {
		long node = steps_rank_id(m, i) / per;
		size_t k = 0;
		for (j = i; j < nr && steps_rank_id(m, j) / per == node; j++)
			ri[k++] = j;
		node_push(s, &cap, xasprintf("node %ld", node), ri, k);
	}
	free(ri);
	s->ranks_per_node = per;
}

/* nd's figures from d; own: per rank index, its compute is its own
 * (analysis_ranks_own_compute). */
static void node_figures(struct node_stat *nd, const struct distributed *d, const bool *own)
{
	if (!d)
		return;
	nd->has_dist = true;
	nd->worst = nd->ri[0];
	double *rel = xmalloc(nd->nranks * sizeof(*rel));
	double sum = 0;
	size_t n = 0;
	for (size_t i = 0; i < nd->nranks; i++) {
		const struct rank_stat *rs = &d->rank[nd->ri[i]];
		/* the ranks' own compute over the steps that have one: a rank without it (a
		 * NaN: none, or a NaN recorded; its data or other phase alone, not its own)
		 * is missing from the node's figures, not 0 s nor that phase's time */
		if (own[nd->ri[i]] && !isnan(rs->own_mean)) {
			if (n == 0 || rs->own_mean > nd->worst_compute) {
				nd->worst_compute = rs->own_mean;
				nd->worst = nd->ri[i];
			}
			sum += rs->own_mean;
			n++;
		}
		rel[i] = rs->rel_slowdown;
		if (i == 0 || rel[i] < nd->min_rel)
			nd->min_rel = rel[i];
		nd->stragglers += rs->straggler;
	}
	nd->has_compute = n > 0;
	nd->mean_compute = n ? sum / (double)n : NAN;
	nd->median_rel = stats_median_inplace(rel, nd->nranks);
	free(rel);
}

/* Rank index ri's median slowdown against the step medians over the aligned steps
 * [k0, k1) (judged ones), as the straggler rules weigh it (a step without a compute or a
 * median left out); c and x: scratch of k1 - k0 doubles each, c left holding its compute
 * at those steps. NaN when no step is left. */
static double slowdown_over(const struct steps_model *m, const struct phase_sets *ps, const struct distributed *d,
			    size_t ri, size_t k0, size_t k1, double *c, double *x)
{
	size_t n = k1 - k0, k = 0;
	analysis_rank_compute(m, ps, ri, k0, n, c, NULL);
	for (size_t i = 0; i < n; i++)
		if (!analysis_is_no_compute(c[i]) && d->step[k0 + i].cmed > 0)
			x[k++] = c[i] / d->step[k0 + i].cmed - 1.0;
	return k ? stats_median_inplace(x, k) : NAN;
}

/* The mean of the computes c[n] (a step without one left out; x: n doubles of scratch),
 * as rank_stat own_mean is taken; NaN when no step has one. */
static double compute_mean(const double *c, size_t n, double *x)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		if (!analysis_is_no_compute(c[i]))
			x[k++] = c[i];
	return k ? stats_mean(x, k) : NAN;
}

/* The latest fail-slow onset of nd's ranks (an aligned index), when each turned slow and
 * the onsets lie at most NODE_ONSET_STEPS aligned steps apart; else d->n_judged. */
static size_t node_onset(const struct distributed *d, const struct node_stat *nd)
{
	size_t lo = d->n_judged, hi = 0;
	for (size_t i = 0; i < nd->nranks; i++) {
		const struct rank_stat *rs = &d->rank[nd->ri[i]];
		if (!rs->fail_slow || rs->slow_onset < 0)
			return d->n_judged;
		size_t k = analysis_dist_lower(d, d->n_steps, rs->slow_onset);
		lo = k < lo ? k : lo;
		hi = k > hi ? k : hi;
	}
	return hi - lo <= NODE_ONSET_STEPS ? hi : d->n_judged;
}

/* Slow together from a step (nodes.h NODE_SLOW_REL): nd->slow_from, from_min_rel,
 * from_median_rel, from_worst and from_worst_compute when its ranks (2 or more) turned
 * slow at once and each is at least NODE_SLOW_REL slower from the latest onset on,
 * whatever their slowdown over the whole run (an onset early in the run leaves that at or
 * above NODE_SLOW_REL too). */
static void node_fail_slow(struct run *run, const struct distributed *d, struct node_stat *nd)
{
	size_t k0 = nd->no_host || nd->nranks < 2 || !d->step ? d->n_judged : node_onset(d, nd);
	if (k0 >= d->n_judged)
		return;
	struct phase_sets ps;
	analysis_phase_sets_init(run->steps, &ps);
	size_t n = d->n_judged - k0, i;
	double *c = xmalloc(2 * n * sizeof(*c)), *rel = xmalloc(nd->nranks * sizeof(*rel));
	for (i = 0; i < nd->nranks; i++) {
		rel[i] = slowdown_over(run->steps, &ps, d, nd->ri[i], k0, d->n_judged, c, c + n);
		if (!(rel[i] >= NODE_SLOW_REL))
			break;
		if (i == 0 || rel[i] < nd->from_min_rel)
			nd->from_min_rel = rel[i];
		double mean = compute_mean(c, n, c + n);   /* c: its compute from k0 (slowdown_over) */
		if (i == 0 || mean > nd->from_worst_compute) {
			nd->from_worst_compute = mean;
			nd->from_worst = nd->ri[i];
		}
	}
	if (i == nd->nranks) {
		nd->slow_from = d->step[k0].step;
		nd->from_median_rel = stats_median_inplace(rel, nd->nranks);
	}
	free(rel);
	free(c);
	analysis_phase_sets_free(&ps);
}

/* Slow together throughout (nodes.h NODE_SLOW_REL): each of nd's ranks at least
 * NODE_SLOW_REL slower over the run (rel_slowdown) and, a rank that turned slow part way
 * (fail-slow), over the judged aligned steps before its onset too: slow from the start,
 * not ranks that turned slow at steps far apart. */
static bool node_slow_throughout(struct run *run, const struct distributed *d, const struct node_stat *nd)
{
	if (nd->no_host || nd->nranks < 2 || !d->step || !(nd->min_rel >= NODE_SLOW_REL))
		return false;
	struct phase_sets ps;
	analysis_phase_sets_init(run->steps, &ps);
	double *c = xmalloc(2 * (d->n_judged ? d->n_judged : 1) * sizeof(*c));
	size_t i;
	for (i = 0; i < nd->nranks; i++) {
		const struct rank_stat *rs = &d->rank[nd->ri[i]];
		size_t k1 = rs->fail_slow && rs->slow_onset >= 0 ? analysis_dist_lower(d, d->n_judged, rs->slow_onset) : 0;
		if (k1 && !(slowdown_over(run->steps, &ps, d, nd->ri[i], 0, k1, c, c + k1) >= NODE_SLOW_REL))
			break;
	}
	free(c);
	analysis_phase_sets_free(&ps);
	return i == nd->nranks;
}

/* The GPUs a node has by the traces (the lowest rank's deviceProperties count), when
 * every traced rank lists as many, at least 2, and each rank whose kernels name their
 * GPU ran on GPU (rank id mod that count): ranks placed host by host in id order, one
 * GPU each. 0 otherwise. */
static long trace_gpus(struct run *run)
{
	const struct steps_model *m = run->steps;
	const struct trace_rank *low = trace_rank_of(run, steps_rank_id(m, 0));
	long per = low ? low->ngpus : 0;
	for (size_t i = 0; i < steps_nranks(m) && per >= 2; i++) {
		int id = steps_rank_id(m, i);
		const struct trace_rank *r = trace_rank_of(run, id);
		if (!r || r->ngpus != per || (r->device >= 0 && r->device != id % per))
			return 0;
	}
	return per >= 2 ? per : 0;
}

/* The largest gpu_count taken as a number of GPUs (a larger one is not used). */
#define NODES_GPU_MAX 1048576

/* Rank ri's run.json gpu_count as a number of GPUs: a JSON number (a string of one reads
 * the same) that is a whole number from 1 to NODES_GPU_MAX ("1e1" is 10); 0 when it
 * records none, -1 when what it records is not such a number ("8.5", 0, "eight"). */
static long rank_gpu_count(const struct steps_model *m, size_t ri)
{
	const char *g = env_get(steps_rank_meta(m, ri), "gpu_count");
	if (!g)
		return 0;
	size_t digits = strspn(g, "0123456789");
	if (digits > 0 && digits < 8 && !g[digits]) { /* the common form, "8": read without strtod */
		long n = strtol(g, NULL, 10);
		return n >= 1 && n <= NODES_GPU_MAX ? n : -1;
	}
	char *end;
	double v = *g && *g != '+' && strspn(g, "0123456789+-.eE") == strlen(g) ? strtod(g, &end) : NAN;
	if (isnan(v) || *end || v < 1 || v > NODES_GPU_MAX || v != floor(v))
		return -1;
	return (long)v;
}

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* The gpu_count more than half of the ranks recording a usable one record (rank_gpu_count),
 * with how many record the most common one (*agree) of those (*of) and how many record one
 * that is not a number of GPUs (*bad); 0 when none does or no value has a majority. */
static long common_gpu_count(const struct steps_model *m, size_t *agree, size_t *of, size_t *bad)
{
	size_t nr = steps_nranks(m);
	long *v = xmalloc((nr ? nr : 1) * sizeof(*v)), best = 0;
	*of = *agree = *bad = 0;
	for (size_t r = 0; r < nr; r++) {
		long g = rank_gpu_count(m, r);
		if (g > 0)
			v[(*of)++] = g;
		*bad += g < 0;
	}
	qsort(v, *of, sizeof(*v), cmp_long);
	for (size_t i = 0, j; i < *of; i = j) {
		for (j = i + 1; j < *of && v[j] == v[i]; j++)
			;
		if (j - i > *agree) {
			*agree = j - i;
			best = v[i];
		}
	}
	free(v);
	return *agree * 2 > *of ? best : 0;
}

/* The ranks per node without hostnames (--ranks-per-node, gpu_count, the traces' GPUs),
 * its source in *src; 0: none. */
static long count_per_node(struct run *run, enum node_source *src, size_t *agree, size_t *of)
{
	long per = run->opts ? run->opts->ranks_per_node : 0;
	*src = NODES_RANKS_PER_NODE;
	if (per <= 0) {
		size_t bad;
		per = common_gpu_count(run->steps, agree, of, &bad);
		*src = NODES_GPU_COUNT;
	}
	if (per <= 0) {
		per = trace_gpus(run);
		*src = NODES_TRACE_GPUS;
	}
	return per > 0 ? per : 0;
}

/* The grouping alone (no figures): the nodes.h rule; NULL: none. */
static struct node_set *nodes_group(struct run *run)
{
	const struct steps_model *m = run->steps;
	size_t nr = m ? steps_nranks(m) : 0;
	if (nr < 2)
		return NULL;
	struct node_set *s = xcalloc(1, sizeof(*s));
	const char **host = xmalloc(nr * sizeof(*host));
	size_t have = rank_hosts(run, host);
	bool explicit = run->opts && run->opts->ranks_per_node > 0;
	enum node_source src = NODES_RANKS_PER_NODE;
	size_t agree = 0, of = 0;
	long per = have == nr ? 0 : count_per_node(run, &src, &agree, &of);
	if (have && (have == nr || (!explicit && have * 2 >= nr) || per <= 0)) {
		group_by_host(host, nr, s);
	} else if (per > 0) {
		group_by_count(m, s, per);
		s->source = src;
		s->hosts_unused = have;
		s->per_agree = agree;
		s->per_of = of;
	} else {
		free(s);
		s = NULL;
	}
	free(host);
	return s;
}

/* Ranks without a host while others have one: named once, with where they go (the
 * hostless node, or a grouping by count that leaves the few hostnames unused). */
static void check_missing_hosts(struct run *run)
{
	const struct steps_model *m = run->steps;
	size_t nr = steps_nranks(m), k = 0;
	const char **host = xmalloc((nr ? nr : 1) * sizeof(*host));
	size_t have = rank_hosts(run, host);
	size_t *ri = xmalloc((nr ? nr : 1) * sizeof(*ri));
	for (size_t r = 0; r < nr; r++)
		if (!host[r])
			ri[k++] = r;
	struct node_set *s = have && k ? nodes_group(run) : NULL;
	if (s) {
		char *list = steps_nodes_ranklist(m, ri, k), how[48], where[200];
		steps_nodes_how(s, how, sizeof(how));
		if (s->hosts_unused && s->source == NODES_RANKS_PER_NODE)
			snprintf(where, sizeof(where), "the node roll-up groups ranks by --ranks-per-node %ld, as "
				 "given, not by hostname", s->ranks_per_node);
		else if (s->hosts_unused)
			snprintf(where, sizeof(where), "too few to group by (fewer than half of the %zu ranks): the node "
				 "roll-up groups ranks by %s and does not use the hostnames", nr, how);
		else
			snprintf(where, sizeof(where), "the node roll-up puts %s in a node of %s own, \"" NODES_NO_HOST
				 "\"", k > 1 ? "them" : "it", k > 1 ? "their" : "its");
		diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, steps_rank_id(m, ri[0]),
			 "rank%s %s record%s no hostname (run.json or trace) while %zu rank%s: %s", k > 1 ? "s" : "",
			 list, k > 1 ? "" : "s", have, have > 1 ? "s do" : " does", where);
		free(list);
	}
	steps_nodes_free(s);
	free(ri);
	free(host);
}

/* One short name of several qualified names (node1, node1.rack1, node1.rack2): which
 * host its ranks (ord[i..], the short name first, in rank order) are on is not known
 * (host_keys_dns keeps them apart); said. */
static void warn_ambiguous(struct run *run, const char **host, const size_t *ord, size_t i, size_t j)
{
	const struct steps_model *m = run->steps;
	size_t k = 1, nq = label_qualified(host, ord, i, j);
	while (host[ord[i + k]] == host[ord[i]])
		k++;
	const char *q0 = host[ord[i + k]], *q1 = q0;
	for (size_t x = i + k; q1 == q0; x++)
		q1 = host[ord[x]];
	char *list = steps_nodes_ranklist(m, ord + i, k);
	diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, steps_rank_id(m, ord[i]),
		 "rank%s %s record%s host \"%s\", the short name of %zu hosts here (%s, %s%s): which one is not known, "
		 "so the node roll-up keeps %s on a node of %s own", k > 1 ? "s" : "", list, k > 1 ? "" : "s",
		 host[ord[i]], nq, q0, q1, nq > 2 ? ", ..." : "", k > 1 ? "them" : "it", k > 1 ? "their" : "its");
	free(list);
}

/* Whether the node roll-up groups by hostname. */
static bool grouped_by_host(struct run *run)
{
	struct node_set *s = nodes_group(run);
	bool by_host = s && s->source == NODES_HOSTNAME;
	steps_nodes_free(s);
	return by_host;
}

/* Short names that several qualified names here share, when the roll-up groups by
 * hostname: a warning each, the first NODES_HOST_DIAGS of them, then one count. */
static void check_ambiguous_hosts(struct run *run)
{
	size_t nr = steps_nranks(run->steps), n, warned = 0;
	const char **host = xmalloc((nr ? nr : 1) * sizeof(*host));
	rank_hosts(run, host);
	size_t *ord = hosts_by_dns(host, nr, &n);
	bool asked = false;
	for (size_t i = 0, j; i < n; i = j) {
		j = label_end(host, ord, n, i);
		if (strchr(host[ord[i]], '.') || label_qualified(host, ord, i, j) < 2)
			continue;
		if (!asked && !grouped_by_host(run))
			break;
		asked = true;
		if (warned++ < NODES_HOST_DIAGS)
			warn_ambiguous(run, host, ord, i, j);
	}
	if (warned > NODES_HOST_DIAGS)
		diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, -1,
			 "%zu more short hostnames that several qualified hostnames share", warned - NODES_HOST_DIAGS);
	free(ord);
	free(host);
}

/* A warning msg (freed) on rank ri naming its run.json. */
static void warn_rank_json(struct run *run, size_t ri, char *msg)
{
	const struct steps_model *m = run->steps;
	char *path = dirlist_path(steps_rank_path(m, ri), "run.json");
	diag_add(&run->diags, DIAG_WARN, path, -1, -1, steps_rank_id(m, ri), "%s", msg);
	free(path);
	free(msg);
}

/* Host keys whose value is null, true or false (host_literal): a warning each, the first
 * NODES_HOST_DIAGS of them, then one count. */
static void check_host_literals(struct run *run)
{
	const struct steps_model *m = run->steps;
	size_t n = 0;
	for (size_t r = 0; r < steps_nranks(m); r++) {
		const char *found[ARRAY_LEN(host_keys)];
		env_host_values(m, r, found);
		for (size_t k = 0; k < ARRAY_LEN(host_keys); k++)
			if (found[k] && host_literal(found[k]) && n++ < NODES_HOST_DIAGS)
				warn_rank_json(run, r, xasprintf("rank %d: run.json environment \"%s\" is %s, not a "
								 "host name: the node roll-up does not use it",
								 steps_rank_id(m, r), host_keys[k], found[k]));
	}
	if (n > NODES_HOST_DIAGS)
		diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, -1,
			 "%zu more run.json host names that are null, true or false", n - NODES_HOST_DIAGS);
}

/* The lowest rank with a usable gpu_count and the first with another (rank_gpu_count),
 * into ri[2] and g[2]; false when there are not two such. */
static bool gpu_count_pair(const struct steps_model *m, size_t ri[2], long g[2])
{
	size_t n = 0;
	for (size_t r = 0; r < steps_nranks(m) && n < 2; r++) {
		long v = rank_gpu_count(m, r);
		if (v > 0 && (n == 0 || v != g[0])) {
			ri[n] = r;
			g[n++] = v;
		}
	}
	return n == 2;
}

/* When the roll-up would group ranks by gpu_count (no --ranks-per-node, fewer than half
 * of the ranks with a hostname): the ranks whose gpu_count is not a number of GPUs
 * (rank_gpu_count), a warning each, the first NODES_HOST_DIAGS of them, then one count;
 * and a gpu_count without a majority, one warning. */
static void check_gpu_counts(struct run *run)
{
	const struct steps_model *m = run->steps;
	size_t nr = steps_nranks(m);
	if (nr < 2 || (run->opts && run->opts->ranks_per_node > 0))
		return;
	const char **host = xmalloc(nr * sizeof(*host));
	size_t have = rank_hosts(run, host);
	free(host);
	if (have * 2 >= nr)
		return;
	size_t bad, agree, of, ri[2];
	long g[2], common = common_gpu_count(m, &agree, &of, &bad);
	for (size_t r = 0, k = 0; r < nr && k < bad && k < NODES_HOST_DIAGS; r++)
		if (rank_gpu_count(m, r) < 0) { /* read again only when some rank has a bad one */
			k++;
			const char *v = env_get(steps_rank_meta(m, r), "gpu_count");
			warn_rank_json(run, r, xasprintf("rank %d: run.json environment gpu_count %s is not a whole "
							 "number of GPUs: the node roll-up does not use it",
							 steps_rank_id(m, r), v));
		}
	if (bad > NODES_HOST_DIAGS)
		diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, -1,
			 "%zu more ranks whose run.json gpu_count is not a whole number of GPUs",
			 bad - NODES_HOST_DIAGS);
	if (!common && of && gpu_count_pair(m, ri, g))
		diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, -1,
			 "run.json gpu_count differs across ranks with no majority (rank %d's is %ld, rank %d's %ld; "
			 "the most common one is in %zu of the %zu run.json that record one): the node roll-up does "
			 "not group ranks by it (--ranks-per-node N does)", steps_rank_id(m, ri[0]), g[0],
			 steps_rank_id(m, ri[1]), g[1], agree, of);
}

void steps_nodes_check_hosts(struct run *run)
{
	const struct steps_model *m = run->steps;
	if (!m)
		return;
	check_host_literals(run);
	check_missing_hosts(run);
	check_ambiguous_hosts(run);
	check_gpu_counts(run);
	if (!run->trace)
		return;
	size_t n = 0;
	for (size_t r = 0; r < steps_nranks(m); r++) {
		const char *env = env_host(m, r);
		const char *tr = trace_rank_host(run, steps_rank_id(m, r));
		if (!env || !tr || !*tr || same_host(env, tr))
			continue;
		if (n++ < NODES_HOST_DIAGS)
			diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, steps_rank_id(m, r),
				 "rank %d: run.json environment names host \"%s\" but its trace names \"%s\"; "
				 "the node roll-up uses run.json's", steps_rank_id(m, r), env, tr);
	}
	if (n > NODES_HOST_DIAGS)
		diag_add(&run->diags, DIAG_WARN, run->path, -1, -1, -1,
			 "%zu more ranks whose run.json and trace hosts disagree", n - NODES_HOST_DIAGS);
}

bool steps_nodes_every_host(struct run *run)
{
	size_t nr = run->steps ? steps_nranks(run->steps) : 0;
	if (nr < 2)
		return false;
	const char **host = xmalloc(nr * sizeof(*host));
	bool every = rank_hosts(run, host) == nr;
	free(host);
	return every;
}

bool steps_nodes_found(struct run *run)
{
	struct node_set *s = nodes_group(run);
	bool found = s != NULL;
	steps_nodes_free(s);
	return found;
}

struct node_set *steps_nodes(struct run *run)
{
	struct node_set *s = nodes_group(run);
	if (!s)
		return NULL;
	const struct distributed *d = analysis_distributed(run);
	/* as the ranks view's straggler verdict: no compute to weigh, nothing judged */
	s->judged = d && d->n_steps >= STRAG_MIN_JUDGE && !analysis_compute_unweighable(run);
	bool *own = d ? analysis_ranks_own_compute(run) : NULL;
	for (size_t k = 0; k < s->n; k++) {
		node_figures(&s->v[k], d, own);
		if (s->judged)
			node_fail_slow(run, d, &s->v[k]);
		if (s->judged && s->v[k].slow_from < 0)
			s->v[k].slow_throughout = node_slow_throughout(run, d, &s->v[k]);
	}
	free(own);
	return s;
}

struct groups *steps_node_groups(struct run *run)
{
	struct node_set *s = steps_nodes(run);
	if (!s)
		return NULL;
	struct groups *gs = groups_new("node", steps_nranks(run->steps));
	for (size_t k = 0; k < s->n; k++) {
		const struct node_stat *nd = &s->v[k];
		groups_add(gs, nd->name, nd->ri, nd->nranks, nd->has_dist ? nd->worst : nd->ri[0]);
	}
	steps_nodes_free(s);
	return gs;
}

void steps_nodes_free(struct node_set *s)
{
	for (size_t k = 0; s && k < s->n; k++) {
		free(s->v[k].name);
		free(s->v[k].ri);
	}
	if (s)
		free(s->v);
	free(s);
}

const char *steps_nodes_how(const struct node_set *s, char *buf, size_t n)
{
	if (s->source == NODES_HOSTNAME)
		snprintf(buf, n, "hostname");
	else
		snprintf(buf, n, "%s %ld", s->source == NODES_GPU_COUNT ? "gpu_count" :
			 s->source == NODES_TRACE_GPUS ? "trace GPUs" : "ranks-per-node", s->ranks_per_node);
	return buf;
}

static bool slow_together(const struct node_stat *nd)
{
	return !nd->no_host && nd->has_dist && nd->nranks >= 2 && (nd->slow_throughout || nd->slow_from >= 0);
}

void steps_nodes_slow_share(const struct node_set *s, size_t *slow, size_t *nranks)
{
	*slow = *nranks = 0;
	for (size_t i = 0; i < s->n; i++) {
		*nranks += s->v[i].nranks;
		*slow += slow_together(&s->v[i]) ? s->v[i].nranks : 0;
	}
}

enum node_verdict steps_node_verdict(const struct node_set *s, size_t k)
{
	const struct node_stat *nd = &s->v[k];
	if (!s->judged || nd->no_host || nd->nranks < 2) /* one rank: a slow host is a slow rank */
		return NODE_UNJUDGED;
	size_t hosts = 0, slow, nranks;
	for (size_t i = 0; i < s->n && hosts < 2; i++)
		hosts += !s->v[i].no_host;
	if (hosts < 2)
		return NODE_UNJUDGED;
	if (!slow_together(nd))
		return NODE_NOT_SLOW;
	steps_nodes_slow_share(s, &slow, &nranks);
	return slow * 2 <= nranks ? NODE_SLOW : NODE_TOO_WIDE;
}

bool steps_node_slow(const struct node_set *s, size_t k)
{
	return steps_node_verdict(s, k) == NODE_SLOW;
}

void steps_nodes_placement(const struct steps_model *m, const struct node_set *s, char *buf, size_t n)
{
	buf[0] = '\0';
	char gpu_words[96] = "run.json's gpu_count";
	if (s->per_agree < s->per_of) /* the ranks disagree: whose value it is */
		snprintf(gpu_words, sizeof(gpu_words), "gpu_count %ld in %zu of the %zu run.json that record one",
			 s->ranks_per_node, s->per_agree, s->per_of);
	char few[96];
	snprintf(few, sizeof(few), "Only %zu of %zu ranks record%s a hostname, not used", s->hosts_unused,
		 steps_nranks(m), s->hosts_unused == 1 ? "s" : "");
	if (s->source != NODES_HOSTNAME) /* no host recorded: the grouping is an assumption */
		snprintf(buf, n, " %s: nodes here are rank ids in blocks of %ld (%s), which assumes the job placed "
			 "its ranks host by host in id order.", s->hosts_unused ? few : "No hostname is recorded",
			 s->ranks_per_node,
			 s->source == NODES_GPU_COUNT ? gpu_words :
			 s->source == NODES_TRACE_GPUS ? "the GPUs each trace lists, each rank on GPU id mod that" :
			 "--ranks-per-node");
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].no_host) { /* a grouping by the hostnames there are */
			char *list = steps_nodes_ranklist(m, s->v[k].ri, s->v[k].nranks);
			bool one = s->v[k].nranks == 1, named = strlen(list) <= 120;
			const char *who = !named ? "Several ranks" : one ? "Rank " : "Ranks ";
			snprintf(buf, n, " %s%s record%s no hostname: %s on no host here.", who, named ? list : "",
				 one ? "s" : "", one ? "it is" : "they are");
			free(list);
		}
}
