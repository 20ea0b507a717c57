#!/usr/bin/env bats
# What a run may and may not do with the workspace's state: variables are
# checked before any work, a failed step is never stored as a pass, locks
# left behind do not wedge a run, damaged caches and reports are named and
# rebuilt, and new build warnings are counted against the parent.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

bats_require_minimum_version 1.5.0

load helpers

setup() {
	setup_workspace
}

applied_fixture() {
	run ws import.sh
	[ "$status" -eq 0 ]
	make_series one linux-source "$@"
	ws apply.sh
}

# ---- bisect-build's warnings ------------------------------------------------

@test "bisect-build: a second identical warning and one brought back are new against the parent" {
	applied_fixture \
		"main.c:int fixture_main(void) { int unused; return 0; }:fixture: one warning" \
		"main.c:int fixture_main(void) { int unused; return 0; } int f2(void) { int unused; return 0; }:fixture: the same warning again" \
		"main.c:int fixture_main(void) { return 0; }:fixture: no warning" \
		"main.c:int fixture_main(void) { int unused; return 0; }:fixture: the warning is back"
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == "warn 1 new warning(s) against the parent: main.c: warning: unused variable"* ]]
	[[ $(results_row one 2 build) == "warn 1 new warning(s) against the parent: main.c: warning: unused variable"* ]]
	echo "3: $(results_row one 3 build)"; echo "$output"
	[[ $(results_row one 3 build) == "pass no new warnings" ]]
	[[ $(results_row one 4 build) == "warn 1 new warning(s)"*"unused variable"* ]]
}

@test "bisect-build: a linker warning without a line number counts, once, against the parent" {
	applied_fixture "ld-warning:relocation in read-only section:fixture: a link warning" \
		"a.c:int a;:fixture: unrelated"
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == "warn 1 new warning(s) against the parent: ld: warning: relocation in read-only section"* ]]
	[[ $(results_row one 2 build) == "pass no new warnings" ]]
}

@test "bisect-build: a commit built after another series' build counts its new warnings against its parent, not that build" {
	run ws import.sh
	# two's first commit is built, then one, in the same build directory.
	make_series two linux-source "drv/x.c:int x;:fixture: one driver"
	ws apply.sh
	SERIES=two run ws build.sh series
	[ "$status" -eq 0 ]
	make_series one linux-source "drv/y.c:int y(void) { int unused; return 0; }:fixture: a warning"
	ws apply.sh
	SERIES=one run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == "warn 1 new warning(s) against the parent: drv/y.c: warning: unused variable"* ]]
	# two gets a second commit that adds one's drv/y.c: the file is as
	# the build directory last saw it, but new against the parent.
	rm -r "${SERIES_DIR:?}/two"
	make_series two linux-source "drv/x.c:int x;:fixture: one driver" \
		"drv/y.c:int y(void) { int unused; return 0; }:fixture: the same warning"
	ws apply.sh
	SERIES=two run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row two 1 build) == "pass no new warnings, cached" ]]
	[[ $(results_row two 2 build) == "warn 1 new warning(s) against the parent: drv/y.c: warning: unused variable"* ]]
}

@test "bisect-build: a series on another series starts from the warnings of the whole chain" {
	run ws import.sh
	make_series one linux-source "main.c:int fixture_main(void) { int unused; return 0; }:fixture: a warning"
	ws apply.sh
	make_series two one "a.c:int a;:fixture: unrelated"
	ws apply.sh
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row two 0 build) == "pass base, 1 warnings"* ]]
	[[ $(results_row two 1 build) == "pass no new warnings" ]]
}

# ---- failed steps are not passes ---------------------------------------------

@test "a kernel that cannot be stored is not cached as a pass, and the next run builds it" {
	applied_fixture "a.c:int a;:fixture: add a"
	IMAGE=arch/x86/boot/no-such-image run ws build.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"could not build"* ]]
	run grep -l '^pass' "$WORKDIR"/artifacts/smoke/*/result
	[ "$status" -ne 0 ]
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 build) == pass* ]]
}

@test "a damaged build result is discarded, named, and built again" {
	applied_fixture "a.c:int a;:fixture: add a"
	ws build.sh series
	local -a results=("$WORKDIR"/artifacts/smoke/*/result)
	: >"${results[1]}"
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"discarding the damaged build result ${results[1]%/result}"* ]]
	[ -s "${results[1]}" ]
}

@test "apply refuses to move the branch checked out in a tree with a git lock, and moves nothing" {
	applied_fixture "a.c:int a;:fixture: add a"
	tree checkout -q one
	local before
	before=$(tree rev-parse one)
	rm -r "$SERIES_DIR/one"
	make_series one linux-source "a.c:int b;:fixture: add b"
	touch "$WORKDIR/linux/.git/index.lock"
	run ws apply.sh
	[ "$status" -ne 0 ]
	[[ $output == *"$WORKDIR/linux/.git/index.lock exists"* ]]
	[ "$(tree rev-parse one)" = "$before" ]
	rm "$WORKDIR/linux/.git/index.lock"
	[ -z "$(tree status --porcelain -uno)" ]
	run ws apply.sh
	[ "$status" -eq 0 ]
	[ "$(tree show one:a.c)" = "int b;" ]
	[ -z "$(tree status --porcelain -uno)" ]
}

@test "a git lock left in the workspace's own worktrees is cleared, saying so" {
	applied_fixture "a.c:int a;:fixture: add a"
	ws build.sh series
	rm -r "$SERIES_DIR/one"
	make_series one linux-source "a.c:int b;:fixture: add b"
	touch "$(git -C "$WORKDIR/apply" rev-parse --path-format=absolute --git-path index.lock)"
	touch "$(git -C "$WORKDIR/src-6.12" rev-parse --path-format=absolute --git-path index.lock)"
	run ws apply.sh
	[ "$status" -eq 0 ]
	[[ $output == *"left over from an interrupted run"* ]]
	[ "$(tree show one:a.c)" = "int b;" ]
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"left over from an interrupted run"* ]]
	[[ $(results_row one 1 build) == pass* ]]
}

# ---- variables ----------------------------------------------------------------

@test "every variable is checked before any work, and the message names it" {
	local v
	for v in BOOT_TIMEOUT=abc TEST_TIMEOUT=0 JOBS=abc CHECK_JOBS=-1 BENCH_BOOTS=x \
		CONFIG=../../x ACCEL=fast DEBUG=2 FORCE=yes JOB_MEMO=no MIN_FREE_GB=lots KVER=latest \
		'SERIES=a b' WORKDIR=relative/dir WORKDIR= COCCI_TIMEOUT=0 DOCS_JOBS=x UAPI_GENERIC_ARCH='x; y'; do
		run make -s -C "$WS" bisect-build NO_DEPS=1 "$v"
		[ "$status" -ne 0 ]
		[[ $output == *"${v%%=*}"* ]]
		[[ $output != *"import"* ]]
	done
	[ ! -e "$WORKDIR" ]
	[ ! -e "$WS/relative" ]
}

@test "BOOT_TIMEOUT=abc stops boot-test before QEMU starts and leaves no lock behind" {
	applied_fixture "a.c:int a;:fixture: add a"
	BOOT_TIMEOUT=abc run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"BOOT_TIMEOUT must be a positive whole number (got 'abc')"* ]]
	[ ! -d "$WORKDIR/boots" ]
	WS_LOCK_TIMEOUT=1 run ws boot.sh series
	[ "$status" -eq 0 ]
}

@test "single targets honour NO_DEPS=1" {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\necho "apt-get $*" >>%s\nexit 1\n' "$BATS_TEST_TMPDIR/pkg-calls" >"$BATS_TEST_TMPDIR/bin/apt-get"
	chmod +x "$BATS_TEST_TMPDIR/bin/apt-get"
	# deps would want linux-source-9.9, which no machine has.
	PATH=$BATS_TEST_TMPDIR/bin:$PATH run make -s -C "$WS" import NO_DEPS=1
	[ "$status" -eq 0 ]
	[ ! -e "$BATS_TEST_TMPDIR/pkg-calls" ]
	[[ $output != *"linux-source-9.9"*"not available"* ]]
}

# ---- locks, damaged reports, control characters -----------------------------

@test "a child orphaned by a killed run does not keep the workspace lock" {
	mkdir -p "$WORKDIR"
	# shellcheck disable=SC2016 # expanded by the inner shell
	# The child is named ws-orphan, so that no other sleep (bats' own
	# timeout watcher is one) is taken for it.
	WS=$WS bash -c 'source "$WS/scripts/lib.sh"; take_lock; (exec -a ws-orphan sleep 300) & echo started; wait' \
		>"$BATS_TEST_TMPDIR/holder.out" &
	local holder=$!
	while ! grep -q started "$BATS_TEST_TMPDIR/holder.out" 2>/dev/null; do sleep 0.1; done
	# shellcheck disable=SC2016 # expanded by the inner shell
	WS=$WS WS_LOCK_TIMEOUT=1 run bash -c 'source "$WS/scripts/lib.sh"; take_lock; echo locked'
	[ "$status" -ne 0 ]
	[[ $output == *"gave up waiting"* ]]
	kill -9 "$holder"
	sleep 0.5
	# The orphaned sleep is still there, and the lock is free.
	pgrep -f '^ws-orphan' >/dev/null
	# shellcheck disable=SC2016 # expanded by the inner shell
	WS=$WS WS_LOCK_TIMEOUT=1 run bash -c 'source "$WS/scripts/lib.sh"; take_lock; echo locked'
	pkill -f '^ws-orphan' || true
	[ "$status" -eq 0 ]
	[[ $output == *locked* ]]
}

@test "results.tsv is the store's view: a damaged one is written again; an older workspace's damaged one is named and set aside" {
	applied_fixture "a.c:int a;:fixture: add a"
	ws build.sh series
	cp "$WORKDIR/report/results.tsv" "$BATS_TEST_TMPDIR/good"
	printf 'series\tindex\nnot a table\n' >"$WORKDIR/report/results.tsv"
	run ws matrix.sh
	[ "$status" -eq 0 ]
	cmp "$WORKDIR/report/results.tsv" "$BATS_TEST_TMPDIR/good"
	# Without a store (a workspace from before it), the table is all there
	# is: a damaged one is named, set aside, and make matrix has nothing.
	rm -rf "$WORKDIR/report/cells"
	printf 'series\tindex\nnot a table\n' >"$WORKDIR/report/results.tsv"
	run ws matrix.sh
	[ "$status" -ne 0 ]
	[[ $output == *"$WORKDIR/report/results.tsv is damaged (line 1"*"moved to $WORKDIR/report/results.tsv.damaged"* ]]
	[[ $output == *"no results yet"* ]]
	run ws build.sh series
	[ "$status" -eq 0 ]
	run ws matrix.sh
	[ "$status" -eq 0 ]
}

@test "a results.tsv from before the arch column keeps its rows, and a build row is replaced, not doubled" {
	applied_fixture "a.c:int a;:fixture: add a"
	# A workspace from before the store: results.tsv is all there is.
	rm -rf "$WORKDIR/report/cells"
	mkdir -p "$WORKDIR/report"
	{
		printf 'series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\tlog\n'
		printf 'one\t0\tx\tbase\tbuild\tpass\t1\tbase\t/old/log\n'
		printf 'one\t1\tx\tadd a\tcheckpatch\twarn\t1\tkept\t/old/c\n'
	} >"$WORKDIR/report/results.tsv"
	run ws matrix.sh
	[ "$status" -eq 0 ]
	run ws build.sh series
	[ "$status" -eq 0 ]
	head -n1 "$WORKDIR/report/results.tsv" | grep -q $'\tlog\tarch\tcached\tcpu$'
	grep -qx $'one\t1\tx\tadd a\tcheckpatch\twarn\t1\tkept\t/old/c\t\t0\t' "$WORKDIR/report/results.tsv"
	[ "$(awk -F'\t' '$2 == 0 && $5 == "build"' "$WORKDIR/report/results.tsv" | wc -l)" -eq 1 ]
	awk -F'\t' '$2 == 0 && $5 == "build" { exit !($10 == "x86_64" && $9 != "/old/log") }' "$WORKDIR/report/results.tsv"
	[ ! -e "$WORKDIR/report/results.tsv.old" ]
}

@test "a results.tsv from before the log column is set aside and started again, not called damaged" {
	applied_fixture "a.c:int a;:fixture: add a"
	rm -rf "$WORKDIR/report/cells"
	mkdir -p "$WORKDIR/report"
	printf 'series\tindex\tcommit\tsubject\tstage\tstatus\tseconds\tdetail\none\t0\tx\tbase\tbuild\tpass\t1\tbase\n' \
		>"$WORKDIR/report/results.tsv"
	run ws build.sh series
	[ "$status" -eq 0 ]
	[[ $output == *"has no log column yet"* ]]
	[[ $output != *"damaged"* ]]
	[ -f "$WORKDIR/report/results.tsv.old" ]
	head -n1 "$WORKDIR/report/results.tsv" | grep -q $'\tlog\tarch\tcached\tcpu$'
	run ws matrix.sh
	[ "$status" -eq 0 ]
}

@test "a cell taken from a cache keeps the seconds of the run that computed it" {
	applied_fixture "a.c:int a;:fixture: add a"
	local sha
	sha=$(tree rev-parse one)
	rec() {
		WS=$WS bash -c 'source "$WS/scripts/lib.sh"; record "$@"' rec "$@"
	}
	secs_of() {
		cut -f7 "$WORKDIR/report/cells/one/1/boot@x86_64"
	}
	rec one 1 "$sha" "add a" boot pass 19 "pass: 3 passed" /log
	[ "$(secs_of)" = 19 ]
	# The same commit's boot from the cache, as boot.sh records it.
	rec one 1 "$sha" "add a" boot pass 0 "pass: 3 passed (cached)" /log
	[ "$(secs_of)" = 19 ]
	awk -F'\t' '$5 == "boot" { exit !($7 == 19 && $11 == 1) }' "$WORKDIR/report/results.tsv"
	# Booted again: its own seconds.
	rec one 1 "$sha" "add a" boot pass 7 "pass: 3 passed" /log
	[ "$(secs_of)" = 7 ]
	# Another commit at that index, or another verdict: nothing to keep.
	rec one 1 0123456789abcdef0123456789abcdef01234567 "add a" boot pass 0 "pass: 3 passed (cached)" /log
	[ "$(secs_of)" = 0 ]
	rec one 1 "$sha" "add a" boot fail 12 "fail: 1 failed" /log
	rec one 1 "$sha" "add a" boot pass 0 "pass: 3 passed (cached)" /log
	[ "$(secs_of)" = 0 ]
}

@test "cpu_spent counts the CPU time of the children waited for, theirs included, not the time they slept" {
	# burn TICKS: runs until its own CPU time (/proc's utime and stime)
	# reaches TICKS, whatever the load.
	cat >"$BATS_TEST_TMPDIR/burn" <<'EOF'
while read -r s <"/proc/$BASHPID/stat"; f=(${s##*) }); ((f[11] + f[12] < $1)); do :; done
EOF
	cat >"$BATS_TEST_TMPDIR/measure" <<'EOF'
source "$WS/scripts/lib.sh"
cpu_mark m || exit 9
# 1.5 s of CPU in a grandchild, then 1.5 s asleep in a child.
bash -c 'bash "$1" 150' _ "$BATS_TEST_TMPDIR/burn"
cpu_spent busy "$m"
cpu_mark m
sleep 1.5
cpu_spent idle "$m"
cpu_spent none ""
echo "busy=$busy idle=$idle none=[$none]"
EOF
	run env WS="$WS" BATS_TEST_TMPDIR="$BATS_TEST_TMPDIR" bash "$BATS_TEST_TMPDIR/measure"
	[ "$status" -eq 0 ]
	[[ $output =~ ^busy=([0-9]+)\ idle=([0-9]+)\ none=\[\]$ ]]
	((BASH_REMATCH[1] >= 1 && BASH_REMATCH[1] <= 3))
	[ "${BASH_REMATCH[2]}" -eq 0 ]
}

@test "control characters from a guest console reach neither the terminal nor the report" {
	make_tarball escape
	applied_fixture "a.c:int a;:fixture: add a"
	run ws boot.sh series
	[ "$status" -ne 0 ]
	[[ $output == *"BUG: fixture"* ]]
	[[ $output != *$'\033'* && $output != *$'\007'* ]]
	run ! grep -q $'[\033\007]' "$WORKDIR/report/results.tsv"
	run ws matrix.sh
	[[ $output != *$'\033'* ]]
	run ! grep -q $'\033' "$WORKDIR/report/summary.md"
}
