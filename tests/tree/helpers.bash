# shellcheck shell=bash
# Shared setup for the bats tests that need the real kernel tree (the one
# `make` imported; tests/run.sh runs these after the end-to-end run).  Each
# test makes its own commits in a temporary worktree of that tree, so the
# user's branches are never touched, and runs one check on them as
# scripts/check.sh would.

WS=$(cd "$BATS_TEST_DIRNAME/../.." && pwd)
WORKDIR=${WORKDIR:-$HOME/.cache/vstatus-workspace}
TREE=$WORKDIR/linux
export WS_ROOT=$WS TREE

require_tree() {
	[[ -d $TREE/.git ]] || {
		echo "no kernel tree at $TREE: run make (tests/run.sh runs these after it)" >&2
		return 1
	}
}

# base_commit: the imported distro kernel (import's linux-source branch).
base_commit() {
	git -C "$TREE" rev-parse "linux-source^{commit}"
}

# root_branch NAME: the distro branch series NAME sits on, through the
# series its base file names: lib.sh's root_base, in a bash of its own.
root_branch() {
	# shellcheck disable=SC2016 # expanded by that bash
	SERIES_DIR=$WS/series bash -c 'source "$1" && root_base "$2"' root_branch "$WS/scripts/lib.sh" "$1"
}

# tree_commit BASE SUBJECT EDIT: a commit on BASE with message SUBJECT (plus
# a Signed-off-by) made by running the shell code EDIT in a scratch
# directory that holds the files of BASE that EDIT names (any word with a
# "/" that is a file at BASE); files EDIT creates are added too.  No
# checkout and no branch: the commit is built with git's plumbing on a
# private index, so it costs a second and leaves the tree as it was.  Works
# in setup_file too.  Prints the commit's id.  Author and committer: $AUTHOR
# (default Ada Author), message body: $BODY.
tree_commit() {
	local base=$1 subject=$2 edit=$3 dir word f mode blob tree sha
	local author=${AUTHOR:-Ada Author <ada@example.org>} name email
	name=${author% <*}
	email=${author##*<}
	email=${email%>}
	dir=$(mktemp -d "${BATS_TEST_TMPDIR:-$BATS_FILE_TMPDIR}/edit.XXXXXX")
	while IFS= read -r word; do
		[[ $(git -C "$TREE" cat-file -t "$base:$word" 2>/dev/null) == blob ]] || continue
		mkdir -p "$dir/$(dirname "$word")"
		git -C "$TREE" show "$base:$word" >"$dir/$word"
	done < <(grep -oE '[[:alnum:]_.+-]+(/[[:alnum:]_.+-]+)+' <<<"$edit" || true)
	(cd "$dir" && eval "$edit") >&2
	export GIT_INDEX_FILE=$dir.index
	git -C "$TREE" read-tree "$base"
	while IFS= read -r f; do
		mode=$(git -C "$TREE" ls-tree "$base" -- "$f" | cut -d' ' -f1)
		blob=$(git -C "$TREE" hash-object -w --path="$f" "$dir/$f")
		git -C "$TREE" update-index --add --cacheinfo "${mode:-100644},$blob,$f"
	done < <(cd "$dir" && find . -type f | sed 's#^\./##')
	tree=$(git -C "$TREE" write-tree)
	unset GIT_INDEX_FILE
	rm -rf "$dir" "$dir.index"
	sha=$(GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email \
		GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email \
		git -C "$TREE" commit-tree -p "$base" -m "$subject" -m "${BODY:-A test commit.}" \
		-m "Signed-off-by: $author" "$tree")
	echo "$sha"
}

# scratch_for NAME COMMIT: the scratch directory scripts/check.sh gives
# check NAME for COMMIT (lib.sh's check_scratch, for COMMIT's kernel line:
# its series' base's, as check.sh takes it).  lib.sh validates the
# user's variables as it loads, so that bash gets none of the test's
# (COCCI_TIMEOUT=0.01 is the cocci check's, which lib.sh would refuse).
scratch_for() {
	# shellcheck disable=SC2016 # expanded by that bash
	env -i PATH="$PATH" HOME="$HOME" WORKDIR="$WORKDIR" SERIES_DIR="$WS/series" bash -c \
		'source "$1" && check_scratch "$2" "$(kernel_line "$3" || true)"' scratch_for "$WS/scripts/lib.sh" "$1" "$2"
}

# run_check NAME COMMIT: checks/NAME/run on COMMIT, with the environment
# scripts/check.sh gives it (scratch_for); sets $status and $output (the
# summary), and the full log is in $BATS_TEST_TMPDIR/log.
run_check() {
	local name=$1 commit=$2 scratch
	scratch=$(scratch_for "$name" "$commit")
	mkdir -p "$scratch"
	run env CHECK_SCRATCH="$scratch" \
		CHECK_SERIES_DIR="${CHECK_SERIES_DIR:-$WS/series/vstatus}" \
		CHECK_BASE="${CHECK_BASE:-$(base_commit)}" CHECK_HEAD="${CHECK_HEAD:-$commit}" \
		"$WS/checks/$name/run" "$commit" "$BATS_TEST_TMPDIR/log"
	# shellcheck disable=SC2154 # set by bats run
	echo "summary: $output"
	echo "log:"
	cat "$BATS_TEST_TMPDIR/log" 2>/dev/null || true
}
