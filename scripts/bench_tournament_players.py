"""The scripted players of ``scripts/bench_tournament.py --only play`` (issue 24).

Each scripted player does what a player reading the thread does: finds the Dealer's last
turn notice naming it ("**p0042** to act") with its "Legal actions:" list, and posts one of
them at random (an all-in a quarter of the time, so tables play down), or sends it privately
as an advance action (WRGPT's inbox), or goes on vacation (``GONE``), or lets its deadline
pass (the fake clock is moved past the deadlines: timeouts). At a showdown each player named
reveals the hole cards of his inbox. Nothing here is timed.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

LEGAL = re.compile(r"^- `(HAND\d+ ROUND\d+ ([a-z ]+?)(?: Z)?)`(?: \((?:Z from (\d+) to (\d+)|(\d+)).*)?$", re.M)
SHOWDOWN = re.compile(r"Hand #(\d+): betting is over\. Showdown")
HOLE = re.compile(r"\(([2-9TJQKA][shdc] [2-9TJQKA][shdc])\)")
DEADLINE = re.compile(r"Deadline: (\d{4}-\d\d-\d\d \d\d:\d\d) UTC")
TO_ACT = re.compile(r"\*\*(\S+)\*\* to act")


class Clock:
    """The fake clock: every poll, hand start, director step and player's post reads it."""

    def __init__(self, moment: datetime):
        self.t = moment

    def __call__(self) -> datetime:
        return self.t


@dataclass(frozen=True)
class Notice:
    """What a table waits for now: ``who`` is to act (``acts``: his legal actions, ``deadline``),
    or, ``who`` empty, a showdown where ``acts`` are the reveals of the players named."""

    table: str
    who: str
    thread: str
    acts: tuple[tuple[str, str, int, int], ...]
    deadline: datetime | None


@dataclass
class Players:
    """The scripted players of every table, on the local forum ``forum`` under ``clock``."""

    forum: object
    clock: Clock
    rng: random.Random
    revealed: set[tuple[str, int, str]] = field(default_factory=set)
    seen: dict[str, int] = field(default_factory=lambda: {"advance": 0, "gone": 0, "allin": 0, "actions": 0,
                                                          "reveals": 0, "back": 0})
    away: set[str] = field(default_factory=set)  # who went GONE or timed out (they come back: BACK)

    def notices(self, threads: dict[str, str]) -> dict[str, Notice]:
        """Each table's player to act (or showdown), from the Dealer's last comment that says,
        in its hand's thread (``threads``: table -> thread)."""
        out = {}
        for t, th in threads.items():
            for c in reversed(self.forum.list_comments(th)):
                if c.author != "Dealer":
                    continue
                show = SHOWDOWN.search(c.body)
                if show:
                    hand = int(show.group(1))
                    named = re.findall(r"^\d+\. (\S+)$", c.body.split("Reveal your hole cards", 1)[1], re.M)
                    out[t] = Notice(t, "", th, tuple((f"HAND{hand} reveal", p, hand, 0) for p in named), None)
                    break
                m = TO_ACT.search(c.body)
                if m and "Legal actions:" in c.body:
                    acts = tuple((full, word, int(lo or 0), int(hi or 0))
                                 for full, word, lo, hi, _ in LEGAL.findall(c.body))
                    d = DEADLINE.search(c.body)
                    when = (datetime.strptime(d.group(1), "%Y-%m-%d %H:%M").replace(tzinfo=timezone.utc)
                            if d else None)
                    out[t] = Notice(t, m.group(1), th, acts, when)
                    break
                if " is over.**" in c.body:
                    break
        return out

    def act(self, n: Notice) -> bool:
        """The player ``n`` names acts (or the showdown's players reveal): whether anything was posted."""
        if not n.acts:
            return False
        if not n.who:
            posted = False
            for text, player, hand, _ in n.acts:
                if (n.table, hand, player) in self.revealed:
                    continue
                self.revealed.add((n.table, hand, player))
                key = f"[np:{n.table}-h{hand}-"
                cards = next((HOLE.search(m.body).group(1) for m in reversed(self.forum.inbox(player))
                              if key in m.subject and HOLE.search(m.body)), None)
                if cards is not None:
                    self.forum.post_as(player, n.thread, f"{text} {cards}")
                    self.seen["reveals"] += 1
                    posted = True
            return posted
        rng = self.rng
        roll = rng.random()
        full, word, lo, hi = rng.choice(n.acts)
        if word == "raise" and lo:
            full = f"{full[:-2]} {rng.randint(lo, hi)}"  # "... raise Z": a total in the range
        elif rng.random() < 0.25:
            allin = [a for a in n.acts if a[1] == "all in"]
            if allin:
                full = allin[0][0]
                self.seen["allin"] += 1
        if roll < 0.03:  # a private advance action, the Dealer's inbox (WRGPT)
            self.forum.send_private_as(n.who, "Dealer", n.table,
                                       full.split(" ", 2)[2].upper().replace("FOLDS", "FOLD"))
            self.seen["advance"] += 1
        elif roll < 0.04:  # a vacation
            self.forum.post_as(n.who, n.thread, f"GONE {(self.clock.t + timedelta(days=1)):%d %b}")
            self.away.add(n.who)
            self.seen["gone"] += 1
        else:
            self.forum.post_as(n.who, n.thread, full)
            self.seen["actions"] += 1
        return True

    def back(self, player: str, thread: str) -> None:
        """WRGPT's BACK: a player on vacation, or sitting out after his timeouts, returns."""
        self.forum.post_as(player, thread, "BACK")
        self.away.discard(player)
        self.seen["back"] += 1


__all__ = ["Clock", "Notice", "Players"]
