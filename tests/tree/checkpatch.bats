#!/usr/bin/env bats
# checks/checkpatch on commits made for the test on the imported kernel.
# Run with: bats tests/tree/checkpatch.bats (after make has imported it).
# shellcheck disable=SC2154 # $status and $output are set by bats' run

load helpers

setup() {
	require_tree
}

# comment_commit SUBJECT LINE: a commit that adds LINE (a comment, say)
# above the first #include of drivers/tty/n_tty.c.
comment_commit() {
	tree_commit "$(base_commit)" "$1" \
		"sed -i '0,/^#include/s||$2\\n&|' drivers/tty/n_tty.c"
}

@test "checkpatch: a clean commit passes" {
	local c
	c=$(comment_commit "tty: n_tty: say what the file is" \
		"/* The default line discipline for terminals. */")
	run_check checkpatch "$c"
	[ "$status" -eq 0 ]
	[ "$output" = clean ]
}

@test "checkpatch: a word only codespell knows is a TYPO_SPELLING warning" {
	local c
	# "wich" is in codespell's dictionary but not in scripts/spelling.txt,
	# so only --codespell finds it.
	c=$(comment_commit "tty: n_tty: say what the file is" \
		"/* The line discipline wich terminals use. */")
	run_check checkpatch "$c"
	[ "$status" -eq 250 ]
	[[ $output == *TYPO_SPELLING* ]]
	grep -q "^WARNING:TYPO_SPELLING: 'wich' may be misspelled - perhaps 'which'?" "$BATS_TEST_TMPDIR/log"
	[ "$(grep -c "No codespell typos will be found" "$BATS_TEST_TMPDIR/log")" = 0 ]
}

@test "checkpatch: an ERROR (trailing whitespace) fails" {
	local c
	c=$(comment_commit "tty: n_tty: say what the file is" \
		"/* The default line discipline for terminals. */ ")
	run_check checkpatch "$c"
	[ "$status" -eq 1 ]
	[[ $output == *"ERROR:TRAILING_WHITESPACE"* ]]
}

@test "checkpatch: a new file that a MAINTAINERS section covers does not count FILE_PATH_CHANGES" {
	local c
	c=$(tree_commit "$(base_commit)" "tty: add a test file" \
		'mkdir -p drivers/tty && printf "%s\n" "// SPDX-License-Identifier: GPL-2.0" "/* A test file. */" >drivers/tty/ws_new.c')
	run_check checkpatch "$c"
	[ "$status" -eq 0 ]
	[ "$output" = clean ]
	grep -q "^answered:FILE_PATH_CHANGES:" "$BATS_TEST_TMPDIR/log"
	grep -qE "^  drivers/tty/ws_new.c: covered by TTY LAYER" "$BATS_TEST_TMPDIR/log"
}

@test "checkpatch: a new file with a non-ASCII name is answered by its own name" {
	local c
	c=$(tree_commit "$(base_commit)" "tty: add a test file" \
		'mkdir -p drivers/tty && printf "%s\n" "// SPDX-License-Identifier: GPL-2.0" "/* A test file. */" >drivers/tty/ws_tëst.c')
	run_check checkpatch "$c"
	grep -qE "^  drivers/tty/ws_tëst.c: covered by TTY LAYER" "$BATS_TEST_TMPDIR/log"
}

@test "checkpatch: a new file only THE REST covers keeps the FILE_PATH_CHANGES warning" {
	local c
	c=$(tree_commit "$(base_commit)" "add a test file at the top" \
		'printf "%s\n" "A test file." >ws-new-file.txt')
	run_check checkpatch "$c"
	[ "$status" -eq 250 ]
	[[ $output == *"WARNING:FILE_PATH_CHANGES:"* ]]
	[ "$(grep -c "^answered:" "$BATS_TEST_TMPDIR/log")" = 0 ]
}
