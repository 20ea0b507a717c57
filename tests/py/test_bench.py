# SPDX-License-Identifier: GPL-2.0
"""Golden test of scripts/bench.py on the report in tests/fixtures/bench/:
the rows, the first KTAP line, the work by stage and the sum of the
default additions, of arm64 alone and (arches/) of arm64, i386 and
mips64el; bench.tsv is written, and a report without figures is an error
that names the file."""

import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "bench.py"
FIX = ROOT / "tests" / "fixtures" / "bench"

sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
import bench  # noqa: E402
# The physical limit divides by the cores: the golden output's are two.
os.environ["BENCH_CORES"] = "2"


def copy_report(tmp_path):
    """The fixture report's figures, table, history and naive measure."""
    for name in ("bench-raw.tsv", "results.tsv", "bench-runs.tsv", "naive.tsv"):
        shutil.copy(FIX / name, tmp_path / name)


def test_bench_prints_the_golden_report(tmp_path):
    copy_report(tmp_path)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert out.replace(str(tmp_path), "REPORT") == (FIX / "expected.out").read_text()
    tsv = (tmp_path / "bench.tsv").read_text().splitlines()
    assert tsv[0] == "phase\twhat\tseconds"
    assert len(tsv) == 1 + len((FIX / "bench-raw.tsv").read_text().splitlines())


def test_bench_prints_the_golden_report_of_three_other_boot_architectures(tmp_path):
    """all.sh's phases of arm64, i386 and mips64el, a row of arch-builds
    and of arch-boots each, summed; their cells among the additions, in the
    canonical order; their bases each once, their heads no recompile, and
    their boots the guests'."""
    for name in ("bench-raw.tsv", "results.tsv"):
        shutil.copy(FIX / "arches" / name, tmp_path / name)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert out.replace(str(tmp_path), "REPORT") == (FIX / "arches" / "expected.out").read_text()


def test_the_additions_are_cross_abi_and_each_other_boot_architecture_in_order():
    work = dict.fromkeys(["build", "boot-debug", "build-debug", "boot-mips64el", "build-riscv64",
                          "build-i386", "cross", "boot-arm64", "sparse"])
    assert bench.additions(work) == (
        "cross", "abi", "build-arm64", "boot-arm64", "build-i386", "boot-i386",
        "build-mips64el", "boot-mips64el", "build-riscv64", "boot-riscv64")
    assert bench.additions({"build": None, "cross": None}) == ("cross", "abi")


@pytest.mark.parametrize("stage, build, boot, arch", [
    ("build", True, False, ""), ("build-debug", True, False, ""),
    ("build-arm64", True, False, "arm64"), ("build-i386", True, False, "i386"),
    ("build-mips64el", True, False, "mips64el"),
    ("boot", False, True, ""), ("boot-debug", False, True, ""),
    ("boot-arm64", False, True, "arm64"), ("boot-i386", False, True, "i386"),
    ("boot-mips64el", False, True, "mips64el"),
    ("full-build", False, False, ""), ("cross", False, False, ""), ("sparse", False, False, ""),
])
def test_the_build_and_boot_stages_are_x86_64s_and_the_other_architectures(stage, build, boot, arch):
    assert (bench.is_build(stage), bench.is_boot(stage)) == (build, boot)
    assert bench.boot_arch(stage) == arch


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


def record(tmp_path, state, raw=None):
    shutil.copy(FIX / "naive.tsv", tmp_path / "naive.tsv")
    if raw is None:
        shutil.copy(FIX / "bench-raw.tsv", tmp_path / "bench-raw.tsv")
    else:
        (tmp_path / "bench-raw.tsv").write_text(raw)
    subprocess.run([str(TOOL), str(tmp_path), "--record", "make", "61", state, "nsig"],
                   check=True, capture_output=True, text=True)
    rows = (tmp_path / "bench-runs.tsv").read_text().splitlines()
    assert rows[0].split("\t") == ["date", "what", "state", "kind", "seconds",
                                   "series", "builds", "rebuilt", "naive"]
    return rows[-1].split("\t")[1:]


def test_record_a_cold_run_costs_the_naive_way_every_commit(tmp_path):
    # 90s for 600 objects: one/0 has 600, one/1 has 660.
    assert record(tmp_path, "cold") == ["make", "cold", "cold", "61", "nsig", "2", "1", "189"]


def test_record_a_warm_run_counts_the_commits_it_rebuilt(tmp_path):
    assert record(tmp_path, "warm") == ["make", "warm", "1 rebuilt", "61", "nsig", "2", "1", "99"]


def test_record_a_run_that_computed_nothing_is_unchanged(tmp_path):
    raw = ("phase\tdeps.sh\t1\nbuild\tone/0 abc (cached)\t30\n"
           "cross\tone/1 arm64 (cached)\t5\nbuild\tdebug one/1 def (cached)\t9\n")
    assert record(tmp_path, "warm", raw) == ["make", "warm", "unchanged", "61", "nsig", "1", "0", "90"]


def test_record_counts_the_builds_a_job_memo_gave_back_as_cached(tmp_path):
    # scripts/jobmemo.py: the build job did not run, so no "build" rows;
    # its cells came back cached.
    head = "series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\tarch\tcached\n"
    (tmp_path / "results.tsv").write_text(head + "".join(
        f"nsig\t{i}\t{c * 40}\ts\t{stage}\tpass\t0\tok (cached)\t/l\t{arch}\t1\n"
        for i, c in ((0, "a"), (1, "b")) for stage, arch in (("build", "x86_64"), ("boot", "x86_64"))))
    raw = "phase\tdeps.sh\t1\nphase\tbuild.sh series\t0\n"
    assert record(tmp_path, "warm", raw) == ["make", "warm", "unchanged", "61", "nsig", "2", "0", "180"]


def test_record_without_a_naive_measure_leaves_the_naive_column_empty(tmp_path):
    record(tmp_path, "warm")
    (tmp_path / "naive.tsv").unlink()
    subprocess.run([str(TOOL), str(tmp_path), "--record", "make", "5", "warm", "all"], check=True)
    assert (tmp_path / "bench-runs.tsv").read_text().splitlines()[-1].endswith("\t2\t1\t")


def test_record_rejects_a_bad_state(tmp_path):
    res = subprocess.run([str(TOOL), str(tmp_path), "--record", "make", "5", "tepid", "all"],
                         capture_output=True, text=True)
    assert res.returncode == 2
    assert not (tmp_path / "bench-runs.tsv").exists()


def test_targets_say_what_is_not_measured_yet(tmp_path):
    for name in ("bench-raw.tsv", "results.tsv"):
        shutil.copy(FIX / name, tmp_path / name)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert "naive way: not measured yet (make bench measures it once)" in out
    assert "(not measured yet: make with WORKDIR and CCACHE_DIR empty)" in out


def test_record_checks_are_a_warm_measure_with_one_naive_build(tmp_path):
    shutil.copy(FIX / "naive.tsv", tmp_path / "naive.tsv")
    shutil.copy(FIX / "bench-raw.tsv", tmp_path / "bench-raw.tsv")
    subprocess.run([str(TOOL), str(tmp_path), "--record", "checks", "19", "warm", "vstatus"], check=True)
    row = (tmp_path / "bench-runs.tsv").read_text().splitlines()[-1].split("\t")[1:]
    assert row == ["checks", "warm", "warm", "19", "vstatus", "0", "0", "90"]


def test_a_run_recorded_before_the_naive_measure_gets_it_when_printed(tmp_path):
    for name in ("bench-raw.tsv", "results.tsv", "naive.tsv"):
        shutil.copy(FIX / name, tmp_path / name)
    (tmp_path / "bench-runs.tsv").write_text(
        "date\twhat\tstate\tkind\tseconds\tseries\tbuilds\trebuilt\tnaive\n"
        "2026-12-04 10:00\tmake\tcold\tcold\t2800\tall\t17\t16\t\n")
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    # 17 commits at 90s each: 25:30; the run took 46:40, over its 45:00.
    line = next(l for l in out.splitlines() if l.strip().startswith("cold make,"))
    assert "46:40   45:00 OVER     25:30  1.8x slower  (2026-12-04 10:00, cold)" in line


def test_one_patch_edited_is_a_run_of_one_series_that_rebuilt_at_most_one_kernel(tmp_path):
    for name in ("bench-raw.tsv", "results.tsv", "naive.tsv"):
        shutil.copy(FIX / name, tmp_path / name)
    head = "date\twhat\tstate\tkind\tseconds\tseries\tbuilds\trebuilt\tnaive\n"
    rows = {
        # nsig's last patch, its selftests, edited: no kernel rebuilt.
        "0 rebuilt": ("2026-12-07 16:00\tmake\twarm\t0 rebuilt\t75\tnsig\t13\t0\t\n", "1:15    2:00 met"),
        "1 rebuilt": ("2026-12-07 16:00\tmake\twarm\t1 rebuilt\t130\tnsig\t13\t1\t\n", "2:10    2:00 OVER"),
    }
    for kind, (row, want) in rows.items():
        (tmp_path / "bench-runs.tsv").write_text(head + row)
        out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                             capture_output=True, text=True).stdout
        line = next(l for l in out.splitlines() if l.strip().startswith("one patch edited"))
        assert want in line, (kind, line)
    # Two kernels rebuilt, or every series: not one patch edited.
    for row in ("2026-12-07 16:00\tmake\twarm\t2 rebuilt\t90\tnsig\t13\t2\t\n",
                "2026-12-07 16:00\tmake\twarm\t0 rebuilt\t90\tall\t32\t0\t\n"):
        (tmp_path / "bench-runs.tsv").write_text(head + row)
        out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                             capture_output=True, text=True).stdout
        line = next(l for l in out.splitlines() if l.strip().startswith("one patch edited"))
        assert "not measured yet" in line, line


# --pty-summary: the rows of bench-pty.tsv; the goldens were written by the
# awk program in boot.sh that it replaces (sorted, as boot.sh sorts them).
@pytest.mark.parametrize("name", ["samples", "samples-outside", "samples-base-only"])
def test_pty_summary_matches_the_golden_rows(name):
    fix = ROOT / "tests" / "fixtures" / "bench-pty"
    proc = subprocess.run([str(ROOT / "scripts" / "bench.py"), "--pty-summary", str(fix / name)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    got = "".join(sorted(proc.stdout.splitlines(keepends=True)))
    assert got == (fix / f"{name}.expected").read_text()


def test_bench_prints_the_struct_sizes_with_their_change(tmp_path):
    copy_report(tmp_path)
    (tmp_path / "bench-memory.tsv").write_text(
        "series\tstruct\tbase\thead\n"
        "nsig\ttask_struct\t2432\t2464\n"
        "sigpwr\tk_sigaction\t32\t32\n"
        "odd\tsigpending\t24\t\n")
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    tail = out[out.index("memory: "):].splitlines()
    assert tail[1].split() == ["series", "struct", "base", "head", "change"]
    assert tail[2].split() == ["nsig", "task_struct", "2432", "2464", "+32"]
    assert tail[3].split() == ["sigpwr", "k_sigaction", "32", "32", "+0"]
    assert tail[4].split() == ["odd", "sigpending", "24", "?"]


def test_bench_without_struct_sizes_prints_no_memory_table(tmp_path):
    copy_report(tmp_path)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert "memory: " not in out


def test_svg_draws_each_kind_of_run_with_its_figures_and_nothing_without_history(tmp_path):
    res = subprocess.run([str(TOOL), str(tmp_path), "--svg"], capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout == ""
    (tmp_path / "bench-runs.tsv").write_text(
        "date\twhat\tstate\tkind\tseconds\tseries\tbuilds\trebuilt\tnaive\n"
        "2026-12-06 03:42\tmake\tcold\tcold\t5700\tall\t29\t29\t\n"
        "2026-12-06 04:01\tmake\twarm\tunchanged\t97\tall\t29\t0\t\n"
        "2026-12-06 05:18\tmake\twarm\tunchanged\t42\tall\t29\t0\t\n"
        "2026-12-06 05:30\tmake-test\twarm\tunchanged\t1300\tall\t29\t0\t\n")
    svg = subprocess.run([str(TOOL), str(tmp_path), "--svg"], capture_output=True, text=True).stdout
    assert svg.startswith("<svg ") and svg.rstrip().endswith("</svg>")
    assert svg.count("<circle") == 4
    assert "<title>2026-12-06 05:18: make unchanged, 0:42, series all</title>" in svg
    assert ">make, cold<" in svg and ">make, nothing changed<" in svg and ">make test<" in svg
    assert ">make, commits rebuilt<" not in svg
    assert "cold target 45 min" in svg and "warm target 15 s" in svg


def estimate(tmp_path, series):
    return subprocess.run([str(TOOL), str(tmp_path), "--estimate", series], check=True,
                          capture_output=True, text=True).stdout


def test_estimate_names_the_last_make_of_the_series_and_the_last_cold_one(tmp_path):
    (tmp_path / "bench-runs.tsv").write_text(
        "date\twhat\tstate\tkind\tseconds\tseries\tbuilds\trebuilt\tnaive\n"
        "2026-12-01 10:00\tmake\tcold\tcold\t5715\tall\t29\t29\t\n"
        "2026-12-01 12:00\tmake-test\twarm\tunchanged\t740\tall\t29\t0\t\n"
        "2026-12-02 09:00\tmake\twarm\t3 rebuilt\t600\tnsig\t11\t3\t\n"
        "2026-12-02 10:00\tmake\twarm\tunchanged\t42\tall\t29\t0\t\n")
    assert estimate(tmp_path, "all") == (
        "the last make of all here took 0:42 (2026-12-02 10:00, warm, unchanged);"
        " the last cold one 95:15 (2026-12-01 10:00)\n42\n")
    assert estimate(tmp_path, "nsig") == (
        "the last make of nsig here took 10:00 (2026-12-02 09:00, warm, 3 rebuilt)\n600\n")
    assert estimate(tmp_path, "sigpwr") == ""


def test_estimate_without_history_says_nothing(tmp_path):
    assert estimate(tmp_path, "all") == ""


LIMIT_ROWS = """series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\tarch\tcached\tcpu
a\t0\tbase1\tbase\tbuild\tpass\t400\t\t\tx86_64\t1\t781
a\t1\tc1\tone\tbuild\tpass\t60\t\t\tx86_64\t1\t110
a\t2\tc2\ttwo\tbuild\tpass\t40\t\t\tx86_64\t0\t75
b\t0\tc2\ttwo\tbuild\tpass\t40\t\t\tx86_64\t1\t75
b\t1\tc3\tthree\tbuild\tpass\t20\t\t\tx86_64\t0\t
a\t0\tbase1\tbase\tbuild-arm64\tpass\t300\t\t\tarm64\t0\t590
a\t2\tc2\ttwo\tbuild-arm64\tpass\t90\t\t\tarm64\t0\t170
a\t1\tc1\tone\tcross\tpass\t30\t\t\tarm\t0\t
a\t1\tc1\tone\tcross\tskip\t0\tnot covered\t\txtensa\t0\t
a\t2\tc2\ttwo\tboot\tpass\t25\t\t\tx86_64\t0\t
b\t0\tc2\ttwo\tboot\tpass\t0\t(cached)\t\tx86_64\t1\t
a\t1\tc1\tone\tsparse\tpass\t50\t\t\t\t0\t
"""


def limit_lines(tmp_path, table):
    shutil.copy(FIX / "bench-raw.tsv", tmp_path / "bench-raw.tsv")
    shutil.copy(FIX / "bench-runs.tsv", tmp_path / "bench-runs.tsv")
    (tmp_path / "results.tsv").write_text(table)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    lines = out.splitlines()
    start = next(i for i, l in enumerate(lines) if l.startswith("physical limit"))
    assert "(2 cores)" in lines[start]
    assert "in CPU seconds over the cores" in lines[start]
    return [" ".join(l.split()) for l in lines[start + 1:start + 8]]


def test_physical_limit_counts_each_base_once_and_each_commit_at_the_lean_config(tmp_path):
    """Bases: base1 on x86 and arm64 (c2, b's commit 0, is a's commit 2:
    a recompile, counted once); recompiles: c1, c2, c3 on the lean config
    only (arm64's head is not one); each build at the CPU time its make
    took, but c3's, whose cell has none: its seconds, and the line says
    so; cross: the compiled cell, not the skipped one, at its seconds (one
    make job); guests: c2's boot, once, with the seconds of the run that
    booted it (b's row of it is cached).
    Limit: (1371 + 205 + 30) / 2 + 25 = 828 s; the cold make of 2500 s is
    3.0 times it."""
    assert limit_lines(tmp_path, LIMIT_ROWS) == [
        "each base, once per configuration 2 cells 1371 s CPU",
        "each commit's own recompile, at the leanest configuration 3 cells 205 s CPU "
        "(1 build cell(s) without their CPU time: their seconds counted, which "
        "understate a parallel make)",
        "the touched objects on the other architectures (cross) 1 cells 30 s CPU",
        "the guests (the boot cells) 1 cells 25 s",
        "limit 13:48",
        "the last cold make (2026-12-04 10:00): 41:40, 3.0x the limit "
        "(target at most 1.5x: OVER); within the 60:00 ceiling of a cold make",
        "each stage's share of the cells' seconds: build 53%, build-arm64 37%, "
        "sparse 5%, cross 3%, boot 2%",
    ]


def test_a_limit_above_the_target_and_the_ceiling_says_no_order_of_the_work_meets_them(tmp_path):
    """c1's recompile at 6000 CPU seconds: (1371 + 6095 + 30) / 2 + 25 =
    3773 s, 62:53, above the 45:00 target and the 60:00 ceiling; at 4000,
    2773 s, 46:13, above the target only."""
    big = LIMIT_ROWS.replace("\tx86_64\t1\t110\n", "\tx86_64\t1\t6000\n")
    got = limit_lines(tmp_path, big)
    assert got[4:6] == [
        "limit 62:53",
        "the limit is above the 45:00 target and the 60:00 ceiling of a cold make: no order "
        "of this work meets them on 2 cores, only less work or more cores",
    ]
    got = limit_lines(tmp_path, big.replace("\t6000\n", "\t4000\n"))
    assert got[4:6] == [
        "limit 46:13",
        "the limit is above the 45:00 target of a cold make: no order of this work meets it "
        "on 2 cores, only less work or more cores",
    ]


def test_physical_limit_of_a_table_without_cpu_counts_the_seconds_and_says_so(tmp_path):
    """A results.tsv from before the cpu column: every build cell counts
    its seconds, (700 + 120 + 30) / 2 + 25 = 450 s."""
    old = "\n".join(line.rsplit("\t", 1)[0] for line in LIMIT_ROWS.splitlines()) + "\n"
    assert old.splitlines()[0].endswith("\tcached")
    got = limit_lines(tmp_path, old)
    assert got[:5] == [
        "each base, once per configuration 2 cells 700 s CPU (2 build cell(s) without "
        "their CPU time: their seconds counted, which understate a parallel make)",
        "each commit's own recompile, at the leanest configuration 3 cells 120 s CPU "
        "(3 build cell(s) without their CPU time: their seconds counted, which "
        "understate a parallel make)",
        "the touched objects on the other architectures (cross) 1 cells 30 s CPU",
        "the guests (the boot cells) 1 cells 25 s",
        "limit 7:30",
    ]


def test_physical_limit_without_a_cold_run_says_it_is_not_measured(tmp_path):
    shutil.copy(FIX / "bench-raw.tsv", tmp_path / "bench-raw.tsv")
    (tmp_path / "results.tsv").write_text(LIMIT_ROWS)
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert ("the last cold make over the limit: not measured yet "
            "(target at most 1.5x; a cold make's ceiling 60:00)") in out


def test_bench_knows_the_other_boot_architectures_as_cells_py_does():
    import cells
    assert bench.BOOT_ARCH_ORDER == cells.BOOT_ARCH_ORDER
    for stage in ("build-arm64", "boot-i386", "boot-mips64el", "build-riscv64", "boot-debug",
                  "build-debug", "build", "full-build", "boot-", "reboot-i386"):
        assert bench.boot_arch(stage) == cells.boot_arch(stage), stage


def test_bench_prints_how_busy_each_lane_was(tmp_path):
    """scheduler.py's jobs.tsv: each lane's jobs, busy time and share of
    the span from the first start to the last end, and the lane that
    ended last."""
    copy_report(tmp_path)
    (tmp_path / "jobs.tsv").write_text(
        "lane\tkind\twho\tstart\tend\tstatus\n"
        "checks\tchecks\tone\t10\t610\t0\n"
        "build\tbuild\tone\t10\t310\t0\n"
        "boot\tboot\tone\t310\t400\t0\n"
        "build\tcross\tone\t310\t700\t1\n"
        "boot\tboot-arch\tone,two\t700\t1210\t0\n")
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert ("lanes (scripts/scheduler.py's jobs, 20:00 from the first one's start to the last one's end):\n"
            "  lane     jobs     busy  share\n"
            "  build       2    11:30    58%\n"
            "  boot        2    10:00    50%\n"
            "  checks      1    10:00    50%\n"
            "  the last lane to end: boot (boot-arch one,two, at 20:00)\n") in out
    # A damaged jobs.tsv is named, and the rest of the report still comes.
    (tmp_path / "jobs.tsv").write_text("lane\tkind\twho\tstart\tend\tstatus\nbuild\tbuild\n")
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True,
                         capture_output=True, text=True).stdout
    assert "lanes: cannot read the jobs of this run: " in out and "jobs.tsv:2: 2 fields, not 7" in out
    assert "physical limit" in out


def test_bench_prints_the_cpu_time_of_each_lane_and_the_least_the_work_takes(tmp_path):
    # jobs.tsv's cpu column: each lane's CPU time, and all of it over the
    # cores, which no order of the same work beats on this machine.
    copy_report(tmp_path)
    (tmp_path / "jobs.tsv").write_text(
        "lane\tkind\twho\tstart\tend\tstatus\tcpu\n"
        "checks\tchecks\tone\t10\t610\t0\t400.5\n"
        "build\tbuild\tone\t10\t310\t0\t590.0\n"
        "boot\tboot\tone\t310\t400\t0\t80.0\n"
        "build\tcross\tone\t310\t700\t1\t700.0\n"
        "boot\tboot-arch\tone,two\t700\t1210\t0\t0.0\n")
    out = subprocess.run([str(TOOL), str(tmp_path)], check=True, capture_output=True, text=True,
                         env=dict(os.environ, BENCH_CORES="2")).stdout
    assert ("lanes (scripts/scheduler.py's jobs, 20:00 from the first one's start to the last one's end):\n"
            "  lane     jobs     busy  share      cpu\n"
            "  build       2    11:30    58%    21:30\n"
            "  boot        2    10:00    50%     1:20\n"
            "  checks      1    10:00    50%     6:40\n"
            "  the last lane to end: boot (boot-arch one,two, at 20:00)\n"
            "  the jobs' CPU time: 29:30, over 2 cores 14:45: the least any order of this work takes here "
            "(74% of the jobs' span)\n") in out


def test_a_lane_is_busy_while_one_of_its_jobs_runs():
    # Two boots at once (the boot lane's second slot) count once; a gap
    # between jobs does not count.
    assert bench.covered([]) == 0
    assert bench.covered([(0, 10), (5, 12), (20, 25), (21, 22)]) == 17
    assert bench.covered([(3, 4), (0, 10)]) == 10
