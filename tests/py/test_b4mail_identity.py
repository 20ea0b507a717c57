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
    # git's automatic identity on many hosts, and names of one network only.
    ("root@localhost.localdomain", 1,
     "root@localhost.localdomain is under .localdomain, a host's own name (git's automatic "
     "identity), not in the DNS: no mail from outside reaches it"),
    ("me@nas.home.arpa", 1,
     "me@nas.home.arpa is under home.arpa, a home network (RFC 8375): no mail from outside reaches it"),
    ("me@abc.onion", 1, "me@abc.onion is under .onion, Tor only (RFC 7686): no mail from outside reaches it"),
    ("ci@build.internal", 1,
     "ci@build.internal is under .internal, ICANN's private-use top-level domain: no mail from outside reaches it"),
    ("me@router.lan", 1,
     "me@router.lan is under .lan, a local network name, not in the DNS: no mail from outside reaches it"),
    # Not ASCII: b4 would die on it; the ASCII spelling of the domain.
    ("ada@bücher.de", 1,
     "ada@bücher.de is not all ASCII, which git send-email and b4 cannot put in a header; "
     "write its domain as xn--bcher-kva.de"),
]


@pytest.mark.parametrize("address,status,reason", CASES)
def test_undeliverable(address, status, reason):
    proc = subprocess.run([str(TOOL), "undeliverable", address], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout.strip(), proc.stderr) == (status, reason, "")
