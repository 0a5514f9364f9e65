"""What became of a leased URL, written to the frontier: its row and its host's [C5, P2, P3].

``finish_lease`` is the one write that ends a lease (done, failed, deferred, excluded, queued
again): only the lease's owner may record it, and the host gets its next start time and pace
in the same statement pair. ``page_values`` says which columns a fetched page sets.
``record_completion`` and ``record_end`` are everything a lease's end writes, in the caller's
transaction: ``finish_lease``, then what the end brings (a redirect's target, links, a
sitemap's listing, sitemaps to queue, an origin's deferral).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select, update

from politecrawl.sitemaps import SitemapReading, SitemapSeed
from politecrawl.store.frontier import statements as sql
from politecrawl.store.frontier.enqueue import Enqueuer
from politecrawl.store.frontier.link_sorting import SortedLinks
from politecrawl.store.frontier.values import (
    Completion,
    HostPaceRecord,
    Lease,
    LeaseEnd,
    PageOutcome,
)
from politecrawl.store.schema import (
    DEFERRED,
    DONE,
    FAILED,
    QUEUED,
    in_state,
    origins_table as _origins,
    sitemaps_table as _sitemaps,
    urls_table as _urls,
)

_KEPT_WHEN_NOT_MODIFIED = (
    "final_url",
    "content_type",
    "etag",
    "last_modified",
    "content_hash",
    "noindex",
    "nofollow",
    "canonical_url",
    "size_bytes",
    "anchors",
)


def page_values(lease: Lease, outcome: PageOutcome, now: datetime) -> dict[str, Any]:
    """The columns a fetched page sets on its URL's row."""
    values: dict[str, Any] = {
        "state": DONE if outcome.error is None else FAILED,
        "status": outcome.status,
        "final_url": outcome.final_url,
        "content_type": outcome.content_type,
        "etag": outcome.etag,
        "last_modified": outcome.last_modified,
        "content_hash": outcome.content_hash,
        "noindex": outcome.noindex,
        "nofollow": outcome.nofollow,
        "canonical_url": outcome.canonical_url,
        "elapsed_seconds": outcome.elapsed_seconds,
        "size_bytes": outcome.size_bytes,
        "error": outcome.error,
        "fetched_at": now,
        "attempts": lease.attempts + 1,
    }
    if outcome.anchors is not None:
        values["anchors"] = "\n".join(sorted(outcome.anchors))
    if outcome.check_method is not None:
        values["check_method"] = outcome.check_method
    if outcome.kind is not None:
        values["kind"] = outcome.kind
    if outcome.status == 304:
        # Not modified (a recrawl's conditional GET): what was learnt from the body stays.
        for kept in _KEPT_WHEN_NOT_MODIFIED:
            values.pop(kept, None)
    return values


def finish_lease(
    connection: Connection,
    lease: Lease,
    values: dict[str, Any],
    next_fetch_at: datetime | None,
    *,
    host_delay_seconds: float | None = None,
    host_pace: HostPaceRecord | None = None,
) -> bool:
    """Record ``values`` on a leased URL and free its host with its next start time
    (``None``: no request was made, the host gets back the slot it was due at); False, and
    nothing written, when the lease had expired and gone to another worker."""
    params = {"url_id": lease.url_id, "owner": lease.owner, "lease_owner": None}
    params["lease_expires_at"] = None
    for column, value in values.items():
        params[column] = sql.epoch(value) if isinstance(value, datetime) else value
    if sql.finish_leased_url.rowcount(connection, params) != 1:
        return False  # the lease expired and was handed out again: not ours to record
    host_values: dict[str, Any] = {"host_name": lease.host}
    if host_pace is not None:
        for column, value in host_pace.columns().items():
            host_values[column] = sql.epoch(value) if isinstance(value, datetime) else value
    if values.get("state") == QUEUED:
        host_values["active"] = True
    if host_delay_seconds is not None:
        host_values["delay_seconds"] = host_delay_seconds
    if next_fetch_at is None:
        host_values["claimed_at"] = sql.epoch(lease.claimed_at)
        sql.free_unused_host.rowcount(connection, host_values)
    else:
        host_values["next_at"] = sql.epoch(next_fetch_at)
        sql.free_host.rowcount(connection, host_values)
    return True


def record_reading(connection: Connection, sitemap_id: int, reading: SitemapReading) -> None:
    """What reading a sitemap found, on its ``sitemaps`` row (S2, S4)."""
    connection.execute(
        update(_sitemaps)
        .where(_sitemaps.c.url_id == sitemap_id)
        .values(
            format=reading.format,
            entries=reading.entries,
            other_origins=reading.other_origins,
            truncated=reading.truncated,
            problems=as_json(list(reading.problems)) if reading.problems else None,
        )
    )


def sitemap_seed(connection: Connection, url_id: int, url: str) -> SitemapSeed | None:
    """The sitemap ``url`` (row ``url_id``) as it was queued: why, and for which origin."""
    row = connection.execute(
        select(_sitemaps.c.source, _sitemaps.c.for_origin, _sitemaps.c.nesting).where(
            _sitemaps.c.url_id == url_id
        )
    ).first()
    if row is None:
        return None
    return SitemapSeed(url, row.source, row.for_origin, row.nesting)


def as_json(detail: Any) -> str | None:
    """A reason's detail as stored (sorted JSON), or None."""
    return None if detail is None else json.dumps(detail, sort_keys=True, default=str)


def defer_queued_of_origin(
    connection: Connection, origin: str, until: datetime | None, reason: str, detail: Any
) -> int:
    origin_id = connection.execute(
        select(_origins.c.id).where(_origins.c.origin == origin)
    ).scalar()
    if origin_id is None:
        return 0
    return connection.execute(
        update(_urls)
        .where(_urls.c.origin_id == origin_id, in_state(QUEUED))
        .values(
            state=DEFERRED,
            next_attempt_at=until,
            reason=reason,
            reason_detail=as_json(detail),
        )
    ).rowcount


def record_completion(
    connection: Connection,
    enqueuer: Enqueuer,
    completion: Completion,
    links: SortedLinks,
    now: datetime,
) -> bool:
    """Record a fetched page (``Frontier.complete``): its row and its host's, then the
    redirect's target, its links (those of an earlier fetch forgotten when it was read anew)
    and a sitemap's listing. False, and nothing written, when the lease had been lost."""
    lease = completion.lease
    if not finish_lease(
        connection,
        lease,
        page_values(lease, completion.outcome, now),
        completion.next_fetch_at,
        host_delay_seconds=completion.host_delay_seconds,
        host_pace=completion.host_pace,
    ):
        return False
    if completion.redirect_to is not None:
        enqueuer.add_redirect(
            connection,
            lease.url_id,
            lease.depth,
            completion.redirect_to,
            hops=lease.redirect_hops + 1,
            now=now,
            sitemap=completion.redirect_sitemap,
            kind=completion.outcome.kind or lease.kind,
        )
    status = completion.outcome.status
    if lease.fetched_at is not None and status is not None and 200 <= status < 300:
        # fetched before (a recrawl) and read anew: its old links and listing go
        for forget in (sql.forget_links, sql.forget_fragments, sql.forget_listing):
            forget.rowcount(connection, {"from_id": lease.url_id})
    enqueuer.record_links(connection, lease.url_id, lease.depth, links, now)
    if completion.sitemap is not None:
        record_reading(connection, lease.url_id, completion.sitemap)
        enqueuer.record_listing(connection, lease.url_id, lease.depth, completion.sitemap, now)
    return True


def record_end(connection: Connection, enqueuer: Enqueuer, ending: LeaseEnd, now: datetime) -> bool:
    """Record a lease's end without a page (``Frontier.end``): its row and its host's, then
    the sitemaps it queues and its origin's deferral. False, and nothing written, when the
    lease had been lost."""
    lease = ending.lease
    if not finish_lease(
        connection,
        lease,
        dict(ending.values),
        ending.next_fetch_at,
        host_delay_seconds=ending.host_delay_seconds,
        host_pace=ending.host_pace,
    ):
        return False
    if ending.sitemaps:
        enqueuer.queue_sitemaps(
            connection, ending.sitemaps, depth=0, discovered_from=lease.url_id, now=now
        )
    if (deferral := ending.origin_deferred) is not None:
        defer_queued_of_origin(
            connection, deferral.origin, deferral.until, deferral.reason, deferral.detail
        )
    return True
