"""A link check's request: HEAD, and GET when a server refuses HEAD [L1, L2, P4].

Owns ``request_check``: what one check asks of a server. HEAD first, since a check needs no
body (P4); a server that answers HEAD with 405 or 501, or breaks the connection over it (a reset
or a garbled answer, not a time-out: a slow server is slow for GET too), is asked again with GET,
of which at most ``GET_BODY_BYTES`` are read. A HEAD refused outright, to a host that cannot be
found, or that times out is not asked again: a GET would fare no better. Between the two the
host's pace holds: the caller says when the GET may start (``get_at``) and the check sleeps
until then on the crawl's clock, still holding the host's one request slot (P1, P2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from politecrawl.errors import FetchError

if TYPE_CHECKING:
    from collections.abc import Callable
    from datetime import datetime

    from politecrawl.clock import Clock
    from politecrawl.fetch import Fetcher, FetchResult

GET_BODY_BYTES = 64 * 1024
"""What a GET after a refused HEAD reads of the body: a check needs the status, not the page."""
HEAD_REFUSED = frozenset((405, 501))


@dataclass(frozen=True, slots=True)
class CheckAnswer:
    """How a check ended: the last response (or the error that stood for it) and how it was
    asked: ``HEAD`` or ``HEAD,GET``."""

    result: FetchResult | None
    method: str
    error: FetchError | None = None


def request_check(
    fetcher: Fetcher,
    clock: Clock,
    url: str,
    *,
    get_at: Callable[[datetime, FetchResult | None], datetime],
) -> CheckAnswer:
    """Check ``url``: HEAD, then GET if HEAD was refused or garbled. ``get_at(finished,
    head)`` is when the host's pace lets the GET start after the HEAD (``head`` is ``None``
    when it broke the exchange)."""
    try:
        head = fetcher.fetch(url, method="HEAD")
    except FetchError as error:
        if not error.garbled:  # refused, unresolvable, timed out: a GET would fare no better
            return CheckAnswer(None, "HEAD", error)
        answered: FetchResult | None = None
    else:
        if head.status not in HEAD_REFUSED:
            return CheckAnswer(head, "HEAD")
        answered = head
    wait = (get_at(clock.now(), answered) - clock.now()).total_seconds()
    if wait > 0:
        clock.sleep(wait)
    try:
        return CheckAnswer(fetcher.fetch(url, max_bytes=GET_BODY_BYTES), "HEAD,GET")
    except FetchError as error:
        return CheckAnswer(None, "HEAD,GET", error)
