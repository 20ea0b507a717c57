# SPDX-License-Identifier: GPL-2.0
"""Golden tests of scripts/cocci_tables.py on tests/fixtures/cocci-tables/:
the reports a head adds and removes (without line numbers, as often as
each occurs), the tables by architecture and by subsystem, the sorted
reports and the listing by subsystem; the expected files were written by
the awk these functions replace."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "cocci_tables.py"
FIX = ROOT / "tests" / "fixtures" / "cocci-tables"
SCRIPTS = ["nsig_words_define", "nsig_words_switch", "sigmask", "sigset_word0"]


def run(*args):
    return subprocess.run([str(TOOL), *map(str, args)], capture_output=True)


@pytest.mark.parametrize("args, expected", [
    (["added", FIX / "base.txt", FIX / "head.txt"], "expected.added"),
    (["added", FIX / "head.txt", FIX / "base.txt"], "expected.removed"),
    (["table", "arch", FIX / "base.txt", *SCRIPTS], "expected.table-arch"),
    (["table", "subsystem", FIX / "head.txt", *SCRIPTS], "expected.table-subsystem"),
    (["table", "arch", FIX / "empty.txt", *SCRIPTS], "expected.table-empty"),
    (["by-line", FIX / "head.txt"], "expected.by-line"),
    (["listing", FIX / "base.txt"], "expected.listing"),
    (["listing", FIX / "empty.txt"], "expected.listing-empty"),
])
def test_golden(args, expected):
    res = run(*args)
    assert res.returncode == 0, res.stderr
    assert res.stdout == (FIX / expected).read_bytes()


def test_usage_is_exit_2_and_a_missing_file_is_named():
    assert run("table", "planet", FIX / "base.txt").returncode == 2
    res = run("listing", FIX / "nonexistent.txt")
    assert res.returncode == 1
    assert b"nonexistent.txt" in res.stderr
