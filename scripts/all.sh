#!/usr/bin/env bash
# all.sh: the default goal.  deps, import, apply every series; then the
# checks of every series in the background while, for each series,
# bisect-build, cross-compile and boot-test run in the foreground; then the
# debug boot of each head, the arm64 build and boot of each base and head,
# and, once the checks are done too, the matrix.  A failing stage does not
# stop the others; the exit status is the matrix's (non-zero if any cell
# failed).
#
# The checks run beside the rest because most of their time is one core's
# (Sphinx, spatch, checkpatch, headers_install) and the boots leave cores
# idle: the machine's cores are kept busy instead of taking turns.  Their
# progress lines are interleaved with the others', each naming its check.
# CHECKS_BESIDE=0 runs them in turn, before each series' builds.
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

# start_checks SERIES...: check.sh for each series in turn, in the
# background, in a session of its own (setsid: no terminal signals, not
# stopped by a terminal's tostop), so that it is stopped as a whole on
# Ctrl-C or on a failure here: take_lock's INT and TERM trap exits, and the
# EXIT trap runs stop_checks.
CHECKS_PID=""
start_checks() {
	(($#)) || return 0
	setsid bash "$WS_ROOT/scripts/all.sh" --checks-of "$@" </dev/null &
	CHECKS_PID=$!
	trap stop_checks EXIT
	progress checks "the checks of $* run in the background (pid $CHECKS_PID) beside the builds and boots"
}

# checks_of SERIES...: what start_checks runs (all.sh --checks-of).
checks_of() {
	local s
	for s in "$@"; do
		SERIES=$s step check.sh || true
	done
}

# stop_checks: the background checks, if they still run, stopped: every
# process of their session (a check under timeout(1) is in a process group
# of its own there).
stop_checks() {
	[[ -n $CHECKS_PID ]] || return 0
	pkill -TERM -s "$CHECKS_PID" 2>/dev/null || true
	wait "$CHECKS_PID" 2>/dev/null || true
	CHECKS_PID=""
}

# wait_checks: until the background checks are done.
wait_checks() {
	[[ -n $CHECKS_PID ]] || return 0
	kill -0 "$CHECKS_PID" 2>/dev/null && progress checks "waiting for the checks to finish"
	wait "$CHECKS_PID" || true
	CHECKS_PID=""
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
	local -a series applied=()
	capture series selected_series
	for s in "${series[@]}"; do
		SERIES=$s step apply.sh && applied+=("$s")
	done
	[[ ${CHECKS_BESIDE:-1} == 0 ]] || start_checks "${applied[@]}"
	for s in "${applied[@]}"; do
		progress series "=== $s ==="
		[[ ${CHECKS_BESIDE:-1} != 0 ]] || SERIES=$s step check.sh || true
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
	wait_checks
	bench_record make $(($(now) - t0)) "$state" || warn "could not record this run in $REPORT/bench-runs.tsv"
	"$WS_ROOT/scripts/bench.sh" --quiet || true
	"$WS_ROOT/scripts/matrix.sh"
}

if [[ ${1:-} == --checks-of ]]; then
	checks_of "${@:2}"
else
	main "$@"
fi
