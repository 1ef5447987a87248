"""``nomicpoker phh``: replay PHH hand histories through the hand engine.

The files are found, read and replayed by :mod:`nomicpoker.shell.audit.phh_files` (the console
entry point runs ``phh replay`` from there directly, without building the CLI; see
``nomicpoker/__main__``); parsing and replay are pure (:mod:`nomicpoker.core.phh.phh`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from nomicpoker.cli import options

from nomicpoker.core.phh.phh import PhhError
from nomicpoker.shell.audit.phh_files import (  # noqa: F401 - the command's library, re-exported
    SUFFIXES, Summary, load_hands, phh_files, render_summary, replay_paths,
)


def register(app: typer.Typer) -> None:
    """Add this group's commands to the main app."""
    phh = options.Typer(name="phh", help="PHH hand histories: replay them through the engine.",
                      no_args_is_help=True)

    @phh.command("replay", example='nomicpoker phh replay hands/ --quiet')
    def replay_cmd(
        files: list[Path] = typer.Argument(..., help="PHH files or directories (searched for *.phh, *.phhs)"),
        ruleset: str = typer.Option("roberts-nlhe", help="ruleset to adjudicate under"),
        limit: Optional[int] = typer.Option(None, "--limit", parser=options.whole_number_at_least(1), help="stop after this many hands"),
        quiet: bool = typer.Option(False, "--quiet", "-q", help="do not list skipped hands"),
    ) -> None:
        """Replay each hand and compare the engine's finishing Money with finishing_stacks.

        Exit code 0 when no hand mismatched or failed, 1 otherwise."""
        from nomicpoker.cli.setup.bot_cmd import fail
        from nomicpoker.core.rules.validate import RulesetError
        from nomicpoker.shell.storage.rulesets import load_ruleset

        try:
            rs = load_ruleset(ruleset)
        except RulesetError as exc:  # before any hand is read: one line, exit 1
            fail(f"--ruleset {str(exc).splitlines()[0]}")
        from nomicpoker.shell.cycle import cli_memo, idle

        # the next run of this very command line is answered without building the CLI
        cli_memo.remember("phh replay", {"files": [str(f) for f in files], "ruleset": ruleset, "limit": limit,
                                         "quiet": quiet}, idle.code_signature())
        summary = replay_paths(files, rs, limit)
        typer.echo(render_summary(summary, quiet))
        raise typer.Exit(0 if summary.ok else 1)

    @phh.command("export", example='nomicpoker phh export --table T --hand 3 -o hand3.phh --state /srv/poker/state')
    def export_cmd(
        table: str = typer.Option(..., "--table", help="Table name."),
        hand: int = typer.Option(..., "--hand", parser=options.whole_number_at_least(1), help="Hand number."),
        output: Optional[Path] = typer.Option(None, "-o", "--output", help="Write to FILE instead of stdout."),
        state: Optional[str] = typer.Option(None, "--state", help="State directory (default ./state or NOMICPOKER_STATE)."),
        db: Optional[str] = typer.Option(None, "--db", help="Ledger database URL."),
    ) -> None:
        """Export a played hand as PHH (PokerKit reads it). roberts-nlhe hands are exact;
        blognomic-2008 hands are marked _nomicpoker_exact = false with what PHH cannot say."""
        from nomicpoker.cli.setup.bot_cmd import fail, opened
        from nomicpoker.core.phh.phh import write_phh
        from nomicpoker.core.phh.export import export_phh
        from nomicpoker.shell.audit.audit import pinned_rulesets, records

        with opened(state, db, need_state=False, readonly=True) as (_st, engine):
            rec = records(engine, table, hand)[0]
            rules = pinned_rulesets(engine, [table])[rec["ruleset_hash"]]  # as pinned, never a file
            from nomicpoker.shell.audit.site_data import phh_reason

            if phh_reason(rec):
                fail(f"hand {hand} of {table} is not written as PHH: {phh_reason(rec)}")
            try:
                text = write_phh(export_phh(rec, rules))
            except PhhError as exc:
                fail(f"hand {hand} of {table} cannot be written as PHH: {exc.message}")
        if output is None:
            typer.echo(text, nl=False)
        else:
            output.write_text(text, "utf-8")
            typer.echo(f"wrote {output} (hand {hand} of {table})")

    app.add_typer(phh, name="phh")
