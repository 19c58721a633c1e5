"""Work on the next items done ahead in a forked worker process while this one goes on: grading on two cores.

Grading a class with personal variants is the same work for every student — draw their variant (judging draws
until one is worth solving), solve its answer key, grade their answers — and no student's grade depends on
another's. :func:`worked_ahead` forks a worker that takes the students next in line, in small chunks, and sends
back what the work made of each (``work(item)``, which must return something picklable); this process takes each
result in its own order, or does the item itself when the worker has not claimed its chunk (each chunk is done by
whichever process claims it first, so neither waits while there is work left: waiting for the worker's chunk,
this process does the next unclaimed one ahead of its turn, with ``work`` too). The results are the same either
way; only when and where the work is done changes (tests/test_ahead.py compares whole classes). So ``work`` must
be safe to call for any item in either process, in any order, as it is in the worker.

A worker is started only when it can pay: at least :data:`MIN_ITEMS` items, two cores this process may run on,
the ``fork`` start method (Linux: the worker starts with everything already loaded, in milliseconds), and no
other thread in this process (forking a threaded process, e.g. a Jupyter kernel, is unsafe). Anything the worker
cannot do — an error in its work, a worker that dies — this process does itself, as it would without one, so an
error reads the same.

Results often share immutable objects (graded feedback: many students write the same answer to the same value): the
objects of the type named ``once`` are pickled whole the first time the worker sends them, then by number, so this
process revives each once, however many results share it (:class:`_Sender`, :class:`_Receiver`).
"""

from __future__ import annotations

import io
import os
import pickle
import signal
import sys
import threading
from contextlib import contextmanager
from typing import Callable, Hashable

MIN_ITEMS = 64  # grading: below this, starting a process costs more than the work it takes over (ms a student)
CHUNK = 16  # items a message: small enough that the two processes share the tail of the work evenly
_ENABLED = True  # tests switch the worker off to compare
# seconds between looks at whether the other process still lives while waiting for the claim lock (held for
# microseconds, unless its holder was killed holding it)
_PATIENCE = 1.0


def _cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def can_fork() -> bool:
    """Whether a worker can be forked here at all (see the module docstring)."""
    import multiprocessing

    return _cores() >= 2 and "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class _Alone:
    """No worker: every item is done here (but the one done before a fork that failed)."""

    def __init__(self, done: tuple = (None, None)):
        self._done = {done[0]: done[1]} if done[1] is not None else {}  # (item, result) done before the fork

    def take(self, item):
        return self._done.pop(item, None)


class _Ahead(_Alone):
    def __init__(self, items: list, work: Callable, done: tuple = (None, None), once: type | None = None):
        import multiprocessing

        super().__init__(done)
        size = max(1, min(CHUNK, len(items) // 8))  # a short list in smaller chunks, so that both processes work
        self._chunk_of = {item: i // size for i, item in enumerate(items)}
        self._chunks = chunks = [items[i:i + size] for i in range(0, len(items), size)]
        self._work = work
        context = multiprocessing.get_context("fork")
        self._claimed = context.Value("i", 0)  # the next chunk nobody has claimed
        self._received: dict = {}  # chunk -> {item: result} (None: the worker could not do it)
        self._taken: dict = {}  # the results of the chunk being taken
        self._settled: set = set()
        self._receiver = _Receiver()
        self._connection, theirs = context.Pipe(duplex=False)
        for stream in (sys.stdout, sys.stderr):  # the child must not write out what is buffered here a second time
            try:
                stream.flush()
            except (AttributeError, OSError, ValueError):
                pass
        self.worker = context.Process(target=_work, daemon=True,
                                      args=(theirs, self._connection, os.getpid(), self._claimed, chunks, work,
                                            once))
        try:
            with _ctrl_c_held():  # the worker is born deaf to Ctrl-C: this process stops it (close), silently
                self.worker.start()
        except BaseException:
            self._connection.close()
            raise
        finally:
            theirs.close()
        self._sending = True

    def take(self, item):
        """The worker's result for ``item``, or None when it is to be done here (take items in their order)."""
        if item in self._done:
            return self._done.pop(item)
        chunk = self._chunk_of.get(item)
        if chunk is None:
            return None
        if chunk not in self._settled:
            self._settled.add(chunk)
            self._taken = self._settle(chunk) or {}
        return self._taken.pop(item, None)

    def _settle(self, chunk: int) -> dict | None:
        self._drain(block=False)
        if chunk not in self._received and self._sending:
            if self._claim(chunk) is not None:  # the worker is behind: this chunk is done here
                return None
            # the worker is doing it now: meanwhile this process does the next chunk nobody has claimed, ahead of
            # its turn (waiting instead, it would leave the worker all the work but the chunks it got to first)
            while self._sending and chunk not in self._received:
                later = self._claim(None)
                if later is None:
                    self._drain(block=True)
                else:
                    self._received[later] = self._work_here(later)
        return self._received.pop(chunk, None)  # None: done here (the worker could not, or has stopped)

    def _claim(self, chunk: int | None) -> int | None:
        """Claim ``chunk`` (None: the next one nobody has claimed) unless the worker has: the chunk, or None."""
        try:
            return _claim(self._claimed, chunk, len(self._chunks), self.worker.is_alive)
        except _Gone:  # the worker was killed holding the lock (SIGKILL, the OOM killer): all done here
            self._sending = False
            return None

    def _work_here(self, chunk: int) -> dict | None:
        """The results of a chunk done here ahead of its turn, or None when its work fails: it is then done again
        in its turn, where the error is met in the items' order, as without a worker."""
        results = {}
        try:
            for item in self._chunks[chunk]:
                results[item] = self._work(item)
                self._drain(block=False)  # the worker's message out of the pipe, so that the worker goes on
        except Exception:
            return None
        return results

    def _drain(self, block: bool) -> None:
        try:
            while block or self._connection.poll():
                chunk, results = self._receiver.loads(self._connection.recv_bytes())
                self._received[chunk] = results
                block = False
        except (EOFError, OSError):  # the worker has ended (done, or killed): what it did not send is done here
            self._sending = False

    def close(self) -> None:
        self._connection.close()
        self.worker.terminate()
        self.worker.join()


@contextmanager
def _ctrl_c_held():
    """SIGINT held back while the worker is forked: the worker starts with it blocked and ignores it (_work); the
    parent gets a Ctrl-C pressed meanwhile as soon as the worker is started."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    held = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


class _Gone(Exception):
    """The other process died holding the claim lock."""


def _claim(claimed, chunk: int | None, count: int, alive: Callable[[], bool]) -> int | None:
    """Claim chunk ``chunk`` of ``count`` (None: the next one nobody has claimed) in the shared counter
    ``claimed``: the chunk, or None when it is claimed already or none is left. The lock is held for microseconds;
    waiting longer, the other process is looked at (``alive``) every _PATIENCE seconds, and _Gone raised if dead."""
    lock = claimed.get_lock()
    while not lock.acquire(timeout=_PATIENCE):
        if not alive():
            raise _Gone
    try:
        unclaimed = claimed.value
        chunk = unclaimed if chunk is None else chunk
        if unclaimed > chunk or chunk >= count:
            return None
        claimed.value = chunk + 1
        return chunk
    finally:
        lock.release()


class _Sender:
    """The worker's messages pickled, each object of the type ``once`` whole (its ``__reduce__``) the first time it
    is sent, as its number afterwards (see :class:`_Receiver`)."""

    def __init__(self, once: type | None):
        self.once = once
        self.numbers: dict = {}  # id(object) -> its number
        self.held: list = []  # the objects numbered, held so that their ids stay theirs

    def dumps(self, message) -> bytes:
        if len(self.held) >= _ONCE_SIZE:  # numbered afresh: each number is sent whole again before it is used
            self.numbers.clear()
            self.held.clear()
        buffer = io.BytesIO()
        pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
        if self.once is not None:
            pickler.persistent_id = self._persistent_id
        pickler.dump(message)
        return buffer.getvalue()

    def _persistent_id(self, thing):
        if type(thing) is not self.once:
            return None
        number = self.numbers.get(id(thing))
        if number is None:
            number = self.numbers[id(thing)] = len(self.held)
            self.held.append(thing)
            return number, thing.__reduce__()
        return number


class _Receiver:
    """The worker's messages unpickled in the order sent; the objects :class:`_Sender` numbered are revived once and
    kept by their number (a number sent whole again replaces the object kept)."""

    def __init__(self):
        self.revived: dict = {}  # number -> object

    def loads(self, data: bytes):
        unpickler = pickle.Unpickler(io.BytesIO(data))
        unpickler.persistent_load = self._persistent_load
        return unpickler.load()

    def _persistent_load(self, sent):
        if type(sent) is int:
            return self.revived[sent]
        number, (revive, fields) = sent
        thing = self.revived[number] = revive(*fields)
        return thing


# objects a worker numbers (see _Sender) before it numbers them afresh: each held alive in both processes, as long as
# feedback.kept holds them anyway (a class's graded feedback: 7,100 distinct in 2,000 students)
_ONCE_SIZE = 1 << 15


def _work(connection, parents_end, parent: int, claimed, chunks: list, work: Callable, once: type | None = None) -> None:
    """The worker: claim the next chunk, send its results, until none is left (or this process is not wanted)."""
    # Ctrl-C reaches the whole process group: the parent stops this process (close), which prints nothing
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # the parent's end of the pipe, inherited: held open here, a send to a parent that was killed (SIGTERM, SIGKILL)
    # would wait forever for room in the pipe instead of failing, and this process would outlive it
    parents_end.close()
    try:  # whatever the work would print is the parent's to print, when it does that work itself
        sys.stdout = sys.stderr = open(os.devnull, "w")
    except OSError:
        pass
    sender = _Sender(once)
    try:
        while True:
            chunk = _claim(claimed, None, len(chunks), lambda: os.getppid() == parent)
            if chunk is None:  # none left (or the parent was killed holding the lock: _Gone, below)
                return
            try:
                message = sender.dumps((chunk, {item: work(item) for item in chunks[chunk]}))
            except BaseException:  # the parent does this chunk itself and meets the error as it would alone
                connection.send_bytes(pickle.dumps((chunk, None)))
                return
            connection.send_bytes(message)
    except BaseException:
        return  # the parent has finished or stopped (a broken pipe), or this process is being stopped
    finally:
        connection.close()


@contextmanager
def worked_ahead(items: list[Hashable], work: Callable, min_items: int = MIN_ITEMS, once: type | None = None):
    """Within the block, ``ahead.take(item)`` (items taken in the order of ``items``) gives ``work(item)`` as a
    worker process computed it, or None when the item is to be done here (see the module docstring). A worker is
    started for ``min_items`` items or more: fewer are done here. Objects of the type ``once`` (immutable, revived
    by their ``__reduce__``) are sent once each (see the module docstring)."""
    items = list(dict.fromkeys(items))
    if not (_ENABLED and len(items) >= min_items and can_fork()):
        yield _Alone()
        return
    # The first item is done here before the fork: what the work loads on first use (sympy, a set's caches) is
    # then loaded once, in both processes. An error in it is met again when this process does it without a worker.
    try:
        first = work(items[0])
    except Exception:
        yield _Alone()
        return
    try:
        ahead = _Ahead(items[1:], work, (items[0], first), once)
    except OSError:  # no process, pipe or shared memory to be had (ulimit -u, memory): all done here, as without
        yield _Alone((items[0], first))
        return
    try:
        yield ahead
    finally:
        ahead.close()
