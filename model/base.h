/* SPDX-License-Identifier: MIT */
/* base.h: C11 basics shared by every layer: array length, attributes. No logic. */
#ifndef MODEL_BASE_H
#define MODEL_BASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define PRINTF_LIKE(fmt, args) __attribute__((format(printf, fmt, args)))
#define NORETURN _Noreturn

#endif
