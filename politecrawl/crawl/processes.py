"""Helper processes: one crawl on several cores (``--processes``) [P1, P2, C5].

Python runs one thread at a time in a process, so a crawl at a short delay is bound by one core
however many worker threads it has. ``HelperProcesses`` starts ``processes - 1`` more processes
on the same crawl database, each a ``Crawler`` of its own, started after the seeds are queued.
They take their work from the one frontier, so the per-host rules (one request in flight, the
delay, robots.txt first) hold across them exactly as across PostgreSQL workers on several
machines: through the database (SQLite: its lock file and ``BEGIN IMMEDIATE``; PostgreSQL:
``SKIP LOCKED``). Each process ends when the frontier has nothing left for anyone.

``max_pages`` is shared out (each process takes an equal share, so the total never exceeds it,
though it may fall short); ``max_pages_per_host`` is refused with more than one process (each
process counts a host's pages itself). Helpers post their counters twice a second, so the
caller can show the whole crawl's progress; pages are yielded and callbacks called only in the
process that fetched them (the database has them all). Counters and a helper's failure go through
shared memory, not a queue: a queue's pipe fills when its reader is slow or dead (64 KiB, about a
minute of reports), and a helper then hangs at exit flushing it, whichever side waits.

Stopping: ``stop`` (on an error, Ctrl-C or a stop of this crawl) sends each helper SIGTERM,
which it treats as Ctrl-C however often it comes (requests in flight finish and are recorded,
the run is recorded as interrupted); ``join`` waits for them; one still starting (importing,
opening the database) ends by the signal itself, having claimed nothing, which is not a failure.
Helpers run in their own process group, so a Ctrl-C at the terminal reaches them only through
this process. One whose parent is gone (killed) is gone with it, without recording or flushing
anything (on Linux the kernel kills it the moment its parent dies; elsewhere it sees it within
50 ms and exits): nobody will read its counters or join it, and a graceful stop
could wait long on the database (its group commit, a lock of the dead parent's transaction)
while a resumed run starts beside it. What it had in flight, or fetched but not yet committed,
is leased work that returns to the queue when its lease expires, exactly as after a kill -9 (C5).
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import multiprocessing
import os
import signal
import sys
import threading
import time
from multiprocessing.sharedctypes import RawArray
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from multiprocessing.process import BaseProcess

    from politecrawl.results import CrawlSummary

_REPORT_SECONDS = 0.5
_SIGNAL_CHECK_SECONDS = 0.05
_FAILURE_BYTES = 2048
_STOP_WAIT_SECONDS = 300.0
_ORPHANED_EXIT_STATUS = 3  # read by nobody: the parent that would is gone
_PR_SET_PDEATHSIG = 1  # prctl(2): the signal this process gets when its parent dies (Linux)
# Counted as they go in each process; the others describe the frontier at the end.
_RUN_COUNTERS = (
    "pages",
    "indexable",
    "noindex",
    "nofollow",
    "errors",
    "redirects",
    "excluded_by_robots",
    "excluded_by_preferences",
    "refused",
    "out_of_scope",
    "robots_fetches",
    "sitemaps",
    "sitemap_skips",
    "checks",
    "broken_checks",
)


def share(limit: int | None, index: int, count: int) -> int | None:
    """Process ``index``'s share of a run limit split among ``count`` processes (they add up to
    ``limit``; ``None`` is no limit)."""
    if limit is None:
        return None
    return limit // count + (1 if index < limit % count else 0)


class HelperSlot:
    """Where one helper posts its counters, and at the end what went wrong: shared memory that
    the parent reads when it likes; posting never blocks, whatever the parent is doing."""

    def __init__(self) -> None:
        self._counters: Any = RawArray("q", len(_RUN_COUNTERS))
        self._failure: Any = RawArray("c", _FAILURE_BYTES)

    def post(self, summary: CrawlSummary) -> None:
        """Post a helper's counters (a reader may see some updated and some not: progress)."""
        for position, name in enumerate(_RUN_COUNTERS):
            self._counters[position] = int(getattr(summary, name))

    def post_failure(self, failure: str) -> None:
        """Post what went wrong (cut to 2 KiB)."""
        self._failure.value = failure.encode("utf-8")[: _FAILURE_BYTES - 1]

    def counters(self) -> dict[str, int]:
        """The counters last posted."""
        return {name: int(self._counters[position]) for position, name in enumerate(_RUN_COUNTERS)}

    def failure(self) -> str | None:
        """What went wrong, if the helper posted a failure."""
        text = bytes(self._failure.value).decode("utf-8", errors="replace")
        return text or None


class Helper(Protocol):
    """What a helper process runs: a crawl that can be stopped and counts as it goes."""

    @property
    def summary(self) -> CrawlSummary: ...

    def interrupt(self) -> None: ...

    def crawl(self, *, handle_signals: bool = False) -> Iterator[object]: ...


class HelperProcesses:
    """``count - 1`` processes crawling beside this one, each running ``target(config, index,
    parent pid, slot)`` (a module-level function, for the spawn start method), which calls
    ``serve``: ``start`` them once the seeds are queued, ``stop`` them early if need be, and
    ``join`` them."""

    def __init__(self, target: Callable[..., None], config: object, count: int) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process with threads
        self._stopped = False
        self._slots = [HelperSlot() for _ in range(1, count)]
        self._processes: list[BaseProcess] = [
            context.Process(
                target=target,
                args=(config, index, os.getpid(), slot),
                name=f"politecrawl-helper-{index}",
            )
            for index, slot in enumerate(self._slots, start=1)
        ]

    def start(self) -> None:
        """Start the helpers (once the seeds are queued: a helper that finds nothing to do
        ends at once)."""
        for process in self._processes:
            process.start()

    def stop(self) -> None:
        """Ask every helper to stop claiming work (its requests in flight finish)."""
        self._stopped = True
        for process in self._processes:
            if process.pid is not None and process.exitcode is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(process.pid, signal.SIGTERM)

    def join(self) -> str | None:
        """Wait for every helper to end; says what went wrong in those that failed."""
        for process in self._processes:
            process.join(_STOP_WAIT_SECONDS)
            if process.exitcode is None:  # stuck: it would never end by itself
                process.kill()
                process.join()
        failed = [
            f"helper {index}: {slot.failure() or f'exit status {process.exitcode}'}"
            for index, (process, slot) in enumerate(
                zip(self._processes, self._slots, strict=True), start=1
            )
            if process.exitcode != 0 and not self._stopped_before_its_crawl(process)
        ]
        if not failed:
            return None
        return "a helper process of the crawl failed (what it recorded is kept): " + "; ".join(
            failed
        )

    def _stopped_before_its_crawl(self, process: BaseProcess) -> bool:
        """Whether ``process`` ended by the SIGTERM ``stop`` sent it before ``serve`` took the
        signal over: still starting (importing, opening the database), so before its first
        claim. Not a failure: the crawl was being stopped anyway."""
        return self._stopped and process.exitcode == -signal.SIGTERM

    def combined(self, own: CrawlSummary) -> CrawlSummary:
        """``own`` with the helpers' latest counters added: the whole crawl's progress."""
        total = dataclasses.replace(own)
        for slot in self._slots:
            for name, count in slot.counters().items():
                setattr(total, name, getattr(total, name) + count)
        return total


def _die_with(parent: int) -> None:
    """On Linux, the kernel kills this helper (SIGKILL) the moment its parent dies, so that an
    orphan makes not one request more: a request it made then could not be recorded and would
    be fetched again by the resumed crawl (C5: only what was in flight at the kill). The
    poster's check of ``os.getppid()`` covers other systems, and a parent gone before this."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    if os.getppid() != parent:
        os._exit(_ORPHANED_EXIT_STATUS)


def serve(crawl: Helper, parent: int, slot: HelperSlot) -> None:
    """A helper's life: crawl until the frontier is done, posting counters as it goes;
    exits with status 1 after an error (which the parent raises)."""
    _die_with(parent)
    if hasattr(os, "setpgrp"):  # POSIX
        os.setpgrp()  # Ctrl-C at the terminal goes to the parent, which stops us itself
    finished = threading.Event()
    signalled: list[int] = []

    def note_signal(number: int, _frame: object) -> None:
        signalled.append(number)  # no locks in a handler: the poster acts on it

    # SIGTERM stops the crawl as Ctrl-C does, however often it comes: a service manager may
    # signal every process of the crawl and the parent then forward its own, and a second
    # signal must not cut short the requests in flight (nor a first one the crawl's start).
    signal.signal(signal.SIGTERM, note_signal)

    def post_until_finished() -> None:
        interrupted = False
        next_post = time.monotonic() + _REPORT_SECONDS
        while not finished.wait(min(_SIGNAL_CHECK_SECONDS, _REPORT_SECONDS)):
            if os.getppid() != parent:  # the parent is gone (see the module's docstring)
                os._exit(_ORPHANED_EXIT_STATUS)
            if signalled and not interrupted:
                interrupted = True
                crawl.interrupt()
            if time.monotonic() >= next_post:
                next_post = time.monotonic() + _REPORT_SECONDS
                slot.post(crawl.summary)

    poster = threading.Thread(target=post_until_finished, daemon=True)
    poster.start()
    failure: str | None = None
    try:
        for _ in crawl.crawl():
            pass
    except KeyboardInterrupt:
        pass  # a SIGINT sent to this process itself: everything in flight is recorded
    except Exception as error:  # posted to the parent, which raises it
        failure = f"{type(error).__name__}: {error}"
    finally:
        finished.set()
        poster.join()
        slot.post(crawl.summary)
        if failure is not None:
            slot.post_failure(failure)
        # Everything is recorded. The interpreter's shutdown gives a Python handler back to the
        # system (a SIGTERM would then end us with -15, which the parent reads as a failure),
        # but keeps an ignored signal ignored.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if failure is not None:
        raise SystemExit(1)
