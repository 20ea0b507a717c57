# shellcheck shell=bash
# gitlib.sh: the git helpers the workspace's scripts (through lib.sh), its
# checks (through checks/lib/worktree.sh and kbuild.sh) and its Coccinelle
# scan (cocci/scan-tree.sh) share.  Sourced, never executed.  Every
# function names the repository it works on, so it needs no globals, and
# returns non-zero on the first command that fails (callers run them as
# `f || ...`, without errexit).
#
# The worktrees are the workspace's own: only the workspace uses them, and
# it holds the workspace lock while it does, so a git lock file found in
# one was left by a run that was killed.

# git_same_repo REPO DIR: DIR is a worktree of REPO.
git_same_repo() {
	[[ -e $2/.git ]] &&
		[[ $(git -C "$2" rev-parse --path-format=absolute --git-common-dir 2>/dev/null) == \
			"$(git -C "$1" rev-parse --path-format=absolute --git-common-dir 2>/dev/null)" ]]
}

# git_clear_locks DIR: the index and HEAD locks of the worktree DIR, left
# over from an interrupted run; git would refuse to work until they go.
git_clear_locks() {
	local f
	[[ -e $1/.git ]] || return 0
	for f in index.lock HEAD.lock; do
		f=$(git -C "$1" rev-parse --path-format=absolute --git-path "$f" 2>/dev/null) || continue
		if [[ -e $f ]]; then
			echo "removing $f, left over from an interrupted run" >&2
			rm -f "$f" || return 1
		fi
	done
}

# git_worktree REPO DIR REV: DIR is a detached worktree of REPO, made at
# REV if missing, made again if broken or another repository's; its stale
# locks are gone.  What is checked out in it is left as it is.
git_worktree() {
	local repo=$1 dir=$2 rev=$3
	if [[ -e $dir ]] && ! git_same_repo "$repo" "$dir"; then
		rm -rf "$dir" || return 1
	fi
	git -C "$repo" worktree prune || return 1
	[[ -d $dir ]] || git -C "$repo" worktree add -q --detach "$dir" "$rev" || return 1
	git_clear_locks "$dir"
}

# git_worktree_at REPO DIR REV: git_worktree, then DIR at REV and clean.
# Only the files that differ get new times, so kbuild rebuilds only what
# depends on them.
git_worktree_at() {
	git_worktree "$1" "$2" "$3" || return 1
	git -C "$2" checkout -q -f --detach "$3" && git -C "$2" clean -fdxq
}

# git_touched REPO REV [FILTER] [-- PATH...]: the files commit REV touches,
# one a line, as they are named (git's -z: a non-ASCII name is not quoted
# into another name); FILTER is a --diff-filter (AM: added or modified).
# A name with a newline in it cannot be a line: it fails, naming it.
git_touched() {
	local repo=$1 rev=$2 filter="" f
	shift 2
	if (($#)) && [[ $1 != -- ]]; then
		filter=--diff-filter=$1
		shift
	fi
	git -C "$repo" diff-tree -z --no-commit-id --name-only -r ${filter:+"$filter"} "$rev" "$@" |
		while IFS= read -r -d '' f; do
			if [[ $f == *$'\n'* ]]; then
				printf '%s: a file name with a newline cannot be checked: %q\n' "${rev:0:12}" "$f" >&2
				exit 1
			fi
			printf '%s\n' "$f"
		done
}

# git_touched_array VAR REPO REV [FILTER] [-- PATH...]: git_touched into
# the array VAR.  When it fails, VAR holds one element, the reason (its
# last line, or git's), for the caller's summary.
git_touched_array() {
	# shellcheck disable=SC2034 # a nameref: the caller's array
	local -n touched_into=$1
	local out
	shift
	if ! out=$(git_touched "$@" 2>&1); then
		touched_into=("${out##*$'\n'}")
		return 1
	fi
	touched_into=()
	# shellcheck disable=SC2034 # the caller reads it
	[[ -z $out ]] || mapfile -t touched_into <<<"$out"
}
