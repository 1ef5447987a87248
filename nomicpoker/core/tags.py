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


