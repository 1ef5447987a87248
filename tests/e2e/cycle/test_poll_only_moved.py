"""A poll works only on the tables that moved (issue 24, :mod:`nomicpoker.shell.cycle.moved`).

Two heads-up tables on the real local forum and one real SQLite ledger, a 4-hour deadline, a
fake clock; the library's poll with the real adapters. A table with no new input is not
folded (its report says ``unchanged``, and no code of the fold runs for it: watched with
``sys.setprofile``, nothing patched), yet each kind of new input makes its table, and only it,
take the poll: a comment, an edit, a private message, a Dealer's command, and above all a
deadline falling due with nothing new at all: the timeout is applied at the poll after it,
as the per-table poll applies it. ``audit`` (a replay from nothing) agrees at the end.
"""

from __future__ import annotations

import re
import sys
from datetime import datetime, timedelta, timezone

from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.cycle import moved
from nomicpoker.shell.dealer import service
from nomicpoker.shell.dealer.controls import control
from nomicpoker.shell.jobs.demo import Player
from nomicpoker.shell.storage import secrets_store
from nomicpoker.shell.storage.paths import forum_db_path

from kits.tables.bot import Table, fixed_secrets
from kits.tables.clock import Clock, T0, at


def folded_tables(t: Table, clock: Clock, moment) -> tuple[dict[str, str], set[str]]:
    """Poll at ``moment``; return each table's ``folded`` and the tables the fold ran for
    (``replay.adjudicate`` entered, seen by a profile hook)."""
    clock.t = moment
    entered: set[str] = set()

    def hook(frame, event, arg):  # noqa: ANN001
        if event == "call" and frame.f_code.co_name == "adjudicate" \
                and frame.f_code.co_filename.endswith("replay.py"):
            entered.add(frame.f_locals["table"].name)

    sys.setprofile(hook)
    try:
        report = t.poll(now=clock)
    finally:
        sys.setprofile(None)
    assert report.ok, [x.error for x in report.tables]
    return {x.table: x.folded for x in report.tables}, entered


def two_tables(tmp_path) -> tuple[Table, Clock, dict[str, Player]]:
    clock = Clock(T0)
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False,
              settings={"deadline_hours": 4, "reminders": 0})
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    service.create_table(t.engine, t.state, "U", ["carol", "dave"], 100, ruleset="roberts-nlhe",
                         issue_decks=False, settings={"deadline_hours": 4, "reminders": 0})
    t.start(ante=0, blinds=(1, 2), now=clock)
    secrets_store.write(t.state, "U", 1, fixed_secrets("U:1"))
    u = service.start_hand(t.engine, t.state, "U", 0, blinds=(1, 2), now=clock)
    assert not u.report.error
    players = {n: Player(n, t.forum, u.thread) for n in ("carol", "dave")}
    # the hand starts' own posts are archived by the first poll; the second finds nothing
    folded_tables(t, clock, at(0.1))
    folded_tables(t, clock, at(0.2))
    return t, clock, players


def test_a_table_with_no_new_input_is_not_folded_yet_times_out_when_its_deadline_falls_due(tmp_path):
    t, clock, u = two_tables(tmp_path)
    assert (t.state / moved.MARKS).exists()
    assert folded_tables(t, clock, at(1)) == ({"T": "unchanged", "U": "unchanged"}, set())
    # a comment at U: U alone is polled (three times: its poll posts the Dealer's answer, the
    # next archives it, the third finds nothing and records U's mark), T is never folded
    clock.t = at(1.5)
    u["dave"].say("call")
    folds, entered = folded_tables(t, clock, at(1.5))
    assert folds == {"T": "unchanged", "U": "resumed"} and entered == {"U"}
    assert folded_tables(t, clock, at(1.6))[1] == {"U"}
    assert folded_tables(t, clock, at(1.7))[1] == {"U"}
    assert folded_tables(t, clock, at(1.8)) == ({"T": "unchanged", "U": "unchanged"}, set())
    # bob's deadline, as the hand's notice gave it; nothing else is new at T
    notice = next(b for b in t.dealer_bodies() if "**bob** to act" in b)
    deadline = datetime.strptime(re.search(r"Deadline: (\S+ \S+) UTC", notice).group(1),
                                 "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc)
    t.new_dealer()
    assert folded_tables(t, clock, deadline - timedelta(minutes=1)) == ({"T": "unchanged", "U": "unchanged"}, set())
    assert t.new_dealer() == []
    folds, entered = folded_tables(t, clock, deadline)
    assert folds == {"T": "resumed", "U": "unchanged"} and entered == {"T"}
    out = t.new_dealer()
    assert out[0].startswith(f"bob's deadline passed at {deadline:%Y-%m-%d %H:%M} UTC: the dealer acts for "
                             "them and folds"), out
    assert t.money() == {"alice": 101, "bob": 99}
    assert audit(t.engine, t.state) == (["T", "U"], [])


def test_each_kind_of_new_input_makes_its_table_alone_take_the_poll(tmp_path):
    t, clock, u = two_tables(tmp_path)

    def settle(moment) -> None:
        for k in range(4):
            if folded_tables(t, clock, moment + timedelta(seconds=k))[1] == set():
                return
        raise AssertionError("the tables never settled")

    settle(at(0.3))
    # an edit of a comment already archived (the local forum's triggers count it)
    clock.t = at(0.5)
    cid = t.p["bob"].say("table talk, nothing more")
    folded_tables(t, clock, at(0.5))
    settle(at(0.6))
    t.forum.edit_comment(cid, "table talk, edited", author="bob")
    assert folded_tables(t, clock, at(0.7))[1] == {"T"}
    settle(at(0.8))
    # a private message from a player of U (an advance action), to the Dealer
    t.forum.send_private_as("carol", "Dealer", "U", "fold")
    assert folded_tables(t, clock, at(0.9))[1] == {"U"}
    settle(at(1.0))
    # a Dealer's command on T (a dealer event in the ledger)
    clock.t = at(1.0)
    assert not control(t.engine, t.state, "T", "pause", "a break", now=clock).report.error
    assert folded_tables(t, clock, at(1.1))[1] == {"T"}
    assert audit(t.engine, t.state) == (["T", "U"], [])
