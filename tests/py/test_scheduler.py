# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/scheduler.py: the jobs two series' plans owe, in the order
the lanes take them (golden, tests/fixtures/scheduler/expected.jobs); a run with
stand-in stage scripts, where no two build-lane jobs overlap, each boot and
cross-compile starts after its build, the boot lane runs beside the next
build, and each job's seconds are recorded; a SIGTERM that stops every job's
session."""

import os
import pathlib
import re
import signal
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "scheduler.py"
CELLS = ROOT / "scripts" / "cells.py"
FIX = ROOT / "tests" / "fixtures"

sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
import scheduler as sched  # noqa: E402


def make_plans(report, arches="arm64,i386", debug="1", checks="checkpatch"):
    commits = (FIX / "cells" / "commits").read_text()
    for s in ("one", "two"):
        proc = subprocess.run([str(CELLS), "plan", str(report), s, checks, debug, arches],
                              input=commits, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr


def describe(jobs):
    return "".join(f"{j.kind}\t{','.join(j.series)}\t{j.arch or '-'}\t{j.spec.lane}\t"
                   f"{j.spec.needs or '-'}\t{' '.join(j.spec.argv)}\n" for j in jobs)


def test_the_jobs_of_two_series_are_the_golden_ones(tmp_path):
    make_plans(tmp_path)
    jobs = sched.plan_jobs(str(tmp_path), ["one", "two"])
    assert describe(jobs) == (FIX / "scheduler" / "expected.jobs").read_text()


def test_each_planned_cell_is_owed_by_the_job_that_decides_it(tmp_path):
    # scripts/jobmemo.py keeps a job's cells: each planned cell but apply
    # is one job's, and the debug kernel's build answers for its boots'.
    make_plans(tmp_path)
    jobs = sched.plan_jobs(str(tmp_path), ["one", "two"])
    owned = [(j.kind, p) for j in jobs if j.kind != "build-debug" for p in j.owes]
    planned = [p for p in sched.cells.read_plans(str(tmp_path)) if p.stage != "apply"]
    assert sorted(map(repr, (p for _, p in owned))) == sorted(map(repr, planned))
    assert all(sched.decider(p.stage) == k for k, p in owned)
    for j in jobs:
        if j.kind == "build-debug":
            assert [p.stage for p in j.owes] == ["boot-debug"] and j.owes[0].series == j.series[0]
        if j.kind == "boot-arch":
            assert {p.stage for p in j.owes} == {f"boot-{j.arch}"} and len(j.owes) == 4


def test_a_series_not_applied_owes_no_job_and_no_arch_job_names_it(tmp_path):
    make_plans(tmp_path)
    jobs = sched.plan_jobs(str(tmp_path), ["two"])
    assert all(j.series == ("two",) for j in jobs)
    assert [j.kind for j in jobs if j.arch] == ["build-arch", "boot-arch"] * 2


def test_a_check_named_build_something_is_in_the_checks_job_alone(tmp_path):
    # build-warnings (W=1) is a check: before cells.NOT_ARCHES it also gave
    # a build-arch and a boot-arch job of an architecture "warnings", which
    # boot.sh refused (status 1) at every make.
    make_plans(tmp_path, arches="", debug="0", checks="checkpatch,build-warnings")
    jobs = sched.plan_jobs(str(tmp_path), ["one"])
    assert [(j.kind, j.arch) for j in jobs] == [("checks", ""), ("build", ""), ("boot", ""), ("cross", "")]


def test_without_debug_and_arches_only_the_series_jobs(tmp_path):
    make_plans(tmp_path, arches="", debug="0", checks="")
    jobs = sched.plan_jobs(str(tmp_path), ["one"])
    assert [j.kind for j in jobs] == ["build", "boot", "cross"]


STAND_IN = """#!/bin/bash
# A stage script: its start and end in the log, SECS seconds between.
echo "start $(basename "$0") $* $SERIES ${BOOT_ARCH:-} ${BOOT_PREBUILT:-0} $EPOCHREALTIME" >>"$LOG"
secs=${SECS:-0.3}
# BOOT_SECS: how long a boot job (not a kernel build of boot.sh) takes.
[[ $(basename "$0") != boot.sh || $1 == *build* ]] || secs=${BOOT_SECS:-$secs}
sleep "$secs"
# BURN: a build job's compiler, a child that spins for that long.
if [[ -n ${BURN:-} && $(basename "$0") == build.sh ]]; then
	timeout "$BURN" bash -c 'while :; do :; done' || true
fi
echo "end $(basename "$0") $* $SERIES ${BOOT_ARCH:-} $EPOCHREALTIME" >>"$LOG"
"""


def stand_ins(tmp_path):
    root = tmp_path / "ws"
    (root / "scripts").mkdir(parents=True)
    for name in ("build.sh", "boot.sh", "cross.sh", "check.sh"):
        (root / "scripts" / name).write_text(STAND_IN)
    return root


def make_exports():
    """The variables the Makefile's `export NAME...` lines pass to every
    stage, read from it, and BOOT_PREBUILT, which the scheduler sets."""
    names = {"BOOT_PREBUILT"}
    for line in (ROOT / "Makefile").read_text().splitlines():
        if re.fullmatch(r"export( [A-Z_][A-Z0-9_]*)+", line):
            names.update(line.split()[1:])
    return names


def clean_env():
    """This process's environment without make_exports(): make test runs
    these tests under the Makefile's variables (BOOT_ARCH=x86_64 among
    them), and a stand-in prints BOOT_ARCH and BOOT_PREBUILT."""
    drop = make_exports()
    return {k: v for k, v in os.environ.items() if k not in drop}


def run_sched(tmp_path, series=("one", "two"), extra_env=None, wait=True):
    root = stand_ins(tmp_path)
    report = tmp_path / "report"
    make_plans(report)
    env = dict(clean_env(), WS_ROOT=str(root), LOG=str(tmp_path / "log"),
               WS_START=str(int(time.time())), **(extra_env or {}))
    proc = subprocess.Popen([str(TOOL), str(report), *series], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if not wait:
        return proc, report
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0, out
    return out, report


def spans(log):
    """(job, start, end, prebuilt) for each job of the log."""
    starts, result = {}, []
    for line in log.read_text().splitlines():
        word, script, *rest = line.split()
        key = (script, *rest[:-1]) if word == "end" else (script, *rest[:-2])
        if word == "start":
            starts[key] = (float(rest[-1]), rest[-2])
        else:
            t0, prebuilt = starts.pop(key)
            result.append((" ".join(key), t0, float(rest[-1]), prebuilt))
    assert not starts, f"jobs that never ended: {starts}"
    return result


def test_the_lanes_keep_the_order_the_jobs_need(tmp_path):
    out, report = run_sched(tmp_path)
    jobs = spans(tmp_path / "log")
    by = {name: (t0, t1) for name, t0, t1, _ in jobs}
    # Every job of the plan ran once.
    assert len(jobs) == len(sched.plan_jobs(str(report), ["one", "two"]))
    build_lane = sorted((t0, t1) for name, t0, t1, _ in jobs
                        if name.startswith(("build.sh", "cross.sh"))
                        or "heads-build" in name or "arch-builds" in name)
    for (_, end), (start, _) in zip(build_lane, build_lane[1:]):
        assert start >= end, "two build-lane jobs at once"
    for s in ("one", "two"):
        assert by[f"boot.sh series {s}"][0] >= by[f"build.sh series {s}"][1]
        assert by[f"cross.sh series {s}"][0] >= by[f"build.sh series {s}"][1]
        assert by[f"boot.sh heads {s}"][0] >= by[f"boot.sh heads-build {s}"][1]
    for arch in ("arm64", "i386"):
        assert by[f"boot.sh arch-boots one,two {arch}"][0] >= by[f"boot.sh arch-builds one,two {arch}"][1]
    # The boot lane ran beside the build lane: series one's boots while
    # its cross-compile or series two's build ran.
    b0, b1 = by["boot.sh series one"]
    assert any(t0 < b1 and b0 < t1 for name, t0, t1, _ in jobs
               if name in ("cross.sh series one", "build.sh series two"))
    # A boot beside the builds never builds; the builds are not told so.
    assert all(pre == "1" for name, _, _, pre in jobs if name.startswith("boot.sh") and
               "build" not in name)
    assert all(pre == "0" for name, _, _, pre in jobs if "build" in name)
    assert "the boots run in the background beside the next builds" in out
    assert "=== series 2 of 2: two (2 commits) ===" in out
    phases = [line.split("\t") for line in (report / "bench-raw.tsv").read_text().splitlines()]
    assert len(phases) == len(jobs) and all(p[0] == "phase" for p in phases)
    # jobs.tsv: each job once, in its lane, its times within the run.
    rows = sched.read_jobs(str(report))
    assert sorted((r["lane"], r["kind"], r["who"]) for r in rows) == sorted(
        (j.spec.lane, j.kind, j.arch or ",".join(j.series)) for j in sched.plan_jobs(str(report), ["one", "two"]))
    assert all(0 <= r["start"] <= r["end"] and r["status"] == 0 for r in rows)


def test_each_job_has_the_cpu_time_of_what_it_waited_for(tmp_path):
    # jobs.tsv's cpu: the user and system seconds of the job's processes
    # and of each it waited for (a build's compilers), as make bench adds
    # them up against the cores; a job that only sleeps used next to none.
    run_sched(tmp_path, extra_env={"BURN": "0.8", "SECS": "0.1"})
    rows = sched.read_jobs(str(tmp_path / "report"))
    builds = [r for r in rows if r["kind"] == "build"]
    assert len(builds) == 2
    assert all(r["cpu"] >= 0.4 for r in builds), builds
    assert all(r["cpu"] < 0.3 for r in rows if r["kind"] in ("checks", "boot")), rows


def boot_kind(name):
    """The scheduler's kind of a boot-lane job of the log, by its name."""
    return {"series": "boot", "heads": "boot-debug", "arch-boots": "boot-arch"}[name.split()[1]]


def test_after_the_last_build_the_boot_lane_runs_two_kinds_at_once(tmp_path):
    # The boots outlast the builds, so that several are left when the
    # build lane ends: then two run at once, never two of one kind (an
    # x86 boot of nsig's base and of vstatus's head share a boot
    # directory), never three, and none beside another before.
    run_sched(tmp_path, extra_env={"BOOT_SECS": "1.2", "SECS": "0.2"})
    jobs = spans(tmp_path / "log")
    builds_end = max(t1 for name, t0, t1, _ in jobs if not name.startswith("check.sh") and
                     (not name.startswith("boot.sh") or "build" in name))
    boots = [(name, t0, t1) for name, t0, t1, _ in jobs if name.startswith("boot.sh") and "build" not in name]
    pairs = [(a, b) for i, a in enumerate(boots) for b in boots[i + 1:] if a[1] < b[2] and b[1] < a[2]]
    assert pairs, "no two boots at once after the builds"
    for a, b in pairs:
        assert max(a[1], b[1]) >= builds_end - 0.05, f"{a[0]} beside {b[0]} before the builds ended"
        assert boot_kind(a[0]) != boot_kind(b[0]), f"{a[0]} beside {b[0]}: one kind"
    for name, t0, _ in boots:
        assert sum(1 for _, u0, u1 in boots if u0 <= t0 < u1) <= 2, f"three boots at once at {name}"


def test_boots_besides_0_runs_each_boot_after_its_build_in_turn(tmp_path):
    run_sched(tmp_path, extra_env={"BOOTS_BESIDE": "0", "CHECKS_BESIDE": "0"})
    jobs = sorted(spans(tmp_path / "log"), key=lambda j: j[1])
    for (_, _, end, _), (_, start, _, _) in zip(jobs, jobs[1:]):
        assert start >= end, "two jobs at once with both lanes off"
    names = [name for name, *_ in jobs]
    assert names[:4] == ["check.sh one", "build.sh series one", "boot.sh series one",
                         "cross.sh series one"]
    assert all(pre == "0" for *_, pre in jobs)


def sleeping_jobs(tmp_path):
    """The pids of the stand-ins' sleeps, once two jobs have started."""
    log = tmp_path / "log"
    for _ in range(100):
        if log.exists() and len(log.read_text().splitlines()) >= 2:
            break
        time.sleep(0.1)
    return subprocess.run(["pgrep", "-f", "^sleep 60$"], capture_output=True, text=True).stdout.split()


def all_gone(pids):
    return all(not pathlib.Path(f"/proc/{pid}").exists()
               or pathlib.Path(f"/proc/{pid}/stat").read_text().split()[2] == "Z" for pid in pids)


def test_sigterm_stops_every_job_and_sched_exits(tmp_path):
    proc, report = run_sched(tmp_path, extra_env={"SECS": "60"}, wait=False)
    sleepers = sleeping_jobs(tmp_path)
    assert len(sleepers) == 2, "the build and checks lanes' jobs should both run"
    t0 = time.time()
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGTERM
    assert time.time() - t0 < 10
    assert all_gone(sleepers)


def test_a_second_signal_while_stopping_still_stops_every_job(tmp_path):
    # Ctrl-C reaches scheduler.py, then all.sh's EXIT trap sends it SIGTERM
    # while it is stopping the jobs: the first signal decides, and no job
    # is left running.
    proc, report = run_sched(tmp_path, extra_env={"SECS": "60"}, wait=False)
    sleepers = sleeping_jobs(tmp_path)
    assert len(sleepers) == 2
    proc.send_signal(signal.SIGINT)
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 128 + signal.SIGINT, out
    assert "Traceback" not in out
    assert all_gone(sleepers)
