"""The public money record of a hand: every accepted step with the chips it moved, in words.

WHY a record of its own: the GNDT change log says *that* a cell changed, the verdicts say
*which* comments were accepted, but an auditor who wants to recompute the money of a hand
needs the steps themselves, in engine order, with the chips each one put into the pot (antes
and blinds included) and the payouts. The fold emits one ``action`` row per step (see
:func:`steps`); ``audit export`` puts them in the hand record, and
:mod:`nomicpoker.core.fairness.money` replays them through the engine to recompute every bet and
payout from public data alone. The words ("alice raises 10") are what the site and
``nomicpoker verdicts`` show.

Pure: values in, values out.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

from nomicpoker.core.poker.actions import (
    AllIn, Call, Check, Fold, FoldOut, Muck, Raise, Reveal, Timeout,
)

#: engine event class -> the ``event`` word of an action row
EVENT_NAMES: dict[type, str] = {
    Fold: "fold", Check: "check", Call: "call", Raise: "raise", AllIn: "all_in",
    Reveal: "reveal", Muck: "muck", Timeout: "timeout", FoldOut: "fold_out",
}


def step_fields(ev: Any) -> dict[str, Any] | None:
    """The public fields of one engine event (``None`` for dealer deals: the board is in the
    record already, and hole cards are private until the hand ends)."""
    name = EVENT_NAMES.get(type(ev))
    if name is None:
        return None
    if name == "reveal" and ev.barred:  # shown for a player away: wins only pots only players away contest
        name = "reveal_away"
    amount = getattr(ev, "amount", None)
    cards = list(ev.cards) if isinstance(ev, Reveal) else []
    return {"player": ev.player, "event": name, "amount": amount, "cards": cards}


def steps(hand: Any, logged: int, bets: Mapping[str, int]) -> list[dict[str, Any]]:
    """The public steps of ``hand.log[logged:]`` with the chips each put in: the growth of
    the player's ``total_bet`` since ``bets`` (the totals when the steps were last taken).
    One accepted comment or dealer event is one engine step, so the growth is that step's."""
    out = []
    for ev in hand.log[logged:]:
        fields = step_fields(ev)
        if fields is None:
            continue
        seat = hand.seat(fields["player"])
        fields["chips"] = seat.total_bet - bets.get(seat.name, 0)
        out.append(fields)
    return out


def action_row(seq: int, hand: int, n: int, step: Mapping[str, Any], made_by: tuple[str, str],
               cause: str) -> dict[str, Any]:
    """The ``np_action`` row of step ``n`` of ``hand``; ``made_by``: (comment id, time)."""
    comment_id, at = made_by
    return {"seq": seq, "hand": hand, "n": n, "player": step["player"], "event": step["event"],
            "amount": step["amount"], "cards": list(step["cards"]), "chips": step["chips"],
            "comment_id": comment_id, "at": at, "cause": cause}


def forced_bets(hand: Any) -> list[dict[str, Any]]:
    """The antes and blinds posted when the hand started, one ``post`` step per seat that put
    chips in (GNDT order)."""
    return [{"player": s.name, "event": "post", "amount": s.total_bet, "cards": [], "chips": s.total_bet}
            for s in hand.seats if s.total_bet > 0]


def words(step: Mapping[str, Any], raise_to: bool) -> str:
    """A step in words, as a reader of the thread would say it: ``alice raises 10`` (chips
    added), ``bob raises to 40`` (a raise-to ruleset), ``carol calls 10``, ``dave checks``,
    ``alice mucks``. ``raise_to``: the ruleset's raise amounts are totals."""
    return "".join(word_parts(step, raise_to))


def word_parts(step: Mapping[str, Any], raise_to: bool) -> tuple[str, str]:
    """:func:`words` as (the player's name, the rest): a page sets the untrusted name apart
    (bidi-isolated) from the words around it."""
    p, ev, chips = str(step.get("player", "?")), step.get("event"), step.get("chips") or 0
    amount = step.get("amount")
    rest = {
        "post": f" posts {chips}", "fold": " folds", "check": " checks", "call": f" calls {chips}",
        "raise": f" raises to {amount}" if raise_to else f" raises {amount}",
        "all_in": f" goes all in ({chips})", "muck": " mucks",
        "reveal": f" shows {' '.join(step.get('cards') or ())}",
        "reveal_away": f" shows {' '.join(step.get('cards') or ())} (away: for the pots only players away contest)",
        "fold_out": " folded out (no Hole Card Draw in time)",
    }.get(str(ev), f" {ev}")
    return p, rest


def summary(actions: Sequence[Mapping[str, Any]], raise_to: bool) -> list[str]:
    """Every step of a hand in words, in order."""
    return [words(a, raise_to) for a in actions]
