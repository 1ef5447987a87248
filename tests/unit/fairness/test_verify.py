"""Acceptance tests for the hand-record verifier (issue 4): nomicpoker/verify.py.

The honest record is built with the reference implementation from docs/fair-dealing.md
(executed here), never with nomicpoker.core.fairness.dealing, so verify is checked against an independent
construction. Then every kind of published value is tampered with, and verify must fail and
name the item.
"""

from __future__ import annotations

import copy
import hashlib
import re
from typing import Callable

import pytest

from nomicpoker.core.fairness import printers
from nomicpoker.core.fairness.verify import RECORD_FORMAT, Check, comment_order, verify_record, verify_summary

from kits.references.fair_dealing import REF

WORDS = (printers.INITIALS, printers.SURNAMES, printers.TRADES, printers.TOWNS)
HAND = 3
SECRETS = {name: hashlib.sha256(f"test secret {name}".encode()).digest() for name in ("deck", "dice", "decks")}
OWN_CHECKSUM = "Cards printed by: Q. Z. Nobody Press, Nowhere (0badf00d)"


def _find_comment(start: int, identical: bool) -> int:
    for cid in range(start, start + 10_000):
        a = REF["die"](SECRETS["dice"], str(cid), 0, 52)
        b = REF["die"](SECRETS["dice"], str(cid), 1, 52)
        if (a == b) == identical:
            return cid
    raise AssertionError("no such comment")


def _dice(cid: int, player: str, source: str = "bot", results: tuple[int, int] | None = None) -> list[dict]:
    if results is None:
        results = tuple(REF["die"](SECRETS["dice"], str(cid), i, 52) for i in (0, 1))
    return [{"comment_id": str(cid), "player": player, "index": i, "sides": 52,
             "result": results[i], "source": source} for i in (0, 1)]


def honest_record() -> dict:
    """A finished hand: alice and bob hold issued decks and use the bot's roller (bob's first
    draw is identical and drawn again); carol uses her own deck and the forum's roller."""
    a = _find_comment(20, identical=False)
    b1 = _find_comment(a + 1, identical=True)
    b2 = _find_comment(b1 + 1, identical=False)
    c = b2 + 1
    dice = _dice(a, "alice") + _dice(b1, "bob") + _dice(b2, "bob") + _dice(c, "carol", "forum", (5, 9))
    pos = {"alice": [dice[0]["result"], dice[1]["result"]], "bob": [dice[4]["result"], dice[5]["result"]],
           "carol": [5, 9]}
    decks = {p: REF["deck"](SECRETS["decks"], HAND, p) for p in ("alice", "bob")}
    checksums = {p: REF["checksum"](d, *WORDS) for p, d in decks.items()}
    checksums["carol"] = OWN_CHECKSUM
    return {
        "format": RECORD_FORMAT,
        "table": "T", "hand": HAND, "ruleset": "blognomic-2008", "ruleset_hash": "ab" * 32,
        "commitments": {k: hashlib.sha256(v).hexdigest() for k, v in SECRETS.items()},
        "secrets": {k: v.hex() for k, v in SECRETS.items()},
        "board": REF["board"](SECRETS["deck"], HAND),
        "dice": dice,
        "decks": [{"player": "alice", "source": "issued", "checksum": checksums["alice"]},
                  {"player": "bob", "source": "issued", "checksum": checksums["bob"]},
                  {"player": "carol", "source": "own", "checksum": OWN_CHECKSUM}],
        "draws": [{"player": p, "comment_id": str(c + 1 + i), "positions": pos[p], "checksum": checksums[p]}
                  for i, p in enumerate(("alice", "bob", "carol"))],
        "reveals": [{"player": "alice", "comment_id": str(c + 50), "cards": [decks["alice"][pos["alice"][1] - 1],
                                                                              decks["alice"][pos["alice"][0] - 1]]},
                    {"player": "bob", "comment_id": str(c + 51), "cards": [decks["bob"][p - 1] for p in pos["bob"]]},
                    {"player": "carol", "comment_id": str(c + 52), "cards": ["Ah", "Ad"]}],
    }


RECORD = honest_record()


def failures(checks: list[Check]) -> dict[str, Check]:
    return {c.item: c for c in checks if not c.ok}


def by_item(checks: list[Check]) -> dict[str, Check]:
    return {c.item: c for c in checks}


# --------------------------------------------------------------------------- honest records


def test_an_honestly_built_record_verifies_with_no_failures():
    checks = verify_record(copy.deepcopy(RECORD))
    assert failures(checks) == {}
    passed, failed = verify_summary(checks)
    assert failed == 0 and passed == len(checks)


def test_every_published_value_gets_its_own_named_check():
    items = by_item(verify_record(RECORD))
    expected = {"format", "commitment deck", "commitment dice", "commitment decks",
                "board card 1 (flop)", "board card 2 (flop)", "board card 3 (flop)",
                "board card 4 (turn)", "board card 5 (river)", "deck alice", "deck bob", "deck carol",
                "reveal alice", "reveal bob", "reveal carol"}
    assert expected <= set(items)
    assert sum(i.startswith("die comment ") for i in items) == len(RECORD["dice"])
    assert sum(i.startswith("draw ") for i in items) == 3


def test_forum_dice_and_own_decks_pass_but_say_what_was_not_checkable():
    items = by_item(verify_record(RECORD))
    forum_die = items[f"die comment {RECORD['dice'][-1]['comment_id']} #1"]
    assert forum_die.ok and "forum" in forum_die.detail and "not recomputable" in forum_die.detail
    assert items["deck carol"].ok and "own deck" in items["deck carol"].detail
    assert items["reveal carol"].ok and "cannot be checked" in items["reveal carol"].detail


def test_a_partial_board_verifies_as_dealt_so_far():
    r = copy.deepcopy(RECORD)
    r["board"] = r["board"][:3]
    items = by_item(verify_record(r))
    assert "board card 4 (turn)" not in items and items["board card 3 (flop)"].ok


def test_a_running_hand_reports_not_finished_and_checks_only_commitment_format():
    r = copy.deepcopy(RECORD)
    r["secrets"] = None
    checks = verify_record(r)
    items = by_item(checks)
    assert failures(checks) == {}
    assert "not finished" in items["secrets"].detail
    assert items["commitment deck"].ok and "not published" in items["commitment deck"].detail
    assert "when the hand ends" in items["board card 1 (flop)"].detail
    assert "when the hand ends" in items["reveal alice"].detail


def test_a_running_hand_with_a_malformed_commitment_fails_it():
    r = copy.deepcopy(RECORD)
    r["secrets"] = None
    r["commitments"]["dice"] = "XYZ"
    assert set(failures(verify_record(r))) == {"commitment dice"}


def test_a_draw_statement_without_the_hex_suffix_still_matches():
    r = copy.deepcopy(RECORD)
    r["draws"][0]["checksum"] = re.sub(r" \(\w+\)$", "", r["draws"][0]["checksum"]).lower()
    assert failures(verify_record(r)) == {}


# --------------------------------------------------------------------------- tampering


def _set(path: tuple, value: Callable) -> Callable[[dict], None]:
    def mutate(r: dict) -> None:
        target = r
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value(target[path[-1]])
    return mutate


def _other_card(card: str) -> str:
    return "2c" if card != "2c" else "3c"


def _flip_hex(h: str) -> str:
    return ("0" if h[0] != "0" else "1") + h[1:]


def _die_item(i: int) -> str:
    d = RECORD["dice"][i]
    return f"die comment {d['comment_id']} #{d['index'] + 1}"


def _draw_item(i: int) -> str:
    d = RECORD["draws"][i]
    return f"draw {d['player']} (comment {d['comment_id']})"


def _other_position(p: int) -> int:
    return p % 52 + 1


TAMPERINGS = {
    # name: (mutation, items that must fail, exactly those?)
    "board card 1": (_set(("board", 0), _other_card), {"board card 1 (flop)"}, True),
    "board card 4": (_set(("board", 3), _other_card), {"board card 4 (turn)"}, True),
    "board card 5": (_set(("board", 4), _other_card), {"board card 5 (river)"}, True),
    "extra board card": (_set(("board",), lambda b: b + ["2c"]), {"board card 6"}, True),
    "secret deck": (_set(("secrets", "deck"), _flip_hex), {"commitment deck", "board card 1 (flop)"}, False),
    "secret dice": (_set(("secrets", "dice"), _flip_hex), {"commitment dice", _die_item(0)}, False),
    "secret decks": (_set(("secrets", "decks"), _flip_hex),
                     {"commitment decks", "deck alice", "deck bob", "reveal alice", "reveal bob"}, True),
    "commitment deck": (_set(("commitments", "deck"), _flip_hex), {"commitment deck"}, True),
    "commitment dice": (_set(("commitments", "dice"), _flip_hex), {"commitment dice"}, True),
    "commitment decks": (_set(("commitments", "decks"), _flip_hex), {"commitment decks"}, True),
    "issued deck checksum": (_set(("decks", 0, "checksum"), lambda c: c[:-2] + ("0)" if c[-2] != "0" else "1)")),
                             {"deck alice", _draw_item(0)}, True),
    "issued deck printer": (_set(("decks", 1, "checksum"), lambda c: c.replace("Cards printed by: ", "Cards printed by: Z")),
                            {"deck bob", _draw_item(1)}, True),
    "draw checksum": (_set(("draws", 0, "checksum"), lambda c: c[:-2] + ("0)" if c[-2] != "0" else "1)")),
                      {_draw_item(0)}, True),
    "own deck draw checksum": (_set(("draws", 2, "checksum"), lambda c: c.replace("Nowhere", "Somewhere")),
                               {_draw_item(2)}, True),
    "bot die result": (_set(("dice", 0, "result"), _other_position), {_die_item(0), _draw_item(0)}, True),
    "bot die result of a redrawn pair": (_set(("dice", 3, "result"), _other_position),
                                         {_die_item(3)}, False),
    "forum die result": (_set(("dice", 7, "result"), _other_position), {_draw_item(2)}, True),
    "die out of range": (_set(("dice", 7, "result"), lambda r: 53), {_die_item(7), _draw_item(2)}, True),
    "drawn position": (_set(("draws", 0, "positions"), lambda p: [p[0], _other_position(p[1])]),
                       {_draw_item(0), "reveal alice"}, False),
    "drawn position of the identical pair": (_set(("draws", 1, "positions"), lambda p: [RECORD["dice"][2]["result"]] * 2),
                                             {_draw_item(1)}, False),
    "revealed card": (_set(("reveals", 0, "cards"), lambda cs: [cs[0], _other_card(cs[1]) if _other_card(cs[1]) != cs[0] else "4c"]),
                      {"reveal alice"}, True),
    "hand number": (_set(("hand",), lambda h: h + 1), {"board card 1 (flop)", "deck alice", "reveal alice"}, False),
}


@pytest.mark.parametrize("name", list(TAMPERINGS))
def test_tampering_with_any_published_value_fails_verify_and_names_the_item(name):
    mutate, must_fail, exact = TAMPERINGS[name]
    r = copy.deepcopy(RECORD)
    mutate(r)
    failed = failures(verify_record(r))
    assert must_fail <= set(failed), sorted(failed)
    if exact:
        assert set(failed) == must_fail
    for item in must_fail:
        detail = failed[item].detail
        assert ("expected" in detail and "found" in detail) or "at most 5" in detail or "not in 1..52" in detail, detail


def test_a_tampered_board_card_reports_the_expected_and_found_cards():
    r = copy.deepcopy(RECORD)
    r["board"][3] = _other_card(RECORD["board"][3])
    check = failures(verify_record(r))["board card 4 (turn)"]
    assert RECORD["board"][3] in check.detail and r["board"][3] in check.detail


# --------------------------------------------------------------------------- the identical-dice rule


def test_a_draw_using_an_identical_pair_fails():
    r = copy.deepcopy(RECORD)
    # Drop bob's redraw: his only Hole Card Draw is identical, so his statement has no basis.
    r["dice"] = r["dice"][:4] + r["dice"][6:]
    failed = failures(verify_record(r))
    assert "different" in failed[_draw_item(1)].detail


def test_drawing_again_after_a_valid_draw_is_flagged():
    r = copy.deepcopy(RECORD)
    later = _find_comment(int(RECORD["dice"][5]["comment_id"]) + 2, identical=False)
    draw = r["draws"][0]
    extra = _dice(later, "alice")
    draw["comment_id"] = str(later + 1)
    draw["positions"] = [extra[0]["result"], extra[1]["result"]]
    r["dice"] += extra
    r["reveals"][0]["comment_id"] = str(later + 100)
    r["reveals"][0]["cards"] = [REF["deck"](SECRETS["decks"], HAND, "alice")[p - 1] for p in draw["positions"]]
    failed = failures(verify_record(r))
    assert set(failed) == {f"draw alice (comment {later + 1})"}
    assert "drew again" in failed[f"draw alice (comment {later + 1})"].detail


def test_dice_after_the_draw_statement_do_not_count():
    r = copy.deepcopy(RECORD)
    late = int(RECORD["reveals"][-1]["comment_id"]) + 1
    r["dice"] += _dice(_find_comment(late, identical=False), "alice")
    assert failures(verify_record(r)) == {}


def test_comment_ids_order_as_forums_issue_them():
    assert comment_order("9") < comment_order("10") < comment_order("11")
    assert comment_order("zz") < comment_order("100")  # base-36: zz = 1295 < 100 = 1296


# --------------------------------------------------------------------------- malformed records


@pytest.mark.parametrize("key", [k for k in RECORD])
def test_a_missing_top_level_key_is_a_failing_check_naming_it(key):
    r = copy.deepcopy(RECORD)
    del r[key]
    failed = failures(verify_record(r))
    assert failed, key
    assert any(key in item or key in c.detail for item, c in failed.items()), failed


@pytest.mark.parametrize("name", ["deck", "dice", "decks"])
def test_a_secret_that_is_not_hex_is_a_failing_check_naming_it(name):
    r = copy.deepcopy(RECORD)
    r["secrets"][name] = "not hex!"
    failed = failures(verify_record(r))
    assert f"secret {name}" in failed and f"secrets.{name}" in failed[f"secret {name}"].detail


def test_a_record_that_is_not_an_object_fails_without_raising():
    assert verify_record([1, 2]) == [Check("record", False, "a hand record must be a JSON object, found list")]


JUNK = [None, 0, -1, True, "", "zz", [], {}, [None], {"x": 1}, 10**30, 1.5]


def _paths(obj, prefix=()):
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, prefix + (i,))


def test_junk_at_any_position_of_the_record_never_raises():
    for path in list(_paths(RECORD))[1:]:
        for junk in JUNK:
            r = copy.deepcopy(RECORD)
            _set(path, lambda _old: junk)(r)
            checks = verify_record(r)
            assert all(isinstance(c, Check) for c in checks)
            # Every problem is caught by a specific check, not by the last-resort guard.
            assert not any(c.item == "record" for c in checks), (path, junk)


def test_a_die_with_more_sides_than_the_roller_supports_is_a_failing_check():
    r = copy.deepcopy(RECORD)
    r["dice"][0]["sides"] = 2**32 + 1
    failed = failures(verify_record(r))
    assert "sides" in failed[_die_item(0)].detail
