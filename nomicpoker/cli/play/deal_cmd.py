"""Fair-dealing commands: ``audit export``, ``audit verify``, ``deck issue``.

``audit verify`` needs only public data: a hand record exported from the ledger (or the
ledger itself, from which it builds the same records). It prints one line per checked item
and exits non-zero on any failure, so an auditor can script it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

import typer

from nomicpoker.cli import options

from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, audit_app, fail, opened

deck_app = options.Typer(help="Trading Post decks.", no_args_is_help=True)


@audit_app.command("export", example='nomicpoker audit export --table T --hand 3 -o hand3.json --state /srv/poker/state')
def audit_export(table: str = typer.Option(..., "--table", help="Table name."),
                 hand: int = typer.Option(..., "--hand", parser=options.whole_number_at_least(1), help="Hand number."),
                 output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to FILE instead of stdout."),
                 state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Export a hand's public record (nomicpoker-hand-record/1): commitments, board, dice,
    decks, draws, reveals and, once the hand has ended, the secrets."""
    from nomicpoker.shell.audit.audit import records

    with opened(state, db, need_state=False, readonly=True) as (_st, engine):
        rec = records(engine, table, hand)[0]
        text = json.dumps(rec, ensure_ascii=False, indent=2) + "\n"
        if output is None:
            typer.echo(text, nl=False)
        else:
            output.write_text(text, "utf-8")
            typer.echo(f"wrote {output} (hand {hand} of {table}"
                       f"{'' if rec['secrets'] else ', still running: secrets not yet published'})")


def _records_from_file(path: Path) -> list[dict]:
    try:
        doc = json.loads(path.read_text("utf-8"))
    except OSError as exc:
        fail(f"--record {path}: {exc.strerror or exc}")
    except ValueError as exc:
        fail(f"--record {path}: not JSON ({exc})")
    if isinstance(doc, dict) and "hands" in doc and "format" not in doc:
        doc = doc["hands"]  # a `ledger --format json` document
    return doc if isinstance(doc, list) else [doc]


@audit_app.command("verify", example='nomicpoker audit verify --record hand3.json')
def audit_verify(table: Optional[str] = typer.Option(None, "--table", help="Table name (with the ledger)."),
                 hand: Optional[int] = typer.Option(None, "--hand", parser=options.whole_number_at_least(1), help="Only this hand."),
                 record: Optional[Path] = typer.Option(None, "--record", help="A hand record file (audit export, or ledger --format json)."),
                 state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Recompute every community card, die, issued deck and reveal from public data."""
    from nomicpoker.shell.dealer import entropy_window
    from nomicpoker.shell.audit.audit import pinned_rulesets, records, verify_hands
    from nomicpoker.shell.dealer.service import list_tables

    pinned = None
    archived: dict = {}  # (table, hand) -> the entropy window's check against the archive
    if record is not None:
        recs = _records_from_file(record)
        if hand is not None:
            recs = [r for r in recs if isinstance(r, dict) and r.get("hand") == hand]
    else:
        with opened(state, db, need_state=False, readonly=True) as (_st, engine):
            names = [table] if table else [t.name for t in list_tables(engine)]
            recs = []
            for name in names:
                mine = records(engine, name, hand)
                recs += mine
                for number, extra in entropy_window.archive_checks(engine, name, mine).items():
                    archived[(name, number)] = extra
            pinned = pinned_rulesets(engine, names)  # the rules each hand was played under
    if not recs:
        fail("no hand records to verify")
    failed = 0
    for rec, checks in verify_hands(recs, pinned):
        if isinstance(rec, dict):
            checks = checks + archived.get((rec.get("table"), rec.get("hand")), [])
        label = f"{rec.get('table', '?')} hand {rec.get('hand', '?')}" if isinstance(rec, dict) else "record"
        for c in checks:
            typer.echo(f"{'PASS' if c.ok else 'FAIL'} {label}: {c.item}: {c.detail}")
            failed += not c.ok
        if isinstance(rec, dict) and rec.get("secrets") is None:
            typer.echo(f"NOTE {label}: still running; cards and dice become checkable when it ends")
    if failed:
        typer.echo(f"verify: {failed} item(s) FAILED", err=True)
        raise typer.Exit(1)
    typer.echo(f"verify: all items passed ({len(recs)} hand record(s))")


@deck_app.command("issue", example='nomicpoker deck issue --table T --state /srv/poker/state')
def deck_issue(table: str = typer.Option(..., "--table", help="Table name."),
               hand: Optional[int] = typer.Option(None, "--hand", parser=options.whole_number_at_least(1), help="Hand number (default: the latest)."),
               state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """(Re-)send every seated player their Trading Post deck for the hand, privately."""
    from nomicpoker.shell.storage import ledger, secrets_store
    from nomicpoker.core.words.notices import deck_listing
    from nomicpoker.core.fairness.dealing import issue_deck
    from nomicpoker.shell.cycle.forums import forum_for
    from nomicpoker.shell.storage.store import loads

    with opened(state, db) as (st, engine):
        from sqlmodel import Session  # the database layer only when needed
        with Session(engine) as s:
            t = ledger.get_table(s, table)
            hands = ledger.hand_rows(s, table)
            if not hands:
                fail(f"table {table} has no hands yet (nomicpoker hand start --table {table})")
            h = hands[-1] if hand is None else next((x for x in hands if x.number == hand), None)
            if h is None:
                fail(f"table {table} has no hand {hand}")
            from nomicpoker.shell.storage import pinned

            rs = pinned.ruleset(s, t, h.ruleset_hash)  # the rules that hand is played under
            if rs.deck == "shared":
                fail(f"table {table} deals hole cards from the dealer's one deck ({rs.name}): "
                     "there are no decks to issue")
            if not t.issue_decks:
                fail(f"table {table} uses players' own decks (created with --own-decks)")
            forum = forum_for(t, st)
        from nomicpoker.core.fairness import entropy

        # the decks are dealt from the committed secret with the hand's entropy mixed in
        secret = entropy.mix(secrets_store.load(st, table, h.number), h.number,
                             entropy.from_json(loads(h.entropy)) if h.entropy else None)
        for name, _money in loads(h.seats):
            deck = issue_deck(secret.decks, h.number, name)
            forum.send_private(name, f"Your deck for hand {h.number} ({table})", deck_listing(deck))
            typer.echo(f"sent {name} their deck for hand {h.number}: {deck.checksum}")


def register(app: typer.Typer) -> None:
    """Add this group's commands to the main app (audit export/verify join the audit group)."""
    app.add_typer(deck_app, name="deck")
