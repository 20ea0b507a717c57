#!/usr/bin/env bash
# guest.sh: one commit's kernel booted by hand, as virtme-ng's vng does.
#
#   make shell SERIES=<s> [COMMIT=<i>]           guest.sh shell
#   make run SERIES=<s> [COMMIT=<i>] CMD='...'   guest.sh run
#
# COMMIT is the commit's index in the series (0 is its base; the default is
# its head).  The kernel is the commit's smoke build (built unless cached)
# and the initramfs its guest programs (/tests, as make boots them, with
# the host's busybox-static as /bin/busybox and its applets); KVM when the
# probe boot works.  qemu/init.c runs no test: ws.mode=shell gives an
# interactive shell on the console (your terminal; Ctrl-A X quits QEMU,
# `exit` reboots the guest), ws.mode=run runs CMD with /bin/busybox sh and
# reports its exit status, which guest.sh exits with (128+N for a signal,
# 125 when the guest reported none within BOOT_TIMEOUT) and make run
# fails with (make's own status is 2) and names.  x86-64 only: the
# guest's shell is the host's busybox.
#
# Only the preparation (build, initramfs, accelerator) holds the workspace
# lock, in a child (guest.sh prepare SHA); the session does not, so a make
# can run beside a shell.  The session's files are in
# $WORKDIR/sessions/<commit>/ (console.log for make run, ktap.log).
set -euo pipefail
# shellcheck source=scripts/boot.sh
source "$(dirname "$0")/boot.sh"

SESSIONS=$WORKDIR/sessions

# commit_of SERIES INDEX: the sha of the commit at INDEX of SERIES (its
# head when INDEX is empty), checked.
commit_of() {
	local series=$1 index=$2 rows last
	check_series "$series"
	rows=$(series_commits "$series") || exit 1
	last=$(($(wc -l <<<"$rows") - 1))
	[[ -n $index ]] || index=$last
	if [[ ! $index =~ ^[0-9]{1,4}$ ]] || ((index > last)); then
		die "COMMIT must be the index of a commit of $series, 0 (its base) to $last (got '$index')"
	fi
	awk -v i="$index" '$1 == i { print $2 }' <<<"$rows"
}

# cmd_prepare SHA: under the lock, the kernel, the session directory with
# the initramfs, and the accelerator; prints "ART DIR ACCEL".
cmd_prepare() {
	local sha=$1 dir accel
	require_tree
	take_lock
	command -v "$QEMU" >/dev/null || die "$QEMU not found: run 'make deps'"
	require_scale_out
	artifact_build "$sha" "${sha:0:12}, $BA_PREFIX$CONFIG config" >&2 ||
		die "the workspace could not build ${sha:0:12}"
	[[ $(cut -d' ' -f1 "$ART/result") == pass ]] ||
		die "the kernel of ${sha:0:12} does not build: see $ART/build.log"
	dir=$SESSIONS/${sha:0:12}
	{ rm -rf "$dir" && mkdir -p "$dir"; } || die "cannot make $dir"
	build_initramfs "$ART" "$dir" "$sha" >&2 ||
		die "the guest programs of ${sha:0:12} do not compile: see $dir/guest-build.log"
	accel=$(probe_accel "$ART/$BA_KERNEL") || exit 1
	printf '%s %s %s\n' "$ART" "$dir" "$accel"
}

# run_cpio DIR: DIR/initrd, the commit's initramfs with a second archive
# appended that holds /ws/run.sh (CMD); the kernel unpacks both.
run_cpio() {
	local dir=$1
	printf '%s\n' "$CMD" >"$dir/run.sh"
	printf '%s\n' "dir /ws 755 0 0" "file /ws/run.sh $dir/run.sh 755 0 0" >"$dir/run.list"
	gen_init_cpio "$dir/run.list" >"$dir/run.cpio" || die "gen_init_cpio could not make $dir/run.cpio"
	cat "$dir/initramfs.cpio" "$dir/run.cpio" >"$dir/initrd" || die "cannot write $dir/initrd"
}

# session MODE ART DIR ACCEL: QEMU with the console on this terminal.
session() {
	local mode=$1 art=$2 dir=$3 accel=$4 initrd=$3/initramfs.cpio console=stdio rc=0
	local -a limit=() machine
	if [[ $mode == run ]]; then
		run_cpio "$dir"
		initrd=$dir/initrd
		limit=(timeout -k 5 "$BOOT_TIMEOUT")
	else
		# Ctrl-C goes to the guest's shell; Ctrl-A X quits QEMU.
		console=mon:stdio
	fi
	: >"$dir/ktap.log"
	qemu_machine_args machine "$accel" "$console" "$dir/ktap.log"
	"${limit[@]}" setpriv --pdeathsig KILL -- "$QEMU" "${machine[@]}" -nodefaults -display none -no-reboot \
		-kernel "$art/$BA_KERNEL" -initrd "$initrd" \
		-append "console=$BA_CONSOLE panic=-1 quiet ws.mode=$mode $(kernel_cmdline "$art")" || rc=$?
	local said st
	said=$(sed -n 's/^# ws-run: //p' "$dir/ktap.log" | tail -n1)
	case $said in
	"exit "*) st=${said#exit } ;;
	"signal "*) st=$((128 + ${said#signal })) ;;
	esac
	if [[ -n ${st:-} ]]; then
		# make itself exits 2 for any failing recipe: the status is said.
		((st == 0)) || progress "$mode" "the guest's ${mode/run/command} ended with $said (guest.sh exits $st)"
		return "$st"
	fi
	warn "the guest reported no exit status (QEMU exit $rc$( ((rc != 124)) || echo ": BOOT_TIMEOUT=${BOOT_TIMEOUT}s passed")); logs in $dir"
	return 125
}

guest_main() {
	local mode=${1:-} sha out art dir accel
	case $mode in
	prepare)
		cmd_prepare "${2:?usage: guest.sh prepare SHA}"
		return
		;;
	shell | run) ;;
	*) die "usage: guest.sh shell | run (make shell SERIES=<s> [COMMIT=<i>], make run ... CMD='...')" ;;
	esac
	[[ $BOOT_ARCH == x86_64 ]] ||
		die "make $mode boots x86-64 guests only (the guest's shell is the host's busybox); BOOT_ARCH=$BOOT_ARCH"
	[[ -n ${SERIES:-} && $SERIES != *,* ]] || die "make $mode works on one series: make $mode SERIES=<name>"
	[[ $mode == shell || -n ${CMD:-} ]] || die "make run needs CMD='<command>' to run in the guest"
	require_tree
	sha=$(commit_of "$SERIES" "${COMMIT:-}")
	progress "$mode" "$SERIES ${sha:0:12} $(git_tree log -1 --format=%s "$sha")"
	out=$(bash "$WS_ROOT/scripts/guest.sh" prepare "$sha") || exit 1
	read -r art dir accel <<<"$out"
	progress "$mode" "accelerator: $accel; logs in $dir"
	[[ $mode == run ]] || progress shell "a shell in the guest: exit to leave (Ctrl-A X quits QEMU at once)"
	session "$mode" "$art" "$dir" "$accel"
}

guest_main "$@"
