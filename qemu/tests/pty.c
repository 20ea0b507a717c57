// SPDX-License-Identifier: GPL-2.0
/*
 * pty.c - pty round trip that must work on a stock kernel.
 *
 * Every read is preceded by poll() with a timeout, and alarm() guards the
 * whole program, so a misbehaving tty can fail the test but never hang it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "kselftest.h"
#include "tty_util.h"

#define IO_TIMEOUT_MS	2000

static int master = -1, slave = -1;

static void on_alarm(int sig)
{
	static const char msg[] = "Bail out! pty: guard alarm fired\n";

	(void)sig;
	if (write(STDOUT_FILENO, msg, sizeof(msg) - 1) < 0)
		_exit(KSFT_FAIL);
	_exit(KSFT_FAIL);
}

/*
 * Read from fd until want bytes arrived or timeout_ms passed; returns the
 * number of bytes read (NUL-terminated in buf).
 */
static size_t read_for(int fd, char *buf, size_t size, size_t want,
		       int timeout_ms)
{
	long long deadline = now_ms() + timeout_ms;
	size_t len = 0;

	while (len < want && len + 1 < size) {
		size_t n = read_some(fd, buf + len, size - 1 - len, deadline);

		if (!n)
			break;
		len += n;
	}
	buf[len] = '\0';
	return len;
}

/* Throw away whatever is queued on fd right now (echoes, leftovers). */
static void drain(int fd)
{
	char buf[256];

	while (read_for(fd, buf, sizeof(buf), sizeof(buf), 50))
		;
}

static int set_slave_modes(tcflag_t lon, tcflag_t loff, tcflag_t oon,
			   tcflag_t ooff)
{
	struct termios t;

	if (tcgetattr(slave, &t))
		return -1;
	t.c_iflag &= ~(INLCR | IGNCR);
	t.c_iflag |= ICRNL;
	t.c_lflag |= lon;
	t.c_lflag &= ~loff;
	t.c_oflag |= oon;
	t.c_oflag &= ~ooff;
	if (tcsetattr(slave, TCSANOW, &t))
		return -1;
	tcflush(slave, TCIOFLUSH);
	drain(master);
	drain(slave);
	return 0;
}

static int write_str(int fd, const char *s)
{
	size_t len = strlen(s);

	return write(fd, s, len) == (ssize_t)len ? 0 : -1;
}

static void test_master_to_slave(void)
{
	char buf[64];
	size_t n;

	if (set_slave_modes(ICANON, ECHO, 0, 0)) {
		ksft_test_result_fail("master->slave: tcsetattr: %s\n", strerror(errno));
		return;
	}
	if (write_str(master, "hello\n")) {
		ksft_test_result_fail("master->slave: write: %s\n", strerror(errno));
		return;
	}
	n = read_for(slave, buf, sizeof(buf), 6, IO_TIMEOUT_MS);
	if (n != 6 || memcmp(buf, "hello\n", 6)) {
		ksft_test_result_fail("master->slave canonical line: read \"%s\"\n",
				      show(buf, n));
		return;
	}
	ksft_test_result_pass("master->slave canonical line\n");
}

static void test_slave_to_master(void)
{
	char buf[64];
	size_t n;

	if (set_slave_modes(0, ECHO, OPOST | ONLCR, OCRNL | ONLRET)) {
		ksft_test_result_fail("slave->master: tcsetattr: %s\n", strerror(errno));
		return;
	}
	if (write_str(slave, "hi\n")) {
		ksft_test_result_fail("slave->master: write: %s\n", strerror(errno));
		return;
	}
	n = read_for(master, buf, sizeof(buf), 4, IO_TIMEOUT_MS);
	/* Anything extra would also be wrong: give it a moment to show up. */
	if (n == 4)
		n += read_for(master, buf + n, sizeof(buf) - n, 1, 100);
	if (n != 4 || memcmp(buf, "hi\r\n", 4)) {
		ksft_test_result_fail("slave->master OPOST|ONLCR: read \"%s\", want \"hi\\r\\n\"\n",
				      show(buf, n));
		return;
	}
	ksft_test_result_pass("slave->master with OPOST|ONLCR\n");
}

static void test_echo(void)
{
	char buf[64], line[64];
	size_t n, m;

	if (set_slave_modes(ICANON | ECHO, ECHONL, OPOST | ONLCR, 0)) {
		ksft_test_result_fail("echo: tcsetattr: %s\n", strerror(errno));
		return;
	}
	if (write_str(master, "abc\n")) {
		ksft_test_result_fail("echo: write: %s\n", strerror(errno));
		return;
	}
	n = read_for(master, buf, sizeof(buf), 5, IO_TIMEOUT_MS);
	m = read_for(slave, line, sizeof(line), 4, IO_TIMEOUT_MS);
	if (n != 5 || memcmp(buf, "abc\r\n", 5)) {
		ksft_test_result_fail("echo: master saw \"%s\", want \"abc\\r\\n\"\n",
				      show(buf, n));
		return;
	}
	if (m != 4 || memcmp(line, "abc\n", 4)) {
		ksft_test_result_fail("echo: slave read \"%s\", want \"abc\\n\"\n",
				      show(line, m));
		return;
	}
	ksft_test_result_pass("echo of master input with ECHO\n");
}

int main(void)
{
	char name[128];

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(3);
	signal(SIGALRM, on_alarm);
	alarm(30);

	master = pty_open(name, sizeof(name));
	if (master < 0)
		ksft_exit_fail_msg("pty: %s\n", strerror(errno));
	slave = open(name, O_RDWR | O_NOCTTY);
	if (slave < 0)
		ksft_exit_fail_msg("open %s: %s\n", name, strerror(errno));
	ksft_print_msg("pty %s\n", name);

	test_master_to_slave();
	test_slave_to_master();
	test_echo();

	close(slave);
	close(master);
	alarm(0);
	ksft_finished();
	return 0;
}
