# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/covers.py's results block on a run with the other boot
architectures: their builds and boots are no checks, and the head's boots
are said in the canonical order, arm64, i386, mips64el, then any other,
before the debug boot's."""

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
COMMITS = [(0, "a" * 40, "base"), (1, "b" * 40, "tty: add a"), (2, "c" * 40, "tty: add b")]

sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
import cells  # noqa: E402
import covers  # noqa: E402


def decide(report, arches, detail=lambda p: "pass: 3 passed", status=lambda p: cells.Status.PASS):
    """A run of COMMITS whose every planned cell came, with STATUS (pass)
    and DETAIL: the checkpatch check, the debug boot and ARCHES."""
    planned = cells.planned_cells("one", COMMITS, ["checkpatch"], True, arches)
    cells.write_plan(str(report), "one", planned)
    for p in planned:
        arch = "arm" if p.arch == cells.ANY_ARCH else p.arch
        cell = cells.Cell(p.series, p.index, p.commit, p.subject, p.stage, status(p),
                          1, detail(p), "", arch)
        path = cells.cell_path(str(report), cell)
        pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
        cells.write_atomically(path, cell.row() + "\n")


def test_the_head_says_each_other_architectures_boot_in_the_canonical_order(tmp_path):
    decide(tmp_path, ("mips64el", "riscv64", "i386", "arm64"),
           lambda p: f"pass: {len(p.stage)} passed")
    text = "\n".join(covers.block(str(tmp_path), "one", "c" * 40))
    said = " ".join(text[text.index("At the head: "):].split())
    assert said.startswith(
        "At the head: arm64 boot: 10 passed; i386 boot: 9 passed; mips64el boot: 13 passed; "
        "riscv64 boot: 12 passed; debug config (KASAN, UBSAN, lockdep) boot: 10 passed.")


def test_the_other_architectures_builds_and_boots_are_no_checks(tmp_path):
    decide(tmp_path, ("arm64", "i386", "mips64el"))
    lines = covers.block(str(tmp_path), "one", "c" * 40)
    assert any(line.startswith("  2/2 checks: 1 of 1 pass;") for line in lines)
    assert covers.is_check("checkpatch")
    assert not any(covers.is_check(s) for s in (
        "build-i386", "boot-i386", "build-mips64el", "boot-mips64el", "boot-debug", "boot"))


def test_without_other_architectures_the_head_says_the_debug_boot_alone(tmp_path):
    decide(tmp_path, ())
    lines = covers.block(str(tmp_path), "one", "c" * 40)
    assert lines[-2] == "At the head: debug config (KASAN, UBSAN, lockdep) boot: 3 passed."


def test_a_failed_boot_of_another_architecture_is_said_at_the_head_and_listed(tmp_path):
    decide(tmp_path, ("arm64", "mips64el"),
           lambda p: "fail: 2 passed, 1 failed" if p.stage == "boot-mips64el" else "pass: 3 passed",
           lambda p: cells.Status.FAIL if p.stage == "boot-mips64el" else cells.Status.PASS)
    text = "\n".join(covers.block(str(tmp_path), "one", "c" * 40))
    said = " ".join(text[text.index("At the head: "):].split())
    assert said.startswith("At the head: arm64 boot: 3 passed; mips64el boot: fail: 2 passed, "
                           "1 failed; debug config")
    failed = text.split("Cells that failed or verified nothing:\n")[1].splitlines()
    assert [line.split(": ")[0] for line in failed[:-1]] == [
        "  0/2 boot-mips64el", "  2/2 boot-mips64el"]
