#!/usr/bin/env bash
# check.sh: run the per-commit checks in checks/<name>/ (make check).
#
# Each check is checks/<name>/run COMMIT LOG, run with TREE set (the kernel
# tree), CHECK_SERIES_DIR (series/<name>/ of the series the commit belongs
# to), CHECK_BASE and CHECK_HEAD (the series' base commit and its last
# commit) and CHECK_SCRATCH (a directory of its own that persists between
# runs, for worktrees and build directories: check_scratch); it
# prints a one-line summary and exits 0 (pass), 250 (warn), 4 (skip) or 1
# (fail), as NIPA's do, or 3 (untested: it ran and could verify nothing,
# as an analyser that could not parse the file).
# CHECKS=a,b runs only those; the checks of one commit run CHECK_JOBS (the
# number of CPUs) at a time.  A result is cached by commit id, by the code
# of the check's own files (not their comments) and by the workspace files
# its optional `inputs` lists
# (one path per line, relative to the repository: cocci, or
# series/{series}/cover-letter), so a run with nothing changed costs almost nothing;
# failures are always run again.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

CACHE=$WORKDIR/checks-cache
CHECKS_DIR=${CHECKS_DIR:-$WS_ROOT/checks}

all_checks() {
	local d
	for d in "$CHECKS_DIR"/*/; do
		if [[ -x $d/run ]]; then basename "$d"; fi
	done
}

selected_checks() {
	local c
	if [[ -z ${CHECKS:-} ]]; then
		all_checks
		return 0
	fi
	for c in ${CHECKS//,/ }; do
		[[ -x $CHECKS_DIR/$c/run ]] ||
			die "unknown check '$c'; the checks are: $(all_checks | xargs)"
		echo "$c"
	done
}

# check_inputs CHECK SERIES: the workspace files named by
# checks/CHECK/inputs; "{series}" in a line stands for the series' name,
# and such a file may be missing (a series without a cover letter).
# The "tool:" and "compilers:" lines are check_tools'.
check_inputs() {
	local line path
	[[ -f $CHECKS_DIR/$1/inputs ]] || return 0
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%%#*}
		line=$(echo "$line" | xargs)
		[[ -z $line || $line == tool:* || $line == compilers:* ]] && continue
		path=$WS_ROOT/${line//\{series\}/$2}
		[[ $line != series/* ]] || path=$SERIES_DIR/${path#"$WS_ROOT"/series/}
		if [[ ! -e $path ]]; then
			[[ $line == *"{series}"* ]] && continue
			die "checks/$1/inputs names '$line', which is not in the workspace"
		fi
		find "$path" -type f | LC_ALL=C sort
	done <"$CHECKS_DIR/$1/inputs"
}

# tool_versions: the versions of the tools the checks run (gcc, sparse,
# spatch, codespell), each only if it is installed, so that a new version
# runs every check again.
tool_versions() {
	local t
	for t in gcc sparse spatch codespell; do
		! command -v "$t" >/dev/null || tool_line "$t" --version
	done
}

# tool_line CMD ARGS...: "CMD: " and the first line CMD ARGS prints (its
# version), or "CMD: missing" when CMD is not installed.
tool_line() {
	if ! command -v "$1" >/dev/null; then
		printf '%s: missing\n' "$1"
		return 0
	fi
	# sed, not head: head would leave the tool a SIGPIPE.
	printf '%s: %s\n' "$1" "$("$@" 2>&1 | sed -n 1p)"
}

# check_tools CHECK: the versions of the tools a check runs besides
# TOOL_VERSIONS', as checks/CHECK/inputs names them: "tool: CMD ARGS..."
# (the first line CMD prints: "tool: sphinx-build --version") and
# "compilers: FILE" (the --version line of each cross gcc of FILE, a
# scripts/arches table: the abi check's compilers).  A tool that is not
# installed keys as missing: the check says so when it runs.
check_tools() {
	local line cmd prefix
	[[ -f $CHECKS_DIR/$1/inputs ]] || return 0
	while IFS= read -r line || [[ -n $line ]]; do
		line=${line%%#*}
		case $line in
		tool:*)
			read -r -a cmd <<<"${line#tool:}"
			tool_line "${cmd[@]}"
			;;
		compilers:*)
			line=$(echo "${line#compilers:}" | xargs)
			[[ -f $WS_ROOT/$line ]] || die "checks/$1/inputs names '$line', which is not in the workspace"
			while IFS=$'\t' read -r _ _ prefix _; do
				[[ -n $prefix && $prefix != - ]] || continue
				tool_line "${prefix}gcc" --version
			done < <(grep -v '^#' "$WS_ROOT/$line") | LC_ALL=C sort -u
			;;
		esac
	done <"$CHECKS_DIR/$1/inputs"
}

# check_sources CHECK: the files the check's own files source, and those
# source in turn, each once, sorted.  A `source "..."` line's path that
# ends in lib/NAME is $CHECKS_DIR/lib/NAME, one that ends in scripts/NAME
# the workspace's scripts/NAME, and "$(dirname ...)/NAME" a file beside
# the one that sources it.  Fails, naming the file and the line, when such
# a file is not there or the line names none of these.
check_sources() {
	local f line name path
	local -a todo=("$CHECKS_DIR/$1"/*)
	local -A seen=()
	while ((${#todo[@]})); do
		f=${todo[0]}
		todo=("${todo[@]:1}")
		[[ -f $f ]] || continue
		while IFS= read -r line; do
			name=${line%\"}
			name=${name##*/}
			# shellcheck disable=SC2016 # the source line's own text
			case $line in
			*/lib/*) path=$CHECKS_DIR/lib/$name ;;
			*/scripts/*) path=$WS_ROOT/scripts/$name ;;
			'"$(dirname "'*'")/'"$name"'"') path=$(dirname "$f")/$name ;;
			*)
				echo "${f#"$WS_ROOT"/}: $line: cannot tell which file it sources (lib/NAME, scripts/NAME or \$(dirname ...)/NAME)" >&2
				return 1
				;;
			esac
			[[ -f $path ]] || { echo "${f#"$WS_ROOT"/}: $line: no such file $path" >&2; return 1; }
			[[ -z ${seen[$path]:-} ]] || continue
			seen[$path]=1
			todo+=("$path")
		done < <(grep -E '^[[:space:]]*(source|\.)[[:space:]]+"' "$f" |
			sed -E 's/^[[:space:]]*(source|\.)[[:space:]]+//; s/[[:space:]]+(#.*)?$//')
	done
	((${#seen[@]} == 0)) || printf '%s\n' "${!seen[@]}" | LC_ALL=C sort
}

# check_hash CHECK SERIES: the code (check_code) of the check's own files
# and of the shared ones they source (check_sources: checks/lib/'s,
# scripts/gitlib.sh and keys.sh), not of those they do not: an edit to
# checks/lib/compare.sh runs sparse and build-warnings again, not
# checkpatch; what its inputs file names; and the tools' versions
# ($TOOL_VERSIONS, set by main).
check_hash() {
	local f
	local -a inputs sources
	capture inputs check_inputs "$1" "$2"
	capture sources check_sources "$1"
	local tools
	tools=$(check_tools "$1") || return 1
	# Only a check that names tools of its own has their lines, so the
	# keys of the others are what they were.
	local -a in=(--text "${TOOL_VERSIONS?}")
	[[ -z $tools ]] || in+=(--text "$tools")
	for f in "$CHECKS_DIR/$1"/* "${sources[@]}"; do
		[[ ! -f $f ]] || in+=(--text "${f#"$WS_ROOT"/}" --run check_code "$f")
	done
	for f in "${inputs[@]}"; do
		in+=(--text "${f#"$WS_ROOT"/}" --run cat "$f")
	done
	key_from 16 "${in[@]}"
}

# check_code FILE: what in a check's file decides its results.  Not its
# description (prose), and of a shell script (run, *.sh) not the comments
# or the layout (keys.sh's script_code).
check_code() {
	case ${1##*/} in
	description) ;;
	run | *.sh) script_code "$1" ;;
	*) cat "$1" ;;
	esac
}

# cell_inputs SHA CHECK: what the cell of CHECK at commit SHA read: the
# commit (the cache is keyed by it and the check's hash), then what the
# check's hash read; only the commit when the hash could not be made.
cell_inputs() {
	echo "commit $1"
	[[ ! -f $CHECK_INPUTS/$2 ]] || cat "$CHECK_INPUTS/$2"
}

# hash_checks SERIES CHECK...: CHECK_HASH[CHECK], each check's check_hash
# for SERIES, made once for all the series' commits (the background jobs
# of run_checks read it); empty for a check whose hash could not be made
# (a bad inputs file, named on stderr), which then fails at every commit.
# What each hash read goes to $CHECK_INPUTS/<check> (keys.sh's key_from
# writes it), for the cells' inputs, when CHECK_INPUTS names a directory.
declare -A CHECK_HASH=()
CHECK_INPUTS=""
hash_checks() {
	local s=$1 c
	shift
	for c in "$@"; do
		[[ -z $CHECK_INPUTS ]] || rm -f "$CHECK_INPUTS/$c"
		CHECK_HASH[$c]=$(KEY_INPUTS=${CHECK_INPUTS:+$CHECK_INPUTS/$c} check_hash "$c" "$s") || CHECK_HASH[$c]=""
	done
}

# retire_flat_scratch CHECK...: the scratch directory each CHECK had
# before they were kept per kernel line (check-work/<check>/ with a
# worktree or an O= directory in it; cocci's stays): 1.5-3.5 GB each that
# nothing reads any more.
retire_flat_scratch() {
	local c d
	for c in "$@"; do
		d=$WORKDIR/check-work/$c
		[[ $c != cocci && -d $d && (-e $d/src || -e $d/obj) ]] || continue
		rm -rf -- "$d" || warn "could not remove $d, $c's scratch from before check-work/<line>/"
	done
}

# run_check CHECK SERIES SHA BASE HEAD LINE: prints "status seconds summary",
# then the path of the check's log on a line of its own, then 1 when the
# result came from the cache, 0 when the check ran;
# the result is kept in the cache, but only a pass or a warn is ever taken
# from it: a failure, a skip or an untested result may come from the
# environment (a tool or a checkout missing) and is cheap to confirm.
run_check() {
	local check=$1 series=$2 sha=$3 base=$4 head=$5 line=$6 key dir rc=0 t0 out summary status scratch
	[[ -n ${CHECK_HASH[$check]:-} ]] || return 1
	key=$CACHE/$check/$sha-${CHECK_HASH[$check]}
	if [[ -f $key/result ]]; then
		local cached=""
		IFS= read -r cached <"$key/result" || true
		if [[ $cached =~ ^(pass|warn)\ [0-9]+\  ]]; then
			printf '%s\n' "$cached" "$key/log" 1
			return 0
		fi
		[[ $cached =~ ^(fail|skip|untested)\ [0-9]+\  ]] ||
			warn "damaged cached result $key/result (\"$(sanitize <<<"${cached:0:60}")\"): running $check again"
	fi
	dir=$key.tmp
	rm -rf "$dir"
	mkdir -p "$dir"
	t0=$(now)
	scratch=$(check_scratch "$check" "$line")
	mkdir -p "$scratch"
	# All of stdout, then its first line: a pipe into head would kill a
	# check that prints more with SIGPIPE.
	out=$(TREE=$TREE CHECK_SERIES_DIR=$SERIES_DIR/$series \
		CHECK_BASE=$base CHECK_HEAD=$head CHECK_SCRATCH=$scratch \
		"$CHECKS_DIR/$check/run" "$sha" "$dir/log") || rc=$?
	summary=${out%%$'\n'*}
	case $rc in
	0) status=pass ;;
	250) status=warn ;;
	4) status=skip ;;
	3) status=untested ;;
	*) status=fail ;;
	esac
	printf '%s %s %s\n' "$status" $(($(now) - t0)) "$summary" >"$dir/result"
	# A check that ran (not one from the cache) leaves its time for bench.
	bench check "$series/${sha:0:12} $check" $(($(now) - t0))
	rm -rf "$key"
	mv "$dir" "$key"
	cat "$key/result"
	echo "$key/log"
	echo 0
}

# run_checks DIR SERIES SHA BASE HEAD CHECK...: run_check for each CHECK on
# one commit, CHECK_JOBS (default: the number of CPUs) at a time, as the
# checks share nothing; each one's result line goes to DIR/CHECK.  A base
# whose kernel line cannot be read (no Makefile) shares the scratch of
# every such base.
run_checks() {
	local dir=$1 series=$2 sha=$3 base=$4 head=$5 c running=0 line
	shift 5
	line=$(kernel_line "$base") || line=""
	for c in "$@"; do
		if ((running >= ${CHECK_JOBS:-$(nproc)})); then
			wait -n || true
			running=$((running - 1))
		fi
		run_check "$c" "$series" "$sha" "$base" "$head" "$line" >"$dir/$c" &
		running=$((running + 1))
	done
	wait
}

# bench_commit: a commit on the base that touches two files, kernel/signal.c
# and include/linux/signal.h (a documented sigset helper and its
# declaration), made with git's plumbing on a private index and dated now,
# so that no cached result applies.  Prints its id.
bench_commit() {
	local base=$1 tmp blob_c blob_h tree
	tmp=$(mktemp -d)
	git_tree show "$base:kernel/signal.c" >"$tmp/signal.c"
	cat >>"$tmp/signal.c" <<'EOC'

/**
 * sigset_count - count the signals in a set
 * @set: the signals to count
 *
 * Return: the number of signals in @set.
 *
 * Written by make bench at EPOCH.
 */
int sigset_count(sigset_t *set)
{
	int n = 0, sig;

	for (sig = 1; sig < _NSIG; sig++)
		n += sigismember(set, sig);
	return n;
}
EOC
	sed -i "s/at EPOCH\./at $(date +%s)./" "$tmp/signal.c"
	git_tree show "$base:include/linux/signal.h" |
		sed '0,/^extern int next_signal(/s//int sigset_count(sigset_t *set);\n&/' >"$tmp/signal.h"
	blob_c=$(git_tree hash-object -w "$tmp/signal.c")
	blob_h=$(git_tree hash-object -w "$tmp/signal.h")
	export GIT_INDEX_FILE=$tmp/index
	git_tree read-tree "$base"
	git_tree update-index --cacheinfo "100644,$blob_c,kernel/signal.c" \
		--cacheinfo "100644,$blob_h,include/linux/signal.h"
	tree=$(git_tree write-tree)
	unset GIT_INDEX_FILE
	rm -rf "$tmp"
	GIT_AUTHOR_NAME="Workspace Bench" GIT_AUTHOR_EMAIL=bench@workspace.invalid \
		GIT_COMMITTER_NAME="Workspace Bench" GIT_COMMITTER_EMAIL=bench@workspace.invalid \
		git_tree commit-tree -p "$base" -m "signal: add sigset_count()" \
		-m "A two-file commit for make bench." \
		-m "Signed-off-by: Workspace Bench <bench@workspace.invalid>" "$tree"
}

# cmd_bench: every selected check, uncached, on bench_commit (with the
# scratch directories as earlier runs left them), as make check runs them;
# the seconds of each and the wall-clock total go to the bench figures.
cmd_bench() {
	local base sha c status secs summary total=0 s=vstatus
	local -a checks
	capture checks selected_checks
	base=$(git_tree rev-parse --verify -q "$BASE_BRANCH^{commit}") || die "no $BASE_BRANCH in $TREE: run make import"
	sha=$(bench_commit "$base")
	progress bench "checks on a two-file commit ${sha:0:12} (kernel/signal.c, include/linux/signal.h)"
	local results t0
	results=$(mktemp -d)
	for c in "${checks[@]}"; do rm -rf "$CACHE/$c/$sha-"*; done
	hash_checks "$s" "${checks[@]}"
	t0=$(now)
	run_checks "$results" "$s" "$sha" "$base" "" "${checks[@]}"
	total=$(($(now) - t0))
	for c in "${checks[@]}"; do
		read -r status secs summary <"$results/$c"
		progress bench "$c: $status in ${secs}s: ${summary:-}"
		bench checks-2files "$c" "$secs"
	done
	rm -rf "$results"
	bench checks-2files total "$total"
	SERIES=$s bench_record checks "$total" warm || warn "could not record the checks' time in $REPORT/bench-runs.tsv"
	progress bench "all checks on the two-file commit: ${total}s, ${CHECK_JOBS:-$(nproc)} at a time (target: at most 15s)"
}

main() {
	if [[ ${1:-} == list ]]; then
		selected_checks
		return 0
	fi
	require_tree
	take_lock
	require_scale_out
	TOOL_VERSIONS=$(tool_versions)
	if [[ ${1:-} == bench ]]; then
		cmd_bench
		return 0
	fi
	local s idx sha subj n c status secs summary base head log cached rc=0
	local -a checks rows
	capture checks selected_checks
	((${#checks[@]})) || die "no checks in $CHECKS_DIR/"
	retire_flat_scratch "${checks[@]}"
	local -a selected_series_list
	capture selected_series_list selected_series
	local results
	results=$(mktemp -d)
	# shellcheck disable=SC2064 # expand now: results is local
	trap "rm -rf '$results'" EXIT
	CHECK_INPUTS=$results/inputs
	mkdir -p "$CHECK_INPUTS" || die "cannot create $CHECK_INPUTS"
	for s in "${selected_series_list[@]}"; do
		capture rows series_commits "$s"
		n=$((${#rows[@]} - 1))
		read -r _ base _ <<<"${rows[0]}"
		read -r _ head _ <<<"${rows[n]}"
		hash_checks "$s" "${checks[@]}"
		for row in "${rows[@]:1}"; do
			read -r idx sha subj <<<"$row"
			run_checks "$results" "$s" "$sha" "$base" "$head" "${checks[@]}"
			for c in "${checks[@]}"; do
				status="" secs=0 summary="" log="" cached=0
				{ read -r status secs summary && read -r log && read -r cached; } <"$results/$c" || true
				# run_check died before it printed a result.
				[[ -n $status ]] || { status=fail summary="check.sh could not run the check"; }
				progress "$c" "$s [$idx/$n] ${sha:0:12} $subj: $status ${summary:-}"
				cell_inputs "$sha" "$c" >"$results/$c.cell" || die "cannot write $results/$c.cell"
				CELL_INPUTS=$results/$c.cell \
					record "$s" "$idx" "$sha" "$subj" "$c" "$status" "$secs" "${summary:-}" "$log" "" "${cached:-0}"
				[[ $status == fail ]] && rc=1
				[[ $status != fail || -z $log ]] || echo "  log: $log"
			done
		done
	done
	return $rc
}

main "$@"
