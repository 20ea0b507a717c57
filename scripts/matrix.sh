#!/usr/bin/env bash
# matrix.sh: the one matrix of a run, commits by stages, from its cells.
#
# Writes $WORKDIR/report/results.tsv from the store and the plan
# (scripts/cells.py: a cell the run planned and no stage decided is a
# failure, "missing"), then
# prints the matrix to the terminal (scripts/matrix.py renders it), writes
# $WORKDIR/report/summary.md and index.html (a page, each cell linked to
# its log), and, through scripts/report.py, results.json and
# results.junit.xml for CI systems; exits 1 if any cell is fail.
# Before the matrix, and after it in summary.md: the guest tests of ^T's
# SIGINFO case by case at every series head (scripts/designs.py), which
# show the two designs (nsig's 65th signal, sigpwr's SIGPWR) side by side.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

# render FORMAT: FORMAT is "text", "md" or "html" (scripts/matrix.py); non-zero
# when a cell failed, and stops when matrix.py could not render.
render() {
	local rc=0
	"$WS_ROOT/scripts/matrix.py" "$REPORT" "$WS_ROOT/scripts/arches" "$1" || rc=$?
	((rc <= 1)) || die "scripts/matrix.py could not render the cells of $REPORT (exit $rc)"
	return $rc
}

# page: the matrix as a page to look at, $REPORT/index.html, with the
# designs' tables and the run history (bench-runs.tsv, drawn by bench.py);
# written beside its name, then renamed: never half a page.
page() {
	local rc=0 new=$REPORT/index.html.new designs=$REPORT/.designs.html history=$REPORT/.history.html
	designs html >"$designs" || die "could not write $designs (is the disk full?)"
	{
		echo "<h2>Run history</h2>"
		"$WS_ROOT/scripts/bench.py" "$REPORT" --svg
	} >"$history" || die "scripts/bench.py could not draw $REPORT/bench-runs.tsv into $history"
	"$WS_ROOT/scripts/matrix.py" "$REPORT" "$WS_ROOT/scripts/arches" html "$designs" "$history" >"$new" || rc=$?
	rm -f "$designs" "$history"
	if ((rc > 1)) || ! mv "$new" "$REPORT/index.html"; then
		rm -f "$new"
		die "could not write $REPORT/index.html (scripts/matrix.py exit $rc; is the disk full?)"
	fi
}

# The guest tests that designs.py sets side by side, by KTAP name.
DESIGN_TESTS=siginfo,nsig_tty

# designs FORMAT: designs.py's tables in FORMAT ("text", "md" or "html").
designs() {
	"$WS_ROOT/scripts/designs.py" "$RESULTS" "$DESIGN_TESTS" "$1" ||
		die "scripts/designs.py could not read $RESULTS or a head's ktap.log"
}

main() {
	# The table of the run, from the store and the plan (scripts/cells.py):
	# a results.tsv of an older workspace is read in first.
	cells import || die "could not read $RESULTS into $(cell_store)"
	[[ -d $(cell_store) || -d $REPORT/plan ]] || die "no results yet ($(cell_store)): run make first"
	cells export || die "could not write $RESULTS from $(cell_store) (is the disk full?)"
	local rc=0
	{
		echo "# Workspace report"
		echo
		echo "Generated $(date -u '+%Y-%m-%d %H:%M UTC') from \`$RESULTS\`, kernel tree \`$TREE\`."
		render md || true
		designs md
	} >"$REPORT/summary.md"
	"$WS_ROOT/scripts/report.py" "$REPORT" "$REPORT" ||
		die "scripts/report.py could not write results.json and results.junit.xml from the cells of $REPORT"
	page
	designs text
	render text || rc=$?
	echo "report: $REPORT/index.html (a page: open it in a browser), $REPORT/summary.md, $RESULTS (and results.json, results.junit.xml beside it)"
	return $rc
}

main "$@"
