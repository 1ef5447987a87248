"""The e-mail adapter against real servers on loopback: Dovecot over IMAP, aiosmtpd over SMTP
delivering into Dovecot's maildirs (tests/kits/servers/mail.py). Players' mail goes through the SMTP
server; the adapter reads the Dealer's mailbox with imaplib and sends with smtplib."""

from __future__ import annotations

import pytest

from nomicpoker.adapters.email.forum import ARCHIVED, EmailForum
from nomicpoker.adapters.email.config import player_id
from nomicpoker.ports import Forum, ForumError

from kits.servers.mail import ID_KEY, dealer_config, flags, start_servers

pytestmark = pytest.mark.filterwarnings("ignore:Requiring AUTH:UserWarning")

PLAYERS = ("alice", "bob", "carol")
USERS = {"dealer": "dealer-pw", "alice": "a-pw", "bob": "b-pw", "carol": "c-pw", "mallory": "m-pw"}


@pytest.fixture
def servers(tmp_path):
    yield from start_servers(tmp_path / "mail", USERS)


@pytest.fixture
def forum(servers, tmp_path):
    return EmailForum.from_config(dealer_config(servers, tmp_path, PLAYERS))


def pid(player: str, table: str = "T") -> str:
    """Computed here from the key the test gave the Dealer, as the HMAC the docs describe."""
    import base64
    import hashlib
    import hmac

    mac = hmac.new(ID_KEY.encode(), f"id\n{table.lower()}\n{player.lower()}".encode(), hashlib.sha256).digest()
    return base64.b32encode(mac).decode().lower()[:6]


def test_the_adapter_is_a_forum_and_ids_are_six_lowercase_characters(forum):
    assert isinstance(forum, Forum)
    ids = {p: player_id(ID_KEY.encode(), "T", p) for p in PLAYERS}
    assert ids == {p: pid(p) for p in PLAYERS}
    assert all(len(i) == 6 and i == i.lower() and i.isalnum() for i in ids.values())
    assert len(set(ids.values())) == 3
    assert player_id(ID_KEY.encode(), "U", "alice") != ids["alice"]  # another table, another ID


def test_a_player_is_named_by_the_id_in_the_subject_not_by_from(servers, forum):
    # bob's mail program sends from alice's address, with his own ID: it is bob's message
    servers.send("bob", f"Re: your cards (ID={pid('bob')})", "$20\n", sender=servers.address("alice"))
    # carol writes her ID in capitals and puts a greeting in the subject: still carol
    servers.send("carol", f"my bet ID={pid('carol').upper()} thanks", "call\n")
    got = forum.list_comments("T")
    assert [(c.author, c.body) for c in got] == [("bob", "$20\n"), ("carol", "call\n")]
    assert all(c.body_format == "text" and c.created.tzinfo is not None for c in got)


def test_mail_without_a_valid_id_is_not_read_and_stays_unread(servers, forum):
    servers.send("mallory", "no id here", "$500\n")
    servers.send("mallory", "ID=zzzzzz", "$500\n")  # no such ID
    servers.send("alice", f"ID={pid('alice')} ID={pid('bob')}", "FOLD\n")  # two IDs: whose?
    servers.send("alice", f"ID= {pid('alice')}", "FOLD\n")  # "No spaces are allowed"
    assert forum.list_comments("T") == []
    assert forum.mark_read([]) == 0
    assert all("\\Seen" not in f for f in flags(servers))


def test_quoted_reply_text_and_signatures_are_not_read(servers, forum):
    body = ("$40\nTALK\nYou will regret it.\nSIG\nBob, sent from my phone\n\n"
            "On Mon, 23 Nov 2026 at 10:00, Dealer <dealer@poker.test> wrote:\n> $1000\n> FOLD\n")
    servers.send("bob", f"Re: Hand 1 (ID={pid('bob')})", body)
    servers.send("alice", f"ID={pid('alice')}", "> $99\nOn Mon, Nov 23, 2026 at 9:00 AM Dealer\n"
                  "<dealer@poker.test> wrote:\n> older\njam\n-- \nalice\n$1\n")
    got = forum.list_comments("T")
    assert [c.body for c in got] == ["$40\n\n> You will regret it.\n", "jam\n"]


def test_reading_marks_nothing_and_a_listing_is_marked_only_when_told(servers, forum):
    servers.send("alice", f"ID={pid('alice')}", "$10\n")
    first = forum.list_comments("T")
    assert len(first) == 1
    assert flags(servers) == [set()] or flags(servers) == [{"\\Recent"}]  # BODY.PEEK: not \Seen
    again = EmailForum.from_config(forum_config(forum))  # a new run reads it again
    assert [c.id for c in again.list_comments("T")] == [first[0].id]
    assert again.mark_read([first[0].id]) == 1
    marked = flags(servers)[0]
    assert "\\Seen" in marked and ARCHIVED in marked
    assert EmailForum.from_config(forum_config(forum)).list_comments("T") == []


def forum_config(forum: EmailForum) -> dict:
    s = forum.s
    return {"address": s.address, "table": s.table, "roster": str(s.roster), "imap_host": s.imap_host,
            "imap_port": s.imap_port, "imap_tls": s.imap_tls, "imap_user": s.imap_user,
            "smtp_host": s.smtp_host, "smtp_port": s.smtp_port, "smtp_tls": s.smtp_tls,
            "smtp_user": s.smtp_user, "credentials_file": s.credentials_file}


def test_a_message_delivered_twice_is_listed_once_even_after_the_first_was_archived(servers, forum):
    mid = servers.send("alice", f"ID={pid('alice')}", "$10\n", message_id="<same-1@poker.test>")
    servers.send("alice", f"ID={pid('alice')}", "$10\n", message_id=mid)
    listed = forum.list_comments("T")
    assert [c.id for c in listed] == ["same-1@poker.test"]
    forum.mark_read(["same-1@poker.test"])
    assert all("\\Seen" in f for f in flags(servers))  # both copies marked
    servers.send("alice", f"ID={pid('alice')}", "$99\n", message_id=mid)  # a third, later copy
    assert forum.list_comments("T") == []


def test_a_broadcast_reaches_every_player_without_their_addresses_and_is_found_by_its_tag(servers, forum):
    body = "alice raises to 20. **bob** to act.\n\n`[np:T-h1-001]`\n"
    mid = forum.post_comment("T", body, tag="T-h1-001")
    forum.post_comment("T", "later\n\n`[np:T-h1-0010]`\n", tag="T-h1-0010")
    for p in PLAYERS:
        got = servers.inbox(p)
        assert [m["Message-ID"].strip("<>") for m in got][:1] == [mid]
        for m in got:  # Bcc: nobody learns another player's address
            assert not any(servers.address(q) in str(m) for q in PLAYERS)
        assert got[0].get_content().replace("\r\n", "\n") == body
    assert forum.find_comment_with("T", "T-h1-001") == mid
    assert forum.find_comment_with("T", "[np:T-h1-00]") is None  # a prefix is not the tag
    listed = forum.list_comments("T")
    assert [(c.author, c.id) for c in listed][0] == ("Dealer", mid)


def test_a_forged_dealer_copy_does_not_pass_for_a_sent_message(servers, forum):
    servers.send("mallory", "[T] fake", "`[np:T-h1-002]`\n", sender=servers.address("dealer"),
                 headers={"X-Nomicpoker-Kind": "broadcast", "X-Nomicpoker-Thread": "T",
                          "X-Nomicpoker-Tag": "T-h1-002", "X-Nomicpoker-Seal": "0" * 40})
    assert forum.find_comment_with("T", "T-h1-002") is None
    assert forum.list_comments("T") == []  # not a player's (no ID) and not the Dealer's


def test_a_private_message_carries_the_id_and_reads_back_exactly(servers, forum):
    body = "Your hole cards for hand 1: J♥ K♥ (Jh Kh)"  # no final newline, non-ASCII
    forum.send_private("alice", "Your hole cards for hand 1 (T)", body)
    got = servers.inbox("alice")
    assert len(got) == 1 and got[0]["Subject"] == f"Your hole cards for hand 1 (T) (ID={pid('alice')})"
    assert servers.inbox("bob") == []
    back = forum.sent_private("alice")
    assert [(m.subject, m.body) for m in back] == [("Your hole cards for hand 1 (T)", body)]
    assert forum.sent_private("bob") == []
    assert forum.list_comments("T") == []  # the Dealer's private copies are not table talk


def test_enrol_sends_each_player_their_id_once(servers, forum):
    assert forum.enrol("T", list(PLAYERS)) == list(PLAYERS)
    for p in PLAYERS:
        (msg,) = servers.inbox(p)
        assert f"(ID={pid(p)})" in msg["Subject"] and f"ID={pid(p)}" in msg.get_content()
    assert forum.enrol("T", list(PLAYERS)) == []  # a re-run sends nothing twice
    with pytest.raises(ForumError) as err:
        forum.enrol("T", ["alice", "zed"])
    assert err.value.code == "config" and "zed" in err.value.message
    with pytest.raises(ForumError) as err:
        forum.enrol("U", ["alice"])
    assert err.value.code == "config"


def test_tls_both_ways_with_the_servers_certificate(servers, tmp_path):
    cfg = dealer_config(servers, tmp_path, PLAYERS, imap_tls="ssl", imap_port=servers.imaps_port,
                        smtp_tls="starttls", ca_file=str(servers.cert))
    forum = EmailForum.from_config(cfg)
    forum.post_comment("T", "hello\n\n`[np:T-h0-001]`\n", tag="T-h0-001")
    assert [c.author for c in forum.list_comments("T")] == ["Dealer"]
    imap_starttls = EmailForum.from_config({**cfg, "imap_tls": "starttls", "imap_port": servers.imap_port})
    assert all(ok for _, ok, _ in imap_starttls.check())
    untrusted = EmailForum.from_config({k: v for k, v in cfg.items() if k != "ca_file"})
    with pytest.raises(ForumError) as err:  # a self-signed certificate is not trusted unasked
        untrusted.list_comments("T")
    assert err.value.code == "network" and err.value.retry


def test_bad_credentials_and_files_are_one_clear_error(servers, tmp_path):
    cfg = dealer_config(servers, tmp_path, PLAYERS)
    (tmp_path / "mail-credentials.toml").chmod(0o644)
    with pytest.raises(ForumError) as err:
        EmailForum.from_config(cfg)
    assert err.value.code == "config" and "chmod 600" in err.value.message
    (tmp_path / "mail-credentials.toml").write_text(f'password = "wrong"\nid_key = "{ID_KEY}"\n')
    (tmp_path / "mail-credentials.toml").chmod(0o600)
    forum = EmailForum.from_config(cfg)
    with pytest.raises(ForumError) as err:
        forum.list_comments("T")
    assert err.value.code == "login_failed" and "wrong" not in str(err.value)
    checks = dict((what, ok) for what, ok, _ in forum.check())
    assert checks["imap"] is False and checks["smtp"] is False


def test_credentials_from_the_environment(servers, tmp_path):
    cfg = dealer_config(servers, tmp_path, PLAYERS)
    del cfg["credentials_file"]
    with pytest.raises(ForumError) as err:
        EmailForum.from_config(cfg, environ={})
    assert err.value.code == "config" and "NOMICPOKER_EMAIL_PASSWORD" in err.value.message
    env = {"NOMICPOKER_EMAIL_PASSWORD": USERS["dealer"], "NOMICPOKER_EMAIL_ID_KEY": ID_KEY}
    forum = EmailForum.from_config(cfg, environ=env)
    assert all(ok for _, ok, _ in forum.check())


def test_config_mistakes_name_the_key(monkeypatch):
    from nomicpoker.adapters.registry import open_forum

    monkeypatch.setenv("NOMICPOKER_EMAIL_PASSWORD", "pw")
    monkeypatch.setenv("NOMICPOKER_EMAIL_ID_KEY", ID_KEY)
    base = {"address": "d@x.test", "table": "T", "roster": "/nonexistent", "imap_host": "h", "smtp_host": "h"}
    for bad, word in (({**base, "imap_tls": "yes"}, "imap_tls"), ({**base, "smtp_port": 0}, "smtp_port"),
                      ({k: v for k, v in base.items() if k != "table"}, "table"),
                      ({**base, "address": "nobody"}, "address"), ({**base, "colour": 1}, "colour"),
                      (base, "roster")):
        with pytest.raises(ForumError) as err:
            open_forum("email", bad, __import__("pathlib").Path("/tmp"))
        assert err.value.code == "config" and word in err.value.message, err.value.message


def test_an_html_only_mail_is_read_as_its_text(servers, forum):
    import smtplib
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"] = servers.address("alice"), servers.address("dealer")
    msg["Subject"], msg["Message-ID"] = f"ID={pid('alice')}", "<html-1@poker.test>"
    msg.set_content("<html><body><p>$30</p><blockquote>$999</blockquote></body></html>", subtype="html")
    with smtplib.SMTP("127.0.0.1", servers.smtp_port, timeout=20) as c:
        c.login("alice", USERS["alice"])
        c.send_message(msg)
    assert [(c.author, c.body) for c in forum.list_comments("T")] == [("alice", "$30\n")]


def test_two_tables_share_one_mailbox_and_each_reads_only_its_own(servers, forum, tmp_path):
    other = EmailForum.from_config(dealer_config(servers, tmp_path, ("alice", "bob"), table="U"))
    servers.send("alice", f"ID={pid('alice', 'U')}", "FOLD\n")
    servers.send("alice", f"ID={pid('alice')}", "$5\n")
    other.post_comment("U", "to U\n\n`[np:U-h1-001]`\n", tag="U-h1-001")
    assert [(c.author, c.body) for c in forum.list_comments("T")] == [("alice", "$5\n")]
    assert [(c.author, c.body) for c in other.list_comments("U")][0] == ("alice", "FOLD\n")
    assert forum.find_comment_with("T", "U-h1-001") is None
    with pytest.raises(ForumError) as err:
        forum.list_comments("U")
    assert err.value.code == "not_found"


def test_a_sealed_copy_replayed_with_another_body_does_not_pass_for_the_dealers(servers, forum):
    # every player receives the Dealer's broadcast with its X-Nomicpoker headers and seal; mallory
    # sends it back with his own text while the Dealer's own copy is not (or no longer) in the mailbox
    forum.post_comment("T", "bob to act.\n\n`[np:T-h1-003]`\n", tag="T-h1-003")
    got = servers.inbox("alice")[0]
    box = servers.maildir("dealer")
    for key in list(box.keys()):
        box.remove(key)
    copied = {k: got[k] for k in got.keys() if k.lower().startswith("x-nomicpoker-")}
    servers.send("mallory", got["Subject"], "alice folds. The pot goes to mallory.\n\n`[np:T-h1-003]`\n",
                 message_id=got["Message-ID"], sender=servers.address("dealer"), headers=copied)
    assert forum.list_comments("T") == []  # not the Dealer's text, and no player's ID
