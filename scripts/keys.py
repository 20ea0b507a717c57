#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""keys.py: how the Python code of the workspace makes a cache key, as
scripts/keys.sh's key_from does for its shell scripts: the SHA-256, in hex,
of what the cached result is a function of, fed in as bytes or as lines.
scripts/jobmemo.py's job memos are its users; nothing else in scripts/
computes a hash.
"""

import hashlib


class Key:
    """A key being made: add() bytes, line() a line of text (UTF-8, with
    the bytes a file name may carry kept as they are), then hex()."""

    def __init__(self):
        self._h = hashlib.sha256()

    def add(self, data):
        self._h.update(data)

    def line(self, text):
        self._h.update(text.encode("utf-8", "surrogateescape") + b"\n")

    def hex(self, length=64):
        """The first LENGTH hex digits (key_from LEN)."""
        return self._h.hexdigest()[:length]
