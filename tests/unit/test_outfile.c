/* SPDX-License-Identifier: MIT */
/* test_outfile.c: model/outfile.c's FIFO case: an open that a signal interrupts (a
 * Ctrl-Z and fg, a SIGWINCH, a timer: handlers without SA_RESTART) while it waits for
 * the FIFO's reader is retried, not reported as "Interrupted system call". */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "model/outfile.h"
#include "tests/tap.h"
#include "tests/testutil.h"

static char tmpdir[4096];

static void on_usr1(int sig)
{
	(void)sig;
}

/* The reader: signals the writer while it waits in open, then opens the FIFO and
 * checks what comes through; exits 0 when it is "hello\n". */
static void reader(const char *fifo, pid_t writer)
{
	usleep(200 * 1000);
	kill(writer, SIGUSR1);
	usleep(200 * 1000);
	FILE *f = fopen(fifo, "r");
	char buf[16] = { 0 };
	bool got = f && fgets(buf, sizeof(buf), f) && strcmp(buf, "hello\n") == 0;
	_exit(got ? 0 : 1);
}

static void test_fifo_open_interrupted(void)
{
	char fifo[4200];
	snprintf(fifo, sizeof(fifo), "%s/out.fifo", tmpdir);
	ok(mkfifo(fifo, 0600) == 0, "mkfifo");
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1; /* no SA_RESTART: a blocked open returns EINTR */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGUSR1, &sa, NULL);
	pid_t me = getpid(), child = fork();
	if (child == 0)
		reader(fifo, me);
	struct outfile o;
	int rc = outfile_open(&o, fifo, false);
	int err = errno;
	ok(rc == 0, "a FIFO open a signal interrupts is retried until the reader comes (errno %d)", rc ? err : 0);
	if (rc == 0) {
		fputs("hello\n", o.f);
		ok(outfile_close(&o, true) == 0, "written and closed");
	} else {
		kill(child, SIGKILL);
	}
	int st = 0;
	waitpid(child, &st, 0);
	if (rc == 0)
		ok(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the reader got what was written");
}

int main(void)
{
	if (!tu_mkdtemp(tmpdir, sizeof(tmpdir), "outfile")) {
		perror("mkdtemp");
		return 1;
	}
	test_fifo_open_interrupted();
	if (tu_rm_rf(tmpdir) != 0)
		fprintf(stderr, "cleanup failed\n");
	return tap_done();
}
