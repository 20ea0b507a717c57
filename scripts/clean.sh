#!/usr/bin/env bash
# clean.sh: make clean: remove what the workspace rebuilds on its own (the
# build directories, boot logs, artifacts, the report and the check cache)
# from $WORKDIR, and keep the kernel tree, ccache, backups and messages.
#
# It removes only those subdirectories, and only of a directory that is
# recognisably a workspace: it has the kernel tree (linux/.git) and the lock
# file that every run makes, and it is not /, a home directory or this
# repository (compared by resolved path).  An empty or relative WORKDIR is
# refused before anything else.  distclean.sh shares these checks (it
# sources this file).
set -euo pipefail

CLEANED_DIRS=(build boots boot-cache artifacts report checks-cache)

# refuse_unusable_workdir: an empty or relative WORKDIR, before lib.sh
# (which replaces an empty one with the default) ever sees it.
refuse_unusable_workdir() {
	[[ -v WORKDIR ]] || return 0
	case $WORKDIR in
	/*) return 0 ;;
	"") printf "error: WORKDIR is empty; give the workspace's absolute path (WORKDIR=%s)\n" \
		"${HOME:-/root}/.cache/vstatus-workspace" >&2 ;;
	"~"*) printf "error: WORKDIR '%s' starts with a ~ the shell did not expand (it was quoted): write it as \$HOME%s\n" \
		"$WORKDIR" "${WORKDIR#\~}" >&2 ;;
	*) printf "error: WORKDIR=%s is a relative path; give it as an absolute one (WORKDIR=%s)\n" \
		"$WORKDIR" "$PWD/$WORKDIR" >&2 ;;
	esac
	exit 1
}
refuse_unusable_workdir

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# resolved PATH: PATH with every symlink, . and .. resolved (it need not
# exist).
resolved() {
	realpath -m -- "$1"
}

# is_within A B: resolved path A is B or below it.
is_within() {
	[[ $1 == "$2" || $1 == "$2"/* ]]
}

# workspace_dir: the resolved $WORKDIR, once it is known to be a workspace
# that may be cleaned or removed; dies naming the reason otherwise.  Call
# it only when $WORKDIR exists.
workspace_dir() {
	local dir home repo
	dir=$(resolved "$WORKDIR") || die "cannot resolve WORKDIR=$WORKDIR"
	home=$(resolved "${HOME:-/}")
	repo=$(resolved "$WS_ROOT")
	[[ $dir != / ]] || die "refusing: WORKDIR=$WORKDIR is the root directory"
	[[ -d $dir ]] || die "refusing: WORKDIR=$WORKDIR is not a directory"
	! is_within "$home" "$dir" || die "refusing: WORKDIR=$WORKDIR is (or holds) your home directory $home"
	! is_within "$repo" "$dir" || die "refusing: WORKDIR=$WORKDIR is (or holds) this repository $repo"
	[[ -e $dir/linux/.git ]] ||
		die "refusing: WORKDIR=$WORKDIR is not a workspace: it has no kernel tree (linux/.git); remove it by hand if you mean to"
	[[ -e $dir/lock ]] ||
		die "refusing: WORKDIR=$WORKDIR is not a workspace: it has no lock file (lock); remove it by hand if you mean to"
	printf '%s\n' "$dir"
}

main() {
	local dir d
	if [[ ! -e $WORKDIR ]]; then
		progress clean "WORKDIR=$WORKDIR does not exist; nothing to clean"
		return 0
	fi
	dir=$(workspace_dir) || exit 1
	take_lock
	for d in "${CLEANED_DIRS[@]}"; do
		[[ -e $dir/$d || -L $dir/$d ]] || continue
		progress clean "removing $dir/$d"
		rm -rf -- "${dir:?}/$d"
	done
	progress clean "kept the kernel tree, ccache, backups and messages in $dir (make distclean removes them too)"
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	main "$@"
fi
