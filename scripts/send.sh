#!/usr/bin/env bash
# send.sh: make send SERIES=<name> [SEND=1].
#
# Turns the applied series into b4's prep branch b4/<name> (scripts/b4.sh):
# the cover letter is series/<name>/cover-letter, the revision
# series/<name>/version.  b4 prep --auto-to-cc adds what get_maintainer.pl
# names to the cover letter's own To:/Cc: lines, and b4 send -o writes
# every message to $WORKDIR/outgoing/<name>-v<N>/; the subjects and
# recipients are listed, and the version is tagged <name>-v<N> in the tree.
#
# Nothing leaves the machine unless SEND=1 is given (to make, on its command
# line; make ignores a SEND in the environment).  Then everything is
# checked first (the cover letter, the series, the SMTP server, that v<N>
# was not sent before, that no address it carries is one that cannot
# receive mail), and b4 send sends through the SMTP server of the
# user's own git config or of b4-config.  A sent version is marked in
# outgoing/<name>-v<N>/sent and is never sent again: make reroll starts the
# next one.
#
# A cover letter that make reroll gave a range-diff gets it brought up to
# date with the series first.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "$0")/lib.sh"
# shellcheck source=scripts/b4.sh
source "$(dirname "$0")/b4.sh"

# SEND=1 sends.  make passes it only from its command line: a SEND in
# make's environment arrives as SEND=0, and as SEND_IGNORED (see Makefile).
SEND=${SEND:-0}

check_send_flag() {
	[[ $SEND == 0 || $SEND == 1 ]] || die "SEND must be 0 (write the messages only) or 1 (send them), not '$SEND'"
	if [[ ${SEND_IGNORED:-0} != 0 ]]; then
		warn "SEND=$SEND_IGNORED in the environment is ignored: only 'make send SERIES=<name> SEND=1' on the command line sends"
	fi
}

refuse_sent_version() {
	local name=$1 rev=$2 f when
	f=$(outgoing_dir "$name" "$rev")/sent
	was_sent "$name" "$rev" || return 0
	when=$(sed -n 's/^sent: //p' "$f" 2>/dev/null || echo "tag sent/$name-v$rev in $TREE")
	die "v$rev of $name was sent already ($when; ${f%/sent}/ keeps its messages): run 'make reroll SERIES=$name' to start v$((rev + 1))"
}

# refresh_changelog NAME REV: the range-diff against v<REV-1> that make
# reroll put into the cover letter, brought up to date with the series.
refresh_changelog() {
	local name=$1 rev=$2 old=$(($2 - 1))
	((old >= 1)) || return 0
	grep -qx "Range-diff against v$old:" "$SERIES_DIR/$name/cover-letter" || return 0
	if ! git_tree rev-parse -q --verify "refs/tags/$(version_tag "$name" "$old")" >/dev/null; then
		warn "series/$name/cover-letter has a range-diff against v$old, but $TREE has no tag $(version_tag "$name" "$old") to bring it up to date"
		return 0
	fi
	if write_changelog "$name" "$rev" "$old"; then
		progress send "$name: series/$name/cover-letter: the range-diff against v$old is up to date with the series again"
	fi
}

# smtp_setting KEY: sendemail.KEY as b4 reads it (b4.sendemail-identity
# picks sendemail.<identity>.KEY first).
smtp_setting() {
	local identity
	identity=$(git_tree config --get b4.sendemail-identity || true)
	if [[ -n $identity ]] && git_tree config --get "sendemail.$identity.$1"; then
		return 0
	fi
	git_tree config --get "sendemail.$1" || true
}

# smtp_origin: where the SMTP server setting comes from, for messages.
smtp_origin() {
	local origin
	origin=$(git_tree config --show-origin --get-regexp '^sendemail\.([^.]+\.)?smtpserver$' | tail -n1 | cut -f1)
	origin=${origin#file:}
	if [[ $origin == *"$B4_GITCONFIG" ]]; then
		echo "$B4_CONFIG ([sendemail] smtpServer, smtpServerPort)"
	else
		echo "${origin:-your git config} (sendemail.smtpServer, sendemail.smtpServerPort)"
	fi
}

check_smtp_configured() {
	[[ -n $(smtp_setting smtpserver) ]] && return 0
	die "SEND=1, but no SMTP server is configured: set sendemail.smtpServer (and sendemail.smtpServerPort, sendemail.smtpEncryption, sendemail.smtpUser) in your git config (git config --global sendemail.smtpServer smtp.example.org) or in the [sendemail] section of $B4_CONFIG. Nothing was sent."
}

check_smtp_reachable() {
	local server
	server=$(smtp_setting smtpserver)
	progress send "checking the SMTP server $server (from $(smtp_origin))"
	b4mail smtp-check "$server" "$(smtp_setting smtpserverport)" "$(smtp_setting smtpencryption)" \
		"SEND=1, $(smtp_origin)" || die "nothing was sent"
}

# The trailers that name a person's identity in the mail (b4 sends to them
# too).  A Cc: trailer names a recipient only.
ADDRESS_TRAILERS="Signed-off-by Co-developed-by Tested-by Reported-by Suggested-by Reviewed-by Acked-by"

# identity_problems NAME: why the messages of series NAME would carry an
# address that cannot receive mail (b4mail undeliverable), one a line: the
# sender's (sendemail.from, else user.email, as b4 takes it), and the
# author and every address trailer ($ADDRESS_TRAILERS) of each commit;
# with SENDER=1 not the author, Signed-off-by and Co-developed-by, which
# the sender takes (replay_commit).
identity_problems() {
	local name=$1 sender addr why format='%ae%n'
	local -A seen=()
	sender=$(smtp_setting from)
	[[ -n $sender ]] || sender=$(git_tree config --get user.email || true)
	if [[ -z $sender ]]; then
		echo "no sender: neither sendemail.from nor user.email is set"
	else
		why=$(b4mail undeliverable "$sender") || echo "the sender (sendemail.from or user.email): $why"
	fi
	local t
	[[ -z ${SENDER_IDENT:-} ]] || format=""
	for t in $ADDRESS_TRAILERS; do
		[[ -z ${SENDER_IDENT:-} || ($t != Signed-off-by && $t != Co-developed-by) ]] || continue
		format+="%(trailers:key=$t,valueonly,unfold)"
	done
	while IFS= read -r addr; do
		addr=${addr%%#*}
		[[ -n ${addr// /} && -z ${seen[$addr]:-} ]] || continue
		seen[$addr]=1
		why=$(b4mail undeliverable "$addr") || echo "a commit's author or trailer: $why"
	done < <(git_tree log --format="$format" "$(base_ref "$name")..refs/heads/$name")
}

# check_identity NAME: SEND=1 refuses to send as, or on behalf of, an
# address that cannot receive mail; without SEND=1 it is a warning.
check_identity() {
	local name=$1 text
	local -a problems
	text=$(identity_problems "$name")
	[[ -n $text ]] || return 0
	mapfile -t problems <<<"$text"
	if [[ $SEND == 1 ]]; then
		printf '  %s\n' "${problems[@]}" >&2
		die "SEND=1, but $name would go out with an address no one can reply to (above). Set your own identity (git config --global user.name \"Your Name\"; git config --global user.email you@your.domain) and send with SENDER=1, which makes the placeholder's authorship and sign-offs yours in what goes out (series/ keeps them), or make each patch carry its real author and your Signed-off-by in make apply's tree, then make export. Nothing was sent."
	fi
	warn "$name carries an address that cannot receive mail; make send SEND=1 will refuse it: ${problems[0]}$( ((${#problems[@]} == 1)) || echo " (and $((${#problems[@]} - 1)) more)")"
}

# refused_by_send WHY: nothing when WHY is empty; else SEND=1 stops, saying
# WHY, and a dry run warns that SEND=1 will.
refused_by_send() {
	[[ -n $1 ]] || return 0
	[[ $SEND != 1 ]] || die "SEND=1, but $1. Nothing was sent."
	warn "make send SEND=1 will refuse this: $1"
}

# check_verified NAME: what the last make decided of series NAME
# (scripts/cells.py gate): SEND=1 refuses a series with a cell that failed,
# never came or verified nothing (untested), unless ACCEPT_UNTESTED names
# it (an architecture, a stage, or stage@arch), and a series make has not
# verified as its branch is now; without SEND=1 each is a warning.  The
# accepted cells go into COVER_NOTE, which the cover letter carries.
COVER_NOTE=""
check_verified() {
	local name=$1 out rc=0 why=""
	local -a refused=()
	out=$(cells gate "$name" "${ACCEPT_UNTESTED:-}") || rc=$?
	case $rc in
	0 | 1) ;;
	3) why="make has not verified $name as its branch is now (no plan of it in $REPORT/plan): run 'make SERIES=$name' first" ;;
	*) die "could not read the cells of $name in $REPORT (scripts/cells.py gate, exit $rc)" ;;
	esac
	if ((rc == 1)); then
		mapfile -t refused < <(sed -n 's/^refused\t//p' <<<"$out")
		printf '  %s
' "${refused[@]}" >&2
		why="${#refused[@]} cell(s) of $name failed or verified nothing (above): fix them, or name the ones you accept with ACCEPT_UNTESTED=<arch|stage|stage@arch>,... (the cover letter then says so)"
	fi
	COVER_NOTE=$(sed -n 's/^accepted\t/  /p' <<<"$out")
	if [[ -n $COVER_NOTE ]]; then
		progress send "$name: accepted with ACCEPT_UNTESTED, and said in the cover letter: $(grep -c . <<<"$COVER_NOTE") cell(s)"
		COVER_NOTE="The workspace's run did not verify these (accepted by the sender):"$'\n'"$COVER_NOTE"
	fi
	refused_by_send "$why"
}

# check_cover_results NAME: the cover letter's results block (make covers,
# scripts/covers.py) is of the branch's head: no figure in the cover is
# older than the commits.  SEND=1 refuses a cover without one or with
# another head's; without SEND=1 it is a warning.
check_cover_results() {
	local name=$1 head said why=""
	head=$(git_tree rev-parse --verify "refs/heads/$name^{commit}")
	said=$("$WS_ROOT/scripts/covers.py" head "$SERIES_DIR/$name/cover-letter") ||
		die "could not read series/$name/cover-letter"
	if [[ -z $said ]]; then
		why="series/$name/cover-letter has no results block: run 'make covers SERIES=$name' after make"
	elif [[ $said != "${head:0:12}" ]]; then
		why="the results block of series/$name/cover-letter is of $said, not of the branch's head ${head:0:12}: run make, then 'make covers SERIES=$name'"
	fi
	refused_by_send "$why"
}

# add_recipients: b4 prep --auto-to-cc: get_maintainer.pl's addresses for
# every patch, added to the cover letter's own To:/Cc: lines.
add_recipients() {
	local name=$1 out
	out=$(run_b4 prep --auto-to-cc 2>&1) || die "b4 prep --auto-to-cc failed for $name:
$out"
	progress send "$name: b4 prep --auto-to-cc added what get_maintainer.pl names to the cover letter's To:/Cc:"
}

# write_messages NAME REV: b4 send -o into outgoing/NAME-vREV/ (replaced
# whole, once b4 succeeded).
write_messages() {
	local name=$1 rev=$2 dir new out
	dir=$(outgoing_dir "$name" "$rev")
	new=$OUTGOING/.${dir##*/}.partial
	LEFTOVERS+=("$new")
	rm -rf "$new"
	mkdir -p "$OUTGOING"
	out=$(
		# Without an SMTP server b4 would pick its web endpoint in a
		# kernel tree, and sign for it: -o only writes files, so name a
		# server that is never run.
		if [[ -z $(smtp_setting smtpserver) ]]; then
			export GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=sendemail.smtpServer GIT_CONFIG_VALUE_0=/bin/false
		fi
		run_b4 send -o "$new" 2>&1
	) || die "b4 send -o failed for $name v$rev:
$out"
	compgen -G "$new/*.eml" >/dev/null || die "b4 send -o wrote no messages for $name v$rev:
$out"
	rm -rf "$dir"
	mv "$new" "$dir"
}

list_messages() {
	local dir=$1
	progress send "$(find "$dir" -name '*.eml' | wc -l) messages in $dir:"
	b4mail summary "$dir"
}

# send_messages NAME REV: b4 send, for real.  b4 asks for Enter before the
# first message; the checks before this one were the workspace's answer.
send_messages() {
	local name=$1 rev=$2 log
	log=$LOGS/send-$name-v$rev.log
	mkdir -p "$LOGS"
	progress send "$name v$rev: b4 send (log: $log)"
	if ! printf '\n' | run_b4 send >"$log" 2>&1; then
		sed 's/^/  /' "$log" >&2
		die "b4 send failed for $name v$rev (above, and in $log): any message it listed before the error went out; v$rev is not marked as sent"
	fi
	# (b4's "Press Enter" prompt ends with no newline.)
	awk '/Connecting to|Sending via/ { on = 1 } on && /^  \[|^Sent /' "$log"
}

# mark_sent NAME REV: outgoing/NAME-vREV/sent, with the cover letter's
# message-id as b4 recorded it.
mark_sent() {
	local name=$1 rev=$2 msgid dir
	dir=$(outgoing_dir "$name" "$rev")
	msgid=$(prep_git log -1 -F --grep='--- b4-submit-tracking ---' --format=%B | b4mail sent-msgid "$rev" || true)
	write_file "$dir/sent" < <(
		echo "sent: $(date -R)"
		echo "smtp: $(smtp_setting smtpserver):$(smtp_setting smtpserverport)"
		[[ -z $msgid ]] || echo "message-id: <$msgid>"
	)
	progress send "$name v$rev was sent${msgid:+ (cover letter <$msgid>)}; $dir/ keeps the messages as b4 wrote them just before (the sent ones differ in Date, Message-Id, In-Reply-To and References)"
}

main() {
	local name rev
	check_send_flag
	name=$(the_series send)
	rev=$(series_version "$name")
	require_tree
	take_lock
	refuse_sent_version "$name" "$rev"
	check_cover "$name"
	install_b4_config
	if [[ $SEND == 1 ]]; then
		check_smtp_configured
		check_smtp_reachable
	fi
	ensure_applied "$name"
	take_as_sender
	check_identity "$name"
	check_verified "$name"
	check_cover_results "$name"
	refresh_changelog "$name" "$rev"
	build_prep_branch "$name" "$rev" notes
	add_recipients "$name"
	write_messages "$name" "$rev"
	tag_version "$name" "$rev"
	list_messages "$(outgoing_dir "$name" "$rev")"
	if [[ $SEND == 0 ]]; then
		progress send "$name v$rev: nothing was sent; 'make send SERIES=$name SEND=1' sends these"
		return 0
	fi
	send_messages "$name" "$rev"
	mark_sent "$name" "$rev"
}

main "$@"
