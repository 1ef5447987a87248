"""The words of a tournament move at a table (pure): a player leaving for another table or
arriving from one, with his chips and the reason (:mod:`nomicpoker.core.fold.roster_moves`)."""

from __future__ import annotations

from nomicpoker.core.words import render
from nomicpoker.core.words.gndt import md_escape


def moved(arrives: bool, player: str, table: str, chips: int, why: str, key: str) -> str:
    """The announcement in the table's thread, before the next hand is dealt."""
    if arrives:
        said = f"{md_escape(player)} joins this table from table {md_escape(table)} with {chips} chips"
    elif table:
        said = f"{md_escape(player)} leaves this table for table {md_escape(table)} with {chips} chips"
    else:
        said = f"{md_escape(player)} leaves this table; his {chips} chips are removed from play"
    return (f"The Dealer: {said}" + (f" ({md_escape(why)})" if why else "") + ", from the next hand."
            f"\n\n{render.reference_tag(key)}\n")


__all__ = ["moved"]
