"""Play by e-mail, as WRGPT does (seed ``000_…``): the Forum port over IMAP and SMTP.

The table is a mailing list the Dealer runs itself. Players write to the Dealer's address;
the Dealer reads its mailbox over IMAP (``imaplib``) and sends over SMTP (``smtplib``), both
with TLS (``ssl``, ``starttls``; ``none`` only for a server on loopback).

- **Who wrote**: a player is named by the ID token in the subject, ``ID=xxxxxx``, never by
  ``From:`` ("which can change in strange and unpredictable ways"). IDs are derived from the
  Dealer's secret ID key and the table and player names (:func:`player_id`), so nothing is
  stored; ``table create`` sends each player theirs privately (:meth:`EmailForum.enrol`), and
  every private message repeats it in its subject, so replying keeps it. A message with no
  ID of this table, or with two, is not read and stays unread for the Dealer to look at.
- **What it says**: :func:`nomicpoker.core.reading.mail_text.read_mail` (one command in column 1,
  ``TALK``/``SIG`` table talk, quoted reply text ignored); the archived text is that command,
  with the talk quoted under it.
- **The thread** is the table (its name is the thread reference): every hand's messages are
  one conversation, and the fold gives a message to the hand running when it was archived.
  Each dealer comment in it is a *broadcast*: one mail to every player of the roster (as
  ``Bcc``, so no player learns another's address) and a copy to the Dealer's own mailbox.
  The story of a hand is a broadcast too.
- **Private messages** (hole cards, decks, reminders, confirmations) go to one player, with
  the player's ID in the subject.
- **The Dealer's own copies** come back to its mailbox through the same SMTP delivery (the
  Dealer is a recipient of everything it sends). They carry ``X-Nomicpoker-*`` headers and a
  seal made with the ID key (:func:`copy_seal`), so the Dealer finds what it already sent
  after a crash (``find_comment_with``, ``sent_private``), and a player who forges those
  headers cannot make it skip a message.
- **Nothing lost, nothing twice**: the listing holds only messages not yet marked archived
  (the IMAP keyword ``NomicpokerArchived``, and ``\\Seen``; only ``\\Seen`` on a server without
  keywords), read with ``BODY.PEEK`` so reading marks nothing. The poll marks them through
  :meth:`EmailForum.mark_read` only after the ledger has committed them, so a run that dies
  between reading and recording reads them again next time; a message is archived under its
  ``Message-ID``, so one delivered twice, or read again, is archived once.
"""

from __future__ import annotations

import email
import email.policy
import email.utils
import hashlib
import imaplib
import re
import smtplib
import ssl
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.utils import formataddr, formatdate, make_msgid
from typing import Iterator, Mapping, Sequence

from nomicpoker.adapters.email.config import (MailSettings, copy_seal, load_roster, load_secrets,
                                              player_id, settings_from)
from nomicpoker.core.table.fold_types import same_account
from nomicpoker.core.reading.htmltext import html_to_text
from nomicpoker.core.reading.mail_text import ids_in, read_mail
from nomicpoker.ports import (Abilities, ForumError, PrivateMessage, RemoteComment, find_tag, find_tags,
                              tag_key)

#: the IMAP keyword the Dealer sets on a message once the ledger has recorded it
ARCHIVED = "NomicpokerArchived"
H_KIND, H_THREAD, H_TAG, H_TO, H_SUBJECT, H_SHA, H_SEAL = (
    "X-Nomicpoker-Kind", "X-Nomicpoker-Thread", "X-Nomicpoker-Tag", "X-Nomicpoker-To",
    "X-Nomicpoker-Subject", "X-Nomicpoker-Body-SHA256", "X-Nomicpoker-Seal")
_FETCH_BATCH = 200
_META = re.compile(rb"UID (\d+)|FLAGS \(([^)]*)\)|INTERNALDATE \"([^\"]+)\"")


def email_config_keys() -> set[str]:
    from nomicpoker.adapters.email.config import CONFIG_KEYS

    return set(CONFIG_KEYS)


@dataclass(frozen=True)
class Mail:
    """One message of the Dealer's mailbox as the adapter reads it."""

    uid: int
    arrived: datetime
    message_id: str
    subject: str
    text: str
    headers: Mapping[str, str]

    def h(self, name: str) -> str:
        return self.headers.get(name.lower(), "")


def _sha(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _arrived(raw: bytes | None) -> datetime:
    if raw:
        try:
            return datetime.strptime(raw.decode("ascii").strip(), "%d-%b-%Y %H:%M:%S %z").astimezone(timezone.utc)
        except ValueError:
            pass
    return datetime.now(timezone.utc)


def _text_of(msg: EmailMessage) -> str:
    """The readable text: the plain part, else the HTML part as text ("Do send the dealer
    plain text, un-encoded email. Sometimes the dealer can process HTML")."""
    try:
        part = msg.get_body(preferencelist=("plain", "html"))
    except Exception:  # a malformed MIME tree: read nothing rather than fail the table
        return ""
    if part is None:
        return ""
    try:
        text = part.get_content()
    except (LookupError, ValueError, AssertionError):
        payload = part.get_payload(decode=True) or b""
        text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else str(payload)
    if not isinstance(text, str):
        return ""
    text = text.replace("\r\n", "\n")  # the wire's line ends, as a mail program shows them
    return html_to_text(text) if part.get_content_type() == "text/html" else text


def _sent_body(m: Mail) -> str | None:
    """The body the Dealer sent, if ``m``'s text hashes to its body header (``None``: it does
    not). The MIME text part ends every body with a newline, so one added is taken off."""
    if _sha(m.text) == m.h(H_SHA):
        return m.text
    if m.text.endswith("\n") and _sha(m.text[:-1]) == m.h(H_SHA):
        return m.text[:-1]
    return None


def _header(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # an undecodable header is no header
        return ""
    return "" if value is None else str(value).strip()


def broadcast_subject(thread: str, body: str) -> str:
    """``[T] first words of the comment (-> next to act)``: WRGPT's broadcasts name who is
    next to act in the subject, so a player sees from the list whether to open it."""
    plain = [re.sub(r"[*`]", "", ln).strip() for ln in body.splitlines()]
    first = next((ln for ln in plain if ln and not ln.startswith("[np:")), "")
    first = first if len(first) <= 60 else first[:59].rstrip() + "\u2026"
    nxt = _NEXT.search("\n".join(plain))
    return f"[{thread}] {first}" + (f" (-> {nxt.group(1)})" if nxt else "")


#: who is next in a plain-text broadcast: the turn notice's "carol to act, 2 to call."
_NEXT = re.compile(r"(?:^|[.!:;)]\s+)([^\s.,:;()]{1,40}) to act, ", re.MULTILINE)


def _when(moment: datetime) -> str:
    """A message's time as a player reads it in the Dealer's answers ("mail of 13:05 UTC"):
    never its Message-ID, which can name the player's hosts."""
    return moment.astimezone(timezone.utc).strftime("%H:%M UTC")


class EmailForum:
    """The Forum protocol over the Dealer's mailbox; see the module docstring."""

    name = "email"
    abilities = Abilities(dice="bot", private_send=True, private_read=True, markup="text",
                          edits_visible=False, create_thread=True, find_thread=True, login=False,
                          mark_read=True, player_ids=True, players_see_thread=False,
                          combine=True, unread_report=True)

    def __init__(self, settings: MailSettings, environ: Mapping[str, str] | None = None):
        self.s = settings
        self.dealer = settings.dealer
        self._secrets = load_secrets(settings, environ)
        self._roster = load_roster(settings.roster)
        self._ids = {player_id(self._secrets.id_key, settings.table, p): p for p in self._roster}
        self._listed: dict[str, list[int]] = {}
        #: the mails the last listing left unread because they carry no ID of this table
        self._strays: list[Mail] = []

    @classmethod
    def from_config(cls, config: Mapping[str, object], environ: Mapping[str, str] | None = None) -> "EmailForum":
        return cls(settings_from(config), environ)

    # -- IMAP ----------------------------------------------------------------------------

    def _tls_context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=self.s.ca_file)

    @contextmanager
    def _imap(self) -> Iterator[imaplib.IMAP4]:
        s = self.s
        try:
            if s.imap_tls == "ssl":
                conn: imaplib.IMAP4 = imaplib.IMAP4_SSL(s.imap_host, s.imap_port, ssl_context=self._tls_context(),
                                                        timeout=s.timeout)
            else:
                conn = imaplib.IMAP4(s.imap_host, s.imap_port, timeout=s.timeout)
                if s.imap_tls == "starttls":
                    conn.starttls(ssl_context=self._tls_context())
        except (OSError, imaplib.IMAP4.error) as exc:
            raise ForumError("network", f"cannot reach the IMAP server {s.imap_host}:{s.imap_port} "
                             f"({s.imap_tls}): {exc}", retry=True) from exc
        try:
            try:
                conn.login(s.imap_user, self._secrets.password)
            except imaplib.IMAP4.error as exc:
                raise ForumError("login_failed", f"the IMAP server refused the login of {s.imap_user!r}") from exc
            typ, data = conn.select(_quote(s.mailbox))
            if typ != "OK":
                raise ForumError("not_found", f"no mailbox {s.mailbox!r} on the IMAP server: {data!r}")
            yield conn
        except (OSError, imaplib.IMAP4.abort) as exc:
            raise ForumError("network", f"the IMAP server {s.imap_host} dropped the connection: {exc}",
                             retry=True) from exc
        finally:
            try:
                conn.logout()
            except Exception:  # the connection may already be gone
                pass

    @staticmethod
    def _keywords(conn: imaplib.IMAP4) -> bool:
        """Whether the mailbox keeps keywords of our own (PERMANENTFLAGS has ``\\*``)."""
        _, data = conn.response("PERMANENTFLAGS")
        return any(d and b"\\*" in d for d in data if isinstance(d, bytes))

    @staticmethod
    def _search(conn: imaplib.IMAP4, *criteria: str) -> list[int]:
        typ, data = conn.uid("SEARCH", None, *criteria)
        if typ != "OK":
            raise ForumError("network", f"IMAP SEARCH failed: {data!r}", retry=True)
        return sorted(int(x) for x in (data[0] or b"").split())

    def _fetch(self, conn: imaplib.IMAP4, uids: Sequence[int], headers_only: bool = False) -> list[Mail]:
        out: list[Mail] = []
        part = "BODY.PEEK[HEADER]" if headers_only else "BODY.PEEK[]"
        for i in range(0, len(uids), _FETCH_BATCH):
            chunk = ",".join(str(u) for u in uids[i:i + _FETCH_BATCH])
            typ, data = conn.uid("FETCH", chunk, f"(UID INTERNALDATE {part})")
            if typ != "OK":
                raise ForumError("network", f"IMAP FETCH failed: {data!r}", retry=True)
            for item in data:
                if not isinstance(item, tuple):
                    continue
                uid, when = None, None
                for m in _META.finditer(item[0]):
                    if m.group(1):
                        uid = int(m.group(1))
                    if m.group(3):
                        when = m.group(3)
                if uid is not None:
                    out.append(self._mail(uid, _arrived(when), item[1]))
        return sorted(out, key=lambda m: m.uid)

    @staticmethod
    def _mail(uid: int, arrived: datetime, raw: bytes) -> Mail:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        wanted = ("message-id", "subject", "from", H_KIND, H_THREAD, H_TAG, H_TO, H_SUBJECT, H_SHA, H_SEAL)
        headers = {k.lower(): _header(msg, k) for k in wanted}
        mid = headers["message-id"].strip().strip("<>").strip()
        if not mid:  # no Message-ID: name it by its content, so a re-read is the same message
            mid = "sha256-" + hashlib.sha256(raw).hexdigest()[:32]
        return Mail(uid, arrived, mid, headers["subject"], _text_of(msg), headers)

    # -- reading ------------------------------------------------------------------------

    def _sealed(self, m: Mail) -> bool:
        """The Dealer's own copy of something it sent (the seal checks)."""
        kind = m.h(H_KIND)
        if not kind:
            return False
        want = copy_seal(self._secrets.id_key, m.message_id, kind, m.h(H_THREAD), m.h(H_TAG),
                         m.h(H_TO), m.h(H_SHA))
        return m.h(H_SEAL) == want

    def player_of(self, subject: str) -> str | None:
        """The player whose ID the subject carries (``None``: none, an unknown one, or two)."""
        found = {self._ids[t] for t in ids_in(subject) if t in self._ids}
        return found.pop() if len(found) == 1 else None

    def _check_thread(self, thread: str) -> None:
        if thread != self.s.table:
            raise ForumError("not_found", f"this mailbox serves table {self.s.table!r}; there is no "
                             f"thread {thread!r} (an e-mail table's thread is its name)")

    def list_comments(self, thread: str) -> list[RemoteComment]:
        """The table's messages not yet marked archived, oldest first: players' messages with
        their ID, and the Dealer's broadcasts (see the module docstring)."""
        self._check_thread(thread)
        out: list[RemoteComment] = []
        with self._imap() as conn:
            kw = self._keywords(conn)
            uids = self._search(conn, "UNKEYWORD", ARCHIVED) if kw else self._search(conn, "UNSEEN")
            own_private: list[int] = []
            seen: set[str] = set()
            self._strays = []
            for m in self._fetch(conn, uids):
                if self._sealed(m):
                    if m.h(H_KIND) in ("private", "id"):
                        own_private.append(m.uid)  # the Dealer's record; nothing to adjudicate
                        continue
                    if m.h(H_THREAD) != thread or _sent_body(m) is None:
                        continue  # another table's; or the seal on other words (every player
                        # receives sealed copies: one sent back reworded is not the Dealer's)
                    author, body = self.dealer, m.text
                else:
                    player = self.player_of(m.subject)
                    if player is None:
                        self._strays.append(m)
                        continue  # not for this table: left unread for the Dealer
                    author, body = player, read_mail(m.text).body()
                self._listed.setdefault(m.message_id, []).append(m.uid)
                if m.message_id in seen or self._earlier_copy(conn, m):
                    continue  # delivered twice: archived once, under its Message-ID
                seen.add(m.message_id)
                out.append(RemoteComment(id=m.message_id, author=author, created=m.arrived, body=body,
                                         body_format="text", permalink=f"mail of {_when(m.arrived)}"))
            if own_private:
                self._store(conn, own_private, kw)
        return out

    def unread_note(self) -> str | None:
        """What the last listing left unread for the Dealer: mails with no ID of this table
        (none, a mistyped one, two different ones). The poll reports it, so they do not sit in
        the mailbox unseen: how many, from whom, since when. (A mail for another table sharing
        the mailbox is counted until that table's poll archives it.)"""
        if not self._strays:
            return None
        senders = sorted({email.utils.parseaddr(m.h("from"))[1] or m.h("from") or "?" for m in self._strays})
        oldest = min(m.arrived for m in self._strays).astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        n = len(self._strays)
        return (f"{n} mail{'s' if n != 1 else ''} in the mailbox carr{'y' if n != 1 else 'ies'} no ID of "
                f"table {self.s.table} (none, a mistyped one, or two) and {'are' if n != 1 else 'is'} not "
                f"read: from {', '.join(senders[:5])}{' and others' if len(senders) > 5 else ''}; the oldest "
                f"arrived {oldest}. Answer the sender with their ID (or delete the mail)")

    def _earlier_copy(self, conn: imaplib.IMAP4, m: Mail) -> bool:
        return any(u < m.uid for u in self._search(conn, "HEADER", "Message-ID", _quote(f"<{m.message_id}>")))

    def _store(self, conn: imaplib.IMAP4, uids: Sequence[int], keywords: bool) -> None:
        flags = f"(\\Seen {ARCHIVED})" if keywords else "(\\Seen)"
        for i in range(0, len(uids), _FETCH_BATCH):
            typ, data = conn.uid("STORE", ",".join(map(str, uids[i:i + _FETCH_BATCH])), "+FLAGS.SILENT", flags)
            if typ != "OK":
                raise ForumError("network", f"IMAP STORE failed: {data!r}", retry=True)

    def mark_read(self, ids: Sequence[str]) -> int:
        """Mark the listed messages ``ids`` archived, now that the ledger holds them; return
        how many messages were marked."""
        uids = sorted({u for i in ids for u in self._listed.pop(i, [])})
        if uids:
            with self._imap() as conn:
                self._store(conn, uids, self._keywords(conn))
        return len(uids)

    def _own(self, criteria: Sequence[str], kinds: Sequence[str]) -> list[Mail]:
        with self._imap() as conn:
            uids = self._search(conn, *criteria)
            mails = self._fetch(conn, uids, headers_only=False) if uids else []
        return [m for m in mails if self._sealed(m) and m.h(H_KIND) in kinds]

    def find_comment_with(self, thread: str, tag: str) -> str | None:
        key = tag_key(tag)
        if not key:
            raise ForumError("config", "find_comment_with needs a non-empty tag")
        for m in self._own(("HEADER", H_TAG, _quote(key)), ("broadcast", "story")):
            if key in m.h(H_TAG).split() and m.h(H_THREAD) == thread:
                return m.message_id
        return None

    def find_thread_with(self, tag: str) -> str | None:
        key = tag_key(tag)
        for m in self._own(("HEADER", H_TAG, _quote(key)), ("story",)):
            if m.h(H_TAG) == key:
                return m.h(H_THREAD)
        return None

    def sent_private(self, user: str) -> list[PrivateMessage]:
        """The Dealer's private messages to ``user``, read back from its own copies."""
        out = []
        for m in self._own(("HEADER", H_TO, _quote(user)), ("private", "id")):
            if not same_account(m.h(H_TO), user):
                continue
            body = _sent_body(m) or ""
            out.append(PrivateMessage(id=m.message_id, sender=self.dealer, recipient=m.h(H_TO),
                                      subject=m.h(H_SUBJECT), body=body, created=m.arrived))
        return out

    def received_private(self) -> list[PrivateMessage]:
        """Every player's message is read in the table's thread, never as a private message."""
        return []

    # -- sending ------------------------------------------------------------------------

    def _addresses(self, player: str) -> tuple[str, ...]:
        for name, addresses in self._roster.items():
            if same_account(name, player):
                return addresses
        raise ForumError("comment_refused", f"{player!r} has no address in the roster {self.s.roster}",
                         permanent=True)

    def _smtp(self) -> smtplib.SMTP:
        s = self.s
        try:
            if s.smtp_tls == "ssl":
                conn: smtplib.SMTP = smtplib.SMTP_SSL(s.smtp_host, s.smtp_port, timeout=s.timeout,
                                                      context=self._tls_context())
            else:
                conn = smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=s.timeout)
                if s.smtp_tls == "starttls":
                    conn.starttls(context=self._tls_context())
        except (OSError, smtplib.SMTPException) as exc:
            raise ForumError("network", f"cannot reach the SMTP server {s.smtp_host}:{s.smtp_port} "
                             f"({s.smtp_tls}): {exc}", retry=True) from exc
        if s.smtp_auth:
            try:
                conn.login(s.smtp_user, self._secrets.smtp_password)
            except smtplib.SMTPException as exc:
                conn.close()
                raise ForumError("login_failed", f"the SMTP server refused the login of {s.smtp_user!r}") from exc
        return conn

    def _send(self, kind: str, thread: str, tag: str, to_player: str, recipients: Sequence[str],
              subject: str, body: str, reply_to: str | None = None, shown_subject: str | None = None) -> str:
        msg = EmailMessage()
        mid = make_msgid("np", domain=self.s.domain)
        bare = mid.strip("<>")
        sha = _sha(body)
        msg["From"] = formataddr((self.dealer, self.s.address))
        msg["To"] = formataddr((self.dealer, self.s.address)) if kind != "private" and kind != "id" else \
            ", ".join(recipients)
        msg["Reply-To"] = self.s.address
        msg["Subject"] = shown_subject or subject
        msg["Date"] = formatdate(localtime=False, usegmt=True)
        msg["Message-ID"] = mid
        if reply_to and "@" in reply_to and not any(c.isspace() or c in "<>" for c in reply_to):
            msg["In-Reply-To"] = f"<{reply_to}>"
            msg["References"] = f"<{reply_to}>"
        for name, value in ((H_KIND, kind), (H_THREAD, thread), (H_TAG, tag), (H_TO, to_player),
                            (H_SUBJECT, subject), (H_SHA, sha)):
            msg[name] = value
        msg[H_SEAL] = copy_seal(self._secrets.id_key, bare, kind, thread, tag, to_player, sha)
        msg.set_content(body)
        envelope = list(dict.fromkeys([*recipients, self.s.address]))
        conn = self._smtp()
        try:
            refused = conn.send_message(msg, from_addr=self.s.address, to_addrs=envelope)
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [c for c, _ in exc.recipients.values()]
            raise ForumError("comment_refused", f"the SMTP server refused every recipient: {exc.recipients}",
                             permanent=all(500 <= c < 600 for c in codes), retry=not all(500 <= c < 600 for c in codes)) from exc
        except smtplib.SMTPResponseException as exc:
            raise ForumError("comment_refused" if exc.smtp_code >= 500 else "network",
                             f"the SMTP server answered {exc.smtp_code}: {exc.smtp_error!r}",
                             retry=exc.smtp_code < 500) from exc
        except (OSError, smtplib.SMTPException) as exc:
            raise ForumError("network", f"sending by SMTP failed: {exc}", retry=True) from exc
        finally:
            try:
                conn.quit()
            except Exception:  # the message is sent or not; closing cannot change that
                pass
        if to_player and any(a in refused for a in recipients):
            raise ForumError("comment_refused", f"the SMTP server refused {to_player}'s address: {refused}",
                             permanent=True, remote_id=bare)
        return bare

    def post_comment(self, thread: str, body: str, reply_to: str | None = None, *, tag: str | None = None) -> str:
        """A broadcast: the dealer comment to every player of the table (and the Dealer)."""
        self._check_thread(thread)
        # a broadcast may carry several dealer comments (Abilities.combine): every part's tag
        # goes in the tag header, so a crashed run finds each part as sent
        key = " ".join(dict.fromkeys([*find_tags(body), *([tag_key(tag)] if tag else [])])) or (find_tag(body) or "")
        everyone = [a for p in self._roster for a in self._roster[p]]
        return self._send("broadcast", thread, key, "", everyone, broadcast_subject(thread, body), body, reply_to)

    def create_thread(self, title: str, body: str) -> str:
        """The story of a hand, broadcast; the thread is the table."""
        key = find_tag(body) or ""
        if not (key.startswith(f"{self.s.table}-h") and key.endswith("-story")):
            raise ForumError("config", f"this mailbox serves table {self.s.table!r}; the story {key!r} is "
                             "another table's (set the forum config key 'table' to the table's name)")
        everyone = [a for p in self._roster for a in self._roster[p]]
        self._send("story", self.s.table, key, "", everyone, title, body)
        return self.s.table

    def send_private(self, user: str, subject: str, body: str) -> str:
        """One player's message, with the player's ID in the subject (WRGPT: "All private
        messages from the dealer to a player contain that player's ID in the subject line")."""
        pid = player_id(self._secrets.id_key, self.s.table, self._name(user))
        return self._send("private", self.s.table, "", self._name(user), self._addresses(user), subject, body,
                          shown_subject=f"{subject} (ID={pid})")

    def _name(self, player: str) -> str:
        return next((p for p in self._roster if same_account(p, player)), player)

    def enrol(self, table: str, players: Sequence[str]) -> list[str]:
        """Send each player of a new table their ID, privately, once (a re-run sends only the
        ones not sent yet); return the players written to. ``ForumError('config')`` before
        anything is sent when the table is not this mailbox's or a player has no address."""
        self.check_enrol(table, players)
        sent_to: list[str] = []
        for p in players:
            name = self._name(p)
            if any(m.h(H_KIND) == "id" for m in self._own(("HEADER", H_TO, _quote(name)), ("id",))
                   if same_account(m.h(H_TO), name)):
                continue
            pid = player_id(self._secrets.id_key, table, name)
            body = (f"Welcome to poker table {table}, {name}.\n\nYour ID is {pid}. Put ID={pid} in the "
                    f"subject of every message you send to the Dealer at {self.s.address} (replying to "
                    "this message keeps it). Keep it to yourself: whoever has it plays your seat.\n\n"
                    "Write one command per message, alone on its line in column 1: a bet as $x "
                    "(the amount you put in; $0 checks or folds), CALL *, FOLD, JAM, POT, UNDO, "
                    "or an IF/... advance action; TALK on a line starts table talk, SIG ends it. "
                    "Your hole cards and reminders come to you privately; every action goes to the "
                    "whole table with the status table.\n")
            self._send("id", table, "", name, self._addresses(name), f"Your ID for poker table {table}", body,
                       shown_subject=f"Your ID for poker table {table} (ID={pid})")
            sent_to.append(name)
        return sent_to

    def check_enrol(self, table: str, players: Sequence[str]) -> None:
        """What :meth:`enrol` refuses, without sending anything (``ForumError('config')``): a
        tournament's moves check every table a player joins before any ID mail goes, so a move
        refused at one table mails nobody at another (shell/tournament/moves)."""
        if table != self.s.table:
            raise ForumError("config", f"the email forum config names table {self.s.table!r}, not {table!r}")
        missing = [p for p in players if not any(same_account(p, r) for r in self._roster)]
        if missing:
            raise ForumError("config", f"the roster {self.s.roster} has no address for {', '.join(missing)}")

    def check(self) -> list[tuple[str, bool, str]]:
        rows: list[tuple[str, bool, str]] = [
            ("roster", True, f"{len(self._roster)} players in {self.s.roster}"),
            ("secrets", True, f"password and ID key from {self._secrets.source}")]
        try:
            with self._imap() as conn:
                n = len(self._search(conn, "ALL"))
                kw = self._keywords(conn)
            rows.append(("imap", True, f"{self.s.imap_user}@{self.s.imap_host}:{self.s.imap_port} "
                         f"({self.s.imap_tls}), {self.s.mailbox}: {n} messages; archived messages are "
                         f"marked {'with the keyword ' + ARCHIVED if kw else 'seen (no keywords here)'}"))
        except ForumError as exc:
            rows.append(("imap", False, str(exc)))
        try:
            conn = self._smtp()
            conn.noop()
            conn.quit()
            rows.append(("smtp", True, f"{self.s.smtp_host}:{self.s.smtp_port} ({self.s.smtp_tls})"
                         + (f", logged in as {self.s.smtp_user!r}" if self.s.smtp_auth else "")))
        except (ForumError, OSError, smtplib.SMTPException) as exc:
            rows.append(("smtp", False, str(exc)))
        rows.append(("dealer account", True, f"sending as {self.dealer} <{self.s.address}>"))
        return rows
