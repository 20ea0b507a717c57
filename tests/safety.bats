#!/usr/bin/env bats
# What must never happen: make clean and make distclean removing what is
# not theirs, the tests or SEND in the environment sending mail, make
# export losing hand edits or leaving series/ half-written, and a broken
# series/ letting a target succeed having done nothing.  On the fixture
# kernel (tests/helpers.bash), through make where the Makefile is part of
# the story (with -o deps: the fixture's KVER has no package to install).
# shellcheck disable=SC2154 # $status, $output, $lines are set by bats' run

load helpers

# setup_file: the fixture imported, with series "one" (three patches, a
# cover letter b4 can send) applied, once; each test gets a copy.
setup_file() {
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR/template
	mkdir -p "$BATS_TEST_TMPDIR"
	setup_workspace
	isolate_user
	sender_identity
	ws import.sh >/dev/null
	make_series one linux-source "drivers/a.c:int a;:fixture: add a" \
		"main.c:int b;:fixture: add b" "doc.txt:text:fixture: add doc"
	printf '%s\n' "fixture: one series" "" "A fixture series." "" \
		"To: Tom <tom@example.org>" "Cc: list@example.org" >"$SERIES_DIR/one/cover-letter"
	ws apply.sh >/dev/null
	verified one
	# Not the apply worktree: a copy of it would still be the template's.
	tree worktree remove --force "$WORKDIR/apply"
}

setup() {
	setup_workspace
	isolate_user
	sender_identity
	unset SEND SEND_IGNORED MBOX B4_CONFIG SMTP_PID NO_DEPS
	cp -a "$BATS_FILE_TMPDIR/template/work" "$WORKDIR"
	rm -rf "$SERIES_DIR"
	cp -a "$BATS_FILE_TMPDIR/template/series" "$SERIES_DIR"
	# The tarball that was imported (a new one would be a new base).
	export TARBALL=$BATS_FILE_TMPDIR/template/linux-source-9.9.tar.xz
	ORIG_PATH=$PATH
	# Every rm of these tests removes only what is under the test's own
	# directory: a clean or distclean gone wrong cannot reach the machine.
	guard_rm
}

teardown() {
	if [[ -n ${SMTP_PID:-} ]]; then kill "$SMTP_PID" 2>/dev/null || true; fi
	# bats' own clean-up after the test must get the real rm.
	PATH=$ORIG_PATH
}

# guard_rm: an rm first in PATH that removes only what is under
# $BATS_TEST_TMPDIR and lists the rest, not removed, in $RM_REFUSED.
guard_rm() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	export RM_REFUSED=$BATS_TEST_TMPDIR/rm-refused
	: >"$RM_REFUSED"
	cat >"$BATS_TEST_TMPDIR/bin/rm" <<-EOF
		#!/bin/bash
		args=() rc=0 opts=1
		for a in "\$@"; do
			if ((opts)) && [[ \$a == -* ]]; then
				[[ \$a != -- ]] || opts=0
				args+=("\$a")
				continue
			fi
			r=\$(realpath -m -- "\$(dirname -- "\$a")")/\$(basename -- "\$a")
			if [[ \$r == "$BATS_TEST_TMPDIR"/* ]]; then
				args+=("\$a")
			else
				printf '%s\n' "\$a" >>"$RM_REFUSED"
				rc=1
			fi
		done
		/bin/rm "\${args[@]}" || rc=\$?
		exit \$rc
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/rm"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH
}

# wsmake ARGS...: make in the repository, without make deps.
wsmake() {
	make -s -C "$WS" -o deps "$@"
}

# fake_workspace DIR: what make clean and distclean recognise as a
# workspace (linux/.git and the lock), with something in every directory.
fake_workspace() {
	local d
	git init -q "$1/linux"
	: >"$1/lock"
	for d in build/smoke boots artifacts report checks-cache ccache backup outgoing; do
		mkdir -p "$1/$d"
		echo data >"$1/$d/file"
	done
}

# checksum DIR: one hash of every file in DIR (hidden ones too), names and
# contents.
checksum() {
	(cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
}

# edit_commit N: the branch "one" in the tree with commit N (1-based) given
# one more line, as the user would with git rebase -i.
edit_commit() {
	tree checkout -q one
	GIT_SEQUENCE_EDITOR="sed -i '$1s/^pick/edit/'" git -C "$WORKDIR/linux" rebase -q -i linux-source
	local f
	f=$(tree diff-tree --no-commit-id --name-only -r HEAD | head -n1)
	echo "/* edit $RANDOM */" >>"$WORKDIR/linux/$f"
	tree commit -q -a --amend --no-edit
	GIT_EDITOR=true git -C "$WORKDIR/linux" rebase --continue >/dev/null
	tree checkout -q --detach
}

# ---- make clean, make distclean ------------------------------------------

@test "make clean and distclean refuse an empty or a relative WORKDIR, name it, and remove nothing" {
	run wsmake clean WORKDIR=
	echo "$output"
	cat "$RM_REFUSED"
	[ ! -s "$RM_REFUSED" ]
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR is empty"* ]]
	run wsmake clean WORKDIR=work
	echo "$output"
	cat "$RM_REFUSED"
	[ ! -s "$RM_REFUSED" ]
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR=work is a relative path; give it as an absolute one (WORKDIR=$WS/work)"* ]]
	# distclean, whose script lib.sh would give an empty WORKDIR the
	# default: the user's real workspace.
	fake_workspace "$HOME/.cache/vstatus-workspace"
	run wsmake distclean WORKDIR=
	[ -d "$HOME/.cache/vstatus-workspace/linux/.git" ]
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR is empty"* ]]
	run wsmake distclean WORKDIR=work
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR=work is a relative path"* ]]
	[ ! -s "$RM_REFUSED" ]
}

@test "make clean of a WORKDIR with a space removes only that workspace's build directories" {
	w="$BATS_TEST_TMPDIR/my work"
	fake_workspace "$w"
	# What an unquoted $(WORKDIR) would split off and remove.
	mkdir -p "$BATS_TEST_TMPDIR/my"
	echo precious >"$BATS_TEST_TMPDIR/my/file"
	run wsmake clean WORKDIR="$w"
	echo "$output"
	[ -f "$BATS_TEST_TMPDIR/my/file" ]
	[ ! -s "$RM_REFUSED" ]
	[ "$status" -eq 0 ]
	for d in build boots artifacts report checks-cache; do
		[ ! -e "$w/$d" ]
	done
	for d in ccache backup outgoing; do
		[ -f "$w/$d/file" ]
	done
	[ -d "$w/linux/.git" ]
	[ -f "$w/lock" ]
	# A WORKDIR that does not exist has nothing to clean.
	run wsmake clean WORKDIR="$BATS_TEST_TMPDIR/none"
	[ "$status" -eq 0 ]
	[[ $output == *"nothing to clean"* ]]
	[ ! -e "$BATS_TEST_TMPDIR/none" ]
}

@test "clean and distclean leave alone a directory that is not a workspace, and say why" {
	d=$BATS_TEST_TMPDIR/docs
	mkdir -p "$d/build"
	echo mine >"$d/build/notes"
	: >"$d/lock"
	run wsmake clean WORKDIR="$d"
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR=$d is not a workspace: it has no kernel tree (linux/.git)"* ]]
	run wsmake distclean WORKDIR="$d"
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR=$d is not a workspace: it has no kernel tree (linux/.git)"* ]]
	[ -f "$d/build/notes" ]
	# A git repository called linux is not enough: a workspace has its lock.
	rm "$d/lock"
	git init -q "$d/linux"
	run wsmake distclean WORKDIR="$d"
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR=$d is not a workspace: it has no lock file"* ]]
	[ -f "$d/build/notes" ]
	[ ! -e "$d/lock" ]
	[ ! -s "$RM_REFUSED" ]
	run wsmake distclean WORKDIR="$BATS_TEST_TMPDIR/none"
	[ "$status" -eq 0 ]
	[[ $output == *"nothing to remove"* ]]
}

@test "distclean refuses /, the home directory and the repository, however they are spelt" {
	# A home that even looks like a workspace.
	fake_workspace "$HOME"
	before=$(checksum "$HOME")
	ln -s "$HOME" "$BATS_TEST_TMPDIR/home-link"
	for w in "$HOME/" "$HOME/." "$BATS_TEST_TMPDIR/home-link" "$HOME/linux/.."; do
		run wsmake distclean WORKDIR="$w"
		echo "$w: $output"
		[ "$status" -ne 0 ]
		[[ $output == *"WORKDIR=$w is (or holds) your home directory"* ]]
	done
	run wsmake distclean WORKDIR="$BATS_TEST_TMPDIR"
	[ "$status" -ne 0 ]
	[[ $output == *"(or holds) your home directory"* ]]
	[ "$(checksum "$HOME")" = "$before" ]
	run wsmake distclean WORKDIR=/
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR=/ is the root directory"* ]]
	# The repository (a copy of it, as lib.sh's WS_ROOT).
	repo=$BATS_TEST_TMPDIR/repo
	mkdir "$repo"
	cp -a "$WS/Makefile" "$WS/scripts" "$repo/"
	fake_workspace "$repo"
	WORKDIR=$repo/ WS_ROOT=$repo run bash "$WS/scripts/distclean.sh"
	[ "$status" -ne 0 ]
	[[ $output == *"WORKDIR=$repo/ is (or holds) this repository"* ]]
	[ -f "$repo/Makefile" ]
	[ ! -s "$RM_REFUSED" ]
}

@test "distclean removes a workspace, through a symlink too, unless the tree holds work not exported" {
	# Edits in the tree that series/ does not have stop it.
	edit_commit 2
	run wsmake distclean
	[ "$status" -ne 0 ]
	[[ $output == *"branch(es) one"*"make export"* ]]
	ws export.sh >/dev/null
	echo "int uncommitted;" >>"$WORKDIR/linux/main.c"
	run wsmake distclean
	[ "$status" -ne 0 ]
	[[ $output == *"uncommitted changes"* ]]
	[ -d "$WORKDIR/linux/.git" ]
	tree checkout -q -- main.c
	# WORKDIR a symlink: the workspace goes, and the link with it.
	ln -s "$WORKDIR" "$BATS_TEST_TMPDIR/link"
	run wsmake distclean WORKDIR="$BATS_TEST_TMPDIR/link"
	echo "$output"
	[ "$status" -eq 0 ]
	[ ! -e "$WORKDIR" ]
	[ ! -L "$BATS_TEST_TMPDIR/link" ]
	[ ! -s "$RM_REFUSED" ]
}

# ---- mail -------------------------------------------------------------------

@test "b4.bats cannot reach the user's git config: an SMTP server named there gets nothing" {
	start_smtp
	# The user's SMTP server, everywhere git would look for it outside the
	# tests' own home.
	user=$BATS_TEST_TMPDIR/user
	mkdir -p "$user/home" "$user/xdg/git"
	for f in "$user/home/.gitconfig" "$user/xdg/git/config" "$user/system" "$user/global"; do
		git config -f "$f" sendemail.smtpServer 127.0.0.1
		git config -f "$f" sendemail.smtpServerPort "$SMTP_PORT"
	done
	leaky() {
		env -u GIT_CONFIG_NOSYSTEM PATH="$ORIG_PATH" HOME="$user/home" XDG_CONFIG_HOME="$user/xdg" \
			GIT_CONFIG_SYSTEM="$user/system" GIT_CONFIG_GLOBAL="$user/global" \
			GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpServer GIT_CONFIG_VALUE_0=127.0.0.1 "$@"
	}
	cd "$BATS_TEST_TMPDIR"
	# Each is one git would find, were it not shut off: the system file,
	# the global one, the environment's; ~/.gitconfig and
	# $XDG_CONFIG_HOME/git/config when GIT_CONFIG_GLOBAL is not set.
	[ "$(leaky git config --get-all sendemail.smtpserver | wc -l)" -eq 3 ]
	[ "$(leaky env -u GIT_CONFIG_GLOBAL git config --get-all sendemail.smtpserver | wc -l)" -eq 4 ]
	# b4.bats's test of SEND=1 with no SMTP server configured sends, if
	# any of them reaches it.
	run leaky env -u GIT_CONFIG_GLOBAL -u GIT_CONFIG_COUNT bats --filter 'bad input' "$WS/tests/b4.bats"
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"ok 1 bad input"* ]]
	[ ! -e "$SINK/mbox" ]
	run leaky bats --filter 'bad input' "$WS/tests/b4.bats"
	echo "$output"
	[ "$status" -eq 0 ]
	[ ! -e "$SINK/mbox" ]
}

@test "SEND=1 in the environment sends nothing; make send SEND=1 on the command line sends" {
	start_smtp
	git config --global sendemail.smtpServer 127.0.0.1
	git config --global sendemail.smtpServerPort "$SMTP_PORT"
	SEND=1 run wsmake send SERIES=one
	echo "$output"
	[ ! -e "$SINK/mbox" ]
	[ ! -e "$WORKDIR/outgoing/one-v1/sent" ]
	[ "$status" -eq 0 ]
	[[ $output == *"SEND=1 in the environment is ignored: only 'make send SERIES=<name> SEND=1' on the command line sends"* ]]
	[[ $output == *"nothing was sent"* ]]
	run wsmake send SERIES=one SEND=1
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"Sent 4 messages"* ]]
	[ "$(grep -c '^From ' "$SINK/mbox")" -eq 4 ]
	[ -f "$WORKDIR/outgoing/one-v1/sent" ]
}

# ---- make export ------------------------------------------------------------

@test "export refuses to overwrite hand edits in series/, says how to go on, and FORCE=1 keeps a copy" {
	edit_commit 1
	sed -i 's/^Body of: fixture: add b$/Body of b, edited by hand./' "$SERIES_DIR/one/0002-fixture-add-b.patch"
	before=$(checksum "$SERIES_DIR/one")
	run ws export.sh
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/ was changed by hand"*"apply it first (make apply SERIES=one) or FORCE=1 to overwrite; your files are backed up either way"* ]]
	[ "$(checksum "$SERIES_DIR/one")" = "$before" ]
	[ ! -e "$WORKDIR/backup" ]
	FORCE=1 run ws export.sh
	echo "$output"
	[ "$status" -eq 0 ]
	grep -q "^+/\* edit" "$SERIES_DIR/one/0001-fixture-add-a.patch"
	[ "$(grep -c "edited by hand" "$SERIES_DIR/one/0002-fixture-add-b.patch")" -eq 0 ]
	grep -q "edited by hand" "$WORKDIR"/backup/one-*/0002-fixture-add-b.patch
	run ws apply.sh
	[[ $output == *"up to date"* ]]
}

@test "two exports in one second keep two backups, and a backup that fails stops the export" {
	# A clock stopped at one second.
	cat >"$BATS_TEST_TMPDIR/bin/date" <<-'EOF'
		#!/bin/sh
		case "$*" in *%H%M%S*) echo 20260101-120000 ;; *) exec /bin/date "$@" ;; esac
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/date"
	first=$(checksum "$SERIES_DIR/one")
	edit_commit 1
	ws export.sh >/dev/null
	second=$(checksum "$SERIES_DIR/one")
	edit_commit 2
	ws export.sh >/dev/null
	mapfile -t backups < <(ls -d "$WORKDIR"/backup/one-20260101-120000*)
	[ "${#backups[@]}" -eq 2 ]
	sums=$(for b in "${backups[@]}"; do checksum "$b"; done | sort)
	[ "$sums" = "$(printf '%s\n' "$first" "$second" | sort)" ]
	# A backup that cannot be written (a full disk, say).
	cat >"$BATS_TEST_TMPDIR/bin/cp" <<-'EOF'
		#!/bin/sh
		case "$*" in */backup/*) echo "cp: error writing: No space left on device" >&2; exit 1 ;; esac
		exec /bin/cp "$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/cp"
	edit_commit 3
	before=$(checksum "$SERIES_DIR/one")
	run ws export.sh
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"could not back up series/one/"*"nothing was exported"* ]]
	[ "$(checksum "$SERIES_DIR/one")" = "$before" ]
	[ -z "$(find "$SERIES_DIR" -mindepth 1 -maxdepth 1 ! -name one)" ]
}

@test "export of an unchanged branch changes nothing; a patch that did not change keeps its file, notes under --- too" {
	p=$SERIES_DIR/one
	# Notes for the reviewers, under the ---, written by hand.
	for f in "$p"/000[13]-*.patch; do
		sed -i '0,/^---$/s//---\nNote: by hand, for the reviewers./' "$f"
	done
	touch -d '2020-01-01' "$p"/*
	before=$(checksum "$p")
	run ws export.sh
	echo "$output"
	[ "$(checksum "$p")" = "$before" ]
	[ -z "$(find "$p" -type f -newermt 2020-01-02)" ]
	[ ! -e "$WORKDIR/backup" ]
	[ "$status" -eq 0 ]
	[[ $output == *"nothing written"* ]]
	# The second commit changes: its file alone is written again.
	edit_commit 2
	run ws export.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"3 patches, 1 of them new or changed"* ]]
	grep -q "^Note: by hand" "$p/0001-fixture-add-a.patch"
	grep -q "^Note: by hand" "$p/0003-fixture-add-doc.patch"
	grep -q "^+/\* edit" "$p/0002-fixture-add-b.patch"
	[ "$(find "$p" -type f -newermt 2020-01-02 -printf '%f\n')" = 0002-fixture-add-b.patch ]
	# A new first commit: the others move up a number and keep their notes.
	tree checkout -q one
	GIT_SEQUENCE_EDITOR="sed -i '1i exec echo x >new.c && git add new.c && git commit -q -m \"fixture: add new\" -m \"Signed-off-by: Ada Author <$ADA>\"'" \
		git -C "$WORKDIR/linux" rebase -q -i linux-source
	tree checkout -q --detach
	run ws export.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"4 patches, 1 of them new or changed"* ]]
	[ "$(cat "$p/series")" = "$(printf '%s\n' 0001-fixture-add-new.patch 0002-fixture-add-a.patch 0003-fixture-add-b.patch 0004-fixture-add-doc.patch)" ]
	grep -q "^Note: by hand" "$p/0002-fixture-add-a.patch"
	grep -q "^Subject: \[PATCH 2/4\] fixture: add a$" "$p/0002-fixture-add-a.patch"
	grep -q "^Note: by hand" "$p/0004-fixture-add-doc.patch"
	grep -q "^Subject: \[PATCH 4/4\] fixture: add doc$" "$p/0004-fixture-add-doc.patch"
	[ ! -e "$p/0001-fixture-add-a.patch" ]
	# And the files apply to the same branch.
	run ws apply.sh
	[[ $output == *"up to date"* ]]
	commits=$(tree log --format='%T %an %ad%n%B' linux-source..one)
	tree config --unset workspace.one.applied
	ws apply.sh >/dev/null
	[ "$(tree log --format='%T %an %ad%n%B' linux-source..one)" = "$commits" ]
}

# backups: the backups of series/big that export made.
backups() {
	find "$WORKDIR/backup" -mindepth 1 -maxdepth 1 -name 'big-*' 2>/dev/null | wc -l
}

@test "Ctrl-C at any point of export leaves series/ wholly old or wholly new, and the next run cleans up" {
	local -a edits=()
	for i in $(seq 1 20); do edits+=("f$i.c:int f$i;:fixture: add f$i"); done
	make_series big linux-source "${edits[@]}"
	SERIES=big ws apply.sh >/dev/null
	# Every commit gets a trailer: every patch changes.
	tree checkout -q big
	git -C "$WORKDIR/linux" rebase -q --exec 'git commit -q --amend --no-edit --trailer "Reviewed-by: Rita <rita@example.org>"' linux-source >/dev/null 2>&1
	tree checkout -q --detach
	cp -a "$SERIES_DIR/big" "$BATS_TEST_TMPDIR/big.old"
	record=$(tree config workspace.big.applied)
	applied=$(tree rev-parse refs/workspace/applied/big)
	old=$(checksum "$SERIES_DIR/big")
	t0=$(date +%s%N)
	SERIES=big ws export.sh >/dev/null
	took=$((($(date +%s%N) - t0) / 1000000))
	new=$(checksum "$SERIES_DIR/big")
	[ "$old" != "$new" ]
	local seen_old=0 seen_new=0 i delay sig
	for i in $(seq 0 8); do
		rm -rf "$SERIES_DIR/big"
		cp -a "$BATS_TEST_TMPDIR/big.old" "$SERIES_DIR/big"
		tree config workspace.big.applied "$record"
		tree update-ref refs/workspace/applied/big "$applied"
		sig=INT
		((i % 2)) || sig=TERM
		SERIES=big setsid "$FIXTURES/default-sigint" bash "$WS/scripts/export.sh" >"$BATS_TEST_TMPDIR/out" 2>&1 &
		pid=$!
		if ((i < 3)); then
			# At the start, in the middle, after the end.
			delay=$((took * i * 3 / 5))
		else
			# Once it has made the backup, just before it writes
			# series/, and a little later each time.
			n=$(backups)
			for _ in $(seq 1 3000); do
				[ "$(backups)" = "$n" ] || break
				kill -0 "$pid" 2>/dev/null || break
			done
			delay=$(((i - 3) * (i - 3) * 8))
		fi
		sleep "$((delay / 1000)).$(printf '%03d' $((delay % 1000)))"
		kill -"$sig" -- -"$pid" 2>/dev/null || true
		wait "$pid" || true
		now=$(checksum "$SERIES_DIR/big")
		echo "$i: SIG$sig after ${delay}ms: $([ "$now" = "$old" ] && echo old || { [ "$now" = "$new" ] && echo new || echo NEITHER; })"
		[ "$now" = "$old" ] || [ "$now" = "$new" ]
		if [ "$now" = "$old" ]; then seen_old=1; else seen_new=1; fi
		# The next run finishes the job and leaves nothing behind.
		SERIES=big run ws export.sh
		[ "$status" -eq 0 ]
		[ "$(checksum "$SERIES_DIR/big")" = "$new" ]
		[ -z "$(find "$SERIES_DIR" -mindepth 1 -maxdepth 1 ! -name one ! -name big)" ]
		[ -z "$(find "$WORKDIR" -maxdepth 1 -name 'export.*')" ]
	done
	# The interruptions fell both before and after the swap.
	[ "$seen_old" = 1 ]
	[ "$seen_new" = 1 ]
}

@test "an export killed in the middle of the swap is undone by the next run" {
	edit_commit 2
	old=$(checksum "$SERIES_DIR/one")
	# Killed between its two renames: series/one is missing, the old
	# directory and the complete new one are next to it.
	mv "$SERIES_DIR/one" "$SERIES_DIR/.one.old.AbC123"
	cp -a "$SERIES_DIR/.one.old.AbC123" "$SERIES_DIR/.one.new.XyZ789"
	echo garbage >"$SERIES_DIR/.one.new.XyZ789/0001-fixture-add-a.patch"
	mkdir "$WORKDIR/export.QwE456"
	run ws export.sh
	echo "$output"
	[ "$(ls -A "$SERIES_DIR")" = one ]
	[ ! -e "$WORKDIR/export.QwE456" ]
	[ "$status" -eq 0 ]
	[[ $output == *"series/one/ is back as it was before an export that was stopped half-way"* ]]
	[ "$(checksum "$SERIES_DIR/one")" != "$old" ]
	grep -q "^+/\* edit" "$SERIES_DIR/one/0002-fixture-add-b.patch"
	[ "$(grep -c garbage "$SERIES_DIR/one/0001-fixture-add-a.patch")" -eq 0 ]
	# Killed after the swap: the old directory is dropped.
	cp -a "$SERIES_DIR/one" "$SERIES_DIR/.one.old.DeF456"
	new=$(checksum "$SERIES_DIR/one")
	run ws export.sh
	[ "$status" -eq 0 ]
	[ "$(ls -A "$SERIES_DIR")" = one ]
	[ "$(checksum "$SERIES_DIR/one")" = "$new" ]
}

# ---- a broken series/ -------------------------------------------------------

# break_series HOW: series/ broken in one way; prints what the error must
# say.
break_series() {
	case $1 in
	no-series-base)
		make_series two linux-source "b.c:int b;:fixture: add b"
		echo nope >"$SERIES_DIR/two/base"
		echo "series/two/base names 'nope', which is not a series"
		;;
	no-base-file)
		make_series two linux-source "b.c:int b;:fixture: add b"
		rm "$SERIES_DIR/two/base"
		echo "series/two has no 'base' file"
		;;
	empty-base)
		make_series two linux-source "b.c:int b;:fixture: add b"
		: >"$SERIES_DIR/two/base"
		echo "series/two/base is empty"
		;;
	cycle)
		make_series two linux-source "b.c:int b;:fixture: add b"
		make_series three linux-source "c.c:int c;:fixture: add c"
		echo three >"$SERIES_DIR/two/base"
		echo two >"$SERIES_DIR/three/base"
		echo "the base files form a dependency cycle (three -> two -> three)"
		;;
	self)
		make_series two linux-source "b.c:int b;:fixture: add b"
		echo two >"$SERIES_DIR/two/base"
		echo "series/two/: the base files form a dependency cycle (two -> two)"
		;;
	base-branch-name)
		make_series linux-source linux-source "b.c:int b;:fixture: add b"
		echo "series/linux-source/: a series cannot be named 'linux-source'"
		;;
	bad-branch-name)
		make_series two linux-source "b.c:int b;:fixture: add b"
		mv "$SERIES_DIR/two" "$SERIES_DIR/two..old"
		echo "series/two..old/: 'two..old' is not a valid git branch name"
		;;
	esac
}

@test "a broken series/ stops every target with an error naming the series" {
	base=$(tree rev-parse linux-source)
	for how in no-series-base no-base-file empty-base cycle self base-branch-name bad-branch-name; do
		rm -rf "$SERIES_DIR"
		cp -a "$BATS_FILE_TMPDIR/template/series" "$SERIES_DIR"
		expect=$(break_series "$how")
		# Each target, on the good series "one" alone, and apply on all.
		for run in apply:one check:one bisect-build:one boot-test:one export:one all:one apply:; do
			target=${run%:*} series=${run#*:}
			if [ "$target" = all ]; then
				NO_DEPS=1 DEBUG=0 run make -s -C "$WS" SERIES="$series"
			else
				run wsmake "$target" SERIES="$series"
			fi
			echo "$how: make $target SERIES=$series: $status: $output" | head -n3
			[ "$status" -ne 0 ]
			[[ $output == *"$expect"* ]]
		done
		[ "$(tree rev-parse linux-source)" = "$base" ]
	done
}
