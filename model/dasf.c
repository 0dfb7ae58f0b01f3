/* SPDX-License-Identifier: MIT */
/* dasf.c: DASF event databases. Registration of the dasf subsystem (loaders, views, rules). */
#include "model/registry.h"

const struct subsystem sub_dasf = {
	.name = "dasf",
};
