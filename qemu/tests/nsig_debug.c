// SPDX-License-Identifier: GPL-2.0
/*
 * nsig_debug.c - CONFIG_SIGNALS_DEBUG (nsig 7/9): /proc/sys/kernel/
 * {max_signal,sigrtmax,sigset_size,compat_sigset_size}, and
 * /proc/<pid>/signal: it delivers, refuses who may not kill() and rejects
 * bad input.
 *
 * What the nsig programs share, and how they treat headers and kernels
 * without the series: nsig.h.
 */
#include "nsig.h"

#include <sys/prctl.h>
#include <linux/capability.h>

static int read_int(const char *path, int *val)
{
	char buf[64];
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	*val = atoi(buf);
	return 0;
}

/*
 * Whether the kernel has CONFIG_COMPAT: the workspace boots a kernel
 * without it (arm64's) with ws.compat=0 on the command line
 * (scripts/boot.sh, kernel_cmdline); x86_64's have IA32_EMULATION.
 */
static bool kernel_has_compat(void)
{
	char buf[4096];
	ssize_t n;
	int fd;

	fd = open("/proc/cmdline", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return true;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	return !(strstr(buf, " ws.compat=0") || !strncmp(buf, "ws.compat=0", 11));
}

static int debug_sysctl(void)
{
	static const char *const names[] = {
		"max_signal", "sigrtmax", "sigset_size", "compat_sigset_size",
	};
	/* compat tasks keep 64 signals: compat_sigset_t is 8 bytes */
	const int want[] = { KSIG_NSIG, KSIG_SIGRTMAX, KSIG_SIGSET_BYTES, 8 };
	bool compat = kernel_has_compat();
	char path[128];
	int i, v;

	for (i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "/proc/sys/kernel/%s", names[i]);
		/* compat_sigset_size is there exactly when CONFIG_COMPAT is. */
		if (i == 3 && !compat) {
			if (!read_int(path, &v))
				return failf("%s exists without CONFIG_COMPAT (ws.compat=0)", path);
			if (errno != ENOENT)
				return failf("%s: %s, want ENOENT without CONFIG_COMPAT", path, strerror(errno));
			ksft_print_msg("%s: absent, as it should be without CONFIG_COMPAT\n", path);
			continue;
		}
		if (read_int(path, &v))
			return failf("%s: %s", path, strerror(errno));
		ksft_print_msg("%s = %d\n", path, v);
		if (v != want[i])
			return failf("%s is %d, want %d", path, v, want[i]);
	}
	return 0;
}

static int write_signal(pid_t pid, const char *text, int *err)
{
	char path[64];
	ssize_t n;
	int fd;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/signal", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/signal");
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		*err = errno;
		return -2;
	}
	n = write(fd, text, strlen(text));
	*err = errno;
	close(fd);
	return n == (ssize_t)strlen(text) ? 0 : -1;
}

/*
 * A target child: switches to uid (unless 0), reports 'R', then waits
 * until it has seen every signal in want[] or the deadline passes, and
 * reports what it got: seen[] of SIGUSR1, SIGUSR2, SIGINFO, and the
 * si_code and si_pid of SIGUSR1.
 */
struct target_report {
	int usr1, usr2, info, code, pid;
};

static pid_t start_target(uid_t uid, const int *want, int nwant, int *rep_fd)
{
	int ready[2], rep[2];
	struct pollfd p;
	char c = 0;
	pid_t pid;

	if (pipe(ready) || pipe(rep))
		return -1;
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		long long deadline = now_ms() + WAIT_MS;
		struct target_report r;
		int i, missing;

		alarm(0);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(ready[0]);
		close(rep[0]);
		if (uid && (setresgid(uid, uid, uid) || setresuid(uid, uid, uid)))
			_exit(2);
		/* files of /proc/<pid> owned by uid, not root */
		prctl(PR_SET_DUMPABLE, 1);
		if (write(ready[1], "R", 1) != 1)
			_exit(3);
		do {
			struct timespec ts = { 0, 10 * 1000000L };

			nanosleep(&ts, NULL);
			for (missing = 0, i = 0; i < nwant; i++)
				if (want[i] && !seen[want[i]])
					missing++;
		} while (missing && now_ms() < deadline);
		/* a little longer, for signals that should not come */
		usleep(100000);
		r.usr1 = seen[SIGUSR1];
		r.usr2 = seen[SIGUSR2];
		r.info = have_info ? seen[KSIG_SIGINFO] : 0;
		r.code = seen_code[SIGUSR1];
		r.pid = seen_pid[SIGUSR1];
		if (write(rep[1], &r, sizeof(r)) != sizeof(r))
			_exit(4);
		_exit(0);
	}
	close(ready[1]);
	close(rep[1]);
	p.fd = ready[0];
	p.events = POLLIN;
	if (poll(&p, 1, WAIT_MS) != 1 || read(ready[0], &c, 1) != 1) {
		close(ready[0]);
		close(rep[0]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		errno = ETIMEDOUT;
		return -1;
	}
	close(ready[0]);
	*rep_fd = rep[0];
	return pid;
}

static int finish_target(pid_t pid, int fd, struct target_report *r)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	int status, ok;

	memset(r, 0, sizeof(*r));
	ok = poll(&p, 1, 2 * WAIT_MS) == 1 && read(fd, r, sizeof(*r)) == sizeof(*r);
	close(fd);
	if (!ok)
		kill(pid, SIGKILL);
	if (wait_child(pid, &status))
		return -1;
	if (!ok)
		return failf("the target child did not report (status 0x%x)", status);
	return 0;
}

static int debug_deliver(void)
{
	int want[] = { SIGUSR1, have_info ? KSIG_SIGINFO : 0 };
	struct target_report r;
	char num[16], msg[sizeof(why)];
	int rep, err, bad;
	pid_t pid;

	pid = start_target(0, want, 2, &rep);
	if (pid < 0)
		return failf("target child: %s", strerror(errno));
	bad = write_signal(pid, "10\n", &err);
	if (bad) {
		failf("write \"10\\n\" to /proc/%d/signal: %s", pid, strerror(err));
	} else if (have_info) {
		/* no newline this time */
		snprintf(num, sizeof(num), "%d", KSIG_SIGINFO);
		bad = write_signal(pid, num, &err);
		if (bad)
			failf("write \"%s\" to /proc/%d/signal: %s", num, pid, strerror(err));
	}
	if (bad) {
		snprintf(msg, sizeof(msg), "%s", why);
		kill(pid, SIGKILL);
		finish_target(pid, rep, &r);
		return failf("%s", msg);
	}
	if (finish_target(pid, rep, &r))
		return -1;
	if (r.usr1 != 1)
		return failf("the target saw SIGUSR1 %d times", r.usr1);
	if (r.code != SI_USER || r.pid != getpid())
		return failf("SIGUSR1 si_code %d si_pid %d, want SI_USER from %d", r.code, r.pid,
			     getpid());
	if (have_info && r.info != 1)
		return failf("the target saw SIGINFO %d times", r.info);
	return 0;
}

enum writer_mode {
	W_ROOT_OPEN,	/* opened as root, written as uid 1001 */
	W_1001,		/* uid 1001 throughout */
	W_1001_DAC,	/* uid 1001 with CAP_DAC_OVERRIDE only: passes open() */
	W_1000,		/* the target's own uid: allowed, sends SIGUSR2 */
};

struct writer_result {
	int stage;	/* 0 setup failed, 1 open failed, 2 write done */
	int err;	/* errno of the failed step */
	int wret;	/* write(): 0 written, -1 failed */
};

static void writer(enum writer_mode mode, pid_t target, int out)
{
	struct writer_result res = { 0, 0, 0 };
	const char *text = mode == W_1000 ? "12" : "10";
	uid_t uid = mode == W_1000 ? 1000 : 1001;
	char path[64];
	int fd = -1;

	alarm(0);
	snprintf(path, sizeof(path), "/proc/%d/signal", (int)target);
	if (mode == W_ROOT_OPEN) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			res.stage = 1;
			res.err = errno;
			goto out;
		}
	}
	if (mode == W_1001_DAC && prctl(PR_SET_KEEPCAPS, 1))
		goto fail;
	if (setresgid(uid, uid, uid) || setresuid(uid, uid, uid))
		goto fail;
	if (mode == W_1001_DAC) {
		struct __user_cap_header_struct hdr = {
			.version = _LINUX_CAPABILITY_VERSION_3,
		};
		struct __user_cap_data_struct data[2];

		memset(data, 0, sizeof(data));
		data[0].effective = 1u << CAP_DAC_OVERRIDE;
		data[0].permitted = 1u << CAP_DAC_OVERRIDE;
		if (syscall(SYS_capset, &hdr, data))
			goto fail;
	}
	if (fd < 0) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0) {
			res.stage = 1;
			res.err = errno;
			goto out;
		}
	}
	res.stage = 2;
	res.wret = write(fd, text, 2) == 2 ? 0 : -1;
	res.err = errno;
	goto out;
fail:
	res.err = errno;
out:
	if (write(out, &res, sizeof(res)) != sizeof(res))
		_exit(2);
	_exit(0);
}

static int run_writer(enum writer_mode mode, pid_t target, struct writer_result *res)
{
	struct pollfd p;
	int fd[2], status, ok;
	pid_t pid;

	if (pipe(fd))
		return failf("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return failf("fork: %s", strerror(errno));
	if (pid == 0) {
		close(fd[0]);
		writer(mode, target, fd[1]);
	}
	close(fd[1]);
	p.fd = fd[0];
	p.events = POLLIN;
	ok = poll(&p, 1, WAIT_MS) == 1 && read(fd[0], res, sizeof(*res)) == sizeof(*res);
	close(fd[0]);
	if (!ok)
		kill(pid, SIGKILL);
	if (wait_child(pid, &status))
		return -1;
	if (!ok)
		return failf("writer %d did not report (status 0x%x)", mode, status);
	return 0;
}

static int debug_eperm(void)
{
	int want[] = { SIGUSR2 };
	struct writer_result w;
	struct target_report r;
	int rep, ret = -1;
	pid_t pid;

	pid = start_target(1000, want, 1, &rep);
	if (pid < 0)
		return failf("target child (uid 1000): %s", strerror(errno));

	/* opened by root, written after setuid(1001): the writer's creds differ */
	if (run_writer(W_ROOT_OPEN, pid, &w))
		goto out;
	if (w.stage != 2 || w.wret != -1 || w.err != EPERM) {
		failf("opened as root, written as uid 1001: stage %d write %d errno %d (%s), want EPERM",
		      w.stage, w.wret, w.err, strerror(w.err));
		goto out;
	}
	/* uid 1001: the 0200 file of uid 1000 does not open, or the write fails */
	if (run_writer(W_1001, pid, &w))
		goto out;
	if (w.stage == 0 || (w.stage == 1 && w.err != EACCES) ||
	    (w.stage == 2 && (w.wret != -1 || w.err != EPERM))) {
		failf("uid 1001: stage %d write %d errno %d (%s), want EACCES on open or EPERM",
		      w.stage, w.wret, w.err, strerror(w.err));
		goto out;
	}
	/* uid 1001 with CAP_DAC_OVERRIDE: opens, but kill() permission says no */
	if (run_writer(W_1001_DAC, pid, &w))
		goto out;
	if (w.stage != 2 || w.wret != -1 || w.err != EPERM) {
		failf("uid 1001 + CAP_DAC_OVERRIDE: stage %d write %d errno %d (%s), want EPERM",
		      w.stage, w.wret, w.err, strerror(w.err));
		goto out;
	}
	/* control: the target's own uid may */
	if (run_writer(W_1000, pid, &w))
		goto out;
	if (w.stage != 2 || w.wret != 0) {
		failf("control, uid 1000: stage %d write %d errno %d (%s), want success",
		      w.stage, w.wret, w.err, strerror(w.err));
		goto out;
	}
	ret = 0;
out:
	if (ret) {
		char msg[sizeof(why)];

		snprintf(msg, sizeof(msg), "%s", why);
		kill(pid, SIGKILL);
		finish_target(pid, rep, &r);
		return failf("%s", msg);
	}
	if (finish_target(pid, rep, &r))
		return -1;
	if (r.usr1)
		return failf("a refused write delivered SIGUSR1 (%d times)", r.usr1);
	if (r.usr2 != 1)
		return failf("the allowed write did not deliver SIGUSR2 (seen %d)", r.usr2);
	return 0;
}

static int debug_bad_input(void)
{
	static const char *const bad[] = { "abc", "-1", "12x" };
	char num[16];
	size_t i;
	int err, r, fd;

	snprintf(num, sizeof(num), "%d", KSIG_NSIG + 1);
	r = write_signal(0, num, &err);
	if (r != -1 || err != EINVAL)
		return failf("\"%s\" (past the last signal): %d errno %d, want EINVAL", num, r,
			     err);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		r = write_signal(0, bad[i], &err);
		if (r != -1 || err != EINVAL)
			return failf("\"%s\": %d errno %d (%s), want EINVAL", bad[i], r, err,
				     strerror(err));
	}
	/* 0 only checks that the process exists, as kill(2) does */
	r = write_signal(0, "0", &err);
	if (r)
		return failf("\"0\": %d errno %d (%s), want success", r, err, strerror(err));
	fd = open("/proc/self/signal", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return failf("open /proc/self/signal: %s", strerror(errno));
	errno = 0;
	r = pwrite(fd, "10", 2, 1);
	err = errno;
	close(fd);
	if (r != -1 || err != EINVAL)
		return failf("pwrite at offset 1: %d errno %d, want EINVAL", r, err);
	if (seen[SIGUSR1])
		return failf("SIGUSR1 delivered by a rejected write");
	return 0;
}

static const struct nsig_case debug_cases[] = {
	{ "SIGNALS_DEBUG: max_signal, sigrtmax, sigset_size, compat_sigset_size",
	  debug_sysctl },
	{ "SIGNALS_DEBUG: writing to /proc/<pid>/signal delivers the signal",
	  debug_deliver },
	{ "SIGNALS_DEBUG: /proc/<pid>/signal refuses who may not kill() (EPERM)",
	  debug_eperm },
	{ "SIGNALS_DEBUG: /proc/<pid>/signal rejects bad input",
	  debug_bad_input },
};

int main(void)
{
	bool have = !access("/proc/sys/kernel/max_signal", F_OK);

	return nsig_run(debug_cases, ARRAY_SIZE(debug_cases), have ? NULL :
			"no /proc/sys/kernel/max_signal: kernel built without CONFIG_SIGNALS_DEBUG");
}
