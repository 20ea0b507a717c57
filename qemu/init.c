// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - static PID 1 for the QEMU guest.
 *
 * Mounts the pseudo filesystems, runs every executable in /tests (sorted by
 * name) and writes one top-level KTAP document to the second serial port:
 *
 *	KTAP version 1
 *	1..N
 *	  <the test's own kselftest output, indented by two spaces>
 *	ok K name | ok K name # SKIP | not ok K name # exit=S|signal=N|timeout
 *	...
 *	  # kernel taint: <flags>, with one diagnostic line per flag
 *	ok N kernel-taint # not tainted | # allowed: <letters>
 *	  (or not ok N kernel-taint # tainted: <letters>)
 *	# ws-init: done
 *
 * A test named <name>.plain prints no KTAP: its lines are indented as
 * diagnostics ("  # ...") and its exit status alone is reported, as <name>,
 * with "# plain: exit=0" after a pass (a bare "ok" claims KTAP of its own).
 *
 * The last test, kernel-taint, is init's own: /proc/sys/kernel/tainted after
 * every test ran, each flag decoded as in
 * Documentation/admin-guide/tainted-kernels.rst.  The letters given by
 * ws.taint_allow= on the kernel command line (WS_TAINT_ALLOW overrides it),
 * e.g. ws.taint_allow=N for a kernel that runs KUnit suites (TAINT_TEST),
 * are reported but do not fail; any other flag does.
 *
 * then syncs and reboots (the host runs qemu with -no-reboot).
 *
 * ws.mode= on the kernel command line runs no test (make shell, make run):
 *	ws.mode=shell	an interactive shell on the console (/bin/busybox
 *			sh, its applets installed in /bin), its controlling
 *			terminal; rebooting when it exits
 *	ws.mode=run	/bin/busybox sh /ws/run.sh (a second cpio archive the
 *			host appends to the initramfs), its output on the
 *			console, then "# ws-run: exit S" (or "signal N") on
 *			the KTAP port, and a reboot
 *
 * When it is not PID 1 it is a plain program that can be tried on the host:
 * no mounts, no reboot, KTAP on stdout unless WS_KTAP_OUT names a file.
 *	WS_TESTS_DIR	directory of tests (default /tests)
 *	WS_KTAP_OUT	KTAP output path ("-" = stdout)
 *	WS_TIMEOUT	per-test timeout in seconds (overrides ws.timeout=)
 *	WS_NO_REBOOT=1	as PID 1: do not reboot, sleep forever when done
 *	WS_TAINTED_FILE	read the taint from this file instead; when not PID 1
 *			without it, kernel-taint is skipped (the host's taint
 *			is not the guest's)
 *	WS_TAINT_ALLOW	allowed taint letters (overrides ws.taint_allow=)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>

#define DEFAULT_TIMEOUT	60
#define KILL_GRACE_MS	5000	/* wait for a SIGKILLed test to be reaped */
#define DRAIN_GRACE_MS	2000	/* read leftovers after the test exited */
#define KSFT_SKIP	4

static bool is_pid1;
static int ktap_fd = -1;

/* Diagnostics: to the console (fd 2). Avoid kernel-splat words here. */
static void diag(const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	if (write(STDERR_FILENO, "ws-init: ", 9) < 0 ||
	    write(STDERR_FILENO, buf, n) < 0 ||
	    write(STDERR_FILENO, "\n", 1) < 0)
		return;
}

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= n;
	}
	return 0;
}

static bool ktap_on_console;

/*
 * All KTAP output goes through here.  A serial port with no UART behind it
 * opens fine but fails every write with EIO: switch to the console then.
 */
static void ktap_write(const char *buf, size_t len)
{
	int fd;

	if (!write_all(ktap_fd, buf, len))
		return;
	diag("write to KTAP channel failed: %s", strerror(errno));
	if (ktap_on_console)
		return;
	fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return;
	diag("KTAP goes to /dev/console from now on");
	if (ktap_fd > STDERR_FILENO)
		close(ktap_fd);
	ktap_fd = fd;
	ktap_on_console = true;
	write_all(ktap_fd, buf, len);
}

static void ktap(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(buf))
		n = sizeof(buf) - 1;
	ktap_write(buf, n);
}

static long long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void do_mount(const char *src, const char *dir, const char *type,
		     unsigned long flags, const char *opts)
{
	if (mkdir(dir, 0755) && errno != EEXIST)
		diag("mkdir %s: %s", dir, strerror(errno));
	if (mount(src, dir, type, flags, opts) && errno != EBUSY)
		diag("mount %s on %s: %s", type, dir, strerror(errno));
}

static void setup_console(void)
{
	int fd = open("/dev/console", O_RDWR | O_NOCTTY);

	if (fd >= 0) {
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
}

/* Raw, CLOCAL, blocking: the host side is a plain file. */
static int open_serial(const char *path)
{
	struct termios t;
	int fd, fl;

	fd = open(path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (isatty(fd) && !tcgetattr(fd, &t)) {
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL;
		t.c_cflag &= ~(CRTSCTS | HUPCL);
		cfsetspeed(&t, B115200);
		if (tcsetattr(fd, TCSANOW, &t))
			diag("tcsetattr %s: %s", path, strerror(errno));
	}
	fl = fcntl(fd, F_GETFL);
	if (fl >= 0)
		fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
	return fd;
}

static void open_ktap(void)
{
	const char *out = getenv("WS_KTAP_OUT");

	if (out && *out && strcmp(out, "-")) {
		ktap_fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_NOCTTY |
			       O_CLOEXEC, 0644);
		if (ktap_fd < 0)
			diag("cannot open %s: %s", out, strerror(errno));
	} else if (out && !strcmp(out, "-")) {
		ktap_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	} else if (is_pid1) {
		ktap_fd = open_serial("/dev/ttyS1");
		if (ktap_fd < 0)
			diag("cannot open /dev/ttyS1 (%s): KTAP goes to /dev/console",
			     strerror(errno));
	} else {
		ktap_fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	}
	if (ktap_fd < 0) {
		ktap_fd = open("/dev/console", O_WRONLY | O_NOCTTY | O_CLOEXEC);
		ktap_on_console = true;
		if (ktap_fd < 0)
			ktap_fd = STDOUT_FILENO;
	}
}

/*
 * The value of the last "key=value" on the kernel command line into val;
 * false if there is none.
 */
static bool cmdline_param(const char *key, char *val, size_t len)
{
	char buf[4096], *tok, *save;
	size_t klen = strlen(key);
	bool found = false;
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (tok = strtok_r(buf, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (strncmp(tok, key, klen) || tok[klen] != '=')
			continue;
		snprintf(val, len, "%s", tok + klen + 1);
		found = true;
	}
	return found;
}

static unsigned int read_timeout(void)
{
	const char *env = getenv("WS_TIMEOUT");
	unsigned long val = DEFAULT_TIMEOUT;
	char buf[64], *end;

	if (env && *env) {
		val = strtoul(env, &end, 10);
		if (*end || !val || val > 86400) {
			diag("bad WS_TIMEOUT '%s', using %d", env, DEFAULT_TIMEOUT);
			val = DEFAULT_TIMEOUT;
		}
		return val;
	}
	if (!cmdline_param("ws.timeout", buf, sizeof(buf)))
		return val;
	val = strtoul(buf, &end, 10);
	if (*end || !val || val > 86400) {
		diag("bad ws.timeout=%s, using %d", buf, DEFAULT_TIMEOUT);
		val = DEFAULT_TIMEOUT;
	}
	return val;
}

/*
 * The taint flags, bit by bit, as Documentation/admin-guide/tainted-kernels.rst
 * names them.  Keep kernel-splat words out of the texts: they may reach the
 * console.
 */
static const struct {
	char letter;
	const char *what;
} taint_flags[] = {
	{ 'P', "proprietary module was loaded" },
	{ 'F', "module was force loaded" },
	{ 'S', "kernel running on an out of specification system" },
	{ 'R', "module was force unloaded" },
	{ 'M', "processor reported a machine check exception" },
	{ 'B', "bad page referenced or some unexpected page flags" },
	{ 'U', "taint requested by userspace application" },
	{ 'D', "kernel died recently (oops)" },
	{ 'A', "ACPI table overridden by user" },
	{ 'W', "kernel issued a warning" },
	{ 'C', "staging driver was loaded" },
	{ 'I', "workaround for a platform firmware issue applied" },
	{ 'O', "externally-built (out-of-tree) module was loaded" },
	{ 'E', "unsigned module was loaded" },
	{ 'L', "soft lockup occurred" },
	{ 'K', "kernel has been live patched" },
	{ 'X', "auxiliary taint, defined for and used by distros" },
	{ 'T', "kernel was built with the struct randomization plugin" },
	{ 'N', "an in-kernel test has been run" },
	{ 'J', "userspace used a mutating debug operation in fwctl" },
};
#define NR_TAINT_FLAGS	(sizeof(taint_flags) / sizeof(taint_flags[0]))
#define TAINT_TEST	'N'

/* Allowed taint letters: WS_TAINT_ALLOW, else ws.taint_allow=. */
static void read_taint_allow(char *allow, size_t len)
{
	const char *env = getenv("WS_TAINT_ALLOW");
	char buf[64];
	size_t i, j, n = 0;

	buf[0] = '\0';
	if (env)
		snprintf(buf, sizeof(buf), "%s", env);
	else
		cmdline_param("ws.taint_allow", buf, sizeof(buf));
	for (i = 0; buf[i] && n + 1 < len; i++) {
		for (j = 0; j < NR_TAINT_FLAGS; j++)
			if (taint_flags[j].letter == buf[i])
				break;
		if (j == NR_TAINT_FLAGS) {
			ktap("  # taint allowance: '%c' is not a taint flag, ignored\n",
			     buf[i]);
			continue;
		}
		if (!memchr(allow, buf[i], n))
			allow[n++] = buf[i];
	}
	allow[n] = '\0';
}

/*
 * Top-level test num, kernel-taint: /proc/sys/kernel/tainted (or
 * WS_TAINTED_FILE) decoded; flags not allowed fail it.
 */
static void report_taint(int num)
{
	const char *file = getenv("WS_TAINTED_FILE");
	char buf[64], allow[NR_TAINT_FLAGS + 1] = "";
	char bad[NR_TAINT_FLAGS + 8], ok[NR_TAINT_FLAGS + 1];
	unsigned long long t;
	size_t i, nbad = 0, nok = 0;
	ssize_t n;
	char *end;
	int fd;

	if (!file || !*file) {
		if (!is_pid1) {
			ktap("ok %d kernel-taint # SKIP not PID 1: the host's taint is not the guest's (WS_TAINTED_FILE names a file to judge)\n",
			     num);
			return;
		}
		file = "/proc/sys/kernel/tainted";
	}
	fd = open(file, O_RDONLY | O_CLOEXEC);
	n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0) {
		ktap("not ok %d kernel-taint # cannot read %s: %s\n", num, file,
		     n < 0 ? strerror(errno) : "empty");
		return;
	}
	buf[n] = '\0';
	errno = 0;
	t = strtoull(buf, &end, 10);
	if (errno || end == buf || (*end && *end != '\n')) {
		ktap("not ok %d kernel-taint # %s: not a number: %.20s\n", num, file, buf);
		return;
	}
	read_taint_allow(allow, sizeof(allow));
	if (!t) {
		ktap("ok %d kernel-taint # not tainted\n", num);
		return;
	}
	ktap("  # kernel taint: %llu\n", t);
	for (i = 0; i < 64; i++) {
		char l;

		if (!(t & (1ULL << i)))
			continue;
		l = i < NR_TAINT_FLAGS ? taint_flags[i].letter : '?';
		if (l != '?' && strchr(allow, l)) {
			ktap("  # %c (bit %zu): %s: allowed%s\n", l, i, taint_flags[i].what,
			     l == TAINT_TEST ? " (KUnit ran)" : "");
			ok[nok++] = l;
		} else {
			ktap("  # %c (bit %zu): %s\n", l, i,
			     l == '?' ? "unknown taint flag" : taint_flags[i].what);
			if (nbad < sizeof(bad) - 1)
				bad[nbad++] = l;
		}
	}
	ok[nok] = '\0';
	bad[nbad] = '\0';
	if (nbad)
		ktap("not ok %d kernel-taint # tainted: %s%s%s\n", num, bad,
		     nok ? ", allowed: " : "", ok);
	else
		ktap("ok %d kernel-taint # allowed: %s\n", num, ok);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

static int list_tests(const char *dir, char ***names)
{
	struct dirent *de;
	char path[PATH_MAX];
	struct stat st;
	char **v = NULL;
	int n = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		diag("opendir %s: %s", dir, strerror(errno));
		*names = NULL;
		return 0;
	}
	while ((de = readdir(d))) {
		char **nv;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) ||
		    access(path, X_OK))
			continue;
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n] = strdup(de->d_name);
		if (v[n])
			n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	return n;
}

/* Copy complete lines from the test to the KTAP channel, indented. */
struct linebuf {
	char buf[4096];
	size_t len;
};

/*
 * A test whose name ends in PLAIN_SUFFIX does not print KTAP (the tree's
 * x86 selftests, for one): its lines become diagnostics ("# ...") and its
 * exit status alone is its result, reported under the name without the
 * suffix.
 */
#define PLAIN_SUFFIX	".plain"
static bool plain_output;

static void emit_line(const char *s, size_t len)
{
	char out[sizeof(((struct linebuf *)0)->buf) + 6];
	size_t pre = plain_output ? 4 : 2;

	memcpy(out, plain_output ? "  # " : "  ", pre);
	memcpy(out + pre, s, len);
	out[len + pre] = '\n';
	ktap_write(out, len + pre + 1);
}

static void feed(struct linebuf *lb, const char *data, size_t n)
{
	while (n) {
		size_t room = sizeof(lb->buf) - lb->len;
		size_t take = n < room ? n : room;
		char *nl;
		size_t start = 0;

		memcpy(lb->buf + lb->len, data, take);
		lb->len += take;
		data += take;
		n -= take;
		while ((nl = memchr(lb->buf + start, '\n', lb->len - start))) {
			size_t l = nl - (lb->buf + start);

			if (l && lb->buf[start + l - 1] == '\r')
				emit_line(lb->buf + start, l - 1);
			else
				emit_line(lb->buf + start, l);
			start += l + 1;
		}
		if (start == 0 && lb->len == sizeof(lb->buf)) {
			/* Overlong line: split it. */
			emit_line(lb->buf, lb->len);
			lb->len = 0;
		} else {
			memmove(lb->buf, lb->buf + start, lb->len - start);
			lb->len -= start;
		}
	}
}

static void flush_partial(struct linebuf *lb)
{
	if (lb->len)
		emit_line(lb->buf, lb->len);
	lb->len = 0;
}

/* Copy the test's output until EOF (returns true) or the deadline. */
static bool pump(int fd, struct linebuf *lb, long long deadline)
{
	char data[4096];

	for (;;) {
		long long left = deadline - now_ms();
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int r;

		if (left <= 0)
			return false;
		r = poll(&pfd, 1, left > 1000 ? 1000 : (int)left);
		if (r == 0 || (r < 0 && errno == EINTR))
			continue;
		if (r < 0)
			return false;
		n = read(fd, data, sizeof(data));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			return true;
		feed(lb, data, n);
	}
}

/* PID 1 inherits orphans; reap them between tests (never during one). */
static void reap_orphans(void)
{
	int st;

	while (waitpid(-1, &st, WNOHANG | __WALL) > 0)
		;
}

static pid_t spawn(const char *dir, const char *name, int out)
{
	char path[PATH_MAX];
	char *argv[2];
	sigset_t none;
	pid_t pid;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	pid = fork();
	if (pid)
		return pid;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0 && fd != STDIN_FILENO) {
		dup2(fd, STDIN_FILENO);
		close(fd);
	}
	dup2(out, STDOUT_FILENO);
	dup2(out, STDERR_FILENO);
	if (out > STDERR_FILENO)
		close(out);
	else
		fcntl(out, F_SETFD, 0);	/* dup2 onto itself keeps O_CLOEXEC */
	argv[0] = (char *)name;
	argv[1] = NULL;
	execv(path, argv);
	dprintf(STDOUT_FILENO, "# ws-init: exec %s: %s\n", path, strerror(errno));
	_exit(127);
}

static void run_test(const char *dir, const char *file, int num,
		     unsigned int timeout)
{
	struct linebuf lb = { .len = 0 };
	long long deadline, t0;
	bool eof = false, reaped = false, timed_out = false;
	int pfd[2], status = 0;
	size_t len = strlen(file), slen = strlen(PLAIN_SUFFIX);
	char name[NAME_MAX + 1];
	pid_t pid;

	plain_output = len > slen && !strcmp(file + len - slen, PLAIN_SUFFIX);
	snprintf(name, sizeof(name), "%.*s",
		 (int)(plain_output ? len - slen : len), file);

	if (pipe2(pfd, O_CLOEXEC)) {
		diag("pipe: %s", strerror(errno));
		ktap("not ok %d %s # pipe failed\n", num, name);
		return;
	}
	pid = spawn(dir, file, pfd[1]);
	close(pfd[1]);
	if (pid < 0) {
		diag("fork: %s", strerror(errno));
		close(pfd[0]);
		ktap("not ok %d %s # fork failed\n", num, name);
		return;
	}
	setpgid(pid, pid);	/* also here, so kill(-pid) cannot race */

	t0 = now_ms();
	deadline = t0 + timeout * 1000LL;
	while (!reaped) {
		pid_t r;

		long long slice = now_ms() + 100;

		if (!eof)
			eof = pump(pfd[0], &lb, slice < deadline ? slice : deadline);
		else
			usleep(20000);
		r = waitpid(pid, &status, WNOHANG);
		if (r == pid)
			reaped = true;
		if (!reaped && now_ms() >= deadline) {
			timed_out = true;
			break;
		}
	}

	if (timed_out) {
		long long kill_deadline = now_ms() + KILL_GRACE_MS;

		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		while (!reaped && now_ms() < kill_deadline) {
			if (waitpid(pid, &status, WNOHANG) == pid)
				reaped = true;
			else
				usleep(20000);
		}
		if (!reaped)
			diag("test %s did not die after SIGKILL", name);
	}

	/*
	 * Leftovers: descendants that escaped the process group (setsid) may
	 * still hold the pipe; read for a short while, do not wait for EOF.
	 */
	if (!eof) {
		long long d = now_ms() + DRAIN_GRACE_MS;

		if (!timed_out && d > deadline)
			d = deadline > now_ms() ? deadline : now_ms();
		pump(pfd[0], &lb, d);
	}
	flush_partial(&lb);
	close(pfd[0]);
	kill(-pid, SIGKILL);	/* stragglers left in the test's group */
	if (is_pid1)
		reap_orphans();

	if (timed_out)
		ktap("not ok %d %s # timeout after %us\n", num, name, timeout);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && plain_output)
		ktap("ok %d %s # plain: exit=0\n", num, name);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		ktap("ok %d %s\n", num, name);
	else if (WIFEXITED(status) && WEXITSTATUS(status) == KSFT_SKIP)
		ktap("ok %d %s # SKIP\n", num, name);
	else if (WIFEXITED(status))
		ktap("not ok %d %s # exit=%d\n", num, name, WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		ktap("not ok %d %s # signal=%d\n", num, name, WTERMSIG(status));
	else
		ktap("not ok %d %s # status=0x%x\n", num, name, status);
	diag("%s finished in %lld ms", name, now_ms() - t0);
}

/*
 * ws.mode=shell or run: /bin/busybox sh in a session of its own, with the
 * console as its controlling terminal; its wait status.
 */
static int guest_shell(const char *mode)
{
	pid_t pid;
	int status = 0;

	pid = fork();
	if (pid == 0) {
		int fd;

		setsid();
		fd = open("/dev/console", O_RDWR);
		if (fd >= 0) {
			if (ioctl(fd, TIOCSCTTY, 1))
				diag("TIOCSCTTY on /dev/console: %s", strerror(errno));
			dup2(fd, STDIN_FILENO);
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
			if (fd > STDERR_FILENO)
				close(fd);
		}
		setenv("PATH", "/bin", 1);
		setenv("HOME", "/", 1);
		setenv("PS1", "ws-guest# ", 1);
		if (!strcmp(mode, "shell"))
			execl("/bin/busybox", "sh", "-i", (char *)NULL);
		else
			execl("/bin/busybox", "sh", "/ws/run.sh", (char *)NULL);
		diag("cannot run /bin/busybox: %s", strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		diag("fork: %s", strerror(errno));
		return 127 << 8;
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	return status;
}

/* The applets of /bin/busybox as links in /bin, for the shell's PATH. */
static void install_applets(void)
{
	pid_t pid = fork();

	if (pid == 0) {
		execl("/bin/busybox", "busybox", "--install", "-s", "/bin", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

int main(void)
{
	char mode[16];
	const char *dir = getenv("WS_TESTS_DIR");
	const char *noreboot = getenv("WS_NO_REBOOT");
	unsigned int timeout;
	char **names;
	int n, i;

	is_pid1 = getpid() == 1;
	if (!dir || !*dir)
		dir = "/tests";

	if (is_pid1) {
		/* /dev first, so that the other failures reach the console. */
		do_mount("devtmpfs", "/dev", "devtmpfs", MS_NOSUID, "mode=0755");
		setup_console();
		do_mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV, NULL);
		do_mount("sysfs", "/sys", "sysfs", MS_NOSUID | MS_NODEV, NULL);
		do_mount("devpts", "/dev/pts", "devpts", MS_NOSUID,
			 "gid=5,mode=0620,ptmxmode=0666");
	}
	signal(SIGPIPE, SIG_IGN);
	open_ktap();
	timeout = read_timeout();

	if (is_pid1 && cmdline_param("ws.mode", mode, sizeof(mode)) &&
	    (!strcmp(mode, "shell") || !strcmp(mode, "run"))) {
		int status;

		install_applets();
		status = guest_shell(mode);
		if (WIFEXITED(status))
			ktap("# ws-run: exit %d\n", WEXITSTATUS(status));
		else
			ktap("# ws-run: signal %d\n", WTERMSIG(status));
		if (ktap_fd > STDERR_FILENO)
			fsync(ktap_fd);
		sync();
		reboot(RB_AUTOBOOT);
		for (;;)
			pause();
	}

	n = list_tests(dir, &names);
	diag("running %d test(s) from %s, timeout %us", n, dir, timeout);
	ktap("KTAP version 1\n");
	ktap("1..%d\n", n + 1);
	for (i = 0; i < n; i++) {
		run_test(dir, names[i], i + 1, timeout);
		free(names[i]);
	}
	free(names);
	report_taint(n + 1);
	ktap("# ws-init: done\n");
	if (ktap_fd > STDERR_FILENO)
		fsync(ktap_fd);
	sync();

	if (!is_pid1)
		return 0;
	if (noreboot && !strcmp(noreboot, "1")) {
		diag("WS_NO_REBOOT=1: not rebooting");
	} else {
		reboot(RB_AUTOBOOT);
		diag("reboot: %s", strerror(errno));
	}
	for (;;)	/* PID 1 must not exit: that would panic the kernel */
		pause();
}
