"""The fold's words: builds each dealer message from fold values through :mod:`render`.

WHY a thin layer of its own: the fold thinks in table configuration, hand-start records and
engine hands; :mod:`nomicpoker.core.words.render` wants a :class:`render.TableView` and keyword
arguments. Keeping the translation here leaves the fold readable and gives one place for the
few sentences render has no function for (timeouts, own-deck caveats, what a false reveal's
deck really held). Pure: values in, text out.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from nomicpoker.core.words import render
from nomicpoker.core.poker.cards import card_name, pretty
from nomicpoker.core.fairness.dealing import IssuedDeck, draw_statement
from nomicpoker.core.table.fold_types import DealerEvent, HandStart, TableConfig
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.rules.ruleset_diff import summary
from nomicpoker.core.words.gndt import GndtRow, md_escape
from nomicpoker.core.words.runout import payout_chances, street_chances  # noqa: F401 - the fold's words


def view(config: TableConfig, money: Mapping[str, int], button: str | None,
         marks: Mapping[str, str] | None = None, notes: Mapping[str, str] | None = None) -> render.TableView:
    return render.TableView(name=config.name, players=tuple(config.players), money=dict(money),
                            button=button, marks=dict(marks or {}), notes=dict(notes or {}))


def gndt_rows(players: Sequence[str], snap: Mapping[str, tuple[int, str, int]]) -> tuple[GndtRow, ...]:
    return tuple(GndtRow(player=p, money=snap[p][0], turn=snap[p][1], pot=snap[p][2]) for p in players)


def _append(body: str, extra: Sequence[str]) -> str:
    """Insert paragraphs before the reference tag that ends ``body``."""
    if not extra:
        return body
    head, sep, tag = body.rstrip("\n").rpartition("\n\n")
    return f"{head}\n\n" + "\n\n".join(extra) + f"\n\n{tag}\n"


def hand_start(table: render.TableView, hs: HandStart, hand, issued: bool, key: str,
               draw_due: str | None = None, hours: int | None = None,
               extra: Sequence[str] = ()) -> str:
    """The hand-start comment; with a table deadline and Hole Card Draws to make, it says by
    when (``draw_due``) and what happens to a player who has not drawn by then. ``extra``:
    paragraphs to add first (the announcement of a rule amendment)."""
    body = render.hand_start(table, hand, ante=hs.ante, blinds=hs.blinds,
                             commitments=dict(hs.commitments), decks_issued=issued, key=key)
    if hs.entropy is not None:  # what was mixed in, so every player can check their comment counted
        extra = [f"Dealt from the commitments above mixed with {md_escape(hs.entropy.describe())} "
                 f"(the window closed at {md_escape(hs.entropy.close_at)}; docs/fair-dealing.md).", *extra]
    if not draw_due:
        return _append(body, list(extra))
    return _append(body, [*extra,
        f"Deadline for Hole Card Draws: {md_escape(draw_due)} (the table's {hours} hours from this "
        f"comment; after a draw with identical results, {hours} hours from that draw). A seated "
        "player who has not stated a valid Hole Card Draw by then is folded out of the hand; "
        "what they put in stays in the pot."])


def amendment(previous: Ruleset, new: Ruleset, events: Sequence[DealerEvent]) -> str:
    """The announcement, in the first hand played under them, of the rule amendments the
    Dealer applied since the last hand: the ruleset now in force by name and hash, the one it
    replaces, when, the Dealer's notes, and the parameters that take another value."""
    notes = "; ".join(md_escape(e.note) for e in events if e.note)
    when = md_escape(events[-1].at) if events else ""
    return (f"**The rules were amended before this hand.** From this hand on the table plays under "
            f"ruleset {md_escape(new.name)} (hash `{new.content_hash[:12]}`), in place of "
            f"{md_escape(previous.name)} (`{previous.content_hash[:12]}`); applied by the Dealer "
            f"at {when}" + (f": {notes}" if notes else "") + f". {summary(previous, new)} "
            "`nomicpoker rules diff` shows every quoted sentence, old and new.")


def deck_message(deck: IssuedDeck) -> str:
    return deck_listing(deck)


def deck_listing(deck: IssuedDeck) -> str:
    """The private message that delivers an issued deck: positions 1..52, checksum, how to draw.

    Plain text that also reads as Markdown (one list item per position). It is sent only to
    the player: the listing is their deck, and showing it early would tell others their cards.
    """
    lines = [
        f"Your deck for hand {deck.hand}, {md_escape(deck.player)}, from the BlogNomic Poker Deck Trading Post.",
        "Keep it to yourself until the hand ends.",
        "",
        deck.checksum,
        "",
    ]
    lines += [f"- {i:>2}: {pretty(c)} ({card_name(c)})" for i, c in enumerate(deck.cards, start=1)]
    lines += [
        "",
        "How to draw your hole cards:",
        f"1. Comment `HAND#{deck.hand} DICE52 DICE52` (your Hole Card Draw).",
        "2. If both dice show the same number, make another Hole Card Draw; repeat until they differ.",
        "3. Then post your results and this deck's checksum, for example:",
        f"   `{draw_statement(deck.player, (14, 26), deck.checksum)}`",
        "Your hole cards are the cards at those two positions in the list above.",
        f"(deck digest {deck.digest})",
    ]
    return "\n".join(lines)


def hole_message(player: str, number: int, cards: Sequence[str]) -> str:
    """A player's hole cards from the dealer's shared deck, sent privately."""
    shown = " ".join(pretty(c) for c in cards)
    return (f"Your hole cards for hand {number}, {md_escape(player)}: {shown} ({' '.join(cards)}).\n"
            "Keep them to yourself until the showdown; reveal them then with "
            f"`HAND{number} reveal {' '.join(cards)}`. They come from the dealer's deck, whose "
            "commitment is in the hand-start comment.\n")


def rejection(author: str, ref: str, code: str, message: str, citation: str, key: str,
              hint: str | None = None) -> str:
    return render.rejection(author, ref, code, message, citation, key=key, hint=hint)


def edit_noted(author: str, ref: str, key: str, status: str = "", canonical: str = "", code: str = "") -> str:
    """The edit note, naming the first reading: the accepted action, or the rejection's code."""
    if status == "accepted" and canonical:
        first = f"{render.code_span(canonical)}, accepted"
    elif status == "rejected" and code:
        first = f"rejected ({render.code_span(code)})"
    else:
        first = ""
    return render.edit_noted(author, ref, key=key, first=first)


def dice_rolled(player: str, ref: str, sides: Sequence[int], results: Sequence[int], ok: bool,
                citation: str, key: str, due: str | None = None) -> str:
    """The dice reply; after identical results with a table deadline, the new deadline too."""
    body = render.dice_rolled(player, ref, sides, results, identical=not ok, key=key, citation=citation)
    if ok or not due:
        return body
    return _append(body, [f"Your new deadline for the Hole Card Draw: {md_escape(due)}."])


def draw_stalled(number: int, due: str, waiting: Sequence[str], table: str, key: str) -> str:
    """A Hole Card Draw deadline that passed with no draw stated: the rule gives the Dealer
    nothing to apply (it folds out a player who has not drawn only while someone else has),
    so the hand waits; said once, and the Dealer is told by the poll."""
    return (f"Hand #{number}: the Hole Card Draw deadline passed at {md_escape(due)} and no seated "
            f"player has stated a Hole Card Draw ({', '.join(md_escape(w) for w in waiting)}). The "
            f"deadline folds out a player who has not drawn only while someone else has drawn, so "
            f"there is nobody to fold out: the hand waits for the draws, and the Dealer has been "
            f"told (`nomicpoker hand void --table {md_escape(table)}` would end it)."
            f"\n\n{render.reference_tag(key)}\n")


def draw_timed_out(player: str, number: int, since: str, hours: int | None, at: str, put_in: int,
                   pot: int, waiting: Sequence[str], left: Sequence[str], citation: str, key: str,
                   note: str = "") -> str:
    """A player folded out by the Hole Card Draw deadline: who, since when the hours ran, that
    their chips stay in the pot, the sentence that obliges every seated player to draw, and
    what happens next (more draws awaited, round 1 opens, or the one player left wins)."""
    who = md_escape(player)
    parts = [f"{who} has stated no Hole Card Draw by the table's deadline ({hours} hours from "
             f"{md_escape(since)}; checked at {md_escape(at)}): {who} is folded out of hand {number}, "
             f"and the {put_in} they put in stays in the pot ({pot})."]
    if citation:
        parts.append("The rule:\n\n" + _quote(citation))
    if len(left) == 1:
        parts.append(f"Only {md_escape(left[0])} is left in the hand and wins the pot.")
    elif waiting:
        parts.append("Still to state a Hole Card Draw: " + ", ".join(md_escape(w) for w in waiting) + ".")
    else:
        parts.append("Every player left in the hand has drawn: round 1 opens.")
    if note:
        parts.append(note)
    return "\n\n".join(parts) + f"\n\n{render.reference_tag(key)}\n"


def _quote(text: str) -> str:
    """A Markdown block quote of a rule sentence (reads as a quotation in plain text too)."""
    return "\n".join("> " + md_escape(ln.strip()) for ln in str(text).strip().splitlines() if ln.strip())


def draw_accepted(player: str, ref: str, positions: Sequence[int], checksum: str, issued: bool,
                  waiting: Sequence[str], key: str) -> str:
    body = render.draw_accepted(player, ref, positions, checksum, key=key)
    extra = []
    if not issued:
        extra.append("This is the player's own deck: the dealer records its checksum and can check "
                     "the reveal only as far as that goes (not the cards themselves).")
    if waiting:
        extra.append("Still to state a Hole Card Draw: " + ", ".join(md_escape(w) for w in waiting) + ".")
    else:
        extra.append("Every seated player has drawn: round 1 opens.")
    return _append(body, extra)


def street(table: render.TableView, hand, name: str, cards: Sequence[str], key: str,
           opening: str = "", chances: str = "") -> str:
    """A street; in a run-out whose hands are face up, ``chances`` (:mod:`.runout`) ends it."""
    body = render.street(table, hand, name.capitalize(), cards, key=key, opening=opening)
    return _append(body, [chances] if chances else [])


def turn_notice(table: render.TableView, hand, legal, deadline: str | None, key: str,
                opening: str | None = None) -> str:
    return render.turn_notice(table, hand, legal, key=key, deadline=deadline, opening=opening)


def call_for_reveals(table: render.TableView, hand, players: Sequence[str], key: str,
                     opening: str = "") -> str:
    return render.call_for_reveals(table, hand, players, key=key, opening=opening)


def last_action(hand) -> str:
    return render.last_action(hand)


def timed_out(player: str, at: str, did: str, action: str, key: str, note: str = "") -> str:
    """A passed turn deadline: what the dealer did for the player (``did``: ``checks``,
    ``folds`` or ``mucks``) and the rule it followed (the ruleset's ``deadline_action``);
    ``note`` says whether the player is now AWOL or sits out."""
    if did == "mucks":
        what = "mucks (no reveal in time)"
    else:
        what = f"{did} ({render.deadline_rule(action)})"
    tail = f"\n\n{note}" if note else ""
    return (f"{md_escape(player)}'s deadline passed at {md_escape(at)}: the dealer acts for them and "
            f"{what}, as the table's deadline says.{tail}\n\n{render.reference_tag(key)}\n")


def payout(table: render.TableView, hand, secrets: Mapping[str, str],
           held: Mapping[str, Sequence[str]], own: Sequence[str], key: str, opening: str = "",
           talk: Sequence[Sequence[str]] = (), chances: str = "") -> str:
    """The payout; ``chances``: an all-in's chances recounted once every card is public
    (:func:`.runout.payout_chances`)."""
    body = render.payout(table, hand, secrets=dict(secrets), key=key, opening=opening)
    extra = [chances] if chances else []
    if talk:  # WRGPT: "all table talk is shown interspersed with action in the showdown messages"
        extra.append("Table talk, with the action it came with:\n\n" + "\n".join(
            f"- {md_escape(p)} ({md_escape(' '.join(cmd.split()) or 'no action')}): "
            + md_escape(" / ".join(ln.strip() for ln in said.splitlines() if ln.strip()))
            for p, _when, cmd, said in talk))
    shared = hand.ruleset.deck == "shared"
    for p, cards in held.items():
        shown = " ".join(pretty(c) for c in cards)
        extra.append(f"{md_escape(p)} was dealt {shown} (a false reveal was rejected)." if shared else
                     f"{md_escape(p)}'s issued deck held {shown} at the drawn positions (a false "
                     "reveal was rejected).")
    if own:
        extra.append("Own decks (" + ", ".join(md_escape(p) for p in own) + "): only the stated "
                     "checksums are on record, so those reveals could not be checked against a deck.")
    return _append(body, extra)


def reveal_recorded(player: str, ref: str, cards: Sequence[str], waiting: Sequence[str], key: str) -> str:
    """A reveal accepted while others still have to show: say so, and who is left."""
    left = ", ".join(md_escape(w) for w in waiting)
    return (f"{md_escape(player)} shows {' '.join(pretty(c) for c in cards)} ({md_escape(ref)}). "
            f"Still to reveal: {left}.\n\n{render.reference_tag(key)}\n")
