"""A table's settings for play over days: the deadline, office hours, reminders, timeouts,
vacations, flood protection (pure).

WHY a value of its own: ``table create`` sets them, ``table set`` changes them between or
during hands, and the change is a dealer event in the ledger, so the fold applies each
setting from the moment it was made and ``audit`` replays the same. A ruleset may give the
deadline a default (``deadline_hours``); ``blognomic-2008`` as enacted sets none.

Every setting, its default and its meaning, as the Dealer reads them (docs/dealer-guide.md):

- ``deadline_hours``: office hours a player has to act (``None``: no deadline).
- ``tz``, ``day_start``, ``day_length``, ``weekends_off``, ``cap_hours``: the office-hours
  calendar (:mod:`nomicpoker.core.table.office_hours`); the default is the plain wall clock in UTC.
- ``reminders``: how many reminders before a deadline (default 1, halfway; 0: none).
- ``max_timeouts``: timeouts in a row after which a player sits out later hands until they
  comment ``BACK`` (default 3).
- ``flood_threshold``: invalid comments of one author in one hand that get a reply; the next
  gets one notice and the rest are ignored until their next valid action (default 5).
- ``vacation_can_win``: a player on vacation may win a contested hand other than the one
  they left in (default ``False``, as at WRGPT: they muck at the showdown).
- ``floorman``: an account that receives protests by private message (default none).
- ``advance_actions``: players may post WRGPT-style advance and conditional actions before
  their turn (``CALL *``, ``IF/B=0 POT``; docs/comment-grammar.md). ``None`` (the default):
  the ruleset's ``advance_actions`` parameter decides, see :func:`advance_allowed`.
- ``ante``, ``blinds``: the table's forced bets, which ``hand start`` uses when it is given
  none (``None``: not set; ``blinds`` is the small and the big blind). ``table create`` and
  ``table set`` check them against the ruleset (a ruleset without blinds takes none).
- ``edition``: which edition of the Dealer's reading the table's hands follow (stamped at
  ``table create``; :data:`EDITIONS` says what each means). A table created before the setting
  existed has none stored and reads as edition 1, so its ledger replays exactly as it was
  played; ``table set edition=2`` opts it in from its next hand (a dealer event, which
  ``audit`` replays). An edition never goes back.
- ``equity``: at an all-in with cards to come, the Dealer gives each player's exact chance to
  win and tie, pot by pot: in each street comment of the run-out where the ruleset turns the
  hands face up (``all_in_face_up``: Robert's Rules), in the payout comment where it does not
  (Dealing and Play: the hands are public only once the hand has ended); docs/equity.md.
  Absent from a table's stored settings it is off, as before the setting existed, so a
  ledger made earlier replays to the same words; ``table create`` records it on for a new
  table, ``table set equity=off`` turns it off from then on.
- ``entropy``: how the next hands' cards are dealt (docs/fair-dealing.md, "Players' entropy"):
  ``off`` (the default: from the Dealer's committed secrets alone, as every table before it),
  ``players`` (the secrets are committed before an entropy window, and every comment posted
  in it is mixed in), ``players+beacon`` (a drand quicknet round due after the window closes
  is mixed in too). Each hand records what it used, so a change never alters a dealt hand.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Mapping

from nomicpoker.core.errors import CodedError
from nomicpoker.core.rules.limits import MAX_CHIPS, MAX_FLOOD_THRESHOLD, MAX_HOURS, MAX_REMINDERS, MAX_TIMEOUTS
from nomicpoker.core.table.office_hours import Calendar, CalendarError

#: The ``entropy`` setting's values (the same as :data:`nomicpoker.core.fairness.entropy.MODES`, which
#: a test keeps equal: this module stays below the dealing code it configures).
ENTROPY_MODES: tuple[str, ...] = ("off", "players", "players+beacon")


#: The editions of the Dealer's reading, what each changed, and the one a new table gets.
#: WHY per table: a change in what a comment or a deadline means would make an existing ledger
#: replay differently (refused as inconsistent, or audited different), so a table keeps the
#: edition its hands were played under until its Dealer opts in.
EDITIONS: Mapping[int, str] = {
    1: "as released before issue 22: an ordinary action posted before one's turn is read as "
       "WRGPT's advance action, an advance action at one's turn by the ordinary grammar, a "
       "timed-out player gets a new deadline at each later turn, no bar after checking out of turn, "
       "emphasis markers at a word's edge dropped in plain text and blog HTML (CALL * read CALL), "
       "and an e-mail table tells the whole table of vacations at once, of BACK, WHAT and SCORE",
    2: "one reading whatever the turn (an ordinary action posted before one's turn is kept for it, "
       "an advance action acts the same at one's turn, where it is announced as the player's own "
       "action), a timed-out player is on vacation at once "
       "(WRGPT), a player who checked out of turn may not bet or raise at his next turn where the "
       "ruleset says so (Robert's rule 7), emphasis read as Markdown reads it on every channel, "
       "and an e-mail table announces as WRGPT's manual does (vacations at the end of the hand, "
       "BACK, WHAT and SCORE to the player alone, table talk in the showdown mail, and no advance "
       "action mailed to the Dealer named in the ledger before the hand ends)",
    3: "as edition 2, and a player's commands (GONE, BACK, PROTEST, ...) in a comment posted before "
       "his turn apply before its action is kept for his turn, a PROTEST keeping the whole comment for "
       "the Dealer (edition 2 kept the action and dropped the commands), and SEATLOG, RAIL and RAIL OFF "
       "are players' commands at a tournament's table (edition 2 read those lines as chat)",
}
CURRENT_EDITION = max(EDITIONS)


class SettingsError(CodedError):
    """A table setting that cannot be used; ``code`` ``bad_setting`` (or the calendar's)."""


@dataclass(frozen=True)
class TableSettings:
    deadline_hours: int | None = None
    tz: str = "UTC"
    day_start: int = 0
    day_length: int = 24
    weekends_off: bool = False
    cap_hours: int | None = None
    reminders: int = 1
    max_timeouts: int = 3
    flood_threshold: int = 5
    vacation_can_win: bool = False
    floorman: str = ""
    advance_actions: bool | None = None
    edition: int = CURRENT_EDITION
    ante: int | None = None
    blinds: tuple[int, int] | None = None
    equity: bool = False
    entropy: str = "off"
    #: the tournament the table belongs to (``tournament start`` sets it; ``SEATLOG`` and
    #: ``RAIL`` are answered only there); "" for a table of its own
    tournament: str = ""
    #: every player starts on vacation (a tournament's ``start_on_vacation``): read when the
    #: table is created, like its players; a later change means nothing
    start_on_vacation: bool = False
    #: WRGPT's vacation at a tournament's table (``tournament start`` sets it on the tables it
    #: makes from this release; read by :mod:`nomicpoker.core.fold.away` and
    #: :func:`nomicpoker.core.fold.over_days.away_reveals`): a player AWOL after his timeouts
    #: is never sat out (he is dealt in, posts antes and blinds and is checked or folded for:
    #: removing him is the director's ``disqualify``), and at a showdown no player present
    #: contests, the cards of the players away decide. Off everywhere else, so every table
    #: made before it replays exactly as it was played.
    wrgpt_vacation: bool = False
    #: a player's ``SEATLOG``, ``RAIL`` and ``RAIL OFF`` are read in his private messages to the
    #: Dealer too (``tournament start`` sets it on the tables it makes from this release; read by
    #: :func:`nomicpoker.core.fold.advance_private.comment`); elsewhere a private message holds
    #: advance actions only, as every table made before it replays
    private_asks: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.blinds, list):  # as JSON stores it
            object.__setattr__(self, "blinds", tuple(self.blinds))
        if self.ante is not None and (isinstance(self.ante, bool) or not isinstance(self.ante, int)
                                      or not 0 <= self.ante <= MAX_CHIPS):
            raise SettingsError("bad_setting", f"ante = {self.ante!r}: a whole number from 0 to "
                                f"{MAX_CHIPS:,}, or none (hand start is told each hand's)")
        if self.blinds is not None:
            b = self.blinds
            if (not isinstance(b, tuple) or len(b) != 2
                    or any(isinstance(x, bool) or not isinstance(x, int) or not 0 < x <= MAX_CHIPS for x in b)):
                raise SettingsError("bad_setting", f"blinds = {b!r}: the small and the big blind, two whole "
                                    f"numbers from 1 to {MAX_CHIPS:,} (e.g. 1,2), or none")
            if b[0] > b[1]:
                raise SettingsError("bad_setting", f"blinds = {b[0]},{b[1]}: the small blind comes first and "
                                    "may not be above the big blind (e.g. 1,2)")
        for name, low, high in (("deadline_hours", 1, MAX_HOURS), ("reminders", 0, MAX_REMINDERS),
                                ("max_timeouts", 1, MAX_TIMEOUTS), ("flood_threshold", 1, MAX_FLOOD_THRESHOLD),
                                ("cap_hours", 1, MAX_HOURS)):
            value = getattr(self, name)  # the same bounds for table create and table set
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or not low <= value <= high):
                unset = _UNSET.get(name, "")
                unit = " of hours" if unset else ""
                raise SettingsError("bad_setting", f"{name} = {value!r}: a whole number{unit} from {low} to "
                                    f"{high:,}{unset}")
        if isinstance(self.edition, bool) or self.edition not in EDITIONS:
            raise SettingsError("bad_setting", f"edition = {self.edition!r}: one of "
                                f"{', '.join(str(e) for e in EDITIONS)} ({CURRENT_EDITION} for new tables)")
        self.calendar()  # CalendarError for a bad zone or hours (after the ranges: they say more)
        if self.entropy not in ENTROPY_MODES:
            raise SettingsError("bad_setting", f"entropy = {self.entropy!r}: one of {', '.join(ENTROPY_MODES)}")
        if (not isinstance(self.tournament, str) or not isinstance(self.start_on_vacation, bool)
                or not isinstance(self.wrgpt_vacation, bool) or not isinstance(self.private_asks, bool)):
            raise SettingsError("bad_setting", f"tournament = {self.tournament!r}, start_on_vacation = "
                                f"{self.start_on_vacation!r}, wrgpt_vacation = {self.wrgpt_vacation!r}: a name "
                                "and yes or no (set by tournament start)")
        if self.advance_actions is not None and not isinstance(self.advance_actions, bool):
            raise SettingsError("bad_setting", f"advance_actions = {self.advance_actions!r}: "
                                "true, false, or unset (the ruleset decides)")

    def check_sense(self) -> None:
        """Refuse settings that are each in range but make no sense together (one coded error).

        - ``cap_hours`` below ``deadline_hours``: office hours never run faster than the wall
          clock, so the cap would end every deadline before its length and the deadline
          setting would mean nothing (WRGPT's cap, 24 hours, is above its 4-hour deadline).
        - more ``reminders`` than the deadline has hours: a reminder more often than once an
          hour is noise, not a reminder (the default is one, halfway).

        WHY not in ``__post_init__``: the fold rebuilds settings from what a table stored,
        and a table stored before this check existed must still replay; ``table create``
        and ``table set`` call it before anything is written."""
        hours = self.deadline_hours
        if not hours:
            return
        if self.cap_hours is not None and self.cap_hours < hours:
            raise SettingsError("bad_setting", f"cap_hours = {self.cap_hours} is shorter than deadline_hours = "
                                f"{hours}: the cap would end every deadline early; set cap_hours to at "
                                f"least {hours}, or none")
        if self.reminders > hours:
            raise SettingsError("bad_setting", f"reminders = {self.reminders} with deadline_hours = {hours}: "
                                f"more than one reminder an hour; set reminders to at most {hours}")

    def calendar(self, start: int | None = None) -> Calendar:
        """The office-hours calendar, with a player's own start of day if given."""
        return Calendar(self.tz, self.day_start, self.day_length, self.weekends_off,
                        self.cap_hours).starting(start)

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def changed(self, values: Mapping[str, Any]) -> "TableSettings":
        """These settings with ``values`` applied (names checked, values validated)."""
        return replace(self, **_checked(values))

    def describe(self) -> str:
        """One line for ``table show`` and the settings notice."""
        if not self.deadline_hours:
            return "no deadline"
        cal = self.calendar()
        if cal.wall_clock:
            hours = f"{self.deadline_hours} h"
        else:
            days = "Mon-Fri" if self.weekends_off else "every day"
            hours = (f"{self.deadline_hours} office hours ({days}, from {self.day_start}:00 for "
                     f"{self.day_length} h, {self.tz})")
        cap = f", at most {self.cap_hours} h" if self.cap_hours else ""
        rem = {0: "no reminder", 1: "1 reminder"}.get(self.reminders, f"{self.reminders} reminders")
        return f"deadline {hours}{cap}; {rem}; out after {self.max_timeouts} timeouts in a row"


    def forced_bets(self) -> str:
        """The table's forced bets in words (``table show``, the settings notice), '' when none
        is set."""
        parts = ([f"ante {self.ante}"] if self.ante is not None else []) + (
            [f"blinds {self.blinds[0]}/{self.blinds[1]}"] if self.blinds else [])
        return " and ".join(parts)


NAMES = tuple(f.name for f in fields(TableSettings))
#: the settings only ``tournament start`` gives a table (refused by ``table create`` and ``table set``)
BY_TOURNAMENT_START = ("tournament", "start_on_vacation", "wrgpt_vacation", "private_asks")
#: settings that may be unset, and what ``none`` means for each (said in a range error)
_UNSET = {"deadline_hours": ", or none (no deadline)", "cap_hours": ", or none (no cap)", "ante": ", or none"}


def advance_allowed(settings: TableSettings, by_ruleset: bool) -> bool:
    """Whether advance actions are taken at this table.

    The table's ``advance_actions`` if set; otherwise the ruleset's parameter of the same
    name (``by_ruleset``): off under blognomic-2008 (each player posts "HANDx ROUNDy ..." at
    his turn, and "The next Seated Player then acts", so an action before one's turn is not in
    the text; a Dealer may turn it on, as a proposal would, by the setting or by amending the
    parameter), on under roberts-nlhe (rule 7 lets "An action or verbal declaration out of
    turn" be "ruled binding if there is no bet, call, or raise by an intervening player"; the
    conditions of an advance action say what happens when there is one)."""
    if settings.advance_actions is not None:
        return bool(settings.advance_actions)
    return by_ruleset


def _checked(values: Mapping[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(values) - set(NAMES))
    if unknown:
        raise SettingsError("bad_setting", f"unknown table setting {unknown[0]!r} (settings: {', '.join(NAMES)})")
    return dict(values)


def settings_from(values: Mapping[str, Any] | None, ruleset_deadline: int | None = None) -> TableSettings:
    """The settings stored for a table (``values``), with the ruleset's default deadline where
    the table sets none. ``CalendarError``/``SettingsError`` for a bad value."""
    base = TableSettings(deadline_hours=ruleset_deadline)
    try:
        return base.changed(values or {})
    except TypeError as exc:  # pragma: no cover - replace() with a bad type combination
        raise SettingsError("bad_setting", str(exc)) from exc


_BOOLS = {"true": True, "yes": True, "on": True, "1": True, "false": False, "no": False, "off": False, "0": False}


def parse_assignments(pairs: list[str] | tuple[str, ...]) -> dict[str, Any]:
    """``["deadline_hours=4", "weekends_off=yes", "cap_hours=none"]`` as setting values, each
    read by its setting's type (whole numbers, yes/no, ``none`` where a setting may be unset,
    text). One coded error naming the first bad pair."""
    types = {f.name: f.default for f in fields(TableSettings)}
    out: dict[str, Any] = {}
    for pair in pairs:
        name, sep, text = pair.partition("=")
        name, text = name.strip(), text.strip()
        if not sep or name not in types:
            raise SettingsError("bad_setting", f"{pair!r}: write NAME=VALUE with NAME one of {', '.join(NAMES)}")
        default = types[name]
        if text.lower() == "none" and name in ("deadline_hours", "cap_hours", "advance_actions", "ante", "blinds"):
            out[name] = None
        elif name == "blinds":
            out[name] = parse_blinds(text)
        elif isinstance(default, bool) or name == "advance_actions":
            if text.lower() not in _BOOLS:
                raise SettingsError("bad_setting", f"{pair!r}: {name} is yes or no")
            out[name] = _BOOLS[text.lower()]
        elif isinstance(default, int) or name in ("deadline_hours", "cap_hours", "ante"):
            digits = text[1:] if text[:1] in "+-" else text
            if not (digits.isascii() and digits.isdigit()) or len(digits) > 100:  # '²'.isdigit() is true
                unset = " or none" if name in _UNSET else ""
                raise SettingsError("bad_setting", f"{pair!r}: {name} is a whole number{unset}, not {text!r}")
            out[name] = int(text)  # a sign or a huge number: the range check names the bounds
        else:
            out[name] = text
    return out


def parse_blinds(text: str) -> tuple[int, ...]:
    """``"1,2"`` as blinds (``SettingsError`` naming the text otherwise; the amounts are
    checked with the other settings)."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(p.isascii() and p.isdigit() and len(p) <= 100 for p in parts):
        raise SettingsError("bad_setting", f"blinds {text!r}: the small and the big blind, e.g. 1,2")
    return tuple(int(p) for p in parts)


__all__ = ["parse_blinds", "TableSettings", "SettingsError", "CalendarError", "settings_from", "parse_assignments", "NAMES",
           "advance_allowed"]
