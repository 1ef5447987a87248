"""The IRC adapter against a real ngIRCd on loopback (tests/kits/servers/ircd.py): the bridge logs every
line a real client says in the table's channel with a stable id, the forum lists them as the
thread's comments, the Dealer's spooled comments reach the channel and its private messages
reach only their player (and wait until the player is online), ``@`` questions are answered,
and a wrong server password is a clear ``login_failed``."""

from __future__ import annotations

import re

from pathlib import Path

import pytest

from nomicpoker.core.words.dialects import in_dialect

from nomicpoker.adapters.irc.forum import IrcCredentials, IrcForum, settings_from, load_credentials
from nomicpoker.adapters.irc.bridge import IrcBridge
from nomicpoker.adapters.irc.commands import AtAction, AtError, AtQuery, read_command
from nomicpoker.adapters.irc.wire import parse, split_text
from nomicpoker.ports import ForumError

from kits.servers.ircd import PASSWORD, Player, ircd, needs_ngircd  # noqa: F401  (ircd is a fixture)


def config(port: int, **extra) -> dict:
    base = {"server": "127.0.0.1", "port": port, "tls": False, "channel": "#poker",
            "listing": "#gamelist", "nick": "dealerbot", "line_interval": 0}
    base.update(extra)
    return base


def bridge_for(tmp: Path, port: int, password: str | None = PASSWORD, **extra):
    settings = settings_from(config(port, **extra), tmp / "state")
    forum = IrcForum(settings)
    bridge = IrcBridge([("T", settings)], IrcCredentials(password, None))
    return forum, bridge


def pump(bridge: IrcBridge, until, *players: Player, seconds: float = 10.0) -> None:
    """Run the bridge (and let the players read) until ``until()`` holds."""
    import time

    end = time.monotonic() + seconds
    while time.monotonic() < end:
        bridge.step(0.1)
        for p in players:
            p.drain(0.05)
        if until():
            return
    raise AssertionError("the bridge did not get there in time")


# -- pure parts --------------------------------------------------------------------------------


def test_a_line_parses_with_tags_prefix_and_trailing_text():
    m = parse("@time=2026-11-23T10:00:00.000Z;msgid=a\\sb :alice!u@h PRIVMSG #poker :raise 20 now")
    assert (m.command, m.params, m.nick) == ("PRIVMSG", ("#poker", "raise 20 now"), "alice")
    assert m.tag("time") == "2026-11-23T10:00:00.000Z" and m.tag("msgid") == "a b"
    assert parse("PING :irc.test").params == ("irc.test",)


def test_long_text_is_cut_at_spaces_within_the_byte_limit_and_never_inside_a_character():
    text = "pot " + "♠" * 150 + " end\n\nnext"
    lines = split_text(text, limit=100)
    assert all(len(x.encode()) <= 100 for x in lines)
    assert "".join(lines).replace(" ", "") == text.replace("\n", "").replace(" ", "")
    assert lines[-1] == "next" and "" not in lines


@pytest.mark.parametrize("line, want", [
    ("@call", AtAction("call")),
    ("@raise 20", AtAction("raise 20")),
    ("@raise --amount=20 --hand 3 --round 2", AtAction("HAND3 ROUND2 raise 20")),
    ("@raise -a 20 -H 3 -r 2", AtAction("HAND3 ROUND2 raise 20")),
    ("@allin", AtAction("all in")),
    ("@reveal Jh Kh --hand 1", AtAction("HAND1 reveal Jh Kh")),
    ("@cards", AtAction("WHAT")),
    ("@help raise", AtQuery("help", "raise")),
    ("@status", AtQuery("status")),
    ("@games", AtQuery("games")),
    ("call", None),
    ("email me @ home", None),
])
def test_at_commands_read_in_gnu_style_into_the_grammars_words(line, want):
    assert read_command(line) == want


@pytest.mark.parametrize("line, needle", [
    ("@raise", "missing AMOUNT"), ("@raise lots", "whole number"), ("@raise 5 --amount 6", "once"),
    ("@call 20", "unexpected"), ("@fold --round 2", "--round needs --hand"),
    ("@call --hand", "needs a value"), ("@check --loud", "unknown option"),
    ("@shove", "unknown command @shove"), ("@reveal Jh", "missing arguments"),
])
def test_a_bad_at_command_gets_one_line_saying_what_is_wrong(line, needle):
    got = read_command(line)
    assert isinstance(got, AtError) and needle in got.message


def test_config_is_checked_key_by_key_and_credentials_stay_out_of_it(tmp_path):
    for bad, needle in (({"channel": "poker"}, "channel"), ({"nick": "1bot"}, "nick"),
                        ({"port": 0}, "port"), ({"password": "x"}, "unknown irc forum config key"),
                        ({"listing": "#poker"}, "listing")):
        with pytest.raises(ForumError) as e:
            settings_from({**config(6667), **bad}, tmp_path)
        assert e.value.code == "config" and needle in e.value.message
    cred = tmp_path / "irc.toml"
    cred.write_text('server_password = "s"\n')
    cred.chmod(0o644)
    with pytest.raises(ForumError) as e:
        load_credentials(str(cred))
    assert "chmod 600" in e.value.message
    cred.chmod(0o600)
    assert load_credentials(str(cred)) == IrcCredentials("s", None)
    assert load_credentials(None, {"NOMICPOKER_IRC_SERVER_PASSWORD": "p"}).server_password == "p"


# -- against the real server ---------------------------------------------------------------------


@needs_ngircd
def test_lines_said_in_the_channel_become_the_threads_comments_with_stable_ids(tmp_path, ircd):
    forum, bridge = bridge_for(tmp_path, ircd.port)
    alice = Player("alice", ircd.port)
    alice.join("#poker")
    bridge.start()
    try:
        thread = forum.create_thread("Poker: Hand #1 (T)", "Hand #1 has commenced.")
        pump(bridge, lambda: any("Hand #1 has commenced." in t for t in alice.texts("PRIVMSG", "#poker")), alice)
        alice.say("#poker", "@raise 20")
        alice.say("#poker", "good luck all")
        pump(bridge, lambda: len(forum.list_comments(thread)) == 2, alice)
        first = forum.list_comments(thread)
        assert [(c.author, c.body) for c in first] == [("alice", "raise 20"), ("alice", "good luck all")]
        assert first[0].body_format == "text" and re.fullmatch(r"line at \d\d:\d\d UTC", first[0].permalink)
        # the Dealer's comment: spooled, listed as the dealer's, sent to the channel once
        # (the outbox writes a comment in the forum's dialect: IRC's plain text, bold as ^B)
        cid = forum.post_comment(thread, in_dialect("**alice** raises 20.\n\n`[np:T-h1-1]`", "irc"), tag="T-h1-1")
        assert forum.find_comment_with(thread, "T-h1-1") == cid
        pump(bridge, lambda: any("raises 20" in t for t in alice.texts("PRIVMSG", "#poker")), alice)
        said = [t for t in alice.texts("PRIVMSG", "#poker") if "raises 20" in t]
        assert said == ["\x02alice\x02 raises 20."]
        again = forum.list_comments(thread)
        assert [c.id for c in again[:2]] == [c.id for c in first] and again[2].author == "dealerbot"
        bridge.step(0.3)
        assert sum("raises 20" in t for t in alice.texts("PRIVMSG", "#poker")) == 1
    finally:
        bridge.close()
        alice.close()


@needs_ngircd
def test_private_messages_go_by_notice_to_their_player_only_and_wait_until_the_player_is_here(tmp_path, ircd):
    forum, bridge = bridge_for(tmp_path, ircd.port)
    alice = Player("alice", ircd.port)
    alice.join("#poker")
    bridge.start()
    try:
        forum.create_thread("Poker: Hand #1 (T)", "Hand #1.")
        forum.send_private("alice", "Hand #1: your hole cards", "alice: J♥ K♥ (Jh Kh)")
        forum.send_private("bob", "Hand #1: your hole cards", "bob: 4♣ 5♠ (4c 5s)")
        pump(bridge, lambda: any("Jh Kh" in t for t in alice.texts("NOTICE", "alice")), alice)
        assert alice.texts("NOTICE", "alice") == ["[#poker] alice: J♥ K♥ (Jh Kh)"]
        assert not any("4c 5s" in line for line in alice.lines)
        assert [m.body for m in forum.sent_private("bob")] == ["bob: 4♣ 5♠ (4c 5s)"]
        # the I/O thread records a line's progress just after sending it
        pump(bridge, lambda: [r.target for r in bridge.log.pending()] == ["bob"], alice)
        assert [r.target for r in bridge.log.pending()] == ["bob"]  # bob is not online yet
        bob = Player("bob", ircd.port)
        bob.join("#poker")
        pump(bridge, lambda: bool(bob.texts("NOTICE", "bob")), bob)
        assert bob.texts("NOTICE", "bob") == ["[#poker] bob: 4♣ 5♠ (4c 5s)"]
        pump(bridge, lambda: bridge.log.pending() == [], bob)
        assert bridge.log.pending() == []
        bob.close()
    finally:
        bridge.close()
        alice.close()


@needs_ngircd
def test_at_questions_are_answered_and_games_are_listed_in_pokprots_format(tmp_path, ircd):
    from datetime import datetime, timezone

    from nomicpoker.ports import GameListing

    forum, bridge = bridge_for(tmp_path, ircd.port)
    alice = Player("alice", ircd.port)
    alice.join("#poker")
    alice.join("#gamelist")
    bridge.start()
    try:
        started = datetime(2026, 11, 23, 12, 0, tzinfo=timezone.utc)
        listing = GameListing("T", "roberts-nlhe", 3, 1, 2, 0, 100, started)
        bridge.announce([listing])
        bridge.announce([listing])  # unchanged: said once
        line = alice.wait(lambda l: "PRIVMSG #gamelist" in l)
        assert line.split(" :", 1)[1] == f'newgame #poker {int(started.timestamp())} "T: roberts-nlhe, 100 chips" nlcash 3 1 2 0 50 50'
        alice.say("#poker", "@games")
        alice.say("#poker", "@shove")
        pump(bridge, lambda: bool(alice.texts("NOTICE", "alice")) and any(
            "unknown command" in t for t in alice.texts("PRIVMSG", "#poker")), alice)
        assert alice.texts("NOTICE", "alice") == [f'#poker {int(started.timestamp())} "T: roberts-nlhe, 100 chips" nlcash 3 1 2 0 50 50']
        assert "alice: unknown command @shove; try @help" in alice.texts("PRIVMSG", "#poker")
        # @status repeats the Dealer's latest word in the channel; @help answers privately;
        # a /msg to the Dealer is its private inbox, but a /msg question is only answered
        thread = forum.create_thread("Poker: Hand #1 (T)", "Hand #1.")
        forum.post_comment(thread, in_dialect("**carol** to act, 2 to call.", "irc"))
        pump(bridge, lambda: any("carol" in t for t in alice.texts("PRIVMSG", "#poker")), alice)
        mark = len(alice.lines)
        alice.say("#poker", "@status")
        alice.say("#poker", "@help raise")
        alice.say("dealerbot", "@games")
        alice.say("dealerbot", "HAND1 IF CHECK THEN FOLD")
        pump(bridge, lambda: len(alice.texts("NOTICE", "alice", mark)) == 2
             and len(alice.texts("PRIVMSG", "#poker", mark)) == 1, alice)
        assert alice.texts("PRIVMSG", "#poker", mark) == ["\x02carol\x02 to act, 2 to call."]
        assert alice.texts("NOTICE", "alice", mark)[0].startswith("@raise AMOUNT")
        assert [(m.sender, m.body) for m in forum.received_private()] == [("alice", "HAND1 IF CHECK THEN FOLD")]
        bridge.announce([GameListing("T", "roberts-nlhe", 3, 1, 2, 0, 100, started, open=False)])
        alice.wait(lambda l: "endgame #poker" in l)
        assert sum("newgame" in t for t in alice.texts("PRIVMSG", "#gamelist")) == 1
    finally:
        bridge.close()
        alice.close()


@needs_ngircd
def test_a_wrong_server_password_is_login_failed_in_one_line(tmp_path, ircd):
    _, bridge = bridge_for(tmp_path, ircd.port, password="wrong")
    with pytest.raises(ForumError) as e:
        bridge.start()
    assert e.value.code == "login_failed"
    _, bridge = bridge_for(tmp_path, ircd.port, password=None)
    with pytest.raises(ForumError) as e:
        bridge.start()
    assert e.value.code == "login_failed"


def test_a_replayed_line_with_the_same_msgid_is_logged_once_and_dated_by_server_time(tmp_path):
    """What a bouncer's playback sends (IRCv3 message-tags, server-time): read by the bridge
    without a connection, since no answer is due for a plain line."""
    _, bridge = bridge_for(tmp_path, 6667)
    line = parse("@time=2026-11-23T10:00:00.000Z;msgid=abc :alice!u@h PRIVMSG #poker :call")
    assert bridge._handle(line) == {"T"}
    assert bridge._handle(line) == set()  # the replay: already logged
    other = parse("@msgid=abd :alice!u@h PRIVMSG #Poker :\x0304,01\x02fold\x0f")
    assert bridge._handle(other) == {"T"}  # channel names compare without case
    with bridge.log._connect() as conn:
        rows = conn.execute("SELECT author, body, created, msgid FROM lines ORDER BY id").fetchall()
    assert [tuple(r) for r in rows][0] == ("alice", "call", "2026-11-23T10:00:00+00:00", "abc")
    assert len(rows) == 2 and rows[1]["body"] == "fold"  # a coloured, bold fold is a fold


@needs_ngircd
@pytest.mark.skipif(__import__("shutil").which("openssl") is None, reason="openssl is not installed")
def test_tls_connects_and_an_unverifiable_certificate_is_refused_unless_told(tmp_path):
    from kits.servers.ircd import start_ircd

    server = start_ircd(tmp_path / "ircd", tls=True)
    try:
        _, bridge = bridge_for(tmp_path, server.tls_port, tls=True)
        with pytest.raises(ForumError) as e:
            bridge.start()  # a self-signed certificate: not trusted by default
        assert e.value.code == "network" and "TLS" in e.value.message and e.value.retry
        forum, bridge = bridge_for(tmp_path, server.tls_port, tls=True, tls_verify=False)
        alice = Player("alice", server.port)
        alice.join("#poker")
        bridge.start()
        try:
            forum.create_thread("Poker: Hand #1 (T)", "over TLS")
            pump(bridge, lambda: "over TLS" in alice.texts("PRIVMSG", "#poker"), alice)
        finally:
            bridge.close()
            alice.close()
    finally:
        server.stop()


@needs_ngircd
def test_forum_check_says_whether_serve_is_alive_and_the_server_answers(tmp_path, ircd):
    from datetime import datetime, timedelta, timezone

    forum, bridge = bridge_for(tmp_path, ircd.port)
    rows = {what: (ok, detail) for what, ok, detail in forum.check()}
    assert rows["IRC server"][0] and rows["bridge (nomicpoker serve)"] == (
        True, "not run for this network yet: start nomicpoker serve (docs/irc.md)")
    bridge.start()
    bridge.close()
    rows = {what: (ok, detail) for what, ok, detail in forum.check()}
    assert rows["bridge (nomicpoker serve)"][0] and "connected as dealerbot" in rows["bridge (nomicpoker serve)"][1]
    later = (datetime.now(timezone.utc) + timedelta(minutes=5)).isoformat()
    late = IrcForum(forum.settings, clock=lambda: later)
    ok, detail = {w: (o, d) for w, o, d in late.check()}["bridge (nomicpoker serve)"]
    assert not ok and "not running" in detail
    gone = IrcForum(settings_from(config(1), tmp_path / "other"))
    assert not {w: o for w, o, _ in gone.check()}["IRC server"]
