# SPDX-License-Identifier: GPL-2.0
"""Golden tests of scripts/report.py on tests/fixtures/report/results.tsv:
results.json and the JUnit file, byte for byte, and its refusals."""

import pathlib
import subprocess
import xml.etree.ElementTree as ET

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "report.py"
FIX = ROOT / "tests" / "fixtures" / "report"


def run(*args):
    return subprocess.run([str(TOOL), *map(str, args)], capture_output=True, text=True)


def test_json_and_junit_match_the_golden_files(tmp_path):
    proc = run(FIX / "results.tsv", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "results.json").read_text() == (FIX / "expected.json").read_text()
    assert (tmp_path / "results.junit.xml").read_text() == (FIX / "expected.junit.xml").read_text()
    assert not list(tmp_path.glob("*.tmp"))


def test_junit_counts_each_failure_and_skip_once(tmp_path):
    run(FIX / "results.tsv", tmp_path)
    root = ET.parse(tmp_path / "results.junit.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("skipped")) == ("5", "1", "1")
    failure = root.find("testsuite[@name='one']/testcase/failure")
    assert failure.get("message") == "main.c:1: error: x"


def test_a_damaged_table_is_refused_naming_the_line(tmp_path):
    bad = tmp_path / "results.tsv"
    lines = (FIX / "results.tsv").read_text().splitlines()
    bad.write_text("\n".join(lines[:2] + ["one\t1\tbbbb\tx\tbuild\tbroken\t1\tx\t"]) + "\n")
    proc = run(bad, tmp_path)
    assert proc.returncode == 1
    assert "line 3: unknown status 'broken'" in proc.stderr
    assert not (tmp_path / "results.json").exists()
    bad.write_text("not a header\n")
    proc = run(bad, tmp_path)
    assert proc.returncode == 1
    assert "line 1: not the header of a results table" in proc.stderr


def test_usage_error_exits_2():
    proc = run("only-one")
    assert proc.returncode == 2
    assert "report.py RESULTS OUTDIR" in proc.stderr
