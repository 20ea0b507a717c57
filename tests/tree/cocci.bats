#!/usr/bin/env bats
# checks/cocci on commits made for the test on the imported kernel.
# Run with: bats tests/tree/cocci.bats (after make has imported it).
#
# At a series head the check also scans the whole tree at the base and at
# the head (cocci/scan-tree.sh).  Scans are cached by tree id in
# $WORKDIR/check-work/cocci/scan, shared with make cocci-inventory, and a
# new tree is scanned incrementally from the nearest cached one: the base
# costs a few minutes once (nothing if make cocci-inventory or make check
# ran), each test commit a few seconds.
# shellcheck disable=SC2154 # $status and $output are set by bats' run

bats_require_minimum_version 1.5.0

load helpers

# The same commits serve every test in this file: made once, off-branch.
setup_file() {
	require_tree
	local base
	base=$(base_commit)
	# tree_commit keeps its worktrees there; no test has started yet.
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR
	# A leftover sigmask() in a file that handles signals.
	tree_commit "$base" "signalfd: a test commit with a one-word mask" \
		'printf "%s\n" "" "unsigned long ws_test_mask(void)" "{" \
			"	return sigmask(SIGTERM);" "}" >>fs/signalfd.c' >"$BATS_FILE_TMPDIR/sigmask"
	# On top of it, a commit that touches no C file: at the head of this
	# two-commit series only the whole-tree part can see the sigmask().
	tree_commit "$(cat "$BATS_FILE_TMPDIR/sigmask")" "Documentation: a test commit without C" \
		'echo "A test line." >>Documentation/admin-guide/README.rst' >"$BATS_FILE_TMPDIR/doc"
	# A signal file changed the right way: a set built signal by signal.
	tree_commit "$base" "signalfd: a test commit without problems" \
		'printf "%s\n" "" "void ws_test_block_term(sigset_t *set)" "{" \
			"	sigemptyset(set);" "	sigaddset(set, SIGTERM);" "}" >>fs/signalfd.c' >"$BATS_FILE_TMPDIR/clean"
}

setup() {
	require_tree
}

commit_of() {
	cat "$BATS_FILE_TMPDIR/$1"
}

# whole_tree_counts: "BASE HEAD" from the summary's whole-tree part.
whole_tree_counts() {
	sed -nE 's/.*whole tree: ([0-9]+) reports at the base, ([0-9]+) at the head.*/\1 \2/p' <<<"$output"
}

@test "cocci: a sigmask() added to a touched file warns, naming sigmask" {
	CHECK_HEAD=$(base_commit) run_check cocci "$(commit_of sigmask)"
	[ "$status" -eq 250 ]
	[[ $output == "1 new Coccinelle reports: fs/signalfd.c: sigmask: WARNING: sigmask() builds a one-word mask"* ]]
	grep -q "^fs/signalfd.c: sigmask: WARNING: sigmask()" "$BATS_TEST_TMPDIR/log"
	# Not the head: no whole-tree scan.
	[[ $output != *"whole tree"* ]]
	grep -q "^not the series head" "$BATS_TEST_TMPDIR/log"
}

@test "cocci: a signal file changed without new problems passes" {
	CHECK_HEAD=$(base_commit) run_check cocci "$(commit_of clean)"
	[ "$status" -eq 0 ]
	[[ $output == "no new Coccinelle reports in 1 files ("*" in all)" ]]
	grep -q "^files: fs/signalfd.c$" "$BATS_TEST_TMPDIR/log"
}

@test "cocci: at the series head the whole tree is scanned, with counts" {
	local counts
	run_check cocci "$(commit_of clean)"
	[ "$status" -eq 0 ]
	[[ $output == "no new Coccinelle reports in 1 files "*"; whole tree: "*" +0 -0" ]]
	counts=$(whole_tree_counts)
	read -r base head <<<"$counts"
	[ "$base" -gt 100 ]
	[ "$head" -eq "$base" ]
	grep -q "^== whole-tree scan of the series base" "$BATS_TEST_TMPDIR/log"
	grep -q "^== whole-tree scan of the series head" "$BATS_TEST_TMPDIR/log"
}

@test "cocci: at the head, a report the series adds outside the commit's files warns" {
	local counts
	CHECK_BASE=$(base_commit) run_check cocci "$(commit_of doc)"
	[ "$status" -eq 250 ]
	[[ $output == "whole tree: "*" +1 -0: the series adds fs/signalfd.c:"*": sigmask: WARNING: sigmask()"* ]]
	counts=$(whole_tree_counts)
	read -r base head <<<"$counts"
	[ "$head" -eq $((base + 1)) ]
	grep -q "^no C file touched that handles signals$" "$BATS_TEST_TMPDIR/log"
	sed -n '/^added by the series/,/^removed by the series/p' "$BATS_TEST_TMPDIR/log" |
		grep -q "^fs/signalfd.c:[0-9]*: sigmask: WARNING: sigmask()"
}

@test "cocci: scan-tree.sh: a second scan of a tree comes from the cache" {
	local out=$BATS_TEST_TMPDIR/scan.txt
	export SCAN_WORK=$WORKDIR/check-work/cocci/scan
	"$WS/cocci/scan-tree.sh" "$(commit_of clean)" "$out"
	run --separate-stderr "$WS/cocci/scan-tree.sh" "$(commit_of clean)" "$out"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[[ $stderr == *"(cached)"* ]]
	[ -s "$out" ]
	# Normalized and sorted: "file:line: script: message".
	run grep -cvE '^[^: ]+:[0-9]+: [a-z0-9_]+: (WARNING|ERROR|INFO): ' "$out"
	[ "$output" = 0 ]
	LC_ALL=C sort -c "$out"
}

@test "cocci: a spatch run that times out fails the check, naming the script and the file" {
	local c
	# Contents of their own, so that no cached report stands in for spatch.
	c=$(tree_commit "$(base_commit)" "signalfd: a test commit spatch cannot finish in time" \
		"printf '%s\n' '' '/* $(date +%s%N) */' >>fs/signalfd.c")
	CHECK_HEAD=$(base_commit) COCCI_TIMEOUT=0.01 run_check cocci "$c"
	[ "$status" -eq 1 ]
	[[ $output == *" spatch runs failed: spatch "*".cocci on fs/signalfd.c at ${c:0:12}: timed out after 0.01s"* ]]
	# Nothing was cached: with time enough, the same commit passes.
	CHECK_HEAD=$(base_commit) run_check cocci "$c"
	[ "$status" -eq 0 ]
}
