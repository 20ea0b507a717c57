#!/usr/bin/env bash
# bench.sh: the figures of the last run (make bench), printed and written
# to $WORKDIR/report/bench.tsv by scripts/bench.py.
#
#   bench.sh [--quiet]               print the figures (bench.py REPORT)
#   bench.sh state                   "cold" or "warm": what WORKDIR is now
#   bench.sh record WHAT SECONDS STATE
#                                    a row of report/bench-runs.tsv
#                                    (make test records its own time)
#
# Every stage appends "phase what seconds" rows as it runs (lib.sh's
# bench); builds and cells taken from a cache show the seconds of the run
# that made them.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

main() {
	case ${1:-} in
	state) workdir_state ;;
	record)
		(($# == 4)) || die "usage: bench.sh record WHAT SECONDS STATE"
		bench_record "$2" "$3" "$4" || die "bench.py could not record '$2' in $REPORT/bench-runs.tsv"
		;;
	*) "$WS_ROOT/scripts/bench.py" "$REPORT" "$@" || die "bench.py could not report on $REPORT" ;;
	esac
}

main "$@"
