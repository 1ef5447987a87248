"""Tables played against a fake clock: the two-weeks table of office hours
(tests/e2e/days/test_play_over_days.py and the days tests built on it), the heads-up table of a
plain 4-hour deadline (tests/e2e/days/test_deadline_action.py), and polls at a given moment
(tests/e2e/days/test_draw_deadline.py); tests/e2e/hands/test_dealer_says_once.py uses all three."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from sqlmodel import Session, select

from nomicpoker.adapters.local import LocalForum
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.paths import forum_db_path
from nomicpoker.shell.storage.store import DealerEventRow

from kits.tables.bot import Table
from kits.tables.rulesets import copy_ruleset, replace

# --- over days (office hours)

NY = ZoneInfo("America/New_York")
SETTINGS = {"deadline_hours": 4, "tz": "America/New_York", "day_start": 9, "day_length": 9,
            "weekends_off": True, "reminders": 1, "max_timeouts": 3, "flood_threshold": 2}


def ny(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 12, day, hour, minute, tzinfo=NY).astimezone(timezone.utc)


class Clock:
    def __init__(self, moment: datetime):
        self.t = moment

    def __call__(self) -> datetime:
        return self.t


def events(t: Table) -> list[tuple[str, str, int]]:
    with Session(t.engine) as s:
        return [(e.kind, e.player, e.hand) for e in s.exec(select(DealerEventRow).where(
            DealerEventRow.table_name == t.name).order_by(DealerEventRow.id))]


def poll(t: Table, clock: Clock, moment: datetime, **kw) -> list[str]:
    clock.t = moment
    report = t.poll(now=clock, **kw)
    assert report.ok, [x.error for x in report.tables]
    return t.new_dealer()


def say(t: Table, clock: Clock, who: str, moment: datetime, body: str) -> list[str]:
    clock.t = moment
    t.p[who].say(body)
    return poll(t, clock, moment)


def hole(t: Table, who: str, number: int) -> str:
    msg = next(m for m in reversed(t.forum.inbox(who)) if f"hand {number}," in m.body)
    return re.search(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)", msg.body).group(1)


def table(tmp_path) -> tuple[Table, Clock]:
    clock = Clock(ny(4, 16))
    t = Table(tmp_path, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False,
              seed="days", settings=dict(SETTINGS))
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    return t, clock


def start(t: Table, clock: Clock, moment: datetime) -> list[str]:
    clock.t = moment
    t.start(ante=0, blinds=(1, 2), now=clock)
    return t.new_dealer()


# --- a plain deadline

T0 = datetime(2026, 12, 7, 14, 0, tzinfo=timezone.utc)  # a Monday
#: what a house that always folds writes into its rules, and cites for deadline_action = "fold"
FOLD_SENTENCE = "A player whose time runs out folds, whether or not a bet faces him."


def at(hours: float) -> datetime:
    return T0 + timedelta(hours=hours)


def nlhe(tmp_path, action: str) -> Table:
    """roberts-nlhe as bundled (``check_or_fold``), or amended by a house to ``fold``."""
    ruleset = "roberts-nlhe"
    if action == "fold":
        rules = copy_ruleset(tmp_path / "nlhe-fold", "roberts-nlhe")
        with (rules / "rule.txt").open("a", encoding="utf-8") as f:
            f.write(f"\n{FOLD_SENTENCE}\n")
        replace(rules, '[params.deadline_action]\nvalue = "check_or_fold"\nsource = "Dead hands, rule 1(e)"\n'
                'cite = "(e) You have the clock on you when facing a bet or raise and exceed the specified time limit."',
                f'[params.deadline_action]\nvalue = "fold"\nsource = "House rule"\ncite = "{FOLD_SENTENCE}"')
        ruleset = str(rules)
    return Table(tmp_path / "t", players=("alice", "bob"), ruleset=ruleset, issue_decks=False,
                 settings={"deadline_hours": 4, "reminders": 0})


def run(t: Table, clock: Clock, moment: datetime) -> list[str]:
    clock.t = moment
    report = t.poll(now=clock)
    assert report.ok, [x.error for x in report.tables]
    return t.new_dealer()


def started(tmp_path, action: str) -> tuple[Table, Clock, str]:
    clock = Clock(T0)
    t = nlhe(tmp_path, action)
    t.forum = LocalForum(forum_db_path(t.state), clock=clock)
    t.start(ante=0, blinds=(1, 2), now=clock)
    notice = t.new_dealer()[-1]
    assert "**bob** to act" in notice
    return t, clock, notice


NOTICE = {"check_or_fold": "After it the dealer checks for you if that is legal, otherwise folds.",
          "fold": "After it the dealer folds for you."}
RULE = {"check_or_fold": "(the deadline rule: check if that is legal, otherwise fold)",
        "fold": "(the deadline rule: fold)"}


# --- polls at a moment

def started_at(t: Table) -> datetime:
    with Session(t.engine) as s:
        return datetime.fromisoformat(ledger.hand_rows(s, t.name)[-1].started_at)


def poll_at(t: Table, moment: datetime) -> list[str]:
    report = t.poll(now=lambda: moment)
    assert report.ok, [x.error for x in report.tables]
    return t.new_dealer()
