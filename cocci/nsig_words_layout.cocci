// SPDX-License-Identifier: GPL-2.0-only
/// Find data layouts and build-time checks that assume today's sigset_t
/// size.
///
///  - arrays sized _NSIG_WORDS - 1 (the extramask[] of the old signal
///    frames) and extramask[] fields of fixed size, plus accesses to a
///    fixed extramask[] element: they carry "the words after the first"
///    and so change layout, or lose words, when _NSIG_WORDS changes;
///  - sizeof(sigset_t) (or compat_sigset_t) compared with a constant or
///    with the size of a scalar type (== 8, != sizeof(u64), ...);
///  - BUILD_BUG_ON() on _NSIG_WORDS, _NSIG or sizeof(sigset_t), which
///    stops the build as soon as _NSIG grows (and must then be revisited
///    rather than silenced).
///
// Confidence: Moderate
// Comments: Some of these are deliberate user-ABI guards (the signal
//  frame layout must not change); the report says where the assumption
//  sits, a human decides whether the ABI or the check has to change.
//  No patch mode.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@initialize:python@
@@

seen = set()

def first(p):
	"""Report a line once: a BUILD_BUG_ON() on a sizeof() comparison
	would otherwise be reported by two rules."""
	key = (p[0].file, p[0].line)
	if key in seen:
		return False
	seen.add(key)
	return True

def emit(p, msg, org):
	if not first(p):
		return
	if org:
		coccilib.org.print_todo(p[0], msg)
	else:
		coccilib.report.print_report(p[0], msg)

MSG = {
	"words-1": "WARNING: array sized %s - 1 (the words after the first): its layout changes with the signal count",
	"extramask": "WARNING: extramask[] of fixed size: holds only the words of today's sigset_t",
	"extraidx": "WARNING: fixed extramask[] element: copies one extra word only, assumes _NSIG_WORDS == 2",
	"bbo": "WARNING: BUILD_BUG_ON() on the sigset size fires when _NSIG grows: revisit the assumption, do not just silence it",
	"sizeof": "WARNING: sizeof(sigset_t) compared with a fixed size: assumes today's signal count",
}

// ---------------------------------------------------------------------------

@bbo@
identifier W =~ "NSIG_WORDS$";
identifier N = {_NSIG, _COMPAT_NSIG};
identifier i =~ "^(compat_)?sigset_t$";
typedef sigset_t, compat_sigset_t;
position p;
@@

BUILD_BUG_ON@p(<+... \(W\|N\|sizeof(sigset_t)\|sizeof(compat_sigset_t)\|sizeof(i)\) ...+>)

@words1@
identifier W =~ "NSIG_WORDS$";
identifier s, x;
type T;
position p;
@@

(
struct s { ... T x@p[W - 1]; ... };
|
T x@p[W - 1];
)

@extramask@
identifier s, x =~ "extramask";
constant C;
type T;
position p;
@@

struct s { ... T x@p[C]; ... };

@extraidx@
identifier x =~ "extramask";
expression E;
constant C;
position p;
@@

\(E->x@p[C]\|E.x@p[C]\)

@size@
identifier i =~ "^(compat_)?sigset_t$";
identifier j =~ "^(compat_)?sigset_t$";
typedef sigset_t, compat_sigset_t;
type T;
constant C;
binary operator op = {==, !=, <, >, <=, >=};
position p;
@@

(
 \(sizeof(sigset_t)\|sizeof(compat_sigset_t)\|sizeof(i)\) op
 \(sizeof(sigset_t)\|sizeof(compat_sigset_t)\|sizeof(j)\)
|
 \(sizeof@p(sigset_t)\|sizeof@p(compat_sigset_t)\|sizeof@p(i)\) op \(C\|sizeof(T)\)
|
 \(C\|sizeof(T)\) op \(sizeof@p(sigset_t)\|sizeof@p(compat_sigset_t)\|sizeof@p(i)\)
)

// ---------------------------------------------------------------------------

@depends on context@
position bbo.p;
@@

* BUILD_BUG_ON@p(...)

@depends on context@
identifier words1.W, words1.x;
type words1.T;
position words1.p;
@@

* T x@p[W - 1];

@depends on context@
identifier words1.W, words1.s, words1.x;
type words1.T;
position words1.p;
@@

struct s { ...
* T x@p[W - 1];
  ... };

@depends on context@
identifier extramask.s, extramask.x;
constant extramask.C;
type extramask.T;
position extramask.p;
@@

struct s { ...
* T x@p[C];
  ... };

@depends on context@
identifier extraidx.x;
expression extraidx.E;
constant extraidx.C;
position extraidx.p;
@@

* \(E->x@p[C]\|E.x@p[C]\)

@depends on context@
identifier size.i;
typedef sigset_t, compat_sigset_t;
position size.p;
@@

* \(sizeof@p(sigset_t)\|sizeof@p(compat_sigset_t)\|sizeof@p(i)\)

@script:python depends on report@
p << bbo.p;
@@

emit(p, MSG["bbo"], False)

@script:python depends on org@
p << bbo.p;
@@

emit(p, MSG["bbo"], True)

@script:python depends on report@
p << words1.p;
W << words1.W;
@@

emit(p, MSG["words-1"] % W, False)

@script:python depends on org@
p << words1.p;
W << words1.W;
@@

emit(p, MSG["words-1"] % W, True)

@script:python depends on report@
p << extramask.p;
@@

emit(p, MSG["extramask"], False)

@script:python depends on org@
p << extramask.p;
@@

emit(p, MSG["extramask"], True)

@script:python depends on report@
p << extraidx.p;
@@

emit(p, MSG["extraidx"], False)

@script:python depends on org@
p << extraidx.p;
@@

emit(p, MSG["extraidx"], True)

@script:python depends on report@
p << size.p;
@@

emit(p, MSG["sizeof"], False)

@script:python depends on org@
p << size.p;
@@

emit(p, MSG["sizeof"], True)
