#!/usr/bin/env bash
# tests/e2e.sh: the real thing.  `make` on the distro kernel (deps, import,
# apply, check, bisect-build, boot-test of every commit of every series,
# the debug boot of each head), then assertions on what it reported:
#   - every commit of every series has an apply, build and boot row;
#   - no cell failed, and every boot ran the guest tests (no boot row is a
#     skip, and every boot's verdict counted passing tests);
#   - the vstatus head's boot did not skip the vstatus test;
#   - results.tsv, summary.md and bench.tsv exist.
set -euo pipefail
cd "$(dirname "$0")/.."

WORKDIR=${WORKDIR:-$HOME/.cache/vstatus-workspace}
RESULTS=$WORKDIR/report/results.tsv

fail() {
	echo "e2e: $*" >&2
	exit 1
}

main() {
	local rc=0
	make --no-print-directory all || rc=$?
	[[ -s $RESULTS ]] || fail "no $RESULTS"
	[[ -s $WORKDIR/report/summary.md ]] || fail "no summary.md"
	[[ -s $WORKDIR/report/bench.tsv ]] || fail "no bench.tsv"
	((rc == 0)) || fail "make exited $rc (see the matrix above)"
	local d s
	for d in series/*/; do
		s=$(basename "$d")
		local commits
		commits=$(awk -F'\t' -v s="$s" '$1 == s && $5 == "apply" { n++ } END { print n + 0 }' "$RESULTS")
		((commits >= 2)) || fail "series $s: only $commits apply rows"
		for stage in build boot; do
			local n
			n=$(awk -F'\t' -v s="$s" -v st="$stage" '$1 == s && $5 == st && $6 != "skip" { n++ } END { print n + 0 }' "$RESULTS")
			((n == commits)) || fail "series $s: $n of $commits commits have a $stage result"
		done
		awk -F'\t' -v s="$s" '$1 == s && $5 == "boot" && $8 !~ /^pass: [1-9][0-9]* passed/ { bad = 1; print "e2e: no passing guest tests: " $0 > "/dev/stderr" } END { exit bad }' "$RESULTS" ||
			fail "series $s: a boot ran no passing tests"
		awk -F'\t' -v s="$s" '$1 == s && $5 == "boot-debug" { n++ } END { exit n != 1 }' "$RESULTS" ||
			fail "series $s: head was not booted on the debug config"
	done
	# The feature is there at the vstatus head: its test must not be skipped.
	local head dir
	head=$(git -C "$WORKDIR/linux" rev-parse vstatus)
	dir=$WORKDIR/boots/smoke/${head:0:12}
	[[ -f $dir/ktap.log ]] || fail "no boot logs for the vstatus head in $dir"
	grep -qE '^ok [0-9]+ vstatus$' "$dir/ktap.log" ||
		fail "vstatus test did not pass at the vstatus head: $(grep -E 'vstatus' "$dir/ktap.log" | tail -n1)"
	echo "e2e: ok"
}

main "$@"
