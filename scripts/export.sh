#!/usr/bin/env bash
# export.sh: write branch NAME back into series/NAME/ for each selected
# series (SERIES=a,b, else all).  It takes no arguments.
#
# git format-patch regenerates the patches from the branch, and the 'series'
# file is rewritten to match; 'base', 'cover-letter' and every other file in
# the directory stay as they are.  A patch whose commit did not change (the
# same diff by git patch-id --stable, the same author, date and message)
# keeps its file as it is, notes under '---' included, so exporting an
# unchanged branch changes nothing.
#
# series/NAME/ must still be what the last apply or export of NAME left
# (applied_key in lib.sh, in the tree's git config): hand edits there stop
# the export, unless FORCE=1.  Before series/NAME/ changes it is copied to
# $WORKDIR/backup/NAME-<time>.XXXXXX/; a copy that fails stops the export.
# The new directory is made complete next to the old one
# (series/.NAME.new.XXXXXX/) and swapped in by renaming, with SIGINT and
# SIGTERM held off: at every instant series/NAME/ is wholly the old or
# wholly the new one.  Whatever an interrupted export leaves is cleaned up
# when it exits, or by the next export.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"

PYTHON=/usr/bin/python3
[[ -x $PYTHON ]] || PYTHON=python3

# Temporary directories of this run, removed when it ends.
TEMPS=()

# Set once this run holds the workspace lock: only then may it tidy up
# series/ (another export might be swapping there).
LOCKED=0

cleanup() {
	((${#TEMPS[@]} == 0)) || rm -rf -- "${TEMPS[@]}"
	((LOCKED == 0)) || recover_interrupted_swaps
}
trap cleanup EXIT

# recover_interrupted_swaps: what an export stopped half-way left in
# series/: a new directory that was not swapped in is dropped; an old one
# that was swapped out is dropped, or put back if series/NAME is missing.
recover_interrupted_swaps() {
	local d base name
	for d in "$SERIES_DIR"/.*.old.* "$SERIES_DIR"/.*.new.*; do
		[[ -d $d ]] || continue
		base=${d##*/}
		[[ $base =~ ^\.(.+)\.(old|new)\.[A-Za-z0-9]{6}$ ]] || continue
		name=${BASH_REMATCH[1]}
		if [[ ${BASH_REMATCH[2]} == old && ! -e $SERIES_DIR/$name ]]; then
			mv -T -- "$d" "$SERIES_DIR/$name" || return 1
			warn "series/$name/ is back as it was before an export that was stopped half-way"
		else
			rm -rf -- "$d" || return 1
		fi
	done
}

# remove_stale_temps: format-patch output of exports that were killed.
remove_stale_temps() {
	local d
	for d in "$WORKDIR"/export.*; do
		[[ ! -d $d ]] || rm -rf -- "$d"
	done
}

# patch_keys FILE...: for each patch, one line saying what it says,
# whatever its layout: its diff (git patch-id --stable, one run for all of
# them) and a hash of its author, date, subject (without the [PATCH n/m])
# and message up to the '---'.  Notes under the '---', the diffstat, the
# From line and the signature do not count.
patch_keys() {
	(($# > 0)) || return 0
	"$PYTHON" - "$WS_ROOT/scripts" "$TREE" "$@" <<-'EOF'
		import re, subprocess, sys
		sys.dont_write_bytecode = True
		sys.path.insert(0, sys.argv[1])
		import keys
		tree, files = sys.argv[2], sys.argv[3:]
		FROM = re.compile(rb'^From [0-9a-f]{40} ')
		stream, messages = [], []
		for i, name in enumerate(files):
		    lines = open(name, 'rb').read().split(b'\n')
		    # Each patch gets a From line with its own number, so that
		    # patch-id's output can be told apart.
		    if lines and FROM.match(lines[0]):
		        lines = lines[1:]
		    stream.append(b'From %040x Mon Sep 17 00:00:00 2001\n' % (i + 1) + b'\n'.join(lines) + b'\n')
		    headers, body, at = {}, [], 'head'
		    key = None
		    for line in lines:
		        if at == 'head':
		            if not line.strip():
		                at = 'body'
		            elif line[:1] in b' \t' and key:
		                headers[key] += b' ' + line.strip()
		            elif b':' in line:
		                key, _, value = line.partition(b':')
		                key = key.strip().lower()
		                headers[key] = value.strip()
		        elif line == b'---' or line.startswith(b'diff --git '):
		            break
		        else:
		            body.append(line.rstrip())
		    while body and not body[-1]:
		        body.pop()
		    subject = re.sub(rb'^(\[[^]]*PATCH[^]]*\]\s*)+', b'', headers.get(b'subject', b''))
		    k = keys.Key()
		    for part in (headers.get(b'from', b''), headers.get(b'date', b''), subject, b'\n'.join(body)):
		        k.add(part + b'\0')
		    messages.append(k.hex())
		out = subprocess.run(['git', '-C', tree, 'patch-id', '--stable'], input=b''.join(stream),
		                     stdout=subprocess.PIPE, check=True).stdout.decode()
		ids = {}
		for line in out.splitlines():
		    pid, num = line.split()
		    ids[int(num, 16) - 1] = pid
		for i, message in enumerate(messages):
		    print(ids.get(i, 'none'), message)
	EOF
}

# range_keys RANGE SCRATCH: the patch_keys of the commits of RANGE, oldest
# first.
range_keys() {
	local range=$1 scratch=$2
	local -a patches
	mkdir -p "$scratch/range" || return 1
	git_tree format-patch -q --no-signature --zero-commit -o "$scratch/range" "$range" || return 1
	patches=("$scratch/range"/*.patch)
	[[ -f ${patches[0]} ]] || return 0
	patch_keys "${patches[@]}"
}

# files_keys NAME: the patch_keys of the patches series/NAME/series lists,
# in its order.
files_keys() {
	local name=$1 p
	local -a patches=()
	while read -r p; do
		[[ -f $SERIES_DIR/$name/$p ]] || return 1
		patches+=("$SERIES_DIR/$name/$p")
	done < <(series_entries "$SERIES_DIR/$name")
	patch_keys "${patches[@]}"
}

# matches_last_apply NAME BASE SCRATCH: series/NAME/ is what the last apply
# or export of NAME left, or says the same in other words (notes under a
# '---' added since, say).  Returns 1 when it is not, 2 when there is no
# record of either.
matches_last_apply() {
	local name=$1 base=$2 scratch=$3 record hash head n from
	record=$(applied_record "$name") || return 2
	read -r hash head <<<"$record"
	[[ $(inputs_hash "$name" "$base") != "$hash" ]] || return 0
	# The base may have moved since (its own series exported again): the
	# recorded head's base is as many commits below it as there are
	# patches.
	n=$(series_entries "$SERIES_DIR/$name" | wc -l)
	if git_tree rev-parse -q --verify "$head~$n^{commit}" >/dev/null &&
		[[ $(inputs_hash "$name" "$(git_tree rev-parse "$head~$n")") == "$hash" ]]; then
		return 0
	fi
	# Else the files may say the same as the commits they were made from.
	from="$head~$n"
	if git_tree merge-base --is-ancestor "$base" "$head" 2>/dev/null; then
		from=$base
	fi
	git_tree rev-parse -q --verify "$from^{commit}" >/dev/null || return 1
	local files commits
	files=$(files_keys "$name") || return 1
	commits=$(range_keys "$from..$head" "$scratch") || return 1
	[[ -n $files && $files == "$commits" ]]
}

# subject_prefix FILE: the [PATCH n/m] of its Subject line.
subject_prefix() {
	sed -n '/^Subject: /{s/^Subject: \(\[[^]]*\]\).*/\1/p;q}' "$1"
}

# reuse_patch OLD NEW OUT: OLD (the same patch as NEW) as OUT: OLD as it
# is, or with NEW's [PATCH n/m] when the numbering moved.
reuse_patch() {
	local old=$1 new=$2 out=$3 pre
	pre=$(subject_prefix "$new")
	if [[ -z $pre || $pre == "$(subject_prefix "$old")" ]]; then
		cp -p -- "$old" "$out"
		return
	fi
	awk -v pre="$pre" '
		!done && /^Subject: / {
			rest = substr($0, 10)
			if (match(rest, /^\[[^]]*\]/)) rest = substr(rest, RLENGTH + 1)
			else rest = " " rest
			print "Subject: " pre rest
			done = 1
			next
		}
		{ print }' "$old" >"$out"
}

# build_series_dir NAME PATCHES NEW SCRATCH: in NEW, series/NAME/ as branch
# NAME has it: every file but the patches and 'series' copied, the patches
# of PATCHES (format-patch output), each one the existing file where the
# patch is the same, and 'series' listing them.  Prints how many patches
# are new or changed.
build_series_dir() {
	local name=$1 from=$2 new=$3 scratch=$4 dir=$SERIES_DIR/$1 f key i changed=0
	local -A old_by_key=()
	local -a files keys
	cp -a -- "$dir/." "$new/" || return 1
	# The patches the series lists go; a .patch file it does not list
	# (work in progress kept beside the series) stays.
	while IFS= read -r f; do
		rm -f -- "$new/$f" || return 1
	done < <(series_entries "$dir")
	rm -f -- "$new/series" || return 1
	files=()
	while IFS= read -r f; do
		[[ ! -f $dir/$f ]] || files+=("$dir/$f")
	done < <(series_entries "$dir")
	if ((${#files[@]})); then
		capture keys patch_keys "${files[@]}"
		for ((i = ${#files[@]} - 1; i >= 0; i--)); do
			old_by_key[${keys[i]}]=${files[i]}
		done
	fi
	files=("$from"/*.patch)
	capture keys patch_keys "${files[@]}"
	for ((i = 0; i < ${#files[@]}; i++)); do
		f=${files[i]} key=${keys[i]}
		if [[ -n ${old_by_key[$key]:-} ]]; then
			reuse_patch "${old_by_key[$key]}" "$f" "$new/${f##*/}" || return 1
			unset "old_by_key[$key]"
		else
			cp -- "$f" "$new/${f##*/}" || return 1
			changed=$((changed + 1))
		fi
	done
	(cd "$from" && ls -1 -- *.patch) >"$scratch/series" || return 1
	if [[ -f $dir/series ]] && cmp -s "$scratch/series" <(series_entries "$dir"); then
		cp -p -- "$dir/series" "$new/series" || return 1
	else
		cp -- "$scratch/series" "$new/series" || return 1
	fi
	echo "$changed"
}

# backup_series NAME: series/NAME/ copied to a directory of its own under
# $WORKDIR/backup/; prints it.
backup_series() {
	local name=$1 backup
	mkdir -p "$WORKDIR/backup" &&
		backup=$(mktemp -d "$WORKDIR/backup/$name-$(date +%Y%m%d-%H%M%S).XXXXXX") &&
		cp -a -- "$SERIES_DIR/$name/." "$backup/" &&
		echo "$backup"
}

# swap_dirs CUR NEW OLD: NEW becomes CUR, and what was CUR goes to OLD.
# One renameat2(RENAME_EXCHANGE) where the file system has it, else two
# renames (put back if the second fails); SIGINT and SIGTERM are ignored
# throughout, so that CUR is never missing or half of each.
swap_dirs() {
	"$PYTHON" - "$@" <<-'EOF'
		import ctypes, os, signal, sys
		signal.signal(signal.SIGINT, signal.SIG_IGN)
		signal.signal(signal.SIGTERM, signal.SIG_IGN)
		cur, new, old = sys.argv[1:4]
		try:
		    renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
		except (AttributeError, OSError):
		    renameat2 = None
		AT_FDCWD, RENAME_EXCHANGE = -100, 2
		if renameat2 and renameat2(AT_FDCWD, os.fsencode(new), AT_FDCWD, os.fsencode(cur), RENAME_EXCHANGE) == 0:
		    os.rename(new, old)
		    sys.exit(0)
		os.rename(cur, old)
		try:
		    os.rename(new, cur)
		except OSError:
		    os.rename(old, cur)
		    raise
	EOF
}

# record_export NAME BASE HEAD: branch NAME and series/NAME/ agree again.
# The git commands run in a session of their own (setsid), out of reach of
# a Ctrl-C or a kill of this script's process group: git puts handlers of
# its own over an ignored SIGINT or SIGTERM (to remove its lock files),
# so swap_in's ignoring them would not keep a signal from cutting the
# record short after series/NAME/ has been swapped.
record_export() {
	local name=$1 base=$2 head=$3 hash
	hash=$(inputs_hash "$name" "$base") || return 1
	setsid -w git -C "$TREE" update-ref "refs/workspace/applied/$name" "$head" &&
		setsid -w git -C "$TREE" config "$(applied_key "$name")" "$hash $head"
}

# check_branch NAME BASE HEAD: branch NAME is a linear series on its base.
check_branch() {
	local name=$1 base=$2 head=$3 base_ref n merges
	base_ref=$(base_ref "$name")
	git_tree merge-base --is-ancestor "$base" "$head" ||
		die "branch $name is not based on $base_ref ($(git_tree log -1 --format=%h "$base")); rebase it onto $base_ref before exporting"
	n=$(git_tree rev-list --count "$base..$head")
	((n > 0)) || die "branch $name has no commits on top of $base_ref"
	merges=$(git_tree rev-list --merges --count "$base..$head")
	((merges == 0)) || die "branch $name has $merges merge commit(s); a series must be linear"
}

export_one() {
	local name=$1 dir=$SERIES_DIR/$1 base_ref base head
	base_ref=$(base_ref "$name")
	base=$(git_tree rev-parse -q --verify "$base_ref^{commit}") ||
		die "series $name sits on '$base_ref', which is not in $TREE"
	head=$(git_tree rev-parse -q --verify "refs/heads/$name^{commit}") ||
		die "branch $name does not exist in $TREE: run 'make apply SERIES=$name' first"
	check_branch "$name" "$base" "$head"

	local scratch
	scratch=$(mktemp -d "$WORKDIR/export.XXXXXX")
	TEMPS+=("$scratch")

	# A series/NAME that is a symlink: its target is what changes.
	local real
	real=$(realpath -e -- "$dir") || die "series/$name/ cannot be resolved"
	[[ -d $real ]] || die "series/$name is not a directory"
	mkdir "$scratch/patches"
	git_tree format-patch -q --no-signature --zero-commit --no-cover-letter \
		-o "$scratch/patches" "$base..$head" ||
		die "git format-patch of branch $name failed (is the disk full?); series/$name/ is unchanged"
	local n new changed
	n=$(git_tree rev-list --count "$base..$head")
	new=$(mktemp -d "${real%/*}/.${real##*/}.new.XXXXXX")
	TEMPS+=("$new")
	changed=$(build_series_dir "$name" "$scratch/patches" "$new" "$scratch") ||
		die "could not write the new series/$name/ (in $new); series/$name/ is unchanged"
	# series/NAME already holds the branch (an export killed between its
	# swap and its record left it so): only the record is missing.
	if diff -r -q -- "$real" "$new" >/dev/null 2>&1; then
		record_export "$name" "$base" "$head" || die "could not record the export of $name in $TREE"
		progress export "$name: series/$name/ already holds branch $name ($n patches); nothing written"
		return 0
	fi

	local rc=0 why
	matches_last_apply "$name" "$base" "$scratch" || rc=$?
	if ((rc)); then
		why="series/$name/ was changed by hand since it was last applied or exported"
		((rc != 2)) || why="series/$name/ was never applied in this workspace ($TREE has no record of it)"
		[[ ${FORCE:-0} == 1 ]] ||
			die "$why, and export would overwrite it with branch $name: apply it first (make apply SERIES=$name) or FORCE=1 to overwrite; your files are backed up either way"
		warn "$why; FORCE=1: overwriting it with branch $name (the files are backed up first)"
	fi

	local backup
	backup=$(backup_series "$name") ||
		die "could not back up series/$name/ into $WORKDIR/backup/; nothing was exported"
	swap_in "$name" "$new" "$base" "$head" "$real"
	progress export "$name: wrote series/$name/: $n patches, $changed of them new or changed (the previous files are in $backup)"
}

# swap_in NAME NEW BASE HEAD [REAL]: NEW becomes series/NAME/ (REAL, the
# directory it resolves to, when it is a symlink), and the export is
# recorded.  SIGINT and SIGTERM wait until both are done (a subshell that
# ignores them, so that its children do too); then the script stops.
swap_in() {
	local name=$1 new=$2 base=$3 head=$4 real=${5:-$SERIES_DIR/$1} old rc=0 stopped=0 saved
	old=${real%/*}/.${real##*/}.old.${new##*.}
	saved=$(trap -p INT TERM)
	trap 'stopped=1' INT TERM
	(
		trap '' INT TERM
		swap_dirs "$real" "$new" "$old" || exit 2
		record_export "$name" "$base" "$head" || exit 3
	) || rc=$?
	trap - INT TERM
	eval "$saved"
	case $rc in
	0) rm -rf -- "$old" ;;
	2) die "could not put the new series/$name/ in place; series/$name/ is unchanged" ;;
	*) die "series/$name/ now holds branch $name, but $TREE could not record it (git config $(applied_key "$name")); run make export SERIES=$name again" ;;
	esac
	if ((stopped)); then
		echo "interrupted: $0 stopped after exporting $name" >&2
		exit 130
	fi
}

main() {
	(($# == 0)) || die "export.sh takes no arguments (got '$*'); name the series with SERIES=a,b"
	require_tree
	take_lock
	lock_series_dir export
	LOCKED=1
	recover_interrupted_swaps
	remove_stale_temps
	local s
	local -a selected_series_list
	capture selected_series_list selected_series
	for s in "${selected_series_list[@]}"; do
		export_one "$s"
	done
}

main "$@"
