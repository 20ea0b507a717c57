#!/usr/bin/env bash
# export.sh [NAME...]: write branch NAME back into series/NAME/.
#
# The patches are regenerated with git format-patch from the branch, the
# 'series' file is rewritten to match, and 'base', 'cover-letter' and any
# other file in the directory are left alone.  The patches being replaced
# are first copied to $WORKDIR/backup/, so nothing is lost.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

export_one() {
	local name=$1 dir=$SERIES_DIR/$1 base_ref base head
	base_ref=$(base_ref "$name")
	base=$(git_tree rev-parse -q --verify "$base_ref^{commit}") ||
		die "series $name sits on '$base_ref', which is not in $TREE"
	head=$(git_tree rev-parse -q --verify "refs/heads/$name^{commit}") ||
		die "branch $name does not exist in $TREE: run 'make apply SERIES=$name' first"
	git_tree merge-base --is-ancestor "$base" "$head" ||
		die "branch $name is not based on $base_ref ($(git_tree log -1 --format=%h "$base")); rebase it onto $base_ref before exporting"
	local n
	n=$(git_tree rev-list --count "$base..$head")
	((n > 0)) || die "branch $name has no commits on top of $base_ref"
	local merges
	merges=$(git_tree rev-list --merges --count "$base..$head")
	((merges == 0)) || die "branch $name has $merges merge commit(s); a series must be linear"

	local tmp backup
	tmp=$(mktemp -d "$WORKDIR/export.XXXXXX")
	# shellcheck disable=SC2064
	trap "rm -rf '$tmp'" EXIT
	git_tree format-patch -q --no-signature --zero-commit --no-cover-letter \
		-o "$tmp" "$base..$head"
	(cd "$tmp" && ls -1 -- *.patch) >"$tmp/series.new"

	backup=$WORKDIR/backup/$name-$(date +%Y%m%d-%H%M%S)
	mkdir -p "$backup"
	cp -p "$dir"/*.patch "$dir/series" "$backup/" 2>/dev/null || true

	# Swap in the new patches: remove the old ones only after the new ones
	# are written next to them.
	local p
	for p in "$tmp"/*.patch; do
		cp "$p" "$dir/.${p##*/}.new"
	done
	find "$dir" -maxdepth 1 -name '*.patch' -delete
	for p in "$tmp"/*.patch; do
		mv "$dir/.${p##*/}.new" "$dir/${p##*/}"
	done
	mv "$tmp/series.new" "$dir/series"
	rm -rf "$tmp"
	trap - EXIT

	git_tree update-ref "refs/workspace/applied/$name" "$head"
	git_tree config "workspace.applied.$name" "$(inputs_hash "$name" "$base") $head"
	progress export "$name: wrote $n patches to series/$name/ (previous copy in $backup)"
}

main() {
	require_tree
	take_lock
	local s
	local -a selected_series_list
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		export_one "$s"
	done
}

main "$@"
