#!/usr/bin/env bash
# all.sh: the default goal.  deps, import, apply every series, and the
# plan: every cell the run owes each series (scripts/cells.py).  Then
# scripts/scheduler.py runs the stages the plan names, each when the jobs it
# needs have ended:
#   - the checks of every series, in a lane of their own beside the
#     builds (CHECKS_BESIDE=0: before each series' build);
#   - for each series: bisect-build, then cross-compile, while the boots of
#     the commits just built run in the boot lane (BOOTS_BESIDE=0: after
#     each build);
#   - the debug kernel of each head, then the kernels of each base and
#     head on the other boot architectures (ARCH_BOOTS: arm64, i386,
#     mips64el), built while the previous boots run;
#   - once every boot and check is done, the matrix.
# A failing stage does not stop the others; the exit status is the
# matrix's: non-zero if any cell failed, or if a planned cell was never
# decided (a stage that died half-way).
#
# Two lanes run beside the builds because they leave cores idle: most of
# the checks' time is one core's (Sphinx, spatch, checkpatch,
# headers_install), and a boot mostly waits for its guest tests.  The boots
# take turns, each with the kernels an earlier build job left (boot.sh
# with BOOT_PREBUILT=1: the lane never builds in the workspace's one source
# worktree), two at a time once the builds are done (scheduler.py).
# Their progress lines are interleaved with the builds', each naming its
# stage.
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

# The stages after apply run under scripts/scheduler.py, which takes the jobs
# from the plans: each when the jobs it needs have ended, in its lane
# (builds, boots, checks), every job in a session of its own.  It runs in
# the background, so that this shell's INT and TERM trap (take_lock) runs
# at once, and the EXIT trap stops it: scheduler.py then stops every job's
# session, QEMU included, and waits for them.
SCHED_PID=""
stop_sched() {
	[[ -n $SCHED_PID ]] || return 0
	kill -TERM "$SCHED_PID" 2>/dev/null || true
	wait "$SCHED_PID" 2>/dev/null || true
	SCHED_PID=""
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
	if ((${#applied[@]})); then
		trap stop_sched EXIT
		"$WS_ROOT/scripts/scheduler.py" "$REPORT" ${LAST_SECS:+--last "$LAST_SECS"} "${applied[@]}" &
		SCHED_PID=$!
		wait "$SCHED_PID" || warn "the stages stopped before their end (scripts/scheduler.py: $?)"
		SCHED_PID=""
	fi
	cells export || warn "could not write $RESULTS from the cells of $REPORT (make matrix writes it again)"
	bench_record make $(($(now) - t0)) "$state" || warn "could not record this run in $REPORT/bench-runs.tsv"
	"$WS_ROOT/scripts/bench.sh" --quiet || true
	"$WS_ROOT/scripts/matrix.sh"
}

main "$@"
