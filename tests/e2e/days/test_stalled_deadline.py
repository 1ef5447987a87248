"""An alarm that cannot act is said (issue 22): with a Hole Card Draw deadline and nobody having
stated a draw, the poll at the deadline printed only "nothing new": players were told they
would be folded out, and the Dealer was not told the hand is stalled. Now the poll records a
``stalled`` dealer event once, posts a notice in the thread (its time as reminders give
times, never raw ISO), logs a warning and exits with code 3 (``STALLED_EXIT``), which cron
reports; the next polls are quiet, and ``audit`` replays the notice."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.audit.audit import audit
from nomicpoker.shell.jobs.poll import STALLED_EXIT

from kits.tables.bot import Table

T0 = datetime(2026, 11, 30, 9, 0, tzinfo=timezone.utc)  # a Monday


def _table(tmp_path, tz: str = "Europe/London") -> Table:
    return Table(tmp_path, players=("alice", "bob"), settings={"deadline_hours": 4, "reminders": 0, "tz": tz})


def test_a_draw_deadline_with_no_draw_stated_is_said_once_and_reported(tmp_path):
    t = _table(tmp_path)
    t.start(ante=5, now=lambda: T0)
    t.new_dealer()
    quiet = t.poll(now=lambda: T0 + timedelta(hours=3))
    assert quiet.tables[0].stalled == [] and t.new_dealer() == []
    report = t.poll(now=lambda: T0 + timedelta(hours=4, minutes=5))
    (stall,) = report.tables[0].stalled
    assert "hand 1 is stalled" in stall and "hand void --table T" in stall
    (notice,) = t.new_dealer()
    assert notice.startswith("Hand #1: the Hole Card Draw deadline passed at 2026-11-30 13:00 UTC "
                             "(Mon 2026-11-30 13:00 Europe/London) and no seated player has stated a "
                             "Hole Card Draw (alice, bob)."), notice
    assert "2026-11-30T" not in notice  # never raw ISO
    again = t.poll(now=lambda: T0 + timedelta(hours=6))
    assert again.tables[0].stalled == [] and t.new_dealer() == []  # said once
    assert audit(t.engine, t.state)[1] == []
    # the draws still open the hand: the one who draws is not folded out by the stall
    t.draw(1, who=("alice",))
    assert not any("folded out" in b for b in t.new_dealer())


def test_the_poll_command_warns_and_exits_3_for_cron(tmp_path):
    t = _table(tmp_path, tz="UTC")
    t.start(ante=5, now=lambda: datetime.now(timezone.utc) - timedelta(hours=5))
    r = CliRunner().invoke(app, ["poll", "--state", str(t.state), "--site", "off"])
    assert r.exit_code == STALLED_EXIT == 3, r.output
    assert "hand 1 is stalled" in r.output
    r = CliRunner().invoke(app, ["poll", "--state", str(t.state), "--site", "off"])
    assert r.exit_code == 0, r.output  # said once: the next runs are quiet


def test_a_timeout_notice_gives_its_time_as_reminders_do(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False,
              settings={"deadline_hours": 4, "reminders": 0, "tz": "Europe/London"})
    t.start(ante=0, blinds=(1, 2), now=lambda: T0)
    t.new_dealer()
    t.poll(now=lambda: T0 + timedelta(hours=5))
    (timeout,) = [b for b in t.new_dealer() if "deadline passed" in b]
    # recorded by the poll at 14:00 (the deadline was 13:00)
    assert "deadline passed at 2026-11-30 14:00 UTC (Mon 2026-11-30 14:00 Europe/London)" in timeout
    assert "2026-11-30T" not in timeout
