#!/usr/bin/env bats
# make send, make reroll and make trailers (scripts/send.sh, reroll.sh,
# trailers.sh) with the real b4 on the fixture kernel, whose
# scripts/get_maintainer.pl is a stand-in that reads the fixture's
# MAINTAINERS.  Mail goes to a real SMTP server on 127.0.0.1 (Debian's
# python3-aiosmtpd with tests/fixtures/b4/smtp_sink.py), never further.
# tests/fixtures/b4/review.mbox is the thread of series "one" below as it
# was delivered, with review replies added by hand.
# shellcheck disable=SC2154 # $status, $output, $lines are set by bats' run

load helpers

PY=/usr/bin/python3

# setup_file: the fixture tree imported, with series "one", once; each test
# gets a copy.
setup_file() {
	BATS_TEST_TMPDIR=$BATS_FILE_TMPDIR/template
	mkdir -p "$BATS_TEST_TMPDIR"
	setup_workspace
	isolate_user
	sender_identity
	ws import.sh >/dev/null
	make_series one linux-source "drivers/a.c:int a;:fixture: add a" \
		"main.c:int b;:fixture: add b" "doc.txt:text:fixture: add doc"
	# A Cc: trailer of one patch's own: b4 sends that patch (and the cover
	# letter) to Carl too, and no other.
	sed -i '/^Signed-off-by: Ada/i Cc: Carl <carl@example.org>' "$SERIES_DIR/one/0002-fixture-add-b.patch"
	printf '%s\n' "fixture: one series" "" "A fixture series." "" \
		"To: Tom <tom@example.org>" "Cc: list@example.org" >"$SERIES_DIR/one/cover-letter"
	# As after a make that verified the series (make send SEND=1 asks).
	ws apply.sh >/dev/null
	verified one
}

setup() {
	setup_workspace
	isolate_user
	sender_identity
	unset SEND MBOX B4_CONFIG SMTP_PID
	cp -a "$BATS_FILE_TMPDIR/template/work" "$WORKDIR"
	rm -rf "$SERIES_DIR"
	cp -a "$BATS_FILE_TMPDIR/template/series" "$SERIES_DIR"
}

teardown() {
	if [[ -n ${SMTP_PID:-} ]]; then kill "$SMTP_PID" 2>/dev/null || true; fi
}

# smtp_in_git_config: the user's own git config sends through the sink.
smtp_in_git_config() {
	git config --global sendemail.smtpServer 127.0.0.1
	git config --global sendemail.smtpServerPort "$SMTP_PORT"
}

# b4_config_with_server HOST PORT: a copy of b4-config naming that server.
b4_config_with_server() {
	export B4_CONFIG=$BATS_TEST_TMPDIR/b4-config
	cp "$WS/b4-config" "$B4_CONFIG"
	git config -f "$B4_CONFIG" sendemail.smtpServer "$1"
	git config -f "$B4_CONFIG" sendemail.smtpServerPort "$2"
}

# messages FILE|DIR: one line per message of an mbox or of the .eml files in
# a directory: subject|message-id|in-reply-to|references|to|cc|, the
# addresses sorted and comma-separated.
messages() {
	"$PY" - "$1" <<-'EOF'
		import email, email.utils, mailbox, os, sys
		path = sys.argv[1]
		if os.path.isdir(path):
		    msgs = [email.message_from_binary_file(open(os.path.join(path, f), 'rb'))
		            for f in sorted(os.listdir(path)) if f.endswith('.eml')]
		else:
		    msgs = list(mailbox.mbox(path))
		def addrs(m, h):
		    return ','.join(sorted(a for _, a in email.utils.getaddresses(m.get_all(h, []))))
		for m in msgs:
		    print('|'.join([' '.join(str(m['Subject']).split()), m['Message-Id'].strip(),
		                    (m['In-Reply-To'] or '').strip(), (m['References'] or '').strip(),
		                    addrs(m, 'To'), addrs(m, 'Cc'), '']))
	EOF
}

# checksum DIR: one hash of every file in DIR but change-id, which the
# first make send that gets as far as b4 adds.
checksum() {
	(cd "$1" && find . -type f ! -name change-id -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum)
}

# review_trailers COMMIT: its Reviewed-by, Acked-by and Tested-by lines.
review_trailers() {
	tree log -1 --format=%B "$1" | grep -E '^(Reviewed|Acked|Tested)-by:' || true
}

# What the fake get_maintainer.pl names for the series (maintainers and
# reviewers in To, lists in Cc), the cover letter's own To/Cc, the sender
# (Signed-off-by) and, on patch 2 and the cover letter only, Carl.
TO=dan@example.org,mia@example.org,rita@example.org,tom@example.org
CC=ada@ada-author.org,core@lists.example.org,drivers@lists.example.org,fixture-kernel@lists.example.org,list@example.org
CC_CARL=ada@ada-author.org,carl@example.org,core@lists.example.org,drivers@lists.example.org,fixture-kernel@lists.example.org,list@example.org

@test "SEND=1 delivers every message, threaded, to b4's To/Cc, and git am of them gives the series' trees" {
	start_smtp
	smtp_in_git_config
	# The user's own SMTP server wins over b4-config's.
	b4_config_with_server 127.0.0.1 "$(free_port)"
	# A cover letter b4 would refuse stops SEND=1 before anything goes out.
	cp "$SERIES_DIR/one/cover-letter" "$BATS_TEST_TMPDIR/cover"
	sed -i 's/^A fixture series\.$/EDITME: describe the purpose of this series./' "$SERIES_DIR/one/cover-letter"
	SERIES=one SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/cover-letter: line 3 still holds b4's EDITME placeholder"* ]]
	[ ! -e "$SINK/mbox" ]
	cp "$BATS_TEST_TMPDIR/cover" "$SERIES_DIR/one/cover-letter"

	SERIES=one SEND=1 run ws send.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"[PATCH 2/3] fixture: add b"* ]]
	[[ $output == *"Sent 4 messages"* ]]
	[ -f "$WORKDIR/outgoing/one-v1/sent" ]

	# Every message arrived once, in order, threaded under the cover letter.
	run messages "$SINK/mbox"
	printf '%s\n' "${lines[@]}"
	[ "${#lines[@]}" -eq 4 ]
	IFS='|' read -r subject cover irt refs to cc _ <<<"${lines[0]}"
	[ "$subject" = "[PATCH 0/3] fixture: one series" ]
	[ -z "$irt" ]
	[ -z "$refs" ]
	[ "$to" = "$TO" ]
	[ "$cc" = "$CC_CARL" ]
	local k expect_cc
	for k in 1 2 3; do
		IFS='|' read -r subject msgid irt refs to cc _ <<<"${lines[k]}"
		[[ $subject == "[PATCH $k/3] fixture: add "* ]]
		[ "$irt" = "$cover" ]
		[ "$refs" = "$cover" ]
		[ "$msgid" != "$cover" ]
		expect_cc=$CC
		[ "$k" -ne 2 ] || expect_cc=$CC_CARL
		[ "$to" = "$TO" ]
		[ "$cc" = "$expect_cc" ]
	done
	# The envelope went to exactly the To and Cc of each message.
	received=$(messages "$SINK/mbox")
	[ "$(wc -l <"$SINK/envelopes")" -eq 4 ]
	while IFS=$'\t' read -r msgid from rcpts; do
		[ "$from" = "$ADA" ]
		line=$(grep -F "|$msgid|" <<<"$received")
		IFS='|' read -r _ _ _ _ to cc _ <<<"$line"
		[ "$(tr ' ' '\n' <<<"$rcpts" | sort -u | paste -sd,)" = "$(tr ',' '\n' <<<"$to,$cc" | sort -u | paste -sd,)" ]
	done <"$SINK/envelopes"
	# What was sent is what make send wrote and listed, recipients and all.
	diff <(messages "$SINK/mbox" | cut -d'|' -f1,5,6) <(messages "$WORKDIR/outgoing/one-v1" | cut -d'|' -f1,5,6)

	# git am of the three patches onto the base gives the tested commits'
	# trees, one by one.
	git clone -q "$WORKDIR/linux" "$BATS_TEST_TMPDIR/rt"
	git -C "$BATS_TEST_TMPDIR/rt" checkout -q --detach origin/linux-source
	mkdir "$BATS_TEST_TMPDIR/split"
	git -C "$BATS_TEST_TMPDIR/rt" mailsplit -o"$BATS_TEST_TMPDIR/split" "$SINK/mbox" >/dev/null
	git -C "$BATS_TEST_TMPDIR/rt" am -q "$BATS_TEST_TMPDIR"/split/000{2,3,4}
	diff <(git -C "$BATS_TEST_TMPDIR/rt" log --reverse --format='%T %s' origin/linux-source..HEAD) \
		<(tree log --reverse --format='%T %s' linux-source..one)
	[ "$(git -C "$BATS_TEST_TMPDIR/rt" rev-parse 'HEAD^{tree}')" = "$(tree rev-parse 'one^{tree}')" ]

	# v1 went out: it is not sent again.
	SERIES=one SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"v1 of one was sent already"*"make reroll SERIES=one"* ]]
	[ "$(messages "$SINK/mbox" | wc -l)" -eq 4 ]
}

@test "trailers puts each reply's trailers on its commit, a cover letter reply on all, and names the replies it could not place" {
	ws apply.sh >/dev/null
	before=$(checksum "$SERIES_DIR/one")
	trees=$(tree log --format='%T %an %ae %ad %cn %ce %cd' linux-source..one)
	SERIES=one MBOX="$FIXTURES/b4/review.mbox" run ws trailers.sh
	echo "$output"
	[ "$status" -eq 0 ]
	mapfile -t commits < <(tree rev-list --reverse linux-source..one)
	[ "${#commits[@]}" -eq 3 ]
	[ "$(review_trailers "${commits[0]}")" = "Reviewed-by: Rita Reviewer <rita@example.org>
Reviewed-by: Dan Driver <dan@example.org>" ]
	[ "$(review_trailers "${commits[1]}")" = "Acked-by: Mia Maintainer <mia@example.org>
Tested-by: Mia Maintainer <mia@example.org>
Reviewed-by: Dan Driver <dan@example.org>" ]
	[ "$(review_trailers "${commits[2]}")" = "Reviewed-by: Dan Driver <dan@example.org>" ]
	# Nothing else changed: trees, authors, committers, dates, the rest of
	# the messages.
	[ "$(tree log --format='%T %an %ae %ad %cn %ce %cd' linux-source..one)" = "$trees" ]
	for c in "${commits[@]}"; do
		tree log -1 --format=%B "$c" | grep -q "^Signed-off-by: Ada Author <$ADA>$"
	done
	[ "$(tree log -1 --format=%B "${commits[1]}" | grep -c '^Cc: Carl <carl@example.org>$')" -eq 1 ]
	tree for-each-ref refs/workspace/backup/one | grep -q .
	# Exported: the patches in series/one carry them, the old ones are kept.
	[ "$(checksum "$SERIES_DIR/one")" != "$before" ]
	grep -qx "Reviewed-by: Rita Reviewer <rita@example.org>" "$SERIES_DIR/one/0001-fixture-add-a.patch"
	[ "$(grep -c "rita@example.org" "$SERIES_DIR/one/0003-fixture-add-doc.patch")" -eq 0 ]
	ls "$WORKDIR"/backup/one-*/0001-fixture-add-a.patch
	# Quoted trailers and a reply without any are not taken.
	[ "$(tree log --format=%B linux-source..one | grep -cE 'quoted@|tom@|eve@|colin@')" -eq 0 ]
	# The replies it could not place are named, with why.
	[[ $output == *"Eve, Re: [PATCH 4/3] fixture: add e: Reviewed-by: Eve <eve@example.org>: it answers a message that is not in the mbox"* ]]
	[[ $output == *"Carl, Re: [PATCH 3/3] fixture: add doc: Tested-by: Colin Colleague <colin@example.org>"*"not the sender's"* ]]
	# The branch and series/one agree again.
	SERIES=one run ws apply.sh
	[[ $output == *"up to date"* ]]
}

@test "reroll starts v2 with the range-diff under its changelog heading; v1's messages stay; nothing is sent without SEND=1" {
	start_smtp
	smtp_in_git_config
	SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
	[[ $output == *"nothing was sent"* ]]
	[ "$(find "$WORKDIR/outgoing/one-v1" -name '*.eml' | wc -l)" -eq 4 ]
	v1=$(checksum "$WORKDIR/outgoing/one-v1")
	# The author edits the second commit in the tree and exports it.
	tree checkout -q one
	GIT_SEQUENCE_EDITOR="sed -i '2s/^pick/edit/'" git -C "$WORKDIR/linux" rebase -q -i linux-source
	echo "int b2;" >>"$WORKDIR/linux/main.c"
	tree commit -q -a --amend --no-edit
	GIT_EDITOR=true git -C "$WORKDIR/linux" rebase --continue >/dev/null
	ws export.sh >/dev/null

	SERIES=one run ws reroll.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[ "$(cat "$SERIES_DIR/one/version")" = 2 ]
	cover=$SERIES_DIR/one/cover-letter
	grep -qx "Changes in v2" "$cover"
	grep -qx "Range-diff against v1:" "$cover"
	grep -qE '^1: +[0-9a-f]+ = 1: +[0-9a-f]+ fixture: add a$' "$cover"
	grep -qE '^2: +[0-9a-f]+ ! 2: +[0-9a-f]+ fixture: add b$' "$cover"
	grep -qE '^ +\+\+int b2;$' "$cover"
	grep -qE '^3: +[0-9a-f]+ = 3: +[0-9a-f]+ fixture: add doc$' "$cover"
	# The heading comes before the To:/Cc: lines, which stay last.
	[ "$(tail -n2 "$cover" | head -n1)" = "To: Tom <tom@example.org>" ]

	# The prose is the author's: until it is written, nothing goes out.
	SERIES=one run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/cover-letter: line "*"EDITME"* ]]
	[ ! -d "$WORKDIR/outgoing/one-v2" ]
	sed -i 's/^EDITME: what changed since v1.*/v2 declares b2 as well./' "$cover"
	SERIES=one run ws send.sh
	echo "$output"
	[ "$status" -eq 0 ]
	[[ $output == *"[PATCH v2 2/3] fixture: add b"* ]]
	run messages "$WORKDIR/outgoing/one-v2"
	[ "${#lines[@]}" -eq 4 ]
	[[ ${lines[0]} == "[PATCH v2 0/3] fixture: one series|"* ]]
	[[ ${lines[3]} == "[PATCH v2 3/3] fixture: add doc|"* ]]
	grep -q "v2 declares b2 as well." "$WORKDIR"/outgoing/one-v2/0000-*.eml
	grep -q "^Range-diff against v1:" "$WORKDIR"/outgoing/one-v2/0000-*.eml
	# v1's messages are as they were, and the sink got nothing at all.
	[ "$(checksum "$WORKDIR/outgoing/one-v1")" = "$v1" ]
	[ ! -e "$SINK/mbox" ]
	tree rev-parse -q --verify refs/tags/one-v1 >/dev/null
	tree rev-parse -q --verify refs/tags/one-v2 >/dev/null
}

@test "bad input is named, and leaves series/ and the tree as they were" {
	before=$(checksum "$SERIES_DIR")
	run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"make send works on one series: make send SERIES=<name>"*"  one"* ]]
	SERIES=nope run ws trailers.sh
	[ "$status" -ne 0 ]
	[[ $output == *'unknown series "nope"'*"  one"* ]]
	SERIES=one SEND=yes run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"SEND must be 0"* ]]

	# Mailboxes: missing, not an mbox, an mbox of patches that never were mail.
	SERIES=one run ws trailers.sh
	[[ $output == *"make trailers needs MBOX=<file>"* ]]
	SERIES=one MBOX=$BATS_TEST_TMPDIR/none run ws trailers.sh
	[[ $output == *"MBOX=$BATS_TEST_TMPDIR/none: no such file"* ]]
	printf 'Reviewed-by: Rita Reviewer <rita@example.org>\n' >"$BATS_TEST_TMPDIR/bad.mbox"
	SERIES=one MBOX=$BATS_TEST_TMPDIR/bad.mbox run ws trailers.sh
	[ "$status" -ne 0 ]
	[[ $output == *"MBOX=$BATS_TEST_TMPDIR/bad.mbox is not an mbox"* ]]
	cat "$SERIES_DIR"/one/0001-*.patch >"$BATS_TEST_TMPDIR/patch.mbox"
	SERIES=one MBOX=$BATS_TEST_TMPDIR/patch.mbox run ws trailers.sh
	[ "$status" -ne 0 ]
	[[ $output == *"MBOX=$BATS_TEST_TMPDIR/patch.mbox: message 1 "*"has no Message-ID header"* ]]

	# SEND=1 without an SMTP server anywhere.
	SERIES=one SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"no SMTP server is configured: set sendemail.smtpServer"*"b4-config"*"Nothing was sent"* ]]
	[ ! -d "$WORKDIR/outgoing/one-v1" ]

	# A cover letter b4 cannot use.
	cp "$SERIES_DIR/one/cover-letter" "$BATS_TEST_TMPDIR/cover"
	printf '%s\n' "EDITME: cover title for one" "" "EDITME: describe the purpose of this series." \
		>"$SERIES_DIR/one/cover-letter"
	SERIES=one run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/cover-letter: line 1 still holds b4's EDITME placeholder"* ]]
	[[ $output == *"series/one/cover-letter: line 3 still holds b4's EDITME placeholder"* ]]
	printf '%s\n' "fixture: one" "" "Text." "" "To: a@example.org, b@example.org" >"$SERIES_DIR/one/cover-letter"
	SERIES=one run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *'"To: a@example.org, b@example.org" must name exactly one address'* ]]
	rm "$SERIES_DIR/one/cover-letter"
	SERIES=one run ws send.sh
	[[ $output == *"series/one/cover-letter is missing"* ]]
	cp "$BATS_TEST_TMPDIR/cover" "$SERIES_DIR/one/cover-letter"
	echo "two" >"$SERIES_DIR/one/version"
	SERIES=one run ws send.sh
	[[ $output == *"series/one/version must hold the revision number"* ]]
	rm "$SERIES_DIR/one/version"

	# reroll of a version that was never prepared.
	SERIES=one run ws reroll.sh
	[ "$status" -ne 0 ]
	[[ $output == *"there is no v1 of one to start v2 from: make send SERIES=one"* ]]
	[ "$(checksum "$SERIES_DIR")" = "$before" ]
}

@test "an SMTP server that does not answer stops SEND=1 before anything else" {
	b4_config_with_server 127.0.0.1 "$(free_port)"
	before=$(checksum "$SERIES_DIR/one")
	SERIES=one SEND=1 run ws send.sh
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"SEND=1, $B4_CONFIG ([sendemail] smtpServer, smtpServerPort): cannot reach the SMTP server 127.0.0.1:"* ]]
	[[ $output == *"nothing was sent"* ]]
	# It is the first thing checked, before any work.
	[[ $output != *"b4 "* ]]
	[ ! -d "$WORKDIR/outgoing" ]
	[ "$(checksum "$SERIES_DIR/one")" = "$before" ]
}

@test "Ctrl-C in make trailers leaves the series and the branch as they were, and the next run works" {
	# A b4 that is slow to update the trailers, so that Ctrl-C finds it busy.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	cat >"$BATS_TEST_TMPDIR/bin/b4" <<-EOF
		#!/bin/sh
		case "\$*" in *trailers*) touch "$BATS_TEST_TMPDIR/busy"; sleep 30 ;; esac
		exec /usr/bin/b4 "\$@"
	EOF
	chmod +x "$BATS_TEST_TMPDIR/bin/b4"
	ws apply.sh >/dev/null
	tree checkout -q one
	before=$(checksum "$SERIES_DIR/one")
	head=$(tree rev-parse one)
	PATH=$BATS_TEST_TMPDIR/bin:$PATH SERIES=one MBOX=$FIXTURES/b4/review.mbox \
		setsid "$FIXTURES/default-sigint" bash "$WS/scripts/trailers.sh" >"$BATS_TEST_TMPDIR/out" 2>&1 &
	pid=$!
	for _ in $(seq 1 300); do
		[ -e "$BATS_TEST_TMPDIR/busy" ] && break
		sleep 0.1
	done
	[ -e "$BATS_TEST_TMPDIR/busy" ]
	kill -INT -- -"$pid"
	wait "$pid" || true
	cat "$BATS_TEST_TMPDIR/out"
	[ "$(checksum "$SERIES_DIR/one")" = "$before" ]
	[ "$(tree rev-parse one)" = "$head" ]
	[ "$(tree symbolic-ref HEAD)" = refs/heads/one ]
	[ -z "$(tree status --porcelain)" ]
	SERIES=one MBOX=$FIXTURES/b4/review.mbox run ws trailers.sh
	[ "$status" -eq 0 ]
	[ "$(review_trailers one)" = "Reviewed-by: Dan Driver <dan@example.org>" ]
}

@test "SEND=1 refuses to send as an address that cannot receive mail, and says how to set one; without SEND=1 it warns" {
	start_smtp
	smtp_in_git_config
	git config --global user.email ada@example.org
	SERIES=one SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"the sender (sendemail.from or user.email): ada@example.org is under example.org, a name reserved for examples (RFC 2606)"* ]]
	[[ $output == *"Set your own identity (git config --global user.name"*"Nothing was sent."* ]]
	[ ! -e "$SINK/mbox" ]
	[ ! -e "$WORKDIR/outgoing/one-v1/sent" ]
	# Without SEND=1 the messages are written, with a warning.
	SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
	[[ $output == *"one carries an address that cannot receive mail; make send SEND=1 will refuse it: the sender"* ]]
	compgen -G "$WORKDIR/outgoing/one-v1/*.eml" >/dev/null
}

@test "SEND=1 refuses a series with a failed or untested cell; ACCEPT_UNTESTED names what it sends anyway, and the cover lists them" {
	start_smtp
	smtp_in_git_config
	# shellcheck disable=SC1091 # lib.sh is checked on its own
	source "$WS/scripts/lib.sh"
	record one 2 "$(tree rev-parse one~1)" "fixture: add b" cross untested 0 "0 objects compiled: defconfig builds none" "" sparc64
	record one 2 "$(tree rev-parse one~1)" "fixture: add b" build fail 3 "main.c:1: error: x" "" x86_64
	SERIES=one SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"  [2] "*" cross sparc64: untested: 0 objects compiled"* ]]
	[[ $output == *"  [2] "*" build x86_64: fail: main.c:1: error: x"* ]]
	[[ $output == *"SEND=1, but 2 cell(s) of one failed or verified nothing (above)"*"ACCEPT_UNTESTED="*"Nothing was sent."* ]]
	[ ! -e "$SINK/mbox" ]
	# Without SEND=1: the messages, and a warning.
	SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
	[[ $output == *"make send SEND=1 will refuse this: 2 cell(s) of one"* ]]
	# Accepted by name: sent, and the cover letter says which.
	SERIES=one SEND=1 ACCEPT_UNTESTED=sparc64,build@x86_64 run ws send.sh
	[ "$status" -eq 0 ]
	[[ $output == *"accepted with ACCEPT_UNTESTED, and said in the cover letter: 2 cell(s)"* ]]
	messages "$SINK/mbox" | grep -q '^\[PATCH 0/3\]'
	grep -q "^The workspace's run did not verify these (accepted by the sender):" "$SINK/mbox"
	grep -qF "cross sparc64: untested: 0 objects compiled" "$SINK/mbox"
	# series/one/cover-letter itself is as it was.
	if grep -q "did not verify" "$SERIES_DIR/one/cover-letter"; then false; fi
}

@test "SEND=1 without a make that verified the series refuses, saying to run make" {
	start_smtp
	smtp_in_git_config
	rm -rf "$WORKDIR/report/plan"
	SERIES=one SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"SEND=1, but make has not verified one as its branch is now"*"run 'make SERIES=one' first. Nothing was sent."* ]]
	[ ! -e "$SINK/mbox" ]
}

@test "SEND=1 refuses a series whose author or Signed-off-by cannot receive mail, naming it" {
	start_smtp
	smtp_in_git_config
	GIT_AUTHOR_EMAIL=bot@build.invalid make_series two linux-source "b.c:int b;:fixture: add b"
	printf '%s\n' "fixture: two" "" "A series by a bot." "" "To: Tom <tom@example.org>" >"$SERIES_DIR/two/cover-letter"
	SERIES=two SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"a commit's author or trailer: bot@build.invalid is under .invalid"* ]]
	[[ $output == *"Nothing was sent."* ]]
	[ ! -e "$SINK/mbox" ]
}

@test "SEND=1 refuses a Co-developed-by, Tested-by, Reported-by or Suggested-by that cannot receive mail, and a non-ASCII address" {
	start_smtp
	smtp_in_git_config
	make_series two linux-source "b.c:int b;:fixture: add b"
	local two=("$SERIES_DIR"/two/*.patch) t
	for t in "Co-developed-by: Bo <bo@co.EXAMPLE>" "Tested-by: T <t@ci.test>" "Reported-by: R <r@box.local>" \
		"Suggested-by: S <s@x.invalid>" "Reviewed-by: U <u@bücher.de>" "Tested-by: G <root@localhost.localdomain>"; do
		sed -i "/^Signed-off-by: Ada/i $t" "${two[0]}"
	done
	printf '%s\n' "fixture: two" "" "A series." "" "To: Tom <tom@example.org>" >"$SERIES_DIR/two/cover-letter"
	SERIES=two SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	local a
	for a in bo@co.EXAMPLE t@ci.test r@box.local s@x.invalid "u@bücher.de is not all ASCII" root@localhost.localdomain; do
		[[ $output == *"a commit's author or trailer: $a"* ]] || { echo "not named: $a"; false; }
	done
	[[ $output != *Traceback* ]]
	[ ! -e "$SINK/mbox" ]
}

@test "SENDER=1 sends the placeholder's patches as the sender's: its authorship and sign-offs become the sender's, others' stay, series/ is unchanged" {
	start_smtp
	smtp_in_git_config
	# The placeholder authored and signed both; the second is ported work
	# of Walt's, which keeps him as its author and his sign-off.
	GIT_AUTHOR_NAME=Placeholder GIT_AUTHOR_EMAIL=p@seed.example GIT_COMMITTER_NAME=Placeholder \
		GIT_COMMITTER_EMAIL=p@seed.example make_series two linux-source "c.c:int c;:fixture: add c" \
		"d.c:int d;:fixture: add d"
	local two=("$SERIES_DIR"/two/*.patch)
	sed -i -e 's/^From: Placeholder <p@seed.example>/From: Walt <walt@walt-dev.org>/' \
		-e '/^Signed-off-by: Placeholder/i Signed-off-by: Walt <walt@walt-dev.org>' \
		-e '/^Signed-off-by: Placeholder/i [p@seed.example: ported to this tree]' "${two[1]}"
	printf '%s\n' "fixture: two" "" "A series." "" "To: Tom <tom@example.org>" >"$SERIES_DIR/two/cover-letter"
	ws apply.sh >/dev/null
	verified two
	local before
	before=$(checksum "$SERIES_DIR/two")
	# Without SENDER=1, SEND=1 refuses the placeholder, and names SENDER=1.
	SERIES=two SEND=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"a commit's author or trailer: p@seed.example is under .example"*"send with SENDER=1"* ]]
	[ ! -e "$SINK/mbox" ]
	# A sender whose own address cannot receive mail cannot take it.
	git config --global user.name "Jane Sender"
	git config --global user.email jane@sender.example
	SERIES=two SEND=1 SENDER=1 run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"SENDER=1, but your git identity cannot receive mail: jane@sender.example is under .example"* ]]
	[ ! -e "$SINK/mbox" ]
	git config --global user.email jane@sender-mail.org
	SERIES=two SEND=1 SENDER=1 run ws send.sh
	[ "$status" -eq 0 ]
	[[ $output == *'SENDER=1, "fixture: add c": Signed-off-by: Placeholder <p@seed.example> -> Jane Sender <jane@sender-mail.org>; author: Placeholder <p@seed.example> -> Jane Sender <jane@sender-mail.org>'* ]]
	[[ $output == *'SENDER=1, "fixture: add d": [p@seed.example: ...] -> [jane@sender-mail.org: ...]; Signed-off-by: Placeholder <p@seed.example> -> Jane Sender <jane@sender-mail.org>'* ]]
	[[ $output != *'"fixture: add d": '*'author:'* ]]
	# What went out: no placeholder; patch 1 the sender's, patch 2 Walt's
	# with Walt's sign-off, then the sender's.
	if grep -q 'seed.example' "$SINK/mbox"; then false; fi
	"$PY" - "$SINK/mbox" <<-'EOF'
		import mailbox, sys
		msgs = {str(m['Subject']).split('] ', 1)[1].strip(): m for m in mailbox.mbox(sys.argv[1])}
		one, two = msgs['fixture: add c'], msgs['fixture: add d']
		jane = 'Jane Sender <jane@sender-mail.org>'
		assert jane in str(one['From']), one['From']
		body1, body2 = one.get_payload(), two.get_payload()
		assert 'From: Walt' not in body1 and f'Signed-off-by: {jane}' in body1, body1
		assert body2.startswith('From: Walt <walt@walt-dev.org>'), body2
		assert (f'Signed-off-by: Walt <walt@walt-dev.org>\n[jane@sender-mail.org: ported to this tree]\n'
		        f'Signed-off-by: {jane}\n') in body2, body2
	EOF
	# series/two keeps the placeholder.
	[ "$(checksum "$SERIES_DIR/two")" = "$before" ]
	grep -q '^Signed-off-by: Placeholder <p@seed.example>' "${two[0]}"
}

@test "series/<name>/prefixes puts its subject prefixes on every message; a bad one is named" {
	printf '%s\n' "# an RFC, for now" "RFC" >"$SERIES_DIR/one/prefixes"
	SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
	messages "$WORKDIR/outgoing/one-v1" | cut -d'|' -f1 >"$BATS_TEST_TMPDIR/subjects"
	grep -qx '\[PATCH RFC 0/3\] fixture: one series' "$BATS_TEST_TMPDIR/subjects"
	grep -qx '\[PATCH RFC 1/3\] fixture: add a' "$BATS_TEST_TMPDIR/subjects"
	[ "$(grep -c '^\[PATCH RFC ' "$BATS_TEST_TMPDIR/subjects")" -eq 4 ]
	printf '%s\n' 'RFC; rm -rf /' >"$SERIES_DIR/one/prefixes"
	SERIES=one run ws send.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/prefixes: subject prefixes are words of letters, digits"* ]]
}

@test "send puts the notes under a patch's '---' (its history) under the mail's '---', and git am leaves them out" {
	local p=$SERIES_DIR/one/0001-fixture-add-a.patch msg
	sed -i '0,/^---$/s//---\nv2: a note for the reviewers only./' "$p"
	SERIES=one run ws send.sh
	echo "$output"
	[ "$status" -eq 0 ]
	msg=$(grep -l '^Subject: \[PATCH 1/3\]' "$WORKDIR"/outgoing/one-v1/*.eml)
	# The body: the message, '---', the note, '---', the diffstat.
	awk '/^---$/ { n++; next } n == 1 && /^v2: a note for the reviewers only\.$/ { ok = 1 } END { exit !(ok && n >= 2) }' "$msg"
	# What git am makes of the mail is the commit the branch has.
	git clone -q "$WORKDIR/linux" "$BATS_TEST_TMPDIR/rt"
	git -C "$BATS_TEST_TMPDIR/rt" checkout -q --detach origin/linux-source
	git -C "$BATS_TEST_TMPDIR/rt" am -q "$msg"
	[ "$(git -C "$BATS_TEST_TMPDIR/rt" log -1 --format=%B)" = "$(tree log -1 --format=%B "one~2")" ]
	[ "$(tree log --format=%B linux-source..one | grep -c 'a note for the reviewers')" -eq 0 ]
}

@test "a cover letter whose first line has Subject:, a [PATCH] prefix or a byte-order mark is refused, naming the line" {
	local first
	for first in "Subject: fixture: one series" "[PATCH] fixture: one series" $'\ufefffixture: one series'; do
		printf '%s\n' "$first" "" "A fixture series." "" "To: Tom <tom@example.org>" >"$SERIES_DIR/one/cover-letter"
		SERIES=one run ws send.sh
		[ "$status" -ne 0 ]
		[[ $output == *"series/one/cover-letter: line 1 "* ]] || { echo "not refused: $first"; false; }
		[ ! -d "$WORKDIR/outgoing/one-v1" ]
	done
}

@test "an edit made in the prep branch b4/<name> is not lost: send refuses, naming it, and FORCE=1 drops it" {
	SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
	# As b4 prep --edit-cover or an amend in b4's worktree would.
	git -C "$WORKDIR/b4" commit -q --amend -m "fixture: add doc (edited in b4/one)"
	local before
	before=$(checksum "$SERIES_DIR")
	SERIES=one run ws send.sh
	echo "$output"
	[ "$status" -eq 1 ]
	[[ $output == *"error: branch b4/one holds edits made outside the workspace"* ]]
	[[ $output == *"fixture: add doc (edited in b4/one)"* ]]
	[[ $output == *"or FORCE=1 to drop them"* ]]
	[ "$(checksum "$SERIES_DIR")" = "$before" ]
	[ "$(tree log -1 --format=%s b4/one)" = "fixture: add doc (edited in b4/one)" ]
	FORCE=1 SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
	[[ $output == *"FORCE=1: branch b4/one held edits made outside the workspace; they are dropped"* ]]
	[ "$(tree log -1 --format=%s b4/one)" = "fixture: add doc" ]
	SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
}

@test "trailers without MBOX fetches the thread of the last version sent, and says plainly when the machine is offline" {
	local before
	before=$(checksum "$SERIES_DIR")
	SERIES=one run ws trailers.sh
	[ "$status" -ne 0 ]
	[[ $output == *"make trailers needs MBOX=<file>"*"no version of one was sent with make send SEND=1"* ]]
	# As make send SEND=1 leaves it: the cover letter's message-id.
	mkdir -p "$WORKDIR/outgoing/one-v1"
	printf '%s\n' "sent: Sun, 06 Dec 2026 05:00:00 +0000" "message-id: <20261206050000.1-one-v1@example.org>" \
		>"$WORKDIR/outgoing/one-v1/sent"
	# No way out, whatever network this machine has: a proxy that refuses.
	https_proxy=http://127.0.0.1:9 http_proxy=http://127.0.0.1:9 SERIES=one run ws trailers.sh
	echo "$output"
	[ "$status" -ne 0 ]
	[[ $output == *"b4 mbox <20261206050000.1-one-v1@example.org>"* ]]
	[[ $output == *"offline: b4 could not reach lore for the thread of one v1"*"make trailers SERIES=one MBOX=<file>"* ]]
	[ "$(checksum "$SERIES_DIR")" = "$before" ]
}

@test "make covers writes the results block from the run, before the To:/Cc: lines; make send refuses a cover of another head" {
	local cover=$SERIES_DIR/one/cover-letter head
	head=$(tree rev-parse --short=12 one)
	# verified (setup_file) ran make covers once.
	[ "$(grep -c "^\[results of the workspace's run: make covers writes this block; do not edit it\]$" "$cover")" -eq 1 ]
	grep -qx "Head $head, as the workspace's last run verified it:" "$cover"
	grep -q '^  1/3 x86-64 build: pass; its objects compiled on x86_64: pass; x86-64' "$cover"
	# Before the closing To:/Cc: lines, the text above it kept.
	[ "$(sed -n 1p "$cover")" = "fixture: one series" ]
	[ "$(grep -n '^\[end of results\]$' "$cover" | cut -d: -f1)" -lt "$(grep -n '^To: Tom' "$cover" | cut -d: -f1)" ]
	SERIES=one run ws covers.sh
	[ "$status" -eq 0 ]
	[[ $output == *"one: the results block is already the run's"* ]]
	# A run that did not verify every cell of the branch: covers refuses,
	# naming it, and leaves series/ as it was.
	local before
	before=$(checksum "$SERIES_DIR")
	mv "$WORKDIR/report/cells/one" "$BATS_TEST_TMPDIR/cells-one"
	SERIES=one run ws covers.sh
	[ "$status" -ne 0 ]
	[[ $output == *"series/one/cover-letter: "*" planned cell(s) of one never came"*"run make first"* ]]
	[ "$(checksum "$SERIES_DIR")" = "$before" ]
	mv "$BATS_TEST_TMPDIR/cells-one" "$WORKDIR/report/cells/one"
	# A block of another head: the dry run says SEND=1 will refuse it.
	sed -i "s/^Head $head, /Head 0123456789ab, /" "$cover"
	SERIES=one run ws send.sh
	[ "$status" -eq 0 ]
	[[ $output == *"make send SEND=1 will refuse this: the results block of series/one/cover-letter is of 0123456789ab, not of the branch's head $head"* ]]
	SERIES=one run ws covers.sh
	[ "$status" -eq 0 ]
	grep -qx "Head $head, as the workspace's last run verified it:" "$cover"
	SERIES=one run ws send.sh
	[[ $output != *"will refuse this"* ]]
}
