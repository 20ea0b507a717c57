#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""cells.py: the cells of a run: what it owes (the plan), what each stage
decided (the store), and the one table every report is written from.

  cells.py plan REPORT SERIES CHECKS DEBUG ARCHES < COMMITS
        Writes the plan of SERIES: the cells the run owes it, from its
        commits on standard input ("index sha subject" a line, the base
        first, as lib.sh's series_commits prints them), the checks it runs
        (comma-separated, may be empty), whether the run boots its head
        on the debug config (DEBUG 1), and the other architectures than
        x86_64 it builds and boots its base and head on (ARCHES,
        comma-separated, may be empty: "arm64,i386,mips64el" owes
        build-arm64 and boot-arm64, then i386's, then mips64el's, at the
        base and at the head).
  cells.py plan-apply REPORT SERIES
        Writes a plan of one cell, SERIES' apply cell: what is owed for a
        series whose branch could not be made.
  cells.py export REPORT
        Writes REPORT/results.tsv from the store and the plans: every
        decided cell, then every planned cell that no stage decided, as a
        failure that names the stage.  Exits 1 when it could not.
  cells.py import REPORT
        An older workspace's REPORT/results.tsv (before the store) into the
        store, once: nothing when the store exists.
  cells.py gate REPORT SERIES ACCEPT
        What make send asks before it sends SERIES: each cell of the last
        run that failed, never came or verified nothing (untested), as
        "refused<TAB>..." or, when ACCEPT (comma-separated architectures,
        stages or stage@arch) names it, "accepted<TAB>...".  Exits 0 when
        none is refused, 1 when some are, 3 when the run planned nothing
        for SERIES (make never verified its branch as it is now).
  cells.py reset REPORT
        Forgets the store, the plans and results.tsv: a new run.

The store is REPORT/cells/<series>/<index>/<stage>[@<arch>], one file per
cell holding its results.tsv row, which lib.sh's record writes beside its
name and renames into place: a kill or a full disk at any point leaves
every earlier cell whole, and a cell file that is not one well-formed row
(a crash of an older workspace, a hand edit) is named, set aside as
<name>.damaged and counted as not decided.  The plans are
REPORT/plan/<series>, one "index commit subject stage arch" line per owed
cell; arch "*" is owed when the stage decides the commit on at least one
architecture (cross: which ones depend on what the commit touches).  The
stages build and boot, and boot-debug and build-debug (x86_64's debug
config: "debug" is no architecture), are x86_64's; build-<arch> and
boot-<arch> are another architecture's (boot_arch), in the order of
BOOT_ARCH_ORDER, then any other by name (boot_arch_order).  A
stored cell of another commit than the plan names at its index is of a
branch that has changed since, and is left out.
"""

import dataclasses
import enum
import os
import re
import shutil
import sys

FIELDS = ("series", "index", "commit", "subject", "stage", "status",
          "seconds", "detail", "log", "arch", "cached", "cpu")
HEADER = "\t".join(FIELDS)
ANY_ARCH = "*"
HOST_ARCH = "x86_64"    # the architecture every commit is built and booted on
HOST_STAGES = ("build", "boot", "build-debug", "boot-debug")
# The other boot architectures the workspace knows, in the order their
# stages are shown; an architecture it does not know comes after them.
BOOT_ARCH_ORDER = ("arm64", "i386", "mips64el")
ARCH_STAGE_RE = re.compile(r"(build|boot)-([a-z0-9_]+)")
DEBUG_CONFIG = "debug"  # of build-debug and boot-debug: x86_64's, a config
# The words after build- or boot- that name no architecture: the debug
# config, and the checks named so (checks/build-warnings, W=1), whose
# cells are a check's like any other (tests/py/test_cells.py holds every
# check of checks/ to it).
NOT_ARCHES = (DEBUG_CONFIG, "warnings")


def boot_arch(stage):
    """The architecture STAGE builds or boots when it is build-ARCH or
    boot-ARCH, another architecture's ("i386" of build-i386 and
    boot-i386), or "" when it is not: x86_64's stages (boot-debug is its
    debug config, not an architecture "debug"), the checks (build-warnings
    among them), apply, cross, full-build."""
    m = ARCH_STAGE_RE.fullmatch(stage)
    return m.group(2) if m and m.group(2) not in NOT_ARCHES else ""


def is_arch_stage(stage):
    """Whether STAGE builds or boots another architecture than x86_64."""
    return bool(boot_arch(stage))


def arch_of_stage(stage):
    """The architecture of STAGE's cells: x86_64 for its builds and boots,
    ARCH for build-ARCH and boot-ARCH, "" for a stage that names none (a
    check, apply; cross's cells name theirs)."""
    return HOST_ARCH if stage in HOST_STAGES else boot_arch(stage)


def arch_stages(arch):
    """The stages another architecture ARCH owes at a base and a head."""
    return (f"build-{arch}", f"boot-{arch}")


def boot_arch_order(arches):
    """ARCHES (other boot architectures) once each, in the canonical order:
    BOOT_ARCH_ORDER's, then any other by name."""
    known = [a for a in BOOT_ARCH_ORDER if a in arches]
    return known + sorted(set(arches) - set(BOOT_ARCH_ORDER))


def read_arches(text):
    """The ARCHES argument of plan as a tuple, in the order given: a
    comma-separated list ("" for none).  Raises ValueError naming what is
    no other boot architecture than x86_64, or one named twice."""
    arches = tuple(a for a in text.split(",") if a)
    for a in arches:
        if a == HOST_ARCH or not boot_arch(f"boot-{a}"):
            raise ValueError(f"ARCHES: '{a}' is not another boot architecture than "
                             f"{HOST_ARCH} (lower-case letters, digits and _; not {DEBUG_CONFIG})")
        if arches.count(a) > 1:
            raise ValueError(f"ARCHES: '{a}' is named twice")
    return arches


class Status(enum.Enum):
    """What a stage decided of a cell, in the order a matrix cell that
    merges several (one per architecture) shows the worst of."""
    SKIP = "skip"          # the cell does not apply (no kernel code, no compiler)
    PASS = "pass"
    WARN = "warn"          # verified, with new warnings
    UNTESTED = "untested"  # the work ran and verified nothing
    FAIL = "fail"

    @property
    def rank(self):
        return list(Status).index(self)


class Damaged(ValueError):
    """A row that is not a cell."""


@dataclasses.dataclass
class Cell:
    series: str
    index: int
    commit: str
    subject: str
    stage: str
    status: Status
    seconds: int
    detail: str
    log: str = ""
    arch: str = ""
    cached: bool = False    # taken from a cache, not computed by this run
    missing: bool = False   # planned, and no stage decided it
    inputs: tuple = ()      # what its result read, a line each (keys.sh's key_from)
    # The CPU seconds (user and system, of every process) that the work
    # took, for a cell whose stage measures them (a build); of the run
    # that computed it when cached; None when not measured.
    cpu: int | None = None

    @classmethod
    def parse(cls, line):
        """A cell from one results.tsv row (one without the cpu column, the
        cached column or the arch column too, from an older workspace: its
        cpu is not known, and its detail said ", cached" or "(cached)")."""
        parts = line.rstrip("\n").split("\t")
        if len(parts) == len(FIELDS) - 3:
            parts.append(arch_of_stage(parts[4]))
        if len(parts) == len(FIELDS) - 2:
            parts.append("1" if parts[7].endswith("(cached)") or ", cached" in parts[7] else "0")
        if len(parts) == len(FIELDS) - 1:
            parts.append("")
        if len(parts) != len(FIELDS):
            raise Damaged(f"{len(parts)} fields, not {len(FIELDS)}")
        row = dict(zip(FIELDS, parts))
        try:
            status = Status(row["status"])
        except ValueError:
            raise Damaged(f"unknown status '{row['status']}'") from None
        if not row["index"].isdigit():
            raise Damaged(f'index "{row["index"]}" is not a number')
        if row["cached"] not in ("0", "1"):
            raise Damaged(f'cached "{row["cached"]}" is not 0 or 1')
        try:
            seconds = int(row["seconds"] or 0)
        except ValueError:
            raise Damaged(f'seconds "{row["seconds"]}" is not a number') from None
        if row["cpu"] and not row["cpu"].isdigit():
            raise Damaged(f'cpu "{row["cpu"]}" is not a number of seconds')
        return cls(row["series"], int(row["index"]), row["commit"], row["subject"],
                   row["stage"], status, seconds, row["detail"], row["log"], row["arch"],
                   row["cached"] == "1", cpu=int(row["cpu"]) if row["cpu"] else None)

    def row(self):
        return "\t".join(str(v) for v in (
            self.series, self.index, self.commit, self.subject, self.stage,
            self.status.value, self.seconds, self.detail, self.log, self.arch,
            int(self.cached), "" if self.cpu is None else self.cpu))

    @property
    def key(self):
        return (self.series, self.index, self.stage, self.arch)


@dataclasses.dataclass(frozen=True)
class Planned:
    series: str
    index: int
    commit: str
    subject: str
    stage: str
    arch: str

    def decided_by(self, cell):
        return (cell.series == self.series and cell.index == self.index
                and cell.stage == self.stage
                and (self.arch == ANY_ARCH or cell.arch == self.arch)
                and (self.commit in ("", "-") or cell.commit in ("", "-")
                     or cell.commit == self.commit))

    def missing(self):
        arch = f" for {self.arch}" if self.arch not in ("", ANY_ARCH) else ""
        return Cell(self.series, self.index, self.commit, self.subject, self.stage,
                    Status.FAIL, 0,
                    f"missing: the run owed this cell and no {self.stage} result came{arch}; "
                    f"its stage stopped before it (see the run's output)",
                    "", "" if self.arch == ANY_ARCH else self.arch, missing=True)


def warn(msg):
    print(f"warning: {msg}", file=sys.stderr)


def write_atomically(path, text):
    """PATH holds TEXT, or what it held before: written beside it, synced,
    renamed.  Raises OSError (a full disk) with PATH untouched."""
    tmp = f"{os.path.dirname(path)}/.{os.path.basename(path)}.tmp.{os.getpid()}"
    try:
        with open(tmp, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


# ---- the store ------------------------------------------------------------

def store_dir(report):
    return os.path.join(report, "cells")


def cell_path(report, cell):
    """Where the store keeps CELL (lib.sh's record writes the same path)."""
    return os.path.join(store_dir(report), cell.series, str(cell.index),
                        cell.stage + (f"@{cell.arch}" if cell.arch else ""))


def read_store(report, encoding="utf-8"):
    """Every decided cell, in (series, index, stage, arch) order; a damaged
    cell file is named and set aside."""
    cells = []
    top = store_dir(report)
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if name.startswith(".") or name.endswith(".damaged"):
                continue
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding=encoding, errors="surrogateescape") as f:
                    text = f.read()
                if text.count("\n") != 1 or not text.endswith("\n"):
                    raise Damaged("not one line")
                cell = Cell.parse(text)
                cell.inputs = read_inputs(inputs_path(path), encoding)
                cells.append(cell)
            except (Damaged, UnicodeError) as e:
                warn(f"{path} is damaged ({e}): moved to {path}.damaged; "
                     "the cell counts as not decided")
                os.replace(path, path + ".damaged")
    cells.sort(key=lambda c: (c.series, c.index, c.stage, c.arch))
    return cells


def inputs_path(cell_file):
    """Where record keeps what the cell of CELL_FILE read."""
    head, name = os.path.split(cell_file)
    return os.path.join(head, f".{name}.inputs")


def read_inputs(path, encoding="utf-8"):
    """The lines of an inputs file, () when there is none."""
    try:
        with open(path, encoding=encoding, errors="surrogateescape") as f:
            return tuple(f.read().splitlines())
    except FileNotFoundError:
        return ()


def read_results(path, encoding="utf-8"):
    """The cells of a results.tsv (this module's export, or an older
    workspace's table).  Raises Damaged naming the line.  ENCODING
    "latin-1" reads it byte for byte (matrix.py counts widths in bytes)."""
    with open(path, encoding=encoding, errors="surrogateescape", newline="") as f:
        lines = f.read().split("\n")
    header = lines[0]
    if header not in ("\t".join(FIELDS[:n]) for n in range(len(FIELDS) - 3, len(FIELDS) + 1)):
        raise Damaged("line 1: not the header of a results table")
    cells = []
    for n, line in enumerate(lines[1:], start=2):
        if not line:
            continue
        try:
            cells.append(Cell.parse(line))
        except Damaged as e:
            raise Damaged(f"line {n}: {e}") from None
    return cells


# ---- the plan -------------------------------------------------------------

def plan_dir(report):
    return os.path.join(report, "plan")


def planned_cells(series, commits, checks, debug, arches=()):
    """What the run owes SERIES: the cells each stage decides, by commit.
    COMMITS: (index, sha, subject), the base (index 0) first; ARCHES: the
    other boot architectures, each owing its build and boot at the base
    and the head, in their order."""
    head = commits[-1][0]
    cells = []

    def owe(idx, sha, subj, stage, arch=""):
        cells.append(Planned(series, idx, sha, subj, stage, arch))

    for idx, sha, subj in commits:
        owe(idx, sha, subj, "apply")
        if idx > 0:
            for check in checks:
                owe(idx, sha, subj, check)
        owe(idx, sha, subj, "build", "x86_64")
        if idx > 0:
            owe(idx, sha, subj, "cross", ANY_ARCH)
        owe(idx, sha, subj, "boot", "x86_64")
        if debug and idx == head:
            owe(idx, sha, subj, "boot-debug", "x86_64")
        if idx in (0, head):
            for arch in arches:
                for stage in arch_stages(arch):
                    owe(idx, sha, subj, stage, arch)
    return cells


def write_plan(report, series, planned):
    os.makedirs(plan_dir(report), exist_ok=True)
    write_atomically(os.path.join(plan_dir(report), series), "".join(
        f"{p.index}\t{p.commit}\t{p.subject}\t{p.stage}\t{p.arch}\n" for p in planned))


def read_plans(report):
    planned = []
    top = plan_dir(report)
    if not os.path.isdir(top):
        return planned
    for series in sorted(os.listdir(top)):
        if series.startswith("."):
            continue
        with open(os.path.join(top, series), encoding="utf-8", errors="surrogateescape") as f:
            for line in f:
                idx, sha, subj, stage, arch = line.rstrip("\n").split("\t")
                planned.append(Planned(series, int(idx), sha, subj, stage, arch))
    return planned


def load(report, encoding="utf-8"):
    """The run's cells: every decided one, then every planned one that no
    stage decided (missing, a failure)."""
    planned = read_plans(report)
    # A cell of a commit the plan does not name at its index is of a branch
    # that has changed since: not this run's.
    commit_at = {(p.series, p.index): p.commit for p in planned if p.commit not in ("", "-")}
    cells = [c for c in read_store(report, encoding)
             if commit_at.get((c.series, c.index), c.commit) == c.commit or c.commit in ("", "-")]
    by_stage = {}
    for c in cells:
        by_stage.setdefault((c.series, c.index, c.stage), []).append(c)
    for p in planned:
        if not any(p.decided_by(c) for c in by_stage.get((p.series, p.index, p.stage), ())):
            cells.append(p.missing())
    return cells


def table(path, encoding="utf-8"):
    """The cells of a run's report directory (load), or of a results.tsv
    (read_results): what every report is written from."""
    if os.path.isdir(path):
        return load(path, encoding)
    return read_results(path, encoding)


def export(report):
    write_atomically(os.path.join(report, "results.tsv"),
                     HEADER + "\n" + "".join(c.row() + "\n" for c in load(report)))


def import_results(report):
    """An older workspace's results.tsv, cell by cell, into the store."""
    if os.path.isdir(store_dir(report)):
        return
    path = os.path.join(report, "results.tsv")
    if not os.path.isfile(path) or os.path.getsize(path) == 0:
        return
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        header = f.readline().rstrip("\n")
    if header == "\t".join(FIELDS[:8]):
        # From before the log column: its rows name no evidence.
        print(f"report: {path} has no log column yet (an older workspace): "
              f"moved to {path}.old, starting a new one", file=sys.stderr)
        os.replace(path, path + ".old")
        return
    try:
        cells = read_results(path)
    except Damaged as e:
        warn(f"{path} is damaged ({e}): moved to {path}.damaged, starting a new one")
        os.replace(path, path + ".damaged")
        return
    for c in cells:
        path = cell_path(report, c)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        write_atomically(path, c.row() + "\n")
    os.makedirs(store_dir(report), exist_ok=True)


def gate(report, series, accept):
    """(refused, accepted): the cells of SERIES in the last run that failed,
    never came or verified nothing, split by whether a name of ACCEPT (an
    architecture, a stage, or stage@arch) names them.  None when the run
    planned nothing for SERIES (make never verified its branch as it is)."""
    if not any(p.series == series for p in read_plans(report)):
        return None
    refused, accepted = [], []
    for c in load(report):
        if c.series != series or c.status not in (Status.FAIL, Status.UNTESTED):
            continue
        names = {c.stage, c.arch, f"{c.stage}@{c.arch}"} - {"", f"{c.stage}@"}
        where = f"{c.stage} {c.arch}" if c.arch else c.stage
        line = f"[{c.index}] {c.commit[:12]} {where}: {c.status.value}: {c.detail}"
        (accepted if names & accept else refused).append(line)
    return refused, accepted


def reset(report):
    for d in (store_dir(report), plan_dir(report)):
        shutil.rmtree(d, ignore_errors=True)
    try:
        os.unlink(os.path.join(report, "results.tsv"))
    except FileNotFoundError:
        pass


def read_commits(stream):
    commits = []
    for line in stream:
        parts = line.rstrip("\n").split(" ", 2)
        if len(parts) < 2 or not parts[0].isdigit():
            raise ValueError(f"not an 'index sha subject' line: {line!r}")
        commits.append((int(parts[0]), parts[1], parts[2] if len(parts) > 2 else ""))
    if not commits:
        raise ValueError("no commits (not even the base)")
    return commits


def main(argv):
    usage = __doc__.split("\n\n")[1]
    if len(argv) < 2:
        print(usage, file=sys.stderr)
        return 2
    cmd, report = argv[0], argv[1]
    try:
        if cmd == "plan" and len(argv) == 6:
            series, checks, debug, arches = argv[2:]
            checks = [c for c in checks.split(",") if c]
            arches = read_arches(arches)
            write_plan(report, series, planned_cells(
                series, read_commits(sys.stdin), checks, debug == "1", arches))
        elif cmd == "plan-apply" and len(argv) == 3:
            write_plan(report, argv[2], [Planned(argv[2], 0, "-", f"series/{argv[2]}", "apply", "")])
        elif cmd == "gate" and len(argv) == 4:
            result = gate(report, argv[2], {a for a in argv[3].replace(" ", ",").split(",") if a})
            if result is None:
                return 3
            for kind, lines in zip(("refused", "accepted"), result):
                for line in lines:
                    print(f"{kind}\t{line}")
            return 1 if result[0] else 0
        elif cmd == "export" and len(argv) == 2:
            export(report)
        elif cmd == "import" and len(argv) == 2:
            import_results(report)
        elif cmd == "reset" and len(argv) == 2:
            reset(report)
        else:
            print(usage, file=sys.stderr)
            return 2
    except (OSError, ValueError) as e:
        print(f"cells.py {cmd}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
