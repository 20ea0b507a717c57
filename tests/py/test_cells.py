# SPDX-License-Identifier: GPL-2.0
"""Golden tests of scripts/cells.py on tests/fixtures/cells/: the plan of a
series (with arm64, with the other boot architectures, with none), the
export of a store with a missing, a stale and an untested cell, a damaged
cell file, the order of the statuses, and the architecture of a stage."""

import pathlib
import re
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "cells.py"
FIX = ROOT / "tests" / "fixtures" / "cells"

sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
import cells  # noqa: E402


def run(*args, stdin=None):
    return subprocess.run([str(TOOL), *map(str, args)], input=stdin,
                          capture_output=True, text=True)


@pytest.mark.parametrize("arches", ["arm64"])
def test_the_plan_of_a_series_is_the_golden_one(tmp_path, arches):
    proc = run("plan", tmp_path, "one", "checkpatch,sparse", "1", arches,
               stdin=(FIX / "commits").read_text())
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "plan" / "one").read_text() == (FIX / "expected.plan").read_text()


def plan(tmp_path, arches):
    """The (index, stage, arch) of the cells plan owes with ARCHES, no
    check and no debug boot."""
    proc = run("plan", tmp_path, "one", "", "0", arches, stdin=(FIX / "commits").read_text())
    assert proc.returncode == 0, proc.stderr
    return [tuple(line.split("\t")[i] for i in (0, 3, 4))
            for line in (tmp_path / "plan" / "one").read_text().splitlines()]


def test_each_other_boot_architecture_owes_its_build_and_boot_at_the_base_and_the_head(tmp_path):
    owed = plan(tmp_path, "arm64,i386,mips64el")
    extra = [c for c in owed if c[1] not in ("apply", "build", "cross", "boot")]
    assert extra == [(idx, f"{kind}-{arch}", arch)
                     for idx in ("0", "2")
                     for arch in ("arm64", "i386", "mips64el")
                     for kind in ("build", "boot")]
    assert [c for c in owed if c not in extra] == plan(tmp_path, "")


def test_the_other_architectures_are_owed_in_the_order_given(tmp_path):
    owed = plan(tmp_path, "mips64el,arm64")
    assert [s for i, s, _ in owed if i == "0" and s.startswith("boot-")] == \
        ["boot-mips64el", "boot-arm64"]


@pytest.mark.parametrize("arches", [""])
def test_without_other_architectures_no_cell_is_owed_on_one(tmp_path, arches):
    owed = plan(tmp_path, arches)
    assert {arch for _, _, arch in owed} == {"", "x86_64", "*"}
    assert {stage for _, stage, _ in owed} == {"apply", "build", "cross", "boot"}


@pytest.mark.parametrize("arches, said", [
    ("debug", "'debug' is not another boot architecture than x86_64"),
    ("x86_64", "'x86_64' is not another boot architecture than x86_64"),
    ("arm64,ARM64", "'ARM64' is not another boot architecture"),
    ("i386,i386", "'i386' is named twice"),
])
def test_a_bad_architecture_list_is_refused_and_named(tmp_path, arches, said):
    proc = run("plan", tmp_path, "one", "", "0", arches, stdin=(FIX / "commits").read_text())
    assert proc.returncode == 1
    assert said in proc.stderr
    assert not (tmp_path / "plan" / "one").exists()


def test_without_debug_and_other_architectures_the_head_owes_neither():
    commits = cells.read_commits(open(FIX / "commits"))
    stages = {p.stage for p in cells.planned_cells("one", commits, [], False, ())}
    assert stages == {"apply", "build", "cross", "boot"}


@pytest.mark.parametrize("stage, arch", [
    ("build", "x86_64"), ("boot", "x86_64"),
    ("build-debug", "x86_64"), ("boot-debug", "x86_64"),
    ("build-arm64", "arm64"), ("boot-arm64", "arm64"),
    ("build-i386", "i386"), ("boot-i386", "i386"),
    ("build-mips64el", "mips64el"), ("boot-mips64el", "mips64el"),
    ("boot-riscv64", "riscv64"),
    ("apply", ""), ("checkpatch", ""), ("cross", ""), ("full-build", ""),
    ("boot-", ""), ("boot-MIPS", ""), ("reboot-arm64", ""),
])
def test_the_architecture_of_a_stage(stage, arch):
    assert cells.arch_of_stage(stage) == arch
    other = arch not in ("", "x86_64")
    assert cells.is_arch_stage(stage) is other
    assert cells.boot_arch(stage) == (arch if other else "")


def test_every_check_is_a_stage_of_no_architecture():
    # checks/build-warnings (W=1) looks like build-ARCH: its cells are a
    # check's, with no architecture, in the matrix, the covers and the jobs.
    checks = sorted(d.name for d in (ROOT / "checks").iterdir() if (d / "run").is_file())
    assert "build-warnings" in checks
    for c in checks:
        assert cells.arch_of_stage(c) == "", c
        assert not cells.is_arch_stage(c), c


def test_the_other_boot_architectures_are_in_the_canonical_order_then_by_name():
    assert cells.BOOT_ARCH_ORDER == ("arm64", "i386", "mips64el")
    assert cells.boot_arch_order({"riscv64", "mips64el", "arm64", "alpha", "i386"}) == \
        ["arm64", "i386", "mips64el", "alpha", "riscv64"]
    assert cells.boot_arch_order(["i386"]) == ["i386"]
    assert cells.boot_arch_order(()) == []


def test_a_row_without_the_arch_column_gets_its_stage_architecture():
    old = "one\t0\tx\tbase\t{}\tpass\t9\tok\t/b"
    assert cells.Cell.parse(old.format("boot-mips64el")).arch == "mips64el"
    assert cells.Cell.parse(old.format("build-i386")).arch == "i386"
    assert cells.Cell.parse(old.format("boot-debug")).arch == "x86_64"
    assert cells.Cell.parse(old.format("checkpatch")).arch == ""


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
        "one\t1\tx\tadd a\tbuild\tpass\t1\tok\t/l\tx86_64\t0\t\n"
    (tmp_path / "results.tsv").write_text("not read again\n")
    assert run("import", tmp_path).returncode == 0


def test_a_row_without_the_cached_column_is_cached_where_its_detail_said_so():
    old = "one\t1\tx\tadd a\tboot\tpass\t0\tpass: 3 passed (cached)\t/b\tx86_64"
    assert cells.Cell.parse(old).cached
    assert not cells.Cell.parse(old.replace(" (cached)", "")).cached
    assert cells.Cell.parse(old + "\t1").row() == old + "\t1\t"
    try:
        cells.Cell.parse(old + "\tyes")
    except cells.Damaged as e:
        assert str(e) == 'cached "yes" is not 0 or 1'
    else:
        raise AssertionError("a cached column of yes was taken")


def test_a_row_without_the_cpu_column_has_no_cpu_time_and_one_with_it_keeps_it():
    row = "one\t1\tx\tadd a\tbuild\tpass\t40\tno new warnings\t/b\tx86_64\t0"
    assert cells.Cell.parse(row).cpu is None
    assert cells.Cell.parse(row + "\t").cpu is None
    assert cells.Cell.parse(row + "\t77").cpu == 77
    assert cells.Cell.parse(row + "\t77").row() == row + "\t77"
    for bad in ("7.5", "-1", "x"):
        with pytest.raises(cells.Damaged, match=f'cpu "{re.escape(bad)}" is not a number of seconds'):
            cells.Cell.parse(row + "\t" + bad)
    with pytest.raises(cells.Damaged, match="13 fields, not 12"):
        cells.Cell.parse(row + "\t77\t1")


def test_usage_and_a_plan_without_commits_fail():
    assert run("plan").returncode == 2
    proc = run("plan", "/nonexistent", "one", "", "0", "", stdin="")
    assert proc.returncode == 1
    assert "no commits" in proc.stderr


def test_the_shell_writes_the_header_cells_reads():
    """lib.sh writes results.tsv's header in results_view (a Python start
    per cell would cost too much): its copy is cells.HEADER."""
    text = (ROOT / "scripts" / "lib.sh").read_text()
    m = re.search(r"^RESULTS_HEADER=\$'([^']*)'$", text, re.M)
    assert m, "lib.sh has no RESULTS_HEADER"
    assert m.group(1).replace("\\t", "\t") == cells.HEADER
