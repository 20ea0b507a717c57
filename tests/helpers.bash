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
	export GUEST_CC=$FIXTURES/fake-cc
	export MIN_FREE_GB=0 BOOT_TIMEOUT=5 JOBS=1 WS_LOCK_TIMEOUT=2
	export CCACHE_DISABLE=1
	# No git configuration of the user's or the system's reaches a test.
	export GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig GIT_CONFIG_NOSYSTEM=1
	: >"$GIT_CONFIG_GLOBAL"
	export GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL="ada@example.org"
	export GIT_COMMITTER_NAME="Ada Author" GIT_COMMITTER_EMAIL="ada@example.org"
	unset SERIES CHECKS FORCE WS_LOCK_HELD WS_START
	mkdir -p "$SERIES_DIR"
	make_tarball ok
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

# results_row SERIES INDEX STAGE: "status detail" of one row.
results_row() {
	awk -F'\t' -v s="$1" -v i="$2" -v st="$3" '$1 == s && $2 == i && $5 == st { print $6 " " $8 }' \
		"$WORKDIR/report/results.tsv"
}

