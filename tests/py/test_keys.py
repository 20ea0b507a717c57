# SPDX-License-Identifier: GPL-2.0
"""Tests of scripts/keys.py and scripts/keys.sh: the one place each
language of the workspace computes a hash, and the two make the same key
of the same input."""

import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.dont_write_bytecode = True
sys.path.insert(0, str(ROOT / "scripts"))
import keys  # noqa: E402

HASHING = re.compile(r"\b(sha1sum|sha224sum|sha256sum|sha384sum|sha512sum|md5sum|b2sum|cksum|hashlib|"
                     r"git hash-object)\b")


def shell_key(text, length):
    proc = subprocess.run(["bash", "-c", 'source "$1" && key_of "$2"', "key", str(ROOT / "scripts" / "keys.sh"),
                           str(length)], input=text, capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def test_key_of_and_keys_py_agree_on_lines_and_lengths():
    k = keys.Key()
    for line in ("job build nsig", "plan nsig 3 abc build", "caf\u00e9"):
        k.line(line)
    text = "job build nsig\nplan nsig 3 abc build\ncaf\u00e9\n"
    assert k.hex() == shell_key(text, 64)
    assert k.hex(16) == shell_key(text, 16)
    b = keys.Key()
    b.add(b"\0\xff bytes")
    assert len(b.hex()) == 64 and b.hex(32) == b.hex()[:32]


def code_files():
    """The workspace's code that runs in a make: scripts/, checks/, cocci/,
    qemu/ and the Makefile."""
    for top in ("scripts", "checks", "cocci", "qemu"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                yield path
    yield ROOT / "Makefile"


def test_no_code_but_keys_sh_and_keys_py_computes_a_hash():
    # Issue 29: every cache key is made by one helper per language.
    # Comments may name the tools; code may not call them.
    found = []
    for path in code_files():
        if path.name in ("keys.sh", "keys.py"):
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            code = line.split("#", 1)[0] if not line.lstrip().startswith(("//", "/*", "*")) else ""
            if HASHING.search(code):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert not found, "hashes made outside scripts/keys.sh and scripts/keys.py:\n" + "\n".join(found)
