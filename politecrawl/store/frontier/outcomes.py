"""What a lease's end writes to the frontier: its URL's row and its host's [C5, P2, P3].

``record`` is everything an end (``ends.LeaseEnd``) writes, in the caller's transaction:
``finish_lease``, the one write that ends a lease (only the lease's owner may record it, and
the host gets its next start time and pace in the same statement pair), with the columns
``columns`` gives for that kind of end; then what the end brings (a redirect's target, links, a
sitemap's listing, sitemaps to queue, an origin's deferral).
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select, update

from politecrawl.politeness import HostPace
from politecrawl.sitemaps import SitemapReading, SitemapSeed
from politecrawl.store.frontier import statements as sql
from politecrawl.store.frontier.ends import (
    Answered,
    Completed,
    Deferred,
    Excluded,
    Failed,
    Kept,
    LeaseEnd,
    PageOutcome,
    Released,
)
from politecrawl.store.frontier.enqueue import Enqueuer
from politecrawl.store.frontier.link_sorting import SortedLinks
from politecrawl.store.frontier.servers import after_lease
from politecrawl.store.frontier.use_signals import record_use_signals
from politecrawl.store.frontier.values import HostAddress, Lease, ServerSettings, pace_columns
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
    "use_refused",
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
        "use_refused": outcome.use_refused,
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
    host_pace: HostPace | None = None,
    address: HostAddress | None = None,
    servers: ServerSettings | None = None,
    slot_freed: bool = False,
) -> bool:
    """Record ``values`` on a leased URL and free its host with its next start time
    (``None``: no request was made, the host gets back the slot it was due at), and its server
    (``servers``, P6: None when politeness is per host only); ``slot_freed``: the slots were
    freed already (``Answered``), the URL's row alone is written. False, and nothing written,
    when the lease had expired and gone to another worker."""
    params = {"url_id": lease.url_id, "owner": lease.owner, "lease_owner": None}
    params["lease_expires_at"] = params["lease_server_id"] = None
    for column, value in values.items():
        params[column] = sql.epoch(value) if isinstance(value, datetime) else value
    if sql.finish_leased_url.rowcount(connection, params) != 1:
        return False  # the lease expired and was handed out again: not ours to record
    if not slot_freed:
        free_slots(
            connection,
            lease,
            next_fetch_at,
            host_pace=host_pace,
            address=address,
            servers=servers,
            queued=values.get("state") == QUEUED,
        )
    return True


def free_slots(
    connection: Connection,
    lease: Lease,
    next_fetch_at: datetime | None,
    *,
    host_pace: HostPace | None = None,
    address: HostAddress | None = None,
    servers: ServerSettings | None = None,
    queued: bool = False,
) -> None:
    """Give back the lease's slot on its host, with the host's next start and pace (and on
    its server, P6); ``queued``: the URL went back to the queue, the host is woken."""
    host_values: dict[str, Any] = {"host_name": lease.host}
    if host_pace is not None:
        for column, value in pace_columns(host_pace).items():
            host_values[column] = sql.epoch(value) if isinstance(value, datetime) else value
    if queued:
        host_values["active"] = True
    if next_fetch_at is None:
        host_values["claimed_at"] = sql.epoch(lease.claimed_at)
        sql.free_unused_host.rowcount(connection, host_values)
    else:
        host_values["next_at"] = sql.epoch(next_fetch_at)
        sql.free_host.rowcount(connection, host_values)
    if servers is not None or lease.server is not None:
        unused_since = lease.claimed_at if next_fetch_at is None else None
        after_lease(
            connection,
            lease,
            servers,
            address=address,
            pace=host_pace,
            unused_since=unused_since,
        )


def _answered(connection: Connection, answered: Answered, servers: ServerSettings | None) -> bool:
    """Free the slots of a lease whose response has been read (``Answered``), if the lease is
    still ours; its URL's row is written by its ``Completed`` end."""
    lease = answered.lease
    if not sql.lease_is_held.rowcount(connection, {"url_id": lease.url_id, "owner": lease.owner}):
        return False
    pace = answered.host_pace
    free_slots(
        connection,
        lease,
        pace.next_start,
        host_pace=pace,
        address=answered.address,
        servers=servers,
    )
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
    found = connection.execute(
        select(_origins.c.id, _origins.c.host_id).where(_origins.c.origin == origin)
    ).first()
    if found is None:
        return 0
    # Through the host's queued URLs (``ix_urls_claim``): no index on (origin, state) (0009).
    return connection.execute(
        update(_urls)
        .where(_urls.c.host_id == found.host_id, in_state(QUEUED), _urls.c.origin_id == found.id)
        .values(
            state=DEFERRED,
            next_attempt_at=until,
            reason=reason,
            reason_detail=as_json(detail),
        )
    ).rowcount


def record(
    connection: Connection,
    enqueuer: Enqueuer,
    end: LeaseEnd,
    links: SortedLinks | None,
    now: datetime,
    *,
    servers: ServerSettings | None = None,
) -> bool:
    """Record ``end`` (``links``: a ``Completed``'s links, sorted before the write lock was
    taken; ``servers``: how servers are paced, P6). False, and nothing written, when the lease
    had been lost."""
    if isinstance(end, Answered):
        return _answered(connection, end, servers)
    lease = end.lease
    pace = end.host_pace if isinstance(end, Completed | Failed) else None
    next_fetch_at = None if isinstance(end, Kept) else end.next_fetch_at
    if not finish_lease(
        connection,
        lease,
        columns(end, now),
        next_fetch_at,
        host_pace=pace,
        address=end.address if isinstance(end, Completed | Released) else None,
        servers=servers,
        slot_freed=isinstance(end, Completed) and end.slot_freed,
    ):
        return False
    if isinstance(end, Completed):
        _record_response(connection, enqueuer, end, links, now)
    elif isinstance(end, Released) and end.sitemaps:
        enqueuer.queue_sitemaps(
            connection, end.sitemaps, depth=0, discovered_from=lease.url_id, now=now
        )
    elif isinstance(end, Deferred) and (deferral := end.origin_deferred) is not None:
        defer_queued_of_origin(
            connection, deferral.origin, deferral.until, deferral.reason, deferral.detail
        )
    return True


def columns(end: LeaseEnd, now: datetime) -> dict[str, Any]:
    """The columns ``end`` sets on its URL's row."""
    assert not isinstance(end, Answered)  # not an end: the row is written by its Completed
    lease = end.lease
    values: dict[str, Any]
    if isinstance(end, Completed):
        return page_values(lease, end.outcome, now)
    if isinstance(end, Failed):
        values = {
            "status": end.status,
            "error": end.error,
            "attempts": lease.attempts + 1,
            "fetched_at": end.at,
        }
        if end.retry_at is None:
            values["state"] = FAILED
        else:
            values.update(
                state=DEFERRED,
                next_attempt_at=end.retry_at,
                reason="retry",
                priority=lease.attempts + 1,
            )
    elif isinstance(end, Deferred):
        values = {
            "state": DEFERRED,
            "next_attempt_at": end.until,
            "reason": end.reason,
            "reason_detail": as_json(end.detail),
        }
    elif isinstance(end, Released):
        values = {"state": QUEUED}
    elif isinstance(end, Kept):
        values = {"state": DONE, "reason": end.reason}
    else:
        values = {"state": end.state, "reason": end.reason, "reason_detail": as_json(end.detail)}
    kind = end.kind if isinstance(end, Failed | Excluded) else None
    if kind is not None:
        values["kind"] = kind
    if isinstance(end, Failed) and end.check_method is not None:
        values["check_method"] = end.check_method
    return values


def _record_response(
    connection: Connection,
    enqueuer: Enqueuer,
    completed: Completed,
    links: SortedLinks | None,
    now: datetime,
) -> None:
    """What a response brings beside its row: the redirect's target, its links (those of an
    earlier fetch forgotten when it was read anew) and a sitemap's listing."""
    lease = completed.lease
    if completed.redirect_to is not None:
        enqueuer.add_redirect(
            connection,
            lease.url_id,
            lease.depth,
            completed.redirect_to,
            hops=lease.redirect_hops + 1,
            now=now,
            sitemap=completed.redirect_sitemap,
            kind=completed.outcome.kind or lease.kind,
        )
    status = completed.outcome.status
    if lease.fetched_at is not None and status is not None and 200 <= status < 300:
        # fetched before (a recrawl) and read anew: its old links and listing go
        for forget in (sql.forget_links, sql.forget_fragments, sql.forget_listing):
            forget.rowcount(connection, {"from_id": lease.url_id})
    if completed.outcome.use_signals is not None:  # U6: as seen now
        record_use_signals(
            connection,
            lease.url_id,
            completed.outcome.use_signals,
            read_before=lease.fetched_at is not None,
        )
    if links is not None:
        enqueuer.record_links(connection, lease.url_id, lease.depth, links, now)
    if completed.sitemap is not None:
        record_reading(connection, lease.url_id, completed.sitemap)
        enqueuer.record_listing(connection, lease.url_id, lease.depth, completed.sitemap, now)
