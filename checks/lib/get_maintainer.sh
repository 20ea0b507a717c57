# shellcheck shell=bash
# checks/lib/get_maintainer.sh: the commit's own scripts/get_maintainer.pl
# with the commit's own MAINTAINERS, run outside any checkout, for the
# checks that ask it (maintainers, checkpatch).  Sourced by their run
# scripts.

# shellcheck source=scripts/gitlib.sh
source "$(dirname "${BASH_SOURCE[0]}")/../../scripts/gitlib.sh"

# What b4 prep --auto-to-cc passes, without its To/Cc split (--nol, --nom);
# --no-tree as the directory is not a kernel tree.
GM_OPTS=(--no-tree --no-git --no-git-fallback --no-git-chief-penguins)

# gm_materialize TREE COMMIT DIR: what get_maintainer.pl reads from a
# checkout of COMMIT, in DIR: the script, MAINTAINERS, its ignore list,
# .mailmap and the .yaml files the commit touches (it reads their
# maintainers: too).  Fails when the commit has no script or MAINTAINERS.
gm_materialize() {
	local tree=$1 commit=$2 dir=$3 f
	local -a files
	git -C "$tree" show "$commit:scripts/get_maintainer.pl" >"$dir/get_maintainer.pl" 2>/dev/null ||
		return 1
	git -C "$tree" show "$commit:MAINTAINERS" >"$dir/MAINTAINERS" 2>/dev/null || return 1
	git_touched_array files "$tree" "$commit" d -- '*.yaml' || return 1
	for f in .get_maintainer.ignore .mailmap "${files[@]}"; do
		mkdir -p "$dir/$(dirname "$f")"
		git -C "$tree" show "$commit:$f" >"$dir/$f" 2>/dev/null || rm -f "$dir/$f"
	done
}

# gm_run DIR ARGS...: that get_maintainer.pl in DIR, with GM_OPTS and ARGS.
gm_run() {
	local dir=$1
	shift
	(cd "$dir" && perl ./get_maintainer.pl --mpath ./MAINTAINERS "${GM_OPTS[@]}" "$@")
}
