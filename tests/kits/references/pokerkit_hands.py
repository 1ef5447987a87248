"""Random no-limit hands played by PokerKit, written by PokerKit's own PHH writer, replayed
through our engine and classified (the kit of tests/unit/phh/test_phh_pokerkit.py).

Why: PokerKit is the reference implementation of PHH. Files it writes must replay through
``nomicpoker phh replay``; where PokerKit departs from Robert's Rules the engine keeps to the
rules, and every such hand must be explained by the rule it turns on, never waved through.

Each hand is generated from its own seed (``random.Random(f"{seed}-{index}")``) so a failure
names the hand to reproduce: 2-9 players, uneven stacks (some shorter than the blinds), no
antes, live antes, dead antes or a big-blind ante, and random folds, calls, checks, minimum
raises, random raises and all-ins; showdowns shown by PokerKit's automation or, in a third
of the hands, shown or mucked as each player chooses (PokerKit mucks a hand that cannot win). While playing, PokerKit's view of every decision
(who acts, the call, the raise range) is recorded, so the first point where our engine sees
the hand differently can be found and named.

Run it alone for a large census (the table in docs/phh.md):

    python tests/kits/references/pokerkit_hands.py --hands 20000 --seed 1
"""

from __future__ import annotations

import random
import re
import sys
import warnings
from collections import Counter
from dataclasses import dataclass
from _paths import ROOT

import pokerkit

from nomicpoker.core.poker.cards import FULL_DECK
from nomicpoker.core.poker.engine import Hand, Rejection, apply, legal_actions
from nomicpoker.core.phh.phh import PhhHand, parse_phh, play, replay, setup, to_event
from nomicpoker.shell.storage.rulesets import load_ruleset

RR = load_ruleset("roberts-nlhe")
A = pokerkit.Automation
#: PokerKit deals nothing itself (we choose the cards) and, in most hands, shows at showdown
AUTO = (A.ANTE_POSTING, A.BET_COLLECTION, A.BLIND_OR_STRADDLE_POSTING, A.CARD_BURNING,
        A.HAND_KILLING, A.CHIPS_PUSHING, A.CHIPS_PULLING)
SHOWING = A.HOLE_CARDS_SHOWING_OR_MUCKING

RULE_TEXT = ROOT / "rules" / "roberts-nlhe" / "rule.txt"

#: class -> (the rule, the sentence it turns on: quoted verbatim from rules/roberts-nlhe/rule.txt)
DEPARTURES: dict[str, tuple[str, str]] = {
    "short big blind": (
        "no-limit rule 2",
        "If the big blind does not have sufficient chips to post the required amount, anyone who "
        "enters the pot is required to enter for the minimum bet (unless going all-in for a lesser "
        "sum)."),
    "short all-in not reopened": (
        "no-limit rule 3 (PokerKit issue #45)",
        "A player who has already acted and is not facing a full-size wager may not subsequently "
        "raise an all-in bet that is less than the minimum bet (which is the amount of the minimum "
        "bring-in), or less than the full size of the last bet or raise"),
    "odd chip": (
        "odd chip rules 4 and 5(a)",
        "The first hand clockwise from the button gets the odd chip."),
}


@dataclass(frozen=True)
class View:
    """PokerKit's view of one decision, taken before the player acted."""

    actor: int  # PokerKit's player index: p{actor + 1}
    call: int
    raise_to: tuple[int, int] | None  # the raise-to range, None when no raise is allowed


@dataclass(frozen=True)
class Generated:
    """One hand: the PHH text PokerKit wrote, its views in action order, how antes were set."""

    text: str
    views: tuple[View, ...]
    antes: str
    label: str  # "seed-index", to reproduce it


@dataclass(frozen=True)
class Verdict:
    """How a hand replayed: ``matched`` or a key of :data:`DEPARTURES`, with the detail;
    ``unexplained`` is a failure."""

    kind: str
    detail: str = ""


def _stack(rng: random.Random, bb: int) -> int:
    r = rng.random()
    if r < 0.3:
        return rng.randint(1, 3 * bb)  # short: often less than a blind or an ante
    if r < 0.7:
        return rng.randint(bb, 40 * bb)
    return rng.randint(1, 150 * bb)


def generate(seed: int | str, index: int) -> Generated:
    """Play one random hand with PokerKit and write it with PokerKit's writer."""
    rng = random.Random(f"{seed}-{index}")
    n = rng.randint(2, 9)
    sb = rng.randint(1, 5)
    bb = rng.randint(sb + 1, 2 * sb + 5)  # sb < bb: equal blinds heads-up are ambiguous
    kind = rng.choice(("none", "live", "dead", "big blind"))
    ante = rng.randint(1, bb)
    # PokerKit: a uniform ante with trimming is live; without, antes are dead money in the
    # main pot; {1: x} is the big-blind ante (heads-up too: index 1 is the big blind)
    antes, trimming = {"none": (0, True), "live": (ante, True), "dead": (ante, False),
                       "big blind": ({1: ante}, False)}[kind]
    stacks = [_stack(rng, bb) for _ in range(n)]
    showing = rng.random() < 2 / 3
    game = pokerkit.NoLimitTexasHoldem(AUTO + ((SHOWING,) if showing else ()), trimming,
                                       antes, (sb, bb), bb)
    state = game(stacks, n)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    for _ in range(n):
        state.deal_hole(deck.pop() + deck.pop())
    views: list[View] = []
    while state.status:
        if state.actor_index is not None:
            can = state.can_complete_bet_or_raise_to()
            lo = state.min_completion_betting_or_raising_to_amount if can else None
            hi = state.max_completion_betting_or_raising_to_amount if can else None
            views.append(View(state.actor_index, state.checking_or_calling_amount,
                              (lo, hi) if can else None))
            choice = rng.choices(("cc", "f", "min", "any", "all"), (5, 2, 1, 1, 1))[0]
            if choice == "f" and state.checking_or_calling_amount:
                state.fold()
            elif choice in ("cc", "f") or not can:
                state.check_or_call()
            else:
                to = lo if choice == "min" else hi if choice == "all" else rng.randint(lo, hi)
                state.complete_bet_or_raise_to(to)
        elif state.can_deal_board():
            state.deal_board("".join(deck.pop() for _ in range(1 if state.board_cards else 3)))
        elif state.can_show_or_muck_hole_cards():
            # None: PokerKit's choice (show a hand that may win or is all in, else muck); True:
            # show a beaten hand too. (A forced muck of a hand that may win is no showdown:
            # PokerKit burns the pot when every hand is mucked.)
            state.show_or_muck_hole_cards(True if rng.random() < 0.3 else None)
        else:
            raise AssertionError(f"PokerKit waits for nothing we drive: {state}")
    # PokerKit 0.7.7's from_game_state leaves ante_trimming_status out (the file would say
    # false, dead antes, for every game): give it, so the file describes the game played
    hh = pokerkit.HandHistory.from_game_state(game, state, ante_trimming_status=trimming,
                                              finishing_stacks=list(state.stacks))
    return Generated(hh.dumps(), tuple(views), kind, f"{seed}-{index}")


def _short_big_blind(start: Hand, phh: PhhHand) -> bool:
    """The big blind (the largest blind) posted less than the full blind."""
    blinds = [b for b in phh.blinds_or_straddles if b]
    return len(blinds) >= 2 and max(s.round_bet for s in start.seats) < max(blinds)


def _first_divergence(g: Generated, phh: PhhHand) -> tuple[str, int, Hand, View | None, Rejection | None] | None:
    """Replay step by step beside PokerKit's views; the first action our engine treats
    differently: ``(why, action index, our hand before it, PokerKit's view, our rejection)``,
    or ``None`` when every action was taken the same way.

    "The same way" is judged for the action taken: the same player acts; a ``cc`` costs the
    same; a ``cbr`` is accepted; a ``cc`` PokerKit asks of a player with nothing to decide
    (our betting is closed) is skipped by replay."""
    hand = setup(phh, RR)
    assert not isinstance(hand, str), hand
    labels = phh.labels
    views = iter(g.views)
    for k, action in enumerate(phh.actions):
        words = action.split()
        view = next(views) if words[0] != "d" and words[1] in ("cc", "cbr", "f") else None
        ev = to_event(hand, labels, action)
        if view is not None:
            la = legal_actions(hand)
            if ev is None:  # replay skips a check PokerKit asked for
                if view.call:
                    return "a skipped cc costs chips in PokerKit", k, hand, view, None
                continue
            if la is None or la.player != labels[f"p{view.actor + 1}"]:
                return "another player acts", k, hand, view, None
            if words[1] == "cc" and (la.call or 0) != view.call:
                return "the call differs", k, hand, view, None
        if ev is None:
            continue
        assert not isinstance(ev, str), ev
        r = apply(hand, ev)
        if isinstance(r, Rejection):
            return f"refused: {r.code}", k, hand, view, r
        hand = r
    return None


def _odd_chip_only(hand: Hand, expected: tuple[int, ...]) -> str:
    """Why the stacks differ by odd chips alone, or '' when they do not. Our split must follow
    Robert's odd chip rules 4 and 5(a) pot by pot (checked here from the awards, clockwise from
    the button: p1 first), and PokerKit's stacks must differ only among the tied winners of
    pots with odd chips, by a zero sum: the same pots, won by the same hands."""
    order = {s.name: k for k, s in enumerate(hand.seats)}  # PHH seats: p1 is first after the button
    tied: set[str] = set()
    for a in hand.result.awards:
        rem = a.amount % len(a.winners)
        if len(a.winners) < 2 or not rem:
            continue
        first = sorted(a.winners, key=order.__getitem__)[:rem]
        want = {w: a.amount // len(a.winners) + (w in first) for w in a.winners}
        if dict(a.shares) != want:
            return ""
        tied.update(a.winners)
    got = tuple(s.money for s in hand.seats)
    diff = {s.name: g - e for s, g, e in zip(hand.seats, got, expected) if g != e}
    if not diff or not set(diff) <= tied or sum(diff.values()):
        return ""
    return "engine minus PokerKit: " + ", ".join(f"{p} {d:+d}" for p, d in diff.items())


def classify(g: Generated) -> Verdict:
    """Replay ``g`` with :func:`nomicpoker.core.phh.phh.replay` and say what it matched or which
    rule explains the difference; ``unexplained`` otherwise."""
    phh = parse_phh(g.text)
    outcome = replay(phh, RR)
    if outcome.status == "matched":
        return Verdict("matched")
    div = _first_divergence(g, phh)
    start = setup(phh, RR)
    assert not isinstance(start, str)
    if div is not None:
        why, k, hand, view, rej = div
        if hand.round == 1 and _short_big_blind(start, phh):
            return Verdict("short big blind", f"action {k} {phh.actions[k]!r}: {why}")
        if rej is not None and rej.code == "raise_not_reopened" and view is not None \
                and view.raise_to is not None:
            return Verdict("short all-in not reopened", f"action {k} {phh.actions[k]!r}: {rej.message}")
        return Verdict("unexplained", f"action {k} {phh.actions[k]!r}: {why} ({outcome.reason})")
    if outcome.status == "mismatched" and outcome.expected is not None:
        hand, err, _ = play(phh, RR)
        assert hand is not None and not err
        why = _odd_chip_only(hand, outcome.expected)
        if why:
            return Verdict("odd chip", why)
    return Verdict("unexplained", f"{outcome.status}: {outcome.reason} {outcome.differences()}")


def census(seed: int | str, hands: int) -> tuple[Counter[str], dict[str, str]]:
    """Classify ``hands`` generated hands: counts per class, and one hand label per class."""
    counts: Counter[str] = Counter()
    example: dict[str, str] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns when it is handed the cards to deal
        for i in range(hands):
            g = generate(seed, i)
            v = classify(g)
            counts[v.kind] += 1
            example.setdefault(v.kind, g.label)
    return counts, example


def explained_census(seed: str, hands: int) -> Counter[str]:
    """:func:`census`, failing (with a hand to replay) if a hand neither matches PokerKit nor
    departs by a named rule: the check of tests/unit/phh/test_phh_pokerkit.py and tests/slow."""
    counts, example = census(seed, hands)
    assert not counts["unexplained"], (
        f"{counts['unexplained']} hands neither match PokerKit nor depart by a named rule, e.g. "
        f"hand {example['unexplained']}: kit.classify(kit.generate(*'{example['unexplained']}'.split('-')))")
    return counts


def _main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Census of PokerKit-written hands replayed by nomicpoker.")
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--seed", default="1")
    args = ap.parse_args(argv)
    counts, example = census(args.seed, args.hands)
    print(f"{args.hands} hands, seed {args.seed}")
    for kind, c in counts.most_common():
        print(f"{kind:28} {c:7d}   e.g. hand {example[kind]}")
    return 1 if counts["unexplained"] else 0


def _rule_sentences() -> str:
    """rules/roberts-nlhe/rule.txt with its line breaks and spacing folded (for quoting)."""
    return re.sub(r"\s+", " ", RULE_TEXT.read_text(encoding="utf-8"))


if __name__ == "__main__":
    raise SystemExit(_main(sys.argv[1:]))
