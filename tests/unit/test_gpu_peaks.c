/* SPDX-License-Identifier: MIT */
/* test_gpu_peaks.c: the accelerator peak table (model/gpu_peaks.h): the device names
 * PyTorch and ROCm report map to the documented entries, near names do not, nor a MIG
 * slice of a GPU in the table (its peak is a share of the whole GPU's). */
#include <stdio.h>
#include <string.h>
#include "model/gpu_peaks.h"
#include "tests/tap.h"

static void expect(const char *device, const char *name, double flops)
{
	const struct gpu_peak *g = gpu_peak_lookup(device);
	if (!name) {
		ok(g == NULL, "'%s': not in the table (MFU n/a)", device);
		return;
	}
	ok(g && strcmp(g->name, name) == 0 && g->flops == flops, "'%s' -> %s %.5g", device, name, flops);
}

static const struct {
	const char *device, *name;
	double flops;
} cases[] = {
	{ "NVIDIA H100 80GB HBM3", "H100 SXM", 989.4e12 }, { "NVIDIA H100 SXM5 80GB", "H100 SXM", 989.4e12 },
	{ "NVIDIA H100 PCIe", "H100 PCIe", 756.5e12 },    { "NVIDIA H100 NVL", NULL, 0 },
	{ "NVIDIA H200", "H200", 989.4e12 },              { "NVIDIA B200", "B200", 2250e12 },
	{ "NVIDIA A100-SXM4-80GB", "A100", 312e12 },      { "NVIDIA A100 80GB PCIe", "A100", 312e12 },
	{ "NVIDIA L4", "L4", 121e12 },                    { "NVIDIA L40S", "L40S", 362.05e12 },
	{ "NVIDIA L40", NULL, 0 },                        { "Tesla T4", "T4", 65e12 },
	{ "AMD Instinct MI250X", "MI250X", 383e12 },      { "AMD Instinct MI250", NULL, 0 },
	{ "AMD Instinct MI300X", "MI300X", 1307.4e12 },   { "AMD Instinct MI300A", NULL, 0 },
	{ "Tesla V100-SXM2-16GB", NULL, 0 },              { "", NULL, 0 },
	{ "NVIDIA A100-SXM4-40GB MIG 1g.5gb", NULL, 0 },  { "NVIDIA H100 80GB HBM3 MIG 3g.40gb", NULL, 0 },
	{ "NVIDIA A100-SXM4-80GB MIG 7g.80gb", NULL, 0 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		expect(cases[i].device, cases[i].name, cases[i].flops);
	ok(gpu_peak_lookup(NULL) == NULL, "NULL device: no peak");
	return tap_done();
}
