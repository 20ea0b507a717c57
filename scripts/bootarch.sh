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
#   BA_GUEST_CC  the guest programs' compiler (GUEST_CC= overrides it)
#   BA_CC32, BA_FLAGS32  the compiler (empty: the guest programs' own) and
#                the flags that build a 32-bit guest program (*.m32.c, the
#                _32 half of an "m32" selftest) for the kernel's compat
#                layer (GUEST_CC32= overrides the compiler)
#   BA_ARCH32    the ARCH= of the 32-bit programs' uapi headers when they
#                are not the kernel's own (arm on arm64: build.sh installs
#                them into the artifact's headers32/); empty: headers/
#   BA_NO_M32    non-empty: no 32-bit program is built, and a stand-in that
#                skips with this reason takes its place
BOOT_ARCH=${BOOT_ARCH:-x86_64}

# arches_field NAME COLUMN: one field of scripts/arches' line for NAME.
arches_field() {
	awk -F'\t' -v n="$1" -v c="$2" '!/^#/ && $1 == n { print $c; found = 1; exit } END { exit !found }' \
		"$WS_ROOT/scripts/arches" || die "scripts/arches has no line for '$1'"
}

case $BOOT_ARCH in
x86_64)
	BA_PREFIX=""
	BA_KMAKE=()
	BA_CC=gcc
	BA_FRAGMENT=smoke.config
	BA_TARGET=bzImage
	BA_IMAGE=arch/x86/boot/bzImage
	BA_KERNEL=bzImage
	BA_QEMU=qemu-system-x86_64
	BA_CONSOLE=ttyS0
	BA_ACCELS="kvm tcg"
	BA_GUEST_CC=gcc
	BA_CC32=""
	BA_FLAGS32=(-m32)
	BA_ARCH32=""
	BA_NO_M32=""
	;;
arm64)
	BA_PREFIX=arm64-
	BA_CROSS=$(arches_field arm64 3)
	BA_KMAKE=("ARCH=$(arches_field arm64 2)" "CROSS_COMPILE=$BA_CROSS")
	BA_CC=${BA_CROSS}gcc
	BA_FRAGMENT=arm64.config
	BA_TARGET=Image
	BA_IMAGE=arch/arm64/boot/Image
	BA_KERNEL=Image
	BA_QEMU=qemu-system-aarch64
	BA_CONSOLE=ttyAMA0
	# KVM runs only guests of the host's own architecture.
	BA_ACCELS=tcg
	BA_GUEST_CC=${BA_CROSS}gcc
	# 32-bit EL0 (CONFIG_COMPAT): static armel programs, with 32-bit
	# arm's own uapi headers from the same commit.
	BA_CC32=$(arches_field arm 3)gcc
	BA_FLAGS32=()
	BA_ARCH32=$(arches_field arm 2)
	BA_NO_M32=""
	;;
*) die "BOOT_ARCH must be x86_64 or arm64 (got '$BOOT_ARCH')" ;;
esac

# arch_stage STAGE: the results.tsv stage name of STAGE on BOOT_ARCH:
# x86_64's are the plain names (build, boot, boot-debug), another
# architecture's carry its name (build-arm64, boot-arm64).
arch_stage() {
	if [[ $BOOT_ARCH == x86_64 ]]; then echo "$1"; else echo "$1-$BOOT_ARCH"; fi
}

# qemu_machine_args ARRAY ACCEL CONSOLE KTAP_LOG: QEMU's machine, CPU
# and serial ports for BOOT_ARCH into ARRAY.  The console is the first
# serial port, on QEMU's chardev CONSOLE ("file:PATH" for a batch boot,
# "mon:stdio" for make shell); init writes KTAP to /dev/ttyS1, the file
# KTAP_LOG, on every architecture.
qemu_machine_args() {
	local -n _args=$1
	local accel=$2 console=$3 ktap=$4
	case $BOOT_ARCH in
	x86_64)
		_args=(-accel "$accel" -cpu "$([[ $accel == kvm ]] && echo host || echo max)"
			-serial "$console" -serial "file:$ktap")
		;;
	arm64)
		# The virt machine has one UART (PL011, ttyAMA0): KTAP goes
		# to the second port of a PCI 16550 pair, ttyS1 (ttyS0 has no
		# backend).  cortex-a57 rather than max: "max" emulates
		# pointer authentication and SVE, several times slower in TCG.
		_args=(-M virt -accel "$accel" -cpu cortex-a57
			-serial "$console"
			-chardev "file,id=ws-ktap,path=$ktap" -device "pci-serial-2x,chardev2=ws-ktap")
		;;
	esac
}
