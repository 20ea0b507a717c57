// SPDX-License-Identifier: GPL-2.0-only
/// Find checks that tie a user-supplied sigset size to sizeof(sigset_t).
///
/// The rt_sig*() system calls, signalfd(), ptrace(PTRACE_[GS]ETSIGMASK)
/// and KVM_SET_SIGNAL_MASK refuse any size but the kernel's own:
/// "if (sigsetsize != sizeof(sigset_t)) return -EINVAL;".  Once sigset_t
/// grows past 8 bytes, every existing binary (glibc and musl pass 8) gets
/// -EINVAL.  The "Support more than 64 signals" RFC accepts any size from
/// 8 up to a maximum and copies the smaller of the two sizes
/// (valid_sigsetsize(), copy_sigset_from_user()).  Comparisons of a non
/// constant size with sizeof(sigset_t), sizeof(compat_sigset_t), or the
/// sizeof of a sigset_t object or pointed-to sigset_t are reported.
///
// Confidence: High
// Comments: The compat variants compare with sizeof(compat_sigset_t),
//  whose size may stay fixed; they are reported so both sides are looked
//  at together.  On a kernel tree, pass --macro-file cocci/macros.h, or
//  the bodies of COMPAT_SYSCALL_DEFINEn() are not parsed.  No patch mode:
//  the fix needs a new helper (valid_sigsetsize() in the RFC).
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@r@
typedef sigset_t, compat_sigset_t;
identifier i =~ "^(compat_)?sigset_t$";
{sigset_t, compat_sigset_t} s;
{sigset_t *, compat_sigset_t *} u;
expression E;
constant C;
type T;
binary operator op = {==, !=, <, >, <=, >=};
position p;
@@

(
 C op \(sizeof(sigset_t)\|sizeof(compat_sigset_t)\|sizeof(s)\|sizeof(*u)\|sizeof(i)\)
|
 sizeof(T) op \(sizeof(sigset_t)\|sizeof(compat_sigset_t)\|sizeof(s)\|sizeof(*u)\|sizeof(i)\)
|
 E@p op \(sizeof(sigset_t)\|sizeof(compat_sigset_t)\|sizeof(s)\|sizeof(*u)\|sizeof(i)\)
)

@depends on context@
expression r.E;
position r.p;
@@

* E@p

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

def pretty(e):
	e = re.sub(r"\s*(->|\.)\s*", r"\1", e)
	e = re.sub(r"\(\s+", "(", e)
	e = re.sub(r"\s+\)", ")", e)
	return re.sub(r"(\w)\s+\(", r"\1(", e)

def msg(e, op):
	e = pretty(e)
	if op.strip() in ("==", "!="):
		return ("WARNING: size '%s' must equal sizeof(sigset_t): once sigset_t grows every caller passing 8 gets -EINVAL; accept a range instead"
			% e)
	return ("WARNING: size '%s' bounded by sizeof(sigset_t): check that sizes other than the kernel's are copied and zero-filled correctly"
		% e)

@script:python depends on report@
E << r.E;
op << r.op;
p << r.p;
@@

emit(p, msg(E, op), False)

@script:python depends on org@
E << r.E;
op << r.op;
p << r.p;
@@

emit(p, msg(E, op), True)
