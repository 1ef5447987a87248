"""The fold's state as plain JSON data, and back (pure): what lets the poll resume a fold.

:func:`encode` turns a :class:`~nomicpoker.core.table.fold_state.TableState` into JSON-ready data;
:func:`decode` rebuilds it, given the table's configuration and the start records (with
secrets) of the hands still open. What is not stored, because it follows from the inputs:

- a hand's engine state (``HandState.hand``): rebuilt by starting the hand again and applying
  its accepted events (``hand.log``, "a hand is a fold over a list of events",
  :mod:`nomicpoker.core.poker.actions`); :func:`encode` refuses (``SnapshotError``) when that
  rebuild would not give the same hand, so a snapshot never holds a state it cannot restore;
- issued decks and shared-deck hole cards: recomputed from the hand's secrets;
- for hands that are over and no longer the current one: the engine state and the hand's
  secrets are not needed again (a comment in their thread is answered ``hand_over``; who was
  seated is kept, since it decides whether a bare ``call`` there is an action or chat), and
  the per-comment memory of their threads (what a comment first read as, which edits were
  noted) is dropped once they are older than the last two hands: those threads are *sealed*,
  and a resumed fold that meets a new revision in a sealed thread must not resume
  (:func:`resumable`).

WHY JSON and not pickle: a snapshot lives in the ledger database, which others can read and
write; decoding it builds only the values named here, never arbitrary objects.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, is_dataclass
from typing import Any, Iterable, Mapping

from nomicpoker.core.poker import actions, engine
from nomicpoker.core.fairness.dealing import deal_order, issue_deck, shared_holes
from nomicpoker.core.errors import CodedError
from nomicpoker.core.table.days_state import DaysState
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import DealerEvent, HandStart, Revision, TableConfig
from nomicpoker.core.rules.ruleset import Ruleset

#: bump when the encoded form changes. 2: the order of every mapping is kept (the shell stores
#: the state as JSON without sorting keys), so a snapshot of format 1, whose keys were sorted,
#: is not resumed: its dicts may not be in the order a replay builds them.
FORMAT = 2
#: the state's fields :func:`encode` does not store, because they follow from the inputs (a
#: test checks that every other field of TableState and HandState is stored: a field added to
#: the fold's state without a place here would be lost by a resume)
DERIVED_TABLE_FIELDS = frozenset({"hands", "current"})  # stored as the hands list / a number
DERIVED_HAND_FIELDS = frozenset({"start", "hand", "decks", "holes"})

_EVENTS: dict[str, type] = {cls.__name__: cls for cls in actions.Event.__args__}  # type: ignore[attr-defined]


class SnapshotError(CodedError):
    """A fold state cannot be encoded or decoded (``code``: ``snapshot``); the caller folds
    from the start instead."""


# --------------------------------------------------------------------------- engine events


def _event_out(value: Any) -> Any:
    if is_dataclass(value):
        name = type(value).__name__
        if _EVENTS.get(name) is not type(value):
            raise SnapshotError("snapshot", f"cannot store a {name} in a hand's log")
        return {"t": name, **{f.name: _event_out(getattr(value, f.name)) for f in fields(value)}}
    if isinstance(value, (tuple, list)):
        return [_event_out(v) for v in value]
    return value


def _event_in(value: Any) -> Any:
    if isinstance(value, dict):
        cls = _EVENTS.get(value.get("t", ""))
        if cls is None:
            raise SnapshotError("snapshot", f"unknown event {value.get('t')!r} in a snapshot")
        return cls(**{k: _event_in(v) for k, v in value.items() if k != "t"})
    if isinstance(value, list):
        return tuple(_event_in(v) for v in value)
    return value


@dataclass(frozen=True)
class ClosedHand:
    """What the fold reads again of a hand that is over and is not the current one: the
    ruleset it was played under (a late comment in its thread is answered citing it)."""

    ruleset: Ruleset


def _rebuild_hand(ruleset: Ruleset, start: HandStart, log: Iterable[Any]) -> Any:
    hand = engine.start_hand(ruleset, start.number, [tuple(s) for s in start.seats], start.button,
                             ante=start.ante, blinds=start.blinds, blind_posters=start.blind_posters or None)
    for ev in list(log)[len(hand.log):]:
        hand = engine.apply(hand, ev)
        if isinstance(hand, engine.Rejection):
            raise SnapshotError("snapshot", f"hand {start.number}'s log does not replay: {hand.message}")
    return hand


# --------------------------------------------------------------------------- the state


def sealed_threads(state: TableState, keep: int = 2) -> set[str]:
    """Threads of hands that are over and older than the last ``keep`` hands."""
    if not state.hands:
        return set()
    last = max(state.hands)
    return {h.start.thread for n, h in state.hands.items()
            if n <= last - keep and h.phase == "complete" and state.by_thread.get(h.start.thread) == n}


def encode(state: TableState, config: TableConfig, sealed: Iterable[str] = ()) -> dict[str, Any]:
    """``state`` as JSON-ready data. ``sealed``: threads already sealed by an earlier snapshot
    (kept sealed). Raises :class:`SnapshotError` when the current hand's engine state would
    not rebuild from its log."""
    seal = set(sealed) | sealed_threads(state)
    cur = state.current
    hands = []
    for n, h in sorted(state.hands.items()):
        live = h is cur
        if live and _rebuild_hand(h.hand.ruleset, h.start, h.hand.log) != h.hand:
            raise SnapshotError("snapshot", f"hand {n}'s engine state does not rebuild from its log")
        hands.append({
            "number": n, "thread": h.start.thread, "seats": [list(x) for x in h.start.seats],
            "phase": h.phase, "live": live,
            "ruleset": h.hand.ruleset.content_hash,
            "log": _event_out(h.hand.log) if live else None,
            "pairs": {p: list(v) for p, v in h.pairs.items()},
            "own_checksums": dict(h.own_checksums),
            "draws": {p: list(v) for p, v in h.draws.items()},
            "false_reveals": list(h.false_reveals), "since": h.since, "record": h.record,
            "noted": [] if h.start.thread in seal else sorted(h.noted),
            "redraws": dict(h.redraws), "timed_out": dict(h.timed_out),
            "steps": h.steps, "logged": h.logged, "bets": dict(h.bets), "step": list(h.step),
            "advance": dict(h.advance), "reveal_asked": sorted(h.reveal_asked),
            "private_advance": [list(x) for x in h.private_advance],
            "talk": [list(x) for x in h.talk],
            "no_raise": sorted(h.no_raise), "edition": h.edition,
        })
    return {
        "format": FORMAT, "seq": state.seq, "action_seq": state.action_seq, "money": dict(state.money),
        "gndt": {p: list(v) for p, v in state.gndt.items()},
        "by_thread": dict(state.by_thread),
        "current": cur.start.number if cur is not None else None,
        "n_out": [[k, v] for k, v in state.n_out.items()],
        "first_kind": [[t, c, k] for (t, c), k in state.first_kind.items() if t not in seal],
        "first_verdict": [[t, c, *v] for (t, c), v in state.first_verdict.items() if t not in seal],
        "amendments": [asdict(e) for e in state.amendments],
        "score_pending": [list(r) for r in state.score_pending],
        "days": state.days.to_data(),
        "roster": list(state.roster) if state.roster is not None else None,
        "sealed": sorted(seal), "hands": hands,
    }


def live_hands(data: Mapping[str, Any]) -> list[int]:
    """The hands whose start records (with secrets) :func:`decode` needs."""
    return [h["number"] for h in data["hands"] if h["live"]]


def decode(data: Mapping[str, Any], config: TableConfig, starts: Mapping[int, HandStart],
           rulesets: Mapping[str, Ruleset] | None = None) -> TableState:
    """Rebuild the state :func:`encode` stored. ``starts``: hand number -> start record, with
    secrets for the live hands (:func:`live_hands`); ``rulesets``: the table's pinned rulesets
    by content hash (the table's own ruleset serves without)."""
    known = {config.ruleset.content_hash: config.ruleset, **(rulesets or {})}
    if data.get("format") != FORMAT:
        raise SnapshotError("snapshot", f"snapshot format {data.get('format')!r}, not {FORMAT}")
    try:
        st = TableState(
            seq=int(data["seq"]), action_seq=int(data["action_seq"]), money={p: int(m) for p, m in data["money"].items()},
            gndt={p: (int(v[0]), str(v[1]), int(v[2])) for p, v in data["gndt"].items()},
            by_thread={t: int(n) for t, n in data["by_thread"].items()},
            n_out={k: int(v) for k, v in data["n_out"]},
            first_kind={(t, c): k for t, c, k in data["first_kind"]},
            first_verdict={(t, c): (s, canon, code) for t, c, s, canon, code in data["first_verdict"]},
            amendments=[DealerEvent(**e) for e in data["amendments"]],
            score_pending=[[str(x) for x in r] for r in data.get("score_pending", [])],
            days=DaysState.from_data(data["days"]),
            roster=[str(p) for p in data["roster"]] if data.get("roster") is not None else None,
        )
        for d in data["hands"]:
            n = d["number"]
            start = starts.get(n)
            if start is None:  # a closed hand: only its number, thread and seats are read again
                seats = tuple((str(p), int(m)) for p, m in d.get("seats", ()))
                start = HandStart(n, d["thread"], "", 0, (), seats, 0, "", {})
            rules = known.get(d["ruleset"])
            if rules is None:
                raise SnapshotError("snapshot", f"hand {n}'s ruleset {d['ruleset'][:12]} is not pinned")
            h = HandState(start=start, hand=ClosedHand(rules), phase=d["phase"],
                          pairs={p: (v[0], int(v[1]), int(v[2])) for p, v in d["pairs"].items()},
                          own_checksums=dict(d["own_checksums"]),
                          draws={p: tuple(v) for p, v in d["draws"].items()},
                          false_reveals=list(d["false_reveals"]), since=d["since"], record=d["record"],
                          noted=set(d["noted"]), redraws=dict(d["redraws"]), timed_out=dict(d["timed_out"]),
                          steps=int(d["steps"]), logged=int(d["logged"]),
                          bets={p: int(b) for p, b in d["bets"].items()}, step=(str(d["step"][0]), str(d["step"][1])),
                          advance={p: str(t) for p, t in d.get("advance", {}).items()},
                          reveal_asked=set(d.get("reveal_asked", [])),
                          private_advance=[[str(x) for x in v] for v in d.get("private_advance", [])],
                          talk=[[str(x) for x in v] for v in d.get("talk", [])],
                          no_raise=set(d.get("no_raise", [])), edition=int(d.get("edition", 1)))
            if d["live"]:
                if start.secrets is None:
                    raise SnapshotError("snapshot", f"the secrets of hand {n} are missing")
                h.hand = _rebuild_hand(rules, start, _event_in(d["log"]))
                seated = [name for name, _ in start.seats]
                if config.issue_decks:
                    h.decks = {p: issue_deck(start.dealt_from.decks, n, p) for p in seated}
                if rules.deck == "shared":
                    h.holes = dict(shared_holes(start.dealt_from.deck, n, deal_order(seated, start.button),
                                                rules.hole_cards))
            st.hands[n] = h
        if data["current"] is not None:
            st.current = st.hands[int(data["current"])]
    except SnapshotError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise SnapshotError("snapshot", f"a snapshot does not decode: {exc!r}") from exc
    return st


def resumable(data: Mapping[str, Any], revisions: Iterable[Revision]) -> bool:
    """Whether the fold stored in ``data`` can go on over ``revisions`` (none in a sealed
    thread)."""
    sealed = set(data.get("sealed", ()))
    return not any(r.thread in sealed for r in revisions)
