// SPDX-License-Identifier: GPL-2.0
/*
 * nsig.c - variable sigsetsize for the rt_sig*() calls, AT_SIGSET_SZ, the
 * 65th signal SIGINFO, PTRACE_{GET,SET}SIGMASK sizes, CONFIG_SIGNALS_DEBUG
 * and SIGINFO on the VSTATUS (^T) character (the "nsig" series).
 *
 * Built against the uapi headers of the kernel under test.  What the
 * headers do not have does not exist at that commit and its cases are
 * skipped; what they have and misbehaves fails:
 *	AT_SIGSET_SZ (<linux/auxvec.h>)	sigsetsizes 16..128 and AT_SIGSET_SZ
 *	SIGINFO (<asm/signal.h>, via ksig.h)	the SIGINFO cases and bit 65
 *	VSTATUS, NOKERNINFO (<asm/termbits.h>)	^T sends SIGINFO
 * sigsetsize 8 is what every libc passes: it is tested everywhere.
 * /proc/sys/kernel/max_signal tells at run time whether the kernel was
 * built with CONFIG_SIGNALS_DEBUG; without it those cases are skipped.
 *
 * Every system call is raw (syscall()), so that libc's idea of the number
 * of signals (glibc refuses signal 65) and of sigsetsize does not hide the
 * kernel's answer.  Masks are byte arrays (ksig.h).  Masks the kernel
 * writes back land in a buffer prefilled with 0xa5: the bytes between the
 * kernel's sigset_t and sigsetsize must come back zero (no kernel stack),
 * the bytes past sigsetsize untouched.
 *
 * Every blocking step is guarded by alarm() (the SIGALRM handler has no
 * SA_RESTART, so a call that never completes returns EINTR and the case
 * fails) or by a poll() timeout.  glibc's raise() and sigprocmask() pass 8
 * bytes and would drop a blocked SIGINFO (zero extension): kill() and raw
 * calls are used instead.
 */
#define _GNU_SOURCE
#include "ksig.h"		/* before libc's <signal.h> */

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>
#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <linux/capability.h>
#include <asm/ioctls.h>
#include <asm/termbits.h>

#include "kselftest.h"
#include "ksig_case.h"
#include "tty_util.h"

#define WAIT_MS		5000	/* a child or a signal must show up within this */
#define LINE_WAIT_MS	3000

#define NR_SYSCALL_CASES	(9 * 4)
#define NR_LEAK_CASES		3
#define NR_CASES	(NR_SYSCALL_CASES + NR_LEAK_CASES + 1 + 6 + 4 + 4 + 2)

/* The kernel's sigset_t; 8 on kernels without the series. */
static const size_t ksz = KSIG_SIGSET_BYTES;
static const bool have_sizes = KSIG_HAVE_AT_SIGSET_SZ;
static const bool have_info = KSIG_HAVE_SIGINFO;

/* ---------------------------------------------------------------------- */
/* Signal handling state */

static volatile int seen[KSIG_BUF];		/* deliveries per signal */
static volatile int seen_code[KSIG_BUF];
static volatile int seen_val[KSIG_BUF];
static volatile int seen_pid[KSIG_BUF];

/* Snapshots taken by the handler for snap_sig, and edits of its frame. */
static volatile int snap_sig;
static struct ksig_set snap_blocked;		/* blocked inside the handler */
static struct ksig_set snap_frame;		/* uc_sigmask of the frame */
static volatile int frame_add, frame_del;	/* signals to edit in */
static void on_sig(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned char *m = (unsigned char *)&uc->uc_sigmask;

	if (sig <= 0 || sig >= KSIG_BUF)
		return;
	seen[sig]++;
	seen_code[sig] = si->si_code;
	seen_val[sig] = si->si_value.sival_int;
	seen_pid[sig] = si->si_pid;
	if (sig != snap_sig)
		return;
	ksig_fill(&snap_blocked, 0);
	ksig_procmask(SIG_BLOCK, NULL, &snap_blocked, ksz);
	ksig_fill(&snap_frame, 0);
	memcpy(snap_frame.b, m, ksz);
	/* The x86-64 frame holds the kernel's sigset_t: ksz bytes. */
	if (frame_add)
		m[(frame_add - 1) / 8] |= 1u << ((frame_add - 1) % 8);
	if (frame_del)
		m[(frame_del - 1) / 8] &= ~(1u << ((frame_del - 1) % 8));
}

/*
 * The setup does not depend on the sizes under test: without a mask (or
 * with an empty one) sigsetsize 8 does, as on every kernel.
 */
static int install(int sig, unsigned long flags, const struct ksig_set *mask)
{
	struct ksig_sigaction sa;

	ksig_set_handler(&sa, on_sig, KSIG_SA_SIGINFO | flags, mask);
	return ksig_action(sig, &sa, NULL, mask ? ksz : KSIG_SIZE_MIN);
}

static int set_disposition(int sig, unsigned long handler)
{
	struct ksig_sigaction sa;

	ksig_set_handler(&sa, NULL, 0, NULL);
	sa.handler = handler;
	return ksig_action(sig, &sa, NULL, KSIG_SIZE_MIN);
}

/* Set the whole blocked mask; a kernel that refuses ksz gets 8 bytes. */
static void set_blocked(const struct ksig_set *s)
{
	if (ksig_procmask(SIG_SETMASK, s, NULL, ksz))
		ksig_procmask(SIG_SETMASK, s, NULL, KSIG_SIZE_MIN);
}

/* The signals the cases use; SIGRTMIN+2 is 34 whatever libc reserves. */
#define SIGRT2	34
static int test_sigs[4];
static int nr_test_sigs;

/*
 * Back to a known state: nothing blocked, nothing pending of the signals
 * the tests use (setting SIG_IGN discards a pending signal), on_sig
 * installed for them, counters cleared.
 */
static void reset(void)
{
	struct ksig_set none;
	int i;

	for (i = 0; i < nr_test_sigs; i++)
		set_disposition(test_sigs[i], (unsigned long)SIG_IGN);
	ksig_empty(&none);
	set_blocked(&none);
	for (i = 0; i < nr_test_sigs; i++)
		install(test_sigs[i], 0, NULL);
	for (i = 0; i < KSIG_BUF; i++) {
		seen[i] = 0;
		seen_code[i] = 0;
		seen_val[i] = 0;
		seen_pid[i] = 0;
	}
	snap_sig = 0;
	frame_add = 0;
	frame_del = 0;
}

static int block_sigs(const int *sigs, int n)
{
	struct ksig_set s;
	int i;

	ksig_empty(&s);
	for (i = 0; i < n; i++)
		if (sigs[i])
			ksig_add(&s, sigs[i]);
	return ksig_procmask(SIG_BLOCK, &s, NULL, ksz);
}

static int get_blocked(struct ksig_set *s)
{
	ksig_empty(s);
	return ksig_procmask(SIG_BLOCK, NULL, s, ksz);
}

static int get_pending(struct ksig_set *s)
{
	ksig_empty(s);
	return ksig_pending(s, ksz);
}

/* SIGINFO where this size can carry it, else 0 (no signal). */
static int info_for(size_t size)
{
	return have_info && size * 8 >= (size_t)KSIG_SIGINFO ? KSIG_SIGINFO : 0;
}

/*
 * A mask to pass in: the signals in sigs plus 0xff in every byte past the
 * kernel's sigset_t (up to size), which the kernel must ignore.
 */
static void make_mask(struct ksig_set *s, size_t size, const int *sigs, int n)
{
	size_t i;
	int k;

	ksig_empty(s);
	for (k = 0; k < n; k++)
		if (sigs[k])
			ksig_add(s, sigs[k]);
	for (i = ksz; i < size; i++)
		s->b[i] = 0xff;
}

/*
 * got was prefilled with KSIG_FILL and the kernel wrote size bytes of a
 * mask: they must be want's (zero past the kernel's signals), the rest
 * untouched.
 */
static int check_out(const char *what, const struct ksig_set *got,
		     const struct ksig_set *want, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (got->b[i] != want->b[i])
			return failf("%s, sigsetsize %zu: byte %zu is 0x%02x, want 0x%02x%s",
				     what, size, i, got->b[i], want->b[i],
				     i >= ksz ? " (past the kernel's sigset: leak?)" : "");
	for (i = size; i < KSIG_BUF; i++)
		if (got->b[i] != KSIG_FILL)
			return failf("%s, sigsetsize %zu: byte %zu past the mask was written (0x%02x)",
				     what, size, i, got->b[i]);
	return 0;
}

static int expect_errno(const char *what, long r, int e, int want)
{
	if (r != -1 || e != want)
		return failf("%s returned %ld errno %d (%s), want -1/%s", what, r,
			     r == -1 ? e : 0, r == -1 ? strerror(e) : "-",
			     strerror(want));
	return 0;
}

/* Bad user pointers: a never mapped low address and an unmapped page. */
static void *bad_low = (void *)1;
static unsigned char *unmapped;		/* first byte of an unmapped page */

static void setup_bad_pointers(void)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned char *p;

	p = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	if (munmap(p + page, page))
		ksft_exit_fail_msg("munmap: %s\n", strerror(errno));
	unmapped = p + page;
}

/* ---------------------------------------------------------------------- */
/* rt_sigprocmask */

static int procmask_work(size_t size)
{
	int sigs[] = { SIGUSR1, SIGKILL, info_for(size) };
	int kept[] = { SIGUSR1, info_for(size) };
	struct ksig_set set, old, cur, want;

	make_mask(&set, size, sigs, 3);
	ksig_fill(&old, KSIG_FILL);
	if (ksig_procmask(SIG_SETMASK, &set, &old, size))
		return failf("SIG_SETMASK, sigsetsize %zu: %s", size, strerror(errno));
	ksig_empty(&want);
	if (check_out("old mask", &old, &want, size))
		return -1;
	ksig_fill(&cur, KSIG_FILL);
	if (ksig_procmask(SIG_BLOCK, NULL, &cur, size))
		return failf("read back, sigsetsize %zu: %s", size, strerror(errno));
	/* SIGKILL cannot be blocked; the bytes past the kernel's are ignored */
	want_sigs(&want, kept, 2);
	if (check_out("read back", &cur, &want, size))
		return -1;

	make_mask(&set, size, sigs, 1);
	if (ksig_procmask(SIG_UNBLOCK, &set, NULL, size))
		return failf("SIG_UNBLOCK, sigsetsize %zu: %s", size, strerror(errno));
	ksig_fill(&cur, KSIG_FILL);
	ksig_procmask(SIG_BLOCK, NULL, &cur, size);
	want_sigs(&want, kept + 1, 1);
	if (check_out("after SIG_UNBLOCK of SIGUSR1", &cur, &want, size))
		return -1;

	/* A mask shorter than the kernel's is zero extended (SIG_SETMASK). */
	if (have_info && size < ksz) {
		int info[] = { KSIG_SIGINFO }, usr2[] = { SIGUSR2 };

		block_sigs(info, 1);
		make_mask(&set, size, usr2, 1);
		if (ksig_procmask(SIG_BLOCK, &set, NULL, size))
			return failf("SIG_BLOCK, sigsetsize %zu: %s", size, strerror(errno));
		get_blocked(&cur);
		if (!ksig_has(&cur, KSIG_SIGINFO) || !ksig_has(&cur, SIGUSR2))
			return failf("SIG_BLOCK with sigsetsize %zu dropped SIGINFO or lost SIGUSR2",
				     size);
		if (ksig_procmask(SIG_SETMASK, &set, NULL, size))
			return failf("SIG_SETMASK, sigsetsize %zu: %s", size, strerror(errno));
		get_blocked(&cur);
		if (ksig_has(&cur, KSIG_SIGINFO) || !ksig_has(&cur, SIGUSR2))
			return failf("SIG_SETMASK with sigsetsize %zu: SIGINFO %s, SIGUSR2 %s (want zero extension)",
				     size, ksig_has(&cur, KSIG_SIGINFO) ? "kept" : "cleared",
				     ksig_has(&cur, SIGUSR2) ? "set" : "missing");
	}
	return 0;
}

static int procmask_bad_size(size_t size)
{
	int sigs[] = { SIGUSR2 };
	struct ksig_set set, old, cur;
	long r;
	int e;

	make_mask(&set, KSIG_SIZE_MAX, sigs, 1);
	ksig_fill(&old, KSIG_FILL);
	errno = 0;
	r = ksig_procmask(SIG_BLOCK, &set, &old, size);
	e = errno;
	if (expect_errno("rt_sigprocmask", r, e, EINVAL))
		return -1;
	if (ksig_find_not(&old, 0, KSIG_BUF, KSIG_FILL) >= 0)
		return failf("sigsetsize %zu: EINVAL but the old mask was written", size);
	get_blocked(&cur);
	if (ksig_has(&cur, SIGUSR2))
		return failf("sigsetsize %zu: EINVAL but SIGUSR2 got blocked", size);
	return 0;
}

static int procmask_efault(size_t size)
{
	int sigs[] = { SIGUSR2 };
	struct ksig_set set, cur;
	long r;
	int e;

	make_mask(&set, size, sigs, 1);
	errno = 0;
	r = syscall(SYS_rt_sigprocmask, SIG_BLOCK, bad_low, NULL, size);
	e = errno;
	if (expect_errno("set (void *)1", r, e, EFAULT))
		return -1;
	errno = 0;
	r = syscall(SYS_rt_sigprocmask, SIG_BLOCK, unmapped, NULL, size);
	e = errno;
	if (expect_errno("set in an unmapped page", r, e, EFAULT))
		return -1;
	get_blocked(&cur);
	if (ksig_has(&cur, SIGUSR2))
		return failf("EFAULT but SIGUSR2 got blocked");
	errno = 0;
	r = syscall(SYS_rt_sigprocmask, SIG_BLOCK, set.b, unmapped, size);
	e = errno;
	if (expect_errno("oldset in an unmapped page", r, e, EFAULT))
		return -1;
	if (size > ksz) {
		/* the zero fill past the kernel's sigset must fault too */
		errno = 0;
		r = syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, unmapped - ksz, size);
		e = errno;
		if (expect_errno("oldset whose tail is unmapped", r, e, EFAULT))
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* rt_sigpending */

static int pending_work(size_t size)
{
	int sigs[] = { SIGUSR1, SIGUSR2, have_info ? KSIG_SIGINFO : 0 };
	int vis[] = { SIGUSR1, SIGUSR2, info_for(size) };
	struct ksig_set p, want;

	block_sigs(sigs, 3);
	send_sig(SIGUSR1);
	send_sig(SIGUSR2);
	if (have_info)
		send_sig(KSIG_SIGINFO);
	ksig_fill(&p, KSIG_FILL);
	if (ksig_pending(&p, size))
		return failf("sigsetsize %zu: %s", size, strerror(errno));
	want_sigs(&want, vis, 3);
	return check_out("pending", &p, &want, size);
}

/* Sizes below 8 copy that many bytes, as before the series; 12, 129 fail */
static int pending_bad_size(size_t size)
{
	int sigs[] = { SIGUSR1, SIGUSR2 };
	struct ksig_set p, want;
	long r;
	int e;

	block_sigs(sigs, 2);
	send_sig(SIGUSR1);
	send_sig(SIGUSR2);
	ksig_fill(&p, KSIG_FILL);
	errno = 0;
	r = ksig_pending(&p, size);
	e = errno;
	if (size < KSIG_SIZE_MIN) {
		if (r)
			return failf("sigsetsize %zu returned %ld errno %d (%s), want 0 as on base",
				     size, r, e, strerror(e));
		want_sigs(&want, sigs, 2);
		return check_out("pending", &p, &want, size);
	}
	if (expect_errno("rt_sigpending", r, e, EINVAL))
		return -1;
	if (ksig_find_not(&p, 0, KSIG_BUF, KSIG_FILL) >= 0)
		return failf("sigsetsize %zu: EINVAL but the set was written", size);
	return 0;
}

static int pending_efault(size_t size)
{
	long r;
	int e;

	errno = 0;
	r = syscall(SYS_rt_sigpending, bad_low, size);
	e = errno;
	if (expect_errno("set (void *)1", r, e, EFAULT))
		return -1;
	errno = 0;
	r = syscall(SYS_rt_sigpending, unmapped, size);
	e = errno;
	if (expect_errno("set in an unmapped page", r, e, EFAULT))
		return -1;
	if (size == KSIG_SIZE_MIN) {
		errno = 0;
		r = syscall(SYS_rt_sigpending, unmapped, 4);
		e = errno;
		if (expect_errno("sigsetsize 4, set in an unmapped page", r, e, EFAULT))
			return -1;
	}
	if (size > ksz) {
		errno = 0;
		r = syscall(SYS_rt_sigpending, unmapped - ksz, size);
		e = errno;
		if (expect_errno("set whose tail is unmapped", r, e, EFAULT))
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* rt_sigsuspend */

static int suspend_work(size_t size)
{
	int info = info_for(size);
	int blk[] = { SIGUSR1, info };
	struct ksig_set tmp, cur, want, pend;
	long r;
	int e;

	block_sigs(blk, 2);
	send_sig(SIGUSR1);
	if (info)
		send_sig(info);
	/* wait with SIGUSR1 unblocked; SIGINFO stays blocked by bit 65 */
	make_mask(&tmp, size, &info, 1);
	guard();
	errno = 0;
	r = ksig_suspend(&tmp, size);
	e = errno;
	unguard();
	if (r != -1 || e != EINTR)
		return failf("sigsetsize %zu: returned %ld errno %d, want -1/EINTR", size, r, e);
	if (alarm_fired)
		return failf("sigsetsize %zu: woken by the guard alarm, not SIGUSR1", size);
	if (seen[SIGUSR1] != 1)
		return failf("sigsetsize %zu: SIGUSR1 handler ran %d times", size, seen[SIGUSR1]);
	if (info && seen[info])
		return failf("sigsetsize %zu: SIGINFO delivered though bit 65 of the mask blocked it",
			     size);
	get_blocked(&cur);
	want_sigs(&want, blk, 2);
	if (memcmp(cur.b, want.b, ksz))
		return failf("sigsetsize %zu: mask not restored after the handler", size);
	if (info) {
		get_pending(&pend);
		if (!ksig_has(&pend, info))
			return failf("sigsetsize %zu: SIGINFO no longer pending", size);
	}
	return 0;
}

static int suspend_bad_size(size_t size)
{
	int blk[] = { SIGUSR1 };
	struct ksig_set tmp;
	long r;
	int e;

	/* if the size were taken, the pending SIGUSR1 would end the wait */
	block_sigs(blk, 1);
	send_sig(SIGUSR1);
	ksig_empty(&tmp);
	guard();
	errno = 0;
	r = ksig_suspend(&tmp, size);
	e = errno;
	unguard();
	if (expect_errno("rt_sigsuspend", r, e, EINVAL))
		return -1;
	if (seen[SIGUSR1])
		return failf("sigsetsize %zu: EINVAL but SIGUSR1 was delivered", size);
	return 0;
}

static int suspend_efault(size_t size)
{
	long r;
	int e;

	guard();
	errno = 0;
	r = syscall(SYS_rt_sigsuspend, bad_low, size);
	e = errno;
	unguard();
	if (expect_errno("set (void *)1", r, e, EFAULT))
		return -1;
	guard();
	errno = 0;
	r = syscall(SYS_rt_sigsuspend, unmapped, size);
	e = errno;
	unguard();
	return expect_errno("set in an unmapped page", r, e, EFAULT);
}

/* ---------------------------------------------------------------------- */
/* rt_sigtimedwait */

static long timedwait(const void *set, siginfo_t *si, int ms, size_t size)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	return syscall(SYS_rt_sigtimedwait, set, si, &ts, size);
}

static int timedwait_work(size_t size)
{
	int info = info_for(size);
	int blk[] = { SIGUSR1, info };
	struct ksig_set w, pend;
	siginfo_t si;
	long r;

	block_sigs(blk, 2);
	if (queue_sig(SIGUSR1, 0x1000 + (int)size))
		return failf("rt_sigqueueinfo(SIGUSR1): %s", strerror(errno));
	if (info && queue_sig(info, 0x2000 + (int)size))
		return failf("rt_sigqueueinfo(SIGINFO): %s", strerror(errno));

	if (info) {
		/* asked for SIGINFO only: SIGUSR1 (lower) must be left alone */
		make_mask(&w, size, &info, 1);
		memset(&si, 0, sizeof(si));
		guard();
		r = timedwait(w.b, &si, 2000, size);
		unguard();
		if (r != info)
			return failf("sigsetsize %zu: waiting for SIGINFO returned %ld (%s)",
				     size, r, r < 0 ? strerror(errno) : "wrong signal");
		if (si.si_signo != info || si.si_code != SI_QUEUE ||
		    si.si_value.sival_int != 0x2000 + (int)size)
			return failf("sigsetsize %zu: SIGINFO siginfo signo %d code %d value 0x%x",
				     size, si.si_signo, si.si_code, si.si_value.sival_int);
	}
	make_mask(&w, size, blk, 1);
	memset(&si, 0, sizeof(si));
	guard();
	r = timedwait(w.b, &si, 2000, size);
	unguard();
	if (r != SIGUSR1)
		return failf("sigsetsize %zu: returned %ld (%s), want SIGUSR1", size, r,
			     r < 0 ? strerror(errno) : "wrong signal");
	if (si.si_code != SI_QUEUE || si.si_value.sival_int != 0x1000 + (int)size ||
	    si.si_pid != getpid())
		return failf("sigsetsize %zu: siginfo code %d value 0x%x pid %d",
			     size, si.si_code, si.si_value.sival_int, si.si_pid);
	get_pending(&pend);
	if (ksig_has(&pend, SIGUSR1) || (info && ksig_has(&pend, info)))
		return failf("sigsetsize %zu: a dequeued signal is still pending", size);
	return 0;
}

static int timedwait_bad_size(size_t size)
{
	int blk[] = { SIGUSR1 };
	struct ksig_set w, pend;
	siginfo_t si;
	long r;
	int e;

	block_sigs(blk, 1);
	send_sig(SIGUSR1);
	make_mask(&w, KSIG_SIZE_MAX, blk, 1);
	guard();
	errno = 0;
	r = timedwait(w.b, &si, 0, size);
	e = errno;
	unguard();
	if (expect_errno("rt_sigtimedwait", r, e, EINVAL))
		return -1;
	get_pending(&pend);
	if (!ksig_has(&pend, SIGUSR1))
		return failf("sigsetsize %zu: EINVAL but SIGUSR1 was dequeued", size);
	return 0;
}

static int timedwait_efault(size_t size)
{
	siginfo_t si;
	long r;
	int e;

	guard();
	errno = 0;
	r = timedwait(bad_low, &si, 0, size);
	e = errno;
	unguard();
	if (expect_errno("set (void *)1", r, e, EFAULT))
		return -1;
	guard();
	errno = 0;
	r = timedwait(unmapped, &si, 0, size);
	e = errno;
	unguard();
	return expect_errno("set in an unmapped page", r, e, EFAULT);
}

/* ---------------------------------------------------------------------- */
/* rt_sigaction */

static int check_action_out(const char *what, const struct ksig_sigaction *got,
			    unsigned long handler, unsigned long flags,
			    const struct ksig_set *mask, size_t size)
{
	struct ksig_set m;

	if (got->handler != handler)
		return failf("%s, sigsetsize %zu: handler %#lx, want %#lx", what, size,
			     got->handler, handler);
	if ((got->flags & flags) != flags)
		return failf("%s, sigsetsize %zu: flags %#lx lack %#lx", what, size,
			     got->flags, flags);
	memcpy(m.b, got->mask, sizeof(m.b));
	return check_out(what, &m, mask, size);
}

static int action_work(size_t size)
{
	int info = info_for(size);
	int msk[] = { SIGUSR1, info };
	int inh[] = { SIGUSR1, SIGUSR2, info };
	struct ksig_sigaction act, oact;
	struct ksig_set mask, want, cur;
	unsigned long flags = KSIG_SA_SIGINFO | KSIG_SA_RESTORER;

	make_mask(&mask, size, msk, 2);
	ksig_set_handler(&act, on_sig, KSIG_SA_SIGINFO, &mask);
	memset(&oact, KSIG_FILL, sizeof(oact));
	if (ksig_action(SIGUSR2, &act, &oact, size))
		return failf("install, sigsetsize %zu: %s", size, strerror(errno));
	/* reset() installed on_sig with an empty mask */
	ksig_empty(&want);
	if (check_action_out("old action", &oact, (unsigned long)on_sig, flags, &want,
			     size))
		return -1;
	memset(&oact, KSIG_FILL, sizeof(oact));
	if (ksig_action(SIGUSR2, NULL, &oact, size))
		return failf("read back, sigsetsize %zu: %s", size, strerror(errno));
	want_sigs(&want, msk, 2);
	if (check_action_out("read back", &oact, (unsigned long)on_sig, flags, &want, size))
		return -1;

	/* the handler runs with sa_mask and its own signal blocked */
	snap_sig = SIGUSR2;
	send_sig(SIGUSR2);
	snap_sig = 0;
	if (seen[SIGUSR2] != 1)
		return failf("sigsetsize %zu: handler ran %d times", size, seen[SIGUSR2]);
	want_sigs(&want, inh, 3);
	if (memcmp(snap_blocked.b, want.b, ksz))
		return failf("sigsetsize %zu: mask inside the handler is not sa_mask + SIGUSR2%s",
			     size, info ? " (with SIGINFO)" : "");
	get_blocked(&cur);
	ksig_empty(&want);
	if (memcmp(cur.b, want.b, ksz))
		return failf("sigsetsize %zu: mask not restored after the handler", size);
	return 0;
}

/* Did the kernel write into a buffer prefilled with KSIG_FILL? */
static bool written(const void *buf, size_t len)
{
	const unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i] != KSIG_FILL)
			return true;
	return false;
}

static int action_bad_size(size_t size)
{
	struct ksig_sigaction act, oact;
	long r;
	int e;

	ksig_set_handler(&act, NULL, 0, NULL);
	act.handler = (unsigned long)SIG_IGN;
	memset(&oact, KSIG_FILL, sizeof(oact));
	errno = 0;
	r = ksig_action(SIGUSR2, &act, &oact, size);
	e = errno;
	if (expect_errno("rt_sigaction(act, oact)", r, e, EINVAL))
		return -1;
	if (written(&oact, sizeof(oact)))
		return failf("sigsetsize %zu: EINVAL but the old action was written", size);
	memset(&oact, KSIG_FILL, sizeof(oact));
	errno = 0;
	r = ksig_action(SIGUSR2, NULL, &oact, size);
	e = errno;
	if (expect_errno("rt_sigaction(NULL, oact)", r, e, EINVAL))
		return -1;
	if (written(&oact, sizeof(oact)))
		return failf("sigsetsize %zu: EINVAL but the old action was written", size);
	if (ksig_action(SIGUSR2, NULL, &oact, KSIG_SIZE_MIN))
		return failf("read back: %s", strerror(errno));
	if (oact.handler != (unsigned long)on_sig)
		return failf("sigsetsize %zu: EINVAL but the handler changed", size);
	return 0;
}

static int action_efault(size_t size)
{
	struct ksig_sigaction act;
	unsigned char *tail;
	long r;
	int e;

	ksig_set_handler(&act, NULL, 0, NULL);
	act.handler = (unsigned long)SIG_IGN;
	errno = 0;
	r = syscall(SYS_rt_sigaction, SIGUSR2, bad_low, NULL, size);
	e = errno;
	if (expect_errno("act (void *)1", r, e, EFAULT))
		return -1;
	errno = 0;
	r = syscall(SYS_rt_sigaction, SIGUSR2, unmapped, NULL, size);
	e = errno;
	if (expect_errno("act in an unmapped page", r, e, EFAULT))
		return -1;
	errno = 0;
	r = syscall(SYS_rt_sigaction, SIGUSR2, NULL, unmapped, size);
	e = errno;
	if (expect_errno("oact in an unmapped page", r, e, EFAULT))
		return -1;
	/* act's mask partly unmapped: the kernel reads past the mapping */
	tail = unmapped - offsetof(struct ksig_sigaction, mask) - 4;
	memcpy(tail, &act, offsetof(struct ksig_sigaction, mask));
	memset(tail + offsetof(struct ksig_sigaction, mask), 0, 4);
	errno = 0;
	r = syscall(SYS_rt_sigaction, SIGUSR2, tail, NULL, size);
	e = errno;
	if (expect_errno("act whose mask crosses into an unmapped page", r, e, EFAULT))
		return -1;
	if (size > ksz) {
		tail = unmapped - offsetof(struct ksig_sigaction, mask) - ksz;
		errno = 0;
		r = syscall(SYS_rt_sigaction, SIGUSR2, NULL, tail, size);
		e = errno;
		if (expect_errno("oact whose mask tail is unmapped", r, e, EFAULT))
			return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------- */
/* signalfd4 */

static int signalfd_work(size_t size)
{
	int info = info_for(size);
	int blk[] = { SIGUSR1, SIGUSR2, have_info ? KSIG_SIGINFO : 0 };
	int in_fd[] = { SIGUSR1, info };
	struct signalfd_siginfo ssi[4];
	struct ksig_set mask;
	struct pollfd pfd;
	int fd, ret = 0;
	ssize_t n;

	block_sigs(blk, 3);
	queue_sig(SIGUSR1, 0x3000 + (int)size);
	queue_sig(SIGUSR2, 0x4000);
	if (have_info)
		queue_sig(KSIG_SIGINFO, 0x5000 + (int)size);
	make_mask(&mask, size, in_fd, 2);
	fd = syscall(SYS_signalfd4, -1, mask.b, size, SFD_NONBLOCK | SFD_CLOEXEC);
	if (fd < 0)
		return failf("sigsetsize %zu: %s", size, strerror(errno));
	pfd.fd = fd;
	pfd.events = POLLIN;
	if (poll(&pfd, 1, WAIT_MS) != 1) {
		ret = failf("sigsetsize %zu: signalfd not readable", size);
		goto out;
	}
	memset(ssi, 0, sizeof(ssi));
	n = read(fd, ssi, sizeof(ssi));
	if (n != (ssize_t)((info ? 2 : 1) * sizeof(ssi[0]))) {
		ret = failf("sigsetsize %zu: read %zd bytes (%s), want %d record(s)", size, n,
			    n < 0 ? strerror(errno) : "", info ? 2 : 1);
		goto out;
	}
	if (ssi[0].ssi_signo != SIGUSR1 || ssi[0].ssi_int != 0x3000 + (int)size) {
		ret = failf("sigsetsize %zu: first record signo %u value 0x%x", size,
			    ssi[0].ssi_signo, ssi[0].ssi_int);
		goto out;
	}
	if (info && (ssi[1].ssi_signo != (uint32_t)info ||
		     ssi[1].ssi_int != 0x5000 + (int)size)) {
		ret = failf("sigsetsize %zu: second record signo %u value 0x%x, want SIGINFO",
			    size, ssi[1].ssi_signo, ssi[1].ssi_int);
		goto out;
	}
	n = read(fd, ssi, sizeof(ssi));
	if (n != -1 || errno != EAGAIN)
		ret = failf("sigsetsize %zu: a signal outside the mask was read (%zd, signo %u)",
			    size, n, n > 0 ? ssi[0].ssi_signo : 0);
out:
	close(fd);
	return ret;
}

static int signalfd_bad_size(size_t size)
{
	int sigs[] = { SIGUSR1 };
	struct ksig_set mask;
	long r;
	int e;

	make_mask(&mask, KSIG_SIZE_MAX, sigs, 1);
	errno = 0;
	r = syscall(SYS_signalfd4, -1, mask.b, size, SFD_NONBLOCK | SFD_CLOEXEC);
	e = errno;
	if (r >= 0)
		close(r);
	return expect_errno("signalfd4", r, e, EINVAL);
}

static int signalfd_efault(size_t size)
{
	long r;
	int e;

	errno = 0;
	r = syscall(SYS_signalfd4, -1, bad_low, size, SFD_CLOEXEC);
	e = errno;
	if (r >= 0)
		close(r);
	if (expect_errno("mask (void *)1", r, e, EFAULT))
		return -1;
	errno = 0;
	r = syscall(SYS_signalfd4, -1, unmapped, size, SFD_CLOEXEC);
	e = errno;
	if (r >= 0)
		close(r);
	return expect_errno("mask in an unmapped page", r, e, EFAULT);
}

/* ---------------------------------------------------------------------- */
/* ppoll, pselect6, epoll_pwait: a temporary mask for the wait */

static int epfd = -1;

static long call_ppoll(const void *mask, size_t size, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	return syscall(SYS_ppoll, NULL, 0, &ts, mask, size);
}

static long call_pselect6(const void *mask, size_t size, int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	struct {
		const void *p;
		size_t size;
	} arg = { mask, size };

	return syscall(SYS_pselect6, 0, NULL, NULL, NULL, &ts, &arg);
}

static long call_epoll_pwait(const void *mask, size_t size, int ms)
{
	struct epoll_event ev;

	return syscall(SYS_epoll_pwait, epfd, &ev, 1, ms, mask, size);
}

typedef long (*wait_fn)(const void *mask, size_t size, int ms);

static int tempmask_work(wait_fn fn, size_t size)
{
	int info = info_for(size);
	int blk[] = { SIGUSR1, info };
	struct ksig_set tmp, cur, want, pend;
	long r;
	int e;

	block_sigs(blk, 2);
	send_sig(SIGUSR1);
	if (info)
		send_sig(info);
	make_mask(&tmp, size, &info, 1);
	guard();
	errno = 0;
	r = fn(tmp.b, size, WAIT_MS);
	e = errno;
	unguard();
	if (r != -1 || e != EINTR)
		return failf("sigsetsize %zu: returned %ld errno %d, want -1/EINTR", size, r, e);
	if (alarm_fired)
		return failf("sigsetsize %zu: woken by the guard alarm, not SIGUSR1", size);
	if (seen[SIGUSR1] != 1)
		return failf("sigsetsize %zu: SIGUSR1 handler ran %d times", size, seen[SIGUSR1]);
	if (info && seen[info])
		return failf("sigsetsize %zu: SIGINFO delivered though bit 65 of the mask blocked it",
			     size);
	get_blocked(&cur);
	want_sigs(&want, blk, 2);
	if (memcmp(cur.b, want.b, ksz))
		return failf("sigsetsize %zu: mask not restored", size);
	if (info) {
		get_pending(&pend);
		if (!ksig_has(&pend, info))
			return failf("sigsetsize %zu: SIGINFO no longer pending", size);
	}
	return 0;
}

static int tempmask_bad_size(wait_fn fn, size_t size)
{
	struct ksig_set tmp;
	long r;
	int e;

	ksig_empty(&tmp);
	guard();
	errno = 0;
	r = fn(tmp.b, size, 0);
	e = errno;
	unguard();
	return expect_errno("the call", r, e, EINVAL);
}

static int tempmask_efault(wait_fn fn, size_t size)
{
	long r;
	int e;

	guard();
	errno = 0;
	r = fn(bad_low, size, 0);
	e = errno;
	unguard();
	if (expect_errno("mask (void *)1", r, e, EFAULT))
		return -1;
	guard();
	errno = 0;
	r = fn(unmapped, size, 0);
	e = errno;
	unguard();
	return expect_errno("mask in an unmapped page", r, e, EFAULT);
}

static int ppoll_work(size_t s) { return tempmask_work(call_ppoll, s); }
static int ppoll_bad_size(size_t s) { return tempmask_bad_size(call_ppoll, s); }
static int ppoll_efault(size_t s) { return tempmask_efault(call_ppoll, s); }
static int pselect6_work(size_t s) { return tempmask_work(call_pselect6, s); }
static int pselect6_bad_size(size_t s) { return tempmask_bad_size(call_pselect6, s); }
static int pselect6_efault(size_t s)
{
	struct timespec ts = { 0, 0 };
	long r;
	int e;

	if (tempmask_efault(call_pselect6, s))
		return -1;
	/* the { mask, size } pair itself */
	errno = 0;
	r = syscall(SYS_pselect6, 0, NULL, NULL, NULL, &ts, unmapped);
	e = errno;
	return expect_errno("argument pack in an unmapped page", r, e, EFAULT);
}
static int epoll_work(size_t s) { return tempmask_work(call_epoll_pwait, s); }
static int epoll_bad_size(size_t s) { return tempmask_bad_size(call_epoll_pwait, s); }
static int epoll_efault(size_t s) { return tempmask_efault(call_epoll_pwait, s); }

/* ---------------------------------------------------------------------- */
/* The per system call cases */

struct sc {
	const char *name;
	int (*work)(size_t size);
	int (*bad_size)(size_t size);
	int (*efault)(size_t size);
};

static const struct sc calls[] = {
	{ "rt_sigprocmask", procmask_work, procmask_bad_size, procmask_efault },
	{ "rt_sigpending", pending_work, pending_bad_size, pending_efault },
	{ "rt_sigsuspend", suspend_work, suspend_bad_size, suspend_efault },
	{ "rt_sigtimedwait", timedwait_work, timedwait_bad_size, timedwait_efault },
	{ "rt_sigaction", action_work, action_bad_size, action_efault },
	{ "signalfd4", signalfd_work, signalfd_bad_size, signalfd_efault },
	{ "ppoll", ppoll_work, ppoll_bad_size, ppoll_efault },
	{ "pselect6", pselect6_work, pselect6_bad_size, pselect6_efault },
	{ "epoll_pwait", epoll_work, epoll_bad_size, epoll_efault },
};

static void result(int r, const char *fmt, const char *name)
{
	if (r)
		ksft_test_result_fail("%s: %s\n", name, why);
	else
		ksft_test_result_pass(fmt, name);
}

static void run_call(const struct sc *c)
{
	const char *skip = "AT_SIGSET_SZ not in this kernel's uapi headers (no variable sigsetsize)";
	size_t size, i;
	int r;

	reset();
	r = c->work(KSIG_SIZE_MIN);
	reset();
	result(r, "%s: sigsetsize 8\n", c->name);

	if (!have_sizes) {
		ksft_test_result_skip("%s (%s: sigsetsize 16..128)\n", skip, c->name);
	} else {
		r = 0;
		for (size = 16; size <= KSIG_SIZE_MAX && !r; size += 8) {
			r = c->work(size);
			reset();
		}
		result(r, "%s: sigsetsizes 16, 24, ..., 128\n", c->name);
	}

	r = 0;
	for (i = 0; i < NR_BAD_SIZES && !r; i++) {
		if (c->bad_size(bad_sizes[i]) && !r) {
			r = -1;
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " (sigsetsize %zu)", bad_sizes[i]);
		}
		reset();
	}
	if (c->work == pending_work) {
		/* all of 0..7 as on base */
		for (size = 1; size < KSIG_SIZE_MIN && !r; size++) {
			r = c->bad_size(size);
			reset();
		}
		result(r, "%s: sigsetsize 0..7 copies that many bytes, 12 and 129 are EINVAL\n",
		       c->name);
	} else {
		result(r, "%s: sigsetsize 0, 7, 12, 129 are EINVAL\n", c->name);
	}

	r = c->efault(KSIG_SIZE_MIN);
	reset();
	if (!r && have_sizes) {
		r = c->efault(16);
		reset();
		if (!r)
			r = c->efault(KSIG_SIZE_MAX);
		reset();
	}
	result(r, have_sizes ? "%s: bad pointers are EFAULT (sigsetsize 8, 16, 128)\n" :
	       "%s: bad pointers are EFAULT (sigsetsize 8)\n", c->name);
}

/*
 * No kernel stack past the kernel's sigset: every mask the kernel writes
 * back, at every size, is zero from the kernel's sigset_t to sigsetsize
 * and leaves the bytes past sigsetsize alone.  The signals blocked,
 * pending or in sa_mask are the same at every size, so that the check
 * also covers the bits of the kernel's sigset past its last signal.
 */
static void run_leaks(void)
{
	int sigs[] = { SIGUSR1, SIGRT2, have_info ? KSIG_SIGINFO : 0 };
	struct ksig_sigaction act, oact;
	struct ksig_set s, want, mask;
	size_t size, last = have_sizes ? KSIG_SIZE_MAX : KSIG_SIZE_MIN;
	const char *range = have_sizes ? "sigsetsize 8..128" : "sigsetsize 8";
	char name[64];
	int r;

	r = 0;
	reset();
	block_sigs(sigs, 3);
	for (size = KSIG_SIZE_MIN; size <= last && !r; size += 8) {
		ksig_fill(&s, KSIG_FILL);
		if (ksig_procmask(SIG_BLOCK, NULL, &s, size)) {
			r = failf("sigsetsize %zu: %s", size, strerror(errno));
			break;
		}
		want_sigs(&want, sigs, 3);
		r = check_out("old mask", &s, &want, size);
	}
	reset();
	snprintf(name, sizeof(name), "rt_sigprocmask (%s)", range);
	result(r, "%s: old mask zero filled, nothing written past it\n", name);

	r = 0;
	block_sigs(sigs, 3);
	send_sig(SIGUSR1);
	send_sig(SIGRT2);
	if (have_info)
		send_sig(KSIG_SIGINFO);
	for (size = KSIG_SIZE_MIN; size <= last && !r; size += 8) {
		ksig_fill(&s, KSIG_FILL);
		if (ksig_pending(&s, size)) {
			r = failf("sigsetsize %zu: %s", size, strerror(errno));
			break;
		}
		want_sigs(&want, sigs, 3);
		r = check_out("pending set", &s, &want, size);
	}
	reset();
	snprintf(name, sizeof(name), "rt_sigpending (%s)", range);
	result(r, "%s: pending set zero filled, nothing written past it\n", name);

	r = 0;
	want_sigs(&mask, sigs, 3);
	ksig_set_handler(&act, on_sig, KSIG_SA_SIGINFO, &mask);
	if (ksig_action(SIGUSR2, &act, NULL, ksz))
		r = failf("install: %s", strerror(errno));
	for (size = KSIG_SIZE_MIN; size <= last && !r; size += 8) {
		memset(&oact, KSIG_FILL, sizeof(oact));
		if (ksig_action(SIGUSR2, NULL, &oact, size)) {
			r = failf("sigsetsize %zu: %s", size, strerror(errno));
			break;
		}
		memcpy(s.b, oact.mask, sizeof(s.b));
		r = check_out("sa_mask", &s, &mask, size);
	}
	reset();
	snprintf(name, sizeof(name), "rt_sigaction (%s)", range);
	result(r, "%s: sa_mask zero filled, nothing written past it\n", name);
}

/* ---------------------------------------------------------------------- */
/* AT_SIGSET_SZ */

static void test_auxv(void)
{
#if KSIG_HAVE_AT_SIGSET_SZ
	unsigned long v;

	errno = 0;
	v = getauxval(KSIG_AT_SIGSET_SZ);
	if (!v && errno)
		ksft_test_result_fail("AT_SIGSET_SZ (%d) is not in the auxiliary vector: %s\n",
				      KSIG_AT_SIGSET_SZ, strerror(errno));
	else
		ksft_test_result(v == KSIG_SIZE_MAX, "getauxval(AT_SIGSET_SZ) is %lu, want 128\n",
				 v);
#else
	ksft_test_result_skip("AT_SIGSET_SZ not in this kernel's uapi headers (auxv entry)\n");
#endif
}

/* ---------------------------------------------------------------------- */
/* SIGINFO */

#define NR_INFO_CASES	6

static const char *const info_names[NR_INFO_CASES] = {
	"SIGINFO: kill() of a blocked SIGINFO is pending and rt_sigtimedwait() takes it",
	"SIGINFO: SA_SIGINFO handler gets si_signo 65 and the queued si_value",
	"SIGINFO: not a realtime signal, two sends while blocked deliver once",
	"SIGINFO: default action is ignore, a child survives it",
	"SIGINFO: bit 65 is in the frame's uc_sigmask and restored from it",
	"SIGINFO: sa_mask blocks it in the handler, a frame edit blocks it after",
};

static int info_pending(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set p, w;
	siginfo_t si;
	long r;

	block_sigs(&sig, 1);
	if (kill(getpid(), sig))
		return failf("kill(self, %d): %s", sig, strerror(errno));
	if (seen[sig])
		return failf("delivered although blocked");
	get_pending(&p);
	if (!ksig_has(&p, sig))
		return failf("not in rt_sigpending(16)");
	make_mask(&w, ksz, &sig, 1);
	memset(&si, 0, sizeof(si));
	guard();
	r = timedwait(w.b, &si, 2000, ksz);
	unguard();
	if (r != sig)
		return failf("rt_sigtimedwait returned %ld (%s)", r, r < 0 ? strerror(errno) : "");
	if (si.si_signo != sig || si.si_code != SI_USER || si.si_pid != getpid())
		return failf("siginfo signo %d code %d pid %d, want %d SI_USER %d",
			     si.si_signo, si.si_code, si.si_pid, sig, getpid());
	get_pending(&p);
	if (ksig_has(&p, sig))
		return failf("still pending after rt_sigtimedwait");
	return 0;
}

static int info_handler(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set s;

	block_sigs(&sig, 1);
	if (queue_sig(sig, 0x51f0))
		return failf("rt_sigqueueinfo(self, %d): %s", sig, strerror(errno));
	if (seen[sig])
		return failf("delivered although blocked");
	make_mask(&s, ksz, &sig, 1);
	ksig_procmask(SIG_UNBLOCK, &s, NULL, ksz);
	if (seen[sig] != 1)
		return failf("handler ran %d times after unblocking", seen[sig]);
	if (seen_code[sig] != SI_QUEUE || seen_val[sig] != 0x51f0 ||
	    seen_pid[sig] != getpid())
		return failf("si_code %d si_value 0x%x si_pid %d, want SI_QUEUE 0x51f0 %d",
			     seen_code[sig], seen_val[sig], seen_pid[sig], getpid());
	/* and unblocked: straight to the handler */
	kill(getpid(), sig);
	if (seen[sig] != 2)
		return failf("unblocked kill() did not run the handler");
	return 0;
}

static int info_once(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set s;

	block_sigs(&sig, 1);
	kill(getpid(), sig);
	queue_sig(sig, 1);
	kill(getpid(), sig);
	make_mask(&s, ksz, &sig, 1);
	ksig_procmask(SIG_UNBLOCK, &s, NULL, ksz);
	if (seen[sig] != 1)
		return failf("handler ran %d times, want 1", seen[sig]);
	return 0;
}

static int wait_child(pid_t pid, int *status)
{
	pid_t w;

	guard();
	w = waitpid(pid, status, 0);
	unguard();
	if (w != pid) {
		kill(pid, SIGKILL);
		waitpid(pid, status, 0);
		return failf("waitpid: %s%s", strerror(errno),
			     alarm_fired ? " (timed out)" : "");
	}
	return 0;
}

static int info_default_ignore(void)
{
	int ready[2], go[2], status = 0, sig = KSIG_SIGINFO;
	struct pollfd pfd;
	char c = 0;
	pid_t pid;

	if (pipe(ready) || pipe(go))
		return failf("pipe: %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return failf("fork: %s", strerror(errno));
	if (pid == 0) {
		struct ksig_set none;
		long long deadline = now_ms() + WAIT_MS;
		int intr = 0;

		alarm(0);
		set_disposition(sig, (unsigned long)SIG_DFL);
		ksig_empty(&none);
		set_blocked(&none);
		if (write(ready[1], "R", 1) != 1)
			_exit(2);
		pfd.fd = go[0];
		pfd.events = POLLIN;
		while (now_ms() < deadline) {
			int r = poll(&pfd, 1, 100);

			if (r < 0 && errno == EINTR)
				intr++;
			if (r == 1)
				_exit(intr ? 4 : 0);
		}
		_exit(3);
	}
	close(ready[1]);
	close(go[0]);
	pfd.fd = ready[0];
	pfd.events = POLLIN;
	if (poll(&pfd, 1, WAIT_MS) != 1 || read(ready[0], &c, 1) != 1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return failf("child did not start");
	}
	if (kill(pid, sig) || kill(pid, sig)) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return failf("kill(child, %d): %s", sig, strerror(errno));
	}
	usleep(100000);
	if (write(go[1], "G", 1) != 1)
		kill(pid, SIGKILL);
	close(go[1]);
	close(ready[0]);
	if (wait_child(pid, &status))
		return -1;
	if (WIFSIGNALED(status))
		return failf("child killed by signal %d", WTERMSIG(status));
	if (!WIFEXITED(status) || WEXITSTATUS(status) == 3)
		return failf("child did not finish (status 0x%x)", status);
	if (WEXITSTATUS(status) == 4)
		return failf("the ignored SIGINFO interrupted the child's poll() (EINTR)");
	if (WEXITSTATUS(status))
		return failf("child exit status %d", WEXITSTATUS(status));
	return 0;
}

static int info_frame(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set cur;
	size_t i;

	/* SIGINFO blocked; the handler of SIGUSR1 finds it in its frame */
	block_sigs(&sig, 1);
	snap_sig = SIGUSR1;
	frame_del = sig;
	frame_add = SIGUSR2;
	kill(getpid(), SIGUSR1);
	snap_sig = 0;
	if (seen[SIGUSR1] != 1)
		return failf("SIGUSR1 handler ran %d times", seen[SIGUSR1]);
	if (!ksig_has(&snap_frame, sig))
		return failf("uc_sigmask lacks bit 65 (bytes 8..15: %02x %02x ...)",
			     snap_frame.b[8], snap_frame.b[9]);
	if (ksig_has(&snap_frame, SIGUSR1))
		return failf("uc_sigmask has SIGUSR1: not the mask from before the handler");
	for (i = 0; i < ksz; i++) {
		unsigned char want = i == (size_t)(sig - 1) / 8 ? 1u << ((sig - 1) % 8) : 0;

		if (snap_frame.b[i] != want)
			return failf("uc_sigmask byte %zu is 0x%02x, want 0x%02x", i,
				     snap_frame.b[i], want);
	}
	if (!ksig_has(&snap_blocked, sig) || !ksig_has(&snap_blocked, SIGUSR1))
		return failf("blocked inside the handler lacks SIGINFO or SIGUSR1");
	/* sigreturn took the edited frame: SIGINFO unblocked, SIGUSR2 blocked */
	get_blocked(&cur);
	if (ksig_has(&cur, sig))
		return failf("SIGINFO still blocked after sigreturn from a frame without it");
	if (!ksig_has(&cur, SIGUSR2))
		return failf("SIGUSR2 set in the frame but not blocked after sigreturn");
	return 0;
}

static int info_sa_mask(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set mask, cur;

	/* sa_mask = { SIGINFO } for SIGUSR1, sigsetsize 16 */
	make_mask(&mask, ksz, &sig, 1);
	if (install(SIGUSR1, 0, &mask))
		return failf("rt_sigaction(SIGUSR1, sa_mask SIGINFO): %s", strerror(errno));
	snap_sig = SIGUSR1;
	kill(getpid(), SIGUSR1);
	if (seen[SIGUSR1] != 1)
		return failf("SIGUSR1 handler ran %d times", seen[SIGUSR1]);
	if (!ksig_has(&snap_blocked, sig))
		return failf("SIGINFO not blocked inside the handler (sa_mask)");
	if (ksig_has(&snap_frame, sig))
		return failf("uc_sigmask has SIGINFO, which was not blocked before");
	get_blocked(&cur);
	if (ksig_has(&cur, sig))
		return failf("SIGINFO still blocked after the handler returned");
	/* now set bit 65 in the frame: sigreturn must block SIGINFO */
	frame_add = sig;
	kill(getpid(), SIGUSR1);
	snap_sig = 0;
	frame_add = 0;
	get_blocked(&cur);
	if (!ksig_has(&cur, sig))
		return failf("bit 65 set in uc_sigmask, but SIGINFO not blocked after sigreturn");
	/* blocked for real: a kill() stays pending */
	kill(getpid(), sig);
	if (seen[sig])
		return failf("SIGINFO delivered although blocked by the frame");
	return 0;
}

static void run_info(void)
{
	int (*const fns[NR_INFO_CASES])(void) = {
		info_pending, info_handler, info_once, info_default_ignore,
		info_frame, info_sa_mask,
	};
	int i;

	for (i = 0; i < NR_INFO_CASES; i++) {
		if (!have_info) {
			ksft_test_result_skip("SIGINFO not in this kernel's uapi headers (%s)\n",
					      info_names[i]);
			continue;
		}
		reset();
		if (fns[i]())
			ksft_test_result_fail("%s: %s\n", info_names[i], why);
		else
			ksft_test_result_pass("%s\n", info_names[i]);
	}
	reset();
}

/* ---------------------------------------------------------------------- */
/* PTRACE_GETSIGMASK / PTRACE_SETSIGMASK */

#define NR_PTRACE_CASES	4

static const char *const ptrace_names[NR_PTRACE_CASES] = {
	"PTRACE_GETSIGMASK/SETSIGMASK with sigsetsize 8",
	"PTRACE_GETSIGMASK/SETSIGMASK with sigsetsize 16 and 128",
	"PTRACE_GETSIGMASK/SETSIGMASK reject sigsetsize 0, 7, 12, 129",
	"PTRACE_GETSIGMASK/SETSIGMASK bad pointers are EFAULT",
};

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

static int pt_size8(pid_t pid, struct ksig_set *last)
{
	int usr2 = SIGUSR2, sigs[] = { SIGUSR1, SIGKILL, SIGSTOP };
	struct ksig_set s, want;

	ksig_fill(&s, KSIG_FILL);
	if (getmask(pid, 8, s.b))
		return failf("GETSIGMASK(8): %s", strerror(errno));
	want_sigs(&want, &usr2, 1);
	if (check_out("GETSIGMASK", &s, &want, 8))
		return -1;
	make_mask(&s, 8, sigs, 3);
	if (setmask(pid, 8, s.b))
		return failf("SETSIGMASK(8): %s", strerror(errno));
	ksig_fill(&s, KSIG_FILL);
	getmask(pid, 8, s.b);
	want_sigs(&want, sigs, 1);	/* SIGKILL and SIGSTOP stripped */
	if (check_out("GETSIGMASK after SETSIGMASK", &s, &want, 8))
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
	/* 128 bytes in, with garbage past the kernel's sigset */
	make_mask(&s, 128, b, 2);
	if (setmask(pid, 128, s.b))
		return failf("SETSIGMASK(128): %s", strerror(errno));
	want_sigs(&want, b, 2);
	ksig_fill(&s, KSIG_FILL);
	getmask(pid, 128, s.b);
	if (check_out("GETSIGMASK after SETSIGMASK(128)", &s, &want, 128))
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
	getmask(pid, 8, before.b);
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
		getmask(pid, 8, after.b);
		if (memcmp(before.b, after.b, 8))
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
	getmask(pid, 8, before.b);
	errno = 0;
	r = getmask(pid, 8, unmapped);
	e = errno;
	if (expect_errno("GETSIGMASK into an unmapped page", r, e, EFAULT))
		return -1;
	errno = 0;
	r = setmask(pid, 8, unmapped);
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
	getmask(pid, 8, after.b);
	if (memcmp(before.b, after.b, 8))
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

	res[0] = pt_size8(pid, &last);
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

/* ---------------------------------------------------------------------- */
/* CONFIG_SIGNALS_DEBUG: /proc/sys/kernel/{...} and /proc/<pid>/signal */

#define NR_DEBUG_CASES	4

static const char *const debug_names[NR_DEBUG_CASES] = {
	"SIGNALS_DEBUG: max_signal, sigrtmax, sigset_size, compat_sigset_size",
	"SIGNALS_DEBUG: writing to /proc/<pid>/signal delivers the signal",
	"SIGNALS_DEBUG: /proc/<pid>/signal refuses who may not kill() (EPERM)",
	"SIGNALS_DEBUG: /proc/<pid>/signal rejects bad input",
};

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

static void run_debug(void)
{
	int (*const fns[NR_DEBUG_CASES])(void) = {
		debug_sysctl, debug_deliver, debug_eperm, debug_bad_input,
	};
	bool have = !access("/proc/sys/kernel/max_signal", F_OK);
	int i;

	for (i = 0; i < NR_DEBUG_CASES; i++) {
		if (!have) {
			ksft_test_result_skip("no /proc/sys/kernel/max_signal: kernel built without CONFIG_SIGNALS_DEBUG (%s)\n",
					      debug_names[i]);
			continue;
		}
		reset();
		why[0] = '\0';
		if (fns[i]())
			ksft_test_result_fail("%s: %s\n", debug_names[i], why);
		else
			ksft_test_result_pass("%s\n", debug_names[i]);
	}
	reset();
}

/* ---------------------------------------------------------------------- */
/* ^T sends SIGINFO after the status line */

#define NR_TTY_CASES	2
#define MARKER		"<nsig: SIGINFO>"

static const char *const tty_names[NR_TTY_CASES] = {
	"^T prints the status line, then SIGINFO reaches the foreground job",
	"^T with NOKERNINFO: no status line, SIGINFO still sent",
};

#if defined(VSTATUS) && KSIG_HAVE_SIGINFO

static int master = -1, slave = -1;
static pid_t sleeper;

static void on_tty_info(int sig)
{
	static const char m[] = MARKER "\n";

	(void)sig;
	if (write(STDOUT_FILENO, m, sizeof(m) - 1) < 0)
		_exit(5);
}

/* In the sleeper, before it takes the tty: catch SIGINFO, block nothing. */
static char sleeper_setup(void)
{
	struct ksig_sigaction sa;
	struct ksig_set none;

	ksig_set_handler(&sa, on_tty_info, SA_RESTART, NULL);
	if (ksig_action(KSIG_SIGINFO, &sa, NULL, ksz))
		return 'A';
	ksig_empty(&none);
	set_blocked(&none);
	return 0;
}

static int start_sleeper(void)
{
	char name[128];
	int pgrp = 0;

	master = pty_open(name, sizeof(name));
	if (master < 0)
		return failf("pty: %s", strerror(errno));
	sleeper = sleeper_start(master, name, "nsig-sleeper", sleeper_setup, WAIT_MS,
				why, sizeof(why));
	if (sleeper < 0)
		return -1;
	slave = open(name, O_RDWR | O_NOCTTY);
	if (slave < 0)
		return failf("open %s: %s", name, strerror(errno));
	if (ioctl(master, TIOCGPGRP, &pgrp) || pgrp != sleeper)
		return failf("foreground pgrp of %s is %d, sleeper is %d", name, pgrp,
			     (int)sleeper);
	return 0;
}

static void stop_sleeper(void)
{
	int status;

	if (sleeper > 0) {
		kill(sleeper, SIGKILL);
		wait_child(sleeper, &status);
	}
	sleeper = 0;
	if (slave >= 0)
		close(slave);
	if (master >= 0)
		close(master);
	slave = master = -1;
}

/* Everything the master gets until the marker is in, or the deadline. */
static size_t collect(char *buf, size_t room, int ms)
{
	long long deadline = now_ms() + ms;
	size_t len = 0;

	buf[0] = '\0';
	while (len + 1 < room && !memmem(buf, len, MARKER "\r\n", sizeof(MARKER) + 1)) {
		size_t n = read_some(master, buf + len, room - 1 - len, deadline);

		if (!n)
			break;
		len += n;
		buf[len] = '\0';
	}
	return len;
}

static void drain_master(void)
{
	char buf[512];

	ioctl(slave, TCFLSH, TCIOFLUSH);
	while (read_some(master, buf, sizeof(buf), now_ms() + 50))
		;
}

static int set_lflag(tcflag_t on, tcflag_t off)
{
	struct termios t;

	if (ioctl(slave, TCGETS, &t))
		return failf("TCGETS: %s", strerror(errno));
	t.c_lflag |= on;
	t.c_lflag &= ~off;
	t.c_cc[VSTATUS] = 0x14;
	if (ioctl(slave, TCSETS, &t))
		return failf("TCSETS: %s", strerror(errno));
	return 0;
}

static int count_str(const char *buf, size_t len, const char *what)
{
	const char *p = buf, *end = buf + len;
	int n = 0;

	while ((p = memmem(p, end - p, what, strlen(what)))) {
		n++;
		p += strlen(what);
	}
	return n;
}

static int tty_line_then_signal(void)
{
	char buf[4096], want[64];
	const char *line, *nl, *mark;
	size_t len;

	if (set_lflag(ICANON | ISIG | IEXTEN, 0))
		return -1;
#ifdef NOKERNINFO
	if (set_lflag(0, NOKERNINFO))
		return -1;
#endif
	drain_master();
	if (write(master, "\x14", 1) != 1)
		return failf("write ^T: %s", strerror(errno));
	len = collect(buf, sizeof(buf), LINE_WAIT_MS);
	line = memmem(buf, len, "load: ", 6);
	mark = memmem(buf, len, MARKER, strlen(MARKER));
	if (!line)
		return failf("no status line, master got \"%s\"", show(buf, len));
	nl = memchr(line, '\n', buf + len - line);
	if (!nl)
		return failf("status line not terminated: \"%s\"", show(buf, len));
	ksft_print_msg("%s\n", show(line, nl - line - (nl > line && nl[-1] == '\r')));
	snprintf(want, sizeof(want), "cmd: nsig-sleeper %d ", (int)sleeper);
	if (!memmem(line, nl - line, want, strlen(want)))
		return failf("status line lacks \"%s\"", want);
	if (!mark)
		return failf("no SIGINFO marker, master got \"%s\"", show(buf, len));
	if (mark < nl)
		return failf("SIGINFO marker before the end of the status line: \"%s\"",
			     show(buf, len));
	if (count_str(buf, len, MARKER) != 1)
		return failf("%d markers for one ^T", count_str(buf, len, MARKER));
	return 0;
}

static int tty_nokerninfo(void)
{
#ifdef NOKERNINFO
	char buf[4096];
	size_t len;
	int r = 0;

	if (set_lflag(ICANON | ISIG | IEXTEN | NOKERNINFO, 0))
		return -1;
	drain_master();
	if (write(master, "\x14", 1) != 1)
		return failf("write ^T: %s", strerror(errno));
	len = collect(buf, sizeof(buf), LINE_WAIT_MS);
	if (memmem(buf, len, "load:", 5))
		r = failf("status line printed despite NOKERNINFO: \"%s\"", show(buf, len));
	else if (count_str(buf, len, MARKER) != 1)
		r = failf("want one SIGINFO marker, master got \"%s\"", show(buf, len));
	set_lflag(0, NOKERNINFO);
	return r;
#else
	return 0;
#endif
}

static void run_tty(void)
{
	int r, i;

	reset();
	r = start_sleeper();
	if (r) {
		for (i = 0; i < NR_TTY_CASES; i++)
			ksft_test_result_fail("%s: setup: %s\n", tty_names[i], why);
		stop_sleeper();
		return;
	}
	result(tty_line_then_signal(), "%s\n", tty_names[0]);
#ifdef NOKERNINFO
	result(tty_nokerninfo(), "%s\n", tty_names[1]);
#else
	ksft_test_result_skip("NOKERNINFO not in this kernel's uapi headers (%s)\n",
			      tty_names[1]);
#endif
	stop_sleeper();
	reset();
}

#else /* VSTATUS && SIGINFO */

static void run_tty(void)
{
	int i;

	for (i = 0; i < NR_TTY_CASES; i++)
		ksft_test_result_skip("%s not in this kernel's uapi headers (%s)\n",
#ifdef VSTATUS
				      "SIGINFO",
#else
				      "VSTATUS",
#endif
				      tty_names[i]);
}

#endif /* VSTATUS && SIGINFO */

/* ---------------------------------------------------------------------- */

int main(void)
{
	struct sigaction sa;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(NR_CASES);
	ksft_print_msg("headers: SIGINFO %s, AT_SIGSET_SZ %s, _NSIG %d, kernel sigset_t %d bytes\n",
		       have_info ? "yes" : "no", have_sizes ? "yes" : "no", KSIG_NSIG,
		       KSIG_SIGSET_BYTES);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))	/* no SA_RESTART */
		ksft_exit_fail_msg("sigaction(SIGALRM): %s\n", strerror(errno));

	test_sigs[nr_test_sigs++] = SIGUSR1;
	test_sigs[nr_test_sigs++] = SIGUSR2;
	test_sigs[nr_test_sigs++] = SIGRT2;
	if (have_info)
		test_sigs[nr_test_sigs++] = KSIG_SIGINFO;
	setup_bad_pointers();
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		ksft_exit_fail_msg("epoll_create1: %s\n", strerror(errno));

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		run_call(&calls[i]);
	run_leaks();
	test_auxv();
	run_info();
	run_ptrace();
	run_debug();
	run_tty();

	close(epfd);
	if (ksft_get_xskip_cnt() == NR_CASES) {
		ksft_print_cnts();
		return KSFT_SKIP;
	}
	ksft_finished();
	return 0;
}
