#!/usr/bin/env bash
# tests/tree/maintainers-notes.sh [NOTES]: check that MAINTAINERS-notes.md
# (or NOTES) agrees with what get_maintainer.pl says on the kernel tree.
# tests/tree/maintainers-notes.sh --print NAME: print, from the tree, the
# machine-checked parts of series NAME's section (its files table and its
# get_maintainer blocks), to paste into the notes.
#
# The notes' format (MAINTAINERS-notes.md says it for people too):
#
#   ## Series NAME ...              a series' section, up to the next "## "
#   ## Series NAME (pending) ...    a series not on the tree yet: no figures
#   | `PATH` | K, K | SECTION; SECTION |
#                                   a file the series touches, the patches
#                                   that touch it, and the MAINTAINERS
#                                   sections get_maintainer.pl -f names for
#                                   it (the series head's, --no-keywords)
#   ```get_maintainer K/N SUBJECT   patch K/N: get_maintainer.pl --rolestats
#   ...                             on the commit, with the commit's own
#   ```                             MAINTAINERS, line for line
#   ```cc-again                     people and lists from earlier versions,
#   ```recipients                   To: and Cc: lines: what the series adds
#                                   to the above; the cover letter's
#                                   To:/Cc: trailers must be exactly these
#                                   plus cc-again plus every address in the
#                                   get_maintainer blocks but the authors'
#   ```merge-order                  the series, one a line, first to merge
#                                   first; a series' base comes before it
#
# Every series with a series/NAME/ directory needs a section; a section
# that is not pending needs branch NAME in the tree, applied on the branch
# named in series/NAME/base (linux-source when there is none); a pending
# one must not have a branch yet.  get_maintainer.pl runs as
# checks/maintainers/run runs it: the commit's own script and MAINTAINERS
# in a temporary directory, --mpath, --no-tree, no git.
#
# Environment: TREE (default $WORKDIR/linux), WS_ROOT (this repository),
# SERIES_DIR (default $WS_ROOT/series), MN_CACHE (a directory to keep
# get_maintainer.pl's answers in, by commit id, which never go stale: a
# commit brings its own script and MAINTAINERS; default: none), MN_JOBS
# (how many get_maintainer.pl to run at once; default nproc).
# Exit: 0 the notes agree, 1 they do not (each problem as FILE:LINE: ...,
# with a diff where there is one), 2 usage or no tree.
set -euo pipefail

# get_maintainer.pl orders sections that match a file equally (fs/lockd/ is
# in both the NFS client and the NFS server entries) in Perl's hash order,
# which changes from run to run: fix the seed, so that the same tree always
# gives the same lines.
export PERL_HASH_SEED=0 PERL_PERTURB_KEYS=0

ws_root=${WS_ROOT:-$(cd "$(dirname "$0")/../.." && pwd)}
tree=${TREE:-${WORKDIR:-$HOME/.cache/vstatus-workspace}/linux}
series_root=${SERIES_DIR:-$ws_root/series}
gm_opts=(--no-tree --no-git --no-git-fallback --no-git-chief-penguins)
# The cache's keys end in this: change it when what is cached changes.
CACHE_V=.1
ADDR_RE='<[^<>[:space:]]+@[^<>[:space:]]+>|[^<>[:space:],"()]+@[^<>[:space:],"()]+'

usage() {
	sed -n '2,6s/^# \{0,1\}//p' "$0" >&2
	exit 2
}

git_tree() {
	git -C "$tree" "$@"
}

# addresses: the e-mail addresses on stdin, lower case, one a line.
addresses() {
	awk -v re="$ADDR_RE" '{
		line = tolower($0)
		while (match(line, re)) {
			a = substr(line, RSTART, RLENGTH)
			gsub(/[<>]/, "", a)
			print a
			line = substr(line, RSTART + RLENGTH)
		}
	}'
}

# recipients: "to ADDR" or "cc ADDR" for each address of the To: and Cc:
# lines on stdin (one "To: ..." or "Cc: ..." a line), lower case.
recipients() {
	awk -v re="$ADDR_RE" '{
		line = tolower($0)
		if (line !~ /^[[:space:]]*(to|cc):[[:space:]]+[^[:space:]]/)
			next
		sub(/^[[:space:]]*/, "", line)
		kind = substr(line, 1, 2)
		line = substr(line, 4)
		while (match(line, re)) {
			a = substr(line, RSTART, RLENGTH)
			gsub(/[<>]/, "", a)
			print kind, a
			line = substr(line, RSTART + RLENGTH)
		}
	}'
}

# trim: text without trailing blanks and without empty lines.
trim() {
	sed -e 's/[[:space:]]*$//' -e '/^$/d'
}

# strip VAR STRING: set VAR to STRING without leading and trailing blanks.
strip() {
	local strip_s=$2
	strip_s=${strip_s#"${strip_s%%[![:space:]]*}"}
	printf -v "$1" '%s' "${strip_s%"${strip_s##*[![:space:]]}"}"
}

# --- get_maintainer.pl, as checks/maintainers/run runs it -------------------

# materialize COMMIT DIR: the commit's get_maintainer.pl, MAINTAINERS,
# .get_maintainer.ignore and .mailmap in DIR.
materialize() {
	local commit=$1 dir=$2 f
	mkdir -p "$dir"
	if ! git_tree show "$commit:scripts/get_maintainer.pl" >"$dir/get_maintainer.pl" 2>/dev/null ||
		! git_tree show "$commit:MAINTAINERS" >"$dir/MAINTAINERS" 2>/dev/null; then
		echo "no scripts/get_maintainer.pl or MAINTAINERS in $commit" >&2
		return 1
	fi
	for f in .get_maintainer.ignore .mailmap; do
		git_tree show "$commit:$f" >"$dir/$f" 2>/dev/null || rm -f "$dir/$f"
	done
}

# store KEY COMMAND...: run COMMAND, keep its output in $cache/KEY.
store() {
	local key=$1 out
	shift
	out=$("$@") || return 1
	printf '%s\n' "$out" >"$cache/$key.$BASHPID" && mv "$cache/$key.$BASHPID" "$cache/$key"
}

# cached KEY COMMAND...: COMMAND's output, from $cache/KEY if it is there.
cached() {
	local key=$1
	[[ -s $cache/$key ]] || store "$@" || return 1
	cat "$cache/$key"
}

# prefetch BASE HEAD COMMIT...: fill the cache for a series, $jobs
# get_maintainer.pl at a time (best effort: cached runs again what failed).
prefetch() {
	local base=$1 head=$2 c
	shift 2
	[[ -s $cache/$base-$head.files$CACHE_V ]] || store "$base-$head.files$CACHE_V" file_sections "$base" "$head" &
	for c in "$@"; do
		[[ ! -s $cache/$c.roles$CACHE_V ]] || continue
		while (($(jobs -rp | wc -l) >= jobs)); do wait -n || true; done
		store "$c.roles$CACHE_V" patch_roles "$c" &
	done
	wait || true
}

# patch_roles COMMIT: get_maintainer.pl --rolestats on the commit as a
# patch, with the commit's own script and MAINTAINERS (and the .yaml
# files it touches, whose maintainers: it reads).
patch_roles() {
	local commit=$1 work f
	local -a yaml
	work=$(mktemp -d "$tmp/gm.XXXXXX")
	materialize "$commit" "$work" || return 1
	mapfile -t yaml < <(git_tree diff-tree --no-commit-id --name-only --diff-filter=d -r "$commit" -- '*.yaml')
	for f in "${yaml[@]}"; do
		mkdir -p "$work/$(dirname "$f")"
		git_tree show "$commit:$f" >"$work/$f"
	done
	git_tree format-patch -1 --stdout "$commit" >"$work/commit.patch"
	(cd "$work" && perl ./get_maintainer.pl --mpath ./MAINTAINERS "${gm_opts[@]}" --rolestats commit.patch) |
		trim
}

# file_sections BASE HEAD: for each file changed in BASE..HEAD, a line
# "PATH<TAB>K, K<TAB>SECTION; SECTION": the patches (1-based) that touch
# it and get_maintainer.pl -f --subsystem on it, with HEAD's script and
# MAINTAINERS, by path alone (--no-keywords; the file is an empty stand-in).
file_sections() {
	local base=$1 head=$2 work path c i k=0
	local gm="perl ../gm/get_maintainer.pl --mpath ../gm/MAINTAINERS ${gm_opts[*]} --no-keywords --no-email --no-l --subsystem"
	local -a paths
	local -A patches=()
	work=$(mktemp -d "$tmp/files.XXXXXX")
	materialize "$head" "$work/gm" || return 1
	mkdir -p "$work/files" "$work/out"
	mv "$work/gm/.mailmap" "$work/gm/.get_maintainer.ignore" "$work/files/" 2>/dev/null || true
	while read -r c; do
		k=$((k + 1))
		while IFS= read -r path; do
			patches[$path]+="${patches[$path]:+, }$k"
		done < <(git_tree diff-tree --no-commit-id --no-renames --name-only -r "$c")
	done < <(git_tree rev-list --reverse "$base..$head")
	mapfile -t paths < <(git_tree diff --no-renames --name-only "$base" "$head")
	for i in "${!paths[@]}"; do
		path=${paths[$i]}
		[[ -e $work/files/$path ]] || { mkdir -p "$work/files/$(dirname "$path")" && : >"$work/files/$path"; }
		printf '%s\0%s\0' "$i" "$path"
	done | (cd "$work/files" && xargs -0 -r -n2 -P"$jobs" sh -c \
		"$gm -f \"\$2\" >\"../out/\$1\" || echo \"\$2\" >>../out/failed" sh)
	[[ ! -e $work/out/failed ]] || { echo "get_maintainer.pl -f failed on $(head -n1 "$work/out/failed")" >&2; return 1; }
	for i in "${!paths[@]}"; do
		printf '%s\t%s\t%s\n' "${paths[$i]}" "${patches[${paths[$i]}]:-}" \
			"$(trim <"$work/out/$i" | paste -sd';' | sed 's/;/; /g')"
	done
}

# --- the series on the tree -------------------------------------------------

# series_base NAME: the branch series NAME is applied on.
series_base() {
	local f=$series_root/$1/base b=""
	[[ -f $f ]] && b=$(tr -d '[:space:]' <"$f")
	echo "${b:-linux-source}"
}

has_branch() {
	git_tree rev-parse -q --verify "refs/heads/$1^{commit}" >/dev/null
}

# cover_recipients NAME: "to ADDR" and "cc ADDR" for the To:/Cc: trailers
# at the end of series/NAME/cover-letter (its last paragraph above any
# "---" or "-- " line, where b4 reads them).
cover_recipients() {
	local cover=$series_root/$1/cover-letter
	[[ -f $cover ]] || return 0
	awk '/^---$/ || /^-- $/ { exit } { print }' "$cover" |
		awk 'BEGIN { RS = "" } { last = $0 } END { if (NR) print last }' | recipients
}

# --- the notes ----------------------------------------------------------------

# Filled by parse_notes:
sections=()             # series names, in the order of the notes
declare -A sec_line=()  # NAME -> line of its heading
declare -A sec_pending=()
declare -A gm_text=()   # NAME|K/N -> the block's lines
declare -A gm_subject=()
declare -A gm_line=()
declare -A gm_keys=()   # NAME -> "K/N K/N ..." in the order of the notes
declare -A file_row=()  # NAME|PATH -> "K, K<TAB>SECTIONS"
declare -A file_line=()
declare -A file_paths=()  # NAME -> paths, one a line
declare -A block_text=()  # NAME|KIND (cc-again, recipients) -> lines
declare -A block_line=()
declare -A addr_line=()   # NAME|ADDR -> first line of the notes naming it
merge_order=()
merge_line=0
problems=0

# problem LINE MESSAGE: report a problem at LINE of the notes.
problem() {
	printf '%s:%s: %s\n' "$notes_name" "$1" "$2"
	problems=$((problems + 1))
}

parse_notes() {
	local line n=0 cur="" kind="" info="" open=0 start=0 text="" name key pk secs
	# shellcheck disable=SC2016 # backquotes, not an expansion
	local re_row='^\|[[:space:]]*`([^`]+)`[[:space:]]*\|([^|]*)\|([^|]*)\|[[:space:]]*$'
	local re_open='^```([A-Za-z_-]+)([[:space:]]+(.*))?$' re_close='^```[[:space:]]*$' re_fence='^```'
	local re_series='^##[[:space:]]+Series[[:space:]]+([A-Za-z0-9._-]+)([[:space:]]+\(pending\))?'
	while IFS= read -r line || [[ -n $line ]]; do
		n=$((n + 1))
		if ((open)); then
			if [[ $line =~ $re_close ]]; then
				open=0
				close_block "$cur" "$kind" "$info" "$start" "$text"
			else
				text+="$line"$'\n'
			fi
			continue
		fi
		if [[ $line =~ $re_open ]]; then
			open=1 kind=${BASH_REMATCH[1]} info=${BASH_REMATCH[3]} start=$n text=""
			continue
		fi
		[[ $line =~ $re_fence ]] && { open=1 kind="" info="" start=$n text=""; continue; }
		if [[ $line =~ ^##[[:space:]] ]]; then
			cur=""
			if [[ $line =~ $re_series ]]; then
				name=${BASH_REMATCH[1]}
				if [[ -n ${sec_line[$name]:-} ]]; then
					problem "$n" "a second section for series $name (the first is at line ${sec_line[$name]})"
					continue
				fi
				cur=$name
				sections+=("$name")
				sec_line[$name]=$n
				sec_pending[$name]=$([[ -n ${BASH_REMATCH[2]} ]] && echo 1 || echo 0)
			fi
			continue
		fi
		if [[ -n $cur && $line =~ $re_row ]]; then
			key="$cur|${BASH_REMATCH[1]}"
			if [[ -n ${file_line[$key]:-} ]]; then
				problem "$n" "$cur: a second row for ${BASH_REMATCH[1]} (the first is at line ${file_line[$key]})"
				continue
			fi
			strip pk "${BASH_REMATCH[2]}"
			strip secs "${BASH_REMATCH[3]}"
			file_row[$key]=$pk$'\t'$secs
			file_line[$key]=$n
			file_paths[$cur]+="${BASH_REMATCH[1]}"$'\n'
		fi
	done <"$notes"
	((open == 0)) || problem "$start" "a \`\`\` block that is never closed"
}

# close_block SECTION KIND INFO LINE TEXT
close_block() {
	local cur=$1 kind=$2 info=$3 start=$4 text=$5 kn subject key a
	case $kind in
	get_maintainer | cc-again | recipients) ;;
	merge-order)
		merge_line=$start
		mapfile -t merge_order < <(trim <<<"$text" | awk '{ sub(/^[0-9]+[.)][[:space:]]*/, ""); sub(/[^A-Za-z0-9._-].*$/, "", $1); print $1 }')
		return 0
		;;
	*) return 0 ;;
	esac
	if [[ -z $cur ]]; then
		problem "$start" "a \`\`\`$kind block outside any \"## Series NAME\" section"
		return 0
	fi
	while IFS= read -r a; do
		[[ -n ${addr_line[$cur|$a]:-} ]] || addr_line[$cur|$a]=$start
	done < <(addresses <<<"$text")
	if [[ $kind != get_maintainer ]]; then
		[[ -z ${block_line[$cur|$kind]:-} ]] ||
			problem "$start" "$cur: a second \`\`\`$kind block (the first is at line ${block_line[$cur|$kind]})"
		block_text[$cur|$kind]=$text
		block_line[$cur|$kind]=$start
		return 0
	fi
	kn=${info%%[[:space:]]*}
	strip subject "${info#"$kn"}"
	if [[ ! $kn =~ ^[0-9]+/[0-9]+$ ]]; then
		problem "$start" "$cur: \`\`\`get_maintainer needs \"K/N SUBJECT\" after it, not \"$info\""
		return 0
	fi
	key="$cur|$kn"
	if [[ -n ${gm_line[$key]:-} ]]; then
		problem "$start" "$cur $kn: a second block (the first is at line ${gm_line[$key]})"
		return 0
	fi
	gm_text[$key]=$(trim <<<"$text")
	gm_subject[$key]=$subject
	gm_line[$key]=$start
	gm_keys[$cur]+="$kn "
}

# --- the checks ---------------------------------------------------------------

# show_diff NOTES-TEXT TREE-TEXT: a unified diff, indented.
show_diff() {
	diff -u --label "$notes_name" --label get_maintainer.pl <(printf '%s\n' "$1") <(printf '%s\n' "$2") |
		sed 's/^/    /' || true
}

check_series() {
	local name=$1 base head n k=0 c h author subject key roles want got path line a
	local -a commits
	local -A seen_keys=() named=() authors=() cover=() notes_set=()
	base=$(series_base "$name")
	if ! git_tree rev-parse -q --verify "$base^{commit}" >/dev/null; then
		problem "${sec_line[$name]}" "series $name: its base, $base, is not in $tree"
		return 0
	fi
	head=$(git_tree rev-parse "refs/heads/$name^{commit}")
	# A branch that is not on the base its series/ names would count the
	# base's own import commits as patches (a whole kernel each).
	if ! git_tree merge-base --is-ancestor "$base" "$head"; then
		problem "${sec_line[$name]}" "series $name: branch $name is not on $base (series/$name/base): apply it again"
		return 0
	fi
	mapfile -t commits < <(git_tree rev-list --reverse "$base..$head")
	n=${#commits[@]}
	prefetch "$base" "$head" "${commits[@]}"
	if ((n == 0)); then
		problem "${sec_line[$name]}" "series $name: branch $name has no commits on $base"
		return 0
	fi
	while IFS=$'\t' read -r c h author subject; do
		k=$((k + 1))
		key="$name|$k/$n"
		seen_keys[$k/$n]=1
		authors[${author,,}]=1
		roles=$(cached "$c.roles$CACHE_V" patch_roles "$c") || {
			problem "${sec_line[$name]}" "$name $k/$n: get_maintainer.pl failed on $h"
			continue
		}
		while IFS= read -r a; do named[$a]=1; done < <(addresses <<<"$roles")
		if [[ -z ${gm_line[$key]:-} ]]; then
			problem "${sec_line[$name]}" "$name $k/$n \"$subject\": no \`\`\`get_maintainer $k/$n block in the section; get_maintainer.pl says:"
			printf '%s\n' "$roles" | sed 's/^/    /'
			continue
		fi
		if [[ ${gm_subject[$key]} != "$subject" ]]; then
			problem "${gm_line[$key]}" "$name $k/$n: the block says \"${gm_subject[$key]}\", patch $k/$n of branch $name is \"$subject\""
		fi
		if [[ ${gm_text[$key]} != "$roles" ]]; then
			problem "${gm_line[$key]}" "$name $k/$n \"$subject\" ($h): the block is not what get_maintainer.pl says; fix the block:"
			show_diff "${gm_text[$key]}" "$roles"
		fi
	done < <(git_tree log --reverse --format='%H%x09%h%x09%ae%x09%s' "$base..$head")
	for k in ${gm_keys[$name]:-}; do
		[[ -n ${seen_keys[$k]:-} ]] ||
			problem "${gm_line[$name|$k]}" "$name $k: branch $name has no patch $k ($n commits on $base)"
	done

	# The files table.
	while IFS=$'\t' read -r path want; do
		[[ -n $path ]] || continue
		if [[ -z ${file_line[$name|$path]:-} ]]; then
			problem "${sec_line[$name]}" "$name: no row for $path, which the series touches; get_maintainer.pl says:"
			# shellcheck disable=SC2016 # backquotes, not an expansion
			printf '    | `%s` | %s |\n' "$path" "${want//$'\t'/ | }"
			continue
		fi
		got=${file_row[$name|$path]}
		if [[ $got != "$want" ]]; then
			problem "${file_line[$name|$path]}" "$name: the row for $path is not what get_maintainer.pl says; fix the row:"
			show_diff "| \`$path\` | ${got//$'\t'/ | } |" "| \`$path\` | ${want//$'\t'/ | } |"
		fi
		file_row[$name|$path]=""
	done < <(cached "$base-$head.files$CACHE_V" file_sections "$base" "$head")
	while IFS= read -r path; do
		[[ -n $path && -n ${file_row[$name|$path]:-} ]] || continue
		problem "${file_line[$name|$path]}" "$name: the series does not touch $path"
	done <<<"${file_paths[$name]:-}"

	# The recipients: cover letter = recipients + cc-again + get_maintainer
	# blocks' addresses but the authors'.
	if [[ -z ${block_line[$name|recipients]:-} ]]; then
		problem "${sec_line[$name]}" "$name: no \`\`\`recipients block"
		return 0
	fi
	if [[ ! -f $series_root/$name/cover-letter ]]; then
		problem "${block_line[$name|recipients]}" "$name: no cover letter (series/$name/cover-letter) to hold the recipients"
		return 0
	fi
	while read -r line a; do
		cover[$a]=1
		[[ $line != to ]] || cover[to:$a]=1
	done < <(cover_recipients "$name")
	while read -r line a; do
		notes_set[$a]=1
		[[ $line != to ]] || notes_set[to:$a]=1
	done < <(recipients <<<"${block_text[$name|recipients]}")
	while IFS= read -r a; do notes_set[$a]=1; done < <(addresses <<<"${block_text[$name|cc-again]:-}")
	for a in "${!named[@]}"; do
		[[ -n ${authors[$a]:-} ]] || notes_set[$a]=1
	done
	for a in $(printf '%s\n' "${!notes_set[@]}" | sort); do
		[[ -z ${cover[$a]:-} ]] || continue
		if [[ $a == to:* ]]; then
			problem "${block_line[$name|recipients]}" "$name: the notes say To: ${a#to:}; the cover letter's To: lines do not"
		else
			problem "${addr_line[$name|$a]:-${block_line[$name|recipients]}}" "$name: the notes name $a; the To:/Cc: lines at the end of series/$name/cover-letter do not"
		fi
	done
	for a in $(printf '%s\n' "${!cover[@]}" | sort); do
		[[ -z ${notes_set[$a]:-} ]] || continue
		if [[ $a == to:* ]]; then
			problem "${block_line[$name|recipients]}" "$name: series/$name/cover-letter has To: ${a#to:}; the recipients block does not"
		else
			problem "${block_line[$name|recipients]}" "$name: series/$name/cover-letter has $a, which no block of the notes names (recipients, cc-again or get_maintainer)"
		fi
	done
}

check_all() {
	local name s i b
	parse_notes
	if ((${#sections[@]} == 0)); then
		problem 1 "no \"## Series NAME\" section"
	fi
	for s in "$series_root"/*/; do
		s=$(basename "$s")
		[[ -f $series_root/$s/series && -z ${sec_line[$s]:-} ]] &&
			problem "$(wc -l <"$notes")" "series/$s has no \"## Series $s\" section (add one, \"(pending)\" until it is on the tree)"
	done
	for name in "${sections[@]}"; do
		if ((sec_pending[$name])); then
			if has_branch "$name"; then
				problem "${sec_line[$name]}" "series $name is marked (pending), but branch $name is in the tree: write its section (--print $name) and drop \"(pending)\""
			fi
			[[ -z ${gm_keys[$name]:-} && -z ${file_paths[$name]:-} ]] ||
				problem "${sec_line[$name]}" "series $name is marked (pending) but has get_maintainer blocks or file rows"
			continue
		fi
		if ! has_branch "$name"; then
			problem "${sec_line[$name]}" "series $name: no branch $name in $tree (make apply SERIES=$name), and the section is not marked (pending)"
			continue
		fi
		check_series "$name"
	done

	# The merge order: every series once, each after its base.
	if ((merge_line == 0)); then
		problem 1 "no \`\`\`merge-order block"
	else
		local -A pos=()
		for i in "${!merge_order[@]}"; do
			[[ -z ${pos[${merge_order[$i]}]:-} ]] ||
				problem "$merge_line" "merge order: ${merge_order[$i]} comes twice"
			pos[${merge_order[$i]}]=$((i + 1))
			[[ -n ${sec_line[${merge_order[$i]}]:-} ]] ||
				problem "$merge_line" "merge order: ${merge_order[$i]} has no \"## Series\" section"
		done
		for name in "${sections[@]}"; do
			if [[ -z ${pos[$name]:-} ]]; then
				problem "$merge_line" "merge order: series $name is not in it"
				continue
			fi
			b=$(series_base "$name")
			[[ -z ${pos[$b]:-} ]] || ((pos[$b] < pos[$name])) ||
				problem "$merge_line" "merge order: $name is applied on $b (series/$name/base), so $b merges first"
		done
	fi
	((problems == 0)) || { echo "$notes_name: $problems problem(s), each above with the line to fix"; return 1; }
	local checked=() pending=()
	for name in "${sections[@]}"; do
		if ((sec_pending[$name])); then pending+=("$name"); else checked+=("$name"); fi
	done
	echo "$notes_name agrees with get_maintainer.pl on $tree: ${checked[*]:-no series}${pending[*]:+; pending: ${pending[*]}}"
}

print_series() {
	local name=$1 base head n k=0 c path pk secs
	local -a commits
	has_branch "$name" || { echo "no branch $name in $tree" >&2; return 1; }
	base=$(series_base "$name")
	head=$(git_tree rev-parse "refs/heads/$name^{commit}")
	git_tree merge-base --is-ancestor "$base" "$head" ||
		{ echo "branch $name is not on $base (series/$name/base): apply it again" >&2; return 1; }
	mapfile -t commits < <(git_tree rev-list --reverse "$base..$head")
	n=${#commits[@]}
	prefetch "$base" "$head" "${commits[@]}"
	echo "| file | patches | MAINTAINERS sections |"
	echo "|---|---|---|"
	while IFS=$'\t' read -r path pk secs; do
		# shellcheck disable=SC2016 # backquotes, not an expansion
		printf '| `%s` | %s | %s |\n' "$path" "$pk" "$secs"
	done < <(cached "$base-$head.files$CACHE_V" file_sections "$base" "$head")
	for c in "${commits[@]}"; do
		k=$((k + 1))
		echo
		echo "\`\`\`get_maintainer $k/$n $(git_tree log -1 --format=%s "$c")"
		cached "$c.roles$CACHE_V" patch_roles "$c"
		echo "\`\`\`"
	done
}

main() {
	local mode=check
	case ${1:-} in
	--print) mode=print; shift; [[ $# -eq 1 ]] || usage ;;
	-h | --help) usage ;;
	esac
	[[ -d $tree/.git ]] || { echo "no kernel tree at $tree" >&2; exit 2; }
	tmp=$(mktemp -d)
	# shellcheck disable=SC2064 # expand $tmp now
	trap "rm -rf '$tmp'" EXIT
	cache=${MN_CACHE:-$tmp/cache}
	mkdir -p "$cache"
	jobs=${MN_JOBS:-$(nproc 2>/dev/null || echo 2)}
	((jobs >= 2)) || jobs=2
	if [[ $mode == print ]]; then
		print_series "$1"
		return
	fi
	notes=${1:-$ws_root/MAINTAINERS-notes.md}
	[[ -f $notes ]] || { echo "no notes file $notes" >&2; exit 2; }
	notes_name=${notes#"$ws_root"/}
	check_all
}

main "$@"
