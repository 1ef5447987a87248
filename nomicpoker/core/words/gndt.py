"""The GNDT views: the Money / Turn / Pot table and its change log, in four formats.

BlogNomic kept its game state in the GNDT, a public table anyone could read and (in principle)
edit, with a change log beside it. Auditors read ours the same way, in whatever tool they have:
Markdown for a forum post, HTML for a web page, CSV for a spreadsheet, JSON for a script. The
functions here are pure (values in, a string out) so the ledger, the CLI and the payout comment
all print byte-identical tables, and a replay can compare them.

Player names and causes are UNTRUSTED text typed by forum users. Every format escapes them in
its own way: Markdown backslash-escapes the characters that would start emphasis, code, links,
HTML or a new table cell; HTML uses :func:`html.escape`; CSV goes through the :mod:`csv`
module; JSON through :mod:`json`. Control characters (newlines included) become spaces in the
text formats, because a newline inside a Markdown table cell ends the table.
"""

from __future__ import annotations

import csv
import html
import json
import re
from dataclasses import dataclass
from io import StringIO
from typing import Literal, Sequence

Format = Literal["md", "html", "csv", "json"]
FORMATS: tuple[str, ...] = ("md", "html", "csv", "json")

#: Characters that can change the meaning of inline Markdown text or of a GFM table row.
#: All are ASCII punctuation, so CommonMark honours a backslash before each of them.
_MD_ACTIVE = frozenset("\\`*_[]|~")
#: HTML-active characters become entities instead: a forum that takes the body as raw HTML
#: (WordPress, which BlogNomic runs) would strip a backslash-escaped ``\<b>`` as a tag, while
#: ``&lt;b&gt;`` shows as ``<b>`` in HTML and in every Markdown renderer. ``&`` is encoded only
#: where it would start an entity, so "AT&T" stays readable as plain text.
_ENTITY_START = re.compile(r"&(?=#?[A-Za-z0-9]+;)")
_CONTROL = re.compile(r"[\x00-\x1f\x7f\u2028\u2029]")
_URL = re.compile(r"^https?://[^\s<>\"'`]+$", re.IGNORECASE)


def one_line(text: str) -> str:
    """Replace control characters (newlines, tabs, NUL) with spaces: a name or cause must stay
    on its line, or it could end a table row or start a Markdown block of its own."""
    return _CONTROL.sub(" ", str(text))


def md_escape(text: str) -> str:
    """Backslash-escape Markdown-active characters so untrusted text renders literally.

    ``**x**`` stays ``**x**`` on screen instead of turning bold, ``a|b`` cannot split a table
    cell, and ``<script>`` (written ``&lt;script&gt;``) is shown, not interpreted, by Markdown
    renderers and by forums that take the body as HTML. Plain-text readers see a few extra
    backslashes or entities, which is the price of one body that works everywhere.
    """
    t = _ENTITY_START.sub("&amp;", one_line(text)).replace("<", "&lt;").replace(">", "&gt;")
    return "".join("\\" + ch if ch in _MD_ACTIVE else ch for ch in t)


def is_url(text: str) -> bool:
    """True for an http(s) URL with nothing in it that could break out of a link."""
    return bool(_URL.match(text.strip()))


def md_link(url: str) -> str:
    """A Markdown link to ``url`` whose text is the URL itself (escaped). Parentheses and
    spaces are percent-encoded in the target so they cannot end it early."""
    target = url.strip().replace("(", "%28").replace(")", "%29").replace(" ", "%20")
    return f"[{md_escape(url.strip())}]({target})"


def html_cause(text: str) -> str:
    """A cause cell for HTML: a link when it is an http(s) URL, escaped text otherwise.
    Only http(s) becomes a link, so ``javascript:`` causes stay inert text."""
    t = one_line(text).strip()
    if is_url(t):
        e = html.escape(t, quote=True)
        return f'<a href="{e}">{e}</a>'
    return html.escape(t, quote=True)


def md_cause(text: str) -> str:
    """A cause cell for Markdown: a link when it is an http(s) URL, escaped text otherwise."""
    t = one_line(text).strip()
    return md_link(t) if is_url(t) else md_escape(t)


@dataclass(frozen=True)
class GndtRow:
    """One player's line in the GNDT: Money behind, the Turn column (``x`` to act, ``-`` still
    in the hand, ``o`` otherwise) and the chips they have in the current hand's pot."""

    player: str
    money: int
    turn: str  # "x" | "-" | "o"
    pot: int  # chips in the current hand's pot (0 when no hand is running)


_GNDT_HEAD = ("Player", "Money", "Turn", "Pot")
_LOG_HEAD = ("Player", "Column", "Old", "New", "Cause")


def _html_page(title: str, body: str) -> str:
    t = html.escape(title or "nomicpoker", quote=True)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{t}</title>\n"
        "<style>table{border-collapse:collapse}td,th{border:1px solid #999;"
        "padding:2px 8px}td.n{text-align:right}</style>\n"
        f"</head>\n<body>\n{body}</body>\n</html>\n"
    )


def _md_open(title: str, head: Sequence[str], align: str) -> list[str]:
    """The bold title (when given) and the header of a GFM table."""
    out = [f"**{md_escape(title)}**", ""] if title else []
    return out + ["| " + " | ".join(head) + " |", align]


def _html_open(css_class: str, title: str, head: Sequence[str]) -> list[str]:
    """A ``<table>`` up to its open ``<tbody>``, the title as its caption (when given)."""
    parts = [f'<table class="{css_class}">\n']
    if title:
        parts.append(f"<caption>{html.escape(one_line(title))}</caption>\n")
    parts.append("<thead><tr>" + "".join(f"<th>{h}</th>" for h in head) + "</tr></thead>\n<tbody>\n")
    return parts


def _unknown(fmt: str) -> ValueError:
    return ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


_FORMULA_START = ("=", "+", "@", "\t", "\r")


def _csv_cell(value: object) -> object:
    """A text cell a spreadsheet would run as a formula (``=HYPERLINK(...)``, ``+1``, ``@x``,
    ``-2+3``) gets a leading apostrophe, the usual guard against CSV injection: player names
    and causes are untrusted, and auditors open this file in spreadsheets. The Turn mark
    ``-`` alone and numbers are left alone."""
    if isinstance(value, str) and (value.startswith(_FORMULA_START) or (value.startswith("-") and len(value) > 1)):
        return "'" + value
    return value


def _csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    buf = StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(header)
    for r in rows:
        w.writerow([_csv_cell(v) for v in r])
    return buf.getvalue()


def gndt(rows: Sequence[GndtRow], fmt: Format, *, title: str = "", standalone: bool = False) -> str:
    """The GNDT table (Player, Money, Turn, Pot) in ``fmt``.

    - ``md``: a GFM table with a bold totals row (a player named "Total" cannot be mistaken
      for it), preceded by the title in bold when given.
    - ``html``: a ``<table>`` fragment with the totals in ``<tfoot>``; ``standalone=True``
      wraps it in a small complete page (for ``nomicpoker ledger --format html > gndt.html``).
    - ``csv``: header and one line per player, no totals (a spreadsheet sums by itself).
    - ``json``: ``{"title", "rows": [{"player", "money", "turn", "pot"}...], "totals":
      {"money", "pot"}}`` in that key order, so diffs between runs are stable.
    """
    total_money = sum(r.money for r in rows)
    total_pot = sum(r.pot for r in rows)
    if fmt == "md":
        out = _md_open(title, _GNDT_HEAD, "|---|---:|:---:|---:|")
        for r in rows:
            out.append(f"| {md_escape(r.player)} | {r.money} | {md_escape(r.turn)} | {r.pot} |")
        out.append(f"| **Total** | {total_money} | | {total_pot} |")
        return "\n".join(out) + "\n"
    if fmt == "html":
        e = html.escape
        parts = _html_open("gndt", title, _GNDT_HEAD)
        for r in rows:
            parts.append(
                f"<tr><td>{e(one_line(r.player))}</td><td class=\"n\">{r.money}</td>"
                f"<td>{e(one_line(r.turn))}</td><td class=\"n\">{r.pot}</td></tr>\n"
            )
        parts.append(
            f"</tbody>\n<tfoot><tr><th>Total</th><td class=\"n\">{total_money}</td><td></td>"
            f"<td class=\"n\">{total_pot}</td></tr></tfoot>\n</table>\n"
        )
        frag = "".join(parts)
        return _html_page(title or "GNDT", frag) if standalone else frag
    if fmt == "csv":
        return _csv(("player", "money", "turn", "pot"), [(r.player, r.money, r.turn, r.pot) for r in rows])
    if fmt == "json":
        doc = {
            "title": title,
            "rows": [{"player": r.player, "money": r.money, "turn": r.turn, "pot": r.pot} for r in rows],
            "totals": {"money": total_money, "pot": total_pot},
        }
        return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    raise _unknown(fmt)


LogEntry = tuple[str, str, str, str, str]


def change_log(
    entries: Sequence[LogEntry], fmt: Format, *, title: str = "", standalone: bool = False
) -> str:
    """The GNDT change log: ``(player, column, old, new, cause)`` rows, oldest first.

    ``cause`` is the permalink of the comment that caused the change, or a dealer event
    ("hand 3 start"); permalinks become links in Markdown and HTML so an auditor can click
    from any change to the comment behind it. CSV and JSON keep the cause as plain text.
    """
    rows = [tuple(str(x) for x in e) for e in entries]
    if fmt == "md":
        out = _md_open(title, _LOG_HEAD, "|---|---|---:|---:|---|")
        for p, c, o, n, cause in rows:
            out.append(
                f"| {md_escape(p)} | {md_escape(c)} | {md_escape(o)} | {md_escape(n)} | {md_cause(cause)} |"
            )
        return "\n".join(out) + "\n"
    if fmt == "html":
        e = html.escape
        parts = _html_open("gndt-log", title, _LOG_HEAD)
        for p, c, o, n, cause in rows:
            parts.append(
                f"<tr><td>{e(one_line(p))}</td><td>{e(one_line(c))}</td>"
                f"<td class=\"n\">{e(one_line(o))}</td><td class=\"n\">{e(one_line(n))}</td>"
                f"<td>{html_cause(cause)}</td></tr>\n"
            )
        parts.append("</tbody>\n</table>\n")
        frag = "".join(parts)
        return _html_page(title or "GNDT change log", frag) if standalone else frag
    if fmt == "csv":
        return _csv(("player", "column", "old", "new", "cause"), rows)
    if fmt == "json":
        doc = {
            "title": title,
            "entries": [
                {"player": p, "column": c, "old": o, "new": n, "cause": cause}
                for p, c, o, n, cause in rows
            ],
        }
        return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"
    raise _unknown(fmt)
