// SPDX-License-Identifier: GPL-2.0
/*
 * nsig_sizes.c - libc's sigsetsize (8; MIPS's 16, the only one a kernel
 * without the series takes), 16..128, 0, 7, 12 and 129 and bad
 * pointers for each system call that takes a sigset (rt_sigprocmask,
 * rt_sigpending, rt_sigsuspend, rt_sigtimedwait, rt_sigaction, signalfd4,
 * ppoll, pselect6, epoll_pwait); no kernel stack in the masks it writes
 * back; bits past the last signal dropped; a mask too short to name
 * SIGINFO that replaces the blocked set keeps SIGINFO as it was;
 * AT_SIGSET_SZ in the auxiliary vector.
 *
 * What the nsig programs share, and how they treat headers and kernels
 * without the series: nsig.h.
 */
#include "nsig.h"

#include <sys/auxv.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/signalfd.h>

/* The other bad user pointer: a never mapped low address. */
static void *bad_low = (void *)1;

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
	/* SIGKILL cannot be blocked; the bits past the last signal are dropped */
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

	/*
	 * A mask shorter than the kernel's cannot name SIGINFO.  SIG_BLOCK
	 * adds nothing past it; SIG_SETMASK replaces only what it names and
	 * keeps SIGINFO blocked or unblocked as it was (what a libc that
	 * passes 8 bytes, in sigprocmask() or siglongjmp(), needs).
	 */
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
		if (!ksig_has(&cur, KSIG_SIGINFO) || !ksig_has(&cur, SIGUSR2))
			return failf("SIG_SETMASK with sigsetsize %zu: SIGINFO %s, SIGUSR2 %s (want kept, set)",
				     size, ksig_has(&cur, KSIG_SIGINFO) ? "kept" : "cleared",
				     ksig_has(&cur, SIGUSR2) ? "set" : "missing");
		/* kept, not set: an unblocked SIGINFO stays unblocked */
		make_mask(&set, ksz, info, 1);
		ksig_procmask(SIG_UNBLOCK, &set, NULL, ksz);
		make_mask(&set, size, usr2, 1);
		if (ksig_procmask(SIG_SETMASK, &set, NULL, size))
			return failf("SIG_SETMASK, sigsetsize %zu: %s", size, strerror(errno));
		get_blocked(&cur);
		if (ksig_has(&cur, KSIG_SIGINFO) || !ksig_has(&cur, SIGUSR2))
			return failf("SIG_SETMASK with sigsetsize %zu from SIGINFO unblocked: SIGINFO %s, SIGUSR2 %s (want unblocked, set)",
				     size, ksig_has(&cur, KSIG_SIGINFO) ? "blocked" : "unblocked",
				     ksig_has(&cur, SIGUSR2) ? "set" : "missing");
	}

	/*
	 * Every byte 0xff, as a filled 1024-bit sigset_t passed whole: only
	 * the kernel's signals stick (less SIGKILL and SIGSTOP), none of the
	 * bits of its sigset_t past _NSIG, which name no signal.
	 */
	if (have_sizes && size >= ksz) {
		char what[80];
		int sig;

		ksig_fill(&set, 0xff);
		if (ksig_procmask(SIG_SETMASK, &set, NULL, size))
			return failf("SIG_SETMASK of all 0xff, sigsetsize %zu: %s", size,
				     strerror(errno));
		ksig_fill(&cur, KSIG_FILL);
		if (ksig_procmask(SIG_BLOCK, NULL, &cur, size))
			return failf("read back, sigsetsize %zu: %s", size, strerror(errno));
		ksig_empty(&want);
		for (sig = 1; sig <= KSIG_NSIG; sig++)
			if (sig != SIGKILL && sig != SIGSTOP)
				ksig_add(&want, sig);
		snprintf(what, sizeof(what), "read back of all 0xff (want signals 1..%d only)",
			 KSIG_NSIG);
		if (check_out(what, &cur, &want, size))
			return -1;
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

/*
 * rt_sigpending() copies any size below this one: 0..7 with the series;
 * before it, any size up to the kernel's sigset_t (libc's: 8, MIPS's 16),
 * the larger ones EINVAL.
 */
static size_t pending_copies_below(void)
{
	return have_sizes ? KSIG_SIZE_MIN : libc_sz;
}

/* Sizes below that copy that many bytes, as before the series; 12, 129 fail */
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
	if (size < pending_copies_below()) {
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
	if (size == libc_sz) {
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

/*
 * rt_sigsuspend() and the temporary masks of ppoll() and the like replace
 * the blocked set for the wait.  SIGINFO, where the kernel has it, is
 * blocked and pending before it at every size: a mask that names it
 * (16..128) blocks it by bit 65; one too short to name it (8) must keep it
 * blocked as it was, not unblock it.  Either way it stays pending.
 */
static int suspend_work(size_t size)
{
	int info = info_for(size);	/* in the mask where the size names it */
	int pinfo = have_info ? KSIG_SIGINFO : 0;
	int blk[] = { SIGUSR1, pinfo };
	struct ksig_set tmp, cur, want, pend;
	long r;
	int e;

	block_sigs(blk, 2);
	send_sig(SIGUSR1);
	if (pinfo)
		send_sig(pinfo);
	/* wait with SIGUSR1 unblocked and SIGINFO blocked */
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
	if (pinfo && seen[pinfo])
		return failf("sigsetsize %zu: SIGINFO delivered during the wait, though %s",
			     size, info ? "bit 65 of the mask blocked it" :
			     "blocked before and not named by the mask (want kept)");
	get_blocked(&cur);
	want_sigs(&want, blk, 2);
	if (memcmp(cur.b, want.b, ksz))
		return failf("sigsetsize %zu: mask not restored after the handler", size);
	if (pinfo) {
		get_pending(&pend);
		if (!ksig_has(&pend, pinfo))
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
	if (ksig_action(SIGUSR2, NULL, &oact, libc_sz))
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

/* As suspend_work(): SIGINFO blocked during the wait, by bit 65 or kept */
static int tempmask_work(wait_fn fn, size_t size)
{
	int info = info_for(size);
	int pinfo = have_info ? KSIG_SIGINFO : 0;
	int blk[] = { SIGUSR1, pinfo };
	struct ksig_set tmp, cur, want, pend;
	long r;
	int e;

	block_sigs(blk, 2);
	send_sig(SIGUSR1);
	if (pinfo)
		send_sig(pinfo);
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
	if (pinfo && seen[pinfo])
		return failf("sigsetsize %zu: SIGINFO delivered during the wait, though %s",
			     size, info ? "bit 65 of the mask blocked it" :
			     "blocked before and not named by the mask (want kept)");
	get_blocked(&cur);
	want_sigs(&want, blk, 2);
	if (memcmp(cur.b, want.b, ksz))
		return failf("sigsetsize %zu: mask not restored", size);
	if (pinfo) {
		get_pending(&pend);
		if (!ksig_has(&pend, pinfo))
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


/* Every call prints these results: libc's sigsetsize, 16..128, the bad
 * sizes and the bad pointers. */
#define RESULTS_PER_CALL	4

static void run_call(const struct sc *c)
{
	const char *skip = "AT_SIGSET_SZ not in this kernel's uapi headers (no variable sigsetsize)";
	size_t size, i;
	char fmt[128];
	int r;

	reset();
	r = c->work(libc_sz);
	reset();
	snprintf(fmt, sizeof(fmt), "%%s: sigsetsize %zu\n", libc_sz);
	result(r, fmt, c->name);

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
		/* all of 0..7 (0..15 on MIPS before the series) as on base */
		for (size = 1; size < pending_copies_below() && !r; size++) {
			r = c->bad_size(size);
			reset();
		}
		snprintf(fmt, sizeof(fmt),
			 "%%s: sigsetsize 0..%zu copies that many bytes, %s EINVAL\n",
			 pending_copies_below() - 1,
			 pending_copies_below() > 12 ? "129 is" : "12 and 129 are");
		result(r, fmt, c->name);
	} else {
		result(r, "%s: sigsetsize 0, 7, 12, 129 are EINVAL\n", c->name);
	}

	r = c->efault(libc_sz);
	reset();
	if (!r && have_sizes) {
		if (libc_sz < 16)
			r = c->efault(16);
		reset();
		if (!r)
			r = c->efault(KSIG_SIZE_MAX);
		reset();
	}
	if (have_sizes)
		snprintf(fmt, sizeof(fmt), "%%s: bad pointers are EFAULT (sigsetsize %zu%s, 128)\n",
			 libc_sz, libc_sz < 16 ? ", 16" : "");
	else
		snprintf(fmt, sizeof(fmt), "%%s: bad pointers are EFAULT (sigsetsize %zu)\n",
			 libc_sz);
	result(r, fmt, c->name);
}

/*
 * No kernel stack past the kernel's sigset: every mask the kernel writes
 * back, at every size, is zero from the kernel's sigset_t to sigsetsize
 * and leaves the bytes past sigsetsize alone.  The signals blocked,
 * pending or in sa_mask are the same at every size, so that the check
 * also covers the bits of the kernel's sigset past its last signal.
 */
/* KSIG_SIGINFO is 0 (no signal) where the headers lack SIGINFO. */
static const int leak_sigs[] = { SIGUSR1, SIGRT2, KSIG_SIGINFO };
#define NR_LEAK_SIGS	((int)ARRAY_SIZE(leak_sigs))

static size_t last_size(void)
{
	return have_sizes ? KSIG_SIZE_MAX : libc_sz;
}

static int leak_procmask(void)
{
	struct ksig_set s, want;
	size_t size;
	int r = 0;

	block_sigs(leak_sigs, NR_LEAK_SIGS);
	for (size = libc_sz; size <= last_size() && !r; size += 8) {
		ksig_fill(&s, KSIG_FILL);
		if (ksig_procmask(SIG_BLOCK, NULL, &s, size))
			return failf("sigsetsize %zu: %s", size, strerror(errno));
		want_sigs(&want, leak_sigs, NR_LEAK_SIGS);
		r = check_out("old mask", &s, &want, size);
	}
	return r;
}

static int leak_pending(void)
{
	int i;
	struct ksig_set s, want;
	size_t size;
	int r = 0;

	block_sigs(leak_sigs, NR_LEAK_SIGS);
	for (i = 0; i < NR_LEAK_SIGS; i++)
		if (leak_sigs[i])
			send_sig(leak_sigs[i]);
	for (size = libc_sz; size <= last_size() && !r; size += 8) {
		ksig_fill(&s, KSIG_FILL);
		if (ksig_pending(&s, size))
			return failf("sigsetsize %zu: %s", size, strerror(errno));
		want_sigs(&want, leak_sigs, NR_LEAK_SIGS);
		r = check_out("pending set", &s, &want, size);
	}
	return r;
}

static int leak_action(void)
{
	struct ksig_sigaction act, oact;
	struct ksig_set s, mask;
	size_t size;
	int r = 0;

	want_sigs(&mask, leak_sigs, NR_LEAK_SIGS);
	ksig_set_handler(&act, on_sig, KSIG_SA_SIGINFO, &mask);
	if (ksig_action(SIGUSR2, &act, NULL, ksz))
		return failf("install: %s", strerror(errno));
	for (size = libc_sz; size <= last_size() && !r; size += 8) {
		memset(&oact, KSIG_FILL, sizeof(oact));
		if (ksig_action(SIGUSR2, NULL, &oact, size))
			return failf("sigsetsize %zu: %s", size, strerror(errno));
		memcpy(s.b, oact.mask, sizeof(s.b));
		r = check_out("sa_mask", &s, &mask, size);
	}
	return r;
}

static const struct {
	const char *call;
	const char *what;
	int (*fn)(void);
} leaks[] = {
	{ "rt_sigprocmask", "old mask", leak_procmask },
	{ "rt_sigpending", "pending set", leak_pending },
	{ "rt_sigaction", "sa_mask", leak_action },
};

static void run_leaks(void)
{
	char range[32];
	char name[128];
	size_t i;
	int r;

	if (have_sizes)
		snprintf(range, sizeof(range), "sigsetsize %zu..128", libc_sz);
	else
		snprintf(range, sizeof(range), "sigsetsize %zu", libc_sz);
	for (i = 0; i < ARRAY_SIZE(leaks); i++) {
		reset();
		why[0] = '\0';
		r = leaks[i].fn();
		reset();
		snprintf(name, sizeof(name), "%s (%s): %s zero filled, nothing written past it",
			 leaks[i].call, range, leaks[i].what);
		result(r, "%s\n", name);
	}
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

int main(void)
{
	size_t i;

	nsig_begin(ARRAY_SIZE(calls) * RESULTS_PER_CALL + ARRAY_SIZE(leaks) + 1);
	epfd = epoll_create1(EPOLL_CLOEXEC);
	if (epfd < 0)
		ksft_exit_fail_msg("epoll_create1: %s\n", strerror(errno));
	for (i = 0; i < ARRAY_SIZE(calls); i++)
		run_call(&calls[i]);
	run_leaks();
	test_auxv();
	close(epfd);
	return nsig_end(ARRAY_SIZE(calls) * RESULTS_PER_CALL + ARRAY_SIZE(leaks) + 1);
}
