#!/usr/bin/env bats
# checks/abi on a fixture tree (tests/fixtures/abi/kernel: a Makefile whose
# headers_install copies the uapi headers as the real one does, a generic
# and an alpha <asm/signal.h>, a generic <asm/termbits.h>) with a table of
# three architectures of the test's own: x86_64 and alpha, both compiled
# with the machine's gcc (the probe only needs -S), and xtensa, of set
# none.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

bats_require_minimum_version 1.5.0

WS=$(cd "$BATS_TEST_DIRNAME/.." && pwd)

setup() {
	export GIT_AUTHOR_NAME="Ada Author" GIT_AUTHOR_EMAIL="ada@example.org"
	export GIT_COMMITTER_NAME="Ada Author" GIT_COMMITTER_EMAIL="ada@example.org"
	export GIT_CONFIG_GLOBAL=$BATS_TEST_TMPDIR/gitconfig GIT_CONFIG_NOSYSTEM=1
	: >"$GIT_CONFIG_GLOBAL"
	export TREE=$BATS_TEST_TMPDIR/linux CHECK_SCRATCH=$BATS_TEST_TMPDIR/scratch WS_ROOT=$WS
	export ABI_ARCHES=$BATS_TEST_TMPDIR/arches FAKE_INSTALLS=$BATS_TEST_TMPDIR/installs JOBS=2
	unset CHECK_HEAD CHECK_BASE
	printf '%s\t%s\t%s\t%s\t%s\t%s\n' \
		x86_64 x86_64 - gcc rep defconfig \
		alpha alpha - gcc own defconfig \
		xtensa - - - none "no cross compiler for xtensa" >"$ABI_ARCHES"
	sed -i '1i # name ARCH= CROSS_COMPILE= package set config' "$ABI_ARCHES"
	cp -a "$WS/tests/fixtures/abi/kernel" "$TREE"
	git -C "$TREE" init -q
	git -C "$TREE" add -A
	git -C "$TREE" commit -q -m "base"
}

# commit_edit SUBJECT SHELL [BODY]: SHELL run in the tree, everything
# committed with SUBJECT and BODY as its message; prints the commit's id.
commit_edit() {
	(cd "$TREE" && eval "$2") >&2
	git -C "$TREE" add -A
	git -C "$TREE" commit -q -m "$1" -m "${3:-A fixture commit.}"
	git -C "$TREE" rev-parse HEAD
}

# check COMMIT: checks/abi/run COMMIT; $status, $output (the summary), the
# log in $BATS_TEST_TMPDIR/log.
check() {
	run "$WS/checks/abi/run" "$1" "$BATS_TEST_TMPDIR/log"
	echo "abi on ${1:0:12}: status $status: $output"
	echo "log:"
	cat "$BATS_TEST_TMPDIR/log" 2>/dev/null || true
}

# log_row ARCH ITEM WHAT: the line of the differences table for it.
log_row() {
	sed -n '/^Differences/,/^$/p' "$BATS_TEST_TMPDIR/log" | grep -E "^$1 +$2 +$3 " || true
}

GROW='sed -i "s/sigset_t sa_mask;/sigset_t sa_mask;\n\tvoid *sa_restorer;/" include/uapi/asm-generic/signal.h'

@test "abi: a commit that touches no uapi header passes at once" {
	c=$(commit_edit "main: a comment" 'echo "/* A comment. */" >>main.c')
	check "$c"
	[ "$status" -eq 0 ]
	[ "$output" = "no uapi header touched" ]
	[ ! -e "$FAKE_INSTALLS" ]
}

@test "abi: a uapi structure that grows fails, naming the architecture, the item and both sizes" {
	c=$(commit_edit "signal: a restorer" "$GROW")
	check "$c"
	[ "$status" -eq 1 ]
	[ "$output" = "abi: struct sigaction grows on x86_64 (24 -> 32), not documented in the commit message" ]
	[[ $(log_row x86_64 "struct sigaction" size) == *" 24 "*" 32 "*"FAIL"* ]]
	# The new field is listed as new, and alpha, with its own header, has
	# no difference.
	[[ $(log_row x86_64 "struct sigaction.sa_restorer" offset) == *absent*" 24 "*new* ]]
	[ -z "$(log_row alpha "struct sigaction" size)" ]
	grep -q "^alpha    struct sigaction  *size  *24  *24 *$" "$BATS_TEST_TMPDIR/log"
}

@test "abi: the same change passes with a line of the commit message that names it and says ABI" {
	c=$(commit_edit "signal: a restorer" "$GROW" \
		"This changes the ABI of struct sigaction on the asm-generic architectures.")
	check "$c"
	[ "$status" -eq 0 ]
	[ "$output" = "abi: 2 arches, 1 change (documented), new: struct sigaction.sa_restorer; not covered: xtensa" ]
	[[ $(log_row x86_64 "struct sigaction" size) == *"changed, documented"* ]]
	# A line that says ABI but names another item documents nothing.
	c=$(commit_edit "signal: a second restorer" \
		'sed -i "s/void \*sa_restorer;/void *sa_restorer, *sa_restorer2;/" include/uapi/asm-generic/signal.h' \
		"No ABI change for sigset_t.")
	check "$c"
	[ "$status" -eq 1 ]
	[ "$output" = "abi: struct sigaction grows on x86_64 (32 -> 40), not documented in the commit message" ]
	# Nor does a line that names it and says there is no change.
	local denial n=2
	for denial in "No ABI change: struct sigaction is untouched." "The ABI of struct sigaction is unchanged." \
		"This doesn't change the ABI of struct sigaction."; do
		c=$(commit_edit "signal: restorer $n" \
			"sed -i 's/\\*sa_restorer$n;/*sa_restorer$n, *sa_restorer$((n + 1));/' include/uapi/asm-generic/signal.h" "$denial")
		n=$((n + 1))
		check "$c"
		[ "$status" -eq 1 ]
		[[ $output == "abi: struct sigaction grows on x86_64 "*"not documented in the commit message"* ]]
	done
}

@test "abi: a changed constant fails with what follows from it; documenting only some is not enough" {
	c=$(commit_edit "signal: 65 signals" \
		'sed -i "s/_NSIG\t\t64/_NSIG\t\t65/; s|(_NSIG / _NSIG_BPW)|((_NSIG + _NSIG_BPW - 1) / _NSIG_BPW)|" include/uapi/asm-generic/signal.h' \
		"This changes the ABI: _NSIG is 65.")
	check "$c"
	[ "$status" -eq 1 ]
	[ "$output" = "abi: sigset_t grows on x86_64 (8 -> 16), not documented in the commit message (4 undocumented changes in all)" ]
	[[ $(log_row x86_64 _NSIG value) == *" 64 "*" 65 "*"changed, documented"* ]]
	[[ $(log_row x86_64 _NSIG_WORDS value) == *" 1 "*" 2 "*FAIL* ]]
	[[ $(log_row x86_64 SIGRTMAX value) == *" 64 "*" 65 "*FAIL* ]]
}

@test "abi: a new constant passes and is listed, with its value on each architecture" {
	c=$(commit_edit "tty: VSTATUS" \
		'sed -i "s/^#define VLNEXT.*/&\n#define VSTATUS\t17/; s/^#define EXTPROC.*/&\n#define NOKERNINFO\t0x20000/" include/uapi/asm-generic/termbits.h')
	check "$c"
	[ "$status" -eq 0 ]
	[ "$output" = "abi: 2 arches, 0 changes, new: VSTATUS, NOKERNINFO; not covered: xtensa" ]
	[[ $(log_row x86_64 VSTATUS value) == *absent*" 17 "*new* ]]
	[[ $(log_row alpha NOKERNINFO value) == *absent*" 0x20000 "*new* ]]
	grep -q "^macros the diff defines or removes: NOKERNINFO VSTATUS" "$BATS_TEST_TMPDIR/log"
	# The installs are kept: the next commit's parent is not installed again.
	[ "$(wc -l <"$FAKE_INSTALLS")" -eq 4 ]
	c=$(commit_edit "tty: VSTATUS 18" 'sed -i "s/VSTATUS\t17/VSTATUS\t18/" include/uapi/asm-generic/termbits.h')
	check "$c"
	[ "$status" -eq 1 ]
	[ "$output" = "abi: VSTATUS changes on x86_64 (17 -> 18), not documented in the commit message (2 undocumented changes in all)" ]
	[ "$(wc -l <"$FAKE_INSTALLS")" -eq 6 ]
	# Run again: everything comes from the scratch directory.
	check "$c"
	[ "$status" -eq 1 ]
	[ "$(wc -l <"$FAKE_INSTALLS")" -eq 6 ]
}

@test "abi: an architecture header concerns that architecture only; one of set none is not covered and does not fail" {
	c=$(commit_edit "alpha, xtensa: signal: more" \
		'sed -i "s/int sa_flags;/int sa_flags[4];/" arch/alpha/include/uapi/asm/signal.h &&
		mkdir -p arch/xtensa/include/uapi/asm arch/nowhere/include/uapi/asm &&
		echo "#define XT_ONLY 1" >arch/xtensa/include/uapi/asm/signal.h &&
		echo "#define NW_ONLY 1" >arch/nowhere/include/uapi/asm/signal.h' \
		"The ABI of struct sigaction changes on alpha.")
	check "$c"
	[ "$status" -eq 0 ]
	[ "$output" = "abi: 1 arches, 1 change (documented); not covered: xtensa, nowhere" ]
	grep -qx "architectures: alpha " "$BATS_TEST_TMPDIR/log"
	grep -qx "not covered: xtensa: no cross compiler for xtensa" "$BATS_TEST_TMPDIR/log"
	grep -qx "not covered: nowhere: not in scripts/arches" "$BATS_TEST_TMPDIR/log"
	[[ $(log_row alpha "struct sigaction" size) == *" 24 "*" 32 "*"changed, documented"* ]]
	[ -z "$(log_row alpha "struct sigaction.sa_flags" offset)" ]
	[ "$(sort -u "$FAKE_INSTALLS")" = alpha ]
}

@test "abi: a missing cross compiler or a failing headers_install fails the check" {
	printf 'm68k\tm68k\tno-such-cross-\tgcc-m68k\town\tdefconfig\n' >>"$ABI_ARCHES"
	c=$(commit_edit "signal: a comment" 'echo "/* A comment. */" >>include/uapi/asm-generic/signal.h')
	check "$c"
	[ "$status" -eq 1 ]
	[ "$output" = "could not probe the headers: m68k: no-such-cross-gcc is not installed" ]
	sed -i '/^m68k/d' "$ABI_ARCHES"
	c=$(commit_edit "signal: broken" 'touch fake-install-fail; echo "/* More. */" >>include/uapi/asm-generic/signal.h')
	check "$c"
	[ "$status" -eq 1 ]
	[[ $output == "could not install the headers: "*"x86: make ARCH=x86_64 headers_install failed at ${c:0:12}: headers_install: broken" ]]
}

@test "abi: a header that does not compile loses only its own items, and a measurement that fails loses only itself" {
	c=$(commit_edit "linux: a broken header" \
		'printf "%s\n" "#define AT_SIGSET_SZ 52" "#define AT_BAD ((void *)0)" "unknown_t broken;" >>include/uapi/linux/auxvec.h')
	check "$c"
	[ "$status" -eq 1 ]
	# AT_MINSIGSTKSZ disappears with the header; the rest is measured.
	[[ $output == "abi: AT_MINSIGSTKSZ disappears on x86_64 (was 51), not documented"* ]]
	grep -q "<linux/auxvec.h> left out: .*unknown_t" "$BATS_TEST_TMPDIR/log"
	grep -q "^x86_64   struct sigaction  *size  *24  *24 *$" "$BATS_TEST_TMPDIR/log"
	# A macro user space cannot evaluate has no value, and that does not
	# lose the rest.
	c=$(commit_edit "linux: a header fixed" \
		'sed -i "/unknown_t/d; s/^#define AT_BAD.*/#define AT_BAD _NOT_DEFINED_HERE/" include/uapi/linux/auxvec.h')
	check "$c"
	[ "$status" -eq 0 ]
	[[ $(log_row x86_64 AT_BAD value) == *absent*no-value*new* ]]
	[[ $(log_row x86_64 AT_SIGSET_SZ value) == *absent*" 52 "*new* ]]
}

@test "abi and uapi: the headers of an architecture at a commit are installed once for both checks of the line" {
	# The line's scratch: CHECK_SCRATCH is check-work/<line>/<check>, and
	# the store their sibling headers/.
	c=$(commit_edit "signal: a comment" 'echo "/* A comment. */" >>include/uapi/asm-generic/signal.h')
	export CHECK_SCRATCH=$BATS_TEST_TMPDIR/line/abi
	check "$c"
	[ "$status" -eq 0 ]
	# x86 (x86_64's directory) and alpha, at the commit and at its parent.
	[ "$(sort "$FAKE_INSTALLS" | xargs)" = "alpha alpha x86_64 x86_64" ]
	[ -d "$BATS_TEST_TMPDIR/line/headers/x86/$c" ] && [ -d "$BATS_TEST_TMPDIR/line/headers/alpha/$c" ]
	# uapi checks a generic header on x86 and the asm-generic architecture
	# (alpha here): the abi check's installs, none of its own.
	export CHECK_SCRATCH=$BATS_TEST_TMPDIR/line/uapi UAPI_GENERIC_ARCH=alpha
	run "$WS/checks/uapi/run" "$c" "$BATS_TEST_TMPDIR/uapi.log"
	echo "uapi: status $status: $output"
	cat "$BATS_TEST_TMPDIR/uapi.log"
	[ "$status" -eq 0 ]
	[[ $output == "headers_install and a user-space compile pass for 1 headers (alpha x86)" ]]
	[ "$(sort "$FAKE_INSTALLS" | xargs)" = "alpha alpha x86_64 x86_64" ]
	grep -qx "x86: the headers of ${c:0:12} as installed: $BATS_TEST_TMPDIR/line/headers/x86/$c" "$BATS_TEST_TMPDIR/uapi.log"
	# A commit only uapi has seen: it installs, and abi takes its install
	# of x86 (ARCH=x86) where it would make x86_64's.
	c=$(commit_edit "signal: another comment" 'echo "/* More. */" >>include/uapi/asm-generic/signal.h')
	run "$WS/checks/uapi/run" "$c" "$BATS_TEST_TMPDIR/uapi.log"
	[ "$status" -eq 0 ]
	[ "$(sort "$FAKE_INSTALLS" | xargs)" = "alpha alpha alpha x86 x86_64 x86_64" ]
	export CHECK_SCRATCH=$BATS_TEST_TMPDIR/line/abi
	check "$c"
	[ "$status" -eq 0 ]
	[ "$(sort "$FAKE_INSTALLS" | xargs)" = "alpha alpha alpha x86 x86_64 x86_64" ]
}
