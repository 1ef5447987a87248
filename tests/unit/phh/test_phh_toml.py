"""The fast PHH reader (nomicpoker/core/phh/toml_subset.py) against ``tomllib``, the reference.

Whatever the fast reader accepts it must read exactly as ``tomllib`` does; whatever it does
not know it must hand back (``None``), never guess; and on the shared corpus it must be the
path actually taken (or the speed-up is gone without a test noticing).
"""

from __future__ import annotations

import tomllib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nomicpoker.core.phh.phh import hand_from_table, parse_phh
from nomicpoker.core.phh.toml_subset import loads_subset

from _paths import SHARED

PHH_DIR = SHARED / "data" / "phh"
needs_corpus = pytest.mark.skipif(
    not PHH_DIR.is_dir(),
    reason=f"the shared PHH corpus is not at {PHH_DIR} (../shared/data/phh from the checkout)")


def _toml(text: str):
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return "invalid"


@needs_corpus
def test_the_fast_reader_and_tomllib_agree_on_every_corpus_file():
    files = sorted(PHH_DIR.rglob("*.phh"))
    fast = 0
    for f in files:
        text = f.read_text(encoding="utf-8")
        d = loads_subset(text)
        if d is None:
            continue
        fast += 1
        assert d == tomllib.loads(text), f
        # and the parsed hand is the same, whichever reader parse_phh took
        assert parse_phh(text) == hand_from_table(tomllib.loads(text)), f
    # every Pluribus file (one field per line) takes the fast path; the hand-written
    # historical files (comments, double quotes, multi-line arrays) go to tomllib
    assert fast == sum(1 for f in files if "pluribus" in f.parts) == 10_000


PLURIBUS_LIKE = """variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 6s8h', 'd dh p2 Ah8s', 'd dh p3 4h3d', 'p3 f', 'p1 cc', 'p2 cc']
hand = 63
players = ['Bill', 'MrBlue', 'Pluribus']
finishing_stacks = [10112.5, 9887.5, 10000]
"""


def test_a_file_in_the_subset_reads_as_tomllib_reads_it():
    d = loads_subset(PLURIBUS_LIKE)
    assert d == tomllib.loads(PLURIBUS_LIKE)
    assert d["finishing_stacks"] == [10112.5, 9887.5, 10000]
    assert [type(x) for x in d["finishing_stacks"]] == [float, float, int]


@pytest.mark.parametrize("change", [
    ("variant = 'NT'", "variant = \"NT\""),  # basic string: escapes are tomllib's
    ("hand = 63", "hand = 63  # comment"),
    ("hand = 63", "hand = 6_3"),
    ("hand = 63", "hand = 0x3f"),
    ("hand = 63", "hand = +63"),
    ("hand = 63", "hand = 063"),  # invalid TOML: tomllib must report it
    ("hand = 63", "hand=63"),
    ("hand = 63", "hand = 63 "),
    ("hand = 63", "  hand = 63"),
    ("hand = 63", "hand = 1e3"),
    ("hand = 63", "hand = inf"),
    ("hand = 63", "hand = 1979-05-27"),
    ("hand = 63", "a.b = 63"),
    ("hand = 63", "[table]\nx = 1"),
    ("hand = 63", "variant = 'NL'"),  # a duplicate key: invalid
    ("min_bet = 100", "min_bet = True"),
    ("antes = [0, 0, 0]", "antes = [0,0,0]"),
    ("antes = [0, 0, 0]", "antes = [0, 0, 0, ]"),
    ("antes = [0, 0, 0]", "antes = [ 0, 0, 0 ]"),
    ("antes = [0, 0, 0]", "antes = [\n  0,\n  0,\n  0,\n]"),
    ("antes = [0, 0, 0]", "antes = [0, 'a', 0]"),
    ("antes = [0, 0, 0]", "antes = [[0], 0, 0]"),
    ("antes = [0, 0, 0]", "antes = [0., 0, 0]"),
    ("players = ['Bill', 'MrBlue', 'Pluribus']", "players = ['Bill','MrBlue', 'Pluribus']"),
    ("players = ['Bill', 'MrBlue', 'Pluribus']", "players = ['Bill', 'Mr'Blue', 'Pluribus']"),
    ("players = ['Bill', 'MrBlue', 'Pluribus']", "players = ['''Bill''', 'MrBlue', 'Pluribus']"),
    ("players = ['Bill', 'MrBlue', 'Pluribus']", "players = ['Bill', 'MrBlue', 'Pluribus', ]"),
    ("players = ['Bill', 'MrBlue', 'Pluribus']", "players = ['Bill', 'Mr\tBlue', 'Pluribus']"),
    ("players = ['Bill', 'MrBlue', 'Pluribus']", "players = ['Bill', 'Mr\x01Blue', 'Pluribus']"),
    ("\n", "\r\n"),
])
def test_outside_the_subset_the_fast_reader_declines_or_agrees(change):
    old, new = change
    text = PLURIBUS_LIKE.replace(old, new)
    assert text != PLURIBUS_LIKE
    d = loads_subset(text)
    ref = _toml(text)
    assert d is None or d == ref, (d, ref)
    if ref == "invalid":
        assert d is None
        with pytest.raises(ValueError):
            parse_phh(text)  # and PHH parsing reports it (tomllib's error, as bad_phh)


# --- generated texts --------------------------------------------------------------------

_key = st.from_regex(r"[A-Za-z0-9_-]{1,12}", fullmatch=True)
_int = st.integers(-10**12, 10**12)
_float = st.builds(lambda a, b: float(f"{a}.{b}"), st.integers(0, 10**6), st.integers(0, 99))
_text = st.text(st.characters(blacklist_characters="'", blacklist_categories=("Cs",)), max_size=12)
_value = st.one_of(_int, _float, st.booleans(), _text,
                   st.lists(st.one_of(_int, _float), max_size=6), st.lists(_text, max_size=6))


def _render(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return f"'{v}'"
    return "[" + ", ".join(_render(x) for x in v) + "]"


@settings(max_examples=300)
@given(st.dictionaries(_key, _value, max_size=8), st.integers(0, 3))
def test_generated_tables_read_as_tomllib_reads_them(table, blank_lines):
    text = ("\n" * blank_lines).join(f"{k} = {_render(v)}" for k, v in table.items()) + "\n"
    d = loads_subset(text)
    ref = _toml(text)
    # the canonical one-line form of these values is the subset, unless a string holds a
    # character a literal string may not (a control character, a '#' or '"' the reader
    # leaves to tomllib): then the reader declines
    assert d is None or d == ref, (text, d, ref)
    if ref != "invalid" and not any(c in text for c in "#\"\r") and \
            not any(ord(c) < 32 and c not in "\t\n" or c == "\x7f" for c in text):
        assert d == ref, text


@settings(max_examples=300)
@given(st.text(st.sampled_from(list("ab=[]'\", #\n\t\r 01.-_xe")), max_size=40))
def test_arbitrary_text_is_never_misread(text):
    d = loads_subset(text)
    ref = _toml(text)
    assert d is None or d == ref, (text, d, ref)


def test_values_read_before_are_reused_only_as_immutable_values():
    from nomicpoker.core.phh import toml_subset as phh_toml

    a = loads_subset(PLURIBUS_LIKE, tuple)
    b = loads_subset(PLURIBUS_LIKE, tuple)
    assert a == b and a["antes"] == (0, 0, 0)
    # tomllib's lists are new every time: changing one changes no later reading
    first = loads_subset(PLURIBUS_LIKE)
    first["antes"].append(99)
    assert loads_subset(PLURIBUS_LIKE) == tomllib.loads(PLURIBUS_LIKE)
    assert loads_subset(PLURIBUS_LIKE, tuple) == b
    # a long value (the actions) is not kept, and the memo stays bounded
    long = "[" + ", ".join(["'p1 cc'"] * 20) + "]"
    assert len(long) > phh_toml._MEMO_TEXT
    assert loads_subset(f"actions = {long}\n", tuple) == {"actions": ("p1 cc",) * 20}
    assert long not in phh_toml._MEMO
    for k in range(phh_toml._MEMO_SIZE + 10):
        assert loads_subset(f"hand = {k}\n", tuple) == {"hand": k}
    assert len(phh_toml._MEMO) <= phh_toml._MEMO_SIZE


def test_a_value_outside_the_subset_is_never_remembered_as_one():
    # the same text read twice, the second time after valid reads: still handed to tomllib
    for _ in range(2):
        assert loads_subset("hand = 063\n", tuple) is None
        assert loads_subset("antes = [0, 0]\nhand = 6_3\n", tuple) is None
