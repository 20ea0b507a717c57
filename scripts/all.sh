#!/usr/bin/env bash
# all.sh: the default goal.  deps, import, apply every series; then
#   - the checks of every series, in the background (CHECKS_BESIDE);
#   - for each series: bisect-build, then cross-compile, while the boots of
#     the commits just built run beside it (BOOTS_BESIDE);
#   - the debug kernel of each head, then the kernels of each base and
#     head on the other boot architectures (ARCH_BOOTS: arm64, i386,
#     mips64el), built while the previous boots run;
#   - once every boot and check is done, the matrix.
# Before the builds, the run writes its plan: every cell it owes each
# series (scripts/cells.py).  A failing stage does not stop the others;
# the exit status is the matrix's: non-zero if any cell failed, or if a
# planned cell was never decided (a stage that died half-way).
#
# Two lanes run beside the builds because they leave cores idle: most of
# the checks' time is one core's (Sphinx, spatch, checkpatch,
# headers_install), and a boot mostly waits for its guest tests.  The boots
# take turns in one lane, in the order the builds finish, each with the
# kernels an earlier step built (boot.sh with BOOT_PREBUILT=1: the lane
# never builds in the workspace's one source worktree).  Their progress
# lines are interleaved with the builds', each naming its stage.
# CHECKS_BESIDE=0 runs the checks before each series' builds; BOOTS_BESIDE=0
# runs each boot step after the build step it needs, in turn.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# ARCH_BOOTS, checked.
# shellcheck source=scripts/bootarch.sh
source "$WS_ROOT/scripts/bootarch.sh"
check_arch_boots

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
# EXIT trap runs stop_beside.
CHECKS_PID=""
start_checks() {
	(($#)) || return 0
	setsid bash "$WS_ROOT/scripts/all.sh" --checks-of "$@" </dev/null &
	CHECKS_PID=$!
	progress checks "the checks of $* run in the background (pid $CHECKS_PID) beside the builds and boots"
}

# checks_of SERIES...: what start_checks runs (all.sh --checks-of).
checks_of() {
	local s
	for s in "$@"; do
		SERIES=$s step check.sh || true
	done
}

# stop_session PID: the background job PID, a session leader (setsid), if
# it still runs, stopped: every process of its session (a check under
# timeout(1) is in a process group of its own there, QEMU in a boot's).
stop_session() {
	[[ -n $1 ]] || return 0
	pkill -TERM -s "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}

# wait_session PID STAGE WHAT: until the background job PID is done,
# saying so under STAGE if it still runs.
wait_session() {
	[[ -n $1 ]] || return 0
	kill -0 "$1" 2>/dev/null && progress "$2" "waiting for $3 to finish"
	wait "$1" || true
}

# The boot lane: one background process (all.sh --lane), in a session of
# its own like the checks, that runs the boot steps written to its stdin,
# one a line, in order: NAME=VALUE words for its environment, then the
# script and its arguments.
LANE_PID=""
LANE_FD=""
start_lane() {
	[[ ${BOOTS_BESIDE:-1} == 1 ]] || return 0
	exec {LANE_FD}> >(exec setsid bash "$WS_ROOT/scripts/all.sh" --lane)
	LANE_PID=$!
	progress boot "the boots run in the background (pid $LANE_PID) beside the next builds"
}

# boot_step [NAME=VALUE...] SCRIPT ARG...: a boot step, to the lane; in
# the foreground when there is no lane.
boot_step() {
	if [[ -n $LANE_FD ]]; then
		# A subshell that ignores SIGPIPE: a lane that died is an error
		# here, not the end of all.sh.
		(
			trap '' PIPE
			printf '%s\n' "$*" >&"$LANE_FD"
		) 2>/dev/null && return 0
		warn "the boot lane (pid $LANE_PID) is gone: its boots run here from now on, starting with '$*'"
		exec {LANE_FD}>&-
		LANE_FD=""
	fi
	run_step "$@" || true
}

# run_step [NAME=VALUE...] SCRIPT ARG...: step, with the NAME=VALUE words
# in its environment.
run_step() {
	local -a vars=()
	while [[ ${1:-} == [A-Z]*=* ]]; do
		vars+=("$1")
		shift
	done
	(
		((${#vars[@]} == 0)) || export "${vars[@]}"
		step "$@"
	)
}

# lane: what start_lane runs: the steps on stdin, in turn, with no
# terminal input, building nothing.
lane() {
	local line
	local -a words
	export BOOT_PREBUILT=1
	while IFS= read -r line; do
		read -r -a words <<<"$line"
		run_step "${words[@]}" </dev/null || true
	done
}

# wait_lane: until the lane has run every step written to it.
wait_lane() {
	[[ -n $LANE_FD ]] || return 0
	exec {LANE_FD}>&-
	LANE_FD=""
	wait_session "$LANE_PID" boot "the boots"
	LANE_PID=""
}

# stop_beside: the EXIT trap: the boot lane and the checks stopped.
stop_beside() {
	stop_session "$LANE_PID"
	stop_session "$CHECKS_PID"
	LANE_PID="" CHECKS_PID=""
}

# apply_series NAME: apply.sh for one series; true when its branch is the
# series now.  A series whose base series did not apply in this run is not
# applied on what that branch held before: its apply cell fails, naming
# the base (APPLY_FAILED: the names of those that did not apply).  A
# series that did not apply owes its apply cell, which apply.sh decides
# (as a failure naming the file at fault) or the matrix shows as missing.
APPLY_FAILED=" "
apply_series() {
	local s=$1 b
	b=$(series_base "$s") || return 1
	if [[ $APPLY_FAILED == *" $b "* ]]; then
		APPLY_FAILED+="$s "
		cells plan-apply "$s" || die "could not write the plan of $s in $REPORT/plan"
		record "$s" 0 - "series/$s" apply fail 0 "not applied: series/$s/base names $b, which did not apply"
		return 1
	fi
	SERIES=$s step apply.sh && return 0
	APPLY_FAILED+="$s "
	cells plan-apply "$s" || die "could not write the plan of $s in $REPORT/plan"
	return 1
}

# plan_series NAME CHECKS: the cells the run owes series NAME
# (scripts/cells.py plan): for each commit the apply cell, the CHECKS
# (comma-separated; not of the base), the x86_64 build and boot, the
# cross-compile (of the commits), and the debug boot of the head (DEBUG=1)
# and the build and boot of base and head on each of ARCH_BOOTS.
plan_series() {
	local arches
	arches=${ARCH_BOOTS// /,}
	series_commits "$1" | cells plan "$1" "$2" "${DEBUG:-1}" "$arches" ||
		die "could not write the plan of $1 in $REPORT/plan"
}

# LAST_SECS: the seconds the last make of the same series took here
# (bench-runs.tsv), said once at the start; the series lines then say how
# far this run is against it.  Empty without history.
LAST_SECS=""
say_estimate() {
	local out
	out=$("$WS_ROOT/scripts/bench.py" "$REPORT" --estimate "${SERIES:-all}" 2>/dev/null) || return 0
	[[ -n $out ]] || return 0
	progress series "${out%%$'\n'*}"
	LAST_SECS=${out##*$'\n'}
}

# so_far: ", elapsed M:SS of about M:SS (the last make's)", or nothing.
so_far() {
	[[ -n $LAST_SECS ]] || return 0
	printf ", elapsed %s of about %s (the last make's)" "$(elapsed)" "$(mmss "$LAST_SECS")"
}

main() {
	local state t0
	t0=$(now)
	state=$(workdir_state)
	check_disk
	take_lock
	mkdir -p "$REPORT"
	rm -f "$REPORT/bench-raw.tsv"
	cells reset || die "could not clear the cells of the last run in $REPORT"
	# Every stage stores its cells; results.tsv is written from them once,
	# at the end (scripts/cells.py export), not again at every cell.
	export WS_TABLE_AT_END=1
	[[ ${NO_DEPS:-0} == 1 ]] || step deps.sh
	step import.sh
	# ICECC=1 and CCACHE_REMOTE are checked once, after deps installed
	# their packages, for every step below.
	require_scale_out
	local s
	local -a series applied=()
	capture series selected_series
	for s in "${series[@]}"; do
		apply_series "$s" && applied+=("$s")
	done
	local checks
	checks=$("$WS_ROOT/scripts/check.sh" list | paste -sd,) ||
		die "could not list the checks (CHECKS=${CHECKS:-})"
	for s in "${applied[@]}"; do
		plan_series "$s" "$checks"
	done
	((${#applied[@]})) || progress series "no series applied: nothing to build"
	say_estimate
	trap stop_beside EXIT
	[[ ${CHECKS_BESIDE:-1} == 0 ]] || start_checks "${applied[@]}"
	start_lane
	local k=0
	for s in "${applied[@]}"; do
		k=$((k + 1))
		progress series "=== series $k of ${#applied[@]}: $s ($(($(series_commits "$s" | wc -l) - 1)) commits)$(so_far) ==="
		[[ ${CHECKS_BESIDE:-1} != 0 ]] || SERIES=$s step check.sh || true
		SERIES=$s step build.sh series || true
		boot_step "SERIES=$s" boot.sh series
		SERIES=$s step cross.sh series || true
	done
	if [[ ${DEBUG:-1} == 1 ]]; then
		for s in "${applied[@]}"; do
			SERIES=$s step boot.sh heads-build || true
			boot_step "SERIES=$s" boot.sh heads
		done
	fi
	# The other boot architectures: the base and the head of each series,
	# built and booted.
	if ((${#applied[@]})); then
		local list arch
		list=$(IFS=,; echo "${applied[*]}")
		for arch in $ARCH_BOOTS; do
			SERIES=$list BOOT_ARCH=$arch step boot.sh arch-builds || true
			boot_step "SERIES=$list" BOOT_ARCH="$arch" boot.sh arch-boots
		done
	fi
	wait_lane
	wait_session "$CHECKS_PID" checks "the checks"
	CHECKS_PID=""
	cells export || warn "could not write $RESULTS from the cells of $REPORT (make matrix writes it again)"
	bench_record make $(($(now) - t0)) "$state" || warn "could not record this run in $REPORT/bench-runs.tsv"
	"$WS_ROOT/scripts/bench.sh" --quiet || true
	"$WS_ROOT/scripts/matrix.sh"
}

case ${1:-} in
--checks-of) checks_of "${@:2}" ;;
--lane) lane ;;
*) main "$@" ;;
esac
