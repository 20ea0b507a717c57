#!/usr/bin/env bats
# The checks that compile (sparse, build-warnings) and the uapi, kernel-doc
# and signoff checks, on commits made for the test on the real tree.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers

# The same few commits serve every test in this file.
setup_file() {
	require_tree
	local base
	base=$(base_commit)
	# A __user pointer read directly (sparse) and a function with no
	# prototype (W=1), in a file x86 builds.
	tree_commit "$base" "tty: n_tty: a test commit with two problems" \
		'printf "%s\n" "int ws_no_proto(void);" "int ws_no_proto(void) { return 0; }" \
			"int ws_user_read(int __user *p);" "int ws_user_read(int __user *p) { return *p; }" \
			"void ws_missing(void) { }" >>drivers/tty/n_tty.c' >"$BATS_FILE_TMPDIR/warns"
	tree_commit "$base" "tty: n_tty: a test commit with a comment" \
		'sed -i "1a /* A comment. */" drivers/tty/n_tty.c' >"$BATS_FILE_TMPDIR/clean"
	tree_commit "$base" "tty: n_tty: a test commit that does not compile" \
		'echo "int ws_broken(void) { return ws_undeclared; }" >>drivers/tty/n_tty.c' >"$BATS_FILE_TMPDIR/broken"
	tree_commit "$base" "asm-generic: termbits: a test commit with a kernel-only type" \
		'echo "#define WS_TEST_FLAG ((u32)1)" >>include/uapi/asm-generic/termbits.h' >"$BATS_FILE_TMPDIR/uapi"
	tree_commit "$base" "tty: n_tty: a test commit with a bad kernel-doc comment" \
		'printf "%s\n" "/**" " * ws_doc() - no such parameter" " * @nope: not a parameter" " */" \
			"static inline int ws_doc(int x) { return x; }" >>drivers/tty/n_tty.c' >"$BATS_FILE_TMPDIR/doc"
	# A generic uapi header that needs an x86-only asm/ header.
	tree_commit "$base" "uapi: a test commit with a generic header that needs asm/bootparam.h" \
		': include/uapi/linux/signal.h; printf "%s\n" "#ifndef _UAPI_LINUX_WS_TEST_H" "#define _UAPI_LINUX_WS_TEST_H" \
			"#include <asm/bootparam.h>" "#endif" >include/uapi/linux/ws_test.h' >"$BATS_FILE_TMPDIR/x86only"
	# A bool with a prompt and no default, which a commit adds with code
	# under it that W=1 warns about: allmodconfig turns it on, so the
	# check must configure this commit, not reuse an earlier .config.
	tree_commit "$base" "signal: a test commit with a new Kconfig option" \
		'printf "%s\n" "" "config WS_TEST_DEBUG" "	bool \"workspace test option\"" >>init/Kconfig &&
		printf "%s\n" "#ifdef CONFIG_WS_TEST_DEBUG" "void ws_debug_only(void) { }" "#endif" >>kernel/signal.c' \
		>"$BATS_FILE_TMPDIR/kconfig"
}

commit_of() {
	cat "$BATS_FILE_TMPDIR/$1"
}

@test "sparse: a new __user dereference warns, and names it" {
	run_check sparse "$(commit_of warns)"
	[ "$status" -eq 250 ]
	[[ $output == *"new sparse warnings"* ]]
	grep -q 'drivers/tty/n_tty.c: warning: dereference of noderef expression' "$BATS_TEST_TMPDIR/log"
}

@test "sparse: a comment passes, and an object that stops compiling fails" {
	run_check sparse "$(commit_of clean)"
	[ "$status" -eq 0 ]
	[[ $output == "no new sparse warnings in 1 objects"* ]]
	run_check sparse "$(commit_of broken)"
	[ "$status" -eq 1 ]
	grep -q "ws_undeclared. undeclared" "$BATS_TEST_TMPDIR/log"
}

@test "build-warnings: a function with no prototype warns under W=1" {
	run_check build-warnings "$(commit_of warns)"
	[ "$status" -eq 250 ]
	[[ $output == *"new W=1 warnings"* ]]
	grep -q "no previous prototype for .ws_missing." "$BATS_TEST_TMPDIR/log"
	run grep -c "for .ws_no_proto." "$BATS_TEST_TMPDIR/log"
	[ "$output" = 0 ]
}

@test "build-warnings: a comment passes, and an object that stops compiling fails" {
	run_check build-warnings "$(commit_of clean)"
	[ "$status" -eq 0 ]
	run_check build-warnings "$(commit_of broken)"
	[ "$status" -eq 1 ]
}

@test "build checks: a commit with no object to build passes at once" {
	run_check sparse "$(commit_of uapi)"
	[ "$status" -eq 0 ]
	[[ $output == *"no object to build"* || $output == "no new sparse warnings"* ]]
}

@test "build-warnings: code under a Kconfig option the commit adds is compiled" {
	# Configured first for another commit, as in a series.
	run_check build-warnings "$(commit_of clean)"
	[ "$status" -eq 0 ]
	run_check build-warnings "$(commit_of kconfig)"
	[ "$status" -eq 250 ]
	# The warning is in code under the option: the commit was configured
	# with it (its parent, built after it, was not).
	[[ $output == *"no previous prototype for 'ws_debug_only'"* ]]
	# Back to a commit without it: nothing new there.
	run_check build-warnings "$(commit_of clean)"
	[ "$status" -eq 0 ]
}

@test "build checks: the .config has what features.config asks for where the commit's Kconfig has it" {
	local nsig sha opt
	nsig=$(git -C "$TREE" rev-parse -q --verify "nsig^{commit}") || skip "no nsig branch in $TREE"
	git -C "$TREE" grep -q "^config SIGNAL_KUNIT_TEST" "$nsig" -- '*Kconfig*' || skip "nsig has no SIGNAL_KUNIT_TEST"
	# The newest commit that changes kernel C code: every feature of
	# features.config applies there, and it has objects to configure for
	# (a head that only adds selftests has none).
	sha=$(git -C "$TREE" log -1 --format=%H "$nsig" -- '*.c' ':!tools/')
	local -a opts
	# Kept messages would spare the check its configuration: set them
	# aside for this run.
	local scratch kept
	scratch=$(scratch_for sparse "$sha")
	kept=$scratch/messages
	[[ ! -d $kept ]] || mv "$kept" "$kept.aside"
	CHECK_HEAD=$sha run_check sparse "$sha"
	rm -rf "$kept"
	[[ ! -d $kept.aside ]] || mv "$kept.aside" "$kept"
	[[ $output != "could not build"* ]]
	while read -r -a opts; do
		for opt in "${opts[@]}"; do
			grep -qx "$opt" "$scratch/obj/.config"
		done
	done < <(sed 's/#.*//' "$WS/qemu/configs/features.config" | grep .)
}

@test "uapi: a kernel-only type in a uapi header fails" {
	run_check uapi "$(commit_of uapi)"
	[ "$status" -eq 1 ]
	[[ $output == *"asm-generic/termbits.h> uses a kernel-only type"* ]]
}

@test "uapi: a generic header is compiled for arm64 too, with the compiler's message" {
	run_check uapi "$(commit_of x86only)"
	[ "$status" -eq 1 ]
	[[ $output == *"arm64: <linux/ws_test.h>: linux/ws_test.h: fatal error: asm/bootparam.h: No such file or directory"* ]]
	# x86 has the header: no problem there.
	run grep -c "^problem: x86: <linux/ws_test.h>" "$BATS_TEST_TMPDIR/log"
	[ "$output" = 0 ]
	grep -q "^== x86 at " "$BATS_TEST_TMPDIR/log"
}

@test "uapi: a commit that touches no uapi header passes" {
	run_check uapi "$(commit_of clean)"
	[ "$status" -eq 0 ]
	[[ $output == "no uapi header touched" ]]
}

@test "kernel-doc: a comment for a parameter that is not there warns" {
	run_check kernel-doc "$(commit_of doc)"
	[ "$status" -eq 250 ]
	[[ $output == *"new kernel-doc warnings"* ]]
	grep -q "nope" "$BATS_TEST_TMPDIR/log"
	run_check kernel-doc "$(commit_of clean)"
	[ "$status" -eq 0 ]
}

@test "signoff: a commit by an address that cannot receive mail warns; no Signed-off-by or no prefix fails" {
	# The test commits are Ada's, at example.org: reserved, no mail.
	run_check signoff "$(commit_of clean)"
	[ "$status" -eq 250 ]
	[[ $output == "an address cannot receive mail: ada@example.org is under example.org"* ]]
	local base nosob noprefix real
	base=$(base_commit)
	real=$(AUTHOR="Ada Author <ada@ada-author.org>" tree_commit "$base" "tty: n_tty: a real address" "echo x >x.txt")
	run_check signoff "$real"
	[ "$status" -eq 0 ]
	[ "$output" = "author signed off; subject prefix ok" ]
	nosob=$(git -C "$TREE" commit-tree -p "$base" -m "tty: n_tty: no sign-off" "$(commit_of clean)^{tree}")
	run_check signoff "$nosob"
	[ "$status" -eq 1 ]
	[[ $output == *"no Signed-off-by from the author"* ]]
	noprefix=$(git -C "$TREE" commit-tree -p "$base" -m "no prefix here" \
		-m "Signed-off-by: $(git -C "$TREE" log -1 --format='%an <%ae>' "$(commit_of clean)")" "$(commit_of clean)^{tree}")
	run_check signoff "$noprefix"
	[ "$status" -eq 1 ]
	[[ $output == *"prefix"* ]]
}
