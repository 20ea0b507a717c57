#!/usr/bin/env bats
# Tests for qemu/ktap-verdict.  Run with: bats tests/ktap.bats
# shellcheck disable=SC2154 # $status, $output, $lines, $stderr are set by bats' run

bats_require_minimum_version 1.5.0

setup() {
	VERDICT="$BATS_TEST_DIRNAME/../qemu/ktap-verdict"
	FIX="$BATS_TEST_DIRNAME/fixtures/ktap"
	ALLOWED="$BATS_TEST_DIRNAME/../qemu/allowed-skips"
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

@test "console with a lockdep INFO: report fails" {
	verdict pass.ktap console-lockdep.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'INFO:' (line 6: [    3.100002] INFO: possible recursive locking detected)" ]
}

@test "console with an RCU stall fails" {
	verdict pass.ktap console-rcu-stall.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'RCU stall' (line 7: [   25.000000] rcu: INFO: rcu_sched self-detected stall on CPU)" ]
	verdict pass.ktap console-rcu-stall-noinfo.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'RCU stall' (line 3: [   25.000000] rcu: rcu_preempt detected stalls on CPUs/tasks:)" ]
}

@test "console with a hung task fails" {
	verdict pass.ktap console-hung-task.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'hung task' (line 3: [  246.000000] INFO: task vstatus:87 blocked for more than 122 seconds.)" ]
}

@test "console with a SLUB error (BUG <cache>, no colon) fails" {
	verdict pass.ktap console-slub.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'BUG <slab cache>' (line 4: [    4.000001] BUG kmalloc-64 (Not tainted): Right Redzone overwritten)" ]
}

@test "console with a bare Call Trace: fails" {
	verdict pass.ktap console-call-trace.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: console has 'Call Trace:' (line 5: [    4.000002] Call Trace:)" ]
}

@test "console with a general protection fault fails" {
	verdict pass.ktap console-gpf.log
	[ "$status" -eq 1 ]
	[[ $output == "fail: console has 'general protection fault' (line 3: "* ]]
}

@test "a boot the host timed out fails although init finished" {
	verdict pass.ktap console-timeout.log
	[ "$status" -eq 1 ]
	[ "$output" = "fail: boot timed out (console line 7: workspace: timeout after 300s, killing qemu)" ]
}

@test "a clean debug boot's console (rcu:, lockdep banner, KUnit) passes" {
	verdict pass.ktap console-clean-debug.log
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 14 passed, 0 skipped; kunit: 1 passed, 0 skipped" ]
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

@test "a bare top-level ok without KTAP of its own is malformed" {
	verdict bare-ok.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: chatty: no KTAP output of its own (no plan, no results)" ]
	grep -v 'says hello' "$FIX/bare-ok.ktap" >"$BATS_TEST_TMPDIR/bare.ktap"
	run --separate-stderr "$VERDICT" "$BATS_TEST_TMPDIR/bare.ktap"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: chatty: no KTAP output of its own (no plan, no results)" ]
}

@test "results init judged itself (plain: exit=0, kernel-taint) pass without KTAP" {
	verdict plain-ok.ktap
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 3 passed, 0 skipped" ]
}

@test "a whole-test skip (1..0 # SKIP) counts as one skipped" {
	verdict whole-skip.ktap
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 1 passed, 1 skipped" ]
}

@test "init's kernel-taint alone is no test run" {
	verdict only-taint.ktap
	[ "$status" -eq 1 ]
	[ "$output" = "fail: no tests ran (only the kernel-taint of init)" ]
}

@test "--kunit-suite: the named suite must run, pass and not be skipped" {
	run --separate-stderr "$VERDICT" --kunit-suite signal_sigset "$FIX/pass.ktap" "$FIX/console-kunit.log"
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 14 passed, 0 skipped; kunit: 2 passed, 1 skipped" ]
	run --separate-stderr "$VERDICT" --kunit-suite signal_sigset --kunit-suite signal_nsig \
		"$FIX/pass.ktap" "$FIX/console-kunit.log"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: kunit: suite 'signal_nsig' did not run" ]
	run --separate-stderr "$VERDICT" --kunit-suite signal_next "$FIX/pass.ktap" "$FIX/console-kunit-skip.log"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: kunit: suite 'signal_next' was skipped" ]
	run --separate-stderr "$VERDICT" --kunit-suite signal_sigset "$FIX/pass.ktap" "$FIX/console-kunit-none.log"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: kunit: no KUnit results on the console" ]
}

@test "--kunit-suite needs a console file and a name" {
	run --separate-stderr "$VERDICT" --kunit-suite signal_sigset "$FIX/pass.ktap"
	[ "$status" -eq 2 ]
	run --separate-stderr "$VERDICT" --kunit-suite
	[ "$status" -eq 2 ]
}

@test "--allow-skip: skips matching a pattern pass" {
	run --separate-stderr "$VERDICT" --allow-skip "vstatus/VSTATUS not in this kernel's uapi headers (*)" "$FIX/skip.ktap"
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 8 passed, 6 skipped" ]
}

@test "--allow-skip: an unexpected nested skip fails and names its test" {
	run --separate-stderr "$VERDICT" --allow-skip "vstatus/NOKERNINFO not in*" "$FIX/skip.ktap"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: unexpected skip: vstatus: ok 1 # SKIP VSTATUS not in this kernel's uapi headers (^T prints the status line)" ]
}

@test "--allow-skip: a whole-test skip matches by name or name/reason" {
	run --separate-stderr "$VERDICT" --allow-skip "nsig/*" "$FIX/whole-skip.ktap"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: unexpected skip: ok 2 selftest-tty-tty_vstatus # SKIP (1..0 # SKIP no VSTATUS, NOKERNINFO or TIOCSTAT in the uapi headers)" ]
	run --separate-stderr "$VERDICT" --allow-skip "selftest-tty-tty_vstatus" "$FIX/whole-skip.ktap"
	[ "$status" -eq 0 ]
	run --separate-stderr "$VERDICT" --allow-skip "selftest-tty-tty_vstatus/no VSTATUS*" "$FIX/whole-skip.ktap"
	[ "$status" -eq 0 ]
	[ "$output" = "pass: 1 passed, 1 skipped" ]
}

@test "--allow-skip: KUnit skips are policed as kunit/SUITE/CASE" {
	run --separate-stderr "$VERDICT" --allow-skip "nothing" "$FIX/pass.ktap" "$FIX/console-kunit.log"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: kunit: unexpected skip: signal_sigset: ok 3 - next_signal_test # SKIP not here" ]
	run --separate-stderr "$VERDICT" --allow-skip "kunit/signal_sigset/next_*" "$FIX/pass.ktap" "$FIX/console-kunit.log"
	[ "$status" -eq 0 ]
}

@test "--allow-skips-file: patterns from a file; an empty one allows no skip" {
	printf '%s\n' "nothing" "vstatus/VSTATUS not in this kernel's uapi headers (*)" >"$BATS_TEST_TMPDIR/allowed"
	run --separate-stderr "$VERDICT" --allow-skips-file "$BATS_TEST_TMPDIR/allowed" "$FIX/skip.ktap"
	[ "$status" -eq 0 ]
	: >"$BATS_TEST_TMPDIR/none"
	run --separate-stderr "$VERDICT" --allow-skips-file "$BATS_TEST_TMPDIR/none" "$FIX/skip.ktap"
	[ "$status" -eq 1 ]
	[[ $output == "fail: unexpected skip: vstatus: ok 1 # SKIP "* ]]
	run --separate-stderr "$VERDICT" --allow-skips-file "$BATS_TEST_TMPDIR/none" "$FIX/pass.ktap"
	[ "$status" -eq 0 ]
}

@test "--allow-skip: glob metacharacters of regular expressions are literal" {
	run --separate-stderr "$VERDICT" --allow-skip "vstatus/VSTATUS not in this kernel.s uapi headers (*)" "$FIX/skip.ktap"
	[ "$status" -eq 1 ]
	run --separate-stderr "$VERDICT" --allow-skip "vstatus/VSTATUS not in this kernel?s uapi headers [(]*" "$FIX/skip.ktap"
	[ "$status" -eq 1 ]
	run --separate-stderr "$VERDICT" --allow-skip "vstatus/VSTATUS not in this kernel?s uapi headers (*)" "$FIX/skip.ktap"
	[ "$status" -eq 0 ]
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

@test "init: a test that prints no KTAP and exits 0 fails the verdict" {
	local d=$BATS_TEST_TMPDIR/tests
	one_test "$d"
	printf '#!/bin/sh\nexit 0\n' >"$d/u_silent"
	chmod +x "$d/u_silent"
	echo 0 >"$BATS_TEST_TMPDIR/tainted"
	init_run "$d" WS_TAINTED_FILE="$BATS_TEST_TMPDIR/tainted"
	ktap_has 'ok 2 u_silent'
	ktap_has 'ok 3 kernel-taint # not tainted'
	run --separate-stderr "$VERDICT" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: malformed KTAP: u_silent: no KTAP output of its own (no plan, no results)" ]
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

# guest_cc OUT SRC [FLAGS...]: a guest program, as boot.sh builds it, but
# against the host's headers and a copy of 6.1's kselftest.h.  A -m32
# program finds <asm/...> where the gcc-multilib meta-package's
# /usr/include/asm link would point: gcc-12-multilib, which the cross
# compilers allow, has no such link (boot.sh uses the commit's own headers).
guest_cc() {
	local -a m32=()
	if [[ " ${*:3} " == *" -m32 "* ]]; then
		mkdir -p "$BATS_TEST_TMPDIR/m32inc"
		ln -sfn "/usr/include/$(gcc -print-multiarch)/asm" "$BATS_TEST_TMPDIR/m32inc/asm"
		m32=(-idirafter "$BATS_TEST_TMPDIR/m32inc")
	fi
	cc -static -O2 -Wall -Werror -I "$FIX/ksft" "${m32[@]}" -o "$1" "$2" "${@:3}"
}

# need_m32: skip unless the host can build and run static 32-bit programs.
need_m32() {
	printf 'int main(void) { return 0; }\n' >"$BATS_TEST_TMPDIR/m32.c"
	if ! cc -static -m32 -o "$BATS_TEST_TMPDIR/m32" "$BATS_TEST_TMPDIR/m32.c" 2>/dev/null ||
		! "$BATS_TEST_TMPDIR/m32"; then
		skip "no static -m32 toolchain or no 32-bit support here"
	fi
}

@test "guest tests compile cleanly (-Wall -Werror) against the host's headers" {
	local t name
	for t in "$BATS_TEST_DIRNAME"/../qemu/tests/*.c; do
		name=$(basename "$t" .c)
		[[ $name == *.m32 ]] && continue
		guest_cc "$BATS_TEST_TMPDIR/$name" "$t"
	done
	need_m32
	for t in "$BATS_TEST_DIRNAME"/../qemu/tests/*.m32.c; do
		guest_cc "$BATS_TEST_TMPDIR/$(basename "$t" .m32.c)_32" "$t" -m32
	done
}

@test "nsig_compat_32: no rt_sigtimedwait (time32) is a visible SKIP per case, plan kept" {
	local d=$BATS_TEST_TMPDIR/tests
	need_m32
	mkdir -p "$d"
	guest_cc "$d/nsig_compat_32" "$BATS_TEST_DIRNAME/../qemu/tests/nsig_compat.m32.c" -m32 -DWS_TEST_NO_TIME32
	echo 0 >"$BATS_TEST_TMPDIR/tainted"
	init_run "$d" WS_TAINTED_FILE="$BATS_TEST_TMPDIR/tainted"
	run grep -c '# SKIP rt_sigtimedwait (time32) is ENOSYS: no CONFIG_COMPAT_32BIT_TIME (compat rt_sigtimedwait: ' \
		"$BATS_TEST_TMPDIR/out.ktap"
	[ "$output" = 4 ]
	ktap_has '  ok 17 # SKIP rt_sigtimedwait (time32) is ENOSYS: no CONFIG_COMPAT_32BIT_TIME (compat rt_sigtimedwait: sigsetsize 8)'
	ktap_has '  ok 21 compat rt_sigtimedwait_time64: sigsetsize 8'
	run --separate-stderr "$VERDICT" --allow-skip 'nsig_compat_32/rt_sigtimedwait (time32) is ENOSYS*' \
		--allow-skip "nsig_compat_32/AT_SIGSET_SZ not in this kernel's uapi headers (*)" \
		--allow-skip "nsig_compat_32/SIGINFO not in this kernel's uapi headers (*)" \
		"$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 0 ]
	[[ $output == "pass: "*" passed, "*" skipped" ]]
	run --separate-stderr "$VERDICT" \
		--allow-skip "nsig_compat_32/AT_SIGSET_SZ not in this kernel's uapi headers (*)" \
		--allow-skip "nsig_compat_32/SIGINFO not in this kernel's uapi headers (*)" \
		"$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 1 ]
	[ "$output" = "fail: unexpected skip: nsig_compat_32: ok 17 # SKIP rt_sigtimedwait (time32) is ENOSYS: no CONFIG_COMPAT_32BIT_TIME (compat rt_sigtimedwait: sigsetsize 8)" ]
}

# rules_env: $h (headers), $st (staged selftests), $cfg (.config) for
# qemu/allowed-skips, empty, in the test's temporary directory.
rules_env() {
	h=$BATS_TEST_TMPDIR/headers st=$BATS_TEST_TMPDIR/stage cfg=$BATS_TEST_TMPDIR/config
	mkdir -p "$h/include/asm" "$st"
	: >"$cfg"
}

@test "allowed-skips: each kind of rule holds where its cause is" {
	local h st cfg rules=$BATS_TEST_TMPDIR/rules
	rules_env
	cat >"$rules" <<-'RULES'
	# comment

	header-lacks VSTATUS v/VSTATUS not in this kernel's uapi headers (*)
	config-lacks CONFIG_SIGNALS_DEBUG n/no /proc/sys/kernel/max_signal*
	file-lacks tools/testing/selftests/tty/tty_vstatus.c selftest-tty-tty_vstatus
	always - env/*
	RULES
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = "v/VSTATUS not in this kernel's uapi headers (*)" ]
	[ "${lines[1]}" = "n/no /proc/sys/kernel/max_signal*" ]
	[ "${lines[2]}" = "selftest-tty-tty_vstatus" ]
	[ "${lines[3]}" = "env/*" ]
	[ "${#lines[@]}" -eq 4 ]
	printf '#define VSTATUS\t18\t/* ^T */\n' >"$h/include/asm/termbits.h"
	echo CONFIG_SIGNALS_DEBUG=y >"$cfg"
	mkdir -p "$st/tools/testing/selftests/tty"
	: >"$st/tools/testing/selftests/tty/tty_vstatus.c"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 0 ]
	[ "$output" = "env/*" ]
	# a longer name, a comment or a # not starting a define is no define
	printf '#define VSTATUS_X 1\n/* #define VSTATUS 18 */\n' >"$h/include/asm/termbits.h"
	echo '# CONFIG_SIGNALS_DEBUG is not set' >"$cfg"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "${lines[0]}" = "v/VSTATUS not in this kernel's uapi headers (*)" ]
	[ "${lines[1]}" = "n/no /proc/sys/kernel/max_signal*" ]
}

@test "allowed-skips: a bad rule or a missing input fails" {
	local h st cfg rules=$BATS_TEST_TMPDIR/rules
	rules_env
	echo 'header-lack VSTATUS v/*' >"$rules"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 1 ]
	[[ $stderr == *"rules:1: unknown condition 'header-lack'"* ]]
	echo 'header-lacks VSTATUS' >"$rules"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 1 ]
	echo 'config-lacks SIGNALS_DEBUG n/*' >"$rules"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 1 ]
	echo 'always because n/*' >"$rules"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 1 ]
	run --separate-stderr "$ALLOWED" "$h/nope" "$st" "$cfg"
	[ "$status" -eq 1 ]
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg.nope"
	[ "$status" -eq 1 ]
	run --separate-stderr "$ALLOWED" "$h" "$st"
	[ "$status" -eq 2 ]
}

@test "allowed-skips: SYMBOL@HEADER reads what HEADER includes; a TEST_32 rule reads --headers32" {
	local h st cfg rules=$BATS_TEST_TMPDIR/rules h32=$BATS_TEST_TMPDIR/headers32
	rules_env
	printf '%s\n' 'header-lacks SIGINFO@asm/signal.h n/SIGINFO*' \
		'header-lacks SIGINFO@asm/signal.h n_32/SIGINFO*' >"$rules"
	# 64-bit: asm/signal.h includes the asm-generic one, which defines it
	mkdir -p "$h/asm" "$h/asm-generic" "$h32/asm" "$h32/asm-generic"
	printf '#include <asm-generic/signal.h>\n' >"$h/asm/signal.h"
	printf '#define SIGINFO 65\n' >"$h/asm-generic/signal.h"
	# 32-bit: the asm-generic one defines it too, but asm/signal.h does
	# not include it (32-bit arm's)
	printf '#include <asm-generic/signal-defs.h>\n' >"$h32/asm/signal.h"
	printf '#define SIGINFO 65\n' >"$h32/asm-generic/signal.h"
	run --separate-stderr "$ALLOWED" --headers32 "$h32" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 0 ]
	[ "$output" = "n_32/SIGINFO*" ]
	# without --headers32, the 32-bit programs read the kernel's headers
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	run --separate-stderr "$ALLOWED" --headers32 "$BATS_TEST_TMPDIR/none" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 1 ]
	[[ $stderr == *"no 32-bit headers directory"* ]]
}

@test "allowed-skips: header-defines NAME=VALUE holds where a header defines NAME as VALUE" {
	local h st cfg rules=$BATS_TEST_TMPDIR/rules
	rules_env
	printf '%s\n' 'header-defines SIGINFO=SIGPWR n/SIGINFO is SIGPWR*' \
		'header-defines SIGINFO=SIGPWR n_32/SIGINFO is SIGPWR*' >"$rules"
	# nsig's design: SIGINFO is a number of its own
	printf '#define SIGPWR\t\t30\n#define SIGINFO\t\t65\n' >"$h/include/asm/signal.h"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 0 ]
	[ "$output" = "" ]
	# the 2019 design, with a trailing comment (MIPS); only the 64-bit
	# headers have it
	printf '#define SIGINFO\t\tSIGPWR\t/* Status request from keyboard (BSD).  */\n' >"$h/include/asm/signal.h"
	mkdir -p "$BATS_TEST_TMPDIR/h32"
	run --separate-stderr "$ALLOWED" --headers32 "$BATS_TEST_TMPDIR/h32" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 0 ]
	[ "$output" = "n/SIGINFO is SIGPWR*" ]
	# a longer value is another value
	printf '#define SIGINFO SIGPWR_X\n' >"$h/include/asm/signal.h"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$output" = "" ]
	echo 'header-defines SIGINFO n/*' >"$rules"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg" "$rules"
	[ "$status" -eq 1 ]
	[[ $stderr == *"rules:1: want NAME=VALUE, not 'SIGINFO'"* ]]
}

@test "qemu/expected-skips parses and allows nothing but another architecture's stand-ins and an ABI's missing calls once every feature is there" {
	local h st cfg sym
	rules_env
	for sym in VSTATUS NOKERNINFO TIOCSTAT SIGINFO AT_SIGSET_SZ; do
		printf '#define %s 1\n' "$sym" >>"$h/include/asm/all.h"
	done
	# what <asm/signal.h> shows a program (header-lacks SIGINFO@asm/signal.h)
	mkdir -p "$h/asm" "$h/asm-generic"
	printf '#include <asm-generic/signal.h>\n' >"$h/asm/signal.h"
	printf '#define SIGINFO 65\n' >"$h/asm-generic/signal.h"
	# an x86_64 kernel with 32-bit user space: nothing is a not-built
	# stand-in but arm64's selftests
	printf '%s\n' CONFIG_SIGNALS_DEBUG=y CONFIG_COMPAT_32BIT_TIME=y CONFIG_PID_NS=y CONFIG_COMPAT=y CONFIG_X86=y CONFIG_X86_64=y CONFIG_64BIT=y >"$cfg"
	run --separate-stderr "$ALLOWED" "$h" "$st" "$cfg"
	[ "$status" -eq 0 ]
	[ "${lines[0]}" = 'posix_masks/this ABI has no legacy sig* system call (*)' ]
	[ "${lines[1]}" = 'posix_masks_n32/this ABI has no legacy sig* system call (*)' ]
	[ "${lines[2]}" = 'selftest-arm64-*/not built: a selftest for arm64 only, *' ]
	[ "${#lines[@]}" -eq 3 ]
}

@test "the guest tests' skips without the series are all in qemu/expected-skips" {
	local d=$BATS_TEST_TMPDIR/tests t name h st cfg
	need_m32
	rules_env
	mkdir -p "$d"
	for t in "$BATS_TEST_DIRNAME"/../qemu/tests/*.c; do
		name=$(basename "$t" .c)
		if [[ $name == *.m32 ]]; then
			guest_cc "$d/${name%.m32}_32" "$t" -m32 -DWS_TEST_NO_TIME32
		else
			guest_cc "$d/$name" "$t"
		fi
	done
	echo 0 >"$BATS_TEST_TMPDIR/tainted"
	init_run "$d" WS_TAINTED_FILE="$BATS_TEST_TMPDIR/tainted"
	# the host's headers, as the guest tests were built: no series symbol
	"$ALLOWED" /usr/include "$st" "$cfg" >"$BATS_TEST_TMPDIR/allowed"
	run --separate-stderr "$VERDICT" --allow-skips-file "$BATS_TEST_TMPDIR/allowed" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 0 ]
	[[ $output == "pass: "*" passed, "*" skipped" ]]
	[[ $stderr == *"vstatus: 7 skip"* ]]
	# with CONFIG_COMPAT_32BIT_TIME set, the time32 skips (the 32-bit
	# tests were built without time32 here) are no longer allowed
	echo CONFIG_COMPAT_32BIT_TIME=y >"$cfg"
	"$ALLOWED" /usr/include "$st" "$cfg" >"$BATS_TEST_TMPDIR/allowed"
	run --separate-stderr "$VERDICT" --allow-skips-file "$BATS_TEST_TMPDIR/allowed" "$BATS_TEST_TMPDIR/out.ktap"
	[ "$status" -eq 1 ]
	[[ $output == "fail: unexpected skip: nsig_compat_32: ok "*" # SKIP rt_sigtimedwait (time32) is ENOSYS: "* ]]
}
