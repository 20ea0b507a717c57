# SPDX-License-Identifier: GPL-2.0
"""Golden tests of qemu/ktap-verdict (qemu/ktap_verdict.py) on the KTAP and
console fixtures in tests/fixtures/ktap/: exit code, stdout and stderr,
byte for byte, against tests/fixtures/ktap/golden/."""

import pathlib
import shlex
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "qemu" / "ktap-verdict"
FIX = ROOT / "tests" / "fixtures" / "ktap"
GOLDEN = FIX / "golden"

VSTATUS_SKIP = "vstatus/VSTATUS not in this kernel's uapi headers (*)"

# name of the golden file, arguments (file names relative to FIX)
CASES = [
    ("pass-nested", ["pass.ktap"]),
    ("pass-kunit-style-nesting", ["kunit-nested.ktap"]),
    ("pass-crlf", ["crlf.ktap"]),
    ("pass-whole-test-skip", ["whole-skip.ktap"]),
    ("nested-not-ok", ["notok.ktap"]),
    ("top-level-not-ok", ["timeout.ktap"]),
    ("bail-out", ["bailout.ktap"]),
    ("malformed-garbage", ["garbage.ktap"]),
    ("malformed-nested-plan-mismatch", ["kunit-nested-bad.ktap"]),
    ("malformed-odd-indent", ["odd-indent.ktap"]),
    ("malformed-missing-version", ["missing-version.ktap"]),
    ("malformed-non-sequential", ["non-sequential.ktap"]),
    ("malformed-bare-ok", ["bare-ok.ktap"]),
    ("bytes-clipped", ["utf8-clip.ktap"]),
    ("empty", ["empty.ktap"]),
    ("empty-run", ["no-tests.ktap"]),
    ("only-kernel-taint", ["only-taint.ktap"]),
    ("missing-done", ["no-done.ktap"]),
    ("truncated", ["truncated.ktap"]),
    ("console-clean", ["pass.ktap", "console-clean-debug.log"]),
    ("console-splat-over-not-ok", ["notok.ktap", "console-bug.log"]),
    ("console-splat-over-kunit", ["pass.ktap", "console-kunit-fail.log"]),
    ("console-lockdep", ["pass.ktap", "console-lockdep.log"]),
    ("console-rcu-stall", ["pass.ktap", "console-rcu-stall.log"]),
    ("console-slub", ["pass.ktap", "console-slub.log"]),
    ("console-timeout", ["pass.ktap", "console-timeout.log"]),
    ("kunit-counted", ["pass.ktap", "console-kunit.log"]),
    ("kunit-none", ["pass.ktap", "console-kunit-none.log"]),
    ("kunit-expected-none", ["--kunit", "pass.ktap", "console-kunit-none.log"]),
    ("kunit-not-added-to-a-failure", ["notok.ktap", "console-kunit.log"]),
    ("kunit-suite-ok", ["--kunit-suite", "signal_sigset", "pass.ktap", "console-kunit.log"]),
    ("kunit-suite-did-not-run", ["--kunit-suite", "signal_sigset", "--kunit-suite", "signal_nsig",
                                 "pass.ktap", "console-kunit.log"]),
    ("kunit-suite-skipped", ["--kunit-suite", "signal_next", "pass.ktap", "console-kunit-skip.log"]),
    ("allow-skip-all-match", ["--allow-skip", VSTATUS_SKIP, "skip.ktap"]),
    ("allow-skip-nested-unexpected", ["--allow-skip", "vstatus/NOKERNINFO not in*", "skip.ktap"]),
    ("allow-skip-bracket-is-literal", ["--allow-skip", "vstatus/VSTATUS not in this kernel?s uapi headers [(]*",
                                       "skip.ktap"]),
    ("allow-skip-whole-test-unexpected", ["--allow-skip", "nsig/*", "whole-skip.ktap"]),
    ("allow-skip-whole-test-reason", ["--allow-skip", "selftest-tty-tty_vstatus/no VSTATUS*", "whole-skip.ktap"]),
    ("allow-skip-kunit-unexpected", ["--allow-skip", "nothing", "pass.ktap", "console-kunit.log"]),
    ("allow-skip-kunit-key", ["--allow-skip", "kunit/signal_sigset/next_*", "pass.ktap", "console-kunit.log"]),
    ("allow-skips-file", ["--allow-skips-file", "allowed-vstatus", "skip.ktap"]),
    ("allow-skips-file-empty", ["--allow-skips-file", "empty.ktap", "skip.ktap"]),
    ("allow-skips-file-missing", ["--allow-skips-file", "no-such-file", "skip.ktap"]),
    ("ktap-file-missing", ["no-such-file"]),
    ("usage-no-file", []),
    ("usage-kunit-without-console", ["--kunit-suite", "signal_sigset", "pass.ktap"]),
    ("usage-unknown-option", ["--verbose", "pass.ktap"]),
]


def run(args):
    return subprocess.run([str(TOOL), *args], cwd=FIX, capture_output=True)


def render(args, proc):
    """What a golden file holds: the command, its exit code, stdout and
    stderr."""
    head = f"$ {shlex.join(['ktap-verdict', *args])}\nexit {proc.returncode}\n--- stdout\n"
    return head.encode() + proc.stdout + b"--- stderr\n" + proc.stderr


@pytest.mark.parametrize("name,args", CASES, ids=[name for name, _ in CASES])
def test_golden(name, args):
    assert render(args, run(args)).decode("latin-1") == \
        (GOLDEN / f"{name}.out").read_bytes().decode("latin-1")


def test_usage_error_prints_the_usage_line_and_exits_2():
    proc = run(["--allow-skip"])
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr == (b"usage: ktap-verdict [--kunit] [--kunit-suite NAME]... [--allow-skip PATTERN]... "
                           b"[--allow-skips-file FILE] KTAP_FILE [CONSOLE_FILE]\n")


def test_the_command_is_the_python_program():
    # scripts/boot.sh hashes qemu/ktap-verdict into its boot cache key.
    assert TOOL.samefile(ROOT / "qemu" / "ktap_verdict.py")


def test_skip_globs_know_only_star_and_question_mark(tmp_path):
    ktap = tmp_path / "t.ktap"
    ktap.write_text("KTAP version 1\n1..1\n  TAP version 13\n  1..1\n  ok 1 sig[n]al x # SKIP\n"
                    "ok 1 t\n# ws-init: done\n")
    for pattern, status in (("t/sig[n]al ?", 0), ("t/signal ?", 1), ("t/sig?n?al*", 0), ("t/*x?", 1)):
        assert run(["--allow-skip", pattern, str(ktap)]).returncode == status, pattern


def test_a_skip_reason_in_the_plan_names_a_whole_test_skip(tmp_path):
    ktap = tmp_path / "t.ktap"
    ktap.write_text("KTAP version 1\n1..2\n  TAP version 13\n  1..0 # SKIP no uapi\nok 1 t # SKIP\n"
                    "  TAP version 13\n  1..1\n  ok 1 x\nok 2 u\n# ws-init: done\n")
    proc = run(["--allow-skip", "t/no*", str(ktap)])
    assert (proc.returncode, proc.stdout) == (0, b"pass: 1 passed, 1 skipped\n")
    proc = run(["--allow-skip", "t/other", str(ktap)])
    assert proc.stdout == b"fail: unexpected skip: ok 1 t # SKIP (1..0 # SKIP no uapi)\n"


def test_a_top_level_plan_without_results_counts_none(tmp_path):
    ktap = tmp_path / "t.ktap"
    ktap.write_text("KTAP version 1\n1..1\n# ws-init: done\n")
    assert run([str(ktap)]).stdout == \
        b"fail: malformed KTAP: top level: plan count mismatch (planned 1, got 0)\n"


def run_result(*args):
    return subprocess.run([str(TOOL), "--result", *map(str, args)], capture_output=True)


def test_result_mode_says_how_one_test_ended(tmp_path):
    log = tmp_path / "ktap.log"
    log.write_bytes(b"KTAP version 1\n1..3\n  ok 1 nsig_info: a case\n"
                    b"  not ok 2 nsig_info: another\nok 1 nsig_info\n"
                    b"ok 2 other # SKIP reason\nok 3 nsig_infos\n")
    assert run_result("nsig_info", log).stdout == b"fail\n"
    assert run_result("other", log).stdout == b"ok\n"
    assert run_result("nsig_infos", log).stdout == b"ok\n"
    res = run_result("absent", log)
    assert (res.returncode, res.stdout) == (0, b"")


def test_result_mode_usage_and_unreadable_file(tmp_path):
    assert run_result().returncode == 2
    res = run_result("t", tmp_path / "none.log")
    assert res.returncode == 1
    assert b"none.log" in res.stderr
