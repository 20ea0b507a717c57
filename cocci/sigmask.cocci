// SPDX-License-Identifier: GPL-2.0-only
/// Find leftover single-word signal mask macros and helpers.
///
/// sigmask(), rt_sigmask(), siginmask(), sigaddsetmask(), sigdelsetmask(),
/// sigtestsetmask() and the SIG_KERNEL_*_MASK, SIG_SPECIFIC_SICODES_MASK,
/// SIGEMT_MASK and SYNCHRONOUS_MASK constants only describe the first
/// word of a sigset_t: they cannot name a signal above BITS_PER_LONG
/// (see "signals: Remove sigmask() macro" in the "Support more than 64
/// signals" RFC).  Every use is reported, except in include/linux/signal.h
/// where they are defined.
///
/// Patch mode rewrites sigaddsetmask(), sigdelsetmask(), sigtestsetmask(),
/// siginitset() and siginitsetinv() calls whose mask is nothing but one to
/// three sigmask(SIG)/rt_sigmask(SIG) terms into per-signal sigaddset(),
/// sigdelset() and sigismember() calls (plus sigemptyset()/sigfillset()
/// for the siginitset*() forms), which are correct for any sigset_t size.
///
// Confidence: High
// Comments: Compat code that handles a genuine one-word old_sigset_t is
//  reported too: there the RFC keeps the mask but renames the helpers
//  (compat_sigmask(), compat_sigaddsetmask(), ...).  Patch mode evaluates
//  the set argument once per signal, so it leaves alone a set argument
//  that contains a call, an assignment or ++/--.  Other masks (variables,
//  user values, ~ or & expressions) need a human: see
//  sigset_mask_args.cocci.
// Options: --no-includes --include-headers

virtual patch
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


import re

# patch mode evaluates the set once per signal: only side-effect free sets
def is_simple(s):
	return re.search(r"\(|\+\+|--|=", s) is None

WHAT = {
	"sigmask": "sigmask() builds a one-word mask: signals above BITS_PER_LONG cannot be named",
	"rt_sigmask": "rt_sigmask() builds a one-word mask: signals above BITS_PER_LONG cannot be named",
	"siginmask": "siginmask() tests a signal against a one-word mask",
	"sigaddsetmask": "sigaddsetmask() only sets bits in sig[0]",
	"sigdelsetmask": "sigdelsetmask() only clears bits in sig[0]",
	"sigtestsetmask": "sigtestsetmask() only tests sig[0]",
}

def call_msg(f):
	return "WARNING: " + WHAT[f] + "; use per-signal sigaddset()/sigdelset()/sigismember() (or a compat_ helper for a one-word ABI mask)"

def konst_msg(k):
	return "WARNING: " + k + " is a one-word mask built from rt_sigmask()/sigmask(); test signals individually instead"

// ---------------------------------------------------------------------------
// Patch mode: masks made only of sigmask() terms

@fix depends on patch disable bitor_comm@
identifier m1 = {sigmask, rt_sigmask};
identifier m2 = {sigmask, rt_sigmask};
identifier m3 = {sigmask, rt_sigmask};
expression S : script:python() { is_simple(S) };
expression A, B, C;
@@

(
- sigaddsetmask(S, m1(A) | m2(B) | m3(C));
+ sigaddset(S, A);
+ sigaddset(S, B);
+ sigaddset(S, C);
|
- sigaddsetmask(S, m1(A) | m2(B));
+ sigaddset(S, A);
+ sigaddset(S, B);
|
- sigaddsetmask(S, m1(A));
+ sigaddset(S, A);
|
- sigdelsetmask(S, m1(A) | m2(B) | m3(C));
+ sigdelset(S, A);
+ sigdelset(S, B);
+ sigdelset(S, C);
|
- sigdelsetmask(S, m1(A) | m2(B));
+ sigdelset(S, A);
+ sigdelset(S, B);
|
- sigdelsetmask(S, m1(A));
+ sigdelset(S, A);
|
- siginitset(S, m1(A) | m2(B) | m3(C));
+ sigemptyset(S);
+ sigaddset(S, A);
+ sigaddset(S, B);
+ sigaddset(S, C);
|
- siginitset(S, m1(A) | m2(B));
+ sigemptyset(S);
+ sigaddset(S, A);
+ sigaddset(S, B);
|
- siginitset(S, m1(A));
+ sigemptyset(S);
+ sigaddset(S, A);
|
- siginitsetinv(S, m1(A) | m2(B) | m3(C));
+ sigfillset(S);
+ sigdelset(S, A);
+ sigdelset(S, B);
+ sigdelset(S, C);
|
- siginitsetinv(S, m1(A) | m2(B));
+ sigfillset(S);
+ sigdelset(S, A);
+ sigdelset(S, B);
|
- siginitsetinv(S, m1(A));
+ sigfillset(S);
+ sigdelset(S, A);
)

@fixtest depends on patch disable bitor_comm@
identifier m1 = {sigmask, rt_sigmask};
identifier m2 = {sigmask, rt_sigmask};
expression S : script:python() { is_simple(S) };
expression A, B;
@@

(
- sigtestsetmask(S, m1(A) | m2(B))
+ (sigismember(S, A) || sigismember(S, B))
|
- sigtestsetmask(S, m1(A))
+ sigismember(S, A)
)

// ---------------------------------------------------------------------------
// Detection

@call depends on !patch@
identifier f = {sigmask, rt_sigmask, siginmask, sigaddsetmask, sigdelsetmask,
		sigtestsetmask};
expression list ES;
position p : script:python() { not p[0].file.endswith("include/linux/signal.h") };
@@

f@p(ES)

@konst depends on !patch@
identifier K = {SIG_KERNEL_ONLY_MASK, SIG_KERNEL_STOP_MASK,
		SIG_KERNEL_COREDUMP_MASK, SIG_KERNEL_IGNORE_MASK,
		SIG_SPECIFIC_SICODES_MASK, SIGEMT_MASK, SYNCHRONOUS_MASK};
position p : script:python() { not p[0].file.endswith("include/linux/signal.h") };
@@

K@p

@depends on context@
identifier call.f;
expression list call.ES;
position call.p;
@@

* f@p(ES)

@depends on context@
identifier konst.K;
position konst.p;
@@

* K@p

@script:python depends on report@
f << call.f;
p << call.p;
@@

emit(p, call_msg(f), False)

@script:python depends on org@
f << call.f;
p << call.p;
@@

emit(p, call_msg(f), True)

@script:python depends on report@
K << konst.K;
p << konst.p;
@@

emit(p, konst_msg(K), False)

@script:python depends on org@
K << konst.K;
p << konst.p;
@@

emit(p, konst_msg(K), True)
