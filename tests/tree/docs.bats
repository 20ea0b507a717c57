#!/usr/bin/env bats
# The docs check (make htmldocs SPHINXDIRS=<book>) on commits made for the
# test on the real tree, in a small book (cdrom: three pages, no
# kernel-doc), so that each build takes seconds.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers

setup_file() {
	require_tree
	local base
	base=$(base_commit)
	# shellcheck disable=SC2016 # expanded by tree_commit, in its directory
	tree_commit "$base" "Documentation: cdrom: a test page in no toctree" \
		'mkdir -p "$(dirname Documentation/cdrom/ws-orphan.rst)" && printf "%s\n" "=====" "Lost" "=====" "" "A page nothing links to." >Documentation/cdrom/ws-orphan.rst' \
		>"$BATS_FILE_TMPDIR/orphan"
	tree_commit "$base" "Documentation: cdrom: a test commit with a clean edit" \
		'printf "%s\n" "" "A sentence added by a test." >>Documentation/cdrom/packet-writing.rst' \
		>"$BATS_FILE_TMPDIR/clean"
	tree_commit "$base" "Documentation: cdrom: a test commit with an unknown directive" \
		'printf "%s\n" "" ".. ws-no-such-directive:: x" >>Documentation/cdrom/packet-writing.rst' \
		>"$BATS_FILE_TMPDIR/broken"
	tree_commit "$base" "tty: n_tty: a test commit with a comment" \
		'sed -i "1a /* A comment. */" drivers/tty/n_tty.c' >"$BATS_FILE_TMPDIR/code"
	tree_commit "$base" "Documentation: a test commit outside every book" \
		'echo "# a test comment" >>Documentation/conf.py' >"$BATS_FILE_TMPDIR/conf"
}

commit_of() {
	cat "$BATS_FILE_TMPDIR/$1"
}

@test "docs: a new page in no toctree warns, and names it" {
	run_check docs "$(commit_of orphan)"
	[ "$status" -eq 250 ]
	[[ $output == "cdrom: 1 new warnings: "*"ws-orphan.rst: WARNING: document isn't included in any toctree"* ]]
	grep -qx "Documentation/cdrom/ws-orphan.rst: WARNING: document isn't included in any toctree" "$BATS_TEST_TMPDIR/log"
}

@test "docs: a clean edit of a page passes" {
	run_check docs "$(commit_of clean)"
	[ "$status" -eq 0 ]
	[[ $output == "no new documentation warnings in cdrom" ]]
}

@test "docs: a Sphinx error the parent lacks fails" {
	run_check docs "$(commit_of broken)"
	[ "$status" -eq 1 ]
	[[ $output == "cdrom: 1 new Sphinx errors: "*'Unknown directive type "ws-no-such-directive"'* ]]
}

@test "docs: a commit that touches no documentation passes at once" {
	run_check docs "$(commit_of code)"
	[ "$status" -eq 0 ]
	[[ $output == "no documentation touched" ]]
}

@test "docs: a commit that touches only files outside every book skips, saying why" {
	run_check docs "$(commit_of conf)"
	[ "$status" -eq 4 ]
	[[ $output == "no book to build: Documentation/conf.py is outside every book" ]]
}
