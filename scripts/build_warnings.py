#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""build_warnings.py: the build warnings of a kernel tree, carried from commit to
commit through incremental builds (make bisect-build).

An incremental build's log shows only the objects it compiled again, so the
warnings of the whole tree at a commit are its parent's, less those of the
translation units compiled again, plus what this log shows.  Warnings of
the link stage (ld, modpost, objtool on vmlinux) are all printed again
whenever the kernel is linked again.

  build_warnings.py state [--from STATE] SRC LOG...
        The warning state after the builds whose logs are LOG..., in
        order, starting from STATE (a file this command wrote) or from
        nothing.  SRC is the worktree the build ran in; its path is taken
        out.  One "unit<TAB>warning" line each, sorted.
  build_warnings.py new OLD NEW
        The warnings of state NEW that state OLD does not have, counted as
        a multiset on the warning alone: a second identical warning is new,
        and so is one that was fixed and comes back.  One a line.
  build_warnings.py count STATE
        How many warnings STATE holds.

Every line with "warning:" (any case) is a warning: the compiler's, with
file, line and column (these are taken out, so that moved code is not
new), and objtool's, modpost's and the linker's, which have none.
Kconfig's ("<file>:<line>:warning: ...", while the .config is made) are
printed again whenever the build configures again: a log that wrote a
.config replaces them all, and their line numbers are taken out too.
"""

import collections
import os
import re
import sys

CC_RE = re.compile(r"^\s+(?:CC|AS|CPP|LDS|HOSTCC|CC \[M\])\s+(\S+)$")
LINK_RE = re.compile(r"^\s+(?:LD|MODPOST|KSYMS|OBJTOOL)\s+\S*(?:vmlinux|modules|Module)")
LOC_RE = re.compile(r"^(\S+?):(\d+):(?:(\d+):)? (.*)$")
CONTEXT_RES = (
    re.compile(r"^(?:In file included from |\s+from )(\S+?\.[cS]):\d+[:,]"),
    re.compile(r"^(\S+?\.[cS]): (?:In function|At top level|In member function)"),
)
WARNING_RE = re.compile(r"warning:", re.IGNORECASE)
CONF_RE = re.compile(r"^(\S*(?:\.config|Kconfig[^:\s]*)):\d+:\s*(warning:.*)$", re.IGNORECASE)
RECONF_RE = re.compile(r"^#\s+configuration written to ")
LINK = "(link)"
CONFIG = "(config)"


def strip_src(line, src):
    """LINE without the source worktree's path: SRC itself, or SRC-<line>
    (the worktree of one kernel line, lib.sh's line_dir: src-6.12), as an
    absolute path or relative (../../src-6.12/)."""
    root = src.rstrip("/")
    line = re.sub(re.escape(root) + r"(?:-[0-9]+\.[0-9]+)?/", "", line)
    name = re.escape(os.path.basename(root) or "src")
    return re.sub(r"(?:\.\./)+" + name + r"(?:-[0-9]+\.[0-9]+)?/", "", line)


def unit_of_object(path):
    """The source a build product comes from: kernel/signal.o -> kernel/signal.c."""
    if path.endswith(".o"):
        return path[:-2] + ".c"
    return path


def parse_log(path, src):
    """(units compiled again, relinked?, configured?, [(unit, warning)...])
    of one log."""
    units = set()
    relinked = False
    configured = False
    found = []
    context = None
    with open(path, encoding="utf-8", errors="replace") as log:
        for raw in log:
            line = strip_src(raw.rstrip("\n").rstrip("\r"), src)
            m = CC_RE.match(line)
            if m:
                units.add(unit_of_object(m.group(1)))
                continue
            if LINK_RE.match(line):
                relinked = True
                continue
            if RECONF_RE.match(line):
                configured = True
                continue
            for cre in CONTEXT_RES:
                m = cre.match(line)
                if m:
                    context = m.group(1)
                    break
            if not WARNING_RE.search(line):
                continue
            m = CONF_RE.match(line)
            if m:
                found.append((CONFIG, f"{m.group(1)}: {m.group(2)}"))
                continue
            m = LOC_RE.match(line)
            if m:
                where, text = m.group(1), m.group(4)
                if where.endswith((".c", ".S")):
                    unit = where
                elif where.endswith(".o") and "objtool" in text:
                    unit = unit_of_object(where)
                else:
                    unit = context or where
                found.append((unit, f"{where}: {text}"))
            else:
                m = re.match(r"^(\S+\.o): (.*)$", line)
                if m and not m.group(1).startswith("vmlinux"):
                    found.append((unit_of_object(m.group(1)), line.strip()))
                else:
                    found.append((LINK, line.strip()))
    return units, relinked, configured, found


def read_state(path):
    state = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            unit, _, text = line.partition("\t")
            state.append((unit, text))
    return state


def advance(state, units, relinked, configured, found):
    link_new = any(unit == LINK for unit, _ in found)
    drop_link = relinked or link_new
    drop_config = configured or any(unit == CONFIG for unit, _ in found)
    kept = [(u, t) for u, t in state
            if u not in units and not (u == LINK and drop_link)
            and not (u == CONFIG and drop_config)]
    return kept + found


def cmd_state(args):
    state = []
    if args and args[0] == "--from":
        state = read_state(args[1])
        args = args[2:]
    if len(args) < 2:
        usage()
    src, logs = args[0], args[1:]
    for log in logs:
        state = advance(state, *parse_log(log, src))
    for unit, text in sorted(state):
        print(f"{unit}\t{text}")


def cmd_new(args):
    if len(args) != 2:
        usage()
    old = collections.Counter(t for _, t in read_state(args[0]))
    for _, text in sorted(read_state(args[1]), key=lambda ut: ut[1]):
        if old[text] > 0:
            old[text] -= 1
        else:
            print(text)


def cmd_count(args):
    if len(args) != 1:
        usage()
    print(len(read_state(args[0])))


def usage():
    sys.stderr.write(__doc__)
    sys.exit(2)


def main(argv):
    cmds = {"state": cmd_state, "new": cmd_new, "count": cmd_count}
    if len(argv) < 2 or argv[1] not in cmds:
        usage()
    cmds[argv[1]](argv[2:])


if __name__ == "__main__":
    main(sys.argv)
