/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ksig.h - the kernel's own signal constants and raw rt_sig*() helpers for
 * the guest tests that look past libc's view of signals (nsig_*.c,
 * nsig_compat.m32.c).  Works with -m32 too.
 *
 * The uapi <asm/signal.h> of the kernel under test is the only place that
 * says whether SIGINFO exists and how many signals there are, but its
 * sigset_t, struct sigaction and stack_t clash with glibc's, and its
 * <linux/time.h> clashes with <time.h>.  So this header must be included
 * before any libc header: it includes <asm/signal.h> with the clashing
 * type names renamed and <linux/time.h> kept out, captures what the tests
 * need under names of its own, then #undefs every macro it got from there,
 * so that glibc's <signal.h> can define them its own way.  Only the include
 * guards of the kernel headers stay defined (so that nothing pulls them in
 * again unrenamed).  Define _GNU_SOURCE, if wanted, before including it: it
 * includes a few libc headers (<string.h>, <unistd.h>, <sys/syscall.h>).
 *
 * What it captures:
 *	KSIG_HAVE_SIGINFO	1 if the headers define SIGINFO, else 0
 *	KSIG_SIGINFO		its number (0 if absent)
 *	KSIG_SIGINFO_IS_SIGPWR	1 if SIGINFO is SIGPWR (the sigpwr series,
 *				the 2019 design), 0 if it is a signal of its
 *				own (nsig's 65th) or absent; for #if
 *	KSIG_SIGRTMAX		the headers' SIGRTMAX
 *	KSIG_NSIG		the kernel's _NSIG: the largest signal number
 *	KSIG_SIGSET_BYTES	sizeof the 64-bit kernel's sigset_t
 *	KSIG_SIGSET_BYTES_LIBC	the same without SIGINFO: the sigsetsize libc
 *				passes, the only one a kernel without the
 *				nsig series takes (8; 16 on MIPS, for its
 *				128 signals, o32 and n32 too)
 *	KSIG_HAVE_AT_SIGSET_SZ	1 if <linux/auxvec.h> defines AT_SIGSET_SZ
 *	KSIG_AT_SIGSET_SZ	its value (0 if absent)
 *	KSIG_UC_SIGMASK_EXT	the uc_flags bit that says a frame holds the
 *				signal mask past 64 (<asm/ucontext.h> of x86,
 *				arm64, riscv, loongarch; 0x8, its value on
 *				each, where the headers lack it)
 *
 * Masks are plain byte arrays (struct ksig_set): signal n is bit (n - 1) % 8
 * of byte (n - 1) / 8, which is the kernel's layout of sigset_t and of
 * compat_sigset_t on little-endian x86, for any sigsetsize.
 */
#ifndef WS_KSIG_H
#define WS_KSIG_H

#ifdef _SIGNAL_H
#error "ksig.h must be included before <signal.h>"
#endif

#ifndef _LINUX_TIME_H
#define _LINUX_TIME_H
#define KSIG_SKIPPED_LINUX_TIME_H
#endif

#define sigset_t	ksig_uapi_sigset_t
#define sigaction	ksig_uapi_sigaction
#define sigaltstack	ksig_uapi_sigaltstack
#define stack_t		ksig_uapi_stack_t
#define siginfo		ksig_uapi_siginfo
#define __signalfn_t	ksig_uapi_signalfn_t
#define __sighandler_t	ksig_uapi_sighandler_t
#define __restorefn_t	ksig_uapi_restorefn_t
#define __sigrestore_t	ksig_uapi_sigrestore_t

#include <asm/signal.h>

#undef sigset_t
#undef sigaction
#undef sigaltstack
#undef stack_t
#undef siginfo
#undef __signalfn_t
#undef __sighandler_t
#undef __restorefn_t
#undef __sigrestore_t

#ifdef KSIG_SKIPPED_LINUX_TIME_H
#undef _LINUX_TIME_H
#undef KSIG_SKIPPED_LINUX_TIME_H
#endif

#ifdef SIGINFO
#define KSIG_HAVE_SIGINFO	1
enum { KSIG_SIGINFO = SIGINFO };
#if SIGINFO == SIGPWR
#define KSIG_SIGINFO_IS_SIGPWR	1
#else
#define KSIG_SIGINFO_IS_SIGPWR	0
#endif
#else
#define KSIG_SIGINFO_IS_SIGPWR	0
#define KSIG_HAVE_SIGINFO	0
enum { KSIG_SIGINFO = 0 };
#endif

/*
 * The kernel's _NSIG is the largest signal number, and no uapi header
 * says it outright: x86's does not define _NSIG, and up to the nsig series
 * its SIGRTMAX was "_NSIG", the kernel's 64; the asm-generic one (arm64)
 * keeps _NSIG at the 64 signals user space's sigset_t holds even once the
 * kernel has 65 (its 65 is under __KERNEL__ only).  SIGRTMAX is 64 and
 * SIGINFO 65 in both.  So take the largest of _NSIG where defined,
 * SIGRTMAX and SIGINFO where defined: a header's _NSIG alone would make an
 * arm64 kernel with SIGINFO one of 64 signals.
 */
#ifdef _NSIG
enum { KSIG_SIGRTMAX = SIGRTMAX, KSIG_NSIG_HDR = _NSIG };
#else
#define _NSIG 64
enum { KSIG_SIGRTMAX = SIGRTMAX, KSIG_NSIG_HDR = 0 };
#endif
enum {
	KSIG_NSIG_NOINFO = (int)KSIG_NSIG_HDR > (int)KSIG_SIGRTMAX ?
			  (int)KSIG_NSIG_HDR : (int)KSIG_SIGRTMAX,
	KSIG_NSIG = (int)KSIG_SIGINFO > (int)KSIG_NSIG_NOINFO ?
		    (int)KSIG_SIGINFO : (int)KSIG_NSIG_NOINFO,
	/* a 64-bit kernel's sigset_t: _NSIG bits in 64-bit words */
	KSIG_SIGSET_BYTES = (KSIG_NSIG + 63) / 64 * 8,
	KSIG_SIGSET_BYTES_LIBC = (KSIG_NSIG_NOINFO + 63) / 64 * 8,
};

/* Everything <asm/signal.h> and <asm-generic/signal-defs.h> define. */
#undef _NSIG
#undef _NSIG_BPW
#undef _NSIG_WORDS
#undef NSIG
#undef SIGHUP
#undef SIGINT
#undef SIGQUIT
#undef SIGILL
#undef SIGTRAP
#undef SIGABRT
#undef SIGIOT
#undef SIGBUS
#undef SIGFPE
#undef SIGKILL
#undef SIGUSR1
#undef SIGSEGV
#undef SIGUSR2
#undef SIGPIPE
#undef SIGALRM
#undef SIGTERM
#undef SIGSTKFLT
#undef SIGCHLD
#undef SIGCONT
#undef SIGSTOP
#undef SIGTSTP
#undef SIGTTIN
#undef SIGTTOU
#undef SIGURG
#undef SIGXCPU
#undef SIGXFSZ
#undef SIGVTALRM
#undef SIGPROF
#undef SIGWINCH
#undef SIGIO
#undef SIGPOLL
#undef SIGLOST
#undef SIGPWR
#undef SIGSYS
#undef SIGUNUSED
#undef SIGRTMIN
#undef SIGRTMAX
#undef SIGINFO
#undef SA_RESTORER
#undef MINSIGSTKSZ
#undef SIGSTKSZ
#undef SA_NOCLDSTOP
#undef SA_NOCLDWAIT
#undef SA_SIGINFO
#undef SA_UNSUPPORTED
#undef SA_EXPOSE_TAGBITS
#undef SA_ONSTACK
#undef SA_RESTART
#undef SA_NODEFER
#undef SA_RESETHAND
#undef SA_NOMASK
#undef SA_ONESHOT
#undef SIG_BLOCK
#undef SIG_UNBLOCK
#undef SIG_SETMASK
#undef SIG_DFL
#undef SIG_IGN
#undef SIG_ERR
#undef sa_handler
#undef sa_sigaction

/*
 * x86-64's uc_flags bit that says the frame has the signal mask past the
 * first 64 signals after its siginfo (the 64-bit uc_sigmask holds only
 * those 64).  <asm/ucontext.h> only for its macros: its struct ucontext
 * would want the uapi sigset_t, stack_t and struct sigcontext, which clash
 * with glibc's, so asm-generic/ucontext.h is kept out as <linux/time.h> is
 * above.
 */
#ifdef __x86_64__
#ifndef __ASM_GENERIC_UCONTEXT_H
#define __ASM_GENERIC_UCONTEXT_H
#define KSIG_SKIPPED_ASM_GENERIC_UCONTEXT_H
#endif
#include <asm/ucontext.h>
#ifdef KSIG_SKIPPED_ASM_GENERIC_UCONTEXT_H
#undef __ASM_GENERIC_UCONTEXT_H
#undef KSIG_SKIPPED_ASM_GENERIC_UCONTEXT_H
#endif
#endif /* __x86_64__ */
#ifdef UC_SIGMASK_EXT
enum { KSIG_UC_SIGMASK_EXT = UC_SIGMASK_EXT };
#else
/* the value the series gives it; no kernel without it sets the bit */
enum { KSIG_UC_SIGMASK_EXT = 0x8 };
#endif
#undef UC_FP_XSTATE
#undef UC_SIGCONTEXT_SS
#undef UC_STRICT_RESTORE_SS
#undef UC_SIGMASK_EXT

/* <linux/auxvec.h> agrees with glibc's <elf.h>: it may stay. */
#include <linux/auxvec.h>
#ifdef AT_SIGSET_SZ
#define KSIG_HAVE_AT_SIGSET_SZ	1
enum { KSIG_AT_SIGSET_SZ = AT_SIGSET_SZ };
#else
#define KSIG_HAVE_AT_SIGSET_SZ	0
enum { KSIG_AT_SIGSET_SZ = 0 };
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <sys/syscall.h>

/* The sigsetsize range of the nsig series (SIGSETSIZE_MIN/MAX). */
#define KSIG_SIZE_MIN	8
#define KSIG_SIZE_MAX	128
/* Room for the largest mask and for a check that nothing is written past it */
#define KSIG_BUF	256
#define KSIG_FILL	0xa5

struct ksig_set {
	unsigned char b[KSIG_BUF];
};

static inline void ksig_fill(struct ksig_set *s, int byte)
{
	memset(s->b, byte, sizeof(s->b));
}

static inline void ksig_empty(struct ksig_set *s)
{
	ksig_fill(s, 0);
}

static inline void ksig_add(struct ksig_set *s, int sig)
{
	s->b[(sig - 1) / 8] |= 1u << ((sig - 1) % 8);
}

static inline void ksig_del(struct ksig_set *s, int sig)
{
	s->b[(sig - 1) / 8] &= ~(1u << ((sig - 1) % 8));
}

static inline int ksig_has(const struct ksig_set *s, int sig)
{
	return (s->b[(sig - 1) / 8] >> ((sig - 1) % 8)) & 1;
}

/*
 * First byte in [from, to) of s that is not val, or -1.  Used to check the
 * zero fill past the kernel's sigset and that nothing is written past the
 * user's sigsetsize.
 */
static inline int ksig_find_not(const struct ksig_set *s, int from, int to,
				int val)
{
	int i;

	for (i = from; i < to; i++)
		if (s->b[i] != (unsigned char)val)
			return i;
	return -1;
}

/*
 * The kernel's struct sigaction for rt_sigaction(), native 64-bit and
 * compat 32-bit alike (unsigned long is the word size of either): the mask
 * is last and sigsetsize bytes long.  MIPS's (IRIX's) puts an unsigned int
 * sa_flags first, padded to the handler's alignment (flags is read whole,
 * as the little-endian int and its zero padding), and has no sa_restorer:
 * its signal frames return through the kernel's own trampoline (the vDSO).
 */
#ifdef __mips__
struct ksig_sigaction {
	unsigned long flags;
	unsigned long handler;
	unsigned char mask[KSIG_BUF];
};

#define KSIG_SA_SIGINFO		0x00000008
#define KSIG_SA_RESTORER	0
#define KSIG_SA_NODEFER		0x40000000
#else
struct ksig_sigaction {
	unsigned long handler;
	unsigned long flags;
	unsigned long restorer;
	unsigned char mask[KSIG_BUF];
};

#define KSIG_SA_SIGINFO		0x00000004
#define KSIG_SA_RESTORER	0x04000000
#define KSIG_SA_NODEFER		0x40000000
#endif

/*
 * Signal return trampolines for handlers installed with raw rt_sigaction()
 * (glibc's own are not exported).  ksig_restore is the non-rt one of the
 * 32-bit programs (i386, arm).
 */
void ksig_restore_rt(void);
#ifdef __x86_64__
__asm__(".text\n"
	".type ksig_restore_rt, @function\n"
	"ksig_restore_rt:\n"
	"\tmovq $15, %rax\n"		/* __NR_rt_sigreturn */
	"\tsyscall\n"
	"\thlt\n"
	".size ksig_restore_rt, .-ksig_restore_rt\n");
#elif defined(__i386__)
void ksig_restore(void);
__asm__(".text\n"
	".type ksig_restore_rt, @function\n"
	"ksig_restore_rt:\n"
	"\tmovl $173, %eax\n"		/* __NR_rt_sigreturn */
	"\tint $0x80\n"
	"\thlt\n"
	".size ksig_restore_rt, .-ksig_restore_rt\n"
	".type ksig_restore, @function\n"
	"ksig_restore:\n"
	"\tpopl %eax\n"
	"\tmovl $119, %eax\n"		/* __NR_sigreturn */
	"\tint $0x80\n"
	"\thlt\n"
	".size ksig_restore, .-ksig_restore\n");
#elif defined(__aarch64__)
__asm__(".text\n"
	".type ksig_restore_rt, %function\n"
	"ksig_restore_rt:\n"
	"\tmov x8, #139\n"		/* __NR_rt_sigreturn (asm-generic) */
	"\tsvc #0\n"
	"\tbrk #0\n"
	".size ksig_restore_rt, .-ksig_restore_rt\n");
#elif defined(__arm__)
void ksig_restore(void);
__asm__(".text\n"
	".arm\n"
	".align 2\n"
	".type ksig_restore_rt, %function\n"
	"ksig_restore_rt:\n"
	"\tmov r7, #173\n"		/* __NR_rt_sigreturn (EABI) */
	"\tsvc #0\n"
	".size ksig_restore_rt, .-ksig_restore_rt\n"
	".type ksig_restore, %function\n"
	"ksig_restore:\n"
	"\tmov r7, #119\n"		/* __NR_sigreturn */
	"\tsvc #0\n"
	".size ksig_restore, .-ksig_restore\n");
#elif !defined(__mips__)
#error "ksig.h: x86, arm64, 32-bit arm and MIPS only"
#endif

/* Raw system calls: -1 and errno as syscall() returns them. */
static inline long ksig_procmask(int how, const struct ksig_set *set,
				 struct ksig_set *old, size_t size)
{
	return syscall(SYS_rt_sigprocmask, how, set ? set->b : NULL,
		       old ? old->b : NULL, size);
}

static inline long ksig_pending(struct ksig_set *set, size_t size)
{
	return syscall(SYS_rt_sigpending, set ? set->b : NULL, size);
}

static inline long ksig_action(int sig, const struct ksig_sigaction *act,
			       struct ksig_sigaction *old, size_t size)
{
	return syscall(SYS_rt_sigaction, sig, act, old, size);
}

static inline long ksig_suspend(const struct ksig_set *set, size_t size)
{
	return syscall(SYS_rt_sigsuspend, set ? set->b : NULL, size);
}

static inline long ksig_queueinfo(pid_t pid, int sig, void *info)
{
	return syscall(SYS_rt_sigqueueinfo, pid, sig, info);
}

/* Fill a raw struct ksig_sigaction for a handler. */
static inline void ksig_set_handler(struct ksig_sigaction *sa, void *fn,
				    unsigned long flags,
				    const struct ksig_set *mask)
{
	memset(sa, 0, sizeof(*sa));
	sa->handler = (unsigned long)fn;
	sa->flags = flags | KSIG_SA_RESTORER;
#if defined(__i386__) || defined(__arm__)
	/*
	 * i386 and arm build an rt frame only for an SA_SIGINFO handler;
	 * another returns through the non-rt sigreturn, or dies of a frame
	 * read as the wrong kind (SIGILL, SIGSEGV).
	 */
	sa->restorer = (flags & KSIG_SA_SIGINFO) ? (unsigned long)ksig_restore_rt :
						   (unsigned long)ksig_restore;
#elif !defined(__mips__)
	sa->restorer = (unsigned long)ksig_restore_rt;
#endif
	if (mask)
		memcpy(sa->mask, mask->b, sizeof(sa->mask));
}

#endif /* WS_KSIG_H */
