#!/usr/bin/env bash
# cocci/run-tests.sh: check every semantic patch in cocci/ against its test.
#
# For each cocci/tests/NAME.c (or only the NAMEs given), from the
# repository root:
#   - report mode:  spatch --very-quiet -D report --sp-file cocci/NAME.cocci
#                   cocci/tests/NAME.c, sorted, must equal
#                   cocci/tests/NAME.expected;
#   - patch mode, where cocci/tests/NAME.patch.expected exists: the -D patch
#     diff must equal it (the "+++" line names the test file instead of
#     spatch's temporary output file);
#   - context and org modes must run without an error.
# Prints one line per script, diffs on stderr; exits 1 on any difference.
#
# Usage: cocci/run-tests.sh [--update] [NAME...]
#   --update  rewrite the expected files from the current output instead
#   SPATCH    the spatch to run (default: spatch from PATH)
#   COCCI_TIMEOUT  seconds allowed per spatch run (default: 300)
set -euo pipefail

cd "$(dirname "$0")/.."

SPATCH=${SPATCH:-spatch}
COCCI_TIMEOUT=${COCCI_TIMEOUT:-300}
update=0

die() {
	echo "run-tests.sh: $*" >&2
	exit 1
}

if [[ ${1:-} == --update ]]; then
	update=1
	shift
fi

command -v "$SPATCH" >/dev/null 2>&1 ||
	die "spatch not found ($SPATCH): install the coccinelle package (apt-get install coccinelle)"

# spatch_run MODE NAME: the spatch output of one mode, on stdout.
spatch_run() {
	timeout "$COCCI_TIMEOUT" "$SPATCH" --very-quiet -D "$1" \
		--sp-file "cocci/$2.cocci" "cocci/tests/$2.c"
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# check NAME: run all modes of one script; prints its result line.
check() {
	local name=$1 out=$tmp/$1 problems=() modes=(report) mode
	local expected=cocci/tests/$name.expected
	local patch_expected=cocci/tests/$name.patch.expected

	if [[ ! -f cocci/$name.cocci ]]; then
		echo "FAIL $name: no cocci/$name.cocci for cocci/tests/$name.c"
		return 1
	fi

	if ! spatch_run report "$name" >"$out.raw" 2>"$out.err"; then
		problems+=("report mode failed")
		cat "$out.err" >&2
	fi
	LC_ALL=C sort "$out.raw" >"$out.report"
	if ((update)); then
		cp "$out.report" "$expected"
	elif [[ ! -f $expected ]]; then
		problems+=("no $expected")
	elif ! diff -u "$expected" "$out.report" >&2; then
		problems+=("report differs")
	fi

	if [[ -f $patch_expected ]]; then
		modes+=(patch)
		if ! spatch_run patch "$name" >"$out.raw" 2>"$out.err"; then
			problems+=("patch mode failed")
			cat "$out.err" >&2
		fi
		sed -E "s|^\+\+\+ .*cocci-output-[^ ]*|+++ cocci/tests/$name.c|" \
			"$out.raw" >"$out.patch"
		if ((update)); then
			cp "$out.patch" "$patch_expected"
		elif ! diff -u "$patch_expected" "$out.patch" >&2; then
			problems+=("patch differs")
		fi
	fi

	for mode in context org; do
		if spatch_run "$mode" "$name" >/dev/null 2>"$out.err"; then
			modes+=("$mode")
		else
			problems+=("$mode mode failed")
			cat "$out.err" >&2
		fi
	done

	if ((${#problems[@]})); then
		local IFS=,
		echo "FAIL $name: ${problems[*]}"
		return 1
	fi
	local IFS=,
	echo "ok   $name (${modes[*]})"
}

names=("$@")
if ((${#names[@]} == 0)); then
	for t in cocci/tests/*.c; do
		[[ -e $t ]] || die "no test files in cocci/tests/"
		t=${t##*/}
		names+=("${t%.c}")
	done
fi

status=0
for name in "${names[@]}"; do
	check "$name" || status=1
done
exit "$status"
