"""Students graded ahead in a worker process (irlab.homework.ahead): every byte of the reports as graded in one
process, the grades really taken from the worker, the chunks it did not claim done here, and an error in a draw
reported in the same words."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from irlab.errors import IrlabError
from irlab.homework import ahead
from irlab.homework.drawing import clear_drawing_caches
from irlab.homework.grading import clear_caches
from irlab.homework.identity import read_roster
from irlab.lms.responses import grade

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "exercises" / "homework-variants.toml"
CLASS = ahead.MIN_ITEMS + 2 * ahead.CHUNK + 5  # a worker starts; the last chunk is partial
needs_fork = pytest.mark.skipif(not ahead.can_fork(), reason="needs fork and two cores")


@pytest.fixture
def fresh():
    clear_caches()
    clear_drawing_caches()
    yield
    clear_caches()
    clear_drawing_caches()


def _answers(path: Path, students: int, seed: int = 7) -> Path:
    """A class's answers: right and wrong numbers, blanks, unreadable text, answers given twice."""
    rng = random.Random(seed)
    rows = ["student,exercise,question,answer"]
    for number in range(students):
        for exercise, questions in (("1", "abcdef"), ("2", "ab"), ("3", "ab")):
            for question in questions:
                if rng.random() < 0.15:
                    continue  # left unanswered
                answer = rng.choice(["0.5", "1/3", "", "0.25", "40%", "0,6", "n/a", "2/5", "0.6", "1/2"])
                if exercise == "3" and question == "b" and rng.random() < 0.8:
                    answer = f"{answer}; 0.5; 0.5" if answer else ""
                rows.append(f"Student{number:03d},{exercise},{question},{answer}")
                if rng.random() < 0.05:  # answered again: the later answer counts
                    rows.append(f"Student{number:03d},{exercise},{question},{rng.choice(['0.4', '3/7', ''])}")
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def _reports(answers: Path, seed: str, **options) -> dict:
    clear_caches()
    clear_drawing_caches()
    report = grade(SET, answers, seed, **options)
    return {fmt: report.render(fmt) for fmt in ("csv", "json", "text", "markdown", "canvas", "moodle")}


@needs_fork
def test_a_class_graded_with_the_worker_gets_every_byte_of_its_reports_as_without(fresh, tmp_path, monkeypatch):
    answers = _answers(tmp_path / "answers.csv", CLASS)
    taken = []
    real = ahead._Ahead.take
    monkeypatch.setattr(ahead._Ahead, "take", lambda self, item: taken.append(real(self, item)) or taken[-1])
    with_worker = _reports(answers, "2026")
    assert len(taken) == CLASS and sum(result is not None for result in taken) > 0  # some students graded there
    monkeypatch.setattr(ahead, "_ENABLED", False)
    assert _reports(answers, "2026") == with_worker
    assert f"Student{CLASS - 1:03d}" in with_worker["csv"] and "again at line" in with_worker["text"]


@needs_fork
def test_with_a_roster_the_outsiders_and_the_absent_are_reported_as_without_the_worker(fresh, tmp_path, monkeypatch):
    answers = _answers(tmp_path / "answers.csv", CLASS, seed=11)
    roster = tmp_path / "roster.csv"  # one student missing from it (graded, kept out), one absent from the answers
    roster.write_text("student\n" + "".join(f"Student{n:03d}\n" for n in range(CLASS) if n != 3) + "Nobody\n",
                      encoding="utf-8")
    with_worker = _reports(answers, "r", roster=read_roster(roster))
    monkeypatch.setattr(ahead, "_ENABLED", False)
    assert _reports(answers, "r", roster=read_roster(roster)) == with_worker
    assert "Student003" in with_worker["text"] and "Nobody" in with_worker["csv"]


def _until_the_worker_claims_chunk_0(worker) -> None:
    for _ in range(12000):
        if worker._claimed.value >= 1:
            return
        time.sleep(0.01)


@needs_fork
def test_chunks_are_done_by_whoever_claims_them_first_in_order():
    items = list(range(8 * ahead.CHUNK + 1))  # chunks of CHUNK items
    worker = ahead._Ahead(items, lambda item: item * item)
    try:
        worker.worker.join(60)  # the worker claims every chunk before anything is asked here
        assert [worker.take(item) for item in items] == [item * item for item in items]
    finally:
        worker.close()
    import multiprocessing

    go = multiprocessing.get_context("fork").Event()

    def slow(item):  # the worker holds its first chunk until this process has claimed the next
        go.wait(120)
        return item * item

    here = ahead._Ahead(items, slow)
    try:
        _until_the_worker_claims_chunk_0(here)
        second = items[ahead.CHUNK:2 * ahead.CHUNK]
        assert [here.take(item) for item in second] == [None] * ahead.CHUNK  # unclaimed: to be done here
        go.set()
        assert [here.take(item) for item in items[:ahead.CHUNK]] == [item * item for item in items[:ahead.CHUNK]]
        rest = [(item, here.take(item)) for item in items[2 * ahead.CHUNK:]]
        assert all(result in (None, item * item) for item, result in rest)
    finally:
        here.close()


@needs_fork
def test_waiting_for_the_worker_s_chunk_this_process_does_the_next_one_meanwhile():
    import multiprocessing

    go = multiprocessing.get_context("fork").Event()
    here = os.getpid()

    def work(item):  # the worker holds its first chunk until this process works on another
        if os.getpid() == here:
            go.set()
        elif not go.wait(30):
            raise TimeoutError  # this process waited instead: the chunk is done here, and the test fails
        return item * item, os.getpid()

    items = list(range(8 * ahead.CHUNK))
    worker = ahead._Ahead(items, work)
    try:
        _until_the_worker_claims_chunk_0(worker)
        got = [worker.take(item) for item in items]
    finally:
        worker.close()
    assert got[:ahead.CHUNK] == [(item * item, worker.worker.pid) for item in items[:ahead.CHUNK]]
    assert got[ahead.CHUNK:2 * ahead.CHUNK] == [(item * item, here) for item in items[ahead.CHUNK:2 * ahead.CHUNK]]
    assert all(result is None or result[0] == item * item for item, result in zip(items, got))


@needs_fork
def test_work_that_fails_in_the_worker_is_done_here(fresh, capfd):
    def work(item):
        if item == 5:
            raise ValueError("no")
        return item

    items = list(range(8 * ahead.CHUNK))
    worker = ahead._Ahead(items, work)
    try:
        worker.worker.join(60)
        got = [worker.take(item) for item in items]
    finally:
        worker.close()
    assert got[:ahead.CHUNK] == [None] * ahead.CHUNK  # the failed chunk: done here, where the error is met
    assert got[ahead.CHUNK:] == [None] * (7 * ahead.CHUNK)  # the worker stopped at the error
    assert capfd.readouterr() == ("", "")  # nothing printed by the worker


def _errors(monkeypatch, exercise_set: Path, answers: Path) -> list[str]:
    """The error grading the class raises, with the worker and without it."""
    messages = []
    for enabled in (True, False):
        monkeypatch.setattr(ahead, "_ENABLED", enabled)
        clear_caches()
        clear_drawing_caches()
        with pytest.raises(IrlabError) as error:
            grade(exercise_set, answers, "2026")
        messages.append(str(error.value))
    return messages


@needs_fork
def test_a_draw_that_fails_fails_with_the_same_words_with_or_without_the_worker(fresh, tmp_path, monkeypatch):
    bad = tmp_path / "narrow.toml"
    bad.write_text(SET.read_text(encoding="utf-8").replace("relevant = [5, 9]", "relevant = [1, 2]"), encoding="utf-8")
    answers = _answers(tmp_path / "answers.csv", CLASS)
    messages = _errors(monkeypatch, bad, answers)
    assert messages[0] == messages[1] and "gave no consistent variant" in messages[0]


@needs_fork
def test_a_class_s_sheets_made_with_the_worker_are_the_same_files(fresh, tmp_path, monkeypatch):
    from irlab.homework.sheets import write_class_sheets

    roster = tmp_path / "roster.csv"
    roster.write_text("student\n" + "".join(f"S{n:02d}\n" for n in range(12)), encoding="utf-8")
    taken = []
    real = ahead._Ahead.take
    monkeypatch.setattr(ahead._Ahead, "take", lambda self, item: taken.append(real(self, item)) or taken[-1])
    made = {}
    for enabled in (True, False):
        monkeypatch.setattr(ahead, "_ENABLED", enabled)
        clear_caches()
        clear_drawing_caches()
        out = tmp_path / f"class-{enabled}"
        write_class_sheets(SET, roster, out, seed="s", fmt="markdown")
        made[enabled] = {path.name: path.read_bytes() for path in sorted(out.iterdir())}
    assert sum(result is not None for result in taken) > 1  # the first student here, some by the worker
    assert made[True] == made[False] and len(made[True]) == 2 * 12 + 1  # sheets, keys, the manifest


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "script.py"
    path.write_text(text, encoding="utf-8")
    return path


def _ended(pid: int, seconds: float = 60) -> bool:
    """Whether process ``pid`` has ended (gone, or a zombie its new parent has not reaped yet) within ``seconds``."""
    for _ in range(max(1, int(seconds * 20))):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (FileNotFoundError, ProcessLookupError):
            return True
        if state in "ZX":
            return True
        time.sleep(0.05)
    return False


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")


@needs_fork
@needs_proc
def test_a_worker_whose_parent_is_killed_ends_instead_of_waiting_forever_to_send(tmp_path):
    # the parent reads nothing and is killed: the worker's results fill the pipe; if the worker held the pipe's
    # reading end too (inherited), its send would wait forever and it would outlive the parent
    script = _script(tmp_path, "import time\nfrom irlab.homework import ahead\n"
                               "worker = ahead._Ahead(list(range(64)), lambda item: b'x' * 100_000)\n"
                               "print(worker.worker.pid, flush=True)\ntime.sleep(600)\n")
    parent = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    child = None
    try:
        child = int(parent.stdout.readline())
        time.sleep(0.5)  # the worker's first send is waiting for room in the pipe
        parent.send_signal(signal.SIGKILL)
        parent.wait(60)
        assert _ended(child)
    finally:
        parent.kill()
        parent.wait(60)
        parent.stdout.close()
        if child is not None and not _ended(child, 0):  # a failure leaves no process behind
            os.kill(child, signal.SIGKILL)


@needs_fork
@needs_proc
def test_ctrl_c_stops_grading_quietly_and_the_worker_with_it(tmp_path):
    # Ctrl-C reaches the whole process group: the worker ignores it (no traceback of its own, whenever it comes,
    # even while it is being forked) and the parent, stopped, stops the worker
    script = _script(tmp_path, "import os, signal, sys, time\nfrom pathlib import Path\nfrom irlab.homework import ahead\n"
                               "def work(item):\n    time.sleep(0.01)\n    return item\n"
                               "try:\n    with ahead.worked_ahead(list(range(400)), work, 8) as worked:\n"
                               "        print(worked.worker.pid, flush=True)\n"
                               "        status = Path(f'/proc/{worked.worker.pid}/status').read_text()\n"
                               "        deaf = [int(status.split(f'Sig{w}:')[1].split()[0], 16) for w in ('Blk', 'Ign')]\n"
                               "        print(bool((deaf[0] | deaf[1]) & 1 << signal.SIGINT - 1), flush=True)\n"
                               "        os.killpg(0, signal.SIGINT)\n        time.sleep(60)\n"
                               "except KeyboardInterrupt:\n    sys.exit(130)\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120,
                         start_new_session=True)
    child, ignores_ctrl_c = run.stdout.split()
    assert (run.returncode, ignores_ctrl_c, run.stderr) == (130, "True", "")
    assert _ended(int(child))


@needs_fork
def test_a_worker_killed_holding_the_claim_leaves_the_rest_to_this_process(monkeypatch):
    import multiprocessing
    import threading

    holding = multiprocessing.get_context("fork").Event()

    def dies_holding_the_lock(connection, parents_end, parent, claimed, chunks, work, once):
        claimed.get_lock().acquire()
        holding.set()
        time.sleep(0.3)  # this process is waiting for the lock by then
        os.kill(os.getpid(), signal.SIGKILL)

    monkeypatch.setattr(ahead, "_work", dies_holding_the_lock)
    monkeypatch.setattr(ahead, "_PATIENCE", 0.05)
    items = list(range(8 * ahead.CHUNK))
    worker = ahead._Ahead(items, lambda item: item)
    try:
        assert holding.wait(60)
        taken = []
        waiting = threading.Thread(target=lambda: taken.extend(worker.take(item) for item in items), daemon=True)
        waiting.start()
        waiting.join(60)
        assert taken == [None] * len(items)  # every item to be done here, none waited for forever
    finally:
        worker.close()


@needs_fork
def test_a_worker_that_cannot_be_started_leaves_the_class_to_this_process(fresh, tmp_path, monkeypatch):
    import errno
    from multiprocessing.context import ForkProcess

    answers = _answers(tmp_path / "answers.csv", CLASS, seed=5)
    alone = _reports(answers, "2026")

    def no_process(process):
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(ForkProcess, "_Popen", staticmethod(no_process))
    assert _reports(answers, "2026") == alone  # (ulimit -u reached, no memory for a fork): no error, every byte


@needs_fork
def test_a_draw_that_fails_in_the_middle_of_a_class_fails_with_the_same_words(fresh, tmp_path, monkeypatch):
    from irlab.homework import drawing

    # with 9 draws a student, only Student049's variant of exercise 1 cannot be drawn (checked below): the worker
    # has graded students before it, and meets the error in a chunk this process then grades itself
    monkeypatch.setattr(drawing, "MAX_ATTEMPTS", 9)
    answers = _answers(tmp_path / "answers.csv", CLASS)
    taken = []
    real = ahead._Ahead.take
    monkeypatch.setattr(ahead._Ahead, "take", lambda self, item: taken.append((item, real(self, item))) or taken[-1][1])
    messages = _errors(monkeypatch, SET, answers)
    assert messages[0] == messages[1] and "exercise 1:" in messages[0] and "in 9 draws" in messages[0]
    assert taken[-1][0] == "student049" and any(result is not None for _, result in taken[:-1])


def _written(report) -> dict:
    return {fmt: report.render(fmt) for fmt in ("csv", "json")}


@needs_fork
def test_a_report_written_in_two_processes_is_every_byte_of_the_one_written_here(fresh, tmp_path, monkeypatch):
    from irlab.homework import grading

    answers = _answers(tmp_path / "answers.csv", CLASS, seed=3)
    roster = tmp_path / "roster.csv"  # an outsider kept out (written after the class in the CSV), an absent student
    roster.write_text("student\n" + "".join(f"Student{n:03d}\n" for n in range(CLASS) if n != 7) + "Nobody\n",
                      encoding="utf-8")
    report = grade(SET, answers, "2026", roster=read_roster(roster))
    monkeypatch.setattr(ahead, "_ENABLED", False)
    alone = _written(report)
    monkeypatch.setattr(ahead, "_ENABLED", True)
    monkeypatch.setattr(grading, "_WRITE_AHEAD", 8)
    who = tmp_path / "who"  # the process that made each student's text, one line each
    for maker in (grading._StudentCsv, grading._StudentJson):
        made = maker.__call__

        def noted(self, student, made=made):
            with who.open("a") as note:
                note.write(f"{os.getpid()}\n")
            return made(self, student)

        monkeypatch.setattr(maker, "__call__", noted)
    assert _written(report) == alone
    pids = who.read_text().split()
    assert 0 < pids.count(str(os.getpid())) < len(pids)  # both processes wrote students
    assert '"student": "Student007"' in alone["json"] and "Student007,,total" in alone["csv"]
    assert alone["csv"].index("Student007,,total") > alone["csv"].index(f"Student{CLASS - 1:03d},,total")


@needs_fork
def test_a_report_whose_writing_fails_in_the_worker_is_written_here_the_same(fresh, tmp_path, monkeypatch):
    import errno
    from multiprocessing.context import ForkProcess
    from irlab.homework import grading

    report = grade(SET, _answers(tmp_path / "answers.csv", CLASS, seed=4), "2026")
    monkeypatch.setattr(ahead, "_ENABLED", False)
    alone = _written(report)
    monkeypatch.setattr(ahead, "_ENABLED", True)
    monkeypatch.setattr(grading, "_WRITE_AHEAD", 8)
    here = os.getpid()
    for maker in (grading._StudentCsv, grading._StudentJson):
        made = maker.__call__

        def fails_there(self, student, made=made):
            if os.getpid() != here:
                raise MemoryError("the worker ran out")
            return made(self, student)

        monkeypatch.setattr(maker, "__call__", fails_there)
    assert _written(report) == alone

    def no_process(process):
        raise OSError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(ForkProcess, "_Popen", staticmethod(no_process))
    assert _written(report) == alone  # no worker could be started: every student written here


def test_a_worker_s_grades_are_received_as_the_objects_sent():
    import pickle

    from irlab.homework.grading import QuestionGrade, _Unanswered

    graded = QuestionGrade("Ann", "1", "a", [], (3, 7), "wrong-part-count")
    blank = _Unanswered("", "1", "b", [])
    got = pickle.loads(pickle.dumps([graded, blank, blank], protocol=pickle.HIGHEST_PROTOCOL))
    assert got[0] == graded and type(got[0]) is QuestionGrade and got[0].status == "wrong-part-count"
    assert type(got[1]) is _Unanswered and got[1] is got[2] and got[1].status == "no-answer"


def test_a_worker_s_grades_and_their_feedback_come_back_equal_each_feedback_one_object():
    from fractions import Fraction

    from irlab.homework.feedback import PartFeedback
    from irlab.homework.grading import QuestionGrade

    def feedback(answer, status, credit):  # made afresh each time, as a worker makes it
        return PartFeedback("1", "a", "1", "P@5", answer, status, f"{answer} is {status}.", Fraction(credit),
                            Fraction(1, 2), "binary-gains" if status == "wrong" else None, 2, ("m",), None, ())

    right, wrong = feedback("0.4", "correct", "1/2"), feedback("0.3", "wrong", 0)
    chunks = [(0, {"Ann": {0: QuestionGrade("Ann", "1", "a", [right, wrong], (2, 3))}}),
              (1, {"Bob": {0: QuestionGrade("Bob", "1", "a", [right, right], (9,), "wrong-part-count")}})]
    got = _sent_as(PartFeedback, chunks)
    assert got == chunks  # equal grades, equal feedback, in every field
    ann, bob = got[0][1]["Ann"][0], got[1][1]["Bob"][0]
    assert ann.parts[0] is bob.parts[0] is bob.parts[1] and ann.parts[1].credit == 0 and bob.status == "wrong-part-count"
    assert ann.parts[0] == feedback("0.4", "correct", "1/2")


class _Shared:
    """Immutable, revived by its __reduce__ (as graded feedback is); counts the objects made."""

    made = 0

    def __init__(self, name):
        self.name = name
        _Shared.made += 1

    def __reduce__(self):
        return _Shared, (self.name,)


def _sent(messages: list, size: int, monkeypatch) -> list:
    monkeypatch.setattr(ahead, "_ONCE_SIZE", size)
    return _sent_as(_Shared, messages)


def _sent_as(once: type, messages: list) -> list:
    """``messages`` as a worker sends them (objects of type ``once`` whole once each) and this process reads them."""
    sender, receiver = ahead._Sender(once), ahead._Receiver()
    return [receiver.loads(sender.dumps(message)) for message in messages]


def test_objects_a_worker_s_results_share_are_sent_and_revived_once_each(monkeypatch):
    a, b = _Shared("a"), _Shared("b")
    messages = [(0, {"x": [a, b, a], "y": ("graded", b)}), (1, {"z": [b, a]}), (2, {"w": [a, _Shared("c")]})]
    before = _Shared.made
    got = _sent(messages, 1 << 15, monkeypatch)
    assert _Shared.made - before == 3  # a, b and c revived once each, whatever the messages that hold them
    first, second, third = (results for _, results in got)
    assert [item.name for item in first["x"]] == ["a", "b", "a"] and first["y"] == ("graded", first["x"][1])
    assert first["x"][0] is first["x"][2] is second["z"][1] is third["w"][0] and second["z"][0] is first["x"][1]
    assert [chunk for chunk, _ in got] == [0, 1, 2] and third["w"][1].name == "c"
    # numbered afresh when the table is full: each object sent whole again before its number is used
    before = _Shared.made
    got = _sent(messages, 2, monkeypatch)
    assert [[item.name for item in results[key]] for (_, results), key in zip(got, "xzw")] == [
        ["a", "b", "a"], ["b", "a"], ["a", "c"]]
    assert _Shared.made - before == 2 + 2 + 2  # a and b in each of the first two messages, then a and c


@needs_fork
def test_a_report_too_large_for_a_second_process_s_memory_is_written_here(fresh, tmp_path, monkeypatch):
    from irlab.homework import grading

    report = grade(SET, _answers(tmp_path / "answers.csv", CLASS, seed=6), "2026")
    monkeypatch.setattr(grading, "_WRITE_AHEAD", 8)
    monkeypatch.setattr(grading, "_WRITE_AHEAD_MAX", CLASS - 1)
    started = []
    real = ahead._Ahead.__init__
    monkeypatch.setattr(ahead._Ahead, "__init__", lambda self, *args: started.append(1) or real(self, *args))
    written = _written(report)
    assert started == []  # no worker forked for a class over the bound
    monkeypatch.setattr(grading, "_WRITE_AHEAD_MAX", CLASS)
    assert _written(report) == written and len(started) == 2  # at the bound: one for the CSV, one for the JSON
