"""A host's pace: when may it be asked next, and when is a failing URL tried again [P2, P3].

The one place that decides. Arithmetic only: the crawl loop passes what happened and the
host's error streak as stored in the crawl database, and stores what comes back (so the pace
holds across worker threads, processes and restarts).

- The delay between the end of one request to a host and the start of the next is the largest
  of: the configured delay, what robots.txt asks (Crawl-delay, or Request-rate as seconds per
  request), and a multiple of the host's last response time, capped (a slow server gets more
  room, but never minutes of it; a time-out is not a response time).
- A success ends any back-off for the very next request.
- Back-off grows with the host's *consecutive* failures, doubling per failure, up to a cap. The
  signals that the server itself is in trouble (429, 503, time-outs, refused or reset
  connections) back off from the first one; any other failure (a 500 or 502 on one page among
  healthy ones) is that page's problem, and the host slows only when such failures come in a
  row. A Retry-After pushes the next start further when it is later.
- A response we closed before its end (a body cut at the byte cap, a time-out, a body that does
  not decode) ends, for the server, only when it notices the closed connection at its next
  write, a moment after ours; its end counts as ``CUT_SHORT_SECONDS`` after our close
  (``server_end``), so that the server's log does not show the next request closer than the
  delay (P1, P2).
- A failing URL is retried on its own schedule (``url_retry_at``: doubling from a base, a
  Retry-After wins), while the host goes on with its other URLs.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from politecrawl.config import PolitenessSettings
    from politecrawl.robots import RequestRate

Failure = Literal["host", "page"]
"""What a failed request says: ``host``, the server is in trouble; ``page``, this URL is."""

_TROUBLE_STATUSES = frozenset((429, 503))
_MIN_BACKOFF_BASE_SECONDS = 1.0
CUT_SHORT_SECONDS = 0.05
"""How much later than our close a response we cut short counts as ended. The server learns
of the close at its next write; on a busy machine that was seen 1.6 ms after ours, so this is
a margin of thirty times that, paid only by the rare responses closed early."""


@dataclass(frozen=True, slots=True)
class HostPace:
    """What one finished request means for its host: the delay, the next start, and why."""

    delay_seconds: float
    """The host's delay now, back-off included."""
    next_start: datetime
    error_streak: int
    """Consecutive failed requests to the host (0 after a success)."""
    backoff_seconds: float
    """How much of ``delay_seconds`` is back-off."""
    retry_after_until: datetime | None
    wait_reason: str
    """Why the host waits until ``next_start``, for people (``politecrawl status``)."""


def robots_delay_seconds(crawl_delay: float | None, request_rate: RequestRate | None) -> float:
    """What robots.txt asks for between requests (F6): Crawl-delay or seconds per request."""
    per_request = request_rate.seconds / request_rate.requests if request_rate else 0.0
    return max(crawl_delay or 0.0, per_request)


def failure_of_status(status: int) -> Failure:
    """Whose problem a failed answer is: 429 and 503 are the server's; other 5xx the page's."""
    return "host" if status in _TROUBLE_STATUSES else "page"


def pace_after(
    pace: PolitenessSettings,
    *,
    finished_at: datetime,
    robots_delay: float = 0.0,
    response_seconds: float | None = None,
    failure: Failure | None = None,
    error_streak_before: int = 0,
    retry_after_seconds: float | None = None,
    cut_short: bool = False,
) -> HostPace:
    """The host's pace after a request that ended at ``finished_at`` (P2, P3).

    ``response_seconds`` is the time the server took to answer, ``None`` when it did not (a
    time-out, a refused connection). ``error_streak_before`` is the host's stored streak.
    ``cut_short``: we closed the response before its end, so the server's end comes later than
    ours (``server_end``).
    """
    finished_at = server_end(finished_at, cut_short=cut_short)
    slowdown = min(pace.slowdown_factor * (response_seconds or 0.0), pace.max_slowdown_seconds)
    base = max(pace.delay_seconds, robots_delay, slowdown)
    streak = 0 if failure is None else error_streak_before + 1
    # The server in trouble backs off from its first failure; a page's failure is free once.
    steps = streak if failure == "host" else max(streak - 1, 0)
    delay = base
    if steps:
        backoff = max(base, _MIN_BACKOFF_BASE_SECONDS) * 2.0 ** min(steps, 30)
        delay = max(min(backoff, pace.max_backoff_seconds), base)
    wait = delay
    retry_after_until = None
    if retry_after_seconds is not None and retry_after_seconds > delay:
        wait = retry_after_seconds
        retry_after_until = finished_at + timedelta(seconds=retry_after_seconds)
    return HostPace(
        delay_seconds=delay,
        next_start=finished_at + timedelta(seconds=wait),
        error_streak=streak,
        backoff_seconds=delay - base,
        retry_after_until=retry_after_until,
        wait_reason=_why(
            pace,
            base=base,
            robots_delay=robots_delay,
            slowdown=slowdown,
            delay=delay,
            streak=streak,
            retry_after_until=retry_after_until,
        ),
    )


def server_end(finished_at: datetime, *, cut_short: bool) -> datetime:
    """When the server ends a request that ended for us at ``finished_at``: the same moment,
    or ``CUT_SHORT_SECONDS`` later when we closed it before its end (``cut_short``)."""
    return finished_at + timedelta(seconds=CUT_SHORT_SECONDS) if cut_short else finished_at


def url_retry_at(
    pace: PolitenessSettings,
    *,
    finished_at: datetime,
    attempts_before: int,
    retry_after_seconds: float | None = None,
) -> datetime:
    """When a URL whose request failed is tried again: its own back-off, doubling per attempt
    (``attempts_before`` failed attempts came before this one), or a later Retry-After."""
    wait = pace.retry_backoff_seconds * 2.0 ** min(attempts_before, 30)
    wait = min(max(wait, retry_after_seconds or 0.0), max(pace.max_backoff_seconds, 1.0))
    if retry_after_seconds is not None:
        wait = max(wait, retry_after_seconds)  # never sooner than the server asked
    return finished_at + timedelta(seconds=wait)


def _why(
    pace: PolitenessSettings,
    *,
    base: float,
    robots_delay: float,
    slowdown: float,
    delay: float,
    streak: int,
    retry_after_until: datetime | None,
) -> str:
    if retry_after_until is not None:
        return "Retry-After"
    if delay > base:
        return f"back-off after {streak} failed request(s) in a row"
    if base == pace.delay_seconds:
        return "delay"
    if base == robots_delay:
        return "robots.txt Crawl-delay or Request-rate"
    return f"slow responses ({slowdown:.2f} s)"


@dataclass(frozen=True, slots=True)
class HostQueue:
    """One host's queue as a progress display sees it."""

    host: str
    queued: int
    in_flight: int
    delay_seconds: float
    next_start: datetime
    reason: str = "delay"
    """Why it waits when it does: delay, back-off, Retry-After, robots.txt, deferred."""


def time_left(hosts: list[HostQueue], *, now: datetime) -> tuple[float, str | None]:
    """An estimate of the seconds a polite crawl still needs, and the host that bounds it.

    A host asked one request at a time needs its delay between requests, so the crawl can end
    no sooner than its busiest host's queue allows: the wait until that host's next start, then
    one delay per queued URL (a request in flight counts as one more). Links yet to be found and
    response times are not known: the estimate grows as the crawl finds more.
    """
    best, busiest = 0.0, None
    for queue in hosts:
        count = queue.queued + queue.in_flight
        if not count:
            continue
        first = max((queue.next_start - now).total_seconds(), 0.0)
        needed = first + max(count - 1, 0) * queue.delay_seconds
        if busiest is None or needed > best:
            best, busiest = needed, queue.host
    return best, busiest
