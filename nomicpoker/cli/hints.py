"""The ``next:`` hints the CLI prints: each a command that works as printed at that moment,
for the table's ruleset, forum and ``--state``/``--db`` (tests/e2e/cli/test_every_hint_runs.py runs
them). WHY a module of their own: a hint is read from the ledger and the fold, and the
commands that print them (table create, table amend, hand start) only echo it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Optional

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session


def start_hint(session: Session, row, state: Optional[str], db: Optional[str]) -> str:
    """The ``hand start`` command for ``row`` as it works when copied: the forced bet its next
    hand's ruleset takes (blinds, else an ante), ``--thread`` where the forum cannot create
    story posts, and the ``--state``/``--db`` the Dealer gave."""
    import shlex

    from nomicpoker.shell.storage import ledger, pinned

    rules = pinned.current_ruleset(session, row)
    parts = ["nomicpoker", "hand", "start", "--table", row.name]
    ante, blinds = ledger.forced_bets(session, row)
    if ((blinds if rules.blinds else ante is not None) and not (blinds and not rules.blinds)) or (
            rules.big_blind if rules.blinds else rules.forced_ante):
        pass  # the table's own forced bets, or the amounts its rule states: hand start takes them
    else:
        parts += ["--blinds", "1,2"] if rules.blinds else ["--ante", "5"]
    for flag, value in (("--state", state), ("--db", db)):
        if value:
            parts += [flag, value]
    line = " ".join(shlex.quote(p) for p in parts)
    if not ledger.table_abilities(row).create_thread:
        return (f"post the hand's story post on the {row.forum_kind} forum, then: {line} "
                "--thread <the story post's URL>")
    return line


def play_hints(engine, st: Path, started, state: Optional[str], db: Optional[str]) -> list[str]:
    """What works right after ``hand start``: on the local forum, the first thing the hand
    waits for posted as that player (a Hole Card Draw's dice, else a legal action of the
    player to act), then the poll that reads it; elsewhere the poll (the players comment on
    the forum). Each as it works when copied (``--state``/``--db`` as given)."""
    import shlex

    from sqlmodel import Session

    from nomicpoker.core.poker import engine as hand_engine
    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.cycle.replay import fold_for

    where = [part for flag, value in (("--state", state), ("--db", db)) if value for part in (flag, value)]
    poll = " ".join(shlex.quote(p) for p in ["nomicpoker", "poll", *where])
    with Session(engine) as s:
        table = ledger.get_table(s, started.table)
        if not ledger.table_abilities(table).cli_players:
            return [poll]  # the players comment on their forum; the poll reads them
        res = fold_for(s, table, st)
    cur, h = res.current, res.state.current if res.state is not None else None
    if cur is None or h is None or cur.phase == "complete" or not cur.waiting:
        return [poll]
    who, n = cur.waiting[0], started.number
    if cur.phase == "draw":
        body = f"HAND#{n} DICE52 DICE52"
    elif cur.phase == "betting":
        legal = hand_engine.legal_actions(h.hand)
        act = ("call" if legal is not None and legal.call is not None else
               "check" if legal is not None and legal.check else "fold")
        body = f"HAND{n} ROUND{h.hand.round} {act}"
    else:
        return [poll]
    post = ["nomicpoker", "forum", "post", *(["--state", state] if state else []), "--as", who, started.thread, body]
    return [" ".join(shlex.quote(p) for p in post), poll]
