"""Group commit: the writes of a process's threads that arrive together share one transaction.

On SQLite one transaction writes at a time, across every thread and process of a crawl
(``WriterLock``), and each one pays the same fixed price whatever it holds: taking the lock,
``BEGIN IMMEDIATE``, and a commit that writes every changed page (the hosts' rows, the claim
index's upper pages) to the log. While one transaction holds the lock, the threads that finish
a page meanwhile wait for it. ``GroupCommit`` lets the first of them to get its turn (the
leader) write the pages of all the others that are waiting by then, one after another in the
leader's transaction, and commit once. Measured on the frontier's statements alone: with 8
links a page, two pages a transaction cost 22% less each than one, four 28% less; with 40
(``bench/frontier_bench.py``, where the link rows weigh more than the commit), four threads
14% less than one.

Nothing changes for a page but when it commits (and, for a claim told the time as a clock's
``now``, the time it claims at: when the leader runs it): each piece of work runs whole, in the
order the writes arrived, as it would alone; all of a transaction's work commits or none does.
A piece of work that raises gets its own error back, and the rest of its group is written again
without it. An error of the transaction itself (the lock, the commit, or one that trying again
did not cure) reaches every thread in it, and nothing is run twice.

Meant for worker threads, which no signal interrupts. A thread interrupted while it waits takes
its write with it, or waits for its outcome once a leader has taken it; a leader interrupted
tells the others of its group that their outcome is not known (``StoreError``). An interrupt
that lands between two bytecodes of the bookkeeping itself may leave a thread without an answer:
Python gives no way to rule that out.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from sqlalchemy import Connection

from politecrawl.errors import StoreError
from politecrawl.store.dialects import is_retryable

__all__ = ["GroupCommit"]

T = TypeVar("T")


def _outcome_unknown() -> StoreError:
    return StoreError(
        "the thread writing this page with others was interrupted: whether it was recorded "
        "is not known (a resumed crawl fetches it again if not)"
    )


class _Ticket(Generic[T]):
    """One thread's piece of work, and its result once a leader has written it."""

    __slots__ = ("done", "error", "result", "taken", "work")

    def __init__(self, work: Callable[[Connection], T]) -> None:
        self.work = work
        self.taken = False
        """A leader took it into a group: it is no longer waiting."""
        self.done = False
        self.result: T | None = None
        self.error: BaseException | None = None

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.done = True


class GroupCommit:
    """Runs each piece of work given to ``run`` in a transaction of ``write`` (a function that
    runs its argument in one write transaction, as ``Frontier._write`` does), together with the
    work other threads gave meanwhile."""

    def __init__(self, write: Callable[[Callable[[Connection], Any]], Any]) -> None:
        self._write = write
        self._changed = threading.Condition()  # guards the tickets' state and the two below
        self._waiting: list[_Ticket[Any]] = []
        self._writing = False  # a leader is writing a group

    @property
    def waiting(self) -> int:
        """Writes given to ``run`` and not yet taken into a transaction."""
        with self._changed:
            return len(self._waiting)

    def run(self, work: Callable[[Connection], T]) -> T:
        """``work(connection)`` committed, alone or with others; its result, or its error."""
        ticket: _Ticket[T] = _Ticket(work)
        with self._changed:
            self._waiting.append(ticket)
            try:
                while self._writing and not ticket.done:
                    self._changed.wait()
            except BaseException:
                self._leave(ticket)
                raise
            if ticket.taken and not ticket.done:  # its leader was interrupted, unawares
                ticket.fail(_outcome_unknown())
            leads = not ticket.done
            self._writing = self._writing or leads
        if leads:
            group: list[_Ticket[Any]] = []
            try:
                self._write_groups(group)
            finally:
                with self._changed:
                    self._writing = False
                    for taken in group:  # done, unless this thread was interrupted
                        if not taken.done:
                            taken.fail(_outcome_unknown())
                    if ticket in self._waiting:  # interrupted before it took the group
                        self._waiting.remove(ticket)
                    self._changed.notify_all()  # the group's threads, and the next leader
        if ticket.error is not None:
            raise ticket.error
        return ticket.result  # type: ignore[return-value]

    def _leave(self, ticket: _Ticket[Any]) -> None:
        """An interrupted thread's ticket goes with it, unless a leader has taken it: then
        the thread waits for its outcome, so that it never leaves a write behind unawares."""
        if not ticket.taken:
            self._waiting.remove(ticket)
            return
        while not ticket.done and self._writing:
            self._changed.wait()

    def _take_waiting(self, group: list[_Ticket[Any]]) -> None:
        with self._changed:
            taken, self._waiting = self._waiting, []
            for ticket in taken:
                ticket.taken = True
            group.extend(taken)

    def _write_groups(self, group: list[_Ticket[Any]]) -> None:
        """Write the waiting tickets as ``group``; when a ticket's own work raises, it gets its
        error and the others are written again, as a group, without it."""
        while True:
            raised = self._write_group(group)
            if raised is None:
                return
            group.remove(raised)
            with self._changed:
                self._changed.notify_all()  # its thread need not wait for the others
            if not group:
                return

    def _write_group(self, group: list[_Ticket[Any]]) -> _Ticket[Any] | None:
        """Write ``group`` (when empty, the tickets waiting once the transaction holds the
        lock); the ticket whose work raised, when one did and the transaction was rolled back
        for it, else None with every ticket done."""
        raised: list[tuple[_Ticket[Any], Exception]] = []

        def write_all(connection: Connection) -> list[Any]:
            raised.clear()  # (a retry of the transaction runs everything again)
            if not group:
                # Taken once the transaction holds the write lock, so that every thread that
                # finished a page while this one waited for it joins; a retry keeps the group.
                self._take_waiting(group)
            results = []
            for ticket in group:
                try:
                    results.append(ticket.work(connection))
                except Exception as error:
                    raised.append((ticket, error))
                    raise
            return results

        try:
            results = self._write(write_all)
        except Exception as error:
            blamed = [ticket for ticket, own in raised if own is error]
            if blamed and not is_retryable(error) and len(group) > 1:
                blamed[0].fail(error)
                return blamed[0]
            if not group:  # it failed before it took the waiting tickets: theirs too
                self._take_waiting(group)
            for ticket in group:  # the transaction's error (or a group of one)
                ticket.fail(error)
            return None
        for ticket, result in zip(group, results, strict=True):
            ticket.result = result
            ticket.done = True
        return None
