/* SPDX-License-Identifier: GPL-2.0 */
/*
 * nsig.h - what the nsig guest tests share, one program an area of the
 * "nsig" series (variable sigsetsize for the rt_sig*() calls, AT_SIGSET_SZ,
 * the 65th signal SIGINFO, PTRACE_{GET,SET}SIGMASK sizes and SIGINFO on
 * the VSTATUS (^T) character):
 *	nsig_sizes.c	sigsetsize 8..128 of every call, no leaks, the auxv entry
 *	nsig_info.c	SIGINFO: pending, handlers, default ignore, frames
 *	nsig_ptrace.c	PTRACE_GETSIGMASK and PTRACE_SETSIGMASK sizes
 *	nsig_tty.c	^T sends SIGINFO after the status line
 *
 * Each is built against the uapi headers of the kernel under test.  What
 * the headers do not have does not exist at that commit and its cases are
 * skipped; what they have and misbehaves fails:
 *	AT_SIGSET_SZ (<linux/auxvec.h>)	sigsetsizes 16..128 and AT_SIGSET_SZ
 *	SIGINFO (<asm/signal.h>, via ksig.h)	the SIGINFO cases and bit 65
 *	VSTATUS, NOKERNINFO (<asm/termbits.h>)	^T sends SIGINFO
 * libc's sigsetsize (libc_sz: 8, MIPS's 16), the only one a kernel without
 * the series takes, is tested everywhere.
 *
 * Every system call is raw (syscall()), so that libc's idea of the number
 * of signals (glibc refuses signal 65) and of sigsetsize does not hide the
 * kernel's answer.  Masks are byte arrays (ksig.h).  Masks the kernel
 * writes back land in a buffer prefilled with 0xa5: the bytes between the
 * kernel's sigset_t and sigsetsize must come back zero (no kernel stack),
 * the bytes past sigsetsize untouched.  Masks passed in have every bit
 * past the kernel's last signal set (make_mask()): the kernel must drop
 * them.  A mask too short to name SIGINFO (8 bytes) that replaces the
 * blocked set (SIG_SETMASK, rt_sigsuspend(), the temporary masks of
 * ppoll() and the like, PTRACE_SETSIGMASK) keeps SIGINFO blocked or
 * unblocked as it was; one that adds to or takes from it (SIG_BLOCK,
 * SIG_UNBLOCK, sa_mask, signalfd, rt_sigtimedwait) has no SIGINFO in it.
 *
 * Every blocking step is guarded by alarm() (the SIGALRM handler has no
 * SA_RESTART, so a call that never completes returns EINTR and the case
 * fails) or by a poll() timeout.  glibc's raise() and sigprocmask() pass 8
 * bytes, which makes what they do to a blocked SIGINFO the short mask rule
 * under test rather than something a case can build on: kill() and raw
 * calls are used instead.
 *
 * A program includes this first.  Its plan is the size of its own case
 * tables; nsig_begin() and nsig_end() open and close its KTAP.
 */
#ifndef WS_NSIG_H
#define WS_NSIG_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
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
#include <sys/mman.h>
#include <sys/types.h>
#include <sys/wait.h>

#include "kselftest.h"
#include "ksig_case.h"
#include "tty_util.h"

#define WAIT_MS		5000	/* a child or a signal must show up within this */
#define LINE_WAIT_MS	3000

/* The kernel's sigset_t; libc_sz on kernels without the series. */
static const size_t ksz = KSIG_SIGSET_BYTES;
/* libc's sigsetsize, the kernel's sigset_t without SIGINFO: 8, MIPS's 16 */
static const size_t libc_sz = KSIG_SIGSET_BYTES_LIBC;
static const bool have_sizes = KSIG_HAVE_AT_SIGSET_SZ;
static const bool have_info = KSIG_HAVE_SIGINFO;

/* ---------------------------------------------------------------------- */
/* Signal handling state */

static volatile int seen[KSIG_BUF];		/* deliveries per signal */
static volatile int seen_code[KSIG_BUF];
static volatile int seen_val[KSIG_BUF];
static volatile int seen_pid[KSIG_BUF];

/*
 * Snapshots taken by the handler for snap_sig, and edits of its frame.
 *
 * Where the frame keeps the mask: uc_sigmask holds the first 64 signals,
 * in its place from before the series, and the rest of the kernel's
 * sigset_t (SIGINFO's word) is where the frame ended before: after the
 * struct siginfo in the native x86-64 frame, after the 8-byte uc_sigmask
 * and the 8-byte retcode in the 32-bit x86 rt frame (i386 and ia32), and
 * in uc_sigmask's own room on arm64 (room for 1024 signals).  Each frame
 * says so with UC_SIGMASK_EXT in uc_flags, and rt_sigreturn() reads that
 * word only with the flag.  snap_frame is the mask the frame holds.
 */
static volatile int snap_sig;
static struct ksig_set snap_blocked;		/* blocked inside the handler */
static struct ksig_set snap_frame;		/* the frame's signal mask */
static volatile unsigned long snap_uc_flags;	/* the frame's uc_flags */
static volatile long snap_si_off;		/* siginfo - uc_sigmask, bytes */
static volatile int frame_add, frame_del;	/* signals to edit in */
static volatile int frame_drop_ext;		/* clear UC_SIGMASK_EXT */

#if defined(__x86_64__)
#define FRAME_EXT(m, si)	((unsigned char *)(si) + sizeof(siginfo_t))
#elif defined(__i386__)
#define FRAME_EXT(m, si)	((m) + 16)
#else
#define FRAME_EXT(m, si)	((m) + 8)
#endif

/* The byte of the frame's mask that holds sig, or NULL if it has none. */
static inline unsigned char *frame_byte(unsigned char *m, unsigned char *ext, int sig)
{
	if (sig <= 64)
		return m + (sig - 1) / 8;
	return ext ? ext + (sig - 65) / 8 : NULL;
}

static inline void on_sig(int sig, siginfo_t *si, void *ctx)
{
	ucontext_t *uc = ctx;
	unsigned char *m = (unsigned char *)&uc->uc_sigmask;
	unsigned char *ext, *b;

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
	snap_uc_flags = uc->uc_flags;
	snap_si_off = (long)((unsigned char *)si - m);
	/* without the flag the frame has no mask past 64 */
	ext = uc->uc_flags & KSIG_UC_SIGMASK_EXT ? FRAME_EXT(m, si) : NULL;
	ksig_fill(&snap_frame, 0);
	memcpy(snap_frame.b, m, 8);
	if (ext)
		memcpy(snap_frame.b + 8, ext, ksz - 8);
	b = frame_add ? frame_byte(m, ext, frame_add) : NULL;
	if (b)
		*b |= 1u << ((frame_add - 1) % 8);
	b = frame_del ? frame_byte(m, ext, frame_del) : NULL;
	if (b)
		*b &= ~(1u << ((frame_del - 1) % 8));
	/* a frame built by user space without the mask past 64 (CRIU's) */
	if (frame_drop_ext)
		uc->uc_flags &= ~(unsigned long)KSIG_UC_SIGMASK_EXT;
}

/*
 * The setup does not depend on the sizes under test: without a mask (or
 * with an empty one) libc's sigsetsize does, as on every kernel.
 */
static inline int install(int sig, unsigned long flags, const struct ksig_set *mask)
{
	struct ksig_sigaction sa;

	ksig_set_handler(&sa, on_sig, KSIG_SA_SIGINFO | flags, mask);
	return ksig_action(sig, &sa, NULL, mask ? ksz : libc_sz);
}

static inline int set_disposition(int sig, unsigned long handler)
{
	struct ksig_sigaction sa;

	ksig_set_handler(&sa, NULL, 0, NULL);
	sa.handler = handler;
	return ksig_action(sig, &sa, NULL, libc_sz);
}

/* Set the whole blocked mask; a kernel that refuses ksz gets libc_sz. */
static inline void set_blocked(const struct ksig_set *s)
{
	if (ksig_procmask(SIG_SETMASK, s, NULL, ksz))
		ksig_procmask(SIG_SETMASK, s, NULL, libc_sz);
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
static inline void reset(void)
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
	snap_uc_flags = 0;
	snap_si_off = 0;
	frame_add = 0;
	frame_del = 0;
	frame_drop_ext = 0;
}

static inline int block_sigs(const int *sigs, int n)
{
	struct ksig_set s;
	int i;

	ksig_empty(&s);
	for (i = 0; i < n; i++)
		if (sigs[i])
			ksig_add(&s, sigs[i]);
	return ksig_procmask(SIG_BLOCK, &s, NULL, ksz);
}

static inline int get_blocked(struct ksig_set *s)
{
	ksig_empty(s);
	return ksig_procmask(SIG_BLOCK, NULL, s, ksz);
}

static inline int get_pending(struct ksig_set *s)
{
	ksig_empty(s);
	return ksig_pending(s, ksz);
}

/* SIGINFO where this size can carry it, else 0 (no signal). */
static inline int info_for(size_t size)
{
	return have_info && size * 8 >= (size_t)KSIG_SIGINFO ? KSIG_SIGINFO : 0;
}

/*
 * A mask to pass in: the signals in sigs plus every bit past the kernel's
 * last signal (up to size), which the kernel must ignore: the bytes past
 * its sigset_t, and the bits of its sigset_t past _NSIG (66..128 with
 * SIGINFO), which name no signal and must not be stored.
 */
static inline void make_mask(struct ksig_set *s, size_t size, const int *sigs, int n)
{
	size_t bit;
	int k;

	ksig_empty(s);
	for (k = 0; k < n; k++)
		if (sigs[k])
			ksig_add(s, sigs[k]);
	for (bit = KSIG_NSIG; bit < size * 8; bit++)
		s->b[bit / 8] |= 1u << (bit % 8);
}

/*
 * got was prefilled with KSIG_FILL and the kernel wrote size bytes of a
 * mask: they must be want's (zero past the kernel's signals), the rest
 * untouched.
 */
static inline int check_out(const char *what, const struct ksig_set *got,
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

static inline int expect_errno(const char *what, long r, int e, int want)
{
	if (r != -1 || e != want)
		return failf("%s returned %ld errno %d (%s), want -1/%s", what, r,
			     r == -1 ? e : 0, r == -1 ? strerror(e) : "-",
			     strerror(want));
	return 0;
}

/* A bad user pointer: the first byte of an unmapped page. */
static unsigned char *unmapped;		/* first byte of an unmapped page */

static inline void setup_bad_pointers(void)
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

static inline long timedwait(const void *set, siginfo_t *si, int ms, size_t size)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	return syscall(SYS_rt_sigtimedwait, set, si, &ts, size);
}

static inline int wait_child(pid_t pid, int *status)
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

/* One result line: pass with fmt (which names the case), or fail with why. */
static inline void result(int r, const char *fmt, const char *name)
{
	if (r)
		ksft_test_result_fail("%s: %s\n", name, why);
	else
		ksft_test_result_pass(fmt, name);
}

/*
 * A case that runs from a clean state (reset()) and fails with why; skip,
 * if set, says why it cannot run on this architecture.
 */
struct nsig_case {
	const char *name;
	int (*fn)(void);
	const char *skip;
};

/*
 * Each of the n cases, reset() before and after; where the kernel lacks
 * what they test (skip is its reason), each is a skip saying so, and so is
 * a case that cannot run here (its own skip).
 */
static inline void run_cases(const struct nsig_case *cases, size_t n, const char *skip)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (skip || cases[i].skip) {
			ksft_test_result_skip("%s (%s)\n", skip ? skip : cases[i].skip,
					      cases[i].name);
			continue;
		}
		reset();
		why[0] = '\0';
		if (cases[i].fn())
			ksft_test_result_fail("%s: %s\n", cases[i].name, why);
		else
			ksft_test_result_pass("%s\n", cases[i].name);
	}
	reset();
}

/*
 * The start of every program: the KTAP header and plan, what the headers
 * have, the SIGALRM guard (no SA_RESTART), the signals the cases use and
 * the bad pointers.
 */
static inline void nsig_begin(unsigned int plan)
{
	struct sigaction sa;

	setvbuf(stdout, NULL, _IOLBF, 0);
	ksft_print_header();
	ksft_set_plan(plan);
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
	reset();
}

/* The end: a program whose every case skipped is a skip as a whole. */
static inline int nsig_end(unsigned int plan)
{
	if (ksft_get_xskip_cnt() == plan) {
		ksft_print_cnts();
		return KSFT_SKIP;
	}
	ksft_finished();
	return 0;
}

/* A program that is one table of cases: its whole KTAP. */
static inline int nsig_run(const struct nsig_case *cases, size_t n, const char *skip)
{
	nsig_begin(n);
	run_cases(cases, n, skip);
	return nsig_end(n);
}

#endif /* WS_NSIG_H */
