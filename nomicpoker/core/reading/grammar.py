"""The comment grammar: what a player's comment asks the Dealer to do.

The enacted rule asks for comments "in substantially the form" ``HANDx ROUNDy raise Z``,
``HANDx ROUNDy folds``, ``HANDx ROUNDy check``, ``HAND#X DICE52 DICE52``, the draw statement
``Spikebrennan cards 14, 26, Cards printed by: J. J. Grimes Printing, Elko`` and reveals. This
module turns one comment into exactly one of

- :class:`Intent` — a well-formed action (the engine then decides whether it is *legal*),
- :class:`GrammarError` — something that is plainly an attempt but not well formed, with a
  stable ``code`` and a message saying what was expected, so the Dealer can reply,
- :class:`NoAction` — ordinary chat.

Where an action may appear (the rule players can predict; docs/comment-grammar.md says it
for players):

1. Only visible, unquoted text acts (:func:`nomicpoker.core.reading.markup.visible_text`).
2. A *HAND tag* (``HAND3``, ``Hand #3``, ``HAND#3``, ``hand 3``) anywhere on a line starts an
   attempt **if** it is followed (after spaces and punctuation) by a ROUND tag, an action word
   or a DICE roll. A HAND tag followed by anything else is chat ("hand 3 was fun"). Once a
   ROUND tag is seen, whatever follows must be an action, else it is an error.
3. The statement ends where the action is complete. What follows on the line is chat, unless
   the very next word is a number or an action word ("raise 20 30", "raise 20 fold"): then the
   action is garbled and rejected rather than guessed.
4. Without a HAND tag only two things act: the draw statement (recognised by
   ``Cards printed by``) and a line that is nothing but a reveal (``reveal 7h 2s``, or at least
   two cards alone on their line: ``7♥ 2♠``). Words like "fold" or "call" in chat never act.
5. One comment, one action. The same action repeated (say in the text and again in a
   signature) counts once; two different actions are rejected as ``ambiguous``; if any attempt
   in the comment is malformed, the comment is rejected with that attempt's error.

Look-alike letters (``rаise`` with a Cyrillic ``а``) are recognised through a skeleton and
rejected with code ``lookalike`` naming the character (:mod:`nomicpoker.core.reading.lookalike`).

The values it returns (:class:`Intent` and friends), their canonical spelling and their
engine events live in :mod:`nomicpoker.core.reading.intents`; they are re-exported here, so callers need
only this module.

Pure: no I/O, no clock.
"""

from __future__ import annotations

import bisect
from itertools import islice
import re
import unicodedata
from dataclasses import replace

from nomicpoker.core.poker.cards import CardError, parse_card
from nomicpoker.core.reading.intents import FORMS, GrammarError, Intent, NoAction, Result, canonical, to_action
from nomicpoker.core.reading.lookalike import Skeleton, ascii_view, describe_char, orig_span, skeleton
from nomicpoker.core.reading.markup import Reading, read_visible, visible_text

__all__ = [
    "Intent", "GrammarError", "NoAction", "Result", "parse_comment", "canonical", "to_action",
    "visible_text", "FORMS",
]

_ANY_ACTION = ('one of "HANDx ROUNDy raise Z", "HANDx ROUNDy call", "HANDx ROUNDy check", '
               '"HANDx ROUNDy folds", "HANDx ROUNDy all in", "HAND#X DICE52 DICE52", '
               '"HANDx reveal 7h 2s"')

_MAX_DIGITS = 12  # larger numbers are nonsense (and int() of huge strings is slow or refused)

from nomicpoker.core.reading.grammar_lex import _near
from nomicpoker.core.reading.grammar_lex import (  # the parser's vocabulary
    _ALL_IN_AMOUNT, _ALL_IN_TAIL, _AMOUNT, _AMOUNT_CLOSE, _AMOUNT_LEAD, _CARD, _CARDLIKE,
    _CARDLIKE_START, _CARD_SEP, _DICE, _DICE_LINE, _DRAW_CARDS, _GLUED_TOKEN, _HAND,
    _LOOSE_HAND, _NEAR_MISS, _NUMBERISH, _NUMBER_WORDS, _POSITIONS, _PRINTED, _PRINTED_LEAD,
    _REST_EMPTY, _REVEAL_LINE_LEAD, _ROUND, _ROUND_TAG, _SEP, _SPACES, _TAIL_LEAD, _TOKEN,
    _UNIT, _UWORD, _VERBS, _WORD,
    _ALTERNATIVES, _BARE_TRIGGER, _BIDI, _CONDITION, _MAY_ACT_ALONE, _NEWLINE, _TRIGGER,
    bidi_refusal,
)
from nomicpoker.core.reading.grammar_lex import _may_start  # noqa: F401 (the chat fast path; tests swap it)


class _Reject(Exception):
    def __init__(self, code: str, message: str, start: int, end: int):
        super().__init__(message)
        self.code, self.message, self.start, self.end = code, message, start, end


def _number(digits: str, start: int, end: int, what: str) -> int:
    if len(digits) > _MAX_DIGITS:
        raise _Reject("bad_amount", f"{what} {digits[:20]}... is too large to be a number of "
                      f"chips or a hand.", start, end)
    return int(digits)


# ---------------------------------------------------------------------------------------------
# The parser (cursor-based over the skeleton)
# ---------------------------------------------------------------------------------------------

class _Parser:
    def __init__(self, sk: Skeleton):
        self.sk = sk
        self.s = sk.text
        self.newlines = [m.start() for m in _NEWLINE.finditer(self.s)]

    def frag(self, start: int, end: int) -> str:
        a, b = orig_span(self.sk, start, end)
        return self.sk.visible[a:b].strip()

    def line_end(self, pos: int) -> int:
        i = bisect.bisect_left(self.newlines, pos)
        return self.newlines[i] if i < len(self.newlines) else len(self.s)

    def rest_is_empty(self, pos: int) -> bool:
        """Only spaces and closing ``.``/``!`` from ``pos`` to the end of the line?"""
        return bool(_REST_EMPTY.match(self.s, pos))

    def next_word(self, pos: int) -> tuple[str, int, int] | None:
        p = _SPACES.match(self.s, pos).end()
        m = _TOKEN.match(self.s, p)
        if not m or m.start() >= self.line_end(pos):
            return None
        return m.group(0), m.start(), m.end()

    # -- tail rule --------------------------------------------------------------------------
    def check_tail(self, start: int, end: int, kind: str) -> None:
        """After a complete action the line is chat, unless the next word shows the action was
        garbled or conditional: a number or an action word directly after it, or after a
        connective (``check/fold``, ``check or fold``, ``raise 20 then call``)."""
        c = _CONDITION.match(self.s, end)
        if c:
            raise _Reject("unparseable", f'"{self.frag(start, c.end())}": a condition after the action. '
                          "The Dealer does not take conditional orders: post the action alone, then a "
                          "full stop or a new line before any chat.", start, c.end())
        p = _TAIL_LEAD.match(self.s, end).end()
        m = _WORD.match(self.s, p) or _NUMBERISH.match(self.s, p)
        if not m:
            return
        w = m.group(0)
        lw = w.lower()
        if lw[0].isdigit() or lw in _VERBS or lw in _NEAR_MISS or lw in _NUMBER_WORDS:
            two = lw in _VERBS or (lw == "all" and _ALL_IN_TAIL.match(self.s, m.end()))
            if two:
                raise _Reject(
                    "ambiguous", f'"{self.frag(start, m.end())}" makes two actions in one comment '
                    f'("{self.frag(start, end)}" and "{self.frag(m.start(), m.end())}"). Post exactly '
                    "one action per comment: the Dealer does not take conditional orders.",
                    start, m.end())
            raise _Reject(
                "unparseable",
                f'"{self.frag(start, m.end())}": unexpected "{self.frag(m.start(), m.end())}" '
                f"after the action. Expected {FORMS[kind]}, then a full stop or a new line "
                "before any chat.", start, m.end())

    # -- pieces ---------------------------------------------------------------------------
    def amount(self, start: int, pos: int, kind: str, required: bool) -> tuple[int | None, int]:
        p = _AMOUNT_LEAD.match(self.s, pos).end()
        m = _AMOUNT.match(self.s, p)
        if not m:
            if required:
                nw = self.next_word(pos)
                shown = self.frag(start, nw[2] if nw else pos)
                if nw and nw[0].lower() in ("to", "by"):
                    raise _Reject("bad_amount", f'Expected {FORMS[kind]}; "{shown}" is not that '
                                  f'form: write "raise Z" where Z is the amount of the Raise.',
                                  start, nw[2])
                raise _Reject("bad_amount", f'Expected {FORMS[kind]}; "{shown}" has no amount.',
                              start, nw[2] if nw else pos)
            return None, pos
        shown = self.frag(start, m.end())
        if m.group("neg"):
            raise _Reject("bad_amount", f'Expected {FORMS[kind]}; "{shown}" is negative: the '
                          "amount must be a whole number of chips, 1 or more.", start, m.end())
        if m.group("frac"):
            raise _Reject("bad_amount", f'Expected {FORMS[kind]}; "{shown}" is not a whole '
                          "number: chips do not split.", start, m.end())
        value = _number(m.group("num").replace(",", ""), start, m.end(), "The amount")
        end = m.end()
        u = _UNIT.match(self.s, end)
        if u is not None:
            end = u.end()
        if not _AMOUNT_CLOSE.match(self.s, end):
            # "raise 5k", "raise 1e3", "raise 10½", "raise 1'000", "raise 5*2": taking the
            # leading digits would be a guess
            glued = _GLUED_TOKEN.match(self.s, end).end()
            raise _Reject("bad_amount", f'Expected {FORMS[kind]}; "{self.frag(start, glued)}" is not '
                          "a whole number of chips: write the amount in digits alone, followed by a "
                          "space or the end of the action.", start, glued)
        if kind == "raise" and value < 1:
            raise _Reject("bad_amount", f'Expected {FORMS[kind]}; "{shown}": a raise must be at '
                          "least 1 chip.", start, m.end())
        return value, end

    def cards(self, start: int, pos: int) -> tuple[tuple[str, ...], int]:
        """Scan a card list from ``pos``; stop at the first word that is not a card. A word
        that looks like a card but is not one (``2x``, ``11h``, ``7 of hoarts``) is a
        ``bad_card`` error naming it."""
        found: list[str] = []
        p = pos
        end = pos
        le = self.line_end(pos)
        while True:
            q = _CARD_SEP.match(self.s, p).end() if found else _SPACES.match(self.s, p).end()
            m = _CARD.match(self.s, q)
            if m and m.start() < le:
                tok = self.frag(m.start(), m.end())
                if len(found) >= _MAX_CARDS:
                    raise _Reject("bad_card", f"More than {_MAX_CARDS} cards in one reveal. Expected "
                                  f"{FORMS['reveal']}.", start, m.end())
                try:
                    found.append(parse_card(re.sub(r"\s+", " ", m.group(0))))
                except CardError as e:
                    raise _Reject("bad_card", f'"{tok}" is not a card: {e.reason}. Expected '
                                  f"{FORMS['reveal']}.", start, m.end()) from None
                p = end = m.end()
                continue
            t = _TOKEN.match(self.s, q)
            if t and t.start() < le:
                tok = t.group(0).rstrip(".!?)\"'")
                if tok and _CARDLIKE.match(tok):
                    raise _Reject("bad_card", f'"{self.frag(t.start(), t.start() + len(tok))}" '
                                  f"is not a card. Expected {FORMS['reveal']}.", start, t.end())
            return tuple(found), end

    def draw(self, start: int, pos: int, hand: int | None, rnd: int | None) -> tuple[Intent, int]:
        m = _POSITIONS.match(self.s, pos)
        if not m:
            raise _Reject("unparseable", f'"{self.frag(start, self.line_end(pos))}" names no deck '
                          f"positions. Expected {FORMS['draw']}.", start, self.line_end(pos))
        positions = tuple(_number(d, start, m.end(), "The position")
                          for d in re.findall(r"[0-9]+", m.group("list")))
        lead = _PRINTED_LEAD.match(self.s, m.end())
        if not lead:
            raise _Reject("unparseable", f'"{self.frag(start, self.line_end(pos))}" has no '
                          f'"Cards printed by:" checksum. Expected {FORMS["draw"]}.',
                          start, self.line_end(pos))
        end = self.line_end(pos)
        a, b = orig_span(self.sk, lead.end(), end)
        checksum = " ".join(self.sk.visible[a:b].split()).strip(" \t.,;:!?\"'“”‘’)").strip()
        if not checksum:
            raise _Reject("unparseable", f'"{self.frag(start, end)}" has an empty "Cards printed '
                          f'by:" checksum. Expected {FORMS["draw"]}.', start, end)
        return Intent("draw", hand=hand, round=rnd, positions=positions, checksum=checksum), end

    # -- a HAND-tagged statement ----------------------------------------------------------
    def tagged(self, m: re.Match[str]) -> tuple[Intent | None, int]:
        """Parse the statement a HAND tag starts. ``(None, _)`` when it is chat.

        A *loose* tag ("hand 3": a space and no ``#``) is ordinary English ("in hand 3, call
        me crazy"), so without a ROUND tag it only starts an attempt before a DICE roll."""
        start = m.start()
        hand = _number(m.group(1), start, m.end(), "The hand number")
        loose = bool(_LOOSE_HAND.match(m.group(0)))
        pos = _SEP.match(self.s, m.end()).end()
        rnd: int | None = None
        r = _ROUND.match(self.s, pos)
        if r:
            rnd = _number(r.group(1), start, r.end(), "The round number")
            pos = _SEP.match(self.s, r.end()).end()
        committed = rnd is not None
        if loose and not committed and not _DICE.match(self.s, pos):
            return None, pos
        res, end = self.statement(start, pos, hand, rnd)
        if res is None and not loose:
            # "HAND1 I raise 10", "HAND1 RUND1 raise 10": a tag written as a tag, then an
            # action word close behind: an attempt in the wrong shape, answered, not ignored.
            le = self.line_end(pos)
            words = list(islice(_WORD.finditer(self.s, pos, le), 3))
            verb = next((w for w in words if _VERBS.get(w.group(0).lower()) in
                         ("fold", "check", "call", "raise", "all_in")), None)
            if verb is not None:
                raise _Reject("unparseable", f'"{self.frag(start, verb.end())}" is not in the form '
                              f"of an action. Expected {_ANY_ACTION}.", start, verb.end())
        return res, end

    def bare(self, ls: int, le: int) -> tuple[Intent | None, int]:
        """Under a ruleset whose actions need not name their hand and round: a line that is
        nothing but a betting action (``call``, ``raise 4``, ``I fold.``) acts."""
        p = _SPACES.match(self.s, ls).end()
        if self.s[p:p + 2].lower() == "i ":
            p = _SPACES.match(self.s, p + 2).end()
        w = _WORD.match(self.s, p, le)
        word = w.group(0).lower() if w else ""
        if _VERBS.get(word) not in ("fold", "check", "call", "raise", "all_in") and not (
                word == "all" and _ALL_IN_TAIL.match(self.s, w.end())):  # type: ignore[union-attr]
            return None, ls
        res, end = self.statement(p, p, None, None)
        if res is None or not self.rest_is_empty(end):
            return None, ls
        return res, end

    def round_only(self, m: re.Match[str]) -> tuple[Intent | None, int]:
        """``ROUND1 raise 20`` with the HAND tag forgotten: read it (hand ``None``) so the
        engine can reject it quoting the rule, but only before a recognised betting word."""
        w = _WORD.match(self.s, _SEP.match(self.s, m.end()).end())
        word = w.group(0).lower() if w else ""
        if _VERBS.get(word) not in ("fold", "check", "call", "raise", "all_in") and not (
                word == "all" and _ALL_IN_TAIL.match(self.s, w.end())):  # type: ignore[union-attr]
            return None, m.end()
        rnd = _number(m.group(1), m.start(), m.end(), "The round number")
        return self.statement(m.start(), _SEP.match(self.s, m.end()).end(), None, rnd)

    def statement(self, start: int, pos: int, hand: int | None, rnd: int | None
                  ) -> tuple[Intent | None, int]:
        """The action after the tags, from ``pos``. Once a ROUND tag was given (``rnd``), what
        follows must be an action; otherwise an unknown word means the tag was chat."""
        committed = rnd is not None

        if _DICE.match(self.s, pos):
            sides: list[int] = []
            end = pos
            while (d := _DICE.match(self.s, pos)):
                n = _number(d.group(1), start, d.end(), "The die size")
                if n < 2:
                    raise _Reject("unparseable", f'"{self.frag(start, d.end())}": a die needs at '
                                  f"least 2 sides. Expected {FORMS['dice']}.", start, d.end())
                sides.append(n)
                end = d.end()
                pos = _SEP.match(self.s, end).end()
                if self.s.find("\n", end, pos) >= 0:
                    break
            return Intent("dice", hand=hand, round=rnd, dice=tuple(sides)), end

        w = _UWORD.match(self.s, pos)
        if not w or w.start() >= self.line_end(start):
            if committed:
                raise _Reject("unparseable", f'"{self.frag(start, pos)}" names no action. '
                              f"Expected {_ANY_ACTION}.", start, pos)
            return self.bare_reveal(start, pos, hand) if hand is not None else (None, pos)
        word = w.group(0).lower()
        kind = _VERBS.get(word)
        end = w.end()
        if word == "all":
            t = _ALL_IN_TAIL.match(self.s, end)
            if t:
                kind, end = "all_in", t.end()
        if kind is None:
            guess = _near(word)
            if committed or guess or word in _NEAR_MISS:
                hint = f' Did you mean "{guess}"?' if guess else ""
                raise _Reject("unparseable", f'"{self.frag(start, w.end())}": "{w.group(0)}" is '
                              f"not an action of this game.{hint} Expected {_ANY_ACTION}.",
                              start, w.end())
            return self.bare_reveal(start, pos, hand) if hand is not None else (None, pos)

        intent: Intent
        if kind == "all_in" and _ALL_IN_AMOUNT.match(self.s, end):
            amount, end = self.amount(start, _ALL_IN_AMOUNT.match(self.s, end).end(), kind, True)
            intent = Intent(kind, hand=hand, round=rnd, amount=amount)
        elif kind in ("fold", "check", "all_in"):
            intent = Intent(kind, hand=hand, round=rnd)  # type: ignore[arg-type]
        elif kind in ("raise", "call"):
            amount, end = self.amount(start, end, kind, required=(kind == "raise"))
            intent = Intent(kind, hand=hand, round=rnd, amount=amount)  # type: ignore[arg-type]
        elif kind == "reveal":
            p = _SPACES.match(self.s, end).end()
            p = p + 1 if p < len(self.s) and self.s[p] in ":-" else p
            cards, cend = self.cards(start, p)
            if not cards:
                nw = self.next_word(p)
                what = f'"{self.frag(nw[1], nw[2])}" is not a card' if nw else "no cards follow"
                raise _Reject("bad_card", f'"{self.frag(start, nw[2] if nw else end)}": {what}. '
                              f"Expected {FORMS['reveal']}.", start, nw[2] if nw else end)
            intent, end = Intent("reveal", hand=hand, round=rnd, cards=cards), cend
        else:  # draw
            return self.draw(start, end, hand, rnd)
        self.check_tail(start, end, kind)
        return intent, end

    def bare_reveal(self, start: int, pos: int, hand: int) -> tuple[Intent | None, int]:
        """``HAND3 7♥ 2♠``: a HAND tag followed by nothing but cards on its line."""
        try:
            cards, end = self.cards(start, pos)
        except _Reject:
            return None, pos
        if cards and self.rest_is_empty(end):
            return Intent("reveal", hand=hand, cards=cards), end
        return None, pos

    def reveal_line(self, ls: int, le: int) -> tuple[Intent | None, int]:
        """A line that is only a reveal: ``reveal 7h 2s`` or two or more cards alone."""
        lead = _REVEAL_LINE_LEAD.match(self.s, ls, le)
        if not lead:
            return None, ls
        has_verb = bool(lead.group("verb"))
        try:
            cards, end = self.cards(ls, lead.end())
        except _Reject:
            # "reveal 7h 2x" is a failed reveal; "reveal 3 secrets" is chat.
            first = _SPACES.match(self.s, lead.end()).end()
            if has_verb and "card" not in lead.group("verb").lower() and (
                    _CARD.match(self.s, first) or _CARDLIKE_START.match(self.s, first)):
                raise
            return None, ls
        if not cards or not self.rest_is_empty(end):
            return None, ls
        if not has_verb and len(cards) < 2:
            return None, ls
        return Intent("reveal", cards=cards), end


# ---------------------------------------------------------------------------------------------
# Public API
# ---------------------------------------------------------------------------------------------

def _strip_text(i: Intent) -> Intent:
    return replace(i, text="")


def parse_comment(body: str, body_format: str = "markdown", *, bare: bool = False) -> Result:
    """Read one comment: an :class:`Intent`, a :class:`GrammarError`, or :class:`NoAction`.

    Never raises on any text, and costs a few milliseconds at most whatever it holds (see
    :mod:`nomicpoker.core.reading.markup` for the bounds). See the module docstring for where an action
    may appear.

    WHY the second reading: in Markdown a line typed right under a ``>`` line belongs to the
    quote (CommonMark's lazy continuation), so an action there never acts. A player who meant
    it would otherwise hear nothing; if that line alone would have been an action, the
    comment is rejected saying so (it still does not act).

    ``bare``: the ruleset lets an action leave out its hand and round (``roberts-nlhe``), so a
    line that is nothing but a betting action (``call``, ``raise 4``) acts.
    """
    reading = read_visible(body, body_format)
    if not reading.complete:
        return _unread(reading, bare)
    res = _parse_visible(reading.text, bare)
    if isinstance(res, NoAction) and body_format == "markdown" and (">" in body or "&gt;" in body):
        strict = _parse_visible(visible_text(body, body_format, lazy=False), bare)
        if isinstance(strict, Intent):
            return GrammarError(
                "unparseable", f'"{strict.text}" is part of the quote above it (in Markdown a line '
                'right after a ">" line belongs to the quote), so it does not act. To act, leave a '
                "blank line after the quote and post the action again.", strict.text)
    return res


def _unread(reading: Reading, bare: bool = False) -> Result:
    """A comment too long or too complex to read exactly never acts. If it could hold an
    attempt, the player is told why nothing happened; otherwise it is chat."""
    view = ascii_view(reading.raw)
    if not _TRIGGER.search(view) and not (bare and _BARE_TRIGGER.search(view)):
        return NoAction()
    return GrammarError("unparseable", f"This comment was not read: {reading.reason}. Nothing in "
                        "it acts; post your action in a short comment of its own.")


def _parse_visible(visible: str, bare: bool = False) -> Result:
    """:func:`parse_comment` on text already reduced to what can act.

    WHY the alternative readings: Unicode maps ``ӏ`` (Cyrillic palochka) to ``i``, but a player
    reading ``fоӏd`` sees "fold". When nothing acts and the text holds a look-alike of one of
    the letters that look alike even in plain Latin (``l I 1``, ``O 0``), it is read again with
    each of them; an attempt found so is still a ``lookalike`` rejection, never an action."""
    vis = unicodedata.normalize("NFC", visible)
    sk = skeleton(vis)
    res = _parse_skeleton(sk, vis, bare)
    # An untagged action may sit after a look-alike HAND tag ("HAND\u0661 ROUND1 fold" shows
    # "HAND1" to a reader but its "\u0661" maps to "l"): it gets the same second readings.
    untagged = isinstance(res, Intent) and res.hand is None and bool(res.subject)
    if not (isinstance(res, NoAction) or untagged) or not sk.runs:
        return res
    spots = sk.ambiguous_spots()
    if not spots:
        return res
    for alt in _ALTERNATIVES:
        chars = list(sk.text)
        for j in spots:
            chars[j] = alt.get(chars[j], chars[j])
        other = _parse_skeleton(replace(sk, text="".join(chars)), vis, bare)
        if isinstance(other, GrammarError) and other.code == "lookalike":
            return other
    return res


#: Bounds on the work one comment may cost: the most cards in one reveal, the most places an
#: attempt may start (tags, draw statements, lines), the most attempts found. One comment is
#: one action; a comment past these bounds is not a play, and is answered as such.
_MAX_CARDS = 8
_MAX_TRIES = 64
_MAX_FOUND = 16


class _TooMany(Exception):
    pass


def _parse_skeleton(sk: Skeleton, vis: str, bare: bool = False) -> Result:
    if not _may_start(sk.text):
        return NoAction()  # what _parse_bounded would answer: it would find no place to try
    try:
        return _parse_bounded(sk, vis, bare)
    except _TooMany:
        return GrammarError("unparseable", "This comment holds too many HAND or ROUND tags, lines "
                            "of cards or attempts at an action to be a play (at most "
                            f"{_MAX_TRIES} places and {_MAX_FOUND} attempts are read). Post exactly "
                            "one action per comment.")


def _parse_bounded(sk: Skeleton, vis: str, bare: bool) -> Result:
    s = sk.text
    p = _Parser(sk)
    found: list[tuple[int, int, Intent | GrammarError]] = []
    covered: list[tuple[int, int]] = []  # spans already read, sorted by start

    def record(start: int, end: int, res: Intent | GrammarError) -> None:
        a, b = orig_span(sk, start, end)
        if isinstance(res, Intent):
            res = replace(res, text=vis[a:b].strip(), subject=vis[vis.rfind("\n", 0, a) + 1:a].strip())
        line_end = vis.find("\n", max(a, b - 1))
        bidi = _BIDI.search(vis, vis.rfind("\n", 0, a) + 1, len(vis) if line_end < 0 else line_end)
        bad = sk.first_flagged(a, b)
        if bidi is not None:
            res = bidi_refusal(vis[a:b], bidi.group())
        elif bad is not None:
            ch = vis[bad]
            res = GrammarError(
                "lookalike",
                f'"{vis[a:b].strip()}" contains {describe_char(ch)}, which only looks like a plain '
                "letter or digit. Commands are read in plain Latin letters and digits only; "
                "retype it.", vis[a:b].strip())
        found.append((start, end, res))
        if len(found) > _MAX_FOUND:
            raise _TooMany
        bisect.insort(covered, (start, max(end, start + 1)))

    def overlaps(a: int, b: int) -> bool:
        """Does [a, b) meet a span already read? (Spans do not overlap one another, so the
        last span starting before ``b`` is the only candidate.)"""
        i = bisect.bisect_left(covered, (b, -1)) - 1
        return i >= 0 and covered[i][1] > a

    def is_covered(i: int) -> bool:
        return overlaps(i, i + 1)

    tries = [0]

    def attempt(start: int, fn) -> None:  # type: ignore[no-untyped-def]
        tries[0] += 1
        if tries[0] > _MAX_TRIES:
            raise _TooMany
        try:
            res, end = fn()
        except _Reject as r:
            record(r.start, r.end, GrammarError(r.code, r.message, p.frag(r.start, r.end)))
            return
        if res is not None:
            record(start, end, res)

    # 1. HAND-tagged statements, left to right.
    for m in _HAND.finditer(s):
        if not is_covered(m.start()):
            attempt(m.start(), lambda m=m: p.tagged(m))
    # 1b. A ROUND tag without a HAND tag before a betting word ("ROUND1 raise 20").
    for m in _ROUND_TAG.finditer(s):
        if not is_covered(m.start()):
            attempt(m.start(), lambda m=m: p.round_only(m))
    # 2. Untagged draw statements ("... cards 14, 26, Cards printed by: ...").
    for m in _PRINTED.finditer(s):
        if is_covered(m.start()):
            continue
        ls = s.rfind("\n", 0, m.start()) + 1
        c = next((c for c in _DRAW_CARDS.finditer(s, ls, m.start()) if not is_covered(c.start())),
                 None)
        if c is None:
            c_start = m.start()
            attempt(c_start, lambda c_start=c_start: p.draw(c_start, c_start, None, None))
        else:
            attempt(c.start(), lambda c=c: p.draw(c.start(), c.end(), None, None))
    # 3. Lines that are only a reveal; DICE rolls without a HAND tag.
    pos = 0
    while pos <= len(s):
        le = p.line_end(pos)
        if (not overlaps(pos, max(le, pos + 1)) and not p.rest_is_empty(pos)
                and _MAY_ACT_ALONE.search(s, pos, le)):
            attempt(pos, lambda pos=pos, le=le: p.reveal_line(pos, le))
            if bare and not overlaps(pos, max(le, pos + 1)):
                attempt(pos, lambda pos=pos, le=le: p.bare(pos, le))
        pos = le + 1
    for m in _DICE_LINE.finditer(s):
        if not is_covered(m.start("dice")):
            record(m.start("dice"), m.end("dice"), GrammarError(
                "unparseable", f'"{p.frag(m.start("dice"), m.end("dice"))}" has no HAND tag. Expected '
                f"{FORMS['dice']}.", p.frag(m.start("dice"), m.end("dice"))))

    found.sort(key=lambda t: t[0])
    errors = [r for _, _, r in found if isinstance(r, GrammarError)]
    if errors:
        return errors[0]
    intents = [r for _, _, r in found if isinstance(r, Intent)]
    if not intents:
        return NoAction()
    distinct: list[Intent] = []
    for i in intents:
        if all(_strip_text(i) != _strip_text(d) for d in distinct):
            distinct.append(i)
    if len(distinct) > 1:
        listed = " and ".join(f'"{canonical(d)}"' for d in distinct[:3])
        return GrammarError(
            "ambiguous", f"This comment makes {len(distinct)} different actions: {listed}. "
            "Post exactly one action per comment.", "\n".join(d.text for d in distinct))
    return intents[0]
