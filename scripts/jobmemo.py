#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""jobmemo.py: a job's cells kept with everything they were decided from,
so that a make in which nothing a job depends on changed takes its cells
back without starting its stage script.

scripts/scheduler.py is the only user.  When a job ends with status 0 and
every cell its plan owes decided, each one its stage would itself take
from its cache (keepable), its cells are kept in
WORKDIR/job-memo/<kind>@<who> (who: the series, or the architecture of an
architecture's job) under the job's inputs key.  The
next make's scheduler computes the job's key again before it would start
it: when the memo holds the same key and every cell's log (a file or a
directory) is still there, the cells go back into the store as taken from
a cache, and the job is done.  Anything else, and the
job runs as it would have, its stage script deciding cell by cell from its
own caches; a memo is only ever a shortcut to what that would say.  A
stage script run outside make's jobs (make check, make boot-test FRESH=1
...) may decide a cell again, differently: when it records any cell but an
apply cell, lib.sh's record forgets every memo (WS_JOB, which the
scheduler gives its jobs, is not set there).

The inputs key is deliberately coarse: it covers more than any one cell's
key, so that a change that could alter a cell always runs the job.  It is
the SHA-256 of
  - the job: its kind, series and architecture;
  - the lines the plans owe it (each commit by sha, its stages and
    architectures): a changed branch, base or check list changes it;
  - every file of the workspace the stage scripts read: all of WS_ROOT
    but .git, tests/, .ci/, series/ and the top-level notes (*.md), by
    path and content, so an edit anywhere in scripts/, checks/, cocci/,
    qemu/, fixups/ or the Makefile runs every job again; and the files of
    CHECKS_DIR and CONFIG_DIR where they name another directory;
  - the files of the job's own series' directories (SERIES_DIR/<name>):
    an edited patch or cover letter runs that series' jobs again, and the
    architecture jobs that have it, not the other series';
  - the environment the job gets, less the variables that say only where
    and when this run happens (VOLATILE);
  - the installed tools: the state of dpkg's database and of every PATH
    directory (size and modification time), and the host's /dev/kvm
    (whether this user may open it) and cores.

FRESH=1 (boot every commit again) and JOB_MEMO=0 take nothing from a memo;
a job's memo is written afresh each time it runs.  A memo that cannot be
read whole is named on standard error and ignored.

The memo keeps what its key read, a "read" line each (read_lines: the
environment's values as hashes, never as they are), so that a job that
runs for a changed input says which (why_not): its plan, the workspace's
files, its series' files, the variables of the environment that differ,
or the tool directory or file that changed.
"""

import dataclasses
import datetime
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cells  # noqa: E402
import keys  # noqa: E402

MEMO_DIR = "job-memo"
FORMAT = "job-memo 4"

# The variables that name a directory of the workspace's inputs elsewhere
# than its own (lib.sh's defaults are under WS_ROOT): their files are hashed
# wherever they are (workspace_digest), their paths are not.
CODE_DIRS = ("SERIES_DIR", "CHECKS_DIR", "CONFIG_DIR")

# Where and when this run happens, never what it computes: its start, its
# lock, the checkout's path and those of CODE_DIRS (their files are hashed
# instead: workspace_digest), the series it selected (the job's own are in
# its plan lines), make's recursion and the user's terminal and session;
# and what a make inside another make (make test's end-to-end run) gets
# and no job reads: WS_TEST_SUITE, for deps.sh alone (the packages the
# suites need), and SEND_IGNORED, for send.sh alone (the Makefile sets it
# when SEND comes from the environment), so that a make and make test's
# take each other's memos.
VOLATILE = frozenset((
    "WS_START", "WS_LOCK_HELD", "WS_ROOT", *CODE_DIRS, "SERIES", "WS_TABLE_AT_END",
    "WS_TEST_SUITE", "SEND_IGNORED",
    "MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "MAKE_TERMOUT", "MAKE_TERMERR",
    "SHLVL", "PWD", "OLDPWD", "_", "TERM", "COLORTERM", "COLUMNS", "LINES",
    "SSH_CLIENT", "SSH_CONNECTION", "SSH_TTY", "SSH_AUTH_SOCK", "TMUX", "TMUX_PANE",
    "STY", "WINDOW", "DISPLAY", "WAYLAND_DISPLAY", "XDG_SESSION_ID", "XDG_RUNTIME_DIR",
    "DBUS_SESSION_BUS_ADDRESS", "LS_COLORS", "INVOCATION_ID", "JOURNAL_STREAM", "MAIL",
))

# What of WS_ROOT no stage script reads.
NOT_READ = (".git", "tests", ".ci", "__pycache__")


def memo_dir(report, env=None):
    """WORKDIR/job-memo (REPORT's parent when WORKDIR is not set)."""
    env = os.environ if env is None else env
    workdir = env.get("WORKDIR") or os.path.dirname(os.path.abspath(report))
    return os.path.join(workdir, MEMO_DIR)


def memo_path(report, kind, who, env=None):
    return os.path.join(memo_dir(report, env), f"{kind}@{who}")


def enabled(env=None):
    env = os.environ if env is None else env
    return env.get("JOB_MEMO", "1") != "0" and env.get("FRESH", "0") != "1"


def workspace_files(root, skip_top=()):
    """(path relative to ROOT, content) of every file a stage may read, in
    a stable order; SKIP_TOP: directories of ROOT itself left out."""
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        rel = os.path.relpath(dirpath, root)
        dirnames[:] = sorted(d for d in dirnames
                             if d not in NOT_READ and not (rel == "." and d in skip_top))
        for name in sorted(filenames):
            # A git worktree's .git is a file naming its repository.
            if name in NOT_READ or (rel == "." and name.endswith(".md")):
                continue
            path = os.path.join(dirpath, name)
            if os.path.islink(path):
                content = ("-> " + os.readlink(path)).encode()
            else:
                with open(path, "rb") as f:
                    content = f.read()
            out.append((os.path.normpath(os.path.join(rel, name)), content))
    return out


def digest(trees):
    """The SHA-256 of TREES ((name, directory, skip_top) each), file by
    file, by path and content."""
    k = keys.Key()
    for name, tree, skip in trees:
        for rel, content in workspace_files(tree, skip):
            k.add(f"{name}\0{rel}\0{len(content)}\0".encode("utf-8", "surrogateescape"))
            k.add(content)
    return k.hex()


def series_dir(root, env):
    return env.get("SERIES_DIR") or os.path.join(root, "series")


def workspace_digest(root, env=None):
    """The files of ROOT but its series/ (each job takes its own series'
    files: series_digest), and of each CODE_DIRS directory ENV names
    outside it."""
    env = os.environ if env is None else env
    trees = [("", root, ("series",))]
    real_root = os.path.realpath(root)
    for var in CODE_DIRS:
        d = env.get(var)
        if var != "SERIES_DIR" and d and not (os.path.realpath(d) + "/").startswith(real_root + "/"):
            trees.append((var, d, ()))
    return digest(trees)


def series_digest(root, names, env=None):
    """The files of the series directories NAMES (SERIES_DIR's, or ROOT's
    series/): a job's series' patches, cover letter, base; an edit to
    another series' does not run it again."""
    env = os.environ if env is None else env
    top = series_dir(root, env)
    return digest([(name, os.path.join(top, name), ()) for name in names])


def stat_line(path):
    """PATH's size and modification time, or "absent"."""
    try:
        st = os.stat(path)
    except OSError:
        return f"{path} absent"
    return f"{path} {st.st_size} {st.st_mtime_ns}"


def host_lines(env):
    """The installed tools and the host, as lines: dpkg's database, each
    PATH directory, /dev/kvm and the cores."""
    lines = [stat_line("/var/lib/dpkg/status")]
    for d in env.get("PATH", "").split(":"):
        if d:
            lines.append(stat_line(d))
    kvm = os.access("/dev/kvm", os.R_OK | os.W_OK)
    lines.append(f"kvm {int(kvm)}")
    lines.append(f"cores {os.cpu_count()}")
    return lines


def env_lines(env):
    return [f"{k}={v}" for k, v in sorted(env.items()) if k not in VOLATILE]


def inputs_lines(kind, who, series, planned, workspace, env):
    """What the job's inputs key (the module's docstring) is made from, a
    line each: PLANNED, the cells.Planned it owes; WORKSPACE,
    workspace_digest of WS_ROOT and series_digest of its SERIES; ENV, the
    environment it runs in."""
    lines = [FORMAT, f"job {kind} {who} {','.join(series)}"]
    lines += [f"plan {p.series} {p.index} {p.commit} {p.stage} {p.arch} {p.subject}" for p in planned]
    lines.append(f"workspace {workspace}")
    lines += [f"env {line}" for line in env_lines(env)]
    lines += [f"host {line}" for line in host_lines(env)]
    return lines


def key_of(lines):
    """The inputs key of inputs_lines' LINES."""
    k = keys.Key()
    for line in lines:
        k.line(line)
    return k.hex()


def read_lines(lines):
    """inputs_lines' LINES as a memo keeps them: an environment line's
    value as a hash of it (a variable may hold a secret), "env NAME #HASH"."""
    out = []
    for line in lines:
        if line.startswith("env ") and "=" in line:
            name, value = line[4:].split("=", 1)
            k = keys.Key()
            k.line(value)
            line = f"env {name} #{k.hex(16)}"
        out.append(line)
    return out


def host_item(line):
    """What a host line (host_lines) is of: the path of a stat_line, or
    "kvm" or "cores"."""
    if line.startswith(("kvm ", "cores ")):
        return line.split()[0]
    return line[:-len(" absent")] if line.endswith(" absent") else line.rsplit(" ", 2)[0]


def why_not(memo, lines):
    """Why MEMO does not answer for a job whose inputs are LINES
    (inputs_lines): the first kind of input that differs, as a phrase; ""
    when the memo kept none (an older one) or none differs."""
    if memo is None or not memo.read:
        return ""
    was, now = memo.read, read_lines(lines)
    if was == now:
        return ""

    def of(prefix, text):
        return [line[len(prefix):] for line in text if line.startswith(prefix)]

    if of("job ", was) != of("job ", now) or of("plan ", was) != of("plan ", now):
        return "its plan changed (the commits or the cells it owes)"
    ws_was, ws_now = (of("workspace ", t)[0].split() if of("workspace ", t) else [] for t in (was, now))
    if ws_was[:1] != ws_now[:1]:
        return "the workspace's files changed (scripts/, checks/, cocci/, qemu/, fixups/ or the Makefile)"
    if ws_was != ws_now:
        return "its series' files changed"
    env_was = dict(line.split(" ", 1) for line in of("env ", was))
    env_now = dict(line.split(" ", 1) for line in of("env ", now))
    if env_was != env_now:
        names = sorted(set(env_was) | set(env_now))
        said = [f"{n} {'is new' if n not in env_was else 'is gone' if n not in env_now else 'changed'}"
                for n in names if env_was.get(n) != env_now.get(n)]
        more = f" and {len(said) - 3} more" if len(said) > 3 else ""
        return "the environment differs: " + ", ".join(said[:3]) + more
    host_was, host_now = ({host_item(line): line for line in of("host ", t)} for t in (was, now))
    changed = [k for k in sorted(set(host_was) | set(host_now)) if host_was.get(k) != host_now.get(k)]
    if changed:
        what = ", ".join(changed[:3]) + (f" and {len(changed) - 3} more" if len(changed) > 3 else "")
        return f"the installed tools or the host changed: {what}"
    return "its inputs changed"


def log_there(cell):
    """Whether CELL's log (a file or a directory) is there, or it names
    none.  Not its time or content: a stage that takes a cell from its
    cache may write the same logs again, and a commit's boot directory is
    shared by the series that have it.  What recomputes a cell outside
    make's jobs forgets every memo instead (lib.sh's record)."""
    return not cell.log or os.path.lexists(cell.log)


@dataclasses.dataclass
class Memo:
    key: str
    when: str
    cells: list         # cells.Cell
    read: list = dataclasses.field(default_factory=list)   # read_lines of its key

    def text(self):
        """Its lines: the format, key and time, what the key read ("read
        LINE", read_lines), then each cell's row and, after it, what it
        read (cells.Cell.inputs), a line each."""
        lines = [FORMAT, f"key {self.key}", f"when {self.when}"]
        lines.extend(f"read {line}" for line in self.read)
        for c in self.cells:
            lines.append(f"cell {c.row()}")
            lines.extend(f"inputs {line}" for line in c.inputs)
        return "".join(f"{line}\n" for line in lines)

    @classmethod
    def parse(cls, text):
        """A memo from its text; raises cells.Damaged naming the line."""
        lines = text.split("\n")
        if lines[-1] != "":
            raise cells.Damaged("it does not end with a newline (cut short)")
        lines = lines[:-1]
        if len(lines) < 3 or lines[0] != FORMAT:
            raise cells.Damaged(f"line 1: not '{FORMAT}'")
        if not lines[1].startswith("key ") or not lines[2].startswith("when "):
            raise cells.Damaged("lines 2-3: not its key and time")
        memo = cls(lines[1][4:], lines[2][5:], [])
        for n, line in enumerate(lines[3:], 4):
            if line.startswith("read ") and not memo.cells:
                memo.read.append(line[5:])
                continue
            if line.startswith("inputs ") and memo.cells:
                memo.cells[-1].inputs += (line[7:],)
                continue
            if not line.startswith("cell "):
                raise cells.Damaged(f"line {n}: not a cell")
            try:
                memo.cells.append(cells.Cell.parse(line[5:]))
            except cells.Damaged as e:
                raise cells.Damaged(f"line {n}: {e}") from None
        return memo


def load(path):
    """The memo at PATH, or None (none there, or damaged: named)."""
    try:
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
    except FileNotFoundError:
        return None
    except OSError as e:
        cells.warn(f"cannot read the job memo {path} ({e}): the job runs")
        return None
    if text.startswith("job-memo ") and not text.startswith(FORMAT + "\n"):
        return None     # an older workspace's: the job runs, and writes it anew
    try:
        return Memo.parse(text)
    except cells.Damaged as e:
        cells.warn(f"the job memo {path} is damaged ({e}): the job runs, and writes it again")
        return None


# What a stage's own cache gives back beside a pass and a warn: cross.sh
# keeps an untested cell (nothing compiled is deterministic), and its skips
# say the commit has no kernel code or the architecture is not covered.
# check.sh takes nothing else from its cache (a skip, a failure or an
# untested result may come from the machine), nor do the builds and boots.
ALSO_KEPT = {"cross": (cells.Status.SKIP, cells.Status.UNTESTED)}


def keepable(cell):
    """Whether a memo may give CELL back: only what its stage would itself
    take from its cache, so that the memo never answers what the stage
    would have asked again; and with its log there."""
    return log_there(cell) and (cell.status in (cells.Status.PASS, cells.Status.WARN)
                                or cell.status in ALSO_KEPT.get(cell.stage, ()))


def decided(report, planned_cells):
    """The stored cells that decide PLANNED_CELLS, or None when one of
    them is not decided or not keepable (such a job is not kept: the next
    run asks its stage script again)."""
    if not planned_cells:
        return None
    store = {}
    for c in cells.read_store(report):
        store.setdefault((c.series, c.index, c.stage), []).append(c)
    out = []
    for p in planned_cells:
        got = [c for c in store.get((p.series, p.index, p.stage), ()) if p.decided_by(c)]
        if not got or not all(keepable(c) for c in got):
            return None
        out.extend(c for c in got if c not in out)
    return out


def keep(path, lines, decided_cells):
    """The memo of a job that ended well: its key (key_of), what it was
    made from (LINES, inputs_lines) and its DECIDED_CELLS."""
    when = datetime.datetime.now().strftime("%Y-%m-%d %H:%M")
    memo = Memo(key_of(lines), when, list(decided_cells), read_lines(lines))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    cells.write_atomically(path, memo.text())


def forget(path):
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def usable(memo, key):
    """Whether MEMO was kept under KEY and every cell's log is still
    there."""
    if memo is None or memo.key != key or not memo.cells:
        return False
    return all(log_there(c) for c in memo.cells)


def cached(cell):
    """CELL as the memo gives it back: marked cached, its seconds and
    detail as the run that decided it recorded them (a stage's cached cell
    keeps the seconds of the run that computed it too, and says so in its
    detail where that stage does)."""
    return dataclasses.replace(cell, cached=True)


def store(report, memo):
    """MEMO's cells into the store of REPORT, as cached (cells.cell_path,
    written whole or not at all)."""
    for cell in memo.cells:
        c = cached(cell)
        path = cells.cell_path(report, c)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        inputs = cells.inputs_path(path)
        if c.inputs:
            cells.write_atomically(inputs, "".join(f"{line}\n" for line in c.inputs))
        else:
            forget(inputs)
        cells.write_atomically(path, c.row() + "\n")
