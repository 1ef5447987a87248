"""Test kit for rulesets, pinned rulesets and amendments: copies of a bundled ruleset, in-place
edits, a Dealer's amended copy of blognomic-2008 as a passed proposal would make it, and the
content hash computed by the documented recipe (not by the loader under test)."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

from _paths import ROOT

RULES_DIR = ROOT / "rules"

#: The sentence "Proposal 42" adds to the rule text, and that the amended copy cites.
P42_SENTENCE = "From Proposal 42 on, a Player may Check in the first Round while no Player has Raised in it."
P42_NOTE = "Proposal 42 gives side pots: an all-in player wins only what he matched."


def recipe_hash(d: Path) -> str:
    """docs/rulesets.md: sha256 of the two files' hex digests, one per line."""
    h = lambda b: hashlib.sha256(b).hexdigest()  # noqa: E731
    return h(f"{h((d / 'ruleset.toml').read_bytes())}\n{h((d / 'rule.txt').read_bytes())}\n".encode())


def copy_ruleset(dest: Path, name: str = "blognomic-2008") -> Path:
    shutil.copytree(RULES_DIR / name, dest)
    return dest


def replace(d: Path, old: str, new: str, file: str = "ruleset.toml") -> None:
    p = d / file
    s = p.read_text(encoding="utf-8")
    assert old in s, f"test setup: {old!r} not in {file}"
    p.write_text(s.replace(old, new, 1), encoding="utf-8")


def proposal_42(dest: Path) -> Path:
    """blognomic-2008 amended by a made-up Proposal 42: a check is allowed in round 1 (a new
    sentence, cited), side pots (same sentence, new note), and the check_before_flop rejection
    no longer quotes the old sentence. Two lines are added to the rule text."""
    d = copy_ruleset(dest)
    with (d / "rule.txt").open("a", encoding="utf-8") as f:
        f.write("# Proposal 42, enacted 1 Feb 2008, adds the sentence below.\n" + P42_SENTENCE + "\n")
    replace(d, 'name = "blognomic-2008"', 'name = "blognomic-2008-p42"')
    replace(d, '[params.check_in_first_round]\nvalue = false\nsource = "Dealing and Play, first round"\n'
               'cite = "No Player may Check before the Flop."',
            '[params.check_in_first_round]\nvalue = true\nsource = "Dealing and Play, first round"\n'
            f'cite = "{P42_SENTENCE}"')
    replace(d, "[params.side_pots]\nvalue = false", "[params.side_pots]\nvalue = true")
    replace(d, 'note = "The 2008 text has no side pots: the winner takes the whole Pot, even a player who '
               'called all-in for less. The payout comment says so when it matters."',
            f'note = "{P42_NOTE}"')
    replace(d, '[rejections.check_before_flop]\nsource = "Dealing and Play, first round"\n'
               'cite = "No Player may Check before the Flop."\n', "")
    return d
