#!/usr/bin/env bash
# cocci/scan-tree.sh REV OUTFILE: every cocci/*.cocci script in report mode
# over the whole kernel tree (every .c and .h file, all architectures) as it
# is at REV, one normalized report a line in OUTFILE:
#
#	file:line: script: message
#
# sorted (LC_ALL=C).  Also:
#	cocci/scan-tree.sh --prefilter [SCRIPT]
# prints the extended regular expression a file must match for SCRIPT (for
# any script without SCRIPT) to be worth giving to spatch.
#
# How:
#   - REV is checked out in a persistent worktree of $TREE, $SCAN_WORK/src;
#   - per script, `git grep -lE` keeps the files that contain a word the
#     script cannot match without (the table below: spatch derives no grep
#     query from most of these scripts, so --use-gitgrep/--use-idutils
#     alone would parse every file of the tree);
#   - spatch -j $SCAN_JOBS --file-groups runs each file as a group of its
#     own, so no parsing state leaks from one file to the next (files
#     given together on one command line form one group, see README);
#   - results are cached in $SCAN_WORK/cache/ by the tree id of REV and a
#     hash of the scripts, macros.h, this file and the spatch version: a
#     second run is instant.  A new tree is scanned incrementally from the
#     cached scan of the nearest tree: only the .c and .h files that differ
#     are run again (each file's reports depend on that file alone).
#   - a scan holds $SCAN_WORK/lock: spatch -j keeps its workers' output in
#     a directory it makes in the current directory (the worktree), which a
#     concurrent checkout's git clean would delete under it.
#
# Environment:
#   TREE           the kernel tree ($WORKDIR/linux)
#   SCAN_WORK      worktree, cache and lock ($WORKDIR/check-work/cocci/scan,
#                  where checks/cocci and make cocci-inventory keep theirs)
#   SCAN_JOBS      spatch -j (2)
#   SCAN_TIMEOUT   spatch --timeout per file, seconds (120)
#   SCAN_INCREMENTAL  0: never start from another tree's scan (1)
#   SCAN_STATS     a file to copy the scan's statistics to: tab-separated,
#                  "how" and how the scan was made, "SCRIPT seconds files
#                  reports" for each script and a "total" line (the times
#                  of the scan that made the cache entry), then "cached"
#                  and yes or no
#   SPATCH         the spatch to run (spatch)
#   SPATCH_PYTHON  the Python spatch loads (/usr/bin/python3 if there: a
#                  python3 found first on PATH through a pyenv shim costs
#                  over a second per spatch start)
# Exit: 0 with OUTFILE written (spatch failures on single files are listed
# on stderr and in $SCAN_WORK/cache/<key>/errors.txt), 1 on error.
set -euo pipefail

COCCI_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/gitlib.sh
source "$COCCI_DIR/../scripts/gitlib.sh"
# shellcheck source=scripts/keys.sh
source "$COCCI_DIR/../scripts/keys.sh"
WORKDIR=${WORKDIR:-$HOME/.cache/vstatus-workspace}
TREE=${TREE:-$WORKDIR/linux}
SCAN_WORK=${SCAN_WORK:-$WORKDIR/check-work/cocci/scan}
SCAN_JOBS=${SCAN_JOBS:-2}
SCAN_TIMEOUT=${SCAN_TIMEOUT:-120}
SCAN_INCREMENTAL=${SCAN_INCREMENTAL:-1}
SPATCH=${SPATCH:-spatch}
if [[ -z ${SPATCH_PYTHON+set} && -x /usr/bin/python3 ]]; then
	SPATCH_PYTHON=/usr/bin/python3
fi
SPATCH_PYTHON=${SPATCH_PYTHON:-}
# --no-scanner: without it spatch runs a git grep over the whole tree for
# each file group of a script that has a grep query (a minute for three
# files).
SPATCH_OPTS=(--very-quiet -D report --no-includes --include-headers
	--macro-file "$COCCI_DIR/macros.h" --timeout "$SCAN_TIMEOUT" --no-scanner)
# The output format: bump it when normalize() changes.
FORMAT=1
src=$SCAN_WORK/src
cache=$SCAN_WORK/cache
tmp=""

# The words each script needs: a file without any of them cannot match.
# Keep in step with the scripts' rules (spatch sees no macro expansion and,
# with --no-includes, no type that the file itself does not declare).
declare -A PREFILTER=(
	[sigmask]='sigmask|siginmask|sig(add|del|test)setmask|SIG_KERNEL_[A-Z]+_MASK|SIG_SPECIFIC_SICODES_MASK|SIGEMT_MASK|SYNCHRONOUS_MASK'
	[sigset_mask_args]='siginitset|sigaddset|sigdelset'
	[nsig_words_define]='NSIG_WORDS'
	[nsig_words_switch]='NSIG_WORDS'
	[nsig_words_layout]='NSIG|extramask|sigset_t'
	[sigset_word0]='(^|[^[:alnum:]_])sig[[:space:]]*\[|sigset_t'
	[sigsetsize_check]='sigset_t'
	[sigset_mistakes]='sigset_t|va_start|va_copy|![[:space:](]*(valid_|sig_|sigis|sigequalsets|sigtestsetmask|realtime_signal)'
)

die() {
	echo "scan-tree.sh: $*" >&2
	exit 1
}

note() {
	echo "scan-tree.sh: $*" >&2
}

usage() {
	die "usage: scan-tree.sh REV OUTFILE | scan-tree.sh --prefilter [SCRIPT]"
}

git_tree() {
	git -C "$TREE" "$@"
}

scripts() {
	local f
	for f in "$COCCI_DIR"/*.cocci; do
		[[ -e $f ]] || die "no scripts in $COCCI_DIR"
		f=${f##*/}
		echo "${f%.cocci}"
	done
}

# prefilter [SCRIPT]: the regex for SCRIPT, or the union of all of them
# for an unknown script or none.
prefilter() {
	local name=${1:-} k
	local -a all=()
	if [[ -n $name && -n ${PREFILTER[$name]:-} ]]; then
		echo "${PREFILTER[$name]}"
		return 0
	fi
	local -A seen=()
	for k in "${!PREFILTER[@]}"; do
		[[ -n ${seen[${PREFILTER[$k]}]:-} ]] && continue
		seen[${PREFILTER[$k]}]=1
		all+=("${PREFILTER[$k]}")
	done
	local IFS='|'
	echo "${all[*]}"
}

# scripts_hash: what the reports are a function of besides the tree: the
# scripts, macros.h, the prefilters, spatch and its options, the format.
scripts_hash() {
	local f
	local -a in=(--text "format $FORMAT" --run spatch_version --text "${SPATCH_OPTS[*]//"$COCCI_DIR"\//}"
		--run declare -p PREFILTER)
	for f in "$COCCI_DIR"/*.cocci "$COCCI_DIR/macros.h"; do
		in+=(--text "${f##*/}" --run cat "$f")
	done
	key_from 16 "${in[@]}"
}

# spatch_version: spatch's first --version line.
spatch_version() {
	"$SPATCH" --version 2>&1 | sed -n 1p
}

# checkout REV: the worktree $src at REV, clean (scripts/gitlib.sh).
checkout() {
	git_same_repo "$TREE" "$src" || note "creating the worktree $src (once)"
	git_worktree_at "$TREE" "$src" "$1"
}

# candidates SCRIPT [FILE...]: the tracked .c and .h files (or only those
# of FILE... that exist) in which SCRIPT could match, one a line.
candidates() {
	local re
	re=$(prefilter "$1")
	shift
	if (($# == 0)); then
		git -C "$src" grep -lE "$re" -- '*.c' '*.h' || true
	else
		printf '%s\0' "$@" |
			(cd "$src" && xargs -0 git --literal-pathspecs grep -lE "$re" --) || true
	fi
}

# run_spatch SCRIPT LISTFILE OUT: SCRIPT on every file of LISTFILE, each a
# file group of its own, -j $SCAN_JOBS; normalized reports appended to OUT.
# A run that fails is run again one file at a time, to name the file.
run_spatch() {
	local name=$1 list=$2 out=$3 groups=$tmp/groups raw=$tmp/raw rc=0 f
	local -a opts=("${SPATCH_OPTS[@]}" --sp-file "$COCCI_DIR/$name.cocci")
	[[ -z $SPATCH_PYTHON ]] || opts+=(--python "$SPATCH_PYTHON")
	[[ -s $list ]] || return 0
	sed 's/$/\n/' "$list" >"$groups"
	(cd "$src" && "$SPATCH" "${opts[@]}" -j "$SCAN_JOBS" --file-groups "$groups") \
		>"$raw" 2>>"$tmp/errors-$name" || rc=$?
	if ((rc != 0)); then
		note "$name: spatch exited $rc on $(wc -l <"$list") files; running them one at a time"
		: >"$raw"
		while IFS= read -r f; do
			(cd "$src" && "$SPATCH" "${opts[@]}" "$f") >>"$raw" 2>>"$tmp/errors-$name" ||
				echo "$f: $name: spatch exited $?" >>"$tmp/failed"
		done <"$list"
	fi
	normalize "$name" <"$raw" >>"$out"
}

# normalize SCRIPT: "file:line:col-col: msg" into "file:line: SCRIPT: msg";
# any other line is kept in the errors.
normalize() {
	local name=$1
	awk -v s="$1" -v err="$tmp/errors-$name" '
		match($0, /^[^: ]+:[0-9]+:[0-9]+-[0-9]+: /) {
			head = substr($0, 1, RLENGTH - 2)
			sub(/:[0-9]+-[0-9]+$/, "", head)
			print head ": " s ": " substr($0, RLENGTH + 1)
			next
		}
		NF { print "unexpected spatch output: " $0 >>err }'
}

# nearest TREEID KEY: the cached scan (same scripts) of the tree closest to
# TREEID, as "entry changed-files", or nothing.
nearest() {
	local want=$1 hash=$2 d t n best="" bestn=""
	# the eight most recently used entries
	while IFS= read -r d; do
		[[ -f $d/reports.txt ]] || continue
		t=$(basename "$d")
		t=${t%-"$hash"}
		git_tree cat-file -e "$t^{tree}" 2>/dev/null || continue
		n=$(git_tree diff -z --no-renames --name-only "$t" "$want" -- '*.c' '*.h' | tr -cd '\0' | wc -c)
		if [[ -z $bestn ]] || ((n < bestn)); then
			best=$d
			bestn=$n
		fi
	done < <(find "$cache" -mindepth 1 -maxdepth 1 -type d -name "*-$hash" -printf '%T@ %p\n' |
		sort -rn | head -n 8 | cut -d' ' -f2-)
	[[ -z $best ]] || echo "$best $bestn"
}

# scan REV TREEID ENTRY: fill the cache entry ENTRY for REV.
scan() {
	local rev=$1 treeid=$2 entry=$3 name t0 t1 t_all n_files=0 n_rep from="" from_n=0 how
	local -a changed=() files
	local -A seconds=() nfiles=()
	if [[ $SCAN_INCREMENTAL == 1 ]]; then
		read -r from from_n < <(nearest "$treeid" "${entry##*-}") || true
		# Past a few thousand files a cold scan is as quick.
		if [[ -n $from ]] && ((from_n > 5000)); then from=""; fi
	fi
	t_all=$(date +%s)
	checkout "$rev"
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	: >"$tmp/reports"
	if [[ -n $from ]]; then
		local fromtree
		fromtree=$(basename "$from")
		fromtree=${fromtree%-*}
		# -z: a non-ASCII name as it is, not quoted into another.
		mapfile -d '' -t changed < <(git_tree diff -z --no-renames --name-only "$fromtree" "$treeid" -- '*.c' '*.h')
		how="incremental from tree ${fromtree:0:12} ($from_n .c/.h files differ)"
		# Keep the reports of every file that did not change.
		printf '%s\n' "${changed[@]}" | awk -F: 'NR == FNR { if (NF) skip[$0] = 1; next } !($1 in skip)' \
			- "$from/reports.txt" >"$tmp/reports"
	else
		how=cold
	fi
	note "scanning ${rev} (tree ${treeid:0:12}): $how"
	for name in $(scripts); do
		[[ -n ${PREFILTER[$name]:-} ]] ||
			note "no prefilter for $name.cocci in scan-tree.sh: the union of all is used (add its line)"
		t0=$(date +%s)
		if [[ -n $from ]]; then
			if ((${#changed[@]})); then
				mapfile -t files < <(candidates "$name" "${changed[@]}")
			else
				files=()
			fi
		else
			mapfile -t files < <(candidates "$name")
		fi
		if ((${#files[@]})); then
			printf '%s\n' "${files[@]}" >"$tmp/list-$name"
		else
			: >"$tmp/list-$name"
		fi
		run_spatch "$name" "$tmp/list-$name" "$tmp/reports"
		t1=$(date +%s)
		seconds[$name]=$((t1 - t0))
		nfiles[$name]=${#files[@]}
		n_files=$((n_files + ${#files[@]}))
	done
	LC_ALL=C sort -o "$tmp/reports" "$tmp/reports"
	{
		printf 'how\t%s\n' "$how"
		for name in $(scripts); do
			n_rep=$(grep -c ": $name: " "$tmp/reports" || true)
			printf '%s\t%s\t%s\t%s\n' "$name" "${seconds[$name]}" "${nfiles[$name]}" "$n_rep"
		done
		printf 'total\t%s\t%s\t%s\n' $(($(date +%s) - t_all)) "$n_files" "$(wc -l <"$tmp/reports")"
	} >"$tmp/stats"
	cat "$tmp"/errors-* "$tmp/failed" 2>/dev/null >"$tmp/errors" || true
	rm -rf "$entry.new"
	mkdir -p "$entry.new"
	mv "$tmp/reports" "$entry.new/reports.txt"
	mv "$tmp/stats" "$entry.new/stats.tsv"
	mv "$tmp/errors" "$entry.new/errors.txt"
	printf '%s\n' "$rev" >"$entry.new/rev"
	rm -rf "$entry"
	mv "$entry.new" "$entry"
}

show_stats() {
	local entry=$1 cached=$2
	awk -F'\t' -v c="$cached" '
		$1 == "how" { printf "scan-tree.sh: %s%s\n", $2, c == "yes" ? " (cached)" : ""; next }
		{ printf "scan-tree.sh: %-18s %5ss %6s files %5s reports\n", $1, $2, $3, $4 }' \
		"$entry/stats.tsv" >&2
	if [[ -s $entry/errors.txt ]]; then
		note "$(wc -l <"$entry/errors.txt") lines of spatch errors in $entry/errors.txt:"
		head -n 5 "$entry/errors.txt" >&2
	fi
}

main() {
	if [[ ${1:-} == --prefilter ]]; then
		prefilter "${2:-}"
		return 0
	fi
	(($# == 2)) || usage
	local rev=$1 out=$2 treeid key entry cached=no
	command -v "$SPATCH" >/dev/null ||
		die "spatch not found ($SPATCH): install the coccinelle package (make deps)"
	[[ -d $TREE/.git || -f $TREE/.git ]] || die "no kernel tree at $TREE: run 'make import' first"
	treeid=$(git_tree rev-parse -q --verify "$rev^{tree}") || die "no revision '$rev' in $TREE"
	rev=$(git_tree rev-parse "$rev^{commit}" 2>/dev/null || echo "$rev")
	key=$(scripts_hash) || die "cannot key the scan on the scripts in $COCCI_DIR"
	entry=$cache/$treeid-$key
	mkdir -p "$cache"
	exec 8>"$SCAN_WORK/lock"
	if ! flock -n 8; then
		note "another scan holds $SCAN_WORK/lock; waiting"
		flock 8
	fi
	if [[ -f $entry/reports.txt ]]; then
		cached=yes
		touch "$entry"
	else
		scan "$rev" "$treeid" "$entry"
	fi
	show_stats "$entry" "$cached"
	if [[ -n ${SCAN_STATS:-} ]]; then
		{
			cat "$entry/stats.tsv"
			printf 'cached\t%s\n' "$cached"
		} >"$SCAN_STATS"
	fi
	cp "$entry/reports.txt" "$out"
}

main "$@"
