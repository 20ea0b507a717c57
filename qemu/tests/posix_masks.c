// SPDX-License-Identifier: GPL-2.0
/*
 * posix_masks.c - what POSIX and the documented Linux ABI promise about the
 * blocked signal mask, whatever the kernel does inside: sigreturn restores
 * the mask from before the signal; a handler runs with the old mask, its
 * sa_mask and its signal blocked; every signal but SIGKILL and SIGSTOP can
 * be blocked and waited for; calls with a temporary mask (sigsuspend,
 * ppoll, pselect, epoll_pwait) wait with that mask and put the old one back;
 * the legacy one-word calls keep what their mask cannot name; ptrace reads
 * and writes the whole mask.  For every ABI the workspace boots: x86-64,
 * i386, arm64, arm, MIPS n64, o32 and n32 (posix_masks.m32.c is this file
 * built as a 32-bit program, for the compat layers).
 *
 * Signals 1..libc's SIGRTMAX (64; 127 on MIPS, whose glibc stops one short
 * of the kernel's 128) go through libc's calls, as in any POSIX program.
 * Those the uapi headers number past it (ksig.h: SIGINFO, 65, with the nsig
 * series; MIPS's 128) go through raw rt_sig*() calls too, with the
 * sigsetsize that names them (KSIG_SIGSET_BYTES).  The "high" signals
 * (SIGRTMAX, SIGINFO, those past libc's) are in every mask set, and every
 * comparison covers all the ABI's signals.  Masks are libc's sigset_t read
 * as unsigned long words: the kernel's layout, native or compat, on these
 * little-endian ABIs.  SIGINFO's cases run wherever the headers define it
 * (as SIGPWR with the sigpwr series) and skip only where they do not.
 *
 * Every blocking call is bounded: by its own timeout, by alarm() (no
 * SA_RESTART) where SIGALRM stays unblocked, else by the parent, which
 * kills a worker that is not done within WAIT_MS.
 */
#define _GNU_SOURCE
#include "ksig.h"		/* before libc's <signal.h> */

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "ksig_case.h"

enum {
	LIBC_TOP = _NSIG - 1,		/* libc's last signal, its SIGRTMAX */
	TOP = KSIG_NSIG > LIBC_TOP ? KSIG_NSIG : LIBC_TOP,	/* the ABI's last */
	KSZ = KSIG_SIGSET_BYTES,	/* the raw sigsetsize: names 1..TOP */
	WAKE_MS = 1500,			/* the waits' own timeout */
	WAIT_MS = 3000,			/* a worker or a tracee is done by then */
};
_Static_assert(KSZ * 8 >= TOP && KSZ <= (int)sizeof(sigset_t), "sigset sizes");

/*
 * The raw waits' timeout, the kernel's __kernel_timespec: what the 64-bit
 * ABIs' calls and the 32-bit ABIs' time64 ones take (the time32 ones need
 * CONFIG_COMPAT_32BIT_TIME, which the smoke config leaves out).
 */
struct kts {
	int64_t tv_sec;
	int64_t tv_nsec;
};

#ifdef SYS_rt_sigtimedwait_time64
#define NR_SIGTIMEDWAIT	SYS_rt_sigtimedwait_time64
#define NR_PPOLL	SYS_ppoll_time64
#define NR_PSELECT6	SYS_pselect6_time64
#elif __SIZEOF_LONG__ == 8
#define NR_SIGTIMEDWAIT	SYS_rt_sigtimedwait
#define NR_PPOLL	SYS_ppoll
#define NR_PSELECT6	SYS_pselect6
#else
#error "a 32-bit ABI without the time64 system calls (uapi headers before 5.1?)"
#endif

static int high[3], nr_high;		/* SIGRTMAX, SIGINFO, past libc's */

#define WB	(8 * sizeof(unsigned long))

static void put(sigset_t *s, int sig, int on)
{
	unsigned long *w = (unsigned long *)s + (sig - 1) / WB, m = 1UL << ((sig - 1) % WB);

	*w = on ? *w | m : *w & ~m;
}

static int has(const sigset_t *s, int sig)
{
	return ((const unsigned long *)s)[(sig - 1) / WB] >> ((sig - 1) % WB) & 1;
}

/* sigs, and the high signals if hi */
static void set_of(sigset_t *s, const int *sigs, int n, int hi)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < n; i++)
		put(s, sigs[i], 1);
	for (i = 0; hi && i < nr_high; i++)
		put(s, high[i], 1);
}

/* Everything up to TOP but sig (0: none): sigfillset() and past libc's. */
static void all_but(sigset_t *s, int sig)
{
	int i;

	sigfillset(s);
	for (i = LIBC_TOP + 1; i <= TOP; i++)
		put(s, i, 1);
	if (sig)
		put(s, sig, 0);
}

static const char *sname(int sig)
{
	static char buf[4][32];
	static int next;
	char *b = buf[next++ % 4];

	snprintf(b, sizeof(buf[0]), "%d%s", sig,
		 KSIG_HAVE_SIGINFO && sig == KSIG_SIGINFO ? " (SIGINFO)" :
		 sig == SIGRTMAX ? " (SIGRTMAX)" : sig == KSIG_SIGRTMAX ? " (uapi SIGRTMAX)" : "");
	return b;
}

#define raw_procmask(how, set, old)	syscall(SYS_rt_sigprocmask, how, set, old, KSZ)

/* libc's sigprocmask(), and where libc cannot name them all, the raw one */
static int mask_op(int how, const sigset_t *s)
{
	if (sigprocmask(how, s, NULL))
		return -1;
	return TOP > LIBC_TOP ? raw_procmask(how, s, NULL) : 0;
}

static const sigset_t nothing;
#define set_empty()	mask_op(SIG_SETMASK, &nothing)

/* The blocked set, 1..TOP; async-signal-safe (handlers use it). */
static int get_blocked(sigset_t *m)
{
	sigset_t raw;
	int sig;

	memset(m, 0, sizeof(*m));
	memset(&raw, 0, sizeof(raw));
	if (sigprocmask(SIG_BLOCK, NULL, m) ||
	    (TOP > LIBC_TOP && raw_procmask(SIG_BLOCK, NULL, &raw)))
		return -1;
	for (sig = LIBC_TOP + 1; sig <= TOP; sig++)
		put(m, sig, has(&raw, sig));
	return 0;
}

/* 0 if got == want over 1..top, else fail listing the differences */
static int diff_to(const char *what, const sigset_t *got, const sigset_t *want, int top)
{
	char list[512];
	size_t n = 0;
	int sig, bad = 0;

	list[0] = '\0';
	for (sig = 1; sig <= top; sig++)
		if (has(got, sig) != has(want, sig) && bad++ < 8 && n < sizeof(list))
			n += snprintf(list + n, sizeof(list) - n, "%s%s %s", bad > 1 ? ", " : "",
				      sname(sig), has(got, sig) ? "blocked" : "not blocked");
	return bad ? failf("%s: %s%s", what, list, bad > 8 ? ", ..." : "") : 0;
}

#define diff(what, got, want)	diff_to(what, got, want, TOP)

/* Set the mask to s and check that it took. */
static int block(const sigset_t *s)
{
	sigset_t cur;

	if (mask_op(SIG_SETMASK, s) || get_blocked(&cur))
		return failf("sigprocmask: %s", strerror(errno));
	return diff("blocking the set to start from", &cur, s);
}

static volatile sig_atomic_t hits[TOP + 1];
static sigset_t in_mask;			/* blocked inside the last handler */

static void on_sig(int sig)
{
	int e = errno;

	if (sig > 0 && sig <= TOP)
		hits[sig]++;
	get_blocked(&in_mask);
	errno = e;
}

static void on_info(int sig, siginfo_t *si, void *uc)
{
	on_sig(sig);
}

/*
 * A handler for sig with sa_mask mask (NULL: empty): libc's sigaction(),
 * or raw rt_sigaction() where sig or the mask is past libc's signals
 * (ksig_set_handler() gives i386's and arm's plain handlers the non-rt
 * sigreturn their frames need).
 */
static int install(int sig, int flags, const sigset_t *mask)
{
	struct ksig_sigaction ka;
	struct sigaction sa;
	bool raw = sig > LIBC_TOP;
	int s;

	for (s = LIBC_TOP + 1; mask && s <= TOP; s++)
		raw |= has(mask, s);
	if (!raw) {
		memset(&sa, 0, sizeof(sa));
		if (flags & SA_SIGINFO)
			sa.sa_sigaction = on_info;
		else
			sa.sa_handler = on_sig;
		sa.sa_flags = flags;
		if (mask)
			sa.sa_mask = *mask;
		return sigaction(sig, &sa, NULL);
	}
	ksig_set_handler(&ka, flags & SA_SIGINFO ? (void *)on_info : (void *)on_sig, flags, NULL);
	if (mask)
		memcpy(ka.mask, mask, KSZ);
	return ksig_action(sig, &ka, NULL, KSZ);
}

static void dfl(int sig)
{
	struct ksig_sigaction ka;

	ksig_set_handler(&ka, NULL, 0, NULL);	/* SIG_DFL */
	if (sig <= LIBC_TOP)
		signal(sig, SIG_DFL);
	else
		ksig_action(sig, &ka, NULL, KSZ);
}

/* 1, 2: delivery */

/*
 * Block S, deliver d (kill(), unblocked) to a handler whose sa_mask is M:
 * the mask inside the handler and after its return.  POSIX kill(): a
 * signal sent to oneself that is not blocked is delivered before kill()
 * returns, so the handler has run (once) by then.
 */
static int deliver(int d, int flags, const sigset_t *S, const sigset_t *M,
		   sigset_t *in, sigset_t *after)
{
	int r;

	if (install(d, flags, M))
		return failf("sigaction(%s): %s", sname(d), strerror(errno));
	r = block(S);
	if (!r) {
		hits[d] = 0;
		memset(&in_mask, 0, sizeof(in_mask));
		kill(getpid(), d);
		get_blocked(after);
		*in = in_mask;
		if (hits[d] != 1)
			r = failf("the handler ran %d times before kill() returned, want once",
				  (int)hits[d]);
	}
	set_empty();
	dfl(d);
	return r;
}

/*
 * check 0: the mask after the handler's return is S again (sigreturn);
 * check 1: the mask inside is S | M | d, S | M with SA_NODEFER (POSIX
 * sigaction(): "the union of the current signal mask and the value of the
 * sa_mask for the signal being delivered, and unless SA_NODEFER or
 * SA_RESETHAND is set, then including the signal being delivered").  Each
 * for d SIGUSR1, SIGRTMAX, SIGINFO and the ABI's last signal where libc
 * cannot name it (MIPS's 128), both kinds of frame, the high signals in S
 * or in M.
 */
static int t_delivery(int check)
{
	static const int fl[] = { SA_SIGINFO, 0, SA_SIGINFO | SA_NODEFER, SA_NODEFER };
	static const char *const fname[] = { "SA_SIGINFO", "plain", "SA_SIGINFO|SA_NODEFER",
					     "SA_NODEFER" };
	int s[] = { SIGHUP, SIGQUIT, SIGUSR2, SIGRTMIN, SIGRTMIN + 3 };
	int m[] = { SIGINT, SIGTERM, SIGPIPE, SIGRTMIN + 1, SIGRTMAX - 1 };
	int ds[4], nd = 0;
	sigset_t S, M, in, after, want;
	char tail[sizeof(why)];
	int i, f, k, sig, d;

	ds[nd++] = SIGUSR1;
	ds[nd++] = SIGRTMAX;
	if (KSIG_HAVE_SIGINFO)
		ds[nd++] = KSIG_SIGINFO;
	if (TOP > LIBC_TOP && (int)TOP != (int)KSIG_SIGINFO)
		ds[nd++] = TOP;
	for (i = 0; i < nd; i++)
		for (f = 0; f < (check ? 4 : 2); f++)
			for (k = 0; k < 2; k++) {
				d = ds[i];
				set_of(&S, s, ARRAY_SIZE(s), !k);
				set_of(&M, m, ARRAY_SIZE(m), k);
				put(&S, d, 0);
				put(&M, d, 0);
				want = S;
				for (sig = 1; check && sig <= TOP; sig++)
					put(&want, sig, has(&S, sig) || has(&M, sig) ||
						  (sig == d && !(fl[f] & SA_NODEFER)));
				if (!deliver(d, fl[f], &S, &M, &in, &after) &&
				    !diff(check ? "blocked inside the handler" :
					  "blocked after the handler returned",
					  check ? &in : &after, &want))
					continue;
				memcpy(tail, why, sizeof(tail));
				return failf("%s to a %s handler, high signals in the %s: %.700s",
					     sname(d), fname[f],
					     k ? "sa_mask" : "blocked set", tail);
			}
	return 0;
}

/* 3, 4: blocking, waiting, SIGKILL and SIGSTOP */

/*
 * Block s, send it (it stays pending: POSIX sigprocmask()), take it with
 * sigtimedwait(), unblock it: the handler must never run.
 */
static int one_sig(int s)
{
	struct kts kts = { 1, 0 };
	bool raw = s > LIBC_TOP;
	struct sigaction old;
	sigset_t one, cur;
	siginfo_t si;
	long r;

	if (!raw)
		sigaction(s, NULL, &old);
	if (install(s, SA_SIGINFO, NULL))
		return failf("%s: sigaction: %s", sname(s), strerror(errno));
	hits[s] = 0;
	set_of(&one, &s, 1, 0);
	memset(&si, 0, sizeof(si));
	if (mask_op(SIG_BLOCK, &one) || get_blocked(&cur)) {
		r = failf("%s: SIG_BLOCK: %s", sname(s), strerror(errno));
	} else if (!has(&cur, s)) {
		r = failf("%s: not blocked after SIG_BLOCK", sname(s));
	} else if (kill(getpid(), s), hits[s]) {
		r = failf("%s: delivered although blocked", sname(s));
	} else {
		/*
		 * Raw for every signal: a 32-bit glibc's sigtimedwait() makes
		 * the time32 call, which the smoke config leaves out (ENOSYS).
		 */
		r = syscall(NR_SIGTIMEDWAIT, &one, &si, &kts, KSZ);
		if (r != s || si.si_signo != s)
			r = failf("%s: sigtimedwait returned %ld (%s), si_signo %d", sname(s),
				  r, r < 0 ? strerror(errno) : "-", si.si_signo);
		else if (mask_op(SIG_UNBLOCK, &one), get_blocked(&cur), has(&cur, s))
			r = failf("%s: still blocked after SIG_UNBLOCK", sname(s));
		else if (hits[s])
			r = failf("%s: the handler ran although sigtimedwait took it", sname(s));
		else
			r = 0;
	}
	mask_op(SIG_UNBLOCK, &one);	/* a pending one goes to on_info */
	if (raw)
		dfl(s);
	else
		sigaction(s, &old, NULL);
	return r;
}

static int t_every(int arg)
{
	char first[sizeof(why)];
	int s, bad = 0;

	for (s = 1; s <= TOP; s++) {
		/* glibc keeps 32..SIGRTMIN-1 for itself: no signals of the program's */
		if (s == SIGKILL || s == SIGSTOP || (s > 31 && s < SIGRTMIN))
			continue;
		if (!one_sig(s))
			continue;
		ksft_print_msg("%s\n", why);
		if (!bad++)
			memcpy(first, why, sizeof(first));
	}
	return bad ? failf("%d of signals 1..%d failed, first: %.900s", bad, TOP, first) : 0;
}

/*
 * POSIX sigprocmask(): "It is not possible to block those signals which
 * cannot be ignored.  This shall be enforced by the system without causing
 * an error to be indicated."
 */
static int t_kill_stop(int arg)
{
	sigset_t all, cur, want;
	int s;

	memset(&want, 0, sizeof(want));
	all_but(&all, 0);
	for (s = 1; s <= TOP; s++)
		put(&want, s, s != SIGKILL && s != SIGSTOP && (s < 32 || s >= SIGRTMIN));
	if (mask_op(SIG_SETMASK, &all))
		return failf("SIG_SETMASK of a full set: %s (want them silently left out)",
			     strerror(errno));
	get_blocked(&cur);
	set_empty();
	return diff("after SIG_SETMASK of a full set (want all but them)", &cur, &want);
}

/* 5-12: calls with a temporary mask */

enum { K_SUSPEND, K_PPOLL, K_PSELECT, K_EPOLL, K_INFO = 4 };

/*
 * In the worker: the call with all but sig blocked; the mask inside the
 * handler, then after the call.  POSIX sigsuspend() and pselect() (and
 * ppoll(2), epoll_pwait(2): "as if" sigprocmask() around the wait) replace
 * the mask for the wait, then restore it; the handler's mask is that one
 * plus sig (sigaction()).  libc's calls name 1..LIBC_TOP, the raw ones
 * 1..TOP: the mask inside the handler is compared over what the call named.
 */
static int wake_worker(int kind, int sig, const sigset_t *old)
{
	struct kts kts = { WAKE_MS / 1000, WAKE_MS % 1000 * 1000000L };
	bool raw = sig > LIBC_TOP;
	struct epoll_event ev;
	sigset_t w, want, after;
	struct { const void *p; size_t n; } pack = { &w, KSZ };
	int e, ep = epoll_create1(0);
	long r;

	all_but(&w, sig);
	all_but(&want, 0);		/* inside the handler: w and sig */
	put(&want, SIGKILL, 0);
	put(&want, SIGSTOP, 0);
	hits[sig] = 0;
	memset(&in_mask, 0, sizeof(in_mask));
	errno = 0;
	if (kind == K_SUSPEND)		/* no timeout: the parent's WAIT_MS */
		r = raw ? syscall(SYS_rt_sigsuspend, &w, KSZ) : sigsuspend(&w);
	/*
	 * The calls with a timeout are raw for every signal: a 32-bit glibc
	 * makes the time32 ones, which the smoke config leaves out (ENOSYS).
	 */
	else if (kind == K_PPOLL)
		r = syscall(NR_PPOLL, NULL, 0, &kts, &w, KSZ);
	else if (kind == K_PSELECT)
		r = syscall(NR_PSELECT6, 0, NULL, NULL, NULL, &kts, &pack);
	else
		r = raw ? syscall(SYS_epoll_pwait, ep, &ev, 1, WAKE_MS, &w, KSZ) :
			  epoll_pwait(ep, &ev, 1, WAKE_MS, &w);
	e = errno;
	if (r != -1 || e != EINTR)
		return failf("returned %ld%s%s, want -1/EINTR", r,
			     r == -1 ? ", " : r == 0 ? " (timed out)" : "",
			     r == -1 ? strerror(e) : "");
	if (hits[sig] != 1)
		return failf("the %s handler ran %d times, want once", sname(sig), (int)hits[sig]);
	if (diff_to("blocked inside the handler (want the call's mask and the signal)",
		    &in_mask, &want, raw ? TOP : LIBC_TOP))
		return -1;
	get_blocked(&after);
	return diff("blocked after the call (want the mask from before it)", &after, old);
}

/*
 * Wait for child pid, its status into *st; a child still there after
 * GUARD_SECS is killed and waited for again, so that no case leaves one.
 */
static void reap(pid_t pid, int *st)
{
	guard();
	if (waitpid(pid, st, 0) != pid) {
		kill(pid, SIGKILL);
		waitpid(pid, st, 0);
	}
	unguard();
}

/*
 * A worker process starts with the old mask blocked, sig in it (so that
 * an early sig stays pending), and makes the call; the parent sends sig
 * after a short delay and kills the worker if it is not done in WAIT_MS.
 */
static int t_wake(int arg)
{
	int o[] = { SIGHUP, SIGUSR2, SIGRTMIN };
	int sig = arg & K_INFO ? KSIG_SIGINFO : SIGRTMAX;
	int fd[2], st = 0, n = 0, k = 1, e, r;
	struct pollfd pfd;
	char msg[sizeof(why)];
	sigset_t old;
	pid_t pid;

	set_of(&old, o, ARRAY_SIZE(o), 1);
	put(&old, sig, 1);
	if (install(sig, SA_SIGINFO, NULL))
		return failf("sigaction(%s): %s", sname(sig), strerror(errno));
	if (pipe(fd)) {
		e = errno;
		dfl(sig);
		return failf("pipe: %s", strerror(e));
	}
	r = block(&old);
	pid = r ? -1 : fork();
	if (pid == 0) {
		close(fd[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		r = wake_worker(arg & 3, sig, &old);
		if (r && write(fd[1], why, strlen(why)) < 0)
			_exit(2);
		_exit(r ? 1 : 0);
	}
	e = errno;
	set_empty();
	dfl(sig);
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return r ? -1 : failf("fork: %s", strerror(e));
	}
	usleep(100 * 1000);
	kill(pid, sig);
	pfd.fd = fd[0];
	pfd.events = POLLIN;
	while (n < (int)sizeof(msg) - 1 && (k = poll(&pfd, 1, WAIT_MS)) > 0 &&
	       (r = read(fd[0], msg + n, sizeof(msg) - 1 - n)) > 0)
		n += r;
	msg[n] = '\0';
	close(fd[0]);
	if (k == 0)
		kill(pid, SIGKILL);
	reap(pid, &st);
	if (k == 0)
		return failf("no return within %d ms of %s", WAIT_MS, sname(sig));
	return n || !WIFEXITED(st) || WEXITSTATUS(st) ?
	       failf("%s (worker status 0x%x)", msg, st) : 0;
}

/* 13, 14: legacy calls with a one-word mask (old_sigset_t) */

#define bit(sig)	(1UL << ((sig) - 1))

/*
 * The 32-bit ABIs' sigprocmask (126): its mask is signals 1..32.  SIG_BLOCK
 * and SIG_UNBLOCK change what it names; SIG_SETMASK replaces that word and
 * keeps the rest (kernel/signal.c, kernel/compat.c compat_sig_setmask());
 * the old mask returned is the first word.
 */
#ifdef SYS_sigprocmask
static int t_legacy_procmask(int arg)
{
	int o[] = { SIGHUP, SIGUSR2, SIGRTMIN };
	unsigned long set = bit(SIGUSR1) | bit(SIGTERM), old = 0, wold = 0;
	sigset_t O, cur, want;
	int s;

	set_of(&O, o, ARRAY_SIZE(o), 1);
	want = O;
	for (s = 1; s <= (int)(8 * sizeof(set)); s++) {	/* what it names */
		wold |= has(&O, s) ? bit(s) : 0;
		put(&want, s, s == SIGUSR1 || s == SIGTERM);
	}
	if (block(&O))
		return -1;
	if (syscall(SYS_sigprocmask, SIG_SETMASK, &set, &old))
		return failf("legacy SIG_SETMASK: %s", strerror(errno));
	if (old != wold)
		return failf("legacy old mask 0x%lx, want 0x%lx", old, wold);
	if (get_blocked(&cur), diff("after legacy SIG_SETMASK", &cur, &want))
		return -1;
	if (syscall(SYS_sigprocmask, SIG_BLOCK, &(unsigned long){ bit(SIGINT) }, NULL) ||
	    syscall(SYS_sigprocmask, SIG_UNBLOCK, &(unsigned long){ bit(SIGUSR1) }, NULL))
		return failf("legacy SIG_BLOCK or SIG_UNBLOCK: %s", strerror(errno));
	put(&want, SIGINT, 1);
	put(&want, SIGUSR1, 0);
	get_blocked(&cur);
	return diff("after legacy SIG_BLOCK and SIG_UNBLOCK", &cur, &want);
}
#define LEGACY_PROCMASK_SKIP	NULL
#else
#define t_legacy_procmask	NULL
#define LEGACY_PROCMASK_SKIP	"this ABI has no legacy sigprocmask system call"
#endif

/*
 * The 32-bit ABIs' sigsuspend (72): i386's and arm's take the one-word
 * mask as a value (OLD_SIGSUSPEND3: the wait's mask is that word, every
 * other signal unblocked); MIPS o32's takes a pointer to a whole sigset_t,
 * as rt_sigsuspend() does.  Either way it is sigsuspend(): the handler runs
 * with the wait's mask plus its signal, and the whole old mask is back when
 * it returns -1/EINTR.
 */
#ifdef SYS_sigsuspend
static int t_legacy_suspend(int arg)
{
	int o[] = { SIGHUP, SIGUSR1, SIGRTMIN }, k, e;
	sigset_t O, cur, want;
	long r;
#ifdef __mips__
	sigset_t w;
	int top = TOP;

	set_of(&w, (int []){ SIGUSR2 }, 1, 0);
#else
	int top = 8 * sizeof(unsigned long);	/* the signals its word names */
#endif

	set_of(&want, (int []){ SIGUSR1, SIGUSR2 }, 2, 0);
	for (k = 0; k < 2; k++) {
		set_of(&O, o, ARRAY_SIZE(o), 1);
		if (install(SIGUSR1, k ? 0 : SA_SIGINFO, NULL))
			return failf("sigaction(SIGUSR1): %s", strerror(errno));
		if (block(&O))
			return -1;
		hits[SIGUSR1] = 0;
		memset(&in_mask, 0, sizeof(in_mask));
		kill(getpid(), SIGUSR1);	/* pending until the call */
		guard();
#ifdef __mips__
		r = syscall(SYS_sigsuspend, &w);
#else
		r = syscall(SYS_sigsuspend, 0, 0, bit(SIGUSR2));
#endif
		e = errno;
		unguard();
		get_blocked(&cur);
		set_empty();
		dfl(SIGUSR1);
		if (r != -1 || e != EINTR || alarm_fired || hits[SIGUSR1] != 1)
			return failf("%s handler: returned %ld (%s), handler ran %d times%s",
				     k ? "plain" : "SA_SIGINFO", r, strerror(e), (int)hits[SIGUSR1],
				     alarm_fired ? ", woken by the alarm" : "");
		if (diff_to(k ? "plain handler: blocked inside it (want SIGUSR2 and SIGUSR1)" :
			    "SA_SIGINFO handler: blocked inside it (want SIGUSR2 and SIGUSR1)",
			    &in_mask, &want, top) ||
		    diff(k ? "plain handler: blocked after legacy sigsuspend" :
			 "SA_SIGINFO handler: blocked after legacy sigsuspend", &cur, &O))
			return -1;
	}
	return 0;
}
#define LEGACY_SUSPEND_SKIP	NULL
#else
#define t_legacy_suspend	NULL
#define LEGACY_SUSPEND_SKIP	"this ABI has no legacy sigsuspend system call"
#endif

/* 15: ptrace */

/*
 * Set (unless NULL), read back, compare.  The size: the kernel's sigset_t
 * as the ABI's headers give it, whole 64-bit units naming the last signal
 * (KSIG_SIGSET_BYTES): 8 for 64 signals, the only size ptrace took before
 * the nsig series, for native and compat tracers alike (ptrace_request()
 * checks sizeof(sigset_t), = sizeof(compat_sigset_t) on x86 and arm64);
 * 16 on MIPS (128, compat too) and with SIGINFO (nsig takes 8..128).
 * PTRACE_SETSIGMASK drops SIGKILL and SIGSTOP, as sigprocmask() does
 * (kernel/ptrace.c).
 */
static int pt_step(pid_t pid, const sigset_t *set, const sigset_t *want, const char *what)
{
	sigset_t got;

	memset(&got, 0, sizeof(got));
	if (set && ptrace(PTRACE_SETSIGMASK, pid, (void *)(long)KSZ, set))
		return failf("%s: PTRACE_SETSIGMASK(%d bytes): %s", what, KSZ, strerror(errno));
	if (ptrace(PTRACE_GETSIGMASK, pid, (void *)(long)KSZ, &got))
		return failf("%s: PTRACE_GETSIGMASK(%d bytes): %s", what, KSZ, strerror(errno));
	return diff(what, &got, want);
}

static int t_ptrace(int arg)
{
	int c[] = { SIGHUP, SIGUSR2, SIGRTMIN };
	int c2[] = { SIGHUP, SIGUSR2, SIGRTMIN, SIGUSR1, SIGRTMAX - 1 };
	sigset_t C, C2, C3, want, got;
	int p[2], st = 0, r;
	bool reaped = false;
	struct pollfd pfd;
	pid_t pid, w;

	set_of(&C, c, ARRAY_SIZE(c), 1);
	set_of(&C2, c2, ARRAY_SIZE(c2), 0);	/* high signals unblocked */
	set_of(&want, c2, ARRAY_SIZE(c2), 1);	/* and blocked again */
	C3 = want;
	put(&C3, SIGKILL, 1);			/* which must not stick */
	put(&C3, SIGSTOP, 1);
	if (pipe(p))
		return failf("pipe: %s", strerror(errno));
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		mask_op(SIG_SETMASK, &C);
		if (ptrace(PTRACE_TRACEME, 0, NULL, NULL))
			_exit(2);
		kill(getpid(), SIGSTOP);
		get_blocked(&got);
		_exit(write(p[1], &got, sizeof(got)) == sizeof(got) ? 0 : 3);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return failf("fork: %s", strerror(errno));
	}
	guard();
	w = waitpid(pid, &st, 0);
	unguard();
	memset(&got, 0, sizeof(got));
	pfd.fd = p[0];
	pfd.events = POLLIN;
	if (w != pid || !WIFSTOPPED(st) || WSTOPSIG(st) != SIGSTOP) {
		reaped = w == pid && !WIFSTOPPED(st);
		r = failf("tracee status 0x%x, want stopped by SIGSTOP", st);
	} else if (pt_step(pid, NULL, &C, "the mask the tracee blocked") ||
		   pt_step(pid, &C2, &C2, "after unblocking the high signals") ||
		   pt_step(pid, &C3, &want, "after blocking them again with SIGKILL and SIGSTOP")) {
		r = -1;
	} else if (ptrace(PTRACE_CONT, pid, NULL, NULL)) {
		r = failf("PTRACE_CONT: %s", strerror(errno));
	} else if (poll(&pfd, 1, WAIT_MS) != 1 || read(p[0], &got, sizeof(got)) != sizeof(got)) {
		r = failf("no mask from the tracee after PTRACE_CONT");
	} else {
		r = diff("the tracee's own sigprocmask() after PTRACE_SETSIGMASK", &got, &want);
	}
	close(p[0]);
	if (reaped)
		return r;
	if (r)
		kill(pid, SIGKILL);
	reap(pid, &st);
	return r;
}

#define INFO_SKIP	(KSIG_HAVE_SIGINFO ? NULL : "SIGINFO not in this kernel's uapi headers")
#define WAKE(call, sig)	\
	call " with all but " sig " blocked: its handler runs with that mask, EINTR, old mask back"

static const struct {
	const char *name;
	int (*fn)(int arg);
	int arg;
	const char *skip;
} cases[] = {
	{ "sigreturn restores the mask from before the signal, SIGRTMAX and SIGINFO included",
	  t_delivery, 0 },
	{ "a handler runs with the old mask, its sa_mask and its signal (not with SA_NODEFER)",
	  t_delivery, 1 },
	{ "every signal up to the ABI's last can be blocked, waited for after kill(), unblocked",
	  t_every },
	{ "SIGKILL and SIGSTOP cannot be blocked, and asking is silently ignored", t_kill_stop },
	{ WAKE("sigsuspend", "SIGRTMAX"), t_wake, K_SUSPEND },
	{ WAKE("ppoll", "SIGRTMAX"), t_wake, K_PPOLL },
	{ WAKE("pselect", "SIGRTMAX"), t_wake, K_PSELECT },
	{ WAKE("epoll_pwait", "SIGRTMAX"), t_wake, K_EPOLL },
	{ WAKE("sigsuspend", "SIGINFO"), t_wake, K_INFO | K_SUSPEND, INFO_SKIP },
	{ WAKE("ppoll", "SIGINFO"), t_wake, K_INFO | K_PPOLL, INFO_SKIP },
	{ WAKE("pselect", "SIGINFO"), t_wake, K_INFO | K_PSELECT, INFO_SKIP },
	{ WAKE("epoll_pwait", "SIGINFO"), t_wake, K_INFO | K_EPOLL, INFO_SKIP },
	{ "legacy sigprocmask leaves the signals its one-word mask cannot name as they were",
	  t_legacy_procmask, 0, LEGACY_PROCMASK_SKIP },
	{ "legacy sigsuspend waits with its mask and restores the whole old mask after",
	  t_legacy_suspend, 0, LEGACY_SUSPEND_SKIP },
	{ "PTRACE_GETSIGMASK and PTRACE_SETSIGMASK read and write a tracee's whole mask",
	  t_ptrace },
};

int main(void)
{
	struct sigaction sa;
	size_t i;
	int s;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(ARRAY_SIZE(cases));
	high[nr_high++] = SIGRTMAX;
	if (KSIG_HAVE_SIGINFO && KSIG_SIGINFO != SIGRTMAX)
		high[nr_high++] = KSIG_SIGINFO;
	for (s = LIBC_TOP + 1; s <= TOP && nr_high < 3; s++)
		if (s != KSIG_SIGINFO)
			high[nr_high++] = s;
	ksft_print_msg("signals 1..%d (libc's 1..%d), SIGINFO %d, raw sigsetsize %d\n",
		       TOP, LIBC_TOP, KSIG_SIGINFO, KSZ);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;		/* no SA_RESTART */
	if (sigaction(SIGALRM, &sa, NULL))
		ksft_exit_fail_msg("sigaction(SIGALRM): %s\n", strerror(errno));
	set_empty();

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		if (cases[i].skip) {
			ksft_test_result_skip("%s (%s)\n", cases[i].skip, cases[i].name);
			continue;
		}
		why[0] = '\0';
		if (cases[i].fn(cases[i].arg))
			ksft_test_result_fail("%s: %s\n", cases[i].name, why);
		else
			ksft_test_result_pass("%s\n", cases[i].name);
		set_empty();
	}
	ksft_finished();
}
