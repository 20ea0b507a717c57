#!/usr/bin/env bats
# MAINTAINERS-notes.md agrees with get_maintainer.pl on the imported tree:
# tests/tree/maintainers-notes.sh on the notes as they are, and on copies
# edited to be wrong, which must fail and say where.
# Run with: bats tests/tree/maintainers-notes.bats (after make has applied
# the series).
# shellcheck disable=SC2154 # $status and $output are set by bats' run
# shellcheck disable=SC2016 # backquotes in markdown, not expansions

load helpers

# get_maintainer.pl's answers, by commit id, shared by the tests of this
# file and kept for the next run (a commit id names the script and the
# MAINTAINERS it is run with, so they do not go stale); make clean drops
# them with the other checks' caches.
setup_file() {
	require_tree
	export MN_CACHE=$WORKDIR/checks-cache/maintainers-notes
}

setup() {
	require_tree
	NOTES=$BATS_TEST_TMPDIR/MAINTAINERS-notes.md
	cp "$WS/MAINTAINERS-notes.md" "$NOTES"
}

# check [NOTES]: the checker on NOTES (default: the workspace's notes);
# sets $status and $output.
check() {
	run "$WS/tests/tree/maintainers-notes.sh" "$@"
	echo "$output"
}

# line_of ERE [FILE]: the number of the first line of FILE ($NOTES) that
# matches ERE.
line_of() {
	grep -nE -m1 -- "$1" "${2:-$NOTES}" | cut -d: -f1
}

# block_line K/N: the line of vstatus' get_maintainer block for patch K/N.
block_line() {
	line_of "^\`\`\`get_maintainer $1 "
}

# drop_after LINE ERE: delete from $NOTES the first line after LINE that
# matches ERE.
drop_after() {
	awk -v l="$1" -v re="$2" 'NR > l && !d && $0 ~ re { d = 1; next } { print }' "$NOTES" >"$NOTES.new"
	mv "$NOTES.new" "$NOTES"
}

# series_copy: a copy of series/ for the test to change; prints its path.
series_copy() {
	cp -r "$WS/series" "$BATS_TEST_TMPDIR/series"
	echo "$BATS_TEST_TMPDIR/series"
}

@test "maintainers-notes: the notes agree with get_maintainer.pl on every vstatus commit" {
	local n section
	check
	[ "$status" -eq 0 ]
	[[ $output == "MAINTAINERS-notes.md agrees with get_maintainer.pl on "* ]]
	# One block per commit of the branch, each k/n with the commit's subject.
	n=$(git -C "$TREE" rev-list --count "$(root_branch vstatus)..vstatus")
	section=$(awk '/^## Series vstatus \(/ { on = 1; print; next } on && /^## / { exit } on' "$NOTES")
	[ "$(grep -c '^```get_maintainer [0-9]*/'"$n"' ' <<<"$section")" -eq "$n" ]
	grep -qxF "\`\`\`get_maintainer 1/$n $(git -C "$TREE" log --reverse --format=%s "$(root_branch vstatus)..vstatus" | head -n1)" <<<"$section"
}

@test "maintainers-notes: a maintainer dropped from a patch's block fails, naming the patch and the line" {
	local l
	l=$(block_line 3/6)
	drop_after "$l" '^Jiri Slaby '
	check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *"MAINTAINERS-notes.md:$l: vstatus 3/6 \"tty: n_tty: add VSTATUS (^T) to print the status line\""* ]]
	[[ $output == *"+Jiri Slaby <jirislaby@kernel.org> (supporter:TTY LAYER AND SERIAL DRIVERS)"* ]]
	[[ $output == *"1 problem(s)"* ]]
}

@test "maintainers-notes: a list or a role that get_maintainer.pl does not give fails" {
	local l
	l=$(block_line 2/6)
	sed -i "$((l + 1))s/(maintainer:/(supporter:/" "$NOTES"
	echo "linux-serial@vger.kernel.org (open list:TTY STATUS LINE (VSTATUS))" >"$BATS_TEST_TMPDIR/extra"
	sed -i "$((l + 1))r $BATS_TEST_TMPDIR/extra" "$NOTES"
	check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *":$l: vstatus 2/6 "* ]]
	[[ $output == *'-"David S. Miller" <davem@davemloft.net> (supporter:SPARC'* ]]
	[[ $output == *"-linux-serial@vger.kernel.org (open list:TTY STATUS LINE (VSTATUS))"* ]]
}

@test "maintainers-notes: a block whose subject or number is not the branch's fails" {
	local l
	l=$(block_line 5/6)
	sed -i "${l}s/describe the VSTATUS status line/describe VSTATUS/" "$NOTES"
	sed -i "s|^\`\`\`get_maintainer 6/6 |\`\`\`get_maintainer 7/6 |" "$NOTES"
	check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *":$l: vstatus 5/6: the block says \"Documentation: userspace-api: describe VSTATUS\", patch 5/6 of branch vstatus is \"Documentation: userspace-api: describe the VSTATUS status line\""* ]]
	[[ $output == *"vstatus 6/6 \"selftests: tty: add a test for the VSTATUS status line\": no \`\`\`get_maintainer 6/6 block"* ]]
	[[ $output == *"vstatus 7/6: branch vstatus has no patch 7/6"* ]]
}

@test "maintainers-notes: a files-table row that get_maintainer.pl -f contradicts fails" {
	local l row
	l=$(line_of '^\| `drivers/tty/tty_status.c` ')
	row=$(sed -n "${l}p" "$NOTES")
	[[ $row == *"TTY LAYER AND SERIAL DRIVERS; "* ]]
	sed -i "${l}s/TTY LAYER AND SERIAL DRIVERS; //" "$NOTES"
	# vstatus' first row for a file under include/, dropped.
	local section gone
	section=$(awk '/^## Series vstatus \(/ { on = 1; next } on && /^## / { exit } on' "$NOTES")
	gone=$(grep -m1 -o '^| `include/[^`]*`' <<<"$section" | tr -d '|` ')
	[ -n "$gone" ]
	drop_after "$(line_of '^## Series vstatus \(')" "^\\| \`$gone\` "
	check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *":$l: vstatus: the row for drivers/tty/tty_status.c is not what get_maintainer.pl says"* ]]
	# The fix it proposes is the row as the notes had it.
	[[ $output == *"+$row"* ]]
	[[ $output == *"vstatus: no row for $gone"* ]]
}

@test "maintainers-notes: a series in the notes with no branch fails, unless marked pending" {
	local dir l
	# A series that is in series/ but not on the tree: "ghost".
	dir=$(series_copy)
	mkdir "$dir/ghost"
	echo vstatus >"$dir/ghost/base"
	: >"$dir/ghost/series"
	run git -C "$TREE" rev-parse -q --verify refs/heads/ghost
	[ "$status" -ne 0 ]
	printf '%s\n' '' '## Series ghost (pending): a series not on the tree yet' >>"$NOTES"
	sed -i 's/^3\. nsig: .*/&\n4. ghost/' "$NOTES"
	SERIES_DIR=$dir check "$NOTES"
	[ "$status" -eq 0 ]
	l=$(line_of '^## Series ghost \(pending\)')
	sed -i "${l}s/ (pending)//" "$NOTES"
	SERIES_DIR=$dir check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *":$l: series ghost: no branch ghost in $TREE"*"not marked (pending)"* ]]
}

@test "maintainers-notes: a pending series that is on the tree fails" {
	local l
	l=$(line_of '^## Series vstatus ')
	sed -i -E "${l}s/^## Series vstatus \([^)]*\)/## Series vstatus (pending)/" "$NOTES"
	check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *":$l: series vstatus is marked (pending), but branch vstatus is in the tree"* ]]
}

@test "maintainers-notes: every series in series/ needs a section" {
	local dir
	dir=$(series_copy)
	mkdir "$dir/extra"
	echo vstatus >"$dir/extra/base"
	: >"$dir/extra/series"
	SERIES_DIR=$dir check
	[ "$status" -eq 1 ]
	[[ $output == *"series/extra has no \"## Series extra\" section"* ]]
}

@test "maintainers-notes: the merge order names every series once, after its base" {
	local dir l
	dir=$(series_copy)
	# nsig sits on vstatus: listing it before vstatus is wrong.
	[ "$(cat "$dir/nsig/base")" = vstatus ]
	l=$(line_of '^```merge-order')
	sed -i "$((l + 1))s/^1\\. vstatus:/1. nsig:/; $((l + 3))s/^3\\. nsig:/3. vstatus:/" "$NOTES"
	grep -q '^1\. nsig:' "$NOTES"
	grep -q '^3\. vstatus:' "$NOTES"
	SERIES_DIR=$dir check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *":$l: merge order: nsig is applied on vstatus (series/nsig/base), so vstatus merges first"* ]]
	cp "$WS/MAINTAINERS-notes.md" "$NOTES"
	sed -i "$((l + 3))d" "$NOTES"
	check "$NOTES"
	[ "$status" -eq 1 ]
	[[ $output == *":$l: merge order: series nsig is not in it"* ]]
}

@test "maintainers-notes: a branch that is not on the base its series/ names fails at once, naming it" {
	local dir
	dir=$(series_copy)
	# nsig's branch is on vstatus (6.12), not on its 6.1 backport.
	echo vstatus-6.1 >"$dir/nsig/base"
	SERIES_DIR=$dir run timeout 300 "$WS/tests/tree/maintainers-notes.sh"
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"series nsig: branch nsig is not on vstatus-6.1 (series/nsig/base): apply it again"* ]]
}

@test "maintainers-notes: the cover letter's To/Cc are the notes' recipients, cc-again and get_maintainer.pl's names" {
	local dir cover author
	dir=$(series_copy)
	cover=$dir/vstatus/cover-letter
	# The author is no recipient: b4 and the check leave them out.
	author=$(git -C "$TREE" log -1 --format=%ae vstatus)
	run grep -qiF "$author" "$cover"
	[ "$status" -eq 1 ]
	# Drop one of each kind from the cover letter, add a stranger, and
	# make a To: a Cc:.
	sed -i -e '/^Cc: linux-api@vger.kernel.org$/d' -e '/^Cc: Peter Zijlstra /d' \
		-e '/^Cc: Shuah Khan /d' -e 's/^To: Jiri Slaby /Cc: Jiri Slaby /' "$cover"
	echo "Cc: Mallory <mallory@example.org>" >>"$cover"
	SERIES_DIR=$dir check
	[ "$status" -eq 1 ]
	[[ $output == *":$(line_of '^```recipients'): vstatus: the notes name linux-api@vger.kernel.org;"* ]]
	[[ $output == *":$(line_of '^```cc-again'): vstatus: the notes name peterz@infradead.org;"* ]]
	[[ $output == *":$(block_line 6/6): vstatus: the notes name shuah@kernel.org;"* ]]
	[[ $output == *"vstatus: the notes say To: jirislaby@kernel.org; the cover letter's To: lines do not"* ]]
	[[ $output == *"vstatus: series/vstatus/cover-letter has mallory@example.org, which no block of the notes names"* ]]
	[[ $output == *"5 problem(s)"* ]]
}

@test "maintainers-notes: a series on another series is checked from the base its series/ names" {
	local dir scratch c
	# A scratch repository that shares the tree's objects, with branches
	# every branch of the tree (the distro bases and the series) and a
	# one-patch series "demo" on vstatus: the tree's own branches are left
	# alone.
	scratch=$BATS_TEST_TMPDIR/tree
	git init -q "$scratch"
	echo "$TREE/.git/objects" >"$scratch/.git/objects/info/alternates"
	git -C "$TREE" for-each-ref --format='update %(refname) %(objectname)' refs/heads/ |
		git -C "$scratch" update-ref --stdin
	# A fixed date, so that the commit, and get_maintainer.pl's answers for
	# it in MN_CACHE, are the same from one run to the next.
	export GIT_AUTHOR_DATE="2024-01-01T00:00:00Z" GIT_COMMITTER_DATE="2024-01-01T00:00:00Z"
	c=$(tree_commit "$(git -C "$TREE" rev-parse vstatus)" "signal: say what signal.c is" \
		"sed -i '1a /* Signals. */' kernel/signal.c")
	git -C "$scratch" update-ref refs/heads/demo "$c"
	dir=$(series_copy)
	mkdir "$dir/demo"
	echo vstatus >"$dir/demo/base"
	: >"$dir/demo/series"
	printf '%s\n' '' '## Series demo: a test series on vstatus' '' >>"$NOTES"
	sed -i 's/^3\. nsig: .*/&\n4. demo/' "$NOTES"
	TREE=$scratch SERIES_DIR=$dir check "$NOTES"
	[ "$status" -eq 1 ]
	# One patch (1/1, not 7/7): demo is counted from vstatus.
	[[ $output == *"demo 1/1 \"signal: say what signal.c is\": no \`\`\`get_maintainer 1/1 block"* ]]
	[[ $output == *"demo: no row for kernel/signal.c"* ]]
	[[ $output == *"demo: no \`\`\`recipients block"* ]]
	[[ $output != *"demo: no row for drivers/"* ]]
	# --print gives the figures; with them, recipients and a cover letter
	# that holds them, the notes agree.
	TREE=$scratch SERIES_DIR=$dir run "$WS/tests/tree/maintainers-notes.sh" --print demo
	[ "$status" -eq 0 ]
	[[ $output == *'| `kernel/signal.c` | 1 | '* ]]
	[[ $output == *'```get_maintainer 1/1 signal: say what signal.c is'* ]]
	printf '%s\n' "$output" '' '```recipients' 'To: linux-kernel@vger.kernel.org' '```' >>"$NOTES"
	{
		echo "demo"
		echo
		sed -n '/^```get_maintainer/,/^```$/p' <<<"$output" | grep -oE '<[^>]+>|^[^ <"]+@[^ ]+' | tr -d '<>' |
			grep -viF "$(git -C "$TREE" log -1 --format=%ae "$c")" | sort -u | sed 's/^/Cc: /'
	} >"$dir/demo/cover-letter"
	sed -i 's/^Cc: \(linux-kernel@vger.kernel.org\)$/To: \1/' "$dir/demo/cover-letter"
	TREE=$scratch SERIES_DIR=$dir check "$NOTES"
	[ "$status" -eq 0 ]
	# demo is checked with the others, in the notes' order.
	[[ $output == *": vstatus vstatus-6.1 nsig sigpwr demo" ]]
}
