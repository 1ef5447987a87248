"""A player's advance action with an absurdly long number is a rejected comment, never a
crash of the poll. WHY: ``/F=`` (the betting round) read ``\\d+`` unbounded, and Python
refuses ``int()`` of more than 4,300 digits with a ValueError; the fold did not catch it, so
one comment stopped its table at every later poll ("the next run retries")."""

from __future__ import annotations

import pytest

from nomicpoker.core.reading.advance import AdvanceError, parse

from kits.tables.bot import Table

HUGE = "9" * 5000


@pytest.mark.parametrize("text", [f"IF/F={HUGE} CALL *", f"IF/P>{HUGE} CALL *", f"IF/I:{HUGE} CALL *",
                                  f"CALL/H={HUGE}", f"CALL ${HUGE}", f"${HUGE}"])
def test_a_huge_number_in_an_advance_action_is_an_advance_error(text):
    with pytest.raises(AdvanceError):
        parse(text)


def test_the_round_switch_still_reads_1_to_4():
    assert parse("IF/F=2 CALL *").arms[0].conditions[0].round == 2
    with pytest.raises(AdvanceError, match="1 \\(pre-flop\\) to 4"):
        parse("IF/F=5 CALL *")


def test_a_huge_round_in_a_comment_leaves_the_table_polling(tmp_path):
    t = Table(tmp_path, ruleset="roberts-nlhe", issue_decks=False,
              settings={"reminders": 0, "advance_actions": True})
    t.start(blinds=(1, 2))
    said = t.act("carol", f"IF/F={HUGE} CALL *")  # Table.run asserts the poll report is ok
    assert any("carol" in s and "not accepted" in s for s in said), said
