#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""bench.py: the figures of the last run, as make bench prints them
(scripts/bench.sh runs it).

  bench.py REPORT [--quiet]
        From REPORT/bench-raw.tsv (the "kind what seconds" rows every stage
        appends as it runs) and REPORT/results.tsv, write REPORT/bench.tsv
        and print: the rows; the first KTAP line's mean and maximum; the
        work by stage (cells, how many this run took from a cache, and the
        seconds recorded, which for a cached cell are those of the run
        that computed it, and a cached boot 0; cross-compile cells overlap,
        CROSS_PAR at a time); the time this run spent in the stages the
        architectures work added to make (the cross.sh series and boot.sh
        arch-heads phases, plus the abi checks this run ran, not those from
        the cache) and their cells, beside
        their 15-minute budget for a cold run; and the pty throughput table
        (bench-pty.tsv) when there is one.  With --quiet, only bench.tsv.
"""

import csv
import os
import sys

ADDITIONS = ("cross", "abi", "build-arm64", "boot-arm64")
ADDITIONS_BUDGET = 15 * 60
ADDITION_PHASES = ("cross.sh series", "boot.sh arch-heads")


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8", newline="") as f:
        return [row for row in csv.reader(f, delimiter="\t",
                                          quoting=csv.QUOTE_NONE) if row]


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
        w[1] += "cached" in detail
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


def print_work(work, raw):
    if not work:
        return
    print()
    print("work by stage (results.tsv; a cached cell counts the seconds of the run that computed it):")
    print(f"  {'stage':<16} {'cells':>5} {'cached':>6} {'seconds':>8}")
    for stage, (cells, cached, secs) in work.items():
        print(f"  {stage:<16} {cells:>5} {cached:>6} {secs:>8.0f}")
    adds = [work[s] for s in ADDITIONS if s in work]
    if not adds:
        return
    cells = sum(w[0] for w in adds)
    cached = sum(w[1] for w in adds)
    abi = sum(seconds(secs) or 0 for kind, what, secs, *_ in raw
              if kind == "check" and what.endswith(" abi"))
    wall = phase_seconds(raw, ADDITION_PHASES) + abi
    verdict = "within" if wall <= ADDITIONS_BUDGET else "over"
    print(f"default additions ({', '.join(ADDITIONS)}): {mmss(wall)} in this run "
          f"({' + '.join(ADDITION_PHASES)}, plus the abi checks that ran); "
          f"{cells} cells, {cached} from a cache; {verdict} the "
          f"{mmss(ADDITIONS_BUDGET)} budget of a cold run (a fair comparison "
          "only when WORKDIR and CCACHE_DIR started empty)")


def print_pty(path):
    rows = read_tsv(path)
    if not rows:
        return
    print()
    print(f"pty receive throughput in canonical mode ({path}):")
    for row in rows:
        row += [""] * (5 - len(row))
        print(f"  {row[0]:<10} {row[1]:<6} {row[2]:>8} {row[3]:>20}  {row[4]}")


def main(argv):
    if not argv or len(argv) > 2 or (len(argv) == 2 and argv[1] != "--quiet"):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
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
    print_work(stage_work(read_tsv(os.path.join(report, "results.tsv"))), raw)
    print(f"written: {out}")
    print_pty(os.path.join(report, "bench-pty.tsv"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
