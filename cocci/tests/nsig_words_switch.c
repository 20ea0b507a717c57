// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/nsig_words_switch.cocci: parsed standalone, never compiled. */
#define _NSIG		64
#define _NSIG_BPW	64
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)
#define _COMPAT_NSIG_WORDS	2

typedef struct {
	unsigned long sig[_NSIG_WORDS];
} sigset_t;

typedef struct {
	unsigned int sig[_COMPAT_NSIG_WORDS];
} compat_sigset_t;

/* positive: default is BUILD_BUG() */
static inline int sigisemptyset(sigset_t *set)
{
	switch (_NSIG_WORDS) {
	case 4:
		return (set->sig[3] | set->sig[2] |
			set->sig[1] | set->sig[0]) == 0;
	case 2:
		return (set->sig[1] | set->sig[0]) == 0;
	case 1:
		return set->sig[0] == 0;
	default:
		BUILD_BUG();
		return 0;
	}
}

/* positive: no default */
static inline int sigequalsets(const sigset_t *set1, const sigset_t *set2)
{
	switch (_NSIG_WORDS) {
	case 2:
		return	(set1->sig[1] == set2->sig[1]) &&
			(set1->sig[0] == set2->sig[0]);
	case 1:
		return	set1->sig[0] == set2->sig[0];
	}
	return 0;
}

/* positive: default BUILD_BUG() inside a multi-line macro body */
#define _SIG_SET_OP(name, op)						\
static inline void name(sigset_t *set)					\
{									\
	switch (_NSIG_WORDS) {						\
	case 2:	set->sig[1] = op(set->sig[1]);				\
		fallthrough;						\
	case 1:	set->sig[0] = op(set->sig[0]);				\
		    break;						\
	default:							\
		BUILD_BUG();						\
	}								\
}

/* positive: no default on the compat word count, default BUG() */
static void put_compat(compat_sigset_t *v, const sigset_t *set)
{
	switch (_COMPAT_NSIG_WORDS) {
	case 2: v->sig[1] = set->sig[0] >> 32;
		fallthrough;
	case 1: v->sig[0] = set->sig[0];
	}
	switch (_NSIG_WORDS) {
	case 1: v->sig[0] = set->sig[0];
		break;
	default:
		BUG();
	}
}

/* negative: a real default, first or last */
static inline void sigemptyset(sigset_t *set)
{
	switch (_NSIG_WORDS) {
	default:
		memset(set, 0, sizeof(sigset_t));
		break;
	case 2: set->sig[1] = 0;
		fallthrough;
	case 1:	set->sig[0] = 0;
		break;
	}
}

static inline void signotset(sigset_t *set)
{
	int i;

	switch (_NSIG_WORDS) {
	case 1:	set->sig[0] = ~set->sig[0];
		break;
	default:
		for (i = 0; i < _NSIG_WORDS; i++)
			set->sig[i] = ~set->sig[i];
		break;
	}
}

/* negative: a switch on something else */
static int other(int how)
{
	switch (how) {
	case 1:
		return 0;
	}
	return 1;
}

/* negative: a default whose loop has braces, under an #if */
static void put_compat_v(compat_sigset_t *v, const sigset_t *set)
{
	int i;

#if defined(__BIG_ENDIAN) && defined(CONFIG_64BIT)
	switch (_NSIG_WORDS) {
	default:
		for (i = 0; i < _NSIG_WORDS; i++) {
			v->sig[(i * 2)]     = set->sig[i];
			v->sig[(i * 2) + 1] = set->sig[i] >> 32;
		}
		break;
	case 1:
		v->sig[1] = (set->sig[0] >> 32);
		v->sig[0] =  set->sig[0];
	}
#else
	memcpy(v, set, sizeof(*v));
#endif
}

/* positive: no default, with braces in a case */
static int any(const sigset_t *set)
{
	int i, r = 0;

	switch (_NSIG_WORDS) {
	case 2: {
		for (i = 0; i < 2; i++)
			r |= set->sig[i] != 0;
		break;
	}
	case 1:
		r = set->sig[0] != 0;
	}
	return r;
}
