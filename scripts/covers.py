#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""covers.py: the results block of a cover letter, written from the run.

  covers.py write REPORT SERIES HEAD COVER
        Prints COVER (series/SERIES/cover-letter) with its results block
        made again from the cells of REPORT (scripts/cells.py): what the
        last run verified of each commit of SERIES, whose branch head is
        HEAD.  The block is the text between a line
        "[results of the workspace's run: make covers writes this block; do not edit it]"
        and a line "[end of results]"; a cover without one gets it before
        its closing To:/Cc: lines.  Exits 1, saying why, when the run did
        not verify HEAD (no cell of it, or a planned cell no stage decided:
        run make first).
  covers.py note COVER
        Prints COVER with the text on standard input put before its
        closing To:/Cc: lines, as the block is (make send's note of the
        cells the sender accepts, scripts/b4.sh).
  covers.py head COVER
        The head the block of COVER was written for ("" when there is no
        block): make send refuses a cover whose block is not of the
        branch's head.

Per commit, the block says: the checks (how many passed, and each that
warned, failed or verified nothing, by name), the x86-64 build, the
architectures the commit's objects were compiled on (by status), and the
boot's KTAP counts; at the head, the boots of the other architectures
(arm64, i386, mips64el, then any other by name), the debug boot and the
full builds; then every cell that failed or verified nothing, with its
detail.
No figure in it is typed by hand.
"""

import os
import re
import sys
import textwrap

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cells  # noqa: E402
from cells import Status  # noqa: E402

BEGIN = "[results of the workspace's run: make covers writes this block; do not edit it]"
END = "[end of results]"
ADDRESS_RE = re.compile(r"^(To|Cc): ")
# The stages that are no check, besides every build-<arch> and boot-<arch>
# of another architecture (is_check).
NOT_CHECKS = {"apply", "build", "cross", "full-build", "boot", "boot-debug"}


class NotVerified(Exception):
    pass


def plain(detail):
    """A cell's detail without what says it came from a cache, and
    without pointers to local logs, which a reader of the mail has not."""
    detail = re.sub(r"(,? \(cached\)|, cached)$", "", detail.strip())
    return re.sub(r"\s*\((see the log|log:)[^()]*\)", "", detail)


def counts(detail):
    """The KTAP counts of a boot's detail ("pass: 65 passed, 42 skipped;
    kunit: ..."), without the status word."""
    return re.sub(r"^(pass|fail|warn): ", "", plain(detail))


def boot_said(c):
    """A boot's counts, with its status when it did not pass."""
    return counts(c.detail) if c.status == Status.PASS else f"{c.status.value}: {counts(c.detail)}"


def is_check(stage):
    """Whether STAGE's cells are a check's (checkpatch, sparse, abi...)."""
    return stage not in NOT_CHECKS and not cells.is_arch_stage(stage)


def arch_boots(at_head):
    """The head's boots of the other architectures, as "ARCH boot: ..."
    lines, in the canonical order of the architectures."""
    boots = {cells.boot_arch(c.stage): c for c in at_head
             if cells.is_arch_stage(c.stage) and c.stage.startswith("boot-")}
    return [f"{a} boot: {boot_said(boots[a])}" for a in cells.boot_arch_order(boots)]


def wrap(text, indent, hang="  "):
    return textwrap.fill(text, width=72, initial_indent=indent,
                         subsequent_indent=indent + hang, break_on_hyphens=False)


def commit_lines(index, n, mine):
    """The lines of one commit (not the base): checks, build, cross, boot."""
    checks = [c for c in mine if is_check(c.stage)]
    said = []
    if checks:
        good = sum(c.status == Status.PASS for c in checks)
        other = [f"{c.stage} {c.status.value}" for c in sorted(checks, key=lambda c: c.stage)
                 if c.status != Status.PASS]
        said.append(f"checks: {good} of {len(checks)} pass" + (f" ({', '.join(other)})" if other else ""))
    for c in mine:
        if c.stage == "build":
            said.append(f"x86-64 build: {c.status.value}")
    cross = [c for c in mine if c.stage == "cross" and c.arch]
    if cross:
        by = {}
        for c in cross:
            word = ("not covered" if c.status == Status.SKIP and c.detail.startswith("not covered")
                    else c.status.value)
            by.setdefault(word, []).append(c.arch)
        said.append("its objects compiled on "
                    + "; ".join(f"{' '.join(a)}: {w}" for w, a in by.items()))
    elif any(c.stage == "cross" for c in mine):
        said.append("no object to compile on other architectures")
    for c in mine:
        if c.stage == "boot":
            said.append(f"x86-64 boot: {boot_said(c)}")
    return wrap(f"{index}/{n} " + "; ".join(said) + ".", "  ")


def block(report, series, head):
    """The results block of SERIES at HEAD, as a list of lines."""
    mine = [c for c in cells.load(report) if c.series == series]
    if not mine:
        raise NotVerified(f"the run has no cell of {series}: run make first")
    top = max(c.index for c in mine)
    heads = {c.commit for c in mine if c.index == top and c.commit not in ("", "-")}
    if heads != {head}:
        raise NotVerified(f"the run's cells of {series} are of the head {', '.join(sorted(heads))[:12]}, "
                          f"not of the branch's {head[:12]}: run make first")
    missing = [c for c in mine if c.missing]
    if missing:
        raise NotVerified(f"{len(missing)} planned cell(s) of {series} never came "
                          f"(the first: {missing[0].index} {missing[0].stage}): run make first")
    lines = [BEGIN, f"Head {head[:12]}, as the workspace's last run verified it:",
             wrap("each commit checked, built, compiled for the architectures it "
                  "touches and booted in QEMU (x86-64, smoke config):", "", "")]
    lines.append("")
    for index in range(1, top + 1):
        lines.append(commit_lines(index, top, [c for c in mine if c.index == index]))
    at_head = [c for c in mine if c.index == top]
    # The other architectures' boots first: the blocks written so far have
    # arm64's before the debug boot's.
    extra = arch_boots(at_head)
    extra += [f"debug config (KASAN, UBSAN, lockdep) boot: {boot_said(c)}"
              for c in at_head if c.stage == "boot-debug"]
    full = [c for c in at_head if c.stage == "full-build"]
    if full:
        # A build that needed a base fixup says so: the base does not
        # build there as Debian ships it (fixups/README.md).
        extra.append("full kernel builds: " + ", ".join(
            f"{c.arch} {c.status.value}{' (with a base fixup)' if 'with base fixup' in c.detail else ''}"
            for c in full))
    if extra:
        lines.append("")
        lines.append(wrap("At the head: " + "; ".join(extra) + ".", "", ""))
    bad = [c for c in mine if c.status in (Status.FAIL, Status.UNTESTED)]
    if bad:
        lines.append("")
        lines.append("Cells that failed or verified nothing:")
        for c in bad:
            where = f"{c.stage}{'@' + c.arch if c.arch and c.stage in ('cross', 'full-build') else ''}"
            lines.append(wrap(f"{c.index}/{top} {where}: {c.status.value}: {plain(c.detail)}", "  "))
    lines.append(END)
    return lines


def before_addresses(lines, new):
    """LINES with NEW (lines) put before their closing To:/Cc: lines, or at
    the end when there are none; a blank line on each side."""
    first = len(lines)
    while first > 0 and (lines[first - 1] == "" or ADDRESS_RE.match(lines[first - 1])):
        first -= 1
    head, tail = lines[:first], lines[first:]
    while tail and tail[0] == "":
        tail.pop(0)
    while head and head[-1] == "":
        head.pop()
    return head + [""] + new + ([""] + tail if tail else [])


def replace_block(text, new):
    """TEXT with its block replaced by NEW (lines), or NEW put before the
    closing To:/Cc: lines when there is none."""
    lines = text.splitlines()
    if BEGIN in lines:
        start = lines.index(BEGIN)
        if END not in lines[start:]:
            raise ValueError(f"the results block has no closing line {END!r}")
        lines[start:lines.index(END, start) + 1] = new
    else:
        lines = before_addresses(lines, new)
    return "\n".join(lines) + "\n"


def block_head(text):
    m = re.search(r"^Head ([0-9a-f]{12}), as the workspace's last run verified it:$",
                  text.split(BEGIN, 1)[1] if BEGIN in text else "", re.M)
    return m.group(1) if m else ""


def main(argv):
    if len(argv) == 5 and argv[0] == "write":
        report, series, head, cover = argv[1:]
        try:
            with open(cover, encoding="utf-8") as f:
                text = f.read()
            sys.stdout.write(replace_block(text, block(report, series, head)))
        except (NotVerified, ValueError) as e:
            print(f"covers.py: series/{series}/cover-letter: {e}", file=sys.stderr)
            return 1
        except OSError as e:
            print(f"covers.py: {e.filename}: {e.strerror}", file=sys.stderr)
            return 1
        return 0
    if len(argv) == 2 and argv[0] == "note":
        try:
            with open(argv[1], encoding="utf-8") as f:
                lines = f.read().splitlines()
        except OSError as e:
            print(f"covers.py: {e.filename}: {e.strerror}", file=sys.stderr)
            return 1
        sys.stdout.write("\n".join(before_addresses(lines, sys.stdin.read().splitlines())) + "\n")
        return 0
    if len(argv) == 2 and argv[0] == "head":
        try:
            with open(argv[1], encoding="utf-8") as f:
                print(block_head(f.read()))
        except OSError as e:
            print(f"covers.py: {e.filename}: {e.strerror}", file=sys.stderr)
            return 1
        return 0
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
