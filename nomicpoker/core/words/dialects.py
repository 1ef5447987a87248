"""Dealer comments in each forum's own markup: Markdown as rendered, WordPress comment HTML, or
plain text (e-mail, IRC).

The renderer (:mod:`nomicpoker.core.words.render`) writes every dealer comment once, in a small
Markdown: paragraphs, ``**bold**``, inline code, fenced code blocks (the status table), pipe
tables (the GNDT), ``- `` lists, ``>`` quotes, ``[text](url)`` links and backslash escapes. The
outbox stores that text (the audit compares it byte for byte); at send time the shell asks
:func:`in_dialect` for the forum's markup (``Abilities.markup``).

Why WordPress needs its own dialect (BlogNomic): WordPress renders no Markdown, and a member's
comment keeps only ``$allowedtags`` (``a abbr acronym b blockquote cite code del em i q s strike
strong``: no ``p``, ``br``, ``pre``, ``table`` or ``ul``), then shows it through ``wptexturize``
(curly quotes; ``--`` becomes an en dash, ``---`` an em dash, ``3x4`` becomes ``3×4``) and
``wpautop`` (a blank line starts a paragraph, a line break becomes ``<br />``). So:

- tables and code blocks become one ``<code>`` element, one line per row (``wpautop`` adds the
  ``<br />``), with no-break spaces for the padding so the columns stay aligned in a
  proportional page; ``wptexturize`` never touches ``code``, so ``+---+`` and ``|---|``
  survive;
- the reference tag is ``<code>[np:KEY]</code>``: untouched by the texturizer whatever the
  table's name (``Nomic--Poker``);
- a double hyphen in prose is written ``-&#45;`` so the texturizer does not join it into a dash;
- links keep their text only: WordPress holds a comment with ``comment_max_links`` (2) links
  for moderation, every time, whoever wrote it;
- list items become lines starting with ``•``; headings and bold become ``<strong>``.

Why plain text needs its own dialect (WRGPT e-mail, pokprot IRC): a mail program and an IRC
client show the text as typed, so Markdown's markers (``**``, backticks, fences, ``\\*``
escapes) and the renderer's HTML entities (``&lt;``) would reach the player raw. In plain text:
emphasis and code markers go (on IRC bold is IRC's bold, ``^B``), fenced blocks keep their lines
as they are (the status table is monospaced already), pipe tables become aligned columns,
links keep their text (and their address when it is a web address), escapes and entities
become their characters, and the reference tag stays as ``[np:KEY]`` (findable, as on every
forum).

Pure: text in, text out; no I/O.
"""

from __future__ import annotations

import html
import re
import unicodedata

#: The markups a forum may declare (``nomicpoker.ports.Markup``).
MARKDOWN, WORDPRESS_HTML, TEXT, IRC = "markdown", "wordpress-html", "text", "irc"
#: IRC's bold toggle (mIRC formatting, which every IRC client shows)
IRC_BOLD = "\x02"
_NBSP = "\u00a0"
_FENCE = re.compile(r"^\s{0,3}(```|~~~)")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_LIST = re.compile(r"^\s{0,3}[-*+]\s+")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+")
_QUOTE = re.compile(r"^\s{0,3}>\s?")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_ENTITY = re.compile(r"&(?:[A-Za-z][A-Za-z0-9]{0,31}|#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6});")
_MD_PUNCT = r"!\"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~"


def in_dialect(body: str, markup: str) -> str:
    """``body`` (the renderer's Markdown) as the forum with ``markup`` should receive it.
    Markdown and text forums get it unchanged (Markdown source reads as plain text)."""
    if markup == WORDPRESS_HTML:
        return to_wordpress_html(body)
    if markup == TEXT:
        return to_plain_text(body)
    if markup == IRC:
        return to_plain_text(body, bold=IRC_BOLD)
    return body


def text_in_dialect(body: str, markup: str) -> str:
    """A private message or a story post as the forum shows it: plain-text channels (e-mail,
    IRC) get plain text, since a mail or a NOTICE would show Markdown's markers raw; forums
    that render Markdown (or post their own story) get it as it is."""
    return in_dialect(body, markup) if markup in (TEXT, IRC) else body


def _escape_text(text: str) -> str:
    """HTML-escape text that is not markup, keeping entities already written (the renderer's
    ``&lt;`` for an untrusted ``<``)."""
    out: list[str] = []
    pos = 0
    for m in _ENTITY.finditer(text):
        out.append(_escape_raw(text[pos:m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_escape_raw(text[pos:]))
    return "".join(out)


def _escape_raw(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _prose(text: str) -> str:
    """Escaped prose, with what the texturizer would misread written as entities."""
    text = _escape_text(text)
    text = text.replace("--", "-&#45;")
    return re.sub(r"(?<=\d)x(?=\d)", "&#120;", text)


_INLINE = re.compile(
    r"(?P<code>`+)(?P<codetext>.+?)(?P=code)"
    r"|\[(?P<label>(?:\\.|[^\]\\])*)\]\((?P<url>[^)\s]*)\)"
    r"|\*\*(?P<strong>(?:\\.|[^*\\])+?)\*\*"
    r"|(?<![\w*])\*(?P<em>(?:\\.|[^*\\\s])(?:\\.|[^*\\])*?)\*(?![\w*])"
    r"|\\(?P<escaped>[" + _MD_PUNCT + r"])",
    re.DOTALL,
)


def _inline(text: str) -> str:
    """Inline Markdown to allowed WordPress tags."""
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(_prose(text[pos:m.start()]))
        pos = m.end()
        if m.group("code") is not None:
            out.append("<code>" + _escape_raw(m.group("codetext").strip(" ")) + "</code>")
        elif m.group("label") is not None:
            out.append(_inline(m.group("label")))
        elif m.group("strong") is not None:
            out.append("<strong>" + _inline(m.group("strong")) + "</strong>")
        elif m.group("em") is not None:
            out.append("<em>" + _inline(m.group("em")) + "</em>")
        else:
            out.append(_prose(m.group("escaped")))
    out.append(_prose(text[pos:]))
    return "".join(out)


def _width(text: str) -> int:
    return sum(0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in "WF" else 1
               for ch in text)


def _code_block(lines: list[str]) -> str:
    """Lines shown verbatim in a monospaced font: one ``<code>``, no-break spaces kept."""
    shown = [_escape_raw(ln.rstrip()).replace(" ", _NBSP) or _NBSP for ln in lines]
    return "<code>" + "\n".join(shown) + "</code>"


def _cells(row: str) -> list[str]:
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    cells = re.split(r"(?<!\\)\|", inner)
    return [_plain(c.strip()) for c in cells]


def _plain(cell: str) -> str:
    """A table cell's text as a reader would see it (emphasis and escapes gone)."""
    cell = re.sub(r"\*\*(.+?)\*\*", r"\1", cell)
    cell = re.sub(r"`([^`]*)`", r"\1", cell)
    cell = re.sub(r"\[((?:\\.|[^\]\\])*)\]\([^)\s]*\)", r"\1", cell)
    cell = re.sub(r"\\([" + _MD_PUNCT + r"])", r"\1", cell)
    return _unentity(cell)


def _unentity(text: str) -> str:
    return html.unescape(text)


def _table(rows: list[str]) -> str:
    """A pipe table as aligned monospaced lines in one ``<code>``."""
    return _code_block(_table_lines(rows))


def _table_lines(rows: list[str]) -> list[str]:
    """A pipe table as aligned lines (alignment from its ``|---:|`` row)."""
    rule_at = next((i for i, r in enumerate(rows) if _TABLE_RULE.match(r)), None)
    aligns: list[str] = []
    if rule_at is not None:
        for spec in _cells(rows[rule_at]):
            spec = spec.strip()
            aligns.append("c" if spec.startswith(":") and spec.endswith(":")
                          else "r" if spec.endswith(":") else "l")
    body = [_cells(r) for i, r in enumerate(rows) if i != rule_at]
    ncol = max(len(r) for r in body)
    body = [r + [""] * (ncol - len(r)) for r in body]
    widths = [max(_width(r[c]) for r in body) for c in range(ncol)]
    aligns += ["l"] * (ncol - len(aligns))

    def fit(text: str, width: int, align: str) -> str:
        pad = width - _width(text)
        if align == "r":
            return " " * pad + text
        if align == "c":
            return " " * (pad // 2) + text + " " * (pad - pad // 2)
        return text + " " * pad

    lines = [" | ".join(fit(c, w, a) for c, w, a in zip(r, widths, aligns)) for r in body]
    if rule_at is not None and rule_at > 0:
        lines.insert(rule_at, "-+-".join("-" * w for w in widths))
    return [ln.rstrip() for ln in lines]


def _blocks(lines: list[str]) -> list[str]:
    """Convert a run of lines to WordPress paragraphs (strings separated by blank lines)."""
    out: list[str] = []
    para: list[str] = []

    def flush() -> None:
        if para:
            out.append("\n".join(para))
            para.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            flush()
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith(fence.group(1)):
                j += 1
            out.append(_code_block(lines[i + 1:j]))
            i = j + 1
            continue
        if _TABLE_ROW.match(line):
            flush()
            j = i
            while j < len(lines) and _TABLE_ROW.match(lines[j]):
                j += 1
            out.append(_table(lines[i:j]))
            i = j
            continue
        if _QUOTE.match(line):
            flush()
            j = i
            inner: list[str] = []
            while j < len(lines) and lines[j].strip() and _QUOTE.match(lines[j]):
                inner.append(_QUOTE.sub("", lines[j], count=1))
                j += 1
            out.append("<blockquote>" + "\n\n".join(_blocks(inner)) + "</blockquote>")
            i = j
            continue
        if not line.strip():
            flush()
        elif _RULE.match(line):  # <hr> is not allowed in a comment: a line of dots instead
            flush()
            out.append("\u00b7 \u00b7 \u00b7")
        elif _HEADING.match(line):
            flush()
            out.append("<strong>" + _inline(_HEADING.sub("", line).strip()) + "</strong>")
        elif _LIST.match(line):
            para.append("\u2022 " + _inline(_LIST.sub("", line).strip()))
        else:
            para.append(_inline(line.strip()))
        i += 1
    flush()
    return out


def to_wordpress_html(markdown: str) -> str:
    """The comment body to submit to a WordPress comment form (see the module docstring)."""
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    return "\n\n".join(_blocks(lines)) + "\n"


# --------------------------------------------------------------------------------- plain text

_TEXT_INLINE = re.compile(
    r"(?P<code>`+)(?P<codetext>.+?)(?P=code)"
    r"|\[(?P<label>(?:\\.|[^\]\\])*)\]\((?P<url>[^)\s]*)\)"
    r"|\*\*(?P<strong>(?:\\.|[^*\\])+?)\*\*"
    r"|(?<![\w*])\*(?P<em>(?:\\.|[^*\\\s])(?:\\.|[^*\\])*?)\*(?![\w*])"
    r"|\\(?P<escaped>[" + _MD_PUNCT + r"])",
    re.DOTALL,
)


def _text_inline(text: str, bold: str) -> str:
    out: list[str] = []
    pos = 0
    for m in _TEXT_INLINE.finditer(text):
        out.append(_unentity(text[pos:m.start()]))
        pos = m.end()
        if m.group("code") is not None:
            out.append(m.group("codetext").strip(" "))
        elif m.group("label") is not None:
            label, url = _text_inline(m.group("label"), bold), m.group("url")
            web = url.startswith(("http://", "https://")) and url != label
            out.append(f"{label} ({url})" if web else label)
        elif m.group("strong") is not None:
            out.append(bold + _text_inline(m.group("strong"), bold) + bold)
        elif m.group("em") is not None:
            out.append(_text_inline(m.group("em"), bold))
        else:
            out.append(m.group("escaped"))
    out.append(_unentity(text[pos:]))
    return "".join(out)


def to_plain_text(markdown: str, bold: str = "") -> str:
    """The renderer's Markdown as plain text (see the module docstring); ``bold`` is what
    stands for bold on both sides (nothing in a mail, ``^B`` on IRC)."""
    lines = markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE.match(line)
        if fence:
            j = i + 1
            while j < len(lines) and not lines[j].lstrip().startswith(fence.group(1)):
                j += 1
            out.extend(ln.rstrip() for ln in lines[i + 1:j])
            i = j + 1
            continue
        if _TABLE_ROW.match(line):
            j = i
            while j < len(lines) and _TABLE_ROW.match(lines[j]):
                j += 1
            out.extend(_table_lines(lines[i:j]))
            i = j
            continue
        if _HEADING.match(line):
            line = _HEADING.sub("", line)
        out.append(_text_inline(line, bold).rstrip())
        i += 1
    return "\n".join(out)
