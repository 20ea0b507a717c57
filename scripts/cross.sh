#!/usr/bin/env bash
# cross.sh: compile what each commit touches on every architecture it
# concerns (make cross-compile; part of the default make).
#
#   cross.sh series        every commit of each selected series ($SERIES)
#   cross.sh heads         a full build (vmlinux, make -k) at the head of each
#                          selected series, on every architecture the series
#                          concerns; a head that fails is bisected (make cross)
#   cross.sh bisect S A    the first commit of series S that does not build
#                          on architecture A (make bisect); with TEST=NAME,
#                          the first where guest test NAME fails when the
#                          commit is booted (x86_64 or arm64)
#   cross.sh step A        git bisect run's step: build the checked-out
#                          commit of $WORKDIR/cross-src on A (0 good, 1 bad,
#                          125 when it cannot be configured)
#
# The architectures are scripts/arches'.  A commit that changes arch/<dir>/
# concerns that directory's architectures; one that changes generic code or
# headers concerns the representative set ("rep" there).  Per architecture
# it compiles, in one prepared O= directory per architecture
# ($WORKDIR/cross/<name>, kept between commits and runs), the objects of
# the .c and .S files the commit touches, and for each header it touches
# every file under that architecture's arch/<dir>/ that includes it by
# name, plus a sample of the other objects that include it (kbuild's .cmd
# files of the x86 smoke build tell which, kept per kernel version; capped
# at CROSS_MAX_OBJS in all; the row says how many of how many).  Which of
# them the configuration builds, kbuild says: its dry run (make -n all),
# kept per architecture and state of the Makefiles, Kconfigs and
# defconfigs.  When the compile prints an error or a warning, the same
# objects are compiled at the parent: a new error fails the cell, a new
# warning warns (scripts/cross_diag.py).  An architecture the commit
# touches that has no cross compiler is a "skip" row that says why.
# A cell is cached by commit, parent, objects, compiler, base fixups and
# the code that makes it.
#
# Base fixups: where Debian's base does not build for an architecture with
# Debian's cross compiler, fixups/<version>/<arch dir>/NNNN-*.patch are
# applied, for that architecture's compiles and builds only, in a worktree
# of its own ($WORKDIR/cross-fixed/<arch dir>), never in a series; the
# rows name them.
#
# The full builds use tinyconfig plus qemu/configs/cross.config, in
# $WORKDIR/cross-full/<name>; a head that fails where the series' base
# builds is bisected with git bisect run and this script's step, and the
# row names the first bad commit and its first error, as 0-day does.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

ARCHES_FILE=${ARCHES_FILE:-$WS_ROOT/scripts/arches}
XSRC=$WORKDIR/cross-src
# The per-commit O= directories, one per kernel version and architecture
# (checkout_xsrc sets XOUT to the version's): a .config made on 6.12 is
# never carried to 6.1 by syncconfig and back, so each is what its
# architecture's config target makes of that version's Kconfig.
XOUT_ROOT=$WORKDIR/cross
XOUT=$XOUT_ROOT/unknown
XCACHE=$WORKDIR/cross-cache
XFULL=$WORKDIR/cross-full
CROSS_FRAGMENT=${CROSS_FRAGMENT:-$WS_ROOT/qemu/configs/cross.config}
COMMIT_FRAGMENT=${COMMIT_FRAGMENT:-$WS_ROOT/qemu/configs/commit.config}
# The x86 smoke build whose dependency files say which objects include a
# header: SMOKE_OUT if given, else each series' line's (smoke_out_for).
SMOKE_OUT_GIVEN=${SMOKE_OUT:-}
SMOKE_OUT=${SMOKE_OUT:-$WORKDIR/build/smoke}
CROSS_MAX_OBJS=${CROSS_MAX_OBJS:-16}
JOBS=${JOBS:-$(nproc)}
CROSS_PAR=${CROSS_PAR:-$JOBS}
DIAG_PY=$WS_ROOT/scripts/cross_diag.py
FIXUPS=${FIXUPS:-$WS_ROOT/fixups}
XFIXED=$WORKDIR/cross-fixed
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}

declare -A A_ARCH=() A_PKG=() A_PREFIX=() A_SET=() A_CONFIG=() A_DIR=() A_ALSO=() A_LINE=() A_SRC=()
declare -a A_NAMES=()

# load_arches: scripts/arches into the A_* tables; a malformed line stops
# the run, naming it.
load_arches() {
	local name arch prefix pkg set config n=0 line
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		[[ -z $line || $line == \#* ]] && continue
		IFS=$'\t' read -r name arch prefix pkg set config <<<"$line"
		[[ -n $config && $set =~ ^(rep|own|none)$ ]] ||
			die "${ARCHES_FILE#"$WS_ROOT"/} line $n: want 6 tab-separated fields with set rep, own or none: '$line'"
		A_NAMES+=("$name")
		A_ARCH[$name]=$arch A_PREFIX[$name]=${prefix#-} A_SET[$name]=$set
		A_CONFIG[$name]=$config A_LINE[$name]=$line A_PKG[$name]=$pkg
		case $arch in
		x86_64 | i386) A_DIR[$name]=x86 ;;
		sparc64 | sparc32) A_DIR[$name]=sparc ;;
		# UML builds its x86 half from arch/x86/um/ and takes x86's
		# headers: a change there concerns it too (A_ALSO).
		um) A_DIR[$name]=um A_ALSO[$name]=x86 ;;
		-) A_DIR[$name]=$name ;;
		*) A_DIR[$name]=$arch ;;
		esac
	done <"$ARCHES_FILE"
}

# touched_files SHA: what the commit adds or changes (not what it deletes).
touched_files() {
	commit_fact "$1" touched git_touched "$TREE" "$1" AMR
}

# memo NAME CMD...: CMD's output, computed once per run of cmd_series
# (kept in $MEMO/NAME); without $MEMO, every time.
memo() {
	[[ -n ${MEMO:-} ]] || { "${@:2}"; return; }
	keep_output "$MEMO/$1" "${@:2}"
}

# commit_fact SHA NAME CMD...: CMD's output, a function of commit SHA's
# content alone (a sha names one content), computed once and kept in
# $XCACHE/facts/SHA/NAME for every later run.
commit_fact() {
	keep_output "$XCACHE/facts/$1/$2" "${@:3}"
}

# kernel_code FILE: FILE is compiled into some kernel (not documentation,
# tools, scripts or the selftests).
kernel_code() {
	case $1 in
	Documentation/* | tools/* | scripts/* | samples/* | LICENSES/* | usr/*) return 1 ;;
	*.c | *.h | *.S | */Makefile | Makefile | */Kbuild | */Kconfig*) return 0 ;;
	*) return 1 ;;
	esac
}

# arch_dir_of FILE VAR: into VAR, the A_DIR of the architecture whose
# code FILE, under arch/, is: the directory after arch/, but UML's (um)
# for arch/x86/um/, which only ARCH=um builds (its x86 half; x86's own
# builds never enter it).  Into a variable, not printed: it runs for every
# touched file of every cell, and a command substitution forks.
arch_dir_of() {
	local _rest=${1#arch/}
	case $_rest in
	x86/um/*) printf -v "$2" um ;;
	*) printf -v "$2" '%s' "${_rest%%/*}" ;;
	esac
}

# arches_of SHA: the architectures the commit concerns, one a line, as
# "name" or "-name reason" for one that is not covered.
arches_of() {
	local f d name generic=0 found
	local -A dirs=() seen=()
	while IFS= read -r f; do
		if [[ -z $f ]] || ! kernel_code "$f"; then continue; fi
		if [[ $f == arch/* ]]; then
			arch_dir_of "$f" d
			dirs[$d]=1
		else
			generic=1
		fi
	done < <(touched_files "$1")
	for name in "${A_NAMES[@]}"; do
		if [[ ${A_SET[$name]} == rep && $generic == 1 ]] || [[ -n ${dirs[${A_DIR[$name]}]:-} ]] ||
			[[ -n ${A_ALSO[$name]:-} && -n ${dirs[${A_ALSO[$name]}]:-} ]]; then
			seen[${A_DIR[$name]}]=1
			if [[ ${A_SET[$name]} == none ]]; then
				printf -- '-%s %s\n' "$name" "${A_CONFIG[$name]}"
			else
				echo "$name"
			fi
		fi
	done
	for d in "${!dirs[@]}"; do
		found=${seen[$d]:-}
		[[ -n $found ]] || printf -- '-%s not in scripts/arches, so never compiled\n' "$d"
	done | LC_ALL=C sort
}

# header_regex HEADER: what a .cmd dependency line of a file that includes
# HEADER ends with.  An architecture's asm/ header stands for every
# architecture's: objects outside arch/ include it as <asm/...>; and so does
# an asm-generic one, which the architectures that take it include as
# <asm/...> (x86's smoke build never includes asm-generic/signal.h itself).
header_regex() {
	local h=$1 base
	case $h in
	arch/*/include/uapi/asm/* | arch/*/include/asm/* | include/uapi/asm-generic/* | include/asm-generic/*)
		base=${h##*/asm/}
		base=${base##*/asm-generic/}
		printf '/(asm|asm-generic)/%s( \\\\)?$' "${base//./\\.}"
		;;
	*) printf '/%s( \\\\)?$' "${h//./\\.}" ;;
	esac
}

# dependents HEADER DIR SHA: the objects of the smoke build that include
# HEADER, outside arch/ (or in arch/DIR/, DIR one directory or an
# alternation: um|x86), one a line, sorted.  The list is
# kept for SHA's kernel version in $XCACHE/includers/<version>/, so that
# the sample plan takes from it, and with it the key of every cell, does
# not change with whichever commit the smoke build last built (KUnit on,
# another base).
dependents() {
	local h=$1 d=$2 v f list
	v=$(memo "version-$3" kernel_version "$3") || return 1
	f=$(includers_file "$v" "$h")
	if [[ -f $f ]]; then
		list=$(<"$f")
	elif [[ -d $SMOKE_OUT ]]; then
		list=$(memo "includers-${SMOKE_OUT##*/}-${h//\//%}" smoke_includers "$h") || return 1
		keep_includers "$v" "$f" "$list" || return 1
	else
		return 0
	fi
	[[ -n $list ]] || return 0
	grep -E "^(arch/($d)/|[^a])|^a[^r]" <<<"$list" || true
}

# includers_file VERSION HEADER [VAR]: where the list of HEADER's includers
# is kept for VERSION (into VAR, without a process, or printed).  An
# asm-generic header's list counts its <asm/...> includers too
# (header_regex); kept apart from the lists made before it did.
includers_file() {
	local _f=$XCACHE/includers/$1/${2//\//%}
	[[ $2 != *include/*asm-generic/* ]] || _f+=%with-asm
	if [[ -n ${3:-} ]]; then printf -v "$3" '%s' "$_f"; else printf '%s\n' "$_f"; fi
}

# keep_includers VERSION FILE LIST: keep LIST in FILE, but only when the
# smoke build is of that kernel VERSION (another base's graph is used for
# this run only).
keep_includers() {
	local rel
	rel=$(cat "$SMOKE_OUT/include/config/kernel.release" 2>/dev/null) || return 0
	[[ $rel == "$1" || $rel == "$1"[!0-9]* ]] || return 0
	mkdir -p "${2%/*}" && printf '%s\n' "$3" >"$2.tmp" && mv "$2.tmp" "$2"
}

# smoke_includers HEADER: the objects of the smoke build that include
# HEADER (kernel objects only), sorted.
smoke_includers() {
	local list rc=0
	list=$(cd "$SMOKE_OUT" && grep -rlE --include='.*.o.cmd' "$(header_regex "$1")" .) || rc=$?
	((rc <= 1)) || { warn "grep in $SMOKE_OUT failed"; return 1; }
	[[ -n $list ]] || return 0
	sed -E 's#^\./##; s#(^|/)\.([^/]+)\.o\.cmd$#\1\2.o#' <<<"$list" |
		grep -vE '(^(scripts|tools|usr)/|\.mod\.o$|^vmlinux)' | LC_ALL=C sort -u || true
}

# direct_includers SHA HEADER DIR: every .c file under arch/DIR/ that
# includes HEADER by name at SHA (an asm-generic header also as
# <asm/...>, which is how the architectures that take it include it): the
# architecture's own users of the header, compiled whenever its
# configuration builds them.  A function of SHA alone, so kept (commit_fact).
direct_includers() {
	commit_fact "$1" "includes-${2//\//%}@$3" arch_includers "$@"
}

arch_includers() {
	local sha=$1 h=$2 d=$3 name rc=0 list
	local -a pats=()
	case $h in
	*/include/uapi/*) name=${h#*/include/uapi/} ;;
	*/include/*) name=${h#*/include/} ;;
	include/uapi/*) name=${h#include/uapi/} ;;
	include/*) name=${h#include/} ;;
	*) return 0 ;;
	esac
	pats=(-e "#include <$name>")
	[[ $name != asm-generic/* ]] || pats+=(-e "#include <asm/${name#asm-generic/}>")
	list=$(git_tree grep -l -F "${pats[@]}" "$sha" -- "arch/$d/*.c") || rc=$?
	((rc <= 1)) || { warn "git grep in ${sha:0:12} failed"; return 1; }
	[[ -z $list ]] || sed -E "s#^$sha:##; s#\\.c\$#.o#" <<<"$list"
}

# sample N: N lines of standard input, evenly spaced, in order.
sample() {
	awk -v k="$1" '{ l[NR] = $0 } END {
		if (NR <= k) { for (i = 1; i <= NR; i++) print l[i]; exit }
		for (i = 0; i < k; i++) print l[int(i * NR / k) + 1]
	}'
}

# plan SHA NAME FILE: the objects to compile for architecture NAME into
# FILE; prints how they were chosen.  Kept in $XCACHE/plan-memo/SHA/NAME/
# with its key (plan_key) where it is a function of what the key names: a
# warm run reads each cell's plan, with no process but a stat, instead of
# choosing its objects again.
plan() {
	local memo=$XCACHE/plan-memo/$1/$2 kept="" text="" out
	plan_key "$1" "$2" || { plan_objects "$@"; return; }
	if [[ -f $memo/key && -f $memo/objects && -f $memo/desc ]]; then
		IFS= read -r -d '' kept <"$memo/key" || true
		if [[ $kept == "$PLAN_KEY" ]]; then
			IFS= read -r -d '' text <"$memo/objects" || true
			printf '%s' "$text" >"$3" || return 1
			IFS= read -r -d '' text <"$memo/desc" || true
			printf '%s' "$text"
			return 0
		fi
	fi
	out=$(plan_objects "$@") || return 1
	keep_plan "$memo" "$3" "$out" ||
		warn "could not keep the plan of ${1:0:12} on $2 in $memo (it is chosen again next time)"
	printf '%s' "$out"
}

# keep_plan MEMO FILE DESC: plan_objects' FILE and DESC, with PLAN_KEY,
# into the directory MEMO, made beside it and renamed into place.
keep_plan() {
	local tmp=$1.$BASHPID
	rm -rf "$tmp" && mkdir -p "$tmp" && cp "$2" "$tmp/objects" && printf '%s' "$3" >"$tmp/desc" &&
		printf '%s' "$PLAN_KEY" >"$tmp/key" && rm -rf "$1" && mv "$tmp" "$1" && return 0
	rm -rf "$tmp"
	return 1
}

# plan_key SHA NAME: into PLAN_KEY, what plan_objects' choice is a
# function of, when all of it is kept: the commit (its touched files, and
# what includes a header at it, are functions of its content), the
# architecture's row of the table, CROSS_MAX_OBJS, the code that chooses
# (plan_code), and the kept list of the includers of each header it
# touches (its path and stat: a list is only ever replaced whole).  False
# when a header's list is not kept (dependents then takes it from
# whatever the smoke build last built): that plan is made every time.
declare -A VERSION_OF=()
PLAN_CODE=""
plan_key() {
	local sha=$1 name=$2 d=${A_DIR[$2]} also=${A_ALSO[$2]:-} f fd list st=""
	local -a lists=()
	# The touched files from commit_fact's file, read without a process.
	touched_files "$sha" >/dev/null || return 1
	while IFS= read -r f; do
		if [[ -z $f || $f != *.h ]] || ! kernel_code "$f"; then continue; fi
		[[ $f != arch/* ]] || arch_dir_of "$f" fd
		[[ $f != arch/* || $fd == "$d" || (-n $also && $f == arch/$also/*) ]] || continue
		[[ -n ${VERSION_OF[$sha]:-} ]] || VERSION_OF[$sha]=$(memo "version-$sha" kernel_version "$sha") || return 1
		includers_file "${VERSION_OF[$sha]}" "$f" list
		[[ -f $list ]] || return 1
		lists+=("$list")
	done <"$XCACHE/facts/$sha/touched"
	((${#lists[@]} == 0)) || st=$(stat -c '%n %s %.9Y %.9Z %i %d' -- "${lists[@]}") || return 1
	[[ -n $PLAN_CODE ]] || PLAN_CODE=$(key_from 32 --run plan_code) || return 1
	PLAN_KEY=$sha$'\n'${A_LINE[$name]}$'\n'"max $CROSS_MAX_OBJS"$'\n'$PLAN_CODE$'\n'$st
}

# plan_code: the code that chooses a cell's objects (declare -f: no
# comments, one layout).
plan_code() {
	declare -f plan_objects kernel_code arch_dir_of touched_files commit_fact dependents includers_file header_regex \
		kernel_version keep_includers smoke_includers direct_includers arch_includers sample
}

# plan_objects SHA NAME FILE: plan's choice, made.
plan_objects() {
	local sha=$1 name=$2 file=$3 d=${A_DIR[$2]} also=${A_ALSO[$2]:-} f fd n na left nh=0 total=0
	local -a own=() headers=()
	while IFS= read -r f; do
		if [[ -z $f ]] || ! kernel_code "$f"; then continue; fi
		[[ $f != arch/* ]] || arch_dir_of "$f" fd
		[[ $f != arch/* || $fd == "$d" || (-n $also && $f == arch/$also/*) ]] || continue
		case $f in
		*.c | *.S) own+=("${f%.*}.o") ;;
		*.h) headers+=("$f") ;;
		esac
	done < <(touched_files "$sha")
	printf '%s\n' "${own[@]}" >"$file.own"
	: >"$file.deps"
	for f in "${headers[@]}"; do
		dependents "$f" "$d${also:+|$also}" "$sha" >>"$file.deps" || return 1
		direct_includers "$sha" "$f" "$d" >>"$file.own" || return 1
		[[ -z $also ]] || direct_includers "$sha" "$f" "$also" >>"$file.own" || return 1
	done
	LC_ALL=C sort -u "$file.deps" -o "$file.deps"
	total=$(grep -c . "$file.deps" || true)
	n=$(LC_ALL=C sort -u "$file.own" | grep -c . || true)
	na=$((n - ${#own[@]}))
	left=$((CROSS_MAX_OBJS - n))
	((left >= 4)) || left=4
	{
		grep . "$file.own" | LC_ALL=C sort -u
		grep -vxF -f "$file.own" "$file.deps" | sample "$left" || true
	} | grep . | LC_ALL=C sort -u >"$file" || true
	nh=$(($(grep -c . "$file" || true) - n))
	rm -f "$file.own" "$file.deps"
	if ((${#headers[@]} && na > 0)); then
		printf '%d objects: %d of its files, %d in arch/%s/ and %d of the %d others that include its headers' \
			$((n + nh)) $((n - na)) "$na" "$d${also:+/ and arch/$also}" "$nh" "$total"
	elif ((${#headers[@]})); then
		printf '%d objects: %d of its files, %d of the %d that include its headers' \
			$((n + nh)) "$n" "$nh" "$total"
	else
		printf '%d objects' "$n"
	fi
}

# checkout_xsrc SHA [NAME...]: the cross worktree at SHA, XOUT the O= root
# of SHA's kernel version, and each NAME's tree (sync_src) at SHA.
checkout_xsrc() {
	local v sha=$1 name
	shift
	git_worktree_at "$TREE" "$XSRC" "$sha" || return 1
	v=$(memo "version-$sha" kernel_version "$sha") || return 1
	XOUT=$XOUT_ROOT/$v
	for name in "$@"; do
		sync_src "$name" "$sha" || return 1
	done
}

# fixups_of NAME VERSION: the base fixups of NAME's arch directory for
# kernel VERSION (fixups/VERSION/DIR/*.patch), in order.
fixups_of() {
	local f
	for f in "$FIXUPS/$2/${A_DIR[$1]}"/*.patch; do
		[[ ! -f $f ]] || echo "$f"
	done
}

# sync_src NAME SHA: A_SRC[NAME], the tree NAME compiles SHA in: the cross
# worktree, or, when SHA's version has base fixups for NAME, a worktree of
# NAME's arch directory at SHA with them applied (kept while SHA and the
# fixups stay the same).  A fixup that does not apply stops, naming it.
sync_src() {
	local name=$1 sha=$2 v dir want p
	local -a fx=()
	v=$(memo "version-$sha" kernel_version "$sha") || return 1
	capture fx fixups_of "$name" "$v"
	if ((${#fx[@]} == 0)); then
		A_SRC[$name]=$XSRC
		return 0
	fi
	dir=$XFIXED/${A_DIR[$name]}
	want=$(key_from 16 --run cat "${fx[@]}") || return 1
	want="$sha $want"
	if [[ $(cat "$dir.at" 2>/dev/null) != "$want" ]]; then
		rm -f "$dir.at"
		git_worktree_at "$TREE" "$dir" "$sha" || return 1
		for p in "${fx[@]}"; do
			git -C "$dir" apply "$p" ||
				{ warn "the base fixup ${p#"$WS_ROOT"/} does not apply to ${sha:0:12} ($v)"; return 1; }
		done
		echo "$want" >"$dir.at" || return 1
	fi
	A_SRC[$name]=$dir
}

# src_of NAME: the tree NAME compiles in (sync_src), the cross worktree
# until then.
src_of() {
	echo "${A_SRC[$1]:-$XSRC}"
}

# fixups_note NAME SHA: "; with base fixup(s) ..." for a row, when SHA's
# version has base fixups for NAME.
fixups_note() {
	local v list
	local f
	v=$(memo "version-$2" kernel_version "$2") || return 1
	list=$(memo "fixups-$1-$v" fixups_of "$1" "$v") || return 1
	[[ -n $list ]] || return 0
	printf '; with base fixup(s)'
	while IFS= read -r f; do
		printf ' %s' "${f#"$FIXUPS"/}"
	done <<<"$list"
}

# amake OUT NAME ARGS...: make in NAME's tree (src_of) for architecture
# NAME into the O= directory OUT/NAME.
amake() {
	local out=$1/$2 name=$2 prefix=${A_PREFIX[$2]}
	shift 2
	icecc_run "${prefix}gcc" make -C "$(src_of "$name")" O="$out" ARCH="${A_ARCH[$name]}" ${prefix:+CROSS_COMPILE=$prefix} \
		CC="ccache ${prefix}gcc" HOSTCC="ccache gcc" "$@"
}

# xmake NAME ARGS...: into NAME's per-commit O= ($XOUT).
xmake() {
	amake "$XOUT" "$@"
}

# config_recipe NAME: how NAME's per-commit .config is made: its config
# target (scripts/arches), then qemu/configs/commit.config merged on it.
config_recipe() {
	printf '%s\n' "${A_CONFIG[$1]}" && cat "$COMMIT_FRAGMENT"
}

# prepare_out NAME LOG: the architecture's O= directory, configured once
# per recipe (config_recipe, whose key .ws-recipe keeps beside the
# .config): the config target, commit.config merged, olddefconfig.
prepare_out() {
	local name=$1 log=$2 out=$XOUT/$1 want have=""
	want=$(key_from 16 --run memo "recipe-$name" config_recipe "$name") || return 1
	[[ ! -f $out/.ws-recipe ]] || read -r have <"$out/.ws-recipe" || true
	[[ -f $out/.config && $have == "$want" ]] && return 0
	mkdir -p "$out" && rm -f "$out/.ws-recipe" || return 1
	progress cross "  $name: make ${A_CONFIG[$name]} + ${COMMIT_FRAGMENT##*/} in $out"
	{
		xmake "$name" "${A_CONFIG[$name]}" &&
			"$(src_of "$name")/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" "$COMMIT_FRAGMENT" &&
			xmake "$name" olddefconfig
	} >>"$log" 2>&1 && echo "$want" >"$out/.ws-recipe" && return 0
	rm -f "$out/.config"
	return 1
}

# kbuild_files SHA: what decides which objects a configuration builds at
# SHA: the blobs of every Makefile, Kbuild, Kconfig and defconfig, and the
# names of the .c and .S files; not tools/ (make all builds no object of
# the kernel's there) nor Documentation/'s Makefiles and sources (only its
# Kconfig, which the top one sources), so that a commit that adds a
# selftest or a documentation example lists no architecture's objects
# again (each list is a dry run of make all, 20-40 s).
kbuild_files() {
	key_from 16 --run kbuild_listing "$1"
}

# kbuild_listing SHA: kbuild_files' listing.
kbuild_listing() {
	local list
	list=$(git_tree ls-tree -r "$1") || return 1
	awk -F'\t' '
		$2 ~ /^tools\// { next }
		$2 ~ /^Documentation\// && $2 !~ /(^|\/)Kconfig[^\/]*$/ { next }
		$2 ~ /(^|\/)(Makefile|Kbuild|Kconfig)[^\/]*$/ || $2 ~ /^arch\/[^\/]+\/configs\// { print; next }
		$2 ~ /\.[cS]$/ { print $2 }' <<<"$list"
}

# built_objects NAME SHA LOG: the file that lists, one a line, every object
# NAME's configuration builds at SHA (checked out in its tree), as kbuild
# itself says: a dry run of make all in NAME's O= directory, every object
# taken as changed (-W on the header every object includes), its
# compile lines read for their "-o" (paths normalized: arm64 builds
# virt/kvm/kvm_main.o as arch/arm64/kvm/../../../virt/kvm/kvm_main.o).
# Kept per architecture line, compiler and kbuild_files.
built_objects() {
	local name=$1 sha=$2 log=$3 key f src t0 tmp
	src=$(src_of "$name")
	local -a fixed=()
	[[ $src == "$XSRC" ]] || fixed=(--run cut -d' ' -f2 "$src.at")
	key=$(key_from 16 --text "${A_LINE[$name]}" --run memo "recipe-$name" config_recipe "$name" \
		--run cc_of "$name" --run memo "kbuild-$sha" kbuild_files "$sha" "${fixed[@]}") || return 1
	f=$XCACHE/objects/$name-$key
	tmp=$f.$BASHPID
	if [[ ! -s $f ]]; then
		t0=$(now)
		progress cross "  $name: which objects ${A_CONFIG[$name]} builds (make -n all)" >&2
		# prepare first, for the dry run; its messages go to LOG only when
		# it fails (the compile that follows prints them once).
		mkdir -p "${f%/*}" || return 1
		if ! xmake "$name" prepare >"$tmp.prepare" 2>&1; then
			cat "$tmp.prepare" >>"$log"
			rm -f "$tmp.prepare"
			return 1
		fi
		rm -f "$tmp.prepare"
		xmake "$name" -k -n -W "$src/include/linux/kconfig.h" all >"$tmp.dry" 2>&1 || true
		grep -oE "(^| )-o [^ ]+\.o( |$)" "$tmp.dry" | awk -v out="$XOUT/$name/" '{
				p = $2; if (index(p, out) == 1) p = substr(p, length(out) + 1)
				n = split(p, c, "/"); k = 0
				for (i = 1; i <= n; i++) {
					if (c[i] == "..") { if (k > 0) k-- } else if (c[i] != ".") s[++k] = c[i]
				}
				o = s[1]; for (i = 2; i <= k; i++) o = o "/" s[i]; print o
			}' | LC_ALL=C sort -u >"$tmp" || true
		[[ -s $tmp ]] || { warn "$name: make -n all listed no object (see $tmp.dry)"; return 1; }
		rm -f "$tmp.dry"
		mv "$tmp" "$f" || return 1
		bench cross "objects $name ${XOUT##*/}" $(($(now) - t0))
	fi
	echo "$f"
}

# compile NAME OBJLIST LOG [EMPTY]: compile the objects of OBJLIST whose source
# exists in NAME's tree and that its configuration builds (built_objects),
# each again even if make thinks it is up to date (ccache answers an
# unchanged one, with its warnings).  make's status.  The objects left out
# are listed in LOG, with the reason.  With no object left, make EMPTY if
# given (the parent's "prepare", for the messages of the prepare steps).
# make -Otarget keeps each object's lines together, so that a message
# names its object.  One job: kbuild builds an object as a single target
# once per top-level directory it lies under (arm's core-y has both
# arch/arm/ and arch/arm/mach-bcm/), and two jobs compiling the same
# object race (fixdep: error opening file).  CROSS_PAR cells run at once.
compile() {
	local name=$1 list=$2 log=$3 empty=${4:-} o built src
	local -a objs=()
	: >>"$log" || return 1
	prepare_out "$name" "$log" || return 1
	src=$(src_of "$name")
	# A prepare that fails (asm-offsets) fails here, before any object.
	built=$(built_objects "$name" "$(git -C "$src" rev-parse HEAD)" "$log") || { : >"$log.kept"; return 1; }
	while IFS= read -r o; do
		if [[ ! -e $src/${o%.o}.c && ! -e $src/${o%.o}.S ]]; then
			echo "cross.sh: $o: no source here, left out" >>"$log"
		elif grep -qxF -- "$o" "$built"; then
			objs+=("$o")
			rm -f "$XOUT/$name/$o"
		else
			echo "cross.sh: $o: not built by ${A_CONFIG[$name]}, left out: make -n all does not compile it" >>"$log"
		fi
	done <"$list"
	printf '%s\n' "${objs[@]}" | grep . >"$log.kept" || true
	((${#objs[@]})) || objs=("$empty")
	[[ -n ${objs[0]} ]] || return 0
	xmake "$name" -k -j1 -Otarget "${objs[@]}" >>"$log" 2>&1
}

# compiled NAME LOG: "MADE KEPT": how many of the objects compile kept for
# LOG (LOG.kept) the compile left in NAME's O= directory (compile removed
# each one first), and how many it kept; LOG.made lists the ones it left.
compiled() {
	local o made=0 kept=0
	: >"$2.made" || return 1
	while IFS= read -r o; do
		kept=$((kept + 1))
		[[ -e $XOUT/$1/$o ]] || continue
		made=$((made + 1))
		echo "$o" >>"$2.made" || return 1
	done <"$2.kept"
	echo "$made $kept"
}

# cell_code: the code a per-commit cell's result is a function of, from the
# checkout to the verdict (declare -f: no comments, one layout), and the
# Python it runs; what chooses the objects is in the key as its list.
cell_code() {
	declare -f checkout_xsrc fixups_of sync_src src_of amake xmake config_recipe prepare_out kbuild_files kbuild_listing built_objects \
		compile compiled judge cell_job run_cells cross_commit
	cat "$DIAG_PY"
}

# full_code: the same for a full build at a head, and its bisect.
full_code() {
	declare -f checkout_xsrc fixups_of sync_src src_of fixups_note amake fmake cross_fragments cross_fragments_text full_build \
		first_error head_build bisect_arch index_of cmd_step
	cat "$DIAG_PY"
}

# fixups_text NAME SHA: NAME's base fixups for SHA's version, whole.
fixups_text() {
	local v f
	v=$(memo "version-$2" kernel_version "$2") || return 1
	while IFS= read -r f; do
		echo "${f#"$FIXUPS"/}" && cat "$f" || return 1
	done < <(fixups_of "$1" "$v")
}

cc_of() {
	"${A_PREFIX[$1]}gcc" --version 2>/dev/null | sed -n 1p
}

# cell_key SHA PARENT NAME OBJLIST: what a cell's result is a function of;
# what it read goes to $XCACHE/inputs/NAME/SHA, for the cell's row
# (record_cell).
cell_key() {
	mkdir -p "$XCACHE/inputs/$3" || return 1
	KEY_INPUTS=$XCACHE/inputs/$3/$1 key_from 16 --text "$1 $2" "${A_LINE[$3]}" --run memo "recipe-$3" config_recipe "$3" \
		--run memo "cc-$3" cc_of "$3" --run cat "$4" --run fixups_text "$3" "$1" --run memo cell-code cell_code
}

# judge NAME DIR: the cell's "status detail" from DIR's commit.log and, when
# it was needed, parent.log (the new messages go to DIR/new.txt).  A build
# that fails before any object (in prepare: asm-offsets) at the parent too
# compiled nothing: a warning that says so, not a pass.
judge() {
	local name=$1 dir=$2 new nerr nwarn first msgs old orphan src
	src=$(src_of "$name")
	msgs=$("$DIAG_PY" list "$src" "$dir/commit.log") || return 1
	if grep -q '^tool' <<<"$msgs"; then
		echo "fail the compile could not run: $(grep -m1 '^tool' <<<"$msgs" | cut -f2)"
		return 0
	fi
	local made kept
	read -r made kept <"$dir/compiled" || { warn "$name: the compile left no count of its objects in $dir"; return 1; }
	if [[ ! -f $dir/parent.log ]]; then
		if [[ -n $msgs ]]; then
			warn "$name: the compile at the parent left no log in $dir"
			return 1
		elif [[ $(cat "$dir/commit.rc") != 0 ]]; then
			echo "fail make failed without a compiler message: $(tail -n1 "$dir/commit.log")"
		elif ((made == 0)) && ! grep -q . "$dir/objects"; then
			echo "untested 0 objects compiled: no file of the commit here compiles to an object (a Makefile, a Kconfig, a header no sampled file includes)"
		elif ((made == 0)); then
			echo "untested 0 objects compiled: ${A_CONFIG[$name]} builds none of the $(grep -c . "$dir/objects") planned (see the log for why each was left out)"
		else
			echo "pass $made compiled, no errors or warnings"
		fi
		return 0
	fi
	new=$("$DIAG_PY" new "$src" "$dir/commit.log" "$src" "$dir/parent.log") || return 1
	printf '%s\n' "$new" | grep . >"$dir/new.txt" || true
	nerr=$(grep -c '^error' "$dir/new.txt" || true)
	nwarn=$(grep -c '^warning' "$dir/new.txt" || true)
	first=$(head -n1 "$dir/new.txt" | tr '\t' ' ')
	if ((nerr > 0)); then
		echo "fail $nerr new error(s) against the parent: $first"
		return 0
	elif ((nwarn > 0)); then
		echo "warn $nwarn new warning(s) against the parent: $first"
		return 0
	fi
	old=$("$DIAG_PY" list "$src" "$dir/parent.log") || return 1
	orphan=$("$DIAG_PY" orphans "$src" "$dir/commit.log" | grep -m1 '^error' | cut -f2) || true
	if [[ $(cat "$dir/commit.rc") != 0 && -n $orphan ]]; then
		echo "untested nothing compiled: the ${A_CONFIG[$name]} build fails before any object, at the parent too: $orphan"
	elif [[ $(cat "$dir/commit.rc") != 0 ]] && ! grep -q '^error' <<<"$msgs"; then
		echo "fail make failed without a compiler message: $(tail -n1 "$dir/commit.log")"
	else
		local broken
		broken=$(grep '^error' <<<"$old" | cut -f2 | cut -d: -f1 | LC_ALL=C sort -u | xargs)
		if ((made == 0)); then
			echo "untested 0 objects compiled, and the parent has the same $(grep -c . <<<"$old" || true) message(s)${broken:+; with errors at the parent too: $broken}"
		else
			echo "pass $made compiled, no new errors or warnings (the parent has the same $(grep -c . <<<"$old" || true)${broken:+; with errors at the parent too, so not built by this config: $broken})"
		fi
	fi
}

# cell_job PHASE NAME: one architecture's compile of a cell (cross_commit's
# cell[] and desc[]): PHASE "commit" compiles its objects into commit.log
# and commit.rc; "parent" compiles, at the parent, the objects that printed
# messages, into parent.log.  Adds its seconds to the cell's secs file.
cell_job() {
	local phase=$1 name=$2 dir=${cell[$2]}.tmp t0 rc=0 before=0
	t0=$(now)
	if [[ $phase == commit ]]; then
		progress cross "  $name: ${desc[$name]}"
		compile "$name" "$dir/objects" "$dir/commit.log" || rc=$?
		echo "$rc" >"$dir/commit.rc" || return 1
		if [[ -f $dir/commit.log.kept ]]; then
			compiled "$name" "$dir/commit.log" >"$dir/compiled" || return 1
		fi
	else
		"$DIAG_PY" objects "$(src_of "$name")" "$dir/commit.log" >"$dir/parent-objects" || return 1
		progress cross "  $name: the parent, for the messages of $(grep -c . "$dir/parent-objects") object(s)"
		compile "$name" "$dir/parent-objects" "$dir/parent.log" prepare || true
	fi
	[[ ! -f $dir/secs ]] || before=$(cat "$dir/secs")
	echo $((before + $(now) - t0)) >"$dir/secs"
}

# run_cells PHASE NAME...: cell_job for each architecture, CROSS_PAR at a
# time (each make's serial part, reading the Makefiles and checking
# prepare, then overlaps another's compiles).  The jobs leave their results
# in files; a job that left none is caught by its caller.
run_cells() {
	local phase=$1 name running=0
	shift
	for name in "$@"; do
		if ((running >= CROSS_PAR)); then
			wait -n || true
			running=$((running - 1))
		fi
		cell_job "$phase" "$name" &
		running=$((running + 1))
	done
	wait
}

# cross_commit NAME IDX N SHA SUBJECT: every architecture of one commit.
cross_commit() {
	local series=$1 idx=$2 n=$3 sha=$4 subj=$5 parent line name dir msgs secs
	local -a lines=() todo=() again=()
	local -A desc=() cell=()
	parent=$(git_tree rev-parse "$sha^") || return 1
	capture lines arches_of "$sha"
	clear_cells "$series" "$idx" cross || return 1
	if ((${#lines[@]} == 0)); then
		progress cross "$series [$idx/$n] ${sha:0:12} $subj: no kernel code"
		record "$series" "$idx" "$sha" "$subj" cross skip 0 "nothing to compile: the commit changes no kernel code" "" ""
		return 0
	fi
	progress cross "$series [$idx/$n] ${sha:0:12} $subj: $(printf '%s\n' "${lines[@]}" | cut -d' ' -f1 | xargs)"
	mkdir -p "$XCACHE/plans"
	for line in "${lines[@]}"; do
		name=${line%% *}
		if [[ $name == -* ]]; then
			record "$series" "$idx" "$sha" "$subj" cross skip 0 "not covered: ${line#* }" "" "${name#-}"
			continue
		fi
		if ! command -v "${A_PREFIX[$name]}gcc" >/dev/null; then
			record "$series" "$idx" "$sha" "$subj" cross fail 0 \
				"no ${A_PREFIX[$name]}gcc on this machine: install ${A_PKG[$name]} (make deps)" "" "$name"
			continue
		fi
		desc[$name]=$(plan "$sha" "$name" "$XCACHE/plans/$name" && fixups_note "$name" "$sha") || return 1
		dir=$(cell_key "$sha" "$parent" "$name" "$XCACHE/plans/$name") || return 1
		dir=$XCACHE/$name/$sha-$dir
		cell[$name]=$dir
		# Only a pass, a warn or an untested (deterministic: nothing compiled) is taken from the cache: a failure may come
		# from the machine (a compiler missing) and is cheap to confirm.
		if [[ -f $dir/result ]] && grep -qE '^(pass|warn|untested) ' "$dir/result"; then
			record_cell "$series" "$idx" "$sha" "$subj" "$name" "$dir" "${desc[$name]}" " (cached)"
			continue
		fi
		rm -rf "$dir.tmp" && mkdir -p "$dir.tmp" || return 1
		cp "$XCACHE/plans/$name" "$dir.tmp/objects" || return 1
		todo+=("$name")
	done
	((${#todo[@]})) || return 0
	checkout_xsrc "$sha" "${todo[@]}" || { warn "cannot check out ${sha:0:12} in $XSRC"; return 1; }
	run_cells commit "${todo[@]}"
	for name in "${todo[@]}"; do
		dir=${cell[$name]}.tmp
		[[ -f $dir/commit.rc ]] || { warn "$name: the compile of ${sha:0:12} left no status"; return 1; }
		msgs=$("$DIAG_PY" list "$(src_of "$name")" "$dir/commit.log") || return 1
		if [[ $(cat "$dir/commit.rc") != 0 || -n $msgs ]]; then
			again+=("$name")
		fi
	done
	if ((${#again[@]})); then
		checkout_xsrc "$parent" "${again[@]}" || { warn "cannot check out ${parent:0:12} in $XSRC"; return 1; }
		run_cells parent "${again[@]}"
	fi
	for name in "${todo[@]}"; do
		dir=${cell[$name]}
		line=$(judge "$name" "$dir.tmp") || return 1
		secs=$(cat "$dir.tmp/secs") || return 1
		printf '%s %s %s\n' "${line%% *}" "$secs" "${line#* }" >"$dir.tmp/result" || return 1
		rm -rf "$dir" && mv "$dir.tmp" "$dir" || return 1
		record_cell "$series" "$idx" "$sha" "$subj" "$name" "$dir" "${desc[$name]}" ""
	done
}

# record_cell SERIES IDX SHA SUBJ NAME DIR DESC CACHED: one cell's row,
# naming the objects it compiled, the commit's own files first (eight; the
# log has them all).
record_cell() {
	local status secs detail log=$6/commit.log made="" own
	read -r status secs detail <"$6/result"
	[[ ! -s $6/new.txt ]] || log=$6/new.txt
	if [[ -s $6/commit.log.made ]]; then
		own=$(touched_files "$3" | sed -nE 's/\.[cS]$/.o/p') || return 1
		made=$({
			grep -xF -e "$own" "$6/commit.log.made" || true
			grep -vxF -e "$own" "$6/commit.log.made" || true
		} | awk 'NR <= 8 { printf "%s%s", (NR > 1 ? " " : ""), $0 } END { if (NR > 8) printf " and %d more", NR - 8 }') ||
			return 1
	fi
	printf '  %-8s %s: %s%s\n' "$5" "$status" "$detail" "$8"
	CELL_INPUTS=$XCACHE/inputs/$5/$3 \
		record "$1" "$2" "$3" "$4" cross "$status" "$secs" "$7; $detail${made:+ ($made)}${8:+, cached}" "$log" "$5"
	bench cross "$1/$2 $5${8}" "$secs"
}

# smoke_out_for SHA: SMOKE_OUT for the commits of SHA's kernel line: the
# smoke build of that line (buildlib.sh's build_dir), unless SMOKE_OUT was
# given.
smoke_out_for() {
	if [[ -n $SMOKE_OUT_GIVEN ]]; then
		SMOKE_OUT=$SMOKE_OUT_GIVEN
	else
		SMOKE_OUT=$(line_dir "$WORKDIR/build/smoke" "$1")
	fi
}

cross_series() {
	local name=$1 idx sha subj rc=0 row n base
	local -a rows
	capture rows series_commits "$name"
	n=$((${#rows[@]} - 1))
	read -r _ base _ <<<"${rows[0]}"
	smoke_out_for "$base"
	[[ -d $SMOKE_OUT ]] ||
		warn "no smoke build in $SMOKE_OUT yet (make bisect-build): headers are compiled through their direct users only"
	for row in "${rows[@]:1}"; do
		read -r idx sha subj <<<"$row"
		cross_commit "$name" "$idx" "$n" "$sha" "$subj" || {
			warn "$name [$idx/$n]: the workspace could not cross-compile ${sha:0:12}"
			rc=1
		}
	done
	return $rc
}

cmd_series() {
	require_tree
	take_lock
	load_arches
	local s rc=0
	local -a selected
	capture selected selected_series
	drop_unversioned_outs
	MEMO=$XCACHE/memo.$$
	mkdir -p "$MEMO" || die "cannot create $MEMO"
	trap 'rm -rf "$MEMO"' EXIT
	for s in "${selected[@]}"; do
		cross_series "$s" || rc=1
	done
	return $rc
}

# drop_unversioned_outs: the O= directories of an earlier layout,
# $XOUT_ROOT/<arch>, shared by every kernel version, go.
drop_unversioned_outs() {
	local name
	for name in "${!A_ARCH[@]}"; do
		[[ -f $XOUT_ROOT/$name/.config ]] || continue
		progress cross "  removing $XOUT_ROOT/$name: the O= directories are per kernel version now"
		rm -rf "${XOUT_ROOT:?}/$name" || warn "cannot remove $XOUT_ROOT/$name"
	done
}

# fmake NAME ARGS...: into NAME's full-build O= ($XFULL).
fmake() {
	amake "$XFULL" "$@"
}

# cross_fragments NAME: the fragments a full build merges onto NAME's
# tinyconfig: qemu/configs/cross.config, then cross-NAME.config beside it
# when there is one (um's asks for a 64-bit UML: with the kernel's SUBARCH
# x86, tinyconfig leaves it 32-bit, whose user-space half wants the host's
# 32-bit uapi headers).
cross_fragments() {
	local own=${CROSS_FRAGMENT%.config}-$1.config
	echo "$CROSS_FRAGMENT"
	[[ ! -f $own ]] || echo "$own"
}

# cross_fragments_text NAME: the text of NAME's fragments, in order.
cross_fragments_text() {
	local -a f
	mapfile -t f < <(cross_fragments "$1")
	cat "${f[@]}"
}

# full_build NAME LOG: tinyconfig + cross.config and make -k vmlinux of the
# commit checked out in $XSRC, with NAME's base fixups (sync_src).  0
# builds, 1 does not, 2 cannot be configured.
full_build() {
	local name=$1 log=$2 sha
	local -a frags
	mkdir -p "$XFULL/$name" || return 2
	sha=$(git -C "$XSRC" rev-parse HEAD) && sync_src "$name" "$sha" || return 2
	fixups_note "$name" "$sha" >>"$log" || return 2
	capture frags cross_fragments "$name" || return 2
	{
		fmake "$name" tinyconfig &&
			"$(src_of "$name")/scripts/kconfig/merge_config.sh" -m -O "$XFULL/$name" "$XFULL/$name/.config" "${frags[@]}" &&
			fmake "$name" olddefconfig
	} >>"$log" 2>&1 || return 2
	fmake "$name" -k -j"$JOBS" vmlinux >>"$log" 2>&1 || return 1
}

# first_error LOG NAME: the first compiler or linker error of a build log
# of NAME's.
first_error() {
	local e
	e=$("$DIAG_PY" list "$(src_of "$2")" "$1" | grep -m1 -E '^(error|tool)' | cut -f2) || true
	[[ -n $e ]] || e=$(grep -m1 -E 'undefined reference|Error [0-9]+' "$1" || tail -n1 "$1")
	printf '%s\n' "$e"
}

# series_arches NAME: the covered architectures any commit of the series
# concerns, in scripts/arches order.
series_arches() {
	local sha line
	local -A want=()
	while read -r _ sha _; do
		while read -r line; do
			[[ -n $line && $line != -* ]] && want[$line]=1
		done < <(arches_of "$sha")
	done < <(series_commits "$1" | tail -n +2)
	for line in "${A_NAMES[@]}"; do
		[[ -z ${want[$line]:-} ]] || echo "$line"
	done
}

# bisect_arch NAME BASE HEAD LOG: the first commit of BASE..HEAD that does
# not build on NAME, by git bisect run in $XSRC; prints its sha.
bisect_arch() {
	local name=$1 base=$2 head=$3 log=$4 bad
	git -C "$XSRC" bisect reset >/dev/null 2>&1 || true
	{
		git -C "$XSRC" bisect start "$head" "$base" &&
			(cd "$XSRC" && git bisect run bash "$WS_ROOT/scripts/cross.sh" step "$name")
	} >>"$log" 2>&1 || { git -C "$XSRC" bisect reset >/dev/null 2>&1; return 1; }
	bad=$(git -C "$XSRC" rev-parse -q --verify refs/bisect/bad) || bad=""
	git -C "$XSRC" bisect reset >/dev/null 2>&1 || true
	[[ -n $bad ]] && echo "$bad"
}

# index_of NAME SHA: "idx/n subject" of a commit of the series.
index_of() {
	series_commits "$1" | awk -v s="$2" -v n="$(($(series_commits "$1" | wc -l) - 1))" \
		'$2 == s { i = $1; $1 = ""; $2 = ""; sub(/^ +/, ""); print i "/" n " " $0 }'
}

# head_build SERIES NAME BASE HEAD IDX SUBJ: the full build of NAME at the
# head, and the bisect when it fails; one row.
head_build() {
	local series=$1 name=$2 base=$3 head=$4 idx=$5 subj=$6 key dir t0 rc=0 detail status bad
	key=$(key_from 16 --text "$head" "${A_LINE[$name]}" --run memo "recipe-$name" config_recipe "$name" \
		--run cc_of "$name" --run cross_fragments_text "$name" --run fixups_text "$name" "$head" \
		--run full_code) || return 1
	dir=$XCACHE/full/$name/$head-$key
	if [[ -f $dir/result ]] && grep -qE '^(pass|warn|untested) ' "$dir/result"; then
		read -r status secs detail <"$dir/result"
		printf '  %-8s %s: %s (cached)\n' "$name" "$status" "$detail"
		record "$series" "$idx" "$head" "$subj" full-build "$status" "$secs" "$detail, cached" "$dir/build.log" "$name"
		return 0
	fi
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	t0=$(now)
	progress cross "  $name: make -k vmlinux (tinyconfig + cross.config)"
	checkout_xsrc "$head" || return 1
	full_build "$name" "$dir/build.log" || rc=$?
	case $rc in
	0) status=pass detail="vmlinux links (tinyconfig + cross.config)$(fixups_note "$name" "$head")" ;;
	2) status=fail detail="cannot configure: $(tail -n1 "$dir/build.log")" ;;
	*)
		status=fail detail="does not build: $(first_error "$dir/build.log" "$name")"
		progress cross "  $name: the head fails; the base first, then git bisect run"
		checkout_xsrc "$base" || return 1
		if ! full_build "$name" "$dir/base.log"; then
			# Message by message: an error the base does not have is
			# the series' own (XSRC is the same worktree for both).
			local new
			new=$("$DIAG_PY" new "$(src_of "$name")" "$dir/build.log" "$(src_of "$name")" "$dir/base.log") || return 1
			new=$(grep '^error' <<<"$new" | cut -f2) || new=""
			if [[ -n $new ]]; then
				status=fail
				detail="$(grep -c . <<<"$new") new error(s) against the base $(git_tree log -1 --format=%h "$base"), which does not build either: $(head -n1 <<<"$new")"
			else
				status=untested detail="$detail; the base $(git_tree log -1 --format=%h "$base") does not build either, with the same errors, so this build verified nothing: $(first_error "$dir/base.log" "$name")"
			fi
		elif bad=$(bisect_arch "$name" "$base" "$head" "$dir/bisect.log"); then
			detail="first bad commit: [$(index_of "$series" "$bad")] ${bad:0:12}: $(first_error "$XCACHE/bisect/$name/$bad.log" "$name")"
		else
			detail="$detail; git bisect run found no first bad commit (log: $dir/bisect.log)"
		fi
		;;
	esac
	printf '%s %s %s\n' "$status" $(($(now) - t0)) "$detail" >"$dir/result" || return 1
	printf '  %-8s %s: %s\n' "$name" "$status" "$detail"
	record "$series" "$idx" "$head" "$subj" full-build "$status" $(($(now) - t0)) "$detail" "$dir/build.log" "$name"
	bench full-build "$series $name" $(($(now) - t0))
	[[ $status != fail ]]
}

cmd_heads() {
	require_tree
	take_lock
	load_arches
	local s rc=0 name base head idx subj
	local -a selected arches rows
	capture selected selected_series
	for s in "${selected[@]}"; do
		capture rows series_commits "$s"
		read -r _ base _ <<<"${rows[0]}"
		read -r idx head subj <<<"${rows[-1]}"
		capture arches series_arches "$s"
		progress cross "$s: full builds at the head ${head:0:12}: ${arches[*]}"
		clear_cells "$s" "$idx" full-build || return 1
		for name in "${arches[@]}"; do
			head_build "$s" "$name" "$base" "$head" "$idx" "$subj" || rc=1
		done
	done
	return $rc
}

# test_result DIR: how guest test $TEST ended in the boot logs DIR: ok,
# fail, or nothing when it did not run (qemu/ktap-verdict --result).
test_result() {
	[[ -f $1/ktap.log ]] || return 0
	"$WS_ROOT/qemu/ktap-verdict" --result "$TEST" "$1/ktap.log"
}

# step_test NAME SHA: the bisect step of make bisect TEST=...: boot the
# commit and read how the test ended (0 ok, 1 failed, 125 did not run).
step_test() {
	local name=$1 sha=$2 dir r
	dir=$(BOOT_ARCH=$(boot_arch "$name") bash "$WS_ROOT/scripts/boot.sh" commit "$sha") || exit 125
	r=$(test_result "$dir")
	echo "bisect step: $name ${sha:0:12}: $TEST: ${r:-did not run} (logs: $dir)"
	case $r in
	ok) exit 0 ;;
	fail) exit 1 ;;
	*) exit 125 ;;
	esac
}

# boot_arch NAME: the BOOT_ARCH that boots architecture NAME.
boot_arch() {
	case $1 in
	x86_64 | arm64) echo "$1" ;;
	*) die "TEST=$TEST: only x86_64 and arm64 are booted, not $1" ;;
	esac
}

# cmd_step NAME: one step of git bisect run, in $XSRC as it is checked out.
cmd_step() {
	local name=$1 sha log rc=0
	load_arches
	[[ -n ${A_ARCH[$name]:-} ]] || die "unknown architecture '$name' (scripts/arches)"
	sha=$(git -C "$XSRC" rev-parse HEAD) || exit 125
	[[ -z ${TEST:-} ]] || step_test "$name" "$sha"
	log=$XCACHE/bisect/$name/$sha.log
	mkdir -p "${log%/*}" && : >"$log" || exit 125
	full_build "$name" "$log" || rc=$?
	echo "bisect step: $name ${sha:0:12}: $([[ $rc == 0 ]] && echo builds || echo "does not build: $(first_error "$log" "$name")")"
	case $rc in
	0) exit 0 ;;
	1) exit 1 ;;
	*) exit 125 ;;
	esac
}

# cmd_bisect SERIES NAME: make bisect.
cmd_bisect() {
	local series=$1 name=$2 base head bad log r what=build
	require_tree
	take_lock
	load_arches
	check_series "$series"
	[[ -n ${A_ARCH[$name]:-} ]] ||
		die "ARCH=$name is not an architecture of scripts/arches (they are: ${A_NAMES[*]})"
	[[ ${A_SET[$name]} != none ]] || die "ARCH=$name is not covered: ${A_CONFIG[$name]}"
	[[ -z ${TEST:-} ]] || { boot_arch "$name" >/dev/null; what="test $TEST"; }
	base=$(git_tree rev-parse "$(base_ref "$series")") || exit 1
	head=$(git_tree rev-parse "refs/heads/$series") || exit 1
	log=$XCACHE/bisect/$name/bisect-$series.log
	mkdir -p "${log%/*}"
	: >"$log"
	progress bisect "$series on $name, $what: the head ${head:0:12}"
	if [[ -n ${TEST:-} ]]; then
		r=$(test_result "$(BOOT_ARCH=$name bash "$WS_ROOT/scripts/boot.sh" commit "$head")")
		[[ -n $r ]] || die "guest test '$TEST' does not run at the head of $series on $name (its KTAP names the tests)"
		if [[ $r == ok ]]; then
			echo "$TEST passes at the head of $series on $name: nothing to bisect"
			return 0
		fi
		r=$(test_result "$(BOOT_ARCH=$name bash "$WS_ROOT/scripts/boot.sh" commit "$base")")
		[[ $r != fail ]] || die "$TEST fails at the base of $series on $name too: not the series' fault"
		checkout_xsrc "$head" || die "cannot check out ${head:0:12} in $XSRC"
	else
		checkout_xsrc "$head" || die "cannot check out ${head:0:12} in $XSRC"
		if full_build "$name" "$log"; then
			echo "the head of $series builds on $name: nothing to bisect"
			return 0
		fi
		progress bisect "$series on $name: the head fails ($(first_error "$log" "$name")); the base ${base:0:12}"
		checkout_xsrc "$base" || die "cannot check out ${base:0:12} in $XSRC"
		full_build "$name" "$log" ||
			die "the base of $series does not build on $name either ($(first_error "$log" "$name")): not the series' fault; log: $log"
	fi
	progress bisect "$series on $name: git bisect run (log: $log)"
	bad=$(bisect_arch "$name" "$base" "$head" "$log") || die "git bisect run found no first bad commit; log: $log"
	if [[ -n ${TEST:-} ]]; then
		printf 'first bad commit: %s [%s] %s\n  %s fails there; log: %s\n' "$series" "$(index_of "$series" "$bad")" \
			"${bad:0:12}" "$TEST" "$log"
	else
		printf 'first bad commit: %s [%s] %s\n  %s\n  log: %s\n' "$series" "$(index_of "$series" "$bad")" "${bad:0:12}" \
			"$(first_error "$XCACHE/bisect/$name/$bad.log" "$name")" "$XCACHE/bisect/$name/$bad.log"
	fi
}

require_scale_out
case ${1:-series} in
series) cmd_series ;;
heads) cmd_heads ;;
step) cmd_step "${2:?usage: cross.sh step ARCH}" ;;
bisect) cmd_bisect "${2:?usage: cross.sh bisect SERIES ARCH}" "${3:?usage: cross.sh bisect SERIES ARCH}" ;;
*) die "usage: cross.sh series | heads | bisect SERIES ARCH | step ARCH" ;;
esac
