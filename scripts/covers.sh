#!/usr/bin/env bash
# covers.sh: make covers [SERIES=a,b]: each series' cover letter
# (series/<name>/cover-letter) gets its results block made again from the
# last run's cells (scripts/covers.py): per commit its checks, builds,
# cross-compiles and boots; at the head its debug and arm64 boots and full
# builds; every cell that failed or verified nothing.  A series the last
# run did not verify as its branch is now is refused, naming it (run make
# first), and its cover is left as it was.  The cover is written beside
# its name and renamed, under the lock export holds on series/
# (lib.sh's lock_series_dir), so an export from another WORKDIR never
# sees half of it.  make send refuses a cover whose block is of another head.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

COVERS_PY=$WS_ROOT/scripts/covers.py

# cover_one NAME: the results block of series NAME's cover letter.
cover_one() {
	local name=$1 head cover new
	cover=$SERIES_DIR/$name/cover-letter
	[[ -f $cover ]] || { warn "series/$name has no cover-letter: nothing to write the results into"; return 1; }
	head=$(git_tree rev-parse -q --verify "refs/heads/$name^{commit}") ||
		{ warn "series $name is not applied: run make first"; return 1; }
	new=$SERIES_DIR/$name/.cover-letter.new.$$
	if ! "$COVERS_PY" write "$REPORT" "$name" "$head" "$cover" >"$new"; then
		rm -f "$new"
		return 1
	fi
	if cmp -s "$new" "$cover"; then
		rm -f "$new"
		progress covers "$name: the results block is already the run's"
		return 0
	fi
	chmod --reference="$cover" "$new" 2>/dev/null || true
	if ! mv -f "$new" "$cover"; then
		rm -f "$new"
		warn "could not write $cover (is the disk full?); it is as it was"
		return 1
	fi
	progress covers "$name: results block of ${head:0:12} written (git diff series/$name/cover-letter)"
}

main() {
	(($# == 0)) || die "covers.sh takes no arguments (got '$*'); name the series with SERIES=a,b"
	require_tree
	take_lock
	local s rc=0
	local -a selected
	lock_series_dir covers
	capture selected selected_series
	for s in "${selected[@]}"; do
		cover_one "$s" || rc=1
	done
	return $rc
}

main "$@"
