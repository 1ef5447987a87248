"""Which forum a table plays on (shell): the factory the poll cycle and the Dealer's commands
open a table's forum with.

WHY a module of its own: the poll (:mod:`nomicpoker.shell.jobs.poll`) and the Dealer's
commands (:mod:`nomicpoker.shell.dealer.service`, :mod:`~nomicpoker.shell.dealer.controls`)
all open a table's forum the same way, and the commands must not import the poll job to do
it. Tests inject a factory returning fakes.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from nomicpoker.ports import Forum

ForumFactory = Callable[[str, dict, Path], Forum]


def default_forum_factory(kind: str, config: dict, state: Path) -> Forum:
    """The real adapters; tests inject a factory returning fakes (imported late so the poll
    cycle's import does not pull in praw and BeautifulSoup)."""
    from nomicpoker.adapters.registry import open_forum
    from nomicpoker.shell import faults

    return faults.wrap(open_forum(kind, config, state))
