"""What the crawl asks its frontier without writing: its seeds, a URL by id, its counts [C1].

The seeds are the URLs added at depth 0 (not a redirect's target, not a sitemap): their
origins are the crawl's default scope (C1). ``counts`` is what ``Frontier.stats`` shows: URLs
per state (and per host and state), origins per robots.txt outcome. Every function takes an
open connection; nothing here writes.
"""

from __future__ import annotations

from sqlalchemy import Connection, func, select

from politecrawl.store.schema import (
    PAGE,
    hosts_table as _hosts,
    origins_table as _origins,
    urls_table as _urls,
)

__all__ = ["counts", "seed_origins", "seed_urls", "url_of"]

_is_seed = (_urls.c.depth == 0) & (_urls.c.redirect_hops == 0) & (_urls.c.kind == PAGE)


def seed_origins(connection: Connection) -> list[str]:
    """The origins of the seeds, sorted."""
    rows = connection.execute(
        select(_origins.c.origin)
        .join(_urls, _urls.c.origin_id == _origins.c.id)
        .where(_is_seed)
        .distinct()
    )
    return sorted(row.origin for row in rows)


def seed_urls(connection: Connection) -> set[str]:
    """The seeds, canonical."""
    return {row.url for row in connection.execute(select(_urls.c.url).where(_is_seed))}


def url_of(connection: Connection, url_id: int) -> str | None:
    """The URL with id ``url_id``, if it exists."""
    return connection.execute(select(_urls.c.url).where(_urls.c.id == url_id)).scalar_one_or_none()


def counts(
    connection: Connection, *, per_host: bool
) -> tuple[dict[str, int], dict[str, dict[str, int]], dict[str, int]]:
    """``(URLs per state, URLs per host and state (empty unless per_host), origins per robots
    outcome ("unknown" before robots.txt was fetched))``."""
    by_state: dict[str, int] = dict(
        connection.execute(select(_urls.c.state, func.count()).group_by(_urls.c.state)).all()
    )
    robots: dict[str, int] = dict(
        connection.execute(
            select(func.coalesce(_origins.c.robots_outcome, "unknown"), func.count()).group_by(
                _origins.c.robots_outcome
            )
        ).all()
    )
    by_host: dict[str, dict[str, int]] = {}
    if per_host:
        rows = connection.execute(
            select(_hosts.c.host, _urls.c.state, func.count())
            .join(_urls, _urls.c.host_id == _hosts.c.id)
            .group_by(_hosts.c.host, _urls.c.state)
        ).all()
        for host, state, count in rows:
            by_host.setdefault(host, {})[state] = count
    return by_state, by_host, robots
