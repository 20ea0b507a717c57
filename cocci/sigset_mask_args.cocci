// SPDX-License-Identifier: GPL-2.0-only
/// Find siginitset(), siginitsetinv(), sigaddset() and sigdelset() calls
/// whose argument is (or looks like) a signal mask.
///
/// In 6.1, siginitset() and siginitsetinv() take a one-word mask, while
/// sigaddset() and sigdelset() take one signal number.  The "Support more
/// than 64 signals" RFC turns all four into functions taking a list of
/// signal numbers, so:
///  - every siginitset()/siginitsetinv() argument except a literal 0 is a
///    mask today and silently changes meaning with the RFC (a user-space
///    old_sigset_t mask must move to a compat_ helper instead); a signal
///    number there is wrong today and right with the RFC (INFO), and a
///    call with several signal arguments is already in the RFC's form;
///  - a sigaddset()/sigdelset() argument that is a mask (a sigmask() call,
///    a | & ^ ~ << expression, a *_MASK constant, a variable named like a
///    mask, an old_sigset_t, a value read from user space) is a bug today
///    and stays one.  A signal constant (SIGKILL), a literal, or a variable
///    named like a signal number (sig, signr, si_signo, loop index i) is
///    not reported.
///
// Confidence: Moderate
// Comments: The classification is syntactic (expression shape, names,
//  declared type, a preceding get_user()/copy_from_user()).  Reports on a
//  sigaddset()/sigdelset() argument that is merely "not obviously a
//  signal number" are marked low confidence.  No patch mode: the right fix
//  (compat_ helper, list of signals, per-signal loop) needs a human;
//  masks made only of sigmask() terms are rewritten by sigmask.cocci.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@initialize:python@
@@

import re

INIT = ("siginitset", "siginitsetinv")
seen = set()
# siginitset*() calls with more than one signal argument: already in the
# RFC's list-of-signals form
listform = set()

MASKY = re.compile(r"mask|set|bits|flags|blocked|pending|word", re.I)
SIGGY = re.compile(r"^(i|j|k|n|nr|num)$|sig", re.I)
SIGNAME = re.compile(r"^SIG[A-Z0-9]+$")
CONST = re.compile(r"^[A-Z_][A-Z0-9_]*$")
MASKCONST = re.compile(r"MASK|BLOCKABLE|SIGS$")
LITERAL = re.compile(r"^\(*-?(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\)*$")
LVALUE = re.compile(r"^[A-Za-z_][\w.\->\[\]]*$")

def pretty(e):
	"""spatch prints expressions token by token: tighten them up."""
	e = re.sub(r"\s*(->|\.)\s*", r"\1", e)
	e = re.sub(r"\(\s+", "(", e)
	e = re.sub(r"\s+\)", ")", e)
	return re.sub(r"(\w)\s+\(", r"\1(", e)

def first(p):
	"""True the first time a call position is seen: rules run in order."""
	key = (p[0].file, p[0].line, p[0].column)
	if key in seen:
		return False
	seen.add(key)
	return True

def classify(e):
	"""Sort an argument into a kind from its text."""
	s = e.replace(" ", "")
	if re.search(r"\b(rt_)?sigmask\(", s):
		return "sigmask"
	if re.search(r"[|^~]|<<|>>|&(?!&)", s):
		return "bitexpr"
	m = LITERAL.match(s)
	if m:
		return "zero" if int(m.group(1), 0) == 0 else "literal"
	if CONST.match(s):
		if SIGNAME.match(s):
			return "signame"
		return "maskconst" if MASKCONST.search(s) else "const"
	if LVALUE.match(s):
		name = re.findall(r"\w+", s)[-1]
		if MASKY.search(name):
			return "maskvar"
		if SIGGY.search(name):
			return "sigvar"
		return "var"
	for w in re.findall(r"[A-Za-z_]\w*", s):
		if SIGNAME.match(w) or (SIGGY.search(w) and not MASKY.search(w)):
			return "sigvar"
	return "other"

INIT_WHAT = {
	"sigmask": "a mask expression",
	"bitexpr": "a mask expression",
	"maskconst": "a mask constant",
	"const": "a constant",
	"literal": "a literal mask",
	"maskvar": "a mask variable",
	"var": "a mask variable",
	"other": "a computed mask",
}

ADD_WHAT = {
	"sigmask": ("WARNING", "is a mask expression, not a signal number"),
	"bitexpr": ("WARNING", "is a mask expression, not a signal number"),
	"maskconst": ("WARNING", "is a mask constant, not a signal number"),
	"literal": None,
	"maskvar": ("WARNING", "is named like a mask, not a signal number"),
	"var": ("INFO", "is not obviously a signal number (low confidence)"),
	"other": ("INFO", "is not obviously a signal number (low confidence)"),
}

def message(f, e, kind):
	"""The report text, or None for an argument that is fine."""
	e = pretty(e)
	if f in INIT:
		if kind == "zero":
			return None
		if kind in ("signame", "sigvar"):
			return ("INFO: %s() argument '%s' looks like a signal number: wrong with 6.1's %s(), which takes a mask, right only once it takes signal numbers"
				% (f, e, f))
		return ("WARNING: %s() mask argument '%s' is %s -- will change meaning when %s() takes signal numbers"
			% (f, e, INIT_WHAT[kind], f))
	what = ADD_WHAT.get(kind)
	if what is None:
		return None
	return "%s: %s() argument '%s' %s" % (what[0], f, e, what[1])

def user_message(f, e):
	e = pretty(e)
	if f in INIT:
		return ("WARNING: %s() mask argument '%s' comes from user space (one-word ABI mask) -- will change meaning when %s() takes signal numbers; use a compat_ helper"
			% (f, e, f))
	return "WARNING: %s() argument '%s' comes from user space: a mask there, not a signal number?" % (f, e)

def typed_message(f, e):
	e = pretty(e)
	if f in INIT:
		return ("WARNING: %s() mask argument '%s' is an old_sigset_t (one-word ABI mask) -- will change meaning when %s() takes signal numbers; use a compat_ helper"
			% (f, e, f))
	return "WARNING: %s() argument '%s' is an old_sigset_t mask, not a signal number" % (f, e)

// ---------------------------------------------------------------------------
// 1. a value read from user space just before

@user exists@
identifier f = {siginitset, siginitsetinv, sigaddset, sigdelset};
expression S, U, L;
identifier v;
position p;
@@

(
 get_user(v, U)
|
 __get_user(v, U)
|
 unsafe_get_user(v, U, L)
|
 copy_from_user(&v, U, L)
|
 __copy_from_user(&v, U, L)
)
...
f@p(S, ..., v, ...)

@script:python user_msg@
f << user.f;
v << user.v;
p << user.p;
msg;
@@

if first(p):
	coccinelle.msg = user_message(f, v)
else:
	cocci.include_match(False)

// ---------------------------------------------------------------------------
// 2. an old_sigset_t variable

@typed@
typedef old_sigset_t, compat_old_sigset_t;
{old_sigset_t, compat_old_sigset_t} v;
identifier f = {siginitset, siginitsetinv, sigaddset, sigdelset};
expression S;
position p;
@@

f@p(S, ..., v, ...)

@script:python typed_msg@
f << typed.f;
v << typed.v;
p << typed.p;
msg;
@@

if first(p):
	coccinelle.msg = typed_message(f, v)
else:
	cocci.include_match(False)

// ---------------------------------------------------------------------------
// 3. everything else, by the shape and name of the argument

@listcall@
identifier f = {siginitset, siginitsetinv};
expression S, E1, E2;
position p;
@@

f@p(S, E1, E2, ...)

@script:python@
p << listcall.p;
@@

listform.add((p[0].file, p[0].line, p[0].column))

@shape@
identifier f = {siginitset, siginitsetinv, sigaddset, sigdelset};
expression S, E;
position p;
@@

f@p(S, ..., E, ...)

@script:python shape_msg@
f << shape.f;
E << shape.E;
p << shape.p;
msg;
@@

if f in INIT and (p[0].file, p[0].line, p[0].column) in listform:
	m = None
else:
	m = message(f, E, classify(E))
if m is not None and first(p):
	coccinelle.msg = m
else:
	cocci.include_match(False)

// ---------------------------------------------------------------------------
// Output

@depends on context@
identifier user.f;
position user.p;
@@

* f@p(...)

@depends on context@
identifier typed.f;
position typed.p;
@@

* f@p(...)

@depends on context@
identifier shape.f;
position shape.p;
@@

* f@p(...)

@script:python depends on report@
p << user.p;
msg << user_msg.msg;
@@

coccilib.report.print_report(p[0], msg)

@script:python depends on org@
p << user.p;
msg << user_msg.msg;
@@

coccilib.org.print_todo(p[0], msg)

@script:python depends on report@
p << typed.p;
msg << typed_msg.msg;
@@

coccilib.report.print_report(p[0], msg)

@script:python depends on org@
p << typed.p;
msg << typed_msg.msg;
@@

coccilib.org.print_todo(p[0], msg)

@script:python depends on report@
p << shape.p;
msg << shape_msg.msg;
@@

coccilib.report.print_report(p[0], msg)

@script:python depends on org@
p << shape.p;
msg << shape_msg.msg;
@@

coccilib.org.print_todo(p[0], msg)
