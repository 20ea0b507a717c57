#!/usr/bin/env bats
# The boot architectures besides x86_64 and arm64 (scripts/bootarch.sh):
# i386 (a 32-bit kernel, its programs -m32) and mips64el (QEMU's Malta,
# n64 programs and both 32-bit ABIs, o32 and n32), on the fixture kernel;
# their config fragments against smoke.config; and the boot key, which no
# longer holds the commit's sha.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers
bats_require_minimum_version 1.5.0

setup() {
	setup_workspace
}

# arch_fixture: the fixture tree with series "one" of two commits, the
# second adding an "m32" selftest (qemu/kselftests: signal/sigsetsize.c).
arch_fixture() {
	run ws import.sh
	[ "$status" -eq 0 ]
	make_series one linux-source "a.c:int a;:fixture: add a" \
		"tools/testing/selftests/signal/sigsetsize.c:int main(void) { return 0; }:selftests: signal: add a test"
	ws apply.sh
}

# initramfs_list DIR: the gen_init_cpio list of the boot in DIR.
initramfs_list() {
	cat "$(dirname "$(readlink "$1/initramfs.cpio")")/initramfs.list"
}

@test "i386: a 32-bit kernel at the base and the head, its programs -m32, the 64-bit half of an m32 selftest a stand-in" {
	arch_fixture
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	BOOT_ARCH=i386 run ws boot.sh arch-heads
	[ "$status" -eq 0 ]
	[[ $(results_row one 0 build-i386) == "pass i386 bzImage, i386-smoke config" ]]
	[[ $(results_row one 2 build-i386) == "pass i386 bzImage, i386-smoke config" ]]
	[[ $(results_row one 0 boot-i386) == pass* && $(results_row one 2 boot-i386) == pass* ]]
	[ -z "$(results_row one 1 boot-i386)$(results_row one 0 boot)" ]
	local dir art
	art=$(echo "$WORKDIR"/artifacts/i386-smoke/"$(tree rev-parse 'one^{tree}')"-*)
	dir=$WORKDIR/boots/i386-smoke/$(tree rev-parse --short=12 one)
	[ -s "$art/bzImage" ] && [ -d "$WORKDIR/build/i386-smoke-6.12" ]
	# i386.config, merged: no 64BIT, the 32-bit time calls.
	grep -qx 'CONFIG_COMPAT_32BIT_TIME=y' "$art/config"
	# The native programs, init among them, and the 32-bit ones are -m32.
	grep -q -- "-o [^ ]*/init $WS/qemu/init.c -m32\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/nsig_sizes $WS/qemu/tests/nsig_sizes.c -m32\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/nsig_compat_32 $WS/qemu/tests/nsig_compat.m32.c -m32 -DWS_NATIVE_32BIT\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/selftest-signal-sigsetsize_32 [^ ]*/sigsetsize.c -pthread -m32 -DWS_NATIVE_32BIT\$" "$FAKE_CC_ARGS"
	# No 64-bit program, and no n32 one: the _64 half is a stand-in.
	grep -q -- "-o [^ ]*/tests/selftest-signal-sigsetsize_64 $WS/qemu/not-built.c -DWS_NOT_BUILT=\"not built: no 64-bit user space on a 32-bit kernel\" -m32" "$FAKE_CC_ARGS"
	run ! grep -q -- "_n32\|-mabi" "$FAKE_CC_ARGS"
	run initramfs_list "$dir"
	[[ $output == *"/tests/selftest-signal-sigsetsize_64 "* && $output == *"/tests/nsig_compat_32 "* ]]
	# ... which qemu/expected-skips allows on a kernel without CONFIG_64BIT.
	grep -qxF '*_64/not built: no 64-bit user space on a 32-bit kernel' "$dir/allowed-skips"
	grep -qxF "nsig_compat_32/a 32-bit kernel: no compat layer (*)" "$dir/allowed-skips"
	# QEMU: x86's machine with 1 GiB, the console on ttyS0, KTAP on ttyS1.
	[ "$(boots)" -eq 2 ]
	run grep -c -- '-accel [a-z]* -cpu [a-z]* -m 1G -serial file:[^ ]*/console.log -serial file:[^ ]*/ktap.log .*-append console=ttyS0 ' "$FAKE_QEMU_ARGS"
	[ "$output" -eq 2 ]
}

@test "i386: x86's selftests of both bitnesses run as their _32 programs; the 64-bit-only ones are stand-ins, allowed on no x86 kernel of 64 bits" {
	# What an i386 kernel's .config has that the fixture's tinyconfig lacks.
	export FIXTURE_CONFIG=$'CONFIG_X86=y\nCONFIG_X86_32=y'
	make_tarball ok
	run ws import.sh
	[ "$status" -eq 0 ]
	local x=tools/testing/selftests/x86
	make_series one linux-source \
		"$x/single_step_syscall.c:int main(void) { return 0; }:selftests: x86: add single_step_syscall" \
		"$x/sysret_rip.c:int main(void) { return 0; }:selftests: x86: add sysret_rip"
	ws apply.sh
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	BOOT_ARCH=i386 run ws boot.sh arch-heads
	[ "$status" -eq 0 ]
	local st="[^ ]*/ksft/$x" dir
	dir=$WORKDIR/boots/i386-smoke/$(tree rev-parse --short=12 one)
	grep -q -- "-o [^ ]*/tests/selftest-x86-single_step_syscall_32.plain $st/single_step_syscall.c -pthread -m32 -DWS_NATIVE_32BIT\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/selftest-x86-single_step_syscall_64 $WS/qemu/not-built.c -DWS_NOT_BUILT=\"not built: no 64-bit user space on a 32-bit kernel\"" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/selftest-x86-sysret_rip $WS/qemu/not-built.c -DWS_NOT_BUILT=\"not built: a selftest for x86_64 only, and this is an i386 kernel" "$FAKE_CC_ARGS"
	# sysret_rip's stand-in is allowed here (no CONFIG_X86_64); nothing
	# allows a stand-in of an x86_64,i386 selftest on an x86 kernel.
	grep -qxF 'selftest-x86-*/not built: a selftest for x86_64 only, *' "$dir/allowed-skips"
	run ! grep -qF 'a selftest for x86_64,i386 only' "$dir/allowed-skips"
}

@test "mips64el: Malta at the base and the head, with n64, o32 and n32 programs" {
	command -v mips64el-linux-gnuabi64-gcc >/dev/null || skip "no mips64el-linux-gnuabi64-gcc: make deps installs it"
	arch_fixture
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	export GUEST_CCN32=$FIXTURES/fake-cc
	BOOT_ARCH=mips64el run ws boot.sh arch-heads
	[ "$status" -eq 0 ]
	[[ $(results_row one 0 build-mips64el) == "pass mips64el vmlinux, mips64el-smoke config" ]]
	[[ $(results_row one 2 boot-mips64el) == pass* ]]
	local dir art
	art=$(echo "$WORKDIR"/artifacts/mips64el-smoke/"$(tree rev-parse 'one^{tree}')"-*)
	dir=$WORKDIR/boots/mips64el-smoke/$(tree rev-parse --short=12 one)
	[ -s "$art/vmlinux" ]
	# Each 32-bit program twice: o32 (GUEST_CC32) and n32 (-mabi=n32).
	grep -q -- "-o [^ ]*/tests/nsig_compat_32 $WS/qemu/tests/nsig_compat.m32.c\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/nsig_compat_n32 $WS/qemu/tests/nsig_compat.m32.c -mabi=n32\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/selftest-signal-sigsetsize_n32 [^ ]*/sigsetsize.c -pthread -mabi=n32\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/selftest-signal-sigsetsize_64 [^ ]*/sigsetsize.c -pthread\$" "$FAKE_CC_ARGS"
	run ! grep -q -- "-m32" "$FAKE_CC_ARGS"
	run initramfs_list "$dir"
	[[ $output == *"/tests/nsig_compat_n32 "* && $output == *"/tests/selftest-signal-sigsetsize_n32 "* ]]
	# QEMU: Malta under TCG (no KVM probe), 256 MiB, the PIIX4's UARTs.
	[ "$(boots)" -eq 2 ] && [ "$(probes)" -eq 0 ]
	run grep -c -- '-M malta -accel tcg -cpu MIPS64R2-generic -m 256M -serial file:[^ ]*/console.log -serial file:[^ ]*/ktap.log .*-kernel [^ ]*/vmlinux .*-append console=ttyS0 ' "$FAKE_QEMU_ARGS"
	[ "$output" -eq 2 ]
}

# An unknown BOOT_ARCH: tests/arm64.bats, "BOOT_ARCH and ACCEL are checked".
@test "an unknown ARCH_BOOTS entry is refused before any plan, naming the known ones" {
	arch_fixture
	ARCH_BOOTS="arm64 riscv" NO_DEPS=1 run ws all.sh
	[ "$status" -ne 0 ]
	[[ $output == *"ARCH_BOOTS: 'riscv' is not a boot architecture (arm64, i386, mips64el"* ]]
	[ ! -e "$WORKDIR/report/plan" ]
}

# fragment_options FILE: the CONFIG_ lines of a fragment, set or unset.
fragment_options() {
	sed -nE 's/^(# )?(CONFIG_[A-Z0-9_]+)[= ].*/\2/p' "$1" | sort -u
}

@test "i386.config and mips64el.config have every option of smoke.config but the 64-bit and x86 ones" {
	local smoke missing
	smoke=$(fragment_options "$WS/qemu/configs/smoke.config")
	# i386: all but 64-bit's own.
	missing=$(comm -23 <(echo "$smoke") <(fragment_options "$WS/qemu/configs/i386.config") |
		grep -vx -e CONFIG_IA32_EMULATION || true)
	[ -z "$missing" ]
	grep -qx '# CONFIG_64BIT is not set' "$WS/qemu/configs/i386.config"
	# mips64el: all but x86's own (as arm64.config).
	missing=$(comm -23 <(echo "$smoke") <(fragment_options "$WS/qemu/configs/mips64el.config") |
		grep -vx -e CONFIG_IA32_EMULATION -e CONFIG_EARLY_PRINTK -e CONFIG_HYPERVISOR_GUEST \
			-e CONFIG_PARAVIRT -e CONFIG_KVM_GUEST -e CONFIG_HID -e CONFIG_KERNEL_LZ4 || true)
	[ -z "$missing" ]
	grep -qx 'CONFIG_MIPS32_O32=y' "$WS/qemu/configs/mips64el.config"
	grep -qx 'CONFIG_MIPS32_N32=y' "$WS/qemu/configs/mips64el.config"
}

@test "a commit that differs from a booted one in its message only boots from the cache" {
	arch_fixture
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run ws boot.sh series
	[ "$status" -eq 0 ]
	local booted twin
	booted=$(boots)
	# The head's tree and parent, another message: another sha, and so
	# another boot directory, boots/smoke/<sha>.
	twin=$(tree commit-tree "one^{tree}" -p one^ -m "fixture: the same change, reworded")
	run ws boot.sh commit "$twin"
	[ "$status" -eq 0 ]
	[[ $output == *"cached: the same kernel, initramfs, QEMU and verdict passed before"* ]]
	[ "$(boots)" -eq "$booted" ]
	[ -f "$WORKDIR/boots/smoke/${twin:0:12}/ktap.log" ]
}

@test "config-has: a rule that holds where the kernel sets the option (nsig_compat's cases on MIPS)" {
	local d=$BATS_TEST_TMPDIR/v
	mkdir -p "$d/headers" "$d/stage"
	printf 'CONFIG_MIPS=y\nCONFIG_64BIT=y\n' >"$d/mips"
	printf 'CONFIG_X86_64=y\nCONFIG_64BIT=y\n' >"$d/x86"
	run "$WS/qemu/allowed-skips" "$d/headers" "$d/stage" "$d/mips"
	[ "$status" -eq 0 ]
	[[ $output == *"nsig_compat_*32/MIPS 32-bit ABI: 128 compat signals, not the 64 these cases are about"* ]]
	run "$WS/qemu/allowed-skips" "$d/headers" "$d/stage" "$d/x86"
	[ "$status" -eq 0 ]
	[[ $output != *"MIPS 32-bit ABI"* ]]
	printf 'config-has NOT_AN_OPTION x/y\n' >"$d/rules"
	run "$WS/qemu/allowed-skips" "$d/headers" "$d/stage" "$d/x86" "$d/rules"
	[ "$status" -eq 1 ]
	[[ $output == *"rules:1: bad option 'NOT_AN_OPTION'"* ]]
}

@test "a selftest's extra sources (extra=, extra32=) and include directories (include=) are compiled in where the commit has them" {
	run ws import.sh
	[ "$status" -eq 0 ]
	local a=tools/testing/selftests/arm64/signal x=tools/testing/selftests/x86
	make_series one linux-source \
		"$x/ptrace_syscall.c:int main(void) { return 0; }:selftests: x86: add ptrace_syscall" \
		"$x/raw_syscall_helper_32.S:# helper:selftests: x86: add its 32-bit helper" \
		"$x/sysret_rip.c:int main(void) { return 0; }:selftests: x86: add sysret_rip" \
		"tools/include/linux/compiler.h:int c;:tools: compiler.h" \
		"tools/include/linux/compiler_types.h:int c;:tools: compiler_types.h" \
		"tools/include/linux/compiler-gcc.h:int c;:tools: compiler-gcc.h" \
		"tools/include/linux/types.h:int c;:tools: types.h" \
		"$a/test_signals.h:int h;:selftests: arm64: its header" \
		"$a/test_signals_utils.h:int h2;:selftests: arm64: its other header" \
		"$a/testcases/testcases.c:int t;:selftests: arm64: its helpers" \
		"$a/test_signals.c:int s;:selftests: arm64: its main" \
		"$a/test_signals_utils.c:int u;:selftests: arm64: its utils" \
		"$a/signals.S:# s:selftests: arm64: its assembly" \
		"$a/testcases/fake_sigreturn_bad_magic.c:int main(void) { return 0; }:selftests: arm64: add a signal test"
	ws apply.sh
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	export FIXTURE_CONFIG=$'CONFIG_COMPAT=y\nCONFIG_X86_64=y\nCONFIG_64BIT=y'
	SERIES=one run ws boot.sh series
	[ "$status" -eq 0 ]
	local st="[^ ]*/ksft/$x"
	# ptrace_syscall: its helper in the 32-bit build only, once the
	# commit has it (2 and later), not before (1).
	grep -q -- "-o [^ ]*/tests/selftest-x86-ptrace_syscall_32.plain $st/ptrace_syscall.c $st/raw_syscall_helper_32.S -pthread -m32\$" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/selftest-x86-ptrace_syscall_32.plain $st/ptrace_syscall.c -pthread -m32\$" "$FAKE_CC_ARGS"
	run ! grep -q -- "ptrace_syscall_64.plain .*raw_syscall_helper" "$FAKE_CC_ARGS"
	# sysret_rip's clang_helpers_64.S is not in this tree: left out.
	grep -q -- "-o [^ ]*/tests/selftest-x86-sysret_rip.plain $st/sysret_rip.c -pthread\$" "$FAKE_CC_ARGS"
	# arm64's test on x86_64: a stand-in, which qemu/expected-skips allows.
	grep -q -- "-o [^ ]*/tests/selftest-arm64-signal-testcases-fake_sigreturn_bad_magic $WS/qemu/not-built.c" "$FAKE_CC_ARGS"
	grep -qxF 'selftest-arm64-*/not built: a selftest for arm64 only, *' \
		"$WORKDIR/boots/smoke/$(tree rev-parse --short=12 one)/allowed-skips"
	# On arm64: the include directories and the extra sources it has
	# (../sve_helpers.c it has not).
	: >"$FAKE_CC_ARGS"
	SERIES=one BOOT_ARCH=arm64 run ws boot.sh arch-heads
	[ "$status" -eq 0 ]
	local sa="[^ ]*/ksft/$a" k="[^ ]*/ksft/tools"
	grep -q -- "-o [^ ]*/tests/selftest-arm64-signal-testcases-fake_sigreturn_bad_magic.plain $sa/testcases/fake_sigreturn_bad_magic.c -I $k/include -I $sa $sa/testcases/../test_signals.c $sa/testcases/../test_signals_utils.c $sa/testcases/testcases.c $sa/testcases/../signals.S -pthread\$" "$FAKE_CC_ARGS"
}

@test "the tree's selftests are staged once per content: commits that share them copy them from guest/stage-<key>" {
	run ws import.sh
	[ "$status" -eq 0 ]
	make_series one linux-source "a.c:int a;:fixture: add a" \
		"tools/testing/selftests/signal/sigsetsize.c:int main(void) { return 0; }:selftests: signal: add a test" \
		"b.c:int b;:fixture: add b"
	ws apply.sh
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run ws boot.sh series
	[ "$status" -eq 0 ]
	# Two contents: without the selftest (base, 1) and with it (2, 3).
	[ "$(find "$WORKDIR/guest" -maxdepth 1 -name 'stage-*' | wc -l)" -eq 2 ]
	local c
	for c in one~1 one; do
		cmp "$WORKDIR/boots/smoke/$(tree rev-parse --short=12 "$c")/selftests/tools/testing/selftests/signal/sigsetsize.c" \
			<(tree show "$c:tools/testing/selftests/signal/sigsetsize.c")
	done
	[ ! -e "$WORKDIR/boots/smoke/$(tree rev-parse --short=12 one~2)/selftests/tools/testing/selftests/signal" ]
}
