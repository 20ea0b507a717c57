// SPDX-License-Identifier: GPL-2.0-only
/// Find _NSIG_WORDS definitions that truncate instead of rounding up.
///
/// "#define _NSIG_WORDS (_NSIG / _NSIG_BPW)" is right only while _NSIG is
/// a multiple of the word size.  With 65 signals (SIGINFO in the "Support
/// more than 64 signals" RFC) it gives one word too few, and every sigset_t
/// loses its top signals.  The RFC rounds up on the generic and x86
/// definitions ("signals: Round up _NSIG_WORDS").  Any macro whose name
/// ends in NSIG_WORDS (_NSIG_WORDS, _COMPAT_NSIG_WORDS,
/// _SIGCONTEXT_NSIG_WORDS) defined as a plain division is reported.
///
/// Patch mode rewrites the division into ((N + B - 1) / B), as the RFC
/// does (DIV_ROUND_UP() is not available to the uapi headers).
///
// Confidence: High
// Comments: Compat word counts describe a fixed user ABI and so may
//  legitimately stay truncating; they are reported all the same, since
//  rounding up there is harmless.  Run it on the headers themselves
//  (arch/*/include/asm/signal.h, include/uapi/asm-generic/signal.h):
//  hence --include-headers.
// Options: --no-includes --include-headers

virtual patch
virtual context
virtual org
virtual report

@fix depends on patch@
identifier W =~ "NSIG_WORDS$";
identifier N, B;
@@

#define W
- (N / B)
+ ((N + B - 1) / B)

@r depends on !patch@
identifier W =~ "NSIG_WORDS$";
identifier N, B;
position p;
@@

#define W@p (N / B)

@depends on context@
identifier r.W, r.N, r.B;
position r.p;
@@

* #define W@p (N / B)

@initialize:python@
@@

# A macro body or an #ifdef variant can give the same match twice:
# print each report once.
_seen = set()

def emit(p, msg, org):
	key = (p[0].file, p[0].line, p[0].column, msg)
	if key in _seen:
		return
	_seen.add(key)
	if org:
		coccilib.org.print_todo(p[0], msg)
	else:
		coccilib.report.print_report(p[0], msg)

@script:python depends on report@
W << r.W;
N << r.N;
B << r.B;
p << r.p;
@@

emit(p, "WARNING: %s truncates (%s / %s): one word too few once %s is not a multiple of %s; round up" % (W, N, B, N, B), False)

@script:python depends on org@
W << r.W;
N << r.N;
B << r.B;
p << r.p;
@@

emit(p, "WARNING: %s truncates (%s / %s): one word too few once %s is not a multiple of %s; round up" % (W, N, B, N, B), True)
