# shellcheck shell=bash
# shellcheck disable=SC2154 # tree, src: set by the run script that sources this
# checks/lib/worktree.sh: a check's own worktree of the kernel tree.
# Sourced by a check's run script after it has set $tree (the kernel tree)
# and $src (the worktree's path, under its CHECK_SCRATCH).  Only one run of
# a check uses its worktree at a time (make check holds the workspace
# lock), so a git lock file found there was left by a run that was killed.

git_tree() {
	git -C "$tree" "$@"
}

# same_repo: $src is a worktree of $tree.
same_repo() {
	[[ -e $src/.git ]] &&
		[[ $(git -C "$src" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) == \
			"$(git_tree rev-parse --path-format=absolute --git-common-dir)" ]]
}

# clear_stale_locks: the index and HEAD locks of $src, left by a killed run.
clear_stale_locks() {
	local f path
	for f in index.lock HEAD.lock; do
		path=$(git -C "$src" rev-parse --path-format=absolute --git-path "$f") || return 1
		if [[ -e $path ]]; then
			echo "removing $path, left by an interrupted run" >&2
			rm -f "$path" || return 1
		fi
	done
}

# checkout REV: the worktree $src at REV, clean.  Only the files that differ
# get new times, so kbuild rebuilds only what depends on them.
checkout() {
	if ! same_repo; then
		rm -rf "$src" || return 1
		git_tree worktree prune || return 1
		git_tree worktree add -q --detach "$src" "$1" || return 1
	fi
	clear_stale_locks || return 1
	git -C "$src" checkout -q -f --detach "$1" || return 1
	git -C "$src" clean -fdxq || return 1
}
