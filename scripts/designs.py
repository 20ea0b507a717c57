#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""designs.py: guest tests case by case at each series head, side by side.

  designs.py RESULTS TESTS text|md|html
        For each series of RESULTS (a results.tsv) whose head (its commit
        of highest index) has a boot row (stage "boot", the smoke boot),
        reads that boot's ktap.log (the row's log directory; a relative
        one is taken from RESULTS' directory) and prints, for each guest
        test named in TESTS (comma-separated KTAP names, such as
        "siginfo,nsig_tty"), one row per case and one column per series:
        pass, SKIP or FAIL, and "-" where that head did not run the case.
        Under each table, what each head's test said of its headers (its
        "# headers:" line) and of each case (the diagnostics the case
        printed before its result, but the kernel's "load:" lines and the
        totals).  So the series that reach one feature by different
        designs (nsig's 65th signal, sigpwr's SIGPWR) are read side by
        side, with the same programs.  Prints nothing when no head ran
        any of TESTS; a head without a ktap.log, or whose log has none of
        TESTS, has no column.  html is the same as a fragment of the
        report's page (matrix.py html takes it).  Exits 0, or 2 on a usage
        error or a results file it cannot read.

The data is handled byte for byte (read and written as Latin-1).
"""

import html
import pathlib
import re
import sys

from matrix import number, read_rows

# The parser that judges every boot (qemu/ktap-verdict) reads the logs here
# too, so that both see the same tests and cases.
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "qemu"))
import ktap_verdict  # noqa: E402


def heads(rows, base):
    """[(series, commit, ktap path or None)] of each series' head boot."""
    order, best = [], {}
    for row in rows:
        series, index, commit, stage, log = row[0], row[1], row[2], row[4], row[8]
        if series not in order:
            order.append(series)
        if stage != "boot" or not log:
            continue
        if series not in best or number(index) > number(best[series][0]):
            best[series] = (index, commit, log)
    out = []
    for series in order:
        if series in best:
            _, commit, log = best[series]
            logdir = pathlib.Path(log)
            if not logdir.is_absolute():
                logdir = base / logdir
            ktap = logdir / "ktap.log"
            out.append((series, commit[:12], ktap if ktap.is_file() else None))
    return out


def label_of(result):
    """A case's label: its description, or for a skip the description
    its reason carries in its last parentheses."""
    if result.desc:
        return result.desc
    m = re.search(r"\(([^()]*(?:\([^()]*\)[^()]*)*)\)\s*$", result.reason)
    return m.group(1) if m else ""


def cases_of(path):
    """{test: ([(number, status, label, [diagnostics])], headers line or
    "")} from one KTAP log: the cases of each top-level test are the
    results of its own KTAP, as ktap_verdict's parser reads them."""
    parser = ktap_verdict.KtapParser(kunit=False).parse(ktap_verdict.read_records(str(path)))
    tests = {}
    for top in parser.top:
        cases, headers = [], ""
        for case in top.child.cases if top.child else []:
            said = []
            for note in case.notes:
                if note.startswith("headers:"):
                    headers = note[len("headers:"):].strip()
                elif not re.match(r"(load|Totals):", note):
                    said.append(note)
            r = case.result
            status = "FAIL" if r.notok else "SKIP" if r.skip else "pass"
            cases.append((r.number, status, label_of(r), said))
        tests[top.name] = (cases, headers)
    return tests


def table(tests, series_heads):
    """[(test, [case rows], [(series, headers)], [series])] for the tests
    some head ran."""
    logs = {s: (cases_of(k) if k else {}) for s, _, k in series_heads}
    out = []
    for test in tests:
        ran = [s for s, _, _ in series_heads if test in logs[s]]
        if not ran:
            continue
        numbers, labels = [], {}
        for s in ran:
            for n, status, label, _ in logs[s][test][0]:
                if n not in numbers:
                    numbers.append(n)
                if label and (n not in labels or labels[n][1] == "SKIP" != status):
                    labels[n] = (label, status)
        rows = []
        for n in sorted(numbers):
            cells = []
            for s in ran:
                got = [st for k, st, _, _ in logs[s][test][0] if k == n]
                cells.append(got[0] if got else "-")
            rows.append((n, labels.get(n, ("", ""))[0], cells))
        headers = [(s, logs[s][test][1]) for s in ran if logs[s][test][1]]
        said = [(n, s, d) for s in ran for n, _, _, ds in logs[s][test][0] for d in ds]
        said.sort(key=lambda x: x[0])
        headers += [(f"{s}, case {n}", d) for n, s, d in said]
        out.append((test, rows, headers, ran))
    return out


def render(tables, commits, md):
    out = []
    for test, rows, headers, ran in tables:
        cols = [f"{s} {commits[s]}" for s in ran]
        if md:
            out.append(f"\n### {test} at the series heads, case by case\n\n"
                       "| # | case |" + "".join(f" {c} |" for c in cols)
                       + "\n|---|---|" + "---|" * len(cols) + "\n")
            for n, label, cells in rows:
                label = label.replace("|", "\\|")
                out.append(f"| {n} | {label} |" + "".join(f" {c} |" for c in cells) + "\n")
            if headers:
                out.append("\n")
                out.extend(f"- {s}: {h}\n" for s, h in headers)
        else:
            width = max([len(s) for s in ran] + [6])
            out.append(f"\n== {test} at the series heads, case by case ==\n"
                       + f"{'#':<3}" + "".join(f" {s:<{width}}" for s in ran) + " case\n")
            for n, label, cells in rows:
                if len(label) > 72:
                    label = label[:69] + "..."
                out.append(f"{n:<3}" + "".join(f" {c:<{width}}" for c in cells) + f" {label}\n")
            out.extend(f"  {s}: {h}\n" for s, h in headers)
    return "".join(out)


def render_html(tables, commits):
    out = []
    for test, rows, headers, ran in tables:
        out.append(f"<h2>{html.escape(test)} at the series heads, case by case</h2>\n"
                   "<table><tr><th>#</th><th>case</th>"
                   + "".join(f"<th>{html.escape(s)} <code>{html.escape(commits[s])}</code></th>" for s in ran)
                   + "</tr>")
        for n, label, cells in rows:
            out.append(f"<tr><td>{n}</td><td>{html.escape(label)}</td>"
                       + "".join(f'<td class="{ {"pass": "pass", "SKIP": "skip", "FAIL": "fail"}.get(c, "")}">'
                                 f"{html.escape(c)}</td>" for c in cells) + "</tr>")
        out.append("</table>")
        if headers:
            out.append("<ul>" + "".join(f"<li>{html.escape(s)}: {html.escape(h)}</li>" for s, h in headers)
                       + "</ul>")
    return "\n".join(out) + ("\n" if out else "")


def main(argv):
    if len(argv) != 3 or argv[2] not in ("text", "md", "html") or not argv[1]:
        print(__doc__.strip().split("\n\n")[1].splitlines()[0].strip(), file=sys.stderr)
        return 2
    results = pathlib.Path(argv[0])
    try:
        rows = read_rows(results)
        series_heads = heads(rows, results.parent)
        tables = table([t for t in argv[1].split(",") if t], series_heads)
    except OSError as e:
        print(f"designs.py: {e.filename}: {e.strerror}", file=sys.stderr)
        return 2
    commits = {s: c for s, c, _ in series_heads}
    if argv[2] == "html":
        text = render_html(tables, commits)
    else:
        text = render(tables, commits, argv[2] == "md")
    sys.stdout.buffer.write(text.encode("latin-1"))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
