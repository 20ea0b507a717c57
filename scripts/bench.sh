#!/usr/bin/env bash
# bench.sh: the figures of the last run (make bench), printed and written
# to $WORKDIR/report/bench.tsv by scripts/bench.py.
#
# Every stage appends "phase what seconds" rows as it runs (lib.sh's
# bench); builds and cells taken from a cache show the seconds of the run
# that made them.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

main() {
	"$WS_ROOT/scripts/bench.py" "$REPORT" "$@" || die "bench.py could not report on $REPORT"
}

main "$@"
