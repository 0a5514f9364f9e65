"""Putting URLs into the frontier: canonical form, de-duplication, origins and hosts [C2, O1].

URLs arrive in batches (a seed list, a page's links) and go in with one multi-row
``INSERT ... ON CONFLICT DO NOTHING`` on the unique URL key, so tens of thousands per call are
cheap and a URL already known, in any state, is never queued again in the pass. Origin and host
rows are created on first sight and their ids cached for the life of the process; an id becomes
visible to the other threads only once the transaction that created or read it has committed
(``committed``), and is dropped if it rolled back (``rolled_back``).
"""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, NamedTuple, TypeVar, cast

from sqlalchemy import Connection, Table, select
from sqlalchemy.dialects import postgresql, sqlite

from politecrawl.sitemaps import SitemapReading, SitemapSeed
from politecrawl.store import statements as sql
from politecrawl.store.frontier_types import AddResult, LinkOut
from politecrawl.store.schema import CHECK, PAGE, QUEUED, SITEMAP, HostRecord, OriginRecord
from politecrawl.store.url_rows import chunks
from politecrawl.urls import InvalidURL, canonicalize, split_canonical, url_key

_hosts = cast(Table, HostRecord.__table__)
_origins = cast(Table, OriginRecord.__table__)

V = TypeVar("V")


class _Ids(Generic[V]):
    """Row ids by name: those of committed rows, shared by every thread, and those this thread's
    open transaction created or read, kept apart until it commits (another thread must not use
    an id that a rollback can take back, and SQLite hands a rolled-back id out again)."""

    def __init__(self) -> None:
        self._committed: dict[str, V] = {}
        self._local = threading.local()

    def _pending(self) -> dict[str, V]:
        pending: dict[str, V] | None = getattr(self._local, "ids", None)
        if pending is None:
            pending = self._local.ids = {}
        return pending

    def get(self, name: str) -> V | None:
        found = self._committed.get(name)
        return found if found is not None else self._pending().get(name)

    def __contains__(self, name: str) -> bool:
        return self.get(name) is not None

    def __getitem__(self, name: str) -> V:
        found = self.get(name)
        if found is None:
            raise KeyError(name)
        return found

    def put(self, pairs: Iterable[tuple[str, V]]) -> None:
        self._pending().update(pairs)

    def publish(self) -> None:
        pending = self._pending()
        self._committed.update(pending)
        pending.clear()

    def discard(self) -> None:
        self._pending().clear()


class Enqueuer:
    """Adds URLs and links inside the caller's transaction; caches origin and host ids."""

    def __init__(
        self,
        is_sqlite: bool,
        *,
        default_delay_seconds: float,
        max_in_flight_per_host: int,
        pass_number: int,
    ) -> None:
        self._insert = sqlite.insert if is_sqlite else postgresql.insert
        self.default_delay_seconds = default_delay_seconds
        self.max_in_flight_per_host = max_in_flight_per_host
        self.pass_number = pass_number
        self._host_ids: _Ids[int] = _Ids()
        self._origin_ids: _Ids[tuple[int, int]] = _Ids()

    def committed(self) -> None:
        """This thread's transaction committed: its ids are now everyone's."""
        self._host_ids.publish()
        self._origin_ids.publish()

    def rolled_back(self) -> None:
        """This thread's transaction rolled back: the ids it created may not exist."""
        self._host_ids.discard()
        self._origin_ids.discard()

    def add(
        self,
        connection: Connection,
        urls: Iterable[str],
        *,
        now: datetime,
        depth: int,
        priority: int = 0,
        discovered_from: int | None = None,
    ) -> AddResult:
        """Canonicalise, de-duplicate and queue ``urls``; report what was new."""
        found, invalid, repeated = _canonical_urls(urls)
        added = self._insert_urls(
            connection,
            _split(found),
            now=now,
            depth=depth,
            priority=priority,
            discovered_from=discovered_from,
        )
        return AddResult(added, len(found) - added + repeated, tuple(invalid))

    def _insert_urls(
        self,
        connection: Connection,
        found: dict[bytes, _NewUrl],
        *,
        now: datetime,
        depth: int,
        priority: int,
        discovered_from: int | None,
        redirect_hops: int = 0,
        kind: str = PAGE,
    ) -> int:
        if not found:
            return 0
        ids = self._origin_and_host_ids(
            connection, {new.origin: new.host for new in found.values()}, now
        )
        discovered_at = sql.epoch(now)
        rows = [
            {
                "url_key": key,
                "url": new.url,
                "origin_id": ids[new.origin][0],
                "host_id": ids[new.origin][1],
                "depth": depth,
                "priority": priority,
                "state": QUEUED,
                "pass_number": self.pass_number,
                "discovered_from": discovered_from,
                "discovered_at": discovered_at,
                "attempts": 0,
                "redirect_hops": redirect_hops,
                "kind": kind,
            }
            for key, new in found.items()  # in the page's order: ids are the URLs' age
        ]
        # ON CONFLICT DO NOTHING: a URL already known changes no row, so the count is the new.
        added = sql.insert_url.many(connection, rows)
        host_ids = sorted({host_id for _, host_id in ids.values()})
        sql.activate_host.many(connection, [{"host_id": host_id} for host_id in host_ids])
        return added

    def _origin_and_host_ids(
        self, connection: Connection, hosts_by_origin: dict[str, str], now: datetime
    ) -> dict[str, tuple[int, int]]:
        """``origin -> (origin id, host id)``, creating the rows not seen before, in batches."""
        new_origins = {o: h for o, h in hosts_by_origin.items() if o not in self._origin_ids}
        new_hosts = sorted({h for h in new_origins.values() if h not in self._host_ids})
        if new_hosts:
            host_rows = [self._new_host_row(host, now) for host in new_hosts]
            connection.execute(
                self._insert(_hosts).on_conflict_do_nothing(index_elements=["host"]), host_rows
            )
            for chunk in chunks(new_hosts):
                rows = connection.execute(
                    select(_hosts.c.host, _hosts.c.id).where(_hosts.c.host.in_(chunk))
                )
                self._host_ids.put((row.host, row.id) for row in rows)
        if new_origins:
            origin_rows = [
                {"origin": origin, "host_id": self._host_ids[host], "robots_failures": 0}
                for origin, host in sorted(new_origins.items())
            ]
            connection.execute(
                self._insert(_origins).on_conflict_do_nothing(index_elements=["origin"]),
                origin_rows,
            )
            for chunk in chunks(sorted(new_origins)):
                rows = connection.execute(
                    select(_origins.c.origin, _origins.c.id, _origins.c.host_id).where(
                        _origins.c.origin.in_(chunk)
                    )
                )
                self._origin_ids.put((row.origin, (row.id, row.host_id)) for row in rows)
        return {origin: self._origin_ids[origin] for origin in hosts_by_origin}

    def ensure_host(self, connection: Connection, host: str, now: datetime) -> None:
        """Create the row of a host never seen before (for a slot outside the queue)."""
        if host in self._host_ids:
            return
        connection.execute(
            self._insert(_hosts).on_conflict_do_nothing(index_elements=["host"]),
            [self._new_host_row(host, now)],
        )
        host_id = connection.execute(select(_hosts.c.id).where(_hosts.c.host == host)).scalar_one()
        self._host_ids.put([(host, host_id)])

    def _new_host_row(self, host: str, now: datetime) -> dict[str, Any]:
        return {
            "host": host,
            "active": True,
            "next_fetch_at": now,
            "in_flight": 0,
            "max_in_flight": self.max_in_flight_per_host,
            "delay_seconds": self.default_delay_seconds,
            "backoff_seconds": 0.0,
            "error_streak": 0,
        }

    def add_redirect(
        self,
        connection: Connection,
        from_id: int,
        from_depth: int,
        target: str,
        *,
        hops: int,
        now: datetime,
        sitemap: SitemapSeed | None = None,
        kind: str = PAGE,
    ) -> None:
        """Queue a redirect's target as a URL of its own (C4): same depth, one hop more, so it
        is fetched in its own host's slot after its own robots check, like any other hop.
        ``sitemap``: the target is that sitemap (a sitemap that redirects); ``kind``: a check's
        target is a check (L1), anything else's a page."""
        found, _, _ = _canonical_urls([target])
        if sitemap is not None:
            self.queue_sitemaps(
                connection,
                [dataclasses.replace(sitemap, url=url) for url in found.values()],
                depth=from_depth,
                discovered_from=from_id,
                now=now,
                redirect_hops=hops,
            )
        else:
            self._insert_urls(
                connection,
                _split(found),
                now=now,
                depth=from_depth,
                priority=0,
                discovered_from=from_id,
                redirect_hops=hops,
                kind=CHECK if kind == CHECK else PAGE,
            )
        self.record_links(
            connection, from_id, from_depth, sort_links([LinkOut(target)], record_only=True), now
        )

    def record_links(
        self,
        connection: Connection,
        from_id: int,
        from_depth: int,
        links: SortedLinks,
        now: datetime,
    ) -> None:
        """Queue the followable links one level deeper (resources as checks, L3), and record
        every link for reports, with its text, line and fragments (L1, L4)."""
        for found, kind in ((links.followable, PAGE), (links.resources, CHECK)):
            self._insert_urls(
                connection,
                found,
                now=now,
                depth=from_depth + 1,
                priority=0,
                discovered_from=from_id,
                kind=kind,
            )
        sql.insert_link.many(
            connection,
            [
                {
                    "from_id": from_id,
                    "to_key": key,
                    "link_nofollow": row.nofollow,
                    "link_text": row.text,
                    "link_line": row.line,
                    "link_resource": row.resource,
                }
                for key, row in links.recorded.items()
            ],
        )
        sql.insert_fragment.many(
            connection,
            [
                {"from_id": from_id, "to_key": key, "fragment": fragment, "link_line": line}
                for key, fragment, line in links.fragments
            ],
        )

    def queue_sitemaps(
        self,
        connection: Connection,
        seeds: Sequence[SitemapSeed],
        *,
        depth: int,
        discovered_from: int | None,
        now: datetime,
        redirect_hops: int = 0,
    ) -> None:
        """Queue sitemaps to read (S1), each with why and for which origin (its ``sitemaps``
        row); a URL already queued as a page is read as a sitemap instead."""
        found = {url_key(seed.url): seed for seed in seeds}
        if not found:
            return
        self._insert_urls(
            connection,
            _split({key: seed.url for key, seed in found.items()}),
            now=now,
            depth=depth,
            priority=0,
            discovered_from=discovered_from,
            redirect_hops=redirect_hops,
            kind=SITEMAP,
        )
        sql.make_sitemap.many(connection, [{"to_key": key} for key in found])
        sql.insert_sitemap.many(
            connection,
            [
                {
                    "to_key": key,
                    "source": seed.source,
                    "for_origin": seed.for_origin,
                    "nesting": seed.nesting,
                }
                for key, seed in found.items()
            ],
        )

    def record_listing(
        self,
        connection: Connection,
        sitemap_id: int,
        sitemap_depth: int,
        reading: SitemapReading,
        now: datetime,
    ) -> None:
        """Queue what a sitemap lists one level deeper (S2): its pages, as URLs of their own
        that scope, robots.txt and the trap guards judge when leased, with a listing row each
        (not a link: a link is what a page says); an index's sitemaps, to be read in turn."""
        listed = {url_key(page.url): page for page in reading.pages}
        self._insert_urls(
            connection,
            _split({key: page.url for key, page in listed.items()}),
            now=now,
            depth=sitemap_depth + 1,
            priority=0,
            discovered_from=sitemap_id,
        )
        sql.insert_sitemap_entry.many(
            connection,
            [
                {
                    "sitemap_id": sitemap_id,
                    "to_key": key,
                    "entry_lastmod": None if page.lastmod is None else sql.epoch(page.lastmod),
                    "entry_lastmod_text": page.lastmod_text,
                    "entry_line": page.line,
                }
                for key, page in listed.items()
            ],
        )
        sql.raise_sitemap_lastmod.many(
            connection,
            [
                {"to_key": key, "entry_lastmod": sql.epoch(page.lastmod)}
                for key, page in listed.items()
                if page.lastmod is not None
            ],
        )
        self.queue_sitemaps(
            connection,
            reading.sitemaps,
            depth=sitemap_depth + 1,
            discovered_from=sitemap_id,
            now=now,
        )


class _NewUrl(NamedTuple):
    """A canonical URL about to be queued, with its origin and host."""

    url: str
    origin: str
    host: str


class LinkRow(NamedTuple):
    """What the ``links`` table keeps of a link."""

    nofollow: bool
    text: str | None = None
    line: int | None = None
    resource: bool = False


@dataclass(frozen=True, slots=True)
class SortedLinks:
    """A page's links made ready for its transaction (canonical, keyed, sorted out), so that
    the work done while the database is locked is the SQL alone."""

    followable: dict[bytes, _NewUrl]
    """The URLs to queue, by key, in the page's order."""
    recorded: dict[bytes, LinkRow]
    """Every link target by key: the rows for reports."""
    resources: dict[bytes, _NewUrl] = dataclasses.field(default_factory=dict)
    """Resources to queue as checks (L3)."""
    fragments: tuple[tuple[bytes, str, int | None], ...] = ()
    """``(target key, fragment, line)`` for each fragment linked to (L4)."""


def sort_links(
    links: Sequence[LinkOut], *, follow_links: bool = True, record_only: bool = False
) -> SortedLinks:
    """Sort out a page's links (of any form): those to queue and those to record.

    A link is followable when ``follow_links`` and it has no rel=nofollow; a target linked
    several times is recorded as nofollow only if every occurrence is. ``record_only``: record
    the links, queue none (a redirect's target, queued by itself). A resource (L3) is queued
    as a check, never as a page.
    """
    recorded: dict[bytes, LinkRow] = {}
    followable: dict[bytes, str] = {}
    resources: dict[bytes, str] = {}
    fragments: list[tuple[bytes, str, int | None]] = []
    for link in links:
        try:
            canonical = link.url if link.canonical else canonicalize(link.url)
        except InvalidURL:
            continue
        key = url_key(canonical)
        skipped = link.nofollow or not follow_links
        earlier = recorded.get(key)
        nofollow = False if record_only else skipped and (earlier is None or earlier.nofollow)
        if earlier is None:
            recorded[key] = LinkRow(nofollow, link.text, link.line, link.resource)
        elif earlier.nofollow != nofollow:
            recorded[key] = earlier._replace(nofollow=nofollow)
        fragments += [(key, fragment, link.line) for fragment in link.fragments]
        if record_only or skipped:
            continue
        if link.resource:
            resources[key] = canonical
        else:
            followable[key] = canonical
    return SortedLinks(
        _split(followable),
        recorded,
        _split({key: url for key, url in resources.items() if key not in followable}),
        tuple(fragments),
    )


def _split(found: dict[bytes, str]) -> dict[bytes, _NewUrl]:
    return {key: _NewUrl(url, *split_canonical(url)) for key, url in found.items()}


def _canonical_urls(urls: Iterable[str]) -> tuple[dict[bytes, str], list[tuple[str, str]], int]:
    """``(key -> canonical URL, [(invalid URL, reason)], number of repeats)``."""
    found: dict[bytes, str] = {}
    invalid: list[tuple[str, str]] = []
    repeated = 0
    for raw in urls:
        try:
            canonical = canonicalize(raw)
        except InvalidURL as error:
            invalid.append((raw, error.reason))
            continue
        key = url_key(canonical)
        if key in found:
            repeated += 1
        else:
            found[key] = canonical
    return found, invalid, repeated
