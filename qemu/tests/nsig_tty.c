// SPDX-License-Identifier: GPL-2.0
/*
 * nsig_tty.c - ^T (VSTATUS) on a pty: the status line, then SIGINFO to
 * the foreground job; with NOKERNINFO, SIGINFO without the line.
 *
 * What the nsig programs share, and how they treat headers and kernels
 * without the series: nsig.h.
 */
#include "nsig.h"

#include <sys/ioctl.h>
#include <asm/ioctls.h>
#include <asm/termbits.h>

#define MARKER		"<nsig: SIGINFO>"

static const char *const tty_names[] = {
	"^T prints the status line, then SIGINFO reaches the foreground job",
	"^T with NOKERNINFO: no status line, SIGINFO still sent",
};
#define NR_TTY_CASES	ARRAY_SIZE(tty_names)

#if defined(VSTATUS) && KSIG_HAVE_SIGINFO

static int master = -1, slave = -1;
static pid_t sleeper;

static void on_tty_info(int sig)
{
	static const char m[] = MARKER "\n";

	(void)sig;
	if (write(STDOUT_FILENO, m, sizeof(m) - 1) < 0)
		_exit(5);
}

/* In the sleeper, before it takes the tty: catch SIGINFO, block nothing. */
static char sleeper_setup(void)
{
	struct ksig_sigaction sa;
	struct ksig_set none;

	ksig_set_handler(&sa, on_tty_info, SA_RESTART, NULL);
	if (ksig_action(KSIG_SIGINFO, &sa, NULL, ksz))
		return 'A';
	ksig_empty(&none);
	set_blocked(&none);
	return 0;
}

static int start_sleeper(void)
{
	char name[128];
	int pgrp = 0;

	master = pty_open(name, sizeof(name));
	if (master < 0)
		return failf("pty: %s", strerror(errno));
	sleeper = sleeper_start(master, name, "nsig-sleeper", sleeper_setup, WAIT_MS,
				why, sizeof(why));
	if (sleeper < 0)
		return -1;
	slave = open(name, O_RDWR | O_NOCTTY);
	if (slave < 0)
		return failf("open %s: %s", name, strerror(errno));
	if (ioctl(master, TIOCGPGRP, &pgrp) || pgrp != sleeper)
		return failf("foreground pgrp of %s is %d, sleeper is %d", name, pgrp,
			     (int)sleeper);
	return 0;
}

static void stop_sleeper(void)
{
	int status;

	if (sleeper > 0) {
		kill(sleeper, SIGKILL);
		wait_child(sleeper, &status);
	}
	sleeper = 0;
	if (slave >= 0)
		close(slave);
	if (master >= 0)
		close(master);
	slave = master = -1;
}

/* Everything the master gets until the marker is in, or the deadline. */
static size_t collect(char *buf, size_t room, int ms)
{
	long long deadline = now_ms() + ms;
	size_t len = 0;

	buf[0] = '\0';
	while (len + 1 < room && !memmem(buf, len, MARKER "\r\n", sizeof(MARKER) + 1)) {
		size_t n = read_some(master, buf + len, room - 1 - len, deadline);

		if (!n)
			break;
		len += n;
		buf[len] = '\0';
	}
	return len;
}

static void drain_master(void)
{
	char buf[512];

	ioctl(slave, TCFLSH, TCIOFLUSH);
	while (read_some(master, buf, sizeof(buf), now_ms() + 50))
		;
}

static int set_lflag(tcflag_t on, tcflag_t off)
{
	struct termios t;

	if (ioctl(slave, TCGETS, &t))
		return failf("TCGETS: %s", strerror(errno));
	t.c_lflag |= on;
	t.c_lflag &= ~off;
	t.c_cc[VSTATUS] = 0x14;
	if (ioctl(slave, TCSETS, &t))
		return failf("TCSETS: %s", strerror(errno));
	return 0;
}

static int count_str(const char *buf, size_t len, const char *what)
{
	const char *p = buf, *end = buf + len;
	int n = 0;

	while ((p = memmem(p, end - p, what, strlen(what)))) {
		n++;
		p += strlen(what);
	}
	return n;
}

static int tty_line_then_signal(void)
{
	char buf[4096], want[64];
	const char *line, *nl, *mark;
	size_t len;

	if (set_lflag(ICANON | ISIG | IEXTEN, 0))
		return -1;
#ifdef NOKERNINFO
	if (set_lflag(0, NOKERNINFO))
		return -1;
#endif
	drain_master();
	if (write(master, "\x14", 1) != 1)
		return failf("write ^T: %s", strerror(errno));
	len = collect(buf, sizeof(buf), LINE_WAIT_MS);
	line = memmem(buf, len, "load: ", 6);
	mark = memmem(buf, len, MARKER, strlen(MARKER));
	if (!line)
		return failf("no status line, master got \"%s\"", show(buf, len));
	nl = memchr(line, '\n', buf + len - line);
	if (!nl)
		return failf("status line not terminated: \"%s\"", show(buf, len));
	ksft_print_msg("%s\n", show(line, nl - line - (nl > line && nl[-1] == '\r')));
	snprintf(want, sizeof(want), "cmd: nsig-sleeper %d ", (int)sleeper);
	if (!memmem(line, nl - line, want, strlen(want)))
		return failf("status line lacks \"%s\"", want);
	if (!mark)
		return failf("no SIGINFO marker, master got \"%s\"", show(buf, len));
	if (mark < nl)
		return failf("SIGINFO marker before the end of the status line: \"%s\"",
			     show(buf, len));
	if (count_str(buf, len, MARKER) != 1)
		return failf("%d markers for one ^T", count_str(buf, len, MARKER));
	return 0;
}

static int tty_nokerninfo(void)
{
#ifdef NOKERNINFO
	char buf[4096];
	size_t len;
	int r = 0;

	if (set_lflag(ICANON | ISIG | IEXTEN | NOKERNINFO, 0))
		return -1;
	drain_master();
	if (write(master, "\x14", 1) != 1)
		return failf("write ^T: %s", strerror(errno));
	len = collect(buf, sizeof(buf), LINE_WAIT_MS);
	if (memmem(buf, len, "load:", 5))
		r = failf("status line printed despite NOKERNINFO: \"%s\"", show(buf, len));
	else if (count_str(buf, len, MARKER) != 1)
		r = failf("want one SIGINFO marker, master got \"%s\"", show(buf, len));
	set_lflag(0, NOKERNINFO);
	return r;
#else
	return 0;
#endif
}

static void run_tty(void)
{
	int r, i;

	reset();
	r = start_sleeper();
	if (r) {
		for (i = 0; i < NR_TTY_CASES; i++)
			ksft_test_result_fail("%s: setup: %s\n", tty_names[i], why);
		stop_sleeper();
		return;
	}
	result(tty_line_then_signal(), "%s\n", tty_names[0]);
#ifdef NOKERNINFO
	result(tty_nokerninfo(), "%s\n", tty_names[1]);
#else
	ksft_test_result_skip("NOKERNINFO not in this kernel's uapi headers (%s)\n",
			      tty_names[1]);
#endif
	stop_sleeper();
	reset();
}

#else /* VSTATUS && SIGINFO */

static void run_tty(void)
{
	int i;

	for (i = 0; i < NR_TTY_CASES; i++)
		ksft_test_result_skip("%s not in this kernel's uapi headers (%s)\n",
#ifdef VSTATUS
				      "SIGINFO",
#else
				      "VSTATUS",
#endif
				      tty_names[i]);
}

#endif /* VSTATUS && SIGINFO */

int main(void)
{
	nsig_begin(NR_TTY_CASES);
	run_tty();
	return nsig_end(NR_TTY_CASES);
}
