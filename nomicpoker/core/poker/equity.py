"""Exact all-in equity: each player's chance to win and to tie each pot, by enumerating
every way the board can still fall, under the table's ruleset.

Why exact, and why here: when every player left is all in (or all but one), nothing but
the cards decides the hand, and a broadcast shows each player's chance. Tools that compute
it assume one 52-card deck; under Dealing and Play (blognomic-2008) each player draws hole
cards from their own deck, so a hole card may repeat a board card or another player's,
five of a kind exists, and a hand must use at least one hole card. So:

* ``deck="shared"`` (roberts-nlhe): the board comes from the deck less the cards seen (the
  board and the hands turned up). A folded hand is not seen, so its cards count as unseen,
  as a broadcast counts them: this is the chance as the table knows it.
* ``deck="per_player"`` (blognomic-2008): the board comes from the Dealer's own 52-card deck
  (:func:`nomicpoker.core.fairness.dealing.board_cards`), so only the board's cards are out of it;
  hole cards do not block anything and may pair or flush with a board card of the same
  name.
* ``min_hole_cards``: the best hand uses at least that many hole cards (1 in Dealing and
  Play: the board alone never plays).
* pots: each pot is contested by its eligible players only (side pots, or with
  ``side_pots = false`` one pot for all): per pot, on how many boards each player wins it
  alone, ties for it, and the expected share of it (a tie of ``k`` players gives each
  ``1/k``), as exact integers and fractions.

How: :mod:`nomicpoker.core.poker.equity_boards` groups the boards into classes that every player
values alike and weighs each by the real boards it stands for, and
:mod:`nomicpoker.core.poker.batch_eval` values every player's hand on every class at once. A
heads-up all-in before the flop is ~65,000 classes instead of 1,712,304 boards. Cases those
classes do not cover (more than two hole cards, ``min_hole_cards`` of 2 or more) are
enumerated board by board (:func:`exhaustive`), refused with ``too_many_boards`` beyond a
fixed budget of evaluations rather than left to run for minutes: a count, not a clock, so
the answer is the same on every machine.

The result is a value (:class:`Equity`) that a dealer comment or a hand replayer shows as
it likes. numpy is imported only when an equity is computed. Pure: no I/O, clock or
randomness.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import chain, combinations
from math import comb
from typing import Literal, Mapping, Sequence

from nomicpoker.core.poker.cards import FULL_DECK, Card
from nomicpoker.core.errors import CodedError
from nomicpoker.core.poker.hand import Hand
from nomicpoker.core.poker.pots import build_pots, uncalled

__all__ = ["Equity", "PotChances", "EquityError", "all_in_equity", "exhaustive", "contested_pots",
           "MAX_EVALUATIONS"]

Deck = Literal["shared", "per_player"]
#: Most hand evaluations :func:`exhaustive` (the board-by-board path) may do: ~0.2 s.
MAX_EVALUATIONS = 5_000_000
_CODE = {c: i for i, c in enumerate(FULL_DECK)}


class EquityError(CodedError):
    """A position no equity can be computed for. Codes: ``bad_card``, ``duplicate_card``,
    ``bad_players``, ``bad_board``, ``bad_pot``, ``bad_min_hole_cards``, ``too_many_boards``."""


@dataclass(frozen=True)
class PotChances:
    """One pot's chances. ``wins[p]``: boards on which ``p`` alone has the best hand of the
    eligible; ``ties[p]``: boards on which ``p`` shares the best hand; ``shares[p]``: the
    expected share of the pot, ``(wins + sum of 1/k per k-way tie) / boards``."""

    amount: int
    eligible: tuple[str, ...]
    wins: Mapping[str, int]
    ties: Mapping[str, int]
    shares: Mapping[str, Fraction]


@dataclass(frozen=True)
class Equity:
    """Every player's chances over ``boards`` equally likely ways for the board to fall
    (``to_come`` cards after ``board``), pot by pot (``pots[0]`` is the main pot)."""

    players: tuple[str, ...]
    holes: Mapping[str, tuple[Card, ...]]
    board: tuple[Card, ...]
    to_come: int
    boards: int
    deck: Deck
    min_hole_cards: int
    pots: tuple[PotChances, ...]

    def win(self, player: str, pot: int = 0) -> Fraction:
        """The chance that ``player`` wins pot ``pot`` alone."""
        return Fraction(self.pots[pot].wins.get(player, 0), self.boards)

    def tie(self, player: str, pot: int = 0) -> Fraction:
        """The chance that ``player`` ties for pot ``pot``."""
        return Fraction(self.pots[pot].ties.get(player, 0), self.boards)

    def share(self, player: str) -> Fraction:
        """The player's expected share of all the pots together (chips, as a fraction of
        their sum; the pots' amounts weigh them). 0 when no pot holds chips."""
        total = sum(p.amount for p in self.pots)
        if not total:
            return Fraction(0)
        return sum((p.shares.get(player, Fraction(0)) * p.amount for p in self.pots), Fraction(0)) / total


def contested_pots(hand: Hand) -> tuple[tuple[int, tuple[str, ...]], ...]:
    """The pots of an engine hand as the settlement (:func:`nomicpoker.core.poker.showdown.settle`)
    will build them from the bets made so far: ``(amount, eligible players)``, main pot first.
    The part of a bet nobody matched goes back first where the ruleset returns it; then the
    ruleset's pots (side pots, or one pot of everything). A test keeps the two in step."""
    rs = hand.ruleset
    contrib = [s.total_bet - s.dead for s in hand.seats]
    if rs.return_uncalled:
        top, extra = uncalled(contrib)
        if top is not None:
            contrib[top] -= extra
    live = [not s.folded for s in hand.seats]
    dead = sum(s.dead for s in hand.seats)
    return tuple((p.amount, tuple(hand.seats[i].name for i in p.eligible))
                 for p in build_pots(contrib, live, dead, rs.side_pots))


# --------------------------------------------------------------------------- checking


def _codes(cards: Sequence[Card], what: str) -> tuple[int, ...]:
    out = []
    for c in cards:
        if c not in _CODE:
            raise EquityError("bad_card", f"{c!r} in {what} is not a canonical card like '7h' or 'Ts'")
        out.append(_CODE[c])
    return tuple(out)


def _checked(holes: Mapping[str, Sequence[Card]], board: Sequence[Card],
             pots: Sequence[tuple[int, Sequence[str]]] | None, deck: str, min_hole_cards: int,
             board_size: int) -> tuple[tuple[str, ...], dict[str, tuple[int, ...]], tuple[int, ...],
                                       tuple[tuple[int, tuple[str, ...]], ...]]:
    players = tuple(holes)
    if len(players) < 2:
        raise EquityError("bad_players", f"equity needs two or more players, got {len(players)}")
    hole = {p: _codes(holes[p], f"{p}'s hole cards") for p in players}
    sizes = {len(h) for h in hole.values()}
    if 0 in sizes:
        raise EquityError("bad_players", "every player needs hole cards")
    known = _codes(board, "the board")
    if not 0 <= len(known) <= board_size:
        raise EquityError("bad_board", f"a board of {len(known)} cards does not fit {board_size}")
    if len(set(known)) != len(known):
        raise EquityError("duplicate_card", "the board holds a card twice (it comes from one deck)")
    if deck not in ("shared", "per_player"):
        raise EquityError("bad_board", f"deck is 'shared' or 'per_player', not {deck!r}")
    seen: set[int] = set(known)
    for p, h in hole.items():
        if len(set(h)) != len(h):
            raise EquityError("duplicate_card", f"{p}'s hole cards hold a card twice (one deck)")
        if deck == "shared":
            if seen & set(h):
                dup = FULL_DECK[min(seen & set(h))]
                raise EquityError("duplicate_card", f"{dup} is dealt twice (one shared deck)")
            seen |= set(h)
    if not 0 <= min_hole_cards <= min(sizes):
        raise EquityError("bad_min_hole_cards",
                          f"min_hole_cards {min_hole_cards} with {min(sizes)} hole card(s) a player")
    if min(sizes) + board_size < 5:
        raise EquityError("bad_board", "hole cards and board make fewer than five cards")
    if pots is None:
        pots = ((0, players),)
    checked = []
    for amount, eligible in pots:
        names = tuple(eligible)
        if not names or any(n not in hole for n in names) or len(set(names)) != len(names):
            raise EquityError("bad_pot", f"a pot's players {names!r} must be distinct players with hole cards")
        checked.append((int(amount), names))
    return players, hole, known, tuple(checked)


def _available(hole: Mapping[str, tuple[int, ...]], known: tuple[int, ...], deck: str) -> list[int]:
    """The cards the rest of the board can come from."""
    out = set(known)
    if deck == "shared":
        for h in hole.values():
            out |= set(h)
    return [c for c in range(52) if c not in out]


# --------------------------------------------------------------------------- outcomes


def _outcomes(players: tuple[str, ...], values, weights, total: int,
              pots: tuple[tuple[int, tuple[str, ...]], ...]) -> tuple[PotChances, ...]:
    """Per pot, count wins and ties from ``values`` (players x classes) weighed by ``weights``."""
    out = []
    for amount, eligible in pots:
        rows = values[[players.index(p) for p in eligible]]
        best = rows.max(axis=0)
        winners = rows == best
        n_win = winners.sum(axis=0)
        wins, ties, shares = {}, {}, {}
        for i, p in enumerate(eligible):
            share = Fraction(0)
            tie = 0
            for k in range(1, len(eligible) + 1):
                got = int(weights[winners[i] & (n_win == k)].sum())
                if k == 1:
                    wins[p] = got
                else:
                    tie += got
                share += Fraction(got, k)
            ties[p] = tie
            shares[p] = share / total
        out.append(PotChances(amount, eligible, wins, ties, shares))
    return tuple(out)


# --------------------------------------------------------------------------- the two paths


def _thresholds(hole: Mapping[str, tuple[int, ...]], min_hole_cards: int):
    """Per suit: five less the most cards of it any player holds, or NEVER when nobody can
    make a flush in it (under ``min_hole_cards >= 1`` a flush needs a hole card of its suit)."""
    import numpy as np

    from nomicpoker.core.poker.equity_boards import NEVER

    out = np.full(4, NEVER, dtype=np.int64)
    for s in range(4):
        most = max(sum(1 for c in h if c % 4 == s) for h in hole.values())
        if most or min_hole_cards == 0:
            out[s] = 5 - most
    return out


def _values_on(hole: tuple[int, ...], boards, board_key, board_suits, board_value,
               min_hole_cards: int):
    """One player's value on every board class (``min_hole_cards`` 0 or 1, 1-2 hole cards)."""
    import numpy as np

    from nomicpoker.core.poker.batch_eval import KEY, RANK_KEY, evaluate_keys

    n = len(hole) + boards.shape[1]
    key = board_key + int(KEY[list(hole)].sum())
    suits = board_suits.copy()
    for c in hole:
        suits[c % 4] += RANK_KEY[c]
    value = evaluate_keys(key, suits, n)
    if min_hole_cards == 0:
        return value
    # The best of all the cards uses a hole card unless it is worth exactly the board alone;
    # there, the best hand with a hole card is the best of the sets missing one board card.
    rows = np.flatnonzero(value == board_value)
    if rows.size:
        best = np.full(rows.size, -1, dtype=np.int64)
        for j in range(boards.shape[1]):
            c = boards[rows, j].astype(np.int64)
            s = suits[:, rows].copy()
            s[c % 4, np.arange(rows.size)] -= RANK_KEY[c]
            best = np.maximum(best, evaluate_keys(key[rows] - KEY[c], s, n - 1))
        value[rows] = best
    return value


def _by_classes(players, hole, known, deck, min_hole_cards, board_size, pots) -> tuple[int, tuple[PotChances, ...]]:
    import numpy as np

    from nomicpoker.core.poker.batch_eval import evaluate_keys, hand_keys, suit_keys
    from nomicpoker.core.poker.equity_boards import board_classes

    available = np.zeros((13, 4), dtype=bool)
    for c in _available(hole, known, deck):
        available[c // 4, c % 4] = True
    classes = board_classes(np.array(known, dtype=np.int64), available,
                            _thresholds(hole, min_hole_cards), board_size)
    boards = classes.boards
    key, suits = hand_keys(boards), suit_keys(boards)
    board_value = evaluate_keys(key, suits, board_size) if min_hole_cards and board_size == 5 else None
    values = np.stack([_values_on(hole[p], boards, key, suits, board_value, min_hole_cards)
                       for p in players])
    return classes.total, _outcomes(players, values, classes.weights, classes.total, pots)


def _fast_path(hole: Mapping[str, tuple[int, ...]], min_hole_cards: int, board_size: int) -> bool:
    return (board_size == 5 and min_hole_cards <= 1
            and all(1 <= len(h) <= 2 for h in hole.values()))


def exhaustive(holes: Mapping[str, Sequence[Card]], board: Sequence[Card] = (),
               pots: Sequence[tuple[int, Sequence[str]]] | None = None, *, deck: Deck = "shared",
               min_hole_cards: int = 0, board_size: int = 5,
               max_evaluations: int = MAX_EVALUATIONS) -> Equity:
    """:func:`all_in_equity` board by board: every board listed, every player's best hand the
    best of the five-card sets that use at least ``min_hole_cards`` hole cards. Any number
    of hole cards; slow, so refused (``too_many_boards``) past ``max_evaluations`` five-card
    evaluations. Also the tests' second implementation of the classes."""
    import numpy as np

    from nomicpoker.core.poker.batch_eval import evaluate

    players, hole, known, checked = _checked(holes, board, pots, deck, min_hole_cards, board_size)
    avail = _available(hole, known, deck)
    k = board_size - len(known)
    total = comb(len(avail), k)
    sets = {p: [s for s in combinations(range(len(h) + board_size), 5)
                if sum(1 for i in s if i < len(h)) >= min_hole_cards] for p, h in hole.items()}
    cost = total * sum(len(s) for s in sets.values())
    if cost > max_evaluations:
        raise EquityError("too_many_boards",
                          f"{total:,} boards x {cost // max(total, 1):,} five-card hands is more than "
                          f"{max_evaluations:,} evaluations")
    new = np.fromiter(chain.from_iterable(combinations(avail, k)), dtype=np.uint8,
                      count=total * k).reshape(total, k)
    boards = np.concatenate([np.broadcast_to(np.array(known, dtype=np.uint8), (total, len(known))), new], axis=1)
    values = []
    for p in players:
        cards = np.concatenate([np.broadcast_to(np.array(hole[p], dtype=np.uint8), (total, len(hole[p]))),
                                boards], axis=1)
        best = np.full(total, -1, dtype=np.int64)
        for s in sets[p]:
            best = np.maximum(best, evaluate(cards[:, list(s)]))
        values.append(best)
    chances = _outcomes(players, np.stack(values), np.ones(total, dtype=np.int64), total, checked)
    return _result(players, holes, board, k, total, deck, min_hole_cards, chances)


def _result(players, holes, board, k, total, deck, min_hole_cards, chances) -> Equity:
    return Equity(players=players, holes={p: tuple(holes[p]) for p in players}, board=tuple(board),
                  to_come=k, boards=total, deck=deck, min_hole_cards=min_hole_cards, pots=chances)


def all_in_equity(holes: Mapping[str, Sequence[Card]], board: Sequence[Card] = (),
                  pots: Sequence[tuple[int, Sequence[str]]] | None = None, *, deck: Deck = "shared",
                  min_hole_cards: int = 0, board_size: int = 5) -> Equity:
    """Each player's exact chances, over every way the board (``board`` now, ``board_size``
    at the end) can be completed.

    ``holes``: player -> hole cards, in the order the result lists them. ``pots``: ``(amount,
    eligible players)``, main pot first (default: one pot of everyone, amount 0). ``deck`` and
    ``min_hole_cards`` are the ruleset's (see the module docstring).
    Raises :class:`EquityError` for cards that cannot be (a card twice in one deck, a
    non-canonical card) and ``too_many_boards`` for a case only :func:`exhaustive` covers
    that is too big for it."""
    players, hole, known, checked = _checked(holes, board, pots, deck, min_hole_cards, board_size)
    if not _fast_path(hole, min_hole_cards, board_size):
        return exhaustive(holes, board, pots, deck=deck, min_hole_cards=min_hole_cards,
                          board_size=board_size)
    total, chances = _by_classes(players, hole, known, deck, min_hole_cards, board_size, checked)
    return _result(players, holes, board, board_size - len(known), total, deck, min_hole_cards, chances)
