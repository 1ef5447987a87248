"""The comment grammar's lexical pieces: the patterns and word lists
:mod:`nomicpoker.core.reading.grammar` reads with (all applied to the skeleton, ASCII-only classes).

WHY a module of its own: the parser stays readable (and under the house's file size limit)
when the vocabulary lives apart from the rules that use it.

Pure: no I/O.
"""

from __future__ import annotations

import re
import unicodedata

from nomicpoker.core.reading.intents import GrammarError
from nomicpoker.core.reading.invisibles import BIDI_CONTROLS

# ---------------------------------------------------------------------------------------------
# Lexical pieces (all applied to the skeleton, ASCII-only classes: \d would match ٢)
# ---------------------------------------------------------------------------------------------

_F = re.IGNORECASE | re.ASCII
_SP = r"[^\S\n]"
_SEP = re.compile(r"(?:[^\S\n]|[,:;.\-/|()\[\]\"'=~–—“”‘’])*")
_SPACES = re.compile(r"[^\S\n]*")
_HAND = re.compile(rf"(?<![A-Za-z0-9])hand{_SP}*(?:#|no\.?|number|[-_:])?{_SP}*([0-9]+)(?![0-9])", _F)
_LOOSE_HAND = re.compile(r"hand\s+[0-9]", _F)
_ROUND_TAG = re.compile(r"(?<![A-Za-z0-9])round(?:[^\S\n]*[#\-_:][^\S\n]*)?([0-9]+)(?![0-9])", _F)
#: A ROUND tag after a HAND tag: also abbreviated (``R1``, ``Rd 1``, ``RND-1``), which after a
#: HAND tag cannot mean anything else.
_ROUND = re.compile(rf"(?:round|rn?d|r)(?![A-Za-z])\.?{_SP}*(?:#|no\.?|number|[-_:])?{_SP}*([0-9]+)(?![0-9])", _F)
_DICE = re.compile(r"dice([0-9]+)(?![0-9A-Za-z])", _F)
#: A line of nothing but DICE rolls: a hole-card draw that forgot its HAND tag. (A DICE roll
#: inside other chat may be for another game and is left alone.)
_DICE_LINE = re.compile(r"^[^\S\n]*(?P<dice>dice[0-9]+(?:(?:[^\S\n]|,)*dice[0-9]+)*)"
                        r"[^\S\n]*[.!]*[^\S\n]*$", _F | re.MULTILINE)
_WORD = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*", _F)
#: Any-script word, so an unknown verb like "fóld" is quoted whole, not as "f".
_UWORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*", re.IGNORECASE)
_ALL_IN_TAIL = re.compile(rf"{_SP}*(?:-|_)?{_SP}*in(?![A-Za-z0-9])", _F)
_AMOUNT_LEAD = re.compile(rf"{_SP}*[:=,]?{_SP}*")
_AMOUNT = re.compile(
    rf"(?P<neg>[-−–]{_SP}*)?\$?{_SP}*(?P<num>[0-9]{{1,3}}(?:,[0-9]{{3}})+(?![0-9])|[0-9]+)"
    r"(?P<frac>[.,][0-9]+)?", _F)
_UNIT = re.compile(rf"{_SP}*(?:chips?|coins?|money)(?![A-Za-z])", _F)
_RANK_WORD = (r"(?:10|[2-9]|[ajqkt]|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king"
              r"|ace|deuce|trey)")
_SUIT_CH = "shdc♠♤♥♡♦♢♣♧"
_CARD = re.compile(
    rf"(?:{_RANK_WORD}{_SP}+of{_SP}+[A-Za-z]+(?![A-Za-z]))"
    rf"|(?:(?:10|[2-9tjqka]){_SP}*[{_SUIT_CH}](?=(?:10|[2-9tjqka])[{_SUIT_CH}]|[^A-Za-z0-9]|$))", _F)
_CARD_SEP = re.compile(rf"(?:{_SP}|[,;/&+]|and(?![A-Za-z]))*", _F)
_CARDLIKE = re.compile(rf"^(?:[0-9]+[A-Za-z{_SUIT_CH}]*|[A-Za-z]?[{_SUIT_CH[4:]}].*)$", _F)
_CARDLIKE_START = re.compile(rf"[0-9]+[A-Za-z{_SUIT_CH}]|[A-Za-z]?[{_SUIT_CH[4:]}]", _F)
_TOKEN = re.compile(r"[^\s,;]+")
#: What may join a second action (or an amount) to a complete one: a run of joining
#: punctuation (``/``, ``->``, ``=>``, ``\\``, ``(``, an arrow) and up to two connectives
#: (``or else``, ``and then``, ``otherwise``). The family of issue 10's ``check/fold``.
_TAIL_LEAD = re.compile(rf"{_SP}*(?:[/|&+\-,;:>=\\(\[~→⇒⟶]+{_SP}*)?"
                        rf"(?:(?:or|then|and|else|otherwise|but|maybe|perhaps|later){_SP}+){{0,2}}", _F)
#: A condition right after a complete action ("call if nobody raised", "fold unless ..."): the Dealer
#: does not take conditional orders, so the action is refused rather than guessed.
_CONDITION = re.compile(rf"{_SP}*(?:[,;:(\-]{_SP}*)?(?:if|unless|provided)(?![A-Za-z])", _F)
#: What may close an amount: sentence punctuation and closing brackets, quotes and emphasis
#: markers, followed by a space or the end. Anything else glued to the digits ("10.5", "10½",
#: "1'000", "5*2", "20abc") makes the amount a guess, so it is refused.
_AMOUNT_CLOSE = re.compile(r"[.,;:!?)\]}\"'’”*_~]*(?=\s|$)")
_GLUED_TOKEN = re.compile(r"\S*")
_ALL_IN_AMOUNT = re.compile(rf"{_SP}*(?:for{_SP}+|of{_SP}+)?(?=[$0-9])", _F)
_NUMBERISH = re.compile(r"[0-9][0-9A-Za-z.,]*")
_REST_EMPTY = re.compile(r"[^\S\n]*[.!]*[^\S\n]*(?:\n|$)")
_PRINTED = re.compile(rf"(?<![A-Za-z])cards?{_SP}+printed{_SP}+by", _F)
_DRAW_CARDS = re.compile(rf"(?<![A-Za-z])cards?(?={_SP}*[:#]?{_SP}*[0-9])", _F)
_POSITIONS = re.compile(
    rf"{_SP}*[:#]?{_SP}*(?P<list>[0-9]+(?:{_SP}*(?:,|&|\+|and)?{_SP}*[0-9]+)*)(?![0-9])", _F)
_PRINTED_LEAD = re.compile(
    rf"{_SP}*[,;:.\-]?{_SP}*(?:cards?{_SP}+)?printed{_SP}+by{_SP}*:?{_SP}*", _F)
_REVEAL_LINE_LEAD = re.compile(
    rf"{_SP}*(?P<verb>(?:i{_SP}+)?(?:reveals?|shows?)(?![A-Za-z])|(?:my{_SP}+)?(?:hole{_SP}+)?"
    rf"cards(?:{_SP}+are)?(?![A-Za-z]))?{_SP}*[:\-]?{_SP}*", _F)

_VERBS: dict[str, str] = {
    "fold": "fold", "folds": "fold", "check": "check", "checks": "check", "call": "call",
    "calls": "call", "raise": "raise", "raises": "raise", "allin": "all_in", "all-in": "all_in",
    "reveal": "reveal", "reveals": "reveal", "show": "reveal", "shows": "reveal",
    "card": "draw", "cards": "draw",
}
#: Words that show a player *meant* to act but did not use the rule's words.
_NEAR_MISS = frozenset({
    "bet", "bets", "betting", "raised", "raising", "reraise", "re-raise", "reraises", "folded",
    "folding", "called", "calling", "checked", "checking", "muck", "mucks", "limp", "limps",
    "shove", "shoves", "jam", "jams", "pass", "passes", "see", "sees", "revealed", "showing",
    "all", "dice", "stand", "stay",
})
_NUMBER_WORDS = frozenset({
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen",
    "nineteen", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety",
    "hundred", "thousand", "half", "all",
})

#: Anything that could start an attempt, on the ASCII view of a comment: HAND and ROUND tags,
#: DICE rolls, draw statements, reveals and cards written with a suit.
_TRIGGER = re.compile(
    r"hand\W{0,3}(?:no\.?|number)?\W{0,3}[0-9]|round\W{0,3}[0-9]|(?<![a-z])r(?:n?d)?[0-9]"
    r"|printed\s+by|dice[0-9]|reveal|(?<![a-z])cards?\W{0,3}[0-9]|[\u2660-\u2667]"
    r"|(?<![a-z0-9])(?:10|[2-9])[shdc](?![a-z])", re.IGNORECASE)


_BARE_TRIGGER = re.compile(r"(?<![a-z])(?:fold|check|call|raise|all.?in)", re.IGNORECASE)


#: Plain characters that look alike in many fonts (``l``, ``I``, ``1``; ``O``, ``0``): a
#: look-alike whose Unicode prototype is one of them may have been meant as another.
_ALTERNATIVES = ({"l": "l", "i": "l", "I": "l", "1": "l", "o": "o", "O": "o", "0": "o"},
                 {"l": "i", "i": "i", "I": "i", "1": "i", "o": "0", "O": "0", "0": "0"},
                 {"l": "1", "i": "1", "I": "1", "1": "1"})


#: What a line must hold to be a reveal or a bare action on its own: a card (rank then suit),
#: a card word, or an action word. Other lines are chat without trying them.
_MAY_ACT_ALONE = re.compile(r"[0-9tjqka][^\S\n]*[shdc\u2660-\u2667]|of[^\S\n]+[a-z]|reveal|show"
                            r"|cards|fold|check|call|raise|all", re.IGNORECASE)


_NEWLINE = re.compile("\n")


def _may_start(s: str) -> bool:
    """Could any place in ``s`` start an attempt? Exactly the searches :func:`nomicpoker.core.reading.grammar._parse_bounded`
    starts from (HAND and ROUND tags, draw statements, a line that may act alone, a DICE
    line): when none finds anything, every one of its loops is empty and the comment is chat.

    WHY: most comments of a game are chat, and building the parser for them cost most of the
    fold's reading time (five searches at C speed cost ~1 µs)."""
    return bool(_HAND.search(s) or _ROUND_TAG.search(s) or _PRINTED.search(s)
                or _MAY_ACT_ALONE.search(s) or _DICE_LINE.search(s))


def _near(word: str) -> str | None:
    """The action word ``word`` is one typo away from (edit or swap), for verbs of 4+ letters."""
    w = word.lower()
    for v in ("raise", "raises", "fold", "folds", "check", "checks", "call", "calls", "reveal",
              "reveals"):
        if abs(len(v) - len(w)) > 1 or w == v:
            continue
        if len(v) == len(w):
            diff = [i for i in range(len(v)) if v[i] != w[i]]
            if len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1
                                  and v[diff[0]] == w[diff[1]] and v[diff[1]] == w[diff[0]]):
                return v
        else:
            a, b = (v, w) if len(v) > len(w) else (w, v)
            if any(a[:i] + a[i + 1:] == b for i in range(len(a))):
                return v
    return None


#: An explicit bidi control (:data:`nomicpoker.core.reading.invisibles.BIDI_CONTROLS`, which the
#: reader keeps in a comment: see :mod:`nomicpoker.core.reading.markup`).
_BIDI = re.compile(f"[{BIDI_CONTROLS}]")


def bidi_refusal(fragment: str, control: str) -> GrammarError:
    """The answer to an attempt on a line holding an explicit bidi control: what readers see
    is reordered, so it never acts. The fragment is quoted without the controls, which would
    otherwise reorder the Dealer's reply as well."""
    shown = _BIDI.sub("", fragment).strip()
    return GrammarError(
        "lookalike", f'"{shown}" is on a line holding U+{ord(control):04X} '
        f"{unicodedata.name(control)}, an invisible control that changes the order in which "
        "readers see the characters, so they may not read what the Dealer would. Commands are "
        "read without direction controls; retype it.", shown)
