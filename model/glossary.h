/* SPDX-License-Identifier: MIT */
/* glossary.h: the vocabulary every label, legend and report uses: the man page's
 * Glossary word for word (tests/ui/legend.sh compares them), each term with the column
 * names that spell it (step_time, rank_wall, time_lost...). The panes' legends ask
 * which entries a text uses; nothing outside model/ matches column names. */
#ifndef MODEL_GLOSSARY_H
#define MODEL_GLOSSARY_H

#include "model/base.h"

size_t glossary_count(void);
const char *glossary_term(size_t i);
const char *glossary_def(size_t i);
/* Whether words (a label, a title, column names separated by spaces) use entry i: its
 * term or its column spelling occurs in them, case-insensitively. */
bool glossary_used(size_t i, const char *words);

#endif
