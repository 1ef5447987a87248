"""The ordinary readings of a comment in the fold (pure): chat, the grammar's coded error, and
an action (a bet, the dice, a draw statement, a reveal).

WHY a module of its own: the fold hands each revision to the handler of its one reading's
kind (:mod:`nomicpoker.core.reading.comment_reading` chooses it; ``_Folder.on_reading`` is the
table); the advance readings are handled in :mod:`.advance_fold`, ``SCORE`` in
:mod:`.score_fold`, these here. A phase without a hub (:mod:`.effects`): each handler is a
function of the comment, its reading and the state it reads, and returns what happened as
values; an action goes to the pure function of its kind (:mod:`.draws` for the dice and the
draw statement, :mod:`.betting_fold` for a bet or a reveal). The players' commands a comment
starts with (``GONE``, ``PROTEST`` ...) are applied by the fold before these handlers run
(``_Folder.commands_first``), so a handler sees the state they left.
"""

from __future__ import annotations

from nomicpoker.core.fold import betting_fold, draws
from nomicpoker.core.fold.effects import Effect, FirstReading, Reject, Verdict
from nomicpoker.core.fold.whose import other_player_named
from nomicpoker.core.reading import grammar
from nomicpoker.core.reading.comment_reading import Reading
from nomicpoker.core.reading.lookalike import describe_char, first_lookalike
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.table.days_state import DaysState
from nomicpoker.core.table.fold_state import HandState
from nomicpoker.core.table.fold_types import Revision, TableConfig

_NO_HAND = "posted before any hand in this thread"


def chat(rev: Revision, number: int | None) -> tuple[Effect, ...]:
    """``chat``: the grammar reads nothing that acts."""
    return FirstReading(rev, "chat"), Verdict(rev, number, "chat")


def error(rev: Revision, reading: Reading, h: HandState | None, number: int | None) -> tuple[Effect, ...]:
    """``error``: the grammar's coded error (after the comment's commands)."""
    if h is None:
        return FirstReading(rev, "action"), Verdict(rev, None, "ignored", "no_hand", _NO_HAND)
    parsed = reading.action
    assert isinstance(parsed, grammar.GrammarError)
    return FirstReading(rev, "action"), Reject(rev, number, parsed.code, parsed.message)


def act(rev: Revision, reading: Reading, h: HandState | None, number: int | None, days: DaysState,
        config: TableConfig, rules: Ruleset) -> tuple[Effect, ...]:
    """``action``: an intent of the grammar (after the comment's commands): who may act, in
    which hand, then the bet, the dice, the draw or the reveal. ``rules``: the rules in force
    (the fold's); ``days``: play over days (a redrawn die's deadline)."""
    first = FirstReading(rev, "action")
    if h is None:
        return first, Verdict(rev, None, "ignored", "no_hand", _NO_HAND)
    intent = reading.action
    assert isinstance(intent, grammar.Intent)
    if h.phase == "complete":
        return first, Reject(rev, number, "hand_over", "no hand is running in this thread"
                             + (f": hand {number} is over" if number else ""))
    seated = [s.name for s in h.hand.seats]
    if rev.author not in seated:
        like = config.lookalike_seat(rev.author)
        why = ""
        if like is not None:
            ch = first_lookalike(rev.author)
            why = (f": the account only looks like {like}"
                   + (f" (it contains {describe_char(ch)})" if ch else "")
                   + "; accounts are compared exactly, apart from the case of plain letters")
        return first, Reject(rev, number, "not_seated", f"{rev.author} is not a Seated Player in hand "
                             f"{number} (seated: {', '.join(seated)}){why}")
    named = getattr(intent, "player", None) or other_player_named(rev, intent, seated)
    if named and named != rev.author:
        # The rule has each player post their own comment: the draw, the reveal, the bet.
        cite_as = {"dice": "deck", "draw": "draw_mismatch", "reveal": "reveal_not_allowed"}.get(
            intent.kind, "unparseable")
        return first, Reject(rev, number, "not_player_action",
                             f"{rev.author} cannot act for {named}: a player acts only in their own comment",
                             cite_as=cite_as)
    if intent.hand is not None and intent.hand != number:
        if intent.kind in ("dice", "draw", "reveal"):
            return first, Reject(rev, number, "stale_hand", f"this is hand {number}, not hand {intent.hand}")
    if intent.kind == "dice":
        return (first,) + draws.dice(rev, h, intent, days, config, rules)
    if intent.kind == "draw":
        return (first,) + draws.draw(rev, h, intent, rules)
    if intent.kind == "reveal":
        return (first,) + betting_fold.reveal(rev, h, intent, rules)
    return (first,) + betting_fold.bet(rev, h, intent)
