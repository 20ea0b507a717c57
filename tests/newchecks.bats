#!/usr/bin/env bats
# The docs and selftests checks on a small fixture repository, with a fake
# make (and sphinx-build) that prints the messages a file in the worktree
# holds, so that the checks' own logic (which book or selftest directory,
# the comparison with the parent, the exit status) runs in a second.
# The real builds are tested in tests/tree/docs.bats and selftests.bats.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

WS=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

setup() {
	export TREE=$BATS_TEST_TMPDIR/linux
	export GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL="ada@example.org"
	export GIT_COMMITTER_NAME="Ada Author" GIT_COMMITTER_EMAIL="ada@example.org"
	local bin=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bin"
	# make -C DIR [SPHINXDIRS=BOOK] [TARGETS=DIR] GOAL: prints what the
	# worktree's fake-messages file for that book or directory holds (with
	# @SRC@ standing for the worktree), exits with its fake-rc; `headers`
	# fails when the worktree has a file fake-headers-fail.  Each call is
	# counted in $BATS_TEST_TMPDIR/make-calls.
	cat >"$bin/make" <<'EOF'
#!/usr/bin/env bash
dir=. what=""
while (($#)); do
	case $1 in
	-C) dir=$2; shift ;;
	SPHINXDIRS=*) what=$dir/Documentation/${1#*=} ;;
	TARGETS=*) what=$dir/${1#*=} ;;
	headers) [[ ! -e $dir/fake-headers-fail ]] || { echo "headers: failed" >&2; exit 2; }; exit 0 ;;
	esac
	shift
done
echo "$what" >>"$FAKE_CALLS"
[[ ! -f $what/fake-messages ]] || sed "s#@SRC@#${dir%/tools/testing/selftests}#g" "$what/fake-messages" >&2
exit "$(cat "$what/fake-rc" 2>/dev/null || echo 0)"
EOF
	printf '#!/bin/sh\necho "sphinx-build 5.3.0"\n' >"$bin/sphinx-build"
	chmod +x "$bin/make" "$bin/sphinx-build"
	export PATH=$bin:$PATH FAKE_CALLS=$BATS_TEST_TMPDIR/make-calls
	git init -q "$TREE"
	mkdir -p "$TREE/Documentation/cdrom" "$TREE/Documentation/admin-guide" \
		"$TREE/Documentation/translations/zh_CN" "$TREE/tools/testing/selftests/net/forwarding" \
		"$TREE/tools/testing/selftests/kcmp"
	touch "$TREE/Documentation/conf.py" "$TREE/Documentation/cdrom/index.rst" \
		"$TREE/Documentation/admin-guide/index.rst" "$TREE/Documentation/translations/zh_CN/index.rst" \
		"$TREE/tools/testing/selftests/lib.mk" "$TREE/tools/testing/selftests/net/Makefile" \
		"$TREE/tools/testing/selftests/net/forwarding/Makefile" "$TREE/tools/testing/selftests/kcmp/Makefile"
	printf 'TARGETS += kcmp\nTARGETS += net\nTARGETS += net/forwarding\n' >"$TREE/tools/testing/selftests/Makefile"
	git -C "$TREE" add -A
	git -C "$TREE" commit -q -m base
}

# commit_files SUBJECT PATH=CONTENT...: a commit on HEAD writing each file
# (printf's %b escapes in CONTENT); prints its id.
commit_files() {
	local subject=$1 arg
	shift
	for arg in "$@"; do
		mkdir -p "$(dirname "$TREE/${arg%%=*}")"
		printf '%b' "${arg#*=}" >"$TREE/${arg%%=*}"
		git -C "$TREE" add "${arg%%=*}"
	done
	git -C "$TREE" commit -q -m "$subject"
	git -C "$TREE" rev-parse HEAD
}

# check NAME COMMIT: runs checks/NAME/run as scripts/check.sh would.
check() {
	mkdir -p "$BATS_TEST_TMPDIR/scratch-$1"
	run env CHECK_SCRATCH="$BATS_TEST_TMPDIR/scratch-$1" CHECK_SERIES_DIR=/nonexistent \
		CHECK_BASE="" CHECK_HEAD="$2" "$WS/checks/$1/run" "$2" "$BATS_TEST_TMPDIR/log"
	echo "summary: $output"
	cat "$BATS_TEST_TMPDIR/log"
}

w=Documentation/cdrom

@test "docs: a second copy of a warning the parent has counts as new" {
	commit_files "one" "$w/fake-messages=@SRC@/$w/a.rst:10: WARNING: undefined label: 'x'\n"
	commit_files "two" "$w/a.rst=text" \
		"$w/fake-messages=@SRC@/$w/a.rst:12: WARNING: undefined label: 'x'\n@SRC@/$w/a.rst:30: WARNING: undefined label: 'x'\n" >"$BATS_TEST_TMPDIR/sha"
	check docs "$(cat "$BATS_TEST_TMPDIR/sha")"
	[ "$status" -eq 250 ]
	[ "$output" = "cdrom: 1 new warnings: $w/a.rst: WARNING: undefined label: 'x'" ]
}

@test "docs: a warning that only moved, and one in a path like the worktree's, are not new" {
	commit_files "one" "$w/fake-messages=@SRC@/$w/a.rst:10: WARNING: w\n@SRC@/$w/b:3: @SRC@/x.c:100: WARNING: Duplicate C declaration, also defined at cdrom/c:824.\n"
	commit_files "two" "$w/fake-messages=@SRC@/$w/a.rst:11: WARNING: w\n@SRC@/$w/b:4: @SRC@/x.c:107: WARNING: Duplicate C declaration, also defined at cdrom/c:900.\n" >"$BATS_TEST_TMPDIR/sha"
	check docs "$(cat "$BATS_TEST_TMPDIR/sha")"
	[ "$status" -eq 0 ]
	[ "$output" = "no new documentation warnings in cdrom" ]
	grep -qx "$w/b: x.c: WARNING: Duplicate C declaration, also defined at cdrom/c." "$BATS_TEST_TMPDIR/log"
}

@test "docs: a new Sphinx error fails; one the parent has passes" {
	local sha
	sha=$(commit_files "err" "$w/fake-messages=@SRC@/$w/a.rst:5: ERROR: Unknown directive type \"x\".\n")
	check docs "$sha"
	[ "$status" -eq 1 ]
	[[ $output == "cdrom: 1 new Sphinx errors: $w/a.rst: ERROR: Unknown directive type"* ]]
	sha=$(commit_files "again" "$w/a.rst=more")
	check docs "$sha"
	[ "$status" -eq 0 ]
}

@test "docs: make htmldocs failing where the parent's worked fails" {
	check docs "$(commit_files "boom" "$w/fake-rc=2" "$w/fake-messages=Exception occurred:\n")"
	[ "$status" -eq 1 ]
	[[ $output == "cdrom: make htmldocs fails (exit 2): Exception occurred:" ]]
}

@test "docs: a build that failed is built again on the next run" {
	local sha
	sha=$(commit_files "boom" "$w/fake-rc=2")
	check docs "$sha"
	[ "$status" -eq 1 ]
	check docs "$sha"
	[ "$status" -eq 1 ]
	cat "$FAKE_CALLS"
	[ "$(grep -c . "$FAKE_CALLS")" -eq 3 ]
}

@test "docs: the ABI is built in the admin-guide, a translation in its language's book" {
	check docs "$(commit_files "abi" "Documentation/ABI/testing/sysfs-x=What: x\n" \
		"Documentation/translations/zh_CN/cdrom/a.rst=text")"
	[ "$status" -eq 0 ]
	[ "$output" = "no new documentation warnings in admin-guide translations/zh_CN" ]
	grep -q "Documentation/admin-guide$" "$FAKE_CALLS"
	grep -q "Documentation/translations/zh_CN$" "$FAKE_CALLS"
}

@test "docs: in a book the parent lacks, every warning is new" {
	check docs "$(commit_files "new book" "Documentation/newbook/index.rst=x" \
		"Documentation/newbook/fake-messages=@SRC@/Documentation/newbook/index.rst:1: WARNING: old news\n")"
	[ "$status" -eq 250 ]
	[ "$output" = "newbook: 1 new warnings: Documentation/newbook/index.rst: WARNING: old news" ]
	grep -q "a new book" "$BATS_TEST_TMPDIR/log"
}

@test "docs: only files outside a book skip, saying which; no documentation passes at once" {
	check docs "$(commit_files "conf" "Documentation/conf.py=# x")"
	[ "$status" -eq 4 ]
	[ "$output" = "no book to build: Documentation/conf.py is outside every book" ]
	check docs "$(commit_files "code" "kernel/x.c=int x;")"
	[ "$status" -eq 0 ]
	[ "$output" = "no documentation touched" ]
	[ ! -e "$FAKE_CALLS" ]
}

s=tools/testing/selftests

@test "selftests: a path is built with the longest TARGETS entry it is under" {
	check selftests "$(commit_files "fwd" "$s/net/forwarding/x.sh=true" "$s/lib.mk=# x")"
	[ "$status" -eq 0 ]
	[ "$output" = "no new compiler messages in the selftests of net/forwarding" ]
	grep -q "lib.mk" "$BATS_TEST_TMPDIR/log"
	run grep -c "selftests/net$" "$FAKE_CALLS"
	[ "$output" = 0 ]
}

@test "selftests: a build that fails at the parent too warns; new messages count once per copy" {
	commit_files "broken" "$s/kcmp/fake-rc=2" "$s/kcmp/fake-messages=@SRC@/usr/include/x.h:1:2: warning: h\na.c:1:2: warning: w [-Wx]\n"
	check selftests "$(commit_files "still broken" "$s/kcmp/a.c=x" \
		"$s/kcmp/fake-messages=@SRC@/usr/include/x.h:3:2: warning: h\na.c:5:2: warning: w [-Wx]\n")"
	[ "$status" -eq 250 ]
	[ "$output" = "kcmp: does not build, nor does the parent (make exit 2)" ]
	check selftests "$(commit_files "worse" "$s/kcmp/a.c=y" \
		"$s/kcmp/fake-messages=@SRC@/usr/include/x.h:3:2: warning: h\na.c:5:2: warning: w [-Wx]\na.c:9:2: warning: w [-Wx]\n")"
	[ "$status" -eq 250 ]
	[ "$output" = "kcmp: 1 new warnings: kcmp: a.c: warning: w [-Wx]" ]
}

@test "selftests: headers that do not install fail the check, and are not kept" {
	local sha
	sha=$(commit_files "hdr" "$s/kcmp/a.c=x" "fake-headers-fail=x")
	check selftests "$sha"
	[ "$status" -eq 1 ]
	[ "$output" = "kcmp: could not check out or install the headers (see the log)" ]
	check selftests "$sha"
	[ "$status" -eq 1 ]
}

@test "selftests: a build that failed is built again on the next run" {
	local sha
	sha=$(commit_files "boom" "$s/kcmp/fake-rc=2")
	check selftests "$sha"
	[ "$status" -eq 1 ]
	check selftests "$sha"
	[ "$status" -eq 1 ]
	cat "$FAKE_CALLS"
	[ "$(grep -c . "$FAKE_CALLS")" -eq 3 ]
}

@test "selftests: the parent's build is kept for the next commit of a series" {
	local one two
	one=$(commit_files "one" "$s/kcmp/a.c=1" "$s/kcmp/fake-messages=a.c:1:1: warning: w\n")
	two=$(commit_files "two" "$s/kcmp/a.c=2")
	check selftests "$one"
	[ "$status" -eq 250 ]
	check selftests "$two"
	[ "$status" -eq 0 ]
	cat "$FAKE_CALLS"
	[ "$(wc -l <"$FAKE_CALLS")" -eq 3 ]
}

@test "selftests: a build without a message does not build the parent" {
	check selftests "$(commit_files "one" "$s/kcmp/a.c=1")"
	[ "$status" -eq 0 ]
	grep -q "the parent not built (nothing to compare)" "$BATS_TEST_TMPDIR/log"
	[ "$(wc -l <"$FAKE_CALLS")" -eq 1 ]
}

@test "selftests: only shared files skip, saying so; no selftest passes at once" {
	check selftests "$(commit_files "lib" "$s/lib.mk=# y")"
	[ "$status" -eq 4 ]
	[ "$output" = "no selftest directory to build (touched: lib.mk)" ]
	check selftests "$(commit_files "code" "kernel/x.c=int x;")"
	[ "$status" -eq 0 ]
	[ "$output" = "no selftest touched" ]
}

# comm_fails: a comm that fails as GNU comm does in a UTF-8 locale on lists
# sorted in C order ("file 2 is not in sorted order", exit 1).
comm_fails() {
	printf '#!/bin/sh\necho "comm: file 2 is not in sorted order" >&2\nexit 1\n' >"$BATS_TEST_TMPDIR/bin/comm"
	chmod +x "$BATS_TEST_TMPDIR/bin/comm"
}

@test "docs and selftests: a step that fails inside the comparison is an error, never a pass" {
	comm_fails
	check docs "$(commit_files "err" "$w/fake-messages=@SRC@/$w/a.rst:5: ERROR: Unknown directive type \"x\".\n")"
	[ "$status" -eq 1 ]
	[[ $output == "cdrom: the check stopped before its verdict (exit 1; see the log)" ]]
	check selftests "$(commit_files "warns" "tools/testing/selftests/kcmp/fake-messages=kcmp.c:3:5: warning: unused [-Wunused]\n")"
	[ "$status" -eq 1 ]
	[[ $output == "kcmp: the check stopped before its verdict (exit 1; see the log)" ]]
}
