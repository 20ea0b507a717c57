# SPDX-License-Identifier: GPL-2.0
"""Golden test of scripts/bench.py on the report in tests/fixtures/bench/:
the rows, the first KTAP line, the work by stage and the sum of the
default additions; bench.tsv is written, and a report without figures is
an error that names the file."""

import pathlib
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "bench.py"
FIX = ROOT / "tests" / "fixtures" / "bench"


def test_bench_prints_the_golden_report(tmp_path):
    for name in ("bench-raw.tsv", "results.tsv"):
        shutil.copy(FIX / name, tmp_path / name)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert out.replace(str(tmp_path), "REPORT") == (FIX / "expected.out").read_text()
    tsv = (tmp_path / "bench.tsv").read_text().splitlines()
    assert tsv[0] == "phase\twhat\tseconds"
    assert len(tsv) == 1 + len((FIX / "bench-raw.tsv").read_text().splitlines())


def test_bench_quiet_writes_only_the_tsv(tmp_path):
    shutil.copy(FIX / "bench-raw.tsv", tmp_path / "bench-raw.tsv")
    res = subprocess.run([str(TOOL), str(tmp_path), "--quiet"], check=True,
                         capture_output=True, text=True)
    assert res.stdout == ""
    assert (tmp_path / "bench.tsv").exists()


def test_bench_without_figures_names_the_missing_file(tmp_path):
    res = subprocess.run([str(TOOL), str(tmp_path)], capture_output=True, text=True)
    assert res.returncode == 1
    assert str(tmp_path / "bench-raw.tsv") in res.stderr


def test_bench_says_how_many_addition_cells_came_from_a_cache(tmp_path):
    shutil.copy(FIX / "bench-raw.tsv", tmp_path / "bench-raw.tsv")
    rows = (FIX / "results.tsv").read_text().replace(
        "no errors or warnings, cached", "no errors or warnings")
    (tmp_path / "results.tsv").write_text(rows)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert "2:12 in this run" in out
    assert "5 cells, 0 from a cache; within the 15:00 budget of a cold run" in out
