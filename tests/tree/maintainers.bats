#!/usr/bin/env bats
# checks/maintainers on the vstatus series and on commits made for the test
# on the imported kernel.
# Run with: bats tests/tree/maintainers.bats (after make has applied vstatus).
# shellcheck disable=SC2154 # $status and $output are set by bats' run

load helpers

setup() {
	require_tree
}

# vstatus_commits: the commits of branch vstatus, oldest first.
vstatus_commits() {
	git -C "$TREE" log --reverse --format=%H "$(root_branch vstatus)..vstatus"
}

# series_dir COVER-LETTER-TEXT: a series directory of the test's own with
# that cover letter; prints its path.
series_dir() {
	local dir=$BATS_TEST_TMPDIR/series-$RANDOM
	mkdir -p "$dir"
	printf '%s\n' "$1" >"$dir/cover-letter"
	echo "$dir"
}

@test "maintainers: every vstatus commit passes with the vstatus cover letter" {
	local c n=0
	for c in $(vstatus_commits); do
		run_check maintainers "$c"
		[ "$status" -eq 0 ]
		[[ $output == "all "*" addresses get_maintainer.pl names are in To/Cc" ]]
		n=$((n + 1))
	done
	[ "$n" -eq 6 ]
}

@test "maintainers: the commit's own MAINTAINERS counts, and the author is left out" {
	local fifth
	fifth=$(vstatus_commits | sed -n 5p)
	run_check maintainers "$fifth"
	[ "$status" -eq 0 ]
	# 5/6 adds its page to TTY LAYER AND SERIAL DRIVERS: nothing else it
	# touches is under that section, and its maintainers are named.
	grep -q '^  Greg Kroah-Hartman <gregkh@linuxfoundation.org> (supporter:TTY LAYER AND SERIAL DRIVERS)' \
		"$BATS_TEST_TMPDIR/log"
	# The parent's MAINTAINERS would not name them for these files.
	run git -C "$TREE" show "$fifth^:MAINTAINERS"
	[[ $output != *"Documentation/userspace-api/tty_status.rst"* ]]
	grep -q "^author, left out: $(git -C "$TREE" log -1 --format=%ae "$fifth" | tr '[:upper:]' '[:lower:]')" \
		"$BATS_TEST_TMPDIR/log"
}

@test "maintainers: a commit to fs/ext4/ fails and names an ext4 maintainer" {
	local c
	c=$(tree_commit "$(base_commit)" "ext4: say what inode.c is" \
		"sed -i '0,/^#include/s||/* ext4 inodes. */\\n&|' fs/ext4/inode.c")
	run_check maintainers "$c"
	[ "$status" -eq 1 ]
	[[ $output == *"adilger.kernel@dilger.ca"* ]]
	[[ $output == *"linux-ext4@vger.kernel.org"* ]]
	grep -q '^  Andreas Dilger <adilger.kernel@dilger.ca> (maintainer:EXT4 FILE SYSTEM)' "$BATS_TEST_TMPDIR/log"
	# Ted Ts'o maintains ext4 too, and the vstatus cover letter has him.
	[[ $output != *"tytso@mit.edu"* ]]
}

@test "maintainers: a cover letter without To:/Cc: lines fails" {
	local first
	first=$(vstatus_commits | head -n1)
	CHECK_SERIES_DIR=$(series_dir "$(printf 'tty: a series\n\nNo recipients here.')")
	run_check maintainers "$first"
	[ "$status" -eq 1 ]
	[[ $output == "no To:/Cc: lines at the end of the cover letter"* ]]
	[[ $output == *"gregkh@linuxfoundation.org"* ]]
	grep -q '^  Jiri Slaby <jirislaby@kernel.org> (supporter:TTY LAYER AND SERIAL DRIVERS)' "$BATS_TEST_TMPDIR/log"
}

@test "maintainers: To:/Cc: lines above the trailer block do not count" {
	local first
	first=$(vstatus_commits | head -n1)
	CHECK_SERIES_DIR=$(series_dir "$(printf '%s\n' 'tty: a series' '' \
		'To: Greg Kroah-Hartman <gregkh@linuxfoundation.org>' '' 'Some more text.')")
	run_check maintainers "$first"
	[ "$status" -eq 1 ]
	grep -q '^  not used, as b4 reads only the trailer block at the end: To: Greg' "$BATS_TEST_TMPDIR/log"
}

@test "maintainers: addresses match without regard to case" {
	local first
	first=$(vstatus_commits | head -n1)
	CHECK_SERIES_DIR=$(series_dir "$(printf '%s\n' 'tty: a series' '' 'Body.' '' \
		'To: Greg Kroah-Hartman <GREGKH@LinuxFoundation.org>' \
		'To: Jiri Slaby <JiriSlaby@kernel.org>' \
		'Cc: LINUX-SERIAL@vger.kernel.org' \
		'Cc: Linux-Kernel@Vger.Kernel.Org')")
	run_check maintainers "$first"
	[ "$status" -eq 0 ]
}

@test "maintainers: a To:/Cc: line with two addresses fails" {
	local first
	first=$(vstatus_commits | head -n1)
	CHECK_SERIES_DIR=$(series_dir "$(printf '%s\n' 'tty: a series' '' 'Body.' '' \
		'To: Greg Kroah-Hartman <gregkh@linuxfoundation.org>, Jiri Slaby <jirislaby@kernel.org>' \
		'Cc: linux-serial@vger.kernel.org' \
		'Cc: linux-kernel@vger.kernel.org')")
	run_check maintainers "$first"
	[ "$status" -eq 1 ]
	[[ $output == *"jirislaby@kernel.org"* ]]
	grep -q 'has 2 addresses; b4 takes one per To:/Cc: line' "$BATS_TEST_TMPDIR/log"
}

@test "maintainers: no cover letter fails and says so" {
	local first
	first=$(vstatus_commits | head -n1)
	CHECK_SERIES_DIR=$BATS_TEST_TMPDIR/empty-series
	mkdir -p "$CHECK_SERIES_DIR"
	run_check maintainers "$first"
	[ "$status" -eq 1 ]
	[[ $output == "no cover letter"* ]]
}
