# shellcheck shell=bash
# shellcheck disable=SC2034 # the facts below are read by build.sh and boot.sh
# bootarch.sh: every fact build.sh and boot.sh need about the architecture
# they build and boot, BOOT_ARCH (x86_64 unless set), in this one file.
# Sourced after lib.sh, never executed.  The kernel's ARCH= and
# CROSS_COMPILE= of a cross architecture come from scripts/arches, the
# workspace's table of compilers; everything else is here.
#
# BOOT_ARCH, not ARCH: users export ARCH (and CROSS_COMPILE) for their own
# cross builds, and the workspace must not pick that up by accident.
#
#   BA_PREFIX    put before the config's name in the build, artifact and boot
#                directories ($WORKDIR/build/<prefix><config>, ...): empty
#                for x86_64 (build/smoke, artifacts/smoke, boots/smoke)
#   BA_KMAKE     make's ARCH= and CROSS_COMPILE= (none for x86_64: the host's)
#   BA_CC        the kernel's compiler (run through ccache)
#   BA_FRAGMENT  the config's own fragment under qemu/configs/, merged on
#                tinyconfig (debug.config goes on top of it for CONFIG=debug)
#   BA_TARGET, BA_IMAGE  the make target and the image it leaves under O=
#   BA_KERNEL    the image's name in an artifact directory
#   BA_QEMU      the QEMU binary (QEMU= overrides it)
#   BA_CONSOLE   the console's tty name on the kernel command line
#   BA_ACCELS    the accelerators that can run the guest here, best first
#   BA_GUEST_CC, BA_GUEST_FLAGS  the native guest programs' compiler
#                (GUEST_CC= overrides it) and the flags that make them the
#                kernel's native ABI (-m32 on i386)
#   BA_CC32, BA_FLAGS32  the compiler (empty: the guest programs' own) and
#                the flags that build a 32-bit guest program (*.m32.c, the
#                _32 half of an "m32" selftest) for the kernel's compat
#                layer, or on a 32-bit kernel its native one (GUEST_CC32=
#                overrides the compiler)
#   BA_CCN32, BA_FLAGSN32  MIPS's second 32-bit ABI, n32: where the compiler
#                is set, every 32-bit program is built a second time,
#                <name>_n32 (empty elsewhere; GUEST_CCN32= overrides it)
#   BA_ARCH32    the ARCH= of the 32-bit programs' uapi headers when they
#                are not the kernel's own (arm on arm64: build.sh installs
#                them into the artifact's headers32/); empty: headers/
#   BA_NO_M32    non-empty: no 32-bit program is built, and a stand-in that
#                skips with this reason takes its place
#   BA_NO_64     non-empty: the _64 half of an "m32" selftest is not built
#                (a 32-bit kernel), and a stand-in skips with this reason
#
# and qemu_machine_args, defined for BOOT_ARCH alone: a boot's key holds
# its text (boot.sh's boot_code), so another architecture's line changes
# no boot of this one.
#
# ARCH_BOOTS: the architectures make boots at the base and the head of each
# series beside x86_64 (scripts/all.sh; make boot-<arch> boots one).
ARCH_BOOTS=${ARCH_BOOTS-arm64}

# OTHER_BOOT_ARCHES: the architectures besides x86_64 this file knows.
OTHER_BOOT_ARCHES=(arm64 i386 mips64el)

# boot_arches_said [SEP]: OTHER_BOOT_ARCHES as words for a message,
# "arm64, i386 or mips64el" (SEP: "or"), or ", " between each.
boot_arches_said() {
	local list=${OTHER_BOOT_ARCHES[*]}
	list=${list// /, }
	[[ ${1:-} != or ]] || list="${list%, *} or ${list##*, }"
	echo "$list"
}

# check_arch_boots: each of ARCH_BOOTS is one of OTHER_BOOT_ARCHES (not
# x86_64: make boots it at every commit).
check_arch_boots() {
	local a
	for a in $ARCH_BOOTS; do
		[[ " ${OTHER_BOOT_ARCHES[*]} " == *" $a "* ]] ||
			die "ARCH_BOOTS: '$a' is not a boot architecture ($(boot_arches_said); x86_64 boots at every commit)"
	done
}
BOOT_ARCH=${BOOT_ARCH:-x86_64}

# arches_field NAME COLUMN: one field of scripts/arches' line for NAME.
arches_field() {
	awk -F'\t' -v n="$1" -v c="$2" '!/^#/ && $1 == n { print $c; found = 1; exit } END { exit !found }' \
		"$WS_ROOT/scripts/arches" || die "scripts/arches has no line for '$1'"
}

# What most architectures share; each case below sets what differs.
BA_PREFIX=$BOOT_ARCH-
BA_KMAKE=()
BA_FRAGMENT=$BOOT_ARCH.config
BA_QEMU=qemu-system-$BOOT_ARCH
BA_CONSOLE=ttyS0
# KVM runs only guests of the host's own architecture (x86's, 32-bit too).
BA_ACCELS=tcg
BA_GUEST_FLAGS=()
BA_CC32=""
BA_FLAGS32=()
BA_CCN32=""
BA_FLAGSN32=()
BA_ARCH32=""
BA_NO_M32=""
BA_NO_64=""

case $BOOT_ARCH in
x86_64 | i386)
	BA_CC=gcc
	BA_IMAGE=arch/x86/boot/bzImage
	BA_ACCELS="kvm tcg"
	BA_FLAGS32=(-m32)
	if [[ $BOOT_ARCH == x86_64 ]]; then
		BA_PREFIX=""
		BA_FRAGMENT=smoke.config
	else
		# A 32-bit kernel (ARCH=i386, the host's gcc): its native
		# programs are 32-bit (gcc -m32), the *.m32.c ones among them,
		# which WS_NATIVE_32BIT tells that there is no compat layer.
		BA_FLAGS32=(-m32 -DWS_NATIVE_32BIT)
		BA_KMAKE=(ARCH=i386)
		BA_GUEST_FLAGS=(-m32)
		BA_NO_64="no 64-bit user space on a 32-bit kernel"
	fi
	# qemu_machine_args ARRAY ACCEL CONSOLE KTAP_LOG: QEMU's machine,
	# CPU, memory and serial ports into ARRAY.  The console is the first
	# serial port, on QEMU's chardev CONSOLE ("file:PATH" for a batch
	# boot, "mon:stdio" for make shell); init writes KTAP to /dev/ttyS1,
	# the file KTAP_LOG, on every architecture.
	qemu_machine_args() {
		local -n _x86_args=$1
		_x86_args=(-accel "$2" -cpu "$([[ $2 == kvm ]] && echo host || echo max)" -m 1G
			-serial "$3" -serial "file:$4")
	}
	;;
arm64)
	BA_CROSS=$(arches_field arm64 3)
	BA_KMAKE=("ARCH=$(arches_field arm64 2)" "CROSS_COMPILE=$BA_CROSS")
	BA_CC=${BA_CROSS}gcc
	BA_IMAGE=arch/arm64/boot/Image
	BA_QEMU=qemu-system-aarch64
	BA_CONSOLE=ttyAMA0
	# 32-bit EL0 (CONFIG_COMPAT): static armel programs, with 32-bit
	# arm's own uapi headers from the same commit.
	BA_CC32=$(arches_field arm 3)gcc
	BA_ARCH32=$(arches_field arm 2)
	# The virt machine has one UART (PL011, ttyAMA0): KTAP goes to the
	# second port of a PCI 16550 pair, ttyS1 (ttyS0 has no backend).
	# cortex-a57 rather than max: "max" emulates pointer authentication
	# and SVE, several times slower in TCG.
	qemu_machine_args() {
		local -n _arm64_args=$1
		_arm64_args=(-M virt -accel "$2" -cpu cortex-a57 -m 1G -serial "$3"
			-chardev "file,id=ws-ktap,path=$4" -device "pci-serial-2x,chardev2=ws-ktap")
	}
	;;
mips64el)
	# QEMU's Malta board with a 64-bit little-endian kernel (the mips
	# line of scripts/arches is big-endian: its compiler cannot build
	# this one) and both 32-bit ABIs: o32 (Debian's mipsel) and n32.
	BA_CROSS=mips64el-linux-gnuabi64-
	BA_KMAKE=(ARCH=mips "CROSS_COMPILE=$BA_CROSS")
	BA_CC=${BA_CROSS}gcc
	BA_IMAGE=vmlinux
	BA_CC32=mipsel-linux-gnu-gcc
	BA_CCN32=${BA_CROSS}gcc
	BA_FLAGSN32=(-mabi=n32)
	# Malta's first two 16550s (the PIIX4's, ttyS0 and ttyS1); 256 MiB,
	# the memory its firmware interface maps below the I/O hole.
	qemu_machine_args() {
		local -n _mips_args=$1
		_mips_args=(-M malta -accel "$2" -cpu MIPS64R2-generic -m 256M -serial "$3" -serial "file:$4")
	}
	;;
*) die "BOOT_ARCH must be x86_64, $(boot_arches_said or) (got '$BOOT_ARCH')" ;;
esac
# Derived: the make target and the artifact's name are the image's name,
# and the guest programs' compiler is the kernel's.
BA_TARGET=${BA_IMAGE##*/}
BA_KERNEL=$BA_TARGET
BA_GUEST_CC=$BA_CC

# arch_stage STAGE: the results.tsv stage name of STAGE on BOOT_ARCH:
# x86_64's are the plain names (build, boot, boot-debug), another
# architecture's carry its name (build-arm64, boot-arm64).
arch_stage() {
	if [[ $BOOT_ARCH == x86_64 ]]; then echo "$1"; else echo "$1-$BOOT_ARCH"; fi
}
