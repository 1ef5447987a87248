"""The ruleset model: every parameter of the game the engine reads, each with its rule sentence.

Rules change by proposal in a nomic, so the rules are data (``rules/<name>/ruleset.toml`` plus
the rule text as enacted). The engine never hard-codes a reading of the text: it asks the
:class:`Ruleset`. Every parameter carries the sentence it encodes so a rejection can quote it.

Validation of a ruleset file's bytes is :mod:`nomicpoker.core.rules.validate`; the loader
(``load_ruleset`` / ``load_ruleset_file``) lives in :mod:`nomicpoker.shell.storage.rulesets`. This
module only holds the immutable model so the pure core can import it without touching disk.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Callable, Literal, Mapping

from nomicpoker.core.rules.limits import MAX_CHIPS, MAX_HOLE_CARDS, MAX_HOURS, MAX_MIN_HOLE_CARDS

RaiseAmount = Literal["added", "raise_to"]
MinRaise = Literal["more_than_call", "previous_bet_or_raise"]
FirstToAct = Literal["after_button", "after_big_blind"]
OddChips = Literal["destroy", "first_left_of_button"]
DeckKind = Literal["per_player", "shared"]
DeadlineAction = Literal["check_or_fold", "fold"]
ShowdownOrder = Literal["last_aggressor", "after_button"]


@dataclass(frozen=True)
class Citation:
    """A rule sentence (verbatim from the enacted text) and where it comes from."""

    sentence: str
    source: str = ""  # e.g. 'Dealing and Play (seed 001)' or "Robert's Rules, No-limit, rule 3"
    note: str = ""  # how the sentence is read where the text is silent or inconsistent


_EMPTY: Mapping[str, Citation] = MappingProxyType({})


def _empty() -> Mapping[str, Citation]:
    """Default for the citation maps. A factory because dataclasses refuse an unhashable
    default such as a ``mappingproxy``; the shared read-only empty map is safe to reuse."""
    return _EMPTY


@dataclass(frozen=True)
class Ruleset:
    """Every parameter the engine, grammar and dealer read. Defaults are ``blognomic-2008``.

    Field meanings (the TOML files cite the sentence behind each):

    - ``raise_amount``: ``"added"`` — Z in ``raise Z`` is the chips the player adds with this
      action; ``"raise_to"`` — Z is the player's new total for the round.
    - ``min_raise``: ``"more_than_call"`` — a raise must add more than the amount to call, no
      other minimum; ``"previous_bet_or_raise"`` — a raise is at least the previous bet or raise
      in the round (and the first bet at least ``min_bet`` / the big blind).
    - ``check_in_first_round``: may a player check in round 1 when nothing is owed (the big
      blind's option)? ``False`` for Dealing and Play ("No Player may Check before the Flop").
    - ``blinds``: the hand may have blinds (else only antes).
    - ``first_to_act``: round 1 first actor; later rounds always start after the button.
    - ``short_all_in_reopens``: does an all-in short of a full raise reopen betting for players
      who already acted? (Robert's rules 3 and 4: no, unless multiple shorts add up to a raise.)
    - ``all_in_for_less``: a player may call (or go all-in) with all remaining Money when short.
    - ``side_pots``: build side pots with eligibility; ``False``: the winner takes the whole pot.
    - ``return_uncalled``: return the part of a bet nobody could or did match.
    - ``min_hole_cards``: a showdown hand must use at least this many hole cards.
    - ``odd_chips``: what happens to a split's remainder.
    - ``split_pots_separately``: each pot is split on its own (Robert's odd chip rule 5b).
    - ``five_of_a_kind``: five of a kind exists (players draw from their own decks).
    - ``deck``: ``"per_player"`` (each player's own deck) or ``"shared"`` (one deck).
    - ``redraw_identical_dice``: a hole-card draw with two identical results is drawn again.
    - ``require_hand_and_round``: a player action must name its hand and round.
    - ``deadline_hours``: ``None`` (the text sets no deadline) or hours to act.
    - ``deadline_action``: what the dealer does for a player whose deadline passed:
      ``"check_or_fold"`` (check if that is legal, else fold: the WRGPT dealer's "$0 bet",
      Robert's Rules' dead hand only "when facing a bet or raise") or ``"fold"`` (always fold,
      even when checking is free: the bot server's "auto-folds"). At a showdown the player
      mucks, at the Hole Card Draw they are folded out, whatever the value.
    - ``showdown_order``: ``"last_aggressor"`` shows first, else first seat after the button.
    - ``advance_actions``: players may post WRGPT-style advance actions before their turn
      (:mod:`nomicpoker.core.reading.advance`); a table's ``advance_actions`` setting overrides it.
      *Optional* in a ruleset file (:data:`OPTIONAL_PARAMS`): a ruleset pinned before the
      parameter existed reads as it did then, on exactly when actions need not name their
      hand and round.
    - ``no_raise_after_out_of_turn_check``: a player who checked out of turn may not bet or
      raise at his next turn (Robert's rule 7, "A player who checks out of turn may not bet
      or raise on the next turn to act."). *Optional*: left out, it is ``True`` exactly when
      the rule text holds that sentence (:data:`OPTIONAL_SENTENCES`), which is then its
      citation.
    - ``forced_ante``, ``small_blind``, ``big_blind``: the amounts of the forced bets when the
      rule states them (0: the rule states none; the blinds only with ``blinds``). *Optional*
      (0 when left out). ``hand start`` takes them when neither it nor the table is given
      any (docs/dealer-guide.md, "Forced bets").
    - ``all_in_face_up``: every hand still in is turned face up once a player is all in and
      the betting is complete (Robert's tournament rule 27), so the Dealer's street comments
      of the run-out may show the hands and each one's exact chances (docs/equity.md).
      *Optional*: ``True`` when the rule text holds rule 27's sentence (which is then its
      citation); left out of a text without it, ``True`` exactly with one shared deck. WHY the
      deck: the shared-deck ruleset nomicpoker ships is Robert's Rules, whose tournament
      rule 27 (seed 004) tables the hands, but its bundled text's selection leaves that rule
      out, and the bundled files are never edited (a table pinned from one keeps its hash);
      Dealing and Play, the per-player-deck ruleset, has no such sentence, so its hands stay
      hidden until the reveals. A table's ``equity`` setting turns the chances off.
    """

    name: str = "blognomic-2008"
    title: str = "Dealing and Play (BlogNomic, enacted 3 Jan 2008)"
    content_hash: str = ""
    raise_amount: RaiseAmount = "added"
    min_raise: MinRaise = "more_than_call"
    check_in_first_round: bool = False
    blinds: bool = False
    first_to_act: FirstToAct = "after_button"
    short_all_in_reopens: bool = True
    all_in_for_less: bool = True
    side_pots: bool = False
    return_uncalled: bool = False
    min_hole_cards: int = 1
    odd_chips: OddChips = "destroy"
    split_pots_separately: bool = True
    five_of_a_kind: bool = True
    deck: DeckKind = "per_player"
    hole_cards: int = 2
    redraw_identical_dice: bool = True
    require_hand_and_round: bool = True
    deadline_hours: int | None = None
    deadline_action: DeadlineAction = "check_or_fold"
    showdown_order: ShowdownOrder = "after_button"
    advance_actions: bool = False
    no_raise_after_out_of_turn_check: bool = False
    forced_ante: int = 0
    small_blind: int = 0
    big_blind: int = 0
    all_in_face_up: bool = False
    #: where the ruleset comes from (the proposal or rulebook); shown by ``rules show``
    source: str = ""
    #: parameter name -> the sentence it encodes
    params: Mapping[str, Citation] = field(default_factory=_empty, compare=False, repr=False)
    #: rejection code -> the sentence a rejection with that code quotes
    rejections: Mapping[str, Citation] = field(default_factory=_empty, compare=False, repr=False)

    def cite(self, code_or_param: str) -> str:
        """The rule sentence for a rejection code or parameter name ('' when none is recorded)."""
        c = self.citation(code_or_param)
        return c.sentence if c else ""

    def citation(self, code_or_param: str) -> Citation | None:
        """The full :class:`Citation` (sentence, source, note) for a rejection code or parameter.

        Rejection codes are looked up first: a code and a parameter never share a name, but a
        rejection's sentence is the more specific one when a caller passes a code."""
        return self.rejections.get(code_or_param) or self.params.get(code_or_param)

    def value(self, param: str) -> object:
        """The value of parameter ``param`` (one of :data:`PARAM_NAMES`); ``KeyError`` otherwise.

        Lets generic code (``rules show``, the ledger's hand header) walk the parameters by name
        without reaching into the dataclass."""
        if param not in PARAM_NAMES:
            raise KeyError(param)
        return getattr(self, param)


#: Parameter names as they appear in ruleset TOML files (``[params.<name>]``).
PARAM_NAMES: tuple[str, ...] = (
    "raise_amount", "min_raise", "check_in_first_round", "blinds", "first_to_act",
    "short_all_in_reopens", "all_in_for_less", "side_pots", "return_uncalled",
    "min_hole_cards", "odd_chips", "split_pots_separately", "five_of_a_kind", "deck",
    "hole_cards", "redraw_identical_dice", "require_hand_and_round", "deadline_hours",
    "deadline_action", "showdown_order", "advance_actions", "no_raise_after_out_of_turn_check",
    "forced_ante", "small_blind", "big_blind",
    "all_in_face_up",
)


def _advance_default(values: Mapping[str, object]) -> object:
    """Before ``advance_actions`` was a parameter, advance actions were taken exactly under a
    ruleset whose actions need not name their hand and round (roberts-nlhe, not
    blognomic-2008's "The next Seated Player then acts")."""
    return not values.get("require_hand_and_round", True)


#: Parameters a ruleset file may leave out, each with the value it then has (a function of the
#: values given). WHY: a table's ruleset is pinned in the ledger as the TOML it was created
#: with; a parameter added by a later release must not make that text unloadable, nor change
#: how its hands replay (``audit`` must stay identical). A new parameter is optional, with the
#: default the code applied before it existed.
OPTIONAL_PARAMS: Mapping[str, Callable[[Mapping[str, object]], object]] = MappingProxyType({
    "advance_actions": _advance_default,
    "no_raise_after_out_of_turn_check": lambda values: False,
    "forced_ante": lambda values: 0,
    "small_blind": lambda values: 0,
    "big_blind": lambda values: 0,
    "all_in_face_up": lambda values: values.get("deck", "per_player") == "shared",
})

#: Optional parameters a rule text may decide by itself: left out of the ruleset file, the
#: parameter is ``True`` exactly when the text holds this sentence, and cites it. WHY: the
#: bundled files are not edited (a table pinned from an unchanged bundled file keeps its
#: hash), yet Robert's rule 7 is in roberts-nlhe's text and must be quoted when it applies.
OPTIONAL_SENTENCES: Mapping[str, str] = MappingProxyType({
    "no_raise_after_out_of_turn_check":
        "A player who checks out of turn may not bet or raise on the next turn to act.",
    "all_in_face_up":
        "All hands will be turned faceup whenever a player is all-in and betting action is complete.",
})

#: Rejection codes the engine and grammar emit. A ruleset TOML may cite a sentence for each.
REJECTION_CODES: tuple[str, ...] = (
    "not_seated", "not_your_turn", "hand_over", "stale_hand", "stale_round",
    "missing_hand_round", "check_before_flop", "check_facing_raise", "call_nothing_to_call",
    "call_amount_mismatch", "raise_too_small", "raise_not_more_than_call", "raise_too_large",
    "insufficient_money", "betting_closed", "already_revealed", "reveal_not_allowed",
    "wrong_card_count", "bad_card", "unparseable", "ambiguous", "not_player_action",
    "identical_dice", "draw_mismatch", "false_reveal", "lookalike", "edited_after_verdict",
    "bad_amount",
    # hand engine: dealer events out of place, a shared deck's duplicate, Robert's rules 3-4
    "board_not_due", "duplicate_card", "already_dealt", "raise_not_reopened",
    # hand engine: a raise nobody could call, which return_uncalled would give straight back
    "raise_nobody_to_call",
    # adjudicator: a second Hole Card Draw when the first one stands
    "already_drawn",
    # adjudicator: a bet or raise by a player who checked out of turn (Robert's rule 7)
    "checked_out_of_turn",
)


#: How ``deadline_hours = None`` ("the text sets no deadline") is written in a ruleset TOML:
#: ``value = "none"``. TOML has no null, and ``0`` would read as "act immediately".
DEADLINE_NONE = "none"


@dataclass(frozen=True)
class ParamSpec:
    """What a parameter's TOML ``value`` may be, so the loader can say exactly what is allowed.

    ``kind`` is ``"choice"`` (one of ``choices``), ``"bool"``, ``"int"`` (an integer
    ``>= minimum``) or ``"hours"`` (an integer ``>= 1``, or :data:`DEADLINE_NONE`)."""

    kind: Literal["choice", "bool", "int", "hours"]
    choices: tuple[str, ...] = ()
    minimum: int = 0
    #: the largest allowed integer (``core/rules/limits.py`` says why each bound is where it is)
    maximum: int | None = None

    def allowed(self) -> str:
        """Human description of the allowed values, used verbatim in loader error messages."""
        if self.kind == "choice":
            return "one of " + ", ".join(f'"{c}"' for c in self.choices)
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            if self.maximum is not None:
                return f"an integer from {self.minimum} to {self.maximum:,}"
            return f"an integer >= {self.minimum}"
        return f'a whole number of hours from 1 to {MAX_HOURS:,}, or "{DEADLINE_NONE}" (no deadline)'


def _choice(*choices: str) -> ParamSpec:
    return ParamSpec("choice", choices)


_BOOL = ParamSpec("bool")

#: The allowed TOML values of every parameter (kept in step with the field annotations above;
#: a test checks the two agree).
PARAM_SPECS: Mapping[str, ParamSpec] = MappingProxyType({
    "raise_amount": _choice("added", "raise_to"),
    "min_raise": _choice("more_than_call", "previous_bet_or_raise"),
    "check_in_first_round": _BOOL,
    "blinds": _BOOL,
    "first_to_act": _choice("after_button", "after_big_blind"),
    "short_all_in_reopens": _BOOL,
    "all_in_for_less": _BOOL,
    "side_pots": _BOOL,
    "return_uncalled": _BOOL,
    "min_hole_cards": ParamSpec("int", minimum=0, maximum=MAX_MIN_HOLE_CARDS),
    "odd_chips": _choice("destroy", "first_left_of_button"),
    "split_pots_separately": _BOOL,
    "five_of_a_kind": _BOOL,
    "deck": _choice("per_player", "shared"),
    "hole_cards": ParamSpec("int", minimum=1, maximum=MAX_HOLE_CARDS),
    "redraw_identical_dice": _BOOL,
    "require_hand_and_round": _BOOL,
    "deadline_hours": ParamSpec("hours"),
    "deadline_action": _choice("check_or_fold", "fold"),
    "showdown_order": _choice("last_aggressor", "after_button"),
    "advance_actions": _BOOL,
    "no_raise_after_out_of_turn_check": _BOOL,
    "forced_ante": ParamSpec("int", minimum=0, maximum=MAX_CHIPS),
    "small_blind": ParamSpec("int", minimum=0, maximum=MAX_CHIPS),
    "big_blind": ParamSpec("int", minimum=0, maximum=MAX_CHIPS),
    "all_in_face_up": _BOOL,
})
