#!/usr/bin/env bash
# distclean.sh: remove $WORKDIR, unless a branch has edits not yet exported.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

unexported_branches() {
	[[ -d $TREE/.git ]] || return 0
	local s cur last
	local -a series_names_list
	capture series_names_list series_names
	for s in "${series_names_list[@]}"; do
		cur=$(git_tree rev-parse -q --verify "refs/heads/$s" || true)
		last=$(git_tree rev-parse -q --verify "refs/workspace/applied/$s" || true)
		[[ -n $cur && $cur != "$last" ]] && echo "$s"
	done
	return 0
}

main() {
	take_lock
	local -a edited
	capture edited unexported_branches
	if ((${#edited[@]})) && [[ ${FORCE:-0} != 1 ]]; then
		die "branch(es) ${edited[*]} have edits not exported to series/; run 'make export' first, or FORCE=1"
	fi
	[[ -n $WORKDIR && $WORKDIR != / && $WORKDIR != "$HOME" ]] || die "refusing to remove WORKDIR=$WORKDIR"
	progress distclean "removing $WORKDIR"
	rm -rf "$WORKDIR"
}

main "$@"
