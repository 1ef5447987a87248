"""The coded refusals of account names that only differ in case (forums treat account names
case-insensitively, so the ledger must too): ``table create`` refuses them before anything is
written to the ledger."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("players,dealer", [(["alice", "Alice"], "Dealer"), (["alice", "dealer"], "Dealer")])
def test_table_create_refuses_account_names_that_differ_only_in_case(tmp_path, players, dealer):
    from nomicpoker.shell.dealer import service
    from nomicpoker.shell.dealer.service import ServiceError
    from nomicpoker.shell.storage.store import open_engine

    state = tmp_path / "state"
    engine = open_engine(f"sqlite:///{state / 'ledger.db'}")
    with pytest.raises(ServiceError) as err:
        service.create_table(engine, state, "T", players, 100, dealer=dealer)
    assert err.value.code == "bad_players"
    assert service.list_tables(engine) == []  # refused before anything is written
