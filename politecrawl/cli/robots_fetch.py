"""One origin's robots.txt fetched outside a crawl, by the crawl's own gate [O1-O8, C4].

For ``robots explain --fetch`` and ``audit --robots URL``: the gate follows redirects hop by hop
(O7) behind the anti-steering guard, with a fresh in-memory cache and one request at a time.
Imported only when a command fetches (it loads requests).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from politecrawl.clock import SystemClock
from politecrawl.config import PolitenessSettings, RobotsSettings
from politecrawl.fetch import AddressGuard, Fetcher
from politecrawl.gate import Gate, MemoryOutcomes

if TYPE_CHECKING:
    from collections.abc import Mapping

    from politecrawl.robots.outcome import RobotsOutcome
    from politecrawl.scope import Scope

__all__ = ["fetch_robots_alone"]


def fetch_robots_alone(
    origin: str,
    host: str,
    *,
    agent: str,
    user_agent: str,
    resolve: Mapping[str, str] | None = None,
    scope: Scope | None = None,
) -> RobotsOutcome:
    """The outcome of fetching ``origin``'s robots.txt for ``agent`` (``host``: its host, the
    only one a connection may open; ``resolve``: fixed answers by host; ``scope``: what the
    gate judges redirect hops by, as a crawl's would)."""
    guard = AddressGuard(fixed=dict(resolve or {}), allowed_hosts=lambda: frozenset({host}))
    with Fetcher(user_agent=user_agent, address_guard=guard) as fetcher:
        gate = Gate(
            RobotsSettings(),
            MemoryOutcomes(),
            fetcher,
            SystemClock(),
            user_agent=agent,
            delay_seconds=PolitenessSettings().delay_seconds,  # P2 between same-host hops
            reserve_host=lambda _host, _now: True,  # one request at a time: no host is shared
            release_host=lambda _host, _at: None,
            scope=scope,
        )
        return gate.fetch_robots(origin).outcome
