"""How the rule decides who acts, said in the rejections that rest on it.

A player refused for acting out of turn, or a first actor refused a raise below the call,
is owed the reading behind the refusal, not only the sentence: the rule text says who
*begins* a round ("Play begins with the Seated Player listed in the GNDT after the Button
Player", Robert's "Action is initiated on the first betting round by the first player to the
left of the blinds"), and the engine's turn order follows from it. These rejections name who
acted first in the round, who is to act now, and quote the sentence that decides the first
actor together with the code's own sentence (issue 10, "the first-actor reading is stated in
the rejection when it applies").

Pure: it reads the hand and its ruleset, never the clock or the store.
"""

from __future__ import annotations

import re

from nomicpoker.core.poker.actions import AllIn, Call, Check, DealBoard, Fold, Raise
from nomicpoker.core.poker.hand import Hand, Rejection

_BETTING = (Fold, Check, Call, Raise, AllIn)
#: a sentence the ruleset's note quotes (“…”), e.g. Robert's later-rounds sentence
_QUOTED = re.compile(r"“([^”]+)”")


def acted_first(hand: Hand) -> str | None:
    """Who acted first in the current betting round: the first betting action logged since
    the round's board was dealt (or since the hand started, in round 1); ``None`` when nobody
    has acted in it yet. (A deadline's check or fold is logged as that action.)"""
    first: str | None = None
    for ev in reversed(hand.log):
        if isinstance(ev, DealBoard):
            break
        if isinstance(ev, _BETTING):
            first = ev.player
    return first


def first_actor(hand: Hand) -> str | None:
    """:func:`acted_first`, or when nobody has acted yet the player to act now (``None`` when
    betting is not open)."""
    first = acted_first(hand)
    if first is None and hand.to_act is not None:
        first = hand.seats[hand.to_act].name
    return first


def first_to_act_sentence(hand: Hand) -> str:
    """The rule sentence that decides who begins the current round. Round 1 (and every round
    when the ruleset starts each one after the Button) is the ``first_to_act`` citation; for a
    ruleset whose first round starts after the blinds, later rounds are the sentence its note
    quotes (Robert's "On all subsequent betting rounds, ...")."""
    rs = hand.ruleset
    c = rs.citation("first_to_act")
    if c is None:
        return ""
    if hand.round > 1 and rs.first_to_act != "after_button" and rs.blinds:
        later = [q for q in _QUOTED.findall(c.note) if q.strip()]
        if later:
            return later[-1].strip()
    return c.sentence


def first_to_act_reading(hand: Hand) -> str:
    """The reading of who begins a round, in the engine's own words."""
    rs = hand.ruleset
    button = hand.seats[hand.button].name
    if hand.round == 1 and rs.first_to_act == "after_big_blind" and rs.blinds:
        who = "the first player after the blinds"
    else:
        who = f"the first seated player after the Button ({button}) who has not folded"
    return (f"round {hand.round} begins with {who}, and each action passes the turn to the next "
            f"seated player, in GNDT order, who has not folded and has Money to bet")


def _citation(hand: Hand, code: str) -> str:
    """The first-actor sentence, then the code's own sentence (each once)."""
    parts = []
    for s in (first_to_act_sentence(hand), hand.ruleset.cite(code)):
        if s and s not in parts:
            parts.append(s)
    return "\n\n".join(parts)


def not_your_turn(hand: Hand, player: str) -> Rejection:
    """``not_your_turn`` for ``player`` while another seat is to act: who is to act, who
    began the round and why, quoting the sentence that decides the first actor."""
    to_act = hand.seats[hand.to_act].name if hand.to_act is not None else "nobody"
    first = first_actor(hand)
    began = (f"{first} acted first" if first != to_act else f"{to_act} is first to act")
    msg = (f"it is {to_act}'s turn in hand {hand.number} round {hand.round}, not {player}'s: "
           f"{began} ({first_to_act_reading(hand)})")
    return Rejection("not_your_turn", msg, _citation(hand, "not_your_turn"))


def first_actor_facing_a_raise(hand: Hand, player: str, owe: int, added: int) -> Rejection | None:
    """``raise_not_more_than_call`` explained for the round's first actor (``None`` when
    ``player`` is not the first to act in this round).

    The proviso of the Raise sentence exempts "the first to act in that Round" from adding
    more than the call. Read literally that would let the first actor "raise" by less than he
    owes once someone has raised behind him; the engine reads the exemption as covering the
    first act of the round while nothing is owed (any amount of at least 1 is a raise), and
    applies the proviso to every act that faces an amount to call, the first actor's included."""
    if first_actor(hand) != player:
        return None
    facing = "a raise made since" if acted_first(hand) == player else "a bet already in the round"
    msg = (f"{player} must add more than {owe} to raise; {added} is not enough. {player} is the "
           f"first to act in round {hand.round}, and the rule's proviso exempts the first to act "
           f"only while nothing is owed (the opening raise may be any amount of at least 1): "
           f"facing {facing}, {player} is read as any other player, so a raise adds more than "
           f"the {owe} to call, and a call matches it")
    return Rejection("raise_not_more_than_call", msg, hand.ruleset.cite("raise_not_more_than_call"))
