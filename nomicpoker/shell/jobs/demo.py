"""``nomicpoker demo``: one full hand of Dealing and Play on the embedded local forum.

The demo is a script of player comments with a poll cycle between them, exactly as cron and
real players would produce them: nothing in it reaches into the dealer's state. Players read
their decks from their own inboxes (as a player would), draw, bet, and reveal their real hole
cards. Along the way it shows the rejections the rule calls for: a check before the flop, an
action out of turn, and a quoted action that does not count.

:class:`Player` is also what the end-to-end tests play with.
"""

from __future__ import annotations

import shlex

import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.shell.storage import ledger
from nomicpoker.shell.jobs import poll as poll_mod
from nomicpoker.shell.dealer import service
from nomicpoker.shell.cycle.forums import local_forum
from nomicpoker.core.poker.cards import parse_card
from nomicpoker.core.words.gndt import gndt
from nomicpoker.shell.storage.paths import site_dir
from nomicpoker.shell.audit.site import build_site
from nomicpoker.shell.audit.verdicts import verdict_lines
from nomicpoker.shell.storage.store import TableRow

#: the embedded local forum (``adapters/local.py``, opened by the composition root): it posts
#: as any player (``post_as``) and reads a player's inbox (``inbox``)
LocalForum = Any

DEMO_PLAYERS = ("alice", "bob", "carol", "dave")
_LISTING = re.compile(r"^- *(\d+): (\S+) \(")


@dataclass
class Player:
    """A scripted player on the local forum: posts comments and reads their own inbox."""

    name: str
    forum: LocalForum  # the embedded local forum: it posts as any player and reads their inbox
    thread: str = ""
    deck: dict[int, str] = field(default_factory=dict)
    checksum: str = ""
    positions: tuple[int, ...] = ()

    def say(self, body: str) -> str:
        return self.forum.post_as(self.name, self.thread, body)

    def read_deck(self, hand: int) -> None:
        """Find the Trading Post deck for ``hand`` in the inbox and note its cards."""
        for msg in reversed(self.forum.inbox(self.name)):
            if f"hand {hand}" not in msg.body.split("\n", 1)[0]:
                continue
            deck = {}
            for line in msg.body.splitlines():
                m = _LISTING.match(line)
                if m:
                    deck[int(m.group(1))] = parse_card(m.group(2))
                elif line.startswith("Cards printed by:") and not self.checksum:
                    self.checksum = line.strip()
            self.deck = deck
            return
        raise LookupError(f"{self.name} has no deck for hand {hand} in the inbox")

    def dice_results(self, comment_id: str) -> tuple[int, int] | None:
        """The dealer's reply with this comment's dice (as the player reads the thread)."""
        for c in self.forum.list_comments(self.thread):
            if c.author == self.forum.dealer and f"comment-{comment_id})" in c.body and "DICE52:" in c.body:
                found = re.findall(r"DICE52: (\d+)", c.body)
                return int(found[0]), int(found[1])
        return None

    def hole(self) -> tuple[str, ...]:
        return tuple(self.deck[p] for p in self.positions)


def draw_all(players: list[Player], hand: int, run: Callable[[], None]) -> None:
    """Every player draws (again on identical dice) and states the draw with the checksum."""
    for p in players:
        p.checksum = ""
        p.read_deck(hand)
    waiting = list(players)
    for _attempt in range(20):  # identical dice are drawn again; 20 in a row would be absurd
        if not waiting:
            break
        ids = {p.name: p.say(f"HAND#{hand} DICE52 DICE52") for p in waiting}
        run()
        again = []
        for p in waiting:
            a, b = p.dice_results(ids[p.name]) or (0, 0)
            if a == b:
                again.append(p)
            else:
                p.positions = (a, b)
        waiting = again
    if waiting:
        raise RuntimeError(f"no usable Hole Card Draw for {', '.join(p.name for p in waiting)}")
    for p in players:
        p.say(f"cards {p.positions[0]}, {p.positions[1]}, {p.checksum}")
    run()


def _fresh_name(engine: Engine, base: str) -> str:
    with Session(engine) as s:
        names = {t.name for t in s.exec(select(TableRow)).all()}
    if base not in names:
        return base
    n = 2
    while f"{base}-{n}" in names:
        n += 1
    return f"{base}-{n}"


def reader_view(forum: LocalForum, thread: str) -> str:
    """The thread as a reader sees it: the story post, then every comment with its author."""
    t = forum.thread(thread)
    out = [f"==== {t.title} (story post by {t.author}) ====", t.body, ""]
    for c in forum.list_comments(thread):
        out.append(f"---- #{c.id} {c.author} ----")
        out.append(c.body.rstrip("\n"))
        out.append("")
    return "\n".join(out)


#: The demo's entropy window: it closes this long after ``hand open`` (the players comment at
#: once, then the demo's clock for ``hand start`` jumps to the close instead of waiting).
DEMO_WINDOW = timedelta(seconds=30)


def _entropy_start(engine: Engine, state: Path, name: str, forum: LocalForum) -> service.HandStarted:
    """``hand open``, three players' comments in the window (dave stays silent), ``hand start``."""
    from nomicpoker.shell.dealer import entropy_window

    now = datetime.now(timezone.utc)
    w = entropy_window.open_window(engine, state, name, 60,
                                   now=lambda: now - timedelta(minutes=60) + DEMO_WINDOW)
    for who, text in (("alice", "SEED 7 11 42"), ("bob", "my cat walked on the keyboard: kjhsdf"),
                      ("carol", "good luck everyone")):
        forum.post_as(who, w.thread, text)
    close = datetime.fromisoformat(w.close_at)
    return service.start_hand(engine, state, name, now=lambda: max(close + timedelta(seconds=1),
                                                                            datetime.now(timezone.utc)))


def run_demo(engine: Engine, state: Path, echo: Callable[[str], None] = print, table: str = "demo",
             entropy: bool = False) -> dict:
    """Create a fresh demo table and play one hand; return a summary for the caller/tests.
    ``entropy``: the table deals with players' entropy (``hand open``, comments, ``hand start``)."""
    name = _fresh_name(engine, table)
    service.create_table(engine, state, name, list(DEMO_PLAYERS), 100, forum="local",
                         settings={"ante": 5,  # the table's ante: every hand start takes it
                                   **({"entropy": "players"} if entropy else {})})
    forum = local_forum(state, dealer="Dealer")
    started = (_entropy_start(engine, state, name, forum) if entropy
               else service.start_hand(engine, state, name))
    alice, bob, carol, dave = players = [Player(n, forum, started.thread) for n in DEMO_PLAYERS]
    problems: list[str] = []

    def run() -> None:
        report = poll_mod.poll(engine, state, table=name)
        for t in report.tables:
            if t.error:
                problems.append(t.error)

    h = started.number
    draw_all(players, h, run)
    # Round 1: alice is first after the button (dave).
    alice.say(f"HAND{h} ROUND1 check")  # rejected: no check before the flop
    carol.say(f"HAND{h} ROUND1 raise 10")  # rejected: not carol's turn
    run()
    alice.say(f"HAND{h} ROUND1 raise 10")
    run()
    bob.say(f"> alice: HAND{h} ROUND1 folds\n\nFold? Not me. Quoting alice's joke does not act.")
    run()
    bob.say(f"HAND{h} ROUND1 call")
    run()
    carol.say(f"Hand #{h}, Round 1: raises 30")
    run()
    dave.say(f"HAND{h} ROUND1 folds")
    run()
    alice.say(f"HAND{h} ROUND1 call")
    run()
    bob.say(f"HAND{h} ROUND1 call")
    run()
    # Round 2 (after the flop)
    alice.say(f"HAND{h} ROUND2 check")
    run()
    bob.say(f"HAND{h} ROUND2 raise 20")
    run()
    carol.say(f"HAND{h} ROUND2 all in")
    run()
    alice.say(f"HAND{h} ROUND2 folds")
    run()
    bob.say(f"HAND{h} ROUND2 call")
    run()
    # Both remaining players are all-in: the turn and the river run out; showdown.
    for p in (bob, carol):
        cards = " ".join(p.hole())
        p.say(f"HAND{h} reveal {cards}")
        run()
    with Session(engine) as s:
        t = ledger.get_table(s, name)
        rows = ledger.gndt(s, t)
        verdicts = verdict_lines(s, t, h)
    if entropy:
        echo("The table deals with players' entropy: the Dealer committed first, alice, bob and carol "
             "commented in the window (dave stayed silent), and every card comes from both.\n")
    echo(f"Table {name}: alice, bob, carol and dave, 100 Money each, ante 5, on the local forum.\n"
         "Below is the story post's thread as a reader sees it, then the dealer's verdicts and the GNDT.\n")
    echo(reader_view(forum, started.thread))
    echo("==== The dealer's verdicts (from the ledger; nomicpoker verdicts prints them) ====")
    for line in verdicts:
        echo(line)
    echo("")
    echo(gndt(rows, "md", title=f"GNDT of table {name} after hand #{h}"))
    site = site_dir(state) or state / "site"
    build_site(engine, site, None, state)
    st = f" --state {shlex.quote(str(state))}"  # each line works as copied
    echo("\n".join([
        f"The auditors' site is written to {site / 'index.html'} (hand pages: {site / name}/).",
        "Next, try:",
        f"  nomicpoker forum show{st} {started.thread}",
        f"  nomicpoker verdicts{st} --table {name} --hand {h}",
        f"  nomicpoker ledger{st} --table {name} --format md --log",
        f"  nomicpoker audit{st} --table {name}",
        f"  nomicpoker audit export{st} --table {name} --hand {h} -o hand-{h}.json",
        f"  nomicpoker audit verify --record hand-{h}.json",
        f"  nomicpoker phh export{st} --table {name} --hand {h} -o hand-{h}.phh",
        f"  nomicpoker hand start{st} --table {name}    # hand {h + 1}: it prints what to post next",
    ]))
    return {"table": name, "thread": started.thread, "hand": h, "problems": problems,
            "gndt": rows, "site": site}
