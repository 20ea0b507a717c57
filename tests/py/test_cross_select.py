# SPDX-License-Identifier: GPL-2.0
"""Golden tests of scripts/kbuild_select.py (which objects a configured
kernel builds) on the small tree in tests/fixtures/kbuild/, and of
cross_diag.py's "objects" (which object each message belongs to) on a
make -Otarget log in tests/fixtures/crossdiag/."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SELECT = ROOT / "scripts" / "kbuild_select.py"
DIAG = ROOT / "scripts" / "cross_diag.py"
KB = ROOT / "tests" / "fixtures" / "kbuild"
CD = ROOT / "tests" / "fixtures" / "crossdiag"


def run(*args, cwd=None):
    return subprocess.run([str(a) for a in args], check=True, cwd=cwd,
                          capture_output=True, text=True).stdout


@pytest.mark.parametrize("bits", ["64", "32"])
def test_select_matches_the_golden_verdicts(bits):
    out = run(SELECT, KB / "tree", KB / f"config-{bits}", KB / "objects")
    assert out == (KB / f"expected-{bits}").read_text()


def test_select_reads_each_object_once_and_keeps_the_order():
    out = run(SELECT, KB / "tree", KB / "config-64", KB / "objects")
    objs = [line.split("\t")[1] for line in out.splitlines()]
    assert objs == (KB / "objects").read_text().split()


def test_select_names_the_option_that_leaves_an_object_out():
    out = run(SELECT, KB / "tree", KB / "config-64", KB / "objects")
    bar = [l for l in out.splitlines() if "\tkernel/bar.o\t" in l]
    assert bar == ["drop\tkernel/bar.o\tkernel/Makefile: obj-$(CONFIG_BAR) += bar.o "
                   "(CONFIG_BAR is not set)"]


def test_select_without_arguments_prints_its_usage():
    res = subprocess.run([str(SELECT)], capture_output=True, text=True)
    assert res.returncode == 2
    assert "kbuild_select.py SRC CONFIG LIST" in res.stderr


def test_diag_objects_attributes_each_message_to_its_object():
    out = run(DIAG, "objects", "/w/src", CD / "otarget.log")
    assert out == (CD / "otarget.objects").read_text()


def test_diag_list_keeps_the_message_of_no_object():
    out = run(DIAG, "list", "/w/src", CD / "otarget.log")
    assert out.splitlines()[0] == ("warning\t<stdin>: #warning syscall clone3 "
                                   "not implemented [-Wcpp]")
    assert len(out.splitlines()) == 5


def test_diag_orphans_are_the_messages_of_no_object():
    out = run(DIAG, "orphans", "/w/src", CD / "otarget.log")
    assert out == ("warning\t<stdin>: #warning syscall clone3 not implemented "
                   "[-Wcpp]\n")


def test_diag_counts_the_assembler_objtool_and_modpost_as_the_compiler():
    out = run(DIAG, "list", "/w/src", CD / "tools.log")
    assert out.splitlines() == [
        "warning\tarch/x86/entry/entry_64.S: no instruction mnemonic suffix given",
        "error\tarch/x86/entry/entry_64.S: junk at end of line",
        "warning\tvmlinux.o: objtool: do_signal: call to foo() leaves .noinstr.text section",
        "warning\tmodpost: vmlinux: section mismatch in reference: foo (section: .text) -> bar (section: .init.text)",
    ]
    # The assembler's messages are the AS step's object's; the link's are
    # no object's.
    assert run(DIAG, "objects", "/w/src", CD / "tools.log") == "arch/x86/entry/entry_64.o\n"
