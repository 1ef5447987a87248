"""A played hand as PHH, from its public record (``nomicpoker phh export``).

WHY from the public record: it is what an auditor has. The record's steps are replayed
through the engine (:mod:`nomicpoker.core.fairness.money`) so each action can be written as PHH
spells it: ``cbr`` takes the player's new total for the round (a blognomic-2008 ``raise 10``
*adds* 10, so its total is computed, not copied), and ``cc`` is a check or a call. Board cards
go in where the rules deal them (``d db``), hole cards first (``d dh``): those the record
shows (a reveal), or for one shared deck once the hand has ended the cards the published deck
secret deals; ``????`` otherwise.

Players are ``p1`` .. ``pn`` from the first seat after the button (the button is ``pn``), as
:mod:`nomicpoker.core.phh.phh` reads them. ``roberts-nlhe`` hands are exact: PokerKit replays
them to the same finishing stacks (a test does). ``blognomic-2008`` hands are exported as far
as PHH can say them and marked ``_nomicpoker_exact = false`` with the reasons, per hand, in
``_nomicpoker_not_expressed`` (docs/phh.md lists them all). So is a hand of either ruleset in
which the dealer showed a player's cards with a bar (``reveal_away``: a player away at a
tournament's table wins only the pots no player present contests), with the ledger's pots
(``_nomicpoker_pots``), ``winnings`` and the players barred (``_nomicpoker_barred``): PHH has no
barred show, and PokerKit would pay such a pot to the best cards.
"""

from __future__ import annotations

from typing import Any, Mapping

from nomicpoker.core.fairness.dealing import hole_cards, issue_deck, shared_holes
from nomicpoker.core.poker.engine import Rejection, apply
from nomicpoker.core.fairness.money import deal_recorded, event_of, start_from_record
from nomicpoker.core.phh.phh import PhhError, PhhHand
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.fairness.entropy import record_secret


def _order(seats: list[str], button: str) -> list[str]:
    b = seats.index(button)
    return seats[b + 1:] + seats[:b + 1]


def _holes(record: Mapping[str, Any], ruleset: Ruleset) -> dict[str, tuple[str, ...]]:
    holes: dict[str, tuple[str, ...]] = {}
    secrets = record.get("secrets")
    if ruleset.deck == "shared" and isinstance(secrets, Mapping) and record.get("deal_order"):
        dealt = shared_holes(record_secret(record, "deck"), record["hand"], list(record["deal_order"]),
                             ruleset.hole_cards)
        holes.update({p: tuple(c) for p, c in dealt.items()})
    for r in record.get("reveals") or ():
        holes.setdefault(r["player"], tuple(r["cards"]))
    if isinstance(secrets, Mapping):  # issued decks: the drawn positions of the published deck
        issued = {d["player"] for d in record.get("decks") or () if d.get("source") == "issued"}
        for d in record.get("draws") or ():
            if d["player"] in issued and d["player"] not in holes:
                deck = issue_deck(record_secret(record, "decks"), record["hand"], d["player"])
                holes[d["player"]] = tuple(hole_cards(deck.cards, d["positions"]))
    return holes


def _barred(record: Mapping[str, Any]) -> list[str]:
    """The players whose cards the dealer showed with a bar (``reveal_away``), in order."""
    return list(dict.fromkeys(a["player"] for a in record.get("actions") or () if a.get("event") == "reveal_away"))


def _differences(record: Mapping[str, Any], ruleset: Ruleset) -> list[str]:
    """What PHH (and PokerKit reading it) cannot say about this hand under this ruleset."""
    out: list[str] = []
    if ruleset.deck != "shared":
        out.append("each player draws hole cards from their own deck: the same card may be at the "
                   "table twice, which one PHH deck cannot hold")
        shown = [c for r in record.get("reveals") or () for c in r.get("cards", ())]
        cards = shown + list(record.get("board") or ())
        repeated = sorted({c for c in cards if cards.count(c) > 1})
        if repeated:
            out.append(f"repeated cards in this hand: {' '.join(repeated)}")
    if ruleset.raise_amount != "raise_to":
        out.append("raise amounts are chips added (raise Z); written here as PHH raise-to totals, "
                   "and any raise above the call is legal, where PokerKit enforces no-limit "
                   "minimum raises")
    if ruleset.odd_chips == "destroy":
        out.append("odd chips of a split pot are destroyed (PHH and PokerKit award them)"
                   + (f": {record['destroyed']} destroyed in this hand" if record.get("destroyed") else ""))
    if not ruleset.side_pots:
        out.append("no side pots: the winner takes the whole pot")
    if ruleset.min_hole_cards:
        out.append(f"a hand must use at least {ruleset.min_hole_cards} hole card(s); five of a kind "
                   "ranks above a straight flush")
    barred = _barred(record)
    if barred:
        out.append(f"{', '.join(barred)} away at a tournament's table: the dealer showed their cards with a "
                   "bar (reveal_away), so they win only the pots no player present contests (WRGPT: \"You "
                   "cannot win a contested hand while on vacation\"); PHH writes them as any show, and PokerKit "
                   "pays each pot to the best cards shown: the pots as the ledger paid them are in "
                   "_nomicpoker_pots, the winnings in winnings")
    if any(a.get("event") == "fold_out" for a in record.get("actions") or ()):
        out.append("a player was folded out of turn (no Hole Card Draw in time, a vacation, the "
                   "Dealer's hand fold): written as their fold when PHH's turn reaches them")
    return out


def export_phh(record: Mapping[str, Any], ruleset: Ruleset) -> PhhHand:
    """The hand as a :class:`PhhHand` (``write_phh`` gives the text). Raises
    :class:`PhhError` when the record's steps do not replay."""
    checks: list[Any] = []
    hand = start_from_record(record, ruleset, checks)
    if hand is None:
        raise PhhError(checks[0].detail if checks else "the record cannot start a hand")
    seats = [s["player"] for s in record["seats"]]
    order = _order(seats, record["button"])
    label = {p: f"p{i + 1}" for i, p in enumerate(order)}
    n = len(order)
    holes = _holes(record, ruleset)
    actions = [f"d dh {label[p]} {''.join(holes.get(p, ('??', '??')))}" for p in order]
    turn = _Turns(order, label, hand)
    board = list(record.get("board") or [])
    dealt = 0
    for a in record.get("actions") or ():
        if a.get("event") == "post":
            continue
        before = len(board[:dealt])
        hand, dealt, problem = deal_recorded(hand, board, dealt)
        if problem:
            raise PhhError(f"step {a.get('n')}: the hand {problem}")
        if dealt > before:
            turn.street_ends(actions, hand)
        _streets(actions, board, before, dealt)
        ev = event_of(a, hand)
        if isinstance(ev, str):
            raise PhhError(f"step {a.get('n')}: {ev}")
        p = a["player"]
        high = hand.high_bet
        r = apply(hand, ev)
        if isinstance(r, Rejection):
            raise PhhError(f"step {a.get('n')} ({p} {a.get('event')}): {r.code}: {r.message}")
        hand = r
        event = a.get("event")
        seat = hand.seat(p)
        if event == "fold_out":  # out of turn: written as the player's fold when PHH's turn comes
            turn.folded_out(actions, p)
            continue
        if event in ("reveal", "reveal_away", "muck"):
            turn.street_ends(actions, hand)
            actions.append(f"{label[p]} sm {''.join(a.get('cards') or ())}" if event != "muck" else f"{label[p]} sm")
            continue
        turn.before(actions, p)
        if event in ("fold",):
            actions.append(f"{label[p]} f")
        elif event in ("check", "call"):
            actions.append(f"{label[p]} cc")
        elif event in ("raise", "all_in"):
            actions.append(f"{label[p]} cbr {seat.round_bet}" if seat.round_bet > high else f"{label[p]} cc")
        turn.after(p, folded=event == "fold", hand=hand)
    before = dealt
    hand, dealt, _ = deal_recorded(hand, board, dealt)
    turn.street_ends(actions, hand)
    _streets(actions, board, before, dealt)
    blinds = list(record.get("blinds") or [])
    bos = (blinds + [0] * n)[:n]
    fields: list[tuple[str, Any]] = [
        ("players", tuple(order)),
        ("hand", record.get("hand")),
        ("table", str(record.get("table", ""))),
        ("_nomicpoker_ruleset", str(record.get("ruleset", ""))),
        ("_nomicpoker_ruleset_hash", str(record.get("ruleset_hash", ""))),
    ]
    if hand.result is not None:
        fields.insert(1, ("finishing_stacks", tuple(hand.seat(p).money for p in order)))
        if _barred(record):  # a barred show: what PHH's shows alone would pay otherwise, as the ledger paid it
            won = {p: 0 for p in order}
            for award in hand.result.awards:
                for p, v in award.shares.items():
                    won[p] += v
            fields.insert(2, ("winnings", tuple(won[p] for p in order)))
            fields += [("_nomicpoker_barred", tuple(_barred(record))),
                       ("_nomicpoker_pots", tuple((("amount", a.amount), ("players", tuple(a.eligible)),
                                                   ("winners", tuple(a.winners))) for a in hand.result.awards))]
    diffs = _differences(record, ruleset)
    fields.append(("_nomicpoker_exact", not diffs))
    if diffs:
        fields.append(("_nomicpoker_not_expressed", tuple(diffs)))
    start = {s["player"]: s["money"] for s in record["seats"]}
    return PhhHand(
        variant="NT", antes=tuple([int(record.get("ante") or 0)] * n), blinds_or_straddles=tuple(bos),
        min_bet=int(hand.min_bet or 1), starting_stacks=tuple(start[p] for p in order),
        actions=tuple(actions), ante_trimming_status=True, fields=tuple(fields),
    )


class _Turns:
    """PHH's turn order, kept beside the engine's. WHY: the engine folds a player *out of
    turn* (no Hole Card Draw by its deadline, a vacation in the draw, the Dealer's ``hand
    fold``) and whoever owed the next action still owes it; PHH has no out-of-turn fold, and
    PokerKit refuses a fold written before its player's turn ("Unable to repair the hand
    history"). So such a player stays *pending* here and his fold is written when PHH's turn
    reaches him: before the next action of a player after him, or before the street ends."""

    def __init__(self, order: list[str], label: dict[str, str], hand: Any):
        self.order, self.label = order, label
        self.folded: set[str] = set()  # folded as PHH has written it
        self.pending: list[str] = []  # folded out by the engine, not yet written
        first = hand.seats[hand.to_act].name if hand.to_act is not None else order[0]
        self.next = order.index(first)  # PHH's player to act, as an index into order

    def _live(self, i: int, hand: Any = None) -> bool:
        p = self.order[i]
        if p in self.folded:
            return False
        return hand is None or not hand.seat(p).all_in

    def _advance(self, after: int, hand: Any = None) -> None:
        n = len(self.order)
        for k in range(1, n + 1):
            i = (after + k) % n
            if self._live(i, hand):
                self.next = i
                return

    def _write_fold(self, actions: list[str], p: str) -> None:
        actions.append(f"{self.label[p]} f")
        self.folded.add(p)
        self.pending.remove(p)

    def folded_out(self, actions: list[str], p: str) -> None:
        self.pending.append(p)
        if self.order[self.next] == p:  # his turn anyway: in order
            self._write_fold(actions, p)
            self._advance(self.order.index(p))

    def before(self, actions: list[str], p: str) -> None:
        """Write the folds of the pending players PHH's turn reaches before ``p``."""
        while self.pending and self.order[self.next] != p and self.order[self.next] in self.pending:
            q = self.order[self.next]
            self._write_fold(actions, q)
            self._advance(self.order.index(q))

    def after(self, p: str, folded: bool, hand: Any) -> None:
        if folded:
            self.folded.add(p)
        self._advance(self.order.index(p), hand)

    def street_ends(self, actions: list[str], hand: Any) -> None:
        """The betting round is over: the pending players' folds, in PHH's turn order from
        where it stands; the next round starts at the first player after the button."""
        n = len(self.order)
        for k in range(n):
            q = self.order[(self.next + k) % n]
            if q in self.pending:
                self._write_fold(actions, q)
        self.next = self.order.index(self.order[-1])
        self._advance(self.next, hand)


def _streets(actions: list[str], board: list[str], before: int, dealt: int) -> None:
    """``d db`` lines for the board cards dealt between ``before`` and ``dealt`` (the flop as
    one line of three cards, the turn and river one each)."""
    i = before
    while i < dealt:
        k = 3 if i == 0 else 1
        actions.append(f"d db {''.join(board[i:i + k])}")
        i += k
