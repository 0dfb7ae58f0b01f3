/* SPDX-License-Identifier: MIT */
/* test_heatmap_label.c: names clipped apart (ui/label_fit.c label_fit; the heatmap's
 * label column and the Ranks pane's node column): a name that fits is whole; one that
 * does not is clipped to the width at a character boundary with an ellipsis, and names
 * that differ never clip to the same text, at every width from 6 columns on: workers one
 * port apart, nodes with long ASCII and CJK hostnames, hostnames differing in the middle,
 * short names with a long common end, twenty numbered hosts (gpu-node-0000 and
 * gpu-node-0010 differ in two places), at the end or in the middle. */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/text.h"
#include "model/xalloc.h"
#include "ui/label_fit.h"
#include "tests/tap.h"

/* Every name of the set in w columns: at most w wide, valid (no U+FFFD), pairwise
 * different. Returns the first failure's description, or NULL. */
static const char *fit_set(char *const *names, size_t n, int w, unsigned flags)
{
	static char why[160];
	char *out[24];
	const char *bad = NULL;
	for (size_t i = 0; i < n; i++)
		out[i] = label_fit(names, n, i, w, flags);
	for (size_t i = 0; i < n && !bad; i++) {
		if (text_width(out[i]) > w || strstr(out[i], "\xEF\xBF\xBD"))
			bad = out[i];
		for (size_t j = i + 1; j < n && !bad; j++)
			if (strcmp(out[i], out[j]) == 0)
				bad = out[i];
	}
	if (bad)
		snprintf(why, sizeof(why), "%s at %d columns", bad, w);
	for (size_t i = 0; i < n; i++)
		free(out[i]);
	return bad ? why : NULL;
}

static void check_set(const char *what, char *const *names, size_t n)
{
	const char *why = NULL;
	for (int w = 6; w <= 80 && !why; w++)
		for (unsigned flags = 0; flags <= TEXT_ASCII && !why; flags += TEXT_ASCII)
			why = fit_set(names, n, w, flags);
	ok(!why, "%s: apart and within the width from 6 to 80 columns%s%s", what, why ? ": " : "", why ? why : "");
}

int main(void)
{
	bool utf8 = setlocale(LC_CTYPE, "C.UTF-8") != NULL;   /* CJK characters two columns wide */
	char *ports[] = { "worker-sdumont8013-tcp://172.20.7.13:44321", "worker-sdumont8013-tcp://172.20.7.13:44322" };
	char *dasf[] = { "worker-gpu-node-017.cluster.internal.example.org-tcp://10.12.34.56:41235",
			 "worker-gpu-node-017.cluster.internal.example.org-tcp://10.12.34.56:41236" };
	char *nodes[] = { "superlongclusterprefix-rack07-chassis03-node0000.hpc.example.org",
			  "superlongclusterprefix-rack07-chassis03-node0001.hpc.example.org",
			  "superlongclusterprefix-rack07-chassis03-node0002.hpc.example.org", "12" };
	char *cjk[] = { "计算节点-机房七-机架三-x服务器00", "计算节点-机房七-机架三-x服务器01" };
	char *middle[] = { "pytorchjob-llama3-70b-pretrain-2026-11-20-worker-0.training-svc.ml-platform.svc.local",
			   "pytorchjob-llama3-70b-pretrain-2026-11-20-worker-1.training-svc.ml-platform.svc.local" };
	char *short_start[] = { "node0000.hpc.example.org", "node0001.hpc.example.org" };
	check_set("workers one port apart", ports, 2);
	check_set("DASF workers with 72-byte names", dasf, 2);
	check_set("nodes and a rank line", nodes, 4);
	check_set("CJK hostnames", cjk, 2);
	check_set("hostnames differing in the middle", middle, 2);
	check_set("names differing early, with a long common end", short_start, 2);
	char *hosts[20], *fqdn[20];
	for (int i = 0; i < 20; i++) {
		hosts[i] = xasprintf("gpu-node-%04d", i);
		fqdn[i] = xasprintf("node%04d.hpc.example.org", i);
	}
	check_set("twenty numbered hosts", hosts, 20);
	check_set("twenty hosts numbered in the middle", fqdn, 20);

	char *s = label_fit(ports, 2, 0, 42, 0);
	is_str(s, ports[0], "a name that fits is whole");
	free(s);
	s = label_fit(ports, 2, 1, 25, 0);
	is_str(s, "worker-sdumont\u2026" "13:44322", "clipped: its start, an ellipsis and where it differs");
	free(s);
	s = label_fit(nodes, 4, 1, 25, TEXT_ASCII);
	is_str(s, "~node0001.hpc.example.org", "ASCII: the node's number kept after a ~");
	free(s);
	s = label_fit(cjk, 2, 1, 26, 0);
	if (utf8)
		is_str(s, "计算节点-机房七-\u2026x服务器01", "CJK: clipped between characters");
	else
		ok(true, "# SKIP no C.UTF-8 locale: CJK widths unknown");
	free(s);
	s = label_fit(hosts, 20, 10, 9, 0);
	is_str(s, "\u2026ode-0010", "tight, a name differing near its end keeps its last columns");
	free(s);
	s = label_fit(fqdn, 20, 10, 8, 0);
	is_str(s, "\u202610.hpc\u2026", "tight, every place a name differs from the others in view");
	free(s);
	for (int i = 0; i < 20; i++) {
		free(hosts[i]);
		free(fqdn[i]);
	}
	return tap_done();
}
