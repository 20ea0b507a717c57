#!/usr/bin/env bash
# reroll.sh: make reroll SERIES=<name>: start v<N+1> of a series.
#
# series/<name>/version goes from N to N+1, and series/<name>/cover-letter
# gets a "Changes in v<N+1>" section (before the newest "Changes in ..."
# section, else before the To:/Cc: lines at its end) holding a git
# range-diff of v<N> (the tag <name>-v<N> that make send left in the tree)
# against the applied series, under an EDITME line for the author's prose:
# make send refuses to send until it is written, and brings the range-diff
# up to date with the series each time.  outgoing/<name>-v<N>/ stays as it
# is.  Running it again after an interruption finishes the job instead of
# starting v<N+2>.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/b4.sh
source "$(dirname "$0")/b4.sh"

# require_version_tag NAME REV: v<REV> was prepared (make send) or sent.
require_version_tag() {
	local name=$1 rev=$2 tag
	tag=$(version_tag "$name" "$rev")
	git_tree rev-parse -q --verify "refs/tags/$tag" >/dev/null && return 0
	die "there is no v$rev of $name to start v$(($2 + 1)) from: make send SERIES=$name prepares v$rev (series/$name/version) and tags it $tag in $TREE"
}

# changelog_done NAME NEWREV: an interrupted reroll got as far as the
# cover letter already.
changelog_done() {
	grep -qix "changes in v$2" "$SERIES_DIR/$1/cover-letter" 2>/dev/null &&
		grep -qx "Range-diff against v$(($2 - 1)):" "$SERIES_DIR/$1/cover-letter"
}

main() {
	local name rev new
	name=$(the_series reroll)
	rev=$(series_version "$name")
	require_tree
	take_lock
	[[ -f $SERIES_DIR/$name/cover-letter ]] ||
		die "series/$name/cover-letter is missing: make reroll writes the range-diff into it"
	require_version_tag "$name" "$rev"
	ensure_applied "$name"
	new=$((rev + 1))
	if ! write_changelog "$name" "$new" "$rev" && ! changelog_done "$name" "$new"; then
		die "series/$name/cover-letter did not change"
	fi
	write_file "$SERIES_DIR/$name/version" <<<"$new"
	progress reroll "$name: v$new (series/$name/version); v$rev stays tagged $(version_tag "$name" "$rev")$(was_sent "$name" "$rev" && echo ", its messages in $(outgoing_dir "$name" "$rev")/")"
	progress reroll "$name: series/$name/cover-letter: \"Changes in v$new\" with the range-diff against v$rev; write what changed and why where it says EDITME"
	range_diff "$name" "$rev" | sed 's/^/  /'
}

main "$@"
