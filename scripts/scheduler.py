#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""scheduler.py: the stages of make, each run when what it needs is done.

  scheduler.py REPORT [--last SECS] SERIES...
        Runs the stage jobs that the plans of SERIES (REPORT/plan/<series>,
        written by cells.py plan; SERIES in the order they were applied)
        owe, and returns when every job has ended: 0, whatever the jobs
        decided (the cells say that), or 128 + the signal that stopped it.
        SECS: how long the last make of the same series took here, said at
        each series' start.

A job is one stage script run for the cells of one stage (build.sh series
for a series' build cells, boot.sh arch-builds for one architecture's
build-<arch> cells of every series, ...), from the table JOBS.  Each job
runs in one of three lanes, one job at a time per lane (but see the boot
lane's second slot below):

  build   the kernel builds and cross-compiles: never two at once, as they
          share the workspace's source worktree and take every core
  boot    the boots, which take the kernels a build job left (BOOT_PREBUILT=1)
          and mostly wait for their guests
  checks  the per-commit checks, mostly one core's work (Sphinx, spatch)

A job starts when the jobs it needs have ended (a boot needs its build, a
cross-compile the smoke build of its series, whose .cmd files say which
objects include a header) and its lane is free; among the ready jobs of a
lane the first in the table's order goes, series by series.  Once the
build lane has ended its last job, the boot lane takes a second job beside
the first (BOOT_SLOTS), of another kind (a series' boots beside a debug or
another architecture's boot, never two that could boot one kernel into one
boot directory): the cores the builds leave would otherwise wait for the
boots one at a time.  A job that
fails does not stop the others: its stage script recorded what it decided,
and the plan shows as missing what it did not.  CHECKS_BESIDE=0 runs the
checks in the build lane, before each series' build; BOOTS_BESIDE=0 runs
the boots there, after each build (and builds what they find missing).

Every job runs in a session of its own, with no terminal input; on
SIGINT or SIGTERM every process of every running job's session (QEMU
included) is sent SIGTERM (SIGKILL STOP_GRACE seconds later if it is still
there), and scheduler.py waits for the jobs and exits; a second signal
meanwhile changes nothing.
Each job's seconds go to REPORT/bench-raw.tsv as a "phase" row, as
lib.sh's bench writes them, and each job to REPORT/jobs.tsv (JOBS_HEAD):
its lane, kind, series (or architecture), when it started and ended, in
seconds since the run began (WS_START), its exit status, and the CPU
seconds it used (os.wait4's rusage: its own and those of every process it
waited for, the compilers and QEMU among them); make bench reads it for
how busy each lane was and how much of the cores the jobs' work needs
(bench.py).
"""

import contextlib
import dataclasses
import os
import resource
import signal
import subprocess
import sys
import time

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cells  # noqa: E402
import jobmemo  # noqa: E402

LANES = ("build", "boot", "checks")
# The boot lane's jobs at once after the build lane's last job has ended.
BOOT_SLOTS = 2
JOBS_FILE = "jobs.tsv"
# The rusage of a job whose status was lost (reaped elsewhere).
NO_USAGE = resource.struct_rusage((0.0, 0.0) + (0,) * 14)
JOBS_HEAD = ("lane", "kind", "who", "start", "end", "status", "cpu")


@dataclasses.dataclass(frozen=True)
class Kind:
    """How the cells of one stage are decided: the script, its arguments,
    its lane, the kind of job it needs first, and whether it is one job
    for every series (an architecture's) or one per series."""
    argv: tuple
    lane: str
    needs: str = ""
    per_arch: bool = False


# The jobs, in their order among a lane's ready jobs: a series' checks,
# build, boots and cross-compile; then the debug build and boot of each
# head; then each other boot architecture's builds and boots.
JOBS = {
    "checks": Kind(("check.sh",), "checks"),
    "build": Kind(("build.sh", "series"), "build"),
    "boot": Kind(("boot.sh", "series"), "boot", needs="build"),
    "cross": Kind(("cross.sh", "series"), "build", needs="build"),
    "build-debug": Kind(("boot.sh", "heads-build"), "build"),
    "boot-debug": Kind(("boot.sh", "heads"), "boot", needs="build-debug"),
    "build-arch": Kind(("boot.sh", "arch-builds"), "build", per_arch=True),
    "boot-arch": Kind(("boot.sh", "arch-boots"), "boot", needs="build-arch", per_arch=True),
}
ORDER = {kind: i for i, kind in enumerate(JOBS)}


def decider(stage):
    """The job kind that decides planned STAGE, None for apply (decided
    before the jobs); any stage that is no other's is a check's."""
    if stage == "apply":
        return None
    if stage in ("build", "boot", "cross", "build-debug", "boot-debug"):
        return stage
    if cells.is_arch_stage(stage):
        return "build-arch" if stage.startswith("build-") else "boot-arch"
    return "checks"


def kinds_of(stage):
    """The job kinds planned STAGE needs: the one that decides it, after
    the job its kernel needs first (a debug boot its debug build; an
    architecture's build or boot both of that architecture's jobs)."""
    d = decider(stage)
    if d is None:
        return []
    if d == "boot-debug":
        return ["build-debug", d]
    if JOBS[d].per_arch:
        return ["build-arch", "boot-arch"]
    return [d]


@dataclasses.dataclass
class Job:
    kind: str
    series: tuple       # one series, or each series an architecture's job is for
    arch: str = ""
    proc: subprocess.Popen = None
    started: float = 0.0
    status: int = None
    owes: list = dataclasses.field(default_factory=list)  # the cells.Planned it decides
    key: str = ""       # its inputs key when it started (jobmemo.key_of its read)
    read: list = dataclasses.field(default_factory=list)   # what the key was made from
    cpu: float = 0.0    # the CPU seconds (user and system) of it and what it waited for
    kept: bool = False  # its memo written after it ran

    @property
    def who(self):
        return self.arch or self.series[0]

    @property
    def name(self):
        return f"{self.kind} {self.who}"

    @property
    def spec(self):
        return JOBS[self.kind]

    def env(self):
        # WS_JOB: lib.sh's record forgets the job memos when a stage
        # records a cell outside a job (scripts/jobmemo.py).
        env = {"SERIES": ",".join(self.series), "WS_JOB": f"{self.kind}@{self.who}"}
        if self.arch:
            env["BOOT_ARCH"] = self.arch
        return env


def read_jobs(report):
    """The rows of REPORT/jobs.tsv as dicts of JOBS_HEAD (start, end and
    status as ints, cpu a float; None in a file from before it had the
    column), in the order the jobs ended; [] when there is none.  Raises
    ValueError naming a malformed row."""
    path = os.path.join(report, JOBS_FILE)
    if not os.path.exists(path):
        return []
    rows = []
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    for n, line in enumerate(lines[1:], 2):
        parts = line.split("\t")
        if len(parts) == len(JOBS_HEAD) - 1:
            parts.append("")
        if len(parts) != len(JOBS_HEAD):
            raise ValueError(f"{path}:{n}: {len(parts)} fields, not {len(JOBS_HEAD)}")
        row = dict(zip(JOBS_HEAD, parts))
        try:
            for k in ("start", "end", "status"):
                row[k] = int(row[k])
            row["cpu"] = float(row["cpu"]) if row["cpu"] else None
        except ValueError:
            raise ValueError(f"{path}:{n}: start, end, status and cpu must be numbers") from None
        rows.append(row)
    return rows


def plan_jobs(report, series):
    """The jobs SERIES' plans owe, in the order a lane takes them, each
    with the planned cells it decides (owes).  A job that decides none of
    its own (the debug kernel's build) owes those of the job that needs
    it: its memo answers for them (scripts/jobmemo.py)."""
    owed = {}   # (kind, series or arch) -> Job
    arch_series = {}
    planned = cells.read_plans(report)
    for s in series:
        for p in planned:
            if p.series != s:
                continue
            for k in kinds_of(p.stage):
                if JOBS[k].per_arch:
                    arch = p.arch
                    arch_series.setdefault(arch, [])
                    if s not in arch_series[arch]:
                        arch_series[arch].append(s)
                    job = owed.setdefault((k, arch), Job(k, (), arch))
                else:
                    job = owed.setdefault((k, s), Job(k, (s,)))
                if k == decider(p.stage):
                    job.owes.append(p)
    for (k, who), job in owed.items():
        if JOBS[k].per_arch:
            job.series = tuple(arch_series[who])
        if not job.owes:
            job.owes = [p for (n, w), j in owed.items() if w == who and JOBS[n].needs == k for p in j.owes]
    arch_rank = {a: i for i, a in enumerate(cells.boot_arch_order(list(arch_series)))}
    series_rank = {s: i for i, s in enumerate(series)}

    def rank(job):
        # The per-series jobs of the first kinds go series by series
        # (checks, build, boot, cross of one, then the next's); the debug
        # heads after them all, then the architectures.
        if job.spec.per_arch:
            return (2, arch_rank[job.arch], ORDER[job.kind])
        if job.kind in ("build-debug", "boot-debug"):
            return (1, series_rank[job.series[0]], ORDER[job.kind])
        return (0, series_rank[job.series[0]], ORDER[job.kind])

    return sorted(owed.values(), key=rank)


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
STOP_GRACE = 20     # seconds a stopped job has to end before SIGKILL


@contextlib.contextmanager
def blocked():
    """STOP_SIGNALS held back for the block; one that came is handled at
    its end."""
    signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


def unblock():
    """In a job, before its script: the signals blocked() held back are
    the job's again (a signal mask outlives exec)."""
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


class Stopped(Exception):
    def __init__(self, signum):
        super().__init__(signum)
        self.signum = signum


STOPPING = []


def on_signal(signum, _frame):
    """The first stop signal stops the run; another one, while the jobs
    are being stopped (all.sh's TERM after Ctrl-C), only waits its turn."""
    if STOPPING:
        return
    STOPPING.append(signum)
    raise Stopped(signum)


class Scheduler:
    def __init__(self, report, series, last_secs, jobs, ws_root=None):
        self.report = report
        self.series = series
        self.last = last_secs
        self.jobs = jobs
        self.root = ws_root or os.environ.get("WS_ROOT") or os.path.dirname(
            os.path.dirname(os.path.abspath(__file__)))
        self.start = int(os.environ.get("WS_START") or time.time())
        beside = {"checks": os.environ.get("CHECKS_BESIDE", "1") != "0",
                  "boot": os.environ.get("BOOTS_BESIDE", "1") != "0"}
        self.lane = {k: (s.lane if beside.get(s.lane, True) else "build") for k, s in JOBS.items()}
        self.running = {}   # pid -> Job
        self.said = set()
        self.memo_on = jobmemo.enabled()
        try:
            self.workspace = jobmemo.workspace_digest(self.root)
        except OSError as e:
            cells.warn(f"cannot read the workspace's files in {self.root} ({e}): every job runs, none is kept")
            self.memo_on = False
            self.workspace = ""

    def progress(self, stage, what):
        secs = int(time.time()) - self.start
        print(f"[{secs // 60}:{secs % 60:02d}] {stage:<10} {what}", flush=True)

    def so_far(self):
        if not self.last:
            return ""
        secs = int(time.time()) - self.start
        return (f", elapsed {secs // 60}:{secs % 60:02d} of about "
                f"{self.last // 60}:{self.last % 60:02d} (the last make's)")

    def commits(self, s):
        return max((p.index for p in cells.read_plans(self.report) if p.series == s), default=0)

    def announce(self, job):
        lane = self.lane[job.kind]
        if job.kind == "build":
            k = self.series.index(job.series[0]) + 1
            self.progress("series", f"=== series {k} of {len(self.series)}: {job.series[0]} "
                                    f"({self.commits(job.series[0])} commits){self.so_far()} ===")
        if lane == "checks" and "checks" not in self.said:
            self.said.add("checks")
            names = " ".join(j.series[0] for j in self.jobs if j.kind == "checks")
            self.progress("checks", f"the checks of {names} run in the background beside the builds and boots")
        if lane == "boot" and "boot" not in self.said:
            self.said.add("boot")
            self.progress("boot", "the boots run in the background beside the next builds")

    def job_env(self, job):
        env = dict(os.environ, **job.env())
        if self.lane[job.kind] == "boot":
            env["BOOT_PREBUILT"] = "1"   # a boot beside the builds never builds
        return env

    def inputs_lines(self, job, workspace):
        mine = workspace + " " + jobmemo.series_digest(self.root, job.series)
        return jobmemo.inputs_lines(job.kind, job.who, job.series, job.owes, mine, self.job_env(job))

    def inputs_key(self, job, workspace):
        return jobmemo.key_of(self.inputs_lines(job, workspace))

    def memo(self, job):
        return jobmemo.memo_path(self.report, job.kind, job.who)

    def replay(self, job):
        """JOB's cells from its memo, when nothing it depends on changed
        (scripts/jobmemo.py): True, and the job is done."""
        if not self.workspace:
            return False
        try:
            job.read = self.inputs_lines(job, self.workspace)
        except OSError as e:
            cells.warn(f"cannot read the files of {job.name} ({e}): it runs, and is not kept")
            return False
        job.key = jobmemo.key_of(job.read)
        if not self.memo_on:
            return False
        memo = jobmemo.load(self.memo(job))
        who = f"{job.arch} ({','.join(job.series)})" if job.arch else job.who
        if not jobmemo.usable(memo, job.key):
            why = jobmemo.why_not(memo, job.read)
            if why:
                self.progress(job.kind, f"{who}: runs, its memo does not answer: {why}")
            return False
        try:
            jobmemo.store(self.report, memo)
        except OSError as e:
            cells.warn(f"could not store the cells of {job.name} from {self.memo(job)} ({e}): the job runs")
            return False
        self.announce(job)
        job.started = time.time()
        job.proc = False
        job.status = 0
        self.progress(job.kind, f"{who}: its {len(memo.cells)} cells as the run of {memo.when} "
                                f"decided them: nothing they depend on has changed (cached; "
                                f"{jobmemo.MEMO_DIR}/{os.path.basename(self.memo(job))})")
        self.record_end(job)
        return True

    def keep(self, job):
        """After JOB ended: its memo, when it ended well, every cell it
        owed decided and each one keepable (jobmemo.py), and nothing it
        depends on changed while it ran; else none.  (A job whose cells another job decides,
        the debug kernel's build, is kept at the end of the run.)"""
        path = self.memo(job)
        try:
            got = None
            if job.status == 0 and job.key and self.workspace:
                if self.inputs_key(job, jobmemo.workspace_digest(self.root)) == job.key:
                    got = jobmemo.decided(self.report, job.owes)
            if got:
                jobmemo.keep(path, job.read, got)
                job.kept = True
            else:
                jobmemo.forget(path)
        except OSError as e:
            cells.warn(f"could not keep the cells of {job.name} in {path} ({e}): the next make runs it again")

    def launch(self, job):
        self.announce(job)
        env = self.job_env(job)
        argv = ["bash", os.path.join(self.root, "scripts", job.spec.argv[0]), *job.spec.argv[1:]]
        job.started = time.time()
        try:
            job.proc = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, start_new_session=True,
                                        preexec_fn=unblock)
        except OSError as e:
            cells.warn(f"could not start {' '.join(argv)} (SERIES={env['SERIES']}): {e}")
            job.proc = False
            job.status = 127
            return
        self.running[job.proc.pid] = job

    def ready(self, job):
        need = job.spec.needs
        if not need:
            return True
        return all(j.status is not None for j in self.jobs
                   if j.kind == need and (j.spec.per_arch and j.arch == job.arch
                                          or not j.spec.per_arch and j.series == job.series))

    def builds_ended(self):
        return all(j.status is not None for j in self.jobs if self.lane[j.kind] == "build")

    def free(self, job):
        """Whether JOB's lane can take it now: a lane runs one job at a
        time, but the boot lane BOOT_SLOTS once the build lane has ended,
        each of a kind that none of the others running is."""
        lane = self.lane[job.kind]
        mine = [j for j in self.running.values() if self.lane[j.kind] == lane]
        if not mine:
            return True
        if lane != "boot" or len(mine) >= BOOT_SLOTS or not self.builds_ended():
            return False
        return all(j.kind != job.kind for j in mine)

    def fill(self):
        """Starts each ready job its lane can take (free); one whose memo
        answers for it is done at once, which may make others ready."""
        again = True
        while again:
            again = False
            for job in self.jobs:
                if job.proc is None and self.free(job) and self.ready(job):
                    if self.replay(job):
                        again = True
                        continue
                    self.launch(job)

    def ended(self, pid, status, usage):
        """Job PID ended with STATUS (os.wait4's), having used USAGE (its
        rusage, with that of every process it waited for: make's compiles,
        boot.sh's QEMU)."""
        job = self.running.pop(pid)
        job.status = os.waitstatus_to_exitcode(status)
        job.cpu = usage.ru_utime + usage.ru_stime
        job.proc.returncode = job.status
        self.keep(job)
        self.record_end(job)
        what = " ".join(job.spec.argv)
        if job.status < 0 or job.status > 128:
            self.progress(job.kind, f"{what} (SERIES={','.join(job.series)}) was stopped ({job.status})")
        if self.running and all(self.lane[j.kind] != "build" for j in self.running.values()) \
                and all(j.proc is not None for j in self.jobs if self.lane[j.kind] == "build"):
            for lane in sorted({self.lane[j.kind] for j in self.running.values()}):
                if lane not in self.said or f"wait-{lane}" in self.said:
                    continue
                self.said.add(f"wait-{lane}")
                self.progress(lane, f"waiting for the {'boots' if lane == 'boot' else 'checks'} to finish")

    def record_end(self, job):
        """JOB's seconds in bench-raw.tsv and its row in jobs.tsv."""
        secs = int(time.time() - job.started)
        what = " ".join(job.spec.argv)
        try:
            with open(os.path.join(self.report, "bench-raw.tsv"), "a", encoding="utf-8") as f:
                f.write(f"phase\t{what}\t{secs}\n")
        except OSError as e:
            cells.warn(f"could not record the seconds of {what} in {self.report}/bench-raw.tsv: {e}")
        self.write_job(job)

    def write_job(self, job):
        """JOB's row of jobs.tsv (JOBS_HEAD), appended as it ends."""
        row = (self.lane[job.kind], job.kind, job.arch or ",".join(job.series),
               int(job.started) - self.start, int(time.time()) - self.start, job.status,
               f"{job.cpu:.1f}")
        try:
            with open(os.path.join(self.report, JOBS_FILE), "a", encoding="utf-8") as f:
                f.write("\t".join(map(str, row)) + "\n")
        except OSError as e:
            cells.warn(f"could not record {job.name} in {self.report}/{JOBS_FILE}: {e}")

    def stop(self):
        """Every running job's session sent SIGTERM, then, after STOP_GRACE
        seconds, SIGKILL; each job waited for."""
        deadline = time.time() + STOP_GRACE
        for pid in self.running:
            subprocess.run(["pkill", "-TERM", "-s", str(pid)], check=False)
        while self.running:
            for pid in list(self.running):
                try:
                    done, status, usage = os.wait4(pid, os.WNOHANG)
                except ChildProcessError:
                    done, status, usage = pid, 0, NO_USAGE
                if done:
                    self.ended(pid, status, usage)
            if self.running and time.time() > deadline:
                for pid in self.running:
                    subprocess.run(["pkill", "-KILL", "-s", str(pid)], check=False)
                deadline = float("inf")
            time.sleep(0.1)

    def run(self):
        for signum in STOP_SIGNALS:
            signal.signal(signum, on_signal)
        try:
            cells.write_atomically(os.path.join(self.report, JOBS_FILE), "\t".join(JOBS_HEAD) + "\n")
        except OSError as e:
            cells.warn(f"could not start {self.report}/{JOBS_FILE}: {e}")
        try:
            # A signal waits while a job starts or ends, so that every
            # job started is one self.running knows.
            with blocked():
                self.fill()
            while self.running:
                pid, status, usage = os.wait4(-1, 0)
                with blocked():
                    if pid in self.running:
                        self.ended(pid, status, usage)
                        self.fill()
            for job in self.jobs:
                if job.proc and job.status == 0 and not job.kept:
                    self.keep(job)
        except Stopped as e:
            self.stop()
            return 128 + e.signum
        return 0


def main(argv):
    usage = __doc__.split("\n\n")[1]
    last = 0
    if len(argv) >= 3 and argv[1] == "--last":
        if not argv[2].isdigit():
            print(f"scheduler.py: --last wants seconds (got '{argv[2]}')", file=sys.stderr)
            return 2
        last = int(argv[2])
        argv = argv[:1] + argv[3:]
    if not argv:
        print(usage, file=sys.stderr)
        return 2
    report, series = argv[0], argv[1:]
    try:
        jobs = plan_jobs(report, series)
    except (OSError, ValueError) as e:
        print(f"scheduler.py: cannot read the plans in {report}/plan: {e}", file=sys.stderr)
        return 1
    return Scheduler(report, series, last, jobs).run()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
