#!/usr/bin/env bats
# The workspace's logic on a fixture kernel: import, apply, export, build,
# boot, checks and the matrix, and every failure path the README promises.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

bats_require_minimum_version 1.5.0

load helpers

setup() {
	setup_workspace
}

import_fixture() {
	run ws import.sh
	[ "$status" -eq 0 ]
}

# two_lines: series one on the fixture's base (its Makefile says 6.12) and
# series two on a 9.10 one, imported and applied.
two_lines() {
	make_tarball_version 9.10 ok
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	make_series two linux-source "b.c:int b;:fixture: add b"
	echo linux-source-9.10 >"$SERIES_DIR/two/base"
	ws import.sh >/dev/null
	ws apply.sh >/dev/null
}

# ---- import ---------------------------------------------------------------

@test "import commits the tarball byte for byte and tags it" {
	import_fixture
	[[ $output == *"imported linux-source-9.9"* ]]
	# The base is checked out, and the checkout is clean.
	[ -f "$WORKDIR/linux/main.c" ]
	[ -f "$WORKDIR/linux/scripts/kconfig/merge_config.sh" ]
	[ -z "$(tree status --porcelain)" ]
	tag=$(tree tag -l 'debian/*')
	[[ $tag == debian/local-* ]]
	# The tagged commit holds every file of the tarball, .gitignore included.
	tree ls-tree -r --name-only "$tag" | grep -qx main.c
	tree show "$tag:.gitignore" | grep -qx '/\*'
}

@test "import drops Debian's top-level ignore rule on the base branch" {
	import_fixture
	[ "$(tree show linux-source:.gitignore | grep -cx '/\*')" -eq 0 ]
	tree show linux-source:.gitignore | grep -qx '\*.o'
	# A new file in the tree is visible to git.
	echo new >"$WORKDIR/linux/newfile.c"
	tree status --porcelain | grep -q 'newfile.c'
}

@test "import twice with the same tarball does nothing" {
	import_fixture
	before=$(tree rev-parse linux-source)
	run ws import.sh
	[ "$status" -eq 0 ]
	[[ $output == *"already imported"* ]]
	[ "$(tree rev-parse linux-source)" = "$before" ]
}

@test "import sees a packaged tarball whose content changed under the same version, though the first one's digest is kept" {
	# A tarball dpkg says linux-source-9.9 9.9-1 ships (its version is the
	# package's, not its content's, as for Debian's real one).
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/dpkg-query" <<-'EOF'
		#!/bin/sh
		case $1 in -S) echo "linux-source-9.9: $2" ;; -W) printf 9.9-1 ;; *) exit 1 ;; esac
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/dpkg-query"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH
	run ws import.sh
	[ "$status" -eq 0 ]
	run ws import.sh
	[[ $output == *"is already imported (debian/9.9-1)"* ]]
	# Another tarball of the same version, written over the first: its
	# digest, kept by path and stat, must not be the first one's.
	make_tarball "changed"
	run ws import.sh
	[ "$status" -ne 0 ]
	[[ $output == *"tag debian/9.9-1 exists but $TARBALL has different content"* ]]
}

@test "import is reproducible: two WORKDIRs, and a re-import after another version, give the same base sha" {
	import_fixture
	local first tag
	first=$(tree rev-parse linux-source)
	tag=$(tree rev-parse "$(tree tag -l 'debian/*')")
	# Another WORKDIR, later: the same commits and tag, whatever the clock.
	sleep 1
	WORKDIR=$BATS_TEST_TMPDIR/work2 run ws import.sh
	[ "$status" -eq 0 ]
	[ "$(git -C "$BATS_TEST_TMPDIR/work2/linux" rev-parse linux-source)" = "$first" ]
	[ "$(git -C "$BATS_TEST_TMPDIR/work2/linux" rev-parse "$(tree tag -l 'debian/*')")" = "$tag" ]
	# An import of this tarball after another one has no parent of it.
	make_tarball panic
	WORKDIR=$BATS_TEST_TMPDIR/work2 run ws import.sh
	[ "$status" -eq 0 ]
	[ -z "$(git -C "$BATS_TEST_TMPDIR/work2/linux" log --format=%P -1 "refs/workspace/import-9.9")" ]
}

@test "import of a new tarball version imports a new base and says so" {
	import_fixture
	before=$(tree rev-parse linux-source)
	make_tarball panic
	run ws import.sh
	[ "$status" -eq 0 ]
	[[ $output == *"NEW linux-source-9.9 version"* ]]
	[ "$(tree rev-parse linux-source)" != "$before" ]
	[ "$(tree tag -l 'debian/*' | wc -l)" -eq 2 ]
}

@test "a series on another distro base: import brings in both, apply puts each series on its own" {
	make_tarball_version 9.10 ok
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	# A series on 9.10 (made on 9.9's tree: the files it touches are alike).
	make_series two linux-source "b.c:int b;:fixture: add b"
	echo linux-source-9.10 >"$SERIES_DIR/two/base"
	run ws import.sh
	[ "$status" -eq 0 ]
	[[ $output == *"imported linux-source-9.10"* ]]
	[[ $output == *"branch linux-source-9.10 is its base"* ]]
	# The default base keeps its name, and has the versioned one too.
	[ "$(tree rev-parse linux-source)" = "$(tree rev-parse linux-source-9.9)" ]
	[ "$(tree show linux-source-9.10:VERSION)" = 9.10 ]
	run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-parse one~1)" = "$(tree rev-parse linux-source)" ]
	[ "$(tree rev-parse two~1)" = "$(tree rev-parse linux-source-9.10)" ]
	# The base row of each series is its own distro base.
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row two 0 build) == pass* ]]
	[ "$(awk -F'\t' '$1 == "two" && $2 == 0 && $5 == "build" { print $3 }' "$WORKDIR/report/results.tsv")" = "$(tree rev-parse linux-source-9.10)" ]
	# Imported once: a second import does nothing.
	run ws import.sh
	[[ $output == *"linux-source-9.10 local-"*"is already imported"* ]]
}

@test "each kernel line builds in a worktree and O= directory of its own" {
	two_lines
	# The worktree and O= directory of before the lines go.
	mkdir -p "$WORKDIR/src" "$WORKDIR/build/smoke" "$WORKDIR/build/smoke-memory"
	: >"$WORKDIR/src/.git"
	run ws build.sh series
	[ "$status" -eq 0 ]
	[ -d "$WORKDIR/build/smoke-memory" ]
	# The fixture's Makefile says 6.12; the 9.10 tarball's says 9.10.
	[ "$(cat "$WORKDIR/build/smoke-6.12/.ws-built-at")" = "$(tree rev-parse one)" ]
	[ "$(cat "$WORKDIR/build/smoke-9.10/.ws-built-at")" = "$(tree rev-parse two)" ]
	[ "$(git -C "$WORKDIR/src-6.12" rev-parse HEAD)" = "$(tree rev-parse one)" ]
	[ "$(git -C "$WORKDIR/src-9.10" rev-parse HEAD)" = "$(tree rev-parse two)" ]
	[ ! -e "$WORKDIR/build/smoke" ] && [ ! -e "$WORKDIR/src" ]
	# A new commit of one builds in 6.12's directories and leaves 9.10's.
	rm -r "$SERIES_DIR/one"
	make_series one linux-source "a.c:int a2;:fixture: add a2"
	ws apply.sh >/dev/null
	run ws build.sh series
	[ "$status" -eq 0 ]
	[ "$(cat "$WORKDIR/build/smoke-6.12/.ws-built-at")" = "$(tree rev-parse one)" ]
	[ "$(git -C "$WORKDIR/src-9.10" rev-parse HEAD)" = "$(tree rev-parse two)" ]
	[[ $(results_row one 1 build) == pass* && $(results_row two 1 build) == "pass no new warnings, cached" ]]
}

@test "a base file that names a distro base badly, or one not imported, is named" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	echo linux-source-six >"$SERIES_DIR/one/base"
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/base names 'linux-source-six', which is not a distro base"* ]]
	echo linux-source-9.11 >"$SERIES_DIR/one/base"
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"not applying one: series/one/base names linux-source-9.11, which is not imported (no branch linux-source-9.11): run make import"* ]]
	export TARBALL_DIR=$BATS_TEST_TMPDIR/nowhere
	run ws import.sh
	# The missing base holds up only the series on it, which it names.
	[ "$status" -eq 0 ]
	[[ $output == *"missing tarball $TARBALL_DIR/linux-source-9.11.tar.xz, the base of one: install linux-source-9.11"* ]]
	[ "$(tree tag -l 'debian/*' | wc -l)" -eq 1 ]
}

@test "import tags a Debian version as DEP-14 spells it (git refuses ~ and : in a tag)" {
	# A dpkg-query that says the tarball is linux-source-9.9's, at a
	# version such as 6.12.118-1~deb12u1 (and an epoch).
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/dpkg-query" <<-'EOF'
		#!/bin/sh
		case $1 in
		-S) echo "linux-source-9.9: $2" ;;
		-W) printf '%s' "1:9.9.1-1~deb12u1" ;;
		esac
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/dpkg-query"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run ws import.sh
	[ "$status" -eq 0 ]
	[ "$(tree tag -l 'debian/*')" = "debian/1%9.9.1-1_deb12u1" ]
	# The tag's message keeps the version as Debian writes it.
	tree cat-file tag debian/1%9.9.1-1_deb12u1 | grep -qx "linux-source-9.9 1:9.9.1-1~deb12u1"
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run ws import.sh
	[[ $output == *"linux-source-9.9 1:9.9.1-1~deb12u1 is already imported (debian/1%9.9.1-1_deb12u1)"* ]]
}

@test "import names a missing tarball and the package to install" {
	rm -f "$TARBALL"
	run ws import.sh
	[ "$status" -ne 0 ]
	[[ $output == *"missing tarball $TARBALL"* ]]
	[[ $output == *"linux-source-9.9"* ]]
}

@test "deps names a package that apt cannot provide" {
	command -v apt-cache >/dev/null || skip "not a Debian machine"
	KVER=0.1 run ws deps.sh
	[ "$status" -ne 0 ]
	[[ $output == *"linux-source-0.1"* ]]
	[[ $output == *"not available"* ]]
}

@test "deps: apt-get's output goes to a log, one line here; when it fails, its last lines and the log are named" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	# A machine that lacks one package, and an apt-get that talks a lot.
	# shellcheck disable=SC2016 # expanded by the fake dpkg-query
	printf '#!/bin/sh\nfor p; do case $p in -* | make) ;; *) echo "$p install ok installed" ;; esac; done\n' >"$BATS_TEST_TMPDIR/bin/dpkg-query"
	printf '#!/bin/sh\nexit 0\n' >"$BATS_TEST_TMPDIR/bin/apt-cache"
	# shellcheck disable=SC2016 # expanded by the fake apt-get
	printf '#!/bin/sh\nfor i in $(seq 300); do echo "apt line $i"; done\n[ -z "$FAKE_APT_FAILS" ] || { echo "E: fixture failure"; exit 100; }\n' \
		>"$BATS_TEST_TMPDIR/bin/apt-get"
	printf '#!/bin/sh\nexec "$@"\n' >"$BATS_TEST_TMPDIR/bin/sudo"
	chmod +x "$BATS_TEST_TMPDIR/bin/"*
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run ws deps.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(wc -l <<<"$output")" -le 3 ]
	[[ $output == *"installing 1 package(s) with apt-get (its output: $WORKDIR/logs/deps.log): make"* ]]
	[ "$(grep -c '^apt line' "$WORKDIR/logs/deps.log")" -eq 600 ]
	FAKE_APT_FAILS=1 PATH=$BATS_TEST_TMPDIR/bin:$PATH run ws deps.sh
	[ "$status" -ne 0 ]
	[[ $output == *"apt-get: E: fixture failure"* ]]
	[[ $output == *"apt-get update failed (its output: $WORKDIR/logs/deps.log)"* ]]
	[ "$(grep -c 'apt line' <<<"$output")" -lt 20 ]
}

@test "a run refuses to start without enough free disk" {
	MIN_FREE_GB=999999 run ws all.sh
	[ "$status" -ne 0 ]
	[[ $output == *"GiB free"* ]]
	[[ $output == *"needs 999999 GiB"* ]]
	[ ! -d "$WORKDIR/linux" ]
}

# ---- apply / export -------------------------------------------------------

@test "apply builds the branch with author, date and message kept" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a" "b.c:int b;:fixture: add b"
	run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-list --count linux-source..one)" -eq 2 ]
	[ "$(tree log -1 --format='%an <%ae>' one)" = "Ada Author <ada@example.org>" ]
	[ "$(tree log -1 --format=%s one)" = "fixture: add b" ]
	tree log -1 --format=%b one | grep -q "Signed-off-by: Ada Author"
	patch_date=$(sed -n 's/^Date: //p' "$SERIES_DIR/one/0002-fixture-add-b.patch")
	[ "$(tree log -1 --format=%at one)" = "$(date +%s -d "$patch_date")" ]
}

@test "apply is reproducible: the same patches give the same commits" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	first=$(tree rev-parse one)
	tree config --unset workspace.one.applied
	run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-parse one)" = "$first" ]
}

@test "apply of a patch that does not apply names patch, file and hunk, and leaves the branch alone" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	good=$(tree rev-parse one)
	# A second patch whose context is not in the tree.
	cat >"$SERIES_DIR/one/0002-broken.patch" <<-'EOF'
		From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001
		From: Ada Author <ada@example.org>
		Date: Mon, 1 Jan 2024 00:00:00 +0000
		Subject: [PATCH] fixture: broken

		Signed-off-by: Ada Author <ada@example.org>
		---
		 main.c | 2 +-
		 1 file changed, 1 insertion(+), 1 deletion(-)

		diff --git a/main.c b/main.c
		--- a/main.c
		+++ b/main.c
		@@ -1,4 +1,4 @@
		 int fixture_main(void)
		 {
		-	return 42;
		+	return 43;
		 }
	EOF
	echo 0002-broken.patch >>"$SERIES_DIR/one/series"
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/0002-broken.patch does not apply"* ]]
	[[ $output == *"main.c: hunk at line 1 does not apply"* ]]
	[[ $output == *"branch one is unchanged"* ]]
	[ "$(tree rev-parse one)" = "$good" ]
	[ ! -d "$(git -C "$WORKDIR/apply" rev-parse --git-path rebase-apply)" ]
	[[ $(results_row one 2 apply) == fail* ]]
}

@test "apply of a series file that lists a missing patch names it" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	echo 0009-gone.patch >>"$SERIES_DIR/one/series"
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/series lists '0009-gone.patch'"* ]]
}

@test "apply.sh and export.sh given a series name as an argument say to use SERIES" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	run ws apply.sh one
	[ "$status" -ne 0 ]
	[[ $output == *"apply.sh takes no arguments (got 'one'); name the series with SERIES=a,b"* ]]
	run tree rev-parse -q --verify one
	[ "$status" -ne 0 ]
	run ws export.sh one
	[ "$status" -ne 0 ]
	[[ $output == *"export.sh takes no arguments (got 'one'); name the series with SERIES=a,b"* ]]
}

@test "an unknown SERIES lists the ones that exist" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	make_series two one "b.c:int b;:fixture: add b"
	SERIES=nope run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *'unknown series "nope"'* ]]
	[[ $output == *"one"* && $output == *"two"* ]]
}

@test "series apply in dependency order, and a stacked series applies its base first" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	make_series two one "b.c:int b;:fixture: add b"
	tree branch -D one
	tree update-ref -d refs/workspace/applied/one
	SERIES=two run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-parse two~1)" = "$(tree rev-parse one)" ]
	run bash -c "source '$WS/scripts/lib.sh'; series_names"
	[ "${lines[0]}" = one ]
	[ "${lines[1]}" = two ]
}

@test "export writes edited commits back and keeps the old patches" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a" "b.c:int b;:fixture: add b"
	echo "keep me" >>"$SERIES_DIR/one/cover-letter"
	ws apply.sh
	# The user edits the first commit in the tree.
	tree checkout -q one
	git -C "$WORKDIR/linux" -c core.editor=true commit -q --amend -m "fixture: add b, reworded" -m "Signed-off-by: Ada Author <ada@example.org>"
	run ws export.sh
	[ "$status" -eq 0 ]
	grep -q "Subject: \[PATCH 2/2\] fixture: add b, reworded" "$SERIES_DIR"/one/0002-*.patch
	[ "$(wc -l <"$SERIES_DIR/one/series")" -eq 2 ]
	grep -q "keep me" "$SERIES_DIR/one/cover-letter"
	ls "$WORKDIR"/backup/one-*/0002-fixture-add-b.patch
	# Applying again is a no-op: the branch and the files agree.
	run ws apply.sh
	[ "$status" -eq 0 ]
	[[ $output == *"up to date"* ]]
}

@test "a series whose name has a dot (vstatus-6.1) is recorded: apply again is a no-op, export writes it" {
	import_fixture
	make_series one-9.9 linux-source "a.c:int a;:fixture: add a"
	run ws apply.sh
	[ "$status" -eq 0 ]
	[[ $output != *"invalid key"* ]]
	[ "$(tree config --get workspace.one-9.9.applied | wc -w)" -eq 2 ]
	run ws apply.sh
	[ "$status" -eq 0 ]
	[[ $output == *"one-9.9: up to date"* ]]
	tree checkout -q one-9.9
	git -C "$WORKDIR/linux" -c core.editor=true commit -q --amend -m "fixture: add a, reworded" -m "Signed-off-by: Ada Author <ada@example.org>"
	run ws export.sh
	[ "$status" -eq 0 ]
	grep -q "Subject: \[PATCH\] fixture: add a, reworded" "$SERIES_DIR"/one-9.9/0001-*.patch
}

@test "apply refuses to throw away commits edited in the tree" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	tree checkout -q one
	echo "int c;" >"$WORKDIR/linux/c.c"
	tree add c.c
	tree commit -q -m "fixture: work in progress"
	edited=$(tree rev-parse one)
	touch "$SERIES_DIR/one/cover-letter"
	echo "/* changed */" >>"$SERIES_DIR/one/0001-fixture-add-a.patch"
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"make export SERIES=one"* ]]
	[ "$(tree rev-parse one)" = "$edited" ]
	FORCE=1 run ws apply.sh
	[ "$status" -eq 0 ]
	tree for-each-ref refs/workspace/backup/one | grep -q "$edited"
}

@test "an interrupted git am from an earlier run is recovered" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	# Leave a git am in progress in the apply worktree, as Ctrl-C would.
	git -C "$WORKDIR/apply" checkout -q --detach linux-source
	cp "$SERIES_DIR/one/0001-fixture-add-a.patch" "$BATS_TEST_TMPDIR/p"
	sed -i 's/^+int a;/+int a;\n+int extra;/; s/^@@ -0,0 +1 @@/@@ -0,0 +1,2 @@/' "$BATS_TEST_TMPDIR/p"
	echo x >"$WORKDIR/apply/a.c"
	git -C "$WORKDIR/apply" add a.c
	git -C "$WORKDIR/apply" am -q "$BATS_TEST_TMPDIR/p" 2>/dev/null || true
	[ -d "$(git -C "$WORKDIR/apply" rev-parse --git-path rebase-apply)" ]
	tree config --unset workspace.one.applied
	run ws apply.sh
	[ "$status" -eq 0 ]
	[[ $output == *"interrupted git am"* ]]
	[ "$(tree rev-list --count linux-source..one)" -eq 1 ]
}

@test "Ctrl-C in the middle of apply leaves the branch as it was, and the next run recovers" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	good=$(tree rev-parse one)
	# Enough patches that git am is still running when Ctrl-C comes.
	local -a edits=()
	for i in $(seq 1 150); do edits+=("f$i.c:int f$i;:fixture: add f$i"); done
	rm -rf "$SERIES_DIR/one"
	make_series one linux-source "${edits[@]}"
	# git as apply.sh runs it, but held at the 20th patch until the
	# Ctrl-C comes: 150 tiny patches can all apply before a poll sees
	# "[20/150]", and the test then interrupted nothing.
	local slow=$BATS_TEST_TMPDIR/slowgit real_git
	real_git=$(command -v git)
	mkdir -p "$slow"
	# shellcheck disable=SC2016 # the stand-in git's own code
	printf '%s\n' '#!/bin/bash' \
		'for a in "$@"; do [[ $a != */0020-*.patch ]] || { : >"$HELD_AT"; sleep 60; }; done' \
		"exec $real_git \"\$@\"" >"$slow/git"
	chmod +x "$slow/git"
	HELD_AT=$BATS_TEST_TMPDIR/held PATH=$slow:$PATH \
		setsid "$FIXTURES/default-sigint" bash "$WS/scripts/apply.sh" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	# Wait until git am is at the 20th patch, then interrupt the whole job.
	for _ in $(seq 1 300); do
		[[ ! -e $BATS_TEST_TMPDIR/held ]] || break
		sleep 0.1
	done
	[ -e "$BATS_TEST_TMPDIR/held" ]
	grep -q '\[20/150\]' "$BATS_TEST_TMPDIR/out"
	kill -INT -- -"$pid"
	wait "$pid" || true
	run grep -c "branch one is at" "$BATS_TEST_TMPDIR/out"
	[ "$output" = 0 ]
	[ "$(tree rev-parse one)" = "$good" ]
	run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-list --count linux-source..one)" -eq 150 ]
}

@test "a second run waits for the first and then gives up with a message" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	flock "$WORKDIR/lock" sleep 6 &
	local holder=$!
	sleep 0.5
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"another workspace run holds"* ]]
	[[ $output == *"gave up waiting"* ]]
	wait "$holder"
	run tree rev-parse -q --verify one
	[ "$status" -ne 0 ]
}

# ---- build ----------------------------------------------------------------

@test "bisect-build reports every commit, names the first failing one and goes on" {
	import_fixture
	make_series one linux-source \
		"a.c:int a;:fixture: add a" \
		"main.c:int fixture_main(void) { return }:fixture: break the build" \
		"main.c:int fixture_main(void) { return 0; }:fixture: fix the build" \
		"main.c:int fixture_main(void) { return 1 + ; }:fixture: break it again"
	ws apply.sh
	run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"first failing commit: one [2/4]"* ]]
	[[ $output == *"fixture: break the build"* ]]
	[[ $output == *"error:"* ]]
	[[ $(results_row one 0 build) == pass* ]]
	[[ $(results_row one 1 build) == pass* ]]
	[[ $(results_row one 2 build) == "fail "*"error"* ]]
	[[ $(results_row one 3 build) == pass* ]]
	[[ $(results_row one 4 build) == fail* ]]
	# The full log is kept.
	log=$(echo "$output" | sed -n 's/.*(log: \(.*build.log\)).*/\1/p' | head -n1)
	grep -q "error" "$log"
}

@test "bisect-build counts only new warnings against the parent" {
	import_fixture
	make_series one linux-source \
		"main.c:int fixture_main(void) { int unused; return 0; }:fixture: add a warning" \
		"a.c:int a;:fixture: unrelated"
	ws apply.sh
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == "warn 1 new warning"*"unused"* ]]
	[[ $(results_row one 2 build) == "pass no new warnings" ]]
}

@test "a build interrupted by Ctrl-C is redone cleanly by the next run" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	FAKE_BUILD_SLEEP=3 setsid "$FIXTURES/default-sigint" \
		bash "$WS/scripts/build.sh" series >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	sleep 1.5
	kill -INT -- -"$pid" 2>/dev/null || kill -INT "$pid"
	wait "$pid" || true
	run grep -c "pass in" "$BATS_TEST_TMPDIR/out"
	[ "$output" = 0 ]
	[ -z "$(ls "$WORKDIR"/artifacts/smoke/*/result 2>/dev/null)" ]
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == pass* ]]
}

@test "a build whose recipe was killed by a signal stores nothing; the next run builds it" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	FAKE_BUILD_KILLED=1 run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"was killed by a signal"*"nothing is stored"* ]]
	[ -z "$(ls "$WORKDIR"/artifacts/smoke/*/result 2>/dev/null)" ]
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == pass* ]]
}

@test "a built kernel is cached with its .config; one cached without it is built again" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	ws build.sh series
	run ws build.sh series
	[ "$status" -eq 0 ]
	[ "$(grep -c 'pass in .*(cached)' <<<"$output")" -eq 2 ]
	local -a configs=("$WORKDIR"/artifacts/smoke/*/config)
	[ "${#configs[@]}" -eq 2 ]
	rm "${configs[0]}"
	run ws build.sh series
	[ "$status" -eq 0 ]
	[ "$(grep -c 'pass in .*(cached)' <<<"$output")" -eq 1 ]
	[ -f "${configs[0]}" ]
}

@test "a commit's config key is made once and read after; changed fragments make it again" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	ws build.sh series
	local sha memo
	sha=$(tree rev-parse one)
	# The key's file (a hex name), not the .inputs beside it.
	memo=$(echo "$WORKDIR/artifacts/keys/smoke/$sha-"*[^s])
	[ -s "$memo" ]
	# Beside it, what the key read, for the build cells.
	grep -qx "run cat $WS/qemu/configs/smoke.config" "$memo.inputs"
	grep -qx "key $(cat "$memo")" "$memo.inputs"
	run ws build.sh artifact "$sha"
	[ "$status" -eq 0 ]
	[[ $output == "$WORKDIR/artifacts/smoke/"*"-$(cat "$memo")" ]]
	# The kept key is what a later step reads: a wrong one is not built.
	echo 0123456789abcdef >"$memo"
	run ws build.sh artifact "$sha"
	[ "$status" -ne 0 ]
	[[ $output == *"${sha:0:12} is not built on the smoke config"* ]]
	# Other fragments: another key, made from the commit again (not the
	# wrong one kept for the old fragments), whose kernel is not built.
	mkdir -p "$BATS_TEST_TMPDIR/configs"
	cp "$WS/qemu/configs/"*.config "$BATS_TEST_TMPDIR/configs/"
	echo "# another fragment" >>"$BATS_TEST_TMPDIR/configs/smoke.config"
	CONFIG_DIR=$BATS_TEST_TMPDIR/configs run ws build.sh artifact "$sha"
	[ "$status" -ne 0 ]
	local -a memos=("$WORKDIR/artifacts/keys/smoke/$sha-"*[^s])
	[ "${#memos[@]}" -eq 2 ]
	[[ $output != *"-0123456789abcdef"* ]]
}

@test "a config fragment option missing from the final .config is an error naming it" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/configs"
	printf 'CONFIG_TTY=y\nCONFIG_DROPPED_BY_FIXTURE=y\n' >"$BATS_TEST_TMPDIR/configs/smoke.config"
	CONFIG_DIR=$BATS_TEST_TMPDIR/configs run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"CONFIG_DROPPED_BY_FIXTURE=y (smoke.config)"* ]]
	[[ $(results_row one 0 build) == "fail config"* ]]
}

@test "features.config: an option counts only from the commit whose Kconfig defines it" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a" \
		"lib/Kconfig.x:config FEATURE_X_DROPPED_BY_FIXTURE:fixture: add feature x"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/configs"
	printf 'CONFIG_TTY=y\n' >"$BATS_TEST_TMPDIR/configs/smoke.config"
	printf 'CONFIG_NOWHERE=y\nCONFIG_FEATURE_X_DROPPED_BY_FIXTURE=y\n' >"$BATS_TEST_TMPDIR/configs/features.config"
	CONFIG_DIR=$BATS_TEST_TMPDIR/configs run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 0 build) == pass* ]]
	[[ $(results_row one 1 build) == pass* ]]
	[[ $(results_row one 2 build) == "fail config"* ]]
	[[ $output == *"CONFIG_FEATURE_X_DROPPED_BY_FIXTURE=y (features.config)"* ]]
	[[ $output != *"CONFIG_NOWHERE"* ]]
}

# ---- boot -----------------------------------------------------------------

# boot_seconds SERIES INDEX: the seconds of that commit's boot row.
boot_seconds() {
	awk -F'\t' -v s="$1" -v i="$2" '$1 == s && $2 == i && $5 == "boot" { print $7 }' "$WORKDIR/report/results.tsv"
}

boot_fixture() {
	make_tarball "$1"
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
}

@test "a boot is keyed by the code that runs and judges it: a comment or code elsewhere in boot.sh, or another architecture's QEMU, boots nothing again, a change to how QEMU runs boots again" {
	boot_fixture ok
	# A copy of the workspace's scripts and qemu/ to edit.
	local root=$BATS_TEST_TMPDIR/ws
	mkdir -p "$root"
	cp -r "$WS/scripts" "$WS/qemu" "$root/"
	WS_ROOT=$root run bash "$root/scripts/boot.sh" series
	[ "$status" -eq 0 ]
	[[ $output != *"(cached:"* ]]
	printf '# A comment, and nothing else.\n' >>"$root/scripts/boot.sh"
	WS_ROOT=$root run bash "$root/scripts/boot.sh" series
	[ "$status" -eq 0 ]
	[ "$(grep -c '(cached: the same kernel' <<<"$output")" -eq 2 ]
	# Code that neither runs nor judges a boot: a command after main, and
	# the progress line of each commit.
	printf 'true\n' >>"$root/scripts/boot.sh"
	# shellcheck disable=SC2016 # boot.sh's text
	sed -i 's/progress boot "\$s \[/progress boot "series $s [/' "$root/scripts/boot.sh"
	# shellcheck disable=SC2016 # boot.sh's text
	grep -q 'progress boot "series \$s \[' "$root/scripts/boot.sh"
	WS_ROOT=$root run bash "$root/scripts/boot.sh" series
	[ "$status" -eq 0 ]
	[ "$(grep -c '(cached: the same kernel' <<<"$output")" -eq 2 ]
	# How QEMU runs another architecture's guest (bootarch.sh defines
	# qemu_machine_args for BOOT_ARCH alone): nothing boots again here.
	sed -i 's/-cpu cortex-a57 -m 1G /-cpu cortex-a57 -m 2G /' "$root/scripts/bootarch.sh"
	grep -q -- 'cortex-a57 -m 2G' "$root/scripts/bootarch.sh"
	WS_ROOT=$root run bash "$root/scripts/boot.sh" series
	[ "$status" -eq 0 ]
	[ "$(grep -c '(cached: the same kernel' <<<"$output")" -eq 2 ]
	# How QEMU runs this one's: another memory size.
	sed -i 's/ echo max)" -m 1G$/ echo max)" -m 2G/' "$root/scripts/bootarch.sh"
	grep -q -- 'max)" -m 2G$' "$root/scripts/bootarch.sh"
	WS_ROOT=$root run bash "$root/scripts/boot.sh" series
	[ "$status" -eq 0 ]
	[[ $output != *"(cached:"* ]]
}

@test "a boot keys the same whether BOOT_ARCH came exported (make) or not (boot.sh by hand)" {
	boot_fixture ok
	BOOT_ARCH=x86_64 run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output != *"(cached:"* ]]
	(unset BOOT_ARCH; ws boot.sh series) >"$BATS_TEST_TMPDIR/by-hand" 2>&1
	[ "$(grep -c '(cached: the same kernel' "$BATS_TEST_TMPDIR/by-hand")" -eq 2 ]
}

@test "a guest test's ws-link: library is linked where the guest's compiler has it, and keys the initramfs by its content" {
	boot_fixture ok
	export FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	# Without libgc.a: siginfo is compiled without it.
	run ws boot.sh series
	[ "$status" -eq 0 ]
	grep -- '/siginfo.c' "$FAKE_CC_ARGS" >"$BATS_TEST_TMPDIR/lines"
	[ -s "$BATS_TEST_TMPDIR/lines" ]
	[ "$(grep -c -- '-lgc' "$BATS_TEST_TMPDIR/lines")" -eq 0 ]
	# With one: -DWS_HAVE_LIBGC -lgc -pthread, for siginfo only.
	export FAKE_LIBGC=$BATS_TEST_TMPDIR/libgc.a
	printf 'one\n' >"$FAKE_LIBGC"
	: >"$FAKE_CC_ARGS"
	run ws boot.sh series
	[ "$status" -eq 0 ]
	grep -- '/siginfo.c' "$FAKE_CC_ARGS" | grep -q -- '-DWS_HAVE_LIBGC -lgc -pthread'
	[ "$(grep -v -- '/siginfo.c' "$FAKE_CC_ARGS" | grep -c -- '-lgc')" -eq 0 ]
	# Another libgc.a: compiled again.
	printf 'two\n' >"$FAKE_LIBGC"
	: >"$FAKE_CC_ARGS"
	run ws boot.sh series
	[ "$status" -eq 0 ]
	grep -q -- '/siginfo.c' "$FAKE_CC_ARGS"
}

@test "boot-test passes a good kernel and falls back to TCG when KVM does not boot" {
	boot_fixture ok
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"accelerator: tcg"* ]]
	[[ $(results_row one 0 boot) == pass* ]]
	[[ $(results_row one 1 boot) == pass* ]]
}

@test "a boot identical to an earlier passing one is taken from the cache, with its seconds; FRESH=1 boots again" {
	boot_fixture ok
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	FAKE_QEMU_SLEEP=2 run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 2 ]
	local secs
	secs=$(boot_seconds one 1)
	[ "$secs" -ge 2 ]
	# A report made afresh (its directory removed): the seconds come
	# from the boot's cache, not from the row they replace.
	rm -rf "$WORKDIR/report"
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 2 ]
	[[ $output == *"cached: the same kernel, initramfs, QEMU and verdict passed before"* ]]
	[[ $(results_row one 1 boot) == "pass pass: 1 passed, 0 skipped (cached)" ]]
	# The row of a cached boot has the seconds of the boot that passed, as
	# a cached build's has its build's: make bench's guests' time.
	[ "$(boot_seconds one 1)" -eq "$secs" ]
	grep -q "ok 1 fixture" "$WORKDIR/boots/smoke/$(tree rev-parse --short=12 one)/ktap.log"
	FRESH=1 run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 4 ]
	[[ $(results_row one 1 boot) == "pass pass: 1 passed, 0 skipped" ]]
	# A damaged entry is named and not taken.
	local c
	for c in "$WORKDIR"/boot-cache/*/verdict; do printf 'pa' >"$c"; done
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 6 ]
	[[ $output == *"damaged cached boot"* ]]
}

@test "a failed boot is never taken from the cache" {
	boot_fixture warn
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run ws boot.sh series
	[ "$status" -ne 0 ]
	run ws boot.sh series
	[ "$status" -ne 0 ]
	[ "$(boots)" -eq 4 ]
	[ ! -e "$WORKDIR/boot-cache" ] || [ -z "$(ls -A "$WORKDIR/boot-cache")" ]
}

@test "a boot is cached by QEMU's binary and both timeouts, and its guest programs by the C library they link" {
	boot_fixture ok
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	compiles() { grep -c -- "-static" "$FAKE_CC_ARGS"; }
	cp "$FIXTURES/fake-qemu" "$BATS_TEST_TMPDIR/qemu"
	export QEMU=$BATS_TEST_TMPDIR/qemu
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 2 ]
	local n
	n=$(compiles)
	# Another QEMU binary with the same version line boots again.
	printf '# rebuilt\n' >>"$QEMU"
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 4 ]
	# So does another BOOT_TIMEOUT: a pass in 250 s is no pass in 200.
	BOOT_TIMEOUT=6 run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 6 ]
	[ "$(compiles)" -eq "$n" ]
	# Another static C library builds the guest programs again, and boots.
	printf 'libc one\n' >"$BATS_TEST_TMPDIR/libc.a"
	FAKE_LIBC=$BATS_TEST_TMPDIR/libc.a run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 8 ]
	[ "$(compiles)" -gt "$n" ]
	n=$(compiles)
	FAKE_LIBC=$BATS_TEST_TMPDIR/libc.a run ws boot.sh series
	[ "$(boots)" -eq 8 ]
	[ "$(compiles)" -eq "$n" ]
	printf 'libc two\n' >"$BATS_TEST_TMPDIR/libc.a"
	FAKE_LIBC=$BATS_TEST_TMPDIR/libc.a run ws boot.sh series
	[ "$(boots)" -eq 10 ]
	[ "$(compiles)" -gt "$n" ]
	# A QEMU that is not there stops the boots, naming it.
	QEMU=$BATS_TEST_TMPDIR/no-such-qemu run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"$BATS_TEST_TMPDIR/no-such-qemu not found"* ]]
}

@test "a change to how the guest programs are compiled builds them again" {
	boot_fixture ok
	export FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	local root=$BATS_TEST_TMPDIR/ws n
	mkdir -p "$root"
	cp -r "$WS/scripts" "$WS/qemu" "$root/"
	WS_ROOT=$root run bash "$root/scripts/boot.sh" series
	[ "$status" -eq 0 ]
	n=$(grep -c -- -static "$FAKE_CC_ARGS")
	# shellcheck disable=SC2016 # boot.sh's text
	sed -i 's/"\$GUEST_CC" -static -O2 -Wall/"$GUEST_CC" -static -O2 -Wall -Wextra/' "$root/scripts/boot.sh"
	grep -q -- '-Wall -Wextra' "$root/scripts/boot.sh"
	WS_ROOT=$root run bash "$root/scripts/boot.sh" series
	[ "$status" -eq 0 ]
	grep -q -- '-Wextra' "$FAKE_CC_ARGS"
	[ "$(grep -c -- -static "$FAKE_CC_ARGS")" -gt "$n" ]
}

@test "a kept kernel's headers are hashed once for the keys of its boots; a kernel built again is hashed again" {
	boot_fixture ok
	export FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	local n art sums
	local -a arts kept
	run ws boot.sh series
	[ "$status" -eq 0 ]
	n=$(grep -c -- -static "$FAKE_CC_ARGS")
	arts=("$WORKDIR"/artifacts/smoke/*/)
	art=${arts[-1]%/}
	kept=("$WORKDIR/digests$art/headers"/tree-*)
	[ "${#kept[@]}" -eq 1 ] && [ -s "${kept[0]}" ]
	sums=${kept[0]}
	# The boots of the next run read the kept sums.
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"cached: the same kernel, initramfs, QEMU and verdict passed before"* ]]
	kept=("$WORKDIR/digests$art/headers"/tree-*)
	[ "${kept[*]}" = "$sums" ]
	[ "$(grep -c -- -static "$FAKE_CC_ARGS")" -eq "$n" ]
	# The same kernel built again with another header, published as
	# buildlib.sh publishes one (a new directory renamed into place), is
	# hashed again: its guest programs are compiled against it.
	cp -a "$art" "$art.tmp"
	echo '#define FIXTURE_NEW 1' >"$art.tmp/headers/fixture-new.h"
	rm -rf "$art" && mv "$art.tmp" "$art"
	run ws boot.sh series
	[ "$status" -eq 0 ]
	kept=("$WORKDIR/digests$art/headers"/tree-*)
	[ "${#kept[@]}" -eq 2 ]
	[ "$(grep -c -- -static "$FAKE_CC_ARGS")" -gt "$n" ]
}

@test "the KVM probe is made once per boot of the machine, not once per run; FRESH=1 probes again" {
	boot_fixture ok
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"accelerator: tcg"* ]]
	[ "$(probes)" -eq 1 ]
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"accelerator: tcg"* ]]
	[ "$(probes)" -eq 1 ]
	FRESH=1 FAKE_KVM=1 run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"accelerator: kvm"* ]]
	[ "$(probes)" -eq 2 ]
	# Another QEMU is probed again.
	cp "$FIXTURES/fake-qemu" "$BATS_TEST_TMPDIR/qemu"
	printf '# another build\n' >>"$BATS_TEST_TMPDIR/qemu"
	QEMU=$BATS_TEST_TMPDIR/qemu run ws boot.sh series
	[ "$(probes)" -eq 3 ]
}

@test "kill -9 of boot.sh leaves no QEMU running" {
	boot_fixture hang
	export FAKE_QEMU_PIDS=$BATS_TEST_TMPDIR/qemu-pids
	local pid
	BOOT_TIMEOUT=120 bash "$WS/scripts/boot.sh" series >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	within 30 qemu_hangs
	kill -9 "$pid"
	wait "$pid" || true
	within 5 all_stopped "$FAKE_QEMU_PIDS"
}

@test "make run boots a commit with its guest programs, runs CMD there and exits with its status" {
	boot_fixture ok
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	# The fake QEMU acts out init's ws.mode=run with the host's sh: the
	# command comes from the initramfs the workspace appended to.
	# shellcheck disable=SC2016 # the guest's shell expands it
	SERIES=one CMD='echo "in the guest: $((6 * 7))"; exit 3' run ws guest.sh run
	echo "$output"
	[ "$status" -eq 3 ]
	[[ $output == *"in the guest: 42"* ]]
	grep -q -- "ws.mode=run" "$FAKE_QEMU_ARGS"
	grep -q -- "-serial stdio" "$FAKE_QEMU_ARGS"
	grep -qx "# ws-run: exit 3" "$WORKDIR/sessions/$(tree rev-parse --short=12 one)/ktap.log"
	# COMMIT picks the commit by its index; 0 is the base.
	SERIES=one COMMIT=0 CMD=true run ws guest.sh run
	[ "$status" -eq 0 ]
	[ -d "$WORKDIR/sessions/$(tree rev-parse --short=12 linux-source)" ]
	# Bad input is named.
	SERIES=one COMMIT=7 CMD=true run ws guest.sh run
	[ "$status" -ne 0 ]
	[[ $output == *"COMMIT must be the index of a commit of one, 0 (its base) to 1 (got '7')"* ]]
	SERIES=one run ws guest.sh run
	[ "$status" -ne 0 ]
	[[ $output == *"make run needs CMD="* ]]
	SERIES=one,two CMD=true run ws guest.sh run
	[[ $output == *"make run works on one series"* ]]
	BOOT_ARCH=arm64 SERIES=one CMD=true run ws guest.sh run
	[[ $output == *"boots x86-64 guests only"* ]]
}

@test "make shell gives the guest's shell the terminal, with Ctrl-A X to quit, and the boots' cache is left alone" {
	boot_fixture ok
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	# shellcheck disable=SC2016 # the guest's shell expands it
	SERIES=one run ws guest.sh shell <<<'echo "shell says $((2 + 3))"; exit 0'
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"shell says 5"* ]]
	grep -q -- "-serial mon:stdio" "$FAKE_QEMU_ARGS"
	grep -q -- "ws.mode=shell" "$FAKE_QEMU_ARGS"
	# A session is no boot of the run's: no cell, no cached boot.
	run ! compgen -G "$WORKDIR/report/cells/one/*/boot*"
	[ ! -e "$WORKDIR/boot-cache" ] || [ -z "$(ls -A "$WORKDIR/boot-cache")" ]
}

@test "boot-test runs the tree's own selftests from the commits that have them" {
	make_tarball ok
	import_fixture
	make_series one linux-source "tools/testing/selftests/tty/tty_vstatus.c:int main(void) { return 0; }:selftests: tty: add a test"
	ws apply.sh
	run ws boot.sh series
	[ "$status" -eq 0 ]
	initramfs_list() {
		cat "$(dirname "$(readlink "$WORKDIR/boots/smoke/${1:0:12}/initramfs.cpio")")/initramfs.list"
	}
	run initramfs_list "$(tree rev-parse linux-source)"
	[[ $output != *selftest-tty-tty_vstatus* ]]
	run initramfs_list "$(tree rev-parse one)"
	[[ $output == *"/tests/selftest-tty-tty_vstatus "* ]]
}

@test "bench compares the pty throughput of base and head and writes bench-pty.tsv" {
	boot_fixture ok
	FAKE_PTY_RATE=1000 BENCH_BOOTS=2 run ws boot.sh bench
	[ "$status" -eq 0 ]
	[[ $output == *"boot 2/2 of base"* ]]
	grep -qP '^one\tbase\t6\t1002\t' "$WORKDIR/report/bench-pty.tsv"
	grep -qP '^one\thead\t6\t1002\t' "$WORKDIR/report/bench-pty.tsv"
	grep -qP '^one\tdiff\t-\t\+0\.0%\twithin noise' "$WORKDIR/report/bench-pty.tsv"
}

@test "bench without figures from the guest fails and says so" {
	boot_fixture ok
	BENCH_BOOTS=1 run ws boot.sh bench
	[ "$status" -ne 0 ]
	[[ $output == *"no pty_canon figures"* ]]
}

@test "bench rejects a bad BENCH_BOOTS" {
	boot_fixture ok
	BENCH_BOOTS=zero run ws boot.sh bench
	[ "$status" -ne 0 ]
	[[ $output == *"BENCH_BOOTS must be a positive whole number"* ]]
}

@test "a KASAN kernel with 5-level paging boots with no5lvl, and only such a kernel" {
	make_tarball ok
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/configs"
	printf 'CONFIG_TTY=y\nCONFIG_X86_5LEVEL=y\n' >"$BATS_TEST_TMPDIR/configs/smoke.config"
	printf 'CONFIG_KASAN=y\n' >"$BATS_TEST_TMPDIR/configs/debug.config"
	CONFIG_DIR=$BATS_TEST_TMPDIR/configs FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/smoke.args run ws boot.sh series
	[ "$status" -eq 0 ]
	CONFIG_DIR=$BATS_TEST_TMPDIR/configs FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/debug.args run ws boot.sh heads
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 boot-debug) == pass* ]]
	run grep -c -- '-append .*ws.timeout=[0-9]* no5lvl' "$BATS_TEST_TMPDIR/debug.args"
	[ "$output" -eq 1 ]
	run grep -c -- 'no5lvl' "$BATS_TEST_TMPDIR/smoke.args"
	[ "$output" -eq 0 ]
}

@test "a series' boots and its head's debug boot at once (the boot lane's two slots) build one initramfs, whole" {
	make_tarball ok
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	ws build.sh series >/dev/null
	ws boot.sh heads-build >/dev/null
	# The smoke and the debug kernel of the head share its headers, so one
	# guest key: both boots compile its programs at once, slowly enough to
	# overlap.
	# Under one holder of the workspace's lock, as scripts/scheduler.py
	# runs its jobs under make's.
	cat >"$BATS_TEST_TMPDIR/two-boots" <<'EOF'
source "$WS/scripts/lib.sh"
take_lock
rc=0
FAKE_CC_SLEEP=0.2 BOOT_PREBUILT=1 bash "$WS/scripts/boot.sh" series >"$1/series.out" 2>&1 &
one=$!
FAKE_CC_SLEEP=0.2 BOOT_PREBUILT=1 bash "$WS/scripts/boot.sh" heads >"$1/heads.out" 2>&1 &
two=$!
wait "$one" || rc=1
wait "$two" || rc=1
exit "$rc"
EOF
	WS=$WS run bash "$BATS_TEST_TMPDIR/two-boots" "$BATS_TEST_TMPDIR"
	cat "$BATS_TEST_TMPDIR/series.out" "$BATS_TEST_TMPDIR/heads.out"
	[ "$status" -eq 0 ]
	grep -q "pass: " "$BATS_TEST_TMPDIR/heads.out"
	[ "$(grep -c "pass: " "$BATS_TEST_TMPDIR/series.out")" -eq 2 ]
	# Each guest directory whole, none half-made left behind.
	run find "$WORKDIR/guest" -maxdepth 1 -name '*.tmp*'
	[ -z "$output" ]
	local d
	for d in "$WORKDIR"/guest/*/; do
		[[ $d == */stage-*/ ]] || [ -s "$d/initramfs.cpio" ]
	done
	[ "$(readlink "$WORKDIR/boots/smoke/$(tree rev-parse --short=12 one)/initramfs.cpio")" = \
		"$(readlink "$WORKDIR/boots/debug/$(tree rev-parse --short=12 one)/initramfs.cpio")" ]
}

@test "a debug kernel that does not build fails its boot-debug cell, saying why" {
	make_tarball ok
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/configs"
	printf 'CONFIG_TTY=y\n' >"$BATS_TEST_TMPDIR/configs/smoke.config"
	printf 'CONFIG_WS_BUILD_FAILS=y\n' >"$BATS_TEST_TMPDIR/configs/debug.config"
	CONFIG_DIR=$BATS_TEST_TMPDIR/configs run ws boot.sh heads
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 boot-debug) == "fail "*"the debug kernel did not build"* ]]
}

@test "boot-test uses KVM when the probe boot works" {
	boot_fixture ok
	FAKE_KVM=1 run ws boot.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"accelerator: kvm"* ]]
}

@test "a kernel that panics fails the boot and the run goes on" {
	boot_fixture panic
	run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 0 boot) == "fail "*"Kernel panic"* ]]
	[[ $(results_row one 1 boot) == "fail "*"Kernel panic"* ]]
}

@test "a kernel that hangs is killed at the timeout and fails" {
	boot_fixture hang
	SECONDS=0
	BOOT_TIMEOUT=3 run ws boot.sh series
	[ "$status" -ne 0 ]
	((SECONDS < 30))
	[[ $(results_row one 0 boot) == fail* ]]
	grep -q "timeout after 3s" "$WORKDIR"/boots/smoke/*/console.log
}

@test "a boot that times out after the guest's done marker fails" {
	boot_fixture done-hang
	BOOT_TIMEOUT=3 run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 boot) == fail*"timeout"* ]]
}

@test "a guest skip passes only where qemu/expected-skips allows it for the commit" {
	make_tarball skip-allowed
	import_fixture
	make_series one linux-source "behaviour:skip-other:fixture: skip for no reason"
	ws apply.sh
	run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 0 boot) == pass* ]]
	grep -qxF "vstatus/VSTATUS not in this kernel's uapi headers (*)" \
		"$WORKDIR/boots/smoke/$(tree rev-parse --short=12 linux-source)/allowed-skips"
	[[ $(results_row one 1 boot) == "fail "*"unexpected skip"*"fixture out of luck"* ]]
}

@test "only a kernel with KUnit built in may be tainted by its tests (ws.taint_allow=N)" {
	make_tarball ok
	import_fixture
	make_series one linux-source "extra.config:CONFIG_KUNIT=y:fixture: build KUnit in"
	ws apply.sh
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run ws boot.sh series
	[ "$status" -eq 0 ]
	[ "$(grep -c -- "-append console=ttyS0" "$FAKE_QEMU_ARGS")" -ge 2 ]
	grep "ws.taint_allow=N" "$FAKE_QEMU_ARGS" | grep -q -- "-kernel [^ ]*/$(tree rev-parse "one^{tree}")-"
	[ "$(grep -c "ws.taint_allow=N" "$FAKE_QEMU_ARGS")" -eq 1 ]
}

@test "a WARNING on the console fails the boot" {
	boot_fixture warn
	run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 boot) == "fail "*"WARNING:"* ]]
}

@test "malformed KTAP from a guest test fails the boot" {
	boot_fixture badktap
	run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 boot) == "fail "*"malformed"* ]]
}

@test "guest tests that do not compile fail the boot with the compiler's error" {
	boot_fixture ok
	FAKE_CC_FAIL=1 run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 boot) == "fail guest tests do not compile"*"error"* ]]
}

# ---- checks and the matrix ---------------------------------------------------

@test "check runs the selected checks and an unknown check is named" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	CHECKS=nope run ws check.sh
	[ "$status" -ne 0 ]
	[[ $output == *"unknown check 'nope'"* ]]
	[[ $output == *"checkpatch"* ]]
}

@test "check caches passes by commit, and runs a failure again" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/checks/flaky"
	cat >"$BATS_TEST_TMPDIR/checks/flaky/run" <<-'EOF'
		#!/bin/sh
		echo run >>"$FLAKY_COUNT"
		if [ -e "$FLAKY_OK" ]; then echo fine; exit 0; fi
		echo "tool missing"; exit 1
	EOF
	chmod +x "$BATS_TEST_TMPDIR/checks/flaky/run"
	export FLAKY_COUNT=$BATS_TEST_TMPDIR/count FLAKY_OK=$BATS_TEST_TMPDIR/ok
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 flaky) == "fail tool missing" ]]
	touch "$FLAKY_OK"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 flaky) == "pass fine" ]]
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$FLAKY_COUNT")" -eq 2 ]
}

@test "a check runs again when its code changes, not when a comment or its description does" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/checks/counted"
	# shellcheck disable=SC2016 # the check's own code
	printf '%s\n' '#!/bin/sh' '# Counts its runs.' 'echo run >>"$COUNTED"' 'echo fine' \
		>"$BATS_TEST_TMPDIR/checks/counted/run"
	chmod +x "$BATS_TEST_TMPDIR/checks/counted/run"
	echo "Counts its runs." >"$BATS_TEST_TMPDIR/checks/counted/description"
	export COUNTED=$BATS_TEST_TMPDIR/count
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	# A comment, a trailing comment, a blank line, the description.
	sed -i 's/^# Counts its runs\.$/# Counts each of its runs, one line a run./; s/^echo fine$/echo fine  # the summary\n/' \
		"$BATS_TEST_TMPDIR/checks/counted/run"
	echo "It counts." >>"$BATS_TEST_TMPDIR/checks/counted/description"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$COUNTED")" -eq 1 ]
	# Code.
	sed -i 's/^echo fine /echo fine, counted /' "$BATS_TEST_TMPDIR/checks/counted/run"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$COUNTED")" -eq 2 ]
	[[ $(results_row one 1 counted) == "pass fine, counted" ]]
}

@test "the checks of series on two kernel lines keep a scratch directory each, cocci one for all" {
	two_lines
	mkdir -p "$BATS_TEST_TMPDIR/checks/where" "$BATS_TEST_TMPDIR/checks/cocci"
	# shellcheck disable=SC2016 # the checks' own code
	printf '%s\n' '#!/bin/sh' 'echo "$1 $CHECK_SCRATCH" >>"$WHERE"' 'echo fine' >"$BATS_TEST_TMPDIR/checks/where/run"
	cp "$BATS_TEST_TMPDIR/checks/where/run" "$BATS_TEST_TMPDIR/checks/cocci/run"
	chmod +x "$BATS_TEST_TMPDIR/checks/"*/run
	export WHERE=$BATS_TEST_TMPDIR/where
	# The scratch of before the lines (a worktree in check-work/<check>/)
	# goes; cocci's stays.
	mkdir -p "$WORKDIR/check-work/where/src" "$WORKDIR/check-work/cocci/scan/src"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[ ! -e "$WORKDIR/check-work/where/src" ] && [ -d "$WORKDIR/check-work/cocci/scan/src" ]
	grep -qx "$(tree rev-parse one) $WORKDIR/check-work/6.12/where" "$WHERE"
	grep -qx "$(tree rev-parse two) $WORKDIR/check-work/9.10/where" "$WHERE"
	[ "$(grep -c " $WORKDIR/check-work/cocci\$" "$WHERE")" -eq 2 ]
	[ -d "$WORKDIR/check-work/6.12/where" ] && [ -d "$WORKDIR/check-work/9.10/where" ]
}

@test "a damaged cached check result is named and the check runs again" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/checks/counted"
	cat >"$BATS_TEST_TMPDIR/checks/counted/run" <<-'EOF'
		#!/bin/sh
		echo run >>"$COUNTED"
		echo fine
	EOF
	chmod +x "$BATS_TEST_TMPDIR/checks/counted/run"
	export COUNTED=$BATS_TEST_TMPDIR/count
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	local result
	result=$(echo "$WORKDIR"/checks-cache/counted/"$(tree rev-parse one)"-*/result)
	[ -f "$result" ]
	printf 'pass' >"$result"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[[ $output == *"damaged cached result $result"* ]]
	[ "$(wc -l <"$COUNTED")" -eq 2 ]
	[[ $(results_row one 1 counted) == "pass fine" ]]
}

@test "a check runs again when a file its inputs names changes, and gets the series' base and head" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a" "b.c:int b;:fixture: add b"
	ws apply.sh
	echo "first" >"$SERIES_DIR/one/cover-letter"
	mkdir -p "$BATS_TEST_TMPDIR/checks/reader"
	printf '%s\n' "series/{series}/cover-letter" >"$BATS_TEST_TMPDIR/checks/reader/inputs"
	cat >"$BATS_TEST_TMPDIR/checks/reader/run" <<-'EOF'
		#!/bin/sh
		echo "$1" >>"$READER_COUNT"
		echo "base=$CHECK_BASE head=$CHECK_HEAD"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/checks/reader/run"
	export READER_COUNT=$BATS_TEST_TMPDIR/count
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 reader) == "pass base=$(tree rev-parse linux-source) head=$(tree rev-parse one)" ]]
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$(wc -l <"$READER_COUNT")" -eq 2 ]
	echo "second" >"$SERIES_DIR/one/cover-letter"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$READER_COUNT")" -eq 4 ]
	echo "missing" >"$BATS_TEST_TMPDIR/checks/reader/inputs"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -ne 0 ]
	[[ $output == *"checks/reader/inputs names 'missing'"* ]]
}

@test "a check's key covers the shared files it sources, and no others" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	local dir=$BATS_TEST_TMPDIR/checks
	mkdir -p "$dir/reader" "$dir/other" "$dir/lib"
	# reader sources lib/a.sh, which sources lib/b.sh; other sources none.
	cat >"$dir/reader/run" <<-'EOF'
		#!/bin/bash
		source "$(dirname "$0")/../lib/a.sh"
		echo "$1" >>"$COUNT.reader"
		echo "a says $(a)"
	EOF
	cat >"$dir/other/run" <<-'EOF'
		#!/bin/bash
		echo "$1" >>"$COUNT.other"
		echo "nothing shared"
	EOF
	# shellcheck disable=SC2016 # the sourced file's own text
	printf '%s\n' 'source "$(dirname "${BASH_SOURCE[0]}")/b.sh"' 'a() { b; }' >"$dir/lib/a.sh"
	printf '%s\n' 'b() { echo one; }' >"$dir/lib/b.sh"
	printf '%s\n' 'c() { :; }' >"$dir/lib/c.sh"
	chmod +x "$dir/reader/run" "$dir/other/run"
	export COUNT=$BATS_TEST_TMPDIR/count
	CHECKS_DIR=$dir run ws check.sh
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 reader) == "pass a says one" ]]
	# A file no check sources: nothing runs again.
	printf '%s\n' 'c() { echo changed; }' >"$dir/lib/c.sh"
	CHECKS_DIR=$dir run ws check.sh
	[ "$(wc -l <"$COUNT.reader")" -eq 1 ]
	[ "$(wc -l <"$COUNT.other")" -eq 1 ]
	# What reader sources through a.sh: reader runs again, other does not.
	printf '%s\n' 'b() { echo two; }' >"$dir/lib/b.sh"
	CHECKS_DIR=$dir run ws check.sh
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$COUNT.reader")" -eq 2 ]
	[ "$(wc -l <"$COUNT.other")" -eq 1 ]
	[[ $(results_row one 1 reader) == "pass a says two" ]]
	# A source line naming a file that is not there fails, naming it.
	# shellcheck disable=SC2016 # the sourced file's own text
	printf '%s\n' 'source "$(dirname "${BASH_SOURCE[0]}")/gone.sh"' 'a() { :; }' >"$dir/lib/a.sh"
	CHECKS_DIR=$dir run ws check.sh
	[ "$status" -ne 0 ]
	[[ $output == *"lib/a.sh"*"no such file $dir/lib/gone.sh"* ]]
}

@test "the matrix shows commits by stages, writes summary.md and fails on a failed cell" {
	mkdir -p "$WORKDIR/report"
	{
		printf 'series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\n'
		printf 'one\t0\taaaaaaaaaaaaaaaa\tbase\tbuild\tpass\t200\tbase\t/w/a/build.log\n'
		printf 'one\t1\tbbbbbbbbbbbbbbbb\tfix: a\tbuild\tfail\t10\tmain.c:1: error: x\t/w/b/build.log\n'
		printf 'one\t1\tbbbbbbbbbbbbbbbb\tfix: a\tapply\tpass\t0\t\t\n'
		printf 'one\t1\tbbbbbbbbbbbbbbbb\tfix: a\tcheckpatch\twarn\t1\t1 warnings\t/w/c/log\n'
	} >"$WORKDIR/report/results.tsv"
	run ws matrix.sh
	[ "$status" -eq 1 ]
	header=$(echo "$output" | grep '^#')
	# Stages in the canonical order, whatever order the rows came in.
	[[ $header == *apply*checkpatch*build* ]]
	echo "$output" | grep -E '^1 +bbbbbbbbbbbb +fix: a +pass +warn 1s +FAIL 10s'
	grep -q '| 1 | bbbbbbbbbbbb | fix: a | pass | warn 1s | FAIL 10s |' "$WORKDIR/report/summary.md"
	[[ $output == *"1 failing cell(s)"* ]]
	# Each failure and warning names its log.
	[[ $output == *"one 1 bbbbbbbbbbbb build: fail: main.c:1: error: x"$'\n'"      log: /w/b/build.log"* ]]
	grep -qF "(log: \`/w/c/log\`)" "$WORKDIR/report/summary.md"
	# The same cells for CI systems.
	grep -q '"status": "fail"' "$WORKDIR/report/results.json"
	grep -q '<testsuites name="vstatus-workspace" tests="4" failures="1" skipped="0"' "$WORKDIR/report/results.junit.xml"
}

@test "the matrix sets the heads' SIGINFO cases side by side, before the matrix and in summary.md" {
	mkdir -p "$WORKDIR/report" "$WORKDIR/b/one" "$WORKDIR/b/two"
	printf '%s\n' '  1..1' '  # headers: SIGINFO 65' '  ok 1 sleep: sleeps on' 'ok 1 siginfo' >"$WORKDIR/b/one/ktap.log"
	printf '%s\n' '  1..1' '  # ^T ran nothing' '  not ok 1 sleep: sleeps on' 'not ok 1 siginfo' >"$WORKDIR/b/two/ktap.log"
	{
		printf 'series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\n'
		printf 'one\t1\taaaaaaaaaaaaaaaa\ta\tboot\tpass\t9\tpass: 1 passed\t%s\n' "$WORKDIR/b/one"
		printf 'two\t1\tbbbbbbbbbbbbbbbb\tb\tboot\tfail\t9\tfail: 1 failed\t%s\n' "$WORKDIR/b/two"
	} >"$WORKDIR/report/results.tsv"
	run ws matrix.sh
	[ "$status" -eq 1 ]
	[[ $output == *"== siginfo at the series heads, case by case =="*"== one =="* ]]
	echo "$output" | grep -E '^1 +pass +FAIL +sleep: sleeps on$'
	[[ $output == *"  one: SIGINFO 65"$'\n'"  two, case 1: ^T ran nothing"* ]]
	grep -qF '| 1 | sleep: sleeps on | pass | FAIL |' "$WORKDIR/report/summary.md"
	[[ $(tail -n1 <<<"$output") == "report: "* ]]
}

@test "the whole run on the fixture ends with one matrix and results.tsv" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	run env NO_DEPS=1 DEBUG=0 CHECKS=checkpatch bash "$WS/scripts/all.sh"
	# The fixture tree has no checkpatch.pl: that check fails, the rest pass.
	[[ $output == *"== one =="* ]]
	head -n1 "$WORKDIR/report/results.tsv" | grep -qx $'series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\tarch\tcached\tcpu'
	# Every build cell has the CPU seconds its make took (bench's limit).
	[ "$(awk -F'\t' '$5 == "build" && $12 !~ /^[0-9]+$/' "$WORKDIR/report/results.tsv")" = "" ]
	# Every build and boot cell names its evidence, and it is there.
	local log
	while IFS= read -r log; do
		[ -e "$log" ]
	done < <(awk -F'\t' '$5 == "build" || $5 == "boot" { print $9 }' "$WORKDIR/report/results.tsv")
	[ "$(awk -F'\t' '$5 == "build" || $5 == "boot" { n++ } END { print n }' "$WORKDIR/report/results.tsv")" -eq 4 ]
	[ "$(awk -F'\t' '($5 == "build" || $5 == "boot") && $9 != "" { n++ } END { print n }' "$WORKDIR/report/results.tsv")" -eq 4 ]
	[[ $(results_row one 1 build) == pass* ]]
	[[ $(results_row one 1 boot) == pass* ]]
	[[ $(results_row one 0 apply) == pass* ]]
	# Cross-compiled on the representative set of scripts/arches.
	[ "$(awk -F'\t' '$5 == "cross" && $6 == "pass" && $10 != "" { n++ } END { print n + 0 }' "$WORKDIR/report/results.tsv")" -ge 7 ]
	[ -s "$WORKDIR/report/summary.md" ]
	[ -s "$WORKDIR/report/bench.tsv" ]
}

@test "each run goes into bench-runs.tsv: one that built, then an unchanged one; bench.sh state" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	run env NO_DEPS=1 DEBUG=0 CHECKS=signoff bash "$WS/scripts/all.sh"
	run env NO_DEPS=1 DEBUG=0 CHECKS=signoff bash "$WS/scripts/all.sh"
	local runs=$WORKDIR/report/bench-runs.tsv
	head -n1 "$runs" | grep -qx $'date\twhat\tstate\tkind\tseconds\tseries\tbuilds\trebuilt\tnaive'
	# The fixture tree was imported before the first run: warm, and it
	# built both commits; the second computed nothing.
	[[ $(sed -n 2p "$runs" | cut -f2-4,6-8) == $'make\twarm\t2 rebuilt\tall\t2\t2' ]]
	[[ $(sed -n 3p "$runs" | cut -f2-4,6-8) == $'make\twarm\tunchanged\tall\t2\t0' ]]
	run ws bench.sh state
	[ "$output" = warm ]
	run env WORKDIR="$BATS_TEST_TMPDIR/empty" CCACHE_DIR="$BATS_TEST_TMPDIR/empty/ccache" bash "$WS/scripts/bench.sh" state
	[ "$output" = cold ]
}

@test "build.sh naive measures one clean build without ccache, once" {
	import_fixture
	run ws build.sh naive
	[ "$status" -eq 0 ]
	[[ $(head -n1 "$WORKDIR/report/naive.tsv") == $'seconds\tobjects\tcommit\tconfig\tdate' ]]
	[[ $(sed -n 2p "$WORKDIR/report/naive.tsv" | cut -f3,4) == "$(git -C "$WORKDIR/linux" rev-parse linux-source)"$'\tsmoke' ]]
	[ ! -e "$WORKDIR/build/naive" ]
	run ws build.sh naive
	[ "$status" -eq 0 ]
	[[ $output == *"measured before"* ]]
}

@test "build.sh memory measures the signal structures at a series' base and head, once per commit" {
	import_fixture
	local structs='struct sigpending { long s; }; struct k_sigaction { long h; long m; };'
	structs+=' struct sighand_struct { struct k_sigaction a[2]; }; struct signal_struct { struct sigpending p; };'
	make_series low linux-source "kernel/signal.c:$structs struct task_struct { struct sigpending p; }; struct task_struct t; struct signal_struct s; struct sighand_struct h;:signal: add the structures"
	run ws apply.sh
	make_series high low "kernel/signal.c:$structs struct task_struct { struct sigpending p; long more[3]; }; struct task_struct t; struct signal_struct s; struct sighand_struct h;:signal: grow task_struct"
	SERIES=high run ws apply.sh
	[ "$status" -eq 0 ]
	SERIES=high run ws build.sh memory
	[ "$status" -eq 0 ]
	local tsv=$WORKDIR/report/bench-memory.tsv
	[[ $(head -n1 "$tsv") == $'series\tstruct\tbase\thead' ]]
	grep -qx $'high\ttask_struct\t8\t32' "$tsv"
	grep -qx $'high\tsighand_struct\t32\t32' "$tsv"
	[ "$(grep -c '^high' "$tsv")" -eq 5 ]
	# Kept per commit: a second run compiles nothing.
	rm -rf "$WORKDIR/build/smoke-memory"
	SERIES=high run ws build.sh memory
	[ "$status" -eq 0 ]
	[ ! -e "$WORKDIR/build/smoke-memory/kernel/signal.o" ]
	grep -qx $'high\ttask_struct\t8\t32' "$tsv"
	# A commit whose kernel/signal.c lacks a structure is named.
	make_series bare low "kernel/signal.c:struct task_struct { long x; }; struct task_struct t;:signal: only a task"
	SERIES=bare run ws apply.sh
	SERIES=bare run ws build.sh memory
	[ "$status" -ne 0 ]
	[[ $output == *"pahole found 1 of task_struct"*"the head of bare"* ]]
	[ ! -e "$tsv.tmp" ]
}

# slow_check DIR: a check that takes a while and leaves its pid in
# $SLOW_PIDS, so that a test can see whether it still runs.
slow_check() {
	mkdir -p "$1/slow"
	echo "A check that sleeps." >"$1/slow/description"
	cat >"$1/slow/run" <<-'EOF'
		#!/bin/sh
		echo $$ >>"$SLOW_PIDS"
		sleep "${SLOW_SECS:-2}"
		echo fine
	EOF
	chmod +x "$1/slow/run"
}

# interrupt_make_when READY: all.sh started as from a terminal, then, once
# the function READY returns true (within 30 s), Ctrl-C: SIGINT to the
# foreground group (all.sh and what it runs in the foreground).  Its output
# in $BATS_TEST_TMPDIR/out, which must say it was interrupted.
interrupt_make_when() {
	local pid
	setsid "$FIXTURES/default-sigint" bash "$WS/scripts/all.sh" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	within 30 "$1"
	kill -INT -- -"$pid"
	wait "$pid" || true
	sleep 0.5
	grep -q 'interrupted' "$BATS_TEST_TMPDIR/out"
}

# within SECONDS CMD...: CMD succeeds within SECONDS, tried every 0.2 s;
# the last try's status and output when it never does.
within() {
	local tries=$(($1 * 5)) i
	shift
	for ((i = 1; i < tries; i++)); do
		"$@" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	"$@"
}

# all_stopped PIDFILE: every process named in PIDFILE is gone, or a zombie
# nobody has reaped yet.
all_stopped() {
	local p
	while read -r p; do
		[[ $(ps -o stat= -p "$p" 2>/dev/null || echo Z) == Z* ]] || { echo "$p still runs"; return 1; }
	done <"$1"
}

slow_check_started() {
	[[ -s $SLOW_PIDS ]]
}

# qemu_hangs: a fake QEMU of $FAKE_QEMU_PIDS runs the hanging kernel (it
# became a sleep).
qemu_hangs() {
	local p
	while read -r p; do
		[[ $(ps -o comm= -p "$p" 2>/dev/null) != sleep ]] || return 0
	done < <(cat "$FAKE_QEMU_PIDS" 2>/dev/null)
	return 1
}

@test "make: the checks run in the background beside the builds and boots, and the matrix has both" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	slow_check "$BATS_TEST_TMPDIR/checks"
	export SLOW_PIDS=$BATS_TEST_TMPDIR/pids SLOW_SECS=1
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run env NO_DEPS=1 DEBUG=0 bash "$WS/scripts/all.sh"
	[[ $output == *"checks     the checks of one run in the background"* ]]
	[[ $(results_row one 1 slow) == "pass fine" ]]
	[[ $(results_row one 1 build) == pass* ]]
	[[ $(results_row one 1 boot) == pass* ]]
	# In turn with CHECKS_BESIDE=0: the same cells.
	CHECKS_BESIDE=0 CHECKS_DIR=$BATS_TEST_TMPDIR/checks run env NO_DEPS=1 DEBUG=0 bash "$WS/scripts/all.sh"
	[[ $output != *"the checks of one run in the background"* ]]
	[[ $(results_row one 1 slow) == "pass fine" ]]
}

@test "make: Ctrl-C stops the background checks too, and nothing of theirs is cached" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	slow_check "$BATS_TEST_TMPDIR/checks"
	export SLOW_PIDS=$BATS_TEST_TMPDIR/pids SLOW_SECS=30
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks NO_DEPS=1 DEBUG=0 \
		interrupt_make_when slow_check_started
	# The checks are in a session of their own: each one stopped.
	all_stopped "$SLOW_PIDS"
	[ -z "$(ls "$WORKDIR"/checks-cache/slow/*/result 2>/dev/null)" ]
}

# build_sleeps: the fake kernel build sleeps (FAKE_BUILD_SLEEP=30).
build_sleeps() {
	pgrep -f '^sleep 30$' >/dev/null
}

@test "make: Ctrl-C stops the whole run: no later stage or series starts" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	make_series two linux-source "b.c:int b;:fixture: add b"
	export FAKE_BUILD_SLEEP=30
	NO_DEPS=1 DEBUG=0 CHECKS=signoff interrupt_make_when build_sleeps
	run cat "$BATS_TEST_TMPDIR/out"
	# The build that Ctrl-C stopped was the last thing that ran.
	[[ $output != *"series 2 of 2"* ]]
	[[ $output != *"cross      one"* ]]
	[[ $output != *"boot       one"* ]]
	run pgrep -f '^sleep 30$'
	[ "$status" -ne 0 ]
}

@test "make: the boots run in a lane beside the next builds, with the same cells as in turn" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	run env NO_DEPS=1 CHECKS=signoff bash "$WS/scripts/all.sh"
	[ "$status" -eq 0 ]
	[[ $output == *"boot       the boots run in the background"* ]]
	local cells
	cells=$(cut -f1,2,5,6 "$WORKDIR/report/results.tsv" | LC_ALL=C sort)
	# Every boot stage is there: each commit's, the debug head's, arm64's.
	for stage in boot boot-debug boot-arm64 build-arm64; do
		grep -qP "^one\t1\t$stage\tpass\$" <<<"$cells" || { echo "no passing $stage cell"; false; }
	done
	# In turn with BOOTS_BESIDE=0 (FRESH=1: each boot runs again): the
	# same cells, the same statuses.
	BOOTS_BESIDE=0 FRESH=1 run env NO_DEPS=1 CHECKS=signoff bash "$WS/scripts/all.sh"
	[ "$status" -eq 0 ]
	[[ $output != *"the boots run in the background"* ]]
	[ "$(cut -f1,2,5,6 "$WORKDIR/report/results.tsv" | LC_ALL=C sort)" = "$cells" ]
}

@test "make: a boot in the lane never builds; one with no kernel fails, naming it" {
	import_fixture
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	run env BOOT_PREBUILT=1 bash "$WS/scripts/boot.sh" series
	[ "$status" -ne 0 ]
	[[ $output == *"is not built on the smoke config"* ]]
	[[ $(results_row one 1 boot) == "fail workspace: no build result"* ]]
	[ ! -e "$WORKDIR/artifacts/smoke" ] || [ -z "$(ls "$WORKDIR/artifacts/smoke")" ]
}

@test "make: Ctrl-C stops the boot lane too, QEMU with it" {
	import_fixture
	make_series one linux-source "behaviour:hang:fixture: a kernel that hangs"
	export FAKE_QEMU_PIDS=$BATS_TEST_TMPDIR/qemu-pids
	BOOT_TIMEOUT=120 NO_DEPS=1 DEBUG=0 CHECKS=signoff interrupt_make_when qemu_hangs
	# The lane is in a session of its own: QEMU stopped too.
	all_stopped "$FAKE_QEMU_PIDS"
}

@test "a series on git:<ref> sits on that ref of LINUX_GIT, fetched as branch git/<ref>, its public sha the base" {
	import_fixture
	# A Linux repository of the user's: the fixture kernel, a branch and a tag.
	local repo=$BATS_TEST_TMPDIR/linux.git
	cp -a "$FIXTURES/kernel" "$repo"
	git -C "$repo" init -q -b master
	git -C "$repo" add -A
	git -C "$repo" commit -q -m "fixture: mainline"
	git -C "$repo" tag v9.10
	git -C "$repo" checkout -q -b fix-next
	echo next >"$repo/next.c"
	git -C "$repo" add next.c
	git -C "$repo" commit -q -m "fixture: next"
	make_series one linux-source "a.c:int a;:fixture: add a"
	echo git:fix-next >"$SERIES_DIR/one/base"
	make_series two linux-source "b.c:int b;:fixture: add b"
	echo git:v9.10 >"$SERIES_DIR/two/base"
	# Without LINUX_GIT: named, with the series that need it.
	run ws import.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series one,two sit(s) on git:<ref>, which needs LINUX_GIT=<path or URL of a Linux repository>"* ]]
	LINUX_GIT=$repo run ws import.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-parse git/fix-next)" = "$(git -C "$repo" rev-parse fix-next)" ]
	[ "$(tree rev-parse git/v9.10)" = "$(git -C "$repo" rev-parse "v9.10^{commit}")" ]
	run ws apply.sh
	[ "$status" -eq 0 ]
	# The series sit on the repository's own commits: a base-commit anyone
	# with that repository resolves.
	[ "$(tree rev-parse one~1)" = "$(git -C "$repo" rev-parse fix-next)" ]
	[ "$(tree rev-parse two~1)" = "$(git -C "$repo" rev-parse "v9.10^{commit}")" ]
	[ "$(tree show one:next.c)" = next ]
	# The ref moves: import follows it and says what to do.
	echo later >"$repo/next.c"
	git -C "$repo" commit -q -am "fixture: later"
	LINUX_GIT=$repo run ws import.sh
	[ "$status" -eq 0 ]
	[[ $output == *"git:fix-next is at $(git -C "$repo" rev-parse --short=12 fix-next) (fixture: later), was "*": run 'make apply' to move one onto it"* ]]
	run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree rev-parse one~1)" = "$(git -C "$repo" rev-parse fix-next)" ]
	# A ref the repository does not have, or a name git refuses, is named.
	echo git:no-such-ref >"$SERIES_DIR/two/base"
	LINUX_GIT=$repo run ws import.sh
	[ "$status" -ne 0 ]
	[[ $output == *"cannot fetch 'no-such-ref' from LINUX_GIT=$repo, the base git:no-such-ref of two"* ]]
	echo "git:bad..ref" >"$SERIES_DIR/two/base"
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/two/base names 'git:bad..ref': what follows git: must be a branch or tag name"* ]]
}
