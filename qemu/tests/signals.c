// SPDX-License-Identifier: GPL-2.0
/*
 * signals.c - base signal behaviour that must hold on a stock kernel.
 *
 * Every case is guarded by alarm(): the SIGALRM handler is installed without
 * SA_RESTART, so a blocking call that never completes returns EINTR and the
 * case fails instead of hanging.
 */
#define _GNU_SOURCE
#include "ksig.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/signalfd.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest.h"

#define GUARD_SECS	5

/*
 * The sigsetsize a stock kernel's rt_sigprocmask() takes, its sigset_t
 * (libc passes it too): 64 signals, 8 bytes; MIPS's 128, 16 bytes (o32
 * and n32 too).  ksig.h says it from the kernel's uapi headers.
 */
#define SET_BYTES	KSIG_SIGSET_BYTES_LIBC
#define SET_WORDS	(SET_BYTES / 8)

static volatile sig_atomic_t alarm_fired;
static volatile sig_atomic_t usr1_seen;
static volatile sig_atomic_t usr2_seen;

static void on_alarm(int sig)
{
	(void)sig;
	alarm_fired = 1;
}

static void on_usr1(int sig)
{
	if (sig == SIGUSR1)
		usr1_seen++;
}

static void on_usr2(int sig)
{
	if (sig == SIGUSR2)
		usr2_seen++;
}

static int set_handler(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: let the guard interrupt */
	return sigaction(sig, &sa, NULL);
}

static void guard(void)
{
	alarm_fired = 0;
	alarm(GUARD_SECS);
}

static void unguard(void)
{
	alarm(0);
}

static long raw_sigprocmask(int how, const uint64_t *set, uint64_t *old,
			    size_t size)
{
	return syscall(SYS_rt_sigprocmask, how, set, old, size);
}

/* SIGUSR1 is in the first 64-bit word, the kernel's layout on every ABI here */
static void test_rt_sigprocmask(void)
{
	const uint64_t bit = 1ULL << (SIGUSR1 - 1);
	uint64_t set[SET_WORDS] = { bit }, old[SET_WORDS], cur[SET_WORDS] = { 0 };
	uint64_t saved[SET_WORDS] = { 0 };
	long r;
	int e;

	memset(old, 0xff, sizeof(old));
	/* Start from a known state: SIGUSR1 unblocked. */
	if (raw_sigprocmask(SIG_UNBLOCK, set, saved, SET_BYTES)) {
		ksft_test_result_fail("rt_sigprocmask: unblock: %s\n",
				      strerror(errno));
		return;
	}
	if (raw_sigprocmask(SIG_BLOCK, set, old, SET_BYTES)) {
		ksft_test_result_fail("rt_sigprocmask: block with sigsetsize %d: %s\n",
				      SET_BYTES, strerror(errno));
		return;
	}
	if (raw_sigprocmask(SIG_BLOCK, NULL, cur, SET_BYTES)) {
		ksft_test_result_fail("rt_sigprocmask: read back: %s\n",
				      strerror(errno));
		raw_sigprocmask(SIG_SETMASK, saved, NULL, SET_BYTES);
		return;
	}
	errno = 0;
	r = raw_sigprocmask(SIG_BLOCK, set, NULL, 7);
	e = errno;
	raw_sigprocmask(SIG_SETMASK, saved, NULL, SET_BYTES);

	if (old[0] & bit) {
		ksft_test_result_fail("rt_sigprocmask: old mask 0x%llx has SIGUSR1 after unblock\n",
				      (unsigned long long)old[0]);
	} else if (!(cur[0] & bit)) {
		ksft_test_result_fail("rt_sigprocmask: new mask 0x%llx lacks SIGUSR1\n",
				      (unsigned long long)cur[0]);
	} else if (r != -1 || e != EINVAL) {
		ksft_test_result_fail("rt_sigprocmask: sigsetsize 7 returned %ld errno %d, want -1/EINVAL\n",
				      r, e);
	} else {
		ksft_test_result_pass("rt_sigprocmask with sigsetsize %d (7 is EINVAL)\n",
				      SET_BYTES);
	}
}

static void test_handler_runs(void)
{
	volatile int after = 0;
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	usr1_seen = 0;
	if (set_handler(SIGUSR1, on_usr1)) {
		ksft_test_result_fail("handler: sigaction: %s\n", strerror(errno));
		return;
	}
	if (raise(SIGUSR1)) {
		ksft_test_result_fail("handler: raise: %s\n", strerror(errno));
		return;
	}
	after = 1;
	signal(SIGUSR1, SIG_DFL);
	ksft_test_result(usr1_seen == 1 && after == 1,
			 "signal handler runs and returns (seen %d)\n",
			 (int)usr1_seen);
}

static void test_kill_child(void)
{
	int status = 0;
	pid_t pid, w;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		ksft_test_result_fail("kill: fork: %s\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		signal(SIGTERM, SIG_DFL);
		alarm(GUARD_SECS * 2);	/* never outlive the test */
		for (;;)
			pause();
	}
	guard();
	if (kill(pid, SIGTERM)) {
		ksft_test_result_fail("kill: kill(%d, SIGTERM): %s\n", pid,
				      strerror(errno));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		unguard();
		return;
	}
	w = waitpid(pid, &status, 0);
	unguard();
	if (w != pid) {
		ksft_test_result_fail("kill: waitpid returned %d: %s%s\n", w,
				      strerror(errno),
				      alarm_fired ? " (timed out)" : "");
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return;
	}
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM) {
		ksft_test_result_fail("kill: child status 0x%x, want killed by SIGTERM\n",
				      status);
		return;
	}
	ksft_test_result_pass("kill SIGTERM terminates a paused child\n");
}

static void test_sigsuspend(void)
{
	sigset_t block, old, empty;
	int status = 0, before, r, e;
	pid_t pid, w;

	usr2_seen = 0;
	if (set_handler(SIGUSR2, on_usr2)) {
		ksft_test_result_fail("sigsuspend: sigaction: %s\n", strerror(errno));
		return;
	}
	sigemptyset(&block);
	sigaddset(&block, SIGUSR2);
	sigprocmask(SIG_BLOCK, &block, &old);

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		ksft_test_result_fail("sigsuspend: fork: %s\n", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return;
	}
	if (pid == 0)
		_exit(kill(getppid(), SIGUSR2) ? 1 : 0);

	guard();
	/* Once the child is gone the signal must be pending, not delivered. */
	w = waitpid(pid, &status, 0);
	before = usr2_seen;
	sigemptyset(&empty);
	errno = 0;
	r = sigsuspend(&empty);
	e = errno;
	unguard();
	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGUSR2, SIG_DFL);

	if (w != pid || !WIFEXITED(status) || WEXITSTATUS(status)) {
		ksft_test_result_fail("sigsuspend: child failed to send SIGUSR2 (status 0x%x)\n",
				      status);
	} else if (before) {
		ksft_test_result_fail("sigsuspend: handler ran while SIGUSR2 was blocked\n");
	} else if (r != -1 || e != EINTR) {
		ksft_test_result_fail("sigsuspend: returned %d errno %d, want -1/EINTR\n",
				      r, e);
	} else if (usr2_seen != 1) {
		ksft_test_result_fail("sigsuspend: SIGUSR2 handler ran %d times%s\n",
				      (int)usr2_seen,
				      alarm_fired ? " (woken by the guard alarm)" : "");
	} else {
		ksft_test_result_pass("sigsuspend returns EINTR after the handler ran\n");
	}
}

static void test_signalfd(void)
{
	const int sig = SIGRTMIN + 1;
	struct signalfd_siginfo si;
	union sigval val = { .sival_int = 0x5157 };
	struct pollfd pfd;
	sigset_t mask, old;
	ssize_t n;
	int fd, r;

	sigemptyset(&mask);
	sigaddset(&mask, sig);
	sigprocmask(SIG_BLOCK, &mask, &old);

	fd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
	if (fd < 0) {
		ksft_test_result_fail("signalfd: %s\n", strerror(errno));
		sigprocmask(SIG_SETMASK, &old, NULL);
		return;
	}
	if (sigqueue(getpid(), sig, val)) {
		ksft_test_result_fail("signalfd: sigqueue: %s\n", strerror(errno));
		goto out;
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	r = poll(&pfd, 1, GUARD_SECS * 1000);
	if (r != 1 || !(pfd.revents & POLLIN)) {
		ksft_test_result_fail("signalfd: poll returned %d revents 0x%x\n",
				      r, r > 0 ? pfd.revents : 0);
		goto out;
	}
	memset(&si, 0, sizeof(si));
	n = read(fd, &si, sizeof(si));
	if (n != sizeof(si)) {
		ksft_test_result_fail("signalfd: read returned %zd: %s\n", n,
				      strerror(errno));
		goto out;
	}
	if (si.ssi_signo != (uint32_t)sig || si.ssi_pid != (uint32_t)getpid() ||
	    si.ssi_code != SI_QUEUE || si.ssi_int != 0x5157) {
		ksft_test_result_fail("signalfd: got signo %u pid %u code %d int 0x%x, want %d %d %d 0x5157\n",
				      si.ssi_signo, si.ssi_pid, si.ssi_code,
				      si.ssi_int, sig, getpid(), SI_QUEUE);
		goto out;
	}
	ksft_test_result_pass("signalfd reads a queued SIGRTMIN+1\n");
out:
	close(fd);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(5);

	if (set_handler(SIGALRM, on_alarm))
		ksft_exit_fail_msg("sigaction(SIGALRM): %s\n", strerror(errno));

	test_rt_sigprocmask();
	test_handler_runs();
	test_kill_child();
	test_sigsuspend();
	test_signalfd();

	ksft_finished();
	return 0;
}
