"""A multi-hand game on the real local forum, shared by the money, site, PHH and public-db
tests: three players, one of them named with HTML, Markdown and a right-to-left override (a
hostile name must show as text everywhere), two hands of blognomic-2008 (a showdown, then a
hand won when the others fold), and a roberts-nlhe table with blinds played to a showdown;
and a hand under an amended ruleset (tests/e2e/record/test_amended_record.py, test_hand_kinds_phh.py)."""

from __future__ import annotations

import shutil

from kits.references.fair_dealing import REF
from kits.tables.bot import Table
from kits.tables.rulesets import P42_SENTENCE, replace

#: a player name a careless page would run or render: HTML, Markdown, an RTL override
HOSTILE = "<script>alert(1)</script>*em*\u202eevil"


def reveal_all(t: Table, number: int, who) -> None:
    for p in who:
        t.act(p, f"HAND{number} reveal " + " ".join(t.p[p].hole()))


def blognomic_game(tmp, name: str = "T") -> Table:
    """Hand 1: alice raises 10, the hostile player calls, bob folds, checks to a showdown.
    Hand 2: alice raises 5 and both others fold."""
    t = Table(tmp, name=name, players=("alice", HOSTILE, "bob"))
    t.start(ante=5)
    t.draw(1)
    # GNDT order after the button (bob, the last player, holds it): alice first.
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act(HOSTILE, "HAND1 ROUND1 call")
    t.act("bob", "HAND1 ROUND1 check")  # rejected: no check before the flop
    t.act("bob", "HAND1 ROUND1 fold")
    for r in (2, 3, 4):
        t.act("alice", f"HAND1 ROUND{r} check")
        t.act(HOSTILE, f"HAND1 ROUND{r} check")
    reveal_all(t, 1, ("alice", HOSTILE))
    t.start(ante=5)
    t.draw(2)
    t.act(_to_act(t), "HAND2 ROUND1 raise 5")
    for _ in range(2):
        t.act(_to_act(t), "HAND2 ROUND1 fold")
    return t


def _to_act(t: Table) -> str:
    return next(p for p, (_m, turn, _pot) in t.gndt().items() if turn == "x")


def advance_table(tmp, name: str = "T", players: tuple[str, ...] = ("alice", "bob", "carol"),
                  **settings) -> Table:
    """Where the advance-action tests (tests/e2e/advance/test_advance_*.py) begin: a roberts-nlhe table,
    blinds 1/2, no reminders (``settings`` add to or override the table's settings), hand 1
    started and the dealer's opening comments already read."""
    t = Table(tmp, name=name, players=players, ruleset="roberts-nlhe",
              issue_decks=False, settings={"reminders": 0, **settings})
    t.start(ante=0, blinds=(1, 2))
    t.new_dealer()
    return t


def _pm(t: Table, who: str, body: str, subject: str = "advance (T)") -> list[str]:
    """``who`` sends the Dealer a private message (an advance action) and the Dealer runs:
    what the Dealer said in the thread."""
    t.forum.send_private_as(who, t.forum.dealer, subject, body)
    t.run()
    return t.new_dealer()


def order_from_turn(t: Table) -> list[str]:
    """The players from the one to act, in seat order."""
    first = _to_act(t)
    ps = list(t.players)
    k = ps.index(first)
    return ps[k:] + ps[:k]


def roberts_game(tmp, name: str = "R") -> Table:
    """One roberts-nlhe hand, blinds 1/2, three players: a raise to 6, a call, a fold, then
    a bet on the flop called and checks to the showdown."""
    t = Table(tmp, name=name, players=("alice", "bob", "carol"), ruleset="roberts-nlhe",
              issue_decks=False)
    t.start(ante=0, blinds=(1, 2))
    p = _to_act(t)
    t.act(p, "HAND1 ROUND1 raise 6")
    p = _to_act(t)
    t.act(p, "HAND1 ROUND1 call")
    p = _to_act(t)
    t.act(p, "HAND1 ROUND1 fold")
    for r in (2, 3, 4):
        first = _to_act(t)
        if r == 2:
            t.act(first, f"HAND1 ROUND{r} raise 4")
            t.act(_to_act(t), f"HAND1 ROUND{r} call")
        else:
            t.act(first, f"HAND1 ROUND{r} check")
            t.act(_to_act(t), f"HAND1 ROUND{r} check")
    live = [n for n, (_m, turn, pot) in t.gndt().items() if turn != "o"]
    for n in live:
        t.act(n, "HAND1 reveal " + " ".join(dealt(t, n)))
    return t


def dealt(t: Table, player: str) -> list[str]:
    """The hole cards the dealer sent ``player`` privately (``... (Jh Kh)`` in the message)."""
    import re

    body = t.forum.inbox(player)[-1].body
    return re.search(r"\((\S\S) (\S\S)\)", body).groups()


def ledger_cells_holding(db, needle: str) -> list[str]:
    """``table.column`` of every cell of the SQLite ledger file ``db`` holding ``needle`` (what a
    leak test names when the file's bytes hold it)."""
    import sqlite3

    con = sqlite3.connect(db)
    try:
        where = []
        for (name,) in con.execute("SELECT name FROM sqlite_master WHERE type='table'").fetchall():
            cols = [r[1] for r in con.execute(f'PRAGMA table_info("{name}")')]
            for c in cols:
                n = con.execute(f'SELECT COUNT(*) FROM "{name}" WHERE CAST("{c}" AS TEXT) LIKE ?',
                                (f"%{needle}%",)).fetchone()[0]
                where += [f"{name}.{c}"] * n
        return where
    finally:
        con.close()


# --- a hand under an amended ruleset

def _showdown(t: Table) -> None:
    t.act("alice", "HAND1 ROUND1 raise 10")
    t.act("bob", "HAND1 ROUND1 call")
    for r in (2, 3, 4):
        t.act("alice", f"HAND1 ROUND{r} check")
        t.act("bob", f"HAND1 ROUND{r} check")
    for p in ("alice", "bob"):
        t.act(p, "HAND1 reveal " + " ".join(t.p[p].hole()))


def _amended_hand(tmp_path) -> Table:
    """Hand 1 of a blognomic-2008 table amended by ``table amend`` (an edited sentence), played
    to a showdown; the Dealer's folder of the amended rules is then gone."""
    from typer.testing import CliRunner

    from nomicpoker.cli import app

    _run = CliRunner().invoke
    t = Table(tmp_path, players=("alice", "bob"))
    st = ["--state", str(t.state)]
    d = tmp_path / "p1"
    res = _run(app, ["rules", "export", str(d), "--table", "T", *st])
    assert res.exit_code == 0, res.output
    replace(d, 'name = "blognomic-2008"', 'name = "blognomic-p1"')
    with (d / "rule.txt").open("a", encoding="utf-8") as f:
        f.write(P42_SENTENCE + "\n")  # an edited sentence: the text's hash changes
    res = _run(app, ["table", "amend", "--table", "T", "--ruleset", str(d), "--note", "Proposal 1", *st])
    assert res.exit_code == 0, res.output
    t.start(ante=5)
    t.draw(1)
    _showdown(t)
    shutil.rmtree(d)  # the Dealer's folder is gone: the ledger's copy is the one
    return t


def roberts_side_pots(tmp) -> Table:
    """Hand 2: alice and bob all in, carol calls with less; bob's uncalled chips go back."""
    t = Table(tmp, players=("alice", "bob", "carol"), ruleset="roberts-nlhe", issue_decks=False, seed="eq")
    t.start(ante=0, blinds=(1, 2))
    for who, what in (("carol", "ROUND1 raise 40"), ("alice", "ROUND1 folds"), ("bob", "ROUND1 call"),
                      ("bob", "ROUND2 raise 20"), ("carol", "ROUND2 folds")):
        t.act(who, f"HAND1 {what}")
    assert t.money() == {"alice": 99, "bob": 141, "carol": 60}
    t.start(ante=0, blinds=(1, 2))
    for who in ("alice", "bob"):
        t.act(who, "HAND2 ROUND1 all in")
    t.act("carol", "HAND2 ROUND1 call")
    holes = REF["holes"](t.hands[2].deck, 2, ["bob", "carol", "alice"])
    for who in ("alice", "bob", "carol"):
        t.act(who, f"HAND2 reveal {' '.join(holes[who])}")
    return t
