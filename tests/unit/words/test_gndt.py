"""The GNDT views: Money / Turn / Pot and the change log, in Markdown, HTML, CSV and JSON.

Expected strings are written by hand from what a reader of each format must see; untrusted
player names (``<script>``, ``a|b``, ``**x**``, a name with a comma and a quote) must come out
inert in every format.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from nomicpoker.core.words.gndt import GndtRow, change_log, gndt, md_escape

ROWS = (
    GndtRow("alice", 95, "x", 5),
    GndtRow("bob", 80, "-", 20),
    GndtRow("carol", 100, "o", 0),
)

NASTY = (
    GndtRow("<script>", 1, "o", 0),
    GndtRow("a|b", 2, "o", 0),
    GndtRow("**x**", 3, "o", 0),
    GndtRow('Smith, "J"', 4, "o", 0),
)


def test_markdown_table_has_header_rows_and_totals():
    assert gndt(ROWS, "md") == (
        "| Player | Money | Turn | Pot |\n"
        "|---|---:|:---:|---:|\n"
        "| alice | 95 | x | 5 |\n"
        "| bob | 80 | - | 20 |\n"
        "| carol | 100 | o | 0 |\n"
        "| **Total** | 275 | | 25 |\n"
    )


def test_markdown_escapes_pipes_html_and_emphasis_in_names():
    out = gndt(NASTY, "md")
    assert "| &lt;script&gt; | 1 | o | 0 |" in out
    assert "| a\\|b | 2 | o | 0 |" in out
    assert "| \\*\\*x\\*\\* | 3 | o | 0 |" in out
    # every row still has exactly the four cells (5 unescaped pipes)
    for line in out.splitlines()[2:]:
        assert line.replace("\\|", "").count("|") == 5


def test_markdown_newline_in_name_cannot_end_the_row():
    out = gndt([GndtRow("eve\n| evil | 999 | x | 0 |", 1, "o", 0)], "md")
    lines = out.splitlines()
    assert len(lines) == 4  # header, rule, one row, totals
    assert lines[2].startswith("| eve \\| evil \\| 999")


def test_markdown_title_is_bold_and_escaped():
    out = gndt(ROWS, "md", title="Table <T>")
    assert out.startswith("**Table &lt;T&gt;**\n\n| Player |")


def test_html_fragment_escapes_names():
    out = gndt(NASTY[:1], "html")
    assert "<td>&lt;script&gt;</td>" in out
    assert "<script>" not in out
    assert not out.startswith("<!DOCTYPE")
    assert out.startswith('<table class="gndt">')


def test_html_fragment_exact_for_one_row():
    out = gndt([GndtRow("a&b", 7, "x", 3)], "html")
    assert out == (
        '<table class="gndt">\n'
        "<thead><tr><th>Player</th><th>Money</th><th>Turn</th><th>Pot</th></tr></thead>\n"
        "<tbody>\n"
        '<tr><td>a&amp;b</td><td class="n">7</td><td>x</td><td class="n">3</td></tr>\n'
        "</tbody>\n"
        '<tfoot><tr><th>Total</th><td class="n">7</td><td></td><td class="n">3</td></tr></tfoot>\n'
        "</table>\n"
    )


def test_html_standalone_is_a_complete_page_with_escaped_title():
    out = gndt(ROWS, "html", title="<b>T</b>", standalone=True)
    assert out.startswith("<!DOCTYPE html>")
    assert "<title>&lt;b&gt;T&lt;/b&gt;</title>" in out
    assert "<caption>&lt;b&gt;T&lt;/b&gt;</caption>" in out
    assert out.rstrip().endswith("</html>")


def test_csv_round_trips_names_with_commas_and_quotes():
    out = gndt(NASTY, "csv")
    assert out.splitlines()[0] == "player,money,turn,pot"
    assert out.splitlines()[4] == '"Smith, ""J""",4,o,0'
    back = list(csv.DictReader(io.StringIO(out)))
    assert [r["player"] for r in back] == ["<script>", "a|b", "**x**", 'Smith, "J"']
    assert [int(r["money"]) for r in back] == [1, 2, 3, 4]


def test_csv_cells_a_spreadsheet_would_run_as_formulas_get_an_apostrophe():
    rows = (GndtRow("=HYPERLINK(\"http://x\")", 1, "-", 0), GndtRow("@SUM(A1)", 2, "x", 0),
            GndtRow("+1", 3, "o", 0), GndtRow("-2+3", 4, "-", 0))
    back = list(csv.reader(io.StringIO(gndt(rows, "csv"))))[1:]
    assert [r[0] for r in back] == ["'=HYPERLINK(\"http://x\")", "'@SUM(A1)", "'+1", "'-2+3"]
    assert [r[2] for r in back] == ["-", "x", "o", "-"]  # the Turn mark "-" is not a formula


def test_json_parses_back_to_the_rows_with_totals():
    doc = json.loads(gndt(ROWS + NASTY, "json", title="T"))
    assert list(doc) == ["title", "rows", "totals"]
    assert [GndtRow(**r) for r in doc["rows"]] == list(ROWS + NASTY)
    assert list(doc["rows"][0]) == ["player", "money", "turn", "pot"]
    assert doc["totals"] == {"money": 285, "pot": 25}


def test_json_is_stable_between_calls():
    assert gndt(ROWS, "json") == gndt(tuple(ROWS), "json")


def test_unknown_format_is_refused():
    with pytest.raises(ValueError, match="unknown format"):
        gndt(ROWS, "xml")  # type: ignore[arg-type]


LOG = [
    ("alice", "Money", "100", "95", "hand 3 start"),
    ("bob", "Money", "95", "75", "https://blog.example/post#comment-7"),
    ("<script>", "Turn", "-", "o", "javascript:alert(1)"),
]


def test_change_log_markdown_links_url_causes_only():
    out = change_log(LOG, "md")
    lines = out.splitlines()
    assert lines[0] == "| Player | Column | Old | New | Cause |"
    assert lines[2] == "| alice | Money | 100 | 95 | hand 3 start |"
    assert lines[3] == (
        "| bob | Money | 95 | 75 | [https://blog.example/post#comment-7](https://blog.example/post#comment-7) |"
    )
    assert lines[4] == "| &lt;script&gt; | Turn | - | o | javascript:alert(1) |"


def test_change_log_markdown_link_target_cannot_be_broken_by_parentheses():
    out = change_log([("a", "Money", "1", "2", "https://x.example/a)b")], "md")
    assert "(https://x.example/a%29b)" in out


def test_change_log_html_links_http_and_escapes_the_rest():
    out = change_log(LOG, "html")
    assert (
        '<td><a href="https://blog.example/post#comment-7">https://blog.example/post#comment-7</a></td>'
        in out
    )
    assert "<td>javascript:alert(1)</td>" in out
    assert 'href="javascript' not in out
    assert "<td>&lt;script&gt;</td>" in out


def test_change_log_html_escapes_quotes_in_link_targets():
    out = change_log([("a", "Money", "1", "2", 'https://x.example/?q=1&r=2')], "html")
    assert 'href="https://x.example/?q=1&amp;r=2"' in out


def test_change_log_csv_and_json_round_trip():
    back = list(csv.reader(io.StringIO(change_log(LOG, "csv"))))
    assert back[0] == ["player", "column", "old", "new", "cause"]
    assert [tuple(r) for r in back[1:]] == LOG
    doc = json.loads(change_log(LOG, "json"))
    assert [tuple(e.values()) for e in doc["entries"]] == LOG
    assert list(doc["entries"][0]) == ["player", "column", "old", "new", "cause"]


def test_md_escape_encodes_html_as_entities_so_raw_html_forums_show_it():
    assert md_escape("<b>x</b>") == "&lt;b&gt;x&lt;/b&gt;"
    assert md_escape("&amp; &#60;") == "&amp;amp; &amp;#60;"  # no entity slips through
    assert md_escape("AT&T") == "AT&T"  # a bare ampersand is harmless and stays readable


def test_md_escape_leaves_ordinary_names_alone():
    assert md_escape("Spikebrennan") == "Spikebrennan"
    assert md_escape("J. J. Grimes Printing, Elko") == "J. J. Grimes Printing, Elko"
