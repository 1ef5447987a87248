"""Screenshots of the auditors' site for docs/site.md, at 1280 px and 390 px wide.

Plays four hands on the local forum with fixed secrets (the test kit's players, so the pages
are the same on every run), builds the site, and photographs each hand page in headless
Chromium (driven over the DevTools pipe, tests/kits/servers/cdp.py) with the replayer at its most telling
step:

- ``demo``: what ``nomicpoker demo`` plays (Dealing and Play, an all-in on the flop, a check
  refused), the replayer at the all-in with each player's chances;
- ``side-pots``: Robert's Rules, two all-ins, side pots and an uncalled bet returned;
- ``void``: a hand the Dealer voided;
- ``amended``: a hand played under an amended ruleset.

Usage (from the checkout, venv active; Chromium installed by scripts/ci_services.sh):

    python scripts/site_screenshots.py docs/site
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the test kit's players and the DevTools driver

from typer.testing import CliRunner  # noqa: E402

from nomicpoker.cli import app  # noqa: E402
from nomicpoker.shell.audit.site import build_site  # noqa: E402

run = CliRunner().invoke


def demo(tmp: Path):
    from kits.tables.bot import Table

    t = Table(tmp, players=("alice", "bob", "carol", "dave"), seed="demo-shot")
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 check")  # refused: no check before the flop
    for who, what in (("alice", "raise 10"), ("bob", "call"), ("carol", "raise 30"), ("dave", "folds"),
                      ("alice", "call"), ("bob", "call")):
        t.act(who, f"HAND1 ROUND1 {what}")
    for who, what in (("alice", "check"), ("bob", "raise 20"), ("carol", "all in"), ("alice", "folds"),
                      ("bob", "call")):
        t.act(who, f"HAND1 ROUND2 {what}")
    for p in ("bob", "carol"):
        t.act(p, f"HAND1 reveal {' '.join(t.p[p].hole())}")
    return t, 1


def side_pots(tmp: Path):
    from kits.tables.game import roberts_side_pots

    return roberts_side_pots(tmp), 2


def void(tmp: Path):
    from kits.tables.bot import Table

    t = Table(tmp, players=("alice", "bob", "carol"), seed="void-shot")
    t.start(ante=5)
    t.draw(1)
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 call")
    res = run(app, ["hand", "void", "--table", "T", "--note", "a misdeal", "--state", str(t.state)])
    assert res.exit_code == 0, res.output
    t.run()
    return t, 1


def amended(tmp: Path):
    from kits.tables.game import _amended_hand

    return _amended_hand(tmp), 1


def frame_to_show(b) -> int:
    """The step that closed the betting at an all-in (it carries chances), else the last."""
    frames = b.js("JSON.parse(document.getElementById('replay-data').textContent).frames")
    for f in frames:
        if f["equity"]:
            return f["n"]
    return len(frames) - 1


def main(out: Path) -> None:
    from kits.servers.cdp import Browser

    out.mkdir(parents=True, exist_ok=True)
    for name, play in (("demo", demo), ("side-pots", side_pots), ("void", void), ("amended", amended)):
        tmp = Path(tempfile.mkdtemp(prefix=f"np-shot-{name}-"))
        try:
            t, number = play(tmp)
            www = tmp / "www"
            build_site(t.engine, www, None, t.state)
            page = (www / "T" / f"hand-{number}.html").as_uri()
            for width, height in ((1280, 1500), (390, 2400)):
                with Browser(width, height) as b:
                    b.size(width, height, mobile=width < 500)
                    b.open(page)
                    for _ in range(frame_to_show(b)):
                        b.key("ArrowRight")
                    png = b.screenshot(out / f"{name}-{width}.png")
                    print(png)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main(Path(sys.argv[1] if len(sys.argv) > 1 else "docs/site"))
