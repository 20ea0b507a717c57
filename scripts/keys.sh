# shellcheck shell=bash
# keys.sh: how the workspace makes a cache key, shared by its scripts
# (through lib.sh), its checks (through checks/lib/worktree.sh, or
# directly) and its Coccinelle scan (cocci/scan-tree.sh).  Sourced, never
# executed.

# key_of LEN: the first LEN hex digits of the SHA-256 of standard input:
# every cache key of the workspace (16 for most, 32 for a boot, 64 for a
# series' inputs) is made here from what the cached result is a function of.
key_of() {
	sha256sum | cut -c1-"$1"
}

# script_code FILE: what in a shell script decides what it does: its code
# without comments or layout (shfmt -mn, which parses it), so that a
# comment-only edit keeps every key made from it; the file whole when
# shfmt cannot parse it.
script_code() {
	shfmt -mn "$1" 2>/dev/null || cat "$1"
}
