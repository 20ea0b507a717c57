#!/usr/bin/env bash
# bench.sh: the figures of the last run (make bench).
#
# Every stage appends "phase what seconds" rows as it runs; this prints
# them as a table and writes $WORKDIR/report/bench.tsv.  Builds taken from
# the cache show the seconds of the build that made them.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

main() {
	local raw=$REPORT/bench-raw.tsv out=$REPORT/bench.tsv
	[[ -s $raw ]] || die "no figures yet ($raw): run make or make bench"
	{
		printf 'phase\twhat\tseconds\n'
		cat "$raw"
	} >"$out"
	[[ ${1:-} == --quiet ]] && return 0
	printf '%-11s %-48s %s\n' phase what seconds
	awk -F'\t' '{ printf "%-11s %-48s %s\n", $1, substr($2, 1, 48), $3 }' "$raw"
	awk -F'\t' '$1 == "first-ktap" && $3 != "-" { n++; s += $3; if ($3 > m) m = $3 }
		END { if (n) printf "first KTAP line: mean %.1fs, max %.1fs over %d boots\n", s / n, m, n }' "$raw"
	echo "written: $out"
	if [[ -s $REPORT/bench-pty.tsv ]]; then
		echo
		echo "pty receive throughput in canonical mode ($REPORT/bench-pty.tsv):"
		awk -F'\t' '{ printf "  %-10s %-6s %8s %20s  %s\n", $1, $2, $3, $4, $5 }' "$REPORT/bench-pty.tsv"
	fi
}

main "$@"
