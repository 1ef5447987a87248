"""The error structure: one CodedError base, each subclass keeping its own public attributes
and the text its callers print. The coded refusal of account names that only differ in case:
tests/e2e/reading/test_account_names_case.py."""

from __future__ import annotations

import copy
import pickle

from nomicpoker.ports import ForumError
from nomicpoker.core.errors import CodedError
from nomicpoker.core.phh.phh import PhhError
from nomicpoker.core.rules.validate import RulesetError, RulesetErrors


def test_forum_error_is_coded_and_keeps_retry_and_its_code_first_text():
    e = ForumError("rate_limited", "slow down", retry=True)
    assert isinstance(e, CodedError)
    assert (e.code, e.message, e.retry, str(e)) == ("rate_limited", "slow down", True, "rate_limited: slow down")


def test_ruleset_error_is_coded_keeps_file_and_key_and_survives_a_copy():
    e = RulesetError("bad_value", "r.toml", "params.deck.value", "must be per_player or shared")
    assert isinstance(e, CodedError)
    assert (e.code, e.file, e.key, e.message) == ("bad_value", "r.toml", "params.deck.value",
                                                  "must be per_player or shared")
    assert str(e) == "r.toml: params.deck.value: must be per_player or shared"
    for again in (copy.copy(e), pickle.loads(pickle.dumps(e))):
        assert (again.code, again.file, again.key, str(again)) == (e.code, e.file, e.key, str(e))
    many = RulesetErrors([e, RulesetError("missing_text", "r.toml", "", "no rule text")])
    assert isinstance(many, CodedError) and many.code == "invalid_ruleset" and len(many.errors) == 2


def test_phh_error_is_coded_and_still_a_value_error():
    e = PhhError("missing field 'actions'")
    assert isinstance(e, CodedError) and isinstance(e, ValueError)
    assert (e.code, str(e)) == ("bad_phh", "missing field 'actions'")


def test_rulesets_and_structures_report_problems_through_one_file_errors_type():
    """One shared "file errors" type (core/errors.py): each problem with a code, a file and a
    key, every problem at once; each kind keeps its own catch class and aggregate code."""
    from nomicpoker.core.errors import FileError, FileErrors
    from nomicpoker.core.tournament.structure_file import StructureError, StructureErrors

    for one, many, code, key in ((RulesetError, RulesetErrors, "invalid_ruleset", "params.deck.value"),
                                 (StructureError, StructureErrors, "invalid_structure", "levels[2].big_blind")):
        first, second = one("bad_value", "f.toml", key, "must be more"), one("bad_toml", "f.toml", "", "not TOML")
        both = many([first, second])
        assert isinstance(both, FileErrors) and isinstance(both, one) and isinstance(first, FileError)
        assert (both.code, both.file, both.key, both.errors) == (code, "f.toml", "", (first, second))
        assert str(both) == f"f.toml: {key}: must be more\nf.toml: not TOML"
        assert first.errors == (first,)
        for again in (copy.copy(both), pickle.loads(pickle.dumps(both))):
            assert type(again) is many and str(again) == str(both) and again.code == code
            assert [(e.code, e.key) for e in again.errors] == [("bad_value", key), ("bad_toml", "")]
    try:
        StructureErrors([])
    except ValueError as e:
        assert "StructureErrors" in str(e)
    else:
        raise AssertionError("an aggregate of no problems")
    assert not issubclass(StructureErrors, RulesetError) and not issubclass(RulesetErrors, StructureError)
