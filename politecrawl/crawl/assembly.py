"""The crawl's object graph, built from its configuration: scope, fetcher, gate and visitor.

The one place that reads a ``CrawlConfig`` to wire the parts together: each part below the
visitor is handed its group (the gate ``RobotsSettings``, the scope and the fetcher their
values), and the visitor, which composes them, the configuration. ``Crawler`` asks for a new
visitor at the start of every run (the seeds, and so the scope, may have grown).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from politecrawl.crawl.visit import Visitor
from politecrawl.fetch import AddressGuard, Fetcher, FetchLimits
from politecrawl.gate import Gate
from politecrawl.scope import Scope, TrapGuards
from politecrawl.store import Database, Frontier, RobotsOutcomeStore, TdmRepOutcomeStore
from politecrawl.warc import ArchivingFetcher, WarcArchive

# A robots.txt redirect's other host is held for the response deadline and this much more: the
# deadline is enforced by a watcher thread, which a busy machine may run late.
_HOLD_SLACK = 5.0
_ANSWER_REUSE_SECONDS = 30.0  # a name's answer, from its first lease's look-up to its request

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from politecrawl.clock import Clock
    from politecrawl.config import CrawlConfig


def scope_of(config: CrawlConfig, seed_origins: Iterable[str]) -> Scope:
    """What the crawl may fetch (C1, C3) for these seed origins."""
    return Scope.from_seeds(
        seed_origins,
        mode=config.scope.scope,
        include=config.scope.include,
        exclude=config.scope.exclude,
        max_depth=config.scope.max_depth,
        max_pages_per_host=config.scope.max_pages_per_host,
        trap_guards=TrapGuards(
            max_url_length=config.scope.max_url_length,
            max_path_segments=config.scope.max_path_segments,
            max_repeated_segment=config.scope.max_repeated_segment,
            max_query_bytes=config.scope.max_query_bytes,
        ),
        trusted_networks=config.scope.trusted_networks,
    )


def fetcher_of(
    config: CrawlConfig, seed_hosts: Callable[[], Iterable[str]], *, run: str = "run"
) -> Fetcher:
    """The fetcher with the crawl's limits (C7) and anti-steering guard: ``seed_hosts`` names
    the hosts whose names may resolve to private addresses (asked at each connection). With
    ``warc_dir``, every answer is archived first (files named after ``run``)."""
    options = _fetcher_options(config, seed_hosts)
    if config.archive.warc_dir:
        archive = WarcArchive(
            Path(config.archive.warc_dir),
            run=run,
            info={
                "operator": config.crawl.contact or "",
                "http-header-user-agent": config.user_agent,
                "robots": f"obey ({config.robots.semantics})",
                "politecrawl-config": json.dumps(
                    config.as_flat_dict() | {"extra": None}, sort_keys=True, default=str
                ),
            },
            max_file_bytes=config.archive.warc_max_file_bytes,
        )
        return ArchivingFetcher(archive, **options)
    return Fetcher(**options)


def _fetcher_options(
    config: CrawlConfig, seed_hosts: Callable[[], Iterable[str]]
) -> dict[str, Any]:
    """The ``Fetcher`` keyword arguments for ``config``."""
    by_server = config.politeness.politeness_unit == "server"
    max_age = config.politeness.address_max_age_seconds
    return {
        "user_agent": config.user_agent,
        "limits": FetchLimits(
            connect_timeout_seconds=config.fetching.connect_timeout_seconds,
            response_timeout_seconds=config.fetching.response_timeout_seconds,
            max_body_bytes=config.fetching.max_body_bytes,
        ),
        "address_guard": AddressGuard(
            fixed={
                host.lower(): address
                for host, _, address in (pair.partition(":") for pair in config.scope.resolve)
            },
            trusted_networks=scope_of(config, ()).trusted_networks,
            allowed_hosts=seed_hosts,
            # P6: a host's server is its address; a connection older than this resolves anew,
            # and a name asked before its first request is not looked up again to connect.
            max_address_age_seconds=max_age if by_server else None,
            answer_reuse_seconds=min(_ANSWER_REUSE_SECONDS, max_age) if by_server else 0.0,
        ),
    }


def visitor_of(
    config: CrawlConfig,
    *,
    database: Database,
    frontier: Frontier,
    fetcher: Fetcher,
    scope: Scope,
    clock: Clock,
) -> Visitor:
    """The visitor of one run, with its gate (robots.txt, and tdmrep.json when the crawl's
    purpose reads it, through the same fetcher, their outcomes in the crawl database)."""
    gate = Gate(
        config.robots,
        RobotsOutcomeStore(database),
        fetcher,
        clock,
        user_agent=config.user_agent,
        delay_seconds=config.politeness.delay_seconds,
        reserve_host=lambda host, now: frontier.reserve_host(
            host, now=now, hold_seconds=config.fetching.response_timeout_seconds + _HOLD_SLACK
        ),
        release_host=lambda host, at: frontier.release_host(host, next_fetch_at=at),
        scope=scope,
    )
    archive = fetcher.archive if isinstance(fetcher, ArchivingFetcher) else None
    return Visitor(
        config,
        frontier=frontier,
        gate=gate,
        fetcher=fetcher,
        scope=scope,
        clock=clock,
        archive=archive,
        tdmrep_outcomes=TdmRepOutcomeStore(database),
    )
