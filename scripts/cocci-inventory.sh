#!/usr/bin/env bash
# cocci-inventory.sh: every cocci/ script over the whole tree, all
# architectures, at the base (the linux-source import, and each other
# distro base a series sits on) and at the head of each applied series
# (make cocci-inventory).
#
# Writes $WORKDIR/report/cocci-inventory.md: the totals per script for
# each of them, what each series head adds and removes (compared without
# line numbers, so moved code is not counted), then for each revision the
# counts by architecture (arch/<a>/, "generic" for the rest) and by
# subsystem (the first two path components: kernel/, fs/, drivers/tty/)
# and the reports themselves.  The scans are cocci/scan-tree.sh's, cached
# by tree (shared with checks/cocci, in $SCAN_WORK); their times go to
# `make bench` (phase cocci-inventory).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

SCAN=$WS_ROOT/cocci/scan-tree.sh
OUT=$REPORT/cocci-inventory.md
# The same worktree and cache as checks/cocci's whole-tree part.
SCAN_WORK=${SCAN_WORK:-$WORKDIR/check-work/cocci/scan}
export SCAN_WORK TREE
work=""

scripts() {
	local f
	for f in "$WS_ROOT"/cocci/*.cocci; do
		f=${f##*/}
		echo "${f%.cocci}"
	done
}

confidence() {
	awk '/^\/\/ Confidence:/ { sub(/^\/\/ Confidence: */, ""); print; exit }' "$WS_ROOT/cocci/$1.cocci"
}

TABLES=$WS_ROOT/scripts/cocci_tables.py

# added A B: the reports of B that A does not have, compared without line
# numbers (same file, script and message), B's lines kept.
added() {
	"$TABLES" added "$1" "$2"
}

# count SCRIPT FILE: the reports of SCRIPT in FILE.
count() {
	grep -c -F ": $1: " "$2" || true
}

# table KIND FILE: a markdown table of FILE's reports by KIND (arch or
# subsystem) and script, with totals.
table() {
	local -a names
	mapfile -t names < <(scripts)
	"$TABLES" table "$1" "$2" "${names[@]}"
}

# listing FILE: FILE's reports by subsystem.
listing() {
	"$TABLES" listing "$1"
}

# by_line FILE: reports sorted by file, then line number.
by_line() {
	"$TABLES" by-line "$1"
}

# scan LABEL SHA: the whole-tree reports at SHA into $work/LABEL.txt.
scan() {
	local label=$1 sha=$2 t0 secs how total name s f n
	progress cocci "scanning $label at ${sha:0:12} (every cocci/ script, whole tree)"
	t0=$(now)
	SCAN_STATS=$work/$label.stats "$SCAN" "$sha" "$work/$label.txt" ||
		die "cocci/scan-tree.sh failed on $label (${sha:0:12})"
	secs=$(($(now) - t0))
	how=$(awk -F'\t' '$1 == "how" { print $2 }' "$work/$label.stats")
	total=$(awk -F'\t' '$1 == "total" { print $2 }' "$work/$label.stats")
	if [[ $(awk -F'\t' '$1 == "cached" { print $2 }' "$work/$label.stats") == yes ]]; then
		# From the cache: record the seconds of the scan that made it.
		bench cocci-inventory "scan $label ${sha:0:12} (cached)" "$total"
	else
		bench cocci-inventory "scan $label ${sha:0:12} ($how)" "$secs"
	fi
	while IFS=$'\t' read -r name s f n; do
		[[ $name == how || $name == total || $name == cached ]] && continue
		bench cocci-inventory "$label $name ($f files, $n reports)" "$s"
	done <"$work/$label.stats"
	progress cocci "$label: $(wc -l <"$work/$label.txt") reports ($how, ${secs}s now, ${total}s when scanned)"
}

write_report() {
	local -a labels=("$@") names
	local l name row head b
	mapfile -t names < <(scripts)
	{
		echo "# Coccinelle inventory"
		echo
		echo "What the cocci/ scripts still find, before _NSIG can grow: every script"
		echo "in report mode over every .c and .h file of the tree, all architectures"
		echo "(cocci/scan-tree.sh: one spatch run per file, cocci/macros.h,"
		echo "--no-includes --include-headers), at the base and at each series head."
		echo "Written $(date '+%F %T') by make cocci-inventory; $(spatch_version)."
		echo
		echo "| revision | commit | tree |"
		echo "|---|---|---|"
		for l in "${labels[@]}"; do
			echo "| $l | ${SHAS[$l]:0:12} $(git_tree log -1 --format=%s "${SHAS[$l]}" | cut -c1-60) | $(git_tree rev-parse "${SHAS[$l]}^{tree}" | cut -c1-12) |"
		done
		((${#SKIPPED[@]} == 0)) || printf '\nNot applied, so not scanned: %s (make apply).\n' "${SKIPPED[*]}"
		echo
		echo "## Totals"
		echo
		labels_header "| script | confidence |" "|---|---|" "${labels[@]}"
		for name in "${names[@]}"; do
			row="| $name | $(confidence "$name") |"
			for l in "${labels[@]}"; do row+=" $(count "$name" "$work/$l.txt") |"; done
			echo "$row"
		done
		row="| **total** | |"
		for l in "${labels[@]}"; do row+=" **$(wc -l <"$work/$l.txt")** |"; done
		echo "$row"
		echo
		echo "Scan time (seconds; a cached scan shows the time of the scan that made it):"
		echo
		labels_header "| script |" "|---|" "${labels[@]}"
		for name in "${names[@]}" total; do
			row="| $name |"
			for l in "${labels[@]}"; do
				row+=" $(awk -F'\t' -v n="$name" '$1 == n { printf "%s (%s files)", $2, $3 }' "$work/$l.stats") |"
			done
			echo "$row"
		done
		echo
		for l in "${labels[@]}"; do
			echo "- $l: $(awk -F'\t' '$1 == "how" { print $2 }' "$work/$l.stats")"
		done
		# Each head against its distro base, and against its own base when
		# that is another series (nsig on vstatus).
		for head in "${labels[@]}"; do
			[[ -n ${ROOTS[$head]:-} ]] || continue
			compare "${ROOTS[$head]}" "$head"
			b=${BASES[$head]}
			if [[ $b != "${ROOTS[$head]}" && -f $work/$b.txt ]]; then
				compare "$b" "$head"
			fi
		done
		for l in "${labels[@]}"; do
			echo
			echo "## $l (${SHAS[$l]:0:12}): $(wc -l <"$work/$l.txt") reports"
			echo
			echo "### By architecture"
			echo
			table arch "$work/$l.txt"
			echo
			echo "### By subsystem"
			echo
			table subsystem "$work/$l.txt"
			echo
			echo "### Reports"
			echo
			echo "<details><summary>all $(wc -l <"$work/$l.txt") reports of $l, by subsystem</summary>"
			echo
			listing "$work/$l.txt"
			echo
			echo "</details>"
		done
	} >"$OUT.new"
	mv "$OUT.new" "$OUT"
}

# compare BASE HEAD: what HEAD adds and removes, per script and listed.
compare() {
	local b=$1 h=$2 name
	added "$work/$b.txt" "$work/$h.txt" >"$work/$b-$h.added"
	added "$work/$h.txt" "$work/$b.txt" >"$work/$b-$h.removed"
	echo
	echo "## $h against $b"
	echo
	echo "$(wc -l <"$work/$b-$h.added") reports added and $(wc -l <"$work/$b-$h.removed") removed by the $h series ($b ${SHAS[$b]:0:12} to $h ${SHAS[$h]:0:12}; compared without line numbers)."
	echo
	echo "| script | $b | $h | added | removed |"
	echo "|---|---:|---:|---:|---:|"
	for name in $(scripts); do
		echo "| $name | $(count "$name" "$work/$b.txt") | $(count "$name" "$work/$h.txt") | $(count "$name" "$work/$b-$h.added") | $(count "$name" "$work/$b-$h.removed") |"
	done
	if [[ -s $work/$b-$h.added ]]; then
		printf '\nAdded:\n\n```\n'
		by_line "$work/$b-$h.added"
		printf '```\n'
	fi
	if [[ -s $work/$b-$h.removed ]]; then
		printf '\nRemoved:\n\n```\n'
		by_line "$work/$b-$h.removed"
		printf '```\n'
	fi
}

spatch_version() {
	"${SPATCH:-spatch}" --version 2>&1 | sed -n '1s/ compiled.*//p'
}

declare -A SHAS=() BASES=() ROOTS=()
SKIPPED=()

# labels_header FIRST RULE LABEL...: a Markdown table's header, the
# columns FIRST and then one right-aligned column per LABEL.
labels_header() {
	local head=$1 rule=$2 l
	shift 2
	for l in "$@"; do
		head+=" $l |"
		rule+="---:|"
	done
	printf '%s\n%s\n' "$head" "$rule"
}

main() {
	require_tree
	git_tree rev-parse -q --verify "refs/heads/$BASE_BRANCH^{commit}" >/dev/null ||
		die "the tree at $TREE has no $BASE_BRANCH branch: run 'make import' first"
	command -v "${SPATCH:-spatch}" >/dev/null ||
		die "spatch not found: install the coccinelle package (make deps)"
	take_lock
	local t0 s l
	local -a labels=("$BASE_BRANCH") series
	t0=$(now)
	SHAS[$BASE_BRANCH]=$(git_tree rev-parse "refs/heads/$BASE_BRANCH^{commit}")
	capture series series_names
	for s in "${series[@]}"; do
		if ! git_tree rev-parse -q --verify "refs/heads/$s^{commit}" >/dev/null; then
			progress cocci "$s is not applied: not scanned (make apply SERIES=$s)"
			SKIPPED+=("$s")
			continue
		fi
		SHAS[$s]=$(git_tree rev-parse "refs/heads/$s^{commit}")
		BASES[$s]=$(base_ref "$s")
		labels+=("$s")
		# Another distro base (linux-source-X.Y) is scanned too, before the
		# series, as the base its heads are compared with.
		l=$(root_base "$s")
		ROOTS[$s]=$l
		if [[ -z ${SHAS[$l]:-} ]]; then
			SHAS[$l]=$(git_tree rev-parse "refs/heads/$l^{commit}")
			labels=("${labels[@]:0:1}" "$l" "${labels[@]:1}")
		fi
	done
	work=$(mktemp -d)
	trap 'rm -rf "$work"' EXIT
	# This run's figures replace the last run's in `make bench`.
	if [[ -f $REPORT/bench-raw.tsv ]]; then
		awk -F'\t' '$1 != "cocci-inventory"' "$REPORT/bench-raw.tsv" >"$work/bench-raw.tsv"
		cat "$work/bench-raw.tsv" >"$REPORT/bench-raw.tsv"
	fi
	for l in "${labels[@]}"; do
		scan "$l" "${SHAS[$l]}"
	done
	mkdir -p "$REPORT"
	write_report "${labels[@]}"
	bench cocci-inventory "make cocci-inventory: $((${#labels[@]} - ${#ROOTS[@]})) bases and ${#ROOTS[@]} series heads" $(($(now) - t0))
	progress cocci "written: $OUT"
	for l in "${labels[@]}"; do
		progress cocci "$l: $(wc -l <"$work/$l.txt") reports"
	done
}

main "$@"
