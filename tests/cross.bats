#!/usr/bin/env bats
# make cross-compile (scripts/cross.sh) on the fixture kernel, with a fixture
# architecture table and fake cross compilers (tests/fixtures/fake-cross-gcc).

load helpers

setup() {
	setup_workspace
	local bin=$BATS_TEST_TMPDIR/bin
	mkdir -p "$bin"
	ln -s "$FIXTURES/fake-cross-gcc" "$bin/fixarm-linux-gnu-gcc"
	ln -s "$FIXTURES/fake-cross-gcc" "$bin/fixown-linux-gnu-gcc"
	export PATH=$bin:$PATH
	export ARCHES_FILE=$BATS_TEST_TMPDIR/arches
	export SMOKE_OUT=$BATS_TEST_TMPDIR/smoke
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		x86_64 x86_64 - gcc rep defconfig \
		fixarm fixarm fixarm-linux-gnu- gcc-fixarm rep defconfig \
		fixown fixown fixown-linux-gnu- gcc-fixown own own_defconfig \
		nocc - - - none "Debian has no cross compiler for nocc" >"$ARCHES_FILE"
	run ws import.sh
	[ "$status" -eq 0 ]
}

# cross_row INDEX ARCH: "status detail" of one cross cell of series one.
cross_row() {
	awk -F'\t' -v i="$1" -v a="$2" '$1 == "one" && $2 == i && $5 == "cross" && $10 == a { print $6 " " $8 }' \
		"$WORKDIR/report/results.tsv"
}

# cross_row_stage INDEX ARCH STAGE: the same, for another stage.
cross_row_stage() {
	awk -F'\t' -v i="$1" -v a="$2" -v st="$3" '$1 == "one" && $2 == i && $5 == st && $10 == a { print $6 " " $8 }' \
		"$WORKDIR/report/results.tsv"
}

# header_with_eight_users: series one, applied: a header, eight files that
# include it, then a change to the header (its 10th commit); and the smoke
# build's .cmd files that say the eight include it.
header_with_eight_users() {
	local users=() i
	for i in 1 2 3 4 5 6 7 8; do users+=("u/u$i.c:#include \"../include/fix.h\":fixture: user $i"); done
	make_series one linux-source "include/fix.h:extern int fix;:fixture: a header" "${users[@]}" \
		"include/fix.h:extern int fix; extern int fix2;:fixture: the header changes"
	ws apply.sh
	mkdir -p "$SMOKE_OUT/u"
	for i in 1 2 3 4 5 6 7 8; do
		printf 'deps_u/u%s.o := \\\n  /somewhere/src/include/fix.h \\\n' "$i" >"$SMOKE_OUT/u/.u$i.o.cmd"
	done
}

@test "cross-compile: generic code on the representative set, arch/<dir>/ on its own, and no compiler is not covered" {
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"arch/fixown/k.c:int own_k(void) { return 0; }:fixown: its own code" \
		"arch/nocc/x.c:int nocc_x;:nocc: code no compiler here builds" \
		"Documentation/x.rst:text:docs: only prose"
	ws apply.sh
	# An O= directory of the earlier layout, shared by every version, goes.
	mkdir -p "$WORKDIR/cross/fixown" && echo CONFIG_OLD=y >"$WORKDIR/cross/fixown/.config"
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[ ! -e "$WORKDIR/cross/fixown" ]
	# The row names what it compiled.
	[[ $(cross_row 1 x86_64) == "pass 1 objects; 1 compiled, no errors or warnings (lib/a.o)" ]]
	[[ $(cross_row 1 fixarm) == "pass 1 objects; 1 compiled, no errors or warnings (lib/a.o)" ]]
	[ -z "$(cross_row 1 fixown)" ]
	[[ $(cross_row 2 fixown) == pass* ]]
	[ -z "$(cross_row 2 x86_64)" ]
	# One O= directory per kernel version and architecture, made by the
	# architecture's own config.
	local out
	out=$WORKDIR/cross/$(tree show one:Makefile | awk '$1 == "VERSION" { v = $3 } $1 == "PATCHLEVEL" { p = $3 } $1 == "SUBLEVEL" { s = $3 } END { print (s == "" ? "unknown" : v "." p "." s) }')
	[ -f "$out/fixown/arch/fixown/k.o" ]
	grep -qx CONFIG_ARCH_fixown=y "$out/fixown/.config"
	[[ $(cross_row 3 nocc) == "skip not covered: Debian has no cross compiler for nocc" ]]
	[[ $(cross_row 4 "") == "skip nothing to compile: the commit changes no kernel code" ]]
	run ws matrix.sh
	[ "$status" -eq 0 ]
	[[ $output == *"one, cross-compiled by architecture"* ]]
	echo "$output" | grep -E '^3 +- +- +- +n/c'
	echo "$output" | grep -E '^1 +pass +pass +- +-'
}

@test "cross-compile: UML compiles a commit that touches arch/x86/ (its x86 half is arch/x86/um/) or arch/um/, and x86 never compiles arch/x86/um/" {
	printf 'um\tum\t-\tgcc\town\tdefconfig\n' >>"$ARCHES_FILE"
	make_series one linux-source \
		"arch/x86/um/s.c:int um_s(void) { return 0; }:x86/um: UML's x86 half" \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"arch/um/u.c:int um_u(void) { return 0; }:um: its own code"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 1 um) == "pass 1 objects; 1 compiled, no errors or warnings (arch/x86/um/s.o)" ]]
	# Only ARCH=um builds arch/x86/um/: an x86 cell there would compile
	# nothing of what its config builds (nsig 3/12 was untested so).
	[ -z "$(cross_row 1 x86_64)" ]
	[ -z "$(cross_row 2 um)" ]
	[[ $(cross_row 3 um) == "pass 1 objects; 1 compiled, no errors or warnings (arch/um/u.o)" ]]
	[ -z "$(cross_row 3 x86_64)" ]
}

@test "cross-compile: a new error on one architecture fails that cell, naming it; the others pass" {
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"lib/a.c:int BREAKS_FIXARM_ZERO(void); int lib_a(void) { return BREAKS_FIXARM_ZERO(); }:fixture: breaks fixarm"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 2 x86_64) == pass* ]]
	[[ $(cross_row 2 fixarm) == "fail 1 objects; 1 new error(s) against the parent: error lib/a.c: this does not build on fixarm" ]]
	# The cell's evidence is the list of new messages.
	log=$(awk -F'\t' '$2 == 2 && $10 == "fixarm" { print $9 }' "$WORKDIR/report/results.tsv")
	grep -q 'lib/a.c: this does not build on fixarm' "$log"
	run ws matrix.sh
	[ "$status" -eq 1 ]
	[[ $output == *"one 2 "*" cross fixarm: fail: 1 objects; 1 new error(s)"* ]]
}

@test "cross-compile: a warning the parent has too passes, a new one warns, an error at both is untested, not a failure" {
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; } /* WARNS_FIXARM */:fixture: warns on fixarm" \
		"lib/a.c:int lib_a(void) { return 1; } /* WARNS_FIXARM */:fixture: still warns" \
		"lib/b.c:int b; /* BREAKS_FIXARM */:fixture: b.c does not build on fixarm" \
		"lib/b.c:int b = 1; /* BREAKS_FIXARM */:fixture: b.c still does not"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 1 fixarm) == "warn 1 objects; 1 new warning(s) against the parent: warning lib/a.c: this warns on fixarm [-Wfixture] (lib/a.o)" ]]
	[[ $(cross_row 2 fixarm) == "pass 1 objects; 1 compiled, no new errors or warnings (the parent has the same 1) (lib/a.o)" ]]
	[[ $(cross_row 3 fixarm) == fail* ]]
	# At both, b.c compiles at neither: nothing was verified.
	[[ $(cross_row 4 fixarm) == "untested 1 objects; 0 objects compiled, and the parent has the same 1 message(s); with errors at the parent too: lib/b.c" ]]
}

@test "cross-compile: a build that fails before any object at the parent too compiled nothing: untested, not a pass" {
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"include/prepare-breaks-fixarm.h:/* prepare fails on fixarm from here */:fixture: break prepare on fixarm" \
		"lib/a.c:int lib_a(void) { return 1; }:fixture: generic code again"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 3 x86_64) == "pass 1 objects; 1 compiled, no errors or warnings (lib/a.o)" ]]
	[[ $(cross_row 3 fixarm) == "untested 1 objects; nothing compiled: the defconfig build fails before any object, at the parent too: include/prepare-breaks-fixarm.h: prepare fails on fixarm" ]]
}

@test "cross-compile: a cell whose configuration builds none of the touched files is untested, not a pass" {
	make_series one linux-source \
		"arch/fixown/Makefile:obj-\$(CONFIG_FIXTURE_OFF) += off.o:fixown: build off.o only with an option that is off" \
		"arch/fixown/off.c:int own_off(void) { return 0; }:fixown: code its configuration does not build"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 2 fixown) == "untested 1 objects; 0 objects compiled: own_defconfig builds none of the 1 planned (see the log for why each was left out)" ]]
	grep -q "arch/fixown/off.o: not built by own_defconfig" "$(awk -F'\t' '$2 == 2 && $5 == "cross" && $10 == "fixown" { print $9 }' "$WORKDIR/report/results.tsv")"
	# The Makefile's own commit compiles nothing either.
	[[ $(cross_row 1 fixown) == "untested 0 objects; 0 objects compiled: no file of the commit here compiles to an object"* ]]
	run ws matrix.sh
	[[ $output == *"2 untested cell(s)"* ]]
}

@test "cross-compile: a header is compiled through a capped sample of the objects that include it, and says how many" {
	header_with_eight_users
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 10 fixarm) == "pass 4 objects: 0 of its files, 4 of the 8 that include its headers; 4 compiled, no errors or warnings (u/u1.o u/u3.o u/u5.o u/u7.o)" ]]
	# Evenly spaced, the same every time.
	sha=$(tree rev-parse one)
	[ "$(cat "$WORKDIR/cross-cache/fixarm/$sha-"*/objects | xargs)" = "u/u1.o u/u3.o u/u5.o u/u7.o" ]
}

@test "cross-compile: the includers of a header are kept per kernel version, whatever the smoke build last built" {
	local kept=$WORKDIR/cross-cache/includers/6.12.0/include%fix.h
	header_with_eight_users
	mkdir -p "$SMOKE_OUT/include/config"
	# A smoke build of another version is used, not kept.
	echo 6.1.0 >"$SMOKE_OUT/include/config/kernel.release"
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	[ ! -e "$kept" ]
	# One of the commit's own version is kept.
	rm -rf "$WORKDIR/cross-cache/fixarm"
	echo 6.12.0+ >"$SMOKE_OUT/include/config/kernel.release"
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	[ "$(grep -c . "$kept")" -eq 8 ]
	# The smoke build then built a commit whose objects include it less:
	# the sample, and so every cell, stays as it was.
	rm "$SMOKE_OUT"/u/.u[1-4].o.cmd
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 10 fixarm) == "pass 4 objects: 0 of its files, 4 of the 8 that include its headers; 4 compiled, no errors or warnings (u/u1.o u/u3.o u/u5.o u/u7.o), cached" ]]
}

@test "cross-compile: a cell's plan is kept with what it is a function of: the next run reads it; another list of includers or CROSS_MAX_OBJS plans again" {
	local kept=$WORKDIR/cross-cache/includers/6.12.0/include%fix.h memo
	header_with_eight_users
	mkdir -p "$SMOKE_OUT/include/config"
	echo 6.12.0+ >"$SMOKE_OUT/include/config/kernel.release"
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	memo=$WORKDIR/cross-cache/plan-memo/$(tree rev-parse one)/fixarm
	[ "$(cat "$memo/objects")" = "$(printf 'u/u%s.o\n' 1 3 5 7)" ]
	[[ $(cross_row 10 fixarm) == "pass 4 objects: 0 of its files, 4 of the 8 that include its headers; 4 compiled, no errors or warnings (u/u1.o u/u3.o u/u5.o u/u7.o)" ]]
	# The next run reads the kept plan (here, its description, marked).
	printf '4 objects: as kept' >"$memo/desc"
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 10 fixarm) == "pass 4 objects: as kept; 4 compiled, no errors or warnings (u/u1.o u/u3.o u/u5.o u/u7.o), cached" ]]
	# Another CROSS_MAX_OBJS is another plan.
	CROSS_MAX_OBJS=6 run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 10 fixarm) == "pass 6 objects: 0 of its files, 6 of the 8 that include its headers; 6 compiled, no errors or warnings"* ]]
	# So is another kept list of the header's includers (replaced whole,
	# as dependents keeps one): the plan and the cell are made again.
	printf '%s\n' u/u2.o u/u4.o >"$kept.new" && mv "$kept.new" "$kept"
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 10 fixarm) == "pass 2 objects: 0 of its files, 2 of the 2 that include its headers; 2 compiled, no errors or warnings (u/u2.o u/u4.o)" ]]
}

@test "cross-compile: a second run takes every cell from the cache, and a changed commit compiles again" {
	make_series one linux-source "lib/a.c:int lib_a(void) { return 0; }:fixture: generic code"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"x86_64   pass: 1 compiled, no errors or warnings (cached)"* ]]
	[[ $output != *"x86_64: 1 objects"* ]]
	[[ $(cross_row 1 x86_64) == *", cached" ]]
	# The same rows, not more.
	[ "$(awk -F'\t' '$5 == "cross"' "$WORKDIR/report/results.tsv" | wc -l)" -eq 2 ]
}

@test "cross-compile: a malformed line of the architecture table stops the run, naming the line" {
	make_series one linux-source "lib/a.c:int lib_a(void) { return 0; }:fixture: generic code"
	ws apply.sh
	printf 'broken\tline\n' >>"$ARCHES_FILE"
	run ws cross.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"arches line 5: want 6 tab-separated fields"* ]]
}

@test "cross-compile: an architecture whose compiler is missing fails, naming the package" {
	make_series one linux-source "lib/a.c:int lib_a(void) { return 0; }:fixture: generic code"
	ws apply.sh
	printf 'gone\tgone\tgone-linux-gnu-\tgcc-gone-linux-gnu\trep\tdefconfig\n' >>"$ARCHES_FILE"
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 1 gone) == "fail no gone-linux-gnu-gcc on this machine: install gcc-gone-linux-gnu (make deps)" ]]
	[[ $(cross_row 1 x86_64) == pass* ]]
}

@test "cross: the head builds on every architecture the series concerns, or the failure is bisected to its commit" {
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"lib/b.c:int b; /* BREAKS_FIXARM */:fixture: breaks fixarm" \
		"lib/c.c:int c;:fixture: more generic code" \
		"arch/fixown/k.c:int own_k(void) { return 0; }:fixown: its own code"
	ws apply.sh
	run ws cross.sh heads
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $(cross_row_stage 4 x86_64 full-build) == "pass vmlinux links (tinyconfig + cross.config)" ]]
	[[ $(cross_row_stage 4 fixown full-build) == pass* ]]
	# Like 0-day: the first bad commit and its first error.
	[[ $(cross_row_stage 4 fixarm full-build) == "fail first bad commit: [2/4 fixture: breaks fixarm] $(tree rev-parse --short=12 one~2): lib/b.c: this does not build on fixarm" ]]
	# The tree is left as it was: no bisect in progress.
	[ ! -e "$(git -C "$WORKDIR/cross-src" rev-parse --git-path BISECT_LOG)" ]
	run ws cross.sh bisect one fixarm
	[ "$status" -eq 0 ]
	[[ $output == *"first bad commit: one [2/4 fixture: breaks fixarm]"*"lib/b.c: this does not build on fixarm"* ]]
	run ws cross.sh bisect one x86_64
	[ "$status" -eq 0 ]
	[[ $output == *"the head of one builds on x86_64: nothing to bisect"* ]]
	run ws cross.sh bisect one nocc
	[ "$status" -ne 0 ]
	[[ $output == *"ARCH=nocc is not covered: Debian has no cross compiler for nocc"* ]]
	run ws cross.sh bisect one sparc
	[ "$status" -ne 0 ]
	[[ $output == *"ARCH=sparc is not an architecture of"*"x86_64 fixarm fixown nocc"* ]]
}

@test "cross-compile: commit.config is merged onto each architecture's config, so a suite only it turns on is compiled; a changed fragment configures again" {
	export COMMIT_FRAGMENT=$BATS_TEST_TMPDIR/configs/commit.config
	mkdir -p "${COMMIT_FRAGMENT%/*}"
	echo CONFIG_WS_KUNIT=y >"$COMMIT_FRAGMENT"
	# As nsig's kernel/signal_kunit.o: no defconfig builds it, KUnit does.
	make_series one linux-source \
		"lib/Makefile:obj-\$(CONFIG_WS_KUNIT) += lib_test.o:fixture: a suite only KUnit builds" \
		"lib/lib_test.c:int lib_test(void) { return 0; }:fixture: the suite"
	ws apply.sh
	run ws cross.sh series
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $(cross_row 2 fixarm) == "pass 1 objects; 1 compiled, no errors or warnings (lib/lib_test.o)" ]]
	[[ $(cross_row 2 fixown) == "" ]]
	local config
	config=$(find "$WORKDIR/cross" -path '*/fixarm/.config')
	grep -qx CONFIG_ARCH_fixarm=y "$config"
	grep -qx CONFIG_WS_KUNIT=y "$config"
	# Without the option, the same cell is decided again, on a .config made
	# again: nothing of the suite is built.
	echo "# CONFIG_WS_KUNIT is not set" >"$COMMIT_FRAGMENT"
	run ws cross.sh series
	[ "$status" -eq 0 ]
	run grep -c CONFIG_WS_KUNIT=y "$config"
	[ "$output" = 0 ]
	[[ $(cross_row 2 fixarm) == "untested 1 objects; 0 objects compiled: defconfig builds none of the 1 planned"* ]]
}

@test "cross: a full build merges cross-<name>.config after cross.config for that architecture only" {
	export CROSS_FRAGMENT=$BATS_TEST_TMPDIR/configs/cross.config
	mkdir -p "${CROSS_FRAGMENT%/*}"
	echo CONFIG_WS_ALL=y >"$CROSS_FRAGMENT"
	echo CONFIG_WS_FIXOWN_ONLY=y >"${CROSS_FRAGMENT%/*}/cross-fixown.config"
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"arch/fixown/k.c:int own_k(void) { return 0; }:fixown: its own code"
	ws apply.sh
	run ws cross.sh heads
	echo "$output"
	[ "$status" -eq 0 ]
	local full=$WORKDIR/cross-full
	grep -qx CONFIG_WS_ALL=y "$full/fixown/.config"
	grep -qx CONFIG_WS_FIXOWN_ONLY=y "$full/fixown/.config"
	grep -qx CONFIG_WS_ALL=y "$full/fixarm/.config"
	run grep -c CONFIG_WS_FIXOWN_ONLY "$full/fixarm/.config"
	[ "$output" = 0 ]
}

@test "cross: a head that fails where the base fails too is untested, and names the base" {
	make_series one linux-source "lib/b.c:int b; /* BREAKS_FIXARM */:fixture: breaks fixarm"
	ws apply.sh
	# A series on top of one: its base already fails on fixarm.
	make_series two one "lib/c.c:int c;:fixture: more"
	ws apply.sh
	SERIES=two run ws cross.sh heads
	[ "$status" -eq 0 ]
	awk -F'\t' '$1 == "two" && $5 == "full-build" && $10 == "fixarm"' "$WORKDIR/report/results.tsv" |
		grep -q $'\tuntested\t.*does not build: lib/b.c: this does not build on fixarm; the base [0-9a-f]* does not build either, with the same errors, so this build verified nothing'
}

@test "cross: a head that adds an error where the base fails too fails, naming the new error" {
	make_series one linux-source "lib/b.c:int b; /* BREAKS_FIXARM */:fixture: breaks fixarm"
	ws apply.sh
	make_series two one "lib/c.c:int c; /* BREAKS_FIXARM */:fixture: breaks fixarm again"
	ws apply.sh
	SERIES=two run ws cross.sh heads
	echo "$output"
	[ "$status" -ne 0 ]
	awk -F'\t' '$1 == "two" && $5 == "full-build" && $10 == "fixarm"' "$WORKDIR/report/results.tsv" |
		grep -q $'\tfail\t[0-9]*\t1 new error(s) against the base [0-9a-f]*, which does not build either: lib/c.c: this does not build on fixarm'
}

@test "bisect TEST=: the first commit where a guest test fails, by booting each commit" {
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"behaviour:broken:fixture: break the fixture test" \
		"lib/c.c:int c;:fixture: more generic code"
	ws apply.sh
	TEST="fixture works" run ws cross.sh bisect one x86_64
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"first bad commit: one [2/3 fixture: break the fixture test] $(tree rev-parse --short=12 one~1)"*"fixture works fails there"* ]]
	# Its boots are not the report's.
	[ ! -e "$WORKDIR/report/results.tsv" ] || ! grep -q $'^bisect\t' "$WORKDIR/report/results.tsv"
	TEST="no such test" run ws cross.sh bisect one x86_64
	[ "$status" -ne 0 ]
	[[ $output == *"guest test 'no such test' does not run at the head of one on x86_64"* ]]
	TEST="fixture works" run ws cross.sh bisect one fixarm
	[ "$status" -ne 0 ]
	[[ $output == *"only x86_64 and arm64 are booted, not fixarm"* ]]
}

@test "cross-compile: an object the configuration builds through another directory's Makefile is compiled, as kbuild's dry run says" {
	# As arm64 builds virt/kvm/kvm_main.o from arch/arm64/kvm/Makefile
	# ("../../../virt/kvm/kvm_main.o"): virt/'s own Makefile names nothing.
	make_series one linux-source \
		"virt/Makefile:obj-y +=:fixture: virt builds nothing itself" \
		"arch/fixown/Makefile:obj-y += k.o ../../virt/kvm_main.o:fixown: build virt/kvm_main.o from here" \
		"virt/kvm_main.c:int kvm_main(void) { return 0; }:fixture: code built through another directory"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 3 fixarm) == "pass 1 objects; 1 compiled, no errors or warnings (virt/kvm_main.o)" ]]
}

@test "cross-compile: a commit that adds a selftest or a documentation source lists no architecture's objects again; a kernel Makefile does" {
	make_series one linux-source \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code" \
		"tools/testing/selftests/x/x.c:int main(void) { return 0; }:selftests: x: a test" \
		"Documentation/x/example.c:int example;:Documentation: x: an example" \
		"lib/a.c:int lib_a(void) { return 1; }:fixture: generic code changes" \
		"lib/Makefile:obj-y += a.o:fixture: lib builds a"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	# A dry run of make all for commit 1, none for commit 4 (what it lists
	# is what commit 1's did), another for commit 5's Makefile.
	[ "$(grep -c 'x86_64: which objects' <<<"$output")" -eq 2 ]
	[ "$(find "$WORKDIR/cross-cache/objects" -name 'x86_64-*' | wc -l)" -eq 2 ]
	[[ $(cross_row 4 x86_64) == "pass "* ]]
}

@test "cross-compile: a header's includers under the architecture's own arch/<dir>/ are all compiled, beside the sample of the others" {
	make_series one linux-source \
		"include/fix.h:extern int fix;:fixture: a header" \
		"arch/fixarm/deep/sig.c:#include <fix.h>:fixarm: a user deep in its own directory" \
		"arch/fixarm/mm.c:#include <fix.h>:fixarm: another" \
		"arch/fixown/own.c:#include <fix.h>:fixown: another architecture's user" \
		"include/fix.h:extern int fix; extern int fix2;:fixture: the header changes"
	ws apply.sh
	CROSS_MAX_OBJS=4 run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 5 fixarm) == "pass 2 objects: 0 of its files, 2 in arch/fixarm/ and 0 of the 0 others that include its headers; 2 compiled, no errors or warnings (arch/fixarm/deep/sig.o arch/fixarm/mm.o)" ]]
	# x86_64's own directory has none; fixown's is not its.
	[[ $(cross_row 5 x86_64) == "untested 0 objects: 0 of its files, 0 of the 0 that include its headers; 0 objects compiled"* ]]
}

@test "cross: a base that does not build on an architecture builds with its base fixups, which the rows name" {
	make_series zero linux-source \
		"include/prepare-breaks-fixown.h:/* prepare fails on fixown */:fixture: break prepare on fixown" \
		"lib/broken.c:int broken; /* BREAKS_FIXOWN */:fixture: break the fixown build"
	ws apply.sh
	make_series one zero "arch/fixown/k.c:int own_k(void) { return 1; }:fixown: its own code"
	ws apply.sh
	SERIES=one run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 1 fixown) == "untested 1 objects; nothing compiled: the own_defconfig build fails before any object, at the parent too"* ]]
	# The fixup, as fixups/<version>/<arch dir>/: it deletes both.
	export FIXUPS=$BATS_TEST_TMPDIR/fixups
	local fix=6.12.0/fixown/0001-fixture-unbreak-fixown.patch scratch=$BATS_TEST_TMPDIR/scratch-fix
	mkdir -p "$FIXUPS/6.12.0/fixown"
	git clone -q "$WORKDIR/linux" "$scratch"
	git -C "$scratch" checkout -q --detach origin/zero
	git -C "$scratch" rm -q include/prepare-breaks-fixown.h lib/broken.c
	git -C "$scratch" commit -q -m "fixture: unbreak fixown"
	git -C "$scratch" format-patch -q --stdout -1 >"$FIXUPS/$fix"
	SERIES=one run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 1 fixown) == "pass 1 objects; with base fixup(s) $fix; 1 compiled, no errors or warnings (arch/fixown/k.o)" ]]
	SERIES=one run ws cross.sh heads
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $(cross_row_stage 1 fixown full-build) == "pass vmlinux links (tinyconfig + cross.config); with base fixup(s) $fix" ]]
	# Never in the series, nor in the other architectures' tree.
	[ -n "$(tree ls-tree one include/prepare-breaks-fixown.h)" ]
	[ -e "$WORKDIR/cross-src/include/prepare-breaks-fixown.h" ]
	# A fixup that does not apply stops, naming it.
	sed 's/int broken;/int unbroken;/' "$FIXUPS/$fix" >"$FIXUPS/6.12.0/fixown/0002-fixture-stale.patch"
	SERIES=one run ws cross.sh heads
	[ "$status" -ne 0 ]
	[[ $output == *"the base fixup fixups/6.12.0/fixown/0002-fixture-stale.patch does not apply to"* ]] ||
		[[ $output == *"0002-fixture-stale.patch does not apply to"* ]]
}

@test "cross-compile: a warning prepare prints every time is the parent's too, however often the cell ran prepare" {
	make_series one linux-source \
		"include/prepare-warns-fixarm.h:/* prepare warns on fixarm */:fixture: prepare warns on fixarm" \
		"lib/a.c:int lib_a(void) { return 0; }:fixture: generic code"
	ws apply.sh
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 2 fixarm) == "pass 1 objects; 1 compiled, no new errors or warnings (the parent has the same 1) (lib/a.o)" ]]
}

@test "cross-compile: an asm-generic uapi header is compiled through the files that include it as <asm/...>" {
	# As arm64 and riscv take include/uapi/asm-generic/signal.h: their
	# files include <asm/signal.h>, and so do x86's (the smoke build's).
	make_series one linux-source \
		"include/uapi/asm-generic/fsig.h:extern int fsig;:fixture: a generic uapi header" \
		"include/asm/fsig.h:#include \"../uapi/asm-generic/fsig.h\":fixture: the asm header that takes it" \
		"arch/fixarm/kernel/sig.c:#include <asm/fsig.h>:fixarm: a user of the asm header" \
		"u/u1.c:int u1;:fixture: a user the smoke build says includes it" \
		"include/uapi/asm-generic/fsig.h:extern int fsig; extern int fsig2;:fixture: the header changes"
	ws apply.sh
	mkdir -p "$SMOKE_OUT/u"
	printf 'deps_u/u1.o := \\\n  /somewhere/src/arch/x86/include/asm/fsig.h \\\n' >"$SMOKE_OUT/u/.u1.o.cmd"
	run ws cross.sh series
	[ "$status" -eq 0 ]
	[[ $(cross_row 5 fixarm) == "pass 2 objects: 0 of its files, 1 in arch/fixarm/ and 1 of the 1 others that include its headers; 2 compiled, no errors or warnings (arch/fixarm/kernel/sig.o u/u1.o)" ]]
}
