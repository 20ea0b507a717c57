#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""matrix.py: the matrix of a run, commits by stages, from results.tsv.

  matrix.py RESULTS ARCHES text|md|html [FRAGMENT...]
        Prints the matrix of RESULTS (a run's report directory, whose
        cells scripts/cells.py reads, or a results.tsv) as text for the
        terminal or as Markdown for summary.md: per series, one row per
        commit (by index) and one column per stage present, in the
        canonical order (apply, checkpatch, the other checks by name,
        build, cross, full-build, boot, boot-debug, then build-<arch>
        and boot-<arch> of each other boot architecture: arm64, i386,
        mips64el, then any other by name); a cell is its worst status and
        its total seconds.  Then, for a series with cross-compile cells, the
        architectures (in the order of ARCHES, scripts/arches, then any
        other) by commit; then every failure, untested cell and warning
        with its detail and log (the same one of several commits of a
        series once, naming the commits); then the count of untested cells (the
        work ran and verified nothing), if any, and of failing cells (a
        planned cell that no stage decided is one: MISSING).  Exits 1
        when a cell failed, 2 on a usage error or a file it cannot read.

        html is the same as one page to look at (make writes it as
        report/index.html): each cell coloured by its status, its detail
        on hover, and a link to its log (relative to the page when the log
        is in the same WORKDIR, so that the directory can be served or
        copied whole); the failures and warnings below, each linked; then
        each FRAGMENT file (HTML the workspace's own tools wrote: the
        designs' tables, the bench history), as it is.
  matrix.py --check-links PAGE
        Every link of PAGE (an index.html) that is a path or a file: URL
        resolves to a file or directory; prints each one that does not and
        exits 1 if there is one.

The data is handled byte for byte (read and written as Latin-1), so the
widths count bytes.
"""

import html
import html.parser
import os
import re
import sys
import urllib.parse

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cells import Damaged, Status, arch_stages, boot_arch, boot_arch_order, table  # noqa: E402

# "@checks": every stage not named here (the checks, by name); "@arches":
# the other boot architectures' stages (cells.py's boot_arch_order).
STAGE_ORDER = ("apply", "checkpatch", "@checks", "build", "cross", "full-build",
               "boot", "boot-debug", "@arches")
RANK = {s.value: s.rank for s in Status}


def number(text):
    try:
        return float(text)
    except ValueError:
        return 0.0


def show(value):
    """A number as awk prints it: whole numbers without a point."""
    return str(int(value)) if value == int(value) else f"{value:.6g}"


def read_rows(path):
    """The cells of a report directory or a results.tsv (cells.py's
    table), as lists of fields."""
    return [[c.series, str(c.index), c.commit, c.subject, c.stage, c.status.value,
             str(c.seconds), c.detail, c.log, c.arch, c.missing]
            for c in table(path, encoding="latin-1")]


def arch_order(path):
    order = []
    with open(path, encoding="latin-1") as f:
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if not line.startswith("#") and len(cols) >= 6:
                order.append(cols[0])
    return order


def arch_stages_present(present):
    """The build-<arch> and boot-<arch> stages of PRESENT, each
    architecture's build then boot, in the canonical order of them."""
    arches = boot_arch_order({boot_arch(p) for p in present} - {""})
    return [s for a in arches for s in arch_stages(a) if s in present]


def stages_present(rows):
    present = sorted({row[4] for row in rows})
    stages = []
    for s in STAGE_ORDER:
        if s == "@checks":
            stages += [p for p in present if p not in STAGE_ORDER and not boot_arch(p)]
        elif s == "@arches":
            stages += arch_stages_present(present)
        else:
            stages += [p for p in present if p == s]
    return stages


class Matrix:
    def __init__(self, rows):
        self.order = []          # (series, index) in first-seen order
        self.series = []
        self.commit, self.subject = {}, {}
        self.status, self.secs, self.cell = {}, {}, {}
        self.detail, self.log = {}, {}  # of a cell's worst row
        self.xcell, self.xany, self.xseen = {}, set(), []
        self.notes = []
        self.nfail = 0
        self.nuntested = 0
        self.missing = set()
        for row in rows:
            self.add(row)

    def add(self, row):
        series, index, commit, subject, stage, st, secs, detail, log, arch, missing = row
        key = (series, index)
        if key not in self.commit:
            self.order.append(key)
            if series not in self.series:
                self.series.append(series)
        if commit not in ("-", ""):
            self.commit[key] = commit[:12]
        elif key not in self.commit:
            self.commit[key] = "-"
        self.subject[key] = subject
        cell = (key, stage)
        if cell not in self.status or RANK.get(st, 0) > RANK.get(self.status[cell], 0):
            self.status[cell] = st
            self.detail[cell], self.log[cell] = detail, log
        self.secs[cell] = self.secs.get(cell, 0.0) + number(secs)
        fig = f" {show(self.secs[cell])}s" if stage != "apply" and self.secs[cell] > 0 else ""
        if missing:
            self.missing.add(cell)
        label = {"fail": "MISSING" if cell in self.missing else "FAIL",
                 "untested": "UNTESTED"}.get(self.status[cell], self.status[cell])
        self.cell[cell] = label + fig
        if stage == "cross" and arch:
            if st == "fail":
                xs = "MISSING" if missing else "FAIL"
            elif st == "untested":
                xs = "untst"
            elif st == "skip":
                xs = "n/c" if detail.startswith("not covered") else "skip"
            else:
                xs = st
            self.xcell[(key, arch)] = xs
            self.detail[(key, "cross", arch)] = f"{st}: {detail}"
            self.log[(key, "cross", arch)] = log
            self.xany.add(series)
            if arch not in self.xseen:
                self.xseen.append(arch)
        if st == "fail":
            self.nfail += 1
        if st == "untested":
            self.nuntested += 1
        if st in ("fail", "warn", "untested"):
            d = detail if detail.startswith(st + ":") else f"{st}: {detail}"
            where = f"{stage} {arch}" if stage == "cross" and arch else stage
            self.notes.append((series, index, commit[:12], f"{where}: {d}", log))

    def rows(self, series):
        """The (series, index) keys of SERIES, in index order."""
        return sorted((k for k in self.order if k[0] == series), key=lambda k: number(k[1]))


def index_ranges(indexes):
    """1, 2, 3, 5 as "1-3,5"."""
    nums = sorted({int(number(i)) for i in indexes})
    spans, start = [], nums[0]
    for prev, cur in zip(nums, nums[1:] + [None]):
        if cur != prev + 1:
            spans.append(f"{start}" if start == prev else f"{start}-{prev}")
            start = cur
    return ",".join(spans)


def grouped_notes(notes):
    """The notes, one line for each (series, what was said) in the order
    they came: the same warning of every commit of a series (the sender's
    address, say) is one line naming the commits, with the first log."""
    groups = {}
    for series, index, commit, said, log in notes:
        groups.setdefault((series, said), []).append((index, commit, log))
    for (series, said), cells in groups.items():
        index, commit, log = cells[0]
        if len(cells) == 1:
            yield f"{series} {index} {commit} {said}", log
        else:
            more = f" (and {len(cells) - 1} more, one per commit)" if log else ""
            yield f"{series} {index_ranges(c[0] for c in cells)} ({len(cells)} commits) {said}", log + more


def render(m, stages, archs, md):
    out = []
    xarch = [a for a in archs if a in m.xseen] + [a for a in m.xseen if a not in archs]
    for series in m.series:
        if md:
            out.append(f"\n### {series}\n\n| # | commit | subject |"
                       + "".join(f" {s} |" for s in stages)
                       + "\n|---|---|---|" + "---|" * len(stages) + "\n")
        else:
            out.append(f"\n== {series} ==\n{'#':<3} {'commit':<12} {'subject':<44}"
                       + "".join(f" {s:<11}" for s in stages) + "\n")
        keys = m.rows(series)
        for key in keys:
            idx = number(key[1])
            subject = m.subject[key]
            if md:
                subject = subject.replace("|", "\\|")
                out.append(f"| {int(idx)} | {m.commit[key]} | {subject} |"
                           + "".join(f" {m.cell.get((key, s), '')} |" for s in stages) + "\n")
            else:
                if len(subject) > 44:
                    subject = subject[:41] + "..."
                out.append(f"{int(idx):<3} {m.commit[key]:<12} {subject:<44}"
                           + "".join(f" {m.cell.get((key, s), '-'):<11}" for s in stages) + "\n")
        if series not in m.xany:
            continue
        title = f"\n{series}, cross-compiled by architecture (n/c: not covered, no compiler):\n"
        if md:
            out.append(title + "\n| # |" + "".join(f" {a} |" for a in xarch)
                       + "\n|---|" + "---|" * len(xarch) + "\n")
        else:
            out.append(title + f"{'#':<3}" + "".join(f" {a:<7}" for a in xarch) + "\n")
        for key in keys:
            idx = number(key[1])
            if (key, "cross") not in m.status:
                continue
            cells = [m.xcell.get((key, a), "-") for a in xarch]
            if md:
                out.append(f"| {int(idx)} |" + "".join(f" {c} |" for c in cells) + "\n")
            else:
                out.append(f"{int(idx):<3}" + "".join(f" {c:<7}" for c in cells) + "\n")
    if m.notes:
        out.append("\n### Failures and warnings\n\n" if md else "\nfailures and warnings:\n")
        for note, log in grouped_notes(m.notes):
            out.append(f"- {note}\n" if md else f"  {note}\n")
            if log:
                out.append(f"  (log: `{log}`)\n" if md else f"      log: {log}\n")
    if m.nuntested:
        # Apart from the failures: a cell that verified nothing is no pass.
        out.append(f"\n**{m.nuntested} untested cell(s)** (the work ran and verified nothing)\n" if md
                   else f"\n{m.nuntested} untested cell(s) (the work ran and verified nothing)\n")
    out.append(f"\n**{m.nfail} failing cell(s)**\n" if md else f"\n{m.nfail} failing cell(s)\n")
    return "".join(out)


HTML_STYLE = """
body { font: 14px/1.4 sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; white-space: nowrap; }
th { background: #f3f3f3; }
td.subject { max-width: 28em; overflow: hidden; text-overflow: ellipsis; }
td a { color: inherit; }
.pass { background: #d8f0d8; } .warn { background: #fff0b3; }
.fail { background: #f7c6c6; font-weight: bold; } .untested { background: #d9d2f0; }
.skip { background: #eeeeee; color: #666; } .missing { background: #f08080; font-weight: bold; }
code { font-size: 90%; }
"""

STATUS_CLASS = {"FAIL": "fail", "MISSING": "missing", "UNTESTED": "untested", "untst": "untested",
                "n/c": "skip"}


def link(log, base, text):
    """TEXT, linked to LOG: relative to BASE (the page's directory) when
    LOG is under BASE's parent (the WORKDIR), else a file: URL."""
    text = html.escape(text)
    if not log:
        return text
    if base and os.path.isabs(log):
        root = os.path.dirname(os.path.abspath(base))
        if os.path.commonpath([root, log]) == root:
            href = os.path.relpath(log, base)
        else:
            href = "file://" + log
    else:
        href = log
    return f'<a href="{html.escape(href, quote=True)}">{text}</a>'


def td(label, detail, log, base):
    word = label.split()[0] if label else ""
    cls = STATUS_CLASS.get(word, word if word in RANK else "")
    title = f' title="{html.escape(detail, quote=True)}"' if detail else ""
    return f'<td class="{cls}"{title}>{link(log, base, label) if label else ""}</td>'


def render_html(m, stages, archs, base, fragments=()):
    """The page: per series, the commits by stages and the architectures
    by commit, then the notes; each cell linked to its log; then the
    FRAGMENTS' HTML."""
    xarch = [a for a in archs if a in m.xseen] + [a for a in m.xseen if a not in archs]
    out = ['<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">',
           "<title>vstatus workspace: results</title>",
           f"<style>{HTML_STYLE}</style></head><body>",
           "<h1>Results</h1>",
           f"<p><b>{m.nfail} failing cell(s)</b>, {m.nuntested} untested (the work ran and "
           "verified nothing). Hover a cell for its detail; click it for its log.</p>"]
    for series in m.series:
        keys = m.rows(series)
        out.append(f"<h2>{html.escape(series)}</h2>\n<table><tr><th>#</th><th>commit</th><th>subject</th>"
                   + "".join(f"<th>{html.escape(s)}</th>" for s in stages) + "</tr>")
        for key in keys:
            out.append(f"<tr><td>{int(number(key[1]))}</td><td><code>{html.escape(m.commit[key])}</code></td>"
                       f'<td class="subject" title="{html.escape(m.subject[key], quote=True)}">'
                       f"{html.escape(m.subject[key])}</td>"
                       + "".join(td(m.cell.get((key, s), ""), m.detail.get((key, s), ""),
                                    m.log.get((key, s), ""), base) for s in stages) + "</tr>")
        out.append("</table>")
        if series not in m.xany:
            continue
        out.append(f"<h3>{html.escape(series)}, cross-compiled by architecture</h3>\n<table><tr><th>#</th>"
                   + "".join(f"<th>{html.escape(a)}</th>" for a in xarch) + "</tr>")
        for key in keys:
            if (key, "cross") not in m.status:
                continue
            out.append(f"<tr><td>{int(number(key[1]))}</td>"
                       + "".join(td(m.xcell.get((key, a), ""), m.detail.get((key, "cross", a), ""),
                                    m.log.get((key, "cross", a), ""), base) for a in xarch) + "</tr>")
        out.append("</table>")
    if m.notes:
        out.append("<h2>Failures and warnings</h2>\n<ul>")
        for note, log in grouped_notes(m.notes):
            first = log.split(" (and ")[0]
            more = log[len(first):]
            out.append(f"<li>{html.escape(note)}" + (f" ({link(first, base, 'log')}{html.escape(more)})"
                                                      if first else "") + "</li>")
        out.append("</ul>")
    out.extend(fragments)
    out.append("</body></html>\n")
    return "\n".join(out)


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        self.hrefs += [v for k, v in attrs if k == "href" and v]


def check_links(page):
    """The links of PAGE that do not resolve (paths and file: URLs)."""
    parser = Links()
    with open(page, encoding="utf-8", errors="replace") as f:
        parser.feed(f.read())
    bad = []
    for href in parser.hrefs:
        if href.startswith("file://"):
            path = urllib.parse.unquote(href[len("file://"):])
        elif re.match(r"^[a-z][a-z0-9+.-]*:", href) or href.startswith("#"):
            continue
        else:
            path = os.path.join(os.path.dirname(os.path.abspath(page)), urllib.parse.unquote(href))
        if not os.path.exists(path):
            bad.append(href)
    return bad


def main(argv):
    if len(argv) == 2 and argv[0] == "--check-links":
        bad = check_links(argv[1])
        for href in bad:
            print(f"matrix.py: {argv[1]}: a link that leads nowhere: {href}")
        return 1 if bad else 0
    if len(argv) < 3 or argv[2] not in ("text", "md", "html") or (len(argv) > 3 and argv[2] != "html"):
        print(__doc__.strip().split("\n\n")[1].splitlines()[0].strip(), file=sys.stderr)
        return 2
    try:
        rows = read_rows(argv[0])
        archs = arch_order(argv[1])
    except OSError as e:
        print(f"matrix.py: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    except Damaged as e:
        print(f"matrix.py: {argv[0]}: {e}", file=sys.stderr)
        return 2
    m = Matrix(rows)
    if argv[2] == "html":
        # Links relative to the page, which make writes in the report
        # directory (or beside the results.tsv given).
        base = argv[0] if os.path.isdir(argv[0]) else os.path.dirname(os.path.abspath(argv[0]))
        fragments = []
        for path in argv[3:]:
            with open(path, encoding="latin-1") as f:
                fragments.append(f.read())
        text = render_html(m, stages_present(rows), archs, os.path.abspath(base), fragments)
    else:
        text = render(m, stages_present(rows), archs, argv[2] == "md")
    try:
        sys.stdout.buffer.write(text.encode("latin-1"))
        sys.stdout.flush()
    except OSError as e:
        print(f"matrix.py: cannot write the matrix: {e.strerror}", file=sys.stderr)
        return 2
    return 1 if m.nfail else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
