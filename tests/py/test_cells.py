# SPDX-License-Identifier: GPL-2.0
"""Golden tests of scripts/cells.py on tests/fixtures/cells/: the plan of a
series, the export of a store with a missing, a stale and an untested cell,
a damaged cell file, and the order of the statuses."""

import pathlib
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "cells.py"
FIX = ROOT / "tests" / "fixtures" / "cells"

sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
import cells  # noqa: E402


def run(*args, stdin=None):
    return subprocess.run([str(TOOL), *map(str, args)], input=stdin,
                          capture_output=True, text=True)


def test_the_plan_of_a_series_is_the_golden_one(tmp_path):
    proc = run("plan", tmp_path, "one", "checkpatch,sparse", "1", "1",
               stdin=(FIX / "commits").read_text())
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "plan" / "one").read_text() == (FIX / "expected.plan").read_text()


def test_without_debug_and_arm64_the_head_owes_neither():
    commits = cells.read_commits(open(FIX / "commits"))
    stages = {p.stage for p in cells.planned_cells("one", commits, [], False, False)}
    assert stages == {"apply", "build", "cross", "boot"}


def test_export_lists_decided_then_missing_cells_and_leaves_out_stale_ones(tmp_path):
    shutil.copytree(FIX / "store", tmp_path, dirs_exist_ok=True)
    proc = run("export", tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "results.tsv").read_text() == (FIX / "expected.results.tsv").read_text()
    table = cells.load(str(tmp_path))
    assert [c.key for c in table if c.missing] == [
        ("one", 1, "boot", "x86_64"), ("one", 1, "sparse", "")]
    assert all(c.status is cells.Status.FAIL for c in table if c.missing)


def test_a_damaged_cell_is_set_aside_and_named(tmp_path, capsys):
    shutil.copytree(FIX / "store", tmp_path, dirs_exist_ok=True)
    bad = tmp_path / "cells" / "one" / "1" / "build@x86_64"
    bad.write_text("one\t1\tbbbb\tfix: a\tbuild\tbroken\t1\tx\t\tx86_64\n")
    table = cells.load(str(tmp_path))
    assert f"{bad} is damaged (unknown status 'broken')" in capsys.readouterr().err
    assert not bad.exists() and bad.with_name("build@x86_64.damaged").exists()
    assert ("one", 1, "build", "x86_64") in [c.key for c in table if c.missing]


def test_the_worst_status_wins_and_untested_is_worse_than_warn():
    order = sorted(cells.Status, key=lambda s: s.rank)
    assert [s.value for s in order] == ["skip", "pass", "warn", "untested", "fail"]


def test_an_older_results_tsv_is_imported_once(tmp_path):
    (tmp_path / "results.tsv").write_text(
        "series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\n"
        "one\t1\tx\tadd a\tbuild\tpass\t1\tok\t/l\n")
    assert run("import", tmp_path).returncode == 0
    assert (tmp_path / "cells" / "one" / "1" / "build@x86_64").read_text() == \
        "one\t1\tx\tadd a\tbuild\tpass\t1\tok\t/l\tx86_64\t0\n"
    (tmp_path / "results.tsv").write_text("not read again\n")
    assert run("import", tmp_path).returncode == 0


def test_a_row_without_the_cached_column_is_cached_where_its_detail_said_so():
    old = "one\t1\tx\tadd a\tboot\tpass\t0\tpass: 3 passed (cached)\t/b\tx86_64"
    assert cells.Cell.parse(old).cached
    assert not cells.Cell.parse(old.replace(" (cached)", "")).cached
    assert cells.Cell.parse(old + "\t1").row() == old + "\t1"
    try:
        cells.Cell.parse(old + "\tyes")
    except cells.Damaged as e:
        assert str(e) == 'cached "yes" is not 0 or 1'
    else:
        raise AssertionError("a cached column of yes was taken")


def test_usage_and_a_plan_without_commits_fail():
    assert run("plan").returncode == 2
    proc = run("plan", "/nonexistent", "one", "", "0", "0", stdin="")
    assert proc.returncode == 1
    assert "no commits" in proc.stderr
