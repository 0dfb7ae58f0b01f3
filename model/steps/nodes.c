/* SPDX-License-Identifier: MIT */
/* nodes.c: the node roll-up (nodes.h): grouping ranks by host and the per-node figures
 * the `nodes` view and the NODE.SLOW_TOGETHER finding read. */
#include "model/steps/nodes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "model/groups.h"
#include "model/ranklist.h"
#include "model/run.h"
#include "model/stats.h"
#include "model/steps/analysis.h"
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

/* The rank's host in its run.json environment: the value of the first of host_keys it
 * records with a value (each key's first entry, as env_get finds it), in one pass over
 * its keys, comparing only those that start as a host key does: every open walks every
 * rank (steps_nodes_check_hosts). */
static const char *env_host(const struct steps_model *m, size_t ri)
{
	const struct steps_meta *meta = steps_rank_meta(m, ri);
	const char *found[ARRAY_LEN(host_keys)] = { NULL };
	for (size_t i = 0; i < meta->nenv; i++) {
		const char *key = meta->env_key[i];
		if (key[0] != 'h' && key[0] != 'n')
			continue;
		for (size_t k = 0; k < ARRAY_LEN(host_keys); k++)
			if (!found[k] && strcmp(key, host_keys[k]) == 0)
				found[k] = meta->env_val[i];
	}
	for (size_t k = 0; k < ARRAY_LEN(host_keys); k++)
		if (found[k] && *found[k])
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

static void node_figures(struct node_stat *nd, const struct distributed *d)
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
		 * NaN: none, or a NaN recorded) is missing from the node's figures, not 0 s */
		if (!isnan(rs->own_mean)) {
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

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;
	return (x > y) - (x < y);
}

/* How many of the n sorted values equal x. */
static size_t count_sorted(const long *v, size_t n, long x)
{
	size_t lo = 0, hi = n;
	while (lo < hi) { /* the first >= x */
		size_t mid = lo + (hi - lo) / 2;
		if (v[mid] < x)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t k = 0;
	while (lo + k < n && v[lo + k] == x)
		k++;
	return k;
}

/* The gpu_count most ranks' run.json record (ties: the lowest rank's), with how many
 * record it (*agree) of those recording one (*of); 0 when none does. */
static long common_gpu_count(const struct steps_model *m, size_t *agree, size_t *of)
{
	size_t nr = steps_nranks(m);
	long *v = xmalloc((nr ? nr : 1) * 2 * sizeof(*v)), *sorted = v + (nr ? nr : 1);
	*of = 0;
	for (size_t r = 0; r < nr; r++) {
		const char *g = env_get(steps_rank_meta(m, r), "gpu_count");
		v[r] = g ? atol(g) : 0;
		if (v[r] > 0)
			sorted[(*of)++] = v[r];
	}
	qsort(sorted, *of, sizeof(*sorted), cmp_long);
	long best = 0;
	*agree = 0;
	for (size_t r = 0; r < nr && *agree * 2 <= *of; r++) { /* in rank order: ties to the lowest */
		size_t k = v[r] > 0 ? count_sorted(sorted, *of, v[r]) : 0;
		if (k > *agree) {
			*agree = k;
			best = v[r];
		}
	}
	free(v);
	return best;
}

/* The ranks per node without hostnames (--ranks-per-node, gpu_count, the traces' GPUs),
 * its source in *src; 0: none. */
static long count_per_node(struct run *run, enum node_source *src, size_t *agree, size_t *of)
{
	long per = run->opts ? run->opts->ranks_per_node : 0;
	*src = NODES_RANKS_PER_NODE;
	if (per <= 0) {
		per = common_gpu_count(run->steps, agree, of);
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

void steps_nodes_check_hosts(struct run *run)
{
	const struct steps_model *m = run->steps;
	if (!m)
		return;
	check_missing_hosts(run);
	check_ambiguous_hosts(run);
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

struct node_set *steps_nodes(struct run *run)
{
	struct node_set *s = nodes_group(run);
	if (!s)
		return NULL;
	const struct distributed *d = analysis_distributed(run);
	/* as the ranks view's straggler verdict: no compute to weigh, nothing judged */
	s->judged = d && d->n_steps >= STRAG_MIN_JUDGE && !analysis_compute_unweighable(run);
	for (size_t k = 0; k < s->n; k++)
		node_figures(&s->v[k], d);
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
	return !nd->no_host && nd->has_dist && nd->nranks >= 2 && nd->min_rel >= NODE_SLOW_REL;
}

bool steps_node_slow(const struct node_set *s, size_t k)
{
	if (!s->judged || !slow_together(&s->v[k]))
		return false;
	size_t slow = 0, hosts = 0;
	for (size_t i = 0; i < s->n; i++) {
		slow += slow_together(&s->v[i]);
		hosts += !s->v[i].no_host;
	}
	return hosts >= 2 && slow * 2 <= hosts;
}

void steps_nodes_placement(const struct steps_model *m, const struct node_set *s, char *buf, size_t n)
{
	buf[0] = '\0';
	char gpu_words[96] = "run.json's gpu_count";
	if (s->per_agree < s->per_of) /* the ranks disagree: whose value it is */
		snprintf(gpu_words, sizeof(gpu_words), "the gpu_count %zu of the %zu ranks' run.json record",
			 s->per_agree, s->per_of);
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
