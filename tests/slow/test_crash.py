"""Crash safety, kept (issue 13): a crash at every I/O boundary of ``hand start`` and of
every ``poll`` across whole hands (before and after each forum call, each ledger commit, the
secrets file and the pending story-post file), each followed by a normal run, loses no
action, posts no comment or private message twice, and leaves the ledger and the forum
exactly as the run that never crashed (clock columns aside); the audit stays clean. On the
local forum with SQLite and (``-m postgres``) PostgreSQL. See tests/kits/sweeps/crash.py for how."""

from __future__ import annotations

import pytest

from nomicpoker.shell.jobs import poll as poll_mod
from nomicpoker.shell.dealer import service
from nomicpoker.shell.audit.audit import audit

from kits.tables.bot import Table
from kits.sweeps.crash import Backend, Recorder, check_every_point

FIGURES: dict = {}


def play_two_hands(t: Table) -> None:
    """Hand 1: WHAT twice (two private answers with the same words), a comment out of turn
    (rejected), a raise, a fold. Hand 2 to a showdown: all in,
    a call, the board runs out, both reveal. Decks go out privately in both."""
    t.start(ante=5)
    t.draw(1)
    for _ in range(2):  # the same private answer twice (issue 22): both must arrive, once each
        t.act("alice", "WHAT")
    t.act("bob", "HAND1 ROUND1 call")  # not bob's turn: a rejection comment
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 folds")
    assert t.money() == {"alice": 105, "bob": 95}
    t.start(ante=5)
    t.draw(2)
    t.act("bob", "HAND2 ROUND1 all in")  # the button moved to alice: bob acts first
    t.act("alice", "HAND2 ROUND1 call")
    t.act("bob", "HAND2 reveal " + " ".join(t.p["bob"].hole()))
    t.act("alice", "HAND2 reveal " + " ".join(t.p["alice"].hole()))
    assert sum(t.money().values()) == 200 and len(t.dealer_bodies()) > 3


#: each sweep is cut into CRASH_PARTS tests (each plays the reference hands again, ~2% of a
#: part's time): together they crash every point, and the test workers run them side by side
#: instead of one worker running a 3-minute sweep alone
CRASH_PARTS = 3


@pytest.mark.slow
@pytest.mark.parametrize("part", range(CRASH_PARTS))
def test_a_crash_at_every_io_boundary_of_whole_hands_loses_and_doubles_nothing(tmp_path, ledger_url, monkeypatch, part):
    pg = not ledger_url.startswith("sqlite")
    backend = Backend(ledger_url, admin_url=ledger_url.rsplit("/", 1)[0] + "/postgres" if pg else None)
    t = Table(tmp_path / "reference", players=("alice", "bob"), db=ledger_url if pg else None)
    real_poll, real_start = poll_mod.poll, service.start_hand
    rec = Recorder(backend, tmp_path / "scratch", real_poll)
    url = lambda: t.engine.url.render_as_string(hide_password=False)  # noqa: E731
    monkeypatch.setattr(poll_mod, "poll", rec.wrap("poll", real_poll, url, t.engine.dispose))
    monkeypatch.setattr(service, "start_hand", rec.wrap("start", real_start, url, t.engine.dispose))
    play_two_hands(t)
    monkeypatch.undo()
    names, diffs = audit(t.engine, t.state)
    assert names == ["T"] and diffs == []
    # PostgreSQL: every third point (a database copy per crash makes each ~1.5 s); the code
    # path is the same, only the ledger's database differs. SQLite: every point.
    figures = check_every_point(rec, real_poll, only_every=3 if pg else 1, part=part, parts=CRASH_PARTS)
    FIGURES[(ledger_url.split(":")[0], part)] = figures
    print(f"\ncrash points, part {part} of {CRASH_PARTS}: {figures}")
    assert figures["points"].get("start", 0) >= 40 and figures["points"].get("poll", 0) >= 100
