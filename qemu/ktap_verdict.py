#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""ktap-verdict: judge one boot of the test guest.

usage: ktap-verdict [--kunit] [--kunit-suite NAME]... [--allow-skip PATTERN]...
       [--allow-skips-file FILE] KTAP_FILE [CONSOLE_FILE]

KTAP_FILE is what qemu/init.c wrote on the second serial port: a top-level
KTAP document whose tests carry their own kselftest output indented by two
spaces.  Deeper indentation (KUnit style) is accepted: every distinct, even
indentation opens a level whose version line, plan and numbering are
checked.  Lines starting with "#" are diagnostics.  A bare top-level "ok N
name" claims that the test's own KTAP passed: it must have some (a plan and
results, or "1..0 # SKIP"); init marks the results it judged itself (a
.plain test's exit status, the kernel's taint) with "# ..." after the name.

Prints exactly one line on stdout and exits:
  0  pass: P passed, S skipped   (P, S count leaf results: subtests, or the
                                  top-level result of a test without any;
                                  a whole-test skip, "1..0 # SKIP", is one)
  1  fail: <reason>              the first problem in file order; a nested
                                  "not ok" names its test ("vstatus: not ok 2
                                  ..."), malformed KTAP says
                                  "malformed KTAP: <test>: <what>"; an empty
                                  run (1..0) or missing "# ws-init: done"
                                  fails too; so does a KTAP_FILE,
                                  CONSOLE_FILE or allowed skips file that
                                  cannot be read ("fail: cannot read ...")
  2  (nothing on stdout)         a usage error: the usage line on stderr
A problem on the console (CONSOLE_FILE) takes precedence over the KTAP one:
a kernel splat (BUG:, WARNING:, Oops, panic, KASAN, UBSAN, lockdep's and
the other "INFO:" reports, RCU stalls, hung tasks, SLUB's "BUG <cache>",
Call Trace:) or the host's "workspace: timeout after ..." line ("fail:
boot timed out ...").  The per-test results go to stderr, one short line
per test.

KUnit: the suites built into the kernel print their own KTAP document on
the console.  If CONSOLE_FILE has one with at least one suite, it is
judged the same way and counted: "pass: P passed, S skipped; kunit: P
passed, S skipped", or "fail: kunit: <reason>".

Options (each may come more than once where it takes an argument):
  --kunit               the kernel's .config enables a KUnit suite: a
                        console without KUnit results fails
  --kunit-suite NAME    this KUnit suite must be at the top level of the
                        console's KUnit document, "ok" and not skipped
                        (implies --kunit)
  --allow-skip PATTERN  police skips: every SKIP, top-level or nested, in
                        the guest's KTAP and in KUnit's must match one
                        PATTERN, else "fail: unexpected skip: <test>:
                        <line>".  PATTERN is a shell-style glob (* and ?;
                        "[" is no bracket expression, it matches itself)
                        on the skip's key: a top-level test's name (or
                        NAME/REASON for a whole-test skip with a reason);
                        for a nested result PATH/DESC, PATH the names of
                        the tests above it joined by "/", DESC its
                        description, or its SKIP reason when it has none
                        (kselftest's "ok 3 # SKIP reason"); KUnit's keys
                        start with "kunit/".  A top-level SKIP whose own
                        results hold skips stands or falls with those.
                        Without --allow-skip every skip passes.
  --allow-skips-file F  the same, one PATTERN a line (qemu/allowed-skips
                        prints them); an empty file still turns policing on

ktap-verdict --result TEST KTAP_FILE says only how test TEST ended in
KTAP_FILE (make bisect TEST=...): "ok", "fail", or nothing when it did not
run, and exits 0 (1 when the file cannot be read).  A result line "ok N TEST" or "not ok N
TEST" at any depth counts, TEST being its whole description or its start
before " # " or ": "; one "not ok" makes it "fail".

The data is handled byte for byte: files and arguments are read as
Latin-1, one character a byte, and written back the same way, so lengths
and clipping count bytes.
"""

import fnmatch
import os
import re
import sys
from dataclasses import dataclass, field

PLAIN, MALFORMED, FAIL = "plain", "malformed", "fail"

BLANK_RE = re.compile(r"[ \t]*$")
RESULT_RE = re.compile(r"(?:not )?ok [0-9]+(?:[ \t]|$)")
NUMBER_RE = re.compile(r"[0-9]*")
DASH_RE = re.compile(r"^- *")
SKIP_RE = re.compile(r"[Ss][Kk][Ii][Pp](?:[ \t]|$)")
VERSION_RE = re.compile(r"K?TAP version ")
SUPPORTED_VERSION_RE = re.compile(r"(?:TAP version 13|KTAP version 1)[ \t]*$")
PLAN_RE = re.compile(r"1\.\.([0-9]+)(?:[ \t]*$|[ \t]+#)")
PLAN_SKIP_RE = re.compile(r"#[ \t]*[Ss][Kk][Ii][Pp](?:[ \t]|$)")
PLAN_SKIP_PREFIX_RE = re.compile(r"^[^#]*#[ \t]*[Ss][Kk][Ii][Pp][ \t]*")
DONE_RE = re.compile(r"# ws-init: done[ \t]*$")
SUBTEST = "# Subtest: "

TIMESTAMP_RE = re.compile(r"^\[ *[0-9]+\.[0-9]+\] ")
CALLER_ID_RE = re.compile(r"^\[ *[CT][0-9]+\] ")


def text(raw):
    """Bytes as a string of one character a byte."""
    return raw.decode("latin-1")


def fs_path(name):
    return name.encode("latin-1")


def records(data):
    """The lines of a file: split at newlines, a last line without one
    included."""
    lines = data.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_records(name):
    with open(fs_path(name), "rb") as f:
        return records(text(f.read()))


def readable(name):
    path = fs_path(name)
    return os.path.isfile(path) and os.access(path, os.R_OK)


def chomp_cr(line):
    return line[:-1] if line.endswith("\r") else line


def trim(s):
    return s.strip(" \t")


def clip(s, limit):
    return s[:limit - 3] + "..." if len(s) > limit else s


def undash(s):
    """A result's description without its leading "- "."""
    return DASH_RE.sub("", s, count=1)


# --- KTAP lines into a tree of tests ---------------------------------------

@dataclass
class Block:
    """A test with results of its own: a level of the KTAP document."""
    parent: "Block | None"
    name: str
    ok: int = 0
    skip: int = 0
    fail: int = 0
    results: int = 0
    pending: str = ""
    skip_reason: str = ""
    # Its results in order, each with the diagnostics printed since the
    # one before (scripts/designs.py reads them case by case).
    cases: list = field(default_factory=list)
    notes: list = field(default_factory=list)

    def path(self):
        if self.parent is None:
            return "top level"
        if self.parent.parent is None:
            return self.name
        return f"{self.parent.path()}/{self.name}"


@dataclass
class Case:
    """A result inside a block, and the diagnostics printed before it."""
    result: "Result"
    notes: list


@dataclass
class Level:
    """The parser's state for one indentation level while it is open."""
    indent: int
    block: Block
    version: bool = False
    version_missing: bool = False
    plan: "int | None" = None
    results: int = 0
    started: bool = False
    child: "Block | None" = None


@dataclass
class Problem:
    line: float
    kind: str
    block: Block
    message: str


@dataclass
class Skip:
    """A SKIP result: where it is, and what its key is made of."""
    line: int
    block: Block
    child: "Block | None"
    text: str
    desc: str
    reason: str
    top_name: "str | None"


@dataclass
class TopResult:
    name: str
    status: str
    directive: str
    child: "Block | None"


class Result:
    """One "ok N ..." or "not ok N ..." line, taken apart."""

    def __init__(self, line):
        self.line = line
        self.notok = line.startswith("not ok ")
        rest = line[7:] if self.notok else line[3:]
        digits = NUMBER_RE.match(rest).group()
        self.number = int(digits)
        desc, _, directive = rest[len(digits):].partition("#")
        self.desc = undash(trim(desc))
        self.directive = trim(directive)
        self.name = self.desc or f"test {self.number}"
        self.skip = bool(SKIP_RE.match(self.directive))
        self.reason = trim(self.directive[4:])

    @property
    def status(self):
        return "not ok" if self.notok else "skip" if self.skip else "ok"


class KtapParser:
    """Reads a KTAP document line by line into blocks, results and the
    problems found.  Each problem is charged to a line number, a fraction
    past a line for what is only known after it, so that the first problem
    in file order wins."""

    def __init__(self, kunit):
        self.kunit = kunit
        self.root = Block(None, "")
        self.levels = [Level(0, self.root)]
        self.problems = []
        self.skips = []
        self.top = []
        self.passed = self.skipped = 0
        self.nonblank = False
        self.done = False

    @property
    def level(self):
        return self.levels[-1]

    @property
    def depth(self):
        return len(self.levels) - 1

    def problem(self, line, kind, block, message):
        self.problems.append(Problem(line, kind, block, message))

    def parse(self, lines):
        for lineno, line in enumerate(lines, 1):
            self.feed(lineno, chomp_cr(line))
        if self.nonblank:
            self.finish(len(lines))
        return self

    def feed(self, lineno, line):
        if BLANK_RE.match(line):
            return
        self.nonblank = True
        width = len(line) - len(line.lstrip(" "))
        content = line[width:]
        if content.startswith("\t"):
            self.problem(lineno, MALFORMED, self.level.block, "tab in indentation")
            return
        if width % 2:
            self.problem(lineno, MALFORMED, self.level.block, f"odd indentation ({width} spaces)")
            return
        self.indent(lineno, width)
        self.handle(lineno, content)

    def indent(self, lineno, width):
        if width > self.level.indent:
            self.open_block(lineno, width)
            return
        while self.depth > 0 and self.level.indent > width:
            self.close_block(lineno)
        if self.level.indent != width:
            self.problem(lineno, MALFORMED, self.level.block,
                         f"inconsistent indentation ({width} spaces)")

    def need_version(self, lineno, level):
        if not level.version and not level.version_missing:
            self.problem(lineno, MALFORMED, level.block, "missing version line")
            level.version_missing = True

    def orphan(self, lineno, level):
        """The closed child block of LEVEL never got its result line."""
        child, level.child = level.child, None
        self.problem(lineno, MALFORMED, child, "subtest output without a result line")
        if child.pending:
            self.problem(lineno, MALFORMED, child, child.pending)

    def open_block(self, lineno, width):
        parent = self.level
        self.need_version(lineno, parent)
        if parent.child:
            self.orphan(lineno, parent)
        block = Block(parent.block, f"test {parent.results + 1}")
        self.levels.append(Level(width, block))

    def close_block(self, lineno):
        """Leaves a level: its plan is judged once the parent result names it.
        A level of nothing but diagnostics is not a subtest."""
        level = self.levels.pop()
        block = level.block
        if level.child:
            self.orphan(lineno, level)
        block.results = level.results
        block.pending = ""
        if level.started:
            if level.plan is None:
                block.pending = "missing plan"
            elif level.plan != level.results:
                block.pending = f"plan count mismatch (planned {level.plan}, got {level.results})"
            self.level.child = block

    def handle(self, lineno, content):
        level = self.level
        if content.startswith("#"):
            self.diagnostic(content)
            return
        if RESULT_RE.match(content):
            self.need_version(lineno, level)
            level.started = True
            self.result(lineno, Result(content))
            return
        if level.child:
            self.orphan(lineno, level)
        if VERSION_RE.match(content):
            self.version_line(lineno, content)
            return
        self.need_version(lineno, level)
        level.started = True
        plan = PLAN_RE.match(content)
        if plan:
            self.plan_line(lineno, content, int(plan.group(1)))
        elif content.startswith("Bail out!"):
            self.problem(lineno, FAIL, level.block, clip(content, 160))
        else:
            self.problem(lineno, MALFORMED, level.block, f'garbage line "{clip(content, 60)}"')

    def diagnostic(self, content):
        level = self.level
        if self.depth == 0 and DONE_RE.match(content):
            self.done = True
        if self.depth > 0 and level.results == 0 and content.startswith(SUBTEST):
            level.block.name = trim(content[len(SUBTEST):])
        level.block.notes.append(trim(content[1:]))

    def version_line(self, lineno, content):
        level = self.level
        if level.version or level.started:
            self.problem(lineno, MALFORMED, level.block,
                         f'unexpected version line "{clip(content, 60)}"')
        elif not SUPPORTED_VERSION_RE.match(content):
            self.problem(lineno, MALFORMED, level.block,
                         f'unsupported version line "{clip(content, 60)}"')
        level.version = True

    def plan_line(self, lineno, content, count):
        level = self.level
        if level.plan is not None:
            self.problem(lineno, MALFORMED, level.block,
                         f'second plan line "{clip(content, 60)}"')
            return
        if PLAN_SKIP_RE.search(content):
            level.block.skip_reason = trim(PLAN_SKIP_PREFIX_RE.sub("", content, count=1))
        level.plan = count

    def result(self, lineno, res):
        level = self.level
        block = level.block
        if res.number != level.results + 1:
            self.problem(lineno, MALFORMED, block, "non-sequential test number "
                         f"(expected {level.results + 1}, got {res.number})")
        level.results += 1
        block.cases.append(Case(res, block.notes))
        block.notes = []
        child = self.claim_child(lineno, level, res.name)
        self.count(lineno, block, child, res)
        if self.depth == 0 and not self.kunit:
            self.check_bare_ok(lineno, child, res)
        if res.skip:
            self.skips.append(Skip(lineno, block, child, clip(res.line, 160), res.desc,
                                   res.reason, res.name if self.depth == 0 else None))
        if self.depth == 0:
            self.top.append(TopResult(res.name, res.status, res.directive, child))

    def claim_child(self, lineno, level, name):
        """The block just closed at LEVEL is the test this result names."""
        child, level.child = level.child, None
        if child:
            child.name = name
            if child.pending:
                self.problem(lineno + 0.5, MALFORMED, child, child.pending)
        return child

    def count(self, lineno, block, child, res):
        if res.notok:
            self.problem(lineno, FAIL, block, clip(res.line, 160))
            block.fail += 1
        elif res.skip:
            block.skip += 1
        else:
            block.ok += 1
        # A test without results of its own ("1..0 # SKIP") is one leaf.
        leaf = not (child and child.results)
        if leaf and res.status == "skip":
            self.skipped += 1
        elif leaf and res.status == "ok":
            self.passed += 1

    def check_bare_ok(self, lineno, child, res):
        """A bare "ok" at the top level says the KTAP of the test itself
        passed."""
        if res.notok or res.skip or res.directive or (child and child.results):
            return
        if child:
            self.problem(lineno, MALFORMED, child,
                         "no test results of its own (plan 1..0 without SKIP)")
        else:
            self.problem(lineno, MALFORMED, Block(self.root, res.name),
                         "no KTAP output of its own (no plan, no results)")

    def finish(self, nlines):
        end = nlines + 1
        if not self.done and not self.kunit:
            self.problem(nlines + 0.5, PLAIN, self.root,
                         "init did not finish (no '# ws-init: done')")
        while self.depth > 0:
            self.close_block(end)
        top = self.level
        if top.child:
            self.orphan(end, top)
        self.need_version(end, top)
        if top.plan is None:
            self.problem(end, MALFORMED, self.root, "missing plan")
        elif top.plan != top.results:
            self.problem(end, MALFORMED, self.root,
                         f"plan count mismatch (planned {top.plan}, got {top.results})")
        elif top.plan == 0:
            self.problem(end, PLAIN, self.root, "no tests ran (top-level plan 1..0)")
        elif not self.kunit and all(t.name == "kernel-taint" for t in self.top):
            self.problem(end, PLAIN, self.root, "no tests ran (only the kernel-taint of init)")


# --- skip policing ---------------------------------------------------------

class SkipPolicy:
    """The skips a boot may have, as shell-style globs on the skip's key."""

    def __init__(self, patterns):
        self.globs = [glob.replace("[", "[[]")
                      for pattern in patterns for glob in pattern.split("\n")]

    def allows(self, key):
        return any(fnmatch.fnmatchcase(key, glob) for glob in self.globs)

    def police(self, parser):
        """Each skip needs a pattern; a top-level one whose test has nested
        skips stands or falls with those."""
        prefix = "kunit/" if parser.kunit else ""
        for skip in parser.skips:
            if skip.top_name is None:
                message = self.nested(skip, prefix)
            else:
                message = self.top_level(skip, prefix)
            if message:
                parser.problem(skip.line, PLAIN, skip.block, message)

    def top_level(self, skip, prefix):
        child = skip.child
        if child and child.skip:
            return None
        key = prefix + skip.top_name
        reason = child.skip_reason if child and child.skip_reason else skip.reason
        if self.allows(key) or self.allows(f"{key}/{reason}" if reason else key):
            return None
        if child and child.skip_reason:
            return f"unexpected skip: {skip.text} (1..0 # SKIP {child.skip_reason})"
        return f"unexpected skip: {skip.text}"

    def nested(self, skip, prefix):
        where = skip.block.path()
        if self.allows(f"{prefix}{where}/{skip.desc or skip.reason}"):
            return None
        return f"unexpected skip: {where}: {skip.text}"


# --- the verdict on one KTAP document --------------------------------------

def judge_ktap(lines, kunit, policy):
    """The summary line of a KTAP document, and its per-test lines."""
    parser = KtapParser(kunit).parse(lines)
    if not parser.nonblank:
        return "fail: KTAP output is empty", []
    if policy:
        policy.police(parser)
    return summary(parser), [per_test_line(t) for t in parser.top]


def summary(parser):
    if not parser.problems:
        return f"pass: {parser.passed} passed, {parser.skipped} skipped"
    first = min(parser.problems, key=lambda p: p.line)
    if first.kind == PLAIN:
        return f"fail: {first.message}"
    if first.kind == MALFORMED:
        return f"fail: malformed KTAP: {first.block.path()}: {first.message}"
    if first.block is parser.root:
        return f"fail: {first.message}"
    return f"fail: {first.block.path()}: {first.message}"


def per_test_line(top):
    counts = []
    child = top.child
    if child:
        for n, what in ((child.ok, "ok"), (child.skip, "skip"), (child.fail, "not ok")):
            if n:
                counts.append(f"{n} {what}")
    s = ", ".join(counts)
    if top.status == "not ok" or not s:
        own = top.status + (f" # {top.directive}" if top.directive else "")
        s = f"{s}; {own}" if s else own
    return f"  {top.name}: {s}"


# --- the console: kernel splats --------------------------------------------

SPLAT_STRINGS = ("BUG:", "WARNING:", "Oops", "Kernel panic", "KASAN", "UBSAN",
                 "Call Trace:", "kernel BUG at", "general protection fault")
# Matched on the message after the printk timestamp and caller id, anchored
# where the kernel starts its report, so that a clean boot's "rcu: ..." or
# "Calibrating ..." lines and KUnit's "# Subtest:" lines do not match; the
# first that matches names the problem.
SPLAT_RES = tuple((re.compile(regex), label) for regex, label in (
    (r"^workspace: timeout after [0-9]+s", "timeout"),
    # "rcu: INFO: rcu_sched self-detected stall on CPU",
    # "rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:"
    (r"(self-detected stall|detected (expedited )?stalls?) on", "RCU stall"),
    # "INFO: task vstatus:87 blocked for more than 120 seconds."
    (r"blocked for more than [0-9]+ seconds", "hung task"),
    # SLUB: "BUG kmalloc-64 (Not tainted): Redzone overwritten"
    (r"^BUG [^ ]+ [(][^)]*ainted[^)]*[)]: ", "BUG <slab cache>"),
    (r"detected hard LOCKUP", "hard LOCKUP"),
    # the other "INFO: " reports at the start of the message: lockdep's
    # ("INFO: possible recursive locking detected"), also after a
    # subsystem prefix ("rcu: INFO: ...")
    (r"^([a-z_]+: )?INFO: ", "INFO:"),
))


def without_timestamp(line):
    return TIMESTAMP_RE.sub("", line, count=1)


def splat_kind(line):
    """What kind of problem a console line reports, or None.  Fixed strings
    match anywhere in the line; keep init's own diagnostics ("ws-init: ...")
    free of them."""
    for s in SPLAT_STRINGS:
        if s in line:
            return s
    message = CALLER_ID_RE.sub("", without_timestamp(line), count=1)
    for regex, label in SPLAT_RES:
        if regex.search(message):
            return label
    return None


def console_splat(lines):
    """The first console line with a kernel splat, or the host's timeout
    marker, as a summary line; "" if the console is clean."""
    for lineno, raw in enumerate(lines, 1):
        line = chomp_cr(raw)
        kind = splat_kind(line)
        if kind is None:
            continue
        shown = clip(line.lstrip(" \t"), 120)
        if kind == "timeout":
            return f"fail: boot timed out (console line {lineno}: {shown})"
        return f"fail: console has '{kind}' (line {lineno}: {shown})"
    return ""


# --- the console: KUnit's document -----------------------------------------

KUNIT_START_RE = re.compile(r"(?:KTAP version 1|TAP version 1[34])[ \t]*$")
KUNIT_PLAN_RE = re.compile(r"1\.\.[0-9]")
KUNIT_LINE_RE = re.compile(r" *(?:K?TAP version |1\.\.[0-9]|(?:not )?ok [0-9]|#)")
KUNIT_TOP_RESULT_RE = re.compile(r"(?:not )?ok [0-9]")
KUNIT_SUITES_RE = re.compile(r"1\.\.[1-9]")
PLAN_NUMBER_RE = re.compile(r"0[xX][0-9a-fA-F]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?")
SUITE_RESULT_RE = re.compile(r"(not )?ok [0-9]+[ \t]*")
SUITE_SKIP_RE = re.compile(r"[ \t]*[Ss][Kk][Ii][Pp](?:[ \t]|$)")


def plan_number(s):
    """The number a KUnit plan starts with, read as strtod() does."""
    number = PLAN_NUMBER_RE.match(s).group()
    return int(number, 16) if number[1:2] in ("x", "X") else float(number)


def kunit_document(console):
    """KUnit's KTAP document from the console lines, without printk
    timestamps and without the kernel messages printed in between; empty
    if KUnit printed nothing."""
    doc = []
    plan = None
    top = 0
    for raw in console:
        line = without_timestamp(chomp_cr(raw))
        if not doc:
            if KUNIT_START_RE.match(line):
                doc.append(line)
            continue
        if plan is None and KUNIT_PLAN_RE.match(line):
            plan = plan_number(line[3:])
            doc.append(line)
            if not plan:
                break
            continue
        if KUNIT_LINE_RE.match(line):
            doc.append(line)
            if KUNIT_TOP_RESULT_RE.match(line):
                top += 1
                if top >= (plan or 0):
                    break
    return doc


def kunit_suites_top(doc):
    """(STATUS, NAME) for each suite at the top level of the KUnit
    document; STATUS is ok, skip or not-ok."""
    for line in doc:
        m = SUITE_RESULT_RE.match(line)
        if not m:
            continue
        name, _, directive = line[m.end():].partition("#")
        if SUITE_SKIP_RE.match(directive):
            status = "skip"
        else:
            status = "not-ok" if m.group(1) else "ok"
        yield status, undash(name).rstrip(" \t")


def kunit_suite_failure(doc, wanted):
    """"" if every wanted suite is at the top level of the KUnit document,
    ok and not skipped; else "fail: kunit: ..." for the first that is not."""
    top = list(kunit_suites_top(doc))
    for want in wanted:
        status = next((st for st, name in top if name == want), "")
        if status == "ok":
            continue
        if status == "":
            return f"fail: kunit: suite '{want}' did not run"
        if status == "skip":
            return f"fail: kunit: suite '{want}' was skipped"
        return f"fail: kunit: suite '{want}' failed"
    return ""


def kunit_verdict(console, opts):
    """"" if there is no KUnit document, else "kunit: P passed, S skipped"
    or "fail: kunit: <reason>"."""
    doc = kunit_document(console)
    if not any(KUNIT_SUITES_RE.match(line) for line in doc):
        return "fail: kunit: no KUnit results on the console" if opts.kunit_expected else ""
    verdict, _ = judge_ktap(doc, True, opts.policy)
    if verdict.startswith("pass:") and opts.kunit_suites:
        failure = kunit_suite_failure(doc, opts.kunit_suites)
        if failure:
            return failure
    if verdict.startswith("pass: "):
        return "kunit: " + verdict[len("pass: "):]
    if verdict.startswith("fail: "):
        return "fail: kunit: " + verdict[len("fail: "):]
    return verdict


# --- the command line ------------------------------------------------------

class Usage(Exception):
    pass


class Failure(Exception):
    """A verdict reached before any judging: "fail: ..." on stdout, exit 1."""


def usage_line(prog):
    """The docstring's usage paragraph, on one line, with the program's name."""
    paragraph = __doc__[__doc__.index("usage: "):].split("\n\n", 1)[0]
    words = paragraph.split()
    words[1] = prog
    return " ".join(words)


def allowed_skips_file(name):
    if not readable(name):
        raise Failure(f"fail: cannot read allowed skips file '{name}'")
    return [line for line in read_records(name) if line.strip(" \t\n\v\f\r")]


@dataclass
class Options:
    kunit_expected: bool = False
    kunit_suites: list = field(default_factory=list)
    allow_skips: list = field(default_factory=list)
    police_skips: bool = False
    ktap: str = ""
    console: str = ""

    @property
    def policy(self):
        return SkipPolicy(self.allow_skips) if self.police_skips else None


def option_value(args, i, nonempty=True):
    if i + 1 >= len(args) or (nonempty and not args[i + 1]):
        raise Usage()
    return args[i + 1]


def parse_args(args):
    opts = Options()
    i = 0
    while i < len(args):
        arg = args[i]
        if arg == "--kunit":
            opts.kunit_expected = True
        elif arg == "--kunit-suite":
            opts.kunit_expected = True
            opts.kunit_suites.append(option_value(args, i))
            i += 1
        elif arg == "--allow-skip":
            opts.police_skips = True
            opts.allow_skips.append(option_value(args, i))
            i += 1
        elif arg == "--allow-skips-file":
            opts.allow_skips += allowed_skips_file(option_value(args, i, nonempty=False))
            opts.police_skips = True
            i += 1
        elif arg == "--":
            i += 1
            break
        elif arg.startswith("-"):
            raise Usage()
        else:
            break
        i += 1
    files = args[i:]
    if not 1 <= len(files) <= 2:
        raise Usage()
    opts.ktap = files[0]
    opts.console = files[1] if len(files) == 2 else ""
    if opts.kunit_expected and not opts.console:
        raise Usage()
    return opts


def check_readable(opts):
    if not readable(opts.ktap):
        raise Failure(f"fail: cannot read KTAP file '{opts.ktap}'")
    if opts.console and not readable(opts.console):
        raise Failure(f"fail: cannot read console file '{opts.console}'")


def verdict(opts):
    """The summary line of a boot; the per-test lines go to stderr."""
    result, tests = judge_ktap(read_records(opts.ktap), False, opts.policy)
    for line in tests:
        print(line, file=sys.stderr)
    if not opts.console:
        return result
    console = read_records(opts.console)
    kunit = kunit_verdict(console, opts)
    if result.startswith("pass:"):
        if kunit.startswith("fail:"):
            result = kunit
        elif kunit:
            result = f"{result}; {kunit}"
    return console_splat(console) or result


RESULT_LINE = re.compile(r"(not )?ok [0-9]+ (.*)")


def test_result(lines, name):
    """How test NAME ended in a KTAP log: "ok", "fail" or "" (not run)."""
    found = ""
    for line in lines:
        m = RESULT_LINE.match(line.lstrip(" \t"))
        if not m:
            continue
        desc = m.group(2)
        if desc == name or desc.startswith(name + " # ") or desc.startswith(name + ": "):
            if m.group(1):
                return "fail"
            found = "ok"
    return found


def result_mode(args, prog):
    if len(args) != 3 or not args[1]:
        print(f"usage: {prog} --result TEST KTAP_FILE", file=sys.stderr)
        return 2
    if not readable(args[2]):
        print(f"fail: cannot read KTAP file '{args[2]}'", file=sys.stderr)
        return 1
    found = test_result(read_records(args[2]), args[1])
    if found:
        print(found)
    return 0


def main(argv):
    for stream in (sys.stdout, sys.stderr):
        stream.reconfigure(encoding="latin-1")
    args = [text(os.fsencode(arg)) for arg in argv]
    if args[1:2] == ["--result"]:
        return result_mode(args[1:], os.path.basename(args[0]))
    try:
        opts = parse_args(args[1:])
        check_readable(opts)
        result = verdict(opts)
    except Usage:
        print(usage_line(os.path.basename(args[0])), file=sys.stderr)
        return 2
    except Failure as failure:
        result = str(failure)
    print(result)
    return 0 if result.startswith("pass:") else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
