// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/sigsetsize_check.cocci: parsed standalone, never compiled. */
#define _NSIG		64
#define _NSIG_BPW	64
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)
#define EINVAL		22
#define __user

typedef unsigned long size_t;
typedef unsigned long old_sigset_t;
typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;
typedef struct {
	unsigned int sig[2];
} compat_sigset_t;

struct kvm_signal_mask {
	unsigned int len;
	unsigned char sigset[0];
};

/* positive: the rt_sig*() syscalls */
SYSCALL_DEFINE2(rt_sigsuspend, sigset_t __user *, unewset, size_t, sigsetsize)
{
	sigset_t newset;

	if (sigsetsize != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&newset, unewset, sizeof(newset)))
		return -EFAULT;
	return sigsuspend(&newset);
}

SYSCALL_DEFINE2(rt_sigpending, sigset_t __user *, uset, size_t, sigsetsize)
{
	sigset_t set;

	if (sigsetsize > sizeof(*uset))
		return -EINVAL;
	do_sigpending(&set);
	return copy_to_user(uset, &set, sigsetsize) ? -EFAULT : 0;
}

/* positive: the compat side, ptrace and KVM */
static long compat_rt_sigaction(int sig, unsigned int sigsetsize)
{
	if (sigsetsize != sizeof(compat_sigset_t))
		return -EINVAL;
	return 0;
}

static long ptrace_getsigmask(unsigned long addr, sigset_t *mask)
{
	if (addr != sizeof(sigset_t))
		return -EINVAL;
	return 0;
}

static long kvm_set_sigmask(struct kvm_signal_mask kvm_sigmask)
{
	sigset_t sigset;

	if (kvm_sigmask.len != sizeof(sigset))
		return -EINVAL;
	return 0;
}

/* negative: sizes compared with sizes, and sizeof() used as a length */
static long fine(sigset_t __user *uset, size_t sigsetsize)
{
	sigset_t set;

	if (sizeof(old_sigset_t) > sizeof(*uset))
		return -EINVAL;
	if (sizeof(compat_sigset_t) != sizeof(sigset_t))
		return -EINVAL;
	if (copy_from_user(&set, uset, sizeof(sigset_t)))
		return -EFAULT;
	if (sigsetsize < 8 || sigsetsize > 128)
		return -EINVAL;
	return 0;
}
