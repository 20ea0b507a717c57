// SPDX-License-Identifier: GPL-2.0
/*
 * nsig_compat.m32.c - the signal system calls of 32-bit programs in a
 * 64-bit kernel's compat layer, with the nsig series: built with gcc -m32
 * and run on the x86-64 kernel (IA32_EMULATION), or built for 32-bit arm
 * and run on the arm64 kernel (COMPAT, arch/arm64/kernel/signal32.c).
 *
 * The legacy calls (sigaction 67, sigsuspend 72, sigprocmask 126 on both,
 * with a
 * 32-bit old_sigset_t) must behave as before the series: round trips,
 * sa_mask blocked while the handler runs, sigsuspend() waiting with its own
 * mask and restoring the old one.  The compat rt_*() calls (rt_sigprocmask,
 * rt_sigpending, rt_sigaction, rt_sigtimedwait and its time64 twin) take
 * sigsetsize 8 everywhere and, where the headers have AT_SIGSET_SZ, 16..128
 * in steps of 8; 0, 7, 12 and 129 are EINVAL (rt_sigpending keeps taking
 * 0..7); bad pointers are EFAULT.  rt_sigtimedwait with a 32-bit timespec
 * (177) exists only with CONFIG_COMPAT_32BIT_TIME: where it is ENOSYS its
 * cases are skipped, saying so (the smoke config, on top of tinyconfig,
 * does not have it).
 *
 * A compat mask names the signals its task's frames save and restore
 * (the series' COMPAT_SIGMASK_NSIG): on x86 all of the kernel's, since the
 * ia32 frames keep the mask past 64 (UC_SIGMASK_EXT), so a 32-bit program
 * blocks, waits for and gets back SIGINFO (65) as a 64-bit one does; on
 * arm64 the 64 of compat_sigset_t (32-bit arm has no SIGINFO).  Bits past
 * those (CLAST) are ignored on the way in and zero on the way out.  A
 * compat mask of 8 bytes that replaces the blocked set (SIG_SETMASK) keeps
 * SIGINFO as it was.  No 32-bit signal frame may leave stale bits in the
 * blocked mask past the first 64 signals: after 32-bit handlers return,
 * SIGINFO must still be deliverable.
 *
 * Raw calls through glibc's 32-bit syscall() (i386: int $0x80 or the
 * vDSO's sysenter; arm: svc 0; each enters the compat syscall table).
 * Built for a 64-bit target it only reports that it skipped.
 */
#define _GNU_SOURCE
#include "ksig.h"		/* before libc's <signal.h> */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/syscall.h>

#include "kselftest.h"
#include "ksig_case.h"

#define NR_CASES	27

#if !defined(__i386__) && !defined(__arm__)

/*
 * MIPS's 32-bit ABIs (o32, n32) are compat tasks too, but theirs is another
 * ABI: compat_sigset_t holds 128 signals there (_COMPAT_NSIG), and the
 * legacy calls take other numbers and layouts.  The cases below are the
 * 64-signal compat layer's; on MIPS they say so and skip.
 */
#if defined(__mips__)
#define WHY_NOT	"MIPS 32-bit ABI: 128 compat signals, not the 64 these cases are about"
#else
#define WHY_NOT	"not a 32-bit build (compile with -m32, or for 32-bit arm)"
#endif

int main(void)
{
	int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(NR_CASES);
	for (i = 0; i < NR_CASES; i++)
		ksft_test_result_skip(WHY_NOT "\n");
	ksft_print_cnts();
	return KSFT_SKIP;
}

#else /* __i386__ || __arm__ */

#define CSZ		8	/* compat_sigset_t: 64 signals */
#define SIGRT2		34

/* The last signal a compat mask names: the kernel's on x86, 64 on arm64. */
#ifdef __i386__
#define CLAST		KSIG_NSIG
#else
#define CLAST		64
#endif

static const bool have_sizes = KSIG_HAVE_AT_SIGSET_SZ;
static const bool have_info = KSIG_HAVE_SIGINFO;

static volatile int seen[KSIG_BUF];
static volatile int seen_code[KSIG_BUF];
static volatile int seen_val[KSIG_BUF];
static volatile uint32_t in_handler_old;	/* legacy mask inside a handler */
static volatile int nest_sig;			/* sent from inside on_rt */
static volatile int nested_ok;			/* ... and delivered there */
static struct ksig_set in_handler;		/* compat rt mask inside a handler */

/* Legacy calls: old_sigset_t is 32 bits. */
struct old_sigaction32 {
	uint32_t handler;
	uint32_t mask;
	uint32_t flags;
	uint32_t restorer;
};

static long old_sigprocmask(int how, const uint32_t *set, uint32_t *old)
{
	return syscall(SYS_sigprocmask, how, set, old);
}

static long old_sigaction(int sig, const struct old_sigaction32 *act,
			  struct old_sigaction32 *old)
{
	return syscall(SYS_sigaction, sig, act, old);
}

static long old_sigsuspend(uint32_t mask)
{
	return syscall(SYS_sigsuspend, 0, 0, mask);
}

static uint32_t bit(int sig)
{
	return 1u << (sig - 1);
}

/* A handler for legacy (non-rt) frames and one for rt frames. */
static void on_old(int sig)
{
	if (sig <= 0 || sig >= KSIG_BUF)
		return;
	seen[sig]++;
	old_sigprocmask(SIG_BLOCK, NULL, (uint32_t *)&in_handler_old);
}

static void on_rt(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	if (sig <= 0 || sig >= KSIG_BUF)
		return;
	seen[sig]++;
	seen_code[sig] = si->si_code;
	seen_val[sig] = si->si_value.sival_int;
	ksig_fill(&in_handler, 0);
	ksig_procmask(SIG_BLOCK, NULL, &in_handler, CSZ);
	if (nest_sig && sig != nest_sig) {
		int before = seen[nest_sig];

		kill(getpid(), nest_sig);
		nested_ok = seen[nest_sig] == before + 1;
	}
}

static int install_rt(int sig, const struct ksig_set *mask)
{
	struct ksig_sigaction sa;

	ksig_set_handler(&sa, on_rt, KSIG_SA_SIGINFO, mask);
	return ksig_action(sig, &sa, NULL, CSZ);
}

static int install_old(int sig, uint32_t mask)
{
	struct old_sigaction32 sa = {
		.handler = (uint32_t)on_old,
		.mask = mask,
		.flags = KSIG_SA_RESTORER,
		.restorer = (uint32_t)ksig_restore,
	};

	return old_sigaction(sig, &sa, NULL);
}

static void set_ign(int sig)
{
	struct ksig_sigaction sa;

	ksig_set_handler(&sa, NULL, 0, NULL);
	sa.handler = (unsigned long)SIG_IGN;
	ksig_action(sig, &sa, NULL, CSZ);
}

static void reset(void)
{
	int sigs[] = { SIGUSR1, SIGUSR2, SIGRT2, have_info ? KSIG_SIGINFO : 0 };
	struct ksig_set none;
	int i;

	for (i = 0; i < 4; i++)
		if (sigs[i])
			set_ign(sigs[i]);
	/* with every signal the kernel has: 8 bytes would keep SIGINFO */
	ksig_empty(&none);
	ksig_procmask(SIG_SETMASK, &none, NULL, have_sizes ? KSIG_SIGSET_BYTES : CSZ);
	for (i = 0; i < 4; i++)
		if (sigs[i])
			install_rt(sigs[i], NULL);
	for (i = 0; i < KSIG_BUF; i++) {
		seen[i] = 0;
		seen_code[i] = 0;
		seen_val[i] = 0;
	}
	in_handler_old = 0;
	nest_sig = 0;
}

/* sigs, plus every bit past CLAST up to size: they name no signal */
static void make_mask(struct ksig_set *s, size_t size, const int *sigs, int n)
{
	int sig;

	want_sigs(s, sigs, n);
	for (sig = CLAST + 1; sig <= (int)size * 8; sig++)
		ksig_add(s, sig);
}

static int block_sigs(const int *sigs, int n)
{
	struct ksig_set s;

	want_sigs(&s, sigs, n);
	return ksig_procmask(SIG_BLOCK, &s, NULL, CSZ);
}

static void get_blocked(struct ksig_set *s)
{
	ksig_empty(s);
	ksig_procmask(SIG_BLOCK, NULL, s, CSZ);
}

static int check_out(const char *what, const struct ksig_set *got,
		     const struct ksig_set *want, size_t size)
{
	size_t i;

	for (i = 0; i < size; i++)
		if (got->b[i] != want->b[i])
			return failf("%s, sigsetsize %zu: byte %zu is 0x%02x, want 0x%02x%s",
				     what, size, i, got->b[i], want->b[i],
				     i * 8 >= CLAST ? " (past the signals compat names: leak?)" : "");
	for (i = size; i < KSIG_BUF; i++)
		if (got->b[i] != KSIG_FILL)
			return failf("%s, sigsetsize %zu: byte %zu past the mask was written",
				     what, size, i);
	return 0;
}

static int expect_errno(const char *what, long r, int e, int want)
{
	if (r != -1 || e != want)
		return failf("%s returned %ld errno %d, want -1/%s", what, r,
			     r == -1 ? e : 0, strerror(want));
	return 0;
}

static void *bad_low = (void *)1;
static unsigned char *unmapped;

static void result(int r, const char *name)
{
	if (r)
		ksft_test_result_fail("%s: %s\n", name, why);
	else
		ksft_test_result_pass("%s\n", name);
}

/* ---------------------------------------------------------------------- */
/* Legacy calls */

static int legacy_procmask(void)
{
	uint32_t set, old = 0xdeadbeef, cur = 0;

	set = bit(SIGUSR1);
	if (old_sigprocmask(SIG_BLOCK, &set, &old))
		return failf("SIG_BLOCK: %s", strerror(errno));
	if (old)
		return failf("old mask 0x%08x, want 0", old);
	old_sigprocmask(SIG_BLOCK, NULL, &cur);
	if (cur != bit(SIGUSR1))
		return failf("after SIG_BLOCK SIGUSR1: 0x%08x", cur);
	set = bit(SIGUSR2) | bit(SIGHUP) | bit(SIGKILL) | bit(SIGSTOP) | bit(31);
	if (old_sigprocmask(SIG_SETMASK, &set, &old))
		return failf("SIG_SETMASK: %s", strerror(errno));
	old_sigprocmask(SIG_BLOCK, NULL, &cur);
	if (old != bit(SIGUSR1) || cur != (bit(SIGUSR2) | bit(SIGHUP) | bit(31)))
		return failf("SIG_SETMASK: old 0x%08x new 0x%08x", old, cur);
	set = bit(SIGUSR2);
	old_sigprocmask(SIG_UNBLOCK, &set, NULL);
	old_sigprocmask(SIG_BLOCK, NULL, &cur);
	if (cur != (bit(SIGHUP) | bit(31)))
		return failf("SIG_UNBLOCK SIGUSR2: 0x%08x", cur);
	/* the compat rt view of the same mask */
	{
		struct ksig_set s;

		get_blocked(&s);
		if (memcmp(s.b, &cur, 4) || s.b[4] || s.b[5] || s.b[6] || s.b[7])
			return failf("rt_sigprocmask(8) disagrees with sigprocmask");
	}
	return 0;
}

static int legacy_action_roundtrip(void)
{
	struct old_sigaction32 act = {
		.handler = (uint32_t)on_old,
		.mask = bit(SIGUSR2) | bit(SIGHUP),
		.flags = KSIG_SA_RESTORER | SA_RESTART,
		.restorer = (uint32_t)ksig_restore,
	}, old;
	struct ksig_sigaction rt;

	if (old_sigaction(SIGUSR1, &act, NULL))
		return failf("sigaction: %s", strerror(errno));
	memset(&old, 0xa5, sizeof(old));
	if (old_sigaction(SIGUSR1, NULL, &old))
		return failf("read back: %s", strerror(errno));
	if (old.handler != act.handler || old.mask != act.mask ||
	    (old.flags & act.flags) != act.flags || old.restorer != act.restorer)
		return failf("read back handler %#x mask %#x flags %#x restorer %#x",
			     old.handler, old.mask, old.flags, old.restorer);
	/* and through compat rt_sigaction: same mask, rest zero */
	memset(&rt, KSIG_FILL, sizeof(rt));
	if (ksig_action(SIGUSR1, NULL, &rt, CSZ))
		return failf("rt_sigaction read back: %s", strerror(errno));
	if (rt.handler != act.handler || memcmp(rt.mask, &act.mask, 4) ||
	    rt.mask[4] || rt.mask[5] || rt.mask[6] || rt.mask[7])
		return failf("rt_sigaction sees handler %#lx mask %02x%02x%02x%02x",
			     rt.handler, rt.mask[3], rt.mask[2], rt.mask[1], rt.mask[0]);
	return 0;
}

static int legacy_action_handler(void)
{
	uint32_t cur = 0;

	if (install_old(SIGUSR1, bit(SIGUSR2)))
		return failf("sigaction: %s", strerror(errno));
	send_sig(SIGUSR1);
	if (seen[SIGUSR1] != 1)
		return failf("handler ran %d times", seen[SIGUSR1]);
	if (in_handler_old != (bit(SIGUSR1) | bit(SIGUSR2)))
		return failf("mask in the handler 0x%08x, want SIGUSR1|SIGUSR2 (sa_mask)",
			     in_handler_old);
	old_sigprocmask(SIG_BLOCK, NULL, &cur);
	if (cur)
		return failf("mask after sigreturn 0x%08x, want 0", cur);
	return 0;
}

static int legacy_sigsuspend(void)
{
	uint32_t set = bit(SIGUSR1) | bit(SIGUSR2), cur = 0, pend = 0;
	struct ksig_set p;
	long r;
	int e;

	if (install_old(SIGUSR1, 0) || install_old(SIGUSR2, 0))
		return failf("sigaction: %s", strerror(errno));
	old_sigprocmask(SIG_BLOCK, &set, NULL);
	send_sig(SIGUSR1);
	send_sig(SIGUSR2);
	/* wait with SIGUSR2 still blocked: only SIGUSR1 may be handled */
	guard();
	errno = 0;
	r = old_sigsuspend(bit(SIGUSR2));
	e = errno;
	unguard();
	if (r != -1 || e != EINTR)
		return failf("returned %ld errno %d, want -1/EINTR", r, e);
	if (alarm_fired)
		return failf("woken by the guard alarm");
	if (seen[SIGUSR1] != 1)
		return failf("SIGUSR1 handler ran %d times", seen[SIGUSR1]);
	if (seen[SIGUSR2])
		return failf("SIGUSR2 delivered although blocked by the sigsuspend mask");
	if (in_handler_old != (bit(SIGUSR1) | bit(SIGUSR2)))
		return failf("mask in the handler 0x%08x, want the sigsuspend mask + SIGUSR1",
			     in_handler_old);
	old_sigprocmask(SIG_BLOCK, NULL, &cur);
	if (cur != set)
		return failf("mask after sigsuspend 0x%08x, want 0x%08x", cur, set);
	ksig_empty(&p);
	ksig_pending(&p, CSZ);
	memcpy(&pend, p.b, 4);
	if (!(pend & bit(SIGUSR2)))
		return failf("SIGUSR2 no longer pending");
	return 0;
}

/* ---------------------------------------------------------------------- */
/* compat rt_*() */

static int procmask_work(size_t size)
{
	int info = have_info && size > CSZ ? KSIG_SIGINFO : 0;
	int sigs[] = { SIGUSR1, SIGRT2, SIGKILL, info };
	struct ksig_set set, old, cur, want;

	make_mask(&set, size, sigs, 4);
	ksig_fill(&old, KSIG_FILL);
	if (ksig_procmask(SIG_SETMASK, &set, &old, size))
		return failf("SIG_SETMASK, sigsetsize %zu: %s", size, strerror(errno));
	ksig_empty(&want);
	if (check_out("old mask", &old, &want, size))
		return -1;
	ksig_fill(&cur, KSIG_FILL);
	if (ksig_procmask(SIG_BLOCK, NULL, &cur, size))
		return failf("read back, sigsetsize %zu: %s", size, strerror(errno));
	/* no SIGKILL; SIGINFO where compat names it; nothing past CLAST */
	want_sigs(&want, sigs, 2);
	if (info && info <= CLAST)
		ksig_add(&want, info);
	if (check_out("read back", &cur, &want, size))
		return -1;
	make_mask(&set, size, sigs, 1);
	if (ksig_procmask(SIG_UNBLOCK, &set, NULL, size))
		return failf("SIG_UNBLOCK, sigsetsize %zu: %s", size, strerror(errno));
	ksig_fill(&cur, KSIG_FILL);
	ksig_procmask(SIG_BLOCK, NULL, &cur, size);
	want_sigs(&want, sigs + 1, 1);
	if (info && info <= CLAST)
		ksig_add(&want, info);
	return check_out("after SIG_UNBLOCK", &cur, &want, size);
}

static int procmask_bad(size_t size)
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
		return failf("EINVAL but the old mask was written");
	get_blocked(&cur);
	if (ksig_has(&cur, SIGUSR2))
		return failf("EINVAL but SIGUSR2 got blocked");
	return 0;
}

static int procmask_efault(size_t size)
{
	long r;
	int e;

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
	errno = 0;
	r = syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, unmapped, size);
	e = errno;
	if (expect_errno("oldset in an unmapped page", r, e, EFAULT))
		return -1;
	if (size > CSZ) {
		errno = 0;
		r = syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, unmapped - CSZ, size);
		e = errno;
		if (expect_errno("oldset whose tail is unmapped", r, e, EFAULT))
			return -1;
	}
	return 0;
}

static int pending_work(size_t size)
{
	int sigs[] = { SIGUSR1, SIGUSR2, SIGRT2 };
	struct ksig_set p, want;

	block_sigs(sigs, 3);
	send_sig(SIGUSR1);
	send_sig(SIGUSR2);
	send_sig(SIGRT2);
	ksig_fill(&p, KSIG_FILL);
	if (ksig_pending(&p, size))
		return failf("sigsetsize %zu: %s", size, strerror(errno));
	want_sigs(&want, sigs, 3);
	return check_out("pending", &p, &want, size);
}

static int pending_bad(size_t size)
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
			return failf("sigsetsize %zu returned %ld errno %d, want 0 as on base",
				     size, r, e);
		want_sigs(&want, sigs, 2);
		return check_out("pending", &p, &want, size);
	}
	if (expect_errno("rt_sigpending", r, e, EINVAL))
		return -1;
	if (ksig_find_not(&p, 0, KSIG_BUF, KSIG_FILL) >= 0)
		return failf("EINVAL but the set was written");
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
	if (size > CSZ) {
		errno = 0;
		r = syscall(SYS_rt_sigpending, unmapped - CSZ, size);
		e = errno;
		if (expect_errno("set whose tail is unmapped", r, e, EFAULT))
			return -1;
	}
	return 0;
}

static int action_work(size_t size)
{
	int sigs[] = { SIGUSR1, SIGRT2 }, inh[] = { SIGUSR1, SIGRT2, SIGUSR2 };
	struct ksig_sigaction act, oact;
	struct ksig_set mask, want, m;

	make_mask(&mask, size, sigs, 2);
	ksig_set_handler(&act, on_rt, KSIG_SA_SIGINFO, &mask);
	memset(&oact, KSIG_FILL, sizeof(oact));
	if (ksig_action(SIGUSR2, &act, &oact, size))
		return failf("install, sigsetsize %zu: %s", size, strerror(errno));
	if (oact.handler != (unsigned long)on_rt)
		return failf("old handler %#lx", oact.handler);
	memcpy(m.b, oact.mask, sizeof(m.b));
	ksig_empty(&want);
	if (check_out("old sa_mask", &m, &want, size))
		return -1;
	memset(&oact, KSIG_FILL, sizeof(oact));
	if (ksig_action(SIGUSR2, NULL, &oact, size))
		return failf("read back, sigsetsize %zu: %s", size, strerror(errno));
	memcpy(m.b, oact.mask, sizeof(m.b));
	want_sigs(&want, sigs, 2);
	if (oact.handler != (unsigned long)on_rt ||
	    (oact.flags & (KSIG_SA_SIGINFO | KSIG_SA_RESTORER)) !=
	    (KSIG_SA_SIGINFO | KSIG_SA_RESTORER) ||
	    oact.restorer != (unsigned long)ksig_restore_rt)
		return failf("read back, sigsetsize %zu: handler %#lx flags %#lx restorer %#lx",
			     size, oact.handler, oact.flags, oact.restorer);
	if (check_out("read back sa_mask", &m, &want, size))
		return -1;
	send_sig(SIGUSR2);
	if (seen[SIGUSR2] != 1)
		return failf("sigsetsize %zu: handler ran %d times", size, seen[SIGUSR2]);
	want_sigs(&want, inh, 3);
	if (memcmp(in_handler.b, want.b, CSZ))
		return failf("sigsetsize %zu: mask in the handler is not sa_mask + SIGUSR2", size);
	get_blocked(&m);
	ksig_empty(&want);
	if (memcmp(m.b, want.b, CSZ))
		return failf("sigsetsize %zu: mask not restored by rt_sigreturn", size);
	return 0;
}

static int action_bad(size_t size)
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
	if (expect_errno("rt_sigaction", r, e, EINVAL))
		return -1;
	if (oact.handler != 0xa5a5a5a5ul)
		return failf("EINVAL but the old action was written");
	if (ksig_action(SIGUSR2, NULL, &oact, CSZ) || oact.handler != (unsigned long)on_rt)
		return failf("EINVAL but the handler changed");
	return 0;
}

static int action_efault(size_t size)
{
	long r;
	int e;

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
	return expect_errno("oact in an unmapped page", r, e, EFAULT);
}

struct ts32 {
	int32_t sec, nsec;
};

struct ts64 {
	int64_t sec, nsec;
};

/* rt_sigtimedwait (177) needs CONFIG_COMPAT_32BIT_TIME; _time64 (421) not */
static bool no_time32;

static long timedwait32(const void *set, siginfo_t *si, int secs, size_t size)
{
	struct ts32 ts = { secs, 0 };

	return syscall(SYS_rt_sigtimedwait, set, si, &ts, size);
}

static long timedwait64(const void *set, siginfo_t *si, int secs, size_t size)
{
	struct ts64 ts = { secs, 0 };

	return syscall(SYS_rt_sigtimedwait_time64, set, si, &ts, size);
}

static int timedwait_one(long (*fn)(const void *, siginfo_t *, int, size_t),
			 const char *name, size_t size, int val)
{
	int sigs[] = { SIGUSR1 };
	struct ksig_set w, p;
	siginfo_t si;
	long r;

	block_sigs(sigs, 1);
	if (queue_sig(SIGUSR1, val))
		return failf("rt_sigqueueinfo: %s", strerror(errno));
	make_mask(&w, size, sigs, 1);
	memset(&si, 0, sizeof(si));
	guard();
	r = fn(w.b, &si, 2, size);
	unguard();
	if (r != SIGUSR1)
		return failf("%s, sigsetsize %zu: returned %ld (%s)", name, size, r,
			     r < 0 ? strerror(errno) : "wrong signal");
	if (si.si_code != SI_QUEUE || si.si_value.sival_int != val)
		return failf("%s, sigsetsize %zu: si_code %d value 0x%x", name, size,
			     si.si_code, si.si_value.sival_int);
	ksig_empty(&p);
	ksig_pending(&p, CSZ);
	if (ksig_has(&p, SIGUSR1))
		return failf("%s, sigsetsize %zu: still pending", name, size);
	return 0;
}

static int timedwait_work32(size_t size)
{
	return timedwait_one(timedwait32, "rt_sigtimedwait", size, 0x100 + (int)size);
}

static int timedwait_work64(size_t size)
{
	return timedwait_one(timedwait64, "rt_sigtimedwait_time64", size, 0x200 + (int)size);
}

static int timedwait_bad(long (*fn)(const void *, siginfo_t *, int, size_t),
			 const char *name, size_t size)
{
	int sigs[] = { SIGUSR1 };
	struct ksig_set w, p;
	siginfo_t si;
	long r;
	int e;

	block_sigs(sigs, 1);
	send_sig(SIGUSR1);
	make_mask(&w, KSIG_SIZE_MAX, sigs, 1);
	guard();
	errno = 0;
	r = fn(w.b, &si, 0, size);
	e = errno;
	unguard();
	if (expect_errno(name, r, e, EINVAL))
		return -1;
	ksig_empty(&p);
	ksig_pending(&p, CSZ);
	if (!ksig_has(&p, SIGUSR1))
		return failf("%s: EINVAL but SIGUSR1 was dequeued", name);
	return 0;
}

static int timedwait_bad32(size_t size)
{
	return timedwait_bad(timedwait32, "rt_sigtimedwait", size);
}

static int timedwait_bad64(size_t size)
{
	return timedwait_bad(timedwait64, "rt_sigtimedwait_time64", size);
}

static int timedwait_efault(long (*fn)(const void *, siginfo_t *, int, size_t),
			    const char *name, size_t size)
{
	char what[96];
	siginfo_t si;
	long r;
	int e;

	guard();
	errno = 0;
	r = fn(bad_low, &si, 0, size);
	e = errno;
	unguard();
	snprintf(what, sizeof(what), "%s, set (void *)1", name);
	if (expect_errno(what, r, e, EFAULT))
		return -1;
	guard();
	errno = 0;
	r = fn(unmapped, &si, 0, size);
	e = errno;
	unguard();
	snprintf(what, sizeof(what), "%s, set in an unmapped page", name);
	return expect_errno(what, r, e, EFAULT);
}

static int timedwait_efault32(size_t size)
{
	return timedwait_efault(timedwait32, "rt_sigtimedwait", size);
}

static int timedwait_efault64(size_t size)
{
	return timedwait_efault(timedwait64, "rt_sigtimedwait_time64", size);
}

struct sc {
	const char *name;
	int (*work)(size_t size);
	int (*bad)(size_t size);
	int (*efault)(size_t size);
	const bool *missing;	/* if true, the call is not there: skip */
	const char *why_missing;
};

static const struct sc calls[] = {
	{ "compat rt_sigprocmask", procmask_work, procmask_bad, procmask_efault },
	{ "compat rt_sigpending", pending_work, pending_bad, pending_efault },
	{ "compat rt_sigaction", action_work, action_bad, action_efault },
	{ "compat rt_sigtimedwait", timedwait_work32, timedwait_bad32, timedwait_efault32,
	  &no_time32, "rt_sigtimedwait (time32) is ENOSYS: no CONFIG_COMPAT_32BIT_TIME" },
	{ "compat rt_sigtimedwait_time64", timedwait_work64, timedwait_bad64,
	  timedwait_efault64 },
};

/* What run_call() tests of each call, for the skips of a missing one. */
static const char *const call_cases[] = {
	"sigsetsize 8", "sigsetsizes 16..128", "bad sigsetsizes are EINVAL",
	"bad pointers are EFAULT",
};

static void run_call(const struct sc *c)
{
	char name[160];
	size_t size, i;
	int r;

	if (c->missing && *c->missing) {
		for (i = 0; i < ARRAY_SIZE(call_cases); i++)
			ksft_test_result_skip("%s (%s: %s)\n", c->why_missing, c->name,
					      call_cases[i]);
		return;
	}
	reset();
	r = c->work(KSIG_SIZE_MIN);
	reset();
	snprintf(name, sizeof(name), "%s: sigsetsize 8", c->name);
	result(r, name);

	if (!have_sizes) {
		ksft_test_result_skip("AT_SIGSET_SZ not in this kernel's uapi headers (%s: sigsetsize 16..128)\n",
				      c->name);
	} else {
		r = 0;
		for (size = 16; size <= KSIG_SIZE_MAX && !r; size += 8) {
			r = c->work(size);
			reset();
		}
		snprintf(name, sizeof(name),
			 "%s: sigsetsizes 16..128, past 8 bytes ignored in, zero out", c->name);
		result(r, name);
	}

	r = 0;
	for (i = 0; i < NR_BAD_SIZES && !r; i++) {
		r = c->bad(bad_sizes[i]);
		if (r)
			snprintf(why + strlen(why), sizeof(why) - strlen(why),
				 " (sigsetsize %zu)", bad_sizes[i]);
		reset();
	}
	if (c->work == pending_work) {
		for (size = 1; size < KSIG_SIZE_MIN && !r; size++) {
			r = c->bad(size);
			reset();
		}
		snprintf(name, sizeof(name),
			 "%s: sigsetsize 0..7 copies that many bytes, 12 and 129 are EINVAL",
			 c->name);
	} else {
		snprintf(name, sizeof(name), "%s: sigsetsize 0, 7, 12, 129 are EINVAL", c->name);
	}
	result(r, name);

	r = c->efault(KSIG_SIZE_MIN);
	reset();
	if (!r && have_sizes) {
		r = c->efault(KSIG_SIZE_MAX);
		reset();
	}
	snprintf(name, sizeof(name), "%s: bad pointers are EFAULT", c->name);
	result(r, name);
}

/* ---------------------------------------------------------------------- */
/* SIGINFO and 32-bit tasks */

static const char *const info_names[3] = {
	"compat: SIGINFO (65) is caught by a 32-bit SA_SIGINFO handler",
	"compat: SIGINFO in a 16-byte mask is blocked, read back, kept by an 8-byte SIG_SETMASK, delivered once unblocked",
	"compat: no stale mask bits past 64 from 32-bit masks, sa_mask and sigreturns",
};

static int info_caught(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set s;

	if (install_rt(sig, NULL))
		return failf("rt_sigaction(%d): %s", sig, strerror(errno));
	if (queue_sig(sig, 0x3265))
		return failf("rt_sigqueueinfo(self, %d): %s", sig, strerror(errno));
	if (seen[sig] != 1)
		return failf("handler ran %d times", seen[sig]);
	if (seen_code[sig] != SI_QUEUE || seen_val[sig] != 0x3265)
		return failf("si_code %d si_value 0x%x, want SI_QUEUE 0x3265", seen_code[sig],
			     seen_val[sig]);
	/* the handler's own blocking of SIGINFO ends with rt_sigreturn */
	if (kill(getpid(), sig))
		return failf("kill(self, %d): %s", sig, strerror(errno));
	if (seen[sig] != 2)
		return failf("a second SIGINFO was not delivered (still blocked?)");
	get_blocked(&s);
	if (ksig_find_not(&s, 0, CSZ, 0) >= 0)
		return failf("mask not empty after the handlers");
	return 0;
}

/*
 * A 32-bit task names SIGINFO with 16 bytes where its frames keep it (x86):
 * it blocks it, reads it back, keeps it across an 8-byte SIG_SETMASK that
 * cannot name it (glibc's sigprocmask()), and gets it once it unblocks it.
 */
static int info_blockable(void)
{
	int sig = KSIG_SIGINFO;
	struct ksig_set set, cur, none;

	if (!have_sizes)
		return 0;
	if (sig > CLAST)
		return failf("SIGINFO (%d) past the %d signals this compat task names", sig, CLAST);
	want_sigs(&set, &sig, 1);
	if (ksig_procmask(SIG_BLOCK, &set, NULL, 16))
		return failf("rt_sigprocmask(SIG_BLOCK, SIGINFO, 16): %s", strerror(errno));
	ksig_fill(&cur, KSIG_FILL);
	ksig_procmask(SIG_BLOCK, NULL, &cur, 16);
	if (check_out("read back", &cur, &set, 16))
		return -1;
	kill(getpid(), sig);
	if (seen[sig])
		return failf("SIGINFO delivered although blocked through a 16-byte compat mask");
	ksig_empty(&none);
	ksig_procmask(SIG_SETMASK, &none, NULL, CSZ);
	if (seen[sig])
		return failf("an 8-byte SIG_SETMASK unblocked SIGINFO, which it cannot name");
	ksig_procmask(SIG_UNBLOCK, &set, NULL, 16);
	if (seen[sig] != 1)
		return failf("SIGINFO handler ran %d times once unblocked, want 1", seen[sig]);
	return 0;
}

/*
 * Whatever 32-bit tasks pass in (rt_sigprocmask, sigprocmask, rt_sigaction's
 * sa_mask, none of which names SIGINFO here) and whatever their frames
 * restore (sigreturn, rt_sigreturn) must leave the blocked bits past 64
 * clear, not filled from the kernel stack or the frame (a SIG_SETMASK keeps
 * them as they were: clear here, where nothing blocked SIGINFO).  After each of those, over
 * many rounds, SIGINFO must still come straight through, also from inside
 * a handler whose sa_mask came from user space.
 */
static int info_no_stale_bits(void)
{
	int sig = KSIG_SIGINFO, usr1 = SIGUSR1, i, n = 0;
	struct ksig_set none, mask;
	uint32_t zero = 0;

	if (install_old(SIGUSR1, bit(SIGHUP)))
		return failf("sigaction(SIGUSR1): %s", strerror(errno));
	want_sigs(&mask, &usr1, 1);
	if (install_rt(SIGUSR2, &mask))
		return failf("rt_sigaction(SIGUSR2): %s", strerror(errno));
	ksig_empty(&none);
	nest_sig = sig;
	for (i = 1; i <= 20; i++) {
		ksig_procmask(SIG_SETMASK, &none, NULL, CSZ);
		kill(getpid(), sig);
		if (seen[sig] != ++n)
			return failf("round %d: SIGINFO blocked after compat rt_sigprocmask(SIG_SETMASK, {})",
				     i);
		old_sigprocmask(SIG_SETMASK, &zero, NULL);
		kill(getpid(), sig);
		if (seen[sig] != ++n)
			return failf("round %d: SIGINFO blocked after sigprocmask(SIG_SETMASK, 0)", i);
		send_sig(SIGUSR1);	/* legacy frame, sigreturn */
		kill(getpid(), sig);
		if (seen[sig] != ++n)
			return failf("round %d: SIGINFO blocked after sigreturn", i);
		nested_ok = 0;
		send_sig(SIGUSR2);	/* rt frame; sends SIGINFO from inside */
		n++;
		if (!nested_ok)
			return failf("round %d: SIGINFO blocked inside a handler (sa_mask from a compat rt_sigaction)",
				     i);
		kill(getpid(), sig);
		if (seen[sig] != ++n)
			return failf("round %d: SIGINFO blocked after rt_sigreturn", i);
	}
	nest_sig = 0;
	if (seen[SIGUSR1] != 20 || seen[SIGUSR2] != 20)
		return failf("handlers ran %d and %d times, want 20", seen[SIGUSR1],
			     seen[SIGUSR2]);
	return 0;
}

/* ---------------------------------------------------------------------- */

int main(void)
{
	struct sigaction sa;
	long page;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(NR_CASES);
#ifdef WS_NATIVE_32BIT	/* scripts/bootarch.sh: built for an i386 kernel */
	for (i = 0; i < NR_CASES; i++)
		ksft_test_result_skip("a 32-bit kernel: no compat layer (its native calls are nsig_sizes')\n");
	ksft_print_cnts();
	return KSFT_SKIP;
#endif
	ksft_print_msg("32-bit; headers: SIGINFO %s, AT_SIGSET_SZ %s\n",
		       have_info ? "yes" : "no", have_sizes ? "yes" : "no");

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGALRM, &sa, NULL))
		ksft_exit_fail_msg("sigaction(SIGALRM): %s\n", strerror(errno));
	page = sysconf(_SC_PAGESIZE);
	unmapped = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (unmapped == MAP_FAILED || munmap(unmapped + page, page))
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));
	unmapped += page;
	errno = 0;
	no_time32 = syscall(SYS_rt_sigtimedwait, NULL, NULL, NULL, CSZ) == -1 &&
		    errno == ENOSYS;
#ifdef WS_TEST_NO_TIME32	/* tests/ktap.bats: as on a kernel without it */
	no_time32 = true;
#endif

	reset();
	result(legacy_procmask(), "legacy sigprocmask: block, unblock, SIG_SETMASK round trip");
	reset();
	result(legacy_action_roundtrip(), "legacy sigaction: handler, sa_mask, flags round trip");
	reset();
	result(legacy_action_handler(),
	       "legacy sigaction: sa_mask blocked in the handler, restored by sigreturn");
	reset();
	result(legacy_sigsuspend(),
	       "legacy sigsuspend: waits with its mask, EINTR after the handler, mask restored");
	reset();

	for (i = 0; i < ARRAY_SIZE(calls); i++)
		run_call(&calls[i]);

	if (!have_info || KSIG_SIGINFO_IS_SIGPWR) {
		for (i = 0; i < 3; i++)
			ksft_test_result_skip("%s (%s)\n",
					      have_info ? "SIGINFO is SIGPWR here, not a signal past 64" :
					      "SIGINFO not in this kernel's uapi headers",
					      info_names[i]);
	} else {
		reset();
		result(info_caught(), info_names[0]);
		reset();
		if (!have_sizes)
			ksft_test_result_skip("AT_SIGSET_SZ not in this kernel's uapi headers (%s)\n",
					      info_names[1]);
		else
			result(info_blockable(), info_names[1]);
		reset();
		result(info_no_stale_bits(), info_names[2]);
		reset();
	}

	if (ksft_get_xskip_cnt() == NR_CASES) {
		ksft_print_cnts();
		return KSFT_SKIP;
	}
	ksft_finished();
	return 0;
}

#endif /* __i386__ || __arm__ */
