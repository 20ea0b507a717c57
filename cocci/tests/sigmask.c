// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/sigmask.cocci: parsed standalone, never compiled. */
#define _NSIG		64
#define _NSIG_BPW	64
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)
#define SIGHUP		1
#define SIGINT		2
#define SIGKILL		9
#define SIGTERM		15
#define SIGCONT		18
#define SIGSTOP		19

typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;

struct task_struct {
	sigset_t blocked;
};

/* positive: a mask macro built from sigmask() */
#define SHUTDOWN_SIGS	(sigmask(SIGKILL) | sigmask(SIGINT) | sigmask(SIGTERM))

/* positive: a sigmask() test */
static int is_shutdown_signal(int sig)
{
	return (sigmask(sig) & SHUTDOWN_SIGS) != 0;
}

/* positive, patched: two-term sigdelsetmask() */
static void set_current_blocked(sigset_t *newset)
{
	sigdelsetmask(newset, sigmask(SIGKILL) | sigmask(SIGSTOP));
	__set_current_blocked(newset);
}

/* positive, patched: siginitsetinv() with a one-term mask */
static void ceph_block_sigs(sigset_t *oldset)
{
	sigset_t mask;

	siginitsetinv(&mask, sigmask(SIGKILL));
	sigprocmask(SIG_BLOCK, &mask, oldset);
}

/* positive, patched: three terms, rt_sigmask() and a field */
static void copy_process_blocked(struct task_struct *p)
{
	siginitset(&p->blocked, sigmask(SIGHUP) | rt_sigmask(SIGINT) | sigmask(SIGTERM));
	sigaddsetmask(&p->blocked, rt_sigmask(SIGCONT));
}

/* positive, patched: sigtestsetmask() */
static int hup_or_int(sigset_t *set)
{
	return sigtestsetmask(set, sigmask(SIGHUP) | sigmask(SIGINT));
}

/* positive, not patched: the mask is a variable (compat one-word ABI) */
static void old_sigprocmask(sigset_t *blocked, unsigned long new_set)
{
	new_set &= ~(sigmask(SIGKILL) | sigmask(SIGSTOP));
	sigaddsetmask(blocked, new_set);
}

/* positive, not patched: the set argument has a side effect */
static void blocked_of_next(sigset_t **cursor)
{
	sigdelsetmask(*(*cursor)++, sigmask(SIGKILL));
}

/* positive: the one-word kernel masks and siginmask() */
static int stop_or_ignore(int sig)
{
	if (siginmask(sig, SIG_KERNEL_STOP_MASK))
		return 1;
	return (rt_sigmask(sig) & (SIG_KERNEL_IGNORE_MASK | SIGEMT_MASK)) != 0;
}

/* positive, patched: a single-statement branch gets braces */
static void branchy(sigset_t *s, int x)
{
	if (x)
		sigdelsetmask(s, sigmask(SIGKILL) | sigmask(SIGSTOP));
}

/* negative: per-signal helpers and look-alike names */
static void clean(sigset_t *set, struct task_struct *t)
{
	sigdelset(set, SIGKILL);
	sigaddset(&t->blocked, SIGSTOP);
	if (sigismember(set, SIGHUP))
		sigemptyset(set);
	t->sigmask_len = SIGNAL_STOP_MASK | SIGIO_MASK;
	compat_sigmask(SIGKILL);
	sigprocmask(SIG_SETMASK, set, NULL);
}
