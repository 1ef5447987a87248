"""Advance actions in the table fold (pure): take one from a comment, keep it in the hand's
fold state, and fire it when its player's turn arrives.

WHY beside the adjudicator and not in it: the adjudicator reads each comment and applies each
step; this module only adds WRGPT's "post bets in advance" to it: the handlers of the advance
readings (:func:`keep`, :func:`hold_said`, :func:`off`, :func:`refuse_reading`), :func:`take`
for one that came privately, and :func:`fire` at each turn. What it remembers is
``HandState.advance`` (player -> the action's canonical text), which the snapshot stores, so a
poll resumed from a snapshot and ``audit`` fire the same actions.

A phase without a hub (:mod:`.effects`): each function reads the hand's state and returns what
happened as values (the kept action, the verdict, the answers, the engine's next hand, the
request to move the hand on). Where a try must see the comment's own changes (an action
written at its player's turn is tried at once), it is given the hand as the comment leaves it,
a copy made with :func:`dataclasses.replace`, never the fold's; the confirmation that depends on
what the hand did next (:class:`~nomicpoker.core.fold.effects.IfKept`) is decided by the fold
when it gets there.

Scope: an advance action belongs to the hand whose thread it is posted in, and lapses when
that hand ends (a comment in hand 99's thread is about hand 99; WRGPT's ``/H`` still works).
"""

from __future__ import annotations

from dataclasses import replace
from dataclasses import replace as dc_replace
from typing import Any

from nomicpoker.core.poker import engine
from nomicpoker.core.reading import grammar
from nomicpoker.core.poker.actions import AllIn, Call, Check, Fold, Raise
from nomicpoker.core.reading.advance import AdvanceError, PlayerIn, Program, Undo, parse
from nomicpoker.core.reading.comment_reading import Reading
from nomicpoker.core.reading.advance_eval import Concrete, describe, evaluate, view_of
from nomicpoker.core.fold import over_days
from nomicpoker.core.fold.advance_private import PRIVATE_THREAD, refuse, reply, shown_on_request
from nomicpoker.core.fold.effects import (Acted, AdvanceHand, Effect, FirstReading, IfKept, Message, Post, Reject,
                                          Verdict, hand_set)
from nomicpoker.core.rules.ruleset import Ruleset
from nomicpoker.core.table.days_state import DaysState
from nomicpoker.core.table.fold_state import HandState, TableState
from nomicpoker.core.table.fold_types import Revision, TableConfig
from nomicpoker.core.words.gndt import md_escape
from nomicpoker.core.table.table_settings import advance_allowed
from nomicpoker.core.words.tags import reference_tag

#: how ``HandState.advance`` keeps an action of the ordinary grammar posted before its turn
#: ("raise 6", "HAND3 ROUND1 call"): its canonical text after this mark, which no advance
#: action starts with. At the turn it is applied exactly as if posted then (:meth:`Advance.hold`)
HELD = "said: "

#: the rule-7 refusal's code (``Ruleset.no_raise_after_out_of_turn_check``)
CHECKED_OUT_OF_TURN = "checked_out_of_turn"

Effects = tuple[Effect, ...]


def _event(name: str, a: Concrete, hand: int, rnd: int):
    """The engine event, naming its hand and round (blognomic-2008 requires them)."""
    if a.act == "fold":
        return Fold(name, hand, rnd)
    if a.act == "check":
        return Check(name, hand, rnd)
    if a.act == "call":
        return Call(name, hand, rnd)
    if a.act == "all_in":
        return AllIn(name, hand, rnd)
    return Raise(name, hand, rnd, a.amount)


def _chosen(p: Program, arm: int):
    """The command of arm ``arm`` (``-1``: the ELSE or the plain command)."""
    return p.otherwise if arm < 0 else p.arms[arm].action


def _conditions_seats(p: Program) -> list[int]:
    return [c.seat for arm in p.arms for c in arm.conditions if isinstance(c, PlayerIn)]


def no_raise_refusal(h: HandState, player: str, event: Any) -> engine.Rejection | None:
    """The refusal of a bet or raise by a player who checked out of turn, at his next
    turn (``None``: the action is not barred). WHY here and not in the engine: the bar
    comes from a comment read out of turn, which the engine never sees."""
    if player not in h.no_raise:
        return None
    seat = h.hand.seat(player)
    owe = max(h.hand.high_bet - seat.round_bet, 0)
    if isinstance(event, Concrete):
        raising = event.act == "raise" or (event.act == "all_in" and event.raising)
    else:
        raising = isinstance(event, Raise) or (isinstance(event, AllIn) and seat.money > owe)
    if not raising:
        return None
    may = f"call {min(owe, seat.money)} or fold" if owe else "check or fold"
    return engine.Rejection(CHECKED_OUT_OF_TURN,
                            f"{player} checked out of turn, so may not bet or raise on this "
                            f"turn: {may}",
                            h.hand.ruleset.cite("no_raise_after_out_of_turn_check"))


def on(st: TableState, rules: Ruleset) -> bool:
    """Whether the table takes advance actions (its setting, else the ruleset's parameter)."""
    return advance_allowed(st.days.settings, rules.advance_actions)


def _without(book: dict[str, str], player: str) -> dict[str, str]:
    return {k: v for k, v in book.items() if k != player}


# -- the handlers of the advance readings (nomicpoker.core.reading.comment_reading) ------------

def keep(rev: Revision, reading: Reading, h: HandState, number: int, st: TableState,
         config: TableConfig) -> Effects:
    """``advance``: keep the program on the first line (tried at once at the player's turn:
    "It is not necessary to use these features out of turn, ie. you can also use them
    when it is your turn to bet"; at his turn it is never re-read by the ordinary grammar)."""
    program = reading.text.program
    assert isinstance(program, (Program, Undo))
    return (FirstReading(rev, "action"),) + take(rev, h, number, program, reading.facts.my_turn, st, config)


def hold_said(rev: Revision, reading: Reading, h: HandState, number: int, config: TableConfig) -> Effects:
    """``advance_hold``: an ordinary action posted before its player's turn (:func:`hold`)."""
    return hold(rev, h, number, reading.text.action, config)


def refuse_reading(rev: Revision, reading: Reading, number: int, config: TableConfig) -> Effects:
    """``advance_error``: a line of WRGPT's language that does not parse."""
    error = reading.text.program
    assert isinstance(error, AdvanceError)
    return (FirstReading(rev, "action"),) + refuse(rev, number, error.code, error.message, config)


def off(rev: Revision, reading: Reading, number: int, rules: Ruleset) -> Effects:
    """``advance_off``: advance actions are off here, and the first line can only be one
    (a conditional, a switch, an amount, ``CALL *``): it is answered, never silently taken
    as chat. ``rules``: the rules in force (the fold's)."""
    line = reading.text.line
    return (FirstReading(rev, "action"),
            Reject(rev, number, "advance_off",
                   f"{line!r} is an advance action (WRGPT's language), and advance actions are "
                   f"not taken at this table: act at your turn in the form the rule asks "
                   f"(e.g. \"HAND{number} ROUNDy call\"). The Dealer may allow them (table "
                   f"setting advance_actions, or an amendment of the ruleset's parameter)",
                   cite_as="advance_actions" if rules.cite("advance_actions") else "not_your_turn"))


def take(rev: Revision, h: HandState, number: int, p: Program | Undo, my_turn: bool, st: TableState,
         config: TableConfig) -> Effects:
    """Keep (or withdraw) the advance action ``p`` of ``rev``'s author, confirm it, and try
    it at once when it is his turn. The try works on the hand as this comment leaves it (a
    value: the kept action, the step, and play over days after the comment's own verdict)."""
    author = rev.author
    ref = rev.permalink or rev.forum_id
    secret = rev.thread == PRIVATE_THREAD
    # WHY: where players write to the Dealer alone (e-mail), the message is as private as a
    # private-inbox one, so from edition 2 its verdict does not name the action it holds
    # (the live ledger keeps no running hand's secret, docs/fair-dealing.md); a hand of
    # edition 1 stored it, and replays as it was played
    unnamed = secret or (config.answers_privately() and h.edition >= 2)
    if isinstance(p, Undo):
        had = h.advance.get(author)
        asked = author in h.reveal_asked
        out: Effects = (hand_set(number, advance=_without(h.advance, author), reveal_asked=h.reveal_asked - {author}),
                        Verdict(rev, number, "accepted", canonical="" if unnamed else "UNDO"))
        if secret:
            out += (hand_set(number, private_advance=[*h.private_advance, [author, rev.created, "UNDO"]]),)
        what = f"your advance action {md_escape(shown(had))} is withdrawn" if had else "you had no advance action"
        what += " and your cards will not be shown unasked" if asked else ""
        return out + (reply(rev, number, f"{md_escape(author)}: {what}.", config),)
    if p.hand is not None and p.hand != number:
        if p.hand > number:
            return refuse(rev, number, "advance_future_hand",
                          f"/H={p.hand} names a future hand; this is hand {number} (the "
                          f"manual: \"you cannot use the /H comand to specify an action "
                          f"for a future hand\")", config)
        return (Verdict(rev, number, "ignored", "advance_past_hand",
                        f"/H={p.hand}: hand {number} is in play, so it is ignored"),)
    seats = [s.name for s in h.hand.seats]
    bad = [n for n in _conditions_seats(p) if n > len(seats)]
    if bad:
        return refuse(rev, number, "advance_bad_player",
                      f"/I:{bad[0]} or /O:{bad[0]}: players are numbered 1 to {len(seats)} at this table", config)
    text = p.text()
    kept = replace(h, advance={**h.advance, author: text},
                   reveal_asked=h.reveal_asked | {author} if p.reveal else h.reveal_asked)
    out = (hand_set(number, advance=kept.advance, reveal_asked=kept.reveal_asked),
           Verdict(rev, number, "accepted", canonical="" if unnamed else text,
                   message="a private advance action: published when the hand ends" if secret else ""))
    if secret:
        kept.private_advance = [*h.private_advance, [author, rev.created, text]]
        out += (hand_set(number, private_advance=kept.private_advance),)
    barred = ""
    if (not my_turn and not secret and not p.arms and p.otherwise is not None
            and p.otherwise.kind == "check"):
        barred, kept.no_raise = checked_out_of_turn(h, author)
        out += (hand_set(number, no_raise=kept.no_raise),)
    # play over days as the fire sees it: after this comment's verdict (an accepted action)
    days = replace(st.days, **over_days.acted(st.days, author, number).fields)
    cause = "a private advance action" if secret else f"{ref}"
    kept.step = ("" if secret else rev.forum_id, rev.created)
    now, acted = my_turn and h.edition >= 2, False
    if now:  # it acts now, made by this message (a private one names no message)
        # "you can also use them when it is your turn to bet": then it is the player's own
        # action, announced as such, with no confirmation that it was kept unless it was
        # kept for later (a condition not met now, a sticky action). Edition 1 (a table
        # created before editions) confirmed it first and labelled it an advance action.
        acted, fired = fire(kept, days, config, cause, h.start.thread, own_turn=True)
        out += (hand_set(number, step=kept.step),) + fired
    if not p.quiet or barred:
        rt = h.hand.ruleset.raise_amount == "raise_to"
        amounts = ("MAKE $x and $x make your total for the round x (raise-to)" if rt else
                   "MAKE $x and $x put x chips in at your turn (raise Z adds Z)")
        said = reply(rev, number,
                     f"{md_escape(author)}'s advance action: {md_escape(text)}. "
                     f"{'It is tried ' if not now else 'It acted now and is kept: it is tried again ' if acted else 'It did not act now and it is still your turn; it is kept and tried '}"
                     f"at your next turn in hand {number}"
                     f"{'' if not p.sticky else ' and stays for the hand while it fires'}; "
                     f"{amounts} under {h.hand.ruleset.name}"
                     f"{'; your cards are shown when the hand ends' if p.reveal else ''}"
                     f"; UNDO withdraws it.{barred}", config)
        # at his turn: said only if it was kept (else it acted, announced as his action, or he
        # was told why it did not), which the fold knows once the hand has moved on
        out += (IfKept(number, author, said) if now else said,)
    if my_turn and not now:  # edition 1: confirmed above, then tried at once
        out += (hand_set(number, step=kept.step),) + fire(kept, days, config, cause, h.start.thread)[1]
    return out


def hold(rev: Revision, h: HandState, number: int, intent: Any, config: TableConfig) -> Effects:
    """Keep an ordinary action posted before its player's turn (``raise 6``, ``check``)
    for that turn, where it is applied exactly as if posted then: one reading of a
    command whatever the turn. A ``check`` posted out of turn also bars a bet or raise at
    the player's next turn where the ruleset says so (Robert's rule 7)."""
    said = grammar.canonical(intent)
    out: Effects = (hand_set(number, advance={**h.advance, rev.author: HELD + said}), FirstReading(rev, "action"),
                    Verdict(rev, number, "accepted", canonical=said))
    barred = ""
    if intent.kind == "check":
        barred, no_raise = checked_out_of_turn(h, rev.author)
        out += (hand_set(number, no_raise=no_raise),)
    return out + (reply(rev, number,
                        f"{md_escape(rev.author)}'s advance action: {md_escape(said)}, read as at your "
                        f"turn: it acts at your next turn in hand {number} exactly as if you posted it "
                        f"then (what it states is checked then); UNDO withdraws it.{barred}", config),)


def checked_out_of_turn(h: HandState, player: str) -> tuple[str, set[str]]:
    """``player`` checked out of turn: his next bet or raise is barred when the hand's
    ruleset says so. The sentence that tells him ('' when the ruleset does not) and the
    players barred (``HandState.no_raise``) after it."""
    rs = h.hand.ruleset
    if not rs.no_raise_after_out_of_turn_check or h.edition < 2:  # edition 1: no bar
        return "", h.no_raise
    rule = rs.cite("no_raise_after_out_of_turn_check")
    return (f" You checked out of turn, so at your next turn you may not bet or raise"
            + (f" (\u201c{rule}\u201d)." if rule else ".")), h.no_raise | {player}


def offered(h: HandState, legal: Any) -> Any:
    """The legal actions offered to the player to act, without a bet or raise when he
    checked out of turn (what is refused is never offered)."""
    if legal is None or legal.player not in h.no_raise:
        return legal
    keep_all_in = legal.call is not None and legal.all_in <= legal.call
    return dc_replace(legal, raise_min=None, raise_max=None, all_in=legal.all_in if keep_all_in else 0)


def steps_logged(h: HandState, first: int) -> Effects:
    """The engine accepted ``h.hand.log[first:]``: a player who acted has had his next
    turn, so a bar from checking out of turn is spent."""
    spent = {ev.player for ev in h.hand.log[first:] if isinstance(ev, (Fold, Check, Call, Raise, AllIn))}
    return (hand_set(h.start.number, no_raise=h.no_raise - spent),) if spent & h.no_raise else ()


def hand_ended(h: HandState, thread: str) -> Effects:
    """The hand is over: show the cards asked for with ``/R`` and publish the advance
    actions that came privately (one dealer comment, none if there is nothing to say)."""
    body = shown_on_request(h)
    return (Post(h.start.number, lambda k: f"{body}\n\n{reference_tag(k)}\n", thread),) if body else ()


# -- firing at the player's turn ----------------------------------------------------------------

def fire(h: HandState, days: DaysState, config: TableConfig, cause: str, thread: str, opening: str = "",
         own_turn: bool = False) -> tuple[bool, Effects]:
    """Try the advance action of the player to act in hand ``h`` (True: it acted, and the
    effects end with the request to move the hand on). ``opening``: the action before it
    that no dealer comment announced yet (no turn notice comes between them), said first;
    ``own_turn``: it was written at its player's own turn, so it is announced as his action."""
    i = h.hand.to_act
    if i is None or h.phase != "betting":
        return False, ()
    name = h.hand.seats[i].name
    text = h.advance.get(name)
    if text is None:
        return False, ()
    if text.startswith(HELD):
        return _fire_held(h, name, text[len(HELD):], config, cause, thread, opening, own_turn)
    p = parse(text)
    assert isinstance(p, Program)
    number = h.start.number
    out = evaluate(p, view_of(h.hand, i))
    done: Effects = ()
    if not out.keep:
        h = replace(h, advance=_without(h.advance, name))
        done = (hand_set(number, advance=h.advance),)
    if out.action is None:
        why = out.failure or "it did not apply"
        is_away = days.away(name, h.edition >= 2)
        if is_away and out.arm is not None and _chosen(p, out.arm).sticky | p.sticky:
            # "sticky actions take precedence over vacations. Unless of course your sticky
            # action translates into an insufficient bet (possible with MAKE or RAISE), in
            # which case you will be folded."
            h = replace(h, advance=_without(h.advance, name))
            acted, more = _act(h, name, Concrete("fold"), config, cause, thread,
                               f" (on vacation; {text} did not act: {why})", opening=opening, own_turn=own_turn)
            return acted, done + (hand_set(number, advance=h.advance),) + more
        return False, done + _tell(number, name, config,
                                   f"Your advance action {md_escape(text)} did not act: {md_escape(why)}. "
                                   + ("You are on vacation: the dealer checks or folds for you."
                                      if is_away else f"It is your turn in hand {number}."))
    acted, more = _act(h, name, out.action, config, cause, thread, "", text, opening, own_turn)
    return acted, done + more


def _tell(number: int, name: str, config: TableConfig, body: str) -> Effects:
    """Tell the player alone why his advance action did not act. Where the forum has no
    private messages (a blog) nothing is sent: the turn notice that follows says it is his
    turn, and a private message the forum cannot deliver would hold up the outbox."""
    return (Message(number, name, f"Hand {number}: your advance action", body),) if config.private else ()


def _act(h: HandState, name: str, action: Concrete, config: TableConfig, cause: str, thread: str,
         note: str, text: str = "", opening: str = "", own_turn: bool = False) -> tuple[bool, Effects]:
    """Apply the advance action's concrete ``action`` for ``name`` and say so."""
    number = h.start.number
    res = (no_raise_refusal(h, name, action)
           or engine.apply(h.hand, _event(name, action, number, h.hand.round)))
    if isinstance(res, engine.Rejection):  # refused after all: the player acts himself
        return False, ((hand_set(number, advance=_without(h.advance, name)),)
                       + _tell(number, name, config, f"Your advance action {md_escape(text)} did not act: "
                               f"{res.message}{_quoted(res, h)}. It is your turn in hand {number}."))
    # the next player's clock starts with this step
    moved = hand_set(number, hand=res, since=h.step[1] or h.since)
    words = describe(action, res.ruleset.raise_amount == "raise_to") + md_escape(note)
    return True, (moved,) + _acted(h, name, words, cause, thread, opening, own_turn)


def _fire_held(h: HandState, name: str, said: str, config: TableConfig, cause: str, thread: str,
               opening: str, own_turn: bool) -> tuple[bool, Effects]:
    """Apply an ordinary action kept by :func:`hold`, as if its player posted it now."""
    number = h.start.number
    done: Effects = (hand_set(number, advance=_without(h.advance, name)),)
    intent = grammar.parse_comment(said, "markdown", bare=True)
    assert isinstance(intent, grammar.Intent)
    event = grammar.to_action(intent, name)
    before = h.hand.seat(name)
    high = h.hand.high_bet
    res = no_raise_refusal(h, name, event) or engine.apply(h.hand, event)
    if isinstance(res, engine.Rejection):
        return False, done + _tell(number, name, config, f"Your advance action {md_escape(said)} did not act: "
                                   f"{res.message}{_quoted(res, h)}. It is your turn in hand {number}.")
    done += (hand_set(number, hand=res, since=h.step[1] or h.since),)
    after = res.seat(name)
    added = before.money - after.money
    act = type(event).__name__.lower().replace("allin", "all_in")
    if after.all_in and act in ("call", "raise"):
        act = "all_in"
    made = Concrete(act, added, after.round_bet, added, after.round_bet > high)  # type: ignore[arg-type]
    words = describe(made, res.ruleset.raise_amount == "raise_to")
    return True, done + _acted(h, name, words, cause, thread, opening, own_turn)


def _acted(h: HandState, name: str, words: str, cause: str, thread: str, opening: str,
           own_turn: bool) -> Effects:
    """Say an advance action that acted (the dealer's one line for it) and move the hand on:
    the same announcement whether it was written in WRGPT's language or kept from the
    ordinary grammar. Written at the player's own turn (``own_turn``: only the first to act
    in the comment; the advance actions of the players after him that fire in turn are
    advance actions), it is his action."""
    number = h.start.number
    first = f"{opening} " if opening else ""
    label = "" if own_turn else " (advance action)"
    return (Acted(name, number),
            Post(number, lambda k: f"{first}{md_escape(name)}{label}: {words}\n\n{reference_tag(k)}\n", thread),
            AdvanceHand(number, cause if own_turn else f"{cause} ({name}'s advance action)", thread, said=True))


def _quoted(res: engine.Rejection, h: HandState) -> str:
    """The rule sentence a refusal rests on, quoted after its message ('' without one, and in
    a hand of edition 1, which did not quote it)."""
    return f" (\u201c{res.citation}\u201d)" if res.citation and h.edition >= 2 else ""


def shown(text: str) -> str:
    """An entry of ``HandState.advance`` as the player wrote it (without :data:`HELD`)."""
    return text[len(HELD):] if text.startswith(HELD) else text
