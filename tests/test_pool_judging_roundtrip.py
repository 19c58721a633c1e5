"""Judgments back in (issue 29, item 5): irlab pool -o FILE.csv, filled in, read back with irlab pool --to-qrels as
the qrels of exactly the documents the runs retrieved, whatever a docno starts with; the filled-in file is untrusted
input (bounds, file:line errors)."""

import random

import pytest

from irlab.errors import InputFileError
from irlab.limits import MAX_ID_BYTES, MAX_LINE_BYTES, MAX_LINEAR_GRADE, MAX_SKIPPED_LINES
from irlab.solvers.judging import read_judging_list
from irlab.spreadsheet import read_back_id, reversible_id, safe_cell
from irlab.trec import read_qrels

HOSTILE = ["-1", "+x", "@a", "=SUM(1)", "'quoted", "''twice", "'=x", "-", "a;=b", "a;'b", "d1", "\uff1dx"]


@pytest.fixture
def run(tmp_path):
    """One run retrieving every hostile docno for topic 401, and two ordinary documents for a topic '-7'."""
    lines = [f"401 Q0 {docno} {rank} {100 - rank} sysA" for rank, docno in enumerate(HOSTILE, 1)]
    lines += ["-7 Q0 e1 1 2 sysA", "-7 Q0 e2 2 1 sysA"]
    path = tmp_path / "a.run"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _fill(sheet, grade_of):
    """The assessor's work: a grade in the empty relevance column of every row, the rest of the line untouched."""
    lines = sheet.read_text(encoding="utf-8").splitlines()
    filled = [lines[0]] + [line + str(grade_of(i)) for i, line in enumerate(lines[1:])]
    sheet.write_text("\n".join(filled) + "\n", encoding="utf-8")


def test_the_round_trip_names_the_documents_retrieved(cli, run, tmp_path):
    sheet, qrels = tmp_path / "judge.csv", tmp_path / "qrels.txt"
    assert cli("pool", str(run), "-k", "20", "-o", str(sheet)).returncode == 0
    text = sheet.read_text(encoding="utf-8")
    # what a spreadsheet would read as a formula carries the apostrophe, and a docno's own apostrophe one more
    assert "\n401,'+x,\n" in text and "\n401,'@a,\n" in text and "\n401,'=SUM(1),\n" in text
    assert "\n401,''quoted,\n" in text and "\n401,-1,\n" in text and "\n'-7,e1,\n" in text
    _fill(sheet, lambda i: i % 3)
    done = cli("pool", "--to-qrels", str(sheet), "-o", str(qrels))
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"irlab: wrote {qrels} from {sheet}: 14 documents of 2 topics\n"
    rows = [line.split(" ") for line in qrels.read_text(encoding="utf-8").splitlines()]
    assert sorted(docno for topic, _, docno, _ in rows if topic == "401") == sorted(HOSTILE)
    assert sorted(docno for topic, _, docno, _ in rows if topic == "-7") == ["e1", "e2"]
    assert [grade for *_, grade in rows] == [str(i % 3) for i in range(14)]
    judged = read_qrels(str(qrels))  # irlab eval reads it, with the run's own docnos
    assert len(judged) == 14
    assert cli("eval", str(qrels), str(run), "-m", "num_rel_ret").returncode == 0


def test_an_empty_relevance_is_not_judged_and_counted(cli, run, tmp_path):
    sheet = tmp_path / "judge.csv"
    assert cli("pool", str(run), "-k", "20", "--topic", "-7", "-o", str(sheet)).returncode == 0
    assert sheet.read_text(encoding="utf-8") == "topic,docno,relevance\n'-7,e1,\n'-7,e2,\n"
    sheet.write_text("topic,docno,relevance\n'-7,e1,2\n'-7,e2,\n", encoding="utf-8")
    done = cli("pool", "--to-qrels", str(sheet))  # to stdout
    assert done.returncode == 0 and done.stdout == "-7 0 e1 2\n-7 0 e2 -1\n"
    assert "2 documents of 1 topic; 1 without a relevance yet, written -1 (not judged): line 3" in done.stderr


def test_a_list_saved_by_a_spreadsheet_without_the_apostrophes(tmp_path):
    # the spreadsheet shows '+x as +x and may save it so: read as it is, still the run's docno
    path = tmp_path / "saved.csv"
    path.write_text("\ufeffTopic;Docno;Relevance;notes\n401;+x;1;looked twice\n401;=SUM(1);0;\n", encoding="utf-8")
    assert read_judging_list(path).qrels() == "401 0 +x 1\n401 0 =SUM(1) 0\n"


def test_the_apostrophe_rule_reverses_exactly():
    rng = random.Random(29)
    alphabet = ["-", "+", "@", "=", "'", ";", "\t", "\n", "\r", '"', "a", "1", " ", ".", "e", "\uff1d", "\uff20"]
    for _ in range(50_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 7)))
        for first in (False, True):
            written = reversible_id(text, first)
            assert read_back_id(written) == text
            assert safe_cell(written) == written  # SafeWriter writes it as it is: no formula, no second mark
    assert [reversible_id(t) for t in HOSTILE[:5]] == ["-1", "'+x", "'@a", "'=SUM(1)", "''quoted"]
    # only the apostrophe irlab adds goes: a docno's own one stays, a cell without one is read as it is
    assert [read_back_id(c) for c in ("''quoted", "'quoted", "+x", "'+x", "a;''b", "a;'=b")] == \
        ["'quoted", "quoted", "+x", "+x", "a;'b", "a;=b"]


@pytest.mark.parametrize("body,line,message", [
    ("401,d1,yes\n", 2, "relevance 'yes' is not a whole number"),
    ("401,d1,1.5\n", 2, "relevance '1.5' is not a whole number"),
    ("401,d1,'1\n", 2, "relevance \"'1\" is not a whole number"),
    (f"401,d1,{MAX_LINEAR_GRADE + 1}\n", 2, "MAX_LINEAR_GRADE"),
    ("401,d1,1\n401,d2,0\n401,d1,0\n", 4, "docno d1 is judged again (first at line 2)"),
    ("401,,1\n", 2, "no docno"),
    ("',d1,1\n", 2, "no topic"),
    ('401,"d 1",1\n', 2, "has a space or control character"),
    ('401,"d\x1b1",1\n', 2, "has a space or control character"),
    (f"401,{'d' * (MAX_ID_BYTES + 1)},1\n", 2, f"has {MAX_ID_BYTES + 1} bytes"),
    ("401,d1,1\n" + "x" * (MAX_LINE_BYTES + 1) + "\n", 3, "MAX_LINE_BYTES"),
    ("401,d1,1\n" + "\n" * (MAX_SKIPPED_LINES + 5), MAX_SKIPPED_LINES + 3, "MAX_SKIPPED_LINES"),
    ('401,"d1,1\n', 2, "has a space or control character"),  # a quote never closed takes in the line break
])
def test_a_bad_row_is_named_by_file_and_line(tmp_path, body, line, message):
    path = tmp_path / "judged.csv"
    path.write_text("topic,docno,relevance\n" + body, encoding="utf-8")
    with pytest.raises(InputFileError) as caught:
        read_judging_list(path)
    assert caught.value.line == line and message in str(caught.value), str(caught.value)


def test_bad_files_and_options_are_one_line_and_exit_2(cli, run, tmp_path):
    latin = tmp_path / "latin1.csv"
    latin.write_bytes("topic,docno,relevance\n401,caf\xe9,1\n".encode("latin-1"))
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("topic,doc,grade\n401,d1,1\n", encoding="utf-8")
    empty = tmp_path / "empty.csv"
    empty.write_text("topic,docno,relevance\n\n", encoding="utf-8")
    cases = [
        (("--to-qrels", str(latin)), "not UTF-8 text"),
        (("--to-qrels", str(wrong)), "wrong.csv:1: the header must name topic, docno, relevance"),
        (("--to-qrels", str(empty)), "has no document"),
        (("--to-qrels", str(tmp_path / "missing.csv")), "no such file"),
        (("--to-qrels", str(wrong), str(run)), "give it alone"),
        (("--to-qrels", str(wrong), "-k", "3"), "give it alone"),
        (("--to-qrels", str(wrong), "-o", str(wrong)), "wrong.csv"),
        ((), "give the run files to pool"),
    ]
    for args, message in cases:
        done = cli("pool", *args)
        assert done.returncode == 2 and done.stdout == "", args
        assert done.stderr.count("\n") == 1 and done.stderr.startswith("irlab: error:") and message in done.stderr, \
            (args, done.stderr)
