/* SPDX-License-Identifier: MIT */
/* gpu_peaks.c: the accelerator peak table and its token matcher (see gpu_peaks.h); a MIG
 * slice's name matches no entry. */
#include "model/gpu_peaks.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define MAX_TOKENS 3

struct entry {
	struct gpu_peak peak;
	const char *need[MAX_TOKENS];    /* all of these tokens */
	const char *avoid[MAX_TOKENS];   /* none of these */
};

static const struct entry table[] = {
	{ { "H100 PCIe", 756.5e12 }, { "h100", "pcie" }, { "nvl" } },
	{ { "H100 SXM", 989.4e12 }, { "h100" }, { "pcie", "nvl" } },
	{ { "H200", 989.4e12 }, { "h200" }, { "nvl" } },
	{ { "B200", 2250e12 }, { "b200" }, { 0 } },
	{ { "A100", 312e12 }, { "a100" }, { 0 } },
	{ { "L40S", 362.05e12 }, { "l40s" }, { 0 } },
	{ { "L4", 121e12 }, { "l4" }, { 0 } },
	{ { "T4", 65e12 }, { "t4" }, { 0 } },
	{ { "MI250X", 383e12 }, { "mi250x" }, { 0 } },
	{ { "MI300X", 1307.4e12 }, { "mi300x" }, { 0 } },
};

/* Whether word (lowercase) is one of device's alphanumeric tokens, case-insensitive. */
static bool has_token(const char *device, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = device; *p;) {
		while (*p && !isalnum((unsigned char)*p))
			p++;
		const char *s = p;
		while (*p && isalnum((unsigned char)*p))
			p++;
		if ((size_t)(p - s) == n && strncasecmp(s, word, n) == 0)
			return true;
	}
	return false;
}

static bool matches(const struct entry *e, const char *device)
{
	for (size_t i = 0; i < MAX_TOKENS && e->need[i]; i++)
		if (!has_token(device, e->need[i]))
			return false;
	for (size_t i = 0; i < MAX_TOKENS && e->avoid[i]; i++)
		if (has_token(device, e->avoid[i]))
			return false;
	return true;
}

static const struct gpu_peak *lookup(const char *device)
{
	if (has_token(device, "mig")) /* a slice has a share of the GPU's peak */
		return NULL;
	for (size_t i = 0; i < ARRAY_LEN(table); i++)
		if (matches(&table[i], device))
			return &table[i].peak;
	return NULL;
}

/* The last name this thread looked up and its entry: the loader checks every rank's
 * run.json, and a run's ranks name one GPU (10,000 token scans of one name, 2% of an
 * open of 10,000 small ranks, BENCHMARKS.md). */
static _Thread_local struct {
	char name[128];
	const struct gpu_peak *peak;
} last;

const struct gpu_peak *gpu_peak_lookup(const char *device)
{
	if (!device)
		return NULL;
	if (last.name[0] && strcmp(last.name, device) == 0)
		return last.peak;
	const struct gpu_peak *peak = lookup(device);
	if (strlen(device) < sizeof(last.name)) {
		strcpy(last.name, device);
		last.peak = peak;
	}
	return peak;
}
