"""The tournament structure file: a valid file becomes a Structure; every problem is reported
at once with its code, its dotted key and what is allowed, like a ruleset file."""

from __future__ import annotations

import pytest

from nomicpoker.core.tournament.structure import Level
from nomicpoker.core.tournament.structure_file import (StructureErrors, check_against_ruleset, parse_structure,
                                                       structure_hash)

GOOD = b'''
name = "spring-open"
title = "Spring Open"
ruleset = "roberts-nlhe"
starting_money = 1500
table_size = 9
levels_by = "hands"
level_length = 20
breaking_order = [3, 1, 2]
vacation_hands_per_day = 10
start_on_vacation = true
redraw_every_levels = 2
late_entry_levels = 1
payouts = [500, 300, 200]

[[levels]]
small_blind = 10
big_blind = 20

[[levels]]
ante = 5
small_blind = 15
big_blind = 30
'''


def errors(text: bytes) -> list[tuple[str, str, str]]:
    with pytest.raises(StructureErrors) as exc:
        parse_structure(text, "s.toml")
    return [(e.code, e.key, e.message) for e in exc.value.errors]


def test_a_good_file_gives_every_value():
    s = parse_structure(GOOD)
    assert (s.name, s.title, s.ruleset, s.starting_money, s.table_size) == ("spring-open", "Spring Open",
                                                                            "roberts-nlhe", 1500, 9)
    assert (s.levels_by, s.level_length, s.vacation_hands_per_day, s.start_on_vacation) == ("hands", 20, 10, True)
    assert s.levels == (Level(1, 0, 10, 20), Level(2, 5, 15, 30))
    assert s.breaking_order == (3, 1, 2) and s.payouts == (500, 300, 200)
    assert (s.redraw_every_levels, s.late_entry_levels) == (2, 1)


def test_defaults_where_the_file_is_silent():
    text = b'name = "x"\ntitle = "X"\nstarting_money = 100\ntable_size = 6\nlevels_by = "days"\n' \
           b'level_length = 1\n[[levels]]\nante = 1\n'
    s = parse_structure(text)
    assert s.ruleset == "roberts-nlhe" and s.breaking_order == "highest-first"
    assert s.vacation_hands_per_day is None and not s.start_on_vacation
    assert s.payouts == () and s.redraw_every_levels == 0 and s.late_entry_levels == 0
    assert s.break_order(4) == (4, 3, 2, 1)
    assert s.levels == (Level(1, 1, 0, 0),)


def test_every_problem_is_reported_at_once_with_its_key():
    bad = GOOD.replace(b"table_size = 9", b"table_sise = 9").replace(b'levels_by = "hands"', b'levels_by = "weeks"')
    bad = bad.replace(b"payouts = [500, 300, 200]", b"payouts = [300, 500]").replace(b"starting_money = 1500",
                                                                                      b"starting_money = -5")
    got = errors(bad)
    assert ("unknown_key", "table_sise") == got[0][:2] and 'did you mean "table_size"' in got[0][2]
    codes = {(c, k) for c, k, _ in got}
    assert ("missing_key", "table_size") in codes
    assert ("bad_value", "levels_by") in codes
    assert ("bad_value", "starting_money") in codes
    assert ("bad_value", "payouts") in codes
    pay = next(m for c, k, m in got if k == "payouts")
    assert pay == "place 2 (500) pays more than place 1 (300): a lower place may not pay more than a higher one"
    assert len(got) == 5


def test_levels_go_up_never_down():
    """WRGPT: "Antes and blinds go up periodically." A level below the one before is refused."""
    bad = GOOD.replace(b"ante = 5\nsmall_blind = 15\nbig_blind = 30", b"small_blind = 5\nbig_blind = 10")
    [(code, key, msg)] = errors(bad)
    assert (code, key) == ("bad_value", "levels[2]")
    assert msg == 'level 2: blinds 5/10 is below level 1: blinds 10/20: "Antes and blinds go up periodically", never down'


@pytest.mark.parametrize("level,key,fragment", [
    (b"small_blind = 10", "levels[1].big_blind", "small_blind = 10 and big_blind = 0: give both blinds, or neither"),
    (b"small_blind = 30\nbig_blind = 20", "levels[1].small_blind", "small_blind = 30 is above big_blind = 20"),
    (b"ante = 0", "levels[1]", "no forced bet at all"),
    (b"big_blind = \"20\"\nsmall_blind = 10", "levels[1].big_blind", 'must be a whole number from 0 to 999999999999; got "20"'),
    (b"bigblind = 20", "levels[1].bigblind", 'did you mean "big_blind"'),
])
def test_a_bad_level_names_its_key(level, key, fragment):
    text = GOOD.split(b"[[levels]]")[0] + b"[[levels]]\n" + level + b"\n"
    got = errors(text)
    assert any(k == key and fragment in m for _c, k, m in got), got


@pytest.mark.parametrize("line,code,message", [
    (b'breaking_order = "random"', "bad_value",
     'must be \'highest-first\' or \'lowest-first\' or a list of table numbers; got "random"'),
    (b"breaking_order = [1, 2, 1]", "bad_value", "names table(s) 1 more than once"),
    (b"breaking_order = [0, 1]", "wrong_type", None),
    (b"vacation_hands_per_day = 0", "bad_value", None),
    (b'vacation_hands_per_day = "some"', "wrong_type", None),
    (b"start_on_vacation = 1", "wrong_type", "must be true or false; got 1"),
    (b"table_size = 2", "bad_value", "must be a whole number from 3 to 23; got 2"),
    (b"level_length = true", "wrong_type", None),
])
def test_bad_values_say_what_is_allowed(line, code, message):
    key = line.split(b" ")[0].decode()
    lines = [ln for ln in GOOD.split(b"\n") if not ln.startswith(key.encode() + b" ")]
    text = b"\n".join(lines[:3] + [line] + lines[3:])
    [(c, k, m)] = errors(text)
    assert (c, k) == (code, key)
    if message:
        assert m == message


def test_vacation_limit_none_is_no_limit():
    text = GOOD.replace(b"vacation_hands_per_day = 10", b'vacation_hands_per_day = "none"')
    assert parse_structure(text).vacation_hands_per_day is None


def test_not_toml_and_not_utf8():
    [(c, k, m)] = errors(b"name = ")
    assert c == "bad_toml" and m.startswith("not valid TOML:")
    [(c, k, m)] = errors(b"\xff\xfe")
    assert c == "bad_toml" and m.startswith("not UTF-8 text")


def test_missing_keys_say_what_to_write():
    got = {k: m for _c, k, m in errors(b'name = "x"\n')}
    assert set(got) == {"title", "starting_money", "table_size", "levels_by", "level_length", "levels"}
    assert got["levels"] == "missing; one [[levels]] table per level, with small_blind, big_blind and ante"


def test_a_ruleset_without_blinds_takes_only_antes():
    """Under blognomic-2008 (no blinds) a level may set only an ante."""
    s = parse_structure(GOOD)
    with pytest.raises(StructureErrors) as exc:
        check_against_ruleset(s, blinds=False)
    [e] = exc.value.errors
    assert (e.code, e.key) == ("unsupported", "levels[1].big_blind")
    check_against_ruleset(s, blinds=True)  # no error


def test_a_list_breaking_order_must_name_every_table_of_the_draw():
    s = parse_structure(GOOD)
    assert s.order_problem(3) is None and s.break_order(3) == (3, 1, 2)
    assert s.order_problem(4) == ('breaking_order = [3, 1, 2] but the draw makes 4 table(s): name each of '
                                  '1..4 once, or use "highest-first"')
    low = parse_structure(GOOD.replace(b"breaking_order = [3, 1, 2]", b'breaking_order = "lowest-first"'))
    assert low.break_order(3) == (1, 2, 3)


def test_the_hash_is_sha256_of_the_bytes():
    import hashlib
    assert structure_hash(GOOD) == hashlib.sha256(GOOD).hexdigest()


@pytest.mark.parametrize("name", ['"spring.open"', '"' + "a" * 35 + '"'])
def test_a_name_its_tables_cannot_take_is_refused_by_the_check(name):
    """A tournament's tables are named ``<name>-t1``, ...: a name with a '.' or over 34
    characters passed ``tournament check`` and was then refused by ``tournament create``."""
    text = GOOD.replace(b'name = "spring-open"', b"name = " + name.encode())
    [(c, k, m)] = errors(text)
    assert (c, k) == ("bad_value", "name")
    assert m == ("must be lowercase letters, digits, '_' or '-', starting with a letter or digit, at most 34 "
                 f"characters (its tables are named <name>-t1, ...; e.g. \"spring-open\"); got {name}")
    assert parse_structure(GOOD.replace(b'"spring-open"', b'"' + b"a" * 34 + b'"')).name == "a" * 34


@pytest.mark.parametrize("pay,message", [
    (b"[500, -1]", "payouts[2]: must be a whole number from 0 to 999999999999; got -1"),
    (b'[500, "300"]', 'payouts[2]: must be a whole number from 0 to 999999999999; got "300"'),
    (b'"500"', 'payouts: must be a list of whole numbers from 0, the prize of 1st, 2nd, ... place '
               '(e.g. [500, 300, 200]); got "500"'),
])
def test_a_bad_prize_is_named_by_its_place(pay, message):
    """A list with one bad prize said only "got an array": the place and the value are named."""
    text = GOOD.replace(b"[500, 300, 200]", pay)
    [(c, k, m)] = errors(text)
    assert f"{k}: {m}" == message


@pytest.mark.parametrize("title", [b'"Spring\\tOpen"', b'"Spring Open\\nSecond line"', b'"Spring\\u0007"'])
def test_a_title_is_one_line_of_text(title):
    """A title with a tab or a newline split ``tournament list``'s one line a tournament (and
    its tab-separated columns) and the announcements: it is refused."""
    text = GOOD.replace(b'"Spring Open"', title)
    [(c, k, m)] = errors(text)
    assert (c, k) == ("bad_value", "title")
    assert m.startswith("must be one line of printable text (no tab, newline or control character); got ")
    assert "\n" not in m and "\t" not in m  # the error itself is one line


def test_a_file_saved_with_a_byte_order_mark_is_read():
    """Windows editors (Notepad) save UTF-8 with a byte order mark: the file was refused as "not
    valid TOML: Invalid statement (at line 1, column 1)", which names nothing the director can
    see. The mark is skipped; the hash stays that of the file's bytes."""
    text = b"\xef\xbb\xbf" + GOOD
    assert parse_structure(text) == parse_structure(GOOD)
    assert structure_hash(text) != structure_hash(GOOD)
