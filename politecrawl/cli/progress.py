"""What a person watching a crawl sees: a live display on a terminal, log lines otherwise.

On a terminal, ``rich`` redraws one panel a few times a second (pages done and queued, pages
per second, in flight, errors, the estimated time left and the host that bounds it, the hosts
waiting and why); elsewhere (a pipe, a CI log, cron) a plain line with the same estimate is
printed every ``interval_seconds``. ``--quiet`` shows neither; the summary is printed by the
command line at the end either way, and the last frame is drawn from fresh counts so that the
two agree.
"""

from __future__ import annotations

import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, TextIO

from politecrawl.politeness import SERVER_WAIT, HostQueue, time_left
from politecrawl.report.headline import duration
from politecrawl.report.model import counted
from politecrawl.results import CrawlSummary
from politecrawl.store import FrontierStats

if TYPE_CHECKING:  # rich is imported when a live display is drawn: 0.3 s saved otherwise
    from rich.live import Live
    from rich.table import Table

StatsSource = Callable[[], FrontierStats]
_HOSTS_REFRESH_SECONDS = 5.0  # a whole-table count: not at every redraw


def _utc_now() -> datetime:
    return datetime.now(UTC)


def describe_wait(hosts: list[HostQueue], now: datetime) -> str:
    """The time left and why, for people: ``~2m10s (busiest 127.0.0.5: 120 queued, 1 s apart);
    3 hosts waiting: 2 delay, 1 back-off``."""
    seconds, busiest = time_left(hosts, now=now)
    if busiest is None:
        text = "nothing queued"
    else:
        on = [queue for queue in hosts if busiest in (queue.host, queue.server)]
        queued = sum(queue.queued for queue in on)
        apart = on[0].delay_seconds if on[0].host == busiest else on[0].server_delay_seconds
        names = "" if on[0].host == busiest else f" on {counted(len(on), 'host name')}"
        text = f"~{duration(seconds, compact=True)} (busiest {busiest}: {queued} queued{names}, "
        text += f"{apart:g} s apart)"
    waiting = Counter(
        queue.reason.split(" after ")[0]
        for queue in hosts
        if not queue.in_flight
        and (queue.next_start > now or not queue.queued or queue.reason == SERVER_WAIT)
    )
    if waiting:
        reasons = ", ".join(f"{count} {reason}" for reason, count in waiting.most_common())
        text += f"; {counted(sum(waiting.values()), 'host')} waiting: {reasons}"
    return text


class ProgressDisplay:
    """Shows the crawl's progress while it runs; a context manager."""

    def __init__(
        self,
        summary: Callable[[], CrawlSummary],
        stats: StatsSource,
        *,
        stream: TextIO | None = None,
        quiet: bool = False,
        interval_seconds: float = 5.0,
        host_queues: Callable[[], list[HostQueue]] | None = None,
        now: Callable[[], datetime] = _utc_now,
    ) -> None:
        self._summary = summary
        self._stats = stats
        self._host_queues = host_queues
        self._now = now
        self._hosts: tuple[float, list[HostQueue]] | None = None
        self._stream = stream or sys.stderr
        self._quiet = quiet
        self._interval = interval_seconds
        self._started = time.monotonic()
        self._last_line = 0.0
        self._live: Live | None = None
        self._cached: tuple[float, FrontierStats] | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> ProgressDisplay:
        if not self._quiet and self._stream.isatty():
            from rich.console import Console  # noqa: PLC0415 (see above)
            from rich.live import Live  # noqa: PLC0415

            console = Console(file=self._stream)
            self._live = Live(console=console, refresh_per_second=4, get_renderable=self._panel)
            self._live.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._live is not None:
            with self._lock:
                self._cached = self._hosts = None  # the last frame from fresh counts
            self._live.stop()

    def tick(self) -> None:
        """Called as pages complete: prints a log line when one is due (not on a terminal)."""
        if self._quiet or self._live is not None:
            return
        now = time.monotonic()
        if now - self._last_line >= self._interval:
            self._last_line = now
            print(self.line(), file=self._stream, flush=True)

    def line(self) -> str:
        """One line of progress, for logs."""
        summary = self._summary()
        stats = self._current_stats()
        elapsed = max(time.monotonic() - self._started, 1e-9)
        return (
            f"politecrawl: {counted(summary.pages, 'page')} ({summary.pages / elapsed:.1f}/s), "
            f"{stats.by_state.get('queued', 0)} queued, {stats.by_state.get('leased', 0)} in "
            f"flight, {counted(summary.errors, 'error')}, {summary.excluded_by_robots} excluded "
            "by robots, "
            f"{stats.by_state.get('deferred', 0)} deferred, {elapsed:.0f} s"
            + _checked(summary)
            + (f"; time left {self.time_left()}" if self._host_queues else "")
        )

    def time_left(self) -> str:
        """The estimated time left and why (``describe_wait``), from counts at most a few
        seconds old."""
        if self._host_queues is None:
            return ""
        with self._lock:
            moment = time.monotonic()
            if self._hosts is None or moment - self._hosts[0] > _HOSTS_REFRESH_SECONDS:
                self._hosts = (moment, self._host_queues())
            hosts = self._hosts[1]
        return describe_wait(hosts, self._now())

    def _current_stats(self) -> FrontierStats:
        with self._lock:
            now = time.monotonic()
            if self._cached is None or now - self._cached[0] > 1.0:
                self._cached = (now, self._stats())
            return self._cached[1]

    def _panel(self) -> Table:
        from rich.table import Table  # noqa: PLC0415 (see above)

        summary = self._summary()
        stats = self._current_stats()
        elapsed = max(time.monotonic() - self._started, 1e-9)
        table = Table(title="politecrawl", show_header=False, box=None, padding=(0, 2))
        rows = [
            ("pages", f"{summary.pages}  ({summary.pages / elapsed:.1f}/s)"),
            ("queued", str(stats.by_state.get("queued", 0))),
            ("in flight", str(stats.by_state.get("leased", 0))),
            ("indexable", str(summary.indexable)),
            ("excluded by robots", str(summary.excluded_by_robots)),
            ("errors", str(summary.errors)),
            ("deferred", str(stats.by_state.get("deferred", 0))),
            ("elapsed", f"{elapsed:.0f} s"),
        ]
        if summary.sitemaps:
            rows.insert(-1, ("sitemaps read", str(summary.sitemaps)))
        if summary.checks:
            rows.insert(
                -1, ("links checked", f"{summary.checks}  ({summary.broken_checks} broken)")
            )
        if self._host_queues is not None:
            rows.append(("time left", self.time_left()))
        for name, value in rows:
            table.add_row(name, value)
        return table


def _checked(summary: CrawlSummary) -> str:
    """The sitemaps read and links checked so far (S1, L1-L3), when there are any."""
    parts = []
    if summary.sitemaps:
        parts.append(f"{counted(summary.sitemaps, 'sitemap')} read")
    if summary.checks:
        parts.append(f"{counted(summary.checks, 'link')} checked ({summary.broken_checks} broken)")
    return "; " + ", ".join(parts) if parts else ""
