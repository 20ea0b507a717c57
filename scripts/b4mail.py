#!/usr/bin/python3
"""b4mail.py COMMAND ARGS...: the mail and cover-letter work of make send,
make reroll and make trailers (scripts/b4.sh), where bash would have to
parse e-mail.  Uses b4's own parsers (Debian's b4 0.12, in /usr/bin/python3)
so that it reads a cover letter and a thread exactly as b4 does.

Commands (each prints its result on stdout, and problems as "error: ..."
lines on stderr with exit status 1):

  cover-check COVER SHOWN    is COVER usable as b4's cover letter?
  prep-cover COVER REV CHANGE_ID BASE [PREFIX...]
                             the message of b4 prep's cover letter commit
  new-change-id NAME         a b4 change-id for series NAME
  sent-msgid REV             the message-id b4 recorded for vREV, from the
                             cover letter commit message on stdin
  summary DIR                subjects and recipients of the messages in DIR
  smtp-check SERVER PORT ENCRYPTION SHOWN
                             can b4 reach the SMTP server (git send-email's
                             sendemail.smtpServer and its friends)?
  check-mbox MBOX SHOWN      is MBOX an mbox of mail, as saved from lore?
  unmatched MBOX COMMITS     the review trailers in MBOX's replies that are in
                             none of the commit messages (NUL-separated, in
                             the file COMMITS) they belong to
  undeliverable ADDRESS      why ADDRESS ("a@b" or "Name <a@b>") cannot
                             receive mail (a name
                             reserved by RFC 2606 and RFC 6761, such as
                             example.org or .invalid), exit 1; nothing, exit
                             0, when it may
  patch-notes PATCH          the notes under the '---' of PATCH (a file
                             git format-patch wrote), up to its diffstat;
                             nothing when it has none
  take-as SENDER             the commit message on stdin with each
                             Signed-off-by and Co-developed-by whose address
                             cannot receive mail (undeliverable: the
                             project's placeholder) naming SENDER ("Name
                             <a@b>") instead, once; others' untouched.  On
                             stderr, a line per trailer taken
  changelog COVER NEWREV OLDREV RANGE_DIFF [LINK]
                             COVER with a "Changes in vNEWREV" section that
                             holds the range-diff (from the file RANGE_DIFF)
"""

import datetime
import email
import email.policy
import email.utils
import json
import mailbox
import os
import re
import sys
import uuid

# What b4 prep keeps under its cover letter (b4/ez.py, MAGIC_MARKER).
MAGIC_MARKER = '--- b4-submit-tracking ---'
REVIEW_TRAILER = re.compile(r'^\s*((?:reviewed|acked|tested)-by):\s*(.*\S)\s*$', re.I)
CHANGES_HEADING = re.compile(r'^changes in v(\d+)\b', re.I)
RANGE_DIFF_LINE = re.compile(r'^(\s|\d+:\s|-:\s)')
TRAILER_LINE = re.compile(r'^[\w-]+:\s+\S')
# Where the notes under a patch's '---' end: its diffstat, or the diff.
DIFFSTAT_LINE = re.compile(r'^ \S.*\| +(\d+|Bin)|^ \d+ files? changed|^diff --git ')


def fail(*lines):
    for line in lines:
        print(f'error: {line}', file=sys.stderr)
    sys.exit(1)


def warn(line):
    print(f'warning: {line}', file=sys.stderr)


def read_text(path):
    with open(path, encoding='utf-8', errors='replace') as fh:
        return fh.read()


def addresses(value):
    return [pair for pair in email.utils.getaddresses([value]) if '@' in pair[1]]


# ---- identities -------------------------------------------------------------

# Names that never receive mail: RFC 2606's top-level domains and second-level
# example domains, RFC 6761's special-use ones, and mDNS's .local (RFC 6762).
RESERVED_TLDS = ('test', 'example', 'invalid', 'localhost', 'local')
RESERVED_DOMAINS = ('example.com', 'example.net', 'example.org')
# Names that only mean something inside one network, never on the
# Internet's mail: RFC 8375's home.arpa, ICANN's .internal, Tor's .onion
# (RFC 7686), and what hosts and home routers call themselves (git's
# automatic identity on many hosts is user@host.localdomain).
PRIVATE_TLDS = {'internal': "ICANN's private-use top-level domain",
                'onion': 'Tor only (RFC 7686)',
                'lan': 'a local network name, not in the DNS',
                'localdomain': "a host's own name (git's automatic identity), not in the DNS",
                'home': 'a local network name, not in the DNS'}
PRIVATE_DOMAINS = {'home.arpa': 'a home network (RFC 8375)'}


def undeliverable_reason(address):
    """Why ADDRESS ("a@b" or "Name <a@b>") cannot receive mail, or '' when
    it may."""
    address = email.utils.parseaddr(address)[1] or address.strip()
    local, _, domain = address.rpartition('@')
    domain = domain.lower().rstrip('.')
    if not local or not domain:
        return f'{address} is not an e-mail address'
    if not address.isascii():
        try:
            ascii_domain = domain.encode('idna').decode()
        except UnicodeError:
            ascii_domain = ''
        hint = f'; write its domain as {ascii_domain}' if ascii_domain and local.isascii() else ''
        return f'{address} is not all ASCII, which git send-email and b4 cannot put in a header{hint}'
    if '.' not in domain:
        return f'{address} has no domain that mail can reach ({domain})'
    tld = domain.rsplit('.', 1)[1]
    if tld in RESERVED_TLDS:
        rfc = 'RFC 6762, multicast DNS' if tld == 'local' else 'RFC 2606, RFC 6761'
        return f'{address} is under .{tld}, a name reserved so that it never receives mail ({rfc})'
    for reserved in RESERVED_DOMAINS:
        if domain == reserved or domain.endswith('.' + reserved):
            return f'{address} is under {reserved}, a name reserved for examples (RFC 2606)'
    if tld in PRIVATE_TLDS:
        return f'{address} is under .{tld}, {PRIVATE_TLDS[tld]}: no mail from outside reaches it'
    for private, what in PRIVATE_DOMAINS.items():
        if domain == private or domain.endswith('.' + private):
            return f'{address} is under {private}, {what}: no mail from outside reaches it'
    return ''


def undeliverable(address):
    reason = undeliverable_reason(address)
    if reason:
        print(reason)
        sys.exit(1)


# ---- the cover letter -------------------------------------------------------

def cover_check(path, shown):
    """b4 takes the first line as the subject only when the second is empty,
    drops lines starting with '#', refuses to send while 'EDITME' is left,
    and takes one address from each To:/Cc: trailer."""
    text = read_text(path)
    lines = text.splitlines()
    errors = []
    if not text.strip():
        fail(f'{shown} is empty; its first line is the subject of the cover letter')
    if len(lines) < 2 or lines[1].strip() or not lines[0].strip():
        errors.append(f'{shown}: line 1 is the subject and line 2 must be empty '
                      '(b4 would send "(no cover subject)")')
    first = lines[0] if lines else ''
    if first.startswith('\ufeff'):
        errors.append(f'{shown}: line 1 starts with a byte-order mark (U+FEFF), which would open '
                      'the subject of the mail; save the file as UTF-8 without it')
    bare = first.lstrip('\ufeff')
    if bare.lower().startswith('subject:'):
        errors.append(f'{shown}: line 1 is the subject itself, without "Subject:" (the mail '
                      f'would read "[PATCH 0/N] {bare.strip()}"): {first.strip()}')
    elif re.match(r'\s*\[[^]]*PATCH[^]]*\]', bare, re.IGNORECASE):
        errors.append(f'{shown}: line 1 is the subject without its [PATCH ...] prefix, which b4 '
                      f'adds (the mail would read "[PATCH 0/N] {bare.strip()}"): {first.strip()}')
    for num, line in enumerate(lines, 1):
        if line.startswith('#'):
            warn(f'{shown}: line {num} starts with "#", which b4 drops: {line}')
        elif 'EDITME' in line:
            errors.append(f"{shown}: line {num} still holds b4's EDITME placeholder: {line.strip()}")
    kept = '\n'.join(line for line in lines[2:] if not line.startswith('#'))
    import b4
    trailers = b4.LoreMessage.get_body_parts(kept)[2]
    for trailer in trailers:
        if trailer.lname in ('to', 'cc') and len(addresses(trailer.value)) != 1:
            errors.append(f'{shown}: "{trailer.name}: {trailer.value}" must name exactly one '
                          'address (b4 takes one per To:/Cc: line)')
    if errors:
        fail(*errors)


def prep_cover(path, revision, change_id, base, prefixes):
    """The cover letter commit of a b4 prep branch (cover strategy "commit"),
    as b4 0.12's ez.store_cover() and make_magic_json() write it."""
    tracking = {
        'series': {
            'revision': int(revision),
            'change-id': change_id,
            'base-branch': base,
            'prefixes': prefixes,
        },
    }
    cover = read_text(path).strip()
    sys.stdout.write(cover + '\n\n' + MAGIC_MARKER + '\n'
                     '# This section is used internally by b4 prep for tracking purposes.\n'
                     + json.dumps(tracking, indent=2) + '\n')


def new_change_id(name):
    # As b4 prep -n makes them: date, slug, 12 hex digits.
    slug = re.sub(r'\W+', '-', name).strip('-').lower()
    print('%s-%s-%s' % (datetime.date.today().strftime('%Y%m%d'), slug, uuid.uuid4().hex[:12]))


def sent_msgid(revision):
    message = sys.stdin.read()
    if MAGIC_MARKER not in message:
        return
    tracking = json.loads('{' + message.split(MAGIC_MARKER, 1)[1].split('{', 1)[1])
    sent = tracking['series'].get('history', {}).get(f'v{revision}', [])
    if sent:
        print(sent[-1])


# ---- messages -----------------------------------------------------------------

def load_message(path):
    with open(path, 'rb') as fh:
        return email.message_from_binary_file(fh, policy=email.policy.default)


def recipients(msg, header):
    return [email.utils.formataddr(pair) for pair in addresses(', '.join(msg.get_all(header, [])))]


def wrapped(label, addrs, width=100):
    """LABEL and the addresses, wrapped between addresses."""
    lines = [f'      {label}']
    for num, addr in enumerate(addrs or ['(nobody)']):
        item = addr + (',' if num < len(addrs) - 1 else '')
        if len(lines[-1]) + 1 + len(item) > width and lines[-1].strip() != label:
            lines.append(' ' * (6 + len(label)))
        lines[-1] += ' ' + item
    return '\n'.join(lines)


def summary(directory):
    """Each message's subject and recipients; a patch's only where they are
    not the cover letter's."""
    cover = None
    for name in sorted(os.listdir(directory)):
        if not name.endswith('.eml'):
            continue
        msg = load_message(os.path.join(directory, name))
        subject = re.sub(r'\s+', ' ', str(msg.get('Subject', '')))
        tos, ccs = recipients(msg, 'To'), recipients(msg, 'Cc')
        print(f'  {subject}')
        if cover is None:
            cover = (tos, ccs)
            print(wrapped('To:', tos))
            print(wrapped('Cc:', ccs))
            continue
        same = True
        for label, now, was in (('To:', tos, cover[0]), ('Cc:', ccs, cover[1])):
            added = [a for a in now if a not in was]
            left = [a for a in was if a not in now]
            if added:
                print(wrapped(f'{label} +', added))
            if left:
                print(wrapped(f'{label} not', left))
            same = same and not added and not left
        if same:
            print('      To, Cc: as the cover letter')


def smtp_check(server, port, encryption, shown):
    """What b4.get_smtp() does before the first message, and no more."""
    import shlex
    import smtplib
    if '/' in server:
        command = shlex.split(os.path.expanduser(os.path.expandvars(server)))[0]
        if not os.access(command, os.X_OK):
            fail(f'{shown}: {command} is not an executable program')
        return
    try:
        port = int(port or 0)
    except ValueError:
        fail(f'{shown}: the port "{port}" is not a number')
    try:
        if encryption in ('ssl', 'smtps'):
            smtp = smtplib.SMTP_SSL(server, port, timeout=20)
        else:
            smtp = smtplib.SMTP(server, port, timeout=20)
            smtp.ehlo()
            if encryption in ('tls', 'starttls'):
                smtp.starttls()
                smtp.ehlo()
        smtp.noop()
        smtp.quit()
    except (OSError, smtplib.SMTPException) as ex:
        fail(f'{shown}: cannot reach the SMTP server {server}:{port or 25}: {ex}')


def check_mbox(path, shown):
    with open(path, 'rb') as fh:
        data = fh.read()
    if not data.strip():
        fail(f'{shown} is empty')
    first = data.lstrip(b'\r\n').split(b'\n', 1)[0]
    if not first.startswith(b'From '):
        fail(f"{shown} is not an mbox: its first line is not a \"From \" line "
             "(save the thread from lore as an mbox, or with b4 mbox)")
    box = mailbox.mbox(path, create=False)
    count = 0
    problems = []
    for count, msg in enumerate(box, 1):
        missing = [h for h in ('From', 'Subject', 'Message-ID') if not msg.get(h)]
        if missing:
            problems.append(f'{shown}: message {count} ("{msg.get_from()}") has no '
                            f'{", ".join(missing)} header: a broken mbox, or not mail from a list')
    if problems:
        fail(*problems[:5])
    print(count)


def body_of(msg):
    part = msg
    if msg.is_multipart():
        part = next((p for p in msg.walk() if p.get_content_type() == 'text/plain'), None)
        if part is None:
            return ''
    payload = part.get_payload(decode=True) or b''
    return payload.decode(part.get_content_charset() or 'utf-8', errors='replace')


def clean_msgid(value):
    found = re.findall(r'<([^<>]+)>', value or '')
    return found[-1] if found else (value or '').strip().strip('<>')


def parent_id(msg):
    """The message MSG answers: In-Reply-To, else the last of References."""
    replied = clean_msgid(msg.get('In-Reply-To'))
    if replied:
        return replied
    refs = re.findall(r'<([^<>]+)>', str(msg.get('References') or ''))
    return refs[-1] if refs else None


def review_trailers(text):
    """(name, address, line) of each review trailer outside quoted text."""
    found = []
    for line in text.splitlines():
        match = REVIEW_TRAILER.match(line)
        if match:
            found.append((match.group(1).lower(), email.utils.parseaddr(match.group(2))[1].lower(),
                          line.strip()))
    return found


def unmatched(mbox_path, commits_path):
    """Replies whose review trailers are not in the commit they belong to: the
    patch they answer (matched by subject, as b4 does first), or every commit
    for a reply to the cover letter."""
    import b4
    with open(commits_path, encoding='utf-8', errors='replace') as fh:
        commits = [c.strip('\n') for c in fh.read().split('\0') if c.strip()]
    have = {c.split('\n', 1)[0]: {t[:2] for t in review_trailers(c)} for c in commits}
    anywhere = set().union(*have.values()) if have else set()
    box = list(mailbox.mbox(mbox_path, create=False))
    by_msgid = {clean_msgid(m.get('Message-ID')): m for m in box}

    def patch_of(msg):
        seen = set()
        while msg is not None:
            subject = b4.LoreSubject(str(msg.get('Subject', '')))
            if not subject.reply and re.search(r'\[[^]]*PATCH', str(msg.get('Subject', '')), re.I):
                return subject
            parent = parent_id(msg)
            if not parent or parent in seen:
                return None
            seen.add(parent)
            msg = by_msgid.get(parent)
        return None

    for msg in box:
        if not (msg.get('In-Reply-To') or msg.get('References')):
            continue
        trailers = review_trailers(body_of(msg))
        if not trailers:
            continue
        sender = email.utils.parseaddr(str(msg.get('From', '')))
        parent = by_msgid.get(parent_id(msg))
        target = patch_of(parent) if parent is not None else None
        for name, addr, line in trailers:
            if target is None:
                why = 'it answers a message that is not in the mbox, or not a patch'
            elif target.counter == 0:
                missing = [s for s, t in have.items() if (name, addr) not in t]
                if not missing:
                    continue
                why = f'not applied to: {"; ".join(missing)}'
            elif target.subject in have:
                if (name, addr) in have[target.subject]:
                    continue
                why = f'not applied to "{target.subject}"'
            elif (name, addr) in anywhere:
                continue
            else:
                why = f'no commit of the series has the subject "{target.subject}"'
            if target is not None and addr != sender[1].lower():
                why += f' (the address is not the sender\'s, {sender[1]}: b4 trailers -S would take it)'
            print(f'  {sender[0] or sender[1]}, {str(msg.get("Subject", "")).strip()}: {line}: {why}')


# ---- the sender takes the series ---------------------------------------------

TAKEN_TRAILER = re.compile(r'^(Signed-off-by|Co-developed-by):\s*(.*\S)\s*$', re.I)
# A porter's bracketed note, "[address: what changed ...", as between
# sign-offs (Documentation/process/submitting-patches.rst).
PORTER_NOTE = re.compile(r'^\[([^\s:\]]+@[^\s:\]]+): ')


def take_as(sender):
    """make send SENDER=1: the message on stdin with the placeholder's
    sign-offs (every Signed-off-by and Co-developed-by whose address cannot
    receive mail) made SENDER's, and so is each porter's bracketed note
    that such an address opens.  A trailer that would then repeat the line
    just above it is dropped, so the sender signs once there."""
    if undeliverable_reason(sender):
        fail(f'the sender cannot take the series: {undeliverable_reason(sender)}')
        sys.exit(1)
    out = []
    sender_address = email.utils.parseaddr(sender)[1]
    for line in sys.stdin.read().split('\n'):
        note = PORTER_NOTE.match(line)
        if note and undeliverable_reason(note.group(1)):
            print(f'[{note.group(1)}: ...] -> [{sender_address}: ...]', file=sys.stderr)
            line = f'[{sender_address}: ' + line[note.end():]
        m = TAKEN_TRAILER.match(line)
        if m and undeliverable_reason(m.group(2)):
            print(f'{m.group(1)}: {m.group(2)} -> {sender}', file=sys.stderr)
            line = f'{m.group(1)}: {sender}'
            if out and out[-1].lower() == line.lower():
                continue
        out.append(line)
    sys.stdout.write('\n'.join(out))


# ---- the changelog ------------------------------------------------------------

def trailer_block_start(lines):
    """Index of the cover letter's final paragraph if it is all trailers
    (To:, Cc:, Signed-off-by: ...), else len(lines)."""
    end = len(lines)
    while end and not lines[end - 1].strip():
        end -= 1
    start = end
    while start and lines[start - 1].strip():
        start -= 1
    if start < end and all(TRAILER_LINE.match(line) for line in lines[start:end]):
        return start
    return len(lines)


def range_diff_block(lines, start, oldrev):
    """(first, end) of an existing "Range-diff against vOLDREV:" block at or
    after START, or None."""
    head = f'Range-diff against v{oldrev}:'
    for first in range(start, len(lines)):
        if lines[first].strip() == head:
            end = first + 1
            while end < len(lines):
                if RANGE_DIFF_LINE.match(lines[end]):
                    end += 1
                    continue
                # A blank line stays in the block when the block goes on.
                nxt = next((i for i in range(end, len(lines)) if lines[i].strip()), None)
                if not lines[end].strip() and nxt is not None and RANGE_DIFF_LINE.match(lines[nxt]):
                    end = nxt
                    continue
                break
            return first, end
    return None


def changelog(path, newrev, oldrev, range_diff_path, link):
    lines = read_text(path).rstrip('\n').split('\n')
    block = [f'Range-diff against v{oldrev}:'] + read_text(range_diff_path).rstrip('\n').split('\n')
    heading = next((i for i, line in enumerate(lines)
                    if CHANGES_HEADING.match(line) and CHANGES_HEADING.match(line).group(1) == newrev),
                   None)
    if heading is not None:
        found = range_diff_block(lines, heading + 1, oldrev)
        if found:
            lines[found[0]:found[1]] = block
        else:
            end = next((i for i in range(heading + 1, len(lines)) if CHANGES_HEADING.match(lines[i])),
                       trailer_block_start(lines))
            while end > heading + 1 and not lines[end - 1].strip():
                end -= 1
            lines[end:end] = [''] + block + ([''] if end < len(lines) and lines[end].strip() else [])
    else:
        title = f'Changes in v{newrev}'
        section = [title, '-' * len(title), '',
                   f'EDITME: what changed since v{oldrev}, and why (the range-diff below shows how).', '']
        if link:
            section += [f'v{oldrev}: {link}', '']
        section += block + ['']
        at = next((i for i, line in enumerate(lines) if CHANGES_HEADING.match(line)), None)
        if at is None:
            at = trailer_block_start(lines)
            if at == len(lines):
                section = [''] + section[:-1]
        lines[at:at] = section
    sys.stdout.write('\n'.join(lines) + '\n')


def patch_notes(path):
    """Print the lines between PATH's first '---' line and its diffstat,
    without the blank lines around them."""
    lines = read_text(path).split('\n')
    try:
        start = lines.index('---') + 1
    except ValueError:
        return 0
    notes = []
    for line in lines[start:]:
        if DIFFSTAT_LINE.match(line):
            break
        notes.append(line)
    text = '\n'.join(notes).strip('\n')
    if text:
        print(text)
    return 0


def main(argv):
    commands = {
        'cover-check': (cover_check, 2),
        'new-change-id': (new_change_id, 1),
        'sent-msgid': (sent_msgid, 1),
        'summary': (summary, 1),
        'check-mbox': (check_mbox, 2),
        'smtp-check': (smtp_check, 4),
        'unmatched': (unmatched, 2),
        'undeliverable': (undeliverable, 1),
        'patch-notes': (patch_notes, 1),
        'take-as': (take_as, 1),
    }
    if len(argv) >= 2 and argv[1] in commands and len(argv) == 2 + commands[argv[1]][1]:
        return commands[argv[1]][0](*argv[2:])
    if len(argv) >= 6 and argv[1] == 'prep-cover':
        return prep_cover(argv[2], argv[3], argv[4], argv[5], argv[6:])
    if len(argv) in (6, 7) and argv[1] == 'changelog':
        return changelog(*argv[2:6], argv[6] if len(argv) == 7 else '')
    sys.exit(__doc__)


if __name__ == '__main__':
    main(sys.argv)
