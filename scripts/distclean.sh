#!/usr/bin/env bash
# distclean.sh: remove $WORKDIR entirely, unless a branch has edits not yet
# exported, or the tree has uncommitted changes (FORCE=1 removes it anyway).
#
# Only a directory that is recognisably a workspace is removed, compared by
# resolved path: it has linux/.git and the lock file, and it is not /, a
# home directory or this repository (see workspace_dir in clean.sh).  A
# WORKDIR that is a symlink goes with the directory it points to.
set -euo pipefail
# shellcheck source=scripts/clean.sh
source "$(dirname "$0")/clean.sh"

# unexported_branches: the series branches that moved since the workspace
# last applied or exported them (refs/workspace/applied/<name>).  It reads
# the tree only, so a broken series/ does not stand in the way.
unexported_branches() {
	[[ -d $TREE/.git ]] || return 0
	local ref s cur
	git_tree for-each-ref --format='%(refname)' refs/workspace/applied/ | while read -r ref; do
		s=${ref#refs/workspace/applied/}
		cur=$(git_tree rev-parse -q --verify "refs/heads/$s" || true)
		[[ -z $cur || $cur == "$(git_tree rev-parse "$ref")" ]] || echo "$s"
	done
}

# uncommitted_changes: the tree's checkout has changes to tracked files.
uncommitted_changes() {
	[[ -d $TREE/.git ]] && [[ -n $(git_tree status --porcelain -uno 2>/dev/null) ]]
}

main() {
	local dir
	local -a edited
	if [[ ! -e $WORKDIR && ! -L $WORKDIR ]]; then
		progress distclean "WORKDIR=$WORKDIR does not exist; nothing to remove"
		return 0
	fi
	dir=$(workspace_dir) || exit 1
	take_lock
	if [[ ${FORCE:-0} != 1 ]]; then
		capture edited unexported_branches
		((${#edited[@]} == 0)) ||
			die "branch(es) ${edited[*]} in $TREE have edits not exported to series/; run 'make export' first, or FORCE=1"
		! uncommitted_changes ||
			die "$TREE has uncommitted changes ($(git_tree status --porcelain -uno | wc -l) files); commit and export them first, or FORCE=1"
	fi
	progress distclean "removing $dir"
	rm -rf -- "${dir:?}"
	if [[ -L $WORKDIR ]]; then
		rm -f -- "$WORKDIR"
		progress distclean "removed the symlink $WORKDIR too"
	fi
}

main "$@"
