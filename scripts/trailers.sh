#!/usr/bin/env bash
# trailers.sh: make trailers SERIES=<name> [MBOX=<file>].
#
# Takes the Reviewed-by, Acked-by and Tested-by trailers of the review
# replies in MBOX (a thread saved from lore as an mbox, gzipped or not;
# without MBOX, the thread of the last version sent with make send SEND=1,
# which b4 mbox fetches from lore by its cover letter's message-id: on a
# machine that is offline, that says so and asks for MBOX) and
# puts them on the commits they belong to with b4 trailers -u, on the prep
# branch b4/<name> (scripts/b4.sh): b4 matches a reply to its patch by
# subject, else by patch-id, and puts a reply to the cover letter on every
# patch.  The commits of branch <name> get the new messages (their trees,
# authors and dates stay), and export.sh writes them back into
# series/<name>/.  Replies whose trailers landed nowhere are listed, with
# why.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/b4.sh
source "$(dirname "$0")/b4.sh"

MBOX=${MBOX:-}

# sent_msgid NAME: the cover letter's message-id of the last version of
# NAME that make send SEND=1 sent (outgoing/NAME-vN/sent), and N; nothing
# when none was.
sent_msgid() {
	local name=$1 v msgid
	for ((v = $(series_version "$name"); v >= 1; v--)); do
		msgid=$(sed -n 's/^message-id: <\(.*\)>$/\1/p' "$(outgoing_dir "$name" "$v")/sent" 2>/dev/null | head -n1)
		if [[ -n $msgid ]]; then
			echo "$msgid $v"
			return 0
		fi
	done
}

# fetch_thread NAME: without MBOX, the thread of NAME's last sent version
# from lore (b4 mbox, online), into $TMP/fetched.mbox; MBOX names it.
fetch_thread() {
	local name=$1 msgid v log
	read -r msgid v < <(sent_msgid "$name") || true
	[[ -n ${msgid:-} ]] ||
		die "make trailers needs MBOX=<file> (the thread of $name with its review replies, saved from lore as an mbox): no version of $name was sent with make send SEND=1, so there is no thread to fetch"
	log=$LOGS/trailers-$name-fetch.log
	mkdir -p "$LOGS"
	progress trailers "$name v$v: b4 mbox <$msgid> (the thread from lore; log: $log)"
	if ! (cd "$TMP" && b4 --no-stdin mbox -o "$TMP" -n fetched.mbox "$msgid") >"$log" 2>&1 || [[ ! -s $TMP/fetched.mbox ]]; then
		if grep -qE 'ConnectionError|ProxyError|Name or service not known|Temporary failure in name resolution|Network is unreachable|Connection refused|timed out' "$log"; then
			die "offline: b4 could not reach lore for the thread of $name v$v (<$msgid>; this machine, or its proxy, has no way out: see $log). Save the thread as an mbox where you are online (lore's t.mbox.gz link) and run make trailers SERIES=$name MBOX=<file>"
		fi
		sed 's/^/  /' "$log" >&2
		die "b4 mbox could not fetch the thread of $name v$v (<$msgid>; above, and in $log); make trailers MBOX=<file> takes a saved one"
	fi
	MBOX=$TMP/fetched.mbox
}

# readable_mbox: MBOX, checked, as a plain mbox file in $TMP.
readable_mbox() {
	[[ -n $MBOX ]] || fetch_thread "$1"
	[[ -f $MBOX && -r $MBOX ]] || die "MBOX=$MBOX: no such file"
	if gzip -t "$MBOX" 2>/dev/null; then
		gzip -dc "$MBOX" >"$TMP/mbox"
	else
		cp "$MBOX" "$TMP/mbox"
	fi
	local count
	count=$(b4mail check-mbox "$TMP/mbox" "MBOX=$MBOX") || exit 1
	progress trailers "MBOX=$MBOX: $count messages"
}

# guard_user_checkout NAME: branch NAME is about to get new commits; the
# user's checkout of it must have nothing uncommitted.
guard_user_checkout() {
	if [[ $(git_tree symbolic-ref -q HEAD || true) == "refs/heads/$1" ]] &&
		[[ -n $(git_tree status --porcelain -uno) ]]; then
		die "$TREE has uncommitted changes on branch $1; commit or stash them first"
	fi
}

# commit_messages RANGE: the commit messages of RANGE, oldest first,
# NUL-separated.
commit_messages() {
	git_tree log -z --reverse --format=%B "$1"
}

# update_trailers: b4 trailers -u on the prep branch.
update_trailers() {
	local name=$1 log
	log=$LOGS/trailers-$name.log
	mkdir -p "$LOGS"
	progress trailers "$name: b4 trailers -u (log: $log)"
	if ! run_b4 trailers -u -m "$TMP/mbox" </dev/null >"$log" 2>&1; then
		sed 's/^/  /' "$log" >&2
		die "b4 trailers -u failed on MBOX=$MBOX (above, and in $log); series/$name is unchanged"
	fi
}

# carry_messages NAME: the prep branch's new commit messages onto the
# commits of branch NAME; prints the new head.
carry_messages() {
	local name=$1 base cover parent commit msg i=0
	local -a mine prepped
	base=$(git_tree rev-parse --verify "$(base_ref "$name")^{commit}")
	cover=$(prep_git log -1 -F --grep='--- b4-submit-tracking ---' --format=%H)
	[[ -n $cover ]] || die "b4 trailers left no cover letter commit on b4/$name"
	mapfile -t mine < <(git_tree rev-list --reverse "$base..refs/heads/$name")
	mapfile -t prepped < <(prep_git rev-list --reverse "$cover..HEAD")
	((${#mine[@]} == ${#prepped[@]})) ||
		die "b4 trailers left ${#prepped[@]} commits on b4/$name, not ${#mine[@]}"
	parent=$base
	for commit in "${mine[@]}"; do
		[[ $(git_tree rev-parse "$commit^{tree}") == $(git_tree rev-parse "${prepped[i]}^{tree}") ]] ||
			die "b4 trailers changed more than the message of $(git_tree log -1 --format='%h ("%s")' "$commit")"
		msg=$(git_tree cat-file commit "${prepped[i]}" | sed '1,/^$/d'; echo x)
		parent=$(recommit "$commit" "$parent" "${msg%x}")
		i=$((i + 1))
	done
	echo "$parent"
}

# recommit COMMIT PARENT MESSAGE: COMMIT with MESSAGE, on PARENT; author and
# committer, names and dates, stay.
recommit() {
	local commit=$1 parent=$2 message=$3 an ae ad cn ce cd
	IFS=$'\t' read -r an ae ad cn ce cd < <(git_tree log -1 --date=raw \
		--format=$'%an\t%ae\t%ad\t%cn\t%ce\t%cd' "$commit")
	printf '%s' "$message" |
		GIT_AUTHOR_NAME=$an GIT_AUTHOR_EMAIL=$ae GIT_AUTHOR_DATE=$ad \
			GIT_COMMITTER_NAME=$cn GIT_COMMITTER_EMAIL=$ce GIT_COMMITTER_DATE=$cd \
			git -C "$TREE" commit-tree "$commit^{tree}" -p "$parent"
}

# publish NAME HEAD: branch NAME moves to HEAD; the old one is kept under
# refs/workspace/backup/, as apply keeps it.
publish() {
	local name=$1 new=$2 old
	old=$(git_tree rev-parse --verify "refs/heads/$name")
	git_tree update-ref "refs/workspace/backup/$name/$(date +%Y%m%d-%H%M%S)" "$old"
	# Only the messages changed: a checkout of the branch keeps its files
	# and index as they are.
	git_tree update-ref -m "workspace: make trailers" "refs/heads/$name" "$new" "$old"
}

# report_added NAME OLD NEW: the trailers each commit got.
report_added() {
	local name=$1 old=$2 new=$3 base a b subject
	base=$(git_tree rev-parse --verify "$(base_ref "$name")^{commit}")
	paste -d '\n' <(git_tree rev-list --reverse "$base..$old") <(git_tree rev-list --reverse "$base..$new") |
		while read -r a && read -r b; do
			subject=$(git_tree log -1 --format=%s "$b")
			diff <(git_tree log -1 --format=%B "$a") <(git_tree log -1 --format=%B "$b") |
				awk -v s="$subject" '/^> / { print "  " s ": + " substr($0, 3) }' || true
		done
}

main() {
	local name old new
	name=$(the_series trailers)
	require_tree
	take_lock
	new_scratch_dir
	TMP=$SCRATCH
	readable_mbox "$name"
	guard_user_checkout "$name"
	ensure_applied "$name"
	install_b4_config
	build_prep_branch "$name" "$(series_version "$name")"
	update_trailers "$name"
	old=$(git_tree rev-parse --verify "refs/heads/$name")
	new=$(carry_messages "$name")
	if [[ $new == "$old" ]]; then
		progress trailers "$name: no new trailers; series/$name is unchanged"
	else
		publish "$name" "$new"
		SERIES=$name bash "$WS_ROOT/scripts/export.sh"
		progress trailers "$name: new trailers:"
		report_added "$name" "$old" "$new"
	fi
	commit_messages "$(base_ref "$name")..refs/heads/$name" >"$TMP/commits"
	local unmatched
	unmatched=$(b4mail unmatched "$TMP/mbox" "$TMP/commits")
	if [[ -n $unmatched ]]; then
		progress trailers "replies in MBOX=$MBOX whose trailers are on no commit they answer:"
		printf '%s\n' "$unmatched"
	else
		progress trailers "every review trailer in MBOX=$MBOX is on the commits it answers"
	fi
}

main "$@"
