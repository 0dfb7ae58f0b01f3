/* SPDX-License-Identifier: MIT */
/* gpu_peaks.h: the documented table of accelerator peaks used for MFU when run.json has
 * environment.gpu but no peak_flops (and no --peak-tflops): dense (no sparsity) BF16/FP16
 * tensor-core peak FLOP/s from the vendors' data sheets, per GPU:
 *   A100 (SXM and PCIe)   312e12      H100 SXM (incl. "H100 80GB HBM3")   989.4e12
 *   H100 PCIe             756.5e12    H200 (SXM)                          989.4e12
 *   B200                  2250e12     L4                                  121e12
 *   L40S                  362.05e12   T4 (FP16; no BF16)                  65e12
 *   MI250X                383e12      MI300X                              1307.4e12
 * A device name matches an entry when it holds the entry's tokens (split at every
 * non-alphanumeric character, case-insensitive) and none of its excluded tokens, so
 * "L40S" is never "L4", "MI250" is not "MI250X" and "H100 NVL" or "H200 NVL" (other
 * clocks) match nothing, nor does a MIG slice ("NVIDIA A100-SXM4-40GB MIG 1g.5gb", as
 * torch reports it: a share of the GPU's compute, not its peak). First matching entry
 * wins; no match is no peak (MFU n/a).
 * pytscope 0.2.1's own table (pytscope.md §9) is not this one: it is used only at
 * record time, and --compat pytscope never consults this table. */
#ifndef MODEL_GPU_PEAKS_H
#define MODEL_GPU_PEAKS_H

#include "model/base.h"

struct gpu_peak {
	const char *name;     /* e.g. "H100 SXM" */
	double flops;         /* dense BF16/FP16 FLOP/s */
};

/* The entry for a device name (environment.gpu), or NULL when unknown. */
const struct gpu_peak *gpu_peak_lookup(const char *device);

#endif
