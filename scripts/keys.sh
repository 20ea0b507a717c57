# shellcheck shell=bash
# keys.sh: how the workspace makes a cache key, shared by its scripts
# (through lib.sh), its checks (through checks/lib/worktree.sh, or
# directly) and its Coccinelle scan (cocci/scan-tree.sh).  Sourced, never
# executed.

# key_of LEN: the first LEN hex digits of the SHA-256 of standard input:
# every cache key of the workspace (16 for most, 32 for a boot, 64 for a
# series' inputs) is made here from what the cached result is a function of.
# The files and directories a key covers by content are digested here too
# (file_sums, tree_sums_of), and scripts/keys.py makes the keys
# of the Python code (the job memos) the same way: nothing else in the
# workspace computes a hash.
key_of() {
	sha256sum | cut -c1-"$1"
}

# file_sums FILE...: the SHA-256 of each FILE, alone on a line, in order:
# the files a key covers by content (a key made from them, not from their
# paths, is the same in any checkout).  Fails, printing nothing, when a
# FILE cannot be read, whatever the caller's pipefail.
file_sums() {
	local out
	out=$(sha256sum "$@") || return 1
	printf '%s\n' "$out" | cut -d' ' -f1
}

# tree_sums_of DIR: the SHA-256 of every file under DIR, as sha256sum
# prints them, by their paths from DIR, sorted: a directory a key covers
# by content.
tree_sums_of() {
	(cd "$1" && find . -type f | LC_ALL=C sort | xargs sha256sum)
}

# script_code FILE: what in a shell script decides what it does: its code
# without comments or layout (shfmt -mn, which parses it), so that a
# comment-only edit keeps every key made from it; the file whole when
# shfmt cannot parse it.
script_code() {
	shfmt -mn "$1" 2>/dev/null || cat "$1"
}
