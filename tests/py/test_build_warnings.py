# SPDX-License-Identifier: GPL-2.0
"""Golden tests of scripts/build_warnings.py on the build logs in
tests/fixtures/warnings/: a full build, then an incremental one."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "build_warnings.py"
FIX = ROOT / "tests" / "fixtures" / "warnings"


def run(*args):
    return subprocess.run([str(TOOL), *map(str, args)], check=True,
                          capture_output=True, text=True).stdout


@pytest.fixture
def base_state(tmp_path):
    path = tmp_path / "base.state"
    path.write_text(run("state", "/w/src", FIX / "base.log"))
    return path


def test_full_build_state_keeps_every_warning_line(base_state):
    assert base_state.read_text() == (FIX / "base.state").read_text()


def test_incremental_build_replaces_the_units_it_compiled(base_state, tmp_path):
    step = tmp_path / "step.state"
    step.write_text(run("state", "--from", base_state, "/w/src", FIX / "step.log"))
    lines = step.read_text().splitlines()
    # n_tty.c was compiled again without its warning; objtool's warning on
    # vmlinux.o was not printed again when vmlinux.o was linked again.
    assert not any("packed" in l for l in lines)
    assert not any("objtool" in l for l in lines)
    assert sum("unused variable" in l for l in lines) == 2
    assert run("new", base_state, step) == (FIX / "step.new").read_text()


def test_a_warning_fixed_and_brought_back_is_new(base_state, tmp_path):
    empty = tmp_path / "empty.state"
    empty.write_text("")
    assert "unused variable" in run("new", empty, base_state)
    assert run("new", base_state, base_state) == ""


def test_kconfig_warnings_are_replaced_when_the_build_configures_again(tmp_path):
    def log(name, config_line):
        path = tmp_path / name
        path.write_text("# configuration written to .config\n"
                        f".config:{config_line}:warning: override: SLUB changes choice state\n"
                        "# configuration written to .config\n")
        return path
    first = tmp_path / "first.state"
    first.write_text(run("state", "/w/src", log("first.log", 1290)))
    assert first.read_text() == "(config)\t.config: warning: override: SLUB changes choice state\n"
    # Configured again, with two more lines in the .config: the same warning.
    second = tmp_path / "second.state"
    second.write_text(run("state", "--from", first, "/w/src", log("second.log", 1292)))
    assert second.read_text() == first.read_text()
    assert run("new", first, second) == ""
    # A build that does not configure keeps them.
    plain = tmp_path / "plain.log"
    plain.write_text("  CC      kernel/signal.o\n")
    third = run("state", "--from", second, "/w/src", plain)
    assert third == first.read_text()


def test_count(base_state):
    assert run("count", base_state).strip() == "5"


def test_usage_error_exits_2():
    proc = subprocess.run([str(TOOL), "bogus"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "build_warnings.py state" in proc.stderr


def test_logs_of_the_old_worktree_and_of_a_kernel_lines_are_one_state(base_state, tmp_path):
    """The builds moved from one worktree (src/) to one per kernel line
    (src-6.12/, lib.sh's line_dir): a base built in the first and a commit
    built in the second are compared path for path."""
    moved = tmp_path / "step.log"
    moved.write_text((FIX / "step.log").read_text().replace("/w/src/", "/w/src-6.12/")
                     .replace("../src/", "../src-6.12/"))
    step = tmp_path / "step.state"
    step.write_text(run("state", "--from", base_state, "/w/src", moved))
    assert "src-6.12" not in step.read_text()
    assert run("new", base_state, step) == (FIX / "step.new").read_text()
