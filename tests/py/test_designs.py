# SPDX-License-Identifier: GPL-2.0
"""Golden test of scripts/designs.py on tests/fixtures/designs/: the
guest tests' cases at each series head side by side, from a results.tsv
whose head boots point at KTAP logs (relative to the results' directory):
a head that skips every case, one that passes with a case the others do
not have, one that fails a case, a head whose log is gone; the headers
line and each case's own diagnostics (not the kernel's "load:" lines, not
a nested test's), and a test no head ran."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "designs.py"
FIX = ROOT / "tests" / "fixtures" / "designs"
TESTS = "siginfo,nsig_tty,absent"


def run(*args):
    return subprocess.run([str(TOOL), *map(str, args)], capture_output=True)


def test_text_is_the_golden_one():
    res = run(FIX / "results.tsv", TESTS, "text")
    assert res.returncode == 0
    assert res.stdout == (FIX / "expected.text").read_bytes()


def test_markdown_is_the_golden_one():
    res = run(FIX / "results.tsv", TESTS, "md")
    assert res.returncode == 0
    assert res.stdout == (FIX / "expected.md").read_bytes()


def test_the_head_is_the_highest_index_not_the_last_row():
    out = run(FIX / "results.tsv", "nsig_tty", "md").stdout.decode()
    assert "newsig n22222222222" in out
    assert "n11111111111" not in out


def test_no_head_ran_the_tests_prints_nothing():
    res = run(FIX / "results.tsv", "absent", "text")
    assert res.returncode == 0
    assert res.stdout == b""


def test_usage_and_a_missing_results_file_exit_2():
    assert run(FIX / "results.tsv", TESTS).returncode == 2
    assert run(FIX / "results.tsv", "", "text").returncode == 2
    res = run(FIX / "nonexistent.tsv", TESTS, "text")
    assert res.returncode == 2
    assert b"nonexistent.tsv" in res.stderr


def test_html_is_the_golden_one():
    res = run(FIX / "results.tsv", TESTS, "html")
    assert res.returncode == 0
    assert res.stdout == (FIX / "expected.html").read_bytes()
