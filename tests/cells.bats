#!/usr/bin/env bats
# The run's cells (scripts/cells.py, lib.sh's record): the plan made before
# any work, a planned cell that no stage decided, apply refusals as cells,
# the store on a full disk, and the untested status.
# shellcheck disable=SC2030,SC2031 # bats runs each test in a subshell

load helpers
bats_require_minimum_version 1.5.0

setup() {
	imported_workspace
}

# make_run: the whole run on the fixture, as make runs it, with one check
# (the checks' own behaviour is tests/checks.bats').
make_run() {
	run env NO_DEPS=1 DEBUG=0 CHECKS=signoff bash "$WS/scripts/all.sh"
}

# cells_of SERIES: "index stage status" of every row of SERIES in
# results.tsv, sorted.
cells_of() {
	awk -F'\t' -v s="$1" '$1 == s { print $2, $5, $6 }' "$WORKDIR/report/results.tsv" | LC_ALL=C sort
}

@test "make plans every cell first: a run whose cells all came has no missing cell, and its plan says what it owed" {
	make_series one linux-source "a.c:int a;:fixture: add a" "b.c:int b;:fixture: add b"
	make_run
	[ "$status" -eq 0 ]
	# Progress names the series, k of n, and its commits.
	[[ $output == *"series     === series 1 of 1: one (2 commits) ==="* ]]
	run ! grep -q 'missing' "$WORKDIR/report/results.tsv"
	# The plan: apply, build and boot of the base and both commits, the
	# check and the cross-compile of the commits, arm64 at base and head.
	plan=$WORKDIR/report/plan/one
	[ "$(grep -c . "$plan")" -eq 17 ]
	grep -qP '^1\t[0-9a-f]{40}\tfixture: add a\tcross\t\*$' "$plan"
	grep -qP '^2\t[0-9a-f]{40}\tfixture: add b\tboot-arm64\tarm64$' "$plan"
	run ! grep -qP '^0\t.*\tsignoff\t' "$plan"
}

@test "each cell says what it read: results.json's inputs, the lines key_from hashed for its result" {
	make_series one linux-source "a.c:int a;:fixture: add a" "b.c:int b;:fixture: add b"
	make_run
	[ "$status" -eq 0 ]
	# inputs_of STAGE INDEX: the inputs of that cell of series one, a line each.
	inputs_of() {
		/usr/bin/python3 -c 'import json, sys
for c in json.load(open(sys.argv[1])):
    if c["series"] == "one" and c["stage"] == sys.argv[2] and c["index"] == int(sys.argv[3]):
        print("\n".join(c["inputs"]))' "$WORKDIR/report/results.json" "$1" "$2"
	}
	# The series' patches, each by content, and the key they make.
	inputs_of apply 2 | grep -x 'text patch 0002-fixture-add-b.patch'
	inputs_of apply 2 | grep -E '^key [0-9a-f]{64}$'
	# A build: the commit's tree, its configuration's key and what that read.
	inputs_of build 1 | grep -E "^tree $(tree rev-parse 'one~1^{tree}')\$"
	inputs_of build 1 | grep -E '^config [0-9a-f]{16}$'
	# A check: the commit, its own code, the key.
	inputs_of signoff 1 | grep -x "commit $(tree rev-parse one~1)"
	inputs_of signoff 1 | grep -x 'text checks/signoff/run'
	# A boot: the kernel it booted, QEMU's key, the key.
	inputs_of boot 2 | grep -E '^run stat_digest .*/artifacts/.*/bzImage$'
	inputs_of boot 2 | grep -E '^key [0-9a-f]{32}$'
	# A cross-compile: the commit and its parent, the architecture's recipe.
	inputs_of cross 1 | grep -E "^text $(tree rev-parse one~1) [0-9a-f]{40}\$"
	# A cell taken from a cache says what its key read too.
	make_run
	[ "$status" -eq 0 ]
	inputs_of boot 2 | grep -E '^key [0-9a-f]{32}$'
	inputs_of build 2 | grep -E '^config [0-9a-f]{16}$'
}

@test "progress says what the last make of the same series took here, and how far this one is against it" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	make_run
	[ "$status" -eq 0 ]
	# The first run here has no history to go by.
	[[ $output != *"the last make of"* ]]
	[[ $output == *"=== series 1 of 1: one (1 commits) ==="* ]]
	# The next one says what the first took, and the elapsed time against it.
	make_run
	[ "$status" -eq 0 ]
	[[ $output =~ "series     the last make of all here took "[0-9]+:[0-9][0-9]" ("[0-9-]+" "[0-9:]+", warm, " ]]
	[[ $output =~ "=== series 1 of 1: one (1 commits), elapsed "[0-9]+:[0-9][0-9]" of about "[0-9]+:[0-9][0-9]" (the last make's) ===" ]]
}

@test "a stage that dies half-way leaves its cells missing: the matrix fails them and make exits non-zero" {
	# From commit 2 on, the fixture's compiler kills cross.sh (commit 2
	# itself has no kernel code to compile).
	make_series one linux-source "a.c:int a;:fixture: add a" \
		"kill-stage:scripts/cross.sh:fixture: cross.sh dies from here" \
		"c.c:int c;:fixture: add c" "d.c:int d;:fixture: add d"
	make_run
	# cross.sh was killed at commit 3: commits 1 and 2 have their cells,
	# 3 and 4 none, and the matrix says so rather than showing "-".
	[ "$status" -ne 0 ]
	[[ $(results_row one 1 cross) == pass* ]]
	[[ $(results_row one 2 cross) == "skip nothing to compile"* ]]
	[[ $(results_row one 3 cross) == "fail missing: the run owed this cell and no cross result came;"* ]]
	[[ $(results_row one 4 cross) == "fail missing:"* ]]
	[[ $output == *"2 failing cell(s)"* ]]
	echo "$output" | grep -E "^3 +[0-9a-f]{12} +fixture: add c .* MISSING" || { echo "$output" | tail -40; false; }
	# The other stages went on: commit 4 was built and booted.
	[[ $(results_row one 4 build) == pass* ]]
	[[ $(results_row one 4 boot) == pass* ]]
	# For CI systems too.
	grep -q '"missing": true' "$WORKDIR/report/results.json"
	grep -q 'failures="2"' "$WORKDIR/report/results.junit.xml"
}

@test "a series file that names a missing patch is a failing apply cell naming it, and nothing runs on the old branch" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	echo 0002-gone.patch >>"$SERIES_DIR/one/series"
	make_run
	[ "$status" -ne 0 ]
	[[ $(results_row one 0 apply) == "fail series/one/series lists '0002-gone.patch', which is not in series/one/" ]]
	# The branch is last run's: no build, boot or arm64 cell on it.
	[ "$(cells_of one)" = "0 apply fail" ]
	[[ $output == *"1 failing cell(s)"* ]]
}

@test "a branch with edits not exported is a failing apply cell that says what to do, and is not booted" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	tree checkout -q one
	echo "int edited;" >"$WORKDIR/linux/a.c"
	tree commit -qam "fixture: edited in the tree"
	tree checkout -q --detach
	make_run
	[ "$status" -ne 0 ]
	[[ $(results_row one 0 apply) == "fail branch one in $WORKDIR/linux has commits that are not in series/one"* ]]
	[ "$(cells_of one)" = "0 apply fail" ]
	# The log of the refusal is the cell's evidence.
	grep -q "make export SERIES=one" "$(awk -F'\t' '$1 == "one" && $5 == "apply" { print $9 }' "$WORKDIR/report/results.tsv")"
}

@test "an empty series file is a failing apply cell, not a pass on zero commits" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	printf '# nothing yet\n' >"$SERIES_DIR/one/series"
	make_run
	[ "$status" -ne 0 ]
	[[ $(results_row one 0 apply) == "fail series/one/series lists no patch"* ]]
	[ "$(cells_of one)" = "0 apply fail" ]
}

@test "a series on a series that did not apply is not applied on that series' old branch" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	make_series two one "b.c:int b;:fixture: add b"
	echo 0002-gone.patch >>"$SERIES_DIR/one/series"
	make_run
	[ "$status" -ne 0 ]
	[[ $(results_row two 0 apply) == "fail not applied: series/two/base names one, which did not apply" ]]
	[ "$(cells_of two)" = "0 apply fail" ]
}

@test "a cell that cannot be stored (a full disk) stops the stage, saying so, and loses no earlier cell" {
	# shellcheck disable=SC1091 # lib.sh is checked on its own
	source "$WS/scripts/lib.sh"
	record one 0 aaaa base build pass 1 "base"
	record one 1 bbbb "fix: a" build pass 2 "no new warnings"
	cp "$RESULTS" "$BATS_TEST_TMPDIR/before"
	# No byte can be written: every write fails as on a full disk.
	WS=$WS run bash -c 'trap "" XFSZ; ulimit -f 0; source "$WS/scripts/lib.sh"; record one 2 cccc "fix: b" build pass 3 "x"'
	[ "$status" -ne 0 ]
	[[ $output == *"could not store the build cell of one [2] (pass)"*"the cells stored before it are kept"* ]]
	# The earlier cells, in the store and in results.tsv, are whole.
	cmp "$RESULTS" "$BATS_TEST_TMPDIR/before"
	[[ $(results_row one 1 build) == "pass no new warnings" ]]
	[ -z "$(find "$WORKDIR/report" -name '*.tmp*')" ]
	run "$WS/scripts/matrix.sh"
	[[ $output == *"0 failing cell(s)"* ]]
}

@test "a check whose name starts with build- is no architecture's cell; a second record replaces the first" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/checks/build-things"
	echo "A check that passes." >"$BATS_TEST_TMPDIR/checks/build-things/description"
	printf '#!/bin/sh\necho fine\n' >"$BATS_TEST_TMPDIR/checks/build-things/run"
	chmod +x "$BATS_TEST_TMPDIR/checks/build-things/run"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[ "$(awk -F'\t' '$5 == "build-things" { print $6 "/" $10 }' "$WORKDIR/report/results.tsv")" = "pass/" ]
	# shellcheck disable=SC1091 # lib.sh is checked on its own
	source "$WS/scripts/lib.sh"
	record one 1 bbbb "fix: a" build-things fail 1 "worse" /log ""
	record one 1 bbbb "fix: a" boot-arm64 pass 1 "ok" /b
	[ "$(awk -F'\t' '$5 == "build-things" { print $6 "/" $10 }' "$RESULTS")" = "fail/" ]
	[ "$(awk -F'\t' '$5 == "boot-arm64" { print $10 }' "$RESULTS")" = arm64 ]
}

@test "untested is a status of its own: shown apart, never a pass, skipped with its reason in JUnit" {
	# shellcheck disable=SC1091 # lib.sh is checked on its own
	source "$WS/scripts/lib.sh"
	record one 1 bbbb "fix: a" cross untested 0 "0 objects compiled: the configuration builds none of the touched files" /x/log sparc64
	record one 1 bbbb "fix: a" cross pass 3 "2 objects" /x/log2 arm64
	run "$WS/scripts/matrix.sh"
	[ "$status" -eq 0 ]
	echo "$output" | grep -E '^1 +bbbb +fix: a +UNTESTED 3s'
	[[ $output == *"one 1 bbbb cross sparc64: untested: 0 objects compiled"* ]]
	[[ $output == *"1 untested cell(s) (the work ran and verified nothing)"* ]]
	grep -q '<skipped message="untested: 0 objects compiled' "$WORKDIR/report/results.junit.xml"
	grep -q '"status": "untested"' "$WORKDIR/report/results.json"
}

@test "a damaged cell file is named, set aside, and its planned cell counts as missing" {
	# shellcheck disable=SC1091 # lib.sh is checked on its own
	source "$WS/scripts/lib.sh"
	printf '0 aaaa base\n1 bbbb fix: a\n' | cells plan one "" 0 ""
	record one 0 aaaa base apply pass 0 base
	record one 1 bbbb "fix: a" apply pass 0 ""
	echo "half a ro" >"$WORKDIR/report/cells/one/1/apply"
	run "$WS/scripts/matrix.sh"
	[ "$status" -eq 1 ]
	[[ $output == *"$WORKDIR/report/cells/one/1/apply is damaged (1 fields, not 12): moved to"* ]]
	[ -f "$WORKDIR/report/cells/one/1/apply.damaged" ]
	[[ $(results_row one 1 apply) == "fail missing:"* ]]
}

@test "make SERIES= of a series on another: its base series is applied for it, and it is built and booted" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	make_series two one "b.c:int b;:fixture: add b"
	tree branch -D one
	tree update-ref -d refs/workspace/applied/one
	SERIES=two make_run
	[ "$status" -eq 0 ]
	[[ $(results_row two 1 boot) == pass* ]]
	[ ! -e "$WORKDIR/report/plan/one" ]
}

@test "a check that exits 3 could verify nothing: its cell is untested, and it runs again next time" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	ws apply.sh
	mkdir -p "$BATS_TEST_TMPDIR/checks/blind"
	echo "A check that cannot parse anything." >"$BATS_TEST_TMPDIR/checks/blind/description"
	printf '#!/bin/sh\necho ran >>"%s"\necho "could not parse a.c"\nexit 3\n' "$BATS_TEST_TMPDIR/runs" >"$BATS_TEST_TMPDIR/checks/blind/run"
	chmod +x "$BATS_TEST_TMPDIR/checks/blind/run"
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$status" -eq 0 ]
	[[ $(results_row one 1 blind) == "untested could not parse a.c" ]]
	CHECKS_DIR=$BATS_TEST_TMPDIR/checks run ws check.sh
	[ "$(grep -c . "$BATS_TEST_TMPDIR/runs")" -eq 2 ]
}

@test "a cell says whether it came from a cache: a check taken from the cache, a cached build and boot" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	make_run
	[ "$status" -eq 0 ]
	[ "$(awk -F'\t' '$2 == 1 && ($5 == "signoff" || $5 == "build" || $5 == "boot") { print $5 "=" $11 }' "$WORKDIR/report/results.tsv" | sort | xargs)" = "boot=0 build=0 signoff=0" ]
	make_run
	[ "$status" -eq 0 ]
	[ "$(awk -F'\t' '$2 == 1 && ($5 == "signoff" || $5 == "build" || $5 == "boot") { print $5 "=" $11 }' "$WORKDIR/report/results.tsv" | sort | xargs)" = "boot=1 build=1 signoff=1" ]
	grep -q '"cached": true' "$WORKDIR/report/results.json"
}

@test "a series on a base that is not installed fails its apply cell, naming it; the other series are built and booted" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	make_series two linux-source "b.c:int b;:fixture: add b"
	echo linux-source-9.11 >"$SERIES_DIR/one/base"
	export TARBALL_DIR=$BATS_TEST_TMPDIR/nowhere
	make_run
	[ "$status" -ne 0 ]
	[[ $output == *"missing tarball $TARBALL_DIR/linux-source-9.11.tar.xz, the base of one"* ]]
	[[ $(results_row one 0 apply) == "fail series/one/base names linux-source-9.11, which is not imported"* ]]
	[[ $(results_row two 1 boot) == pass* ]]
}

@test "a make with nothing changed starts no stage job: each job's cells come back from its memo; an edited series runs its own jobs again" {
	make_series one linux-source "a.c:int a;:fixture: add a"
	make_series two linux-source "b.c:int b;:fixture: add b"
	make_run
	[ "$status" -eq 0 ]
	[ -s "$WORKDIR/job-memo/build@one" ]
	[ -s "$WORKDIR/job-memo/boot-arch@arm64" ]
	local first
	first=$(cut -f1-6,8 "$WORKDIR/report/results.tsv" | sed 's/ (cached)$\|, cached$//' | LC_ALL=C sort)
	make_run
	[ "$status" -eq 0 ]
	[[ $output == *"build      one: its 2 cells as the run of "*" decided them: nothing they depend on has changed (cached; job-memo/build@one)"* ]]
	[[ $output == *"boot-arch  arm64 (one,two): its 4 cells"* ]]
	# No stage script ran: none of them printed a commit's line.
	[[ $output != *"one [1/1]"* && $output != *"two [1/1]"* ]]
	# The same cells, every one of them cached.
	[ "$(cut -f1-6,8 "$WORKDIR/report/results.tsv" | sed 's/ (cached)$\|, cached$//' | LC_ALL=C sort)" = "$first" ]
	[ "$(awk -F'\t' 'NR > 1 && $5 != "apply" && $11 != 1' "$WORKDIR/report/results.tsv")" = "" ]
	[[ $(sed -n '$p' "$WORKDIR/report/bench-runs.tsv" | cut -f3,4) == $'warm\tunchanged' ]]
	# A stage run outside make's jobs may decide a cell again: the next
	# make takes nothing from a memo.
	SERIES=one CHECKS=signoff run ws check.sh
	[ "$status" -eq 0 ]
	[ ! -e "$WORKDIR/job-memo" ]
	make_run
	[ "$status" -eq 0 ]
	[[ $output == *"one [1/1]"* && $output != *"nothing they depend on has changed"* ]]
	make_run
	[[ $output == *"build      one: its 2 cells as the run of "* && $output != *"one [1/1]"* ]]
	# Series two edited: its jobs and the arm64 ones (which build and boot
	# its head) run again, series one's do not.
	make_series two linux-source "b.c:int c;:fixture: add b"
	make_run
	[ "$status" -eq 0 ]
	[[ $output == *"build      one: its 2 cells as the run of "* ]]
	[[ $output != *"build      two: its"* && $output == *"two [1/1]"* ]]
	[[ $output != *"boot-arch  arm64 (one,two): its"* ]]
}
