#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""cross_diag.py: the compiler's errors and warnings in a cross-compile log,
and those a commit adds against its parent (scripts/cross.sh).

  cross_diag.py list SRC LOG
        One "kind<TAB>file: message" line per diagnostic of LOG, in order:
        kind is "error", "warning" or "tool"; the file's line and column are taken
        out (so that moved code is not new) and so is SRC, the worktree the
        build ran in.  make's own "No rule to make target" is an error of
        the target it names; an error of a tool without a line ("cc1:
        fatal error: ...") is of kind "tool": the compile could not run; make's "Error N" lines, which only repeat that
        something failed, are not listed.
  cross_diag.py new SRC LOG PARENT_SRC PARENT_LOG
        The diagnostics of LOG that PARENT_LOG does not have, counted as a
        multiset: a second identical warning is new.  One a line.
"""

import collections
import re
import sys

LOC_RE = re.compile(r"^(\S+?):\d+(?::\d+)?: (fatal error|error|warning): (.*)$")
TOOL_RE = re.compile(r"^(\S+): (fatal error|error): (.*)$")
NORULE_RE = re.compile(r"No rule to make target '([^']+)'(?:, needed by '([^']+)')?")
KINDS = {"fatal error": "error", "error": "error", "warning": "warning"}


def strip_src(text, src):
    return text.replace(src.rstrip("/") + "/", "")


def diagnostics(src, path):
    out = []
    with open(path, encoding="utf-8", errors="replace") as log:
        for raw in log:
            line = strip_src(raw.rstrip("\n"), src)
            m = LOC_RE.match(line)
            if m:
                out.append(f"{KINDS[m.group(2)]}\t{m.group(1)}: {m.group(3)}")
                continue
            m = TOOL_RE.match(line)
            if m and not line.startswith("make"):
                out.append(f"tool\t{m.group(1)}: {m.group(3)}")
                continue
            m = NORULE_RE.search(line)
            if m and line.startswith("make"):
                out.append(f"error\t{m.group(1)}: make: no rule to make this target")
    return out


def usage():
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    sys.exit(2)


def main(argv):
    if len(argv) == 3 and argv[0] == "list":
        for d in diagnostics(argv[1], argv[2]):
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
