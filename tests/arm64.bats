#!/usr/bin/env bats
# BOOT_ARCH=arm64 (make boot-arm64, boot.sh arch-heads) on the fixture
# kernel: builds and boots of the base and head of each series only, kept
# apart from x86_64's; the stand-ins for what arm64 does not build, and
# how their skips are policed; x86_64's paths and stage names as they were.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers
bats_require_minimum_version 1.5.0

setup() {
	setup_workspace
}

# arm64_fixture: the fixture tree with series "one" of two commits.
arm64_fixture() {
	make_tarball "${1:-ok}"
	run ws import.sh
	[ "$status" -eq 0 ]
	make_series one linux-source "a.c:int a;:fixture: add a" "b.c:int b;:fixture: add b"
	ws apply.sh
}

arm64_heads() {
	BOOT_ARCH=arm64 ws boot.sh arch-heads
}

# initramfs_list DIR: the gen_init_cpio list of the boot in DIR.
initramfs_list() {
	cat "$(dirname "$(readlink "$1/initramfs.cpio")")/initramfs.list"
}

@test "arch-heads builds and boots arm64 at the base and the head only, as build-arm64 and boot-arm64" {
	arm64_fixture
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run arm64_heads
	[ "$status" -eq 0 ]
	[[ $output == *"boot-arm64 one [0/2]"* && $output == *"boot-arm64 one [2/2]"* ]]
	[[ $output != *"one [1/2]"* ]]
	[[ $(results_row one 0 build-arm64) == "pass arm64 Image, arm64-smoke config" ]]
	[[ $(results_row one 2 build-arm64) == "pass arm64 Image, arm64-smoke config" ]]
	[[ $(results_row one 0 boot-arm64) == "pass pass: 1 passed, 0 skipped" ]]
	[[ $(results_row one 2 boot-arm64) == "pass pass: 1 passed, 0 skipped" ]]
	[ -z "$(results_row one 1 build-arm64)$(results_row one 1 boot-arm64)" ]
	# No x86_64 row, build, artifact or boot.
	[ -z "$(results_row one 0 build)$(results_row one 0 boot)" ]
	[ ! -e "$WORKDIR/build/smoke-6.12" ] && [ ! -e "$WORKDIR/artifacts/smoke" ] && [ ! -e "$WORKDIR/boots/smoke" ]
	# arm64's own directories, with arm64.config merged and its Image.
	local art
	art=$(echo "$WORKDIR"/artifacts/arm64-smoke/"$(tree rev-parse 'one^{tree}')"-*)
	[ -s "$art/Image" ] && [ ! -e "$art/bzImage" ]
	grep -qx 'CONFIG_SERIAL_AMBA_PL011_CONSOLE=y' "$art/config"
	run ! grep -q 'CONFIG_IA32_EMULATION' "$art/config"
	[ -d "$WORKDIR/build/arm64-smoke-6.12" ]
	[ -f "$WORKDIR/boots/arm64-smoke/$(tree rev-parse --short=12 one)/ktap.log" ]
	# The results table is one that scripts/cells.py reads whole.
	run /usr/bin/python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cells; cells.read_results(sys.argv[2])' \
		"$WS/scripts" "$WORKDIR/report/results.tsv"
	[ "$status" -eq 0 ] && [ -z "$output" ]
	# QEMU: the aarch64 virt machine under TCG (no KVM probe), the PL011
	# console, KTAP on the PCI 16550 pair's second port.
	[ "$(boots)" -eq 2 ]
	run ! grep -q -- '-accel kvm' "$FAKE_QEMU_ARGS"
	run grep -c -- '-M virt -accel tcg -cpu cortex-a57 .*-device pci-serial-2x,chardev2=ws-ktap .*-append console=ttyAMA0 ' "$FAKE_QEMU_ARGS"
	[ "$output" -eq 2 ]
	# arm64.config has CONFIG_COMPAT (the 32-bit programs need it).
	grep -qx 'CONFIG_COMPAT=y' "$art/config"
	# The 32-bit programs' headers: 32-bit arm's, from the same commit.
	[ -d "$art/headers32/linux" ] && [ -d "$art/headers/linux" ]
}

@test "a second arch-heads takes the builds and the boots from the caches; FRESH=1 boots again" {
	arm64_fixture
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run arm64_heads
	[ "$status" -eq 0 ]
	run arm64_heads
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 2 ]
	[[ $output == *"build pass in "*"s (cached)"* ]]
	[[ $(results_row one 2 build-arm64) == "pass arm64 Image, arm64-smoke config, cached" ]]
	[[ $(results_row one 2 boot-arm64) == "pass pass: 1 passed, 0 skipped (cached)" ]]
	FRESH=1 run arm64_heads
	[ "$status" -eq 0 ]
	[ "$(boots)" -eq 4 ]
}

@test "arm64 and x86_64 builds and boots of the same commits do not collide" {
	arm64_fixture
	run arm64_heads
	[ "$status" -eq 0 ]
	export FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run ws boot.sh series
	[ "$status" -eq 0 ]
	# x86_64 as before: its paths, bzImage, ttyS0, its stage names.
	[[ $(results_row one 1 boot) == pass* && $(results_row one 2 build) == "" ]]
	[[ $(results_row one 2 boot-arm64) == pass* ]]
	[ -s "$(echo "$WORKDIR"/artifacts/smoke/"$(tree rev-parse 'one^{tree}')"-*)/bzImage" ]
	[ -d "$WORKDIR/build/smoke-6.12" ] && [ -d "$WORKDIR/boots/smoke" ]
	run ! grep -q -- '-M virt\|ttyAMA0\|pci-serial' "$FAKE_QEMU_ARGS"
	grep -q -- '-append console=ttyS0 ' "$FAKE_QEMU_ARGS"
	# bisect-build of x86_64 records "build"; of arm64, "build-arm64".
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == pass* ]]
	BOOT_ARCH=arm64 run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build-arm64) == pass* ]]
}

# selftest_fixture: series "one" adds an x86 selftest that is m32 in
# qemu/kselftests.
selftest_fixture() {
	make_tarball ok
	run ws import.sh
	make_series one linux-source \
		"tools/testing/selftests/x86/single_step_syscall.c:int main(void) { return 0; }:selftests: x86: add a test"
	ws apply.sh
}

@test "arm64 builds the 32-bit tests for 32-bit arm, and a stand-in for each x86 selftest, which qemu/expected-skips allows" {
	selftest_fixture
	export FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args
	run arm64_heads
	[ "$status" -eq 0 ]
	local dir art
	dir=$WORKDIR/boots/arm64-smoke/$(tree rev-parse --short=12 one)
	art=$(echo "$WORKDIR"/artifacts/arm64-smoke/"$(tree rev-parse 'one^{tree}')"-*)
	run initramfs_list "$dir"
	[[ $output == *"/tests/nsig_compat_32 "* ]]
	[[ $output == *"/tests/selftest-x86-single_step_syscall_64 "* ]]
	[[ $output == *"/tests/selftest-x86-single_step_syscall_32 "* ]]
	[[ $output != *".plain"* ]]
	# The 32-bit test for real, against 32-bit arm's headers.
	grep -q -- "-isystem $art/headers32 .*-o [^ ]*/tests/nsig_compat_32 $WS/qemu/tests/nsig_compat.m32.c" "$FAKE_CC_ARGS"
	run ! grep -q -- "-o [^ ]*/tests/nsig_compat_32 $WS/qemu/not-built.c" "$FAKE_CC_ARGS"
	run ! grep -q -- "-m32" "$FAKE_CC_ARGS"
	# The x86 selftest: stand-ins built from qemu/not-built.c, with the reason.
	grep -q -- "-o [^ ]*/tests/selftest-x86-single_step_syscall_64 $WS/qemu/not-built.c .*-DWS_NOT_BUILT=\"not built: a selftest for x86_64,i386 only, and this is an arm64 kernel" "$FAKE_CC_ARGS"
	grep -q -- "-o [^ ]*/tests/selftest-x86-single_step_syscall_32 $WS/qemu/not-built.c" "$FAKE_CC_ARGS"
	grep -qxF 'selftest-x86-*/not built: a selftest for x86_64 only, *' "$dir/allowed-skips"
	grep -qxF 'selftest-x86-*/not built: a selftest for x86_64,i386 only, *' "$dir/allowed-skips"
}

@test "x86_64 builds the 32-bit tests and x86 selftests for real, and allows no stand-in's skip but arm64's selftests'" {
	export FIXTURE_CONFIG=$'CONFIG_COMPAT=y\nCONFIG_X86=y\nCONFIG_X86_64=y'
	selftest_fixture
	export FAKE_CC_ARGS=$BATS_TEST_TMPDIR/cc-args FAKE_QEMU_ARGS=$BATS_TEST_TMPDIR/qemu-args
	run ws boot.sh series
	[ "$status" -eq 0 ]
	run ! grep -q -- "not-built.c" "$FAKE_CC_ARGS"
	grep -q -- "tests/nsig_compat_32 $WS/qemu/tests/nsig_compat.m32.c -m32" "$FAKE_CC_ARGS"
	grep -q -- "tests/selftest-x86-single_step_syscall_32.plain .* -m32" "$FAKE_CC_ARGS"
	local dir
	dir=$WORKDIR/boots/smoke/$(tree rev-parse --short=12 one)
	# No stand-in's skip but arm64's own selftests' (stand-ins here).
	[ "$(grep 'not built' "$dir/allowed-skips")" = 'selftest-arm64-*/not built: a selftest for arm64 only, *' ]
}

# standin_ktap TEST REASON: the guest's KTAP with the real stand-in's
# output for TEST (qemu/not-built.c, compiled here with REASON), as
# qemu/init.c frames it.
standin_ktap() {
	local bin=$BATS_TEST_TMPDIR/standin rc=0 out
	gcc -o "$bin" "$WS/qemu/not-built.c" "-DWS_NOT_BUILT=\"$2\""
	out=$("$bin") || rc=$?
	[ "$rc" -eq 4 ]
	printf 'KTAP version 1\n1..2\n  TAP version 13\n  1..1\n  ok 1 case\nok 1 pty\n'
	local l
	while IFS= read -r l; do printf '  %s\n' "$l"; done <<<"$out"
	printf 'ok 2 %s # SKIP\n# ws-init: done\n' "$1"
}

# verdict_for KCONFIG_LINES KTAP: ktap-verdict with the skips
# qemu/allowed-skips gives a kernel with those .config lines.
verdict_for() {
	local d=$BATS_TEST_TMPDIR/v
	mkdir -p "$d/headers" "$d/stage"
	printf '%s\n' "$1" >"$d/config"
	"$WS/qemu/allowed-skips" "$d/headers" "$d/stage" "$d/config" >"$d/allowed"
	printf '%s' "$2" >"$d/ktap"
	"$WS/qemu/ktap-verdict" --allow-skips-file "$d/allowed" "$d/ktap" 2>/dev/null
}

@test "a stand-in's skip passes only on a kernel that lacks what the program needs" {
	local m32 x86
	m32=$(standin_ktap nsig_compat_32 "not built: no 32-bit user space on arm64 (it would need CONFIG_COMPAT and an armhf static libc)")
	x86=$(standin_ktap selftest-x86-sigreturn "not built: a selftest for x86_64 only, and this is an arm64 kernel (qemu/kselftests)")
	run verdict_for "CONFIG_ARM64=y" "$m32"
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 1 passed, 1 skipped" ]
	run verdict_for "CONFIG_ARM64=y" "$x86"
	[ "$status" -eq 0 ]
	run verdict_for $'CONFIG_X86_64=y\nCONFIG_COMPAT=y' "$m32"
	[ "$status" -eq 1 ]
	[[ $output == "fail: unexpected skip: ok 2 nsig_compat_32 # SKIP (1..0 # SKIP not built: no 32-bit user space"* ]]
	run verdict_for $'CONFIG_X86_64=y\nCONFIG_COMPAT=y' "$x86"
	[ "$status" -eq 1 ]
	# Another reason is no stand-in's, and is not allowed.
	run verdict_for "CONFIG_ARM64=y" "$(standin_ktap nsig_compat_32 "fixture out of luck")"
	[ "$status" -eq 1 ]
}

@test "BOOT_ARCH and ACCEL are checked: an unknown architecture, KVM for arm64, arch-heads for x86_64" {
	arm64_fixture
	BOOT_ARCH=sparc run ws boot.sh arch-heads
	[ "$status" -ne 0 ]
	[[ $output == *"BOOT_ARCH must be x86_64, arm64, i386 or mips64el (got 'sparc')"* ]]
	BOOT_ARCH=sparc run ws build.sh series
	[[ $output == *"BOOT_ARCH must be x86_64, arm64, i386 or mips64el (got 'sparc')"* ]]
	run ws boot.sh arch-heads
	[ "$status" -ne 0 ]
	[[ $output == *"arch-heads boots another architecture than x86_64"* ]]
	ACCEL=kvm run arm64_heads
	[ "$status" -ne 0 ]
	[[ $output == *"ACCEL=kvm cannot run arm64 guests here"* ]]
	BOOT_ARCH=arm64 run ws boot.sh bench
	[ "$status" -ne 0 ]
	[[ $output == *"bench measures x86_64 only"* ]]
}

@test "an arm64 kernel that panics fails its boot, and a series that is not applied is named" {
	arm64_fixture panic
	mkdir -p "$SERIES_DIR/two"
	cp "$SERIES_DIR/one/"* "$SERIES_DIR/two/"
	run arm64_heads
	[ "$status" -ne 0 ]
	[[ $(results_row one 0 boot-arm64) == "fail "*"Kernel panic"* ]]
	[[ $(results_row one 2 boot-arm64) == "fail "*"Kernel panic"* ]]
	[[ $(results_row one 2 build-arm64) == pass* ]]
	[[ $output == *"series 'two' is not applied: no arm64 boot for it"* ]]
}

@test "qemu/configs/arm64.config has every option of smoke.config but the x86 ones" {
	# x86 only (arm64 boots an uncompressed Image), and the 8250 console:
	# arm64's console is the PL011.
	local x86_only=" CONFIG_IA32_EMULATION CONFIG_EARLY_PRINTK CONFIG_HYPERVISOR_GUEST CONFIG_PARAVIRT CONFIG_KVM_GUEST CONFIG_SERIAL_8250_CONSOLE CONFIG_KERNEL_LZ4 "
	local line missing=()
	while IFS= read -r line; do
		[[ $line == CONFIG_* ]] || continue
		[[ $x86_only == *" ${line%%=*} "* ]] && continue
		grep -qxF -- "$line" "$WS/qemu/configs/arm64.config" || missing+=("$line")
	done <"$WS/qemu/configs/smoke.config"
	[ "${#missing[@]}" -eq 0 ] || { printf 'not in arm64.config: %s\n' "${missing[@]}"; false; }
	grep -qx 'CONFIG_COMPAT=y' "$WS/qemu/configs/arm64.config"
}

@test "make help lists boot-arm64 and BOOT_ARCH" {
	run make -s -C "$WS" help WORKDIR="$WORKDIR"
	[ "$status" -eq 0 ]
	[[ $output == *"  boot-arm64 "*"arm64: build and boot the base and the head of each series"* ]]
	[[ $output == *"  BOOT_ARCH "* ]]
}

@test "the guest programs compile cleanly (-Wall -Werror) for arm64, and the 32-bit ones for arm, against the cross libcs' headers" {
	command -v aarch64-linux-gnu-gcc >/dev/null || skip "no aarch64-linux-gnu-gcc (make deps)"
	local t name
	a64_cc() {
		aarch64-linux-gnu-gcc -static -O2 -Wall -Werror -I "$FIXTURES/ktap/ksft" -o "$1" "$2" "${@:3}"
	}
	a64_cc "$BATS_TEST_TMPDIR/init" "$WS/qemu/init.c"
	a64_cc "$BATS_TEST_TMPDIR/not-built" "$WS/qemu/not-built.c" '-DWS_NOT_BUILT="not built: fixture"'
	for t in "$WS"/qemu/tests/*.c; do
		name=$(basename "$t" .c)
		[[ $name == *.m32 ]] && continue
		a64_cc "$BATS_TEST_TMPDIR/$name" "$t"
	done
	file "$BATS_TEST_TMPDIR/nsig_sizes" | grep -q 'ARM aarch64.*statically linked'
	# The 32-bit programs, for arm64's compat layer: 32-bit arm, static.
	command -v arm-linux-gnueabi-gcc >/dev/null || skip "no arm-linux-gnueabi-gcc (make deps)"
	for t in "$WS"/qemu/tests/*.m32.c; do
		name=$(basename "$t" .m32.c)
		arm-linux-gnueabi-gcc -static -O2 -Wall -Werror -I "$FIXTURES/ktap/ksft" \
			-o "$BATS_TEST_TMPDIR/${name}_32" "$t"
		file "$BATS_TEST_TMPDIR/${name}_32" | grep -q 'ELF 32-bit LSB executable, ARM, EABI5.*statically linked'
	done
}

@test "the matrix puts the arm64 stages after x86_64's" {
	arm64_fixture
	ws boot.sh series
	arm64_heads
	run ws matrix.sh
	# the header: commits by stages
	[ "$status" -eq 0 ]
	[[ $output == *"boot "*"build-arm64 boot-arm64"* ]]
}

@test "make help explains every variable the Makefile sets or the scripts validate" {
	run make -s -C "$WS" help WORKDIR="$WORKDIR"
	[ "$status" -eq 0 ]
	local v missing=()
	# The Makefile's own (VAR ?= ...) and those lib.sh checks by name.
	for v in $(sed -n 's/^\([A-Z][A-Z0-9_]*\) ?=.*/\1/p' "$WS/Makefile") \
		$(sed -n '/^validate_variables()/,/^}/p' "$WS/scripts/lib.sh" |
			sed -n -e 's/^[[:space:]]*for v in \(.*\); do$/\1/p' -e 's/.*\${\([A-Z][A-Z0-9_]*\).*/\1/p' | tr ' ' '\n' | sort -u); do
		grep -qE "^  ([A-Z0-9_]+, )?$v( |,|$)" <<<"$output" || missing+=("$v")
	done
	[ "${#missing[@]}" -eq 0 ] || { printf 'make help does not explain %s\n' "${missing[@]}"; false; }
}
