"""The auditors' site in a real browser (headless Chromium): every page of a multi-hand game
loads, every internal link (and its #anchor) leads somewhere, the chip chart is drawn, and a
hostile player name shows as text. Skips, saying so, when Chromium is not installed (CI
installs Debian's chromium through scripts/ci_services.sh)."""

from __future__ import annotations

from collections import deque
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest
from bs4 import BeautifulSoup

from nomicpoker.core.words.chart import PALETTE
from nomicpoker.shell.audit.site import build_site

from kits.servers.browser import chromium, count_colour, dump_dom, read_png, screenshot
from kits.tables.game import HOSTILE, blognomic_game, roberts_game

pytestmark = [pytest.mark.slow, pytest.mark.skipif(chromium() is None, reason="chromium is not installed (CI installs "
                                "Debian's chromium via scripts/ci_services.sh; apt-get install chromium)")]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("game")
    t = blognomic_game(tmp, "T")
    roberts_game(tmp, "R")
    out = tmp / "public"
    build_site(t.engine, out, None, t.state)
    return out


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def test_every_page_loads_and_every_internal_link_and_anchor_resolves(site):
    start = (site / "index.html").as_uri()
    pages: dict[str, BeautifulSoup] = {}
    queue, links = deque([start]), []
    while queue:
        url = queue.popleft()
        if url in pages:
            continue
        dom = BeautifulSoup(dump_dom(url), "html.parser")
        pages[url] = dom
        # the page as the browser built it: our CSP, no script but the replayer's, a title
        csp = dom.find("meta", attrs={"http-equiv": "Content-Security-Policy"})
        assert csp is not None and "default-src 'none'" in csp["content"], url
        assert all(sc.get("type") == "application/json" or sc.get("src", "").endswith("replayer.js")
                   for sc in dom.find_all("script")), url
        assert dom.title and dom.title.get_text(strip=True), url
        for a in dom.find_all("a", href=True):
            target = urljoin(url, a["href"])
            if urlparse(target).scheme != "file":
                continue  # a forum permalink (none on the local forum)
            links.append((url, target))
            base, _frag = urldefrag(target)
            path = Path(urlparse(base).path)
            assert path.exists(), (url, a["href"])
            if path.suffix == ".html" and base not in pages:
                queue.append(base)
    names = {Path(urlparse(u).path).relative_to(site).as_posix() for u in pages}
    assert {"index.html", "T/index.html", "T/hand-1.html", "T/hand-2.html", "R/index.html",
            "R/hand-1.html"} <= names
    # every #anchor names an element of the page it points into
    for src, target in links:
        base, frag = urldefrag(target)
        if frag and base in pages:
            assert pages[base].find(id=frag) is not None, (src, target)
    # the JSON record and the PHH file behind each hand page are linked and there
    assert any(t.endswith("T/hand-1.json") for _s, t in links) and any(t.endswith("R/hand-1.phh") for _s, t in links)


def test_a_hostile_player_name_shows_as_text(site):
    for page in ("index.html", "T/index.html", "T/hand-1.html"):
        dom = BeautifulSoup(dump_dom((site / page).as_uri()), "html.parser")
        # no script but the replayer's (its data is never run; names go in as text)
        assert all(sc.get("type") == "application/json" or sc.get("src", "").endswith("replayer.js")
                   for sc in dom.find_all("script"))
        body = dom.body
        assert body.find("em") is None  # the *em* of the name is not Markdown emphasis
        shown = [b.get_text() for b in body.find_all("bdi")]
        assert HOSTILE in shown, page  # the whole name, RTL override included, as text
        assert "<script>alert(1)</script>*em*" in body.get_text()


def test_the_chip_chart_is_drawn(site, tmp_path):
    url = (site / "T" / "index.html").as_uri()
    dom = BeautifulSoup(dump_dom(url), "html.parser")
    chart = dom.find("svg", class_="chart")
    assert chart is not None
    lines = chart.find_all("polyline")
    assert len(lines) == 3 and all(len(p["points"].split()) == 3 for p in lines)  # start, hand 1, hand 2
    png = screenshot(url + "#chips", tmp_path / "chips.png", 1000, 1400)
    _w, _h, rows = read_png(png)
    # each player's line is on screen in its own colour
    for colour in PALETTE[:3]:
        assert count_colour(rows, _rgb(colour), tolerance=30) > 150, colour


def test_a_hand_page_reads_on_a_phone(site, tmp_path):
    png = screenshot((site / "T" / "hand-1.html").as_uri(), tmp_path / "phone.png", 390, 1600)
    width, height, rows = read_png(png)
    assert width == 390
    # the header bar (the felt green) spans the whole width: the page is laid out for it
    felt = (0x0F, 0x5A, 0x3A)
    assert count_colour(rows[:20], felt, tolerance=20) > 390 * 10
