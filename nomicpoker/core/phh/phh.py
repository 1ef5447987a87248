"""PHH, the Poker Hand History format: read, write, and replay through the hand engine.

Why here: the shared corpus (10,000+ real no-limit hold'em hands with their finishing stacks)
is the strongest independent check of the ``roberts-nlhe`` engine we have. Each hand is
replayed event by event and the engine's finishing Money must equal the recorded stacks.

Pure: parsing takes text, writing returns text, replay takes a parsed hand and a ruleset.
Reading files is the CLI's job (:mod:`nomicpoker.cli.record.phh_cmd`).

The format (https://github.com/uoftcprg/phh-std): a ``.phh`` file is TOML with ``variant``
(``'NT'`` = no-limit Texas hold'em), ``antes``, ``blinds_or_straddles``, ``min_bet``,
``starting_stacks``, ``actions`` and optional ``players``, ``finishing_stacks`` and more; a
``.phhs`` file holds several hands as tables ``[1]``, ``[2]``, .... Players are ``p1`` ..
``pn`` from the first seat after the button, so the button is ``pn``; heads-up ``p1`` posts
the big blind and ``p2`` is the button with the small blind (as pokerkit reads them).
Actions: ``d dh p1 AcKd`` (hole cards, ``????`` unknown), ``d db Jc3d5c`` (board),
``p2 cbr 300`` (complete, bet or raise *to* 300), ``p3 cc`` (check or call), ``p1 f``
(fold), ``p1 sm AcKd`` (show), ``p1 sm -`` (show the known cards), ``p1 sm`` (muck); text
after ``#`` is commentary.
"""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass, field
from typing import Any, Literal

from nomicpoker.core.poker.actions import Call, Check, DealBoard, DealHole, DealHoles, Event, Fold, Muck, Raise, Reveal
from nomicpoker.core.errors import CodedError
from nomicpoker.core.poker.engine import Hand, Rejection, apply, need, start_hand
from nomicpoker.core.poker.hand import seat_index
from nomicpoker.core.phh.toml_subset import loads_subset
from nomicpoker.core.rules.ruleset import Ruleset

#: the fields this module reads, in the order the writer puts them first
CORE_FIELDS = ("variant", "ante_trimming_status", "antes", "blinds_or_straddles", "min_bet",
               "starting_stacks", "actions")


class _once:
    """``functools.cached_property`` without its per-access lock (Python 3.11 takes an RLock
    on every first access: 2 of ~200 us per replayed hand). The value is computed on first
    access and stored in the instance's ``__dict__`` under the same name, which then shadows
    this (non-data) descriptor, exactly as ``cached_property`` does."""

    def __init__(self, fn: Any) -> None:
        self.fn, self.name, self.__doc__ = fn, fn.__name__, fn.__doc__

    def __get__(self, obj: Any, owner: Any = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.fn(obj)
        return value


class PhhError(CodedError, ValueError):
    """A file that is not a usable PHH hand: the message says what is wrong. ``code`` is
    ``bad_phh``; a ValueError too, as parsing errors are."""

    def __init__(self, message: str, code: str = "bad_phh") -> None:
        super().__init__(code, message)


@dataclass(frozen=True)
class PhhHand:
    """One hand as written in a PHH file. ``fields`` holds every other field (players,
    finishing_stacks, author, event, ...) in file order, so writing gives the hand back."""

    variant: str
    antes: tuple[int, ...]
    blinds_or_straddles: tuple[int, ...]
    min_bet: int
    starting_stacks: tuple[int | float, ...]
    actions: tuple[str, ...]
    ante_trimming_status: bool = False
    fields: tuple[tuple[str, Any], ...] = ()
    #: the table name in a ``.phhs`` file (``"1"``), '' for a ``.phh``
    key: str = field(default="", compare=False)

    def get(self, name: str, default: Any = None) -> Any:
        for k, v in self.fields:
            if k == name:
                return v
        return default

    @_once
    def players(self) -> tuple[str, ...]:
        """Player names (``players`` field), else ``p1`` .. ``pn``."""
        names = self.get("players")
        n = len(self.starting_stacks)
        if names and len(names) == n and len(set(names)) == n:
            return tuple(str(x) for x in names)
        return tuple(f"p{i + 1}" for i in range(n))

    @_once
    def labels(self) -> dict[str, str]:
        """``{"p1": players[0], ...}``: PHH's player labels to names (read-only by
        convention; computed once per hand, as :attr:`players` is)."""
        return labels_of(self.players)

    @property
    def finishing_stacks(self) -> tuple[int | float, ...] | None:
        fs = self.get("finishing_stacks")
        return tuple(fs) if fs is not None else None


def _freeze(v: Any) -> Any:
    if isinstance(v, list):
        return tuple(_freeze(x) for x in v)
    if isinstance(v, dict):
        return tuple((k, _freeze(x)) for k, x in v.items())
    return v


def _amounts(d: dict[str, Any], name: str, n: int | None) -> tuple[int, ...]:
    v = d.get(name, 0)
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if n is None:
            raise PhhError(f"{name} must be a list")
        return (v,) * n if v else (0,) * n
    if not isinstance(v, (list, tuple)):
        raise PhhError(f"{name} must be a list of numbers, got {v!r}")
    return tuple(v)


def hand_from_table(d: dict[str, Any], key: str = "") -> PhhHand:
    """A :class:`PhhHand` from one parsed TOML table (arrays as lists, as ``tomllib`` gives
    them, or already as tuples, as the fast reader gives them to :func:`parse_phh`)."""
    for k in ("variant", "starting_stacks", "actions"):
        if k not in d:
            raise PhhError(f"missing field {k!r}")
    stacks = d["starting_stacks"]
    if not isinstance(stacks, (list, tuple)) or not stacks:
        raise PhhError("starting_stacks must be a non-empty list")
    n = len(stacks)
    actions = d["actions"]
    if not isinstance(actions, (list, tuple)) or not set(map(type, actions)) <= {str}:
        raise PhhError("actions must be a list of strings")
    return _event(PhhHand, {
        "variant": str(d["variant"]),
        "antes": _amounts(d, "antes", n),
        "blinds_or_straddles": _amounts(d, "blinds_or_straddles", n),
        "min_bet": d.get("min_bet", 0),
        "starting_stacks": tuple(stacks),
        "actions": tuple(actions),
        "ante_trimming_status": bool(d.get("ante_trimming_status", False)),
        "fields": tuple([(k, _freeze(v)) for k, v in d.items() if k not in _CORE]),
        "key": key,
    })


_CORE = frozenset(CORE_FIELDS)


def parse_phh(text: str) -> PhhHand:
    """Parse one ``.phh`` hand (TOML: comments, multi-line arrays, either quote style).
    Files in the one-line-per-field shape pokerkit writes take the fast path
    (:func:`nomicpoker.core.phh.toml_subset.loads_subset`); anything else is read by ``tomllib``."""
    d = loads_subset(text, tuple)
    if d is None:
        try:
            d = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise PhhError(f"not valid TOML: {e}") from None
    return hand_from_table(d)


def parse_phhs(text: str) -> list[PhhHand]:
    """Parse a ``.phhs`` file: one hand per top-level table (``[1]``, ``[2]``, ...)."""
    try:
        d = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PhhError(f"not valid TOML: {e}") from None
    hands = []
    for k, v in d.items():
        if not isinstance(v, dict):
            raise PhhError(f"top-level key {k!r} is not a hand table")
        try:
            hands.append(hand_from_table(v, key=str(k)))
        except PhhError as e:
            raise PhhError(f"hand [{k}]: {e}") from None
    return hands


# --- writing ---------------------------------------------------------------------------

def _toml_str(s: str) -> str:
    if "'" not in s and "\n" not in s:
        return f"'{s}'"
    esc = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{esc}"'


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, tuple) and v and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in v):
        return "{" + ", ".join(f"{_toml_key(k)} = {_toml_value(x)}" for k, x in v) + "}"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise PhhError(f"cannot write {v!r} as TOML")


def _toml_key(k: str) -> str:
    if k and all(c.isalnum() or c in "_-" for c in k):
        return k
    return _toml_str(k)


def write_phh(hand: PhhHand) -> str:
    """The hand as ``.phh`` text; :func:`parse_phh` of it gives the same :class:`PhhHand`.
    Actions go one per line, as the hand-written files in the corpus do."""
    lines = [
        f"variant = {_toml_str(hand.variant)}",
        f"ante_trimming_status = {_toml_value(hand.ante_trimming_status)}",
        f"antes = {_toml_value(hand.antes)}",
        f"blinds_or_straddles = {_toml_value(hand.blinds_or_straddles)}",
        f"min_bet = {_toml_value(hand.min_bet)}",
        f"starting_stacks = {_toml_value(hand.starting_stacks)}",
        "actions = [",
        *[f"  {_toml_str(a)}," for a in hand.actions],
        "]",
    ]
    for k, v in hand.fields:
        lines.append(f"{_toml_key(k)} = {_toml_value(v)}")
    return "\n".join(lines) + "\n"


def write_phhs(hands: list[PhhHand]) -> str:
    """Several hands as ``.phhs`` text: tables ``[1]``, ``[2]``, ... (their own keys if set)."""
    parts = []
    for i, h in enumerate(hands, 1):
        parts.append(f"[{_toml_key(h.key) if h.key else i}]\n{write_phh(h)}")
    return "\n".join(parts)


# --- replay ----------------------------------------------------------------------------

Status = Literal["matched", "mismatched", "skipped", "error"]


@dataclass(frozen=True)
class ReplayOutcome:
    """What replaying one hand gave: ``matched`` / ``mismatched`` (with both stacks),
    ``skipped`` (``reason``: why it cannot be compared) or ``error`` (``reason`` names the
    action index and why it was refused)."""

    status: Status
    reason: str = ""
    expected: tuple[int, ...] | None = None
    got: tuple[int, ...] | None = None
    action_index: int | None = None
    players: tuple[str, ...] = ()

    def differences(self) -> dict[str, int]:
        """Per player: engine stack minus recorded stack, where they differ."""
        if self.expected is None or self.got is None:
            return {}
        return {p: g - e for p, g, e in zip(self.players, self.got, self.expected) if g != e}


def _cards(s: str) -> tuple[str, ...]:
    n = len(s)
    if n == 4:  # hole cards, the common case
        return (s[:2], s[2:])
    if n == 2:  # the turn or the river
        return (s,)
    return tuple([s[i:i + 2] for i in range(0, n, 2)])


def _int_amounts(values: tuple[int | float, ...], name: str) -> tuple[int, ...] | str:
    """The amounts as integers, or why not (half chips). All-``int`` is the common case and
    is answered by one C-level scan."""
    if float not in map(type, values):
        return values  # type: ignore[return-value]
    out = []
    for i, v in enumerate(values):
        if isinstance(v, float):
            if not v.is_integer():
                return f"half chips in {name}: p{i + 1} has {v}"
            v = int(v)
        out.append(v)
    return tuple(out)


def setup(phh: PhhHand, ruleset: Ruleset) -> Hand | str:
    """The engine's starting :class:`Hand` for a PHH hand, or why it cannot be set up.

    Seats in PHH order (``p1`` first after the button, the button last). Blinds are the
    leading non-zero ``blinds_or_straddles``. Antes are per seat; with
    ``ante_trimming_status = false`` they are dead money (they go to the main pot and buy no
    eligibility, as pokerkit reads untrimmed antes: a big-blind ante is the common case, and
    pokerkit's writer puts ``false`` on every file it writes); with ``true`` they are live.
    """
    if phh.variant != "NT":
        return f"variant {phh.variant!r} is not no-limit Texas hold'em ('NT')"
    n = len(phh.starting_stacks)
    if n < 2:
        return "fewer than two players"
    stacks = _int_amounts(phh.starting_stacks, "starting_stacks")
    if isinstance(stacks, str):
        return stacks
    bos = list(phh.blinds_or_straddles)
    if len(bos) != n or len(phh.antes) != n:
        return "antes/blinds_or_straddles do not have one entry per player"
    k = 0
    while k < n and bos[k] > 0:
        k += 1
    if (k < n and (max(bos[k:]) > 0 or min(bos[k:]) < 0)) or min(bos) < 0:
        return f"blinds_or_straddles {bos} are not blinds from p1 on"
    antes = list(phh.antes)
    if n == 2:  # heads-up: p1 is the big blind and p2 (the button) the small blind
        bos = [bos[0], bos[1]]
        antes = [antes[1], antes[0]]
    players = phh.players
    try:
        number = phh.get("hand")
        number = number if isinstance(number, int) and not isinstance(number, bool) else 1
        return start_hand(ruleset, number, list(zip(players, stacks)), players[-1], ante=antes,
                          blinds=tuple(bos[:k]), min_bet=int(phh.min_bet) or None,
                          dead_antes=not phh.ante_trimming_status)
    except ValueError as e:
        return str(e)


def _event(cls, fields: dict[str, Any], _n=object.__new__, _set=object.__setattr__):
    """A frozen value (an event, a parsed hand) built from its complete field dict, without
    its frozen ``__init__`` (2-3x faster; replay converts tens of thousands of actions a
    second). Same class, same fields, same value (tests compare them with constructed ones)."""
    ev = _n(cls)
    _set(ev, "__dict__", fields)
    return ev


def to_event(hand: Hand, labels: dict[str, str], action: str) -> Event | None | str:
    """One PHH action as an engine event against the current ``hand``, ``None`` for an
    action with nothing to apply (unknown hole cards, a no-op), or why it is malformed.
    ``labels`` maps ``p1`` .. ``pn`` to player names. ``cc`` is a check or a call depending
    on the amount to call now. (Dispatch on the word count first: this runs for every
    action of every replayed hand.)"""
    if "#" in action:
        action = action.split("#", 1)[0]
    words = action.split()
    nw = len(words)
    if nw == 2:
        p = labels.get(words[0])
        op = words[1]
        if p is not None:
            if op == "f":
                return _event(Fold, {"player": p, "hand": None, "round": None})
            if op == "cc":
                i = hand.to_act
                if i is not None:
                    if hand.high_bet > hand.seats[i].round_bet:
                        return _event(Call, {"player": p, "hand": None, "round": None, "amount": None})
                elif nothing_to_decide(hand, p):
                    return None
                return _event(Check, {"player": p, "hand": None, "round": None})
            if op == "sm":
                return Muck(p)
    elif nw == 3:
        w0, op, arg = words
        if w0 == "d":
            if op == "db":
                return _event(DealBoard, {"cards": _cards(arg)})
            return f"unknown dealer action {action!r}"
        p = labels.get(w0)
        if p is not None:
            if op == "cbr":
                try:
                    amount = int(arg)
                except ValueError:
                    try:
                        value = float(arg)
                    except ValueError:
                        return f"bad amount {arg!r}"
                    if not value.is_integer():
                        return f"fractional amount {arg!r}"
                    amount = int(value)
                return _event(Raise, {"player": p, "hand": None, "round": None, "amount": amount})
            if op == "sm":
                if arg == "-":
                    hole = hand.seat(p).hole
                    return Reveal(p, hole) if hole else f"{p} shows unknown cards"
                if "?" in arg:
                    return f"{p} shows unknown cards {arg!r}"
                return Reveal(p, _cards(arg))
    elif nw == 4:
        if words[0] == "d" and words[1] == "dh":
            p = labels.get(words[2])
            if p is None:
                return f"unknown player {words[2]!r}"
            if "?" in words[3]:
                return None
            return _event(DealHole, {"player": p, "cards": _cards(words[3])})
    elif nw == 0:
        return None
    if words[0] != "d" and labels.get(words[0]) is None:
        return f"unknown player {words[0]!r}"
    return f"unknown action {action!r}"


def nothing_to_decide(hand: Hand, player: str) -> bool:
    """Whether a check by ``player`` is one PokerKit records and the engine has no turn for.

    PokerKit asks a player to act even when he owes nothing and nobody left could answer a
    bet (every other player still in is all in): the big blind after an all-in call of
    exactly the blind, or the one player with chips on each later street. The engine closes
    the betting there (nobody is to act), so the recorded ``cc`` is a no-op: redundant but
    legal, and replay skips it. Anything else (a check out of turn, a check while the engine
    still asks someone) stays a check and is refused as usual."""
    if hand.result is not None:
        return False
    i = seat_index(hand, player)
    if i is None:
        return False
    s = hand.seats[i]
    if s.folded or s.money <= 0 or s.round_bet < hand.high_bet:
        return False
    return all(o.folded or o.money <= 0 for j, o in enumerate(hand.seats) if j != i)


def labels_of(players: tuple[str, ...]) -> dict[str, str]:
    """``{"p1": first name, ...}``: PHH's player labels."""
    return {f"p{i + 1}": name for i, name in enumerate(players)}


def _deal(hand: Hand, deals: list[DealHole], where: list[int],
          actions: tuple[str, ...]) -> tuple[Hand, str, int | None]:
    """Deal a run of hole cards (actions ``where``) in one :class:`DealHoles` step; when it
    is refused, deal them one by one to name the action (an error path only)."""
    r = apply(hand, _event(DealHoles, {"deals": tuple(deals)}))
    if not isinstance(r, Rejection):
        return r, "", None
    for d, k in zip(deals, where):
        r = apply(hand, d)
        if isinstance(r, Rejection):
            return hand, f"{actions[k]!r} refused: {r.code}: {r.message}", k
        hand = r
    raise AssertionError("a batch of hole cards refused, but every deal alone accepted")


def play(phh: PhhHand, ruleset: Ruleset) -> tuple[Hand | None, str, int | None]:
    """Run every action of ``phh`` through the engine: ``(hand, error, action_index)``.

    At the end, players still due to show whose hole cards were dealt face up show them
    (pokerkit does the same: many files record no ``sm`` for a showdown).
    """
    hand = setup(phh, ruleset)
    if isinstance(hand, str):
        return None, hand, None
    labels = phh.labels
    deals: list[DealHole] = []  # consecutive known hole cards, dealt in one step
    where: list[int] = []  # their action indices
    convert = to_event
    for k, action in enumerate(phh.actions):
        ev = convert(hand, labels, action)
        if ev is None:
            continue
        kind = type(ev)
        if kind is DealHole:
            deals.append(ev)
            where.append(k)
            continue
        if kind is str:
            return hand, ev, k  # type: ignore[return-value]
        if deals:
            hand, err, at = _deal(hand, deals, where, phh.actions)
            if err:
                return hand, err, at
            deals, where = [], []
        r = apply(hand, ev)
        if type(r) is Rejection:
            return hand, f"{action!r} refused: {r.code}: {r.message}", k
        hand = r
    if deals:
        hand, err, at = _deal(hand, deals, where, phh.actions)
        if err:
            return hand, err, at
    if hand.result is not None:  # settled (most hands): nothing is owed
        return hand, "", None
    nd = need(hand)
    if nd.kind == "reveal":
        for name in nd.players:
            hole = hand.seat(name).hole
            if not hole:
                return hand, f"{name}'s hole cards are unknown at showdown", None
            r = apply(hand, Reveal(name, hole))
            if isinstance(r, Rejection):
                return hand, f"showing {name}'s cards refused: {r.code}: {r.message}", None
            hand = r
        nd = need(hand)
    if nd.kind != "complete":
        what = f"{nd.cards} board cards" if nd.kind == "board" else f"an action by {nd.players[0]}"
        return hand, f"the hand is unfinished: it waits for {what}", None
    return hand, "", None


def replay(phh: PhhHand, ruleset: Ruleset) -> ReplayOutcome:
    """Replay one hand and compare the engine's finishing Money with ``finishing_stacks``."""
    players = phh.players
    expected: tuple[int, ...] | None = None
    skip = ""
    fs = phh.finishing_stacks
    if fs is None:
        skip = "no finishing_stacks"
    else:
        e = _int_amounts(fs, "finishing_stacks")
        if isinstance(e, str):
            skip = e
        elif len(e) != len(players):
            return ReplayOutcome("error", "finishing_stacks has the wrong length", players=players)
        else:
            expected = e
    hand, err, idx = play(phh, ruleset)
    if err:
        if hand is None:
            return ReplayOutcome("skipped", err, players=players)
        return ReplayOutcome("error", err, action_index=idx, players=players)
    assert hand is not None
    got = tuple(s.money for s in hand.seats)
    if expected is None:
        return ReplayOutcome("skipped", skip, got=got, players=players)
    status: Status = "matched" if got == expected else "mismatched"
    return ReplayOutcome(status, expected=expected, got=got, players=players)
