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


def shell(script, *args):
    return subprocess.run(["bash", "-c", 'source "$1"; shift; ' + script, "key", str(ROOT / "scripts" / "keys.sh"),
                           *args], capture_output=True, text=True)


def test_key_from_hashes_its_declared_inputs_in_order(tmp_path):
    a = tmp_path / "a.txt"
    a.write_text("first file\n")
    b = tmp_path / "b b.txt"
    b.write_text("second, no newline")
    proc = shell('key_from 32 --text "x y" "" --files "$1" "$2" --run printf "%s|" "--" "z" --text last',
                 str(a), str(b))
    assert proc.returncode == 0, proc.stderr
    k = keys.Key()
    k.line("x y")
    k.line("")
    for f in (a, b):
        k.line(keys.hashlib.sha256(f.read_bytes()).hexdigest())
    k.add(b"--|z|")
    k.line("last")
    assert proc.stdout == k.hex(32) + "\n"
    # Each kind's words end at the next kind; a kind with no words adds
    # nothing.
    empty = shell('key_from 16 --text --files --text a')
    assert empty.stdout == shell('key_from 16 --text a').stdout == shell_key("a\n", 16) + "\n"


def test_key_from_fails_whole_when_an_input_fails(tmp_path):
    # A key made from part of its inputs would take another result's
    # cache entry: key_from prints nothing and names the input at fault.
    cases = [
        (['key_from 16 --text a --files "$1"', str(tmp_path / "missing")], "cannot read " + str(tmp_path / "missing")),
        (['key_from 16 --run false --text a'], "key_from: false failed"),
        (['key_from 16 --run'], "--run names no command"),
        (['key_from 16 stray --text a'], "'stray' is not --text, --files or --run"),
        (['key_from x --text a'], "'x' is not a length"),
    ]
    for (script, *args), message in cases:
        proc = shell(script, *args)
        assert proc.returncode != 0, script
        assert proc.stdout == "", script
        assert message in proc.stderr, (script, proc.stderr)


def test_key_from_writes_what_the_key_read_where_key_inputs_says(tmp_path):
    # KEY_INPUTS: the declared inputs as a reader sees them (the files by
    # content, the commands by name: their output is in the key), then the
    # key; a cell keeps it as what its result read.
    a = tmp_path / "a.txt"
    a.write_text("first file\n")
    out = tmp_path / "inputs"
    proc = shell('KEY_INPUTS="$2" key_from 16 --text "x y" --files "$1" --run printf "%s" z --text "$3" ""',
                 str(a), str(out), "w1\nw2")
    assert proc.returncode == 0, proc.stderr
    sha = keys.hashlib.sha256(a.read_bytes()).hexdigest()
    # A word of several lines is a "text" line each.
    assert out.read_text() == f"text x y\nfile {a} {sha}\nrun printf %s z\ntext w1\ntext w2\ntext \nkey {proc.stdout}"
    # Where it cannot be written, no key is made.
    proc = shell('KEY_INPUTS="$1/no/such/dir/inputs" key_from 16 --text a', str(tmp_path))
    assert proc.returncode != 0 and proc.stdout == ""
    assert "cannot write what the key read to" in proc.stderr


def test_tree_sums_of_an_empty_directory_is_empty_and_reads_no_input(tmp_path):
    # It used to run sha256sum with no file, which hashed standard input
    # (and waited on a terminal).
    (tmp_path / "empty").mkdir()
    proc = subprocess.run(["bash", "-c", 'source "$1" && tree_sums_of "$2"', "key",
                           str(ROOT / "scripts" / "keys.sh"), str(tmp_path / "empty")],
                          input="not a file\n", capture_output=True, text=True, timeout=10)
    assert proc.returncode == 0 and proc.stdout == ""
    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    (d / "b").write_text("b\n")
    (d / "sub" / "a c").write_text("a\n")
    proc = shell('tree_sums_of "$1"', str(d))
    h = {name: keys.hashlib.sha256(text.encode()).hexdigest() for name, text in (("b", "b\n"), ("a", "a\n"))}
    assert proc.stdout == f"{h['b']}  ./b\n{h['a']}  ./sub/a c\n"


def test_every_shell_key_is_made_by_key_from():
    # Issue 29: no stage composes a stream for the hash itself; each names
    # its inputs to key_from, and key_of is key_from's alone.
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path, n, line in code_lines(lambda p: p.name == "keys.sh" or p.suffix == ".py")
             if re.search(r"\bkey_of\b", line.split("#", 1)[0])]
    assert not found, "keys made outside key_from:\n" + "\n".join(found)


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


def code_lines(skip):
    """(path, line number, line) of every text file of code_files() but
    those SKIP(path) is true for."""
    for path in code_files():
        if skip(path):
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for n, line in enumerate(text.splitlines(), 1):
            yield path, n, line


def test_no_code_but_keys_sh_and_keys_py_computes_a_hash():
    # Issue 29: every cache key is made by one helper per language.
    # Comments may name the tools; code may not call them.
    found = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
             for path, n, line in code_lines(lambda p: p.name in ("keys.sh", "keys.py"))
             if HASHING.search(line.split("#", 1)[0] if not line.lstrip().startswith(("//", "/*", "*")) else "")]
    assert not found, "hashes made outside scripts/keys.sh and scripts/keys.py:\n" + "\n".join(found)
