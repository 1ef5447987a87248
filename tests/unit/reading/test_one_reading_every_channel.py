"""One reading for every channel: a command means the same whether it came as a Markdown
comment (Reddit, the local forum), an HTML comment (a blog), a plain-text mail (WRGPT) or an
IRC line (pokprot).

The corpus is every form the grammar and the advance-action language are documented or tested
with, accepted and rejected alike: the code spans of docs/comment-grammar.md and the one-line
string literals of the grammar's, the readers' and the WRGPT manual's tests (collected from
their source, so a form added there is checked here too), plus the manual's own advance
examples. Each form is sent through each channel the way that channel carries it (the blog
serves it HTML-escaped in a paragraph; the mail is read by the WRGPT mail reader and archived
as it archives a message; the IRC line goes through the bridge's formatting strip and ``@``
reader) and read by the fold's own readers; every channel must give the Markdown reading.

Forms that hold another markup's syntax (backticks, HTML tags, entities, links, ``>`` quotes,
list or heading markers, backslash escapes) are left out: there the channels differ on
purpose (a plain-text mail shows ``<b>`` as typed).

Issue 28: ``CALL *`` was refused by e-mail (``not_your_turn``: read as ``CALL``) and on IRC
(``advance_missing_amount``): the plain-text reading dropped every ``*`` at a word's edge.
"""

from __future__ import annotations

import ast
import html
import re
from pathlib import Path

import pytest

from nomicpoker.adapters.irc.commands import AtAction, read_command
from nomicpoker.adapters.irc.wire import strip_formatting
from nomicpoker.core.reading import grammar
from nomicpoker.core.reading.advance import AdvanceError, looks_like_advance, parse
from nomicpoker.core.fold.advance_private import first_line
from nomicpoker.core.reading.mail_text import read_mail
from nomicpoker.core.reading.markup import read_visible

from _paths import ROOT

SOURCES = ("test_grammar.py", "test_reading_conditionals.py", "test_reading_amounts_names.py",
           "test_reading_mentions.py", "test_reading_rule_readings.py", "test_advance_manual.py",
           "test_advance_fold.py", "test_player_commands.py", "test_grammar_properties.py",
           "kits/references/grammar.py")  # the grammar properties' strategies
#: the WRGPT manual's advance examples (seed 000_), written out here as the manual prints them
MANUAL = ("$0", "$500", "CALL/S $0", "FOLD", "FOLD/S", "POT/S", "IF/P<=2500/B<=500/N=3/I:3/O:2 POT",
          "IF/N=2/I:1 JAM", "IF/B=0 POT IF/B<=1000 CALL *", "IF/N=2 $100", "IF/N=2 CALL/S * IF/N=3 CALL *",
          "IF/S/O:6 JAM", "IF/N=4 FOLD/R IF/N=3 CALL * IF/N=2 JAM", "FOLD/Q", "JAM/H=99", "IF/F=1 CALL $x",
          "IF/F=1 CALL $100", "IF/F=4 JAM", "FOLD/R", "CALL *", "call *", "CALL $100", "UNDO", "JAM", "POT",
          "MAKE $200", "RAISE $100", "GONE 13 Sep", "BACK", "WHAT", "SCORE", "SCORE/L", "START 12",
          "GONE RESIGN", "PROTEST I timed out at 4PM", "CALL * ", "CALL*", "*CALL*", "**CALL** *",
          "HAND1 ROUND1 raise 20 *", "_fold_", "__fold__", "~~fold~~ call", "fold ~~call~~",
          "IF/B<=100 CALL * IF/B>100 FOLD", "CALL/S *", "RAISE/S $50")
#: another markup's syntax: where channels differ on purpose
_OTHER_MARKUP = re.compile(r"[`\\|\[\]&]|<[A-Za-z/!?]|^\s|^[>#]|^[-+*]\s|^\d+[.)]\s|^-{2,}|^={3,}|\s$|\s{2}")


def _literals(path: Path) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
    return out


def corpus() -> list[str]:
    found: set[str] = set(MANUAL)
    doc = (ROOT / "docs" / "comment-grammar.md").read_text("utf-8")
    found |= set(re.findall(r"(?<!`)`([^`\n]+)`(?!`)", doc))
    for name in SOURCES:
        for path in ROOT.rglob(name):
            if ".venv" not in path.parts:
                found |= _literals(path)
    keep = []
    for s in found:
        if not s.strip() or "\n" in s or len(s) > 120 or not s.isprintable():
            continue
        if _OTHER_MARKUP.search(s) or s.strip() != s:
            continue
        if not re.search(r"[A-Za-z0-9$]", s):
            continue
        keep.append(s)
    return sorted(keep)


CORPUS = corpus()


def as_markdown(line: str) -> tuple[str, str]:
    return line + "\n", "markdown"


def as_html(line: str) -> tuple[str, str]:
    """A blog serves a comment HTML-escaped, in a paragraph."""
    return f"<p>{html.escape(line, quote=False)}</p>\n", "html"


def as_mail(line: str) -> tuple[str, str]:
    """A WRGPT mail: the command in column 1; archived as the adapter archives it."""
    return read_mail(line + "\n").body(), "text"


def as_irc(line: str) -> tuple[str, str]:
    """An IRC line: formatting codes stripped, an ``@`` command put in the grammar's words."""
    plain = strip_formatting(line)
    cmd = read_command(plain)
    return (cmd.body if isinstance(cmd, AtAction) else plain), "text"


CHANNELS = {"html": as_html, "mail": as_mail, "irc": as_irc}


def reading(body: str, fmt: str) -> tuple:
    """Everything the fold reads off a comment: the visible text (spaces as a reader sees
    them), the grammar's reading (both under a ruleset that wants tags and one that does
    not), the advance-action reading of its first line, the player command."""
    text = " ".join(read_visible(body, fmt).text.split())
    line = first_line(body, fmt)
    if looks_like_advance(line):
        try:
            adv = repr(parse(line))
        except AdvanceError as e:
            adv = e.code
    else:
        adv = None
    return (text, repr(grammar.parse_comment(body, fmt)), repr(grammar.parse_comment(body, fmt, bare=True)),
            line, adv)


def test_the_corpus_is_the_whole_grammar():
    """The corpus holds the documented forms and the WRGPT manual's examples: if the sources
    moved, this says so instead of comparing nothing."""
    assert len(CORPUS) > 300
    for form in ("CALL *", "HAND3 ROUND1 raise 20", "IF/B=0 POT IF/B<=1000 CALL *", "HAND#3 DICE52 DICE52",
                 "JAM/H=99", "**raise** 20"):
        assert form in CORPUS


@pytest.mark.parametrize("channel", sorted(CHANNELS))
def test_every_form_reads_the_same_on_every_channel(channel):
    differ = []
    for form in CORPUS:
        want = reading(*as_markdown(form))
        got = reading(*CHANNELS[channel](form))
        if got != want:
            differ.append((form, want, got))
    assert not differ, f"{len(differ)} forms read differently by {channel}:\n" + "\n".join(
        f"  {f!r}: markdown {w}\n  {'':{len(repr(f))}}  {channel} {g}" for f, w, g in differ[:15])


@pytest.mark.parametrize("channel", sorted(CHANNELS))
@pytest.mark.parametrize("form", ["CALL *", "IF/B=0 POT IF/B<=1000 CALL *", "IF/N=2 CALL/S * IF/N=3 CALL *"])
def test_call_star_is_call_star_on_every_channel(channel, form):
    body, fmt = CHANNELS[channel](form)
    assert first_line(body, fmt) == form  # the manual's form, not a bare CALL
    assert parse(first_line(body, fmt)) == parse(form)
