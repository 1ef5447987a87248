"""What a comment *shows*: quotes removed, markup stripped, invisible characters dropped.

A comment acts only through text its author wrote and a reader sees as the author's own. So
before the grammar reads a comment, this module removes

- quoted text: Markdown ``>`` lines (nested ``>>`` too, and in Markdown the "lazy" lines that
  continue a quote paragraph, because the page renders them inside the quote), HTML
  ``<blockquote>`` and ``<q>``, elements whose class names a quote (forum quote boxes), and
  forum quote markup ``[quote]...[/quote]`` (nested, with or without ``=author``). A player who
  quotes another player's action must never act for them;
- hidden text (HTML comments, ``hidden`` elements, ``display: none``): nobody else can see it;
- struck-out text (``~~...~~``, ``<s>``, ``<del>``, ``<strike>``, ``[s]...[/s]``): a player who
  strikes an action out has withdrawn it in front of everybody;
- presentation: emphasis (``**``, ``__``, ``*``, ``_``, backticks, ``<b>``, ``<strong>``, ``<em>``
  ...), links (their text stays, the address goes), images, headings' ``#`` markers, Markdown
  escapes and HTML entities;
- invisible characters (Unicode format characters such as zero-width spaces and joiners, bidi
  controls, soft hyphens, and variation selectors): they change nothing a reader sees, so they
  must change nothing the dealer reads. Removing them also means they cannot hide a look-alike
  letter from the grammar's check.

Everything here is a pure function of the text (stdlib ``html.parser`` only).
"""

from __future__ import annotations

import re
import unicodedata
from html.parser import HTMLParser
from typing import Literal

BodyFormat = Literal["markdown", "html", "text"]

#: HTML elements whose whole content is not the author's own action.
_SKIP_TAGS = frozenset({"blockquote", "q", "del", "s", "strike", "script", "style", "head", "title",
                        "template", "noscript"})
#: Elements that break a line (so two paragraphs never run together into one statement).
_BLOCK_TAGS = frozenset({"p", "div", "br", "li", "ul", "ol", "tr", "td", "th", "table", "h1", "h2",
                         "h3", "h4", "h5", "h6", "pre", "hr", "section", "article", "header",
                         "footer", "dd", "dt", "dl", "center"})
_VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "area", "base", "col",
                        "embed", "param", "source", "track", "wbr"})


class _TextExtractor(HTMLParser):
    """Collects visible text, skipping quoted and struck-out elements (and anything nested in
    them). An unclosed ``<blockquote>`` hides the rest of the comment: when in doubt, quoted
    text does not act."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.skip: list[str] = []  # stack of open tags since the first skipped element

    def _is_skipped(self, tag: str, attrs: list[tuple[str, str | None]]) -> bool:
        if tag in _SKIP_TAGS:
            return True
        a = {k: (v or "") for k, v in attrs}
        if "hidden" in a or re.search(r"display\s*:\s*none|visibility\s*:\s*hidden",
                                      a.get("style", ""), re.IGNORECASE):
            return True  # text nobody can see cannot act
        return "quote" in a.get("class", "").lower()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.skip:
            if tag not in _VOID_TAGS:
                self.skip.append(tag)
            return
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")
        if tag not in _VOID_TAGS and self._is_skipped(tag, attrs):
            self.skip.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if not self.skip and tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_endtag(self, tag: str) -> None:
        if self.skip:
            if tag in self.skip:
                # Close up to the matching open tag (tolerates sloppy nesting).
                while self.skip and self.skip.pop() != tag:
                    pass
            return
        if tag in _BLOCK_TAGS:
            self.parts.append("\n")

    def handle_data(self, data: str) -> None:
        if not self.skip:
            self.parts.append(data)


def html_to_text(html: str) -> str:
    """Visible text of an HTML fragment, quotes and struck-out text removed, blocks on lines."""
    p = _TextExtractor()
    try:
        p.feed(html)
        p.close()
    except Exception:  # html.parser is lenient, but never let odd markup crash a poll run
        return re.sub(r"<[^>]*>", " ", html)
    return "".join(p.parts)


_BB_QUOTE = re.compile(r"\[quote(?:[=\s][^\]]*)?\](?:(?!\[quote[=\s\]]).)*?\[/quote\]",
                       re.IGNORECASE | re.DOTALL)
_BB_QUOTE_OPEN = re.compile(r"\[quote(?:[=\s][^\]]*)?\].*", re.IGNORECASE | re.DOTALL)
_BB_STRIKE = re.compile(r"\[(s|strike|del)\].*?\[/\1\]", re.IGNORECASE | re.DOTALL)
_BB_TAG = re.compile(r"\[/?(?:b|i|u|em|strong|color|size|font|url|code|spoiler|center|sup|sub)"
                     r"(?:=[^\]]*)?\]", re.IGNORECASE)


def strip_forum_quotes(text: str) -> str:
    """Remove ``[quote]...[/quote]`` blocks (innermost first, so nesting works; an unclosed
    ``[quote]`` hides the rest), struck-out ``[s]`` text, and other BBCode tags (keeping text)."""
    prev = None
    for _ in range(20):  # deeper nesting than this is abuse: the open-quote rule hides the rest
        if prev == text:
            break
        prev = text
        text = _BB_QUOTE.sub("\n", text)
    text = _BB_QUOTE_OPEN.sub("\n", text)
    text = _BB_STRIKE.sub(" ", text)
    return _BB_TAG.sub("", text)


#: ``&gt;`` too: Reddit's API returns Markdown bodies with ``>`` entity-escaped.
_QUOTE_LINE = re.compile(r"^[ \t]{0,3}(?:>|&gt;|&#62;|&#x3e;)", re.IGNORECASE)


def strip_quote_lines(text: str, lazy: bool) -> str:
    """Drop lines starting with ``>`` (any depth). With ``lazy`` (Markdown), also drop the
    non-blank lines that directly follow a quote line: CommonMark renders them as part of the
    quote paragraph, so a reader sees them as quoted."""
    out: list[str] = []
    in_quote = False
    for line in text.split("\n"):
        if _QUOTE_LINE.match(line):
            in_quote = True
            continue
        if in_quote and lazy and line.strip():
            continue
        in_quote = False
        out.append(line)
    return "\n".join(out)


_MD_IMAGE = re.compile(r"!\[[^\]\n]*\]\([^)\n]*\)")
_MD_LINK = re.compile(r"\[([^\]\n]*)\]\([^)\n]*\)")
_MD_REF_LINK = re.compile(r"\[([^\]\n]*)\]\[[^\]\n]*\]")
_MD_STRIKE = re.compile(r"~~.*?~~", re.DOTALL)
_MD_HEADING = re.compile(r"^[ \t]{0,3}#{1,6}[ \t]+", re.MULTILINE)
_MD_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")
_EMPHASIS = re.compile(r"[*_`]+")


def strip_markdown_inline(text: str) -> str:
    """Remove Markdown presentation, keeping the words: links keep their text, images go,
    ``~~struck~~`` text goes, emphasis markers and backticks go, heading markers go."""
    text = _MD_STRIKE.sub(" ", text)
    text = _MD_IMAGE.sub(" ", text)
    text = _MD_LINK.sub(r"\1", text)
    text = _MD_REF_LINK.sub(r"\1", text)
    text = _MD_HEADING.sub("", text)
    # Escaped characters are literal: protect them from emphasis stripping.
    text = _MD_ESCAPE.sub(lambda m: "\x00" + m.group(1), text)
    text = re.sub(r"(?<!\x00)[*_`]+", "", text)
    return text.replace("\x00", "")


#: Variation selectors (``♥️``) and other presentation-only code points dropped with format chars.
_VARIATION = re.compile("[\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def strip_invisible(text: str) -> str:
    """Drop characters a reader cannot see: Unicode format characters (category ``Cf``: zero-width
    space/joiners, word joiner, BOM, soft hyphen, bidi controls, tag characters) and variation
    selectors. ``\\r\\n`` and ``\\r`` become ``\\n``."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _VARIATION.sub("", text)
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def visible_text(body: str, body_format: str = "markdown", *, lazy: bool = True) -> str:
    """The text of a comment that can act: quotes and struck-out text removed, markup stripped,
    invisible characters dropped, one line per line or block as the reader sees it.

    ``body_format`` is ``"markdown"`` (inline HTML allowed, as Markdown allows it), ``"html"``
    (blog comments) or ``"text"`` (no markup language; ``>`` lines and ``[quote]`` blocks are
    still quotes, and emphasis markers are still ignored). Unknown formats are read as text.
    ``lazy=False`` keeps Markdown's lazy quote continuation lines (see
    :func:`strip_quote_lines`): the grammar uses it only to tell a player that an action
    they typed right under a quote was swallowed by it.
    """
    if not isinstance(body, str):
        body = str(body)
    text = strip_invisible(body)
    text = strip_forum_quotes(text)
    if body_format == "markdown":
        text = strip_quote_lines(text, lazy=lazy)
        text = strip_markdown_inline(html_to_text(text))
    elif body_format == "html":
        text = html_to_text(text)
        text = strip_markdown_inline(text)
    else:
        text = _EMPHASIS.sub("", _MD_STRIKE.sub(" ", text))
    # Text typed as "> ..." inside a blog comment, or an entity-escaped "&gt;", is a quote too.
    text = strip_quote_lines(text, lazy=False)
    return strip_invisible(text)
