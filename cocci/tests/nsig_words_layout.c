// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/nsig_words_layout.cocci: parsed standalone, never compiled. */
#define _NSIG		64
#define _NSIG_BPW	32
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)
#define _COMPAT_NSIG_WORDS	2

typedef unsigned long long u64;
typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;

/* positive: old-style frames carrying the words after the first */
struct sigframe {
	struct sigcontext sc;
	unsigned long extramask[_NSIG_WORDS-1];
	char retcode[8];
};

struct sigframe32 {
	unsigned int extramask[_COMPAT_NSIG_WORDS - 1];
};

/* positive: a fixed-size extramask[] */
struct sigframe_ia32 {
	int sig;
	unsigned int extramask[1];
};

static int restore(struct sigframe_ia32 *frame, sigset_t *set)
{
	unsigned long words[_NSIG_WORDS - 1];

	/* positive: one fixed extra word */
	if (__get_user(set->sig[1], &frame->extramask[0]))
		return -1;
	words[0] = 0;
	return 0;
}

/* positive: build-time checks on the sigset size */
static void checks(void)
{
	BUILD_BUG_ON(_NSIG_WORDS != 2);
	BUILD_BUG_ON(sizeof(sigset_t) != sizeof(u64));
	BUILD_BUG_ON(_NSIG > 64);
}

/* positive: sizeof(sigset_t) compared with a fixed size */
static int frame_size_ok(void)
{
	if (sizeof(sigset_t) == 8)
		return 1;
	return 8 != sizeof(compat_sigset_t);
}

/* negative: sizes of sigsets against each other, loops, other arrays */
static int fine(struct sigframe *frame, sigset_t *set, unsigned long len)
{
	unsigned long copy[_NSIG_WORDS];
	int i;

	BUILD_BUG_ON(sizeof(struct sigframe) > 4096);
	if (sizeof(compat_sigset_t) > sizeof(sigset_t))
		return -1;
	for (i = 1; i < _NSIG_WORDS; i++)
		frame->extramask[i - 1] = set->sig[i];
	if (len != sizeof(sigset_t))
		return -1;
	return copy[0] != 0;
}
