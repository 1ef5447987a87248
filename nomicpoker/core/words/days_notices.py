"""The words of the dealer's comments for play over days (pure): reminders, timeouts and sitting
out, vacations, protests, the Dealer's controls, flood notices, WHAT.

Each ends with the reference tag like every dealer comment (docs/dealer-comments.md). Names
are escaped for Markdown; the forum's mention form (``u/name``) is passed in ready-made.
"""

from __future__ import annotations

from typing import Mapping, Sequence

from nomicpoker.core.words import render
from nomicpoker.core.poker.cards import pretty
from nomicpoker.core.words.gndt import md_escape


def _done(parts: Sequence[str], key: str) -> str:
    return "\n\n".join(p for p in parts if p) + f"\n\n{render.reference_tag(key)}\n"


def _names(names: Sequence[str]) -> str:
    return ", ".join(md_escape(n) for n in names)


def reminder(mention: str, number: int, what: str, due: str, n: int, of: int, key: str) -> str:
    """A reminder in the thread, naming the player the forum's way."""
    count = f" (reminder {n} of {of})" if of > 1 else ""
    return _done([f"{mention}: hand {number} is waiting for you to {what}. Your deadline: "
                  f"{md_escape(due)}{count}."], key)


def reminder_private(player: str, table: str, number: int, what: str, due: str) -> str:
    return (f"{md_escape(player)}, hand {number} at table {md_escape(table)} is waiting for you to "
            f"{what}. Your deadline: {md_escape(due)}. After it the dealer acts for you.\n")


#: the WRGPT manual's timeout rule (seed ``000_…``), quoted in every timeout notice
TIMEOUT_RULE = "If you miss your deadline you will be put on vacation and a $0 bet will be entered for you."


def timeouts_note(player: str, count: int, limit: int, timed_out: bool = True, edition: int = 2) -> str:
    """The sentence added to a timeout notice (``timed_out``) or to the dealer's check or
    fold for an AWOL player: AWOL (on vacation until ``BACK`` or an accepted action; each
    turn the dealer takes for them counts as a timeout in a row), or sitting out after
    ``limit`` in a row."""
    who = md_escape(player)
    if edition < 2:  # a hand of edition 1: AWOL, a new deadline at each later turn
        if count >= limit:
            return (f"{who} has timed out {count} times in a row and sits out the next hands until "
                    f"they comment `BACK`.")
        return f"{who} is AWOL until they act ({count} of {limit} timeouts in a row before sitting out)."
    rule = f" (\u201c{TIMEOUT_RULE}\u201d)" if timed_out else ""
    if count >= limit:
        return (f"{who} has timed out {count} times in a row and sits out the next hands until "
                f"they comment `BACK`{rule}.")
    return (f"{who} is AWOL until they act ({count} of {limit} timeouts in a row before sitting "
            f"out): on vacation, the dealer checking or folding for them at each turn until they "
            f"comment `BACK` or an action of theirs is accepted{rule}.")


def tournament_awol_note(player: str, count: int, limit: int, timed_out: bool = True) -> str:
    """:func:`timeouts_note` at a tournament's table (``wrgpt_vacation``): WRGPT's AWOL player
    is not sat out; past ``limit`` timeouts in a row the note says the director may remove him
    ("You will be removed from the tournment if you exceed allowed timeout limits.")."""
    who = md_escape(player)
    rule = f" (\u201c{TIMEOUT_RULE}\u201d)" if timed_out else ""
    over = (f" That is {count} timeouts in a row, the table's limit being {limit}: the tournament director may "
            "remove them from the tournament." if count >= limit else "")
    return (f"{who} is AWOL ({count} timeout{'s' if count != 1 else ''} in a row): on vacation, dealt in "
            f"with antes and blinds posted for them, the dealer checking or folding for them at each turn "
            f"until they comment `BACK` or an action of theirs is accepted{rule}.{over}")


def away_acts(player: str, what: str, key: str, opening: str = "", note: str = "", *,
              announced: bool = True) -> str:
    """The dealer acting at once for a player on vacation (after ``opening``, the action
    before it when no dealer comment announced it); ``note``: an AWOL player's count. A
    vacation the table has not been told of yet (``announced`` false: WRGPT announces
    vacations at the end of a hand, "not immediately") is not named: the table sees the check
    or the fold, as from the player."""
    first = f"{opening} " if opening else ""
    tail = f" {note}" if note else ""
    if not announced:
        return _done([f"{first}{md_escape(player)} {what}.{tail}"], key)
    return _done([f"{first}{md_escape(player)} is away: the dealer {what} for them.{tail}"], key)


def away_side_pot_note(player: str) -> str:
    """Said with the cards the dealer shows for a player away at a tournament's table who is in
    a side pot only players away contest, beside a pot a player present contests."""
    return (f"{md_escape(player)} cannot win a pot a player present contests (\u201cYou cannot win a contested "
            "hand while on vacation.\u201d): these cards decide only a side pot that players away alone "
            "contest.")


def vacations_announced(gone: Mapping[str, str], resigned: Sequence[str], key: str) -> str:
    parts = []
    if gone:
        parts.append("On vacation: " + ", ".join(
            f"{md_escape(p)}" + (f" (until {md_escape(u)})" if u else "") for p, u in gone.items())
            + ". Antes and blinds are posted for them and each turn is checked or folded at once "
            "until they comment `BACK`.")
    if resigned:
        parts.append(f"Resigned: {_names(resigned)}.")
    return _done(parts, key)


def back(player: str, ref: str, key: str, sat_out: bool) -> str:
    tail = " and is dealt into the next hand" if sat_out else ""
    return _done([f"{md_escape(player)} is back ({md_escape(ref)}){tail}."], key)


def start_hour(player: str, hour: int, ref: str, key: str) -> str:
    return _done([f"{md_escape(player)}'s office hours start at {hour}:00 from the next hand "
                  f"({md_escape(ref)})."], key)


def protest_filed(player: str, ref: str, key: str) -> str:
    return _done([f"{md_escape(player)} has filed a protest ({md_escape(ref)}). The table is frozen: "
                  "no deadline runs and no action applies until the Dealer resolves it. Comments "
                  "posted meanwhile are kept and adjudicated in order afterwards."], key)


def protest_private(player: str, table: str, ref: str, text: str) -> str:
    """The protest sent to the floorman: the player's words quoted as typed (escaped, so
    Markdown or HTML in them shows as text)."""
    return (f"Protest at table {md_escape(table)} by {md_escape(player)} ({md_escape(ref)}):\n\n"
            f"{md_escape(text) if text else '(no text)'}\n")


def vacation_private(player: str) -> str:
    return (f"{md_escape(player)}, you are on vacation from now: the dealer checks or folds for you "
            "and posts your antes and blinds until you comment BACK.\n")


def resumed(by: str, note: str, to_act: str | None, due: str | None, held: int, key: str) -> str:
    parts = [f"{by}. The table runs again" + (f": {md_escape(note)}." if note else ".")]
    if held:
        parts.append("The comment posted during the freeze is adjudicated now." if held == 1 else
                     f"The {held} comments posted during the freeze are adjudicated now, in order.")
    if to_act:
        parts.append(f"**{md_escape(to_act)}** to act" + (f"; deadline {md_escape(due)}." if due else "."))
    return _done(parts, key)


def paused(note: str, key: str) -> str:
    return _done([f"The Dealer pauses the table: {md_escape(note)}. No deadline runs and no "
                  "action applies until the Dealer resumes it; comments are kept and "
                  "adjudicated in order afterwards."], key)


def voided(number: int, note: str, stacks: Mapping[str, int], secrets: Mapping[str, str], key: str) -> str:
    lines = ", ".join(f"{md_escape(p)} {m}" for p, m in stacks.items())
    secret_lines = "\n".join(f"- {md_escape(k)}: `{v}`" for k, v in secrets.items())
    return _done([f"The Dealer voids hand {number}: {md_escape(note)}. Every chip goes back where it "
                  f"was at the hand's start: {lines}.",
                  "The hand's secrets, for checking every card dealt:\n\n" + secret_lines], key)


def dealer_folds(player: str, number: int, note: str, key: str) -> str:
    return _done([f"The Dealer folds {md_escape(player)} out of hand {number}: {md_escape(note)}. "
                  "Their chips stay in the pot."], key)


def seated(player: str, note: str, seat: bool, key: str) -> str:
    what = "is dealt into the next hands" if seat else "sits out from the next hand"
    return _done([f"The Dealer: {md_escape(player)} {what}" + (f" ({md_escape(note)})." if note else ".")], key)


def settings_changed(describe: str, note: str, key: str) -> str:
    return _done([f"The Dealer changes the table's settings" + (f" ({md_escape(note)})" if note else "")
                  + f": {md_escape(describe)}."], key)


def flood(player: str, number: int, limit: int, key: str) -> str:
    return _done([f"{md_escape(player)}, that is {limit + 1} invalid comments in hand {number}: "
                  "further invalid comments from you are ignored without a reply until your next "
                  "valid action. See the replies above for what was wrong."], key)


def what_public(player: str, ref: str, lines: Sequence[str], key: str) -> str:
    return _done([f"For {md_escape(player)} ({md_escape(ref)}):", "\n".join(f"- {ln}" for ln in lines)], key)


def what_private(player: str, table: str, number: int, holes: Sequence[str] | None,
                 deck_listing: str | None, positions: Sequence[int] | None) -> str:
    parts = [f"{md_escape(player)}, your state in hand {number} at table {md_escape(table)}."]
    if holes:
        parts.append("Your hole cards: " + " ".join(pretty(c) for c in holes) + f" ({' '.join(holes)}).")
    if positions:
        parts.append("Your Hole Card Draw: positions " + ", ".join(str(p) for p in positions) + ".")
    if deck_listing:
        parts.append("Your deck again:\n\n" + deck_listing)
    return "\n\n".join(parts) + "\n"
