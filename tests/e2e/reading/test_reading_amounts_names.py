"""One rule for amounts (digits end at a space or the end of the action; anything glued is a
``bad_amount``), two actions however joined are ``ambiguous``, and account names compared by
what they look like (UTS #39 skeletons), never by folding."""

from __future__ import annotations

from dataclasses import replace

import pytest

from nomicpoker.core.poker import engine
from nomicpoker.core.poker.actions import AllIn
from nomicpoker.core.table.fold_types import looks_alike, same_account
from nomicpoker.core.reading.grammar import GrammarError, Intent, parse_comment
from nomicpoker.shell.storage.rulesets import load_ruleset
from nomicpoker.shell.dealer import service
from nomicpoker.shell.jobs.demo import Player
from nomicpoker.shell.storage.store import open_engine

from kits.tables.bot import Table


def error(body: str) -> GrammarError:
    r = parse_comment(body)
    assert isinstance(r, GrammarError), (body, r)
    return r


@pytest.mark.parametrize("amount", [
    "10½", "10.5", "10,5", "1'000", "1’000", "1 000", "5*2", "5k", "1e3", "20abc", "20′", "20″",
    "2^4", "10/2", "10-20", "10+5", "0x10", "1_000", "10%", "٢٠", "10e", "1,0000",
])
def test_anything_glued_to_an_amount_is_refused_quoting_what_was_read(amount: str) -> None:
    if amount == "1 000":  # a space ends the amount: then "000" is a second number
        assert error(f"HAND1 ROUND1 raise {amount}").code == "unparseable"
        return
    e = error(f"HAND1 ROUND1 raise {amount}")
    assert e.code in ("bad_amount", "lookalike"), (amount, e)
    assert amount in e.message or amount in e.text


@pytest.mark.parametrize("tail", ["", ".", "!", ",", " chips", " chips.", ")", "**", ". gg", ", gg all"])
def test_an_amount_ends_at_a_space_punctuation_or_the_end(tail: str) -> None:
    r = parse_comment(f"HAND1 ROUND1 raise 20{tail}")
    assert isinstance(r, Intent) and r.amount == 20, (tail, r)


@pytest.mark.parametrize("body", [
    "HAND1 ROUND1 checks, folds", "HAND1 ROUND1 check/fold", "HAND1 ROUND1 check; fold",
    "HAND1 ROUND1 call: raise 20", "HAND1 ROUND1 raise 20, call", "HAND1 ROUND1 fold & check",
    "HAND1 ROUND1 call then all in", "HAND1 ROUND1 check or fold",
])
def test_two_actions_however_joined_are_ambiguous(body: str) -> None:
    e = error(body)
    assert e.code == "ambiguous" and "one action per comment" in e.message


@pytest.mark.parametrize("body", ["HAND1 ROUND1 raise 10, 20", "HAND1 ROUND1 raise 10 20",
                                  "HAND1 ROUND1 raise 10; 20"])
def test_two_numbers_are_refused_however_separated(body: str) -> None:
    assert error(body).code == "unparseable"


@pytest.mark.parametrize("body", ["HAND1 ROUND1 all in for 20", "HAND1 ROUND1 all in 20",
                                  "HAND1 ROUND1 all-in for $20"])
def test_all_in_may_state_its_amount(body: str) -> None:
    assert replace(parse_comment(body), text="") == Intent("all_in", hand=1, round=1, amount=20)


def test_all_in_with_a_stated_amount_other_than_the_stack_is_refused_like_a_call() -> None:
    rs = load_ruleset("roberts-nlhe")
    h = engine.start_hand(rs, 1, [("a", 100), ("b", 100)], "b", ante=0, blinds=(1, 2))
    from nomicpoker.core.poker.actions import DealHole, DealHoles
    h = engine.apply(h, DealHoles((DealHole("a", ("Ah", "Kh")), DealHole("b", ("2c", "3d")))))
    who = engine.need(h).players[0]
    stack = next(s.money for s in h.seats if s.name == who)
    bad = engine.apply(h, AllIn(who, 1, 1, amount=20))
    assert isinstance(bad, engine.Rejection) and bad.code == "call_amount_mismatch"
    assert f"is {stack}, not 20" in bad.message
    good = engine.apply(h, AllIn(who, 1, 1, amount=stack))
    assert not isinstance(good, engine.Rejection)


# --- names -------------------------------------------------------------------------------------

@pytest.mark.parametrize("fake,seat", [("\u212aevan", "kevan"), ("\u017fam", "sam"), ("\ufb01ona", "fiona"),
                                       ("b\u043eb", "bob"), ("\u13aalice", "Alice"), ("rnary", "mary"),
                                       ("b0b", "bob"), ("\uff41lice", "alice"), ("wiII", "will"),
                                       ("Iily", "lily"), ("AI", "Al")])
def test_an_account_that_only_looks_like_a_seat_is_not_that_seat(fake: str, seat: str) -> None:
    assert not same_account(fake, seat)
    assert looks_alike(fake, seat)


@pytest.mark.parametrize("a,b", [("Alice", "alice"), ("BOB", "bob"), ("Zoë", "zoë")])
def test_plain_case_variants_are_one_account(a: str, b: str) -> None:
    assert same_account(a, b) and looks_alike(a, b)


def test_a_lookalike_account_never_acts_for_the_seat_and_is_told_why(tmp_path) -> None:
    t = Table(tmp_path, players=("kevan", "bob"))
    t.start()
    Player("\u212aevan", t.forum, t.thread).say("HAND#1 DICE52 DICE52")
    t.run()
    v = t.verdicts()[-1]
    assert v.status == "rejected" and v.code == "not_seated"
    assert "only looks like kevan" in v.message and "U+212A KELVIN SIGN" in v.message
    assert any("only looks like kevan" in b for b in t.new_dealer())


@pytest.mark.parametrize("players", [["kevan", "\u212aevan"], ["mary", "rnary"], ["bob", "b0b"],
                                     ["alice", "ALICE"], ["sam", "\u017fam"], ["will", "wiII"]])
def test_table_create_refuses_seats_that_look_alike(tmp_path, players) -> None:
    engine_ = open_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    with pytest.raises(service.ServiceError) as e:
        service.create_table(engine_, tmp_path, "T", players, 100)
    assert e.value.code == "bad_players"


def test_table_create_refuses_a_seat_that_looks_like_the_dealer(tmp_path) -> None:
    engine_ = open_engine(f"sqlite:///{tmp_path / 'ledger.db'}")
    with pytest.raises(service.ServiceError) as e:
        service.create_table(engine_, tmp_path, "T", ["De\u0430ler", "bob"], 100)
    assert e.value.code == "bad_players" and "Dealer" in str(e.value)
