/* SPDX-License-Identifier: MIT */
/* index_cmd.h: the `tscope-tui index` subcommand (src/index_cmd.c). */
#ifndef SRC_INDEX_CMD_H
#define SRC_INDEX_CMD_H

/* argv[0] is "index". Returns the exit status (0 ok, 1 failure, 2 usage error). */
int index_main(int argc, char **argv);

#endif
