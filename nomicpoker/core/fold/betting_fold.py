"""A bet, a reveal and a turn's deadline in the fold (pure): the steps the engine applies.

WHY a module of its own: they were methods of the fold (``_Folder.bet``, ``reveal``,
``_turn_timeout``), which the ordinary readings' handler called back into. Written without a
hub (:mod:`.effects`), each is a function of the hand's state (only read), the rules and its
input that returns what happened: the step's state change (the engine's next state, the
clock), the verdict or the rejection, the rows, and the request to move the hand on
(:class:`~nomicpoker.core.fold.effects.AdvanceHand`), which the fold carries out.

- A bet during the Hole Card Draw is refused: round 1 opens when every seated player has
  stated a draw.
- A player who checked out of turn may not bet or raise at his next turn where the ruleset
  says so (:func:`.advance_fold.no_raise_refusal`); his own action wipes his advance action.
- A reveal is checked against the cards the dealer knows (the issued deck at the drawn
  positions, or the dealt hole cards) before the engine sees it: the engine's message would
  name the real cards, which stay private until the hand ends.
"""

from __future__ import annotations

from typing import Any

from nomicpoker.core.fairness.dealing import hole_cards
from nomicpoker.core.fold import away
from nomicpoker.core.fold.advance_fold import no_raise_refusal
from nomicpoker.core.fold.draws import waiting_for_draws
from nomicpoker.core.fold.effects import AdvanceHand, Effect, Post, Recorded, Reject, Row, Verdict, hand_set
from nomicpoker.core.poker import engine
from nomicpoker.core.poker.actions import Muck, Reveal, Timeout
from nomicpoker.core.reading import grammar
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import DealerEvent, Revision
from nomicpoker.core.words import notices as say


def bet(rev: Revision, h: HandState, intent: Any) -> tuple[Effect, ...]:
    """A betting action of ``rev``'s author (who is seated and acts for himself) in hand ``h``."""
    number = h.start.number
    if h.phase == "draw":
        waiting = waiting_for_draws(h)
        # The rule puts the draw statements before the first round ("shall then post ...").
        return (Reject(rev, number, "betting_closed", "round 1 opens when every Seated Player has "
                       f"stated a Hole Card Draw; waiting for {', '.join(waiting)}", cite_as="draw_mismatch"),)
    action = grammar.to_action(intent, rev.author)
    step = hand_set(number, step=(rev.forum_id, rev.created))
    res = no_raise_refusal(h, rev.author, action) or engine.apply(h.hand, action)
    if isinstance(res, engine.Rejection):
        return (step, Reject(rev, number, res.code, res.message, cite=res.citation))
    # "your next "real" action will wipe it out": his advance action goes
    return (step, hand_set(number, hand=res, since=rev.created,
                           advance={k: v for k, v in h.advance.items() if k != rev.author}),
            Verdict(rev, number, "accepted", canonical=grammar.canonical(intent)),
            AdvanceHand(number, rev.permalink or f"comment {rev.forum_id}", rev.thread))


def reveal(rev: Revision, h: HandState, intent: Any, rules: Ruleset) -> tuple[Effect, ...]:
    """A showdown reveal by ``rev``'s author in hand ``h``; ``rules``: the rules in force."""
    number, p = h.start.number, rev.author
    cards = tuple(intent.cards or ())
    if h.phase != "reveal":
        return (Reject(rev, number, "reveal_not_allowed",
                       "reveals come after the last round's betting, when the dealer calls for them"),)
    false = hand_set(number, false_reveals=[*h.false_reveals, p])
    if p in h.decks and p in h.draws and len(cards) == rules.hole_cards:  # else: a wrong count
        held = hole_cards(h.decks[p].cards, h.draws[p])
        if sorted(held) != sorted(cards):
            return (false, Reject(rev, number, "false_reveal", f"those are not the cards at positions "
                                  f"{', '.join(str(x) for x in h.draws[p])} of {p}'s issued deck "
                                  "(the dealer says what the deck held there when the hand ends)"))
    if p in h.holes and len(cards) == len(h.holes[p]) and sorted(h.holes[p]) != sorted(cards):
        # Checked here, not by the engine, whose message names the real cards: they stay
        # private until the hand ends.
        return (false, Reject(rev, number, "false_reveal", f"those are not the cards {p} was dealt "
                              "(the dealer says what they were when the hand ends)"))
    step = hand_set(number, step=(rev.forum_id, rev.created))
    res = engine.apply(h.hand, Reveal(player=p, cards=cards, hand=intent.hand))
    if isinstance(res, engine.Rejection):
        return (step, Reject(rev, number, res.code, res.message))
    out: tuple[Effect, ...] = (
        step, hand_set(number, hand=res, since=rev.created),
        Row("reveal", dict(hand=number, player=p, comment_id=rev.forum_id, cards=list(cards))),
        Recorded(number, "reveals", {"player": p, "comment_id": rev.forum_id, "cards": list(cards)}),
        Verdict(rev, number, "accepted", canonical=grammar.canonical(intent)))
    need = engine.need(res)
    if need.kind == "reveal":
        out += (Post(number, lambda k: say.reveal_recorded(p, rev.permalink or rev.forum_id, cards,
                                                           need.players, k), rev.thread, reply_to=rev.forum_id),)
    return out + (AdvanceHand(number, rev.permalink or f"comment {rev.forum_id}", rev.thread),)


def turn_timeout(ev: DealerEvent, st: TableState) -> tuple[Effect, ...]:
    """A recorded turn deadline: the dealer checks or folds for ``ev.player`` (at a showdown:
    mucks), as the hand's ruleset says; an event that no longer applies changes nothing."""
    h = st.hands.get(ev.hand)
    if h is None or h.phase in ("draw", "complete"):
        return ()
    number = h.start.number
    action = h.hand.ruleset.deadline_action  # the rules of this hand (amendments included)
    event = Muck(player=ev.player) if h.phase == "reveal" else Timeout(player=ev.player, action=action)
    step = hand_set(number, step=("", ev.at))
    res = engine.apply(h.hand, event)
    if isinstance(res, engine.Rejection):
        return (step,)
    did = "mucks" if h.phase == "reveal" else ("folds" if res.seat(ev.player).folded else "checks")
    note, change = away.timed_out(st, ev.player)
    at = st.days.when(ev.at) if h.edition >= 2 else ev.at  # as reminders state times (edition 1: ISO)
    return (step, hand_set(number, hand=res, since=ev.at), change,
            Post(ev.hand, lambda k: say.timed_out(ev.player, at, did, action, k, note), h.start.thread),
            AdvanceHand(number, f"dealer: {ev.player}'s deadline passed at {ev.at}", h.start.thread, said=True))
