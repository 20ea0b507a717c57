#!/usr/bin/env bats
# What must never happen: make clean and make distclean removing what is
# not theirs, the tests or SEND in the environment sending mail, make
# export losing hand edits or leaving series/ half-written, and a broken
# series/ letting a target succeed having done nothing.  On the fixture
# kernel (tests/helpers.bash), through make where the Makefile is part of
# the story (with -o deps: the fixture's KVER has no package to install).
# shellcheck disable=SC2154 # $status, $output, $lines are set by bats' run

load helpers

PY=/usr/bin/python3

# isolate_user: a home of the test's own, and no git config but its
# $HOME/.gitconfig (as b4.bats's user_config).
isolate_user() {
	export HOME=$BATS_TEST_TMPDIR/home
	export XDG_CONFIG_HOME=$HOME/.config XDG_DATA_HOME=$HOME/.local/share \
		XDG_CACHE_HOME=$HOME/.cache XDG_STATE_HOME=$HOME/.local/state
	export GIT_CONFIG_GLOBAL=$HOME/.gitconfig GIT_CONFIG_SYSTEM=/dev/null GIT_CONFIG_NOSYSTEM=1
	local v
	for v in GIT_CONFIG GIT_CONFIG_PARAMETERS GIT_CONFIG_COUNT "${!GIT_CONFIG_KEY_@}" "${!GIT_CONFIG_VALUE_@}"; do
		unset "$v"
	done
	mkdir -p "$HOME" "$XDG_CONFIG_HOME"
	git config --global user.name "Ada Author"
	git config --global user.email ada@example.org
}

# setup_file: the fixture imported, with series "one" (three patches, a
# cover letter b4 can send) applied, once; each test gets a copy.
setup_file() {
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR/template
	mkdir -p "$BATS_TEST_TMPDIR"
	setup_workspace
	isolate_user
	ws import.sh >/dev/null
	make_series one linux-source "drivers/a.c:int a;:fixture: add a" \
		"main.c:int b;:fixture: add b" "doc.txt:text:fixture: add doc"
	printf '%s\n' "fixture: one series" "" "A fixture series." "" \
		"To: Tom <tom@example.org>" "Cc: list@example.org" >"$SERIES_DIR/one/cover-letter"
	ws apply.sh >/dev/null
	# Not the apply worktree: a copy of it would still be the template's.
	tree worktree remove --force "$WORKDIR/apply"
}

setup() {
	setup_workspace
	isolate_user
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

free_port() {
	"$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_smtp: the SMTP sink of b4.bats on a free port ($SMTP_PORT),
# delivering into $SINK.
start_smtp() {
	SINK=$BATS_TEST_TMPDIR/sink
	SMTP_PORT=$(free_port)
	PYTHONPATH=$FIXTURES/b4 "$PY" -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" -c smtp_sink.Sink "$SINK" \
		>"$BATS_TEST_TMPDIR/smtp.log" 2>&1 3>&- &
	SMTP_PID=$!
	for _ in $(seq 1 100); do
		if (exec 4<>"/dev/tcp/127.0.0.1/$SMTP_PORT") 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/smtp.log"
	return 1
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
