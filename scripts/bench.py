#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench.py: the figures of the last run, as make bench prints them
(scripts/bench.sh runs it).

  bench.py REPORT [--quiet]
  bench.py REPORT --record WHAT SECONDS STATE SERIES
        From REPORT/bench-raw.tsv (the "kind what seconds" rows every stage
        appends as it runs) and REPORT/results.tsv, write REPORT/bench.tsv
        and print: the rows; the first KTAP line's mean and maximum; the
        work by stage (cells, how many this run took from a cache, and the
        seconds recorded, which for a cached cell are those of the run
        that computed it (lib.sh's record keeps them); cross-compile cells overlap,
        CROSS_PAR at a time); the time this run spent in the stages the
        architectures work added to make (the cross.sh series and boot.sh
        arch-heads, or arch-builds and arch-boots, phases, the latter once
        per other boot architecture, plus the abi checks this run ran, not
        those from the cache) and their cells (cross, abi, and build-<arch>
        and boot-<arch> of each other boot architecture the run has cells
        of), beside their 15-minute budget for a cold run; the physical
        limit of a cold run (physical_limit: the compile work no
        per-commit pipeline avoids, in CPU seconds (a build cell's cpu
        column), over the cores, BENCH_CORES or this machine's, plus the
        guests' time; when it is above the cold make's target or its
        ceiling, that no order of the work meets them), the last cold
        make's ratio to it and each stage's share of the cells' seconds; and the pty
        throughput table (bench-pty.tsv) when there is one, and the sizes
        of the structures that hold signal sets at each series' base and
        head (bench-memory.tsv, scripts/build.sh memory) when there are
        some.
        With --quiet, only bench.tsv.
        Then the targets: the latest run of each kind in
        REPORT/bench-runs.tsv beside its target and the naive way's time.

        With --record, append a row to REPORT/bench-runs.tsv, the history
        the targets are read from (the other reports are per run): WHAT
        (make, make-test, checks) took SECONDS; STATE is cold when it began
        with no imported tree and an empty ccache, else warm; SERIES is the
        series it ran ("all" for every one).  The kind of run comes from
        this run's bench-raw.tsv: cold, unchanged (nothing built, booted or
        checked again), or "N rebuilt" (N commits of the bisect-build).

  bench.py REPORT --estimate SERIES
        What the last runs of make here took, for a new one's progress
        lines: one line, "the last make of SERIES here took M:SS (DATE,
        KIND); the last cold one M:SS" (the parts there is a run for),
        or nothing when REPORT/bench-runs.tsv has no make of SERIES.
        Then, on a second line, the last one's seconds alone.

  bench.py REPORT --svg
        The history of REPORT/bench-runs.tsv drawn as an SVG figure (the
        report's page takes it): the seconds of each run by date, on a
        logarithmic scale, one line per kind of run (make cold, make warm
        with nothing changed, make with commits rebuilt, make test), each
        point titled with its figures, and the targets as dashed lines.
        Nothing when there is no history.

  bench.py --pty-summary SAMPLES
        The rows of bench-pty.tsv for one series (boot.sh bench): SAMPLES
        holds "base|head bytes/s" lines; each kernel's samples, median and
        relative standard deviation, then the head against the base and
        whether the difference is within twice the larger noise.

The naive way is `git rebase --exec 'make clean && make'` over the same
commits: REPORT/naive.tsv holds one full build of the smoke config without
ccache (scripts/build.sh naive, run once by make bench), and each commit's
is estimated from its object count ("objects" rows) at the same cost per
object; a run recorded before naive.tsv existed counts one full build for
each commit it built.
"""

import csv
import datetime
import html
import math
import os
import re
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
# The other boot architectures than x86_64 and their stages (build-<arch>,
# boot-<arch>) as scripts/cells.py, which owns the stages, knows them.
from cells import BOOT_ARCH_ORDER, arch_stages, boot_arch, boot_arch_order  # noqa: E402,F401
# The jobs of the run and their lanes, as scripts/scheduler.py, which runs them,
# records them.
from scheduler import LANES, read_jobs  # noqa: E402

# The additions' stages besides each other boot architecture's build and
# boot (additions).
ADDITIONS = ("cross", "abi")
ADDITIONS_BUDGET = 15 * 60
# make's phases of the other boot architectures: arch-heads in one step
# (make boot-arm64), or (all.sh) for each one, BOOT_ARCH=<arch>, its builds
# and, in the boot lane, its boots: a row of each per architecture, which
# phase_seconds sums.
ADDITION_PHASES = ("cross.sh series", "boot.sh arch-heads", "boot.sh arch-builds",
                   "boot.sh arch-boots")
RUNS = "bench-runs.tsv"
RUNS_HEAD = ["date", "what", "state", "kind", "seconds", "series",
             "builds", "rebuilt", "naive"]
# The targets of the speed issue (30; 14 before it), each read from the
# latest matching run.
TARGETS = (
    ("cold make, every series, all default stages", "make",
     lambda r: r["kind"] == "cold" and r["series"] == "all", 45 * 60,
     "make with WORKDIR and CCACHE_DIR empty"),
    ("cold make test", "make-test",
     lambda r: r["kind"] == "cold", 75 * 60,
     "make test with WORKDIR and CCACHE_DIR empty"),
    ("warm make, nothing changed", "make",
     lambda r: r["kind"] == "unchanged" and r["series"] == "all", 15,
     "make twice"),
    ("one patch edited, make SERIES=<its series>", "make",
     # At most one kernel rebuilt: nsig's last patch is its selftests, so
     # an edit of it rebuilds none (0 rebuilt), one of a kernel patch one.
     lambda r: r["kind"] in ("0 rebuilt", "1 rebuilt") and r["series"] != "all", 2 * 60,
     "edit the last patch of nsig, make SERIES=nsig"),
    ("checks of one commit, warm", "checks",
     lambda r: True, 15,
     "make bench (its two-file commit)"),
)


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", newline="") as f:
        return [row for row in csv.reader(f, delimiter="\t",
                                          quoting=csv.QUOTE_NONE) if row]


def read_runs(report):
    """bench-runs.tsv's runs, oldest first, as dicts of RUNS_HEAD."""
    return [dict(zip(RUNS_HEAD, r + [""] * (len(RUNS_HEAD) - len(r))))
            for r in read_tsv(os.path.join(report, RUNS))[1:]]


def additions(work):
    """The stages of the default additions: ADDITIONS, then build-<arch>
    and boot-<arch> of each other boot architecture WORK has cells of, in
    the canonical order."""
    arches = {boot_arch(s) for s in work} - {""}
    return ADDITIONS + tuple(s for a in boot_arch_order(arches) for s in arch_stages(a))


def seconds(text):
    try:
        return float(text)
    except ValueError:
        return None


def mmss(secs):
    secs = int(round(secs))
    return f"{secs // 60}:{secs % 60:02d}"


def stage_work(results):
    """{stage: [cells, cached, seconds]} from results.tsv, in first-seen order."""
    work = {}
    if not results:
        return work
    head = results[0]
    col = {name: i for i, name in enumerate(head)}
    for row in results[1:]:
        if len(row) < len(head) - 2:
            continue
        stage, secs, detail = row[col["stage"]], row[col["seconds"]], row[col["detail"]]
        w = work.setdefault(stage, [0, 0, 0.0])
        w[0] += 1
        # The cached column (cells.py); a table from before it said so in
        # the detail.
        w[1] += row[col["cached"]] == "1" if "cached" in col and len(row) > col["cached"] else "cached" in detail
        w[2] += seconds(secs) or 0
    return work


def phase_seconds(raw, names):
    total = 0.0
    for kind, what, secs, *_ in raw:
        if kind == "phase" and what.strip() in names:
            total += seconds(secs) or 0
    return total


def print_rows(raw):
    print(f"{'phase':<11} {'what':<48} seconds")
    for kind, what, secs, *_ in raw:
        print(f"{kind:<11} {what[:48]:<48} {secs}")
    firsts = [seconds(s) for k, _, s, *_ in raw if k == "first-ktap"]
    firsts = [s for s in firsts if s is not None]
    if firsts:
        print(f"first KTAP line: mean {sum(firsts) / len(firsts):.1f}s, "
              f"max {max(firsts):.1f}s over {len(firsts)} boots")


def covered(spans):
    """The seconds in which at least one of SPANS ((start, end) pairs) ran:
    the boot lane's two jobs at once count once."""
    total, reach = 0, None
    for a, b in sorted(spans):
        if reach is None or a > reach:
            total += b - a
            reach = b
        elif b > reach:
            total += b - reach
            reach = b
    return total


def print_lanes(report, cores):
    """How busy each lane of scripts/scheduler.py was in this run: its jobs,
    the seconds in which one of them ran (covered), their share of the span
    from the first job's start to the last one's end, and the CPU seconds
    they used; then the lane that ended last, which the run waited for; and
    the jobs' CPU seconds over CORES: no order or overlap of the same work
    ends sooner on this machine."""
    try:
        jobs = read_jobs(report)
    except (OSError, ValueError) as e:
        print(f"\nlanes: cannot read the jobs of this run: {e}")
        return
    if not jobs:
        return
    t0 = min(j["start"] for j in jobs)
    t1 = max(j["end"] for j in jobs)
    span = max(t1 - t0, 1)
    measured = all(j["cpu"] is not None for j in jobs)
    print()
    print(f"lanes (scripts/scheduler.py's jobs, {mmss(span)} from the first one's start to the last one's end):")
    print(f"  {'lane':<8} {'jobs':>4} {'busy':>8} {'share':>6}" + (f" {'cpu':>8}" if measured else ""))
    for lane in LANES:
        mine = [j for j in jobs if j["lane"] == lane]
        if not mine:
            continue
        busy = covered([(j["start"], j["end"]) for j in mine])
        cpu = f" {mmss(sum(j['cpu'] for j in mine)):>8}" if measured else ""
        print(f"  {lane:<8} {len(mine):>4} {mmss(busy):>8} {100 * busy / span:>5.0f}%{cpu}")
    last = max(jobs, key=lambda j: (j["end"], LANES.index(j["lane"]) if j["lane"] in LANES else 0))
    print(f"  the last lane to end: {last['lane']} ({last['kind']} {last['who']}, "
          f"at {mmss(last['end'] - t0)})")
    if measured:
        cpu = sum(j["cpu"] for j in jobs)
        floor = cpu / max(cores, 1)
        print(f"  the jobs' CPU time: {mmss(cpu)}, over {cores} cores {mmss(floor)}: the least any order of "
              f"this work takes here ({100 * floor / span:.0f}% of the jobs' span)")


def print_work(work, raw):
    if not work:
        return
    print()
    print("work by stage (results.tsv; a cached cell counts the seconds of the run that computed it):")
    print(f"  {'stage':<16} {'cells':>5} {'cached':>6} {'seconds':>8}")
    for stage, (cells, cached, secs) in work.items():
        print(f"  {stage:<16} {cells:>5} {cached:>6} {secs:>8.0f}")
    lists = [seconds(secs) or 0 for kind, what, secs, *_ in raw
             if kind == "cross" and what.startswith("objects ")]
    if lists:
        print(f"  (cross: {len(lists)} object list(s) made by kbuild's dry run in this run, "
              f"{sum(lists):.0f} s of the cross cells' seconds)")
    stages = additions(work)
    adds = [work[s] for s in stages if s in work]
    if not adds:
        return
    cells = sum(w[0] for w in adds)
    cached = sum(w[1] for w in adds)
    abi = sum(seconds(secs) or 0 for kind, what, secs, *_ in raw
              if kind == "check" and what.endswith(" abi"))
    wall = phase_seconds(raw, ADDITION_PHASES) + abi
    phases = [p for p in ADDITION_PHASES
              if any(k == "phase" and w.strip() == p for k, w, *_ in raw)]
    verdict = "within" if wall <= ADDITIONS_BUDGET else "over"
    print(f"default additions ({', '.join(stages)}): {mmss(wall)} in this run "
          f"({' + '.join(phases)}, plus the abi checks that ran); "
          f"{cells} cells, {cached} from a cache; {verdict} the "
          f"{mmss(ADDITIONS_BUDGET)} budget of a cold run (a fair comparison "
          "only when WORKDIR and CCACHE_DIR started empty)")


# The build stages whose cells compile a kernel (these, and build-<arch>
# of each other boot architecture: is_build), and the one of them at the
# leanest configuration, where each commit's own recompile counts; the
# boot stages, whose cells are the guests' time (is_boot).
BUILD_STAGES = ("build", "build-debug")
LEAN_BUILD = "build"
BOOT_STAGES = ("boot", "boot-debug")
COLD_RATIO_TARGET = 1.5
# What a cold make of every series may take at all, whatever is added to
# it: the budget every new stage's cold cost is counted against.
COLD_CEILING = 60 * 60


def is_build(stage):
    return stage in BUILD_STAGES or (stage.startswith("build-") and bool(boot_arch(stage)))


def is_boot(stage):
    return stage in BOOT_STAGES or (stage.startswith("boot-") and bool(boot_arch(stage)))


def cell_rows(results):
    """results.tsv's rows as dicts of its header."""
    if not results:
        return []
    head = results[0]
    return [dict(zip(head, r + [""] * (len(head) - len(r)))) for r in results[1:]]


def physical_limit(rows, cores):
    """The cold run's floor from its cells: [(part, cells, seconds, unmeasured)]
    and the limit, (compile work) / cores + the guests' time.  The compile
    work is what no per-commit pipeline avoids, in CPU seconds: each base
    once per configuration (a commit 0 that no series has as a later
    commit), each commit's own recompile at the leanest configuration, and
    the cross cells (the other architectures' touched objects).  A build
    cell counts the CPU time its make took (the cpu column); one without it
    (from before it was kept) counts its seconds, which understate a
    parallel make: UNMEASURED says how many did.  A cross cell's make runs
    one job, so its seconds are its CPU time.  A cell counts once per
    commit sha, stage and architecture; a cached cell counts what the run
    that computed it measured (a boot only when that run stored its cell:
    its seconds are not in the boot cache), so the figure is the cold run's
    only after one."""
    later = {(r["stage"], r["arch"], r["commit"]) for r in rows if r["index"] != "0"}
    parts = {"bases": {}, "recompiles": {}, "cross": {}, "guests": {}}
    unmeasured = {"bases": set(), "recompiles": set(), "cross": set(), "guests": set()}
    for r in rows:
        key = (r["stage"], r["arch"], r["commit"])
        part = None
        work = seconds(r["seconds"]) or 0
        if is_build(r["stage"]):
            if r["index"] == "0" and key not in later:
                part = "bases"
            elif r["index"] != "0" and r["stage"] == LEAN_BUILD:
                part = "recompiles"
            if part:
                cpu = seconds(r.get("cpu", ""))
                if cpu is None:
                    unmeasured[part].add(key)
                else:
                    work = cpu
                    unmeasured[part].discard(key)
        elif r["stage"] == "cross" and r["status"] != "skip":
            part = "cross"
        elif is_boot(r["stage"]):
            part = "guests"
        if part:
            # The same commit's cell in two series is one piece of work:
            # the most the runs that did it measured.
            cells = parts[part]
            cells[key] = max(cells.get(key, 0), work)
    table = [
        ("each base, once per configuration", "bases"),
        ("each commit's own recompile, at the leanest configuration", "recompiles"),
        ("the touched objects on the other architectures (cross)", "cross"),
        ("the guests (the boot cells)", "guests"),
    ]
    out = [(label, len(parts[k]), sum(parts[k].values()), len(unmeasured[k])) for label, k in table]
    compile_secs = sum(secs for _, _, secs, _ in out[:3])
    return out, compile_secs / max(cores, 1) + out[3][2]


def print_limit(report, results, cores):
    rows = cell_rows(results)
    if not rows:
        return
    parts, limit = physical_limit(rows, cores)
    print()
    print(f"physical limit of a cold run here ({cores} cores): the compile work no "
          "per-commit pipeline avoids, in CPU seconds over the cores, plus the guests' time "
          "(from the cells: a cached cell counts what the run that computed it "
          "measured, so it is the cold run's only after one)")
    for n, (label, cells, secs, unmeasured) in enumerate(parts):
        what = "s" if n == 3 else "s CPU"
        note = (f"  ({unmeasured} build cell(s) without their CPU time: their seconds "
                "counted, which understate a parallel make)") if unmeasured else ""
        print(f"  {label:<60} {cells:>4} cells {secs:>7.0f} {what}{note}")
    print(f"  {'limit':<60} {'':>10} {mmss(limit):>7}")
    _, what, is_cold_make, target, _ = TARGETS[0]
    above = [f"the {mmss(t)} {name}" for t, name in ((target, "target"), (COLD_CEILING, "ceiling"))
             if limit > t]
    if above:
        print(f"  the limit is above {' and '.join(above)} of a cold make: no order of this "
              f"work meets {'them' if len(above) > 1 else 'it'} on {cores} cores, only less "
              "work or more cores")
    cold = [r for r in read_runs(report) if r["what"] == what and is_cold_make(r)]
    if not cold or not limit:
        print(f"  the last cold make over the limit: not measured yet (target at most "
              f"{COLD_RATIO_TARGET}x; a cold make's ceiling {mmss(COLD_CEILING)})")
    else:
        secs = seconds(cold[-1]["seconds"]) or 0
        ratio = secs / limit
        verdict = "met" if ratio <= COLD_RATIO_TARGET else "OVER"
        print(f"  the last cold make ({cold[-1]['date']}): {mmss(secs)}, {ratio:.1f}x the "
              f"limit (target at most {COLD_RATIO_TARGET}x: {verdict}); "
              f"{'within' if secs <= COLD_CEILING else 'OVER'} the {mmss(COLD_CEILING)} "
              "ceiling of a cold make")
    work = stage_work(results)
    total = sum(w[2] for w in work.values())
    if total:
        shares = sorted(work.items(), key=lambda kv: -kv[1][2])
        print("  each stage's share of the cells' seconds: " + ", ".join(
            f"{stage} {100 * w[2] / total:.0f}%" for stage, w in shares if w[2]))


def series_builds(raw, results=None):
    """The bisect-build rows ("name/idx sha[ (cached)]"), as (what, cached);
    and from RESULTS (results.tsv's rows), the x86_64 build cells a job
    memo gave back (scripts/jobmemo.py), which have no row: cached."""
    rows = []
    for kind, what, *_ in raw:
        words = what.split()
        if kind == "build" and words and re.fullmatch(r"[^/\s]+/[0-9]+", words[0]):
            rows.append((" ".join(words[:2]), "(cached)" in what))
    named = {what for what, _ in rows}
    for row in cell_rows(results):
        what = f"{row['series']}/{row['index']} {row['commit'][:12]}"
        if row["stage"] == LEAN_BUILD and row.get("cached") == "1" and what not in named:
            rows.append((what, True))
    return rows


def computed_cells(raw):
    """Cells this run computed rather than took from a cache."""
    n = 0
    for kind, what, *_ in raw:
        if kind in ("boot", "check", "full-build"):
            n += 1
        elif kind in ("build", "cross") and "(cached)" not in what:
            n += 1
    return n


def run_kind(state, raw, results=None):
    if state == "cold":
        return "cold"
    if computed_cells(raw) == 0:
        return "unchanged"
    return f"{sum(not cached for _, cached in series_builds(raw, results))} rebuilt"


def naive_build(report):
    """naive.tsv's one measured full build, as a dict, or None."""
    rows = read_tsv(os.path.join(report, "naive.tsv"))
    if len(rows) < 2:
        return None
    col = dict(zip(rows[0], rows[1]))
    if not seconds(col.get("seconds", "")) or not seconds(col.get("objects", "")):
        return None
    return col


def naive_cost(report, raw, which, results=None):
    """Seconds the naive way takes to rebuild the commits WHICH names
    ("all" or "rebuilt") of this run's bisect-build, or None without a
    naive.tsv."""
    col = naive_build(report)
    if col is None:
        return None
    full, objects = float(col["seconds"]), float(col["objects"])
    counts = {what: seconds(secs) for kind, what, secs, *_ in raw if kind == "objects"}
    total = 0.0
    for what, cached in series_builds(raw, results):
        if which == "rebuilt" and cached:
            continue
        total += full / objects * (counts.get(what) or objects)
    return total


def record(report, what, secs, state, series):
    raw = [r + [""] * (3 - len(r)) for r in read_tsv(os.path.join(report, "bench-raw.tsv"))]
    if what not in ("make", "make-test"):
        raw = []
    results = read_tsv(os.path.join(report, "results.tsv")) if what in ("make", "make-test") else []
    kind = run_kind(state, raw, results) if raw else state
    builds = series_builds(raw, results)
    which = "rebuilt" if kind.endswith(" rebuilt") else "all"
    naive = naive_cost(report, raw, which, results) if raw else None
    if naive is None:
        naive = naive_later(naive_build(report), {"kind": kind, "what": what})
    path = os.path.join(report, RUNS)
    new = not os.path.exists(path)
    row = [datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), what, state, kind,
           str(int(float(secs))), series or "all", str(len(builds)),
           str(sum(not c for _, c in builds)),
           "" if naive is None else str(int(round(naive)))]
    with open(path, "a", encoding="utf-8") as f:
        if new:
            f.write("\t".join(RUNS_HEAD) + "\n")
        f.write("\t".join(row) + "\n")
    return 0


def naive_later(col, run):
    """The naive way's cost without this run's object counts (a run recorded
    before naive.tsv existed, or the checks of one commit): the measured
    full build times the commits it built, one for the checks."""
    if not col:
        return None
    which = "rebuilt" if run["kind"].endswith(" rebuilt") else "builds"
    count = 1 if run["what"] == "checks" else seconds(run.get(which, "")) or 0
    return float(col["seconds"]) * count or None


def print_targets(report):
    runs = read_runs(report)
    col = naive_build(report)
    print()
    print(f"targets: the latest run of each kind in {os.path.join(report, RUNS)}")
    if col:
        print(f"  naive way (git rebase --exec 'make clean && make'): {col.get('seconds')}s "
              f"for one full build of {col.get('objects')} objects ({col.get('commit', '')[:12]}, "
              f"{col.get('date')}), scaled by each commit's objects")
    else:
        print("  naive way: not measured yet (make bench measures it once)")
    print(f"  {'what':<46} {'time':>7} {'target':>7} {'':<6} {'naive':>7}  vs naive")
    for label, what, match, target, how in TARGETS:
        found = [r for r in runs if r["what"] == what and match(r)]
        if not found:
            print(f"  {label:<46} {'-':>7} {mmss(target):>7} {'':<6} {'':>7}  (not measured yet: {how})")
            continue
        r = found[-1]
        secs = seconds(r["seconds"]) or 0
        verdict = "met" if secs <= target else "OVER"
        nv = seconds(r["naive"]) or naive_later(col, r)
        if nv:
            cmp = f"{nv / secs:.1f}x faster" if secs and nv >= secs else f"{secs / nv:.1f}x slower"
            nvs = mmss(nv)
        else:
            cmp, nvs = "", "-"
        print(f"  {label:<46} {mmss(secs):>7} {mmss(target):>7} {verdict:<6} {nvs:>7}  {cmp}"
              f"  ({r['date']}, {r['kind']})")


def print_pty(path):
    rows = read_tsv(path)
    if not rows:
        return
    print()
    print(f"pty receive throughput in canonical mode ({path}):")
    for row in rows:
        row += [""] * (5 - len(row))
        print(f"  {row[0]:<10} {row[1]:<6} {row[2]:>8} {row[3]:>20}  {row[4]}")


def print_memory(path):
    rows = read_tsv(path)[1:]
    if not rows:
        return
    print()
    print(f"memory: the structures that hold signal sets, bytes at each series' base and head"
          f" (x86-64 smoke config, pahole on kernel/signal.o; {path}):")
    print(f"  {'series':<12} {'struct':<16} {'base':>6} {'head':>6} {'change':>7}")
    for row in rows:
        row += [""] * (4 - len(row))
        try:
            change = f"{int(row[3]) - int(row[2]):+d}"
        except ValueError:
            change = "?"
        print(f"  {row[0]:<12} {row[1]:<16} {row[2]:>6} {row[3]:>6} {change:>7}")


SVG_KINDS = (  # label, colour, which runs
    ("make, cold", "#c0392b", lambda r: r["what"] == "make" and r["kind"] == "cold"),
    ("make, nothing changed", "#27ae60", lambda r: r["what"] == "make" and r["kind"] == "unchanged"),
    ("make, commits rebuilt", "#2980b9", lambda r: r["what"] == "make" and r["kind"].endswith("rebuilt")),
    ("make test", "#8e44ad", lambda r: r["what"] == "make-test"),
)


def svg_history(report, width=720, height=300):
    """bench-runs.tsv as an SVG figure, or "" without runs."""
    runs = [r for r in read_runs(report) if (seconds(r["seconds"]) or 0) > 0]
    if not runs:
        return ""
    left, right, top, bottom = 60, 170, 20, 40
    w, h = width - left - right, height - top - bottom
    lo = math.log10(min(min(seconds(r["seconds"]) for r in runs), 10))
    hi = math.log10(max(max(seconds(r["seconds"]) for r in runs), 45 * 60) * 1.2)
    n = len(runs)

    def x(i):
        return left + (w * i / (n - 1) if n > 1 else w / 2)

    def y(secs):
        return top + h - h * (math.log10(secs) - lo) / (hi - lo)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
           f'<rect x="{left}" y="{top}" width="{w}" height="{h}" fill="none" stroke="#999"/>']
    for secs, label in ((10, "10 s"), (60, "1 min"), (600, "10 min"), (3600, "1 h")):
        if lo <= math.log10(secs) <= hi:
            out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(secs):.1f}" y2="{y(secs):.1f}" stroke="#eee"/>'
                       f'<text x="{left - 6}" y="{y(secs) + 4:.1f}" text-anchor="end">{label}</text>')
    for label, secs in (("cold target 45 min", 45 * 60), ("warm target 15 s", 15)):
        if lo <= math.log10(secs) <= hi:
            out.append(f'<line x1="{left}" x2="{left + w}" y1="{y(secs):.1f}" y2="{y(secs):.1f}" '
                       f'stroke="#777" stroke-dasharray="4 3"/><text x="{left + w + 6}" '
                       f'y="{y(secs) + 4:.1f}" fill="#555">{label}</text>')
    legend = 0
    for label, colour, match in SVG_KINDS:
        points = [(i, r) for i, r in enumerate(runs) if match(r)]
        if not points:
            continue
        path = " ".join(f"{x(i):.1f},{y(seconds(r['seconds'])):.1f}" for i, r in points)
        out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="1.5"/>')
        for i, r in points:
            tip = html.escape(f"{r['date']}: {r['what']} {r['kind']}, {mmss(seconds(r['seconds']))}, "
                              f"series {r['series']}")
            out.append(f'<circle cx="{x(i):.1f}" cy="{y(seconds(r["seconds"])):.1f}" r="3" '
                       f'fill="{colour}"><title>{tip}</title></circle>')
        out.append(f'<text x="{left + w + 6}" y="{top + 14 + 16 * legend}" fill="{colour}">{label}</text>')
        legend += 1
    first, last = html.escape(runs[0]["date"]), html.escape(runs[-1]["date"])
    out.append(f'<text x="{left}" y="{height - 12}">{first}</text>'
               f'<text x="{left + w}" y="{height - 12}" text-anchor="end">{last}</text>'
               f'<text x="{left + w / 2:.0f}" y="{height - 12}" text-anchor="middle">'
               f"{n} runs (bench-runs.tsv)</text></svg>")
    return "\n".join(out) + "\n"


def usage():
    print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
    return 2


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def pty_summary(path):
    """SAMPLES ("label bytes/s" a line) as bench-pty.tsv's rows: per label,
    the samples, the median and the relative standard deviation; then base
    against head, and whether the difference is within twice the noise."""
    samples = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split()
            if len(words) >= 2:
                samples.setdefault(words[0], []).append(float(words[1]))
    med, rel = {}, {}
    for label, values in samples.items():
        n = len(values)
        mean = sum(values) / n
        var = (sum(v * v for v in values) - n * mean * mean) / (n - 1) if n > 1 else 0.0
        med[label] = median(values)
        rel[label] = 100 * max(var, 0.0) ** 0.5 / mean
        print(f"{label}\t{n}\t{med[label]:.0f}\t{rel[label]:.1f}")
    if "base" in med and "head" in med:
        diff = 100 * (med["head"] - med["base"]) / med["base"]
        noise = max(rel["base"], rel["head"])
        where = "within" if abs(diff) <= 2 * noise else "OUTSIDE"
        print(f"diff\t-\t{diff:+.1f}%\t{where} noise (2 x {noise:.1f}%)")
    return 0


def estimate(report, series):
    """bench.py REPORT --estimate SERIES (see the docstring)."""
    runs = [r for r in read_runs(report)
            if r["what"] == "make" and r["series"] == series and seconds(r["seconds"]) is not None]
    if not runs:
        return 0
    last = runs[-1]
    line = (f"the last make of {series} here took {mmss(seconds(last['seconds']))} "
            f"({last['date']}, {last['state']}, {last['kind']})")
    cold = [r for r in runs if r["state"] == "cold"]
    if cold and cold[-1] is not last:
        line += f"; the last cold one {mmss(seconds(cold[-1]['seconds']))} ({cold[-1]['date']})"
    print(line)
    print(int(round(seconds(last["seconds"]))))
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--estimate":
        return estimate(argv[0], argv[2])
    if len(argv) == 2 and argv[0] == "--pty-summary":
        return pty_summary(argv[1])
    if len(argv) == 2 and argv[1] == "--svg":
        sys.stdout.write(svg_history(argv[0]))
        return 0
    if len(argv) >= 2 and argv[1] == "--record":
        if len(argv) != 6 or seconds(argv[3]) is None or argv[4] not in ("cold", "warm"):
            return usage()
        return record(argv[0], argv[2], argv[3], argv[4], argv[5])
    if not argv or len(argv) > 2 or (len(argv) == 2 and argv[1] != "--quiet"):
        return usage()
    report = argv[0]
    raw_path = os.path.join(report, "bench-raw.tsv")
    raw = read_tsv(raw_path)
    if not raw:
        print(f"bench.py: no figures yet ({raw_path}): run make or make bench",
              file=sys.stderr)
        return 1
    raw = [r + [""] * (3 - len(r)) for r in raw]
    out = os.path.join(report, "bench.tsv")
    with open(out, "w", encoding="utf-8") as f:
        f.write("phase\twhat\tseconds\n")
        for row in raw:
            f.write("\t".join(row) + "\n")
    if len(argv) == 2:
        return 0
    print_rows(raw)
    results = read_tsv(os.path.join(report, "results.tsv"))
    print_work(stage_work(results), raw)
    cores = int(os.environ.get("BENCH_CORES", os.cpu_count() or 1))
    print_lanes(report, cores)
    print_limit(report, results, cores)
    print_targets(report)
    print(f"written: {out}")
    print_pty(os.path.join(report, "bench-pty.tsv"))
    print_memory(os.path.join(report, "bench-memory.tsv"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
