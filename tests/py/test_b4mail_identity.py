# SPDX-License-Identifier: GPL-2.0
"""scripts/b4mail.py undeliverable: which addresses cannot receive mail, as
the signoff check and make send SEND=1 ask it."""

import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TOOL = ROOT / "scripts" / "b4mail.py"

CASES = [
    ("walt@drummond.us", 0, ""),
    ("Ada.Author@Ada-Author.ORG", 0, ""),
    ("ada@example.org", 1,
     "ada@example.org is under example.org, a name reserved for examples (RFC 2606)"),
    ("x@lists.EXAMPLE.com.", 1,
     "x@lists.EXAMPLE.com. is under example.com, a name reserved for examples (RFC 2606)"),
    ("maintainers@users.noreply.a-seed-d520f337.example", 1,
     "maintainers@users.noreply.a-seed-d520f337.example is under .example, "
     "a name reserved so that it never receives mail (RFC 2606, RFC 6761)"),
    ("bench@workspace.invalid", 1,
     "bench@workspace.invalid is under .invalid, a name reserved so that it never "
     "receives mail (RFC 2606, RFC 6761)"),
    ("me@box.local", 1,
     "me@box.local is under .local, a name reserved so that it never receives mail "
     "(RFC 6762, multicast DNS)"),
    ("root@localhost", 1, "root@localhost has no domain that mail can reach (localhost)"),
    ("no-at-sign", 1, "no-at-sign is not an e-mail address"),
    # A domain that merely ends in the letters of a reserved one is not it.
    ("a@notexample.org", 0, ""),
]


@pytest.mark.parametrize("address,status,reason", CASES)
def test_undeliverable(address, status, reason):
    proc = subprocess.run([str(TOOL), "undeliverable", address], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout.strip(), proc.stderr) == (status, reason, "")
