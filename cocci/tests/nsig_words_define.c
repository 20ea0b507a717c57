// SPDX-License-Identifier: GPL-2.0
/* Test input for cocci/nsig_words_define.cocci: parsed standalone, never compiled. */

/* positive: the 6.1 generic and x86 definitions */
#define _NSIG		64
#define _NSIG_BPW	__BITS_PER_LONG
#define _NSIG_WORDS	(_NSIG / _NSIG_BPW)

/* positive: compat and s390-style word counts */
#define _COMPAT_NSIG_WORDS	(_COMPAT_NSIG / _COMPAT_NSIG_BPW)
#define _SIGCONTEXT_NSIG_WORDS	(_SIGCONTEXT_NSIG / _SIGCONTEXT_NSIG_BPW)

/* negative: already rounding up, or not a division */
#define _NSIG_WORDS	((_NSIG + _NSIG_BPW - 1) / _NSIG_BPW)
#define _NSIG_WORDS	DIV_ROUND_UP(_NSIG, _NSIG_BPW)
#define _NSIG_WORDS	_SIGCONTEXT_NSIG_WORDS
#define _NSIG_BYTES	(_NSIG / 8)
#define NSIG_WORDS_MAX	4
