"""The tournament director's commands (shell): create, enter, start, pause, resume, disqualify.

Each checks everything it can before it writes, so a refused command leaves nothing behind,
and records what it decided as a tournament event (``np_tournament_event``) with its time.

- **create**: the structure file validated (every problem at once, like a ruleset), its ruleset
  loaded and checked against the levels, a secret seed made and kept owner-only in the state's
  secrets folder; its sha256 is recorded and shown (the commitment).
- **start**: the seed published in the ledger, the seats drawn from it
  (:func:`nomicpoker.core.tournament.draw.seat_draw`), one table per drawn table created on the
  tournament's forum (``NAME-t1``, ``NAME-t2``, ...: the players in seat order, the drawn
  button, the first level's forced bets, the structure's ruleset and starting money). A start
  that stopped half-way (a table made, the next refused) is run again: the tables already made
  for the same draw are kept.
- **pause** / **resume**: every table of the tournament paused or resumed with the reason
  (the tables' own ``table pause``, posted in each thread).
- **disqualify**: Robert's "Chips from a disqualified participant will be removed from play.":
  the player sits out at his table from the next hand (``table unseat``, posted with the
  reason) and takes no place; refused while his table's hand runs.
"""

from __future__ import annotations

import hashlib
import secrets as random_source
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Sequence

from sqlalchemy import func
from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.errors import CodedError
from nomicpoker.core.table.fold_types import looks_alike, same_account
from nomicpoker.core.tournament.draw import Draw, seat_draw
from nomicpoker.core.tournament.structure import Structure
from nomicpoker.core.tournament.structure_file import MAX_NAME, check_against_ruleset, parse_structure, structure_hash
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.dealer.service import ServiceError, create_table, valid_table_name
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.paths import secrets_dir
from nomicpoker.shell.storage.rulesets import RulesetFiles, read_ruleset
from nomicpoker.shell.storage.secrets_store import write_private
from nomicpoker.shell.storage.store import TableRow, dumps, loads, transaction
from nomicpoker.shell.storage.tournament_rows import TournamentEventRow, TournamentRow



class TournamentError(CodedError):
    """Codes (each names what failed and what to do; the commands print it and exit 1):
    ``bad_forum``, ``bad_name``, ``bad_order``, ``bad_player``, ``bad_players``, ``bad_table``,
    ``bad_thread``, ``busy``, ``changed``, ``disqualified``, ``draw_differs``, ``exists``,
    ``finished``, ``forum``, ``hand_dealt``, ``hand_running``, ``held``, ``late``,
    ``moves_pending``, ``no_note``, ``no_thread``, ``not_paused``, ``not_running``,
    ``not_started``, ``not_the_level``, ``paused``, ``pending`` (a pending-moves file of
    another shape), ``redraw_waits``, ``seed``, ``started``, ``unknown``."""


@dataclass(frozen=True)
class Created:
    row: TournamentRow
    structure: Structure
    players: tuple[str, ...]


@dataclass(frozen=True)
class Started:
    row: TournamentRow
    structure: Structure
    draw: Draw
    tables: tuple[str, ...]  # the table names, in draw order
    #: the tables an interrupted start had made (run again: kept, and the others made as they were)
    kept: tuple[str, ...] = ()


def seed_path(state: Path, name: str) -> Path:
    """Where the secret seed waits for the start (0600; "_" starts no table's folder)."""
    return secrets_dir(state) / "_tournaments" / f"{name}.seed"


def table_name(tournament: str, number: int) -> str:
    return f"{tournament}-t{number}"


def structure_of(row: TournamentRow) -> Structure:
    return parse_structure(row.structure.encode("utf-8"), f"tournament {row.name}'s structure")


def get(session: Session, name: str) -> TournamentRow:
    row = session.exec(select(TournamentRow).where(TournamentRow.name == name)).first()
    if row is None:
        names = [r.name for r in session.exec(select(TournamentRow)).all()]
        raise TournamentError("unknown", f"no tournament {name!r}" + (f" (there are: {', '.join(names)})" if names
                                                                      else " (nomicpoker tournament create)"))
    return row


def events(session: Session, name: str, kind: str | tuple[str, ...] | None = None) -> list[TournamentEventRow]:
    """The tournament's events in order; of one ``kind`` or of the kinds in a tuple (in SQL: a
    thousand entrants' events are not read for the one start event, nor the rail's records, one
    for each poll, for the seats)."""
    q = select(TournamentEventRow).where(TournamentEventRow.tournament == name)
    if isinstance(kind, tuple):
        q = q.where(TournamentEventRow.kind.in_(kind))  # type: ignore[attr-defined]
    elif kind is not None:
        q = q.where(TournamentEventRow.kind == kind)
    return list(session.exec(q.order_by(TournamentEventRow.seq)).all())


def next_seq(session: Session, name: str) -> int:
    """The number of the tournament's next event: one indexed row, not every event (a poll
    records some: the rail's)."""
    top = session.exec(select(func.max(TournamentEventRow.seq)).where(TournamentEventRow.tournament == name)).one()
    return int(top or 0) + 1


def entrants(session: Session, name: str) -> list[str]:
    """The players entered, in the order they entered, less those disqualified."""
    out: list[str] = []
    for e in events(session, name, ("enter", "disqualify")):
        if e.kind == "enter":
            out.append(e.player)
        elif e.kind == "disqualify" and e.player in out:
            out.remove(e.player)
    return out


def _refuse_disqualified(session: Session, name: str, player: str, why: str) -> None:
    """Refuse a player (or his account in another case) once disqualified from the tournament."""
    out = [e for e in events(session, name, "disqualify") if same_account(e.player, player)]
    if out:
        raise TournamentError("disqualified", f"{out[0].player} was disqualified from tournament {name} at "
                              f"{out[0].at} ({out[0].note}): {why}")


def add_event(session: Session, name: str, kind: str, at: str, player: str = "", note: str = "",
               data: dict | None = None, seq: int | None = None) -> None:
    if seq is None:
        seq = next_seq(session, name)
    session.add(TournamentEventRow(tournament=name, seq=seq, kind=kind, player=player, at=at, note=note,
                                   data=dumps(data or {})))


def _check_players(players: Sequence[str], dealer: str = "Dealer") -> list[str]:
    """The names, stripped; two that look alike on the page are refused (``looks_alike``'s two
    skeletons, kept in a dict: a thousand entrants are checked in one pass, not in pairs), and
    so is a name that is or looks like the Dealer's account (the tables would refuse it at the
    start, after making the others)."""
    from nomicpoker.core.reading.lookalike import account_skeleton, case_skeleton

    out = [p.strip() for p in players if p.strip()]
    seen: dict[tuple[int, str], str] = {}
    for p in out:
        if "," in p or any(c.isspace() for c in p) or len(p) > 40:
            raise TournamentError("bad_players", f"player name {p!r} is not allowed (no spaces or commas, at most 40)")
        if looks_alike(p, dealer):
            raise TournamentError("bad_players", f"player name {p!r} is not allowed: it "
                                  + ("is" if same_account(p, dealer) else "looks like") + f" the Dealer's account {dealer!r}")
        for key in ((0, account_skeleton(p)), (1, case_skeleton(p))):
            q = seen.get(key)
            if q is not None:
                what = "entered twice" if same_account(p, q) else "too like"
                raise TournamentError("bad_players", f"player {p!r} is {what} {q!r}: seats must not look alike")
            seen[key] = p
    return out


def precheck(name: str, players: Sequence[str], dealer: str = "Dealer") -> list[str]:
    """The checks of :func:`create` that need no ledger (the name, the entrants), so that a
    refused create is refused before a state folder or a ledger is made; the entrants, stripped."""
    if not valid_table_name(name) or len(name) > MAX_NAME:
        raise TournamentError("bad_name", f"tournament name {name!r}: use letters, digits, '-' and '_' "
                              f"(max {MAX_NAME}: its tables are named {name}-t1, ...)")
    return _check_players(players, dealer)


def create(engine: Engine, state: Path, structure_file: Path, players: Sequence[str], name: str | None = None,
           dealer: str = "Dealer", now: Callable[[], datetime] = utcnow) -> Created:
    """Create a tournament from a structure file (``StructureErrors`` lists every problem)."""
    raw = Path(structure_file).read_bytes()
    structure = parse_structure(raw, str(structure_file))
    name = name or structure.name
    entered = precheck(name, players, dealer)
    files = read_ruleset(structure.ruleset)  # RulesetError names a bad ruleset
    check_against_ruleset(structure, files.ruleset.blinds, str(structure_file))
    seed = random_source.token_hex(32)
    seed_hash = hashlib.sha256(seed.encode("ascii")).hexdigest()
    at = iso(now())
    with transaction(engine) as s:
        if s.exec(select(TournamentRow).where(TournamentRow.name == name)).first() is not None:
            raise TournamentError("exists", f"tournament {name!r} already exists (nomicpoker tournament show --name {name})")
        like = next((t for t in s.exec(select(TournamentRow.name)).all() if looks_alike(t, name)), None)
        if like is not None:  # Spring-t1 beside spring-t1 reads as one table on the page
            raise TournamentError("exists", f"tournament name {name!r} looks like tournament {like!r}: names must "
                                  "not look alike (nomicpoker tournament list)")
        row = TournamentRow(name=name, title=structure.title, structure=raw.decode("utf-8"),
                            structure_hash=structure_hash(raw), ruleset=structure.ruleset, seed_hash=seed_hash,
                            dealer=dealer, created=at)
        s.add(row)
        for seq, p in enumerate(entered, start=1):
            add_event(s, name, "enter", at, player=p, seq=seq)
        write_private(state, seed_path(state, name), seed)  # before the commit: no row without its seed
    return Created(row, structure, tuple(entered))


def enter(engine: Engine, name: str, player: str, now: Callable[[], datetime] = utcnow) -> TournamentRow:
    """Enter a player before the start (after it, a late entrant is seated by
    :func:`nomicpoker.shell.tournament.moves.enter_late`)."""
    with transaction(engine) as s:
        row = get(s, name)
        if row.status != "registering":
            raise TournamentError("started", f"tournament {name} is {row.status}: entries are closed")
        [p] = _check_players([player], row.dealer) or [""]
        if not p:
            raise TournamentError("bad_players", "give the player's name (--player NAME)")
        _refuse_disqualified(s, name, p, "he does not enter again")  # seed-checked draws leave him out
        _check_players(entrants(s, name) + [p], row.dealer)
        add_event(s, name, "enter", iso(now()), player=p)
    return row


def draw_of(row: TournamentRow, players: Sequence[str], seed: str) -> Draw:
    return seat_draw(seed, list(players), structure_of(row).table_size)


def start(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow,
          forums: "dict[int, tuple[str, dict]] | None" = None) -> Started:
    """Publish the seed, draw the seats and create the tables (module docstring); ``forums``:
    table number -> (forum kind, config) for the tables not on the tournament's forum, as
    :func:`nomicpoker.shell.tournament.forums.plan` checked them."""
    with Session(engine) as s:
        row = get(s, name)
        if row.status != "registering":
            raise TournamentError("started", f"tournament {name} has already started ({row.started})")
        players = entrants(s, name)
    structure = structure_of(row)
    if len(players) < 2:
        raise TournamentError("bad_players", f"tournament {name} has {len(players)} entrant(s): it needs two "
                              f"(nomicpoker tournament enter --name {name} --player NAME)")
    try:
        seed = seed_path(state, name).read_text("ascii").strip()
    except OSError as exc:
        raise TournamentError("seed", f"the seed of tournament {name} is missing from {seed_path(state, name)}: "
                              f"{exc.strerror or exc} (the state folder this tournament was created in?)") from exc
    if hashlib.sha256(seed.encode("ascii")).hexdigest() != row.seed_hash:
        raise TournamentError("seed", f"the seed in {seed_path(state, name)} does not match the commitment "
                              f"{row.seed_hash[:16]}... recorded at creation: refusing to draw from it")
    draw = draw_of(row, players, seed)
    problem = structure.order_problem(len(draw.tables))
    if problem:
        raise TournamentError("bad_order", problem)
    level = structure.levels[0]
    names = tuple(table_name(name, t.number) for t in draw.tables)
    with Session(engine) as s:  # the tables already there must be this draw's (a start run again)
        existing = {r.name: r for r in s.exec(select(TableRow).where(TableRow.name.in_(names))).all()}  # type: ignore[attr-defined]
        for t, tname in zip(draw.tables, names):
            if tname in existing and loads(existing[tname].players) != list(t.players()):
                raise TournamentError("exists", f"table {tname} already exists with other players: rename or "
                                      "remove it before starting this tournament")
        # SEATLOG and RAIL are answered at its tables (shell/tournament/asks), in the thread or by private
        # message (core/fold/advance_private); WRGPT's vacation (core/fold/away)
        settings: dict = {"tournament": name, "wrgpt_vacation": True, "private_asks": True}
        if structure.start_on_vacation:  # every player on vacation from creation (shell/tournament/vacation_start)
            settings["start_on_vacation"] = True
        if level.ante:
            settings["ante"] = level.ante
        if level.big_blind:
            settings["blinds"] = (level.small_blind, level.big_blind)
        files = None
        kept = [n for n in names if n in existing]
        if kept:  # a start run again: the tables made now are made as the first attempt made its own
            settings, files = _as_made(s, existing[kept[0]])
    for t, tname in zip(draw.tables, names):
        if tname in existing:
            continue
        from nomicpoker.core.tournament.seating import next_positions

        button = t.player_at(next_positions(t).button)
        try:
            kind, config = (forums or {}).get(t.number, (row.forum_kind, {}))
            create_table(engine, state, tname, list(t.players()), structure.starting_money, ruleset=row.ruleset,
                         forum=kind, forum_config=config, dealer=row.dealer, button=button,
                         settings=dict(settings), ruleset_files=files, now=now)
        except ServiceError as exc:
            raise TournamentError(exc.code, f"table {tname}: {exc.message}") from exc
    at = iso(now())
    with transaction(engine) as s:
        row = get(s, name)
        if row.status != "registering":
            raise TournamentError("started", f"tournament {name} has already started ({row.started})")
        row.seed, row.status, row.started = seed, "running", at
        s.add(row)
        tables = [{"number": t.number, "table": n, "seats": list(t.seats), "button": t.last.button}
                  for t, n in zip(draw.tables, names)]
        add_event(s, name, "start", at, data={"tables": tables, "level": level.number})
    return Started(row, structure, draw, names, tuple(kept))


def _as_made(session: Session, first: TableRow) -> "tuple[dict, RulesetFiles]":
    """The settings and the pinned rules of a table an interrupted start made: what the tables
    a start run again makes are given. WHY not this release's: the first attempt may have run
    under an older release (before ``wrgpt_vacation`` or ``private_asks``, with an older bundled
    ruleset, another edition), and every table of one tournament must read its players' comments
    and messages alike and play the same rules. The table's own record says what it was given:
    its settings as made (``np_table.settings``: the edition stamped, every key set) and the
    ruleset it pinned then (``np_table.ruleset_hash``)."""
    from nomicpoker.shell.storage import pinned

    return loads(first.settings), pinned.pinned_files(session, first, first.ruleset_hash)


def tables_of(session: Session, name: str) -> list[str]:
    """The names of the tournament's tables (from its start event)."""
    [ev] = events(session, name, "start") or [None]
    return [] if ev is None else [t["table"] for t in loads(ev.data)["tables"]]


@dataclass(frozen=True)
class Paused:
    """What :func:`pause` did: the tables paused (or resumed), and those a player's protest
    keeps frozen (the director rules on each with ``table resume``; a tournament resume does not)."""

    changed: list[str]
    protests: list[str]


def pause(engine: Engine, state: Path, name: str, note: str, resume: bool = False,
          now: Callable[[], datetime] = utcnow) -> Paused:
    """Pause (or resume) every table of a running tournament, each with ``note`` posted in its
    thread. Tables already in that state are left as they are, so a pause that stopped half-way
    is run again. A table frozen by a protest is neither paused nor resumed: resuming it would
    end the protest unruled."""
    from nomicpoker.shell.cycle.replay import fold_for
    from nomicpoker.shell.dealer.controls import control

    kind = "resume" if resume else "pause"
    if not " ".join((note or "").split()):
        raise TournamentError("no_note", f"say why with --note \"...\": the {kind} is posted in every table's thread")
    with Session(engine) as s:
        row = get(s, name)
        want = "paused" if resume else "running"
        if row.status != want:
            raise TournamentError("not_paused" if resume else "paused",
                                  f"tournament {name} is {row.status}: only a {want} tournament can be {kind}d")
        names = tables_of(s, name)
        todo, protests = [], []
        for tname in names:
            frozen = fold_for(s, ledger.get_table(s, tname), state).frozen
            if frozen == "protest":
                protests.append(tname)
            elif bool(frozen) == resume:
                todo.append(tname)
    for tname in todo:
        control(engine, state, tname, kind, f"tournament {name} {kind}d: {note}", now=now)
    with transaction(engine) as s:
        row = get(s, name)
        row.status = "running" if resume else "paused"
        s.add(row)
        add_event(s, name, kind, iso(now()), note=note)
    return Paused(todo, protests)


@dataclass(frozen=True)
class Disqualified:
    """Who was disqualified (the entrant's own spelling) and the table he sat at (None before the start)."""

    player: str
    table: str | None


def disqualify(engine: Engine, state: Path, name: str, player: str, note: str,
               now: Callable[[], datetime] = utcnow) -> Disqualified:
    """Disqualify a player (module docstring), found by his account (``CY`` is ``cy``)."""
    from nomicpoker.shell.dealer.controls import control

    if not " ".join((note or "").split()):
        raise TournamentError("no_note", "say why with --note \"...\": a disqualification is posted with its reason")
    with Session(engine) as s:
        row = get(s, name)
        _refuse_disqualified(s, name, player, "he is out already")  # say when and why, not "not an entrant"
        player = next((p for p in entrants(s, name) if same_account(p, player)), player)
        if player not in entrants(s, name):
            raise TournamentError("bad_player", f"{player!r} is not an entrant of tournament {name} still in play")
        where = next((t for t in tables_of(s, name) if player in ledger.roster(s, ledger.get_table(s, t))), None)
    if row.status != "registering" and where is not None:
        try:
            control(engine, state, where, "unseat", f"disqualified from tournament {name}: {note}", player=player,
                    now=now)
        except ServiceError as exc:
            if exc.code == "hand_running":
                # a fold does not end the hand (at a table of three it plays on): the unseat waits for its end
                raise TournamentError("hand_running", f"{player}'s table {where} is playing a hand: disqualify "
                                      f"him once it ends (to take him out of this hand now: nomicpoker hand fold "
                                      f"--table {where} --player {player} --note ...)") from exc
            if exc.code != "unseated":
                raise
    t = now()
    removed = 0
    with transaction(engine) as s:
        if row.status != "registering" and where is not None:
            # Robert's: "Chips from a disqualified participant will be removed from play." A move_out
            # to no table: his Money leaves the GNDT, the change log and the thread say why
            from nomicpoker.shell.cycle.replay import adjudicate
            from nomicpoker.shell.storage.store import DealerEventRow

            table = ledger.get_table(s, where)
            removed = ledger.current_money(s, table).get(player, 0)
            why = (f"disqualified from tournament {name}: {note}; Robert's: \"Chips from a disqualified participant "
                   "will be removed from play.\"")
            hands = ledger.hand_rows(s, where)
            s.add(DealerEventRow(table_name=where, hand=hands[-1].number if hands else 0,
                                 after=ledger.max_archive_id(s, where), kind="move_out", player=player, at=iso(t),
                                 note=why, data=dumps({"chips": removed, "to": "", "why": why})))
            s.flush()
            adjudicate(s, table, state, t)
        add_event(s, name, "disqualify", iso(t), player=player, note=note,
                  data={"table": where, "chips": removed} if where and row.status != "registering" else None)
    if row.status != "registering" and where is not None:
        from nomicpoker.ports import ForumError
        from nomicpoker.shell.cycle import forums
        from nomicpoker.shell.cycle.outbox import send_outbox
        from nomicpoker.shell.cycle.report import TableReport

        with Session(engine) as s:
            forum = forums.forum_for(ledger.get_table(s, where), state)
        try:
            send_outbox(engine, where, forum, now, TableReport(where), state=state)
        except ForumError:  # recorded: the next poll posts it
            pass
    return Disqualified(player, where)


@dataclass(frozen=True)
class Advanced:
    """What :func:`advance` did at one table: the level of its next deal, whether it changed
    the table's forced bets now, whether a hand is running (nothing changed then)."""

    table: str
    level: int
    changed: bool
    running: bool
    said: str = ""
    playable: bool = True  # two players or more can be dealt in (chips, not sitting out): the table can deal
    held: str = ""  # why the table deals no more hands today (the vacation hand limit)


def advance(engine: Engine, state: Path, name: str, now: Callable[[], datetime] = utcnow) -> list[Advanced]:
    """Between hands, at each table of a running tournament, the level of its next deal
    becomes the table's forced bets: WRGPT's "Antes and blinds go up periodically. They may go
    up either after each multiple of N hands, or after each multiple of N days." and Robert's
    "the new limits apply on the next deal". The change is the table's own ``table set``
    (a dealer event, posted in the table's thread with the level's announcement before the
    next hand is dealt, and replayed by ``audit``). A table playing a hand is left until it
    ends; run again, a table already at its level is left as it is."""
    from nomicpoker.core.tournament.clock_rules import day_number, level_changes, level_for, vacation_limit_reached
    from nomicpoker.shell.dealer.controls import control
    from nomicpoker.shell.dealer.fold_now import fold_now

    with Session(engine) as s:
        row = get(s, name)
        if row.status != "running":
            raise TournamentError("not_running", f"tournament {name} is {row.status}: levels apply to a running "
                                  "tournament's tables")
        structure = structure_of(row)
        day = day_number(datetime.fromisoformat(row.started), now())
        plan = []
        for tname in tables_of(s, name):
            table = ledger.get_table(s, tname)
            hands = ledger.hand_rows(s, tname)
            ended = {r.hand for r in ledger.stored_rows(s, tname, "hand_end")}
            running = bool(hands) and hands[-1].number not in ended
            folded = fold_now(s, table, state)
            away = set(folded.sitting_out)  # unseated (disqualified) or out after timeouts: as hand start counts
            playable = sum(1 for p, m in ledger.current_money(s, table).items() if m > 0 and p not in away) >= 2
            settings = folded.settings
            held = _vacation_hold(structure, folded.days, ledger.current_money(s, table), hands,
                                  row.started, day, vacation_limit_reached)
            level = level_for(structure, hands_dealt=len(hands), day=day)
            before = next((lv for lv in structure.levels if (lv.ante, (lv.small_blind, lv.big_blind) if lv.big_blind
                                                             else None) == (settings.ante or 0, settings.blinds)),
                          structure.levels[0])
            plan.append((tname, level, before, running, playable, held,
                         (settings.ante or 0, settings.blinds) != (level.ante, (level.small_blind, level.big_blind)
                                                                   if level.big_blind else None)))
    out = []
    for tname, level, before, running, playable, held, differs in plan:
        if running or not differs or not playable:
            out.append(Advanced(tname, level.number, False, running, playable=playable, held=held))
            continue
        note = level_changes(structure, before, level) or f"Level {level.number} from the next deal."
        data: dict = {"ante": level.ante or None}
        if level.big_blind:
            data["blinds"] = (level.small_blind, level.big_blind)
        control(engine, state, tname, "settings", f"tournament {name}: {note}", data=data, now=now)
        out.append(Advanced(tname, level.number, True, False, note, held=held))
    return out


def _vacation_hold(structure, days, money, hands, started: str, day: int, reached) -> str:  # type: ignore[no-untyped-def]
    """Why the table may deal no more hands today (WRGPT's vacation hand limit), or ""."""
    from nomicpoker.core.tournament.clock_rules import day_number

    away = {p: ("resigned" if p in days.resigned else "vacation" if p in days.vacation
                else "awol" if p in days.awol else "here") for p, m in money.items() if m > 0}
    start = datetime.fromisoformat(started)
    today = sum(1 for h in hands if day_number(start, datetime.fromisoformat(h.started_at)) == day)
    if not reached(structure, today, away):
        return ""
    gone = ", ".join(sorted(p for p, a in away.items() if a == "vacation"))
    return (f"{today} hand(s) dealt today (day {day}) and {gone} on vacation: at most "
            f"{structure.vacation_hands_per_day} a day while someone is on vacation; the next hand on day {day + 1}")


__all__ = ["Advanced", "add_event", "advance", "Created", "Disqualified", "MAX_NAME", "Paused", "precheck", "Started", "TournamentError", "create", "disqualify", "draw_of", "enter", "entrants",
           "events", "get", "next_seq", "pause", "seed_path", "start", "structure_of", "table_name", "tables_of"]
