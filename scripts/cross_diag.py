#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""cross_diag.py: the compiler's errors and warnings in a cross-compile log,
and those a commit adds against its parent (scripts/cross.sh).

  cross_diag.py list SRC LOG
        One "kind<TAB>file: message" line per diagnostic of LOG, in order:
        kind is "error", "warning" or "tool"; the file's line and column are taken
        out (so that moved code is not new) and so is SRC, the worktree the
        build ran in.  The assembler's "FILE:LINE: Warning:" and "Error:",
        objtool's "FILE: warning: objtool: ..." (its offsets, +0x..,
        taken out) and modpost's "WARNING: modpost: ..." count as the
        compiler's do.  make's own "No rule to make target" is an error of
        the target it names; an error of a tool without a line ("cc1:
        fatal error: ...") is of kind "tool": the compile could not run; make's "Error N" lines, which only repeat that
        something failed, are not listed.
  cross_diag.py objects SRC LOG
        The objects that have a diagnostic in LOG, one a line, in order: a
        diagnostic belongs to the object whose kbuild "CC" (or "AS") line
        comes before it.  LOG must come from make -Otarget, which keeps each
        object's lines together.  A diagnostic of no object (the prepare
        steps') is left out.
  cross_diag.py orphans SRC LOG
        The diagnostics of LOG that belong to no object (those of the
        prepare steps, such as asm-offsets), as "list" prints them.
  cross_diag.py new SRC LOG PARENT_SRC PARENT_LOG
        The diagnostics of LOG that PARENT_LOG does not have, counted as a
        multiset: a second identical warning is new.  One a line.
"""

import collections
import re
import sys

LOC_RE = re.compile(r"^(\S+?):\d+(?::\d+)?: (fatal error|error|warning|Error|Warning): (.*)$")
OBJTOOL_RE = re.compile(r"^(\S+): (error|warning): objtool: (.*)$")
MODPOST_RE = re.compile(r"^(ERROR|WARNING): modpost: (.*)$")
OFFSET_RE = re.compile(r"\+0x[0-9a-f]+(?:/0x[0-9a-f]+)?")
TOOL_RE = re.compile(r"^(\S+): (fatal error|error): (.*)$")
NORULE_RE = re.compile(r"No rule to make target '([^']+)'(?:, needed by '([^']+)')?")
STEP_RE = re.compile(r"^  ([A-Z0-9_]+)\s+(?:\[M\]\s+)?(\S+)\s*$")
KINDS = {"fatal error": "error", "error": "error", "warning": "warning",
         "Error": "error", "Warning": "warning", "ERROR": "error", "WARNING": "warning"}


def strip_src(text, src):
    return text.replace(src.rstrip("/") + "/", "")


def diagnostics(src, path, with_objects=False):
    out = []
    obj = None
    with open(path, encoding="utf-8", errors="replace") as log:
        for raw in log:
            line = strip_src(raw.rstrip("\n"), src)
            m = STEP_RE.match(line)
            if m:
                step, target = m.group(1), m.group(2)
                obj = target if step in ("CC", "AS") and target.endswith(".o") else None
                continue
            d = diagnostic(line)
            if d:
                out.append((obj, d) if with_objects else d)
    return out


def diagnostic(line):
    m = OBJTOOL_RE.match(line)
    if m:
        return f"{KINDS[m.group(2)]}\t{m.group(1)}: objtool: {OFFSET_RE.sub('', m.group(3))}"
    m = MODPOST_RE.match(line)
    if m:
        return f"{KINDS[m.group(1)]}\tmodpost: {m.group(2)}"
    m = LOC_RE.match(line)
    if m:
        return f"{KINDS[m.group(2)]}\t{m.group(1)}: {m.group(3)}"
    m = TOOL_RE.match(line)
    if m and not line.startswith("make"):
        return f"tool\t{m.group(1)}: {m.group(3)}"
    m = NORULE_RE.search(line)
    if m and line.startswith("make"):
        return f"error\t{m.group(1)}: make: no rule to make this target"
    return None


def usage():
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) == 3 and argv[0] == "list":
        for d in diagnostics(argv[1], argv[2]):
            print(d)
        return 0
    if len(argv) == 3 and argv[0] == "objects":
        seen = {}
        for obj, _ in diagnostics(argv[1], argv[2], with_objects=True):
            if obj:
                seen[obj] = True
        for obj in seen:
            print(obj)
        return 0
    if len(argv) == 3 and argv[0] == "orphans":
        for obj, d in diagnostics(argv[1], argv[2], with_objects=True):
            if not obj:
                print(d)
        return 0
    if len(argv) == 5 and argv[0] == "new":
        old = collections.Counter(diagnostics(argv[3], argv[4]))
        for d in diagnostics(argv[1], argv[2]):
            if old[d] > 0:
                old[d] -= 1
            else:
                print(d)
        return 0
    usage()
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
