"""The crawl itself as values, beside what it found: which site, when, how long, and its requests
per host over time (the HTML report's picture).

``politecrawl.report.build_report`` fills them from the store's ``crawl_span`` and
``request_timeline``; they are the ``overview`` and ``timeline`` fields of a ``Report``. Pure:
no I/O, no clock. Times are aware UTC datetimes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

__all__ = ["CrawlOverview", "HostTimeline", "Timeline", "TimelineMark"]


@dataclass(frozen=True, slots=True)
class CrawlOverview:
    """The current pass: the site it crawled and when its runs ran."""

    seed_origins: tuple[str, ...] = ()
    """The seeds' origins, sorted: the site."""
    runs: int = 0
    """Runs of the current pass (an interrupted run and its resumption are two)."""
    started_at: datetime | None = None
    """When its first run began; None: no run recorded."""
    ended_at: datetime | None = None
    """When its last run ended; None: no run, or the last has not ended."""
    run_seconds: float = 0.0
    """The ended runs' durations added up (the time between runs left out)."""


@dataclass(frozen=True, slots=True)
class TimelineMark:
    """One request, or (``Timeline.bucket_seconds`` set) a host's requests in one slice."""

    at: datetime
    """When the request began, or the slice."""
    seconds: float
    """How long the request took, or the slice's width."""
    requests: int
    failures: int
    """Answered 4xx or 5xx, or failed."""


@dataclass(frozen=True, slots=True)
class HostTimeline:
    """One host's requests in the current pass, in time order, and its robots.txt fetches."""

    host: str
    requests: int
    failures: int
    delay_seconds: float
    """The host's delay between requests as the crawl last set it."""
    robots_fetches: tuple[datetime, ...]
    marks: tuple[TimelineMark, ...]


@dataclass(frozen=True, slots=True)
class Timeline:
    """The current pass's requests per host: the busiest hosts, the others counted."""

    start: datetime | None = None
    """None: nothing was fetched."""
    end: datetime | None = None
    bucket_seconds: float | None = None
    """None: each mark is one request; else each counts a host's requests in a slice."""
    hosts: tuple[HostTimeline, ...] = ()
    other_hosts: int = 0
    other_requests: int = 0

    @property
    def span_seconds(self) -> float:
        """From the first request's start to the last one's end (0 when nothing was fetched)."""
        if self.start is None or self.end is None:
            return 0.0
        return (self.end - self.start).total_seconds()
