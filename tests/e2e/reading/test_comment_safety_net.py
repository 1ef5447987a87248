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
import subprocess
from dataclasses import replace

import pytest
from sqlmodel import Session

from nomicpoker.core.fold.fold_run import fold_stream, fold_table, input_stream
from nomicpoker.core.table.fold_types import (INTERNAL_ERROR, INTERNAL_ERROR_EVENT, UNREADABLE, CommentFailed,
                                        DealerEvent, FoldError, HandStart, Revision, TableConfig, failure_data)
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.storage.secrets_store import HandSecrets, secret_path

from kits.tables.bot import Table
from kits.tables.cli import cli as run_cli
from kits.sweeps.safety_net import ready

PLAYERS = ("alice", "bob", "carol")
SECRETS = HandSecrets(*(hashlib.sha256(x).digest() for x in (b"deck", b"dice", b"decks")))
RULES = load_ruleset("roberts-nlhe")
CONFIG = TableConfig("T", PLAYERS, 1000, "Dealer", RULES, "roberts-nlhe")
START = HandStart(1, "1", "carol", 0, (5, 10), tuple((p, 1000) for p in PLAYERS), 0,
                  "2026-01-01T00:00:00+00:00", SECRETS.commitments(), SECRETS)


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
    # NOMICPOKER_DB passes: the any_ledger fixture points the CLI at PostgreSQL with it
    return run_cli(*args, env=env, inherit=("NOMICPOKER_DB",))


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
    # audit replays the same inputs the same way, with the fault or without it: the answer is
    # recorded (a dealer event), so it is not read again (see the release tests below)
    for env in (fault, None):
        res = cli("audit", "--state", str(t.state), env=env)
        assert res.returncode == 0 and "identical" in res.stdout, res.stdout + res.stderr


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


# --------------------------------------------------------------------------- a release fixes the fault


def test_a_recorded_answer_is_given_without_reading_the_comment():
    """The fold answers a revision recorded as ``internal_error`` (a dealer event) as recorded,
    whatever the reader would say now: the release that fixed the fault reads it as it was."""
    p = first_to_act()
    bad = rev(1, p, "HAND1 ROUND1 raise 30 BOOM")
    good = rev(2, p, "HAND1 ROUND1 call")
    faulty = fold_table(CONFIG, [START], [bad, good], [], reader=failing_on("BOOM", ZeroDivisionError("a bug")))
    event = DealerEvent(1, 1, INTERNAL_ERROR_EVENT, p, "2026-01-01T00:00:01+00:00",
                        data=failure_data(("1", "c1", 1), "0.1.0", "ZeroDivisionError"))
    read: list[str] = []

    def fixed(folder, r: Revision) -> None:
        read.append(r.forum_id)
        folder.read_comment(r)

    got = fold_table(CONFIG, [START], [bad, good], [event], reader=fixed)
    assert read == ["c2"] and got.failures == ()
    assert got.rows == faulty.rows and got.gndt == faulty.gndt
    # without the record, the fixed reader reads it for real: another history
    assert fold_table(CONFIG, [START], [bad, good], []).rows["verdict"] != faulty.rows["verdict"]
    # and a resumed fold whose stream holds the record does not read it either
    first = fold_table(CONFIG, [START], [], [])
    seq0, read[:] = first.state.seq, []
    on = fold_stream(CONFIG, first.state, input_stream([], [bad, good], [event]), fixed)
    assert read == ["c2"]
    for kind in ("verdict", "outbox", "entry"):  # (action rows count their own seq)
        assert on.rows[kind] == tuple(r for r in faulty.rows[kind] if r["seq"] > seq0)
    assert on.gndt == faulty.gndt


@pytest.mark.parametrize("private", [False, True])
@pytest.mark.parametrize("case", ["comment", "edit", "private", "stranger", "several"])
def test_every_failed_answer_recorded_replays_as_played_by_a_reader_that_no_longer_fails(case, private):
    """Whatever the failing revision (a comment, an edit, a private message, a stranger's),
    recording the keys the faulty fold failed on makes the fixed fold derive the same rows."""
    p = first_to_act()
    other = next(x for x in PLAYERS if x != p)
    revs = {
        "comment": [rev(1, p, "HAND1 ROUND1 raise 30 BOOM"), rev(2, p, "HAND1 ROUND1 call")],
        "edit": [rev(1, p, "HAND1 ROUND1 raise 30"), rev(2, p, "HAND1 ROUND1 raise 40 BOOM", revision=2, forum_id="c1"),
                 rev(3, "bob", "nice")],
        "private": [rev(1, other, "CALL BOOM", thread="~private", forum_id="pm:m1"), rev(2, p, "HAND1 ROUND1 raise 30")],
        "stranger": [rev(1, "erin", "CALL BOOM", thread="~private", forum_id="pm:m1"), rev(2, p, "HAND1 ROUND1 call")],
        "several": [rev(1, p, "HAND1 ROUND1 raise 30 BOOM"), rev(2, other, "UNDO BOOM", thread="~private", forum_id="pm:m2"),
                    rev(3, p, "HAND1 ROUND1 raise 30"), rev(4, p, "HAND1 ROUND1 raise 30 BOOM", revision=2, forum_id="c3")],
    }[case]
    cfg = replace(CONFIG, private=private or case in ("private", "stranger", "several"), players_see_thread=not private)
    faulty = fold_table(cfg, [START], revs, [], reader=failing_on("BOOM", KeyError("x")))
    assert faulty.failures
    events = [DealerEvent(next(r.archive_id for r in revs if (r.thread, r.forum_id, r.revision) == key), 1,
                          INTERNAL_ERROR_EVENT, "x", "2026-01-01T00:01:00+00:00", data=failure_data(key, "0.1.0", "KeyError"))
              for key, _ in faulty.failures]
    fixed = fold_table(cfg, [START], revs, events)
    assert fixed.failures == () and fixed.rows == faulty.rows and fixed.gndt == faulty.gndt
    assert fold_table(cfg, [START], revs, []).rows != faulty.rows  # the fixed reader, unrecorded


@pytest.mark.parametrize("data", [{}, {"thread": "1", "forum_id": "c1"}, {"thread": 1, "forum_id": "c1", "revision": 1},
                                  {"thread": "1", "forum_id": "c1", "revision": "1"}])
def test_a_malformed_recorded_answer_is_one_clear_error(data):
    event = DealerEvent(0, 1, INTERNAL_ERROR_EVENT, "bob", "2026-01-01T00:00:01+00:00", data=data)
    with pytest.raises(FoldError) as info:
        fold_table(CONFIG, [START], [rev(1, "bob", "hello")], [event])
    assert info.value.code == "bad_event"


def _history(t: Table) -> dict:
    """Every derived row the ledger holds (delivery columns aside), and its dealer events."""
    with Session(t.engine) as s:
        rows = {kind: ledger.stored_values(s, t.name, kind) for kind in ledger.MODELS}
        rows["events"] = [(e.kind, e.after, e.hand, e.player, e.at, dict(e.data)) for e in ledger.dealer_events(s, t.name)]
    return rows


def _new_release(t: Table) -> None:
    """What a new release's first poll meets: the snapshot is of other code (its fingerprint
    covers the fold's source), so the poll replays the table from its first input."""
    sql = t.sql()
    sql.execute("DELETE FROM np_snapshot WHERE table_name = ?", (t.name,))
    sql.commit()
    sql.close()


@pytest.mark.usefixtures("any_ledger")
def test_a_release_that_fixes_the_fault_keeps_the_recorded_answers_and_the_table_plays_on(tmp_path):
    fault = {"NOMICPOKER_FAIL_READING": "BOOM"}
    # the reference table in its own SQLite ledger (on PostgreSQL, the poll of t works every table)
    t, ref = ready(tmp_path / "t"), ready(tmp_path / "ref", db=f"sqlite:///{tmp_path / 'ref.db'}")
    bad = t.p["alice"].say("HAND1 ROUND1 raise 20, BOOM")
    # bob's private message: a fixed release would read it as an advance call
    t.forum.send_private_as("bob", t.forum.dealer, "advance (T)", "CALL BOOM")
    res = cli("poll", "--state", str(t.state), "--site", "off", env=fault)
    assert res.returncode == 0 and res.stderr.count("could not be read") == 2, res.stdout + res.stderr
    # an edit is a new revision, read as an edit: noted, and the recorded answer stands
    t.forum.edit_comment(bad, "HAND1 ROUND1 raise 25", author="alice")
    res = cli("poll", "--state", str(t.state), "--site", "off", env=fault)
    assert res.returncode == 0 and "could not be read" not in res.stderr, res.stdout + res.stderr
    before = _history(t)
    answers = [v for v in before["verdict"] if v["code"] == INTERNAL_ERROR]
    assert [(v["forum_id"] == bad, v["revision"], v["status"]) for v in answers] == [(True, 1, "rejected"), (False, 1, "rejected")]
    assert [v["code"] for v in before["verdict"] if v["forum_id"] == bad and v["revision"] == 2] == ["edited_after_verdict"]
    # "the release fixes it": no fault, and the poll replays from the first input
    _new_release(t)
    res = cli("poll", "--state", str(t.state), "--site", "off")
    assert res.returncode == 0 and "FAILED" not in res.stdout + res.stderr, res.stdout + res.stderr
    assert "could not be read" not in res.stderr
    assert _history(t) == before  # the history is the one the table played
    recorded = [e for e in before["events"] if e[0] == INTERNAL_ERROR_EVENT]
    assert sorted((e[5]["forum_id"] == bad, e[5]["revision"], e[3], e[5]["release"], e[5]["error"]) for e in recorded) == \
        [(False, 1, "bob", "0.1.0", "RuntimeError"), (True, 1, "alice", "0.1.0", "RuntimeError")]
    # the table plays on to the hand's end, as a table that never saw either comment
    for table in (t, ref):
        table.p["alice"].say("HAND1 ROUND1 raise 20")
        table.p["bob"].say("HAND1 ROUND1 call")
    assert cli("poll", "--state", str(t.state), "--site", "off").returncode == 0
    ref.run()
    assert t.gndt() == ref.gndt()
    (to_act,) = [p for p, (_, turn, _) in t.gndt().items() if turn == "x"]
    for table in (t, ref):
        table.p[to_act].say("HAND1 ROUND2 folds")
    assert cli("poll", "--state", str(t.state), "--site", "off").returncode == 0
    ref.run()
    assert t.gndt() == ref.gndt() and all(turn == "o" for _, turn, _ in t.gndt().values())
    # audit (from zero, byte for byte) agrees on the fixed release and names each answer; so
    # does an auditor's audit of the public copy, without the Dealer's secrets
    copy, auditor = tmp_path / "public.db", tmp_path / "auditor"
    auditor.mkdir()
    assert cli("export", "public-db", "--state", str(t.state), "-o", str(copy)).returncode == 0
    for res in (cli("audit", "--state", str(t.state)),
                cli("audit", "--db", f"sqlite:///{copy}", "--state", str(auditor))):
        assert res.returncode == 0 and "identical" in res.stdout and "note:" not in res.stderr, res.stdout + res.stderr
        line = [x for x in res.stdout.splitlines() if f"comment {t.thread}#{bad} revision 1 by alice" in x]
        assert len(line) == 1 and "answered internal_error by nomicpoker 0.1.0 at " in line[0] and "RuntimeError" in line[0]
        assert sum("answered internal_error" in x for x in res.stdout.splitlines()) == 2


@pytest.mark.usefixtures("any_ledger")
def test_a_release_that_fails_on_a_comment_its_history_read_stops_the_table_saying_why(tmp_path):
    """The other way round: a release whose reader fails on a comment the release that played
    it read. The history cannot be replayed: the poll stops the table, records nothing, and
    names the comment with the traceback; the release that played it goes on."""
    t = ready(tmp_path)
    t.p["alice"].say("HAND1 ROUND1 raise 20, BOOM")
    t.run()
    before = _history(t)
    _new_release(t)
    res = cli("poll", "--state", str(t.state), "--site", "off", env={"NOMICPOKER_FAIL_READING": "BOOM"})
    assert res.returncode == 1 and "FAILED: verdict row seq" in res.stderr + res.stdout, res.stdout + res.stderr
    assert "this nomicpoker failed reading comment" in res.stderr + res.stdout and "RuntimeError: injected" in res.stderr
    assert _history(t) == before
    assert cli("poll", "--state", str(t.state), "--site", "off").returncode == 0
    assert _history(t) == before


@pytest.mark.usefixtures("any_ledger")
def test_a_ledger_from_before_the_answers_were_recorded_is_backfilled_from_its_verdicts(tmp_path):
    t = ready(tmp_path)
    t.p["alice"].say("HAND1 ROUND1 raise 20, BOOM")
    assert cli("poll", "--state", str(t.state), "--site", "off", env={"NOMICPOKER_FAIL_READING": "BOOM"}).returncode == 0
    before = _history(t)
    sql = t.sql()  # as the release before this one left it: the answer, and no record of it
    sql.execute("DELETE FROM np_dealer_event WHERE table_name = ? AND kind = ?", (t.name, INTERNAL_ERROR_EVENT))
    sql.commit()
    sql.close()
    _new_release(t)
    res = cli("poll", "--state", str(t.state), "--site", "off")
    assert res.returncode == 0 and "FAILED" not in res.stdout + res.stderr, res.stdout + res.stderr
    after = _history(t)
    assert {k: v for k, v in after.items() if k != "events"} == {k: v for k, v in before.items() if k != "events"}
    (event,) = [e for e in after["events"] if e[0] == INTERNAL_ERROR_EVENT]
    assert event[5]["error"] == "" and event[3] == "alice"
    res = cli("audit", "--state", str(t.state))
    assert res.returncode == 0 and "recorded from the ledger's verdict" in res.stdout, res.stdout + res.stderr


def test_the_site_and_the_verdicts_command_show_the_recorded_answer(tmp_path):
    t = ready(tmp_path)
    bad = t.p["alice"].say("HAND1 ROUND1 raise 20, BOOM")
    res = cli("poll", "--state", str(t.state), "--site", str(tmp_path / "site"), env={"NOMICPOKER_FAIL_READING": "BOOM"})
    assert res.returncode == 0, res.stdout + res.stderr
    page = (tmp_path / "site" / "T" / "hand-1.html").read_text("utf-8")
    assert page.count("recorded answer: nomicpoker 0.1.0 failed on this comment at") == 1 and "(RuntimeError)" in page
    lines = cli("verdicts", "--state", str(t.state), "--table", "T").stdout.splitlines()
    at = next(i for i, x in enumerate(lines) if f"#{bad} alice: rejected internal_error" in x)
    assert lines[at + 1].startswith("    recorded: nomicpoker 0.1.0 failed on it at ") and "(RuntimeError)" in lines[at + 1]
