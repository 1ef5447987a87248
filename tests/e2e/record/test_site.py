"""The auditors' site, read as files (the browser tests load the same pages in Chromium):
what each page says, cross-checked with the thread and the GNDT; untrusted text escaped;
the strict Content-Security-Policy; the site rebuilt by poll; the files' modes; the hand's
JSON record and PHH beside its page; ``nomicpoker verdicts``."""

from __future__ import annotations

import json
import os
import re
import stat

import pytest
from bs4 import BeautifulSoup
from typer.testing import CliRunner

from nomicpoker.cli import app
from nomicpoker.shell.audit.site import CSP, build_site

from kits.tables.game import HOSTILE, blognomic_game, roberts_game


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("game")
    t = blognomic_game(tmp, "T")
    r = roberts_game(tmp, "R")
    out = tmp / "public"
    build_site(t.engine, out, None, t.state)
    return t, r, out


def soup(path):
    return BeautifulSoup(path.read_text("utf-8"), "html.parser")


def test_every_page_is_strict_escaped_and_script_free(game):
    _t, _r, out = game
    pages = sorted(out.rglob("*.html"))
    assert len(pages) == 6
    for p in pages:
        text = p.read_text("utf-8")
        dom = soup(p)
        assert dom.find("meta", attrs={"http-equiv": "Content-Security-Policy"})["content"] == CSP
        # scripts only from the site's own files (the replayer), never inline, never remote
        assert "script-src 'self';" in CSP and "unsafe" not in CSP and "default-src 'none'" in CSP
        for sc in dom.find_all("script"):  # the replayer's data (never run) or its file
            data = sc.get("type") == "application/json" and not sc.get("src")
            code = sc.get("src", "").endswith("replayer.js") and "//" not in sc["src"] and not sc.get_text().strip()
            assert data or code, (p, str(sc)[:200])
        assert "<script>" not in text, p  # the hostile name: never markup, in JSON as \u003c
        assert not re.search(r"\son[a-z]+=", text), p  # no inline event handlers
        assert 'name="viewport"' in text
    # the hostile name is in the pages, escaped, bidi-isolated
    table = (out / "T" / "index.html").read_text("utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;*em*\u202eevil" in table
    assert f"<bdi class=\"name\">{HOSTILE.replace('<', '&lt;').replace('>', '&gt;')}</bdi>" in table


def test_the_table_page_has_the_gndt_the_chart_with_its_numbers_and_the_log_in_words(game):
    t, _r, out = game
    dom = soup(out / "T" / "index.html")
    # The GNDT now is the ledger's.
    rows = dom.select("table.gndt tbody tr")
    now = {r.find("bdi").get_text(): int(r.find_all("td")[1].get_text()) for r in rows}
    assert now == t.money()
    # The chip table ends at the GNDT's Money (every hand ended), starts at 100, and the chart
    # draws one line per player through the same numbers.
    chips = {r.find("bdi").get_text(): [int(td.get_text()) for td in r.find_all("td")[1:]]
             for r in dom.select("table.chips tbody tr")}
    assert {p: v[-1] for p, v in chips.items()} == t.money()
    assert all(v[0] == 100 and len(v) == 3 for v in chips.values())
    assert len(dom.select("svg.chart polyline")) == 3
    # The change log: the raise in words, with its hand, its time, and the cause linking to
    # the comment's verdict on the hand page.
    items = dom.select("ol.log li")
    raise_item = next(li for li in items if li.select_one(".action").get_text() == "alice raises 10")
    assert raise_item.select_one(".head a[href='hand-1.html']") is not None
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", raise_item.find("time").get_text())
    link = raise_item.select_one(".cause a")["href"]
    assert link.startswith("hand-1.html#c-")
    target = soup(out / "T" / "hand-1.html").find(id=link.split("#")[1])
    assert target is not None and "raise 10" in target.get_text()
    assert all(li.get("id") for li in items)  # every row has an anchor
    # bob's fold and the hand-2 steps are there in words too
    actions = [li.select_one(".action").get_text() for li in items]
    assert "bob folds" in actions and any(a.startswith("hand 2 starts: ") for a in actions)


def test_the_hand_page_has_verdicts_board_showdown_payouts_and_verification(game):
    t, _r, out = game
    page = out / "T" / "hand-1.html"
    dom = soup(page)
    verdicts = dom.select("ol.verdicts li")
    assert all(v.get("id") for v in verdicts)
    rejected = [v for v in verdicts if "v-rejected" in v["class"]]
    assert len(rejected) == 1
    assert rejected[0].find("code").get_text() == "check_before_flop"
    assert rejected[0].select_one("blockquote.rule").get_text().strip() == "No Player may Check before the Flop."
    accepted = [v.select_one(".verdict").get_text(" ", strip=True) for v in verdicts if "v-accepted" in v["class"]]
    assert "accepted alice raises 10" in accepted and f"accepted {HOSTILE} calls 10" in accepted
    # The board by street and the shown hands with their names, as the payout comment says.
    streets = {tr.find("th").get_text(): tr.find("td").get_text(" ", strip=True) for tr in dom.select("#board tr")}
    assert list(streets) == ["Flop", "Turn", "River"]
    payout = next(b for b in t.dealer_bodies_all() if "Shown hands:" in b and "Hand #1" in b)
    names = set(re.findall(r", ([A-Z][A-Za-z ,]+) \(", payout))
    shown = {tr.find_all("td")[3].get_text() for tr in dom.select("#showdown table")[0].select("tbody tr")}
    assert names and shown == names
    board_line = re.search(r"Board: (.*)\.", payout).group(1)
    assert " ".join(streets.values()) == board_line
    pots = dom.select("#showdown table")[1].get_text(" ", strip=True)
    assert re.search(r"Pot (\d+): (.*) wins (\d+)", payout).group(1) in pots
    # Fair dealing: the commitments, the published secrets, every item verified.
    assert len(dom.select("#fair table.hex tbody tr")) == 3
    assert "FAIL" not in dom.select_one("#fair").get_text()
    summary = dom.select_one("#fair p.summary").get_text()
    n = len(dom.select("table.checks tr"))
    assert summary.startswith(f"{n} of {n} items verified")
    # The files beside the page: the record verifies, and the PHH is linked.
    rec = out / "T" / "hand-1.json"
    res = CliRunner().invoke(app, ["audit", "verify", "--record", str(rec)])
    assert res.exit_code == 0 and "payout" in res.output
    assert json.loads(rec.read_text())["payouts"] == {HOSTILE: 35}


def test_the_roberts_hand_exports_to_phh_that_pokerkit_replays_to_the_same_stacks(game):
    pokerkit = pytest.importorskip("pokerkit")
    _t, r, out = game
    text = (out / "R" / "hand-1.phh").read_text("utf-8")
    states = list(pokerkit.HandHistory.loads(text))
    final = states[-1]
    hh = pokerkit.HandHistory.loads(text)
    names = list(hh.players)
    assert dict(zip(names, final.stacks)) == r.money()  # the GNDT after the hand, independently
    assert "_nomicpoker_exact = true" in text
    # the command writes the same file
    res = CliRunner().invoke(app, ["phh", "export", "--table", "R", "--hand", "1", "--state", str(r.state)])
    assert res.exit_code == 0 and res.output == text


def test_a_blognomic_hand_exports_what_phh_can_say_and_marks_the_rest(game):
    t, _r, out = game
    text = (out / "T" / "hand-1.phh").read_text("utf-8")
    assert "_nomicpoker_exact = false" in text and "_nomicpoker_not_expressed" in text
    assert "own deck" in text and "odd chips" in text and "raise-to" in text
    # the raise of 10 (chips added, on an ante of 5 already in) is a raise to 10 in PHH
    assert "'p1 cbr 10'" in text
    import tomllib

    doc = tomllib.loads(text)
    assert dict(zip(doc["players"], doc["finishing_stacks"])) == {"alice": 85, HOSTILE: 120, "bob": 95}


def test_site_files_are_owner_only_under_state_and_readable_elsewhere(game, tmp_path):
    t, _r, out = game
    assert stat.S_IMODE((out / "T" / "index.html").stat().st_mode) == 0o644
    assert stat.S_IMODE((out / "T").stat().st_mode) == 0o755
    inside = t.state / "site"
    build_site(t.engine, inside, "T", t.state)
    assert stat.S_IMODE((inside / "T" / "hand-1.html").stat().st_mode) == 0o600
    assert stat.S_IMODE((inside / "T").stat().st_mode) == 0o700


def test_poll_rebuilds_the_site_where_the_setting_says_when_something_changed(tmp_path):
    st = str(tmp_path / "state")
    web = tmp_path / "www"
    run = CliRunner().invoke
    for args in (["init"], ["table", "create", "--name", "T", "--players", "alice,bob", "--money", "100"],
                 ["hand", "start", "--table", "T", "--ante", "5"]):
        assert run(app, args + ["--state", st]).exit_code == 0
    res = run(app, ["poll", "--verbose", "--state", st, "--site", str(web)])
    assert res.exit_code == 0 and f"site: rebuilt" in res.output, res.output
    assert (web / "T" / "hand-1.html").exists()
    res = run(app, ["poll", "--verbose", "--state", st, "--site", str(web)])
    assert "site:" not in res.output  # nothing changed: not rebuilt
    # the default place is state/site; NOMICPOKER_SITE=off turns it off
    res = run(app, ["poll", "--verbose", "--state", st], env={"NOMICPOKER_SITE": "off"})
    assert "site:" not in res.output and not (tmp_path / "state" / "site").exists()
    res = run(app, ["poll", "--verbose", "--state", st])
    assert "site: rebuilt" in res.output and (tmp_path / "state" / "site" / "index.html").exists()


def test_verdicts_prints_each_comment_in_order(game):
    t, _r, _out = game
    res = CliRunner().invoke(app, ["verdicts", "--table", "T", "--hand", "1", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert any(ln.endswith("alice: accepted: alice raises 10") for ln in lines)
    i = next(i for i, ln in enumerate(lines) if "bob: rejected check_before_flop:" in ln)
    assert lines[i + 1] == '    rule: "No Player may Check before the Flop."'
    assert all(ln.startswith(("hand 1 ", "    rule:")) for ln in lines)
    res = CliRunner().invoke(app, ["verdicts", "--table", "T", "--hand", "9", "--state", str(t.state)])
    assert res.exit_code == 1 and "no hand 9" in res.output
