#!/usr/bin/env bats
# The selftests check (make -C tools/testing/selftests TARGETS=<dir>) on
# commits made for the test on the real tree, in a small selftest
# directory (kcmp: one C file).
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers

setup_file() {
	require_tree
	local base
	base=$(base_commit)
	tree_commit "$base" "selftests: kcmp: a test commit with a new warning" \
		'echo "int *ws_p = 1;" >>tools/testing/selftests/kcmp/kcmp_test.c' >"$BATS_FILE_TMPDIR/warns"
	tree_commit "$base" "selftests: kcmp: a test commit that does not compile" \
		'echo "int ws_broken(void) { return ws_undeclared; }" >>tools/testing/selftests/kcmp/kcmp_test.c' \
		>"$BATS_FILE_TMPDIR/broken"
	tree_commit "$base" "selftests: kcmp: a test commit with a comment" \
		'sed -i "1a /* A comment. */" tools/testing/selftests/kcmp/kcmp_test.c' >"$BATS_FILE_TMPDIR/clean"
	tree_commit "$base" "selftests: ws_new: a test commit with a new directory" \
		'mkdir -p tools/testing/selftests/ws_new &&
		printf "%s\n" "CFLAGS += -Wall" "TEST_GEN_PROGS := ws_new" "include ../lib.mk" >tools/testing/selftests/ws_new/Makefile &&
		printf "%s\n" "int main(void) { int ws_y; return 0; }" >tools/testing/selftests/ws_new/ws_new.c' \
		>"$BATS_FILE_TMPDIR/newdir"
	tree_commit "$base" "tty: n_tty: a test commit with a comment" \
		'sed -i "1a /* A comment. */" drivers/tty/n_tty.c' >"$BATS_FILE_TMPDIR/code"
}

commit_of() {
	cat "$BATS_FILE_TMPDIR/$1"
}

@test "selftests: a new compiler warning warns, and names it" {
	run_check selftests "$(commit_of warns)"
	[ "$status" -eq 250 ]
	[[ $output == "kcmp: 1 new warnings: kcmp: kcmp_test.c: warning: initialization of 'int *' from 'int' makes pointer from integer without a cast"* ]]
}

@test "selftests: a test that stops compiling fails" {
	run_check selftests "$(commit_of broken)"
	[ "$status" -eq 1 ]
	[[ $output == "kcmp: "*"new errors: kcmp: kcmp_test.c: error: 'ws_undeclared' undeclared"* ]]
}

@test "selftests: a comment passes" {
	run_check selftests "$(commit_of clean)"
	[ "$status" -eq 0 ]
	[[ $output == "no new compiler messages in the selftests of kcmp" ]]
}

@test "selftests: in a directory the parent lacks, every warning is new" {
	run_check selftests "$(commit_of newdir)"
	[ "$status" -eq 250 ]
	[[ $output == "ws_new: 1 new warnings: ws_new: ws_new.c: warning: unused variable 'ws_y'"* ]]
	grep -q "new in the commit" "$BATS_TEST_TMPDIR/log"
}

@test "selftests: a commit that touches no selftest passes at once" {
	run_check selftests "$(commit_of code)"
	[ "$status" -eq 0 ]
	[[ $output == "no selftest touched" ]]
}
