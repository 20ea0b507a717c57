/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tty_util.h - shared by the guest tests that look at tty data.
 */
#ifndef WS_TTY_UTIL_H
#define WS_TTY_UTIL_H

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stddef.h>
#include <time.h>
#include <unistd.h>

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

#endif
