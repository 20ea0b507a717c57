#!/usr/bin/env bash
# import.sh: commit each /usr/src/linux-source-<version>.tar.xz the series
# need into the throwaway tree: KVER's, and each version a series' base file
# names (linux-source-X.Y).
#
# A tarball is committed byte for byte and tagged debian/<version>.  Debian
# appends a "/*" rule to the top-level .gitignore that ignores the whole tree;
# a second commit drops that block so that files a user adds in the tree show
# up in git status.  Branch linux-source-<version> points at that second
# commit and is the base the series that name it are applied on; KVER's is
# also branch linux-source, the default base.
#
# Nothing in the user's checkout is touched: the tarball is hashed through a
# temporary index and work tree, and refs move only once both commits exist.
#
# An import is reproducible: the same tarball gives the same commits, tag
# and base sha on every machine and every re-import (a fixed identity, the
# date of the package's changelog entry for that version, no parent), so
# that the base-commit: of a mail names a commit anyone can make again.
# TARBALL replaces KVER's tarball, TARBALL_DIR (/usr/src) the directory of
# the others.
#
# A series whose base file names git:REF sits on REF of the repository
# LINUX_GIT names (a path or a URL): import.sh fetches REF into the tree as
# branch git/REF, the commit as it is there (its sha is the public one, so
# the base-commit: of a mail names it), and moves the branch when REF has
# moved.  A local repository lends its objects (git's alternates: nothing
# is copied, and the tree needs it to stay); a URL is fetched shallow.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

TARBALL_DIR=${TARBALL_DIR:-/usr/src}
STAGING=$WORKDIR/import.tmp
IDENT_NAME="linux-source import"
IDENT_EMAIL="workspace@localhost"

# tarball_version TARBALL: the Debian version of the package that ships it.
tarball_version() {
	local pkg
	if pkg=$(dpkg-query -S "$1" 2>/dev/null | cut -d: -f1) && [[ -n $pkg ]]; then
		dpkg-query -W -f='${Version}' "$pkg"
	else
		# Not from a package (a test fixture, a hand-made tarball): name it
		# by content so that a different tarball is a different version.
		local d
		d=$(stat_digest "$1") || return 1
		printf 'local-%s' "${d:0:12}"
	fi
}

# import_date TARBALL: when the version was made, as git wants a date: the
# first (newest) entry of its package's Debian changelog, the tarball's
# own time for one no package ships.
IMPORT_DATE=""
import_date() {
	local pkg line when=""
	if pkg=$(dpkg-query -S "$1" 2>/dev/null | cut -d: -f1) && [[ -n $pkg ]]; then
		line=$(zcat "/usr/share/doc/$pkg/changelog.Debian.gz" 2>/dev/null | grep -m1 '^ -- ') || line=""
		[[ -z $line ]] || when=$(date -d "${line##*>  }" +%s 2>/dev/null) || when=""
	fi
	[[ -n $when ]] || when=$(stat -L -c %Y "$1") || return 1
	echo "@$when +0000"
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

# dep14_tag VERSION: the git tag of a Debian version, as DEP-14 spells it
# (git refuses "~" and ":" in a name): debian/ then the version with ":"
# as "%", "~" as "_", ".." as ".#." and a last "." or ".lock" ending
# broken with "#" (6.12.118-1~deb12u1: debian/6.12.118-1_deb12u1).
dep14_tag() {
	local v=$1
	v=${v//:/%}
	v=${v//\~/_}
	v=${v//../.#.}
	[[ $v != *. ]] || v+="#"
	[[ $v != *.lock ]] || v="${v%.lock}.#lock"
	echo "debian/$v"
}

# unpack TARBALL: into the staging tree.
unpack() {
	rm -rf "$STAGING"
	mkdir -p "$STAGING/tree"
	progress import "unpacking $1"
	tar -xJf "$1" --strip-components=1 -C "$STAGING/tree" ||
		die "could not unpack $1"
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
	GIT_AUTHOR_NAME=$IDENT_NAME GIT_AUTHOR_EMAIL=$IDENT_EMAIL GIT_AUTHOR_DATE=$IMPORT_DATE \
		GIT_COMMITTER_NAME=$IDENT_NAME GIT_COMMITTER_EMAIL=$IDENT_EMAIL GIT_COMMITTER_DATE=$IMPORT_DATE \
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

# publish_refs VERSION DEBIAN_VERSION TAG EXACT FIXED: move every ref in
# one transaction, so that an interrupted import leaves either the old base
# or the new one, never half.
publish_refs() {
	local v=$1 ver=$2 tag=$3 exact=$4 fixed=$5 tagobj default=""
	tagobj=$(printf 'object %s\ntype commit\ntag %s\ntagger %s <%s> %s\n\nlinux-source-%s %s\n' \
		"$exact" "$tag" "$IDENT_NAME" "$IDENT_EMAIL" "${IMPORT_DATE#@}" "$v" "$ver" |
		git_tree mktag)
	[[ $v != "$KVER" ]] || default="update refs/heads/$BASE_BRANCH $fixed"
	printf '%s\n' start "create refs/tags/$tag $tagobj" "update refs/workspace/import-$v $exact" \
		"update refs/heads/$BASE_BRANCH-$v $fixed" ${default:+"$default"} prepare commit |
		git_tree update-ref --stdin >/dev/null
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

# tarball_of VERSION: the tarball import.sh commits for VERSION.
tarball_of() {
	if [[ $1 == "$KVER" && -n ${TARBALL:-} ]]; then
		echo "$TARBALL"
	else
		echo "$TARBALL_DIR/linux-source-$1.tar.xz"
	fi
}

# branches_of_import VERSION: the branches an earlier import left, made again
# where one is missing (a tree imported before bases had a version in their
# name has only linux-source).
branches_of_import() {
	local v=$1 fixed
	fixed=$(git_tree rev-parse -q --verify "refs/heads/$(distro_branch "linux-source-$v")") || return 0
	git_tree rev-parse -q --verify "refs/heads/$BASE_BRANCH-$v" >/dev/null ||
		git_tree update-ref "refs/heads/$BASE_BRANCH-$v" "$fixed"
}

# import_version VERSION: linux-source-VERSION committed and its branches
# moved, unless this tarball is already the base (main checked that the
# tarball is there).
import_version() {
	local v=$1 tarball ver tag sum
	tarball=$(tarball_of "$v")
	ver=$(tarball_version "$tarball") || die "cannot tell the version of $tarball"
	tag=$(dep14_tag "$ver")
	sum=$(stat_digest "$tarball") || die "cannot hash $tarball, or keep its digest in $WORKDIR/digests/"
	if git_tree rev-parse -q --verify "refs/tags/$tag" >/dev/null; then
		if git_tree log -1 --format=%B "$tag^{commit}" | grep -qx "sha256: $sum"; then
			branches_of_import "$v"
			progress import "linux-source-$v $ver is already imported ($tag); nothing to do"
			return 0
		fi
		die "tag $tag exists but $tarball has different content; delete the tag in $TREE to re-import"
	fi

	local prev=""
	prev=$(git_tree rev-parse -q --verify "refs/workspace/import-$v" || true)
	unpack "$tarball"
	local exact fixed
	IMPORT_DATE=$(import_date "$tarball") || die "cannot tell the date of $tarball"
	progress import "committing linux-source-$v $ver (this hashes the whole tree)"
	# No parent: the commit is the tarball's alone, whatever was imported
	# here before (refs/workspace/import-<version> moves on regardless).
	exact=$(commit_staging "Import linux-source-$v $ver

Unpacked from $(basename "$tarball") byte for byte.
sha256: $sum")
	if drop_debian_ignore; then
		fixed=$(commit_staging "workspace: drop Debian's top-level ignore-everything rule

linux-source's .gitignore ends with a '/*' rule for Debian packaging,
which hides every new file in this tree from git.  Drop that block so
that files added while editing a series show up." "$exact")
	else
		fixed=$exact
	fi
	rm -rf "$STAGING"

	publish_refs "$v" "$ver" "$tag" "$exact" "$fixed"
	if [[ -n $prev ]]; then
		progress import "NEW linux-source-$v version $ver imported as a new base ($tag, was $(git_tree describe --tags "$prev" 2>/dev/null || echo "$prev")); run 'make apply' to move the series onto it"
	else
		progress import "imported linux-source-$v $ver as $tag; branch $(distro_branch "linux-source-$v") is its base"
	fi
}

# import_git_bases: every git:REF a series' base names, fetched from
# LINUX_GIT into branch git/REF.
import_git_bases() {
	local pairs ref users old new src
	pairs=$(git_bases) || exit 1
	[[ -n $pairs ]] || return 0
	if [[ -z ${LINUX_GIT:-} ]]; then
		die "series $(awk '{ print $1 }' <<<"$pairs" | paste -sd,) sit(s) on git:<ref>, which needs LINUX_GIT=<path or URL of a Linux repository> (make LINUX_GIT=...)"
	fi
	src=$LINUX_GIT
	if [[ -d $src ]]; then
		src=$(cd "$src" && pwd) || die "cannot enter LINUX_GIT=$LINUX_GIT"
		lend_objects "$src"
	fi
	while read -r ref; do
		users=$(awk -v r="$ref" '$2 == r { print $1 }' <<<"$pairs" | paste -sd,)
		progress import "fetching $ref from $LINUX_GIT (the base of $users)"
		# shellcheck disable=SC2046 # no option, or one
		git_tree fetch -q --no-tags $([[ -d $src ]] || echo --depth=1) "$src" "$ref" ||
			die "cannot fetch '$ref' from LINUX_GIT=$LINUX_GIT, the base git:$ref of $users: is it a branch or tag there?"
		new=$(git_tree rev-parse --verify "FETCH_HEAD^{commit}") || die "FETCH_HEAD of $ref is no commit"
		old=$(git_tree rev-parse -q --verify "refs/heads/git/$ref" || true)
		if [[ $old == "$new" ]]; then
			progress import "git:$ref is at ${new:0:12}, as before"
			continue
		fi
		git_tree update-ref "refs/heads/git/$ref" "$new" || die "cannot move branch git/$ref"
		progress import "git:$ref is at ${new:0:12} ($(git_tree log -1 --format=%s "$new"))${old:+, was ${old:0:12}: run 'make apply' to move $users onto it}"
	done < <(awk '{ print $2 }' <<<"$pairs" | LC_ALL=C sort -u)
}

# lend_objects DIR: the repository at DIR lends its objects to the tree
# (objects/info/alternates), once.
lend_objects() {
	local objs alt=$TREE/.git/objects/info/alternates
	objs=$(git -C "$1" rev-parse --path-format=absolute --git-path objects) ||
		die "LINUX_GIT=$LINUX_GIT is not a git repository"
	grep -qxF -- "$objs" "$alt" 2>/dev/null && return 0
	{ mkdir -p "${alt%/*}" && echo "$objs" >>"$alt"; } || die "cannot write $alt"
}

main() {
	local v
	local -a versions
	check_disk
	capture versions base_versions
	local -a present=()
	for v in "${versions[@]}"; do
		if [[ -f $(tarball_of "$v") ]]; then
			present+=("$v")
		elif [[ $v == "$KVER" ]]; then
			die "missing tarball $(tarball_of "$v"): install linux-source-$v ('make deps')"
		else
			# Only the series on that base are held up: they fail to
			# apply, naming it; the others go on.
			warn "missing tarball $(tarball_of "$v"), the base of $(version_users "$v"): install linux-source-$v ('make deps'); the other series go on without it"
		fi
	done
	take_lock
	init_tree
	for v in "${present[@]}"; do
		import_version "$v"
	done
	import_git_bases
	checkout_base_if_unborn
}

main "$@"
