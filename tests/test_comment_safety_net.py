"""The fold's per-comment safety net (issue 13): when reading or adjudicating ONE comment
raises (a bug of ours), that comment is answered ``internal_error`` and changes nothing, the
error is logged with its traceback, every later comment is read as if it had never been
posted, and ``audit`` replays it identically. Before, the exception failed the table's poll,
and every later poll raised again on the same archived comment: one player's comment stopped
the table for good (``GONE`` posted outside a hand's thread on a forum with private messages
did, below).

Every input known to make the reader raise has been fixed, so the end-to-end tests inject a
failing reader through the documented seam ``NOMICPOKER_FAIL_READING``
(:func:`nomicpoker.shell.faults.comment_reader`): the real poll, log and audit run, only the
reader fails. Failures that are not a comment's fault (missing secrets, the inputs out of
order, out of memory) are not caught: they stop the fold as before."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from nomicpoker.core.fold_run import fold_stream, fold_table, input_stream
from nomicpoker.core.fold_types import (INTERNAL_ERROR, UNREADABLE, CommentFailed, FoldError, HandStart,
                                        Revision, TableConfig)
from nomicpoker.core.table_settings import TableSettings
from nomicpoker.shell.rulesets import load_ruleset
from nomicpoker.shell.secrets_store import HandSecrets, secret_path

from _bot_kit import Table

PLAYERS = ("alice", "bob", "carol")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
CONFIG = TableConfig("T", PLAYERS, 1000, "Dealer", RULES, "roberts-nlhe")
START = HandStart(1, "1", "carol", 0, (5, 10), tuple((p, 1000) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS)
CLI = "from nomicpoker.cli import main; import sys; sys.argv[0]='nomicpoker'; main()"


def rev(n: int, author: str, body: str, thread: str = "1", revision: int = 1, forum_id: str = "") -> Revision:
    return Revision(n, thread, forum_id or f"c{n}", revision, author, f"2026-01-01T00:00:{n:02d}+00:00", body)


def failing_on(marker: str, exc: BaseException):
    def read(folder, r: Revision) -> None:
        if marker in r.body:
            raise exc
        folder.read_comment(r)
    return read


def first_to_act() -> str:
    return fold_table(CONFIG, [START], [], []).current.to_act


# --------------------------------------------------------------------------- the fold


def test_a_comment_the_reader_fails_on_is_answered_and_changes_nothing_else():
    p = first_to_act()
    bad = rev(1, p, "HAND1 ROUND1 raise 30 BOOM")
    good = rev(2, p, "HAND1 ROUND1 call")
    boom = ZeroDivisionError("a bug")
    got = fold_table(CONFIG, [START], [bad, good], [], reader=failing_on("BOOM", boom))
    without = fold_table(CONFIG, [START], [good], [])
    # the table is exactly as if the comment had never been posted
    assert got.gndt == without.gndt and got.current == without.current and got.records == without.records
    verdicts = {v["forum_id"]: v for v in got.rows["verdict"]}
    assert (verdicts["c1"]["status"], verdicts["c1"]["code"], verdicts["c1"]["message"]) == \
        ("rejected", INTERNAL_ERROR, UNREADABLE)
    assert {k: verdicts["c2"][k] for k in ("status", "code", "canonical")} == \
        {k: without.rows["verdict"][0][k] for k in ("status", "code", "canonical")}
    assert verdicts["c2"]["status"] == "accepted"
    replies = [o for o in got.rows["outbox"] if o["reply_to"] == "c1"]
    assert len(replies) == 1 and INTERNAL_ERROR in replies[0]["body"]
    assert [(k, e) for k, e in got.failures] == [(("1", "c1", 1), boom)]
    # deterministic: the same inputs give the same rows (what audit relies on)
    again = fold_table(CONFIG, [START], [bad, good], [], reader=failing_on("BOOM", ZeroDivisionError("a bug")))
    assert again.rows == got.rows


def test_several_failing_comments_each_answered_once_in_archive_order():
    p = first_to_act()
    revs = [rev(1, "bob", "BOOM one"), rev(2, p, "HAND1 ROUND1 call"), rev(3, "alice", "BOOM two"),
            rev(4, "carol", "nice BOOM", revision=2, forum_id="c1")]
    got = fold_table(CONFIG, [START], revs, [], reader=failing_on("BOOM", KeyError(0)))
    codes = [(v["forum_id"], v["revision"], v["status"], v["code"]) for v in got.rows["verdict"]]
    assert ("c1", 1, "rejected", INTERNAL_ERROR) in codes and ("c3", 1, "rejected", INTERNAL_ERROR) in codes
    assert ("c1", 2, "ignored", INTERNAL_ERROR) in codes  # an edit is noted, never answered
    assert len(got.failures) == 3
    assert [v["forum_id"] for v in got.rows["verdict"]] == ["c1", "c2", "c3", "c1"]


def test_a_resumed_fold_raises_for_its_caller_to_replay_from_the_first_input():
    p = first_to_act()
    first = fold_table(CONFIG, [START], [rev(1, p, "HAND1 ROUND1 call")], [])
    stream = input_stream([], [rev(2, "bob", "BOOM")], [])
    with pytest.raises(CommentFailed) as info:
        fold_stream(CONFIG, first.state, stream, failing_on("BOOM", ValueError("x")))
    assert info.value.key == ("1", "c2", 1)


@pytest.mark.parametrize("exc", [FoldError("missing_secrets", "the secrets of hand 1 are missing"),
                                 MemoryError()])
def test_a_failure_that_is_not_the_comment_s_fault_is_never_swallowed(exc):
    with pytest.raises(type(exc)):
        fold_table(CONFIG, [START], [rev(1, "bob", "BOOM")], [], reader=failing_on("BOOM", exc))


@pytest.mark.parametrize("private,see", [(True, True), (True, False)])
@pytest.mark.parametrize("body", ["GONE", "PROTEST the river was wrong"])
def test_gone_or_protest_outside_a_hand_thread_on_a_forum_with_private_messages(private, see, body):
    """The real input that stopped a table: a private notice sealed with the secrets of a
    hand 0 that never exists (KeyError at every later poll)."""
    cfg = replace(CONFIG, private=private, players_see_thread=see,
                  settings=TableSettings(floorman="dave") if "PROTEST" in body else CONFIG.settings)
    for hands, thread in (([START], "2"), ([], "1")):  # a thread with no hand; no hand at all
        got = fold_table(cfg, hands, [rev(1, "alice", body, thread=thread)], [])
        assert got.failures == ()
        assert [(v["status"], v["code"]) for v in got.rows["verdict"]] == [("accepted", "")]
        for o in got.rows["outbox"]:
            assert o["kind"] != "private" or o["hand"] == (1 if hands else None)
        if hands:  # sealed under the hand that exists
            assert any(o["kind"] == "private" for o in got.rows["outbox"])


# --------------------------------------------------------------------------- end to end


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith("NOMICPOKER_")}
    return subprocess.run([sys.executable, "-c", CLI, *args], capture_output=True, text=True, timeout=120,
                          env={**base, **(env or {})})


def ready(tmp: Path) -> Table:
    t = Table(tmp, players=("alice", "bob"))
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    return t


def test_poll_answers_logs_and_goes_on_and_audit_replays_it_identically(tmp_path):
    fault = {"NOMICPOKER_FAIL_READING": "BOOM"}
    t = ready(tmp_path / "t")
    ref = ready(tmp_path / "ref")
    before = t.gndt()
    bad = t.p["alice"].say("HAND1 ROUND1 raise 20, BOOM")
    res = cli("poll", "--state", str(t.state), "--site", "off", env=fault)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "could not be read" in res.stderr and "Traceback" in res.stderr and "RuntimeError: injected reading fault" in res.stderr
    assert t.gndt() == before  # the comment did not act
    replies = [c.body for c in t.comments() if c.author == "Dealer" and c.parent_id == bad]
    assert len(replies) == 1 and INTERNAL_ERROR in replies[0] and "does not act" in replies[0]
    # the table goes on: alice's next comment acts, as in a table that never saw the bad one
    for table in (t, ref):
        table.p["alice"].say("HAND1 ROUND1 raise 20")
        table.p["bob"].say("HAND1 ROUND1 call")
    res = cli("poll", "--state", str(t.state), "--site", "off", env=fault)
    assert res.returncode == 0 and "could not be read" not in res.stderr, res.stderr  # logged once
    ref.run()
    assert t.gndt() == ref.gndt()
    keep = lambda vs: [(v.author, v.status, v.code) for v in vs if v.code != INTERNAL_ERROR]  # noqa: E731
    assert keep(t.verdicts()) == keep(ref.verdicts())
    # audit replays the same inputs the same way; without the fault it reads the comment
    # (the rejection rested on the fault), and says so
    res = cli("audit", "--state", str(t.state), env=fault)
    assert res.returncode == 0 and "identical" in res.stdout, res.stdout + res.stderr
    assert cli("audit", "--state", str(t.state)).returncode != 0


def test_a_secrets_failure_still_stops_the_poll_it_is_not_a_comment_s_fault(tmp_path):
    t = ready(tmp_path)
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    secret_path(t.state, "T", 1).unlink()  # the running hand's secrets are gone
    res = cli("poll", "--state", str(t.state), "--site", "off", "--table", "T")
    verdicts = t.verdicts()
    assert res.returncode == 1, res.stdout + res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    assert not any(v.code == INTERNAL_ERROR for v in verdicts)
    assert not any(v.author == "alice" and v.status == "accepted" and "raise" in (v.canonical or "")
                   for v in verdicts)


@pytest.mark.parametrize("see", [True, False])
@pytest.mark.parametrize("author", ["erin", "Erin"])
def test_a_private_message_from_someone_not_in_the_hand(see, author):
    """Found by scripts/fuzz_fold.py: any account can send the Dealer a private message on
    Reddit, and a stranger's raised KeyError (the hand's seat lookup) at every later poll."""
    cfg = replace(CONFIG, private=True, players_see_thread=see)
    got = fold_table(cfg, [START], [rev(1, author, "CALL/S *", thread="~private")], [])
    assert got.failures == ()
    assert [(v["status"], v["code"]) for v in got.rows["verdict"]] == [("ignored", "not_seated")]


def test_what_from_a_player_sitting_out_of_the_hand():
    """WHAT from a table player who is not in the running hand: the seat lookup raised."""
    cfg = replace(CONFIG, players=PLAYERS + ("dave",), private=True)
    got = fold_table(cfg, [START], [rev(1, "dave", "WHAT")], [])
    assert got.failures == ()
    assert [(v["status"], v["canonical"]) for v in got.rows["verdict"]] == [("accepted", "WHAT")]
    answer = [o["body"] for o in got.rows["outbox"] if o["reply_to"] == "c1"]
    assert len(answer) == 1 and "Not seated in this hand" in answer[0]


@pytest.mark.parametrize("see", [True, False])
def test_a_private_message_the_reader_fails_on_is_answered_privately(see):
    """A private message is answered privately, sealed with the running hand, like any other
    private answer: the net's public reply went to the '~private' pseudo-thread, which no forum
    has, so every later poll failed on that outbox row (and the table learnt of the message)."""
    p = first_to_act()
    cfg = replace(CONFIG, private=True, players_see_thread=see)
    bad = rev(1, "bob", "RAISE 10 BOOM", thread="~private", forum_id="pm:m1")
    good = rev(2, p, "HAND1 ROUND1 call")
    got = fold_table(cfg, [START], [bad, good], [], reader=failing_on("BOOM", ZeroDivisionError("a bug")))
    verdicts = {v["forum_id"]: v for v in got.rows["verdict"]}
    assert (verdicts["pm:m1"]["status"], verdicts["pm:m1"]["code"]) == ("rejected", INTERNAL_ERROR)
    assert verdicts["c2"]["status"] == "accepted"
    assert not any(o["thread"] == "~private" for o in got.rows["outbox"])
    # the answer is sealed (its words are in the state folder, the row holds their hash)
    answers = [o for o in got.rows["outbox"] if o["kind"] == "private" and o["recipient"] == "bob"
               and o["subject"] == "Your advance action in hand 1 (T)"]
    assert len(answers) == 1 and answers[0]["body"].startswith("[sealed private message to bob")


def test_a_private_message_the_reader_fails_on_from_a_stranger_gets_no_answer():
    cfg = replace(CONFIG, private=True)
    got = fold_table(cfg, [START], [rev(1, "erin", "CALL BOOM", thread="~private", forum_id="pm:m1")], [],
                     reader=failing_on("BOOM", KeyError(0)))
    assert [(v["status"], v["code"]) for v in got.rows["verdict"]] == [("ignored", INTERNAL_ERROR)]
    assert not any(o["thread"] == "~private" or o["recipient"] == "erin" for o in got.rows["outbox"])
