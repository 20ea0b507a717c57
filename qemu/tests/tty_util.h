/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tty_util.h - shared by the guest tests that look at tty data.
 */
#ifndef WS_TTY_UTIL_H
#define WS_TTY_UTIL_H

#include <stdio.h>
#include <stddef.h>
#include <time.h>

/* Monotonic milliseconds, for the tests' poll deadlines. */
static inline long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
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
