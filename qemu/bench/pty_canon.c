// SPDX-License-Identifier: GPL-2.0
/*
 * pty_canon.c - receive-path throughput of a pty in canonical mode.
 *
 * A child writes lines of ordinary characters to the pty master as fast as
 * the pty takes them; the parent reads them from the slave, which is in
 * canonical mode with ISIG and IEXTEN set (what a shell's foreground job
 * gets) and ECHO off, so every byte goes through n_tty's receive path and
 * nothing else.  After a warm-up round, each round counts the bytes read in
 * BENCH_ROUND_MS and prints them as a KTAP diagnostic:
 *
 *	# pty_canon round 1: 12345678 bytes/s
 *
 * The host (scripts/boot.sh bench) compares these figures between kernels.
 * The test fails only if the pty does not work at all.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>

#include "kselftest.h"

#define BENCH_ROUNDS	6	/* the first one is a warm-up */
#define BENCH_ROUND_MS	1000
#define LINE_LEN	256	/* bytes per line, newline included */

static unsigned long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

static int open_pty(int *slave)
{
	struct termios t;
	int master;

	master = posix_openpt(O_RDWR | O_NOCTTY);
	if (master < 0 || grantpt(master) || unlockpt(master))
		return -1;
	*slave = open(ptsname(master), O_RDWR | O_NOCTTY);
	if (*slave < 0 || tcgetattr(*slave, &t))
		return -1;
	t.c_iflag = 0;
	t.c_oflag = 0;
	t.c_lflag = ICANON | ISIG | IEXTEN;
	if (tcsetattr(*slave, TCSANOW, &t))
		return -1;
	return master;
}

static void writer(int master)
{
	char buf[16 * LINE_LEN];
	int i;

	for (i = 0; i < (int)sizeof(buf); i++)
		buf[i] = (i % LINE_LEN == LINE_LEN - 1) ? '\n' : 'a' + i % 26;
	for (;;)
		if (write(master, buf, sizeof(buf)) < 0 && errno != EINTR)
			_exit(1);
}

int main(void)
{
	unsigned long long t0, bytes;
	int master, slave, round;
	char buf[4096];
	ssize_t n;
	pid_t pid;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(1);

	master = open_pty(&slave);
	if (master < 0)
		ksft_exit_fail_msg("pty: %s\n", strerror(errno));
	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (pid == 0) {
		close(slave);
		writer(master);
	}

	for (round = 0; round < BENCH_ROUNDS; round++) {
		bytes = 0;
		t0 = now_ms();
		while (now_ms() - t0 < BENCH_ROUND_MS) {
			n = read(slave, buf, sizeof(buf));
			if (n <= 0) {
				kill(pid, SIGKILL);
				ksft_exit_fail_msg("read: %s\n", n ? strerror(errno) : "EOF");
			}
			bytes += n;
		}
		if (round)
			ksft_print_msg("pty_canon round %d: %llu bytes/s\n", round,
				       bytes * 1000 / (now_ms() - t0));
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	ksft_test_result_pass("pty canonical-mode receive throughput\n");
	ksft_finished();
}
