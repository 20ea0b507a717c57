#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""cocci_tables.py: the tables of the Coccinelle inventory
(scripts/cocci-inventory.sh), from report files of "file:line: script:
message" lines.

  cocci_tables.py added A B
        The reports of B that A does not have, compared without line
        numbers (the same file, script and message, as often as A has
        them), in B's order.
  cocci_tables.py table arch|subsystem FILE SCRIPT...
        A Markdown table of FILE's reports: one row per architecture
        (arch/<name>/..., everything else "generic", last) or per
        subsystem (the first two directories), one column per SCRIPT, and
        the totals.
  cocci_tables.py by-line FILE
        FILE's reports sorted by file, then line number.
  cocci_tables.py listing FILE
        FILE's reports by line, under a heading per subsystem.

The data is handled byte for byte (Latin-1 in and out).
"""

import sys


def reports(path):
    with open(path, encoding="latin-1", newline="") as f:
        return [line for line in f.read().split("\n") if line]


def split(line):
    """(file, line number text, rest after "N: ")."""
    f, _, rest = line.partition(":")
    num, sep, tail = rest.partition(": ")
    if sep and num.isdigit():
        return f, num, tail
    return f, "", rest


def unnumbered(line):
    f, _, rest = split(line)
    return f"{f}: {rest}"


def added(a, b):
    have = {}
    for line in a:
        k = unnumbered(line)
        have[k] = have.get(k, 0) + 1
    out = []
    for line in b:
        k = unnumbered(line)
        if have.get(k, 0) > 0:
            have[k] -= 1
        else:
            out.append(line)
    return out


def subsystem(path):
    parts = path.split("/")
    if len(parts) >= 3:
        return f"{parts[0]}/{parts[1]}/"
    if len(parts) == 2:
        return f"{parts[0]}/"
    return "(top level)"


def architecture(path):
    parts = path.split("/")
    return parts[1] if parts[0] == "arch" and len(parts) > 2 else "generic"


def table(kind, lines, scripts):
    group = architecture if kind == "arch" else subsystem
    counts, per_group, per_script = {}, {}, {}
    for line in lines:
        f, _, rest = split(line)
        script = rest.partition(":")[0]
        g = group(f)
        counts[(g, script)] = counts.get((g, script), 0) + 1
        per_group[g] = per_group.get(g, 0) + 1
        per_script[script] = per_script.get(script, 0) + 1
    out = [f"| {kind} |" + "".join(f" {s} |" for s in scripts) + " total |",
           "|---|" + "---:|" * len(scripts) + "---:|"]
    order = sorted(g for g in per_group if g != "generic")
    if "generic" in per_group:
        order.append("generic")
    for g in order:
        out.append(f"| {g} |" + "".join(f" {counts.get((g, s), '')} |" for s in scripts)
                   + f" {per_group[g]} |")
    out.append("| **total** |" + "".join(f" {per_script.get(s, 0)} |" for s in scripts)
               + f" **{len(lines)}** |")
    return out


def by_line(lines):
    def key(line):
        f, num, _ = split(line)
        rest = line.split(":", 2)[2] if line.count(":") >= 2 else ""
        return (f, int(num) if num else 0, rest, line)
    return sorted(lines, key=key)


def listing(lines):
    out, last = [], None
    for i, line in enumerate(by_line(lines)):
        g = subsystem(line.partition(":")[0])
        if g != last:
            if i:
                out += ["```", ""]
            out += [f"#### {g}", "", "```"]
            last = g
        out.append(line)
    if lines:
        out.append("```")
    return out


def main(argv):
    try:
        if len(argv) == 3 and argv[0] == "added":
            out = added(reports(argv[1]), reports(argv[2]))
        elif len(argv) >= 3 and argv[0] == "table" and argv[1] in ("arch", "subsystem"):
            out = table(argv[1], reports(argv[2]), argv[3:])
        elif len(argv) == 2 and argv[0] == "by-line":
            out = by_line(reports(argv[1]))
        elif len(argv) == 2 and argv[0] == "listing":
            out = listing(reports(argv[1]))
        else:
            print("usage: " + "\n       ".join(
                l.strip() for l in __doc__.splitlines() if l.startswith("  cocci_tables.py")),
                file=sys.stderr)
            return 2
    except OSError as e:
        print(f"cocci_tables.py: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1
    sys.stdout.buffer.write("".join(line + "\n" for line in out).encode("latin-1"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
