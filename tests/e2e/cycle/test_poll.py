"""The poll cycle: safe to repeat, safe to crash, one reply per wrong comment, quiet otherwise."""

from __future__ import annotations

import os
import re
import sqlite3
from datetime import datetime, timedelta, timezone

import pytest
from filelock import FileLock
from typer.testing import CliRunner

from nomicpoker.ports import ForumError
from nomicpoker.adapters.local import LocalForum
from nomicpoker.cli import app
from nomicpoker.shell.storage.paths import lock_path

from kits.tables.bot import Table

#: the ledger, poll and audit suites run on SQLite and on PostgreSQL (``-m postgres``)
pytestmark = pytest.mark.usefixtures("any_ledger")


def ready(tmp_path, **kw) -> Table:
    """A table with hand 1 started and every draw stated: alice to act in round 1."""
    t = Table(tmp_path, **kw)
    t.start(ante=5)
    t.draw(1)
    t.new_dealer()
    return t


def replies_to(t: Table, comment_id: str) -> list[str]:
    return [c.body for c in t.comments() if c.author == "Dealer" and c.parent_id == comment_id]


def test_polling_twice_in_a_row_posts_nothing_new(tmp_path):
    t = ready(tmp_path)
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    t.run()
    n = len(t.comments())
    report = t.poll()
    assert report.ok and report.tables[0].sent == 0 and report.tables[0].verdicts == 0
    assert len(t.comments()) == n


class CrashAfterPost:
    """The real local forum underneath; the first post succeeds and then 'the network' fails
    before the poll can record it."""

    def __init__(self, real: LocalForum):
        self.real = real
        self.name = real.name
        self.crashed = False

    def __getattr__(self, item):
        return getattr(self.real, item)

    def post_comment(self, thread, body, reply_to=None, *, tag=None):
        rid = self.real.post_comment(thread, body, reply_to=reply_to, tag=tag)
        if not self.crashed:
            self.crashed = True
            raise ForumError("network", "connection reset after sending")
        return rid


def test_a_crash_after_posting_does_not_post_again(tmp_path):
    t = ready(tmp_path)
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    crashing = CrashAfterPost(LocalForum(t.forum.path))
    report = t.poll(forum_factory=lambda kind, cfg, state: crashing)
    assert not report.ok and "network" in report.tables[0].error
    notices = [b for b in t.dealer_bodies() if "**bob** to act, 20 to call" in b]
    assert len(notices) == 1  # it was posted once, and not recorded
    report = t.poll()
    assert report.ok and report.tables[0].already == 1 and report.tables[0].sent == 0
    assert len([b for b in t.dealer_bodies() if "**bob** to act, 20 to call" in b]) == 1


def test_an_edited_comment_keeps_its_verdict_and_is_noted_once(tmp_path):
    t = ready(tmp_path)
    cid = t.p["alice"].say("HAND1 ROUND1 raise 20")
    t.run()
    t.forum.edit_comment(cid, "HAND1 ROUND1 raise 50")
    t.run()
    t.forum.edit_comment(cid, "HAND1 ROUND1 folds")
    t.run()
    t.run()
    notes = [b for b in replies_to(t, cid) if "edited a comment" in b]
    assert len(notes) == 1 and "the first reading stands" in notes[0]
    assert t.money()["alice"] == 75  # 100 - 5 ante - 20: the raise of 20 stands


def test_a_deleted_comment_s_action_stands(tmp_path):
    t = ready(tmp_path)
    cid = t.p["alice"].say("HAND1 ROUND1 raise 20")
    t.run()
    t.forum.delete_comment(cid)
    t.run()
    assert t.money()["alice"] == 75
    assert t.gndt()["bob"][1] == "x"


def test_a_quoted_action_does_not_act_and_gets_no_reply(tmp_path):
    t = ready(tmp_path)
    cid = t.p["alice"].say("> bob: HAND1 ROUND1 raise 20\n\nbob said that last time, not me")
    t.run()
    assert replies_to(t, cid) == []
    assert t.gndt()["alice"] == (95, "x", 5)
    assert [v.status for v in t.verdicts() if v.forum_id == cid] == ["chat"]


def test_stale_hand_stale_round_not_seated_and_out_of_turn_each_get_one_rejection(tmp_path):
    t = ready(tmp_path, players=("alice", "bob", "carol"))
    cases = {
        t.p["alice"].say("HAND2 ROUND1 raise 10"): "stale_hand",
        t.p["alice"].say("HAND1 ROUND2 raise 10"): "stale_round",
        t.forum.post_as("erin", t.thread, "HAND1 ROUND1 raise 10"): "not_seated",
        t.p["carol"].say("HAND1 ROUND1 raise 10"): "not_your_turn",
    }
    t.run()
    t.run()
    for cid, code in cases.items():
        replies = replies_to(t, cid)
        assert len(replies) == 1, (code, replies)
        assert f"`{code}`" in replies[0] and "The rule:" in replies[0]
    assert t.gndt()["alice"] == (95, "x", 5)  # nothing acted


def test_the_dealer_s_own_comments_are_ignored(tmp_path):
    t = ready(tmp_path)
    t.forum.post_comment(t.thread, "HAND1 ROUND1 raise 10")  # as the Dealer account
    t.run()
    assert t.gndt()["alice"] == (95, "x", 5)
    assert t.new_dealer() == ["HAND1 ROUND1 raise 10"]  # only its own comment, no reply


def untimed(output: str) -> str:
    """The poll's console lines without their UTC timestamps (each line must have one)."""
    lines = output.splitlines()
    assert all(re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ ", ln) for ln in lines), output
    return "\n".join(ln[21:] for ln in lines)


def test_a_second_concurrent_poll_exits_0_and_says_why(tmp_path):
    t = ready(tmp_path)
    with FileLock(str(lock_path(t.state))):
        res = CliRunner().invoke(app, ["poll", "--state", str(t.state)])
    assert res.exit_code == 0
    assert "another nomicpoker poll is running" in res.output


def _snapshot(t: Table):
    def dump(path):
        con = sqlite3.connect(path)
        try:
            return {name: con.execute(f'SELECT * FROM "{name}"').fetchall()
                    for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        finally:
            con.close()
    from sqlalchemy import MetaData

    meta = MetaData()
    meta.reflect(t.engine)
    with t.engine.connect() as c:  # the ledger on SQLite or PostgreSQL, every row of every table
        ledger_rows = {name: sorted(map(tuple, c.execute(table.select()).fetchall()), key=repr)
                       for name, table in meta.tables.items()}
    return ledger_rows, dump(t.forum.path)


def test_dry_run_prints_what_would_be_posted_and_changes_nothing(tmp_path):
    t = ready(tmp_path)
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    before = _snapshot(t)
    res = CliRunner().invoke(app, ["poll", "--dry-run", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    assert "would post" in res.output and "**bob** to act, 20 to call" in res.output
    assert _snapshot(t) == before
    t.run()  # the real run then does it
    assert t.money()["alice"] == 75


def test_a_forum_failure_exits_non_zero_in_one_line_and_loses_nothing(tmp_path):
    t = ready(tmp_path)
    t.p["alice"].say("HAND1 ROUND1 raise 20")

    class Down:
        name = "local"

        def list_comments(self, thread):
            raise ForumError("network", "forum unreachable")

    report = t.poll(forum_factory=lambda kind, cfg, state: Down())
    assert not report.ok and report.tables[0].error.startswith("forum network: forum unreachable")
    t.run()
    assert t.money()["alice"] == 75


def test_cli_poll_failure_is_one_line_and_exit_1(tmp_path, monkeypatch):
    t = ready(tmp_path)
    os.remove(t.forum.path)
    os.makedirs(t.forum.path)  # the local forum file is now a directory: cannot open
    res = CliRunner().invoke(app, ["poll", "--state", str(t.state)])
    assert res.exit_code == 1
    assert "Traceback" not in res.output
    assert "FAILED" in res.output and len(res.output.strip().splitlines()) == 1


def test_a_deadline_checks_or_folds_for_the_player_as_a_recorded_event(tmp_path):
    t = ready(tmp_path, deadline_hours=1)
    later = datetime.now(timezone.utc) + timedelta(hours=2)
    report = t.poll(now=lambda: later)
    assert report.ok
    # Round 1 has no check: alice is folded by the dealer; bob is next.
    assert t.gndt()["alice"][1] == "o"
    bodies = t.new_dealer()
    assert any("alice's deadline passed" in b for b in bodies)
    assert any("**bob** to act" in b for b in bodies)


def test_an_action_for_another_player_is_rejected_once(tmp_path):
    t = ready(tmp_path)
    cid = t.p["alice"].say("bob: HAND1 ROUND1 folds")
    t.run()
    t.run()
    replies = replies_to(t, cid)
    assert len(replies) == 1 and "`not_player_action`" in replies[0] and "alice cannot act for bob" in replies[0]
    assert t.gndt()["alice"] == (95, "x", 5) and t.gndt()["bob"] == (95, "-", 5)


def test_turn_notices_give_the_deadline_and_a_silent_revealer_mucks(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), deadline_hours=24)
    t.start(ante=5)
    t.draw(1)
    notice = t.new_dealer()[-1]
    assert "Deadline: " in notice and " UTC" in notice
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 call")
    for r in (2, 3, 4):
        t.act("alice", f"HAND1 ROUND{r} check")
        t.act("bob", f"HAND1 ROUND{r} check")
    t.act("alice", "HAND1 reveal " + " ".join(t.p["alice"].hole()))
    later = datetime.now(timezone.utc) + timedelta(hours=25)
    assert t.poll(now=lambda: later).ok
    bodies = t.new_dealer()
    assert any("bob's deadline passed" in b and "mucks" in b for b in bodies)
    assert "Hand #1 is over" in bodies[-1]
    # alice alone showed: she takes the pot of 30 (2 x 5 ante + 2 x 10).
    assert t.money() == {"alice": 115, "bob": 85}
    from nomicpoker.shell.audit.audit import audit
    assert audit(t.engine, t.state)[1] == []  # the recorded timeout replays identically


def test_edited_chat_is_not_noted_but_chat_edited_into_an_action_is(tmp_path):
    t = ready(tmp_path)
    chat = t.p["bob"].say("good luck all")
    sneaky = t.p["alice"].say("thinking...")
    t.run()
    t.forum.edit_comment(chat, "good luck everyone")
    t.forum.edit_comment(sneaky, "HAND1 ROUND1 raise 20")
    t.run()
    assert replies_to(t, chat) == []
    notes = replies_to(t, sneaky)
    assert len(notes) == 1 and "the first reading stands" in notes[0]
    assert t.gndt()["alice"] == (95, "x", 5)  # the edit did not raise


def test_two_poll_processes_at_once_never_post_a_comment_twice(tmp_path):
    import subprocess
    import sys
    from collections import Counter

    from nomicpoker.core.words.render import find_tag

    t = ready(tmp_path, players=("alice", "bob", "carol"))
    for who in ("bob", "carol", "bob", "carol"):
        t.p[who].say("HAND1 ROUND1 raise 10")  # four out-of-turn actions: four rejections
    t.p["alice"].say("HAND1 ROUND1 raise 10")
    script = "from nomicpoker.cli import main; import sys; sys.argv[0]='nomicpoker'; main()"
    procs = [subprocess.Popen([sys.executable, "-c", script, "poll", "--state", str(t.state)],
                              stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    t.run()
    tags = Counter(find_tag(b) for b in t.dealer_bodies())
    assert tags and max(tags.values()) == 1
    assert sum("`not_your_turn`" in b for b in t.dealer_bodies()) == 4


def test_a_deck_sent_before_a_crash_is_not_sent_again_on_the_local_forum(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"))
    real = LocalForum(t.forum.path)

    class CrashAfterPrivate:
        name = "local"

        def __getattr__(self, item):
            return getattr(real, item)

        def send_private(self, user, subject, body):
            real.send_private(user, subject, body)
            raise ForumError("network", "connection reset after sending")

    from nomicpoker.shell.dealer import service

    # hand start through the crashing forum: alice's deck is delivered, then the crash
    started = service.start_hand(t.engine, t.state, "T", 5,
                                 forum_factory=lambda kind, cfg, state: CrashAfterPrivate())
    assert "the next poll sends the rest" in started.report.error
    assert len(real.inbox("alice")) == 1
    assert t.poll().ok
    assert [len(real.inbox(p)) for p in ("alice", "bob")] == [1, 1]


def test_a_stated_call_amount_that_differs_is_rejected_never_corrected(tmp_path):
    """Issue 3: a call "with or without an amount; a stated amount that differs from the
    amount to call is rejected, never silently corrected"."""
    t = ready(tmp_path, players=("alice", "bob", "carol"))
    t.act("alice", "HAND1 ROUND1 raise 20")  # alice 95 -> 75; bob owes 20
    low = t.p["bob"].say("HAND1 ROUND1 call 15")
    high = t.p["bob"].say("HAND1 ROUND1 call 25")
    t.run()
    t.run()
    for cid in (low, high):
        replies = replies_to(t, cid)
        assert len(replies) == 1 and "`call_amount_mismatch`" in replies[0], replies
    # nothing moved: bob still 95 with 5 (his ante) in, and still to act
    assert t.gndt()["bob"] == (95, "x", 5) and t.gndt()["alice"] == (75, "-", 25)
    t.act("bob", "HAND1 ROUND1 call 20")  # the right amount is accepted
    assert t.gndt()["bob"] == (75, "-", 25) and t.gndt()["carol"][1] == "x"


def test_an_action_in_a_finished_hand_s_thread_is_rejected_once_and_never_acts_in_the_new_hand(tmp_path):
    """The poll still reads the previous hand's story post; an action typed there (even one
    naming the running hand) gets one `hand_over` reply and changes nothing at the table."""
    from nomicpoker.shell.jobs.demo import Player

    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)  # button bob: alice first
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 folds")  # bob takes the 10 of antes: alice 95, bob 105
    old = t.thread
    t.start(ante=5)  # button alice: bob first; alice 90, bob 100, pot 10
    assert t.thread != old
    t.draw(2)
    t.new_dealer()
    assert t.gndt() == {"alice": (90, "-", 5), "bob": (100, "x", 5)}
    in_old = Player("bob", t.forum, old)
    stale = in_old.say("HAND1 ROUND1 raise 10")
    current = in_old.say("HAND2 ROUND1 raise 10")  # the right hand, the wrong thread
    t.run()
    t.run()
    for cid in (stale, current):
        replies = [c.body for c in t.forum.list_comments(old) if c.author == "Dealer" and c.parent_id == cid]
        assert len(replies) == 1 and "`hand_over`" in replies[0], replies
    assert t.gndt() == {"alice": (90, "-", 5), "bob": (100, "x", 5)}
    assert t.new_dealer() == []  # nothing in the running hand's thread


@pytest.mark.parametrize("body", ["HAND#1 DICE6 DICE6", "HAND#1 DICE52", "HAND#1 DICE52 DICE52 DICE52"])
def test_a_malformed_hole_card_draw_quotes_the_draw_sentence_not_the_raise_sentence(tmp_path, body):
    # the rule sentence the Hole Card Draw rests on (rules/blognomic-2008/rule.txt, as enacted)
    draw_sentence = "shall make a comment of"
    t = Table(tmp_path, players=("alice", "bob"))
    t.start(ante=5)
    t.new_dealer()
    (reply,) = t.act("alice", body)
    assert "was not accepted" in reply and "HAND#1 DICE52 DICE52" in reply  # rejected, saying the form
    assert draw_sentence in reply, reply
    assert "raise" not in reply.lower(), reply


def test_one_table_whose_forum_fails_does_not_stop_another_and_the_run_exits_1(tmp_path):
    """Cron runs one poll for every table: a broken forum is reported for its table, in one
    line, while the other table is adjudicated and answered as usual."""
    from nomicpoker.shell.dealer import service

    t = ready(tmp_path, players=("alice", "bob"))
    broken = tmp_path / "elsewhere" / "forum.db"
    service.create_table(t.engine, t.state, "U", ["carol", "dave"], 100, forum="local",
                         forum_config={"path": str(broken)})
    assert not service.start_hand(t.engine, t.state, "U", 5).report.error
    broken.unlink()
    broken.mkdir()  # U's forum file is now a directory: it cannot be opened
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    report = t.poll()
    by_name = {r.table: r for r in report.tables}
    assert not report.ok
    assert by_name["T"].error == "" and by_name["T"].sent == 1
    assert "cannot open the local forum" in by_name["U"].error
    # T moved on: alice 100 - 5 - 20 = 75, bob to act
    assert t.gndt() == {"alice": (75, "-", 25), "bob": (95, "x", 5)}
    res = CliRunner().invoke(app, ["poll", "--state", str(t.state)])
    assert res.exit_code == 1
    failed = [ln for ln in untimed(res.output).splitlines() if "FAILED" in ln]
    assert len(failed) == 1 and failed[0].startswith("U: FAILED"), res.output


def test_poll_quiet_prints_nothing_unless_something_failed_and_table_limits_the_run(tmp_path):
    """The crontab line of the README runs `poll --quiet`: silent when all went well (cron mails
    any output), the one failure line otherwise. `--table` polls only that table."""
    from nomicpoker.shell.dealer import service

    t = ready(tmp_path, players=("alice", "bob"))
    run = CliRunner().invoke
    st = ["--state", str(t.state)]
    res = run(app, ["poll", "--quiet"] + st)
    assert (res.exit_code, res.output) == (0, "")  # nothing new
    t.p["alice"].say("HAND1 ROUND1 raise 20")
    res = run(app, ["poll", "--quiet"] + st)
    assert (res.exit_code, res.output) == (0, "")  # work done, quietly
    assert t.gndt()["alice"] == (75, "-", 25)
    # a second table whose forum cannot be opened
    broken = tmp_path / "elsewhere" / "forum.db"
    service.create_table(t.engine, t.state, "U", ["carol", "dave"], 100, forum="local",
                         forum_config={"path": str(broken)})
    assert not service.start_hand(t.engine, t.state, "U", 5).report.error
    broken.unlink()
    broken.mkdir()
    res = run(app, ["poll", "--quiet"] + st)
    assert res.exit_code == 1
    assert len(res.output.splitlines()) == 1 and untimed(res.output).startswith("U: FAILED"), res.output
    # --table T leaves U alone: it succeeds
    t.p["bob"].say("HAND1 ROUND1 call")
    res = run(app, ["poll", "--table", "T"] + st)
    assert res.exit_code == 0 and "U:" not in res.output and untimed(res.output).startswith("T: "), res.output
    assert t.gndt()["bob"] == (75, "-", 25)
