# SPDX-License-Identifier: GPL-2.0
"""Golden tests of scripts/cross_diag.py (the compiler messages make
cross-compile compares, and which object each belongs to) on make -Otarget
logs in tests/fixtures/crossdiag/."""

import pathlib
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIAG = ROOT / "scripts" / "cross_diag.py"
CD = ROOT / "tests" / "fixtures" / "crossdiag"


def run(*args, cwd=None):
    return subprocess.run([str(a) for a in args], check=True, cwd=cwd,
                          capture_output=True, text=True).stdout


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
