#!/usr/bin/env bats
# Bad input of the third round (issue "nothing lost, nothing leaked, every
# input named"): git's variables of another repository, a WS_LOCK_HELD of
# the user's own, a symlinked lock.owner, an empty kernel image, a WORKDIR
# with whitespace, series files with CRLF or paths, out-of-range job counts.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers
bats_require_minimum_version 1.5.0

setup() {
	imported_workspace
}

# other_repo: a repository with a staged file, as a pre-commit hook sees it.
other_repo() {
	OTHER=$BATS_TEST_TMPDIR/other
	git init -q "$OTHER"
	echo staged >"$OTHER/file"
	git -C "$OTHER" add file
	cp "$OTHER/.git/index" "$BATS_TEST_TMPDIR/index.before"
}

# edit_in WORKDIR TEXT: branch one of that workspace's tree, amended.
edit_in() {
	git -C "$1/linux" checkout -q one
	echo "$2" >"$1/linux/a.c"
	git -C "$1/linux" commit -qa --amend --no-edit
	git -C "$1/linux" checkout -q --detach
}

@test "a hook's GIT_INDEX_FILE and GIT_DIR reach no git command of the workspace" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	other_repo
	GIT_DIR=$OTHER/.git GIT_INDEX_FILE=$OTHER/.git/index GIT_WORK_TREE=$OTHER run ws apply.sh
	[ "$status" -eq 0 ]
	GIT_DIR=$OTHER/.git GIT_INDEX_FILE=$OTHER/.git/index run ws build.sh series
	[ "$status" -eq 0 ]
	# The other repository: its index and its staged file as they were,
	# and no branch of the workspace's.
	cmp "$OTHER/.git/index" "$BATS_TEST_TMPDIR/index.before"
	[ "$(git -C "$OTHER" diff --cached --name-only)" = file ]
	run git -C "$OTHER" rev-parse -q --verify one
	[ "$status" -ne 0 ]
	# The workspace's tree has the series.
	tree rev-parse -q --verify one
	[[ $(results_row one 1 build) == pass* ]]
}

@test "make passes no GIT_DIR or GIT_INDEX_FILE on to what it runs" {
	other_repo
	cd "$WS"
	GIT_DIR=$OTHER/.git GIT_INDEX_FILE=$OTHER/.git/index run make -s -o deps --no-print-directory \
		-f - probe <<<$'include Makefile\nprobe:\n\t@env | grep -c "^GIT_\\(DIR\\|INDEX_FILE\\)=" || true'
	[ "$output" = 0 ]
}

@test "WS_LOCK_HELD in the user's environment takes no lock: a second run still waits for the first" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	flock "$WORKDIR/lock" sleep 6 &
	local holder=$!
	sleep 0.5
	WS_LOCK_HELD=1 run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"another workspace run holds"*"gave up waiting"* ]]
	wait "$holder"
	run tree rev-parse -q --verify one
	[ "$status" -ne 0 ]
}

@test "a nested script of a run shares its lock; lock.owner is replaced, never written through a symlink" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	echo "not the workspace's" >"$BATS_TEST_TMPDIR/elsewhere"
	ln -sfn "$BATS_TEST_TMPDIR/elsewhere" "$WORKDIR/lock.owner"
	# all.sh holds the lock and runs apply.sh, build.sh... under it.
	run env NO_DEPS=1 DEBUG=0 CHECKS=signoff bash "$WS/scripts/all.sh"
	[ "$status" -eq 0 ]
	[[ $output != *"another workspace run holds"* ]]
	[ "$(cat "$BATS_TEST_TMPDIR/elsewhere")" = "not the workspace's" ]
	[ ! -L "$WORKDIR/lock.owner" ]
}

@test "a build that leaves an empty kernel image fails, saying so, and is not booted" {
	# The fixture's kernel image is its ./behaviour: a commit that empties it.
	make_series one linux-source "behaviour:empty:fixture: the image is empty"
	local scratch=$BATS_TEST_TMPDIR/scratch-one
	: >"$scratch/behaviour"
	git -C "$scratch" commit -q -a --amend --no-edit
	rm "$SERIES_DIR/one/"*.patch
	git -C "$scratch" format-patch -q --zero-commit -o "$SERIES_DIR/one" HEAD~1
	ws apply.sh
	tree show one:behaviour | cmp - /dev/null
	run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 build) == "fail error: make bzImage succeeded, but arch/x86/boot/bzImage is empty"* ]]
	[[ $(results_row one 0 build) == pass* ]]
	run ws boot.sh series
	[[ $(results_row one 1 boot) == "skip no kernel: build failed"* ]]
}

@test "a WORKDIR with a space, a tab or a newline is refused before any work, naming it" {
	local w
	for w in "$BATS_TEST_TMPDIR/with space" "$BATS_TEST_TMPDIR/with"$'\t'"tab" "$BATS_TEST_TMPDIR/with"$'\n'"newline"; do
		WORKDIR=$w run ws apply.sh
		[ "$status" -ne 0 ]
		[[ $output == "error: WORKDIR must not contain a space, a tab or a newline"* ]]
		[ ! -e "$w" ]
	done
}

@test "a series file with CRLF line ends applies; an entry with a path is refused, naming it" {
	make_series one linux-source "a.c:int a;:fixture: add a" "b.c:int b;:fixture: add b"
	sed -i 's/$/\r/' "$SERIES_DIR/one/series"
	run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-list --count linux-source..one)" -eq 2 ]
	cp "$SERIES_DIR/one/0001-fixture-add-a.patch" "$BATS_TEST_TMPDIR/x.patch"
	for entry in ../x.patch sub/x.patch .hidden.patch; do
		echo "$entry" >"$SERIES_DIR/one/series"
		run ws apply.sh
		[ "$status" -ne 0 ]
		[[ $output == *"series/one/series lists '$entry': a patch is a file of series/one/ itself"* ]]
	done
}

@test "job counts past the machine's reach, and CROSS_PAR and CROSS_MAX_OBJS, are checked" {
	local v
	for v in JOBS=999999 CHECK_JOBS=0 CROSS_PAR=abc CROSS_MAX_OBJS=100000; do
		run env "$v" bash "$WS/scripts/apply.sh"
		[ "$status" -ne 0 ]
		[[ $output == "error: ${v%%=*} must be a whole number from 1 to 9999 (got '${v#*=}')" ]]
	done
}

@test "export keeps a .patch file the series does not list, whether or not the branch changed" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	echo "work in progress" >"$SERIES_DIR/one/0099-wip.patch"
	run ws export.sh
	[ "$status" -eq 0 ]
	[ "$(cat "$SERIES_DIR/one/0099-wip.patch")" = "work in progress" ]
	edit_in "$WORKDIR" "int edited;"
	run ws export.sh
	[ "$status" -eq 0 ]
	[[ $output == *"1 of them new or changed"* ]]
	[ "$(cat "$SERIES_DIR/one/0099-wip.patch")" = "work in progress" ]
	run ! grep -q 0099 "$SERIES_DIR/one/series"
}

@test "export into a series/NAME that is a symlink writes its target and keeps the link" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	mv "$SERIES_DIR/one" "$BATS_TEST_TMPDIR/one-elsewhere"
	ln -s "$BATS_TEST_TMPDIR/one-elsewhere" "$SERIES_DIR/one"
	ws apply.sh
	edit_in "$WORKDIR" "int edited;"
	run ws export.sh
	[ "$status" -eq 0 ]
	[ -L "$SERIES_DIR/one" ]
	grep -q "int edited;" "$BATS_TEST_TMPDIR/one-elsewhere/"*.patch
	[ -z "$(find "$BATS_TEST_TMPDIR" -maxdepth 1 -name '.one-elsewhere.*')" ]
}

@test "an export killed between its swap and its record is finished by the next export, without FORCE" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	local before_ref before_cfg
	before_ref=$(tree rev-parse refs/workspace/applied/one)
	before_cfg=$(tree config workspace.one.applied)
	edit_in "$WORKDIR" "int edited;"
	ws export.sh
	# As if SIGKILL came after the swap: series/one/ is new, the record old.
	tree update-ref refs/workspace/applied/one "$before_ref"
	tree config workspace.one.applied "$before_cfg"
	run ws export.sh
	[ "$status" -eq 0 ]
	[[ $output == *"already holds branch one"* ]]
	run ws apply.sh
	[ "$status" -eq 0 ]
	[[ $output == *"one: up to date"* ]]
}

@test "a WORKDIR with a ~ the shell did not expand is refused, saying what to write; no '~' is made" {
	cd "$BATS_TEST_TMPDIR"
	# shellcheck disable=SC2088 # the ~ the shell did not expand is the point
	WORKDIR='~/work' run bash "$WS/scripts/clean.sh"
	[ "$status" -ne 0 ]
	[ "$output" = "error: WORKDIR '~/work' starts with a ~ the shell did not expand (it was quoted): write it as \$HOME/work" ]
	[ ! -e "$BATS_TEST_TMPDIR/~" ]
}

@test "the fixture's QEMU answers --version, and its boots print no error about it" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	ws build.sh series
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output != *"cat: ''"* ]]
	[[ $("$QEMU" --version) == "QEMU emulator version 0.0.0"* ]]
}

@test "git am failing on a patch that applies (a full disk) says so, and does not blame the patch" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	# A git whose am fails as on a full disk; every other command is git's.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/git" <<-EOF2
		#!/bin/sh
		for a; do
		    [ "\$a" = am ] && [ "\$*" = "\${*%--abort}" ] && { echo "fatal: unable to write new index file: No space left on device" >&2; exit 128; }
		done
		exec $(command -v git) "\$@"
	EOF2
	chmod +x "$BATS_TEST_TMPDIR/bin/git"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"error: series/one/0001-fixture-add-a.patch applies, but git am could not write it (is the disk full?): fatal: unable to write new index file: No space left on device; branch one is unchanged"* ]]
	[[ $output != *"does not apply"* ]]
	[[ $(results_row one 1 apply) == "fail 0001-fixture-add-a.patch applies, but git am failed: fatal: unable to write new index file"* ]]
}


@test "two WORKDIRs exporting the same series at once: one writes, the other is told series/ changed" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	local w1=$WORKDIR w2=$BATS_TEST_TMPDIR/work2 round
	WORKDIR=$w2 ws import.sh >/dev/null
	for round in 1 2 3; do
		WORKDIR=$w1 FORCE=1 ws apply.sh >/dev/null 2>&1
		WORKDIR=$w2 FORCE=1 ws apply.sh >/dev/null 2>&1
		edit_in "$w1" "int one_$round;"
		edit_in "$w2" "int two_$round;"
		WORKDIR=$w1 ws export.sh >"$BATS_TEST_TMPDIR/out1" 2>&1 &
		local p1=$!
		WORKDIR=$w2 ws export.sh >"$BATS_TEST_TMPDIR/out2" 2>&1 &
		local p2=$! rc1=0 rc2=0
		wait "$p1" || rc1=$?
		wait "$p2" || rc2=$?
		cat "$BATS_TEST_TMPDIR/out1" "$BATS_TEST_TMPDIR/out2"
		# Exactly one wrote; the other refused, naming the hand edit.
		[ $((rc1 == 0)) -ne $((rc2 == 0)) ]
		grep -q "was changed by hand since it was last applied or exported" "$BATS_TEST_TMPDIR/out$((rc1 == 0 ? 2 : 1))"
		grep -q "int $( ((rc1 == 0)) && echo one || echo two)_$round;" "$SERIES_DIR"/one/0001-*.patch
		[ -z "$(find "$SERIES_DIR" -maxdepth 1 -name '.one.*')" ]
	done
}
