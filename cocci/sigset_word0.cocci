// SPDX-License-Identifier: GPL-2.0-only
/// Find code that reads or writes only the first word of a sigset.
///
/// set->sig[0] = x, x = set.sig[0] and type puns such as
/// *(__u64 *)&set copy the first _NSIG_WORDS word of a sigset_t and drop
/// the rest.  That is right for a one-word old_sigset_t ABI and wrong for
/// a whole sigset once _NSIG goes past BITS_PER_LONG (see "signals: Put
/// the full signal mask on the signal stack" in the "Support more than
/// 64 signals" RFC).  A sig[0] access is reported only when the same
/// function touches no other word (no sig[1], sig[i], sig[n / _NSIG_BPW]
/// ...), which leaves out the unrolled switch (_NSIG_WORDS) helpers.
///
// Confidence: Low
// Comments: Most hits in kernel/signal.c and the arch signal code are the
//  legacy one-word syscalls (sgetmask, sigprocmask, old sigaction,
//  sigsuspend) and are correct as they are; they are listed so a human can
//  check each one.  The field is matched by name: any struct with a sig[]
//  array is a candidate.  Accesses inside #define bodies, and inside
//  SYSCALL_DEFINE0() bodies, are grouped per file rather than per
//  function.  No patch mode.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

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


# (file, function) pairs that touch a word other than sig[0]
others = set()

def where(p):
	return (p[0].file, p[0].current_element)

def word0_msg(p, how):
	return ("INFO: %s() %s only sig[0] of a sigset: the other words are ignored (right for a one-word old_sigset_t, wrong for a whole sigset_t) (low confidence)"
		% (p[0].current_element, how))

PUN_MSG = "INFO: a sigset_t is accessed through a scalar pointer cast: only its first word(s) are copied (low confidence)"

// ---------------------------------------------------------------------------

@otherword@
expression E, I;
position p;
@@

\(E.sig@p[I]\|E->sig@p[I]\)

@script:python@
I << otherword.I;
p << otherword.p;
@@

if I.strip() not in ("0", "0UL", "0L", "0U"):
	others.add(where(p))

@write@
expression E, X;
assignment operator aop;
position p;
@@

\(E.sig@p[0]\|E->sig@p[0]\) aop X

@script:python@
p << write.p;
@@

if where(p) in others:
	cocci.include_match(False)

@read@
expression E;
position p != write.p;
@@

\(E.sig@p[0]\|E->sig@p[0]\)

@script:python@
p << read.p;
@@

if where(p) in others:
	cocci.include_match(False)

@pun@
typedef sigset_t, compat_sigset_t;
{sigset_t, compat_sigset_t} s;
{sigset_t *, compat_sigset_t *} ps;
type T;
expression I;
position p;
@@

(
 *(T *)@p&s
|
 *(T *)@p ps
|
 ((T *)@p&s)[I]
|
 ((T *)@p ps)[I]
)

// ---------------------------------------------------------------------------

@depends on context@
expression write.E;
position write.p;
@@

* \(E.sig@p[0]\|E->sig@p[0]\)

@depends on context@
expression read.E;
position read.p;
@@

* \(E.sig@p[0]\|E->sig@p[0]\)

@depends on context@
type pun.T;
expression E;
position pun.p;
@@

* (T *)@p E

@script:python depends on report@
p << write.p;
@@

emit(p, word0_msg(p, "writes"), False)

@script:python depends on org@
p << write.p;
@@

emit(p, word0_msg(p, "writes"), True)

@script:python depends on report@
p << read.p;
@@

emit(p, word0_msg(p, "reads"), False)

@script:python depends on org@
p << read.p;
@@

emit(p, word0_msg(p, "reads"), True)

@script:python depends on report@
p << pun.p;
@@

emit(p, PUN_MSG, False)

@script:python depends on org@
p << pun.p;
@@

emit(p, PUN_MSG, True)
