"""A request that got no usable answer: the host's pace reacts, the URL is retried on its own
schedule a bounded number of times, or recorded as failed [C7, P3, L2].

``Failures.no_answer`` takes a time-out or a refused connection (the server's trouble, and no
response time; a response that trickled past the deadline is recorded cut off, not retried, and
one that timed out is retried fewer times: ``max_timeout_retries``; a check whose host name does
not resolve is broken at once, L1);
``Failures.failed_status`` a status worth retrying (429, 5xx) with its Retry-After. A link
check (L1-L3) is retried at most ``max_check_retries`` times: it wants a verdict, not the page.
``politeness.pace_after`` and ``politeness.url_retry_at`` decide the times.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from politecrawl.crawl.visit_result import CheckVisit, Ended, PageVisit, VisitResult
from politecrawl.fetch import HostNotFoundError
from politecrawl.politeness import Failure, failure_of_status, pace_after, url_retry_at
from politecrawl.results import Page
from politecrawl.store import CHECK, Lease, ends

if TYPE_CHECKING:
    from datetime import datetime

    from politecrawl.clock import Clock
    from politecrawl.config import PolitenessSettings
    from politecrawl.errors import FetchError
    from politecrawl.fetch import FetchResult

RETRY_STATUSES = frozenset((429, 500, 502, 503, 504))
"""Statuses that mean "not now" rather than "not here": the URL is retried (C7, P3)."""


class Failures:
    """Turns a failed request into the lease's end; shared by a crawl's worker threads."""

    def __init__(
        self,
        politeness: PolitenessSettings,
        clock: Clock,
        *,
        max_retries: int,
        max_timeout_retries: int | None = None,
        max_check_retries: int | None = None,
    ) -> None:
        self.politeness = politeness
        self.clock = clock
        self.max_retries = max_retries
        self.max_timeout_retries = (
            max_retries if max_timeout_retries is None else min(max_retries, max_timeout_retries)
        )
        self.max_check_retries = (
            max_retries if max_check_retries is None else min(max_retries, max_check_retries)
        )

    def no_answer(
        self,
        lease: Lease,
        error: FetchError,
        *,
        started: datetime,
        robots_delay: float,
        check_method: str | None = None,
    ) -> VisitResult:
        """No response: a time-out or a refused connection is the server's trouble, and no
        response time. A response cut off at the deadline while it was arriving is not
        retried, and one that timed out at most ``max_timeout_retries`` times: each attempt
        would hold its host as long again (C7, P3). ``check_method``: the lease is a check
        (L2), and a host name that does not resolve is its finding, not retried (L1)."""
        found = check_method is not None and isinstance(error, HostNotFoundError)
        return self._failed(
            lease,
            str(error),
            None,
            started=started,
            robots_delay=robots_delay,
            temporary=error.temporary and not error.cut_off and not found,
            max_retries=self.max_timeout_retries if error.timed_out else self.max_retries,
            failure="host" if error.host_trouble else "page",
            kind=CHECK if check_method else None,
            check_method=check_method,
            cut_short=error.closed_early,
        )

    def failed_status(
        self,
        lease: Lease,
        result: FetchResult,
        *,
        started: datetime,
        robots_delay: float,
        check_method: str | None = None,
    ) -> VisitResult:
        """A status worth retrying (429, 5xx), with its Retry-After."""
        return self._failed(
            lease,
            f"HTTP {result.status}",
            result,
            started=started,
            robots_delay=robots_delay,
            temporary=True,
            max_retries=self.max_retries,
            failure=failure_of_status(result.status),
            retry_after=result.retry_after_seconds(self.clock.now()),
            kind=CHECK if check_method else None,
            check_method=check_method,
        )

    def _failed(
        self,
        lease: Lease,
        error: str,
        result: FetchResult | None,
        *,
        started: datetime,
        robots_delay: float,
        temporary: bool,
        max_retries: int,
        failure: Failure,
        retry_after: float | None = None,
        kind: str | None = None,
        check_method: str | None = None,
        cut_short: bool = False,
    ) -> VisitResult:
        """C7, P3: the host's pace reacts to the failure (``pace_after``), and a temporary
        failure is retried on the URL's own schedule (``url_retry_at``) until it has been
        tried ``max_retries`` times more, while the host goes on with its other URLs.
        ``cut_short``: we closed the exchange while the server was still in it (C7)."""
        finished = self.clock.now()
        response_seconds = result.elapsed_seconds if result is not None else None
        pace = pace_after(
            self.politeness,
            finished_at=finished,
            robots_delay=robots_delay,
            response_seconds=response_seconds,
            failure=failure,
            error_streak_before=lease.host_error_streak,
            retry_after_seconds=retry_after,
            cut_short=cut_short or (result is not None and result.truncated),
        )
        status = result.status if result is not None else None
        if kind == CHECK:
            max_retries = min(max_retries, self.max_check_retries)
        retry_at = None
        if temporary and lease.attempts + 1 <= max_retries:
            retry_at = url_retry_at(
                self.politeness,
                finished_at=finished,
                attempts_before=lease.attempts,
                retry_after_seconds=retry_after,
            )
        end = ends.Failed(
            lease,
            error,
            status=status,
            at=finished,
            next_fetch_at=pace.next_start,
            retry_at=retry_at,
            host_pace=pace,
            kind=kind,
            check_method=check_method,
        )
        if retry_at is not None:
            return Ended(end)
        if kind == CHECK:
            return CheckVisit(end, broken=True)
        page = Page(
            url=lease.url,
            status=status,
            depth=lease.depth,
            fetched_at=finished,
            elapsed_seconds=(finished - started).total_seconds(),
            headers=result.headers if result else (),
            body=result.body if result else b"",
            content_type=result.content_type if result else None,
            error=error,
            index=False,
        )
        return PageVisit(end, page)
