# shellcheck shell=bash
# shellcheck disable=SC2154 # tree, src: set by the run script that sources this
# checks/lib/worktree.sh: a check's own worktree of the kernel tree.
# Sourced by a check's run script after it has set $tree (the kernel tree)
# and $src (the worktree's path, under its CHECK_SCRATCH).  The worktree
# itself, and its stale locks, are scripts/gitlib.sh's; cache keys
# (key_from) are scripts/keys.sh's.

# shellcheck source=scripts/gitlib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/gitlib.sh"
# shellcheck source=scripts/keys.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/keys.sh"

git_tree() {
	git -C "$tree" "$@"
}

# checkout REV: the worktree $src at REV, clean (scripts/gitlib.sh).
checkout() {
	git_worktree_at "$tree" "$src" "$1"
}
