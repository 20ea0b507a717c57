#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""kbuild_select.py: which objects a configured kernel builds, read from
kbuild's Makefiles (scripts/cross.sh).

  kbuild_select.py SRC CONFIG LIST
        For each object of LIST (a path under SRC such as kernel/signal.o,
        one a line), one line: "keep<TAB>OBJ", or "drop<TAB>OBJ<TAB>why"
        when the Makefiles leave it out of the build that CONFIG (a
        .config) describes.

The object's own directory is read first (its Kbuild, else its Makefile),
then each parent directory for the subdirectory ("obj-$(CONFIG_KVM) +=
kvm/"), up to the top-level directory; the top-level Makefile is not
read.  A line counts when its enclosing ifeq/ifneq/ifdef/ifndef on
CONFIG_ options hold; $(CONFIG_*) and $(BITS) (64 with CONFIG_64BIT) are
expanded.  An object reached only through a composite ("foo-y += bar.o")
counts when the composite does.  What cannot be decided (a condition on
another variable, an object no line names, as when a variable makes its
name) counts as built: the compiler decides, except that a $(BITS) word
that names it only for the other word size leaves it out.
Three exceptions drop an object: a directory below the top level with no
Makefile (its objects are built through another directory's, as
virt/kvm/ is through arch/*/kvm/), arch/*/boot/ (the boot image's own rules, not kbuild's
single-object targets), and asm-offsets.o and kernel/bounds.o (the
top-level Kbuild compiles their .c to assembly, in prepare, for the
generated offsets headers; assembled as objects, some architectures'
assemblers refuse the markers in them: powerpc's "instruction address is
not a multiple of 4").
"""

import os
import re
import sys

VAR_RE = re.compile(r"\$\(([A-Za-z0-9_]+)\)")
COND_RE = re.compile(r"^(ifeq|ifneq)\s*\(\s*([^,]*?)\s*,\s*([^)]*?)\s*\)\s*$")
DEF_RE = re.compile(r"^(ifdef|ifndef)\s+(\S+)\s*$")
ASSIGN_RE = re.compile(r"^([^\s=:+?]+)\s*(\+=|:=|\?=|=)\s*(.*)$")
# obj-y, lib-y, ...: lists of what the directory builds.
DIRECT_STEMS = {"obj", "lib", "extra", "always", "subdir", "head", "core",
                "libs", "drivers"}
# ccflags-y, targets, ...: lists of something else.
SKIP_STEMS = {"subdir-ccflags", "ccflags", "asflags", "ldflags", "targets",
              "hostprogs", "userprogs", "clean-files"}


def read_config(path):
    cfg = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = re.match(r"^(CONFIG_[A-Za-z0-9_]+)=(.*)$", line.rstrip("\n"))
            if m:
                cfg[m.group(1)] = m.group(2).strip('"')
    return cfg


class Kconf:
    def __init__(self, cfg):
        self.cfg = cfg
        self.bits = "64" if cfg.get("CONFIG_64BIT") == "y" else "32"

    def expand(self, text, bits=None):
        """TEXT with $(CONFIG_*) and $(BITS) replaced; other variables stay."""
        def sub(m):
            name = m.group(1)
            if name.startswith("CONFIG_"):
                return self.cfg.get(name, "")
            if name == "BITS":
                return bits or self.bits
            return m.group(0)
        return VAR_RE.sub(sub, text)


def logical_lines(path):
    """PATH's lines with continuations joined and comments taken out."""
    out, cur = [], ""
    with open(path, encoding="utf-8", errors="replace") as f:
        for raw in f:
            line = raw.rstrip("\n")
            if "#" in line:
                line = line.split("#", 1)[0]
            if line.endswith("\\"):
                cur += line[:-1] + " "
                continue
            out.append((cur + line).strip())
            cur = ""
    if cur:
        out.append(cur.strip())
    return out


class Makefile:
    """The assignments of one kbuild Makefile, each with whether the
    conditions around it hold (True, False or None: cannot tell)."""

    def __init__(self, path, kconf):
        self.path = path
        self.entries = []    # (lhs_raw, lhs, words_raw, state, conds)
        stack = []           # (state, description)
        for line in logical_lines(path):
            if not line:
                continue
            head = line.split(None, 1)[0]
            if head in ("ifeq", "ifneq", "ifdef", "ifndef"):
                stack.append(self.condition(line, kconf))
                continue
            if head == "else":
                state, desc = stack.pop() if stack else (None, "")
                rest = line[4:].strip()
                if rest:
                    # "else ifeq ...": another branch; not decided here
                    stack.append((None, rest))
                else:
                    stack.append((None if state is None else not state,
                                  "not " + desc))
                continue
            if head == "endif":
                if stack:
                    stack.pop()
                continue
            m = ASSIGN_RE.match(line)
            if not m:
                continue
            state = True
            for s, _ in stack:
                if s is False:
                    state = False
                elif s is None and state is True:
                    state = None
            conds = [d for _, d in stack if d]
            self.entries.append((m.group(1), kconf.expand(m.group(1)),
                                 m.group(3).split(), state, conds))

    @staticmethod
    def condition(line, kconf):
        m = DEF_RE.match(line)
        if m:
            name = m.group(2)
            if not name.startswith("CONFIG_"):
                return (None, line)
            on = bool(kconf.cfg.get(name))
            return (on if m.group(1) == "ifdef" else not on, line)
        m = COND_RE.match(line)
        if not m:
            return (None, line)
        a, b = kconf.expand(m.group(2)), kconf.expand(m.group(3))
        if "$(" in a or "$(" in b:
            return (None, line)
        same = a.strip() == b.strip()
        return (same if m.group(1) == "ifeq" else not same, line)


def word_matches(word, name):
    """Whether a Makefile word (after expansion) names NAME.  A word with
    another variable left in it names nothing here."""
    if word.startswith("$(obj)/"):
        word = word[len("$(obj)/"):]
    return word == name


def owner(lhs):
    """(kind, on, composite) of an assignment's left-hand side: kind is
    "direct" (obj-y, lib-y...), "comp" (foo-y: parts of foo.o), or None."""
    m = re.fullmatch(r"(.+?)-(y|m|objs|n|)", lhs)
    if not m:
        return (None, False, None) if "$(" not in lhs else ("direct", None, None)
    stem, suffix = m.group(1), m.group(2)
    on = suffix in ("y", "m", "objs")
    if "$(" in stem:
        return ("direct", None, None)
    if stem in DIRECT_STEMS:
        return ("direct", on, None)
    if stem in SKIP_STEMS or "FLAGS" in stem:
        return (None, False, None)
    return ("comp", on, stem + ".o")


class Tree:
    def __init__(self, src, kconf):
        self.src = src
        self.kconf = kconf
        self.cache = {}

    def makefile(self, d):
        if d not in self.cache:
            mk = None
            for base in ("Kbuild", "Makefile"):
                p = os.path.join(self.src, d, base)
                if os.path.isfile(p):
                    mk = Makefile(p, self.kconf)
                    break
            self.cache[d] = mk
        return self.cache[d]

    def other_bits(self, mk, name):
        """Whether a $(BITS) word names NAME only for the other word size."""
        other = "32" if self.kconf.bits == "64" else "64"
        for lhs_raw, _, words, _, _ in mk.entries:
            for w in words:
                if "$(BITS)" not in w:
                    continue
                if (word_matches(self.kconf.expand(w, other), name) and
                        not word_matches(self.kconf.expand(w), name)):
                    return True
        return False

    def values(self, text):
        """" (CONFIG_A is not set, CONFIG_B=m)" for the options TEXT names."""
        names = dict.fromkeys(re.findall(r"CONFIG_[A-Za-z0-9_]+", text))
        said = [f"{n}={self.kconf.cfg[n]}" if self.kconf.cfg.get(n)
                else f"{n} is not set" for n in names]
        return f" ({', '.join(said)})" if said else ""

    def built_in(self, d, name, depth=0):
        """(built, why) of NAME (an object or "sub/") in directory D."""
        mk = self.makefile(d)
        rel = os.path.relpath(mk.path, self.src)
        hits, why = [], []
        for lhs_raw, lhs, words, state, conds in mk.entries:
            if not any(word_matches(self.kconf.expand(w), name) for w in words):
                continue
            kind, on, comp = owner(lhs)
            if kind is None:
                continue
            hits.append(lhs_raw)
            if state is False or on is False:
                why.append(" and ".join(conds + [lhs_raw + " += " + name]) +
                           self.values(" ".join(conds + [lhs_raw])))
                continue
            if kind == "direct":
                return (True, "")
            if comp == name or depth > 8:
                return (True, "")
            ok, _ = self.built_in(d, comp, depth + 1)
            if ok:
                return (True, "")
            why.append(f"{lhs_raw} += {name}, and {comp} is not built")
        if not hits:
            if self.other_bits(mk, name):
                return (False, f"{rel} builds it only for the other word size "
                               f"($(BITS) is {self.kconf.bits})")
            return (True, "")
        return (False, f"{rel}: " + "; ".join(dict.fromkeys(why)))

    def select(self, obj):
        """(keep, why) for OBJ, a path relative to the tree."""
        parts = obj.split("/")
        if parts[-1] == "asm-offsets.o" or obj == "kernel/bounds.o":
            return (False, f"{obj[:-2]}.c is compiled to assembly for a generated "
                           "header by the top-level Kbuild, in prepare, not as an object")
        if len(parts) > 2 and parts[0] == "arch" and parts[2] == "boot":
            return (False, f"arch/{parts[1]}/boot/ is built by the boot image's "
                           "own rules, not as a kernel object")
        d, name = parts[:-1], parts[-1]
        first = True
        while d:
            dirpath = "/".join(d)
            if self.makefile(dirpath) is None:
                if first and len(d) > 1:
                    return (False, f"{dirpath}/ has no Makefile: its objects are "
                                   "built through another directory's")
                break
            ok, why = self.built_in(dirpath, name)
            if not ok:
                return (False, why)
            first = False
            if len(d) == 1:
                break
            name, d = d[-1] + "/", d[:-1]
        return (True, "")


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    src, config, listing = argv
    tree = Tree(src, Kconf(read_config(config)))
    with open(listing, encoding="utf-8") as f:
        for line in f:
            obj = line.strip()
            if not obj:
                continue
            keep, why = tree.select(obj)
            print(f"keep\t{obj}" if keep else f"drop\t{obj}\t{why}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
