"""The rail (shell): WRGPT's "The only way to see what happens at other tables is to join the
"rail". ... Once on the rail, you will receive every showdown message from all other tables, as
well as nightly "score" messages with the grand total tournament standings."

Built here: joining and leaving the rail (players and spectators alike; the director records
it, as WRGPT's floorman did), and the nightly standings sent to everyone on the rail by private
message on the forum where he plays (:mod:`.rail_forums`: his table's, which a moved player
follows; a spectator's or an eliminated player's as the director named it, else the table he
was last seated at, else the first table's), at most once a tournament day: the send is recorded (a
``rail_standings`` event with the day) before any message goes, so a run repeated the same day
sends nothing again, and a run that crashed half-way leaves the rest of that day's messages
unsent rather than sent twice.

The showdowns (:func:`send_showdowns`, run by ``nomicpoker poll`` after its tables and by
``tournament rail --send-showdowns``): when a hand of a tournament table ends at a showdown
(someone revealed or mucked: not a hand everyone else folded) and the table has been sent the
dealer's payout, everyone on the rail but that table's players (they saw it) receives that
text with the table's name, once per hand. Each run records the hands it covers (a
``rail_showdowns`` event: up to which hand of each table, and who got what, with the
watermark the next run reads back, :mod:`.watermarks`) before any message goes, so a re-run
sends nothing twice and a crash half-way leaves the rest unsent.
Where a member's forum has no private messages (a blog), they go to that forum's rail thread
instead: one comment per showdown, in the thread the director gave (``--thread``, with
``--forum TABLE`` for a forum other than the first table's).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session

from nomicpoker.core.table.fold_types import looks_alike, same_account
from nomicpoker.core.tournament.clock_rules import day_number
from nomicpoker.core.tournament.places import format_standings
from nomicpoker.core.words.dialects import in_dialect, text_in_dialect
from nomicpoker.core.words.tags import reference_tag
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.forums import ForumFactory, declared_abilities, default_forum_factory
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import loads
from nomicpoker.shell.tournament.director import TournamentError, add_event, events, get, tables_of
from nomicpoker.shell.tournament import watermarks
from nomicpoker.shell.tournament.rail_forums import RailForum, forum_of, groups, rail_tables, thread_for


def railbirds(session: Session, name: str) -> list[str]:
    """Who is on the rail now, in the order they joined."""
    from sqlmodel import select

    from nomicpoker.shell.storage.tournament_rows import TournamentEventRow

    out: list[str] = []
    q = select(TournamentEventRow).where(TournamentEventRow.tournament == name,
                                         TournamentEventRow.kind.in_(("rail_join", "rail_leave")))  # type: ignore[attr-defined]
    for e in session.exec(q.order_by(TournamentEventRow.seq)).all():
        if e.kind == "rail_join" and e.player not in out:
            out.append(e.player)
        elif e.kind == "rail_leave" and e.player in out:
            out.remove(e.player)
    return out


def join(engine: Engine, name: str, who: str, leave: bool = False, now: Callable[[], datetime] = utcnow,
         forum: str | None = None, state: Path | None = None) -> list[str]:
    """Put ``who`` on the rail (or take him off); return who is on it. ``forum``: the table of
    the tournament on whose forum a spectator (or a player once he is out) gets the rail's
    messages (:mod:`.rail_forums`); given for one already on the rail, it changes his. On an
    e-mail table the roster must give his address (checked now, with ``state``)."""
    from nomicpoker.shell.storage.store import transaction
    from nomicpoker.shell.tournament.rail_forums import check_table

    who = who.strip()
    if not who or any(c.isspace() or c == "," for c in who) or len(who) > 40:
        raise TournamentError("bad_player", f"rail: {who!r} is not a forum name (no spaces or commas, at most 40)")
    with transaction(engine) as s:
        get(s, name)
        on = railbirds(s, name)
        same = next((p for p in on if same_account(p, who)), None)  # Zoe is the account zoe
        if leave and same is None:
            raise TournamentError("bad_player", f"{who} is not on the rail of tournament {name}")
        if not leave and same is not None and forum is None:
            raise TournamentError("bad_player", f"{who} is already on the rail of tournament {name}"
                                  + (f" (as {same})" if same != who else ""))
        like = next((p for p in on if looks_alike(p, who) and not same_account(p, who)), None)
        if not leave and like is not None:  # one standings message to a name that only looks like another's
            raise TournamentError("bad_player", f"{who} looks like {like}, who is on the rail of tournament "
                                  f"{name}: names on the rail must not look alike")
        who = same or who
        data = None
        if forum is not None and not leave:
            _reachable(check_table(s, name, forum.strip()), who, state)
            data = {"forum": forum.strip()}
        add_event(s, name, "rail_leave" if leave else "rail_join", iso(now()), player=who, data=data)
        s.flush()
        return railbirds(s, name)


def _reachable(table, who: str, state: Path | None) -> None:  # type: ignore[no-untyped-def]
    """Refuse a forum that could not reach ``who`` (an e-mail table whose roster has no address
    for him), before anything is recorded."""
    from nomicpoker.ports import ChecksEnrol, ForumError
    from nomicpoker.shell.cycle import forums

    if state is None or not declared_abilities(table.forum_kind, ledger.forum_settings(table)).player_ids:
        return
    forum = forums.forum_for(table, state)
    try:
        if isinstance(forum, ChecksEnrol):
            forum.check_enrol(table.name, [who])
    except ForumError as exc:
        raise TournamentError("forum", f"rail: table {table.name} ({table.forum_kind}) cannot reach {who}: "
                              f"{exc.message}; nothing was recorded") from exc


@dataclass(frozen=True)
class Sent:
    day: int
    sent: tuple[str, ...]
    already: bool = False


def send_standings(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow,
                   forum_factory: ForumFactory = default_forum_factory) -> Sent:
    """The nightly standings to everyone on the rail, once per tournament day (module docstring)."""
    from nomicpoker.shell.storage.store import transaction
    from nomicpoker.shell.tournament.views import current_standings

    at = now()
    with transaction(engine) as s:
        row = get(s, name)
        if not row.started:
            raise TournamentError("not_started", f"tournament {name} has not started: the rail's standings begin "
                                  "with play")
        day = day_number(datetime.fromisoformat(row.started), at)
        if any(loads(e.data).get("day") == day for e in events(s, name, "rail_standings")):
            return Sent(day, (), already=True)
        on = railbirds(s, name)
        members = rail_tables(s, name, on)
        threads, waiting = _threads(s, name, members, on, "the standings wait")
        if waiting:
            raise TournamentError("no_thread", waiting)
        body = (f"Tournament {name} ({row.title}), standings at the end of day {day}:\n\n"
                + format_standings(current_standings(s, name))
                + "\n\n(You are on the rail of this tournament: RAIL OFF in your table's thread, or ask the "
                "Dealer, takes you off it.)")
        add_event(s, name, "rail_standings", iso(at), data={"day": day, "to": on,
                                                            "via": {w: members[w].table for w in on}})
    if not on:
        return Sent(day, ())
    _deliver(_Rail(members, threads, state, forum_factory), on, f"Tournament {name}: standings, day {day}",
             body, f"{body}\n\n", f"{name}-rail-day{day}")
    return Sent(day, tuple(on))


_NO_THREAD = ("tournament {name}: the rail's forum at table {table} has no private messages: post the rail's thread "
              "there and give it with nomicpoker tournament rail --name {name} --thread REF{forum} ({what} for it)")


def _threads(s: Session, name: str, members: dict[str, RailForum], to, what: str) -> tuple[dict[str, str], str]:  # type: ignore[no-untyped-def]
    """The rail thread of each forum without private messages that a member of ``to`` gets his
    messages on, and why they must wait ("" when none is missing)."""
    threads: dict[str, str] = {}
    for f, _who in groups(members, list(to)):
        if declared_abilities(f.kind, f.config).private_send:
            continue
        thread = thread_for(s, name, f)
        if thread is None:
            first = tables_of(s, name)[0]
            return {}, _NO_THREAD.format(name=name, table=f.table, what=what,
                                         forum="" if f.table == first else f" --forum {f.table}")
        threads[f.key] = thread
    return threads, ""


@dataclass(frozen=True)
class _Rail:
    """Where one run's rail messages go: each member's forum (:mod:`.rail_forums`), the rail
    thread of each forum without private messages, and the forums opened so far (one each)."""

    members: dict[str, RailForum]
    threads: dict[str, str]
    state: Path
    forum_factory: ForumFactory
    opened: dict[str, object] = field(default_factory=dict)

    def forum(self, f: RailForum):  # type: ignore[no-untyped-def]
        if f.key not in self.opened:
            self.opened[f.key] = self.forum_factory(f.kind, f.config, self.state)
        return self.opened[f.key]


def _deliver(rail: _Rail, to, subject: str, body: str, comment: str, key: str) -> None:  # type: ignore[no-untyped-def]
    """One rail message to everyone in ``to``, each on the forum where he gets them: a private
    message each (``subject``, ``body``) where the forum has them, else one comment for all of
    them in that forum's rail thread (``comment``, then the reference tag ``key``: a re-run
    finds what a crashed one posted)."""
    for f, who in groups(rail.members, to):
        forum = rail.forum(f)
        markup = forum.abilities.markup
        thread = rail.threads.get(f.key)
        if thread is not None:  # a forum without private messages: one comment in its rail thread
            forum.post_comment(thread, in_dialect(f"{comment}{reference_tag(key)}\n", markup), tag=key)
            continue
        for w in who:
            forum.send_private(w, subject, text_in_dialect(body, markup))


def rail_thread(s: Session, name: str) -> str | None:
    """The rail's thread on the first table's forum (the last one the director gave for it)."""
    rows = tables_of(s, name)
    return thread_for(s, name, forum_of(ledger.get_table(s, rows[0]))) if rows else None


def set_thread(engine: Engine, name: str, thread: str, now: Callable[[], datetime] = utcnow,
               forum: str | None = None) -> None:
    """Record the rail's thread (the director posted it where the bot cannot open one) on the
    forum of table ``forum`` (the first table's when None)."""
    from nomicpoker.shell.storage.store import transaction
    from nomicpoker.shell.tournament.rail_forums import check_table

    thread = thread.strip()
    if not thread or any(c.isspace() for c in thread):
        raise TournamentError("bad_thread", f"rail: {thread!r} is not a thread reference (a URL or an id)")
    with transaction(engine) as s:
        get(s, name)
        data = None
        if forum is not None:
            check_table(s, name, forum.strip())
            data = {"forum": forum.strip()}
        add_event(s, name, "rail_thread", iso(now()), note=thread, data=data)


@dataclass(frozen=True)
class Showdown:
    table: str
    hand: int
    to: tuple[str, ...]


@dataclass(frozen=True)
class Showdowns:
    """What :func:`send_showdowns` did for one tournament: the showdowns sent (and to whom),
    and why nothing could go (``waiting``: the rail's thread is missing)."""

    tournament: str
    sent: tuple[Showdown, ...] = ()
    waiting: str = ""


def _ended(s: Session, table: str, after: int) -> list[tuple[int, str | None]]:
    """The hands of ``table`` past ``after`` whose payout the table has been sent, in order,
    each with the payout text when the hand ended at a showdown (None: everyone else folded).
    Stops at the first hand whose payout is not sent yet (the rail never hears it first)."""
    from sqlmodel import select

    from nomicpoker.shell.storage.store import ActionRow, HandEndRow, OutboxRow

    ends = s.exec(select(HandEndRow.hand).where(HandEndRow.table_name == table, HandEndRow.hand > after)
                  .order_by(HandEndRow.hand)).all()
    out: list[tuple[int, str | None]] = []
    for n in ends:
        head = f"**Hand #{n} is over.**"
        payout = next((r for r in s.exec(select(OutboxRow).where(OutboxRow.table_name == table, OutboxRow.hand == n,
                                                                 OutboxRow.kind == "comment")
                                         .order_by(OutboxRow.seq)).all() if head in r.body), None)
        if payout is None or payout.status != "sent":
            break
        shown = s.exec(select(ActionRow.id).where(ActionRow.table_name == table, ActionRow.hand == n,
                                                 ActionRow.event.in_(("reveal", "muck")))  # type: ignore[attr-defined]
                       .limit(1)).first()
        out.append((n, payout.body if shown is not None else None))
    return out


def _untagged(body: str) -> str:
    """The payout without its reference tag (the tag is the table's comment's, not this message's)."""
    import re

    return re.sub(r"\s*`\[np:[A-Za-z0-9][A-Za-z0-9._:-]{0,79}\]`\s*$", "", body).rstrip() + "\n"


def send_showdowns(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow,
                   forum_factory: ForumFactory = default_forum_factory) -> Showdowns:
    """The showdowns of every table of tournament ``name`` to everyone on the rail (module
    docstring): recorded first, then sent; nothing twice."""
    from nomicpoker.shell.storage.store import transaction

    with transaction(engine) as s:
        row = get(s, name)
        if not row.started:
            return Showdowns(name)
        covered = watermarks.covered(s, name, "rail_showdowns")  # one row: the newest event's watermark
        upto: dict[str, int] = {}
        todo: list[tuple[str, int, str, tuple[str, ...]]] = []
        on = railbirds(s, name)
        from sqlalchemy import func
        from sqlmodel import select

        from nomicpoker.shell.storage.store import HandEndRow

        names = tables_of(s, name)
        last = dict(s.exec(select(HandEndRow.table_name, func.max(HandEndRow.hand))  # one query, not one a table
                           .where(HandEndRow.table_name.in_(names))  # type: ignore[attr-defined]
                           .group_by(HandEndRow.table_name)).all())
        for tname in names:
            if int(last.get(tname) or 0) <= covered.get(tname, 0):
                continue  # no hand ended there since the last run
            seated = ledger.roster(s, ledger.get_table(s, tname))  # after the moves
            for n, body in _ended(s, tname, covered.get(tname, 0)):
                upto[tname] = n
                to = tuple(p for p in on if not any(same_account(p, q) for q in seated))
                if body is not None and to:
                    todo.append((tname, n, body, to))
        if not upto:
            return Showdowns(name)
        members: dict[str, RailForum] = {}
        threads: dict[str, str] = {}
        if todo:  # read only when something goes: most polls send nothing
            members = rail_tables(s, name, on)
            threads, waiting = _threads(s, name, members, [w for w in on if any(w in to for *_x, to in todo)],
                                        "the showdowns wait")
            if waiting:  # nothing recorded: sent once the director gives the thread
                return Showdowns(name, waiting=waiting)
        via = {w: members[w].table for _t, _n, _b, to in todo for w in to}
        add_event(s, name, "rail_showdowns", iso(now()), data={
            "upto": upto, "sent": [[t, n, list(to)] for t, n, _b, to in todo], **({"via": via} if via else {}),
            "covered": watermarks.advanced(covered, upto)})
    rail = _Rail(members, threads, state, forum_factory)
    for tname, n, body, to in todo:
        text = (f"Tournament {name} ({row.title}): the showdown of hand {n} at table {tname}.\n\n"
                + _untagged(body)
                + "\n(You are on the rail of this tournament: RAIL OFF in your table's thread, or ask the "
                "Dealer, takes you off it.)\n")
        _deliver(rail, to, f"Tournament {name}: showdown at {tname}, hand {n}", text, f"{text}\n",
                 f"{name}-rail-{tname}-h{n}")
    return Showdowns(name, tuple(Showdown(t, n, to) for t, n, _b, to in todo))


def started(engine: Engine) -> list[str]:
    from sqlmodel import select

    from nomicpoker.shell.storage.tournament_rows import TournamentRow

    with Session(engine) as s:
        return [r.name for r in s.exec(select(TournamentRow).where(TournamentRow.started != "")
                                       .order_by(TournamentRow.id)).all()]


def send_all_showdowns(engine: Engine, state: Path, now: Callable[[], datetime] = utcnow,
                       forum_factory: ForumFactory = default_forum_factory) -> list[Showdowns]:
    """:func:`send_showdowns` for every started tournament (what ``nomicpoker poll`` runs)."""
    return [send_showdowns(engine, state, n, now, forum_factory) for n in started(engine)]


__all__ = ["Sent", "Showdown", "Showdowns", "join", "rail_thread", "railbirds", "send_all_showdowns",
           "send_showdowns", "send_standings", "set_thread", "started"]
