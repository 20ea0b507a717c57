#!/usr/bin/env bash
# build.sh: build kernels (make bisect-build, and the naive way for make bench).
#
#   build.sh series            build the base and every commit of each series
#                              ($SERIES) in order (make bisect-build)
#   build.sh commit SHA        build one commit; print "built" or "cached",
#                              then its artifact directory
#   build.sh artifact SHA      the artifact directory of a commit already
#                              built; fails, naming it, when it is not
#   build.sh naive             the naive way's cost, for make bench: one
#                              full build of the base without ccache into
#                              report/naive.tsv (once; NAIVE=1 measures again)
#   build.sh memory            for make bench: the sizes of the structures
#                              that hold signal sets (pahole) at the base
#                              and the head of each series, into
#                              report/bench-memory.tsv
#
# How one commit's kernel is configured, built and kept (BOOT_ARCH, CONFIG,
# the artifacts) is scripts/buildlib.sh's, which boot.sh shares.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/bootarch.sh
source "$(dirname "$0")/bootarch.sh"
# shellcheck source=scripts/buildlib.sh
source "$(dirname "$0")/buildlib.sh"

cmd_commit() {
	local sha
	sha=$(git_tree rev-parse -q --verify "$1^{commit}") || die "no commit '$1' in $TREE"
	take_lock
	# Progress goes to stderr; stdout is only the artifact directory.
	exec 3>&1 1>&2
	require_scale_out
	artifact_build "$sha" "${sha:0:12}, $BA_PREFIX$CONFIG config" ||
		die "the workspace could not build ${sha:0:12}; nothing was stored"
	if ((ART_CACHED)); then echo cached >&3; else echo built >&3; fi
	echo "$ART" >&3
}

# cmd_artifact SHA: the artifact directory of commit SHA on $CONFIG, only
# when a build left it there: nothing is built.
cmd_artifact() {
	local sha
	sha=$(git_tree rev-parse -q --verify "$1^{commit}") || die "no commit '$1' in $TREE"
	artifact_lookup "$sha" || exit 1
	echo "$ART"
}

WARNINGS_PY=$WS_ROOT/scripts/build_warnings.py

# chain_logs SHA ROOT: the build logs from the imported base ROOT (a
# distro base branch) up to commit SHA, oldest first: what the warning
# state at SHA is made of, for a series that sits on another series.  A
# commit of the chain that was never built is left out, with a warning.
chain_logs() {
	local sha=$1 root c art
	root=$(git_tree rev-parse -q --verify "$2^{commit}") || return 1
	for c in "$root" $(git_tree rev-list --reverse --first-parent "$root..$sha"); do
		art=$(artifact_dir "$c") || return 1
		if [[ -f $art/build.log ]]; then
			echo "$art/build.log"
		else
			warn "the warning state at ${sha:0:12} leaves out ${c:0:12}, which was never built"
		fi
	done
}

# build_row NAME IDX N SHA SUBJECT: build one commit of a series (the base
# whole, so that all its warnings are known); sets row_art to its artifact
# and row_cached to " (cached)" if it was built before.
row_art="" row_cached=""
build_row() {
	local name=$1 idx=$2 n=$3 sha=$4 subj=$5
	CLEAN_FIRST=$((idx == 0 ? 1 : 0)) artifact_build "$sha" "$name [$idx/$n] ${sha:0:12} $subj" || return 1
	row_art=$ART
	row_cached=""
	((ART_CACHED == 0)) || row_cached=" (cached)"
}

# warnings_start SHA STATE ROOT: the warning state of the whole tree at
# SHA, counted from the distro base ROOT.
warnings_start() {
	local logs
	local -a chain
	logs=$(chain_logs "$1" "$3") || return 1
	mapfile -t chain <<<"$logs"
	"$WARNINGS_PY" state "$SRC_ROOT" "${chain[@]}" >"$2"
}

# warnings_step STATE LOG: STATE moves on by one build log; prints the
# warnings that this adds.
warnings_step() {
	local wstate=$1 log=$2
	"$WARNINGS_PY" state --from "$wstate" "$SRC_ROOT" "$log" >"$wstate.next" || return 1
	"$WARNINGS_PY" new "$wstate" "$wstate.next" || return 1
	mv "$wstate.next" "$wstate"
}

# bisect_series NAME: base, then every commit, each reported as it ends.
# A commit's new warnings are those of the whole tree at the commit that its
# parent's does not have (scripts/build_warnings.py).  Called as `... || rc=1`:
# every step checks its own status.
bisect_series() {
	local name=$1 idx sha subj status secs detail n new nnew wstate root
	local -a rows
	capture rows series_commits "$name"
	root=$(root_base "$name") || return 1
	n=$((${#rows[@]} - 1))
	wstate=$(mktemp) || return 1
	local first_fail=""
	for row in "${rows[@]}"; do
		read -r idx sha subj <<<"$row"
		if ! build_row "$name" "$idx" "$n" "$sha" "$subj"; then
			rm -f "$wstate"
			warn "$name [$idx/$n]: the workspace could not build ${sha:0:12}; nothing was stored"
			return 1
		fi
		read -r status secs detail <"$row_art/result" || { rm -f "$wstate"; return 1; }
		new="" nnew=0
		if ((idx == 0)); then
			warnings_start "$sha" "$wstate" "$root" || { rm -f "$wstate"; return 1; }
		else
			new=$(warnings_step "$wstate" "$row_art/build.log") || { rm -f "$wstate"; return 1; }
			nnew=$(grep -c . <<<"$new" || true)
		fi
		if [[ $status == fail ]]; then
			[[ -n $first_fail ]] || first_fail="$name [$idx/$n] ${sha:0:12} \"$subj\": $detail (log: $row_art/build.log)"
			printf '  FAIL %s\n       log: %s\n' "$detail" "$row_art/build.log"
		elif ((nnew > 0)); then
			status=warn
			detail="$nnew new warning(s) against the parent: $(head -n1 <<<"$new")"
			printf '  WARN %s\n' "$detail"
			printf '%s\n' "$new" >"$LOGS/$name-$idx-new-warnings.txt"
		elif ((idx == 0)); then
			detail="base, $("$WARNINGS_PY" count "$wstate") warnings"
		else
			detail="no new warnings"
		fi
		detail+=${row_cached:+, cached}
		printf '  %s in %ss%s\n' "$status" "$secs" "$row_cached"
		record_build "$name" "$idx" "$sha" "$subj" "$(arch_stage build)" "$status" "$secs" "$detail" "$row_art" ||
			{ rm -f "$wstate"; return 1; }
		bench build "$name/$idx ${sha:0:12}$row_cached" "$secs"
		if [[ -s $row_art/objects ]]; then
			bench objects "$name/$idx ${sha:0:12}" "$(cat "$row_art/objects")"
		fi
	done
	rm -f "$wstate"
	if [[ -n $first_fail ]]; then
		printf 'first failing commit: %s\n' "$first_fail" >&2
		return 1
	fi
}

cmd_series() {
	require_tree
	take_lock
	require_scale_out
	mkdir -p "$LOGS"
	local s rc=0
	local -a selected_series_list
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		bisect_series "$s" || rc=1
	done
	return $rc
}

# cmd_naive: what `git rebase --exec 'make clean && make'` pays a commit:
# the base on the smoke config, built from clean without ccache in a
# scratch O= that is removed afterwards.  report/naive.tsv gets the seconds
# and the objects; make bench estimates every other commit from them.
cmd_naive() {
	local base t0 secs objs log
	require_tree
	take_lock
	if [[ -s $REPORT/naive.tsv && ${NAIVE:-0} != 1 ]]; then
		progress naive "measured before: $(tail -n1 "$REPORT/naive.tsv" | cut -f1,2 | tr '\t' ' ') (s, objects; NAIVE=1 measures again)"
		return 0
	fi
	base=$(git_tree rev-parse --verify -q "$BASE_BRANCH^{commit}") || die "no $BASE_BRANCH in $TREE: run make import"
	local OUT=$WORKDIR/build/naive
	log=$WORKDIR/build/naive.log
	rm -rf "$OUT" && mkdir -p "$OUT" "$REPORT" && : >"$log"
	checkout_src "$base" || die "cannot check out ${base:0:12} in $SRC"
	configure "$base" "$log" "$(config_key "$base")" || die "the naive build's config failed (log: $log)"
	progress naive "${base:0:12}: make clean && make -j$JOBS $BUILD_TARGET, without ccache (once, for make bench)"
	t0=$(now)
	kmake clean >>"$log" 2>&1 || die "make clean failed (log: $log)"
	CCACHE_DISABLE=1 kmake_with_heartbeat "$log" -j"$JOBS" "$BUILD_TARGET" ||
		die "the naive build of ${base:0:12} failed (log: $log)"
	secs=$(($(now) - t0))
	objs=$(count_objects "$OUT")
	printf 'seconds\tobjects\tcommit\tconfig\tdate\n%s\t%s\t%s\t%s\t%s\n' \
		"$secs" "$objs" "$base" "$BA_PREFIX$CONFIG" "$(date +%F)" >"$REPORT/naive.tsv"
	rm -rf "$OUT" "$log"
	progress naive "${secs}s for $objs objects: $REPORT/naive.tsv"
}

# The structures that hold signal sets, which make bench measures.
MEMORY_STRUCTS="task_struct signal_struct sighand_struct k_sigaction sigpending"

# struct_sizes SHA: "STRUCT BYTES" lines for MEMORY_STRUCTS at commit SHA
# on $CONFIG, from pahole on kernel/signal.o compiled with -g (the configs
# have no debug information) in its own O=; kept beside the commit's
# artifact (the same tree id and config key, removed by make clean).
# Called as `struct_sizes SHA || ...`, so without errexit: each step checks.
struct_sizes() {
	local sha=$1 key memo OUT=$WORKDIR/build/$BA_PREFIX$CONFIG-memory
	local log=$WORKDIR/build/$BA_PREFIX$CONFIG-memory.log
	key=$(config_key "$sha") || return 1
	memo=$(artifact_dir "$sha").struct-sizes || return 1
	if [[ -s $memo ]]; then
		cat "$memo"
		return 0
	fi
	mkdir -p "$OUT" "${memo%/*}" && : >"$log" || return 1
	checkout_src "$sha" || return 1
	configure "$sha" "$log" "$key" || return 1
	kmake -j"$JOBS" KCFLAGS=-g kernel/signal.o >>"$log" 2>&1 || {
		tail -n 20 "$log" >&2
		return 1
	}
	pahole --sizes "$OUT/kernel/signal.o" 2>>"$log" |
		awk -v want="$MEMORY_STRUCTS" 'BEGIN { n = split(want, w, " "); for (i = 1; i <= n; i++) ok[w[i]] = 1 }
			ok[$1] && !seen[$1]++ { print $1, $2 }' >"$memo.tmp" || return 1
	if (($(wc -l <"$memo.tmp") != $(wc -w <<<"$MEMORY_STRUCTS"))); then
		echo "pahole found $(wc -l <"$memo.tmp") of $MEMORY_STRUCTS in kernel/signal.o of ${sha:0:12} (log: $log)" >&2
		return 1
	fi
	mv "$memo.tmp" "$memo" && cat "$memo"
}

# cmd_memory: for make bench, MEMORY_STRUCTS' sizes at the base and the
# head of each series ($SERIES), into report/bench-memory.tsv, which
# bench.py prints.
cmd_memory() {
	local s rows base head bsz hsz tmp=$REPORT/bench-memory.tsv.tmp
	require_tree
	take_lock
	require_scale_out
	mkdir -p "$REPORT"
	printf 'series\tstruct\tbase\thead\n' >"$tmp"
	for s in $(selected_series); do
		capture rows series_commits "$s"
		read -r _ base _ <<<"${rows[0]}"
		read -r _ head _ <<<"${rows[-1]}"
		progress memory "$s: struct sizes at the base ${base:0:12} and the head ${head:0:12} (pahole, kernel/signal.o with -g)"
		bsz=$(struct_sizes "$base") || { rm -f "$tmp"; die "could not measure the structures at ${base:0:12}, the base of $s"; }
		hsz=$(struct_sizes "$head") || { rm -f "$tmp"; die "could not measure the structures at ${head:0:12}, the head of $s"; }
		join <(sort <<<"$bsz") <(sort <<<"$hsz") | awk -v s="$s" '{ printf "%s\t%s\t%s\t%s\n", s, $1, $2, $3 }' >>"$tmp"
	done
	mv "$tmp" "$REPORT/bench-memory.tsv"
	progress memory "$REPORT/bench-memory.tsv"
}

case ${1:-series} in
series) cmd_series ;;
commit) cmd_commit "${2:?usage: build.sh commit SHA}" ;;
artifact) cmd_artifact "${2:?usage: build.sh artifact SHA}" ;;
naive) cmd_naive ;;
memory) cmd_memory ;;
*) die "usage: build.sh series | build.sh commit SHA | build.sh artifact SHA | build.sh naive | build.sh memory" ;;
esac
