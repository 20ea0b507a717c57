// SPDX-License-Identifier: GPL-2.0
/*
 * vstatus.c - the VSTATUS (^T) status line, NOKERNINFO and TIOCSTAT.
 *
 * Built against the uapi headers of the kernel under test
 * (-isystem <headers_install>/include), so it uses <asm/termbits.h> and the
 * raw TCGETS/TCSETS ioctls rather than glibc's <termios.h>.  A symbol the
 * headers do not define means the feature does not exist at that commit: the
 * cases that need it are skipped.  A defined feature that misbehaves fails.
 *
 * A child becomes session leader with the pty slave as its controlling tty,
 * names itself "vst-sleeper" and sleeps in pause(): it is the foreground
 * process the status line must describe.  The parent drives the master and
 * keeps its own O_NOCTTY slave fd for reads and ioctls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <asm/ioctls.h>
#include <asm/termbits.h>

#include "kselftest.h"
#include "tty_util.h"

#define NR_CASES	7
#define CTRL_T		0x14
#define LINE_WAIT_MS	3000	/* a status line must show up within this */
#define QUIET_WAIT_MS	1000	/* and must not show up within this */
#define IO_WAIT_MS	2000

static const char *const case_names[NR_CASES] = {
	"new pty: vstatus disabled, ^T is plain input",
	"^T prints the status line",
	"^T is not queued as input",
	"nokerninfo suppresses the status line",
	"tiocstat prints the line",
	"icanon off: ^T is plain input",
	"iexten off: ^T is plain input",
};

#ifndef VSTATUS

int main(void)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(NR_CASES);
	for (i = 0; i < NR_CASES; i++)
		ksft_test_result_skip("VSTATUS not in this kernel's uapi headers (%s)\n",
				      case_names[i]);
	ksft_print_cnts();
	return KSFT_SKIP;
}

#else /* VSTATUS */

static int master = -1, slave = -1;
static volatile pid_t sleeper;

static void on_alarm(int sig)
{
	static const char msg[] = "Bail out! vstatus: guard alarm fired\n";

	(void)sig;
	if (sleeper > 0)
		kill(sleeper, SIGKILL);
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(KSFT_FAIL);
	_exit(KSFT_FAIL);
}

struct buf {
	char data[4096];
	size_t len;
};

/*
 * Find a complete status line: a line that starts with "load: " (after any
 * "\r", or an echoed "^T") and is terminated by "\n".  Returns its start and
 * length (without the line end) or NULL.
 */
static const char *status_line(const struct buf *b, size_t *len)
{
	size_t pos = 0;

	while (pos < b->len) {
		const char *p = b->data + pos, *end = b->data + b->len;
		const char *nl;

		while (p < end && *p == '\r')
			p++;
		if (end - p >= 2 && p[0] == '^' && p[1] == 'T')
			p += 2;
		nl = memchr(p, '\n', end - p);
		if ((size_t)(end - p) >= 6 && !memcmp(p, "load: ", 6) && nl) {
			*len = nl - p;
			while (*len && p[*len - 1] == '\r')
				(*len)--;
			return p;
		}
		nl = memchr(b->data + pos, '\n', b->len - pos);
		if (!nl)
			break;
		pos = nl - b->data + 1;
	}
	return NULL;
}

static bool has_load(const struct buf *b)
{
	return memmem(b->data, b->len, "load:", 5) != NULL;
}

/*
 * Accumulate what fd delivers for up to timeout_ms; stop early once a status
 * line is complete (want_line) or want bytes arrived (want > 0).
 */
static void collect(int fd, struct buf *b, int timeout_ms, bool want_line,
		    size_t want)
{
	long long deadline = now_ms() + timeout_ms;
	size_t dummy;

	b->len = 0;
	b->data[0] = '\0';
	for (;;) {
		size_t n;

		if (want_line && status_line(b, &dummy))
			break;
		if (want && b->len >= want)
			break;
		n = read_some(fd, b->data + b->len, sizeof(b->data) - 1 - b->len,
			      deadline);
		if (!n)
			break;
		b->len += n;
		b->data[b->len] = '\0';
	}
}

static void drain(int fd)
{
	struct buf b;

	do
		collect(fd, &b, 50, false, 0);
	while (b.len);
}

static int tc_get(struct termios *t)
{
	return ioctl(slave, TCGETS, t);
}

static int tc_set(const struct termios *t)
{
	return ioctl(slave, TCSETS, t);
}

static void reset_io(void)
{
	ioctl(slave, TCFLSH, TCIOFLUSH);
	drain(master);
	drain(slave);
}

static int put(int fd, const char *s, size_t len)
{
	return write(fd, s, len) == (ssize_t)len ? 0 : -1;
}

/*
 * Check that b holds a status line naming the sleeper.  Returns 0 and prints
 * the line as a diagnostic, or -1 with *why set.
 */
static int check_line(const struct buf *b, const char **why)
{
	static char reason[1200];
	char want[64];
	const char *line;
	size_t len;

	line = status_line(b, &len);
	if (!line) {
		snprintf(reason, sizeof(reason), "no \"load: \" line, master got \"%s\"",
			 show(b->data, b->len));
		*why = reason;
		return -1;
	}
	ksft_print_msg("%s\n", show(line, len));
	snprintf(want, sizeof(want), "cmd: vst-sleeper %d ", (int)sleeper);
	if (!memmem(line, len, want, strlen(want))) {
		snprintf(reason, sizeof(reason), "line lacks \"%s\"", want);
		*why = reason;
		return -1;
	}
	return 0;
}

/*
 * What the documented ABI promises for a new terminal: VSTATUS is disabled
 * (c_cc[VSTATUS] is 0, _POSIX_VDISABLE) while ISIG, ICANON and IEXTEN are
 * set, so a 0x14 typed at a reader in canonical mode is data, as it has
 * always been on Linux, and no status line is printed.  Runs first, on the
 * termios the pty was created with.
 */
static void test_default_off(void)
{
	const tcflag_t on = ISIG | ICANON | IEXTEN;
	struct termios t;
	struct buf b, m;

	if (tc_get(&t)) {
		ksft_test_result_fail("%s: TCGETS: %s\n", case_names[0], strerror(errno));
		return;
	}
	if (t.c_cc[VSTATUS] != 0) {
		ksft_test_result_fail("%s: default c_cc[VSTATUS] is 0x%02x, want 0 (disabled)\n",
				      case_names[0], t.c_cc[VSTATUS]);
		return;
	}
	if ((t.c_lflag & on) != on) {
		ksft_test_result_fail("%s: default c_lflag 0%o lacks ISIG, ICANON or IEXTEN\n",
				      case_names[0], (unsigned int)t.c_lflag);
		return;
	}
	reset_io();
	if (put(master, "\x14\n", 2)) {
		ksft_test_result_fail("%s: write: %s\n", case_names[0], strerror(errno));
		return;
	}
	collect(slave, &b, IO_WAIT_MS, false, 2);
	collect(master, &m, QUIET_WAIT_MS, false, 0);
	reset_io();
	if (b.len != 2 || memcmp(b.data, "\x14\n", 2)) {
		ksft_test_result_fail("%s: slave read \"%s\", want \"\\x14\\n\"\n",
				      case_names[0], show(b.data, b.len));
		return;
	}
	if (has_load(&m)) {
		ksft_test_result_fail("%s: status line on master: \"%s\"\n",
				      case_names[0], show(m.data, m.len));
		return;
	}
	ksft_test_result_pass("%s\n", case_names[0]);
}

/* Sets c_cc[VSTATUS] to ^T, which the following cases rely on. */
static void test_ctrl_t_line(void)
{
	const char *why;
	struct termios t;
	struct buf b;

	if (tc_get(&t)) {
		ksft_test_result_fail("%s: TCGETS: %s\n", case_names[1], strerror(errno));
		return;
	}
	t.c_cc[VSTATUS] = CTRL_T;
	if (tc_set(&t)) {
		ksft_test_result_fail("%s: TCSETS: %s\n", case_names[1], strerror(errno));
		return;
	}
	reset_io();
	if (put(master, "\x14", 1)) {
		ksft_test_result_fail("%s: write: %s\n", case_names[1], strerror(errno));
		return;
	}
	collect(master, &b, LINE_WAIT_MS, true, 0);
	if (check_line(&b, &why)) {
		ksft_test_result_fail("%s: %s\n", case_names[1], why);
		return;
	}
	ksft_test_result_pass("%s\n", case_names[1]);
}

/* Runs right after test_ctrl_t_line(): the ^T it typed must not be input. */
static void test_not_queued(void)
{
	struct buf b;

	drain(master);
	if (put(master, "x\n", 2)) {
		ksft_test_result_fail("%s: write: %s\n", case_names[2], strerror(errno));
		return;
	}
	collect(slave, &b, IO_WAIT_MS, false, 2);
	if (b.len != 2 || memcmp(b.data, "x\n", 2)) {
		ksft_test_result_fail("%s: slave read \"%s\", want \"x\\n\"\n",
				      case_names[2], show(b.data, b.len));
		return;
	}
	ksft_test_result_pass("%s\n", case_names[2]);
}

static void test_nokerninfo(void)
{
#ifdef NOKERNINFO
	struct termios orig, t;
	const char *why;
	struct buf b;

	if (tc_get(&orig)) {
		ksft_test_result_fail("%s: TCGETS: %s\n", case_names[3], strerror(errno));
		return;
	}
	t = orig;
	t.c_lflag |= NOKERNINFO;
	if (tc_set(&t) || tc_get(&t)) {
		ksft_test_result_fail("%s: TCSETS: %s\n", case_names[3], strerror(errno));
		tc_set(&orig);
		return;
	}
	if (!(t.c_lflag & NOKERNINFO)) {
		ksft_test_result_fail("%s: NOKERNINFO did not stick in c_lflag (0%o)\n",
				      case_names[3], (unsigned int)t.c_lflag);
		tc_set(&orig);
		return;
	}
	reset_io();
	put(master, "\x14", 1);
	collect(master, &b, QUIET_WAIT_MS, false, 0);
	orig.c_lflag &= ~NOKERNINFO;
	tc_set(&orig);
	if (has_load(&b)) {
		ksft_test_result_fail("%s: master got \"%s\"\n", case_names[3],
				      show(b.data, b.len));
		reset_io();
		return;
	}

	/* Control: with the flag cleared again, ^T must print. */
	reset_io();
	put(master, "\x14", 1);
	collect(master, &b, LINE_WAIT_MS, true, 0);
	reset_io();
	if (check_line(&b, &why)) {
		ksft_test_result_fail("%s: after clearing NOKERNINFO: %s\n",
				      case_names[3], why);
		return;
	}
	ksft_test_result_pass("%s\n", case_names[3]);
#else
	ksft_test_result_skip("NOKERNINFO not in this kernel's uapi headers (%s)\n",
			      case_names[3]);
#endif
}

static void test_tiocstat(void)
{
#ifdef TIOCSTAT
	const char *why;
	struct buf b;

	reset_io();
	if (ioctl(slave, TIOCSTAT, 0)) {
		ksft_test_result_fail("%s: ioctl(TIOCSTAT): %s\n", case_names[4],
				      strerror(errno));
		return;
	}
	collect(master, &b, LINE_WAIT_MS, true, 0);
	if (check_line(&b, &why)) {
		ksft_test_result_fail("%s: %s\n", case_names[4], why);
		return;
	}
	ksft_test_result_pass("%s\n", case_names[4]);
#else
	ksft_test_result_skip("TIOCSTAT not in this kernel's uapi headers (%s)\n",
			      case_names[4]);
#endif
}

/*
 * With lflag_off cleared, what the master types must reach the slave
 * unchanged and no status line may appear.
 */
static void test_plain_input(int idx, tcflag_t lflag_off, const char *in,
			     size_t len)
{
	struct termios orig, t;
	struct buf b, m;

	if (tc_get(&orig)) {
		ksft_test_result_fail("%s: TCGETS: %s\n", case_names[idx], strerror(errno));
		return;
	}
	t = orig;
	t.c_lflag &= ~lflag_off;
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tc_set(&t)) {
		ksft_test_result_fail("%s: TCSETS: %s\n", case_names[idx], strerror(errno));
		return;
	}
	reset_io();
	if (put(master, in, len)) {
		ksft_test_result_fail("%s: write: %s\n", case_names[idx], strerror(errno));
		tc_set(&orig);
		return;
	}
	collect(slave, &b, IO_WAIT_MS, false, len);
	if (b.len == len) {
		/* Anything beyond what was typed is wrong too. */
		struct buf extra;

		collect(slave, &extra, 100, false, 1);
		if (extra.len && b.len + extra.len < sizeof(b.data)) {
			memcpy(b.data + b.len, extra.data, extra.len);
			b.len += extra.len;
		}
	}
	collect(master, &m, QUIET_WAIT_MS, false, 0);
	tc_set(&orig);
	reset_io();

	if (b.len != len || memcmp(b.data, in, len)) {
		ksft_test_result_fail("%s: slave read \"%s\", want \"%s\"\n",
				      case_names[idx], show(b.data, b.len),
				      show(in, len));
		return;
	}
	if (has_load(&m)) {
		ksft_test_result_fail("%s: status line on master: \"%s\"\n",
				      case_names[idx], show(m.data, m.len));
		return;
	}
	ksft_test_result_pass("%s\n", case_names[idx]);
}

static void start_sleeper(void)
{
	char name[128], why[160];
	int pgrp = 0;

	master = pty_open(name, sizeof(name));
	if (master < 0)
		ksft_exit_fail_msg("pty: %s\n", strerror(errno));
	/* The sleeper: session leader, controlling tty = slave, foreground. */
	sleeper = sleeper_start(master, name, "vst-sleeper", NULL, 5000,
				why, sizeof(why));
	if (sleeper < 0)
		ksft_exit_fail_msg("%s\n", why);

	slave = open(name, O_RDWR | O_NOCTTY);
	if (slave < 0)
		ksft_exit_fail_msg("open %s: %s\n", name, strerror(errno));
	if (ioctl(master, TIOCGPGRP, &pgrp) || pgrp != sleeper)
		ksft_print_msg("warning: foreground pgrp of %s is %d, sleeper is %d\n",
			       name, pgrp, (int)sleeper);
	ksft_print_msg("pty %s, sleeper pid %d\n", name, (int)sleeper);
}

static void stop_sleeper(void)
{
	int status;

	if (sleeper <= 0)
		return;
	kill(sleeper, SIGKILL);
	waitpid(sleeper, &status, 0);
	sleeper = 0;
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(NR_CASES);
	if (VSTATUS < 0 || VSTATUS >= NCCS)
		ksft_exit_fail_msg("VSTATUS %d is outside c_cc[%d]\n", VSTATUS, NCCS);
	signal(SIGALRM, on_alarm);
	alarm(60);

	start_sleeper();

	/* The default first; then c_cc[VSTATUS] is ^T for the other cases. */
	test_default_off();
	test_ctrl_t_line();
	test_not_queued();
	test_nokerninfo();
	test_tiocstat();
	test_plain_input(5, ICANON, "\x14", 1);
	test_plain_input(6, IEXTEN, "\x14\n", 2);

	stop_sleeper();
	close(slave);
	close(master);
	alarm(0);
	if (ksft_get_xskip_cnt() == NR_CASES) {
		ksft_print_cnts();
		return KSFT_SKIP;
	}
	ksft_finished();
	return 0;
}

#endif /* VSTATUS */
