# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/jobmemo.py through scripts/scheduler.py: stand-in stage
scripts that store the cells their job owes; a second run with nothing
changed starts no job and has every cell back, as cached; each input of the
key (a workspace file, a series' commits, the environment), a log that is
gone, a failed cell, JOB_MEMO=0, FRESH=1 and a damaged memo each make the
jobs it concerns run again, and only those."""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "scheduler.py"

sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
sys.path.insert(0, str(ROOT / "tests" / "py"))
import cells  # noqa: E402
import jobmemo  # noqa: E402
import test_scheduler as ts  # noqa: E402

# A stage script: its start in the log, then the cells its job owes, each
# a pass with a log of its own (each "stage status cached" line of the file
# FAIL_FILE gives that stage's cells that status, and says whether they
# came from a cache).
STAND_IN = """#!/bin/bash
echo "start $(basename "$0") $* $SERIES ${BOOT_ARCH:-}" >>"$LOG"
/usr/bin/python3 "$(dirname "$0")/record.py" "$(basename "$0")" "$@"
"""

RECORD = """import os, sys
sys.path.insert(0, os.environ["CELLS_DIR"])
import cells, scheduler
script, args = sys.argv[1], sys.argv[2:]
kind = {("build.sh", "series"): "build", ("boot.sh", "series"): "boot",
        ("cross.sh", "series"): "cross", ("check.sh",): "checks",
        ("boot.sh", "heads-build"): "build-debug", ("boot.sh", "heads"): "boot-debug",
        ("boot.sh", "arch-builds"): "build-arch", ("boot.sh", "arch-boots"): "boot-arch"}[(script, *args)]
if kind == "build-debug":
    sys.exit(0)     # the debug kernel: its boots decide its cells
report = os.environ["STAND_IN_REPORT"]
series = os.environ["SERIES"].split(",")
who = os.environ.get("BOOT_ARCH", "") if kind.endswith("-arch") else series[0]
job, = [j for j in scheduler.plan_jobs(report, sorted({p.series for p in cells.read_plans(report)}))
        if j.kind == kind and j.who == who]
for p in job.owes:
    a = "arm" if p.arch == cells.ANY_ARCH else p.arch
    log = os.path.join(os.environ["LOGS"], f"{p.series}-{p.index}-{p.stage}-{a}")
    with open(log, "w") as f:
        f.write("the evidence\\n")
    fail = os.environ["FAIL_FILE"]
    failing = {}
    if os.path.exists(fail):
        failing = {w[0]: w[1:] for w in map(str.split, open(fail)) if w}
    status, cached = failing.get(p.stage, ("pass", "0"))
    c = cells.Cell(p.series, p.index, p.commit, p.subject, p.stage, cells.Status(status), 3,
                   "decided", log, a, cached == "1")
    path = cells.cell_path(report, c)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    cells.write_atomically(path, c.row() + "\\n")
"""


def workspace(tmp_path):
    root = tmp_path / "ws"
    (root / "scripts").mkdir(parents=True)
    for name in ("build.sh", "boot.sh", "cross.sh", "check.sh"):
        (root / "scripts" / name).write_text(STAND_IN)
    (root / "scripts" / "record.py").write_text(RECORD)
    (tmp_path / "logs").mkdir()
    ts.make_plans(tmp_path / "report")
    return root


def run(tmp_path, extra_env=None):
    """One scheduler run over the plans of one and two: its output and the
    jobs that started ("script args series arch")."""
    log = tmp_path / "log"
    log.write_text("")
    env = dict(ts.clean_env(), WS_ROOT=str(tmp_path / "ws"), LOG=str(log), LOGS=str(tmp_path / "logs"),
               STAND_IN_REPORT=str(tmp_path / "report"), CELLS_DIR=str(ROOT / "scripts"),
               FAIL_FILE=str(tmp_path / "failing"),
               WS_START=str(int(time.time())), **(extra_env or {}))
    # A new run forgets the last one's cells, as all.sh's cells reset does.
    shutil.rmtree(tmp_path / "report" / "cells", ignore_errors=True)
    proc = subprocess.run([str(TOOL), str(tmp_path / "report"), "one", "two"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    started = [" ".join(line.split()[1:]) for line in log.read_text().splitlines()]
    return proc.stdout + proc.stderr, started


def all_jobs(tmp_path):
    return len(ts.sched.plan_jobs(str(tmp_path / "report"), ["one", "two"]))


def decided_cells(tmp_path):
    # (apply cells are all.sh's, before the jobs)
    got = [c for c in cells.load(str(tmp_path / "report")) if c.stage != "apply"]
    assert not [c for c in got if c.missing], "a planned cell was not decided"
    return got


def test_nothing_changed_no_job_runs_and_every_cell_is_back_cached(tmp_path):
    workspace(tmp_path)
    out, started = run(tmp_path)
    assert len(started) == all_jobs(tmp_path)
    first = decided_cells(tmp_path)
    assert not any(c.cached for c in first)
    memos = sorted(os.listdir(tmp_path / "job-memo"))
    assert "build@one" in memos and "boot-arch@arm64" in memos and len(memos) == all_jobs(tmp_path)

    out, started = run(tmp_path)
    assert started == [], out
    again = decided_cells(tmp_path)
    assert [c.key for c in again] == [c.key for c in first]
    assert all(c.cached and c.seconds == 3 and c.detail == "decided" for c in again)
    assert "build      one: its 3 cells as the run of" in out
    assert "nothing they depend on has changed (cached; job-memo/build@one)" in out
    assert "=== series 2 of 2: two (2 commits) ===" in out
    rows = ts.sched.read_jobs(str(tmp_path / "report"))
    assert len(rows) == all_jobs(tmp_path) and all(r["status"] == 0 for r in rows)


def test_an_edited_workspace_file_runs_every_job_again(tmp_path):
    root = workspace(tmp_path)
    run(tmp_path)
    with open(root / "scripts" / "build.sh", "a") as f:
        f.write("# a comment\n")
    _, started = run(tmp_path)
    assert len(started) == all_jobs(tmp_path)
    # Notes and tests are no input of any job.
    (root / "README.md").write_text("notes\n")
    (root / "tests").mkdir()
    (root / "tests" / "t.bats").write_text("a test\n")
    _, started = run(tmp_path)
    assert started == []


def test_a_changed_series_runs_its_jobs_and_the_architectures_not_the_other_series(tmp_path):
    workspace(tmp_path)
    run(tmp_path)
    plan = tmp_path / "report" / "plan" / "two"
    plan.write_text(plan.read_text().replace("c" * 40, "d" * 40))
    _, started = run(tmp_path)
    assert not [j for j in started if " one" in j and "," not in j], started
    assert sorted(j.split()[0:2] == ["boot.sh", "arch-builds"] for j in started).count(True) == 2
    assert any(j.startswith("build.sh series two") for j in started)
    decided_cells(tmp_path)


def test_an_edited_series_file_runs_that_series_jobs_and_the_architectures_only(tmp_path):
    root = workspace(tmp_path)
    (root / "series" / "one").mkdir(parents=True)
    (root / "series" / "two").mkdir(parents=True)
    (root / "series" / "two" / "cover-letter").write_text("To: a@example.org\n")
    run(tmp_path)
    (root / "series" / "two" / "cover-letter").write_text("To: b@example.org\n")
    _, started = run(tmp_path)
    assert sorted(started) == sorted([
        "check.sh two", "build.sh series two", "boot.sh series two", "cross.sh series two",
        "boot.sh heads-build two", "boot.sh heads two",
        "boot.sh arch-builds one,two arm64", "boot.sh arch-boots one,two arm64",
        "boot.sh arch-builds one,two i386", "boot.sh arch-boots one,two i386"])


def test_the_environment_is_an_input_where_and_when_are_not(tmp_path):
    workspace(tmp_path)
    run(tmp_path)
    _, started = run(tmp_path, {"WS_LOCK_HELD": "123", "TERM": "dumb", "MAKELEVEL": "2",
                                "WS_TEST_SUITE": "1", "SEND_IGNORED": "0"})
    assert started == []
    out, started = run(tmp_path, {"CROSS_MAX_OBJS": "4"})
    assert len(started) == all_jobs(tmp_path)
    assert "build      one: runs, its memo does not answer: the environment differs: CROSS_MAX_OBJS is new" in out


def test_a_job_that_runs_again_says_which_input_changed_and_no_value_of_the_environment_is_kept(tmp_path):
    root = workspace(tmp_path)
    out, _ = run(tmp_path, {"A_TOKEN": "hunter2", "B_VAR": "1"})
    assert "its memo does not answer" not in out        # none kept yet
    memos = tmp_path / "job-memo"
    assert not [m for m in memos.iterdir() if "hunter2" in m.read_text()]
    assert "read env A_TOKEN #" in (memos / "build@one").read_text()
    out, started = run(tmp_path, {"A_TOKEN": "hunter3"})
    assert len(started) == all_jobs(tmp_path)
    assert "one: runs, its memo does not answer: the environment differs: A_TOKEN changed, B_VAR is gone" in out
    assert "hunter" not in out
    with open(root / "scripts" / "build.sh", "a") as f:
        f.write("# a comment\n")
    out, _ = run(tmp_path, {"A_TOKEN": "hunter3"})
    assert "one: runs, its memo does not answer: the workspace's files changed" in out
    plan = tmp_path / "report" / "plan" / "two"
    plan.write_text(plan.read_text().replace("c" * 40, "d" * 40))
    out, _ = run(tmp_path, {"A_TOKEN": "hunter3"})
    assert "build      two: runs, its memo does not answer: its plan changed" in out
    assert "build      one: runs" not in out
    tools = tmp_path / "tools"
    tools.mkdir()
    path = f"{tools}:{ts.clean_env()['PATH']}"
    run(tmp_path, {"A_TOKEN": "hunter3", "PATH": path})
    (tools / "new-tool").write_text("")
    out, started = run(tmp_path, {"A_TOKEN": "hunter3", "PATH": path})
    assert len(started) == all_jobs(tmp_path)
    assert f"build      one: runs, its memo does not answer: the installed tools or the host changed: {tools}" in out


def test_checks_elsewhere_are_an_input_by_content_not_by_path(tmp_path):
    workspace(tmp_path)
    checks = tmp_path / "my-checks"
    (checks / "mine").mkdir(parents=True)
    (checks / "mine" / "run").write_text("#!/bin/sh\nexit 0\n")
    run(tmp_path, {"CHECKS_DIR": str(checks)})
    moved = tmp_path / "moved-checks"
    checks.rename(moved)
    _, started = run(tmp_path, {"CHECKS_DIR": str(moved)})
    assert started == []
    (moved / "mine" / "run").write_text("#!/bin/sh\nexit 1\n")
    _, started = run(tmp_path, {"CHECKS_DIR": str(moved)})
    assert len(started) == all_jobs(tmp_path)


def test_a_worktree_and_a_clone_of_one_commit_are_one_workspace(tmp_path):
    # make in a git worktree (.git a file naming the repository), then in a
    # clone (.git a directory), as make test's end-to-end run does after
    # one: every job took its cells from the memos the other kept.
    a, b = tmp_path / "worktree", tmp_path / "clone"
    for d in (a, b):
        (d / "scripts").mkdir(parents=True)
        (d / "scripts" / "build.sh").write_text("echo build\n")
    (a / ".git").write_text(f"gitdir: {tmp_path}/repo/.git/worktrees/worktree\n")
    (b / ".git").mkdir()
    (b / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    assert jobmemo.workspace_digest(str(a), {}) == jobmemo.workspace_digest(str(b), {})
    (b / "scripts" / "build.sh").write_text("echo other\n")
    assert jobmemo.workspace_digest(str(a), {}) != jobmemo.workspace_digest(str(b), {})


def test_a_log_that_is_gone_runs_its_job_again_one_written_again_does_not(tmp_path):
    workspace(tmp_path)
    run(tmp_path)
    (tmp_path / "logs" / "two-2-build-x86_64").unlink()
    (tmp_path / "logs" / "one-1-checkpatch-").unlink()
    # A stage that takes a cell from its cache may write its log again.
    os.utime(tmp_path / "logs" / "one-1-boot-x86_64", ns=(1, 1))
    _, started = run(tmp_path)
    assert sorted(started) == ["build.sh series two", "check.sh one"]
    decided_cells(tmp_path)


def test_a_job_with_a_cell_its_stage_would_not_take_from_its_cache_is_not_kept(tmp_path):
    # A failed boot, a skipped check: their stages would ask again.  An
    # untested cross cell is one cross.sh keeps (nothing compiled).
    workspace(tmp_path)
    (tmp_path / "failing").write_text("boot fail 0\ncheckpatch skip 0\ncross untested 0\n")
    run(tmp_path)
    assert not (tmp_path / "job-memo" / "boot@one").exists()
    assert not (tmp_path / "job-memo" / "checks@one").exists()
    assert (tmp_path / "job-memo" / "build@one").exists()
    assert (tmp_path / "job-memo" / "cross@one").exists()
    (tmp_path / "failing").unlink()
    _, started = run(tmp_path)
    assert sorted(started) == ["boot.sh series one", "boot.sh series two",
                               "check.sh one", "check.sh two"]
    _, started = run(tmp_path)
    assert started == []


def test_job_memo_0_and_fresh_1_run_every_job(tmp_path):
    workspace(tmp_path)
    run(tmp_path)
    for env in ({"JOB_MEMO": "0"}, {"FRESH": "1"}):
        _, started = run(tmp_path, env)
        assert len(started) == all_jobs(tmp_path), env


def test_a_damaged_memo_is_named_and_its_job_runs(tmp_path):
    workspace(tmp_path)
    run(tmp_path)
    memo = tmp_path / "job-memo" / "cross@one"
    memo.write_text(memo.read_text()[:-10])
    out, started = run(tmp_path)
    assert started == ["cross.sh series one"]
    assert f"the job memo {memo} is damaged (it does not end with a newline (cut short))" in out
    _, started = run(tmp_path)
    assert started == []


def test_a_memo_reads_back_as_written(tmp_path):
    c = cells.Cell("one", 2, "c" * 40, "tty: a subject", "cross", cells.Status.WARN, 7,
                   "1 new warning", "/w/log", "arm")
    c = cells.Cell.parse(c.row())
    memo = jobmemo.Memo("k" * 64, "2026-12-07 13:00", [c],
                        jobmemo.read_lines(["job build one one", "env A=x=y", "host /usr/bin 4096 1"]))
    assert re.fullmatch(r"env A #[0-9a-f]{16}", memo.read[1])
    assert "x=y" not in memo.text()
    back = jobmemo.Memo.parse(memo.text())
    assert back == memo
    assert back.read == ["job build one one", memo.read[1], "host /usr/bin 4096 1"]
    assert jobmemo.cached(c) == cells.Cell("one", 2, "c" * 40, "tty: a subject", "cross", cells.Status.WARN, 7,
                                           "1 new warning", "/w/log", "arm", cached=True)
