"""Putting URLs into the frontier: de-duplication, links, sitemaps and their listings [C2].

URLs arrive in batches (a seed list, a page's links) and go in with one multi-row
``INSERT ... ON CONFLICT DO NOTHING`` on the unique URL key, so tens of thousands per call are
cheap and a URL already known, in any state, is never queued again in the pass. The links are
sorted out before the transaction (``link_sorting``); origin and host ids come from
``origin_hosts``, which creates their rows on first sight; a URL this process knows the
database holds (``known_urls``) is not inserted again, and a page's links are written by their
targets' ids (those it does not know come back in ``SELECT ... IN`` lists).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import Connection

from politecrawl.sitemaps import SitemapReading, SitemapSeed
from politecrawl.store.dialects import flags_as_int
from politecrawl.store.frontier import statements as sql
from politecrawl.store.frontier.known_urls import KnownUrlIds
from politecrawl.store.frontier.link_sorting import (
    LinkRow,
    SortedLinks,
    canonical_urls,
    link_rows,
    new_urls,
    sort_links,
)
from politecrawl.store.frontier.origin_hosts import OriginHostIds
from politecrawl.store.frontier.values import AddResult, LinkOut
from politecrawl.store.schema import CHECK, PAGE, QUEUED, SITEMAP
from politecrawl.urls import url_key

__all__ = ["Enqueuer"]


class Enqueuer:
    """Adds URLs and links inside the caller's transaction; ``ids`` has their origins' and
    hosts' ids (and must hear when the transaction commits or rolls back)."""

    def __init__(
        self,
        is_sqlite: bool,
        *,
        default_delay_seconds: float,
        max_in_flight_per_host: int,
        pass_number: int,
    ) -> None:
        self.ids = OriginHostIds(
            is_sqlite,
            default_delay_seconds=default_delay_seconds,
            max_in_flight_per_host=max_in_flight_per_host,
        )
        self.pass_number = pass_number
        self.is_sqlite = is_sqlite
        self._flags_as_int = flags_as_int("sqlite" if is_sqlite else "postgresql")
        self.known = KnownUrlIds()

    def committed(self) -> None:
        """The caller's transaction committed: what it created is everyone's."""
        self.ids.committed()
        self.known.committed()

    def rolled_back(self) -> None:
        """The caller's transaction rolled back: what it created may not exist."""
        self.ids.rolled_back()
        self.known.rolled_back()

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
        found, invalid, repeated = canonical_urls(urls)
        added = self._insert_urls(
            connection,
            found,
            now=now,
            depth=depth,
            priority=priority,
            discovered_from=discovered_from,
        )
        return AddResult(added, len(found) - added + repeated, tuple(invalid))

    def _insert_urls(
        self,
        connection: Connection,
        found: dict[bytes, str],
        *,
        now: datetime,
        depth: int,
        priority: int,
        discovered_from: int | None,
        redirect_hops: int = 0,
        kind: str = PAGE,
    ) -> int:
        unknown = new_urls(self.known.unknown(found))
        if not unknown:
            return 0
        ids = self.ids.for_origins(
            connection, {new.origin: new.host for new in unknown.values()}, now
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
            for key, new in unknown.items()  # in the page's order: ids are the URLs' age
        ]
        # ON CONFLICT DO NOTHING: a URL already known changes no row, so the count is the new.
        added = sql.insert_url.many(connection, rows)
        host_ids = sorted({host_id for _, host_id in ids.values()})
        sql.activate_host.many(connection, [{"host_id": host_id} for host_id in host_ids])
        return added

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
        found, _, _ = canonical_urls([target])
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
                found,
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
        ids = self._ids_of(connection, links.recorded)
        sql.insert_link_to_id.many(
            connection, link_rows(from_id, links.recorded, ids, flags_as_int=self._flags_as_int)
        )
        sql.insert_fragment.many(
            connection,
            [
                {"from_id": from_id, "to_key": key, "fragment": fragment, "link_line": line}
                for key, fragment, line in links.fragments
            ],
        )

    def _ids_of(self, connection: Connection, targets: dict[bytes, LinkRow]) -> dict[bytes, int]:
        """The ids of the link targets the crawl holds: known ones from ``known``, the others
        read in ``SELECT ... IN`` lists of fixed lengths (and known from now on)."""
        ids, unknown = self.known.split(targets)
        if unknown:
            found: dict[bytes, int] = {}
            longest = sql.URL_ID_LOOKUP_LENGTHS[-1]
            for start in range(0, len(unknown), longest):
                chunk = unknown[start : start + longest]
                length = next(n for n in sql.URL_ID_LOOKUP_LENGTHS if n >= len(chunk))
                padded = chunk + [chunk[0]] * (length - len(chunk))
                params = {f"key{index}": key for index, key in enumerate(padded)}
                found.update(sql.url_ids[length].all(connection, params))
            self.known.met(found)
            ids.update(found)
        return ids

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
            {key: seed.url for key, seed in found.items()},
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
            {key: page.url for key, page in listed.items()},
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
