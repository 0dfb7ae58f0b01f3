/* SPDX-License-Identifier: MIT */
/* nodes.h: the node roll-up of a step run (model/steps/nodes.c): which ranks share a
 * host, and per node the worst rank and how slow its ranks are together.
 *
 * CONTRACT. A rank's node is, in this order: its run.json environment's "hostname"
 * (or "host", "node", "nodename"; a value null, true or false is no hostname, a warning
 * says so: the environment is kept as text, so the strings "null", "true" and "false"
 * read the same), else its Kineto trace's host (trace.h
 * trace_rank_host: distributedInfo's hostname, else the trace's top-level host_name,
 * else the default trace file name), when every rank has one, or at least half of the
 * ranks do and --ranks-per-node is not given, or some rank does and no count below
 * applies: the ranks without one share a node named NODES_NO_HOST (no_host: not a
 * host, never slow together). Hostnames compare as DNS names do, ignoring case: one node
 * named by the lowest rank's spelling. A qualified name ("node-3.cluster") whose short
 * name ("node-3") another rank records is that short name's node when it is the only
 * qualified name of that short name; with several ("node-3.rack1", "node-3.rack2") each
 * is a node and so is the short name (which of them it is is not known: a warning, see
 * steps_nodes_check_hosts); qualified names are compared whole. Else (hosts_unused: the
 * ranks whose hostnames go unused, a warning says so) consecutive rank
 * ids in groups of --ranks-per-node N; else of the environment "gpu_count" a majority
 * (more than half) of the ranks recording a usable one record (a JSON number that is a
 * whole number of GPUs, at least 1: "1e1" is 10; "8.5", 0 or "eight" is not used, a
 * warning names the file and value; with no majority none is used, a warning names the
 * disagreement); else of the GPUs its trace's deviceProperties lists, when every rank's
 * trace lists as many (2 or more) and every rank whose kernels name their GPU
 * (args.device) ran on GPU (id mod that count). With none of these (or a single rank)
 * there is no roll-up (NULL). Nodes are ordered by their lowest rank id; a node's ranks
 * are rank indexes in ascending id. The distributed figures are missing (has_dist
 * false) when the run has no distributed summary. */
#ifndef MODEL_STEPS_NODES_H
#define MODEL_STEPS_NODES_H

#include "model/base.h"

struct run;
struct steps_model;

enum node_source { NODES_HOSTNAME, NODES_RANKS_PER_NODE, NODES_GPU_COUNT, NODES_TRACE_GPUS };

struct node_stat {
	char *name;               /* hostname (unsanitized) or "node K" */
	size_t *ri;               /* rank indexes */
	size_t nranks;
	bool has_dist;
	bool has_compute;         /* some rank of it has a compute of its own (own_mean,
				   * analysis_ranks_own_compute): else worst is its first rank
				   * and the compute figures are missing */
	size_t worst;             /* rank index with the highest mean compute */
	double worst_compute, mean_compute;   /* seconds per aligned step (rank_stat own_mean: over
					       * the ranks and steps with a compute) */
	double min_rel, median_rel;           /* rel_slowdown over the node's ranks */
	/* the step from which its ranks are slow together (NODE_ONSET_STEPS), -1: none; then
	 * the minimum and median over its ranks of their median slowdown from that step, and
	 * its rank (index) with the highest mean compute over those steps and that mean
	 * (seconds per aligned step, over its steps with a compute): the figures over the
	 * span NODE.SLOW_TOGETHER names */
	long slow_from;
	double from_min_rel, from_median_rel;
	size_t from_worst;
	double from_worst_compute;
	bool slow_throughout;     /* no slow_from, its ranks slow from the start (NODE_SLOW_REL);
				   * the whole-run figures (min_rel, median_rel) say how slow */
	size_t stragglers;
	bool no_host;             /* NODES_NO_HOST: the ranks without a hostname */
};

struct node_set {
	enum node_source source;
	/* STRAG_MIN_JUDGE aligned steps or more and a compute the ranks can be weighed by
	 * (analysis_compute_unweighable): stragglers and slow_together are judged */
	bool judged;
	long ranks_per_node;      /* NODES_RANKS_PER_NODE / NODES_GPU_COUNT */
	size_t per_agree, per_of; /* NODES_GPU_COUNT: the ranks recording that gpu_count (more
	                           * than half), of those recording a usable one */
	size_t hosts_unused;      /* grouped by count: the ranks whose hostnames are not used */
	struct node_stat *v;
	size_t n;
};

/* A node is slow together when it has at least 2 ranks and either each turned slow (the
 * fail-slow verdict, analysis.h STRAGGLERS) at onsets at most NODE_ONSET_STEPS aligned
 * steps apart and each is at least this much slower (its median slowdown against the
 * step medians over the judged steps) from the latest onset on: slow together from that
 * step (slow_from), however early the onset (an early one leaves the whole-run slowdown
 * above this too); or, else, each is at least this much slower than the per-step median
 * (rel_slowdown) from the start: a rank that turned slow part way also over the judged
 * steps before its onset (slow_throughout; ranks that turned slow at steps far apart
 * are neither). Of 2 or more hosts (the no_host node is neither counted as one nor slow
 * together), and when at most half of the ranks are on such nodes; when more are, not
 * judged (NODE_TOO_WIDE: a slowdown that wide is not one host's). Judged on
 * STRAG_MIN_JUDGE aligned steps or more, as the native straggler tests are. */
#define NODE_SLOW_REL 0.05
#define NODE_ONSET_STEPS 5

#define NODES_NO_HOST "(no hostname)"

struct node_set *steps_nodes(struct run *run);
/* steps_nodes() would not be NULL: the run has node information. Light: the grouping
 * alone, no distributed figures (the v list asks it at every frame). */
bool steps_nodes_found(struct run *run);
/* The rank ids of rank indexes ri (ascending) as ranges ("1,5,9-11"), allocated. */
char *steps_nodes_ranklist(const struct steps_model *m, const size_t *ri, size_t n);
/* The same as row groups (model/groups.h) over rank indexes, which are the rows of the
 * step heatmap and of the ranks view: a group per node, named by the node, its
 * representative the worst rank (the lowest when there is no distributed summary).
 * NULL when steps_nodes is. */
struct groups *steps_node_groups(struct run *run);
void steps_nodes_free(struct node_set *s);
/* How the ranks were grouped, in buf: "hostname", "ranks-per-node 4", "gpu_count 8" or
 * "trace GPUs 8" (the last three assume ranks placed host by host in id order). Returns
 * buf. */
const char *steps_nodes_how(const struct node_set *s, char *buf, size_t n);
/* What a finding about s adds on where its nodes come from, in buf (n bytes; "" when
 * every rank records a hostname): the assumption of a grouping by rank id ("No hostname
 * is recorded: ..."), or the ranks that record none ("Rank 5 records no hostname: ..."),
 * each with a leading space. */
void steps_nodes_placement(const struct steps_model *m, const struct node_set *s, char *buf, size_t n);
/* Node k's slow_together verdict (the rule above): NODE_UNJUDGED when not judged (too few
 * aligned steps or no compute to weigh, the no_host node, a node of one rank, fewer than
 * 2 hosts), NODE_TOO_WIDE when nodes slow together hold more than half of the ranks. */
enum node_verdict { NODE_SLOW, NODE_NOT_SLOW, NODE_UNJUDGED, NODE_TOO_WIDE };
enum node_verdict steps_node_verdict(const struct node_set *s, size_t k);
/* true when node k is slow together (NODE_SLOW). */
bool steps_node_slow(const struct node_set *s, size_t k);
/* The ranks on nodes slow together (of either kind) and the ranks of the roll-up, for
 * what NODE_TOO_WIDE says. */
void steps_nodes_slow_share(const struct node_set *s, size_t *slow, size_t *nranks);
/* Every rank (2 or more) records a hostname (run.json or trace): the roll-up is by
 * hostname whatever --ranks-per-node says. Light: no distributed figures. */
bool steps_nodes_every_host(struct run *run);
/* Never merged silently: a rank whose run.json host and trace host differ (other than
 * case, or a short name and its qualified form) gets a warning diagnostic, the first
 * NODES_HOST_DIAGS of them, then one count; so do a host key whose value is null, true
 * or false (its run.json named), a short name that several qualified names here share
 * (kept a node of its own) and, when the roll-up would group by it, a gpu_count that is
 * not a whole number of GPUs (its run.json named); ranks without a host while some rank
 * has one get one warning naming them, and gpu_counts without a majority (when the
 * roll-up would group by them) one naming two of them. Once, after the run is loaded. */
#define NODES_HOST_DIAGS 8
void steps_nodes_check_hosts(struct run *run);

#endif
