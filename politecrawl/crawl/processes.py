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
process counts a host's pages itself). Helpers report their counters twice a second, so the
caller can show the whole crawl's progress; pages are yielded and callbacks called only in the
process that fetched them (the database has them all).

Stopping: ``stop`` (on an error, Ctrl-C or a stop of this crawl) sends each helper SIGTERM,
which a crawl treats as Ctrl-C (requests in flight finish and are recorded); ``join`` waits for
them. Helpers run in their own process group, so a Ctrl-C at the terminal reaches them only
through this process; one whose parent is gone (killed) stops on its own within half a second.
"""

from __future__ import annotations

import contextlib
import dataclasses
import multiprocessing
import os
import queue
import signal
import threading
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from multiprocessing.process import BaseProcess

    from politecrawl.results import CrawlSummary

_REPORT_SECONDS = 0.5
_STOP_WAIT_SECONDS = 300.0
# Counted as they go in each process; the others describe the frontier at the end.
_RUN_COUNTERS = (
    "pages",
    "indexable",
    "noindex",
    "nofollow",
    "errors",
    "redirects",
    "excluded_by_robots",
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


class Helper(Protocol):
    """What a helper process runs: a crawl that can be stopped and counts as it goes."""

    @property
    def summary(self) -> CrawlSummary: ...

    def stop(self) -> None: ...

    def crawl(self, *, handle_signals: bool = False) -> Iterator[object]: ...


class HelperProcesses:
    """``count - 1`` processes crawling beside this one, each running ``target(config, index,
    parent pid, reports)`` (a module-level function, for the spawn start method), which calls
    ``serve``: ``start`` them once the seeds are queued, ``stop`` them early if need be, and
    ``join`` them."""

    def __init__(self, target: Callable[..., None], config: object, count: int) -> None:
        context = multiprocessing.get_context("spawn")  # never fork a process with threads
        self._reports: multiprocessing.Queue[tuple[int, dict[str, Any], str | None]] = (
            context.Queue()
        )
        self._latest: dict[int, dict[str, Any]] = {}
        self._errors: dict[int, str] = {}
        self._processes: list[BaseProcess] = [
            context.Process(
                target=target,
                args=(config, index, os.getpid(), self._reports),
                name=f"politecrawl-helper-{index}",
            )
            for index in range(1, count)
        ]

    def start(self) -> None:
        """Start the helpers (once the seeds are queued: a helper that finds nothing to do
        ends at once)."""
        for process in self._processes:
            process.start()

    def stop(self) -> None:
        """Ask every helper to stop claiming work (its requests in flight finish)."""
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
        self._drain()
        failed = [
            f"helper {index}: {self._errors.get(index) or f'exit status {process.exitcode}'}"
            for index, process in enumerate(self._processes, start=1)
            if process.exitcode != 0
        ]
        if not failed:
            return None
        return "a helper process of the crawl failed (what it recorded is kept): " + "; ".join(
            failed
        )

    def combined(self, own: CrawlSummary) -> CrawlSummary:
        """``own`` with the helpers' latest counters added: the whole crawl's progress."""
        self._drain()
        total = dataclasses.replace(own)
        for counters in self._latest.values():
            for name in _RUN_COUNTERS:
                setattr(total, name, getattr(total, name) + int(counters.get(name, 0)))
        return total

    def _drain(self) -> None:
        with contextlib.suppress(queue.Empty):
            while True:
                index, counters, failure = self._reports.get_nowait()
                self._latest[index] = counters
                if failure is not None:
                    self._errors[index] = failure


def serve(
    crawl: Helper,
    index: int,
    parent: int,
    reports: multiprocessing.Queue[tuple[int, dict[str, Any], str | None]],
) -> None:
    """A helper's life: crawl until the frontier is done, reporting counters as it goes;
    exits with status 1 after an error (which the parent raises)."""
    if hasattr(os, "setpgrp"):  # POSIX
        os.setpgrp()  # Ctrl-C at the terminal goes to the parent, which stops us itself
    finished = threading.Event()

    def report_until_finished() -> None:
        while not finished.wait(_REPORT_SECONDS):
            reports.put((index, crawl.summary.as_dict(), None))
            if os.getppid() != parent:  # the parent is gone: stop as on Ctrl-C
                crawl.stop()

    reporter = threading.Thread(target=report_until_finished, daemon=True)
    reporter.start()
    failure: str | None = None
    try:
        for _ in crawl.crawl(handle_signals=True):
            pass
    except KeyboardInterrupt:
        pass  # stopped by the parent: everything in flight is recorded
    except Exception as error:  # reported to the parent, which raises it
        failure = f"{type(error).__name__}: {error}"
    finally:
        finished.set()
        reporter.join()
        reports.put((index, crawl.summary.as_dict(), failure))
        reports.close()
        reports.join_thread()
    if failure is not None:
        raise SystemExit(1)
