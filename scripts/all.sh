#!/usr/bin/env bash
# all.sh: the default goal.  deps, import, then for each series apply,
# check, bisect-build, cross-compile and boot-test, then the debug boot of
# each head, the arm64 build and boot of each base and head, and the
# matrix.  A failing stage does not stop the others; the exit status
# is the matrix's (non-zero if any cell failed).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

step() {
	local t0 rc=0
	t0=$(now)
	"$WS_ROOT/scripts/$1" "${@:2}" || rc=$?
	bench phase "$1 ${*:2}" $(($(now) - t0))
	return $rc
}

main() {
	local state t0
	t0=$(now)
	state=$(workdir_state)
	check_disk
	take_lock
	mkdir -p "$REPORT"
	rm -f "$RESULTS" "$REPORT/bench-raw.tsv"
	[[ ${NO_DEPS:-0} == 1 ]] || step deps.sh
	step import.sh
	# ICECC=1 and CCACHE_REMOTE are checked once, after deps installed
	# their packages, for every step below.
	require_scale_out
	local s
	local -a series
	capture series selected_series
	for s in "${series[@]}"; do
		progress series "=== $s ==="
		if ! SERIES=$s step apply.sh; then
			continue
		fi
		SERIES=$s step check.sh || true
		SERIES=$s step build.sh series || true
		SERIES=$s step cross.sh series || true
		SERIES=$s step boot.sh series || true
	done
	if [[ ${DEBUG:-1} == 1 ]]; then
		for s in "${series[@]}"; do
			git_tree rev-parse -q --verify "refs/heads/$s" >/dev/null || continue
			SERIES=$s step boot.sh heads || true
		done
	fi
	# arm64: the base and the head of each series, built and booted.
	BOOT_ARCH=arm64 step boot.sh arch-heads || true
	bench_record make $(($(now) - t0)) "$state" || warn "could not record this run in $REPORT/bench-runs.tsv"
	"$WS_ROOT/scripts/bench.sh" --quiet || true
	"$WS_ROOT/scripts/matrix.sh"
}

main "$@"
