# shellcheck shell=bash
# shellcheck disable=SC2154 # tree, scratch, commit, log, targets: set by the run script that sources this
# checks/lib/kbuild.sh: what the checks that compile share.  Sourced by a
# check's run script after it has set $tree (the kernel tree) and $scratch
# (its CHECK_SCRATCH).  Each check keeps its own worktree ($scratch/src) and
# its own O= directory ($scratch/obj), so checks never disturb each other or
# the user's tree, and a later run only recompiles what changed.

src=$scratch/src
obj=$scratch/obj

git_tree() {
	git -C "$tree" "$@"
}

# same_repo: $src is a worktree of $tree.
same_repo() {
	[[ -e $src/.git ]] &&
		[[ $(git -C "$src" rev-parse --path-format=absolute --git-common-dir) == \
			"$(git_tree rev-parse --path-format=absolute --git-common-dir)" ]]
}

# checkout REV: the worktree $src at REV, clean.  Only the files that differ
# get new times, so kbuild rebuilds only what depends on them.
checkout() {
	if ! same_repo; then
		rm -rf "$src"
		git_tree worktree prune
		git_tree worktree add -q --detach "$src" "$1"
	fi
	git -C "$src" checkout -q -f --detach "$1"
	git -C "$src" clean -fdxq
}

# touched REGEX: files the commit adds or modifies whose path matches REGEX.
touched() {
	git_tree diff-tree --no-commit-id --name-only -r --diff-filter=AM "$commit" |
		grep -E "$1" || true
}

# x86_buildable FILE: FILE is not under another architecture's arch/.
x86_buildable() {
	[[ $1 != arch/* || $1 == arch/x86/* ]]
}

# header_users HEADER: up to two .c files at $commit that include HEADER
# directly, so that a header-only change is compiled somewhere.
header_users() {
	local h=$1 pattern
	case $h in
	include/uapi/*) pattern="#include <${h#include/uapi/}>" ;;
	include/*) pattern="#include <${h#include/}>" ;;
	arch/x86/include/uapi/*) pattern="#include <${h#arch/x86/include/uapi/}>" ;;
	arch/x86/include/*) pattern="#include <${h#arch/x86/include/}>" ;;
	arch/*) return 0 ;;
	*) pattern="#include \"${h##*/}\"" ;;
	esac
	git_tree grep -l -F "$pattern" "$commit" -- "${h%/*}/*.c" '*.c' 2>/dev/null |
		sed "s/^$commit://" | grep -vE '^(arch/[^x]|arch/x[^8]|tools/|samples/|Documentation/)' |
		head -n2 || true
}

# objects: the .o targets for the commit: every touched .c that x86 can
# build, or, when it touches only headers, a couple of their users.
objects() {
	local f
	local -a cfiles headers
	mapfile -t cfiles < <(touched '\.c$')
	mapfile -t headers < <(touched '\.h$')
	{
		for f in "${cfiles[@]}"; do x86_buildable "$f" && echo "$f"; done
		if ((${#cfiles[@]} == 0)); then
			for f in "${headers[@]}"; do header_users "$f"; done
		fi
	} | grep -vE '^(tools|samples|scripts|Documentation|usr)/' | sed 's/\.c$/.o/' | sort -u || true
}

# configure MAKEARG...: an allmodconfig for x86_64 in $obj, without the
# options that only slow a compile down or turn warnings into errors
# (WERROR, the sanitizers, coverage, debug info), and what objects need
# first (generated headers, host tools), built with the check's own flags
# (W=1 changes some; C= is left out, it would check it all) so that later
# builds do not redo it.  Made once; kbuild keeps it in step with later
# commits.  Its messages go to $obj/prepare.log and never count.
configure() {
	[[ -f $obj/.config && -f $obj/prepare.done ]] && return 0
	mkdir -p "$obj"
	rm -f "$obj/prepare.done"
	make -s -C "$src" O="$obj" allmodconfig >/dev/null
	"$src/scripts/config" --file "$obj/.config" -d WERROR -d GCOV_KERNEL -d UBSAN \
		-d KASAN -d KCSAN -d KCOV -d GCC_PLUGINS -d DEBUG_INFO_DWARF_TOOLCHAIN_DEFAULT \
		-d DEBUG_INFO_DWARF4 -d DEBUG_INFO_DWARF5 -e DEBUG_INFO_NONE
	make -s -C "$src" O="$obj" olddefconfig >/dev/null
	make -s "${kbuild[@]}" "${@/#C=*/C=0}" prepare scripts >"$obj/prepare.log" 2>&1 ||
		{ echo "make prepare failed in $obj: see $obj/prepare.log" >&2; return 1; }
	touch "$obj/prepare.done"
}

# compile_messages REV OUT MAKEARG...: build the objects at REV with the
# extra make arguments (C=2, W=1), each recompiled so that every message is
# seen; OUT gets kbuild's output, and stdout the messages, one per line, with
# the worktree's path, the line and the column taken out, so that moved code
# does not count as new.  Returns make's status.
compile_messages() {
	local rev=$1 out=$2 rc=0 o
	shift 2
	local -a kbuild=(-C "$src" O="$obj" -j"${JOBS:-$(nproc)}" CC="${CHECK_CC:-ccache gcc}")
	checkout "$rev"
	configure "$@" || return 2
	# C=2 checks every target anyway; otherwise each object is compiled
	# again so that its warnings show (ccache replays them).
	if [[ " $* " != *" C=2 "* ]]; then
		for o in "${targets[@]}"; do rm -f "$obj/$o"; done
	fi
	LC_ALL=C make -k "${kbuild[@]}" "$@" "${targets[@]}" >"$out" 2>&1 || rc=$?
	grep -E '(warning|error): ' "$out" | sed -E "s#$src/##g; s#^([^: ]+):[0-9]+(:[0-9]+)?: #\\1: #; s#‘|’#'#g" |
		LC_ALL=C sort || true
	return $rc
}
