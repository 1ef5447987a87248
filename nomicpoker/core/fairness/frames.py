"""A published hand as it stood at the table, step by step: the replayer's frames.

Each frame is the table after one step of the hand's public record: the forced bets, each
player's action, each street dealt, each reveal, and the payout. A frame holds every seat's
Money behind (``stack``), what it put in this betting round (``bet``) and in the hand
(``total``), whether it folded or is all in, the hole cards known by then, the board, the
pot, who is to act and, while the board runs out at an all-in, each player's exact chances
(:mod:`nomicpoker.core.poker.equity`).

Which hole cards a frame shows, and from when (docs/site.md, "The replayer"):

- a reveal, from its step on;
- at an all-in with the betting complete, every hand still in, from that step on, once the
  hand has ended (Robert's Rules, tournament rule 27: "All hands will be turned faceup
  whenever a player is all-in and betting action is complete"; under a rule without it,
  Dealing and Play, they were not shown at the table, but the page of an ended hand is
  published with the secrets, so the replay shows the run-out as a broadcast would);
- when the hand has ended, every hand in the last frame, a folded one marked as recomputed
  from the published secrets (:func:`known_holes`).

WHY from the engine and not from the record's numbers: the frames are the rules replayed,
as :mod:`.money` checks them, so a frame can never show a stack the rules do not give.
Pure: a record and its ruleset in, plain values out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from nomicpoker.core.fairness.dealing import DealingError, deal_order, hole_cards, issue_deck, shared_holes
from nomicpoker.core.fairness.money import event_of, start_from_record
from nomicpoker.core.fairness.verify import Check
from nomicpoker.core.poker.actions import DealBoard
from nomicpoker.core.poker.engine import Rejection, apply, need
from nomicpoker.core.poker.equity import Equity, EquityError, all_in_equity, contested_pots
from nomicpoker.core.rules.ruleset import Ruleset

__all__ = ["Frame", "SeatView", "known_holes", "frames", "street_of", "runout_equity"]

#: the street of a board of 0, 3, 4 or 5 cards
STREETS = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}


def street_of(board_size: int) -> str:
    return STREETS.get(board_size, f"{board_size} cards")


@dataclass(frozen=True)
class SeatView:
    name: str
    stack: int
    bet: int
    total: int
    folded: bool
    all_in: bool
    cards: tuple[str, ...] = ()
    #: how the cards are known: "shown" (revealed), "face up" (all in), "recomputed" (folded,
    #: from the published secrets), "" (not known)
    how: str = ""


@dataclass(frozen=True)
class Frame:
    n: int  # 0-based frame index
    kind: str  # "start", "action", "board", "reveal", "end"
    street: str  # "preflop", "flop", "turn", "river", "showdown"
    player: str
    words: str  # the step in words, without the player's name
    comment_id: str
    step: int | None  # the record's step number ``n`` (None for a board or the end)
    seats: tuple[SeatView, ...]
    board: tuple[str, ...]
    pot: int
    to_act: str
    equity: Equity | None = None


def known_holes(record: Mapping[str, Any], ruleset: Ruleset) -> dict[str, tuple[tuple[str, ...], str]]:
    """Every hole hand the public record gives: ``player -> (cards, how)``, ``how`` being
    ``"shown"`` (a reveal) or ``"recomputed"`` (from the published secrets: the shared deck,
    or the Trading Post deck the Dealer issued and the positions drawn). A hand dealt from a
    player's own deck that was never revealed is not known (only its checksum is on record)."""
    out: dict[str, tuple[tuple[str, ...], str]] = {}
    secrets = record.get("secrets") or {}
    number = record.get("hand") if isinstance(record.get("hand"), int) else 0
    try:
        if ruleset.deck == "shared" and isinstance(secrets.get("deck"), str):
            names = [s["player"] for s in record.get("seats") or ()]
            order = deal_order(names, record.get("button"))
            for p, cards in shared_holes(bytes.fromhex(secrets["deck"]), number, order, ruleset.hole_cards).items():
                out[p] = (tuple(cards), "recomputed")
        elif isinstance(secrets.get("decks"), str):
            issued = {d.get("player") for d in record.get("decks") or () if d.get("source") == "issued"}
            for d in record.get("draws") or ():
                p = d.get("player")
                if p in issued and isinstance(d.get("positions"), list):
                    deck = issue_deck(bytes.fromhex(secrets["decks"]), number, p).cards
                    out[p] = (tuple(hole_cards(deck, d["positions"])), "recomputed")
    except (DealingError, ValueError, TypeError, KeyError):
        out = {}  # a malformed record: ``audit verify`` says what is wrong; show only reveals
    for r in record.get("reveals") or ():
        if isinstance(r.get("player"), str) and isinstance(r.get("cards"), list):
            out[r["player"]] = (tuple(r["cards"]), "shown")
    return out


def runout_equity(hand: Any, holes: Mapping[str, Sequence[str]]) -> Equity | None:
    """The exact chances of the hands still in, with cards to come and the betting closed
    (every player all in, or all but one); None otherwise or when a hand is not known."""
    live = [s.name for s in hand.seats if not s.folded]
    if not hand.runout or hand.result is not None or len(hand.board) >= 5 or len(live) < 2:
        return None
    if any(p not in holes for p in live):
        return None
    pots = [(a, e) for a, e in contested_pots(hand) if e]
    try:
        return all_in_equity({p: tuple(holes[p]) for p in live}, hand.board, pots, deck=hand.ruleset.deck,
                             min_hole_cards=hand.ruleset.min_hole_cards)
    except EquityError:
        return None


def _seats(hand: Any, shown: Mapping[str, tuple[tuple[str, ...], str]]) -> tuple[SeatView, ...]:
    return tuple(SeatView(s.name, s.money, s.round_bet, s.total_bet, s.folded,
                          not s.folded and s.money == 0 and s.total_bet > 0,
                          *shown.get(s.name, ((), ""))) for s in hand.seats)


def frames(record: Mapping[str, Any], ruleset: Ruleset) -> list[Frame]:
    """The frames of a hand record (see the module docstring); ``[]`` when the record does
    not replay (``audit verify`` says why)."""
    checks: list[Check] = []
    hand = start_from_record(record, ruleset, checks)
    actions = record.get("actions")
    if hand is None or not isinstance(actions, list):
        return []
    ended = record.get("secrets") is not None
    holes = known_holes(record, ruleset) if ended else {}
    board = record.get("board") if isinstance(record.get("board"), list) else []
    shown: dict[str, tuple[tuple[str, ...], str]] = {}
    out: list[Frame] = []

    def pot() -> int:
        return 0 if hand.result is not None else sum(s.total_bet for s in hand.seats)

    def to_act() -> str:
        return hand.seats[hand.to_act].name if hand.to_act is not None and hand.result is None else ""

    def face_up() -> None:
        """At an all-in with the betting complete, the hands still in are shown (see above)."""
        if hand.runout and hand.result is None and (ended or ruleset.all_in_face_up):
            for s in hand.seats:
                if not s.folded and s.name not in shown and s.name in holes:
                    shown[s.name] = (holes[s.name][0], "face up")

    def add(kind: str, street: str, player: str, words: str, comment_id: str, step: int | None) -> None:
        eq = runout_equity(hand, {p: c for p, (c, _how) in shown.items()})
        out.append(Frame(len(out), kind, street, player, words, comment_id, step, _seats(hand, shown),
                         tuple(hand.board), pot(), to_act(), eq))

    posts = [a for a in actions if isinstance(a, Mapping) and a.get("event") == "post"]
    forced = " and ".join(w for w, on in (("antes", bool(record.get("ante"))), ("blinds", bool(record.get("blinds"))))
                          if on)
    add("start", "preflop", "", f"{forced or 'forced bets'} posted" if posts else "the hand starts", "", None)
    dealt = 0
    for a in actions:
        if not isinstance(a, Mapping) or a.get("event") == "post":
            continue
        while need(hand).kind == "board":
            hand, dealt, problem = _deal_one(hand, board, dealt)
            if problem:
                return out
            face_up()
            add("board", street_of(len(hand.board)), "", _board_words(hand.board), "", None)
        ev = event_of(a, hand)
        if isinstance(ev, str):
            return out
        r = apply(hand, ev)
        if isinstance(r, Rejection):
            return out
        hand = r
        reveal = a.get("event") in ("reveal", "reveal_away", "muck")
        if a.get("event") in ("reveal", "reveal_away"):
            shown[ev.player] = (tuple(a.get("cards") or ()), "shown")
        face_up()
        street = "showdown" if reveal else street_of(len(hand.board))
        add("reveal" if reveal else "action", street, ev.player, _words(a, ruleset.raise_amount == "raise_to"),
            str(a.get("comment_id") or ""),
            a.get("n") if isinstance(a.get("n"), int) else None)
    while need(hand).kind == "board":
        hand, dealt, problem = _deal_one(hand, board, dealt)
        if problem:
            break
        face_up()
        add("board", street_of(len(hand.board)), "", _board_words(hand.board), "", None)
    if hand.result is not None or record.get("void") is not None:
        _end(out, hand, record, holes, shown)
    return out


def _end(out: list[Frame], hand: Any, record: Mapping[str, Any],
         holes: Mapping[str, tuple[tuple[str, ...], str]], shown: dict[str, tuple[tuple[str, ...], str]]) -> None:
    """The last frame: the payouts made (or every chip back, for a void) and every hand the
    record gives, a folded one marked as recomputed."""
    void = record.get("void") is not None
    paid = ({} if void else dict(record.get("payouts") or {}))
    for p, (cards, how) in holes.items():
        shown.setdefault(p, (cards, how))
    seats = []
    for s in hand.seats:  # a settled hand's seats hold their payouts already
        back = s.total_bet if void else (0 if hand.result is not None else paid.get(s.name, 0))
        cards, how = shown.get(s.name, ((), ""))
        seats.append(SeatView(s.name, s.money + back, 0, s.total_bet, s.folded, False, cards, how))
    words = "the hand is void: every chip goes back" if void else "the pot is paid out"
    if hand.result is None and not void:
        return
    out.append(Frame(len(out), "end", "end", "", words, "", None, tuple(seats), tuple(hand.board), 0, ""))


def _deal_one(hand: Any, board: Sequence[str], dealt: int) -> tuple[Any, int, str]:
    """Deal the one street the engine asks for now (:func:`.money.deal_recorded` deals every
    street due at once; a frame is wanted after each)."""
    nd = need(hand)
    cards = tuple(board[dealt:dealt + nd.cards])
    if len(cards) < nd.cards:
        return hand, dealt, "waits for board cards the record does not have"
    r = apply(hand, DealBoard(cards=cards))
    if isinstance(r, Rejection):
        return hand, dealt, r.message
    return r, dealt + nd.cards, ""


def _board_words(board: Sequence[str]) -> str:
    from nomicpoker.core.poker.cards import pretty

    size = len(board)
    new = board[:3] if size == 3 else board[size - 1:size]
    return f"the {street_of(size)}: {' '.join(pretty(c) for c in new)}"


def _words(a: Mapping[str, Any], raise_to: bool) -> str:
    from nomicpoker.core.poker.cards import pretty

    ev, chips, amount = a.get("event"), a.get("chips") or 0, a.get("amount")
    return {
        "fold": "folds", "check": "checks", "call": f"calls {chips}",
        "raise": f"raises to {amount}" if raise_to else f"raises {amount}",
        "all_in": f"goes all in ({chips})", "muck": "mucks",
        "reveal": "shows " + " ".join(pretty(c) for c in a.get("cards") or ()),
        "reveal_away": "shows " + " ".join(pretty(c) for c in a.get("cards") or ()) + " (away: for the pots only "
                       "players away contest)",
        "fold_out": "folded out (no Hole Card Draw in time)",
    }.get(str(ev), str(ev))
