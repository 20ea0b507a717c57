#!/usr/bin/env bash
# tests/e2e.sh: the real thing.  `make` on the distro kernel (deps, import,
# apply, check, bisect-build, boot-test of every commit of every series,
# the debug boot of each head), then assertions on what it reported:
#   - every series has a plan, and every commit an apply, build and boot row;
#   - no cell failed, and every boot ran the guest tests (no boot row is a
#     skip, and every boot's verdict counted passing tests);
#   - the heads of vstatus (on 6.12) and vstatus-6.1 (its backport) passed
#     the vstatus test and the tree's own tty_vstatus selftest in their
#     boots (smoke and debug), with no case skipped;
#   - the nsig head's boots passed the nsig tests (the 64-bit nsig_*
#     programs, siginfo and nsig_compat_32) with no case skipped (the
#     smoke boot skips the time32 cases: no CONFIG_COMPAT_32BIT_TIME), the
#     tree's signal selftests, nsig's own (signal/sigsetsize_{32,64} and
#     signal/siginfo) with no case skipped, and its KUnit suite;
#   - the sigpwr head's boots passed siginfo and nsig_tty (^T's SIGINFO,
#     which is SIGPWR there) and vstatus's tests, with no case skipped;
#   - every option of qemu/configs/features.config is set at some head;
#   - results.tsv, summary.md and bench.tsv exist, and so does index.html,
#     every link of which leads to a file; headless Chromium (Debian's,
#     which make test installs) renders it into report/index.png;
#   - make run on the vstatus head returns its command's status.
set -euo pipefail
cd "$(dirname "$0")/.."

WORKDIR=${WORKDIR:-$HOME/.cache/vstatus-workspace}
RESULTS=$WORKDIR/report/results.tsv

fail() {
	echo "e2e: $*" >&2
	exit 1
}

# head_passes_unskipped KTAP TEST: TEST has a top-level "ok" in the KTAP
# log KTAP, and its own totals show no skipped case.
head_passes_unskipped() {
	local ktap=$1 test=$2
	[[ -f $ktap ]] || fail "no boot log $ktap for a series head"
	grep -qE "^ok [0-9]+ $test\$" "$ktap" ||
		fail "$test did not pass at the series head ($ktap)"
	awk -v t="$test" '/^  # Totals:/ { last = $0 } $0 ~ "^(not )?ok [0-9]+ " t "$" { print last }' "$ktap" |
		grep -q ' skip:0 ' || fail "$test skipped cases at the series head ($ktap)"
}

# heads_pass_unskipped SERIES TEST...: head_passes_unskipped for each
# TEST in the boots of SERIES' head on the smoke and the debug config.
heads_pass_unskipped() {
	local head config t
	head=$(git -C "$WORKDIR/linux" rev-parse "$1")
	for config in smoke debug; do
		for t in "${@:2}"; do
			head_passes_unskipped "$WORKDIR/boots/$config/${head:0:12}/ktap.log" "$t"
		done
	done
}

# head_passes KTAP TEST: TEST has a top-level "ok" without SKIP (init
# adds "# plain: exit=0" to a plain test's line, and nothing else).
head_passes() {
	grep -qE "^ok [0-9]+ $2( # plain: exit=0)?\$" "$1" || fail "$2 did not pass at the series head ($1)"
}

# head_config NAME: the smoke .config the head of series NAME was built with.
head_config() {
	local tree f
	tree=$(git -C "$WORKDIR/linux" rev-parse "$1^{tree}")
	for f in "$WORKDIR/artifacts/smoke/$tree"-*/config; do
		[[ -f $f ]] && echo "$f"
	done | head -n1
}

# features_set: each feature of features.config is on, with all the
# options of its line, in the .config of some series head (a misspelt
# option would otherwise never apply anywhere).
features_set() {
	local found s cfg o
	local -a opts
	while read -r -a opts; do
		((${#opts[@]})) || continue
		found=0
		for s in series/*/; do
			cfg=$(head_config "$(basename "$s")")
			[[ -n $cfg ]] || continue
			found=1
			for o in "${opts[@]}"; do
				grep -qxF "$o" "$cfg" || found=0
			done
			((found)) && break
		done
		((found)) || fail "qemu/configs/features.config: '${opts[*]}' is on at no series head"
	done < <(sed 's/#.*//' qemu/configs/features.config)
}

# page: the report's page is there, every link of it leads to a file, and
# Chromium renders it (a screenshot kept beside it).
page() {
	local html=$WORKDIR/report/index.html png=$WORKDIR/report/index.png
	[[ -s $html ]] || fail "no $html"
	grep -q '<h2>siginfo at the series heads' "$html" || fail "$html has no designs table"
	grep -q '<svg ' "$html" || fail "$html has no run history"
	scripts/matrix.py --check-links "$html" || fail "$html has links that lead nowhere (above)"
	command -v chromium >/dev/null || fail "no chromium: make test installs it (scripts/deps.sh)"
	rm -f "$png"
	timeout 120 chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1400,1000 \
		--screenshot="$png" "file://$html" >"$WORKDIR/logs/chromium.log" 2>&1 ||
		fail "headless chromium could not render $html (see $WORKDIR/logs/chromium.log)"
	[[ -s $png ]] || fail "headless chromium left no screenshot $png"
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
		# The run planned the series' cells before it built them
		# (scripts/cells.py); make's exit 0 says none of them is missing.
		[[ -s $WORKDIR/report/plan/$s ]] || fail "series $s: no plan in $WORKDIR/report/plan"
		for stage in build boot; do
			local n
			n=$(awk -F'\t' -v s="$s" -v st="$stage" '$1 == s && $5 == st && $6 != "skip" { n++ } END { print n + 0 }' "$RESULTS")
			((n == commits)) || fail "series $s: $n of $commits commits have a $stage result"
		done
		awk -F'\t' -v s="$s" '$1 == s && $5 == "boot" && $8 !~ /^pass: [1-9][0-9]* passed/ { bad = 1; print "e2e: no passing guest tests: " $0 > "/dev/stderr" } END { exit bad }' "$RESULTS" ||
			fail "series $s: a boot ran no passing tests"
		awk -F'\t' -v s="$s" '$1 == s && $5 == "boot-debug" { n++ } END { exit n != 1 }' "$RESULTS" ||
			fail "series $s: head was not booted on the debug config"
		# Every commit after the base is cross-compiled (or says why not),
		# and some commit of the series covers the representative set.
		awk -F'\t' -v s="$s" -v c="$commits" '$1 == s && $5 == "cross" { seen[$2] = 1; archs[$2]++ }
			END { n = 0; max = 0; for (i in seen) { n++; if (archs[i] > max) max = archs[i] }
			      exit !(n == c - 1 && max >= 7) }' "$RESULTS" ||
			fail "series $s: not every commit has cross rows, or none covers the 7 architectures of the representative set"
		# arm64: the base and the head, built and booted, with passing tests.
		awk -F'\t' -v s="$s" '$1 == s && $5 == "boot-arm64" && $6 == "pass" && $8 ~ /^pass: [1-9][0-9]* passed/ { n++ } END { exit n != 2 }' "$RESULTS" ||
			fail "series $s: the base and the head were not both booted on arm64 with passing tests"
		awk -F'\t' -v s="$s" '$1 == s && $5 == "cross" && $6 == "skip" && $8 !~ /^(not covered: |nothing to compile: )/ { bad = 1; print "e2e: " $0 > "/dev/stderr" } END { exit bad }' "$RESULTS" ||
			fail "series $s: a cross cell skipped without saying it is not covered"
	done
	# The feature is there at the vstatus head: its tests must pass there,
	# on both configs, and skip nothing.
	# The same for its 6.1 backport, vstatus-6.1.
	local head config s
	for s in vstatus vstatus-6.1; do
		heads_pass_unskipped "$s" vstatus selftest-tty-tty_vstatus
	done
	# SIGINFO and the sigset sizes at the nsig head: every case runs.  The
	# smoke config has no CONFIG_COMPAT_32BIT_TIME, so there the time32
	# rt_sigtimedwait cases of nsig_compat_32 skip (the boot's verdict
	# allows no other skip, qemu/expected-skips); the debug config has it,
	# and there every case runs.
	local ktap t
	# The nsig guest tests, the 32-bit POSIX mask test (the 64-bit one
	# skips the legacy calls x86-64 does not have), the tree's sas and
	# nsig's own kselftests (its 12/12, both built 64- and 32-bit): every
	# case runs.
	heads_pass_unskipped nsig nsig_sizes nsig_info nsig_ptrace nsig_tty siginfo selftest-sigaltstack-sas \
		posix_masks_32 \
		selftest-signal-sigsetsize_64 selftest-signal-sigsetsize_32 \
		selftest-signal-siginfo_64 selftest-signal-siginfo_32
	head=$(git -C "$WORKDIR/linux" rev-parse nsig)
	for config in smoke debug; do
		ktap=$WORKDIR/boots/$config/${head:0:12}/ktap.log
		if [[ $config == debug ]]; then
			head_passes_unskipped "$ktap" nsig_compat_32
		else
			head_passes "$ktap" nsig_compat_32
		fi
		for t in ptrace-peeksiginfo x86-sigreturn x86-single_step_syscall_64 \
			x86-single_step_syscall_32; do
			head_passes "$ktap" "selftest-$t"
		done
		awk -F'\t' -v h="${head:0:12}" -v st="$([[ $config == smoke ]] && echo boot || echo boot-debug)" \
			'$1 == "nsig" && substr($3, 1, 12) == h && $5 == st && $8 ~ /; kunit: [1-9][0-9]* passed, 0 skipped/ { ok = 1 } END { exit !ok }' "$RESULTS" ||
			fail "the nsig head's $config boot did not count its KUnit suite"
	done
	# The sigpwr head: ^T's SIGINFO, which is SIGPWR there, in the same
	# guest tests as nsig's (siginfo, nsig_tty), and vstatus unchanged.
	heads_pass_unskipped sigpwr siginfo nsig_tty vstatus selftest-tty-tty_vstatus
	features_set
	# make run on the real kernel: the vstatus head booted by hand, its
	# guest test run there (a real tty round trip; it exits 0 only when
	# every case passed), then CMD's own status, which make run returns.
	local out
	rc=0
	out=$(make --no-print-directory run SERIES=vstatus CMD='/tests/vstatus >/dev/null || exit 1; exit 7' 2>&1) || rc=$?
	# make exits 2 for a failing recipe; the status is in its last words.
	if ((rc != 2)) || [[ $out != *"the guest's command ended with exit 7 (guest.sh exits 7)"* ]]; then
		fail "make run SERIES=vstatus exited $rc, without the exit 7 of its CMD: $out"
	fi
	page
	echo "e2e: ok"
}

main "$@"
