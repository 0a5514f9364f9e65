"""When may a host be asked next: arithmetic only [P2, P3].

The delay between the end of one request to a host and the start of the next is the largest of:
the configured delay, what robots.txt asks (Crawl-delay, or Request-rate as seconds per
request), and a multiple of the host's last response time (a slow server gets more room). After
errors it doubles per consecutive error, up to a cap, and never drops below what robots.txt asks.
A Retry-After (429/503) pushes the next start further when it is later.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from politecrawl.robots import RequestRate


@dataclass(frozen=True, slots=True)
class Pace:
    """A host's pace settings: the configured floor and the caps."""

    delay_seconds: float
    slowdown_factor: float
    max_backoff_seconds: float


def robots_delay_seconds(crawl_delay: float | None, request_rate: RequestRate | None) -> float:
    """What robots.txt asks for between requests (F6): Crawl-delay or seconds per request."""
    per_request = request_rate.seconds / request_rate.requests if request_rate else 0.0
    return max(crawl_delay or 0.0, per_request)


def delay_seconds(
    pace: Pace,
    *,
    robots_delay: float = 0.0,
    response_seconds: float | None = None,
    error_streak: int = 0,
) -> float:
    """The delay before the host's next request (P2, P3)."""
    delay = max(pace.delay_seconds, robots_delay, pace.slowdown_factor * (response_seconds or 0.0))
    if error_streak > 0:
        backoff = max(delay, 1.0) * 2.0 ** min(error_streak, 30)
        delay = max(min(backoff, pace.max_backoff_seconds), delay, robots_delay)
    return delay


def next_start(
    finished_at: datetime, delay: float, *, retry_after_seconds: float | None = None
) -> datetime:
    """The earliest start of the next request: after the delay, and after any Retry-After."""
    wait = max(delay, retry_after_seconds or 0.0)
    return finished_at + timedelta(seconds=wait)
