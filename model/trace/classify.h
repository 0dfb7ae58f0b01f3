/* SPDX-License-Identifier: MIT */
/* classify.h: GPU kernel classification (communication / memory / computation / other).
 *
 * The built-in table reproduces HolisticTraceAnalysis (hta/utils/utils.py
 * get_kernel_type), checked in this order:
 *   COMMUNICATION  ^nccl | ^hip | ^hccl | ncclKernel           (NCCL, RCCL, MTIA hccl)
 *   MEMORY         ^(hip)?Memcpy | ^(hip)?Memset | ^dma
 *   COMPUTATION    none of ^nccl .*Memcpy .*Memset .*dma ^.*Sync ^Stream Wait Event
 *                  cuda.*LaunchKernel ^runFunction ^hip ^job_exe ^packet ^pe_exe
 *                  ^cpum_exe_subgraph ^hccl ^collective_subgraph_execution
 *   OTHER          everything else
 * and adds communication rules HTA lacks, tried before the HTA rules: NVSHMEM
 * (nvshmem), DeepEP-style expert-parallel kernels (deep_ep::, dpsk::ep::,
 * ::internode::/::intranode:: dispatch|combine|notify), oneCCL/rccl names, and PyTorch's
 * own collectives (c10d::, as intra_node_comm's all-reduce; pytscope's list has it too).
 * The built-in patterns are plain prefixes and substrings and are matched as such
 * (no regex engine); each distinct kernel name is classified once per rank.
 *
 * A user file (--kernel-classes FILE) adds rules tried before all built-ins. Format,
 * one rule per line, '#' starts a comment, blank lines ignored:
 *     CLASS  REGEX
 * CLASS is communication, memory, computation or other (case-insensitive); REGEX is a
 * POSIX extended regular expression matched anywhere in the kernel name (anchor with ^).
 * Example:  communication  ^my_allreduce_kernel
 */
#ifndef MODEL_CLASSIFY_H
#define MODEL_CLASSIFY_H

#include "model/base.h"

enum kclass { KC_COMPUTATION, KC_COMMUNICATION, KC_MEMORY, KC_OTHER, KC_COUNT };

struct kclassifier;

struct diag_list;
/* Built-in table plus the rules in `path` (NULL for none). Each problem of the file is
 * an error diagnostic in diags (NULL: none kept): a bad line with its file:line, a file
 * that cannot be read with why. Never NULL. */
struct kclassifier *kclass_new(const char *path, struct diag_list *diags);
void kclass_free(struct kclassifier *c);
/* Class of a kernel name. Thread-safe (the classifier is immutable). */
enum kclass kclass_of(const struct kclassifier *c, const char *name);
/* "COMPUTATION", "COMMUNICATION", "MEMORY", "OTHER" (HTA's spelling). */
const char *kclass_name(enum kclass k);

#endif
