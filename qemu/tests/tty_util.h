/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tty_util.h - shared by the guest tests that look at tty data.
 */
#ifndef WS_TTY_UTIL_H
#define WS_TTY_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>

/* Monotonic milliseconds, for the tests' poll deadlines. */
static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/*
 * Wait until fd has data or the monotonic deadline (now_ms()) passes, then
 * read at most room bytes into buf.  Returns the number of bytes read, or 0
 * on timeout, end of file or error.  Interrupted calls are retried.
 */
static inline size_t read_some(int fd, char *buf, size_t room,
			       long long deadline)
{
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = deadline - now_ms();
		ssize_t n;
		int r;

		if (left <= 0 || !room)
			return 0;
		r = poll(&pfd, 1, (int)left);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return 0;
		n = read(fd, buf, room);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		return n > 0 ? (size_t)n : 0;
	}
}

/* Printable rendering of tty data for diagnostics. */
static inline const char *show(const char *s, size_t len)
{
	static char out[1024];
	size_t i, o = 0;

	for (i = 0; i < len && o + 5 < sizeof(out); i++) {
		unsigned char c = s[i];

		if (c == '\n') {
			out[o++] = '\\';
			out[o++] = 'n';
		} else if (c == '\r') {
			out[o++] = '\\';
			out[o++] = 'r';
		} else if (c < 0x20 || c >= 0x7f) {
			o += snprintf(out + o, sizeof(out) - o, "\\x%02x", c);
		} else {
			out[o++] = c;
		}
	}
	out[o] = '\0';
	return out;
}

/*
 * A new pty: returns its master (O_NOCTTY), with the slave's path in name,
 * or -1 with errno set.
 */
static inline int pty_open(char *name, size_t size)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	int err;

	if (m < 0)
		return -1;
	if (!grantpt(m) && !unlockpt(m) && !ptsname_r(m, name, size))
		return m;
	err = errno;
	close(m);
	errno = err;
	return -1;
}

/*
 * The sleeper: the foreground job of the tests that type at a pty.  In the
 * child just forked, run setup (if any), become a session leader whose
 * controlling tty, stdin, stdout and stderr are the slave at name, take the
 * name comm, tell the parent "R" on the pipe ready and pause() until
 * killed.  A step that fails is told instead, as its letter and errno:
 * setup's own letter, S setsid, O open, C TIOCSCTTY, N PR_SET_NAME.
 */
static inline void __attribute__((noreturn))
sleeper_main(const char *name, const char *comm, char (*setup)(void), int ready)
{
	char msg[2] = { 'R', 0 };
	int fd;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGALRM, SIG_DFL);
	alarm(120);	/* never outlive the test for long */
	if (setup) {
		msg[0] = setup();
		if (msg[0])
			goto fail;
	}
	msg[0] = 'S';
	if (setsid() < 0)
		goto fail;
	msg[0] = 'O';
	fd = open(name, O_RDWR);
	if (fd < 0)
		goto fail;
	msg[0] = 'C';
	if (ioctl(fd, TIOCSCTTY, 0))
		goto fail;
	msg[0] = 'N';
	if (prctl(PR_SET_NAME, comm))
		goto fail;
	/* Let go of the test's stdout pipe: the tty is our stdio now. */
	dup2(fd, STDIN_FILENO);
	dup2(fd, STDOUT_FILENO);
	dup2(fd, STDERR_FILENO);
	if (fd > STDERR_FILENO)
		close(fd);
	msg[0] = 'R';
	if (write(ready, msg, 2) != 2)
		_exit(1);
	close(ready);
	for (;;)
		pause();
fail:
	msg[1] = (char)errno;
	if (write(ready, msg, 2) != 2)
		_exit(1);
	_exit(1);
}

/*
 * Fork a sleeper (above) on the slave at name of the pty master and wait
 * up to wait_ms for its "R".  Returns its pid; or -1, the child reaped,
 * with what went wrong in why.
 */
static inline pid_t sleeper_start(int master, const char *name, const char *comm,
				  char (*setup)(void), int wait_ms,
				  char *why, size_t whysize)
{
	char msg[2] = { 0, 0 };
	struct pollfd pfd;
	int pfds[2];
	pid_t pid;

	if (pipe(pfds)) {
		snprintf(why, whysize, "pipe: %s", strerror(errno));
		return -1;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		snprintf(why, whysize, "fork: %s", strerror(errno));
		close(pfds[0]);
		close(pfds[1]);
		return -1;
	}
	if (pid == 0) {
		close(master);
		close(pfds[0]);
		sleeper_main(name, comm, setup, pfds[1]);
	}
	close(pfds[1]);
	pfd.fd = pfds[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, wait_ms) != 1 || read(pfds[0], msg, 2) != 2 ||
	    msg[0] != 'R') {
		snprintf(why, whysize, "sleeper setup failed at step '%c': %s",
			 msg[0] ? msg[0] : '?',
			 msg[0] ? strerror((unsigned char)msg[1]) : "no answer");
		close(pfds[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -1;
	}
	close(pfds[0]);
	return pid;
}

#endif
