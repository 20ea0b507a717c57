#!/usr/bin/env bash
# tests/run.sh: the workspace's test suite (make test, and what .ci/run runs).
#
#   1. shellcheck over every shell script in the repository;
#   2. bats: the workspace logic on fixture trees (tests/*.bats), and
#      pytest: the Python data code on golden files (tests/py/);
#   3. the real end-to-end `make` on the distro kernel, then checks on its
#      results, then the checks' own tests on that kernel tree
#      (tests/tree/*.bats; E2E=0 skips this part).
# Ends with one "N passed, N failed" line.
set -euo pipefail
cd "$(dirname "$0")/.."

passed=0
failed=0
failures=()

suite() {
	local name=$1 t0=$SECONDS
	shift
	echo "=== $name"
	if "$@"; then
		passed=$((passed + 1))
		echo "=== $name: ok ($((SECONDS - t0))s)"
	else
		failed=$((failed + 1))
		failures+=("$name")
		echo "=== $name: FAILED ($((SECONDS - t0))s)"
	fi
}

shell_scripts() {
	git ls-files | while read -r f; do
		[[ -f $f ]] || continue
		case $f in
		*.sh | *.bash | */run | tests/fixtures/fake-*) echo "$f" ;;
		*) head -n1 "$f" | grep -qE '^#!.*\b(ba)?sh\b' && echo "$f" ;;
		esac
	done | sort -u
}

run_shellcheck() {
	local -a files
	mapfile -t files < <(shell_scripts)
	echo "shellcheck: ${#files[@]} files"
	shellcheck -x "${files[@]}" && shellcheck -s bash tests/*.bats tests/tree/*.bats
}

run_bats() {
	# A hung test fails after BATS_TEST_TIMEOUT seconds instead of
	# stopping the whole suite.
	BATS_TEST_TIMEOUT=${BATS_TEST_TIMEOUT:-600} bats --print-output-on-failure tests/
}

# pytest: the data code in Python (scripts/*.py, qemu/ktap_verdict.py), on
# golden files.
run_pytest() {
	/usr/bin/python3 -m pytest -q -p no:cacheprovider tests/py
}

run_e2e() {
	bash tests/e2e.sh
}

run_tree_bats() {
	bats --print-output-on-failure tests/tree/
}

# record_time STATE SECONDS: make test's time in the bench history, when it
# ran the end-to-end make (make bench prints it beside its target).
record_time() {
	bash scripts/bench.sh record make-test "$2" "$1" ||
		echo "make test took $2s; it could not be recorded for make bench" >&2
}

main() {
	local state t0=$SECONDS
	state=$(bash scripts/bench.sh state)
	suite shellcheck run_shellcheck
	suite bats run_bats
	suite pytest run_pytest
	if [[ ${E2E:-1} == 1 ]]; then
		suite end-to-end run_e2e
		suite checks-on-the-tree run_tree_bats
	else
		echo "=== end-to-end: not run (E2E=0)"
	fi
	[[ ${E2E:-1} != 1 ]] || record_time "$state" $((SECONDS - t0))
	((failed == 0)) || printf 'failed suites: %s\n' "${failures[*]}"
	echo "$passed passed, $failed failed"
	((failed == 0))
}

main "$@"
