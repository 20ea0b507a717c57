#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""report.py: results.tsv as machine-readable reports, for CI systems.

  report.py RESULTS OUTDIR
        RESULTS: a run's report directory (its cells, scripts/cells.py) or
        a results.tsv.  Writes OUTDIR/results.json, one record per cell with the fields of
        results.tsv (series, index, commit, subject, stage, status, seconds,
        detail, log, arch, cached (true for a cell taken from a cache),
        cpu (the CPU seconds a build cell's work took; null for a cell
        whose stage does not measure them),
        "missing": true for a planned cell no stage decided, and "inputs":
        what the cell's result read, a line each ("text LINE", "file PATH
        SHA256", "run CMD ARG...", "key KEY": what keys.sh's key_from writes; empty
        for a cell from a table, or one whose stage keeps none); index and
        seconds as numbers; a table from before the
        arch column has the arch record gave its stage), and
        OUTDIR/results.junit.xml,
        a JUnit document: one testsuite per series, one testcase per cell
        (classname "<series>.<stage>", or "<series>.cross.<arch>", name "<index> <commit:12> <subject>"),
        a failure for "fail" (a planned cell that no stage decided is one,
        "missing: ..."), skipped for "skip" and for "untested" (the work
        ran and verified nothing: the message says so), the detail as the
        message ("warn" passes, with its detail in system-out), the cell's log in
        system-out.  Each file is
        written beside its final name and renamed, so a reader never sees
        half of one.  Exits 1 on a results.tsv that is not a table, 2 on a
        usage error.
"""

import json
import os
import sys
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from cells import FIELDS, Damaged, write_atomically  # noqa: E402
import cells  # noqa: E402


def usage():
    print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
    sys.exit(2)


def fail(msg):
    print(f"report.py: {msg}", file=sys.stderr)
    sys.exit(1)


def read_results(path):
    """The cells of results.tsv (cells.py's table), as dicts, in file order."""
    try:
        rows = cells.table(path)
    except Damaged as e:
        fail(f"{path}: {e}")
    return [{**{f: getattr(c, f) for f in FIELDS}, "status": c.status.value,
             "missing": c.missing, "inputs": list(c.inputs)} for c in rows]


def junit(table):
    """The JUnit document of the cells, as an ElementTree root."""
    root = ET.Element("testsuites", name="vstatus-workspace")
    suites = {}
    for cell in table:
        suite = suites.get(cell["series"])
        if suite is None:
            suite = ET.SubElement(root, "testsuite", name=cell["series"])
            suites[cell["series"]] = suite
        case = ET.SubElement(
            suite, "testcase",
            classname=f"{cell['series']}.{cell['stage']}"
            + (f".{cell['arch']}" if cell["stage"] == "cross" and cell["arch"] else ""),
            name=f"{cell['index']} {cell['commit'][:12]} {cell['subject']}",
            time=str(cell["seconds"]))
        out = []
        if cell["status"] == "fail":
            ET.SubElement(case, "failure", message=cell["detail"])
        elif cell["status"] == "skip":
            ET.SubElement(case, "skipped", message=cell["detail"])
        elif cell["status"] == "untested":
            ET.SubElement(case, "skipped", message=f"untested: {cell['detail']}")
        elif cell["detail"]:
            out.append(f"{cell['status']}: {cell['detail']}")
        if cell["log"]:
            out.append(f"log: {cell['log']}")
        if out:
            ET.SubElement(case, "system-out").text = "\n".join(out)
    for total in (root, *suites.values()):
        cases = total.iter("testcase")
        counts = {"tests": 0, "failures": 0, "skipped": 0, "time": 0}
        for case in cases:
            counts["tests"] += 1
            counts["failures"] += case.find("failure") is not None
            counts["skipped"] += case.find("skipped") is not None
            counts["time"] += int(case.get("time"))
        for key, value in counts.items():
            total.set(key, str(value))
        total.set("errors", "0")
    return root


def main(argv):
    if len(argv) != 2:
        usage()
    results, outdir = argv
    cells = read_results(results)
    write_atomically(os.path.join(outdir, "results.json"),
                     json.dumps(cells, indent=1, ensure_ascii=False) + "\n")
    root = junit(cells)
    ET.indent(root)
    write_atomically(os.path.join(outdir, "results.junit.xml"),
                     '<?xml version="1.0" encoding="UTF-8"?>\n'
                     + ET.tostring(root, encoding="unicode") + "\n")


if __name__ == "__main__":
    main(sys.argv[1:])
