#!/usr/bin/env bats
# Tests for the Coccinelle scripts in cocci/.  Run with: bats tests/cocci.bats
# shellcheck disable=SC2154 # $status, $output, $lines, $stderr are set by bats' run

bats_require_minimum_version 1.5.0

setup() {
	WS=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
	COCCI=$WS/cocci
}

# scripts: the names of the semantic patches, one a line.
# no_problems PROBLEM...: print the problems found, and fail if there are any.
no_problems() {
	printf '%s\n' "$@"
	[ "$#" -eq 0 ]
}

scripts() {
	local f
	for f in "$COCCI"/*.cocci; do
		f=${f##*/}
		echo "${f%.cocci}"
	done
}

@test "there are semantic patches" {
	run scripts
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -ge 1 ]
	[[ ${lines[0]} != "*" ]]
}

@test "every semantic patch has the header lines" {
	local name f bad=()
	for name in $(scripts); do
		f=$COCCI/$name.cocci
		grep -q '^///' "$f" || bad+=("$name: no /// description")
		grep -q '^// Confidence: ' "$f" || bad+=("$name: no Confidence line")
		grep -q '^// Options: ' "$f" || bad+=("$name: no Options line")
	done
	no_problems "${bad[@]}"
}

@test "every semantic patch declares the report, context and org modes" {
	local name mode bad=()
	for name in $(scripts); do
		for mode in report context org; do
			grep -q "^virtual $mode\$" "$COCCI/$name.cocci" ||
				bad+=("$name: no virtual $mode")
		done
	done
	no_problems "${bad[@]}"
}

@test "every semantic patch has a test file and an expected report" {
	local name bad=()
	for name in $(scripts); do
		[ -f "$COCCI/tests/$name.c" ] || bad+=("$name: no tests/$name.c")
		[ -f "$COCCI/tests/$name.expected" ] || bad+=("$name: no tests/$name.expected")
		if grep -q '^virtual patch$' "$COCCI/$name.cocci"; then
			[ -f "$COCCI/tests/$name.patch.expected" ] ||
				bad+=("$name: patch mode but no tests/$name.patch.expected")
		fi
	done
	no_problems "${bad[@]}"
}

@test "every expected report is non-empty and names its test file" {
	local name line bad=()
	for name in $(scripts); do
		[ -s "$COCCI/tests/$name.expected" ] || bad+=("$name: empty expected report")
		while read -r line; do
			[[ $line == "cocci/tests/$name.c:"* ]] || bad+=("$name: $line")
		done <"$COCCI/tests/$name.expected"
	done
	no_problems "${bad[@]}"
}

@test "run-tests.sh: every script matches its expected output" {
	run --separate-stderr "$COCCI/run-tests.sh"
	echo "$output"
	echo "$stderr"
	[ "$status" -eq 0 ]
	[ "${#lines[@]}" -eq "$(scripts | wc -l)" ]
	for line in "${lines[@]}"; do
		[[ $line == "ok   "* ]]
	done
}

@test "run-tests.sh: a wrong expected report fails, naming the script" {
	local copy=$BATS_TEST_TMPDIR/ws
	mkdir -p "$copy/cocci/tests"
	cp "$COCCI/run-tests.sh" "$COCCI/sigmask.cocci" "$copy/cocci/"
	cp "$COCCI"/tests/sigmask.* "$copy/cocci/tests/"
	sed -i '1d' "$copy/cocci/tests/sigmask.expected"
	run --separate-stderr "$copy/cocci/run-tests.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "FAIL sigmask: report differs" ]
	[[ $stderr == *"+cocci/tests/sigmask.c:22:23-30:"* ]]
}

@test "run-tests.sh: a test file without its script fails" {
	local copy=$BATS_TEST_TMPDIR/ws
	mkdir -p "$copy/cocci/tests"
	cp "$COCCI/run-tests.sh" "$copy/cocci/"
	echo 'int x;' >"$copy/cocci/tests/orphan.c"
	run --separate-stderr "$copy/cocci/run-tests.sh"
	[ "$status" -eq 1 ]
	[ "$output" = "FAIL orphan: no cocci/orphan.cocci for cocci/tests/orphan.c" ]
}

@test "run-tests.sh: fails, not skips, without spatch, naming the package" {
	SPATCH=/nonexistent/spatch run --separate-stderr "$COCCI/run-tests.sh"
	[ "$status" -eq 1 ]
	[[ $stderr == *"install the coccinelle package"* ]]
}
