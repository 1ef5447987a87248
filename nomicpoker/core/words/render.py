"""Dealer comments: the text the Dealer posts under the story post, as pure functions of values.

Why pure: the poll cycle writes a dealer comment into the outbox in the same transaction as
the verdict that caused it, and ``nomicpoker audit`` rebuilds the outbox from the archive and
compares it byte for byte. So a comment must depend only on its arguments: no clock (a deadline
arrives as a string), no database, no I/O. This module never imports the ledger, the poll
cycle, the CLI or the adapters.

Every comment is short, reads as plain text AND as Markdown, and ends with a visible
reference tag (:func:`reference_tag`) that :func:`find_tag` recovers from the body as any forum
shows it (raw Markdown, or WordPress/Reddit HTML). That tag is how a run that crashed after
posting knows not to post again. HTML comments (``<!-- -->``) would be invisible, but
BlogNomic and Reddit strip them, so the tag is visible inline code instead.

The WRGPT-style status table and the GNDT rows live in :mod:`nomicpoker.core.words.tables_view` and
are re-exported here, so callers need only this module.

Player names, comment references and checksums are untrusted: prose escapes them with
:func:`nomicpoker.core.words.gndt.md_escape` (backslashes for Markdown, entities for HTML, because
BlogNomic's WordPress takes a comment body as HTML); inside the status table's code block
they are shown as look-alikes (see :func:`nomicpoker.core.words.tables_view.status_table`).
"""

from __future__ import annotations

import html
import re
from typing import Mapping, Sequence

from nomicpoker.core.poker.cards import Card, pretty
from nomicpoker.core.poker.actions import AllIn, Call, Check, Fold, FoldOut, Raise
from nomicpoker.core.poker.engine import Hand, LegalActions
from nomicpoker.core.words.gndt import GndtRow, change_log, gndt, is_url, md_escape, one_line
from nomicpoker.core.words.tables_view import (
    TableView,
    button_name,
    to_act_name,
    gndt_rows,
    side_pots,
    status_table,
    turn_of,
)

from nomicpoker.core.words.tags import find_tag, reference_tag

__all__ = [
    "TableView", "GndtRow", "gndt", "change_log", "reference_tag", "find_tag", "hand_start",
    "turn_notice", "rejection", "dice_rolled", "draw_accepted", "street", "call_for_reveals",
    "payout", "edit_noted", "status_table", "last_action", "gndt_rows", "turn_of", "side_pots",
]

ROUND_NAMES = {1: "pre-flop", 2: "flop", 3: "turn", 4: "river"}


# reference tags live in nomicpoker.core.words.tags (the port re-exports them to adapters)


def _finish(parts: Sequence[str], key: str) -> str:
    """Join paragraphs and end with the reference tag on its own line."""
    body = "\n\n".join(p.rstrip("\n") for p in parts if p)
    return f"{body}\n\n{reference_tag(key)}\n"


# --------------------------------------------------------------------------- small helpers


def _name(name: str) -> str:
    """A player name for Markdown prose."""
    return md_escape(name)


def _names(names: Sequence[str]) -> str:
    names = [_name(n) for n in names]
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def _ref(comment_ref: str) -> str:
    """A comment reference for prose: a permalink becomes a short link (its ``#fragment`` or
    last path segment as the text, so the sentence stays readable), an id stays text."""
    r = one_line(comment_ref).strip()
    if not is_url(r):
        return md_escape(r)
    label = r.split("#", 1)[1] if "#" in r else r.rstrip("/").rsplit("/", 1)[-1]
    label = label or "comment"
    target = r.replace("(", "%28").replace(")", "%29")
    return f"[{md_escape(label)}]({target})"


def _comment(comment_ref: str) -> str:
    """"comment <ref>", or the channel's own words when the reference is a phrase (an e-mail
    table refers to "mail of 13:05 UTC", IRC to "line at 13:05 UTC": a player understands
    that, never a Message-ID or an internal address)."""
    r = one_line(comment_ref).strip()
    if " " in r and not is_url(r):
        return md_escape(r)
    return f"comment {_ref(r)}"


def _code(text: str) -> str:
    """Inline code: shown verbatim by Markdown, so only backticks (which would end it) and
    control characters are removed, never backslash-escaped."""
    return "`" + one_line(text).replace("`", "'") + "`"


def code_span(text: str) -> str:
    """Untrusted text as inline code (see :func:`_code`), for other modules' sentences."""
    return _code(text)


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(pretty(c) for c in cards)


def _quote(text: str) -> str:
    """A Markdown block quote (also reads as a quotation in plain text)."""
    lines = [ln.strip() for ln in str(text).strip().splitlines()] or [""]
    return "\n".join("> " + md_escape(ln) if ln else ">" for ln in lines)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _form(hand: Hand, words: str) -> str:
    """An action in the rule's own form, e.g. ``HAND3 ROUND2 raise Z`` in inline code."""
    return f"`HAND{hand.number} ROUND{hand.round} {words}`"


# --------------------------------------------------------------------------- comments

_COMMITMENT_PURPOSE = {
    "deck": "shuffles the dealer's deck for the community cards",
    "board": "shuffles the dealer's deck for the community cards",
    "dice": "rolls the dice the dealer rolls for players",
    "decks": "prints the decks issued to players",
}


def hand_start(
    table: TableView,
    hand: Hand,
    *,
    ante: int,
    blinds: Sequence[int] = (),
    commitments: Mapping[str, str] = {},
    decks_issued: bool = False,
    key: str,
) -> str:
    """The hand-start comment: hand number, antes (and blinds) collected and the pot, who is
    seated, the button, the SHA-256 commitments of the hand's secrets (never the secrets: they
    are published with the payout), what players must do first, and the status table."""
    n = hand.number
    seated = [s.name for s in hand.seats]
    parts = [f"**Hand #{n} has commenced** at {md_escape(table.name)} ({md_escape(hand.ruleset.title or hand.ruleset.name)})."]
    forced = ([f"Ante {ante}"] if ante else []) + (
        ["blinds " + "/".join(str(b) for b in blinds)] if blinds else []
    )
    money_line = ", ".join(forced) if forced else "No ante"
    money_line = money_line[0].upper() + money_line[1:]
    short = [s for s in hand.seats if s.money == 0]
    money_line += f": collected from {_plural(len(seated), 'seated player')}, the pot is {hand.pot}."
    if short:
        money_line += " " + " ".join(
            f"{_name(s.name)} posted {s.total_bet}, all their Money, and is all-in." for s in short
        )
    parts.append(money_line)
    parts.append(
        f"Seated, in GNDT order: {_names(seated)}. The Button: {_name(button_name(table, hand) or 'nobody')}."
    )
    not_seated = [p for p in table.players if p not in seated]
    if not_seated:
        parts[-1] += f" Not seated this hand: {_names(not_seated)}."
    if commitments:
        lines = [
            "Commitments (SHA-256 of this hand's secrets; the secrets are published with the payout, "
            "so anyone can recompute every card and die):"
        ]
        for label, digest in commitments.items():
            why = _COMMITMENT_PURPOSE.get(label, "")
            if label == "deck" and hand.ruleset.deck == "shared":
                why = "shuffles the dealer's deck: the community cards and every hole card"
            lines.append(f"- {md_escape(label)}: {_code(digest)}" + (f" ({why})" if why else ""))
        parts.append("\n".join(lines))
    if hand.ruleset.deck == "per_player":
        deck = (
            "your new Deck of Cards for this hand has been sent to you privately."
            if decks_issued
            else "obtain a new Deck of Cards from the Trading Post for this hand."
        )
        parts.append(
            f"First, every seated player: {deck} Then make your Hole Card Draw: "
            f"`HAND#{n} DICE52 DICE52` (identical results are drawn again), and post the "
            "results and your deck's checksum: "
            "`cards 14, 26, Cards printed by: J. J. Grimes Printing, Elko` (your own numbers "
            "and checksum)."
        )
    else:
        parts.append("Every seated player's hole cards come from the dealer's deck (the `deck` "
                     "commitment above) and have been sent to them privately.")
    actor = to_act_name(hand)
    if actor is not None:
        parts.append(f"First to act in round {hand.round}: {_name(actor)}.")
    parts.append(status_table(table, hand))
    return _finish(parts, key)


def _raise_words(hand: Hand, legal: LegalActions) -> str:
    lo, hi = legal.raise_min, legal.raise_max
    span = f"Z = {lo}" if lo == hi else f"Z from {lo} to {hi}"
    if hand.ruleset.raise_amount == "raise_to":
        return f"{span}: your new total for the round"
    return f"{span}: the chips you add"


def last_action(hand: Hand) -> str:
    """What just happened, WRGPT style ("bob raises 20", "carol goes all-in"), from the last
    accepted event when it is a player's action; '' otherwise (e.g. right after a deal). The
    engine logs a timeout as the check or fold it became: the caller knows whether the dealer
    already announced it (see ``Adjudicator.advance_hand``)."""
    if not hand.log:
        return ""
    ev = hand.log[-1]
    if isinstance(ev, FoldOut):
        return f"{_name(ev.player)} is folded out of the hand."
    if not isinstance(ev, (Fold, Check, Call, Raise, AllIn)):
        return ""
    who = _name(ev.player)
    try:
        seat = hand.seat(ev.player)
    except KeyError:
        seat = None
    all_in = seat is not None and seat.all_in
    if isinstance(ev, Fold):
        return f"{who} folds."
    if isinstance(ev, Check):
        return f"{who} checks."
    if isinstance(ev, AllIn):
        return f"{who} goes all-in."
    if isinstance(ev, Call):
        return f"{who} calls" + (" and is all-in." if all_in else ".")
    to = " to" if hand.ruleset.raise_amount == "raise_to" else ""
    return f"{who} raises{to} {ev.amount}" + (" and is all-in." if all_in else ".")


def deadline_rule(action: str) -> str:
    """A ruleset's ``deadline_action`` in words, as a timeout notice states the rule it followed."""
    return "the deadline rule: fold" if action == "fold" else "the deadline rule: check if that is legal, otherwise fold"


def turn_notice(
    table: TableView, hand: Hand, legal: LegalActions, *, key: str, deadline: str | None = None,
    opening: str | None = None,
) -> str:
    """Whose turn it is, the amount to call, and every legal action in the rule's own form with
    its range, then the status table. The forms are what a player can copy into a comment.
    ``opening`` is the action that led here when no other dealer comment said it ('' when one
    did; ``None``: the hand's last action, see :func:`last_action`)."""
    who = _name(legal.player)
    rnd = ROUND_NAMES.get(hand.round, f"round {hand.round}")
    to_call = legal.call or 0
    owed = f"{to_call} to call" if to_call else "nothing to call"
    parts = [f"Hand #{hand.number}, round {hand.round} ({rnd}): **{who}** to act, {owed}. Pot: {hand.pot}."]
    last = last_action(hand) if opening is None else opening
    if last:
        parts[0] = f"{last} {parts[0]}"
    opts = []
    if legal.check:
        opts.append(f"- {_form(hand, 'check')}")
    if legal.call is not None:
        note = " (all your Money)" if legal.all_in and legal.call == legal.all_in else ""
        opts.append(f"- {_form(hand, 'call')} ({legal.call}){note}")
    if legal.raise_min is not None and legal.raise_max is not None:
        opts.append(f"- {_form(hand, 'raise Z')} ({_raise_words(hand, legal)})")
    if legal.all_in:
        opts.append(f"- {_form(hand, 'all in')} ({legal.all_in}, all your Money)")
    if legal.fold:
        opts.append(f"- {_form(hand, 'folds')}")
    parts.append("Legal actions:\n" + "\n".join(opts))
    if not legal.check and hand.round == 1 and not hand.ruleset.check_in_first_round:
        parts.append("No check before the flop.")
    if deadline:
        then = ("folds for you" if hand.ruleset.deadline_action == "fold"
                else "checks for you if that is legal, otherwise folds")
        parts.append(f"Deadline: {md_escape(deadline)}. After it the dealer {then}.")
    parts.append(status_table(table, hand))
    return _finish(parts, key)


#: What to do instead, per rejection code, when it is obvious.
_HINTS = {
    "not_seated": "Only seated players act in this hand.",
    "not_your_turn": "Wait for the dealer's turn notice that names you.",
    "stale_hand": "Name the current hand, as the latest turn notice shows.",
    "stale_round": "Name the current hand and round, as the latest turn notice shows.",
    "missing_hand_round": "Write the hand and round, e.g. `HAND3 ROUND1 raise 20`.",
    "check_before_flop": "Before the flop: raise or fold (or call, when there is something to call).",
    "check_facing_raise": "Somebody has raised this round: call, raise or fold.",
    "call_nothing_to_call": "There is nothing to call: check, raise or fold.",
    "call_amount_mismatch": "Call without an amount, or with the amount the turn notice gives.",
    "raise_too_small": "Raise at least the minimum the turn notice gives.",
    "raise_not_more_than_call": "A raise must add more than the amount to call; to match it, call.",
    "raise_too_large": "You cannot put in more than all of your Money; `all in` puts in all of it.",
    "insufficient_money": "`all in` puts in all of your Money.",
    "identical_dice": "Make another Hole Card Draw comment.",
    "ambiguous": "Post one action per comment.",
    "unparseable": "Use the form the turn notice shows, e.g. `HAND3 ROUND1 raise 20`.",
    "bad_card": "Write cards like `7h 2s` or `7 of hearts, 2 of spades`.",
    "wrong_card_count": "Reveal exactly your two hole cards.",
    "lookalike": "Type the action in plain ASCII letters.",
    "raise_not_reopened": "The all-in was short of a full raise and you had acted: call or fold.",
    "raise_nobody_to_call": "Everyone else is all in, so nobody could call a raise: call or fold.",
}


def rejection(author: str, comment_ref: str, code: str, message: str, citation: str, *, key: str,
              hint: str | None = None) -> str:
    """A refused comment: who and which comment, the code and the reason, the rule sentence it
    rests on as a quotation, and what to do instead when that is obvious (``hint``, else the
    code's usual one: a code shared by betting and drawing needs the case's own)."""
    parts = [f"{_name(author)}: your {_comment(comment_ref)} was not accepted ({_code(code)}): {md_escape(message)}"]
    if citation:
        parts.append("The rule:\n\n" + _quote(citation))
    hint = _HINTS.get(code) if hint is None else hint
    if hint:
        parts.append(hint)
    return _finish(parts, key)


def dice_rolled(
    player: str,
    comment_ref: str,
    sides: Sequence[int],
    results: Sequence[int],
    *,
    identical: bool,
    key: str,
    citation: str = "",
) -> str:
    """The dealer's dice roll for a player's ``DICEn`` comment (forums without a roller), or
    the record of the forum's own roll. Identical Hole Card Draw results are drawn again."""
    rolls = ", ".join(f"DICE{s}: {r}" for s, r in zip(sides, results))
    parts = [f"Dice for {_name(player)} ({_ref(comment_ref)}): {rolls}."]
    if identical:
        parts.append(
            "Both results are the same number, so this Hole Card Draw does not count: "
            "make another Hole Card Draw comment."
        )
        if citation:
            parts.append(_quote(citation))
    else:
        positions = " and ".join(str(r) for r in results)
        parts.append(
            f"Your hole cards are cards {positions} of your deck: now post "
            f"`cards {', '.join(str(r) for r in results)}, Cards printed by: ...` "
            "with your deck's checksum in place of the dots."
        )
    return _finish(parts, key)


def draw_accepted(player: str, comment_ref: str, positions: Sequence[int], checksum: str, *, key: str) -> str:
    """A draw statement checked against the dice log and the deck's checksum. The cards stay
    secret: only the positions and the printer are public until the showdown."""
    pos = " and ".join(str(p) for p in positions)
    return _finish(
        [
            f"{_name(player)}'s Hole Card Draw is recorded ({_ref(comment_ref)}): cards {pos} of the "
            f"deck with \"{md_escape(checksum)}\". The cards stay hidden until the showdown."
        ],
        key,
    )


def _opening(opening: str, text: str) -> str:
    """``text`` after the action that led to it (see :func:`last_action`), WRGPT style."""
    return f"{opening} {text}" if opening else text


def street(table: TableView, hand: Hand, name: str, new_cards: Sequence[str], *, key: str,
           opening: str = "") -> str:
    """The Flop, the Turn or the River: the new cards, the whole board, the pot, and who acts
    first in the round that begins (or that nobody can bet, when all are all-in).
    ``opening`` is the action that closed the round, so no accepted action goes unannounced."""
    parts = [
        _opening(opening, f"**{md_escape(name)}**: {_cards(new_cards)}"),
        f"Board: {_cards(hand.board)}. Pot: {hand.pot}.",
    ]
    actor = to_act_name(hand)
    if actor is not None:
        parts.append(f"Round {hand.round} begins: {_name(actor)} acts first.")
    else:
        parts.append("Nobody can bet: every player still in is all-in (or only one can act).")
    return _finish(parts, key)


def call_for_reveals(table: TableView, hand: Hand, players: Sequence[str], *, key: str,
                     opening: str = "") -> str:
    """The showdown: who must reveal, in showdown order, the form to use, and the status
    table. ``opening`` is the action that ended the betting, if no street comment said it."""
    order = "\n".join(f"{i}. {_name(p)}" for i, p in enumerate(players, start=1))
    parts = [
        _opening(opening, f"Hand #{hand.number}: betting is over. Showdown; board "
                          f"{_cards(hand.board)}, pot {hand.pot}."),
        f"Reveal your hole cards (showdown order):\n\n{order}",
        f"Form: `HAND{hand.number} reveal 7h 2s` (or `7 of hearts, 2 of spades`).",
        status_table(table, hand),
    ]
    return _finish(parts, key)


def _side_pots_mattered(hand: Hand) -> bool:
    """Would a side-pot ruleset have split this pot? True when a player still in put in less
    than another player still in (an all-in for less)."""
    live = [s for s in hand.seats if not s.folded]
    if len(live) < 2:
        return False
    return len({s.total_bet for s in live}) > 1


def payout(table: TableView, hand: Hand, *, secrets: Mapping[str, str] | None, key: str,
           opening: str = "") -> str:
    """The end of the hand: every revealed hand with its name and best five, each pot and who
    won it, the money moved (returned uncalled bets and rounding remainders included), the
    published secrets, and the GNDT table after it. ``table.money`` is Money after the payout.
    ``opening`` is the action that ended the hand (the last fold), when there was one.
    """
    res = hand.result
    if res is None:
        raise ValueError("payout needs a settled hand (hand.result is None)")
    board = f"Board: {_cards(hand.board)}." if hand.board else "No community cards were dealt."
    parts = [_opening(opening, f"**Hand #{hand.number} is over.** {board}")]
    if res.uncontested:
        winners = sorted({w for a in res.awards for w in a.winners})
        parts.append(f"Everyone else folded: {_names(winners)} wins without a showdown.")
    if res.shown:
        lines = ["Shown hands:"]
        for sh in res.shown:
            lines.append(
                f"- {_name(sh.player)}: {_cards(sh.hole)}, {md_escape(sh.name)} ({_cards(sh.best_five)})"
            )
        mucked = [s.name for s in hand.seats if s.mucked]
        for m in mucked:
            lines.append(f"- {_name(m)}: mucked")
        parts.append("\n".join(lines))
    pot_lines = []
    many = len(res.awards) > 1
    for i, aw in enumerate(res.awards, start=1):
        label = ("Main pot" if i == 1 else f"Side pot {i - 1}") if many else "Pot"
        if len(aw.winners) == 1:
            line = f"- {label} {aw.amount}: {_name(aw.winners[0])} wins {aw.shares.get(aw.winners[0], aw.amount)}."
        else:
            shares = ", ".join(f"{_name(w)} {aw.shares.get(w, 0)}" for w in aw.winners)
            line = f"- {label} {aw.amount}: split between {_names(aw.winners)} ({shares})."
        if aw.remainder:
            line += (
                f" {_plural(aw.remainder, 'chip')} left over by rounding down "
                f"{'is' if aw.remainder == 1 else 'are'} destroyed."
            )
        pot_lines.append(line)
    if pot_lines:
        parts.append("\n".join(["Pots:"] + pot_lines))
    notes = []
    for p, amt in res.returned.items():
        if amt:
            notes.append(f"Returned to {_name(p)}: {amt} (uncalled).")
    if res.destroyed:
        notes.append(f"Removed from the game by rounding: {res.destroyed}.")
    if not hand.ruleset.side_pots and _side_pots_mattered(hand):
        notes.append(
            "Side pots: none under this ruleset; the winner takes the whole pot, "
            "even from a player who put in more than an all-in player could match."
        )
    if notes:
        parts.append(" ".join(notes))
    moved = ["Money moved:"]
    for s in hand.seats:
        got = res.payouts.get(s.name, 0)
        net = got - s.total_bet
        moved.append(f"- {_name(s.name)}: put in {s.total_bet}, receives {got} ({net:+d})")
    parts.append("\n".join(moved))
    broke = [s.name for s in hand.seats if table.money.get(s.name, s.money) == 0]
    if broke:
        parts.append(f"Out of Money: {_names(broke)} (not seated in the next hand).")
    if secrets:
        lines = ["Secrets of this hand (each one's SHA-256 is the commitment posted at the start):"]
        for label, value in secrets.items():
            lines.append(f"- {md_escape(label)}: {_code(value)}")
        parts.append("\n".join(lines))
    parts.append(gndt(gndt_rows(table, None), "md", title=f"GNDT after hand #{hand.number}").rstrip("\n"))
    return _finish(parts, key)


def edit_noted(author: str, comment_ref: str, *, key: str, first: str = "") -> str:
    """An edit after adjudication: the first reading binds, like a spoken action at a table.
    ``first`` is what that reading was (e.g. "`HAND1 ROUND1 call`, accepted"), so the reader
    need not scroll back to learn which version counts."""
    what = f": {first}" if first else ""
    return _finish(
        [
            f"{_name(author)} edited a comment ({_ref(comment_ref)}) after it was adjudicated; "
            f"the first reading stands (as a spoken action does){what}."
        ],
        key,
    )
