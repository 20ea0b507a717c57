# shellcheck shell=bash
# Shared setup for the workspace's bats tests: a fixture "kernel" tarball,
# a scratch WORKDIR and series directory, and a fake QEMU and guest
# compiler, so that every path of the scripts runs in seconds.

WS=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
FIXTURES=$WS/tests/fixtures

setup_workspace() {
	export WS_ROOT=$WS
	export WORKDIR=$BATS_TEST_TMPDIR/work
	export SERIES_DIR=$BATS_TEST_TMPDIR/series
	export KVER=9.9
	export TARBALL=$BATS_TEST_TMPDIR/linux-source-9.9.tar.xz
	export QEMU=$FIXTURES/fake-qemu
	export GUEST_CC=$FIXTURES/fake-cc GUEST_CC32=$FIXTURES/fake-cc GUEST_CCN32=$FIXTURES/fake-cc
	export MIN_FREE_GB=0 BOOT_TIMEOUT=5 JOBS=1 WS_LOCK_TIMEOUT=2
	export CCACHE_DISABLE=1
	# No git configuration of the user's or the system's reaches a test.
	export GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig GIT_CONFIG_NOSYSTEM=1
	: >"$GIT_CONFIG_GLOBAL"
	export GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL="ada@example.org"
	export GIT_COMMITTER_NAME="Ada Author" GIT_COMMITTER_EMAIL="ada@example.org"
	unset SERIES CHECKS FORCE WS_LOCK_HELD WS_START WS_TABLE_AT_END
	# Nor does a repository of whoever runs the tests (a hook's GIT_DIR or
	# GIT_INDEX_FILE): git's own list of its repository variables, less
	# the GIT_CONFIG* ones (configuration), as scripts/lib.sh clears them.
	# shellcheck disable=SC2046 # one variable name a word
	unset $(git rev-parse --local-env-vars | grep -v '^GIT_CONFIG')
	# make test ICECC=1 (or CCACHE_REMOTE) is for the suite's end-to-end run;
	# the fixture tests compile here alone (tests/icecc.bats starts its own).
	unset ICECC ICECC_SCHEDULER ICECC_JOBS ICECC_VERSION ICECC_TEST_SOCKET CCACHE_REMOTE \
		CCACHE_PREFIX CCACHE_REMOTE_STORAGE LOCAL_JOBS WS_SCALE_OUT_OK
	mkdir -p "$SERIES_DIR"
	make_tarball ok
}

# imported_workspace: setup_workspace, with the fixture kernel imported.
imported_workspace() {
	setup_workspace
	ws import.sh >/dev/null
}

# make_tarball BEHAVIOUR: the fixture kernel as linux-source-9.9.tar.xz.
make_tarball() {
	local stage=$BATS_TEST_TMPDIR/tarball
	rm -rf "$stage"
	mkdir -p "$stage"
	cp -a "$FIXTURES/kernel" "$stage/linux-source-9.9"
	# Kept as dot-gitignore here: its Debian-style "/*" rule would hide the
	# fixture from this repository's own git.
	mv "$stage/linux-source-9.9/dot-gitignore" "$stage/linux-source-9.9/.gitignore"
	echo "$1" >"$stage/linux-source-9.9/behaviour"
	# FIXTURE_CONFIG: lines for every .config of the fixture kernel.
	[[ -z ${FIXTURE_CONFIG:-} ]] || echo "$FIXTURE_CONFIG" >"$stage/linux-source-9.9/extra.config"
	tar -C "$stage" -cJf "$TARBALL" linux-source-9.9
}

# make_tarball_version VERSION BEHAVIOUR: another distro base, as
# $TARBALL_DIR/linux-source-VERSION.tar.xz: the fixture kernel with a
# VERSION file, so that its tree differs from 9.9's.
make_tarball_version() {
	local v=$1 stage=$BATS_TEST_TMPDIR/tarball-$1
	export TARBALL_DIR=$BATS_TEST_TMPDIR/usr-src
	rm -rf "$stage"
	mkdir -p "$stage" "$TARBALL_DIR"
	cp -a "$FIXTURES/kernel" "$stage/linux-source-$v"
	mv "$stage/linux-source-$v/dot-gitignore" "$stage/linux-source-$v/.gitignore"
	echo "$2" >"$stage/linux-source-$v/behaviour"
	echo "$v" >"$stage/linux-source-$v/VERSION"
	sed -i "s/^VERSION = .*/VERSION = ${v%%.*}/; s/^PATCHLEVEL = .*/PATCHLEVEL = ${v#*.}/" \
		"$stage/linux-source-$v/Makefile"
	tar -C "$stage" -cJf "$TARBALL_DIR/linux-source-$v.tar.xz" "linux-source-$v"
}

ws() {
	bash "$WS/scripts/$1" "${@:2}"
}

tree() {
	git -C "$WORKDIR/linux" "$@"
}

# make_series NAME BASE EDIT...: each EDIT is "file:content:subject", one
# commit each, made on BASE in a scratch clone and written to series/NAME.
make_series() {
	local name=$1 base=$2 edit file content subject
	shift 2
	local scratch=$BATS_TEST_TMPDIR/scratch-$name
	rm -rf "$scratch"
	git clone -q "$WORKDIR/linux" "$scratch"
	git -C "$scratch" checkout -q --detach "origin/$base" 2>/dev/null ||
		git -C "$scratch" checkout -q --detach "$base"
	for edit in "$@"; do
		IFS=: read -r file content subject <<<"$edit"
		mkdir -p "$(dirname "$scratch/$file")"
		printf '%s\n' "$content" >"$scratch/$file"
		git -C "$scratch" add -f "$file"
		git -C "$scratch" commit -q -s -m "$subject" -m "Body of: $subject"
	done
	mkdir -p "$SERIES_DIR/$name"
	git -C "$scratch" format-patch -q --zero-commit -o "$SERIES_DIR/$name" "HEAD~$#"
	(cd "$SERIES_DIR/$name" && ls -1 -- *.patch) >"$SERIES_DIR/$name/series"
	if [[ $base == linux-source ]]; then echo linux-source; else echo "$base"; fi >"$SERIES_DIR/$name/base"
	printf 'fixture: %s\n\nA fixture series.\n' "$name" >"$SERIES_DIR/$name/cover-letter"
}

# verified SERIES: as if the last make had verified SERIES as its branch is
# now: its plan (no checks, no debug or arm64 boot) and every planned cell
# passed, which make send SEND=1 asks for (scripts/cells.py gate); then
# make covers, whose results block in the cover letter SEND=1 asks for too.
verified() {
	verified_cells "$1"
	SERIES=$1 bash "$WS/scripts/covers.sh" >/dev/null
}

# verified_cells SERIES: verified, without make covers.
verified_cells() {
	WS=$WS bash -c '
		source "$WS/scripts/lib.sh"
		series_commits "$1" | cells plan "$1" "" 0 ""
		while IFS=$'"'\t'"' read -r idx sha subj stage arch; do
			[[ $arch != "*" ]] || arch=x86_64
			record "$1" "$idx" "$sha" "$subj" "$stage" pass 0 "fixture: passes" "" "$arch"
		done <"$REPORT/plan/$1"' verified "$1" >/dev/null
}

# boots, probes: how many boots, and KVM probe boots, the fake QEMU was
# asked for ($FAKE_QEMU_ARGS: a line per call).
boots() {
	grep -c -- "-initrd" "$FAKE_QEMU_ARGS"
}

probes() {
	grep -c -- "rdinit=/ws-probe-no-such-init" "$FAKE_QEMU_ARGS"
}

# results_row SERIES INDEX STAGE: "status detail" of one row.
results_row() {
	awk -F'\t' -v s="$1" -v i="$2" -v st="$3" '$1 == s && $2 == i && $5 == st { print $6 " " $8 }' \
		"$WORKDIR/report/results.tsv"
}

# isolate_user: the user's own git config is $HOME/.gitconfig, and only that.
# Every other source git and b4 read is shut off: the system config,
# $XDG_CONFIG_HOME/git/config, GIT_CONFIG_GLOBAL and GIT_CONFIG_* in the
# environment of whoever runs the tests, any of which could name their real
# SMTP server (and the tests send with SEND=1).  b4's own files go to
# $HOME too.  tests/safety.bats checks this.
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

free_port() {
	/usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# sender_identity: after isolate_user, Ada sends, and authors series, from
# an address that can receive mail, for the tests that send: make send
# SEND=1 refuses example.org and the like.  The sink on 127.0.0.1 receives
# everything; nothing leaves the machine.
ADA=ada@ada-author.org
sender_identity() {
	export GIT_AUTHOR_EMAIL=$ADA GIT_COMMITTER_EMAIL=$ADA
	git config --global user.email "$ADA"
}

# start_smtp: the sink on a free port ($SMTP_PORT), delivering into $SINK;
# its pid in $SMTP_PID, for teardown.
# shellcheck disable=SC2034 # SINK, SMTP_PID: read by the tests and teardown
start_smtp() {
	SINK=$BATS_TEST_TMPDIR/sink
	SMTP_PORT=$(free_port)
	PYTHONPATH=$FIXTURES/b4 /usr/bin/python3 -m aiosmtpd -n -l "127.0.0.1:$SMTP_PORT" -c smtp_sink.Sink "$SINK" \
		>"$BATS_TEST_TMPDIR/smtp.log" 2>&1 3>&- &
	SMTP_PID=$!
	for _ in $(seq 1 100); do
		if (exec 4<>"/dev/tcp/127.0.0.1/$SMTP_PORT") 2>/dev/null; then return 0; fi
		sleep 0.1
	done
	cat "$BATS_TEST_TMPDIR/smtp.log"
	return 1
}
