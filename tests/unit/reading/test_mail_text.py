"""Reading a player's e-mail as the WRGPT dealer does (nomicpoker.core.reading.mail_text): every
example here is the manual's (seed 000_...) or a mail program's usual reply layout."""

from __future__ import annotations

from nomicpoker.core.reading.mail_text import MailReading, ids_in, read_mail


def test_a_bet_alone_in_column_1():
    assert read_mail("$0\n") == MailReading("$0")
    assert read_mail("\n\n$500\r\n").command == "$500"
    assert read_mail("  $500\n").command == ""  # "You must have a $-sign in column 1"


def test_talk_and_sig_as_the_manual_shows_them():
    got = read_mail("JAM\nHere is a line that will not show up.\nTALK\nI'm going all in!\n"
                    "This line will show up!\nSIG\nThis line will not show up!\nNeither will this one.\n")
    assert got.command == "JAM"
    assert got.talk == ("I'm going all in!", "This line will show up!")
    assert got.extra == ("Here is a line that will not show up.",)  # one command per message
    assert got.body() == "JAM\n\n> I'm going all in!\n> This line will show up!\n"


def test_talk_on_the_talk_line_a_double_hyphen_ends_it_and_limits_apply():
    got = read_mail("$1000\nTALK I'm betting a thousand.\n--\nmy signature\n")
    assert got.talk == ("I'm betting a thousand.",)
    long = read_mail("fold\nTALK\n" + "x" * 100 + "\n" + "".join(f"line {i}\n" for i in range(40)))
    assert long.talk[0] == "x" * 80 and len(long.talk) == 31
    ended = read_mail("call\nTALK\nnice\n-----\ncheck\n")  # talk ends; no second command read
    assert ended.talk == ("nice",) and ended.command == "call" and ended.extra == ("check",)


def test_quoted_reply_text_is_ignored():
    assert read_mail("> $100\n>> FOLD\n$20\n").command == "$20"
    wrapped = "On Mon, Nov 23, 2026 at 9:00 AM Dealer\n<dealer@poker.test> wrote:\n> $1\n"
    assert read_mail(wrapped + "call\n").command == "call"
    assert read_mail("On Tue, 24 Nov 2026, Bob wrote:\n> pot\n").command == ""
    assert read_mail("raise 10\n\n-----Original Message-----\nFrom: Dealer\n$999\n").extra == ()
    assert read_mail("jam\n-- \nAlice\n$5\n") == MailReading("jam")
    # "On" starting an ordinary line is not an attribution
    assert read_mail("On second thought\n$0\n") == MailReading("On second thought", (), ("$0",))


def test_id_tokens_in_a_subject():
    assert ids_in("Holdem game (ID=casino): your cards") == ("casino",)
    assert ids_in("ID=casino") == ("casino",)
    assert ids_in("Re: ID=CASINO") == ("casino",)  # case-insensitive, as every command
    assert ids_in("ID= casino") == ()  # "No spaces are allowed between the = sign and the ID"
    assert ids_in("ID=casino7") == () and ids_in("XID=casino") == ()
    assert ids_in("ID=abc123 and ID=abc123 ID=zzz999") == ("abc123", "zzz999")


def test_an_empty_message_archives_as_empty():
    assert read_mail("").body() == "" and read_mail("> only a quote\n").body() == ""
