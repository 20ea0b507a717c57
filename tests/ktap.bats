#!/usr/bin/env bats
# Tests for qemu/ktap-verdict.  Run with: bats tests/ktap.bats
# shellcheck disable=SC2154 # $status, $output, $lines, $stderr are set by bats' run

bats_require_minimum_version 1.5.0

setup() {
	VERDICT="$BATS_TEST_DIRNAME/../qemu/ktap-verdict"
	FIX="$BATS_TEST_DIRNAME/fixtures/ktap"
}

# verdict ARGS...: run the script with fixture names, stdout in $output.
verdict() {
	local args=() a
	for a in "$@"; do
		args+=("$FIX/$a")
	done
	run --separate-stderr "$VERDICT" "${args[@]}"
}

@test "passing run" {
	verdict pass.ktap
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 14 passed, 0 skipped" ]
	[ "${#lines[@]}" -eq 1 ]
}

@test "passing run lists per-test results on stderr" {
	verdict pass.ktap
	[ "$status" -eq 0 ]
	[[ $stderr == *"pty: 3 ok"* ]]
	[[ $stderr == *"signals: 5 ok"* ]]
	[[ $stderr == *"vstatus: 6 ok"* ]]
}

@test "skips pass" {
	verdict skip.ktap
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 8 passed, 6 skipped" ]
	[[ $stderr == *"vstatus: 6 skip"* ]]
}

@test "CRLF line ends are accepted" {
	verdict crlf.ktap
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 14 passed, 0 skipped" ]
}

@test "deeper KUnit-style nesting is validated and passes" {
	verdict kunit-nested.ktap
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 4 passed, 1 skipped" ]
}

@test "deeper nesting: a plan mismatch names the nested test" {
	verdict kunit-nested-bad.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: kunit/params/param_test: plan count mismatch (planned 3, got 2)" ]
}

@test "nested not ok fails and names the test" {
	verdict notok.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: vstatus: not ok 4 tiocstat prints the line: ioctl(TIOCSTAT): Inappropriate ioctl for device" ]
	[[ $stderr == *"vstatus: 5 ok, 1 not ok; not ok # exit=1"* ]]
}

@test "timeout fails with the top-level result" {
	verdict timeout.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: not ok 2 vstatus # timeout after 60s" ]
}

@test "Bail out! fails" {
	verdict bailout.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: vstatus: Bail out! sleeper setup failed at step 'O': No such file or directory" ]
}

@test "malformed: missing plan" {
	verdict missing-plan.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: signals: missing plan" ]
}

@test "malformed: plan count mismatch" {
	verdict count-mismatch.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: signals: plan count mismatch (planned 6, got 5)" ]
}

@test "malformed: top-level plan count mismatch" {
	verdict top-count-mismatch.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: top level: plan count mismatch (planned 4, got 3)" ]
}

@test "malformed: garbage result line" {
	verdict garbage.ktap
	[ "$status" -eq 1 ]
	[ "$output" = 'fail: malformed KTAP: signals: garbage line "okay 2 signal handler runs"' ]
}

@test "malformed: missing version line" {
	verdict missing-version.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: signals: missing version line" ]
}

@test "malformed: missing top-level version line" {
	verdict top-missing-version.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: top level: missing version line" ]
}

@test "malformed: non-sequential test numbers" {
	verdict non-sequential.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: signals: non-sequential test number (expected 3, got 4)" ]
}

@test "malformed: odd indentation" {
	verdict odd-indent.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: pty: odd indentation (3 spaces)" ]
}

@test "missing done marker" {
	verdict no-done.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: init did not finish (no '# ws-init: done')" ]
}

@test "truncated output: init did not finish" {
	verdict truncated.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: init did not finish (no '# ws-init: done')" ]
}

@test "empty KTAP file" {
	verdict empty.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: KTAP output is empty" ]
}

@test "clean console passes" {
	verdict pass.ktap console-clean.log
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 14 passed, 0 skipped" ]
}

@test "console with Kernel panic fails" {
	verdict pass.ktap console-panic.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'Kernel panic' (line 4: [    1.234567] Kernel panic - not syncing: Attempted to kill init! exitcode=0x0000000b)" ]
}

@test "console with BUG: fails on the first offending line" {
	verdict pass.ktap console-bug.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'BUG:' (line 4: [    2.345678] BUG: kernel NULL pointer dereference, address: 0000000000000010)" ]
}

@test "console with WARNING: fails" {
	verdict pass.ktap console-warning.log
	[ "$status" -eq 1 ]
	[[ $output == "fail: console has 'WARNING:' (line 3: "* ]]
}

@test "console problem takes precedence over a KTAP failure" {
	verdict notok.ktap console-bug.log
	[ "$status" -eq 1 ]
	[[ $output == "fail: console has 'BUG:'"* ]]
}

@test "missing KTAP file" {
	run --separate-stderr "$VERDICT" "$FIX/does-not-exist.ktap"
	[ "$status" -eq 1 ]
	[[ $output == "fail: cannot read KTAP file "* ]]
}

@test "usage error" {
	run --separate-stderr "$VERDICT"
	[ "$status" -eq 2 ]
	[[ $stderr == usage:* ]]
}

@test "no tests at all fails" {
	verdict no-tests.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: no tests ran (top-level plan 1..0)" ]
}

@test "KUnit results on the console are judged and counted" {
	verdict pass.ktap console-kunit.log
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 14 passed, 0 skipped; kunit: 2 passed, 1 skipped" ]
}

@test "a failing KUnit case fails the boot and is named" {
	verdict pass.ktap console-kunit-fail.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: kunit: signal_sigset: not ok 2 - sigequalsets_words_test" ]
}

@test "KUnit without suites (1..0) adds nothing" {
	verdict pass.ktap console-kunit-none.log
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 14 passed, 0 skipped" ]
}

@test "--kunit: a console without KUnit results fails" {
	run --separate-stderr "$VERDICT" --kunit "$FIX/pass.ktap" "$FIX/console-kunit-none.log"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: kunit: no KUnit results on the console" ]
	run --separate-stderr "$VERDICT" --kunit "$FIX/pass.ktap" "$FIX/console-kunit.log"
	[ "$status" -eq 0 ]
}

@test "--kunit needs a console file" {
	run --separate-stderr "$VERDICT" --kunit "$FIX/pass.ktap"
	[ "$status" -eq 2 ]
}

# init_run DIR [VAR=VALUE...]: qemu/init.c, compiled for the host, runs the
# tests in DIR as it does in the guest, with the environment VARs; its KTAP
# lands in $BATS_TEST_TMPDIR/out.ktap.
init_run() {
	local bin=$BATS_TEST_TMPDIR/init dir=$1
	shift
	cc -O2 -Wall -Werror -o "$bin" "$BATS_TEST_DIRNAME/../qemu/init.c"
	env WS_TESTS_DIR="$dir" WS_KTAP_OUT="$BATS_TEST_TMPDIR/out.ktap" WS_TIMEOUT=10 "$@" "$bin" 2>/dev/null
}

# ktap_has LINE: out.ktap has LINE, whole.
ktap_has() {
	grep -qxF -- "$1" "$BATS_TEST_TMPDIR/out.ktap"
}

# one_test DIR: DIR holds one passing kselftest-style test, "t".
one_test() {
	mkdir -p "$1"
	printf '#!/bin/sh\necho "TAP version 13"\necho "1..1"\necho "ok 1 fine"\n' >"$1/t"
	chmod +x "$1/t"
}

@test "init: a .plain test's output becomes diagnostics, its exit status the result" {
	local d=$BATS_TEST_TMPDIR/tests
	mkdir -p "$d"
	printf '#!/bin/sh\necho "[RUN] frames"\necho "[OK] all good"\n' >"$d/a_64.plain"
	printf '#!/bin/sh\necho "[FAIL] bad frame"\nexit 1\n' >"$d/b_32.plain"
	chmod +x "$d"/*
	init_run "$d"
	ktap_has '  # [RUN] frames'
	ktap_has 'ok 1 a_64 # plain: exit=0'
	ktap_has 'not ok 2 b_32 # exit=1'
	run --separate-stderr "$VERDICT" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: not ok 2 b_32 # exit=1" ]
}

@test "init: kernel-taint is one more top-level test, skipped on the host" {
	local d=$BATS_TEST_TMPDIR/tests
	one_test "$d"
	init_run "$d"
	ktap_has '1..2'
	ktap_has "ok 2 kernel-taint # SKIP not PID 1: the host's taint is not the guest's (WS_TAINTED_FILE names a file to judge)"
	ktap_has '# ws-init: done'
	run --separate-stderr "$VERDICT" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 1 passed, 1 skipped" ]
}

@test "init: kernel-taint decodes the flags; allowed ones pass, others fail" {
	local d=$BATS_TEST_TMPDIR/tests t=$BATS_TEST_TMPDIR/tainted
	one_test "$d"
	echo 0 >"$t"
	init_run "$d" WS_TAINTED_FILE="$t" WS_TAINT_ALLOW=
	ktap_has 'ok 2 kernel-taint # not tainted'
	run --separate-stderr "$VERDICT" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$output" = "pass: 2 passed, 0 skipped" ]

	echo 262144 >"$t"	# N: TAINT_TEST, what KUnit sets
	init_run "$d" WS_TAINTED_FILE="$t" WS_TAINT_ALLOW=N
	ktap_has '  # N (bit 18): an in-kernel test has been run: allowed (KUnit ran)'
	ktap_has 'ok 2 kernel-taint # allowed: N'
	run --separate-stderr "$VERDICT" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 2 passed, 0 skipped" ]

	init_run "$d" WS_TAINTED_FILE="$t" WS_TAINT_ALLOW=
	ktap_has 'not ok 2 kernel-taint # tainted: N'

	echo 262784 >"$t"	# N, W (bit 9) and D (bit 7)
	init_run "$d" WS_TAINTED_FILE="$t" WS_TAINT_ALLOW=Nq
	ktap_has "  # taint allowance: 'q' is not a taint flag, ignored"
	ktap_has '  # kernel taint: 262784'
	ktap_has '  # D (bit 7): kernel died recently (oops)'
	ktap_has '  # W (bit 9): kernel issued a warning'
	ktap_has 'not ok 2 kernel-taint # tainted: DW, allowed: N'
	run --separate-stderr "$VERDICT" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: not ok 2 kernel-taint # tainted: DW, allowed: N" ]

	echo 1099511627776 >"$t"	# bit 40: no such flag
	init_run "$d" WS_TAINTED_FILE="$t" WS_TAINT_ALLOW=N
	ktap_has '  # ? (bit 40): unknown taint flag'
	ktap_has 'not ok 2 kernel-taint # tainted: ?'

	echo junk >"$t"
	init_run "$d" WS_TAINTED_FILE="$t" WS_TAINT_ALLOW=N
	grep -q '^not ok 2 kernel-taint # .*not a number' "$BATS_TEST_TMPDIR/out.ktap"
}
