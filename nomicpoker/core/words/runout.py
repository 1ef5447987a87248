"""The Dealer's chances at an all-in, from the hand as the fold knows it (issue 25).

When the betting is closed with cards to come (every player left all in, or all but one),
each player's exact chance to win and tie, pot by pot (:mod:`nomicpoker.core.poker.equity`,
worded by :mod:`.chances`). When they are said depends on what is public (docs/equity.md,
docs/fair-dealing.md "What is public, and when"):

- the ruleset turns the hands face up at that moment (``all_in_face_up``: Robert's Rules,
  tournament rule 27): the hands are public by rule from then on, so each street comment of
  the run-out ends with the hands and the chances before its cards (:func:`street_chances`);
- it does not (Dealing and Play: hole cards are shown only by the reveals after the last
  round): nothing before the hand ends; the payout comment, which publishes the secrets and
  so every card, recounts the chances before each street of the run-out
  (:func:`payout_chances`).

A table whose ``equity`` setting is off hears neither. The fold knows the cards it dealt from
one shared deck or from the Trading Post decks it issued; of an own deck only the checksum,
so a hand played from one gets a line saying why there are no chances (until it is revealed).
Pure: values in, text out.
"""

from __future__ import annotations

from nomicpoker.core.fairness.dealing import BOARD_STREETS, hole_cards
from nomicpoker.core.poker.actions import AllIn, Call, Check, DealBoard, Fold, FoldOut, Raise, Timeout
from nomicpoker.core.poker.equity import EquityError, all_in_equity, contested_pots
from nomicpoker.core.table.fold_state import HandState
from nomicpoker.core.table.table_settings import TableSettings
from nomicpoker.core.words.chances import chances, no_chances
from nomicpoker.core.words.gndt import md_escape

__all__ = ["street_chances", "payout_chances"]

#: the events of the betting (the run-out is every board dealt after the last of them)
_BETTING = (AllIn, Call, Check, Fold, FoldOut, Raise, Timeout)


def _known_hole(h: HandState, player: str) -> tuple[str, ...] | None:
    seat = h.hand.seat(player)
    if seat.revealed:
        return tuple(seat.revealed)
    if player in h.holes:
        return tuple(h.holes[player])
    if player in h.decks and player in h.draws:
        return tuple(hole_cards(h.decks[player].cards, h.draws[player]))
    return None


def _chances_now(h: HandState, hand) -> str:
    """The chances before the next street of ``hand`` (a run-out with cards to come)."""
    street = BOARD_STREETS[len(hand.board)]
    live = [s.name for s in hand.seats if not s.folded]
    holes = {p: _known_hole(h, p) for p in live}
    unseen = [p for p in live if holes[p] is None]
    if unseen:
        names = ", ".join(md_escape(p) for p in unseen)
        return no_chances(street, f"the dealer cannot see the hole cards of {names} (an own deck, "
                                  "of which only the checksum is on record)")
    pots = [(a, e) for a, e in contested_pots(hand) if e]
    try:
        eq = all_in_equity({p: c for p, c in holes.items() if c is not None}, hand.board, pots,
                           deck=hand.ruleset.deck, min_hole_cards=hand.ruleset.min_hole_cards)
    except EquityError as exc:
        return no_chances(street, md_escape(exc.message))
    return chances(eq, street)


def _in_runout(hand) -> bool:
    live = [s for s in hand.seats if not s.folded]
    return bool(hand.runout) and hand.result is None and len(hand.board) < len(BOARD_STREETS) and len(live) >= 2


def street_chances(h: HandState, settings: TableSettings) -> str:
    """The chances paragraph of the street about to be dealt: ``""`` unless the table shows
    chances, the ruleset turns the hands face up at an all-in, and the betting is closed with
    cards to come."""
    if not settings.equity or not h.hand.ruleset.all_in_face_up or not _in_runout(h.hand):
        return ""
    return _chances_now(h, h.hand)


def payout_chances(h: HandState, settings: TableSettings) -> str:
    """For a ruleset that keeps the hands hidden at an all-in: the chances before each street
    of the run-out, recounted in the payout comment once every card is public (``""`` when
    the hand had no run-out, the table shows no chances, or the street comments gave them)."""
    hand = h.hand
    if not settings.equity or hand.ruleset.all_in_face_up or hand.result is None:
        return ""
    # replay the hand's events up to the moment the betting closed: the run-out's boards are
    # the DealBoard events after the last player's action
    events = list(hand.log)
    last = max((i for i, ev in enumerate(events) if isinstance(ev, _BETTING)), default=-1)
    deals = [ev for ev in events[last + 1:] if isinstance(ev, DealBoard)]
    if not deals:
        return ""
    board = tuple(hand.board)
    done = len(board) - sum(len(d.cards) for d in deals)
    paragraphs = []
    for d in deals:
        at = _board_hand(hand, board[:done])
        paragraphs.append(_chances_now(h, at))
        done += len(d.cards)
    return "The all-in, recounted now that every card is public:\n\n" + "\n\n".join(paragraphs)


def _board_hand(hand, board: tuple[str, ...]):
    """``hand`` as it stood with only ``board`` dealt (for the equity: the board and the
    seats' bets; the result cleared)."""
    from dataclasses import replace

    return replace(hand, board=board, result=None)
