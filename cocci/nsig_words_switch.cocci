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
//  _SIG_SET_OP) are found too.  spatch finds the *NSIG_WORDS uses; which
//  of them control a switch, whether that has a default and what the
//  default starts with is read from the source text, because SmPL switch
//  patterns are unreliable in spatch 1.1.1 ("default: ..." also matches
//  switches without a default, "case C: ..." misses a switch whose first
//  case is a braced block).
//  No patch mode: the default needs a loop written for each switch.
// Options: --no-includes --include-headers

virtual context
virtual org
virtual report

@initialize:python@
@@

import re

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

_texts = {}
# no slash-star or slash-slash in here: spatch would take them for comments
COMMENT = r"/[*].*?[*]/|/[/][^\n]*"
STRING = r'"(?:\\.|[^"\\\n])*"'
CHAR = r"'(?:\\.|[^'\\\n])*'"

def _text(name):
	"""The file with comments and literals blanked out, offsets kept."""
	if name not in _texts:
		with open(name, errors="replace") as f:
			t = f.read()
		def blank(m):
			return re.sub(r"[^\n]", " ", m.group(0))
		t = re.sub(COMMENT + "|" + STRING + "|" + CHAR, blank, t, flags=re.S)
		_texts[name] = t
	return _texts[name]

def _offset(t, line, col):
	off = 0
	for _ in range(line - 1):
		off = t.index("\n", off) + 1
	return off + col

def _close(t, i, o, c):
	"""Index just after the bracket that closes the one at t[i]."""
	depth = 0
	while i < len(t):
		if t[i] == o:
			depth += 1
		elif t[i] == c:
			depth -= 1
			if depth == 0:
				return i + 1
		i += 1
	return len(t)

def switch_kind(p):
	"""For an identifier at p: None unless it is the whole controlling
	expression of a switch; then 'nodefault', 'bug' (the default starts
	with BUILD_BUG()/BUG()) or None (a real default)."""
	t = _text(p[0].file)
	i = _offset(t, int(p[0].line), int(p[0].column))
	if not re.search(r"\bswitch\s*\(\s*$", t[max(0, i - 200):i]):
		return None
	m = re.compile(r"\w+\s*\)\s*\{").match(t, i)
	if not m:
		return None
	start = m.end() - 1
	end = _close(t, start, "{", "}")
	body = t[start + 1:end - 1].replace("\\\n", " ")
	# drop nested switch statements: their default is not ours
	while True:
		m = re.search(r"\bswitch\s*\(", body)
		if not m:
			break
		j = _close(body, m.end() - 1, "(", ")")
		j = _close(body, body.index("{", j), "{", "}")
		body = body[:m.start()] + body[j:]
	m = re.search(r"\bdefault\s*:", body)
	if not m:
		return "nodefault"
	if re.match(r"\s*(BUILD_BUG|BUG)\s*\(\s*\)\s*;", body[m.end():]):
		return "bug"
	return None

def msg(w, kind):
	if kind == "nodefault":
		return "WARNING: switch on %s has no default: any other word count silently does nothing; add a default that loops over %s" % (w, w)
	return "WARNING: switch on %s has BUILD_BUG()/BUG() as default: fires as soon as _NSIG grows; make the default loop over %s" % (w, w)

// spatch finds the word counts, Python keeps those that control a switch
// and reads the switch body.

@sw@
identifier W =~ "NSIG_WORDS$";
position p;
@@

W@p

@script:python kind@
p << sw.p;
k;
@@

r = switch_kind(p)
if r is None:
	cocci.include_match(False)
else:
	coccinelle.k = r

@depends on context@
identifier sw.W;
position sw.p;
@@

* W@p

@script:python depends on report@
W << sw.W;
p << sw.p;
k << kind.k;
@@

emit(p, msg(W, k), False)

@script:python depends on org@
W << sw.W;
p << sw.p;
k << kind.k;
@@

emit(p, msg(W, k), True)
