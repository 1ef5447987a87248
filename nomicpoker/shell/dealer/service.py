"""Table and hand lifecycle (shell): ``table create`` and ``hand start``.

These are the Dealer's decisions the fold cannot make for itself, so they are recorded as
inputs: the table's configuration, and per hand the seats with their Money, the button, the
ante, the thread and the commitments. Everything after that is derived from comments.

WHY ``hand start`` generates the secrets before it writes the hand row: the row holds the
commitments, and a crash between the two leaves only an unused secrets file, which a re-run
reuses (same commitments), never a hand whose secrets are lost.

WHY the story post carries a reference tag (``[np:T-h3-story]``) and its id is written to
``state/pending/`` at once: a ``hand start`` that crashed after creating the post but before
recording the hand must, when re-run, find that post rather than create a second one. The
pending file covers every forum; the tag lets a forum that can list its threads (the local
one) or search the Dealer's own posts (an adapter offering ``find_thread_with(tag)``: Reddit)
recover even a crash that came before the pending file was written. BlogNomic never creates
the post (the Dealer registers it with ``--thread``), so it needs neither.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Callable, Sequence

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.shell import faults
from nomicpoker.shell.storage import ledger, pinned, secrets_store
from nomicpoker.shell.dealer import entropy_window
from nomicpoker.ports import ForumError
from nomicpoker.shell.cycle.archive import archive, archive_table
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.cycle.outbox import send_outbox
from nomicpoker.shell.cycle import forums
from nomicpoker.shell.cycle.forums import ForumFactory, default_forum_factory
from nomicpoker.shell.cycle.report import TableReport
from nomicpoker.shell.cycle.replay import adjudicate, fold_for
from nomicpoker.shell.dealer.fold_now import fold_now
from nomicpoker.shell.storage.locks import Busy, run_lock
from nomicpoker.core.words.dialects import text_in_dialect
from nomicpoker.core.words.render import reference_tag
from nomicpoker.shell.storage.rulesets import RulesetFiles, read_ruleset
from nomicpoker.shell.storage.store import HandRow, TableRow, dumps, loads, transaction
from nomicpoker.core.rules import limits
from nomicpoker.shell.cycle.private_inbox import players_see_thread
from nomicpoker.shell.storage.sealed_inputs import sealer_for
from nomicpoker.core.errors import CodedError
from nomicpoker.core.table.fold_types import looks_alike, same_account
from nomicpoker.core.table.table_settings import CURRENT_EDITION, settings_from

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
#: The bounds of every number a Dealer command takes (``core/rules/limits.py`` says why each).
MAX_CHIPS = limits.MAX_CHIPS
MAX_HOURS = limits.MAX_HOURS
_PLAYER = re.compile(r"^[^\s,][^,\n]{0,39}$")


#: Seconds ``hand start`` waits for a running poll to release the lock (a poll posting to a
#: slow forum can take a while; cron's polls do not wait at all).
HAND_START_LOCK_WAIT = 120


class ServiceError(CodedError):
    """A Dealer command that cannot be done; ``message`` names what is wrong."""


def check_forced_bets(rs, ante: int | None, blinds, what: str = "table create") -> None:
    """The forced bets a table or a hand is given must be the ruleset's kind: blinds only under
    a ruleset that has them (``ServiceError('bad_blinds')`` quoting the rule)."""
    if blinds and not rs.blinds:
        rule = rs.cite("blinds")
        raise ServiceError("bad_blinds", f"{what}: ruleset {rs.name} has no blinds"
                           + (f" (\u201c{rule}\u201d)" if rule else "") + ": give an ante instead")


def forced_bets_to_use(rs, settings, ante: int | None, blinds, last=None) -> tuple[int, tuple[int, ...], str]:
    """The ante and blinds of the next hand, and where they come from ('' when the Dealer gave
    them): what ``hand start`` was given, else the table's (``table set --ante/--blinds``),
    else the ruleset's amounts (``forced_ante``, ``small_blind``/``big_blind``) when its rule
    states them, else, for a table that stores none (created before forced bets were stored),
    its last hand's. Never a hand with no forced bet the Dealer did not ask for: when none is known,
    ``ServiceError('no_forced_bet')`` quoting the ruleset's sentence."""
    source = ""
    if ante is None and not blinds:
        if settings.ante is not None or settings.blinds:
            ante, blinds, source = settings.ante, settings.blinds, "the table's"
        elif rs.forced_ante or rs.big_blind:  # the amounts the rule states
            ante = rs.forced_ante if rs.forced_ante else None
            blinds = (rs.small_blind, rs.big_blind) if rs.big_blind else ()
            source = f"ruleset {rs.name}'s"
        elif last is not None and (last.ante or loads(last.blinds or "[]")):
            ante, blinds = last.ante, tuple(loads(last.blinds or "[]"))
            source = f"hand {last.number}'s, as the table stores none"
        else:
            rule = rs.cite("blinds")
            kind = "blinds (--blinds 1,2)" if rs.blinds else "an ante (--ante 5)"
            raise ServiceError("no_forced_bet", f"no forced bet is known for this hand: under ruleset "
                               f"{rs.name} give {kind}"
                               + (f" (\u201c{rule}\u201d)" if rule else "")
                               + ", or store the table's with table set --ante/--blinds; --ante 0 "
                               "deals a hand with none")
    elif ante is None and blinds and settings.ante is not None:
        ante = settings.ante  # blinds given for this hand: the table's ante still applies
    elif ante is not None and not blinds and settings.blinds and rs.blinds:
        blinds = settings.blinds  # an ante given for this hand: the table's blinds still apply
    blinds = tuple(blinds or ())
    check_forced_bets(rs, ante, blinds, "hand start")
    return int(ante or 0), blinds, source


def check_deck_fits(rs, players: int, what: str = "table create") -> None:
    """A shared-deck ruleset must deal every seat's hole cards and the board from one deck
    (checked by ``table create`` and ``table amend``, before anything is written)."""
    if rs.deck == "shared" and not limits.shared_deck_fits(players, rs.hole_cards):
        raise ServiceError("bad_players", f"{what}: {players} players x {rs.hole_cards} hole cards and "
                           f"a board of {limits.BOARD_SIZE} do not fit in one deck of {limits.DECK_SIZE} "
                           f"under ruleset {rs.name}")


@dataclass(frozen=True)
class HandStarted:
    table: str
    number: int
    thread: str
    button: str
    seats: tuple[tuple[str, int], ...]
    report: TableReport
    ante: int = 0
    blinds: tuple[int, ...] = ()
    #: where the forced bets came from when hand start was given none ('' when it was given them)
    forced_from: str = ""


@dataclass(frozen=True)
class Seating:
    """A tournament table's deal, decided by the tournament (shell/tournament/hand_start, from
    core/tournament/seating): the players dealt in (GNDT order), the player who acts last after
    the first round (the engine's button), who posts each blind ("" for none) and the seats of
    the button and the blinds, recorded with the hand (``np_hand.positions``)."""

    seated: list[str]
    button: str
    blind_posters: tuple[str, ...]
    positions: dict


#: (session, table, the players hand start would deal in, the blinds) -> the tournament's deal
SeatingFn = Callable[[Session, TableRow, list[str], tuple[int, ...]], Seating]


def valid_table_name(name: str | None) -> bool:
    """Whether ``name`` can name a table (and its secrets folder)."""
    return bool(_NAME.match(name or ""))


def create_table(engine: Engine, state: Path, name: str, players: Sequence[str], money: int,
                 ruleset: str = "blognomic-2008", forum: str = "local", forum_config: dict | None = None,
                 dealer: str = "Dealer", issue_decks: bool | None = None, deadline_hours: int | None = None,
                 button: str | None = None, now: Callable[[], datetime] = utcnow,
                 forum_factory: ForumFactory = default_forum_factory,
                 settings: dict | None = None, ruleset_files: RulesetFiles | None = None) -> TableRow:
    """Validate and store a new table. Every mistake the Dealer can make on the command line
    (a bad name, one player, a button not at the table, an unknown ruleset, a bad forum config
    key) is a coded error (:class:`ServiceError`, ``RulesetError``, ``ForumError``) raised
    before anything is written, so a failed ``table create`` leaves no half-made table.
    ``ruleset_files``: the rules to pin, already read (a tournament's tables pin what its
    first tables pinned); else the ruleset ``ruleset`` names is read now."""
    if not valid_table_name(name):
        raise ServiceError("bad_name", f"table name {name!r}: use letters, digits, '-' and '_' (max 40)")
    players = [p.strip() for p in players if p.strip()]
    if len(players) < 2:
        raise ServiceError("bad_players", "a table needs at least two players (--players alice,bob)")
    for p in players:
        if not _PLAYER.match(p):
            raise ServiceError("bad_players", f"player name {p!r} is not allowed")
    for i, p in enumerate(players):  # names that look alike on the page are one seat to readers
        for q in players[:i]:
            if looks_alike(p, q):
                what = "listed twice" if same_account(p, q) else "too like"
                raise ServiceError("bad_players", f"player {p!r} is {what} {q!r} in --players: "
                                   "seats must not look alike (letter case and look-alike "
                                   "letters such as K/\u212a, rn/m, 0/O are compared)")
    if not 0 < money <= MAX_CHIPS:
        raise ServiceError("bad_money", f"--money must be a positive whole number, at most {MAX_CHIPS:,}, not {money}")
    if deadline_hours is not None and not 0 < deadline_hours <= MAX_HOURS:
        raise ServiceError("bad_deadline", f"--deadline-hours must be a whole number from 1 to {MAX_HOURS:,}, "
                           f"not {deadline_hours}")
    values = dict(settings or {})
    values.setdefault("edition", CURRENT_EDITION)  # stamped: the table keeps it (table_settings.EDITIONS)
    if deadline_hours is not None:
        values["deadline_hours"] = deadline_hours
    values.setdefault("equity", True)  # recorded: a table made before the setting stays off
    settings_from(values)  # SettingsError / CalendarError name a bad value before anything is written
    button = button or players[-1]
    if button not in players:
        raise ServiceError("bad_button", f"--button {button!r} is not one of the players")
    files = ruleset_files or read_ruleset(ruleset)  # RulesetError names the problem
    rs = files.ruleset
    settings_from(values, rs.deadline_hours).check_sense()  # a cap or reminders against the deadline
    check_deck_fits(rs, len(players))
    check_forced_bets(rs, values.get("ante"), values.get("blinds"))
    if rs.deck == "shared":
        if issue_decks:
            raise ServiceError("bad_decks", f"ruleset {rs.name} deals every hole card from the "
                               "dealer's one deck: --issue-decks does not apply")
        issue_decks = False
    config = dict(forum_config or {})
    for key in config:
        if any(w in key.lower() for w in ("password", "secret", "token", "api_key")):
            raise ServiceError("credentials", f"forum config key {key!r} looks like a credential: keep "
                               "credentials in the environment or an owner-only file (docs/forums.md)")
    abilities = forums.declared_abilities(forum, config)  # ForumError('config') for an unknown kind
    if not abilities.login:  # no account to ask: the dealer's name is the table's setting
        config.setdefault("dealer", dealer)
    opened = forum_factory(forum, config, state)  # ForumError('config') names a bad key now, not at poll
    if "dealer" in config:
        dealer = str(config["dealer"])
    else:  # the adapter's default: the authenticated account (Reddit, BlogNomic; docs/forums.md)
        dealer = str(opened.dealer)
    for p in players:  # the fold ignores the Dealer's comments: no player may share its account
        if same_account(p, dealer):
            raise ServiceError("bad_players", f"player name {p!r} is not allowed: it is the Dealer's account")
        if looks_alike(p, dealer):
            raise ServiceError("bad_players", f"player name {p!r} is not allowed: it looks like "
                               f"the Dealer's account {dealer!r}")
    if issue_decks is None:
        issue_decks = abilities.private_send
    with Session(engine) as s:  # before enrolling: e-mail sends each player their ID
        if s.exec(select(TableRow).where(TableRow.name == name)).first() is not None:
            raise ServiceError("exists", f"table {name!r} already exists (nomicpoker table list)")
    try:  # the forum's own rule for who can sit (an IRC nick); IDs by e-mail; before any write
        opened.enrol(name, players)  # a re-run resends none
    except ForumError as exc:
        if exc.code == "bad_players":  # the Dealer's mistake, not the forum's failure
            raise ServiceError("bad_players", exc.message) from exc
        raise
    row_time = iso(now())
    with transaction(engine) as s:
        if s.exec(select(TableRow).where(TableRow.name == name)).first() is not None:
            raise ServiceError("exists", f"table {name!r} already exists (nomicpoker table list)")
        row = TableRow(name=name, ruleset=ruleset, ruleset_hash=rs.content_hash, forum_kind=forum,
                       forum_config=dumps(config), dealer=dealer, players=dumps(players), money=money,
                       button=button, issue_decks=issue_decks, deadline_hours=deadline_hours,
                       settings=dumps(values), abilities=abilities.as_json(),
                       created=row_time)
        s.add(row)
        pinned.pin(s, name, files, row_time)  # the table keeps these rules whatever the file does
        s.flush()
        # the "table created" ledger rows come from the fold, in the same transaction: a table
        # is there with its rows or not at all (a tournament start stopped between the two left
        # a table that a start run again kept without its rows)
        table = ledger.get_table(s, name)
        ledger.store_fold(s, name, fold_for(s, table, state))
    return row


def _voided(session: Session, table: str, number: int) -> bool:
    """Whether the Dealer voided hand ``number`` (``hand void``: a misdeal, to be redealt)."""
    from nomicpoker.shell.storage.store import DealerEventRow

    return session.exec(select(DealerEventRow).where(DealerEventRow.table_name == table,
                                                     DealerEventRow.hand == number,
                                                     DealerEventRow.kind == "void")).first() is not None


def next_button(players: Sequence[str], previous: str, seated: Sequence[str]) -> str:
    """One seat on from ``previous`` in GNDT order, skipping players who are not seated (a
    previous button moved to another table since: from the first seat)."""
    i = players.index(previous) if previous in players else -1
    for k in range(1, len(players) + 1):
        cand = players[(i + k) % len(players)]
        if cand in seated:
            return cand
    raise ServiceError("no_players", "nobody is seated")


def story_key(table: str, number: int) -> str:
    """The reference-tag key of a hand's story post."""
    return f"{table}-h{number}-story"


def _pending_path(state: Path, table: str, number: int) -> Path:
    return state / "pending" / f"{table}-hand-{number}.thread"


def _existing_story_post(forum, state: Path, table: str, number: int, dealer: str) -> str | None:
    """The story post an earlier, crashed ``hand start`` of this hand created, if any: from the
    pending file, else by its tag where the forum can search its threads (only the dealer's
    own posts count: a player cannot plant a post for the dealer to adopt)."""
    pending = _pending_path(state, table, number)
    if pending.exists():
        ref = pending.read_text("utf-8").strip()
        if ref:
            return ref
    if not forum.abilities.find_thread:
        return None
    return forum.find_thread_with(story_key(table, number))


def _remember_story_post(state: Path, table: str, number: int, ref: str) -> None:
    path = _pending_path(state, table, number)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(ref, "utf-8")
    faults.point("before pending story post")
    tmp.replace(path)
    faults.point("after pending story post")


def start_hand(engine: Engine, state: Path, table_name: str, ante: int | None = None, thread: str | None = None,
               blinds: Sequence[int] | None = None, now: Callable[[], datetime] = utcnow,
               forum_factory: ForumFactory = default_forum_factory, seating: SeatingFn | None = None) -> HandStarted:
    """Start the next hand under the run lock (so a cron poll, on this host or another one
    sharing a PostgreSQL ledger, never sends beside it). ``ante``/``blinds`` left out: the
    table's forced bets (:func:`forced_bets_to_use`). ``seating``: a tournament table's deal
    (who is dealt in, the button and the blinds: Robert's dead button), else the blinds go
    clockwise from the next button, as at every table."""
    state.mkdir(parents=True, exist_ok=True)
    try:
        with run_lock(engine, state, HAND_START_LOCK_WAIT):
            return _start_hand(engine, state, table_name, ante, thread, blinds, now, forum_factory, seating)
    except Busy as exc:
        raise ServiceError("busy", f"a poll has held the lock of {exc.where} for "
                           f"{HAND_START_LOCK_WAIT} seconds: try again") from exc


def _start_hand(engine: Engine, state: Path, table_name: str, ante: int | None, thread: str | None,
                blinds: Sequence[int] | None, now: Callable[[], datetime],
                forum_factory: ForumFactory, seating: SeatingFn | None = None) -> HandStarted:
    blinds = tuple(blinds or ())
    if ante is not None and not 0 <= ante <= MAX_CHIPS:
        raise ServiceError("bad_ante", f"--ante must be a whole number from 0 to {MAX_CHIPS:,}, not {ante}")
    if any(not 0 < b <= MAX_CHIPS for b in blinds):
        raise ServiceError("bad_blinds", f"--blinds must be positive whole numbers, at most {MAX_CHIPS:,}, "
                           f"not {','.join(map(str, blinds))}")
    if len(blinds) == 2 and blinds[0] > blinds[1]:
        raise ServiceError("bad_blinds", f"--blinds {blinds[0]},{blinds[1]}: the small blind comes "
                           "first and may not be above the big blind (e.g. --blinds 1,2)")
    with Session(engine) as s:
        table = ledger.get_table(s, table_name)
        hands = ledger.hand_rows(s, table_name)
        ended = {r.hand for r in ledger.stored_rows(s, table_name, "hand_end")}
        if hands and hands[-1].number not in ended:
            raise ServiceError("hand_running", f"hand {hands[-1].number} of table {table_name} is "
                               "still running: finish it (nomicpoker poll) before starting another")
        players = ledger.roster(s, table)  # as the tournament's moves left it
        money = ledger.current_money(s, table)
        folded = fold_now(s, table, state)  # the settings in force (forced bets) and who sits out
        away = set(folded.sitting_out)  # after timeouts, or unseated by the Dealer
        seated = [p for p in players if money.get(p, 0) > 0 and p not in away]
        if len(seated) < 2:
            out = sorted(p for p in away if money.get(p, 0) > 0)
            if not out:
                raise ServiceError("no_players", f"only {len(seated)} player(s) have Money left: the game is over")
            raise ServiceError("no_players", f"only {len(seated)} player(s) can be dealt in: {', '.join(out)} "
                               f"{'sits' if len(out) == 1 else 'sit'} out (after timeouts, until they "
                               "comment BACK; unseated by the Dealer, until nomicpoker table seat)")
        rs = pinned.current_ruleset(s, table)
        previous = pinned.ruleset(s, table, hands[-1].ruleset_hash if hands else table.ruleset_hash)
        if blinds and len(blinds) != 2:
            raise ServiceError("bad_blinds", "--blinds takes the small and the big blind, e.g. --blinds 1,2")
        if blinds and not rs.blinds:
            raise ServiceError("bad_blinds", f"ruleset {rs.name} has no blinds: drop --blinds")
        ante, blinds, forced_from = forced_bets_to_use(rs, folded.settings, ante, blinds,
                                                       hands[-1] if hands else None)
        number = (hands[-1].number + 1) if hands else 1
        if hands and hands[-1].button in seated and _voided(s, table_name, hands[-1].number):
            # a misdeal is redealt ("The dealer will retrieve the card, reshuffle, and recut
            # the cards"): the voided hand's button stays for the redeal
            button = hands[-1].button
        elif hands:
            button = next_button(players, hands[-1].button, seated)
        else:
            button = table.button if table.button in seated else next_button(players, table.button, seated)
        positions = ""
        if seating is not None:  # a tournament table: the dead button, maybe no small blind
            deal = seating(s, table, seated, tuple(blinds))
            seated, button = deal.seated, deal.button
            positions = dumps({**deal.positions, "blind_posters": list(deal.blind_posters)})
        forum = forums.forum_for(table, state, forum_factory)
    window = _entropy_window(state, table_name, number, folded.settings.entropy, thread, now())
    if window is not None:
        thread = window.thread
    secrets = secrets_store.create(state, table_name, number, existing_ok=True)
    created = recovered = False
    if thread is None:
        thread = _existing_story_post(forum, state, table_name, number, table.dealer)
        recovered = thread is not None
    if thread is None:
        try:
            thread = forum.create_thread(
                f"Poker: Hand #{number} ({table_name})", text_in_dialect(
                f"Hand #{number} has commenced. Ante: {ante}. "
                + (f"Blinds: {'/'.join(str(b) for b in blinds)}. " if blinds else "")
                + f"Seated: {', '.join(seated)}. "
                + _rules_line(previous, rs)
                + "The Dealer's comments below give the commitments, the turn and the cards.\n\n"
                + reference_tag(story_key(table_name, number)), forum.abilities.markup))
        except ForumError as exc:
            if exc.code == "not_supported":
                raise ServiceError("no_thread", f"the {table.forum_kind} forum cannot create story "
                                   "posts: post one yourself and pass --thread URL") from exc
            raise
        created = True
        _remember_story_post(state, table_name, number, thread)
    if not created:
        try:
            forum.list_comments(thread)  # the thread must exist; ForumError('not_found') otherwise
        except ForumError as exc:
            if recovered and exc.code == "not_found":
                # The post an earlier, crashed attempt made is gone (the Dealer deleted it):
                # forget it, so the next attempt makes a new one.
                _pending_path(state, table_name, number).unlink(missing_ok=True)
                raise ServiceError("story_post_gone", f"the story post {thread} that an interrupted "
                                   f"hand start made for hand {number} is gone: run hand start again "
                                   "to post a new one") from exc
            raise
    report = TableReport(table_name)
    t = now()
    with transaction(engine) as s:
        table = ledger.get_table(s, table_name)
        # Archive what is already in a registered thread, so old comments precede the hand.
        see = players_see_thread(table)  # else its players' messages are private (sealed)
        report.archived += archive(s, table_name, thread, forum.list_comments(thread), iso(t),
                                   sealer=None if see else sealer_for(state, table, see))
        mixed = "" if window is None else dumps(entropy_window.entropy_at_start(
            s, window, entropy_window.dealer_test(table.dealer), t).as_json())
        s.add(HandRow(table_name=table_name, number=number, thread=thread,
                      ruleset_hash=rs.content_hash, ruleset=rs.name, button=button, ante=ante,
                      blinds=dumps(list(blinds)), seats=dumps([[p, money[p]] for p in seated]),
                      after=ledger.max_archive_id(s, table_name), started_at=iso(t),
                      commitments=dumps(secrets.commitments()), entropy=mixed, positions=positions))
        s.flush()
        archived, _ = archive_table(s, table, forum, iso(t), state)
        report.archived += archived
        added = adjudicate(s, table, state, t).added
        report.verdicts += len(added.get("verdict", []))
        report.queued += len(added.get("outbox", []))
    _pending_path(state, table_name, number).unlink(missing_ok=True)  # the hand row has it now
    entropy_window.forget(state, table_name, number)
    try:
        send_outbox(engine, table_name, forum, now, report, state=state)
    except ForumError as exc:  # the hand has started; the next poll sends the rest
        report.error = f"forum {exc.code}: {exc.message} (the hand has started; the next poll sends the rest)"
    return HandStarted(table_name, number, thread, button, tuple((p, money[p]) for p in seated), report,
                       ante, tuple(blinds), forced_from)


def _entropy_window(state: Path, table: str, number: int, mode: str, thread: str | None,
                    t: datetime) -> "entropy_window.Window | None":
    """The open entropy window the hand is dealt after (``None``: the table deals from the
    committed secrets alone). A table with ``entropy`` on needs ``hand open`` first; a window
    opened before the Dealer turned the setting off is still honoured (its commitments are
    posted with a promise to mix)."""
    window = entropy_window.load(state, table, number)
    if window is None:
        if mode != "off":
            raise ServiceError("no_window", f"table {table} deals with players' entropy (entropy = {mode}): "
                               f"run nomicpoker hand open --table {table} first; it posts the "
                               "commitments and opens the window, and hand start deals after it closes")
        return None
    if thread is not None and thread != window.thread:
        raise ServiceError("bad_thread", f"hand {number}'s entropy window is in thread {window.thread}, "
                           f"not {thread}: drop --thread")
    if not window.opened_by:
        raise ServiceError("no_window", f"hand {number}'s commitment comment was not posted: run "
                           f"nomicpoker hand open --table {table} again")
    if t < entropy_window.parse_time(window.close_at):
        raise ServiceError("window_open", f"the entropy window of hand {number} closes at "
                           f"{window.close_at}: start the hand after that")
    return window


def _rules_line(previous, rs) -> str:
    """The story post's word on the rules: which ruleset the hand is played under, and that it
    was amended since the last hand when it was (the hand-start comment says what changed)."""
    line = f"Rules: {rs.name} ({rs.content_hash[:12]}). "
    if previous.content_hash != rs.content_hash:
        line += (f"The rules were amended since the last hand (was {previous.name}, "
                 f"{previous.content_hash[:12]}): the Dealer's first comment says what changed. ")
    return line


def list_tables(engine: Engine) -> list[TableRow]:
    with Session(engine) as s:
        return list(s.exec(select(TableRow).order_by(TableRow.id)).all())
