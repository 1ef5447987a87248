"""The Dealer's commands for players' entropy: ``hand open`` and ``hand beacon``.

``hand open`` commits to the next hand's secrets and opens its entropy window; ``hand start``
(unchanged) deals once the window has closed; ``hand beacon`` pastes the drand round the
window waits for when the machine cannot fetch it (docs/fair-dealing.md, "Players' entropy").
"""

from __future__ import annotations

from typing import Optional

import typer

from nomicpoker.cli.setup.bot_cmd import DbOpt, StateOpt, hand_app, opened


def hand_open(table: str = typer.Option(..., "--table", help="Table name."),
              minutes: int = typer.Option(60, "--minutes", help="How long the entropy window stays open."),
              thread: Optional[str] = typer.Option(None, "--thread", help="Register an existing story post instead of creating one."),
              beacon_url: Optional[str] = typer.Option(None, "--beacon-url", help="drand HTTP relay for the beacon round (default NOMICPOKER_DRAND_URL, else https://api.drand.sh)."),
              state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Commit to the next hand's secrets and open its entropy window (tables with entropy on)."""
    from nomicpoker.shell.dealer.entropy_window import open_window

    with opened(state, db) as (st, engine):
        w = open_window(engine, st, table, minutes, thread=thread, relay=beacon_url)
        typer.echo(f"hand {w.hand} of {w.table}: commitments posted in thread {w.thread} (comment "
                   f"{w.opened_by}); entropy window open until {w.close_at}"
                   + (f"; drand quicknet round {w.beacon_round} will be mixed in" if w.beacon_round else "")
                   + f". Then: nomicpoker hand start --table {w.table}")


def hand_beacon(table: str = typer.Option(..., "--table", help="Table name."),
                round_number: int = typer.Option(..., "--round", help="The drand quicknet round (hand open named it)."),
                signature: str = typer.Option(..., "--signature", help="The round's signature, hex, as a relay publishes it."),
                state: Optional[str] = StateOpt, db: Optional[str] = DbOpt) -> None:
    """Paste the drand round the next hand waits for; it is verified before it is kept."""
    from sqlmodel import Session

    from nomicpoker.shell.storage import ledger
    from nomicpoker.shell.dealer.entropy_window import paste_beacon

    with opened(state, db) as (st, engine):
        with Session(engine) as s:
            hands = ledger.hand_rows(s, table) if ledger.get_table(s, table) else []
        number = (hands[-1].number + 1) if hands else 1
        b = paste_beacon(st, table, number, round_number, signature)
        typer.echo(f"hand {number} of {table}: drand quicknet round {b.round} verified "
                   f"(randomness {b.randomness}); nomicpoker hand start --table {table} deals with it")


def register(app: typer.Typer) -> None:
    """Add the commands to the hand group."""
    s = "--state /srv/poker/state"
    hand_app.command("open", example=f"nomicpoker hand open --table T --minutes 60 {s}")(hand_open)
    hand_app.command("beacon", example=f"nomicpoker hand beacon --table T --round 657413 --signature "
                     f"b713718a38ae...89cd97b {s}")(hand_beacon)
