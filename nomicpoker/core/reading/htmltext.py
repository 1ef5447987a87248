"""The visible text of an HTML fragment, as a browser would show it, in linear time.

WHY our own tokenizer rather than :mod:`html.parser`: the standard library's parser takes
quadratic time on runs of unfinished tags (``<a <a <a ...``: 30,000 characters cost 12 s on
Python 3.11) and hands an unclosed ``<!--`` back as text, where a browser hides everything
after it. A comment costs the Dealer at most a few milliseconds whatever it holds, and text a
reader cannot see must never act, so this module follows the HTML5 tokenizer's rules for the
cases that decide visibility (comments and bogus comments to the end when unclosed, a tag cut
off by the end of the text dropped, raw-text elements, character references) and nothing
more. Every regex here either consumes what it scans or ends the document.

Used for blog comments (``body_format = "html"``) and for the HTML that the Markdown reader
renders. :func:`html_to_text` is the function an adapter may call on a comment's HTML.

Pure: no I/O.
"""

from __future__ import annotations

import html
import re

#: Elements whose whole content is not the author's own action: quotes, struck-out text,
#: code (a code span shows an action *as text*), and what a browser never shows.
SKIP_TAGS = frozenset({"blockquote", "q", "del", "s", "strike", "code", "pre", "kbd", "samp",
                       "script", "style", "head", "title", "template", "noscript", "textarea",
                       "iframe", "object", "svg", "math", "select"})
#: Elements whose content the tokenizer reads as raw text up to their own end tag.
_RAW_TEXT = frozenset({"script", "style", "textarea", "title", "xmp", "iframe", "noembed",
                       "noframes", "plaintext"})
#: Elements that break a line (so two paragraphs never run together into one statement).
BLOCK_TAGS = frozenset({"p", "div", "br", "li", "ul", "ol", "tr", "td", "th", "table", "h1",
                        "h2", "h3", "h4", "h5", "h6", "pre", "hr", "section", "article",
                        "header", "footer", "dd", "dt", "dl", "center", "blockquote", "details",
                        "summary", "figure", "figcaption", "caption", "thead", "tbody", "aside",
                        "nav", "main", "address", "form", "fieldset"})
VOID_TAGS = frozenset({"br", "hr", "img", "input", "meta", "link", "area", "base", "col",
                       "embed", "param", "source", "track", "wbr"})

_TAG_OPEN = re.compile(r"<")
_COMMENT_END = re.compile(r"--!?>")
_NAME = re.compile(r"([A-Za-z][^\s/>]*)")
_END_NAME = re.compile(r"/([A-Za-z][^\s/>]*)")
#: One attribute (or stray ``/``) inside a start tag; a quoted value must close, else the tag
#: runs to the end of the text (and a browser drops it).
_ATTR = re.compile(r"""[\s/]*(?:([^\s/>"'=][^\s/>=]*|=[^\s/>=]*)(?:\s*=\s*(?:"([^"]*)(")?|'([^']*)(')?|([^\s>]*)))?)?""")
_TAG_END = re.compile(r"[\s/]*>")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def _start_tag(s: str, pos: int) -> tuple[str, dict[str, str], int] | None:
    """Parse ``<name attrs>`` at ``pos`` (the ``<``). ``None`` when the text ends inside it.
    A trailing ``/`` changes nothing: in HTML ``<s/>`` opens a struck-out element."""
    m = _NAME.match(s, pos + 1)
    assert m is not None
    name = m.group(1).lower()
    p = m.end()
    attrs: dict[str, str] = {}
    while True:
        e = _TAG_END.match(s, p)
        if e:
            return name, attrs, e.end()
        a = _ATTR.match(s, p)
        if a is None or a.end() == p:
            if p >= len(s):
                return None
            p += 1  # a character no attribute can start with: skip it
            continue
        if (a.group(2) is not None and a.group(3) is None) or (a.group(4) is not None and a.group(5) is None):
            return None  # an unclosed quoted value: the tag never ends
        if a.group(1):
            value = a.group(2) if a.group(2) is not None else a.group(4) if a.group(4) is not None \
                else a.group(6) or ""
            attrs.setdefault(a.group(1).lower(), html.unescape(value))
        p = a.end()
        if p >= len(s):
            return None


def _hides(name: str, attrs: dict[str, str]) -> bool:
    if name in SKIP_TAGS or "hidden" in attrs:
        return True
    if _HIDDEN_STYLE.search(attrs.get("style", "")):
        return True  # text nobody can see cannot act
    return "quote" in attrs.get("class", "").lower()  # forum quote boxes


def html_to_text(src: str) -> str:
    """Visible text of an HTML fragment: quotes, struck-out text, code, comments and hidden
    elements removed, character references decoded, each block on its own line. An unclosed
    quote or struck-out element hides the rest (when in doubt, quoted text does not act)."""
    out: list[str] = []
    skip: list[str] = []  # open elements since the first hidden one
    pos, n = 0, len(src)
    while pos < n:
        lt = src.find("<", pos)
        if lt < 0:
            lt = n
        if lt > pos and not skip:
            out.append(html.unescape(src[pos:lt]))
        if lt >= n:
            break
        nxt = src[lt + 1:lt + 2]
        if src.startswith("<!--", lt):
            if src.startswith("<!-->", lt) or src.startswith("<!--->", lt):
                pos = lt + (5 if src[lt + 4] == ">" else 6)
                continue
            m = _COMMENT_END.search(src, lt + 4)
            if m is None:
                break  # an unclosed comment hides the rest of the comment
            pos = m.end()
            continue
        if nxt in ("!", "?") or (nxt == "/" and not _END_NAME.match(src, lt + 1)
                                 and src[lt + 2:lt + 3] != ">"):
            gt = src.find(">", lt)
            if gt < 0:
                break  # a bogus comment runs to the end
            pos = gt + 1
            continue
        if nxt == "/":
            m = _END_NAME.match(src, lt + 1)
            if m is None:  # "</>" is ignored
                pos = lt + 3
                continue
            gt = src.find(">", m.end())
            if gt < 0:
                break  # the text ends inside an end tag: a browser drops it
            name = m.group(1).lower()
            pos = gt + 1
            if skip:
                if name in skip:
                    while skip and skip.pop() != name:
                        pass
                continue
            if name in BLOCK_TAGS:
                out.append("\n")
            continue
        if not _NAME.match(src, lt + 1):
            if not skip:
                out.append("<")  # a lone "<" is text
            pos = lt + 1
            continue
        tag = _start_tag(src, lt)
        if tag is None:
            break  # the text ends inside a tag: a browser drops it
        name, attrs, pos = tag
        if name in _RAW_TEXT:
            close = re.compile(rf"</{re.escape(name)}[\s/>]", re.IGNORECASE).search(src, pos)
            raw_end = close.start() if close else n
            if not skip and not _hides(name, attrs):
                out.append(html.unescape(src[pos:raw_end]) if name in ("textarea", "xmp") else "")
            if close is None:
                break
            gt = src.find(">", close.end() - 1)
            pos = gt + 1 if gt >= 0 else n
            continue
        if skip:
            if name not in VOID_TAGS:
                skip.append(name)
            continue
        if name in BLOCK_TAGS:
            out.append("\n")
        if name not in VOID_TAGS and _hides(name, attrs):
            skip.append(name)
    return "".join(out)
