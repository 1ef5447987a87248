"""Rulesets as data: both bundled rulesets load, every parameter cites its rule sentence word for
word, the values are the readings DESIGN.md fixes, the content hash pins the bytes, and a broken
amended copy gets every error at once, each naming the file, the key and what is allowed."""

from __future__ import annotations

import shutil
import typing
from pathlib import Path

import pytest

from nomicpoker.core.rules.ruleset import OPTIONAL_PARAMS, PARAM_NAMES, PARAM_SPECS, REJECTION_CODES, Ruleset
from nomicpoker.core.rules.validate import RulesetError, RulesetErrors
from nomicpoker.shell.storage.rulesets import bundled_rulesets, load_ruleset, load_ruleset_file

from kits.tables.rulesets import recipe_hash, replace as edit
from _paths import ROOT

RULES_DIR = ROOT / "rules"
SEEDS = Path("/work/shared/seeds")
BUNDLED = ("blognomic-2008", "roberts-nlhe")


# ------------------------------------------------------------------------------ helpers


def plain_text(path: Path) -> str:
    """The rule text as the tests read it: '#' lines dropped, whitespace collapsed."""
    lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#")]
    return " ".join(" ".join(lines).split())


@pytest.fixture
def copy(tmp_path: Path):
    """Copy a bundled ruleset to tmp and return its directory (a Dealer's amended copy)."""

    def _copy(name: str = "blognomic-2008") -> Path:
        dest = tmp_path / f"{name}-copy"
        shutil.copytree(RULES_DIR / name, dest)
        return dest

    return _copy


def errors_of(d: Path) -> tuple[RulesetError, ...]:
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(d)
    return info.value.errors


def only_error(d: Path) -> RulesetError:
    errs = errors_of(d)
    assert len(errs) == 1, [str(e) for e in errs]
    return errs[0]


# ------------------------------------------------------------------------------ bundled rulesets


def test_both_rulesets_are_bundled():
    assert set(BUNDLED) <= set(bundled_rulesets())


@pytest.mark.parametrize("name", BUNDLED)
def test_every_parameter_cites_a_sentence_found_in_the_rule_text(name):
    rs = load_ruleset(name)
    text = plain_text(RULES_DIR / name / "rule.txt")
    # every parameter but the optional ones the bundled files leave out (docs/rulesets.md)
    assert set(PARAM_NAMES) - set(OPTIONAL_PARAMS) <= set(rs.params) <= set(PARAM_NAMES)
    for p in rs.params:
        sentence = rs.params[p].sentence
        assert len(sentence) > 10, p
        assert sentence in text, (p, sentence)
        assert rs.cite(p) == sentence


@pytest.mark.parametrize("name", BUNDLED)
def test_every_rejection_citation_is_found_in_the_rule_text(name):
    rs = load_ruleset(name)
    text = plain_text(RULES_DIR / name / "rule.txt")
    assert rs.rejections, "a ruleset should cite at least some rejections"
    for code, c in rs.rejections.items():
        assert code in REJECTION_CODES
        assert c.sentence in text, (code, c.sentence)


@pytest.mark.parametrize("name", BUNDLED)
def test_rule_text_lines_are_verbatim_from_the_seed(name):
    seed = {"blognomic-2008": "001_", "roberts-nlhe": "004_"}[name]
    found = list(SEEDS.glob(seed + "*"))
    if not found:
        pytest.skip("seeds not available")
    seed_lines = set(found[0].read_text(encoding="utf-8").splitlines())
    body = [
        ln for ln in (RULES_DIR / name / "rule.txt").read_text(encoding="utf-8").splitlines()
        if ln.strip() and not ln.startswith("#") and not ln.startswith("== ")
    ]
    assert len(body) > 10
    for ln in body:
        assert ln in seed_lines, ln


def test_blognomic_text_keeps_the_enacted_typos():
    text = (RULES_DIR / "blognomic-2008" / "rule.txt").read_text(encoding="utf-8")
    assert "Play procees as per the second round" in text
    assert "No Player may Check before the Flop.The Dealer" in text
    assert "(including one or both of such Seated Player’s Hole Cards and the balance" in text
    assert "I have a few questions" not in text  # the discussion is not rule text


def test_roberts_text_has_the_heads_up_rule_and_the_no_limit_example():
    text = plain_text(RULES_DIR / "roberts-nlhe" / "rule.txt")
    assert "In heads-up play with two blinds, the small blind is on the button." in text
    assert "Example: Player A bets $100 and Player B raises $100 more" in text
    assert "The first hand clockwise from the button gets the odd chip." in text


BLOGNOMIC = [
    # (parameter, value DESIGN.md gives, a fragment the citation must contain)
    ("raise_amount", "added", "Z is the amount of the Raise"),
    ("min_raise", "more_than_call", "must be more than the amount needed to Call"),
    ("check_in_first_round", False, "No Player may Check before the Flop."),
    ("blinds", False, "Ante"),
    ("first_to_act", "after_button", "after the Button Player"),
    ("all_in_for_less", True, "but not more than all of his Money"),
    ("side_pots", False, "the winner adds to his Money an amount equal to the amount of Money in the Pot"),
    ("return_uncalled", False, "amount of Money in the Pot"),
    ("min_hole_cards", 1, "one or both of such Seated Player’s Hole Cards"),
    ("five_of_a_kind", True, "new Deck of Cards"),
    ("deck", "per_player", "Each Seated Player shall obtain a new Deck of Cards"),
    ("hole_cards", 2, "Hole Cards"),
    ("odd_chips", "destroy", "all fractions rounded down"),
    ("redraw_identical_dice", True, "not identical to each other"),
    ("require_hand_and_round", True, "substantially the form"),
    ("deadline_hours", None, ""),
    ("deadline_action", "check_or_fold", ""),
    ("showdown_order", "after_button", "reveals his Hole Cards"),
]


@pytest.mark.parametrize("param, value, fragment", BLOGNOMIC)
def test_blognomic_2008_reads_the_text_as_design_resolves_it(param, value, fragment):
    rs = load_ruleset("blognomic-2008")
    assert getattr(rs, param) == value
    assert fragment in rs.cite(param)


@pytest.mark.parametrize("param", ["raise_amount", "min_raise", "side_pots", "odd_chips", "deadline_hours",
                                   "short_all_in_reopens", "min_hole_cards", "five_of_a_kind"])
def test_blognomic_resolutions_carry_a_note(param):
    assert load_ruleset("blognomic-2008").params[param].note


ROBERTS = [
    ("raise_amount", "raise_to", "a raise must be to at least a total of $120"),
    ("min_raise", "previous_bet_or_raise", "equal to or greater than the size of the previous bet or raise"),
    ("check_in_first_round", True, "you have the option to raise"),
    ("blinds", True, "the big blind is posted"),
    ("first_to_act", "after_big_blind", "first player to the left of the blinds"),
    ("short_all_in_reopens", False, "may not subsequently raise an all-in bet"),
    ("all_in_for_less", True, "going all-in for a lesser sum"),
    ("side_pots", True, "side pot"),
    ("return_uncalled", True, ""),
    ("min_hole_cards", 0, "PLAY THE BOARD"),
    ("odd_chips", "first_left_of_button", "The first hand clockwise from the button gets the odd chip."),
    ("split_pots_separately", True, "split as separate pots"),
    ("five_of_a_kind", False, "two cards of the same rank and suit"),
    ("deck", "shared", "52 cards"),
    ("hole_cards", 2, ""),
    ("redraw_identical_dice", False, ""),
    ("require_hand_and_round", False, ""),
    ("deadline_hours", None, "maximum time limit"),
    ("showdown_order", "last_aggressor", "last player to take aggressive action"),
]


@pytest.mark.parametrize("param, value, fragment", ROBERTS)
def test_roberts_nlhe_values_follow_roberts_rules(param, value, fragment):
    rs = load_ruleset("roberts-nlhe")
    assert getattr(rs, param) == value
    assert fragment in rs.cite(param)


def test_rejections_quote_the_sentence_they_rest_on():
    rs = load_ruleset("blognomic-2008")
    assert rs.cite("check_before_flop") == "No Player may Check before the Flop."
    assert "whose turn it is to play" in rs.cite("not_your_turn")
    assert "must be more than the amount needed to Call" in rs.cite("raise_not_more_than_call")
    for code in ("stale_round", "stale_hand", "missing_hand_round"):
        assert "substantially the form" in rs.cite(code), code
    assert "not identical to each other" in rs.cite("identical_dice")
    assert "no player may Check if any player has Raised" in rs.cite("check_facing_raise")
    assert "All raises must be equal to or greater" in load_ruleset("roberts-nlhe").cite("raise_too_small")


def test_model_defaults_are_the_blognomic_reading():
    """Code that builds ``Ruleset()`` (engine tests) gets exactly what the TOML says."""
    loaded, default = load_ruleset("blognomic-2008"), Ruleset()
    for p in PARAM_NAMES:
        assert getattr(loaded, p) == getattr(default, p), p


def test_param_specs_agree_with_the_model_annotations():
    hints = typing.get_type_hints(Ruleset)
    for p in PARAM_NAMES:
        spec, hint = PARAM_SPECS[p], hints[p]
        if spec.kind == "choice":
            assert set(spec.choices) == set(typing.get_args(hint)), p
        elif spec.kind == "bool":
            assert hint is bool, p
        elif spec.kind == "int":
            assert hint is int, p
        else:
            assert set(typing.get_args(hint)) == {int, type(None)}, p


def test_cite_of_unknown_code_is_empty():
    assert load_ruleset("blognomic-2008").cite("no_such_code") == ""


# ------------------------------------------------------------------------------ hash


@pytest.mark.parametrize("name", BUNDLED)
def test_content_hash_follows_the_documented_recipe(name):
    assert load_ruleset(name).content_hash == recipe_hash(RULES_DIR / name)


def test_content_hash_is_stable_for_an_unchanged_copy(copy):
    d = copy()
    first = load_ruleset_file(d).content_hash
    assert load_ruleset_file(d).content_hash == first
    assert first == load_ruleset("blognomic-2008").content_hash  # location does not matter


def test_content_hash_changes_when_the_toml_changes(copy):
    d = copy()
    before = load_ruleset_file(d).content_hash
    edit(d, 'name = "blognomic-2008"', '# amended\nname = "blognomic-2008"')
    after = load_ruleset_file(d).content_hash
    assert after != before and after == recipe_hash(d)


def test_content_hash_changes_when_the_rule_text_changes(copy):
    d = copy()
    before = load_ruleset_file(d).content_hash
    (d / "rule.txt").write_bytes((d / "rule.txt").read_bytes() + b"\n")
    assert load_ruleset_file(d).content_hash != before


# ------------------------------------------------------------------------------ loading


def test_load_ruleset_accepts_a_directory_or_a_toml_path(copy):
    d = copy("roberts-nlhe")
    assert load_ruleset(str(d)).name == "roberts-nlhe"
    assert load_ruleset(str(d / "ruleset.toml")).raise_amount == "raise_to"
    assert load_ruleset(d).name == "roberts-nlhe"


def test_unknown_bundled_name_lists_the_bundled_ones():
    with pytest.raises(RulesetError) as info:
        load_ruleset("roberts-plo")
    assert info.value.code == "unknown_ruleset"
    assert "blognomic-2008" in info.value.message and "roberts-nlhe" in info.value.message


def test_missing_file_is_reported(tmp_path):
    with pytest.raises(RulesetError) as info:
        load_ruleset_file(tmp_path / "nothing")
    assert info.value.errors[0].code == "missing_file"


def test_an_amended_copy_loads_with_its_new_value_and_sentence(copy):
    """The proposal workflow: the text gains a sentence, the parameter cites it."""
    d = copy()
    with (d / "rule.txt").open("a", encoding="utf-8") as f:
        f.write("\nA Player who is all in wins only what he has matched from each other Player.\n")
    edit(d, 'name = "blognomic-2008"', 'name = "blognomic-2008-side-pots"')
    s = (d / "ruleset.toml").read_text(encoding="utf-8")
    start = s.index("[params.side_pots]")
    end = s.index("[params.return_uncalled]")
    s = s[:start] + (
        "[params.side_pots]\nvalue = true\n"
        'cite = "A Player who is all in wins only what he has matched from each other Player."\n\n'
    ) + s[end:]
    (d / "ruleset.toml").write_text(s, encoding="utf-8")
    rs = load_ruleset_file(d)
    assert rs.name == "blognomic-2008-side-pots" and rs.side_pots is True
    assert rs.cite("side_pots").startswith("A Player who is all in")
    assert rs.content_hash != load_ruleset("blognomic-2008").content_hash


def test_a_deadline_in_hours_loads_as_an_int(copy):
    d = copy()
    edit(d, 'value = "none"', "value = 48")
    assert load_ruleset_file(d).deadline_hours == 48


# ------------------------------------------------------------------------------ errors


def cut(d: Path, first: str, upto: str | None = None) -> None:
    """Remove ruleset.toml from the line ``first`` up to (not including) ``upto``, or to the end."""
    p = d / "ruleset.toml"
    s = p.read_text(encoding="utf-8")
    start = s.index(first)
    end = s.index(upto) if upto is not None else len(s)
    p.write_text(s[:start] + s[end:], encoding="utf-8")


def append(d: Path, text: str, file: str = "rule.txt") -> None:
    with (d / file).open("a", encoding="utf-8") as f:
        f.write(text)


CHECK_FLOP = 'cite = "No Player may Check before the Flop."\nnote'

#: One mistake in an amended copy of blognomic-2008 -> the one error it gets: (code, key) and
#: fragments its message must contain (what is allowed, or where the mistake is). Each
#: ``change`` is a list of steps: ("edit", old, new[, file]), ("cut", first[, upto]),
#: ("append", text[, file]).
ONE_ERROR = [
    pytest.param([("edit", 'text = "rule.txt"', 'text = "rule.txt"\nauthor = "me"')],
                 "unknown_key", "author", ["allowed: name, title, source, text, params, rejections"],
                 id="unknown top-level key is named"),
    pytest.param([("edit", 'value = "added"', 'value = "added"\ncomment = "x"')],
                 "unknown_key", "params.raise_amount.comment", ["allowed: value, cite, note, source"],
                 id="unknown key inside a parameter table"),
    pytest.param([("edit", 'value = "added"', 'value = "raise"')],
                 "bad_value", "params.raise_amount.value",
                 ['raise_amount must be one of "added", "raise_to"', 'got "raise"'],
                 id="bad choice says what is allowed"),
    pytest.param([("edit", "[params.side_pots]\nvalue = false", '[params.side_pots]\nvalue = "no"')],
                 "wrong_type", "params.side_pots.value", ["true or false"],
                 id="wrong type says what is allowed"),
    pytest.param([("edit", 'value = "none"', "value = 0")],
                 "bad_value", "params.deadline_hours.value", ['"none"'],
                 id="zero deadline is refused with the none spelling"),
    pytest.param([("edit", "[params.min_hole_cards]\nvalue = 1", "[params.min_hole_cards]\nvalue = -1")],
                 "bad_value", "params.min_hole_cards.value", ["from 0 to 5", "got -1"],
                 id="negative hole card minimum is refused"),
    pytest.param([("cut", "[params.five_of_a_kind]", "[params.deck]")],
                 "missing_param", "params.five_of_a_kind", ["true or false"],
                 id="missing parameter is named"),
    pytest.param([("edit", CHECK_FLOP, 'cite = ""\nnote')],
                 "missing_citation", "params.check_in_first_round.cite", [],
                 id="empty citation is refused"),
    pytest.param([("edit", CHECK_FLOP, 'cite = "No Player may Check before the Turn."\nnote')],
                 "citation_not_in_text", "params.check_in_first_round.cite", ["Check before the ", "Turn"],
                 id="citation not in text shows where it departs"),
    pytest.param([("edit", "has an entry of “o”.", 'has an entry of \\"o\\".')],
                 "citation_not_in_text", "rejections.not_seated.cite", ["quotation marks"],
                 id="straight quotes for curly ones get a hint"),
    pytest.param([("append", "\n# Editor: blinds are fine really.\n"),
                  ("edit", 'cite = "All Seated Players then Ante, which occurs only once per Hand."',
                   'cite = "Editor: blinds are fine really."')],
                 "citation_not_in_text", "params.blinds.cite", [],
                 id="editorial comment lines cannot be cited"),
    pytest.param([("edit", "[rejections.not_seated]", "[rejections.not_sitting]")],
                 "unknown_key", "rejections.not_sitting", ["not_seated"],
                 id="unknown rejection code lists the codes"),
    pytest.param([("edit", 'text = "rule.txt"', 'text = "rules.txt"')],
                 "missing_text", "text", ["rules.txt"],
                 id="missing text file is named"),
    pytest.param([("edit", 'text = "rule.txt"', 'text = "../rule.txt"')],
                 "bad_value", "text", [],
                 id="text outside the directory is refused"),
    pytest.param([("edit", 'name = "blognomic-2008"', 'name = "Blog Nomic"')],
                 "bad_value", "name", [],
                 id="bad name is refused"),
    pytest.param([("edit", 'name = "blognomic-2008"', 'name = "blognomic-2008')],
                 "bad_toml", "", ["line"],
                 id="invalid toml reports the line"),
    pytest.param([("cut", "[params.raise_amount]")],
                 "missing_key", "params", [],
                 id="a file without params says so once"),
    # Values the code does not implement are refused, not ignored:
    # the engine splits every pot on its own; mixing them is not implemented
    pytest.param([("edit", "[params.split_pots_separately]\nvalue = true",
                   "[params.split_pots_separately]\nvalue = false")],
                 "unsupported", "params.split_pots_separately.value", ["each pot"],
                 id="unsupported split_pots_separately"),
    # the evaluator always ranks five of a kind, which a per-player deck can deal
    pytest.param([("edit", "[params.five_of_a_kind]\nvalue = true", "[params.five_of_a_kind]\nvalue = false")],
                 "unsupported", "params.five_of_a_kind.value", ["five of a kind"],
                 id="unsupported five_of_a_kind"),
    # the adjudicator always has identical dice drawn again
    pytest.param([("edit", "[params.redraw_identical_dice]\nvalue = true",
                   "[params.redraw_identical_dice]\nvalue = false")],
                 "unsupported", "params.redraw_identical_dice.value", ["drawn again"],
                 id="unsupported redraw_identical_dice"),
]


@pytest.mark.parametrize("change, code, key, fragments", ONE_ERROR)
def test_one_mistake_gets_one_error_naming_the_file_key_and_what_is_allowed(copy, change, code, key,
                                                                             fragments):
    d = copy()
    for step, *args in change:
        {"edit": edit, "cut": cut, "append": append}[step](d, *args)
    e = only_error(d)
    assert (e.code, e.key) == (code, key)
    assert e.file == str(d / "ruleset.toml")
    for fragment in fragments:
        assert fragment in e.message, (fragment, e.message)


def test_unknown_parameter_suggests_the_close_name(copy):
    d = copy()
    edit(d, "[params.side_pots]", "[params.side_pot]")
    errs = {e.code: e for e in errors_of(d)}
    assert errs["unknown_key"].key == "params.side_pot"
    assert 'did you mean "side_pots"' in errs["unknown_key"].message
    assert errs["missing_param"].key == "params.side_pots"  # and the real one is missing


def test_citation_is_matched_across_line_breaks(copy):
    d = copy()
    edit(d, "No Player may Check before the Flop.", "No Player may Check\nbefore the Flop.", file="rule.txt")
    assert load_ruleset_file(d).cite("check_before_flop") == "No Player may Check before the Flop."


def test_all_errors_in_a_file_are_reported_together(copy):
    d = copy()
    edit(d, 'value = "added"', 'value = "raise"')
    edit(d, "[params.side_pots]\nvalue = false", '[params.side_pots]\nvalue = "no"')
    edit(d, 'cite = "No Player may Check before the Flop."\nnote', 'cite = "No Player may Check."\nnote')
    edit(d, 'text = "rule.txt"', 'text = "rule.txt"\nauthor = "me"')
    errs = errors_of(d)
    assert {(e.code, e.key) for e in errs} == {
        ("bad_value", "params.raise_amount.value"),
        ("wrong_type", "params.side_pots.value"),
        ("citation_not_in_text", "params.check_in_first_round.cite"),
        ("unknown_key", "author"),
    }
    with pytest.raises(RulesetErrors) as info:
        load_ruleset_file(d)
    assert len(str(info.value).splitlines()) == 4
    assert all(line.startswith(str(d / "ruleset.toml") + ": ") for line in str(info.value).splitlines())


# ------------------------------------------------------------------------------ model helpers


def test_value_reads_parameters_by_name_and_refuses_other_names():
    rs = load_ruleset("roberts-nlhe")
    assert rs.value("raise_amount") == "raise_to"
    with pytest.raises(KeyError):
        rs.value("content_hash")  # a field, but not a parameter


def test_citation_carries_source_and_note():
    c = load_ruleset("blognomic-2008").citation("side_pots")
    assert c is not None
    assert c.source == "Dealing and Play, showdown"
    assert "no side pots" in c.note
    assert load_ruleset("blognomic-2008").citation("no_such_code") is None


def test_loaded_rulesets_are_hashable_and_equal_by_value(copy):
    """Hands are frozen values that hold their ruleset; they must stay hashable and comparable."""
    a, b = load_ruleset("blognomic-2008"), load_ruleset_file(copy())
    assert a == b and hash(a) == hash(b)
    assert a != load_ruleset("roberts-nlhe")


def test_engine_specific_rejections_are_cited_where_the_text_speaks():
    roberts = load_ruleset("roberts-nlhe")
    assert "may not subsequently raise an all-in bet" in roberts.cite("raise_not_reopened")
    assert "two cards of the same rank and suit" in roberts.cite("duplicate_card")
    assert "make another Hole Card Draw" in load_ruleset("blognomic-2008").cite("already_drawn")


def test_no_five_of_a_kind_is_fine_with_one_shared_deck(copy):
    # roberts-nlhe: one deck can never deal five of a kind, so false is consistent
    assert load_ruleset_file(copy("roberts-nlhe")).five_of_a_kind is False
