"""Reference tags: the small visible ``[np:KEY]`` that ends every dealer comment.

They are made and found in this one place: the renderer ends each comment with one, the outbox
finds them in a thread to know what was already posted, and adapters (through
:mod:`nomicpoker.ports`) compare them to recognise their own comments after a crash. A tag must
survive every forum filter (Markdown, WordPress's texturizer, entity encoding), so the reader
undoes what those filters do rather than comparing bytes.
"""

from __future__ import annotations

import html
import re

_KEY = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{0,79}$")
_TAG = re.compile(r"\[np:([A-Za-z0-9][A-Za-z0-9._:-]{0,79})\]")
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d"), "-")
#: wptexturize turns "3x4" into "3×4"; a key never holds "×", so it can only have been an "x".
_TIMES = {ord("\u00d7"): "x"}
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)
_HTML_TAG = re.compile(r"<[^>]*>")


def reference_tag(key: str) -> str:
    """The visible tag that ends every dealer comment: ``[np:KEY]`` in inline code.

    Inline code keeps Markdown from touching the key (underscores, dashes) and shows as
    ``<code>[np:KEY]</code>`` in HTML. Keys are limited to letters, digits and ``. _ : -``
    (80 characters) so the tag survives every sanitiser; anything else is a programming
    error in the caller and raises :class:`ValueError`.
    """
    if not _KEY.match(key):
        raise ValueError(f"reference key {key!r} must match {_KEY.pattern}")
    return f"`[np:{key}]`"


def find_tag(text: str) -> str | None:
    """The key of the last reference tag in a comment body, or ``None``.

    Works on the raw Markdown we posted and on the HTML a forum serves back: tags are removed,
    entities decoded (``&#91;`` for ``[``), typographic dashes and the multiplication sign
    that WordPress's texturizer may put in (``–``, ``×``) read as ``-`` and ``x``, and invisible soft hyphens or zero-width spaces dropped. The
    last tag wins because ours ends the comment; an earlier one would be a quotation.
    """
    t = _HTML_TAG.sub("", text)
    t = html.unescape(html.unescape(t))  # double-escaped bodies happen with some exporters
    t = t.translate(_DASHES).translate(_TIMES).translate(_INVISIBLE)
    found = _TAG.findall(t)
    return found[-1] if found else None




_BLOCKQUOTE = re.compile(r"<blockquote\b.*?(?:</blockquote>|\Z)", re.IGNORECASE | re.DOTALL)
_LINE_BREAK = re.compile(r"<br\s*/?>|</p>|<p\b[^>]*>|</?div\b[^>]*>", re.IGNORECASE)
_QUOTE_LINE = re.compile(r"^\s{0,3}(?:>|&gt;)")
_TAG_LINE = re.compile(r"^\s*`?\s*\[np:([A-Za-z0-9][A-Za-z0-9._:-]{0,79})\]\s*`?\s*$")


def find_tags(text: str) -> list[str]:
    """The keys of every reference tag standing alone on its line, in order, outside quotes.

    Why a second reader beside :func:`find_tag`: on a forum that paces posting the Dealer may
    combine several due comments into one, each part ending with its own tag on its own
    line; a crashed run must recognise every part. Only a line holding nothing but the tag
    counts (the renderer writes it so), and quoted text (``>`` lines, ``<blockquote>``) never
    counts: a player whose quoted words held a tag must not make the Dealer believe a comment
    was already posted. Works on Markdown and on the HTML a forum serves back (texturized
    dashes, entities, ``<code>``, ``<br />``)."""
    t = _BLOCKQUOTE.sub("\n", text)
    t = _LINE_BREAK.sub("\n", t)
    lines = [ln for ln in t.split("\n") if not _QUOTE_LINE.match(ln)]
    t = _HTML_TAG.sub("", "\n".join(lines))
    t = html.unescape(html.unescape(t))
    t = t.translate(_DASHES).translate(_TIMES).translate(_INVISIBLE)
    found: list[str] = []
    for line in t.split("\n"):
        m = _TAG_LINE.match(line)
        if m and m.group(1) not in found:
            found.append(m.group(1))
    return found
