"""The replayer on a hand page, in headless Chromium driven by the DevTools protocol
(issue 25): the page is opened from disk (file://), the replayer steps through the whole hand
by keyboard (Right arrow; Left, Home, End), and at every step the stacks it shows are the
Money the ledger's change log gives after the comment that caused the step (board cards move
no Money; the last step is the Money after the payout). Two hands: Robert's Rules with two
all-ins, side pots and an uncalled bet returned, and a Dealing and Play hand with a rejected
comment and a showdown. The stacks are read from the drawn table, not from the page's data.

Skips, saying so, where Chromium is not installed (CI installs Debian's chromium through
scripts/ci_services.sh)."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

import pytest
from sqlmodel import Session, select

from nomicpoker.shell.audit.site import build_site
from nomicpoker.shell.storage import ledger
from nomicpoker.shell.storage.store import CommentRow

from kits.tables.bot import Table
from kits.servers.cdp import Browser, chromium
from kits.tables.game import HOSTILE, blognomic_game, roberts_side_pots

pytestmark = pytest.mark.skipif(chromium() is None, reason="chromium is not installed (CI installs Debian's "
                                "chromium via scripts/ci_services.sh; apt-get install chromium)")

SEATS_JS = ("[...document.querySelectorAll('#replayer .seat')].map(s => "
            "[s.dataset.name, Number(s.querySelector('.stack').textContent)])")
FRAME_JS = "Number(document.getElementById('replayer').dataset.frame)"


def ledger_money(t: Table, number: int) -> tuple[dict[str, int], list[tuple[str, dict[str, int]]]]:
    """The Money at the hand's start and after each cause of the change log, in order."""
    with Session(t.engine) as s:
        table = ledger.get_table(s, t.name)
        hand = next(h for h in ledger.hand_rows(s, t.name) if h.number == number)
        money = {p: m for p, m in json.loads(hand.seats)}
        start = dict(money)
        after: list[tuple[str, dict[str, int]]] = []
        for e in ledger.stored_rows(s, table.name, "entry"):
            if e.hand != number or e.column != "Money":
                continue
            money[e.player] = int(e.new)
            if after and after[-1][0] == e.cause:
                after[-1] = (e.cause, dict(money))
            else:
                after.append((e.cause, dict(money)))
        links = {}
        for c in s.exec(select(CommentRow).where(CommentRow.table_name == t.name)).all():
            links[f"comment {c.forum_id}"] = c.forum_id
            if c.permalink:
                links[c.permalink] = c.forum_id
    return start, [(links.get(cause, cause), m) for cause, m in after]


def step_through(page: Path, t: Table, number: int) -> list[dict]:
    """Step the replayer through the hand by keyboard; check each step's stacks against the
    ledger; return the frames' data for further checks."""
    _start, after = ledger_money(t, number)
    frames = None
    with Browser(1280, 900) as b:
        b.call("Log.enable")
        b.open(page.as_uri())
        assert b.js("document.getElementById('replayer').hidden") is False  # the script ran from disk
        frames = b.js("JSON.parse(document.getElementById('replay-data').textContent).frames")
        assert frames and b.js(FRAME_JS) == 0
        expected = None
        pending = list(after)
        for i, f in enumerate(frames):
            if i:
                b.key("ArrowRight")
            assert b.js(FRAME_JS) == i
            shown = dict(b.js(SEATS_JS))
            if f["kind"] == "start":
                # the forced bets: the Money after the hand's start entries
                cause, expected = pending.pop(0)
                assert cause.startswith(f"hand {number} start"), cause
            elif f["comment"] and pending and pending[0][0] == f["comment"]:
                _cause, expected = pending.pop(0)
            elif f["kind"] == "end":
                expected = after[-1][1]
            assert shown == expected, (i, f["kind"], f["player"], f["words"], shown, expected)
        assert pending == [], f"the ledger moved Money on causes the replayer has no step for: {pending}"
        # the keyboard goes back and jumps too
        b.key("ArrowLeft")
        assert b.js(FRAME_JS) == len(frames) - 2
        b.key("Home")
        assert b.js(FRAME_JS) == 0 and dict(b.js(SEATS_JS)) == after[0][1]
        b.key("End")
        assert b.js(FRAME_JS) == len(frames) - 1
        # no error: no Content-Security-Policy violation, no script exception
        errors = [e for e in b.events if e.get("method") in ("Runtime.exceptionThrown",)
                  or (e.get("method") == "Log.entryAdded" and e["params"]["entry"]["level"] == "error")]
        assert errors == []
    return frames


def test_the_replayer_steps_through_a_roberts_hand_with_side_pots_by_keyboard(tmp_path):
    t = roberts_side_pots(tmp_path)
    out = tmp_path / "site"
    build_site(t.engine, out, None, t.state)
    frames = step_through(out / "T" / "hand-2.html", t, 2)
    kinds = [f["kind"] for f in frames]
    assert kinds[0] == "start" and kinds[-1] == "end" and kinds.count("board") == 3
    # the all-in: from the call that closed the betting the hands are face up (rule 27) and
    # each street before the river gives each player's chances, pot by pot
    call = next(f for f in frames if f["player"] == "carol" and f["words"].startswith("calls"))
    assert {s["name"]: s["how"] for s in call["seats"]} == {"alice": "face up", "bob": "face up", "carol": "face up"}
    eq = call["equity"]
    assert [p["label"] for p in eq["pots"]] == ["Main pot", "Side pot 1"] and eq["boards"] == comb(52 - 6, 5)
    assert [f["equity"] is not None for f in frames if f["kind"] == "board"] == [True, True, False]


def test_the_replayer_steps_through_a_dealing_and_play_hand_by_keyboard(tmp_path):
    t = blognomic_game(tmp_path)
    out = tmp_path / "site"
    build_site(t.engine, out, None, t.state)
    frames = step_through(out / "T" / "hand-1.html", t, 1)
    assert frames[-1]["kind"] == "end"
    # bob folded: his hand is shown at the end, recomputed from the published secrets
    end = {s["name"]: s for s in frames[-1]["seats"]}
    assert end["bob"]["folded"] and end["bob"]["how"] == "recomputed" and len(end["bob"]["cards"]) == 2
    assert end[HOSTILE]["how"] == "shown"


BROKEN_WORDS_JS = """(() => {
  const bad = [];
  for (const th of document.querySelectorAll('th, td.nowrap')) {
    const walk = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      for (const m of n.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
        const lines = new Set([...r.getClientRects()].filter(x => x.width > 0).map(x => Math.round(x.top)));
        if (lines.size > 1) bad.push(m[0]);
      }
    }
  }
  return bad;
})()"""


def test_no_table_header_breaks_inside_a_word_on_a_phone(tmp_path):
    """The fair-dealing header read "Secr/et" and "dec/k" at 390 px: a header (or a pot's
    name) may wrap between words, never inside one (the hand and table pages, as laid out)."""
    t = blognomic_game(tmp_path)
    out = tmp_path / "site"
    build_site(t.engine, out, None, t.state)
    with Browser(390, 900) as b:
        b.size(390, 900, mobile=True)
        for page in ("T/hand-1.html", "T/index.html", "index.html"):
            b.open((out / page).as_uri())
            assert b.js("document.querySelectorAll('th').length") > 0
            assert b.js(BROKEN_WORDS_JS) == [], page
