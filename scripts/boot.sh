#!/usr/bin/env bash
# boot.sh: boot commits in QEMU and run the guest tests (make boot-test).
#
#   boot.sh series           boot the base and every commit of each series
#   boot.sh heads            boot each series head on the debug config
#   boot.sh heads-build      only build those debug kernels
#   boot.sh bench            pty receive throughput, base against head
#   boot.sh arch-heads       BOOT_ARCH=arm64, i386 or mips64el: build and
#                            boot the base and the head of each series on
#                            that architecture (make boot-<arch>; stages
#                            build-<arch>, boot-<arch>)
#   boot.sh arch-builds      only the builds of arch-heads
#   boot.sh arch-boots       only its boots
#   boot.sh commit SHA       build and boot one commit (make bisect TEST=...);
#                            prints its directory of logs; its row goes to
#                            $WORKDIR/bisect/results.tsv, not to the report
#
# BOOT_ARCH (x86_64 unless set; scripts/bootarch.sh) is the architecture
# booted.  Another architecture's boots keep their own directories
# (boots/<arch>-<config>) and stage names (boot-<arch>).  SERIES selects the
# series.  BOOT_PREBUILT=1 boots only kernels already built, and builds
# none (all.sh's boots beside the builds).
# Each commit boots its own bzImage with an initramfs built for it: a static
# init (qemu/init.c), the guest tests (qemu/tests/*.c) and the tree's own
# selftests listed in qemu/kselftests where the commit has them, compiled
# against that commit's `make headers_install` and kselftest.h.  init writes KTAP to
# the second serial port; the first is the console.  qemu/ktap-verdict
# judges both.  KVM is used only when a real probe boot succeeds.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/bootarch.sh
source "$(dirname "$0")/bootarch.sh"
# shellcheck source=scripts/buildlib.sh
source "$(dirname "$0")/buildlib.sh"

QEMU=${QEMU:-$BA_QEMU}
ACCEL=${ACCEL:-auto}
BOOT_TIMEOUT=${BOOT_TIMEOUT:-300}
TEST_TIMEOUT=${TEST_TIMEOUT:-120}
GUEST_CC=${GUEST_CC:-$BA_GUEST_CC}
BOOTS=$WORKDIR/boots
# Passing boots by boot_key: a boot identical to one of them is not run
# again unless FRESH=1.
BOOT_CACHE=$WORKDIR/boot-cache

# probe_accel KERNEL: "kvm" if a real boot under KVM gets as far as the
# kernel's banner within a few seconds, else "tcg"; the answer is kept in
# $WORKDIR/accel-probe/ by probe_key.
probe_accel() {
	local kernel=$1 log
	case $ACCEL in
	kvm | tcg)
		[[ " $BA_ACCELS " == *" $ACCEL "* ]] ||
			die "ACCEL=$ACCEL cannot run $BOOT_ARCH guests here (only $BA_ACCELS: KVM runs only guests of the host's architecture)"
		echo "$ACCEL"
		return 0
		;;
	auto) ;;
	*) die "ACCEL must be auto, kvm or tcg (got '$ACCEL')" ;;
	esac
	if [[ " $BA_ACCELS " != *" kvm "* ]]; then
		echo tcg
		return 0
	fi
	local key answer
	key=$(probe_key) || return 1
	answer=$WORKDIR/accel-probe/$key
	if [[ ${FRESH:-0} != 1 ]] && grep -qxE 'kvm|tcg' "$answer" 2>/dev/null; then
		cat "$answer"
		return 0
	fi
	log=$(mktemp)
	timeout -k 2 "${KVM_PROBE_TIMEOUT:-8}" setpriv --pdeathsig KILL -- "$QEMU" -accel kvm -cpu host -m 256 \
		-nodefaults -display none -no-reboot -serial "file:$log" -kernel "$kernel" \
		-append "console=ttyS0 panic=-1 rdinit=/ws-probe-no-such-init" >/dev/null 2>&1 || true
	local verdict=tcg
	if grep -q 'Linux version' "$log"; then verdict=kvm; fi
	rm -f "$log"
	echo "$verdict"
	{ mkdir -p "${answer%/*}" && echo "$verdict" >"$answer.tmp.$BASHPID" && mv "$answer.tmp.$BASHPID" "$answer"; } 2>/dev/null ||
		warn "could not keep the accelerator probe's answer in $answer (it probes again next time)"
}

# probe_key: what the probe's answer is a function of, so that it is made
# once per boot of this machine and not once per boot.sh: the host's boot
# (KVM's modules come and go only within one), /dev/kvm (its node, mode and
# owner, and whether this user may open it), the user's groups and QEMU.
# FRESH=1 probes again.
probe_key() {
	qemu_key_once || return 1
	key_from 16 --run kvm_facts --text "$QEMU_KEY"
}

# kvm_facts: the host's boot, /dev/kvm and the user's groups, a line each.
kvm_facts() {
	cat /proc/sys/kernel/random/boot_id 2>/dev/null || echo "no boot id"
	stat -L -c '%i %t:%T %a %u:%g' /dev/kvm 2>/dev/null || echo "no /dev/kvm"
	if [[ -r /dev/kvm && -w /dev/kvm ]]; then echo "rw"; else echo "not rw"; fi
	id -G
}

# guest_cc OUT SRC HEADERS KSFT [FLAGS...]: compile one guest program for
# the kernel's native ABI (BA_GUEST_FLAGS last), static.
guest_cc() {
	local out=$1 src=$2 hdr=$3 ksft=$4
	"$GUEST_CC" -static -O2 -Wall -isystem "$hdr" -I "$ksft" -o "$out" "$src" "${@:5}" "${BA_GUEST_FLAGS[@]}"
}

# guest_cc32 OUT SRC HEADERS KSFT [FLAGS...]: compile one 32-bit guest
# program (BOOT_ARCH's BA_CC32 and BA_FLAGS32), static, against HEADERS.
guest_cc32() {
	local cc=${GUEST_CC32:-${BA_CC32:-$GUEST_CC}}
	"$cc" -static -O2 -Wall -isystem "$3" -I "$4" -o "$1" "$2" "${@:5}" "${BA_FLAGS32[@]}"
}

# guest_m32 OUT SUFFIX SRC HEADERS HEADERS32 KSFT [FLAGS...]: SRC's 32-bit
# guest programs: OUT_32SUFFIX (guest_cc32, against HEADERS32) and, where
# BOOT_ARCH has n32 (BA_CCN32), OUT_n32SUFFIX against HEADERS; where it
# builds none (BA_NO_M32), the not_built stand-in OUT_32, against HEADERS
# (a stand-in prints KTAP: no SUFFIX such as ".plain").
guest_m32() {
	local out=$1 sfx=$2 src=$3 hdr=$4 hdr32=$5 ksft=$6
	if [[ -n $BA_NO_M32 ]]; then
		not_built "${out}_32" "$BA_NO_M32" "$hdr" "$ksft"
		return
	fi
	guest_cc32 "${out}_32$sfx" "$src" "$hdr32" "$ksft" "${@:7}" || return 1
	[[ -z $BA_CCN32 ]] ||
		"${GUEST_CCN32:-$BA_CCN32}" -static -O2 -Wall -isystem "$hdr" -I "$ksft" -o "${out}_n32$sfx" "$src" "${@:7}" \
			"${BA_FLAGSN32[@]}"
}

# headers32 ART: the uapi headers of ART's 32-bit programs.
headers32() {
	if [[ -n $BA_ARCH32 ]]; then echo "$1/headers32"; else echo "$1/headers"; fi
}

# KSFT_DIR: where the staged tree keeps kselftest.h and the selftests.
KSFT_DIR=tools/testing/selftests

# kselftest_entries: qemu/kselftests without comments, one test a line:
# PATH [plain] [m32] [needs=TREE_PATH[,TREE_PATH...]] [arch=ARCH[,ARCH...]]
# [extra=FILE[,FILE...]] [extra32=FILE[,FILE...]] [include=TREE_DIR[,...]].
kselftest_entries() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$WS_ROOT/qemu/kselftests"
}

# stage_selftests SHA DIR: stage_selftests_at's files of commit SHA, copied
# into DIR from $WORKDIR/guest/stage-<key>/, where they are staged once per
# key: what they are read from (the trees of the selftests and of
# tools/include, and the needs= files, by git's ids) and qemu/kselftests'
# entries.  Most commits share it, and a boot that finds it runs no git
# command per staged file.  Two boots at once may stage one key together:
# each in a directory of its own, the first to finish publishes it.
stage_selftests() {
	local sha=$1 dir=$2 key cache tmp
	local -a needs
	mapfile -t needs < <(kselftest_entries | sed -n 's/.*needs=\([^ ]*\).*/\1/p' | tr , '\n' | LC_ALL=C sort -u)
	key=$(key_from 16 --run git_tree ls-tree "$sha" -- "$KSFT_DIR" tools/include "${needs[@]}" \
		--run kselftest_entries) || return 1
	cache=$WORKDIR/guest/stage-$key
	if [[ ! -d $cache ]]; then
		tmp=$cache.tmp.$BASHPID
		{ rm -rf "$tmp" && mkdir -p "$tmp"; } || return 1
		stage_selftests_at "$sha" "$tmp"
		publish_dir "$tmp" "$cache" || return 1
	fi
	cp -a "$cache/." "$dir/"
}

# stage_selftests_at SHA DIR: the tree's own selftests that the workspace
# runs (qemu/kselftests), the headers of their directories, and the other
# tree files they include (needs=), as they are at commit SHA, copied into
# DIR at their paths in the tree, so that their "helpers.h",
# "../kselftest.h" and "../../../../arch/..." includes resolve.  A listed
# test the commit does not have yet is left out: it does not apply there.
stage_selftests_at() {
	local sha=$1 dir=$2 path opts f
	local -a files headers
	while read -r path opts; do
		git_tree cat-file -e "$sha:$KSFT_DIR/$path" 2>/dev/null || continue
		# The directory's headers by git's -z list (a name is never split
		# or quoted), and the needs= files.
		mapfile -d '' -t files < <(git_tree ls-tree -z --name-only "$sha" "$KSFT_DIR/$(dirname "$path")/")
		headers=()
		for f in "${files[@]}"; do
			[[ $f != *.h ]] || headers+=("$f")
		done
		for f in "$KSFT_DIR/$path" "${headers[@]}" $(sed -n 's/.*needs=\([^ ]*\).*/\1/p' <<<"$opts" | tr , ' '); do
			git_tree cat-file -e "$sha:$f" 2>/dev/null ||
				die "qemu/kselftests: $path needs $f, which commit ${sha:0:12} does not have"
			mkdir -p "$dir/$(dirname "$f")"
			git_tree show "$sha:$f" >"$dir/$f"
		done
		# The extra sources, where the commit has them (an older tree's
		# test may not need one yet).
		for f in $(selftest_extra "$opts" extra) $(selftest_extra "$opts" extra32); do
			f=$(realpath -m -s --relative-to=/ "/$KSFT_DIR/$(dirname "$path")/$f")
			git_tree cat-file -e "$sha:$f" 2>/dev/null || continue
			mkdir -p "$dir/$(dirname "$f")"
			git_tree show "$sha:$f" >"$dir/$f"
		done
	done < <(kselftest_entries)
}

# selftest_extra OPTS NAME: the files of a qemu/kselftests entry's NAME=
# option (extra, extra32), one a line.
selftest_extra() {
	sed -n "s/.*[[:space:]]$2=\([^[:space:]]*\).*/\1/p" <<<" $1 " | tr , '\n'
}

# selftest_sources STAGE PATH OPTS NAME: the extra sources of NAME= (as
# selftest_extra) that stage_selftests staged beside PATH, as paths; for
# NAME include, the -I options of its tree directories under STAGE.
selftest_sources() {
	local f
	for f in $(selftest_extra "$3" "$4"); do
		if [[ $4 == include ]]; then
			printf '%s\n' -I "$1/$f"
			continue
		fi
		f=$1/$KSFT_DIR/$(dirname "$2")/$f
		[[ ! -f $f ]] || echo "$f"
	done
}

# selftest_arches OPTS: the arch= values of a qemu/kselftests entry,
# comma-separated; empty when it runs on every architecture.
selftest_arches() {
	sed -n 's/.*[[:space:]]arch=\([^[:space:]]*\).*/\1/p' <<<" $1 "
}

# not_built OUT REASON HEADERS KSFT: in place of a guest program this
# architecture does not build, a stand-in (qemu/not-built.c) that skips as
# a whole with REASON: the absence shows in the KTAP, and qemu/expected-skips
# must allow it like any other skip.
not_built() {
	guest_cc "$1" "$WS_ROOT/qemu/not-built.c" "$3" "$4" "-DWS_NOT_BUILT=\"$2\""
}

# compile_guest TMP ART KSFT FAILS: the workspace's tests (qemu/tests/) and
# the staged selftests (compile_selftests) into TMP/tests, against ART's
# headers, one program per core at once (guest_pool): false when one did
# not compile (each named in FAILS).  Run in a subshell of its own: it
# waits for every job of its shell.
compile_guest() {
	local tmp=$1 art=$2 ksft=$3 fails=$4 t name
	local -a links
	for t in "$WS_ROOT"/qemu/tests/*.c; do
		name=$(basename "$t" .c)
		if [[ $name == *.m32 ]]; then
			guest_pool "$fails" guest_m32 "$tmp/tests/${name%.m32}" "" "$t" "$art/headers" "$(headers32 "$art")" "$ksft"
		else
			mapfile -t links < <(guest_links "$t")
			guest_pool "$fails" guest_cc "$tmp/tests/$name" "$t" "$art/headers" "$ksft" "${links[@]}"
		fi
	done
	compile_selftests "$tmp/ksft" "$art/headers" "$(headers32 "$art")" "$tmp/tests" "$fails"
	guest_pool_wait "$fails"
}

# guest_pool FAILS CMD...: CMD in the background, at most one per core at
# once (GUEST_RUNNING counts those this shell started); when it fails,
# its first argument (the program) is appended to FAILS.  guest_pool_wait
# FAILS waits for every job of the shell: false if any failed.  The guest
# programs are some forty static links, each one core's work.
GUEST_RUNNING=0
guest_pool() {
	local fails=$1
	shift
	if ((GUEST_RUNNING >= $(nproc))); then
		wait -n || true
		GUEST_RUNNING=$((GUEST_RUNNING - 1))
	fi
	{ "$@" || echo "$2" >>"$fails"; } &
	GUEST_RUNNING=$((GUEST_RUNNING + 1))
}

guest_pool_wait() {
	wait
	GUEST_RUNNING=0
	[[ ! -s $1 ]]
}

# compile_selftests STAGE HEADERS HEADERS32 OUT FAILS: each staged selftest into
# OUT as selftest-<dir>-<name>, with _32 and _64 variants for "m32" entries
# (the _32 one against HEADERS32) and a ".plain" suffix (qemu/init.c) for
# those that do not print KTAP; with the extra sources an entry names
# (extra= for the 64-bit build, extra32= for the 32-bit one) linked in and
# its include= directories on -I.  An entry for other architectures
# (arch=), or the half BOOT_ARCH builds no program for (BA_NO_M32,
# BA_NO_64), becomes a not_built stand-in.  Each compile goes to guest_pool
# (FAILS).
compile_selftests() {
	local stage=$1 hdr=$2 hdr32=$3 out=$4 fails=$5 path opts name suffix arches
	local -a extra extra32
	while read -r path opts; do
		[[ -f $stage/$KSFT_DIR/$path ]] || continue
		name=selftest-${path%.c}
		name=${name//\//-}
		suffix=
		[[ " $opts " == *" plain "* ]] && suffix=.plain
		arches=$(selftest_arches "$opts")
		mapfile -t extra < <(selftest_sources "$stage" "$path" "$opts" include
			selftest_sources "$stage" "$path" "$opts" extra)
		mapfile -t extra32 < <(selftest_sources "$stage" "$path" "$opts" include
			selftest_sources "$stage" "$path" "$opts" extra32)
		if [[ -n $arches && ",$arches," != *",$BOOT_ARCH,"* ]]; then
			local why="not built: a selftest for $arches only, and this is an $BOOT_ARCH kernel (qemu/kselftests)" v
			if [[ " $opts " == *" m32 "* ]]; then
				for v in 64 32 ${BA_CCN32:+n32}; do
					guest_pool "$fails" not_built "$out/${name}_$v" "$why" "$hdr" "$stage/$KSFT_DIR"
				done
			else
				guest_pool "$fails" not_built "$out/$name" "$why" "$hdr" "$stage/$KSFT_DIR"
			fi
		elif [[ " $opts " == *" m32 "* ]]; then
			if [[ -n $BA_NO_64 ]]; then
				guest_pool "$fails" not_built "$out/${name}_64" "not built: $BA_NO_64" "$hdr" "$stage/$KSFT_DIR"
			else
				guest_pool "$fails" guest_cc "$out/${name}_64$suffix" "$stage/$KSFT_DIR/$path" "$hdr" "$stage/$KSFT_DIR" \
					"${extra[@]}" -pthread
			fi
			guest_pool "$fails" guest_m32 "$out/$name" "$suffix" "$stage/$KSFT_DIR/$path" "$hdr" "$hdr32" "$stage/$KSFT_DIR" \
				"${extra32[@]}" -pthread
		else
			guest_pool "$fails" guest_cc "$out/$name$suffix" "$stage/$KSFT_DIR/$path" "$hdr" "$stage/$KSFT_DIR" \
				"${extra[@]}" -pthread
		fi
	done < <(kselftest_entries)
}

# guest_links SRC: the flags a guest test is compiled with beyond
# guest_cc's, from its "ws-link: LIB.a FLAGS..." lines: where the guest's
# compiler has LIB.a, -DWS_HAVE_<LIB> (LIB in capitals, "lib" dropped) and
# FLAGS; where it has not, nothing, and the test says what it could not do.
guest_links() {
	local lib rest a
	local -a flags
	while read -r lib rest; do
		a=$(cc_lib "$GUEST_CC" "$lib" "${BA_GUEST_FLAGS[@]}") || continue
		read -r -a flags <<<"$rest"
		lib=${lib%.a}
		lib=${lib#lib}
		printf '%s\n' "-DWS_HAVE_LIB${lib^^}" "${flags[@]}"
	done < <(sed -n 's/^[[:space:]/*]*ws-link:[[:space:]]*//p' "$1")
}

# guest_links_key: the libraries the ws-link: lines name, by content, as
# the guest's compiler finds them (a libgc-dev upgrade changes the tests
# that link it).
guest_links_key() {
	local lib a
	sed -n 's/^[[:space:]/*]*ws-link:[[:space:]]*\([^[:space:]]*\).*/\1/p' "$WS_ROOT"/qemu/tests/*.c |
		LC_ALL=C sort -u | while read -r lib; do
		if a=$(cc_lib "$GUEST_CC" "$lib" "${BA_GUEST_FLAGS[@]}"); then
			echo "$lib $(file_sums "$a")"
		else
			echo "$lib: not found"
		fi
	done
}

# facts NAME...: the named variables' values as declare -p prints them, but
# with the same export attribute however boot.sh was started: make exports
# BOOT_ARCH and nothing else of these, and a run of boot.sh by hand, which
# exports nothing, must key its boots as make's do.
facts() {
	declare -p "$@" | sed -E -e 's/^declare -([a-wyzA-Z]*)x([a-zA-Z]*) /declare -\1\2 /' \
		-e 's/^declare - /declare -- /' -e 's/^declare -- BOOT_ARCH=/declare -x BOOT_ARCH=/'
}

# guest_code: how the guest programs are built: the code of the functions
# that compile and pack them (declare -f: no comments, one layout) and
# bootarch.sh's facts they use, not all of boot.sh (an edit elsewhere in it
# builds nothing again).
guest_code() {
	declare -f guest_cc guest_cc32 guest_m32 headers32 guest_links cc_lib not_built \
		kselftest_entries stage_selftests stage_selftests_at selftest_arches selftest_extra selftest_sources compile_selftests \
		compile_guest guest_pool guest_pool_wait build_initramfs publish_initramfs gen_init_cpio
	facts BOOT_ARCH BA_GUEST_CC BA_GUEST_FLAGS BA_CC32 BA_FLAGS32 BA_CCN32 BA_FLAGSN32 \
		BA_ARCH32 BA_NO_M32 BA_NO_64 KSFT_DIR
}

# guest_key ART KSFT: what the guest programs are a function of: the
# commit's uapi headers, kselftest.h and selftests (staged in KSFT), the
# workspace's guest sources, and guest_fixed_key.  Commits that touch
# neither the uapi nor the selftests share one initramfs.
guest_key() {
	local art=$1 ksft=$2
	local -a h32=()
	[[ -z $BA_ARCH32 ]] || h32=(--run tree_sums "$art/headers32")
	key_from 16 --run tree_sums "$art/headers" --run tree_sums "$ksft" \
		--files "$WS_ROOT/qemu/init.c" "$WS_ROOT/qemu/kselftests" "$WS_ROOT/qemu/not-built.c" \
		"$WS_ROOT"/qemu/tests/*.[ch] \
		--text "$GUEST_FIXED_KEY" "${h32[@]}"
}

# tree_sums DIR: the SHA-256 of every file under DIR, as sha256sum prints
# them, by their paths from DIR, sorted.  A directory of a kept artifact
# ($ARTIFACTS/...: made whole in a .tmp directory and renamed into place,
# never written after) is hashed once: its sums are kept as
# $WORKDIR/digests/<DIR>/tree-<DIR's stat>, as stat_digest keeps a file's
# digest, so that the boots of a warm run do not hash each kernel's
# thousands of headers again.
tree_sums() {
	local dir=$1 st
	if [[ $dir == "$ARTIFACTS"/* ]] && st=$(stat -c '%.9Y-%.9Z-%i-%d' -- "$dir" 2>/dev/null); then
		keep_output "$WORKDIR/digests$dir/tree-$st" tree_sums_of "$dir"
	else
		tree_sums_of "$dir"
	fi
}

# guest_fixed_key: the part of guest_key that is the same for every commit:
# how the guest programs are built (guest_code), the compilers, and the C
# library and the other libraries (ws-link:) linked into them and the
# guest's shell, each by its content.
guest_fixed_key() {
	local -a m32=()
	if [[ -z $BA_NO_M32 ]]; then
		m32=(--run libc_key "${GUEST_CC32:-${BA_CC32:-$GUEST_CC}}" "${BA_FLAGS32[@]}")
		[[ -z $BA_CCN32 ]] || m32+=(--run libc_key "${GUEST_CCN32:-$BA_CCN32}" "${BA_FLAGSN32[@]}")
	fi
	key_from 16 --run guest_code --run libc_key "$GUEST_CC" "${BA_GUEST_FLAGS[@]}" \
		--run guest_links_key --run guest_shell_key "${m32[@]}"
}

# guest_fixed_once: GUEST_FIXED_KEY, made once per boot.sh (build_initramfs
# calls it before the command substitution that reads it).
guest_fixed_once() {
	[[ -n ${GUEST_FIXED_KEY:-} ]] || GUEST_FIXED_KEY=$(guest_fixed_key) || return 1
}

# cc_lib CC LIB [FLAGS...]: the path of library LIB (libc.a) as compiler CC
# links it with FLAGS; false when CC has none (gcc then prints the bare
# name).
cc_lib() {
	local cc=$1 lib=$2 path
	path=$("$cc" "${@:3}" -print-file-name="$lib" 2>/dev/null) || return 1
	[[ $path == /* && -f $path ]] && echo "$path"
}

# libc_key CC [FLAGS...]: the compiler's version and the content of the
# static C library it links with FLAGS (a libc6-dev upgrade changes every
# static guest program).  A compiler that is missing keys as missing: the
# compile fails and says so.
libc_key() {
	local cc=$1 lib
	shift
	"$cc" --version 2>/dev/null | sed -n 1p || echo "$cc: missing"
	if lib=$(cc_lib "$cc" libc.a "$@"); then
		file_sums "$lib"
	else
		echo "libc.a of $cc $*: not found"
	fi
}

# The shell of the guest tests that show what a user at a shell sees
# (qemu/tests/siginfo.c runs /bin/busybox sh): Debian's busybox-static,
# which make deps installs.  It is an x86-64 program, so only x86-64
# guests get it; elsewhere those cases skip, as qemu/expected-skips says.
GUEST_SHELL=${GUEST_SHELL:-/bin/busybox}

# guest_shell_key: the shell's part of guest_key (build_initramfs has
# checked that it is there).
guest_shell_key() {
	[[ $BOOT_ARCH == x86_64 ]] || return 0
	file_sums "$GUEST_SHELL"
}

# publish_initramfs TMP CACHE: TMP holds init and tests/*, compiled; list
# them for gen_init_cpio, make TMP/initramfs.cpio, and publish TMP as
# CACHE, which appears whole or not at all: a boot beside this one that
# finds CACHE/initramfs.cpio takes it as it is.  A CACHE without its cpio
# (a run stopped half-way before they were published whole) goes first.
publish_initramfs() {
	local tmp=$1 cache=$2 t
	{
		printf '%s\n' "dir /dev 755 0 0" "nod /dev/console 600 0 0 c 5 1" "dir /proc 755 0 0" \
			"dir /sys 755 0 0" "dir /tests 755 0 0" "file /init $tmp/init 755 0 0"
		for t in "$tmp"/tests/*; do
			echo "file /tests/${t##*/} $t 755 0 0"
		done
		if [[ -e $tmp/busybox ]]; then
			printf '%s\n' "dir /bin 755 0 0" "file /bin/busybox $tmp/busybox 755 0 0"
		fi
	} >"$tmp/initramfs.list" || return 1
	gen_init_cpio "$tmp/initramfs.list" >"$tmp/initramfs.cpio" || return 1
	if [[ -d $cache && ! -s $cache/initramfs.cpio ]]; then
		rm -rf "$cache" || return 1
	fi
	publish_dir "$tmp" "$cache"
}

# build_initramfs ART DIR SHA: init, the workspace's tests and the tree's own
# selftests for commit SHA, whose artifacts are in ART, compiled once per
# guest_key into $WORKDIR/guest/<key>/; the boot directory DIR gets a link
# to the cpio.  qemu/tests/*.m32.c are 32-bit programs, named <name>_32
# and on MIPS <name>_n32 too (guest_m32).
# Compiler errors land in DIR/guest-build.log.
build_initramfs() {
	local art=$1 dir=$2 sha=$3 key cache tmp stage
	[[ -s $art/kselftest.h ]] ||
		die "artifact $art has no kselftest.h (tools/testing/selftests/kselftest.h missing in that commit?)"
	stage=$dir/selftests
	mkdir -p "$stage/$KSFT_DIR" || return 1
	cp "$art/kselftest.h" "$stage/$KSFT_DIR/kselftest.h" || return 1
	stage_selftests "$sha" "$stage" || return 1
	[[ $BOOT_ARCH != x86_64 || -x $GUEST_SHELL ]] ||
		die "no $GUEST_SHELL, the guest tests' shell: install busybox-static (make deps), or set GUEST_SHELL"
	guest_fixed_once || return 1
	key=$(guest_key "$art" "$stage") || return 1
	cache=$WORKDIR/guest/$key
	if [[ ! -s $cache/initramfs.cpio ]]; then
		tmp=$cache.tmp.$BASHPID
		{ rm -rf "$tmp" && mkdir -p "$tmp/tests" && cp -r "$stage" "$tmp/ksft"; } || return 1
		local ksft=$tmp/ksft/$KSFT_DIR
		guest_cc "$tmp/init" "$WS_ROOT/qemu/init.c" "$art/headers" "$ksft" 2>>"$dir/guest-build.log" ||
			return 1
		# In a subshell, whose wait is for its compiles alone (not for
		# the lock's helper of a boot.sh run by hand).
		if ! (compile_guest "$tmp" "$art" "$ksft" "$tmp.fails") 2>>"$dir/guest-build.log"; then
			echo "guest programs that did not compile: $(paste -sd' ' "$tmp.fails")" >>"$dir/guest-build.log"
			rm -rf "$tmp" "$tmp.fails"
			return 1
		fi
		if [[ $BOOT_ARCH == x86_64 ]]; then
			cp "$GUEST_SHELL" "$tmp/busybox" || return 1
		fi
		publish_initramfs "$tmp" "$cache" || return 1
	fi
	ln -sf "$cache/initramfs.cpio" "$dir/initramfs.cpio"
}

# gen_init_cpio: the kernel's own tool, compiled once from the tree (by
# whichever of two boots at once gets there first).
gen_init_cpio() {
	local bin=$WORKDIR/tools/gen_init_cpio tmp
	if [[ ! -x $bin ]]; then
		tmp=$bin.$BASHPID
		mkdir -p "${bin%/*}" &&
			git_tree show "$BASE_BRANCH:usr/gen_init_cpio.c" >"$tmp.c" &&
			cc -O2 -o "$tmp" "$tmp.c" && mv -f "$tmp" "$bin" || return 1
		rm -f "$tmp.c"
	fi
	"$bin" "$@"
}

# run_qemu DIR ART ACCEL [SMP]: boot the kernel of the build artifact ART,
# with what kernel_cmdline says it needs; console and KTAP logs stay in DIR.
# Prints the seconds to the first KTAP line ("-" if none).  QEMU dies with
# whoever started it (setpriv's parent-death signal), and the loop that
# watches it kills it when boot.sh itself is gone ($$, which a command
# substitution keeps): a `kill -9` of boot.sh leaves no guest running.
run_qemu() {
	local dir=$1 art=$2 accel=$3 smp=${4:-1} extra pid t0 first=-
	local kernel=$art/$BA_KERNEL
	local -a machine
	extra=$(kernel_cmdline "$art")
	qemu_machine_args machine "$accel" "file:$dir/console.log" "$dir/ktap.log"
	: >"$dir/console.log"
	: >"$dir/ktap.log"
	t0=$(date +%s.%N)
	setpriv --pdeathsig KILL -- "$QEMU" "${machine[@]}" -smp "$smp" -nodefaults -display none -no-reboot \
		-kernel "$kernel" -initrd "$dir/initramfs.cpio" \
		-append "console=$BA_CONSOLE panic=-1 oops=panic ws.timeout=$TEST_TIMEOUT${extra:+ $extra}" \
		>"$dir/qemu.log" 2>&1 &
	pid=$!
	local deadline=$((SECONDS + BOOT_TIMEOUT))
	while kill -0 "$pid" 2>/dev/null; do
		if ! kill -0 $$ 2>/dev/null; then
			kill -9 "$pid" 2>/dev/null || true
			break
		fi
		if [[ $first == - && -s $dir/ktap.log ]]; then
			first=$(echo "$(date +%s.%N) - $t0" | bc | xargs printf '%.1f')
		fi
		if ((SECONDS >= deadline)); then
			echo "workspace: timeout after ${BOOT_TIMEOUT}s, killing qemu" >>"$dir/console.log"
			kill "$pid" 2>/dev/null || true
			sleep 1
			kill -9 "$pid" 2>/dev/null || true
			break
		fi
		sleep 0.2
	done
	wait "$pid" 2>/dev/null || true
	if [[ $first == - && -s $dir/ktap.log ]]; then
		first=$(echo "$(date +%s.%N) - $t0" | bc | xargs printf '%.1f')
	fi
	echo "$first"
}

# kunit_expected ART: the kernel in ART has a KUnit suite built in, so its
# console must carry KUnit results.
kunit_expected() {
	[[ -f $1/config ]] && grep -qE '^CONFIG_([A-Z0-9_]*_KUNIT_TEST|KUNIT_ALL_TESTS)=y' "$1/config"
}

# kernel_cmdline ART: what the kernel in ART needs on its command line.
# Generic KASAN with 5-level paging reports a false "wild-memory-access"
# (in rcu_is_watching(), say) when an interrupt lands while identify_cpu()
# has cleared the boot CPU's capabilities, X86_FEATURE_LA57 among them: the
# shadow bounds are then computed for 4-level paging.  It is timing
# dependent, it happens on the base too, and QEMU's "-cpu max" has LA57.  See
# "kasan: Fix false-positive wild-memory-access on x86 under 5-level paging"
# on LKML, June 2026; 6.1 does not have a fix.  Such kernels boot with
# no5lvl, which changes nothing the guest tests look at.
#
# A kernel with KUnit built in runs its suites at boot, and a suite that
# ran taints the kernel with TAINT_TEST (N): the guest's taint test allows
# that letter, and only for such a kernel (ws.taint_allow=N).
kernel_cmdline() {
	local -a args=()
	[[ -f $1/config ]] || return 0
	if grep -qx 'CONFIG_KASAN=y' "$1/config" && grep -qx 'CONFIG_X86_5LEVEL=y' "$1/config"; then
		args+=(no5lvl)
	fi
	# A guest on a busy host (TCG, two cores) can miss the IO-APIC timer
	# check's deadline and panic ("IO-APIC + timer doesn't work!"), which
	# says nothing about the commit; virtual machines commonly skip it.
	grep -qx 'CONFIG_X86_IO_APIC=y' "$1/config" && args+=(no_timer_check)
	grep -qx 'CONFIG_KUNIT=y' "$1/config" && args+=(ws.taint_allow=N)
	((${#args[@]} == 0)) || echo "${args[*]}"
}

# kernel_of SHA: commit SHA's kernel on $CONFIG (buildlib.sh's ART), built
# if needed.  With BOOT_PREBUILT=1 (a boot beside the builds: all.sh)
# nothing is built: the build step left the artifact, or there is none.
kernel_of() {
	if [[ ${BOOT_PREBUILT:-0} == 1 ]]; then
		artifact_lookup "$1"
	else
		artifact_build "$1" "${1:0:12}, $BA_PREFIX$CONFIG config"
	fi && [[ -s $ART/result ]]
}

# boot_commit NAME IDX SHA SUBJECT STAGE: build if needed, boot, record.
# Called as `boot_commit || rc=1`, so without errexit: each step checks.
boot_commit() {
	local name=$1 idx=$2 sha=$3 subj=$4 stage=$5 art dir t0 accel first verdict status
	t0=$(now)
	if ! kernel_of "$sha"; then
		record "$name" "$idx" "$sha" "$subj" "$stage" fail 0 "workspace: no build result for ${sha:0:12} (see the build step above)"
		printf '  FAIL: no build result\n'
		return 1
	fi
	art=$ART
	if [[ $(cut -d' ' -f1 "$art/result") != pass ]]; then
		# The smoke and arm64 kernels have a build row of their own, which
		# shows the failure.  The debug kernel has none: its boot is the
		# only cell that can, so it fails rather than skips.
		if [[ $CONFIG == debug ]]; then
			record "$name" "$idx" "$sha" "$subj" "$stage" fail 0 \
				"the debug kernel did not build: $(cut -d' ' -f3- "$art/result")" "$art/build.log"
			printf '  FAIL: the debug kernel did not build (%s)\n' "$art/build.log"
			return 1
		fi
		record "$name" "$idx" "$sha" "$subj" "$stage" skip 0 "no kernel: build failed" "$art/build.log"
		printf '  skip: build failed\n'
		return 0
	fi
	dir=$BOOTS/$BA_PREFIX$CONFIG/${sha:0:12}
	if ! { rm -rf "$dir" && mkdir -p "$dir"; }; then
		record "$name" "$idx" "$sha" "$subj" "$stage" fail 0 "workspace: cannot make $dir"
		return 1
	fi
	if ! build_initramfs "$art" "$dir" "$sha"; then
		record "$name" "$idx" "$sha" "$subj" "$stage" fail $(($(now) - t0)) \
			"guest tests do not compile: $(grep -m1 'error' "$dir/guest-build.log" || true)" "$dir/guest-build.log"
		printf '  FAIL guest tests do not compile (%s)\n' "$dir/guest-build.log"
		return 1
	fi
	accel=${ACCEL_CHOSEN:-}
	if [[ -z $accel ]]; then
		accel=$(probe_accel "$art/$BA_KERNEL") || return 1
		ACCEL_CHOSEN=$accel
		progress boot "accelerator: $accel (ACCEL=$ACCEL)"
	fi
	if ! "$WS_ROOT/qemu/allowed-skips" --headers32 "$(headers32 "$art")" "$art/headers" "$dir/selftests" "$art/config" \
		>"$dir/allowed-skips" 2>"$dir/allowed-skips.err"; then
		record "$name" "$idx" "$sha" "$subj" "$stage" fail $(($(now) - t0)) \
			"workspace: qemu/allowed-skips failed: $(head -n1 "$dir/allowed-skips.err")" "$dir/allowed-skips.err"
		printf '  FAIL qemu/allowed-skips: %s\n' "$(sanitize <"$dir/allowed-skips.err")"
		return 1
	fi
	local -a judge
	mapfile -t judge < <(verdict_args "$art")
	judge+=(--allow-skips-file "$dir/allowed-skips")
	local smp key
	smp=$([[ $CONFIG == debug ]] && echo 2 || echo 1)
	if ! qemu_key_once || ! key=$(KEY_INPUTS=$dir/inputs boot_key "$art" "$dir" "$accel" "$smp" "${judge[@]}"); then
		record "$name" "$idx" "$sha" "$subj" "$stage" fail $(($(now) - t0)) "workspace: cannot hash the boot's inputs"
		return 1
	fi
	if [[ ${FRESH:-0} != 1 ]] && verdict=$(cached_boot "$key" "$dir"); then
		printf '  %s (cached: the same kernel, initramfs, QEMU and verdict passed before; FRESH=1 boots again; logs in %s)\n' \
			"$(sanitize <<<"$verdict")" "$dir"
		# The seconds of the boot that passed, as a cached build's row
		# has its build's: make bench counts them as the guests' time.
		local kept=0
		[[ ! -s $BOOT_CACHE/$key/seconds ]] || read -r kept <"$BOOT_CACHE/$key/seconds" || true
		[[ $kept =~ ^[0-9]+$ ]] || kept=0
		CELL_INPUTS=$dir/inputs record "$name" "$idx" "$sha" "$subj" "$stage" pass "$kept" "$verdict (cached)" "$dir"
		return 0
	fi
	first=$(run_qemu "$dir" "$art" "$accel" "$smp") || first=-
	local secs=$(($(now) - t0)) rc=0
	verdict=$("$WS_ROOT/qemu/ktap-verdict" "${judge[@]}" "$dir/ktap.log" "$dir/console.log" 2>"$dir/verdict.log") || rc=$?
	[[ -n $verdict ]] || { verdict="fail: qemu/ktap-verdict printed no verdict (exit $rc)"; rc=1; }
	sanitize <"$dir/verdict.log" | sed 's/^/    /'
	if ((rc == 0)); then status=pass; else status=fail; fi
	printf '  %s (%ss, first KTAP line at %ss; logs in %s)\n' "$(sanitize <<<"$verdict")" "$secs" "$first" "$dir"
	CELL_INPUTS=$dir/inputs record "$name" "$idx" "$sha" "$subj" "$stage" "$status" "$secs" "$verdict" "$dir"
	if [[ $status == pass ]] && ! store_boot "$key" "$dir" "$verdict" "$secs"; then
		warn "could not keep the passing boot of ${sha:0:12} in $BOOT_CACHE/$key (it boots again next time)"
	fi
	bench boot "$BA_PREFIX$CONFIG $name/$idx ${sha:0:12}" "$secs"
	bench first-ktap "$BA_PREFIX$CONFIG $name/$idx ${sha:0:12}" "$first"
	[[ $status == pass ]]
}

# boot_key ART DIR ACCEL SMP JUDGE...: what a boot's result is a function
# of: the kernel image, the initramfs, the command line, QEMU (its binary
# by content, and its version line), its options, both timeouts (a boot
# that passed in 250 s does not pass with BOOT_TIMEOUT=200), the verdict
# script and its options (the boot directory DIR, named by the commit's
# sha, written BOOT_DIR: a commit that differs in its message only boots
# from the cache), the allowed skips, and boot_code.
boot_key() {
	local art=$1 dir=$2 accel=$3 smp=$4
	shift 4
	qemu_key_once || return 1
	key_from 32 --run stat_digest "$art/$BA_KERNEL" --run stat_digest "$dir/initramfs.cpio" \
		--files "$WS_ROOT/qemu/ktap-verdict" "$dir/allowed-skips" --run boot_code \
		--text "$QEMU_KEY" "accel=$accel smp=$smp timeout=$TEST_TIMEOUT boot-timeout=$BOOT_TIMEOUT" \
		"cmdline=$(kernel_cmdline "$art")" "${@//"$dir"/BOOT_DIR}"
}

# boot_code: how a boot is run and judged: the code of the functions that
# start QEMU, make its command line and judge the boot (declare -f: no
# comments, one layout) and bootarch.sh's facts they use, not all of
# boot.sh (an edit elsewhere in it boots nothing again).
boot_code() {
	declare -f boot_commit run_qemu qemu_machine_args kernel_cmdline kunit_expected verdict_args
	facts BOOT_ARCH BA_KERNEL BA_CONSOLE
}

# qemu_key: QEMU's binary by content and its version line (a rebuilt or
# patched QEMU with the same version is another QEMU).  Fails when $QEMU
# is not there.
qemu_key() {
	local bin
	bin=$(command -v "$QEMU") || { echo "QEMU=$QEMU: not found" >&2; return 1; }
	stat_digest "$(readlink -f "$bin")" || return 1
	"$QEMU" --version | sed -n 1p
}

# qemu_key_once: QEMU_KEY, qemu_key hashed once per boot.sh (boot_commit
# calls it before the command substitutions that read it).
qemu_key_once() {
	[[ -n ${QEMU_KEY:-} ]] || QEMU_KEY=$(qemu_key)
}

# cached_boot KEY DIR: a passing boot with KEY was kept: its logs into DIR,
# its verdict on stdout.  False when there is none, or it is damaged.
cached_boot() {
	local c=$BOOT_CACHE/$1 verdict="" f
	[[ -f $c/verdict ]] || return 1
	IFS= read -r verdict <"$c/verdict" || true
	if [[ $verdict != "pass: "* ]]; then
		warn "damaged cached boot $c/verdict: booting again"
		return 1
	fi
	for f in console.log ktap.log verdict.log; do
		cp "$c/$f" "$dir/$f" || return 1
	done
	printf '%s\n' "$verdict"
}

# store_boot KEY DIR VERDICT SECONDS: keep a passing boot's logs, verdict
# and seconds; the verdict file is written last, so a half-kept boot is
# never taken.
store_boot() {
	local c=$BOOT_CACHE/$1 tmp=$BOOT_CACHE/$1.tmp.$BASHPID f
	rm -rf "$tmp" && mkdir -p "$tmp" || return 1
	for f in console.log ktap.log verdict.log; do
		cp "$2/$f" "$tmp/$f" || return 1
	done
	printf '%s\n' "$4" >"$tmp/seconds" || return 1
	printf '%s\n' "$3" >"$tmp/verdict" || return 1
	rm -rf "$c" && publish_dir "$tmp" "$c"
}

# verdict_args ART: qemu/ktap-verdict's options for the kernel in ART, one
# a line: the KUnit suites its .config builds in (qemu/kunit-suites) must
# each pass on the console.
verdict_args() {
	local art=$1 opt suite suites_line
	local -a suites
	kunit_expected "$art" || return 0
	echo --kunit
	while read -r opt suites_line; do
		grep -qx "$opt=y" "$art/config" || continue
		read -r -a suites <<<"$suites_line"
		for suite in "${suites[@]}"; do
			printf '%s\n' --kunit-suite "$suite"
		done
	done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$WS_ROOT/qemu/kunit-suites")
}

cmd_series() {
	local s idx sha subj n rc=0
	local -a selected_series_list
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		local -a rows
		capture rows series_commits "$s"
		n=$((${#rows[@]} - 1))
		for row in "${rows[@]}"; do
			read -r idx sha subj <<<"$row"
			progress boot "$s [$idx/$n] ${sha:0:12} $subj"
			boot_commit "$s" "$idx" "$sha" "$subj" "$(arch_stage boot)" || rc=1
		done
	done
	return $rc
}

# head_rows: "NAME IDX SHA SUBJECT" of the head of each selected series.
head_rows() {
	local s
	local -a selected_series_list
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		printf '%s ' "$s"
		series_commits "$s" | tail -n1
	done
}

cmd_heads() {
	local s rc=0 idx sha subj
	while read -r s idx sha subj; do
		progress boot-debug "$s head [$idx] ${sha:0:12} $subj (debug config)"
		CONFIG=debug boot_commit "$s" "$idx" "$sha" "$subj" "$(arch_stage boot-debug)" || rc=1
	done < <(head_rows)
	return $rc
}

# cmd_heads_build: the debug kernel of each series head built (the builds
# cmd_heads would do first), for boots beside the builds; a build that
# fails shows as the head's skipped boot-debug cell.
cmd_heads_build() {
	local s rc=0 idx sha subj
	while read -r s idx sha subj; do
		progress build-debug "$s head [$idx] ${sha:0:12} $subj (debug config)"
		CONFIG=debug artifact_build "$sha" "${sha:0:12}, debug config" || rc=1
	done < <(head_rows)
	return $rc
}

# arch_build_row NAME IDX SHA SUBJECT: build commit SHA for BOOT_ARCH if
# needed (buildlib.sh) and record it as stage build-<arch>.  Called as
# `arch_build_row || ...`, so without errexit: each step checks.
arch_build_row() {
	local name=$1 idx=$2 sha=$3 subj=$4 status secs detail stage tag=""
	stage=$(arch_stage build)
	if ! artifact_build "$sha" "${sha:0:12}, $BA_PREFIX$CONFIG config"; then
		record "$name" "$idx" "$sha" "$subj" "$stage" fail 0 "workspace: could not build ${sha:0:12} for $BOOT_ARCH (see above)"
		printf '  FAIL: the workspace could not build %s\n' "${sha:0:12}"
		return 1
	fi
	if ! read -r status secs detail <"$ART/result"; then
		record "$name" "$idx" "$sha" "$subj" "$stage" fail 0 "workspace: no build result in $ART"
		return 1
	fi
	[[ $status == pass ]] && detail="$BOOT_ARCH $BA_KERNEL, $BA_PREFIX$CONFIG config"
	if ((ART_CACHED)); then
		detail+=", cached"
		tag=" (cached)"
	fi
	if [[ $status == pass ]]; then
		printf '  build %s in %ss%s\n' "$status" "$secs" "$tag"
	else
		printf '  build FAIL %s\n       log: %s\n' "$detail" "$ART/build.log"
	fi
	record_build "$name" "$idx" "$sha" "$subj" "$stage" "$status" "$secs" "$detail" "$ART" || return 1
	bench build "$BA_PREFIX$CONFIG $name/$idx ${sha:0:12}$tag" "$secs"
	[[ $status == pass ]]
}

# arch_rows: "NAME N IDX SHA SUBJECT" of the base (index 0) and the head of
# each selected series, N its number of commits.  A series that is not
# applied is named on stderr and left out, and the status is then 1.
arch_rows() {
	local s rc=0 n
	local -a selected_series_list rows
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		if ! git_tree rev-parse -q --verify "refs/heads/$s" >/dev/null; then
			warn "series '$s' is not applied: no $BOOT_ARCH boot for it (make apply SERIES=$s)"
			rc=1
			continue
		fi
		capture rows series_commits "$s"
		n=$((${#rows[@]} - 1))
		printf '%s %s %s\n' "$s" "$n" "${rows[0]}"
		((n == 0)) || printf '%s %s %s\n' "$s" "$n" "${rows[n]}"
	done
	return $rc
}

# cmd_arch_heads [build|boot]: BOOT_ARCH, another architecture than
# x86_64, at the base and the head of each selected series (arch_rows), on
# the smoke config: a build row (build-<arch>) and a boot row (boot-<arch>)
# each, or only the one asked for (all.sh builds in one step and boots
# beside the next).  A commit that does not build is a failed build and a
# skipped boot.
cmd_arch_heads() {
	local what=${1:-both} rc=0 s n idx sha subj rows
	[[ $BOOT_ARCH != x86_64 ]] ||
		die "arch-heads boots another architecture than x86_64 (BOOT_ARCH=arm64, i386 or mips64el; or make boot-<arch>)"
	rows=$(arch_rows) || rc=1
	while read -r s n idx sha subj; do
		[[ -n $s ]] || continue
		progress "$(arch_stage "${what/both/boot}")" "$s [$idx/$n] ${sha:0:12} $subj ($BOOT_ARCH)"
		if [[ $what != boot ]]; then
			arch_build_row "$s" "$idx" "$sha" "$subj" || rc=1
		fi
		if [[ $what != build ]]; then
			boot_commit "$s" "$idx" "$sha" "$subj" "$(arch_stage boot)" || rc=1
		fi
	done <<<"$rows"
	return $rc
}

# bench_initramfs ART DIR: init and the pty benchmark (qemu/bench/*.c) for
# the commit whose artifacts are in ART, linked into DIR.
bench_initramfs() {
	local art=$1 dir=$2 key cache tmp t
	key=bench-$(key_from 16 --files "$art/kselftest.h" "$WS_ROOT/qemu/init.c" "$WS_ROOT"/qemu/bench/*.c \
		--run tree_sums "$art/headers") || return 1
	cache=$WORKDIR/guest/$key
	if [[ ! -s $cache/initramfs.cpio ]]; then
		tmp=$cache.tmp.$BASHPID
		rm -rf "$tmp"
		mkdir -p "$tmp/tests" "$tmp/ksft"
		cp "$art/kselftest.h" "$tmp/ksft/"
		guest_cc "$tmp/init" "$WS_ROOT/qemu/init.c" "$art/headers" "$tmp/ksft" 2>>"$dir/guest-build.log" ||
			return 1
		for t in "$WS_ROOT"/qemu/bench/*.c; do
			guest_cc "$tmp/tests/$(basename "$t" .c)" "$t" "$art/headers" "$tmp/ksft" \
				2>>"$dir/guest-build.log" || return 1
		done
		publish_initramfs "$tmp" "$cache" || return 1
	fi
	ln -sf "$cache/initramfs.cpio" "$dir/initramfs.cpio"
}

# bench_boot LABEL SHA RUN SAMPLES: one benchmark boot of commit SHA; its
# per-round figures are appended to SAMPLES as "LABEL bytes/s" lines.
bench_boot() {
	local label=$1 sha=$2 run=$3 samples=$4 art dir accel
	kernel_of "$sha" || die "bench: no build result for ${sha:0:12}"
	art=$ART
	[[ -s $art/$BA_KERNEL ]] || die "bench: no kernel in $art"
	[[ $(cut -d' ' -f1 "$art/result") == pass ]] || die "bench: commit ${sha:0:12} does not build ($art/build.log)"
	dir=$BOOTS/bench/${sha:0:12}-$run
	rm -rf "$dir"
	mkdir -p "$dir"
	bench_initramfs "$art" "$dir" || die "bench: the benchmark does not compile ($dir/guest-build.log)"
	accel=${ACCEL_CHOSEN:-}
	if [[ -z $accel ]]; then
		accel=$(probe_accel "$art/$BA_KERNEL")
		ACCEL_CHOSEN=$accel
		progress bench "accelerator: $accel (ACCEL=$ACCEL)"
	fi
	run_qemu "$dir" "$art" "$accel" 1 >/dev/null
	"$WS_ROOT/qemu/ktap-verdict" "$dir/ktap.log" "$dir/console.log" >/dev/null 2>&1 ||
		die "bench: boot of ${sha:0:12} failed (logs in $dir)"
	grep -q 'pty_canon round' "$dir/ktap.log" ||
		die "bench: no pty_canon figures in the KTAP of ${sha:0:12} ($dir/ktap.log)"
	grep -o 'pty_canon round [0-9]*: [0-9]*' "$dir/ktap.log" |
		awk -v l="$label" '{ print l, $4 }' >>"$samples"
}

# bench_summary SAMPLES: median, spread and the base/head difference
# (scripts/bench.py --pty-summary).
bench_summary() {
	"$WS_ROOT/scripts/bench.py" --pty-summary "$1"
}

# cmd_bench: the receive-path cost of each selected series: bytes per second
# through a pty in canonical mode (qemu/bench/pty_canon.c) on its base and
# on its head, on the smoke config.  The boots alternate base and head,
# BENCH_BOOTS times each, so that drift on the host hits both alike.
cmd_bench() {
	local s boots=${BENCH_BOOTS:-3} base head i out=$REPORT/bench-pty.tsv samples
	[[ $boots =~ ^[1-9][0-9]*$ ]] || die "BENCH_BOOTS must be a positive number (got '$boots')"
	[[ $BOOT_ARCH == x86_64 ]] || die "bench measures x86_64 only (got BOOT_ARCH=$BOOT_ARCH)"
	local -a selected_series_list rows
	capture selected_series_list selected_series
	mkdir -p "$REPORT"
	rm -rf "$BOOTS/bench"
	printf 'series\tkernel\tsamples\tmedian_bytes_per_s\trel_stdev_pct\n' >"$out"
	for s in "${selected_series_list[@]}"; do
		capture rows series_commits "$s"
		base=$(cut -d' ' -f2 <<<"${rows[0]}")
		head=$(cut -d' ' -f2 <<<"${rows[${#rows[@]} - 1]}")
		samples=$(mktemp)
		for ((i = 1; i <= boots; i++)); do
			progress bench "$s: pty canonical throughput, boot $i/$boots of base ${base:0:12} and head ${head:0:12}"
			bench_boot base "$base" "$i" "$samples"
			bench_boot head "$head" "$i" "$samples"
		done
		bench_summary "$samples" | LC_ALL=C sort | sed "s/^/$s\t/" >>"$out"
		rm -f "$samples"
	done
	printf '%-10s %-6s %7s %20s %s\n' series kernel samples "median bytes/s" "rel. stdev %"
	awk -F'\t' 'NR > 1 { printf "%-10s %-6s %7s %20s %s\n", $1, $2, $3, $4, $5 }' "$out"
	echo "written: $out"
}

# cmd_commit SHA: build and boot one commit, outside the report.
cmd_commit() {
	local sha subj
	sha=$(git_tree rev-parse -q --verify "$1^{commit}") || die "no commit '$1' in $TREE"
	subj=$(git_tree log -1 --format=%s "$sha")
	# record (lib.sh) writes to $RESULTS: this boot's row is not the report's.
	export RESULTS=$WORKDIR/bisect/results.tsv
	mkdir -p "$WORKDIR/bisect"
	exec 3>&1 1>&2
	artifact_build "$sha" "${sha:0:12}, $BA_PREFIX$CONFIG config" || die "the workspace could not build ${sha:0:12}"
	boot_commit bisect 0 "$sha" "$subj" boot || true
	echo "$BOOTS/$BA_PREFIX$CONFIG/${sha:0:12}" >&3
}

main() {
	require_tree
	take_lock
	command -v "$QEMU" >/dev/null || die "$QEMU not found: run 'make deps'"
	# Checked once here for every build below.
	require_scale_out
	CONFIG=${CONFIG:-smoke}
	case ${1:-series} in
	series) cmd_series ;;
	heads) cmd_heads ;;
	heads-build) cmd_heads_build ;;
	bench) CONFIG=smoke cmd_bench ;;
	arch-heads) CONFIG=smoke cmd_arch_heads both ;;
	arch-builds) CONFIG=smoke cmd_arch_heads build ;;
	arch-boots) CONFIG=smoke cmd_arch_heads boot ;;
	commit) cmd_commit "${2:?usage: boot.sh commit SHA}" ;;
	*) die "usage: boot.sh series | heads | heads-build | bench | commit SHA; BOOT_ARCH=<arch> boot.sh arch-heads | arch-builds | arch-boots" ;;
	esac
}

# As a script, boot.sh runs; sourced (scripts/guest.sh), it lends its
# functions.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	main "$@"
fi
