/* SPDX-License-Identifier: MIT */
/* nodes.h: the node roll-up of a step run (model/steps/nodes.c): which ranks share a
 * host, and per node the worst rank and how slow its ranks are together.
 *
 * CONTRACT. A rank's node is, in this order: its run.json environment's "hostname"
 * (or "host", "node", "nodename"), else its Kineto trace's host (trace.h
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
 * ids in groups of --ranks-per-node N; else of the lowest rank's environment
 * "gpu_count"; else of the GPUs its trace's deviceProperties lists, when every rank's
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
	bool has_compute;         /* some rank of it has a compute (own_mean): else worst is its
				   * first rank and the compute figures are missing */
	size_t worst;             /* rank index with the highest mean compute */
	double worst_compute, mean_compute;   /* seconds per aligned step (rank_stat own_mean: over
					       * the ranks and steps with a compute) */
	double min_rel, median_rel;           /* rel_slowdown over the node's ranks */
	size_t stragglers;
	bool no_host;             /* NODES_NO_HOST: the ranks without a hostname */
};

struct node_set {
	enum node_source source;
	/* STRAG_MIN_JUDGE aligned steps or more and a compute the ranks can be weighed by
	 * (analysis_compute_unweighable): stragglers and slow_together are judged */
	bool judged;
	long ranks_per_node;      /* NODES_RANKS_PER_NODE / NODES_GPU_COUNT */
	size_t per_agree, per_of; /* NODES_GPU_COUNT: the ranks recording that gpu_count (the
	                           * most common; ties: the lowest rank's), of those recording one */
	size_t hosts_unused;      /* grouped by count: the ranks whose hostnames are not used */
	struct node_stat *v;
	size_t n;
};

/* A node is slow together when it has at least 2 ranks, each at least this much slower
 * than the per-step median (rel_slowdown), and at most half of the nodes are (of 2 or
 * more; the no_host node is neither counted nor slow together); judged
 * on STRAG_MIN_JUDGE aligned steps or more, as the native straggler tests are. */
#define NODE_SLOW_REL 0.05

#define NODES_NO_HOST "(no hostname)"

struct node_set *steps_nodes(struct run *run);
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
/* true when node k is slow together (the rule above; false when not judged). */
bool steps_node_slow(const struct node_set *s, size_t k);
/* Never merged silently: a rank whose run.json host and trace host differ (other than
 * case, or a short name and its qualified form) gets a warning diagnostic, the first
 * NODES_HOST_DIAGS of them, then one count; so does a short name that several qualified
 * names here share (kept a node of its own); ranks without a host while some rank has
 * one get one warning naming them. Once, after the run is loaded. */
#define NODES_HOST_DIAGS 8
void steps_nodes_check_hosts(struct run *run);

#endif
