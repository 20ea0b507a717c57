#!/usr/bin/env bash
# import.sh: commit /usr/src/linux-source-$KVER.tar.xz into the throwaway tree.
#
# The tarball is committed byte for byte and tagged debian/<version>.  Debian
# appends a "/*" rule to the top-level .gitignore that ignores the whole tree;
# a second commit drops that block so that files a user adds in the tree show
# up in git status.  Branch linux-source points at that second commit and is
# the base every series is applied on.
#
# Nothing in the user's checkout is touched: the tarball is hashed through a
# temporary index and work tree, and refs move only once both commits exist.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

TARBALL=${TARBALL:-/usr/src/linux-source-$KVER.tar.xz}
STAGING=$WORKDIR/import.tmp
IDENT_NAME="linux-source import"
IDENT_EMAIL="workspace@localhost"

tarball_version() {
	local pkg
	if pkg=$(dpkg-query -S "$TARBALL" 2>/dev/null | cut -d: -f1) && [[ -n $pkg ]]; then
		dpkg-query -W -f='${Version}' "$pkg"
	else
		# Not from a package (a test fixture, a hand-made tarball): name it
		# by content so that a different tarball is a different version.
		printf 'local-%s' "$(sha256sum "$TARBALL" | cut -c1-12)"
	fi
}

init_tree() {
	[[ -d $TREE/.git ]] && return 0
	mkdir -p "$TREE"
	git init -q -b "$BASE_BRANCH" "$TREE"
	git_tree config gc.auto 0
	git_tree config core.autocrlf false
	# The tree is big; these make status and checkout fast.
	git_tree config core.untrackedCache true
	git_tree config feature.manyFiles true
	# git am needs a committer; keep the user's own identity if there is one.
	if ! git_tree config user.email >/dev/null; then
		git_tree config user.name "Workspace"
		git_tree config user.email "workspace@localhost"
	fi
}

unpack() {
	rm -rf "$STAGING"
	mkdir -p "$STAGING/tree"
	progress import "unpacking $TARBALL"
	tar -xJf "$TARBALL" --strip-components=1 -C "$STAGING/tree" ||
		die "could not unpack $TARBALL"
}

# commit_staging MESSAGE PARENT...: commit the staging tree, print the id.
commit_staging() {
	local msg=$1 tree
	shift
	local -a parents=()
	local p
	for p in "$@"; do parents+=(-p "$p"); done
	GIT_INDEX_FILE=$STAGING/index GIT_WORK_TREE=$STAGING/tree \
		git -C "$STAGING/tree" --git-dir="$TREE/.git" add -f -A .
	tree=$(GIT_INDEX_FILE=$STAGING/index git --git-dir="$TREE/.git" write-tree)
	GIT_AUTHOR_NAME=$IDENT_NAME GIT_AUTHOR_EMAIL=$IDENT_EMAIL \
		GIT_COMMITTER_NAME=$IDENT_NAME GIT_COMMITTER_EMAIL=$IDENT_EMAIL \
		git --git-dir="$TREE/.git" commit-tree "$tree" "${parents[@]}" -m "$msg"
}

# drop_debian_ignore: remove Debian's "ignore the whole top level" block.
drop_debian_ignore() {
	local gi=$STAGING/tree/.gitignore
	[[ -f $gi ]] || return 1
	grep -qx '/\*' "$gi" || return 1
	awk '
		/^# Debian packaging: ignore everything/ { skip = 1 }
		skip && /^!\/debian\/$/ { skip = 0; next }
		skip { next }
		{ print }
	' "$gi" >"$gi.new"
	# Also drop a bare "/*" rule should the block's wording change.
	grep -vx '/\*' "$gi.new" >"$gi" || true
	rm -f "$gi.new"
	# Remove the now-dangling "#" lines that introduced the block.
	sed -i -e ':a' -e '/^#$/{$d;N;ba' -e '}' "$gi"
	return 0
}

# publish_refs TAG EXACT FIXED: move every ref in one transaction, so that an
# interrupted import leaves either the old base or the new one, never half.
publish_refs() {
	local tag=$1 exact=$2 fixed=$3 tagobj
	tagobj=$(printf 'object %s\ntype commit\ntag %s\ntagger %s <%s> %s +0000\n\nlinux-source-%s %s\n' \
		"$exact" "$tag" "$IDENT_NAME" "$IDENT_EMAIL" "$(date +%s)" "$KVER" "${tag#debian/}" |
		git_tree mktag)
	git_tree update-ref --stdin >/dev/null <<-EOF
		start
		create refs/tags/$tag $tagobj
		update refs/workspace/import-$KVER $exact
		update refs/heads/$BASE_BRANCH $fixed
		prepare
		commit
	EOF
}

# checkout_base_if_unborn: a new tree (nothing checked out yet, also after
# an import interrupted before this step) gets the base checked out; an
# existing checkout, maybe with the user's edits, is left alone.
checkout_base_if_unborn() {
	if ! git_tree ls-files --error-unmatch Makefile >/dev/null 2>&1; then
		progress import "checking out $BASE_BRANCH in $TREE"
		git_tree checkout -q -f --detach "$BASE_BRANCH"
	fi
}

main() {
	check_disk
	[[ -f $TARBALL ]] || die "missing tarball $TARBALL: install linux-source-$KVER ('make deps KVER=$KVER')"
	take_lock
	init_tree
	local ver tag sum
	ver=$(tarball_version)
	tag="debian/$ver"
	sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
	if git_tree rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
		if git_tree log -1 --format=%B "$tag^{commit}" | grep -qx "sha256: $sum"; then
			checkout_base_if_unborn
			progress import "linux-source-$KVER $ver is already imported ($tag); nothing to do"
			return 0
		fi
		die "tag $tag exists but $TARBALL has different content; delete the tag in $TREE to re-import"
	fi

	local prev=""
	prev=$(git_tree rev-parse -q --verify "refs/workspace/import-$KVER" || true)
	unpack
	local exact fixed
	progress import "committing $ver (this hashes the whole tree)"
	exact=$(commit_staging "Import linux-source-$KVER $ver

Unpacked from $(basename "$TARBALL") byte for byte.
sha256: $sum" ${prev:+"$prev"})
	if drop_debian_ignore; then
		fixed=$(commit_staging "workspace: drop Debian's top-level ignore-everything rule

linux-source's .gitignore ends with a '/*' rule for Debian packaging,
which hides every new file in this tree from git.  Drop that block so
that files added while editing a series show up." "$exact")
	else
		fixed=$exact
	fi
	rm -rf "$STAGING"

	publish_refs "$tag" "$exact" "$fixed"
	checkout_base_if_unborn
	if [[ -n $prev ]]; then
		progress import "NEW linux-source-$KVER version $ver imported as a new base ($tag, was $(git_tree describe --tags "$prev" 2>/dev/null || echo "$prev")); run 'make apply' to move the series onto it"
	else
		progress import "imported linux-source-$KVER $ver as $tag; branch $BASE_BRANCH is the base"
	fi
}

main "$@"
