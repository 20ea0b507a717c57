#!/usr/bin/env bash
# matrix.sh: the one matrix of a run, commits by stages, from results.tsv.
#
# Prints it to the terminal (scripts/matrix.py renders it), writes
# $WORKDIR/report/summary.md (and, through scripts/report.py, results.json
# and results.junit.xml for CI systems), and exits 1 if any cell is fail.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# render FORMAT: FORMAT is "text" or "md" (scripts/matrix.py); non-zero
# when a cell failed, and stops when matrix.py could not render.
render() {
	local rc=0
	"$WS_ROOT/scripts/matrix.py" "$RESULTS" "$WS_ROOT/scripts/arches" "$1" || rc=$?
	((rc <= 1)) || die "scripts/matrix.py could not render $RESULTS (exit $rc)"
	return $rc
}

main() {
	[[ -s $RESULTS ]] || die "no results yet ($RESULTS): run make first"
	local damage
	damage=$(results_damage "$RESULTS")
	[[ -z $damage ]] || die "$RESULTS is damaged ($damage): run make again to rebuild it"
	local rc=0
	{
		echo "# Workspace report"
		echo
		echo "Generated $(date -u '+%Y-%m-%d %H:%M UTC') from \`$RESULTS\`, kernel tree \`$TREE\`."
		render md || true
	} >"$REPORT/summary.md"
	"$WS_ROOT/scripts/report.py" "$RESULTS" "$REPORT" ||
		die "scripts/report.py could not write results.json and results.junit.xml from $RESULTS"
	render text || rc=$?
	echo "report: $REPORT/summary.md, $RESULTS (and results.json, results.junit.xml beside it)"
	return $rc
}

main "$@"
