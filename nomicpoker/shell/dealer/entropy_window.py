"""The entropy window of the next hand (shell): ``hand open`` commits, ``hand start`` deals.

At a table whose ``entropy`` setting is ``players`` or ``players+beacon`` a hand is dealt in
two steps (docs/fair-dealing.md, "Players' entropy"):

1. ``nomicpoker hand open --table T [--minutes 60]`` draws the next hand's secrets, creates
   its story post (or takes ``--thread``) and posts the **commitment comment** in it: the
   three commitments, the time the window closes and, with the beacon, the drand round that
   will be mixed in. No entropy for the hand exists yet, so the Dealer's secret is fixed
   before anything it could aim at.
2. Players comment in the thread (anything: each comment after the commitment comment and
   before the close is mixed in; a player who says nothing delays nothing).
3. ``nomicpoker hand start --table T`` after the close: the thread is archived, the window's
   comments are taken from the archive (:func:`nomicpoker.core.fairness.entropy.select_window`), the
   beacon round is fetched (or was pasted with ``hand beacon``) and verified, and the hand
   row records it all; the fold deals from the mixed secrets. Hole cards (``roberts-nlhe``)
   and issued decks go out at that moment, after the window has closed.

The open window is kept in ``<state>/pending/<table>-hand-<n>.entropy.json`` (nothing in it is
secret: the commitments are public, the secrets stay in the secrets folder) until the hand
row holds it.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Callable

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from nomicpoker.core.fairness.entropy import (
    MODES, QUICKNET, BeaconRound, Entropy, Posted, parse_time, round_due_after, round_time, select_window,
)
from nomicpoker.core.errors import CodedError
from nomicpoker.core.table.fold_types import same_account
from nomicpoker.core.words.render import reference_tag
from nomicpoker.shell.cycle import beacon as beacons
from nomicpoker.shell.storage import ledger, secrets_store
from nomicpoker.shell.cycle.deadlines import iso, utcnow
from nomicpoker.shell.storage.locks import Busy, run_lock
from nomicpoker.shell.storage.store import CommentRow

#: The window's default and largest length, minutes (a week: a game over days may want long).
DEFAULT_MINUTES = 60
MAX_MINUTES = 7 * 24 * 60
LOCK_WAIT = 120


class WindowError(CodedError):
    """The window cannot be opened or used. ``code``: ``entropy_off``, ``hand_running``,
    ``no_window``, ``window_open``, ``bad_minutes``, ``busy``, ``no_thread``, ``exists``."""


@dataclass(frozen=True)
class Window:
    """An open entropy window, as ``hand open`` left it for ``hand start``."""

    table: str
    hand: int
    mode: str
    thread: str
    close_at: str
    opened_by: str = ""  # the commitment comment's forum id, once posted
    beacon_round: int | None = None
    beacon: dict | None = None  # a pasted round: {"round", "randomness", "signature"}
    relay: str = ""


def window_path(state: Path, table: str, number: int) -> Path:
    return state / "pending" / f"{table}-hand-{int(number)}.entropy.json"


def load(state: Path, table: str, number: int) -> Window | None:
    path = window_path(state, table, number)
    try:
        return Window(**json.loads(path.read_text("utf-8")))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, TypeError) as exc:
        raise WindowError("no_window", f"the entropy window file {path} cannot be read ({exc}): "
                          "delete it and run nomicpoker hand open again") from exc


def _save(state: Path, w: Window) -> None:
    path = window_path(state, w.table, w.hand)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(asdict(w), sort_keys=True), "utf-8")
    tmp.replace(path)


def forget(state: Path, table: str, number: int) -> None:
    """The hand row holds the window now."""
    window_path(state, table, number).unlink(missing_ok=True)


def story_key(table: str, number: int) -> str:
    """The story post's reference-tag key: the one ``hand start`` gives it
    (:func:`nomicpoker.shell.dealer.service.story_key`, which a test keeps equal), so a start after
    an interrupted open finds the post instead of making a second one."""
    return f"{table}-h{number}-story"


def commitment_key(table: str, number: int) -> str:
    return f"{table}-h{number}-entropy"


def commitment_text(table: str, number: int, commitments: dict[str, str], w: Window) -> str:
    """The commitment comment: what is fixed, until when the window is open, what else is mixed."""
    lines = [f"Hand #{number} ({table}): the Dealer's commitments, fixed before any entropy for this hand exists.",
             ""]
    lines += [f"- {name}: `{value}`" for name, value in commitments.items()]
    lines += ["", f"Entropy window: open until {w.close_at}. Every comment posted in this thread before "
              "then (its first text) is mixed into the deck, the dice and the decks with the Dealer's "
              "secrets, so nobody, the Dealer included, can choose a card: say anything (for instance "
              "`SEED` and whatever you like). Nobody has to comment: the hand is dealt when the window "
              "closes, whoever spoke."]
    if w.beacon_round is not None:
        when = datetime.fromtimestamp(round_time(w.beacon_round), parse_time(w.close_at).tzinfo)
        lines += ["", f"Beacon: drand {QUICKNET.name} round {w.beacon_round} (published {iso(when)}, just "
                  "after the window closes) is mixed in too."]
    return "\n".join(lines) + "\n\n" + reference_tag(commitment_key(table, number))


def open_window(engine: Engine, state: Path, table_name: str, minutes: int = DEFAULT_MINUTES,
                thread: str | None = None, relay: str | None = None,
                now: Callable[[], datetime] = utcnow, forum_factory=None) -> Window:
    """Commit to the next hand's secrets and open its entropy window (see the module doc).

    Safe to re-run: the secrets file, the story post and the commitment comment made by an
    interrupted run are found and reused, so the commitments never change once posted."""
    from nomicpoker.shell.cycle.forums import forum_for
    from nomicpoker.shell.cycle.replay import fold_for

    if not 1 <= minutes <= MAX_MINUTES:
        raise WindowError("bad_minutes", f"--minutes must be from 1 to {MAX_MINUTES:,}, not {minutes}")
    state.mkdir(parents=True, exist_ok=True)
    try:
        with run_lock(engine, state, LOCK_WAIT):
            with Session(engine) as s:
                table = ledger.get_table(s, table_name)
                hands = ledger.hand_rows(s, table_name)
                ended = {r.hand for r in ledger.stored_rows(s, table_name, "hand_end")}
                if hands and hands[-1].number not in ended:
                    raise WindowError("hand_running", f"hand {hands[-1].number} of table {table_name} is "
                                      "still running: open the next hand's window once it has ended")
                mode = fold_for(s, table, state).settings.entropy
                number = (hands[-1].number + 1) if hands else 1
                forum = forum_for(table, state, forum_factory)
            w = load(state, table_name, number)
            if w is None:
                if mode == "off":
                    raise WindowError("entropy_off", f"table {table_name} deals from the Dealer's secrets alone "
                                      f"(entropy = off): nomicpoker table set --table {table_name} "
                                      "entropy=players (or players+beacon) first")
                close = iso(now() + timedelta(minutes=minutes))
                w = Window(table=table_name, hand=number, mode=mode, thread=thread or "", close_at=close,
                           beacon_round=round_due_after(close) if mode == "players+beacon" else None,
                           relay=relay or "")
            secrets = secrets_store.create(state, table_name, number, existing_ok=True)
            if not w.thread:
                w = replace(w, thread=_story_post(forum, table_name, number, w))
                _save(state, w)
            if not w.opened_by:
                key = commitment_key(table_name, number)
                found = forum.find_comment_with(w.thread, key)
                opened = found or forum.post_comment(
                    w.thread, commitment_text(table_name, number, secrets.commitments(), w), tag=key)
                w = replace(w, opened_by=str(opened))
                _save(state, w)
            return w
    except Busy as exc:
        raise WindowError("busy", f"a poll has held the lock of {exc.where} for {LOCK_WAIT} seconds: "
                          "try again") from exc


def _story_post(forum, table: str, number: int, w: Window) -> str:
    from nomicpoker.ports import ForumError

    if forum.abilities.find_thread:
        found = forum.find_thread_with(story_key(table, number))
        if found:
            return found
    try:
        return forum.create_thread(
            f"Poker: Hand #{number} ({table})",
            f"Hand #{number} opens its entropy window: the Dealer's first comment below commits to the "
            f"hand's secrets. Comment here until {w.close_at} to mix your entropy into the deal; the "
            "hand is dealt after that.\n\n" + reference_tag(story_key(table, number)))
    except ForumError as exc:
        if exc.code == "not_supported":
            raise WindowError("no_thread", "this forum cannot create story posts: post one yourself and "
                              "pass --thread URL") from exc
        raise


def paste_beacon(state: Path, table: str, number: int, round_number: int, signature: str) -> BeaconRound:
    """The Dealer pastes the round the window waits for (from any relay or drand client):
    it is verified here and kept with the window for ``hand start``."""
    import hashlib

    w = load(state, table, number)
    if w is None:
        raise WindowError("no_window", f"hand {number} of table {table} has no open entropy window")
    if w.beacon_round is None:
        raise WindowError("no_window", f"hand {number} of table {table} mixes in no beacon (entropy = {w.mode})")
    sig = signature.strip().lower()
    try:
        randomness = hashlib.sha256(bytes.fromhex(sig)).hexdigest()
    except ValueError as exc:
        raise beacons.BeaconError("forged", f"the signature must be hex, not {signature!r}") from exc
    b = beacons.checked(BeaconRound(round_number, randomness, sig), w.beacon_round)
    _save(state, replace(w, beacon=asdict(b)))
    return b


def entropy_at_start(session: Session, w: Window, is_dealer: Callable[[str], bool], now: datetime) -> Entropy:
    """The hand's :class:`Entropy` once its window has closed: the window's comments from the
    archive (the thread was archived just before), the beacon round fetched or pasted."""
    if now < parse_time(w.close_at):
        raise WindowError("window_open", f"the entropy window of hand {w.hand} closes at {w.close_at}: "
                          "start the hand after that")
    if w.mode not in MODES:
        raise WindowError("no_window", f"the entropy window of hand {w.hand} names mode {w.mode!r}")
    rows = session.exec(select(CommentRow).where(CommentRow.table_name == w.table,
                                                 CommentRow.thread == w.thread)).all()
    posted = [Posted(r.forum_id, r.revision, r.author, r.created, r.body) for r in rows]
    contributions = select_window(posted, w.opened_by, w.close_at, is_dealer)
    beacon = None
    if w.beacon_round is not None:
        if w.beacon:
            beacon = BeaconRound(int(w.beacon["round"]), w.beacon["randomness"], w.beacon["signature"])
            beacon = beacons.checked(beacon, w.beacon_round)
        else:
            beacon = beacons.fetch(w.beacon_round, w.relay or None)
    return Entropy(mode=w.mode, thread=w.thread, opened_by=w.opened_by, close_at=w.close_at,
                   contributions=contributions, beacon=beacon)


def dealer_test(dealer: str) -> Callable[[str], bool]:
    """Whether an author is the Dealer's account (its comments are never entropy)."""
    return lambda author: same_account(author, dealer)


def archive_checks(engine: Engine, table: str, records: list[dict]) -> dict[int, list]:
    """For ``audit verify`` on a ledger: does each hand's recorded window hold exactly the
    comments the archive has in it? (The record alone proves the deal follows from what it
    lists; only the archive, a copy of the thread, shows that nothing was left out.)
    Hand number -> its one check."""
    from nomicpoker.core.fairness.verify import Check

    out: dict[int, list] = {}
    with Session(engine) as s:
        dealer = dealer_test(ledger.get_table(s, table).dealer)
        for rec in records:
            data = rec.get("entropy") if isinstance(rec, dict) else None
            if not isinstance(data, dict):
                continue
            try:
                w = Window(table=table, hand=int(rec["hand"]), mode=data["mode"], thread=data["thread"],
                           close_at=data["close_at"], opened_by=data["opened_by"])
                dealt = next(h for h in ledger.hand_rows(s, table) if h.number == w.hand)
                # what the archive held when the hand was dealt (hand start archives the thread
                # just before): a comment archived later was not there to be mixed in
                rows = s.exec(select(CommentRow).where(CommentRow.table_name == table,
                                                       CommentRow.thread == w.thread,
                                                       CommentRow.id <= dealt.after)).all()  # type: ignore[operator]
                found = select_window([Posted(r.forum_id, r.revision, r.author, r.created, r.body) for r in rows],
                                      w.opened_by, w.close_at, dealer)
            except (KeyError, TypeError, ValueError, StopIteration, CodedError) as exc:
                out[int(rec.get("hand", 0))] = [Check("entropy window complete", False, f"cannot be checked: {exc}")]
                continue
            recorded = {(str(c.get("comment_id")), str(c.get("author")), str(c.get("text")))
                        for c in data.get("contributions") or () if isinstance(c, dict)}
            archived = {(c.comment_id, c.author, c.text) for c in found}
            missing, extra = sorted(archived - recorded), sorted(recorded - archived)
            if not missing and not extra:
                check = Check("entropy window complete", True, f"the archive of thread {w.thread} held "
                              f"exactly these {len(found)} comments between comment {w.opened_by} and "
                              f"{w.close_at} when the hand was dealt")
            else:
                words = [f"comment {c} ({a}) was posted in the window but is not mixed in" for c, a, _ in missing]
                words += [f"comment {c} ({a}) is mixed in but is not in the archive's window as recorded"
                          for c, a, _ in extra]
                check = Check("entropy window complete", False, "; ".join(words))
            out[int(rec["hand"])] = [check]
    return out
