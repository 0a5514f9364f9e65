"""The ways a lease ends without a page, as values [C5, O6, P3, S1, S3, L1].

Each function builds a ``LeaseEnd`` (failed, deferred, released, kept, excluded): the columns
the lease's URL gets and what else its end brings (the host's pace, an origin's deferral,
sitemaps to queue). Pure: nothing is written here. The visitor returns one for its worker to
record with its next claim (``Frontier.complete_and_claim``), or ``Frontier.end`` records it at
once; ``Frontier`` offers each as a static method of the same name.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from politecrawl.sitemaps import SitemapSeed
from politecrawl.store.frontier.outcomes import as_json
from politecrawl.store.frontier.values import HostPaceRecord, Lease, LeaseEnd, OriginDeferral
from politecrawl.store.schema import DEFERRED, DONE, FAILED, LEASED, QUEUED, URL_STATES

__all__ = ["deferred", "excluded", "failed", "kept", "released"]


def failed(
    lease: Lease,
    error: str,
    *,
    now: datetime,
    next_fetch_at: datetime,
    retry_at: datetime | None = None,
    status: int | None = None,
    host_delay_seconds: float | None = None,
    host_pace: HostPaceRecord | None = None,
    kind: str | None = None,
    check_method: str | None = None,
) -> LeaseEnd:
    """A failed attempt: retried at ``retry_at`` (deferred), or final when it is None.
    ``kind`` as for ``excluded``; ``check_method``: how a check asked (L2).

    A URL to retry goes behind the fresh URLs of its depth (its priority becomes its number of
    attempts), and after a failure of its host behind every fresh URL of the host
    (``statements``): the failing URLs of a host are not tried back to back, each failure
    lengthening the host's back-off, while its healthy pages wait (P3)."""
    values: dict[str, Any] = {
        "status": status,
        "error": error,
        "attempts": lease.attempts + 1,
        "fetched_at": now,
    }
    if kind is not None:
        values["kind"] = kind
    if check_method is not None:
        values["check_method"] = check_method
    if retry_at is None:
        values["state"] = FAILED
    else:
        values.update(
            state=DEFERRED, next_attempt_at=retry_at, reason="retry", priority=lease.attempts + 1
        )
    return LeaseEnd(lease, values, next_fetch_at, host_pace, host_delay_seconds)


def deferred(
    lease: Lease,
    *,
    until: datetime | None,
    reason: str,
    detail: dict[str, Any] | None = None,
    next_fetch_at: datetime | None = None,
    origin_deferred: OriginDeferral | None = None,
) -> LeaseEnd:
    """Put the URL aside until ``until`` (robots.txt unreachable, O6; Retry-After, P3).

    ``until=None``: not in this run (``wake_indefinitely_deferred`` brings it back on resume).
    ``next_fetch_at=None`` (here and in ``excluded``): no request was made for the lease, so
    the host gets back the slot it was due at when the lease was claimed.
    ``origin_deferred``: every queued URL of the origin with it (O6).
    """
    values = {
        "state": DEFERRED,
        "next_attempt_at": until,
        "reason": reason,
        "reason_detail": as_json(detail),
    }
    return LeaseEnd(lease, values, next_fetch_at, origin_deferred=origin_deferred)


def released(
    lease: Lease, *, next_fetch_at: datetime, sitemaps: Sequence[SitemapSeed] = ()
) -> LeaseEnd:
    """Give the URL back to the queue without counting an attempt (e.g. robots.txt first).
    ``sitemaps``: the origin's sitemaps its robots.txt named, queued in the same
    transaction as the release (S1). robots.txt itself was recorded just before, by the
    gate: should the crawl die in between, the next run queues what it missed
    (``RobotsOutcomeStore.without_sitemaps``, ``add_sitemaps``)."""
    return LeaseEnd(lease, {"state": QUEUED}, next_fetch_at, sitemaps=tuple(sitemaps))


def kept(lease: Lease, *, reason: str) -> LeaseEnd:
    """The URL is not fetched in this pass and its last result stands (S3: its sitemap
    says it has not changed since; L1: a check made lately); the host gets back its slot."""
    return LeaseEnd(lease, {"state": DONE, "reason": reason})


def excluded(
    lease: Lease,
    *,
    state: str,
    reason: str,
    detail: dict[str, Any] | None = None,
    next_fetch_at: datetime | None = None,
    kind: str | None = None,
) -> LeaseEnd:
    """Never fetch this URL in this pass, and keep why (robots line, scope rule, trap).
    ``kind``: what the URL is from now on (a link leaving the site is a check, L1)."""
    if state not in URL_STATES or state in (QUEUED, LEASED):
        raise ValueError(f"not a final state: {state!r}")
    values = {"state": state, "reason": reason, "reason_detail": as_json(detail)}
    if kind is not None:
        values["kind"] = kind
    return LeaseEnd(lease, values, next_fetch_at)
