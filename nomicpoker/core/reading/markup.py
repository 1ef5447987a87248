"""What a comment *shows*: the text a reader sees as the author's own, and nothing else.

A comment acts only through text its author wrote and a reader sees as the author's own. So
before the grammar reads a comment, this module renders it the way its forum does and keeps
the visible, unquoted text:

- ``markdown`` (Reddit, the local forum) is rendered by a CommonMark parser (markdown-it-py,
  with the GFM strikethrough and tables the forums render), and the HTML it produces is read
  like a blog comment. WHY a real parser: hand-written rules disagreed with the page (a quote
  inside a list item, an unclosed ``<!--``, two stray ``~~`` in different paragraphs, a lone
  ``*`` inside an amount); the parser's reading is the page's reading. Reddit's API returns
  ``>``, ``<`` and ``&`` entity-escaped; they are decoded first, as Reddit's renderer does.
- ``html`` (blog comments) is read by :func:`nomicpoker.core.reading.htmltext.html_to_text`.
- ``text`` (no markup language) is the text as typed.

In every dialect, what never acts: quotes (``>`` lines, ``<blockquote>``, ``<q>``, forum quote
boxes, ``[quote]…[/quote]``), struck-out text (``~~…~~``, ``<s>``, ``<del>``, ``[s]…[/s]``),
code spans and blocks, HTML comments and hidden elements; invisible characters (Unicode format
characters, variation selectors) are dropped before anything else.

Bounded time: a comment is read only up to :data:`MAX_CHARS` characters and only if its
Markdown is not more complex than :data:`MAX_WEIGHT` (lines and delimiter characters, which
are what the parser's time grows with); otherwise the :class:`Reading` says it was not read
exactly and the grammar answers conservatively (never acting).

Pure: no I/O.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

from nomicpoker.core.reading.htmltext import html_to_text
from nomicpoker.core.reading.invisibles import BIDI_CONTROLS, format_characters

__all__ = ["Reading", "read_visible", "visible_text", "html_to_text", "clean", "strip_forum_quotes",
           "MAX_CHARS", "MAX_WEIGHT", "MAX_LINES", "storable", "read_as", "EDITION_1"]

#: The most characters of a comment the Dealer reads (Reddit's own limit for a comment).
MAX_CHARS = 10_000
#: The most Markdown "weight" (see :func:`markdown_weight`) read exactly: about 6 ms of parsing
#: on a slow machine; an ordinary comment, even one quoting a dealer post, weighs under 100.
MAX_WEIGHT = 400

#: The most visible lines read (each line may start an action, and each costs the grammar a
#: look): far more than any comment that plays.
MAX_LINES = 500

_MD = MarkdownIt("commonmark", {"html": True}).enable(["strikethrough", "table"])

#: Characters a reader cannot see (:func:`~nomicpoker.core.reading.invisibles.format_characters`:
#: zero-width space and joiners, word joiner, BOM, soft hyphen, tag characters, variation
#: selectors), but for the bidi controls.
#:
#: The explicit bidirectional controls (:data:`BIDI_CONTROLS`: embeddings, overrides, isolates
#: and their ends): unlike the other invisible characters they are KEPT in the reading. WHY: they
#: reorder what readers see ("Trojan Source", CVE-2021-42574): ``raise \u202e02`` shows as
#: "raise 20" and would be read as 2, ``\u202eHAND1 ROUND1 fold`` shows reversed and would fold.
#: The grammar refuses an attempt on a line holding one (code ``lookalike``); chat is unaffected.
_INVISIBLE = dict.fromkeys(format_characters() - frozenset(map(ord, BIDI_CONTROLS)))
_INVISIBLE[ord("\r")] = None  # "\r\n" -> "\n"; a lone "\r" is made "\n" first


def _ranges(cps: list[int]) -> str:
    """A regex character class for the sorted code points ``cps``."""
    out, i = [], 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        out.append(f"\\U{cps[i]:08x}" + (f"-\\U{cps[j]:08x}" if j > i else ""))
        i = j + 1
    return "[" + "".join(out) + "]"


_ANY_INVISIBLE = re.compile(_ranges(sorted(_INVISIBLE)))


def _drop_invisible(text: str) -> str:
    """``text.translate(_INVISIBLE)``, skipped when there is nothing to drop. WHY: translating
    through a dict costs ~0.1 µs a character for non-ASCII text, paid twice per comment, while
    a scan for the few dozen invisible ranges is several times cheaper (issue 10's bound)."""
    if text.isascii():
        return text.replace("\r", "") if "\r" in text else text
    return text.translate(_INVISIBLE) if _ANY_INVISIBLE.search(text) else text
_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(text: str) -> str:
    """``text`` with each lone surrogate (which no database, forum or UTF-8 file can hold)
    replaced by U+FFFD; everything else as it was."""
    return _SURROGATE.sub("\ufffd", text) if isinstance(text, str) else text


def clean(body: object) -> str:
    """Any body an adapter hands over, as text: lone surrogates (which no database or forum
    can store) become U+FFFD, line ends become ``\\n``, invisible characters go."""
    text = body if isinstance(body, str) else str(body)
    text = _SURROGATE.sub("\ufffd", text)
    return _drop_invisible(text.replace("\r\n", "\n").replace("\r", "\n"))


# ---------------------------------------------------------------------------------------------
# Forum (BBCode) quotes, in one pass
# ---------------------------------------------------------------------------------------------

_BB = re.compile(r"\[(/?)(quote|s|strike|del)(?:[=\s][^\]\n]{0,200})?\]", re.IGNORECASE)
_BB_TAG = re.compile(r"\[/?(?:b|i|u|em|strong|color|size|font|url|code|spoiler|center|sup|sub)"
                     r"(?:=[^\]\n]{0,200})?\]", re.IGNORECASE)


def strip_forum_quotes(text: str) -> str:
    """Remove ``[quote]…[/quote]`` blocks (nested, with or without ``=author``; an unclosed
    ``[quote]`` hides the rest), struck-out ``[s]…[/s]`` text (an unclosed ``[s]`` is just
    text), and other BBCode tags (keeping their text). One scan: linear in the text."""
    if "[" not in text:
        return text
    hidden: list[tuple[int, int, str]] = []
    quotes: list[int] = []
    strikes: list[tuple[str, int]] = []
    for m in _BB.finditer(text):
        closing, kind = m.group(1), m.group(2).lower()
        if kind == "quote":
            if not closing:
                quotes.append(m.start())
            elif quotes:
                start = quotes.pop()
                if not quotes:
                    hidden.append((start, m.end(), "\n"))
            else:
                hidden.append((m.start(), m.end(), ""))  # a stray [/quote]
        elif not quotes:
            if not closing:
                strikes.append((kind, m.start()))
            else:
                while strikes:
                    k, start = strikes.pop()
                    if k == kind:
                        hidden.append((start, m.end(), " "))
                        break
    if quotes:
        hidden.append((quotes[0], len(text), "\n"))
    hidden.sort()
    out: list[str] = []
    pos = 0
    for a, b, repl in hidden:
        if b <= pos:
            continue
        out.append(text[pos:max(a, pos)])
        out.append(repl)
        pos = b
    out.append(text[pos:])
    return _BB_TAG.sub("", "".join(out))


# ---------------------------------------------------------------------------------------------
# Dialects
# ---------------------------------------------------------------------------------------------

_QUOTE_LINE = re.compile(r"^[ \t]{0,3}>.*$\n?", re.MULTILINE)
#: A line directly under a ``>`` line (CommonMark's lazy continuation puts it in the quote).
_LAZY = re.compile(r"^([ \t]{0,3}>[^\n]*\n)(?=[ \t]*[^\s>])", re.MULTILINE)
#: Emphasis and strike-out in dialects that do not render them (plain text, blog HTML): read
#: by CommonMark's own delimiter rules and nothing else (no escapes, code, links or HTML), so
#: ``**raise** 20`` is "raise 20" and ``~~fold~~`` is struck out as on a Markdown forum, while a
#: lone marker (``CALL *``, ``5*2``, ``IF/N=2 CALL/S * ...``) is the text the reader sees.
_MD_EMPHASIS = MarkdownIt("zero").enable(["emphasis", "strikethrough"])
_PARAGRAPH_BREAK = re.compile(r"(\n[ \t]*\n)")
#: Edition 1 of the Dealer's reading (``TableSettings.edition``) in plain text and blog HTML:
#: every ``*``, ``_`` and ``~`` run at a word's edge stripped, so ``CALL *`` reads ``CALL`` and
#: ``~~fold~~ call`` reads ``fold call``. Kept for the tables whose hands were played so.
_EDGE_EMPHASIS = re.compile(r"(?<![0-9A-Za-z])[*_~]+|[*_~]+(?![0-9A-Za-z])")
#: The suffix of a body format read as edition 1 read it (:func:`read_as`).
EDITION_1 = "@1"
_REDDIT_ENTITIES = re.compile(r"&(gt|lt|amp);")
#: A complete HTML tag (counted at C speed: ``subn`` returns how many).
_HTML_TAG = re.compile(r"<[^<>]*>")
#: One line of ASCII words and punctuation that no CommonMark rule reads (no ``*_~`[]<>&\\#|``,
#: no tab, starting with a letter, no space at either end): its rendering is ``<p>text</p>``.
_PLAIN = re.compile(r"[A-Za-z](?:[A-Za-z0-9 ,.'?()/;\"!:$%@+=-]*[A-Za-z0-9,.'?()/;\"!:$%@+=-])?")


def markdown_weight(text: str) -> float:
    """What rendering ``text`` costs, in units of about 15 µs (measured with markdown-it-py 4
    on a slow machine): each line, each ``[`` (link handling is the parser's slowest path),
    emphasis and strike delimiters, and each other character that interrupts the parser's
    plain-text run (a line of 9,000 ``=`` costs 25 ms)."""
    return (text.count("\n") + text.count("[")
            + 0.4 * (text.count("*") + text.count("_") + text.count("~"))
            + 0.25 * sum(text.count(c) for c in _TERMINATORS))


#: markdown-it's inline terminators other than those weighed above.
_TERMINATORS = "!#$%&+-:<=>@\\]^`{}"


def read_emphasis(text: str) -> str:
    """Plain text as a Markdown reader would see its emphasis: ``*``, ``_`` and ``~~`` pairs
    that CommonMark reads as emphasis are dropped (their text kept), struck-out text is dropped
    whole, every other character (a lone ``*``, ``5*2``, backslashes, backticks, ``<``) is kept
    as typed, and the lines stay as they were. WHY: one command must mean the same on every
    channel (a plain-text mail or IRC line, a blog comment, a Markdown comment); stripping every
    marker at a word's edge read ``CALL *`` as ``CALL``. Paragraphs (blank-line separated) are
    read apart, as CommonMark never pairs markers across them."""
    if "*" not in text and "_" not in text and "~" not in text:
        return text
    out: list[str] = []
    for part in _PARAGRAPH_BREAK.split(text):
        if not part.strip() or not any(c in part for c in "*_~"):
            out.append(part)
            continue
        struck = 0
        for tok in _MD_EMPHASIS.parseInline(part)[0].children or ():
            if tok.type == "s_open":
                struck += 1
            elif tok.type == "s_close":
                struck = max(0, struck - 1)
            elif tok.type == "text" and not struck:
                out.append(tok.content)
            elif tok.type in ("softbreak", "hardbreak") and not struck:
                out.append("\n")
    return "".join(out)


def read_as(body_format: str, edition: int) -> str:
    """The body format to read a comment of a hand of ``edition`` in: ``text`` and ``html``
    get :data:`EDITION_1`'s suffix below edition 2, where their emphasis was read by stripping
    the markers at a word's edge (``CALL *`` was ``CALL``, ``~~fold~~ call`` was ``fold call``).
    WHY a format, not a flag: every reader of a comment (the grammar, the advance actions, the
    players' commands, SCORE) already takes the format, so the edition reaches all of them and
    a table of the previous release replays as it was read. Markdown's reading did not change."""
    if edition < 2 and body_format in ("text", "html"):
        return body_format + EDITION_1
    return body_format


@dataclass(frozen=True)
class Reading:
    """A comment as the grammar may read it. ``complete`` is false when the comment was too
    long or too complex to read exactly (``reason`` says which): ``text`` is then empty and
    ``raw`` holds the cleaned source for a conservative scan."""

    text: str
    complete: bool = True
    reason: str = ""
    raw: str = ""


def read_visible(body: object, body_format: str = "markdown", *, lazy: bool = True) -> Reading:
    """Read a comment's visible, unquoted text (see the module docstring). Memoised for the
    last few comments: the fold reads each comment several times (the grammar, the first line
    of a private message, player commands), and a reading is a pure function of its arguments."""
    if isinstance(body, str):
        return _read_cached(body, body_format, lazy)
    return _read_visible(body, body_format, lazy=lazy)


@functools.lru_cache(maxsize=8)
def _read_cached(body: str, body_format: str, lazy: bool) -> Reading:
    return _read_visible(body, body_format, lazy=lazy)


def _read_visible(body: object, body_format: str = "markdown", *, lazy: bool = True) -> Reading:
    """Read a comment's visible, unquoted text (see the module docstring).

    ``lazy=False`` ends every Markdown quote at the end of its last ``>`` line, as if a blank
    line followed it: the grammar uses it only to tell a player that an action typed right
    under a quote was swallowed by it (CommonMark's lazy continuation)."""
    body_format, edition_1, _ = body_format.partition(EDITION_1)
    emphasis = (lambda t: _EDGE_EMPHASIS.sub("", t)) if edition_1 else read_emphasis
    raw = body if isinstance(body, str) else str(body)
    if len(raw) > MAX_CHARS and len(text := clean(raw[:2 * MAX_CHARS])) > MAX_CHARS:
        return Reading("", False, f"it is {len(raw):,} characters long and the Dealer reads at "
                       f"most {MAX_CHARS:,}", text)
    text = clean(raw)
    # BBCode tags (every dialect) and HTML tags are read one by one: past the weight bound a
    # comment is too complex to read exactly, as Markdown is (8,600 characters of "[s]" cost
    # 8 ms on the fuzz machine, 2,500 "<p>" paragraphs as much).
    if text.count("[") > MAX_WEIGHT or (body_format == "html" and "<" in text
                                        and _HTML_TAG.subn("", text)[1] > 2 * MAX_WEIGHT):
        return Reading("", False, "its formatting is too complex to read exactly "
                       f"(over {MAX_WEIGHT} lines and markup characters)", text)
    text = strip_forum_quotes(text)
    if body_format == "markdown":
        text = _REDDIT_ENTITIES.sub(lambda m: {"gt": ">", "lt": "<", "amp": "&"}[m.group(1)], text)
        plain = _PLAIN.fullmatch(text)
        # one plain line weighs at most a quarter of its length (only its terminators count)
        if (not plain or len(text) > 4 * MAX_WEIGHT) and markdown_weight(text) > MAX_WEIGHT:
            return Reading("", False, "its formatting is too complex to read exactly "
                           f"(over {MAX_WEIGHT} lines and markup characters)", text)
        if not lazy:
            text = _LAZY.sub(r"\1\n", text)
        # One line of plain words renders as one paragraph of itself: skip the parser (most
        # comments; the parser costs ~0.3 ms each, which made audit slow). Same text as the
        # parser's reading (tests/unit/reading/test_markup_fast_path.py cross-checks the two).
        text = f"\n{text}\n\n" if plain else html_to_text(_MD.render(text))
    elif body_format == "html":
        text = emphasis(html_to_text(text))
    else:
        text = emphasis(text)
    # Text typed as "> ..." that no renderer made a quote (a blog comment, an escaped "\>")
    # looks like one to a reader: it does not act either.
    text = _QUOTE_LINE.sub("", text)
    if text.count("\n") > MAX_LINES:
        return Reading("", False, f"it shows more than {MAX_LINES} lines", text)
    return Reading(_drop_invisible(text).replace("\xa0", " "))


def table_talk(body: object, body_format: str) -> tuple[str, ...]:
    """The table talk a plain-text message carries: its quoted lines (the e-mail adapter
    archives a WRGPT mail's ``TALK`` lines as a quotation under the command, having dropped the
    quoted reply text; a quotation never acts). Other dialects carry none: their comments are
    the talk, in the thread for all to read."""
    if body_format != "text" or not isinstance(body, str) or ">" not in body:
        return ()
    return tuple(ln[1:].removeprefix(" ").rstrip() for ln in clean(body).split("\n") if ln.startswith(">"))


def visible_text(body: object, body_format: str = "markdown", *, lazy: bool = True) -> str:
    """The visible, unquoted text of a comment (empty when it is too long or too complex to
    read exactly: see :func:`read_visible`)."""
    return read_visible(body, body_format, lazy=lazy).text
