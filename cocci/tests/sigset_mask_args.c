// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/sigset_mask_args.cocci: parsed standalone, never compiled. */
#define _NSIG		64
#define _NSIG_BPW	64
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)
#define SIGHUP		1
#define SIGKILL		9
#define SIGCONT		18
#define SIGSTOP		19
#define SIGRTMIN	32
#define __user

typedef unsigned long old_sigset_t;
typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;

struct old_sigaction {
	void *sa_handler;
	old_sigset_t sa_mask;
};

/* positive: siginitset() with a sigmask() and a | mask expression */
static void jffs2_thread(void)
{
	sigset_t hupmask, flush;

	siginitset(&hupmask, sigmask(SIGHUP));
	siginitsetinv(&flush, sigmask(SIGKILL) | sigmask(SIGSTOP));
}

/* positive: siginitset() with a mask constant and a mask variable */
static void prepare(sigset_t *flush, unsigned long newmask)
{
	siginitset(flush, SIG_KERNEL_STOP_MASK);
	siginitset(flush, newmask & _BLOCKABLE);
	siginitset(flush, newmask);
}

/* positive: user-space masks (get_user, copy_from_user, old_sigset_t) */
static int old_sigaction(struct old_sigaction __user *act, sigset_t *set)
{
	old_sigset_t mask;
	unsigned long word;

	if (__get_user(mask, &act->sa_mask))
		return -EFAULT;
	siginitset(set, mask);
	if (copy_from_user(&word, act, sizeof(word)))
		return -EFAULT;
	sigaddset(set, word);
	return 0;
}

static void old_suspend(sigset_t *blocked, old_sigset_t m)
{
	siginitsetinv(blocked, m);
}

/* positive: siginitset() given a signal number (6.1 wants a mask) */
static void wrong_already(sigset_t *s, int sig)
{
	siginitset(s, SIGCONT);
	siginitsetinv(s, sig);
}

/* positive: masks passed to sigaddset()/sigdelset() */
static void bad_add(sigset_t *s, unsigned long sigbits, struct task_struct *t)
{
	sigaddset(s, sigmask(SIGKILL));
	sigdelset(s, SIGKILL | SIGSTOP);
	sigdelset(s, SHUTDOWN_SIGS);
	sigaddset(s, sigbits);
	sigdelset(s, t->blocked_mask);
}

/* positive, low confidence: not obviously a signal number */
static void unclear(sigset_t *s, int x, struct thing *th)
{
	sigaddset(s, x);
	sigdelset(s, th->value);
	sigaddset(s, pick(x));
}

/* negative: signal numbers */
static void fine(sigset_t *s, int sig, struct ksignal *ksig, struct kernel_siginfo *info)
{
	int i;

	sigaddset(s, SIGKILL);
	sigdelset(s, sig);
	sigaddset(s, ksig->sig);
	sigdelset(s, info->si_signo);
	for (i = 1; i < _NSIG; i++)
		sigaddset(s, i);
	sigaddset(s, SIGRTMIN + 1);
	sigaddset(s, signr);
	siginitset(s, 0);
	siginitsetinv(s, 0UL);
	sigaddsetmask(s, 3);
}

/* negative: calls already in the RFC's list-of-signals form */
static void rfc_form(sigset_t *s, struct task_struct *p)
{
	siginitsetinv(&p->blocked, SIGKILL, SIGSTOP);
	siginitset(s, SIGHUP, SIGCONT);
	sigdelset(s, SIGKILL, SIGSTOP);
}

/* positive: a mask hidden in a list of signals */
static void rfc_form_bad(sigset_t *s)
{
	sigaddset(s, SIGKILL, sigmask(SIGSTOP));
}
