"""The composition root (shell): the one module of the shell and the CLI that imports the
adapters, and the one function that turns a table's configuration into its forum.

WHY one place: the poll, the Dealer's commands (:mod:`nomicpoker.shell.dealer.service`,
:mod:`~nomicpoker.shell.dealer.controls`, :mod:`~nomicpoker.shell.dealer.entropy_window`), the
idle check, ``serve``, the demo and the CLI all open forums; they do it through here, so a
new forum is a module in ``adapters/`` and its line in ``adapters/registry.py``, and nothing
else in the shell changes. What a forum can do is read here once, when ``table create``
stores it with the table (:func:`declared_abilities`); from then on replay and ``audit`` read
the stored abilities from the ledger (:func:`nomicpoker.shell.storage.ledger.table_abilities`)
and never import an adapter (tests/unit/house/test_rooms.py checks both). The adapters are imported
late, inside each function, so a poll's or an audit's import does not pull in praw,
BeautifulSoup or an IRC client. Tests inject a :data:`ForumFactory` returning fakes.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from nomicpoker.ports import Abilities, Bridge, Forum

if TYPE_CHECKING:
    from nomicpoker.shell.storage.store import TableRow

ForumFactory = Callable[[str, dict, Path], Forum]


def open_forum(kind: str, config: Mapping[str, object], state: Path) -> Forum:
    """The adapter for ``kind`` built from ``config`` (``ForumError('config')`` names a bad
    key), as the registry opens it: no crash points (the CLI's ``forum`` commands)."""
    from nomicpoker.adapters.registry import open_forum as registry_open

    return registry_open(kind, config, state)


def default_forum_factory(kind: str, config: dict, state: Path) -> Forum:
    """The real adapters, wrapped with the crash points of the I/O boundary
    (:mod:`nomicpoker.shell.faults`): what the poll and the Dealer's commands open."""
    from nomicpoker.shell import faults

    return faults.wrap(open_forum(kind, config, state))


def forum_for(table: "TableRow", state: Path, factory: ForumFactory | None = None) -> Forum:
    """The forum ``table`` plays on: its kind and stored config (``StoreError('bad_config')``
    for a config that is not a JSON object) through ``factory`` (default: the real adapters)."""
    from nomicpoker.shell.storage.ledger import forum_settings

    return (factory or default_forum_factory)(table.forum_kind, forum_settings(table), state)


def declared_abilities(kind: str, config: Mapping[str, object]) -> Abilities:
    """What a forum of ``kind`` with ``config`` can do, without opening it (no network, no
    credentials): read by ``table create``, which stores it with the table, and by the idle
    check and the CLI's checks of a forum that has no table yet. ``ForumError('config')`` for
    an unknown kind."""
    from nomicpoker.adapters.registry import declared_abilities as registry_declared

    return registry_declared(kind, config)


def local_forum(state: Path, dealer: str = "Dealer", clock: Callable | None = None) -> Forum:
    """The embedded local forum of the state folder (``init``, ``forum post``, the demo)."""
    from nomicpoker.adapters.local import LocalForum
    from nomicpoker.shell.storage.paths import forum_db_path

    return LocalForum(forum_db_path(state), dealer=dealer, clock=clock)


def open_bridges(tables: Sequence[tuple[str, str, Mapping[str, object]]], state: Path) -> list[Bridge]:
    """The live connections ``serve`` runs for ``tables`` (``(name, kind, config)``): the
    registry's bridges (IRC)."""
    from nomicpoker.adapters.registry import open_bridges as registry_bridges

    return registry_bridges(tables, state)


def adapters_folder() -> Path:
    """Where the installed adapters' source lives (the idle check's code signature covers it)."""
    from nomicpoker.adapters import registry

    return Path(registry.__file__).parent
