// SPDX-License-Identifier: GPL-2.0-only
/// Find mistakes that are easy to make while converting signal code to
/// per-signal, variable-length helpers:
///
///  - a local sigset_t used before it is initialised on some path: its
///    address passed to anything but an initialiser (sigemptyset(),
///    sigfillset(), [compat_]siginitset[inv](), nsig v3's
///    siginitset[inv]_list(), memset(), memcpy(),
///    [__]copy_from_user(), get_compat_sigset(), copy_[compat_]sigset_from_
///    user(), nsig's get_uc_sigmask() (a signal frame's mask),
///    [do_]sigpending(), the destination of sig{and,or,andn}sets(),
///    the old set of sigprocmask(), a [__]get_user() into it), or a word
///    of it read, before any of these or an assignment.  The RFC's
///    prepare_signal() and do_sigaction() hunks drop a siginitset()/
///    sigemptyset() but keep a later flush_sigqueue_mask(&flush, ...);
///  - va_start() or va_copy() without va_end() on some path (the RFC's
///    __flush_sigqueue_sig());
///  - a doubly negated check of a signal predicate (valid_signal(),
///    valid_sigsetsize(), sig_*(), sigis*(), sigismember(),
///    realtime_signal(), ...): "!valid_sigsetsize(n) == 0" is true for a
///    valid size (the RFC's PTRACE_GETSIGMASK hunk), "!f(x) != 0" is a
///    convoluted "!f(x)", and "if (!!f(x))" / "if (!(!f(x)))" is "if
///    (f(x))" where "if (!f(x))" was likely meant.
///
// Confidence: Moderate
// Comments: The use-before-init search is path-insensitive: two tests of
//  the same condition (if (nset) { init } ... if (nset) { use }) give a
//  false positive, and an unknown function that fills the set through its
//  address is taken for a use.  The other two parts are High confidence.
//  No patch mode: each fix needs a decision.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

// ---------------------------------------------------------------------------
// 1. sigset_t used before initialisation

@uninit disable decl_init exists@
typedef sigset_t;
identifier s;
identifier init = {sigemptyset, sigfillset, siginitset, siginitsetinv,
		   siginitset_list, siginitsetinv_list,
		   compat_siginitset, compat_siginitsetinv,
		   memset, memcpy, copy_from_user, __copy_from_user,
		   get_compat_sigset, copy_sigset_from_user,
		   copy_compat_sigset_from_user, get_uc_sigmask,
		   do_sigpending, sigpending,
		   sigandsets, sigorsets, sigandnsets};
identifier getu = {get_user, __get_user, unsafe_get_user};
expression E, E1, E2;
position p;
@@

sigset_t s;
... when != s
(
 init(&s, ...)
|
 sigprocmask(E1, E2, &s)
|
 getu(<+... s ...+>, ...)
|
 s = E
|
 s.sig[E1] = E2
|
 s@p
)

// ---------------------------------------------------------------------------
// 2. va_start()/va_copy() without va_end()

@va exists@
expression ap;
identifier fn;
position p;
@@

fn(...) {
... when any
\(va_start@p(ap, ...)\|va_copy@p(ap, ...)\);
... when != va_end(ap)
}

// ---------------------------------------------------------------------------
// 3. doubly negated predicate checks

@dneg disable is_zero, isnt_zero@
identifier f =~ "^(valid_|sig_|sigis|sigismember$|sigequalsets$|sigtestsetmask$|realtime_signal$)";
expression list ES;
position p1, p2;
@@

(
 !f@p1(ES) == 0
|
 !f@p2(ES) != 0
)

@notnot disable is_zero, isnt_zero, neg_if@
identifier f =~ "^(valid_|sig_|sigis|sigismember$|sigequalsets$|sigtestsetmask$|realtime_signal$)";
expression list ES;
statement S1, S2;
position p;
@@

(
 if (\(!!f@p(ES)\|!(!f@p(ES))\)) S1 else S2
|
 if (\(!!f@p(ES)\|!(!f@p(ES))\)) S1
)

// ---------------------------------------------------------------------------
// Output

@depends on context@
identifier uninit.s;
position uninit.p;
@@

* s@p

@depends on context@
expression va.ap;
position va.p;
@@

* \(va_start@p(ap, ...)\|va_copy@p(ap, ...)\)

@depends on context@
identifier dneg.f;
expression list dneg.ES;
position p = {dneg.p1, dneg.p2};
@@

* f@p(ES)

@depends on context@
identifier notnot.f;
expression list notnot.ES;
position notnot.p;
@@

* f@p(ES)

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


_INIT_RE = r"\b(sigemptyset|sigfillset|siginitset|siginitsetinv|siginitset_list|siginitsetinv_list|memset|memcpy|__copy_from_user|copy_from_user|get_compat_sigset|copy_sigset_from_user|copy_compat_sigset_from_user|get_uc_sigmask|do_sigpending|sigpending|sigandsets|sigorsets|sigandnsets)\s*\(\s*&\s*%s\b"

def init_earlier_on_line(p, s):
	# The control-flow graph has one node per statement, so in
	# "!sigpending(&s) && sigismember(&s, x)" the second use looks
	# uninitialised to the rule above: look at the line itself.
	import re
	try:
		with open(p[0].file) as f:
			line = f.readlines()[int(p[0].line) - 1]
	except (OSError, IndexError, ValueError):
		return False
	return re.search(_INIT_RE % re.escape(s), line[:int(p[0].column)]) is not None

def uninit_msg(s):
	return "WARNING: sigset_t '%s' may be used before it is initialised (no sigemptyset()/sigfillset()/siginitset()/copy/assignment on some path before)" % s

def va_msg(fn):
	return "ERROR: va_start()/va_copy() in %s() without va_end() on some path" % fn

def eq0_msg(f):
	return "ERROR: '!%s() == 0' is the same as '%s()': double negation, the check is probably inverted" % (f, f)

def ne0_msg(f):
	return "WARNING: '!%s() != 0' is just '!%s()': double negation, drop the comparison" % (f, f)

def notnot_msg(f):
	return "WARNING: '!!%s()' in a condition is just '%s()': was '!%s()' meant?" % (f, f, f)

@script:python depends on report@
s << uninit.s;
p << uninit.p;
@@

if not init_earlier_on_line(p, s):
	emit(p, uninit_msg(s), False)

@script:python depends on org@
s << uninit.s;
p << uninit.p;
@@

if not init_earlier_on_line(p, s):
	emit(p, uninit_msg(s), True)

@script:python depends on report@
fn << va.fn;
p << va.p;
@@

emit(p, va_msg(fn), False)

@script:python depends on org@
fn << va.fn;
p << va.p;
@@

emit(p, va_msg(fn), True)

@script:python depends on report@
f << dneg.f;
p << dneg.p1;
@@

emit(p, eq0_msg(f), False)

@script:python depends on org@
f << dneg.f;
p << dneg.p1;
@@

emit(p, eq0_msg(f), True)

@script:python depends on report@
f << dneg.f;
p << dneg.p2;
@@

emit(p, ne0_msg(f), False)

@script:python depends on org@
f << dneg.f;
p << dneg.p2;
@@

emit(p, ne0_msg(f), True)

@script:python depends on report@
f << notnot.f;
p << notnot.p;
@@

emit(p, notnot_msg(f), False)

@script:python depends on org@
f << notnot.f;
p << notnot.p;
@@

emit(p, notnot_msg(f), True)
