#!/usr/bin/env bats
# The checks (checks/*/run, checks/lib/) and scripts/check.sh on fixtures:
# a tiny kernel tree (tests/fixtures/checks/kernel: a Makefile with
# allmodconfig, prepare, FILE.o and headers_install, a stand-in
# scripts/config and scripts/kernel-doc) in a git repository of the test's
# own, and a fake spatch (tests/fixtures/checks/cocci).  Every error path a
# check has must end in a fail (or a warn where the description says so),
# never in a pass.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

bats_require_minimum_version 1.5.0

load helpers

CFX=$WS/tests/fixtures/checks

setup() {
	export GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL="ada@example.org"
	export GIT_COMMITTER_NAME="Ada Author" GIT_COMMITTER_EMAIL="ada@example.org"
	export TREE=$BATS_TEST_TMPDIR/linux CHECK_SCRATCH=$BATS_TEST_TMPDIR/scratch
	export CHECK_CC=gcc JOBS=1 CCACHE_DISABLE=1
	export FEATURES_CONFIG=$BATS_TEST_TMPDIR/features.config
	unset CHECK_HEAD CHECK_BASE
	: >"$FEATURES_CONFIG"
	cp -a "$CFX/kernel" "$TREE"
	git -C "$TREE" init -q
	git -C "$TREE" add -A
	git -C "$TREE" commit -q -m "base"
}

# commit_edit SUBJECT SHELL: SHELL run in the tree, everything committed;
# prints the commit's id.
commit_edit() {
	(cd "$TREE" && eval "$2") >&2
	git -C "$TREE" add -A
	git -C "$TREE" commit -q -m "$1"
	git -C "$TREE" rev-parse HEAD
}

# check NAME COMMIT: checks/NAME/run COMMIT; $status, $output (the
# summary), the log in $BATS_TEST_TMPDIR/log.
check() {
	run "$WS/checks/$1/run" "$2" "$BATS_TEST_TMPDIR/log"
	echo "$1 on ${2:0:12}: status $status: $output"
	echo "log:"
	cat "$BATS_TEST_TMPDIR/log" 2>/dev/null || true
}

# drop_blob REV:PATH: the object of that file deleted from the repository,
# so that checking REV out fails.
drop_blob() {
	local blob
	blob=$(git -C "$TREE" rev-parse "$1")
	rm -f "$TREE/.git/objects/${blob:0:2}/${blob:2}"
	! git -C "$TREE" cat-file -e "$blob" 2>/dev/null
}

# A missing prototype, which W=1 warns about, under CONFIG_SIGNALS_DEBUG.
DEBUG_CODE='printf "%s\n" "#ifdef CONFIG_SIGNALS_DEBUG" "int debug_only(void) { return 1; }" "#endif" >>main.c'
KCONFIG_DEBUG='printf "config SIGNALS_DEBUG\n\tbool \"signal debugging\"\n" >>Kconfig'

# ---- configuration (checks/lib/kbuild.sh) -----------------------------------

@test "kbuild: features lists a features.config line only where the commit's Kconfig defines its first option" {
	local base with
	printf '%s\n' "# A comment." "CONFIG_SIGNALS_DEBUG=y" \
		"CONFIG_SIGNAL_KUNIT_TEST=y CONFIG_KUNIT=y  # not in the fixture" >"$FEATURES_CONFIG"
	base=$(git -C "$TREE" rev-parse HEAD)
	with=$(commit_edit "add SIGNALS_DEBUG" "$KCONFIG_DEBUG")
	features_of() {
		# shellcheck disable=SC2034 # read by kbuild.sh
		tree=$TREE scratch=$CHECK_SCRATCH
		# shellcheck disable=SC1091 # kbuild.sh is checked on its own
		source "$WS/checks/lib/kbuild.sh"
		features "$1"
	}
	run features_of "$base"
	[ "$status" -eq 0 ]
	[ -z "$output" ]
	run features_of "$with"
	[ "$status" -eq 0 ]
	[ "$output" = "CONFIG_SIGNALS_DEBUG=y" ]
	# Both options of a line, once its first is defined.
	printf 'config SIGNAL_KUNIT_TEST\n\ttristate "kunit"\n' >>"$TREE/Kconfig"
	with=$(commit_edit "add SIGNAL_KUNIT_TEST" ":")
	run features_of "$with"
	[ "$output" = $'CONFIG_SIGNALS_DEBUG=y\nCONFIG_SIGNAL_KUNIT_TEST=y\nCONFIG_KUNIT=y' ]
	# A line that is not an option is an error, not "no feature".
	echo "SIGNALS_DEBUG" >>"$FEATURES_CONFIG"
	run features_of "$with"
	[ "$status" -ne 0 ]
	[[ $output == *"'SIGNALS_DEBUG' is not a CONFIG_NAME=value option"* ]]
}

@test "build checks: each commit is configured as allmodconfig + features.config, and an unchanged one keeps its .config" {
	local first second third mtime count
	echo "CONFIG_SIGNALS_DEBUG=y" >"$FEATURES_CONFIG"
	first=$(commit_edit "main: a comment" 'echo "/* A comment. */" >>main.c')
	check build-warnings "$first"
	[ "$status" -eq 0 ]
	# The next commit adds the symbol and code under it: the configuration
	# made for the first commit must not be used for it.
	second=$(commit_edit "signal: SIGNALS_DEBUG" "$KCONFIG_DEBUG; $DEBUG_CODE")
	check build-warnings "$second"
	[ "$status" -eq 250 ]
	[[ $output == *"new W=1 warnings: main.c: warning: no previous prototype for 'debug_only'"* ]]
	grep -qx "CONFIG_SIGNALS_DEBUG=y" "$CHECK_SCRATCH/obj/.config"
	# A commit with the same configuration neither replaces the .config nor
	# prepares again.
	mtime=$(stat -c %Y.%N "$CHECK_SCRATCH/obj/.config" 2>/dev/null || stat -c %Y "$CHECK_SCRATCH/obj/.config")
	count=$(wc -l <"$CHECK_SCRATCH/obj/prepare.count")
	sleep 1
	third=$(commit_edit "main: another comment" 'echo "/* Another. */" >>main.c')
	check build-warnings "$third"
	[ "$status" -eq 0 ]
	[ "$(stat -c %Y.%N "$CHECK_SCRATCH/obj/.config" 2>/dev/null || stat -c %Y "$CHECK_SCRATCH/obj/.config")" = "$mtime" ]
	[ "$(wc -l <"$CHECK_SCRATCH/obj/prepare.count")" -eq "$count" ]
}

@test "build checks: a git lock left in the check's worktree by a killed run is cleared" {
	local first second
	first=$(commit_edit "main: a comment" 'echo "/* A comment. */" >>main.c')
	check build-warnings "$first"
	[ "$status" -eq 0 ]
	touch "$(git -C "$CHECK_SCRATCH/src" rev-parse --path-format=absolute --git-path index.lock)"
	second=$(commit_edit "main: another comment" 'echo "/* Another. */" >>main.c')
	check build-warnings "$second"
	[ "$status" -eq 0 ]
	[ ! -e "$(git -C "$CHECK_SCRATCH/src" rev-parse --path-format=absolute --git-path index.lock)" ]
}

@test "build checks: an object its Makefile builds only for an option the .config lacks is left out" {
	local first
	# fs/Makefile builds off.o only with CONFIG_NOT_HERE, which no Kconfig
	# defines; off.c does not even compile.  on.o is built for everyone.
	# shellcheck disable=SC2016 # run by commit_edit, in the tree
	first=$(commit_edit "fs: two files" 'mkdir -p fs &&
		printf "%s\n" "obj-y += on.o" "obj-\$(CONFIG_NOT_HERE) += \\" "	off.o" >fs/Makefile &&
		echo "int fs_on(void); int fs_on(void) { return 0; }" >fs/on.c && echo "this is not C" >fs/off.c')
	check build-warnings "$first"
	[ "$status" -eq 0 ]
	grep -q "left out: fs/off.o (not in this .config: obj-\$(CONFIG_NOT_HERE))" "$BATS_TEST_TMPDIR/log"
	[ -f "$CHECK_SCRATCH/obj/fs/on.o" ]
}

@test "build checks: a file of UML's half of arch/x86/ is no x86 object" {
	local first
	# arch/x86/um/ is built by ARCH=um only (the um cross cells): on x86 its
	# objects do not compile, at the commit or at its parent.  Before, the
	# check built arch/x86/um/signal.o and failed, with no new error.
	# shellcheck disable=SC2016 # run by commit_edit, in the tree
	first=$(commit_edit "um: a signal frame" 'mkdir -p arch/x86/um &&
		echo "obj-y += signal.o" >arch/x86/um/Makefile &&
		echo "this is not C for x86" >arch/x86/um/signal.c')
	check build-warnings "$first"
	[ "$status" -eq 0 ]
	[[ $output == *"no object to build for the files this commit touches"* ]]
	[ ! -f "$CHECK_SCRATCH/obj/arch/x86/um/signal.o" ]
}

@test "build checks: the messages cache is keyed on the .config" {
	local c
	c=$(commit_edit "signal: SIGNALS_DEBUG" "$KCONFIG_DEBUG; $DEBUG_CODE")
	# Without the feature the code under it is not compiled...
	check build-warnings "$c"
	[ "$status" -eq 0 ]
	# ...and with it, the same commit and objects are built again.
	echo "CONFIG_SIGNALS_DEBUG=y" >"$FEATURES_CONFIG"
	check build-warnings "$c"
	[ "$status" -eq 250 ]
	[[ $output == *"debug_only"* ]]
}

@test "build checks: a features.config option the .config does not get fails the check" {
	local c
	echo "CONFIG_SIGNALS_DEBUG=y CONFIG_NOT_IN_KCONFIG=y" >"$FEATURES_CONFIG"
	c=$(commit_edit "signal: SIGNALS_DEBUG" "$KCONFIG_DEBUG; $DEBUG_CODE")
	check build-warnings "$c"
	[ "$status" -eq 1 ]
	[[ $output == "could not build at the commit: "*"features.config asks for CONFIG_NOT_IN_KCONFIG=y"* ]]
}

# ---- errors are never passes (checks/lib/compare.sh) ------------------------

@test "build checks: make failing at the commit and at its parent, without an error: line, fails" {
	local c
	c=$(commit_edit "main: a comment" 'echo "/* A comment. */" >>main.c')
	FAKE_LINK_FAIL=1 check build-warnings "$c"
	[ "$status" -eq 1 ]
	[[ $output == "make failed at the commit (exit 2, parent 2), no new error: "*"ld: main.o: something failed"* ]]
	# A failed build is not kept: the same commit builds again, and passes.
	[ -z "$(find "$CHECK_SCRATCH/messages" -type f 2>/dev/null)" ]
	check build-warnings "$c"
	[ "$status" -eq 0 ]
}

@test "build checks: an object that stops compiling fails, and its messages are not cached" {
	local c
	c=$(commit_edit "main: broken" 'echo "int broken(void) { return undeclared; }" >>main.c')
	check build-warnings "$c"
	[ "$status" -eq 1 ]
	[[ $output == "1 new errors, make exit 2: main.c: error: 'undeclared' undeclared"* ]]
	# Only the parent's successful build is kept.
	[ "$(find "$CHECK_SCRATCH/messages" -name '*.txt' | wc -l)" -eq 1 ]
}

@test "build checks: a parent that cannot be checked out fails the check" {
	local c
	c=$(commit_edit "main: no prototype" 'echo "int no_proto(void) { return 0; }" >>main.c')
	drop_blob "$c^:main.c"
	check build-warnings "$c"
	[ "$status" -eq 1 ]
	[[ $output == "could not build the parent: "*"could not check out"* ]]
}

@test "build checks: a failed make prepare fails the check and is not remembered" {
	local c
	c=$(commit_edit "main: no prototype" 'echo "int no_proto(void) { return 0; }" >>main.c')
	FAKE_PREPARE_FAIL=1 check build-warnings "$c"
	[ "$status" -eq 1 ]
	[[ $output == "could not build at the commit: make prepare failed"* ]]
	check build-warnings "$c"
	[ "$status" -eq 250 ]
	[[ $output == *"no previous prototype for 'no_proto'"* ]]
}

# ---- uapi ----------------------------------------------------------------------

@test "uapi: a new compiler message fails even where the parent's header does not compile either" {
	local c
	commit_edit "uapi: fixture: broken" \
		'sed -i "s/^struct fixture {/#error the parent is broken\n&/" include/uapi/linux/fixture.h' >/dev/null
	c=$(commit_edit "uapi: fixture: broken more" \
		'sed -i "s/int a;/int a; unknown_t b;/" include/uapi/linux/fixture.h')
	check uapi "$c"
	[ "$status" -eq 1 ]
	[[ $output == *"new uapi problems: "*"<linux/fixture.h>: linux/fixture.h: error: unknown type name 'unknown_t'"* ]]
	grep -q "^problem: .*#error the parent is broken (the parent too)" "$BATS_TEST_TMPDIR/log"
}

@test "uapi: a problem the parent has too, message for message, only warns" {
	local c
	commit_edit "uapi: fixture: broken" \
		'sed -i "s/^struct fixture {/#error the parent is broken\n&/" include/uapi/linux/fixture.h' >/dev/null
	c=$(commit_edit "uapi: fixture: a comment" 'echo "/* A comment. */" >>include/uapi/linux/fixture.h')
	check uapi "$c"
	[ "$status" -eq 250 ]
	[[ $output == *"uapi problems the parent has too: "*"#error the parent is broken"* ]]
}

@test "uapi: a generic header is compiled for an asm-generic architecture too" {
	local c
	c=$(commit_edit "uapi: fx: a header that needs an x86 one" \
		'mkdir -p arch/x86/include/uapi/asm && echo "#define FX_ONLY 1" >arch/x86/include/uapi/asm/fxonly.h &&
		printf "%s\n" "#include <asm/fxonly.h>" "struct fx { int a[FX_ONLY]; };" >include/uapi/linux/fx.h')
	check uapi "$c"
	[ "$status" -eq 1 ]
	[[ $output == "1 new uapi problems: arm64: <linux/fx.h>: linux/fx.h: fatal error: asm/fxonly.h: No such file or directory"* ]]
	grep -q "^== x86 at " "$BATS_TEST_TMPDIR/log"
	run grep -c "^problem: x86" "$BATS_TEST_TMPDIR/log"
	[ "$output" = 0 ]
}

@test "uapi: a parent that cannot be checked out fails the check" {
	local c
	c=$(commit_edit "uapi: fixture: a kernel type" \
		'sed -i "s/int a;/u32 a;/" include/uapi/linux/fixture.h')
	drop_blob "$c^:include/uapi/linux/fixture.h"
	check uapi "$c"
	[ "$status" -eq 1 ]
	[[ $output == "could not check the uapi headers: could not check out"* ]]
}

# ---- cocci --------------------------------------------------------------------

# cocci COMMIT: checks/cocci/run with the fixture's scripts and fake spatch.
cocci() {
	COCCI_DIR=$CFX/cocci SPATCH=$CFX/cocci/fake-spatch SPATCH_PYTHON="" \
		FAKE_SPATCH_LOG=$BATS_TEST_TMPDIR/spatch.log check cocci "$1"
}

SIGMASK_EDIT='printf "%s\n" "int sig_mask(void);" "int sig_mask(void) { return sigmask(1); }" >>main.c'

@test "cocci: the fixture's spatch reports a new sigmask(), and a clean file passes" {
	local c
	c=$(commit_edit "main: sigmask" "$SIGMASK_EDIT")
	cocci "$c"
	[ "$status" -eq 250 ]
	[[ $output == "2 new Coccinelle reports: main.c: one: WARNING: one: sigmask"* ]]
	c=$(commit_edit "main: signals" 'echo "/* signals */" >>main.c')
	cocci "$c"
	[ "$status" -eq 0 ]
}

@test "cocci: a spatch that fails fails the check, naming script and file, and nothing is cached" {
	local c
	c=$(commit_edit "main: signals" 'echo "/* signals */" >>main.c')
	FAKE_SPATCH_FAIL=two cocci "$c"
	[ "$status" -eq 1 ]
	[[ $output == "1 spatch runs failed: spatch two.cocci on main.c at ${c:0:12}: exit 2: Fatal error: exception Stack_overflow"* ]]
	: >"$BATS_TEST_TMPDIR/spatch.log"
	cocci "$c"
	[ "$status" -eq 0 ]
	# Both scripts ran again on the file.
	[ "$(wc -l <"$BATS_TEST_TMPDIR/spatch.log")" -eq 2 ]
}

@test "cocci: a spatch that times out fails the check" {
	local c
	c=$(commit_edit "main: signals" 'echo "/* signals */" >>main.c')
	COCCI_TIMEOUT=1 FAKE_SPATCH_HANG=one cocci "$c"
	[ "$status" -eq 1 ]
	[[ $output == *"spatch one.cocci on main.c at ${c:0:12}: timed out after 1s"* ]]
}

@test "cocci: spatch's stderr warns, from the cache too" {
	local c
	c=$(commit_edit "main: signals" 'echo "/* signals */" >>main.c')
	FAKE_SPATCH_STDERR=one cocci "$c"
	[ "$status" -eq 250 ]
	[[ $output == "spatch printed errors (no new reports): one on main.c: warning: main.c: parse error"* ]]
	: >"$BATS_TEST_TMPDIR/spatch.log"
	cocci "$c"
	[ "$status" -eq 250 ]
	[ ! -s "$BATS_TEST_TMPDIR/spatch.log" ]
}

# ---- sorted comparisons in any locale ---------------------------------------

# A locale whose collation is not C's (en_US.UTF-8 made with localedef into
# a private LOCPATH), or a skip.
foreign_locale() {
	local dir=$BATS_TEST_TMPDIR/locale
	mkdir -p "$dir"
	localedef -i en_US -f UTF-8 "$dir/en_US.UTF-8" >/dev/null 2>&1 || skip "localedef cannot make en_US.UTF-8"
	printf '%s\n' _z aB | LOCPATH=$dir LC_ALL=en_US.UTF-8 sort -c 2>/dev/null && skip "en_US.UTF-8 sorts as C does"
	export LOCPATH=$dir LC_ALL=en_US.UTF-8
}

@test "kernel-doc: new warnings are counted right in a locale that does not sort as C" {
	local c
	commit_edit "main: one warning" 'echo "/* WARN A */" >>main.c' >/dev/null
	c=$(commit_edit "main: three more" 'printf "%s\n" "/* WARN _z */" "/* WARN aB */" "/* WARN a_b */" >>main.c')
	foreign_locale
	check kernel-doc "$c"
	[ "$status" -eq 250 ]
	[[ $output == "3 new kernel-doc warnings: main.c: warning: _z" ]]
}

@test "build checks: new warnings are counted right in a locale that does not sort as C" {
	local c
	commit_edit "main: one" 'echo "int A(void) { return 0; }" >>main.c' >/dev/null
	c=$(commit_edit "main: three more" \
		'printf "%s\n" "int _z(void) { return 0; }" "int aB(void) { return 0; }" "int a_b(void) { return 0; }" >>main.c')
	foreign_locale
	check build-warnings "$c"
	[ "$status" -eq 250 ]
	[[ $output == "3 new W=1 warnings: main.c: warning: no previous prototype for '_z'"* ]]
}

# ---- scripts/check.sh ------------------------------------------------------

# A workspace (tests/helpers.bash) with one series of one commit, and a
# check of the test's own: checks/probe/run, which counts its runs in
# $PROBE_COUNT and exits $PROBE_EXIT.
probe_workspace() {
	setup_workspace
	ws import.sh >/dev/null
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh >/dev/null
	mkdir -p "$BATS_TEST_TMPDIR/checks/probe"
	cat >"$BATS_TEST_TMPDIR/checks/probe/run" <<-'EOF2'
		#!/bin/bash
		echo run >>"$PROBE_COUNT"
		echo "probe summary"
		if [ -n "${PROBE_LINES:-}" ]; then
			# A check that dies of SIGPIPE when its reader is gone
			# (whatever this shell inherited).
			exec python3 -c 'import signal, sys
		signal.signal(signal.SIGPIPE, signal.SIG_DFL)
		for i in range(int(sys.argv[1])): print(i)' "$PROBE_LINES"
		fi
		exit "${PROBE_EXIT:-0}"
	EOF2
	chmod +x "$BATS_TEST_TMPDIR/checks/probe/run"
	export CHECKS_DIR=$BATS_TEST_TMPDIR/checks PROBE_COUNT=$BATS_TEST_TMPDIR/count
	: >"$PROBE_COUNT"
}

@test "check: a new version of a tool the checks run runs them again" {
	probe_workspace
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	# shellcheck disable=SC2016 # expanded by the fake codespell
	printf '#!/bin/sh\necho "$FAKE_CODESPELL_VERSION"\n' >"$BATS_TEST_TMPDIR/bin/codespell"
	chmod +x "$BATS_TEST_TMPDIR/bin/codespell"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH FAKE_CODESPELL_VERSION=2.2.2
	run ws check.sh
	[ "$status" -eq 0 ]
	run ws check.sh
	[ "$(wc -l <"$PROBE_COUNT")" -eq 1 ]
	FAKE_CODESPELL_VERSION=2.3.0 run ws check.sh
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$PROBE_COUNT")" -eq 2 ]
}

@test "check: a tool a check's inputs names (tool:, compilers:) runs it again when its version changes, and only it" {
	probe_workspace
	mkdir -p "$BATS_TEST_TMPDIR/bin" "$BATS_TEST_TMPDIR/checks/other"
	# shellcheck disable=SC2016 # expanded by the fake tools
	printf '#!/bin/sh\necho "$FAKE_SPHINX_VERSION"\n' >"$BATS_TEST_TMPDIR/bin/fake-sphinx"
	# shellcheck disable=SC2016
	printf '#!/bin/sh\necho "$FAKE_XGCC_VERSION"\n' >"$BATS_TEST_TMPDIR/bin/fakearch-linux-gnu-gcc"
	chmod +x "$BATS_TEST_TMPDIR/bin/"*
	printf 'fakearch\tfakearch\tfakearch-linux-gnu-\tgcc-fakearch\trep\tdefconfig\n' >"$BATS_TEST_TMPDIR/arches"
	printf '%s\n' "# the fixture's tools" "tool: fake-sphinx --version" "compilers: arches" >"$BATS_TEST_TMPDIR/checks/probe/inputs"
	cp "$BATS_TEST_TMPDIR/checks/probe/run" "$BATS_TEST_TMPDIR/checks/other/run"
	# check.sh reads inputs relative to the workspace: a copy of it to add
	# the fixture's arches table to.
	local root=$BATS_TEST_TMPDIR/ws
	mkdir -p "$root"
	cp -r "$WS/scripts" "$WS/checks" "$WS/qemu" "$root/"
	cp "$BATS_TEST_TMPDIR/arches" "$root/arches"
	export PATH=$BATS_TEST_TMPDIR/bin:$PATH FAKE_SPHINX_VERSION="sphinx-build 5.3.0" FAKE_XGCC_VERSION="gcc 12.2.0"
	export CHECKS=probe,other
	WS_ROOT=$root run bash "$root/scripts/check.sh"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$PROBE_COUNT")" -eq 2 ]
	WS_ROOT=$root run bash "$root/scripts/check.sh"
	[ "$(wc -l <"$PROBE_COUNT")" -eq 2 ]
	FAKE_SPHINX_VERSION="sphinx-build 7.2.6" WS_ROOT=$root run bash "$root/scripts/check.sh"
	[ "$status" -eq 0 ]
	[ "$(wc -l <"$PROBE_COUNT")" -eq 3 ]
	FAKE_SPHINX_VERSION="sphinx-build 7.2.6" FAKE_XGCC_VERSION="gcc 12.3.0" WS_ROOT=$root run bash "$root/scripts/check.sh"
	[ "$(wc -l <"$PROBE_COUNT")" -eq 4 ]
	# An input file that is not there is named.
	printf 'compilers: no-such-table\n' >"$BATS_TEST_TMPDIR/checks/probe/inputs"
	WS_ROOT=$root run bash "$root/scripts/check.sh"
	[ "$status" -ne 0 ]
	[[ $output == *"checks/probe/inputs names 'no-such-table'"* ]]
}

@test "checks: a file with a non-ASCII name is checked as any other (git's -z, not its quoted names)" {
	local c
	c=$(commit_edit "drivers: a warning in a non-ASCII file name" \
		'mkdir -p drivers && printf "%s\n" "/* WARN A */" "int A(void) { return 0; }" >drivers/tëst.c')
	check kernel-doc "$c"
	[ "$status" -eq 250 ]
	[[ $output == *"drivers/tëst.c"* ]]
	# A name with a newline cannot be a line of the list: named, not split.
	c=$(commit_edit "a newline" "printf 'int b;\n' >\$'a\\nb.c'")
	check kernel-doc "$c"
	[ "$status" -eq 1 ]
	[[ $output == *"a file name with a newline cannot be checked"* ]]
}

@test "check: a skip is never taken from the cache" {
	probe_workspace
	PROBE_EXIT=4 run ws check.sh
	[[ $(results_row one 1 probe) == "skip probe summary" ]]
	PROBE_EXIT=4 run ws check.sh
	[ "$(wc -l <"$PROBE_COUNT")" -eq 2 ]
}

@test "check: a check that prints more than its summary keeps its status" {
	probe_workspace
	PROBE_LINES=100000 run ws check.sh
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 probe) == "pass probe summary" ]]
}

@test "check: a check check.sh could not run is a fail, not an empty result" {
	probe_workspace
	echo "no-such-input" >"$BATS_TEST_TMPDIR/checks/probe/inputs"
	run ws check.sh
	[ "$status" -ne 0 ]
	[[ $output == *"checks/probe/inputs names 'no-such-input'"* ]]
	[[ $(results_row one 1 probe) == "fail check.sh could not run the check" ]]
}

@test "kernel-doc: a kernel-doc that fails fails the check" {
	local c
	c=$(commit_edit "main: kernel-doc cannot parse it" 'echo "/* CRASH */" >>main.c')
	KDOC_WERROR=1 check kernel-doc "$c"
	[ "$status" -eq 1 ]
	[[ $output == "scripts/kernel-doc failed on main.c at $c: kernel-doc: cannot parse main.c" ]]
	# -Werror from the environment is not a failure.
	git -C "$TREE" checkout -q HEAD~1
	c=$(commit_edit "main: a warning" 'echo "/* WARN new */" >>main.c')
	KDOC_WERROR=1 check kernel-doc "$c"
	[ "$status" -eq 250 ]
}

@test "build checks: every check that configures a commit with features.config is run again when features.config changes" {
	local c n=0
	for c in "$WS"/checks/*/run; do
		grep -qE '\b(compare_builds|compile_messages|configure)\b' "$c" || continue
		n=$((n + 1))
		grep -qx 'qemu/configs/features.config' "${c%/run}/inputs" ||
			{ echo "${c%/run}/inputs does not name qemu/configs/features.config"; false; }
	done
	[ "$n" -ge 2 ]
}
