# shellcheck shell=bash
# shellcheck disable=SC2154 # scratch, src: set by the run script that sources this
# checks/lib/headers.sh: the uapi headers of one architecture directory at
# one commit, as `make headers_install` installs them, made once for every
# check of a kernel line that reads them (abi, uapi).  They are kept in
# HEADERS_STORE/<dir>/<sha> (the usr/include tree), beside the checks' own
# scratch directories (check-work/<line>/headers).  Sourced by a check's
# run script after it has set $scratch (its CHECK_SCRATCH) and $src (its
# worktree).

HEADERS_STORE=${HEADERS_STORE:-$(dirname "$scratch")/headers}

# headers_of DIR SHA: where the installed headers of arch/DIR at SHA are
# kept.
headers_of() {
	echo "$HEADERS_STORE/$1/$2"
}

# install_headers DIR ARCH SHA: the kept headers of arch/DIR at SHA: made
# with `make ARCH=ARCH headers_install` in the check's worktree (at SHA)
# and its O= directory $scratch/obj/DIR, unless another check of the line
# kept them first.  One install at a time for each DIR (a lock in the
# store): a second check waits, then takes the first one's.  The install's
# output is in the O= directory's install.log; the reason for a failure on
# stderr.
install_headers() {
	local dir=$1 arch=$2 sha=$3 obj=$scratch/obj/$1 keep
	keep=$(headers_of "$dir" "$sha")
	mkdir -p "$obj" "${keep%/*}" || return 1
	(
		flock 9 || exit 1
		if [[ -d $keep ]]; then
			touch "$keep"
			exit 0
		fi
		if ! make -s -C "$src" O="$obj" ARCH="$arch" headers_install >"$obj/install.log" 2>&1; then
			echo "$dir: make ARCH=$arch headers_install failed at ${sha:0:12}: $({ grep -v '^make' "$obj/install.log" || true; } | tail -n1)" >&2
			exit 1
		fi
		rm -rf "$keep.tmp"
		cp -a "$obj/usr/include" "$keep.tmp" && mv "$keep.tmp" "$keep"
	) 9>"${keep%/*}/.lock"
}

# prune_headers KEEP: the kept header trees of each directory beyond the
# KEEP used last.
prune_headers() {
	local d
	for d in "$HEADERS_STORE"/*/; do
		[[ -d $d ]] || continue
		find "$d" -mindepth 1 -maxdepth 1 -type d ! -name '*.tmp' -printf '%T@ %p\n' | sort -rn |
			sed -n "$(($1 + 1)),\$p" | cut -d' ' -f2- | xargs -r rm -rf
	done
}
