// SPDX-License-Identifier: GPL-2.0-only
/// Find switch statements on _NSIG_WORDS that only handle the word counts
/// of today's sigset_t.
///
/// The sigset_t helpers unroll their loops as switch (_NSIG_WORDS) with
/// cases 1, 2 and 4.  A switch without a default silently does nothing
/// for any other word count, and one whose default is BUILD_BUG() (or
/// BUG()) stops the build (or the machine) as soon as _NSIG grows: with
/// 65 to 1024 signals _NSIG_WORDS can be 2 to 16.  The "Support more than
/// 64 signals" RFC gives each of them a default that loops over
/// _NSIG_WORDS ("signals: Better support cases where _NSIG_WORDS is
/// greater than 2").  _COMPAT_NSIG_WORDS and other *NSIG_WORDS switches
/// are checked too.
///
// Confidence: High
// Comments: A switch that does list every word count it can ever see
//  (for instance because a BUILD_BUG_ON() bounds _NSIG_WORDS) is still
//  reported.  Switches inside multi-line #define bodies (_SIG_SET_BINOP,
//  _SIG_SET_OP) are found too.  No patch mode: the default needs a loop
//  written for each switch.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@dflt@
identifier W =~ "NSIG_WORDS$";
position p;
@@

switch@p (W) { default: ... }

@bug@
identifier W =~ "NSIG_WORDS$";
position p, q;
@@

(
switch@p (W@q) { default: BUILD_BUG(); ... }
|
switch@p (W@q) { default: BUG(); ... }
)

@nodflt@
identifier W =~ "NSIG_WORDS$";
expression C;
position p != dflt.p;
position q;
@@

switch@p (W@q) { case C: ... }

@depends on context@
identifier bug.W;
position bug.q;
@@

* W@q

@depends on context@
identifier nodflt.W;
position nodflt.q;
@@

* W@q

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


def nodflt_msg(w):
	return "WARNING: switch on %s has no default: any other word count silently does nothing; add a default that loops over %s" % (w, w)

def bug_msg(w):
	return "WARNING: switch on %s has BUILD_BUG()/BUG() as default: fires as soon as _NSIG grows; make the default loop over %s" % (w, w)

@script:python depends on report@
W << nodflt.W;
p << nodflt.p;
@@

emit(p, nodflt_msg(W), False)

@script:python depends on org@
W << nodflt.W;
p << nodflt.p;
@@

emit(p, nodflt_msg(W), True)

@script:python depends on report@
W << bug.W;
p << bug.p;
@@

emit(p, bug_msg(W), False)

@script:python depends on org@
W << bug.W;
p << bug.p;
@@

emit(p, bug_msg(W), True)
