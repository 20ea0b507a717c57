// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/sigset_mistakes.cocci: parsed standalone, never compiled. */
#define _NSIG		64
#define _NSIG_BPW	64
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)
#define SIGKILL		9
#define SIGCONT		18
#define SIGSTOP		19
#define EINVAL		22

typedef __builtin_va_list va_list;
typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;

/* positive: the initialiser moved into one branch only (RFC prepare_signal) */
static void prepare_signal(int sig, struct task_struct *p, struct signal_struct *signal)
{
	struct task_struct *t;
	sigset_t flush;

	if (sig_kernel_stop(sig)) {
		flush_sigqueue_sig(&signal->shared_pending, SIGCONT);
		for_each_thread(p, t)
			flush_sigqueue_mask(&flush, &t->pending);
	} else if (sig == SIGCONT) {
		siginitset(&flush, 1UL << 18);
		flush_sigqueue_mask(&flush, &signal->shared_pending);
	}
}

/* positive: sigaddset() on a set nobody emptied (RFC do_sigaction) */
static void ignore_pending(struct task_struct *p, int sig)
{
	sigset_t mask;

	sigaddset(&mask, sig);
	flush_sigqueue_mask(&mask, &p->signal->shared_pending);
}

/* positive: a word read before any write, and a whole-set read */
static unsigned long first_word(struct task_struct *p)
{
	sigset_t s, copy;

	if (s.sig[0])
		return 1;
	p->blocked = copy;
	return 0;
}

/* positive: va_start() without va_end() (RFC __flush_sigqueue_sig) */
static void __flush_sigqueue_sig(struct sigpending *s, int count, ...)
{
	va_list ap;
	sigset_t mask;
	int sig;

	sigemptyset(&mask);
	va_start(ap, count);
	while (count > 0) {
		sig = va_arg(ap, int);
		if (valid_signal(sig) && sig != 0)
			sigaddset(&mask, sig);
		count--;
	}
	flush_sigqueue_mask(&mask, s);
}

/* positive: va_end() missed on an early return */
static int sum_signals(int count, ...)
{
	va_list ap;
	int total = 0;

	va_start(ap, count);
	if (count > _NSIG)
		return -EINVAL;
	while (count--)
		total += va_arg(ap, int);
	va_end(ap);
	return total;
}

/* positive: doubly negated checks (RFC PTRACE_GETSIGMASK) */
static long ptrace_getsigmask(unsigned long addr, int sig)
{
	if (!valid_sigsetsize(addr) == 0)
		return -EINVAL;
	if (!sig_kernel_only(sig) != 0)
		return 1;
	if (!!valid_signal(sig))
		return -EINVAL;
	if (!(!sigismember(&current->blocked, sig)))
		return 2;
	else
		return 3;
}

/* negative: every set initialised first, on every path */
static int fine(sigset_t __user *uset, struct task_struct *p, int how, int sig, ...)
{
	sigset_t a, b, c, d, e, f, g, old;
	va_list ap;

	sigemptyset(&a);
	sigaddset(&a, SIGKILL);
	sigfillset(&b);
	sigdelset(&b, SIGSTOP);
	if (copy_from_user(&c, uset, sizeof(c)))
		return -EFAULT;
	sigandsets(&d, &a, &b);
	sigprocmask(how, &c, &old);
	e = p->blocked;
	memset(&f, 0, sizeof(f));
	do_sigpending(&g);
	if (sigequalsets(&d, &old) || sigisemptyset(&e) || sigismember(&f, sig))
		return !!sigismember(&g, sig);
	va_start(ap, sig);
	if (!valid_signal(sig) || valid_sigsetsize(how) == 0) {
		va_end(ap);
		return -EINVAL;
	}
	va_end(ap);
	return !sig_kernel_only(sig);
}

/* negative: the compat initialisers of the first word (nsig's osf_sigprocmask) */
static long osf_sigprocmask(int how, unsigned long newmask, sigset_t *oldmask)
{
	sigset_t mask, inv;

	compat_siginitset(&mask, newmask);
	compat_siginitsetinv(&inv, newmask);
	sigandsets(&mask, &mask, &inv);
	return sigprocmask(how, &mask, oldmask);
}

/* negative: initialised declarations, and plain negated checks */
static int do_sigtimedwait(const sigset_t *which, struct task_struct *current, int sig)
{
	sigset_t mask = *which;
	sigset_t old_set = current->blocked;

	sigdelset(&mask, SIGKILL);
	signotset(&mask);
	if (!valid_signal(sig))
		return -EINVAL;
	if (!sig_kernel_coredump(sig))
		sigaddset(&old_set, sig);
	else
		sigdelset(&old_set, sig);
	return sigequalsets(&mask, &old_set);
}

/* negative: sigpending() fills the set, as in user space (selftests) */
int sigpending(sigset_t *set);

static int term_is_pending(void)
{
	sigset_t pending;

	return !sigpending(&pending) && sigismember(&pending, SIGTERM);
}

/* negative: nsig v3's list forms initialise the whole set */
static void flush_listed(struct task_struct *p)
{
	sigset_t a, b;

	siginitset_list(&a, SIGKILL, SIGSTOP);
	flush_sigqueue_mask(&a, &p->pending);
	siginitsetinv_list(&b, SIGKILL);
	flush_sigqueue_mask(&b, &p->pending);
}

/* negative: nsig's get_uc_sigmask() fills the set from a signal frame */
static long restore_sigframe(struct rt_sigframe __user *sf, bool ext)
{
	sigset_t set;

	if (get_uc_sigmask(&set, &sf->uc.uc_sigmask, ext))
		return -EFAULT;
	set_current_blocked(&set);
	return 0;
}
