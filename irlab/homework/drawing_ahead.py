"""Students' variants drawn ahead in a second process while this one grades: ``irlab grade`` on two cores.

Drawing a student's variant means judging draws until one is worth solving (:mod:`irlab.homework.drawing`): about
half of the work of grading a class with personal variants. A verdict on a draw depends on nothing but the exercise
and the drawn parameters, so a forked worker judges the draws of the students next in line and sends the verdicts
back (:func:`~irlab.homework.drawing.drawn_verdicts`); this process then draws the same parameters, finds every
verdict known and is left with the answer keys and the grading. The students are dealt in small chunks: each is
drawn by whichever process claims it first, so when the worker falls behind, this process draws the chunk itself
rather than wait. Variants, keys and reports are the same with or without the worker (tests/test_drawing_ahead.py
compares whole classes); it only changes when the work is done, and where.

The worker is used when it can pay: a class of at least :data:`MIN_STUDENTS` students with their own variants, two
cores this process may run on, the ``fork`` start method (Linux: the worker starts with the set already loaded,
in milliseconds), and no other thread in this process (forking a threaded process, e.g. a Jupyter kernel, is
unsafe). Anything the worker cannot do — an error in a draw, a worker that dies — this process does itself, as
it would without one, so an error reads the same.
"""

from __future__ import annotations

import os
import sys
import threading
from contextlib import contextmanager

from .drawing import drawn_verdicts, remember_verdicts

MIN_STUDENTS = 64  # below this, starting a process costs more than the drawing it takes over (a few ms a student)
CHUNK = 16  # students a message: small enough that the two processes share the tail of a class evenly
_ENABLED = True  # tests switch the worker off to compare


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def _can_fork() -> bool:
    import multiprocessing

    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class _Alone:
    """No worker: every student's variant is drawn here, when their answer key needs it."""

    def before(self, student) -> None:
        pass


class _Ahead:
    def __init__(self, path, students: list, seed):
        import multiprocessing

        self._path = path
        self._chunk_of = {student: i // CHUNK for i, student in enumerate(students)}
        chunks = [students[i:i + CHUNK] for i in range(0, len(students), CHUNK)]
        context = multiprocessing.get_context("fork")
        self._claimed = context.Value("i", 0)  # the next chunk nobody has claimed
        self._received: dict = {}  # chunk -> its verdicts (None: the worker could not draw it)
        self._settled: set = set()
        self._connection, theirs = context.Pipe(duplex=False)
        for stream in (sys.stdout, sys.stderr):  # the child must not write out what is buffered here a second time
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self._worker = context.Process(target=_draw, args=(theirs, self._claimed, path, chunks, seed), daemon=True)
        self._worker.start()
        theirs.close()
        self._sending = True

    def before(self, student) -> None:
        """Make the verdicts of ``student``'s draws known here, unless this process is to draw them itself."""
        chunk = self._chunk_of.get(student)
        if chunk is None or chunk in self._settled:
            return
        self._settled.add(chunk)
        self._drain(block=False)
        if chunk not in self._received and self._sending:
            with self._claimed.get_lock():
                mine = self._claimed.value <= chunk
                if mine:
                    self._claimed.value = chunk + 1
            if mine:  # the worker is behind: this chunk is drawn here, as without it
                return
            while self._sending and chunk not in self._received:  # the worker is drawing it now
                self._drain(block=True)
        verdicts = self._received.pop(chunk, None)  # None: drawn here (the worker could not, or has stopped)
        if verdicts is not None:
            remember_verdicts(self._path, verdicts)

    def _drain(self, block: bool) -> None:
        try:
            while block or self._connection.poll():
                chunk, verdicts = self._connection.recv()
                self._received[chunk] = verdicts
                block = False
        except (EOFError, OSError):  # the worker has ended (done, or killed): what it did not send is drawn here
            self._sending = False

    def close(self) -> None:
        self._connection.close()
        self._worker.terminate()
        self._worker.join()


def _draw(connection, claimed, path, chunks: list, seed) -> None:
    """The worker: claim the next chunk, send its verdicts, until none is left (or this process is not wanted)."""
    try:
        while True:
            with claimed.get_lock():
                chunk = claimed.value
                if chunk >= len(chunks):
                    return
                claimed.value = chunk + 1
            try:
                verdicts = drawn_verdicts(path, chunks[chunk], seed)
            except BaseException:  # the grading process draws this chunk itself and reports the error as usual
                connection.send((chunk, None))
                return
            connection.send((chunk, verdicts))
    except (BrokenPipeError, EOFError, OSError, KeyboardInterrupt):
        return  # the grading process has finished or stopped
    finally:
        connection.close()


@contextmanager
def drawing_ahead(path, students: list, seed):
    """Within the block, ``ahead.before(student)`` (in the order of ``students``, normalised ids) makes the verdicts on
    that student's draws known, drawn by a worker process when one is worth starting (see the module docstring)."""
    students = list(dict.fromkeys(students))
    if not (_ENABLED and len(students) >= MIN_STUDENTS and _cores() >= 2 and _can_fork()):
        yield _Alone()
        return
    ahead = _Ahead(path, students, seed)
    try:
        yield ahead
    finally:
        ahead.close()
