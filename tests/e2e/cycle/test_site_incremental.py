"""The auditors' site rebuilt incrementally (issue 24, :func:`nomicpoker.shell.audit.site.build_site`):
after one hand ends only that table's pages and the index are written, and the site so kept
up to date is, file by file, byte for byte, the site built from nothing.

Two heads-up tables on the real local forum, a real SQLite ledger, the library's poll and
hand start; the site is built after every step into one folder (incrementally) and from
nothing into a fresh folder, and the two are compared.
"""

from __future__ import annotations

from pathlib import Path

from nomicpoker.shell.audit.site import MANIFEST, build_site
from nomicpoker.shell.dealer import service
from nomicpoker.shell.jobs.demo import Player
from nomicpoker.shell.storage import secrets_store

from kits.tables.bot import Table, fixed_secrets


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and p.name != MANIFEST}


def same_as_from_nothing(t: Table, site: Path, n: int) -> None:
    fresh = t.tmp / f"fresh-{n}"
    build_site(t.engine, fresh, None, t.state)
    kept, whole = files(site), files(fresh)
    assert sorted(kept) == sorted(whole)
    assert [name for name in whole if kept[name] != whole[name]] == []


def written(t: Table, site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in build_site(t.engine, site, None, t.state)}


def test_after_one_hand_ends_only_its_table_is_written_and_the_site_is_the_one_built_from_nothing(tmp_path):
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    service.create_table(t.engine, t.state, "U", ["carol", "dave"], 100, ruleset="roberts-nlhe", issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    secrets_store.write(t.state, "U", 1, fixed_secrets("U:1"))
    u = service.start_hand(t.engine, t.state, "U", 0, blinds=(1, 2))
    t.run()
    site = tmp_path / "site"
    first = written(t, site)
    assert {"index.html", "T/index.html", "U/index.html", "T/hand-1.html", "U/hand-1.html"} <= first
    same_as_from_nothing(t, site, 1)
    assert written(t, site) == {"index.html", "style.css", "replayer.js"}  # nothing changed
    # hand 1 at T ends (bob, first to act heads-up, folds): T's pages and the index only
    t.act("bob", "fold")
    assert "Hand #1 is over" in "".join(t.dealer_bodies())
    again = written(t, site)
    assert again - {"index.html", "style.css", "replayer.js"} and all(
        name.startswith("T/") for name in again - {"index.html", "style.css", "replayer.js"}), again
    same_as_from_nothing(t, site, 2)
    # hand 2 at T, a comment at U: both tables' pages, again as from nothing
    t.start(ante=0, blinds=(1, 2))
    Player("dave", t.forum, u.thread).say("table talk")
    t.run()
    assert {n.split("/")[0] for n in written(t, site) if "/" in n} == {"T", "U"}
    same_as_from_nothing(t, site, 3)
    # a page removed by hand is written again; a manifest of another build is not trusted
    (site / "U" / "index.html").unlink()
    assert "U/index.html" in written(t, site)
    (site / MANIFEST).write_text('{"format": 1, "build": "another", "tables": {}}')
    assert {"T/index.html", "U/index.html"} <= written(t, site)
    same_as_from_nothing(t, site, 4)


def test_a_hand_that_ends_rewrites_its_own_pages_and_the_table_index_not_every_hand_page(tmp_path):
    """Issue 24: at the final table the site after one hand rewrote every hand's page (106
    files); only the pages whose rows moved are written, and the site stays the one built from
    nothing."""
    t = Table(tmp_path, players=("alice", "bob"), ruleset="roberts-nlhe", issue_decks=False)
    site = tmp_path / "site"
    for n in range(1, 4):  # three hands, each ended by a fold of the first to act
        t.start(ante=0, blinds=(1, 2))
        t.run()
        written(t, site)
        who = "bob" if n % 2 else "alice"
        t.act(who, "fold")
        assert f"Hand #{n} is over" in "".join(t.dealer_bodies())
        written(t, site)
    same_as_from_nothing(t, site, 1)
    t.start(ante=0, blinds=(1, 2))  # hand 4 starts: hand 3's page gains its "next hand" link
    t.run()
    again = written(t, site) - {"index.html", "style.css", "replayer.js"}
    assert {n for n in again if n.endswith(".html")} == {"T/index.html", "T/hand-3.html", "T/hand-4.html"}, again
    same_as_from_nothing(t, site, 2)
    t.act("alice" if 4 % 2 == 0 else "bob", "fold")  # hand 4 ends: its own pages and the table's index
    again = written(t, site) - {"index.html", "style.css", "replayer.js"}
    assert again == {"T/index.html", "T/hand-4.html", "T/hand-4.json", "T/hand-4.phh"}, again
    same_as_from_nothing(t, site, 3)
    (site / "T" / "hand-1.html").unlink()  # a hand page removed by hand is written again
    assert "T/hand-1.html" in written(t, site)
    same_as_from_nothing(t, site, 4)
