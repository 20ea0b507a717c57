# shellcheck shell=bash
# shellcheck disable=SC2034 # the paths below are used by the scripts that source this file
# What make send, make reroll and make trailers share (send.sh, reroll.sh,
# trailers.sh).  Sourced after lib.sh, never executed.
#
# b4 works on a prep branch, b4/<name>, that the workspace makes from the
# applied branch <name>: an empty commit holding series/<name>/cover-letter
# and b4's tracking data (revision from series/<name>/version, change-id
# from series/<name>/change-id), then the series' commits, as b4 0.12's
# "commit" cover strategy keeps them.  b4 runs in a private worktree of the
# tree ($WORKDIR/b4), so the user's checkout is never touched, and the prep
# branch is made again from the series on every run: nothing in it is ever
# the only copy of anything.  An edit made there (b4 prep --edit-cover, a
# commit amended) would be: the workspace keeps the head it made in
# refs/workspace/b4-made/<name> and refuses to make a branch that moved
# since again, naming what differs (prep_untouched); FORCE=1 drops it.
#
# Each version that make send prepares is tagged <name>-v<N> in the tree, at
# the applied branch's head; make reroll compares the next version against
# it.  Messages go to $WORKDIR/outgoing/<name>-v<N>/; a version that was
# sent (SEND=1) gets outgoing/<name>-v<N>/sent and is never sent or
# rewritten again.

OUTGOING=$WORKDIR/outgoing
PREP_WT=$WORKDIR/b4
B4_CONFIG=${B4_CONFIG:-$WS_ROOT/b4-config}
B4MAIL=$WS_ROOT/scripts/b4mail.py
PYTHON=/usr/bin/python3
[[ -x $PYTHON ]] || PYTHON=python3
# The generated part of the tree's git config (see install_b4_config).
B4_GITCONFIG=workspace-b4.gitconfig

b4mail() {
	"$PYTHON" "$B4MAIL" "$@"
}

# the_series TARGET: the one series $SERIES names, checked.
the_series() {
	local target=$1
	if [[ -z ${SERIES:-} || $SERIES == *,* ]]; then
		printf 'error: make %s works on one series: make %s SERIES=<name>; the series are:\n' \
			"$target" "$target" >&2
		series_names | sed 's/^/  /' >&2
		exit 1
	fi
	check_series "$SERIES"
	echo "$SERIES"
}

# series_version NAME: the revision in series/NAME/version (1 without one).
series_version() {
	local f=$SERIES_DIR/$1/version v=1
	if [[ -f $f ]]; then
		v=$(tr -d '[:space:]' <"$f")
		[[ $v =~ ^[1-9][0-9]*$ ]] ||
			die "series/$1/version must hold the revision number (1, 2, ...), not '$v'"
	fi
	echo "$v"
}

version_tag() {
	echo "$1-v$2"
}

outgoing_dir() {
	echo "$OUTGOING/$1-v$2"
}

# What remove_leftovers removes when the script ends, however it ends:
# temporary directories, and files not yet moved into place.
LEFTOVERS=()
remove_leftovers() {
	((${#LEFTOVERS[@]} == 0)) || rm -rf "${LEFTOVERS[@]}"
}
trap remove_leftovers EXIT

# new_scratch_dir: $SCRATCH, a new temporary directory, removed at the end.
new_scratch_dir() {
	SCRATCH=$(mktemp -d "${TMPDIR:-/tmp}/workspace-b4.XXXXXX")
	LEFTOVERS+=("$SCRATCH")
}

# write_file FILE: stdin into FILE, which is replaced only once all of it is
# written: a failure or Ctrl-C leaves the old FILE, and no partial one next
# to it.  Not in a pipeline or $(...): the cleanup is this shell's.
write_file() {
	local file=$1 part
	part=$(dirname "$file")/.$(basename "$file").partial
	LEFTOVERS+=("$part")
	cat >"$part" || die "could not write $file"
	mv "$part" "$file"
}

# check_cover NAME: b4 can use series/NAME/cover-letter as it is.
check_cover() {
	local cover=$SERIES_DIR/$1/cover-letter
	[[ -f $cover ]] ||
		die "series/$1/cover-letter is missing: b4 needs a cover letter (first line: the subject, then an empty line, then the text)"
	b4mail cover-check "$cover" "series/$1/cover-letter" || exit 1
}

# ensure_applied NAME: branch NAME is what series/NAME/ says: it is as the
# last apply or export left it, from the same patches; else apply.sh makes
# it so (and refuses, saying why, when the branch holds edits that were
# not exported).
ensure_applied() {
	local name=$1 base head
	base=$(git_tree rev-parse -q --verify "$(base_ref "$name")^{commit}" || true)
	head=$(git_tree rev-parse -q --verify "refs/heads/$name^{commit}" || true)
	if [[ -n $base && -n $head &&
		$(git_tree rev-parse -q --verify "refs/workspace/applied/$name" || true) == "$head" &&
		$(applied_record "$name" || true) == "$(inputs_hash "$name" "$base") $head" ]]; then
		return 0
	fi
	SERIES=$name bash "$WS_ROOT/scripts/apply.sh" ||
		die "could not apply series $name (run make apply SERIES=$name to see why)"
}

# user_has KEY: KEY is set in the user's own git config (global or system).
user_has() {
	git config --global --get-all "$1" >/dev/null 2>&1 ||
		git config --system --get-all "$1" >/dev/null 2>&1
}

# install_b4_config: the keys of b4-config go into the tree's git config,
# through an include of .git/workspace-b4.gitconfig, so that b4 reads all of
# them (0.12 reads only send-*, *mask, *template* and trailer* from a
# tree's .b4-config).  A key set in the user's own git config is left out,
# so the user's wins; so is every sendemail.* key when the user's own git
# config names an SMTP server.
install_b4_config() {
	local gen=$TREE/.git/$B4_GITCONFIG entry key value own_smtp=0
	[[ -f $B4_CONFIG ]] || die "$B4_CONFIG is missing"
	git config -f "$B4_CONFIG" --list >/dev/null 2>&1 ||
		die "$B4_CONFIG is not in git-config syntax: $(git config -f "$B4_CONFIG" --list 2>&1 | head -n1)"
	user_has sendemail.smtpserver && own_smtp=1
	LEFTOVERS+=("$gen.new")
	rm -f "$gen.new"
	touch "$gen.new"
	while IFS= read -r -d '' entry; do
		key=${entry%%$'\n'*}
		value=true
		[[ $entry != *$'\n'* ]] || value=${entry#*$'\n'}
		[[ $key == sendemail.* ]] && ((own_smtp)) && continue
		user_has "$key" && continue
		git config -f "$gen.new" --add "$key" "$value"
	done < <(git config -f "$B4_CONFIG" --list -z)
	mv "$gen.new" "$gen"
	git_tree config --local --get-all include.path | grep -qxF "$B4_GITCONFIG" ||
		git_tree config --local --add include.path "$B4_GITCONFIG"
}

# prep_git ARGS...: git in the prep worktree.
prep_git() {
	git -C "$PREP_WT" "$@"
}

# run_b4 ARGS...: b4 in the prep worktree, offline (replies come from a
# local mbox, never from lore), without reading a message from stdin.
run_b4() {
	local rc=0 branch
	(cd "$PREP_WT" && b4 --offline-mode --no-stdin "$@") || rc=$?
	# What b4 did to the prep branch the workspace asked for (prep
	# --auto-to-cc, trailers -u): the head is the workspace's own.
	branch=$(prep_git symbolic-ref -q --short HEAD) || branch=""
	if [[ $branch == b4/* ]]; then
		git_tree update-ref "refs/workspace/b4-made/${branch#b4/}" "refs/heads/$branch" ||
			die "could not keep the head of $branch in refs/workspace/b4-made/${branch#b4/}"
	fi
	return $rc
}

# prepare_prep_worktree: $WORKDIR/b4, clean and detached, whatever an
# interrupted earlier run left there.
prepare_prep_worktree() {
	git_same_repo "$TREE" "$PREP_WT" ||
		progress b4 "checking out a private worktree for b4 in $PREP_WT"
	git_worktree "$TREE" "$PREP_WT" "$BASE_BRANCH" || die "cannot make the worktree $PREP_WT"
	local op
	for op in cherry-pick rebase am revert merge; do
		prep_git "$op" --abort >/dev/null 2>&1 || true
	done
	prep_git checkout -q -f --detach
	prep_git clean -fdxq
}

# change_id NAME: b4's change-id of the series, the same for every version:
# series/NAME/change-id (see make_change_id).
change_id() {
	local id
	id=$(tr -d '[:space:]' <"$SERIES_DIR/$1/change-id")
	[[ $id =~ ^[A-Za-z0-9._-]+$ ]] || die "series/$1/change-id does not hold a b4 change-id: '$id'"
	echo "$id"
}

# make_change_id NAME: series/NAME/change-id, the first time the series
# goes to b4.
make_change_id() {
	local f=$SERIES_DIR/$1/change-id
	[[ -s $f ]] && return 0
	write_file "$f" < <(b4mail new-change-id "$1")
	progress b4 "series/$1/change-id: a new b4 change-id, for every version of $1 (keep it with the series)"
}

# prefixes NAME: the extra subject prefixes of series NAME's messages, as
# b4 prep -n takes them: series/NAME/prefixes (one line: "RFC" gives
# "[PATCH RFC v2 1/3]"; b4 puts them after PATCH), then b4.send-prefixes.
prefixes() {
	local f=$SERIES_DIR/$1/prefixes own=""
	if [[ -f $f ]]; then
		own=$(sed -e 's/#.*//' "$f" | tr -s '[:space:]' ' ') || die "cannot read series/$1/prefixes"
		[[ $own =~ ^[[:space:]]*([A-Za-z0-9.+_-]+[[:space:]]*)*$ ]] ||
			die "series/$1/prefixes: subject prefixes are words of letters, digits and . + _ - (got '$own')"
	fi
	echo "$own $(git_tree config --get b4.send-prefixes || true)"
}

# replay_commit COMMIT PARENT [NOTES]: COMMIT's tree, author and message on
# PARENT.  NOTES, if any, go under a '---' line after the message: b4
# writes the message as the mail's body, so they land below the '---' of
# the patch mail, where git am leaves them out.  With SENDER_IDENT (make
# send SENDER=1) the sender takes what the placeholder identity holds: an
# author whose address cannot receive mail becomes the sender, and so does
# each such Signed-off-by and Co-developed-by (b4mail take-as); others'
# authorship and sign-offs stay.  What was taken is said on stderr.
replay_commit() {
	local commit=$1 parent=$2 notes=${3:-} an ae ad msg taken subject
	IFS=$'\t' read -r an ae ad subject < <(git_tree log -1 --format=$'%an\t%ae\t%ad\t%s' --date=raw "$commit")
	msg=$(git_tree cat-file commit "$commit" | sed '1,/^$/d') || return 1
	if [[ -n ${SENDER_IDENT:-} ]]; then
		taken=$(mktemp) || return 1
		msg=$(b4mail take-as "$SENDER_IDENT" <<<"$msg" 2>"$taken") || { cat "$taken" >&2; rm -f "$taken"; return 1; }
		if ! b4mail undeliverable "$an <$ae>" >/dev/null; then
			echo "author: $an <$ae> -> $SENDER_IDENT" >>"$taken"
			an=$SENDER_NAME
			ae=$SENDER_EMAIL
		fi
		[[ ! -s $taken ]] || printf '  SENDER=1, "%s": %s\n' "$subject" "$(paste -sd';' "$taken" | sed 's/;/; /g')" >&2
		rm -f "$taken"
	fi
	{
		printf '%s\n' "$msg"
		[[ -z $notes ]] || printf -- '---\n%s\n' "$notes"
	} | GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad \
		git -C "$TREE" commit-tree "$commit^{tree}" -p "$parent"
}

# take_as_sender: make send SENDER=1: SENDER_IDENT ("Name <address>"),
# SENDER_NAME and SENDER_EMAIL from the sender's git identity (user.name,
# user.email), which must be able to receive mail.
take_as_sender() {
	[[ ${SENDER:-0} == 1 ]] || { [[ ${SENDER:-0} == 0 ]] || die "SENDER must be 0 or 1, not '$SENDER'"; return 0; }
	SENDER_NAME=$(git_tree config --get user.name || true)
	SENDER_EMAIL=$(git_tree config --get user.email || true)
	[[ -n $SENDER_NAME && -n $SENDER_EMAIL ]] ||
		die "SENDER=1 takes the series as yours, but your git identity is not set: git config --global user.name \"Your Name\"; git config --global user.email you@your.domain"
	SENDER_IDENT="$SENDER_NAME <$SENDER_EMAIL>"
	local why
	why=$(b4mail undeliverable "$SENDER_IDENT") ||
		die "SENDER=1, but your git identity cannot receive mail: $why (git config --global user.email you@your.domain)"
	progress send "SENDER=1: the commits go out as $SENDER_IDENT's where the placeholder identity (an address that cannot receive mail) authored or signed them; series/ keeps them as they are"
}

# cover_with_note NAME: the path of series NAME's cover letter as it goes
# out: series/NAME/cover-letter itself, or, with a COVER_NOTE (send.sh's
# accepted cells), a copy in $LOGS (not in b4's worktree, which must stay
# clean) with the note before its closing To:/Cc: lines.  The user's file
# is never changed.
cover_with_note() {
	local src=$SERIES_DIR/$1/cover-letter dst=$LOGS/cover-letter.$1
	if [[ -z ${COVER_NOTE:-} ]]; then
		echo "$src"
		return 0
	fi
	mkdir -p "${dst%/*}" || return 1
	printf '%s\n' "$COVER_NOTE" | "$WS_ROOT/scripts/covers.py" note "$src" >"$dst" || return 1
	echo "$dst"
}

# prep_untouched NAME: b4/NAME is missing, or as the workspace last made
# it.  Otherwise it holds edits made outside the workspace, which making
# it again would lose: stop, naming them, unless FORCE=1.  A branch made
# before the workspace kept its head is taken as made.
prep_untouched() {
	local name=$1 cur made diff
	cur=$(git_tree rev-parse -q --verify "refs/heads/b4/$name") || return 0
	made=$(git_tree rev-parse -q --verify "refs/workspace/b4-made/$name") || return 0
	[[ $cur != "$made" ]] || return 0
	if [[ ${FORCE:-0} == 1 ]]; then
		warn "FORCE=1: branch b4/$name held edits made outside the workspace; they are dropped (git -C $TREE reflog b4/$name keeps ${cur:0:12})"
		return 0
	fi
	diff=$(git_tree range-diff --no-color "$(base_ref "$name")..$made" "$(base_ref "$name")..$cur" 2>/dev/null |
		head -n 40) || diff="(git range-diff could not compare them)"
	printf 'error: branch b4/%s holds edits made outside the workspace (b4 prep --edit-cover, an amended commit):\n' "$name" >&2
	printf '  its head is %s; the workspace made %s.  What differs (git range-diff):\n' "${cur:0:12}" "${made:0:12}" >&2
	printf '    %s\n' "${diff//$'\n'/$'\n'    }" >&2
	printf '  The workspace makes b4/%s again from series/%s/ on every run: carry the edits there\n' "$name" "$name" >&2
	printf '  (the cover letter into series/%s/cover-letter; a commit: edit branch %s, then make export),\n' "$name" "$name" >&2
	printf '  then run this again; or FORCE=1 to drop them.\n' >&2
	exit 1
}

# build_prep_branch NAME REV [notes]: b4/NAME, checked out in the prep
# worktree.  With "notes" (make send), each commit carries the notes under
# the '---' of its patch in series/NAME/ (the per-version history), which
# git am drops at apply time: patch K of the series file for commit K,
# which ensure_applied has made the same patches.
build_prep_branch() {
	local name=$1 rev=$2 with_notes=${3:-} base head id cover coverfile c commit notes i=0
	local -a prefix_list patches commits
	base=$(git_tree rev-parse --verify "$(base_ref "$name")^{commit}")
	head=$(git_tree rev-parse --verify "refs/heads/$name^{commit}")
	if [[ $(git_tree symbolic-ref -q HEAD || true) == "refs/heads/b4/$name" ]]; then
		die "branch b4/$name is checked out in $TREE; the workspace makes it again on every run: check out another branch there"
	fi
	prep_untouched "$name"
	make_change_id "$name"
	id=$(change_id "$name")
	prepare_prep_worktree
	local pfx
	pfx=$(prefixes "$name") || exit 1
	read -ra prefix_list <<<"$pfx"
	coverfile=$(cover_with_note "$name") || die "could not write the cover letter of $name with its note in $LOGS"
	cover=$(b4mail prep-cover "$coverfile" "$rev" "$id" "$(base_ref "$name")" \
		"${prefix_list[@]}" | git_tree commit-tree "$base^{tree}" -p "$base")
	c=$cover
	mapfile -t commits < <(git_tree rev-list --reverse "$base..$head")
	patches=()
	[[ $with_notes != notes ]] || capture patches patch_files "$name"
	if ((${#patches[@]} && ${#patches[@]} != ${#commits[@]})); then
		die "series/$name/series lists ${#patches[@]} patches, but branch $name has ${#commits[@]} commits: run make apply SERIES=$name"
	fi
	for commit in "${commits[@]}"; do
		notes=
		if ((${#patches[@]})); then
			notes=$(b4mail patch-notes "$SERIES_DIR/$name/${patches[i]}") ||
				die "could not read the notes of series/$name/${patches[i]}"
		fi
		c=$(replay_commit "$commit" "$c" "$notes")
		i=$((i + 1))
	done
	git_tree update-ref -m "workspace: b4 prep branch of $name v$rev" "refs/heads/b4/$name" "$c"
	git_tree update-ref "refs/workspace/b4-made/$name" "$c" ||
		die "could not keep the head of b4/$name in refs/workspace/b4-made/$name"
	git_tree config "branch.b4/$name.b4-prep-cover-strategy" commit
	prep_git checkout -q -f "b4/$name"
	progress b4 "$name: prep branch b4/$name, v$rev, $(git_tree rev-list --count "$base..$head") patches on $(base_ref "$name")"
}

# tag_version NAME REV: <name>-v<REV> at the applied branch's head; the
# message names the base, so that reroll can compare against it.
tag_version() {
	local name=$1 rev=$2 base head
	base=$(git_tree rev-parse --verify "$(base_ref "$name")^{commit}")
	head=$(git_tree rev-parse --verify "refs/heads/$name^{commit}")
	printf '%s v%s\n\nbase-commit: %s\n' "$name" "$rev" "$base" |
		git_tree tag -f -a -F - "$(version_tag "$name" "$rev")" "$head" >/dev/null
}

# tagged_base TAG: the base-commit a version tag records.
tagged_base() {
	git_tree cat-file tag "$1" | sed -n 's/^base-commit: //p' | head -n1
}

# was_sent NAME REV: version REV of NAME went out (make send SEND=1 marks
# it in outgoing/, b4 send tags it sent/NAME-vREV).
was_sent() {
	[[ -f $(outgoing_dir "$1" "$2")/sent ]] ||
		git_tree rev-parse -q --verify "refs/tags/sent/$1-v$2" >/dev/null
}

# range_diff NAME OLDREV: git range-diff of v<OLDREV> against the applied
# branch.
range_diff() {
	local name=$1 old=$2 tag base
	tag=$(version_tag "$name" "$old")
	base=$(tagged_base "$tag")
	[[ -n $base ]] || die "tag $tag in $TREE names no base-commit"
	git_tree range-diff --no-color "$base..$tag" "$(base_ref "$name")..refs/heads/$name"
}

# sent_link NAME REV: the lore link of version REV's cover letter, if it was
# sent and b4 recorded its message-id.
sent_link() {
	local f msgid mask
	f=$(outgoing_dir "$1" "$2")/sent
	[[ -f $f ]] || return 0
	msgid=$(sed -n 's/^message-id: *//p' "$f" | tr -d '<>')
	[[ -n $msgid ]] || return 0
	mask=$(git_tree config --get b4.linkmask || echo 'https://lore.kernel.org/r/%s')
	printf '%s\n' "${mask//%s/$msgid}"
}

# write_changelog NAME NEWREV OLDREV: the "Changes in vNEWREV" section of
# series/NAME/cover-letter, with the range-diff against vOLDREV, made or
# brought up to date.  Fails when there was nothing to change.
write_changelog() {
	local name=$1 new=$2 old=$3 cover=$SERIES_DIR/$1/cover-letter
	new_scratch_dir
	range_diff "$name" "$old" >"$SCRATCH/range-diff"
	b4mail changelog "$cover" "$new" "$old" "$SCRATCH/range-diff" "$(sent_link "$name" "$old")" \
		>"$SCRATCH/cover" || die "could not write the changelog into series/$name/cover-letter"
	cmp -s "$SCRATCH/cover" "$cover" && return 1
	write_file "$cover" <"$SCRATCH/cover"
}
