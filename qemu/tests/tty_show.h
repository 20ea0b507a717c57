/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tty_show.h - shared by the guest tests that look at tty data.
 */
#ifndef WS_TTY_SHOW_H
#define WS_TTY_SHOW_H

#include <stdio.h>
#include <stddef.h>

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
