/* SPDX-License-Identifier: MIT */
/* test_infile.c: model/infile.c's FIFO wait as TSCOPE_FIFO_WAIT sets it, seen in the
 * message a FIFO without a writer is refused with: a usable value is the wait, an
 * unusable one is said not to be used (it was passed over in silence). The value is
 * read once per process, so each case runs in a child. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "model/infile.h"
#include "tests/tap.h"

/* The refusal's message with TSCOPE_FIFO_WAIT set to value (NULL: unset), into out. */
static void fifo_message(const char *value, char *out, size_t outn)
{
	int p[2];
	out[0] = '\0';
	if (pipe(p) != 0)
		return;
	pid_t child = fork();
	if (child == 0) {
		if (value)
			setenv("TSCOPE_FIFO_WAIT", value, 1);
		else
			unsetenv("TSCOPE_FIFO_WAIT");
		const char *msg = infile_strerror(INFILE_ENOWRITER);
		ssize_t w = write(p[1], msg, strlen(msg));
		_exit(w < 0);
	}
	close(p[1]);
	ssize_t n = read(p[0], out, outn - 1);
	out[n > 0 ? n : 0] = '\0';
	close(p[0]);
	waitpid(child, NULL, 0);
}

static void check(const char *value, const char *want)
{
	char got[256];
	fifo_message(value, got, sizeof(got));
	char what[64];
	snprintf(what, sizeof(what), "TSCOPE_FIFO_WAIT %s%s%s", value ? "\"" : "", value ? value : "unset",
		 value ? "\"" : "");
	is_str(got, want, what);
}

int main(void)
{
	const char *unused = "a FIFO with no writer within 10 s (TSCOPE_FIFO_WAIT is not a number of seconds "
			     "from 0 to 86400, so not used)";
	check(NULL, "a FIFO with no writer within 10 s (TSCOPE_FIFO_WAIT sets the wait)");
	check("0.2", "a FIFO with no writer within 0.2 s (TSCOPE_FIFO_WAIT sets the wait)");
	check("0", "a FIFO with no writer within 0 s (TSCOPE_FIFO_WAIT sets the wait)");
	check("0.2s", unused);
	check("-1", unused);
	check("90000", unused);
	check("", unused);
	return tap_done();
}
