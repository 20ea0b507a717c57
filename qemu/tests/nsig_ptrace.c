// SPDX-License-Identifier: GPL-2.0
/*
 * nsig_ptrace.c - PTRACE_GETSIGMASK and PTRACE_SETSIGMASK: libc's
 * sigsetsize (8; MIPS's 16, the only one a kernel without the series
 * takes), 16 and 128 round trips with a traced child, bits past the last
 * signal dropped, a SETSIGMASK of 8 bytes, too short to name SIGINFO,
 * keeping the tracee's SIGINFO as it was, the bad sizes and bad pointers.
 *
 * What the nsig programs share, and how they treat headers and kernels
 * without the series: nsig.h.
 */
#include "nsig.h"

#include <sys/prctl.h>
#include <sys/ptrace.h>

static char libc_sz_name[64];		/* with libc's sigsetsize: main() */
static const char *const ptrace_names[] = {
	libc_sz_name,
	"PTRACE_GETSIGMASK/SETSIGMASK with sigsetsize 16 and 128, and 8 keeping SIGINFO",
	"PTRACE_GETSIGMASK/SETSIGMASK reject sigsetsize 0, 7, 12, 129",
	"PTRACE_GETSIGMASK/SETSIGMASK bad pointers are EFAULT",
};
#define NR_PTRACE_CASES	ARRAY_SIZE(ptrace_names)

static long getmask(pid_t pid, size_t size, void *buf)
{
	return ptrace(PTRACE_GETSIGMASK, pid, (void *)size, buf);
}

static long setmask(pid_t pid, size_t size, const void *buf)
{
	return ptrace(PTRACE_SETSIGMASK, pid, (void *)size, buf);
}

/* The traced child: blocks SIGUSR2, stops, then reports its mask. */
static void ptrace_child(int out)
{
	int usr2 = SIGUSR2;
	struct ksig_set s;

	alarm(0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	block_sigs(&usr2, 1);
	if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
		_exit(2);
	kill(getpid(), SIGSTOP);
	get_blocked(&s);
	if (write(out, s.b, ksz) != (ssize_t)ksz)
		_exit(3);
	_exit(0);
}

static int pt_libc_size(pid_t pid, struct ksig_set *last)
{
	int usr2 = SIGUSR2, sigs[] = { SIGUSR1, SIGKILL, SIGSTOP };
	struct ksig_set s, want;

	ksig_fill(&s, KSIG_FILL);
	if (getmask(pid, libc_sz, s.b))
		return failf("GETSIGMASK(%zu): %s", libc_sz, strerror(errno));
	want_sigs(&want, &usr2, 1);
	if (check_out("GETSIGMASK", &s, &want, libc_sz))
		return -1;
	make_mask(&s, libc_sz, sigs, 3);
	if (setmask(pid, libc_sz, s.b))
		return failf("SETSIGMASK(%zu): %s", libc_sz, strerror(errno));
	ksig_fill(&s, KSIG_FILL);
	getmask(pid, libc_sz, s.b);
	want_sigs(&want, sigs, 1);	/* SIGKILL and SIGSTOP stripped */
	if (check_out("GETSIGMASK after SETSIGMASK", &s, &want, libc_sz))
		return -1;
	*last = want;
	return 0;
}

static int pt_big(pid_t pid, struct ksig_set *last)
{
	int info = have_info ? KSIG_SIGINFO : 0;
	int a[] = { SIGUSR1, info }, b[] = { SIGUSR2, info };
	struct ksig_set s, want;

	make_mask(&s, 16, a, 2);
	if (setmask(pid, 16, s.b))
		return failf("SETSIGMASK(16): %s", strerror(errno));
	want_sigs(&want, a, 2);
	ksig_fill(&s, KSIG_FILL);
	if (getmask(pid, 16, s.b))
		return failf("GETSIGMASK(16): %s", strerror(errno));
	if (check_out("GETSIGMASK", &s, &want, 16))
		return -1;
	ksig_fill(&s, KSIG_FILL);
	if (getmask(pid, 128, s.b))
		return failf("GETSIGMASK(128): %s", strerror(errno));
	if (check_out("GETSIGMASK", &s, &want, 128))
		return -1;
	ksig_fill(&s, KSIG_FILL);
	if (getmask(pid, 8, s.b))
		return failf("GETSIGMASK(8): %s", strerror(errno));
	if (check_out("GETSIGMASK", &s, &want, 8))
		return -1;
	/* 128 bytes in, with every bit past the kernel's last signal set */
	make_mask(&s, 128, b, 2);
	if (setmask(pid, 128, s.b))
		return failf("SETSIGMASK(128): %s", strerror(errno));
	want_sigs(&want, b, 2);
	ksig_fill(&s, KSIG_FILL);
	getmask(pid, 128, s.b);
	if (check_out("GETSIGMASK after SETSIGMASK(128)", &s, &want, 128))
		return -1;
	/*
	 * 8 bytes cannot name SIGINFO: SETSIGMASK(8) replaces the first 64
	 * signals and keeps the tracee's SIGINFO blocked, as it is now.
	 */
	make_mask(&s, 8, a, 1);
	if (setmask(pid, 8, s.b))
		return failf("SETSIGMASK(8): %s", strerror(errno));
	want_sigs(&want, a, 1);
	if (info)
		ksig_add(&want, info);
	ksig_fill(&s, KSIG_FILL);
	if (getmask(pid, ksz, s.b))
		return failf("GETSIGMASK(%zu): %s", ksz, strerror(errno));
	if (check_out(info ? "GETSIGMASK after SETSIGMASK(8) from SIGINFO blocked (want kept)" :
		      "GETSIGMASK after SETSIGMASK(8)", &s, &want, ksz))
		return -1;
	*last = want;
	return 0;
}

static int pt_bad_size(pid_t pid)
{
	int sigs[] = { SIGUSR2, SIGHUP };
	struct ksig_set s, before, after;
	size_t i, size;
	long r;
	int e;

	ksig_fill(&before, 0);
	getmask(pid, libc_sz, before.b);
	for (i = 0; i < NR_BAD_SIZES; i++) {
		size = bad_sizes[i];
		ksig_fill(&s, KSIG_FILL);
		errno = 0;
		r = getmask(pid, size, s.b);
		e = errno;
		if (r != -1 || e != EINVAL)
			return failf("GETSIGMASK(%zu) returned %ld errno %d, want -1/EINVAL",
				     size, r, r == -1 ? e : 0);
		if (ksig_find_not(&s, 0, KSIG_BUF, KSIG_FILL) >= 0)
			return failf("GETSIGMASK(%zu): EINVAL but the buffer was written", size);
		make_mask(&s, KSIG_SIZE_MAX, sigs, 2);
		errno = 0;
		r = setmask(pid, size, s.b);
		e = errno;
		if (r != -1 || e != EINVAL)
			return failf("SETSIGMASK(%zu) returned %ld errno %d, want -1/EINVAL",
				     size, r, r == -1 ? e : 0);
		ksig_fill(&after, 0);
		getmask(pid, libc_sz, after.b);
		if (memcmp(before.b, after.b, libc_sz))
			return failf("SETSIGMASK(%zu): EINVAL but the mask changed", size);
	}
	return 0;
}

static int pt_efault(pid_t pid)
{
	struct ksig_set before, after;
	long r;
	int e;

	ksig_fill(&before, 0);
	getmask(pid, libc_sz, before.b);
	errno = 0;
	r = getmask(pid, libc_sz, unmapped);
	e = errno;
	if (expect_errno("GETSIGMASK into an unmapped page", r, e, EFAULT))
		return -1;
	errno = 0;
	r = setmask(pid, libc_sz, unmapped);
	e = errno;
	if (expect_errno("SETSIGMASK from an unmapped page", r, e, EFAULT))
		return -1;
	if (have_sizes) {
		errno = 0;
		r = getmask(pid, 128, unmapped - ksz);
		e = errno;
		if (expect_errno("GETSIGMASK(128) whose tail is unmapped", r, e, EFAULT))
			return -1;
	}
	ksig_fill(&after, 0);
	getmask(pid, libc_sz, after.b);
	if (memcmp(before.b, after.b, libc_sz))
		return failf("EFAULT but the mask changed");
	return 0;
}

static void run_ptrace(void)
{
	int res[NR_PTRACE_CASES], status = 0, pfd[2], i;
	char reasons[NR_PTRACE_CASES][sizeof(why)];
	struct ksig_set last, got;
	bool skip_big = !have_sizes;
	const char *setup = NULL;
	struct pollfd p;
	pid_t pid;

	memset(res, 0, sizeof(res));
	memset(reasons, 0, sizeof(reasons));
	reset();
	if (pipe(pfd)) {
		setup = strerror(errno);
		goto report;
	}
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		setup = strerror(errno);
		goto report;
	}
	if (pid == 0) {
		close(pfd[0]);
		ptrace_child(pfd[1]);
	}
	close(pfd[1]);
	if (wait_child(pid, &status)) {
		setup = why;
		goto report;
	}
	if (!WIFSTOPPED(status) || WSTOPSIG(status) != SIGSTOP) {
		snprintf(why, sizeof(why), "child status 0x%x, want stopped by SIGSTOP", status);
		setup = why;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto report;
	}

	res[0] = pt_libc_size(pid, &last);
	strcpy(reasons[0], why);
	res[2] = pt_bad_size(pid);
	strcpy(reasons[2], why);
	res[3] = pt_efault(pid);
	strcpy(reasons[3], why);
	if (!skip_big) {
		res[1] = pt_big(pid, &last);
		strcpy(reasons[1], why);
	}

	/* let it go: it reports the mask the tracer left it with */
	if (ptrace(PTRACE_CONT, pid, NULL, NULL)) {
		snprintf(why, sizeof(why), "PTRACE_CONT: %s", strerror(errno));
		setup = why;
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		goto report;
	}
	p.fd = pfd[0];
	p.events = POLLIN;
	ksig_empty(&got);
	if (poll(&p, 1, WAIT_MS) != 1 || read(pfd[0], got.b, ksz) != (ssize_t)ksz) {
		i = skip_big ? 0 : 1;
		if (!res[i]) {
			res[i] = -1;
			strcpy(reasons[i], "the child did not report its mask after PTRACE_CONT");
		}
	} else if (memcmp(got.b, last.b, ksz)) {
		i = skip_big ? 0 : 1;
		if (!res[i]) {
			res[i] = -1;
			snprintf(reasons[i], sizeof(reasons[i]),
				 "the child's own mask (bytes 0,1,8: %02x %02x %02x) is not the one set",
				 got.b[0], got.b[1], got.b[8]);
		}
	}
	close(pfd[0]);
	kill(pid, SIGKILL);
	wait_child(pid, &status);

report:
	for (i = 0; i < NR_PTRACE_CASES; i++) {
		if (setup)
			ksft_test_result_fail("%s: setup: %s\n", ptrace_names[i], setup);
		else if (i == 1 && skip_big)
			ksft_test_result_skip("AT_SIGSET_SZ not in this kernel's uapi headers (%s)\n",
					      ptrace_names[i]);
		else if (res[i])
			ksft_test_result_fail("%s: %s\n", ptrace_names[i], reasons[i]);
		else
			ksft_test_result_pass("%s\n", ptrace_names[i]);
	}
	reset();
}

int main(void)
{
	snprintf(libc_sz_name, sizeof(libc_sz_name),
		 "PTRACE_GETSIGMASK/SETSIGMASK with sigsetsize %zu", libc_sz);
	nsig_begin(NR_PTRACE_CASES);
	run_ptrace();
	return nsig_end(NR_PTRACE_CASES);
}
