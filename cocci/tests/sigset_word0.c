// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/sigset_word0.cocci: parsed standalone, never compiled. */
#define _NSIG		64
#define _NSIG_BPW	32
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)

typedef unsigned long long __u64;
typedef unsigned long old_sigset_t;
typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;

struct task_struct {
	sigset_t blocked;
};

/* positive: reads word 0 only */
static old_sigset_t sgetmask(struct task_struct *current)
{
	return current->blocked.sig[0];
}

/* positive: writes word 0 only */
static void set_old(sigset_t *set, old_sigset_t mask)
{
	set->sig[0] = mask;
}

/* positive: both, through a local */
static int pending_word(sigset_t *pending, sigset_t *blocked)
{
	sigset_t s;

	s.sig[0] |= pending->sig[0];
	return (s.sig[0] & ~blocked->sig[0]) != 0;
}

/* positive: type puns copying the first 64 bits */
static int rt_sigreturn(void *uc_sigmask)
{
	sigset_t set;

	if (__get_user(*(__u64 *)&set, (__u64 *)uc_sigmask))
		return -1;
	return 0;
}

static int put_mask(sigset_t *set, void *frame)
{
	return __put_user(*(__u64 *)set, (__u64 *)frame);
}

static int get_halves(sigset_t *set, unsigned int *extramask)
{
	return __get_user(((unsigned int *)set)[1], &extramask[0]);
}

/* negative: the other words are handled in the same function */
static inline void sigaddset(sigset_t *set, int _sig)
{
	unsigned long sig = _sig - 1;

	if (_NSIG_WORDS == 1)
		set->sig[0] |= 1UL << sig;
	else
		set->sig[sig / _NSIG_BPW] |= 1UL << (sig % _NSIG_BPW);
}

static inline void siginitset(sigset_t *set, unsigned long mask)
{
	set->sig[0] = mask;
	switch (_NSIG_WORDS) {
	default:
		memset(&set->sig[1], 0, sizeof(long)*(_NSIG_WORDS-1));
		break;
	case 2: set->sig[1] = 0;
		break;
	case 1: ;
	}
}

static int any_pending(sigset_t *set)
{
	int i;

	for (i = 0; i < _NSIG_WORDS; i++)
		if (set->sig[i])
			return 1;
	return 0;
}

/* negative: a whole-set copy and a non-sigset cast */
static void copy(sigset_t *dst, sigset_t *src, long *p)
{
	*dst = *src;
	*(int *)p = 0;
}
