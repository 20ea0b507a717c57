# shellcheck shell=bash
# shellcheck disable=SC2154 # tree, scratch, commit, log, targets: set by the run script that sources this
# checks/lib/kbuild.sh: what the checks that compile share.  Sourced by a
# check's run script after it has set $tree (the kernel tree) and $scratch
# (its CHECK_SCRATCH).  Each check keeps its own worktree ($scratch/src) and
# its own O= directory ($scratch/obj), so checks never disturb each other or
# the user's tree, and a later run only recompiles what changed.
#
# Every function here returns non-zero, with a message on stderr, when it
# could not do its work; callers must not take that for "nothing to report".

src=$scratch/src
obj=$scratch/obj
kbuild_ws_root=${WS_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
FEATURES_CONFIG=${FEATURES_CONFIG:-$kbuild_ws_root/qemu/configs/features.config}
# What allmodconfig turns on that only slows a compile down or turns
# warnings into errors (WERROR, the sanitizers, coverage, debug info).
config_off=(WERROR GCOV_KERNEL UBSAN KASAN KCSAN KCOV GCC_PLUGINS
	DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT DEBUG_INFO_DWARF4 DEBUG_INFO_DWARF5)
config_on=(DEBUG_INFO_NONE)
# The compiler, as kbuild gets it (CC=).
read -r -a check_cc <<<"${CHECK_CC:-ccache gcc}"

# shellcheck source=checks/lib/worktree.sh
source "$kbuild_ws_root/checks/lib/worktree.sh"

# cc_version: the compiler's first --version line.
cc_version() {
	"${check_cc[@]}" --version 2>&1 | sed -n 1p
}

# touched REGEX: files the commit adds or modifies whose path matches REGEX.
touched() {
	local list
	list=$(git_touched "$tree" "$commit" AM) ||
		{ echo "git diff-tree $commit failed" >&2; return 1; }
	grep -E "$1" <<<"$list" || true
}

# x86_buildable FILE: FILE is not under another architecture's arch/, nor
# UML's half of arch/x86/ (arch/x86/um/, which only ARCH=um builds: the
# cross-compile's um cells compile it).
x86_buildable() {
	[[ $1 != arch/* || ($1 == arch/x86/* && $1 != arch/x86/um/*) ]]
}

# header_users HEADER: up to two .c files at $commit that include HEADER
# directly, so that a header-only change is compiled somewhere.
header_users() {
	local h=$1 pattern list rc=0
	case $h in
	include/uapi/*) pattern="#include <${h#include/uapi/}>" ;;
	include/*) pattern="#include <${h#include/}>" ;;
	arch/x86/include/uapi/*) pattern="#include <${h#arch/x86/include/uapi/}>" ;;
	arch/x86/include/*) pattern="#include <${h#arch/x86/include/}>" ;;
	arch/*) return 0 ;;
	*) pattern="#include \"${h##*/}\"" ;;
	esac
	# git grep: 0 found, 1 none, anything else an error.
	list=$(git_tree grep -l -F "$pattern" "$commit" -- "${h%/*}/*.c" '*.c') || rc=$?
	((rc <= 1)) || { echo "git grep in $commit failed" >&2; return 1; }
	[[ -n $list ]] || return 0
	grep -vE '^(arch/[^x]|arch/x[^8]|tools/|samples/|Documentation/)' <<<"${list//"$commit:"/}" |
		head -n2 || true
}

# objects: the .o targets for the commit: every touched .c that x86 can
# build, or, when it touches only headers, a couple of their users.
objects() {
	local f text
	local -a cfiles=() headers=() files=()
	text=$(touched '\.c$') || return 1
	[[ -z $text ]] || mapfile -t cfiles <<<"$text"
	for f in "${cfiles[@]}"; do
		if x86_buildable "$f"; then files+=("$f"); fi
	done
	if ((${#cfiles[@]} == 0)); then
		text=$(touched '\.h$') || return 1
		[[ -z $text ]] || mapfile -t headers <<<"$text"
		for f in "${headers[@]}"; do
			text=$(header_users "$f") || return 1
			[[ -z $text ]] || files+=("$text")
		done
	fi
	((${#files[@]})) || return 0
	printf '%s\n' "${files[@]}" | grep -vE '^(tools|samples|scripts|Documentation|usr)/' |
		sed 's/\.c$/.o/' | LC_ALL=C sort -u || true
}

# configured_objects OBJ...: those of OBJ that the .config in $obj builds,
# one a line; the others are named on stderr.  An object that its
# directory's Makefile lists only as NAME-$(CONFIG_X) += ... with CONFIG_X
# neither y nor m is left out (fs/binfmt_elf_fdpic.o on x86); one listed
# under a plain NAME-y, or not found there, is kept and make decides.
configured_objects() {
	local o name keep var
	local -a vars
	for o in "$@"; do
		name=${o##*/}
		keep=1
		if [[ -f $src/${o%/*}/Makefile && $o == */* ]]; then
			mapfile -t vars < <(makefile_vars_listing "$src/${o%/*}/Makefile" "$name")
			((${#vars[@]} == 0)) || keep=0
			for var in "${vars[@]}"; do
				if [[ $var != *\$\(CONFIG_*\) ]]; then
					keep=1
					break
				fi
				var=${var##*\$\(}
				if grep -qE "^${var%)}=[ym]\$" "$obj/.config"; then
					keep=1
					break
				fi
			done
		fi
		if ((keep)); then
			echo "$o"
		else
			echo "left out: $o (not in this .config: ${vars[*]})" >&2
		fi
	done
}

# makefile_vars_listing MAKEFILE NAME: the variables (obj-$(CONFIG_X),
# lib-y...) that MAKEFILE adds NAME to, continuation lines joined.
makefile_vars_listing() {
	local re=${2//./\\.}
	sed -e ':a' -e '/\\$/N' -e 's/\\\n/ /' -e 'ta' "$1" |
		sed -nE "s/^[[:space:]]*([A-Za-z0-9_-]+(\\\$\\(CONFIG_[A-Za-z0-9_]+\\))?)[[:space:]]*[+:]?=(.*[[:space:]/])?$re([[:space:]].*)?\$/\\1/p" || true
}

# features REV: the options of qemu/configs/features.config ($FEATURES_CONFIG)
# that apply to REV, one a line, as scripts/build.sh takes them: each line
# there is a feature, its first option and then the options it needs; it
# applies where REV's Kconfig files define the first option.
features() {
	local rev=$1 first sym rc
	local -a opts
	[[ -f $FEATURES_CONFIG ]] || return 0
	while read -r -a opts; do
		((${#opts[@]})) || continue
		first=${opts[0]}
		if [[ $first != CONFIG_?*=* ]]; then
			echo "$FEATURES_CONFIG: '$first' is not a CONFIG_NAME=value option" >&2
			return 1
		fi
		sym=${first%%=*}
		rc=0
		git_tree grep -qE "^[[:space:]]*(menu)?config ${sym#CONFIG_}"'[[:space:]]*$' \
			"$rev" -- '*Kconfig*' || rc=$?
		case $rc in
		0) printf '%s\n' "${opts[@]}" ;;
		1) ;;
		*) echo "git grep for $sym in the Kconfig files of $rev failed" >&2; return 1 ;;
		esac
	done < <(sed 's/#.*//' "$FEATURES_CONFIG")
}

# config_args OPTION...: scripts/config arguments that set each
# CONFIG_NAME=value.
config_args() {
	local o sym val
	for o in "$@"; do
		sym=${o%%=*}
		sym=${sym#CONFIG_}
		val=${o#*=}
		case $val in
		y) printf '%s\n' -e "$sym" ;;
		m) printf '%s\n' -m "$sym" ;;
		n) printf '%s\n' -d "$sym" ;;
		\"*\") val=${val#\"}; printf '%s\n' --set-str "$sym" "${val%\"}" ;;
		*) printf '%s\n' --set-val "$sym" "$val" ;;
		esac
	done
}

# config_key REV: what REV's configuration is a function of: the options
# above, the features that apply, the Kconfig files, kconfig itself and the
# compiler (Kconfig tests it).  Commits with the same key get the same
# .config, so configure does nothing for them.
config_key() {
	local rev=$1 feats files cc
	feats=$(features "$rev") || return 1
	files=$(git_tree ls-tree -r "$rev") || { echo "git ls-tree $rev failed" >&2; return 1; }
	cc=$(cc_version) || return 1
	key_from 32 --text "x86_64 allmodconfig -d ${config_off[*]} -e ${config_on[*]}" "$feats" \
		--run kconfig_listing "$files" --text "$cc"
}

# kconfig_listing LS_TREE: the lines of LS_TREE (git ls-tree -r's) that
# decide a configuration: Kconfig files, kconfig and its scripts.
kconfig_listing() {
	grep -E '	(.*/)?Kconfig[^/]*$|	scripts/kconfig/|	scripts/[^/]*\.sh$' <<<"$1" || true
}

# verify_config FILE OPTION...: each OPTION is what FILE (a .config) has.
verify_config() {
	local file=$1 o
	shift
	for o in "$@"; do
		case $o in
		*=n) ! grep -q "^${o%=n}=" "$file" ;;
		*) grep -qxF -- "$o" "$file" ;;
		esac || { echo "features.config asks for $o, but the .config does not have it" >&2; return 1; }
	done
}

# generate_config REV DIR: REV's configuration in DIR/.config (DIR is a
# kconfig-only O= directory, kept so that kconfig's tools are built once):
# an x86_64 allmodconfig, then config_off/config_on, then the features of
# features.config that apply to REV, then olddefconfig.  $src is at REV.
generate_config() {
	local rev=$1 dir=$2 text
	local -a feats=() args=()
	text=$(features "$rev") || return 1
	[[ -z $text ]] || mapfile -t feats <<<"$text"
	for text in "${config_off[@]}"; do args+=(-d "$text"); done
	for text in "${config_on[@]}"; do args+=(-e "$text"); done
	if ((${#feats[@]})); then
		text=$(config_args "${feats[@]}") || return 1
		mapfile -t -O "${#args[@]}" args <<<"$text"
	fi
	mkdir -p "$dir" || return 1
	{
		make -s -C "$src" O="$dir" CC="${check_cc[*]}" allmodconfig &&
			"$src/scripts/config" --file "$dir/.config" "${args[@]}" &&
			make -s -C "$src" O="$dir" CC="${check_cc[*]}" olddefconfig
	} >"$dir/config.log" 2>&1 ||
		{ echo "could not configure ${rev:0:12} (allmodconfig): $(tail -n1 "$dir/config.log")" >&2; return 1; }
	((${#feats[@]} == 0)) || verify_config "$dir/.config" "${feats[@]}"
}

# configure REV MAKEARG...: $obj configured for REV (checked out in $src)
# and prepared: generated headers and host tools built with the check's own
# flags (W=1 changes some; C= is left out, it would check it all), so that
# later builds do not redo it.  The configuration is made for every commit
# (generate_config) but $obj/.config is replaced, and prepare run again,
# only when it differs, so that unchanged commits rebuild nothing.  Records
# the .config's hash for config_hash.  Messages of prepare go to
# $obj/prepare.log and never count.
configure() {
	local rev=$1 key hash
	shift
	key=$(config_key "$rev") || return 1
	if [[ -f $obj/prepare.done && -f $obj/.config &&
		$(cat "$obj/.ws-config-key" 2>/dev/null) == "$key" ]]; then
		return 0
	fi
	generate_config "$rev" "$scratch/kconfig" || return 1
	mkdir -p "$obj" "$scratch/config-hash" || return 1
	if ! [[ -f $obj/prepare.done ]] || ! cmp -s "$scratch/kconfig/.config" "$obj/.config"; then
		rm -f "$obj/prepare.done" "$obj/.ws-config-key"
		cp "$scratch/kconfig/.config" "$obj/.config" || return 1
		{
			make -s "${kbuild[@]}" olddefconfig &&
				make -s "${kbuild[@]}" "${@/#C=*/C=0}" prepare scripts
		} >"$obj/prepare.log" 2>&1 ||
			{ echo "make prepare failed in $obj: $(tail -n1 "$obj/prepare.log") (see $obj/prepare.log)" >&2; return 1; }
		touch "$obj/prepare.done"
	fi
	hash=$(key_from 32 --run cat "$obj/.config") || return 1
	echo "$hash" >"$scratch/config-hash/$key"
	echo "$key" >"$obj/.ws-config-key"
}

# config_hash REV MAKEARG...: the hash of REV's .config; REV is checked
# out and configured first unless a commit with the same config_key has
# been.
config_hash() {
	local rev=$1 key
	key=$(config_key "$rev") || return 1
	if [[ ! -f $scratch/config-hash/$key ]]; then
		local -a kbuild=(-C "$src" O="$obj" -j"${JOBS:-$(nproc)}" CC="${check_cc[*]}")
		checkout "$rev" || { echo "could not check out $rev in $src" >&2; return 1; }
		configure "$@" || return 1
	fi
	cat "$scratch/config-hash/$key"
}

# compile_messages REV OUT MAKEARG...: build the objects at REV with the
# extra make arguments (C=2, W=1), each recompiled so that every message is
# seen; OUT gets kbuild's output, and stdout the messages, one per line, with
# the worktree's path, the line and the column taken out, so that moved code
# does not count as new.  Returns make's status, or 125 (a reason in OUT)
# when REV could not be checked out or configured.
compile_messages() {
	local rev=$1 out=$2 rc=0 o
	shift 2
	local -a kbuild=(-C "$src" O="$obj" -j"${JOBS:-$(nproc)}" CC="${check_cc[*]}")
	: >"$out" || return 125
	checkout "$rev" 2>>"$out" || { echo "could not check out $rev in $src" >>"$out"; return 125; }
	configure "$rev" "$@" 2>>"$out" || return 125
	local -a built
	mapfile -t built < <(configured_objects "${targets[@]}" 2>>"$out") || return 125
	if ((${#built[@]} == 0)); then
		echo "no object of ${targets[*]} is in this .config" >>"$out"
		return 0
	fi
	# C=2 checks every target anyway; otherwise each object is compiled
	# again so that its warnings show (ccache replays them).
	if [[ " $* " != *" C=2 "* ]]; then
		for o in "${built[@]}"; do rm -f "$obj/$o"; done
	fi
	LC_ALL=C make -k "${kbuild[@]}" "$@" "${built[@]}" >>"$out" 2>&1 || rc=$?
	grep -E '(warning|error): ' "$out" | sed -E "s#$src/##g; s#^([^: ]+):[0-9]+(:[0-9]+)?: #\\1: #; s#‘|’#'#g" |
		LC_ALL=C sort || true
	return $rc
}
