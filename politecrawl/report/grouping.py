"""Long lists of URLs, grouped by host and reason: how many, and a few examples of each.

A crawl that checks links to hundreds of hosts can leave thousands of URLs deferred (a host
that does not answer defers all its links, O6) or not checked yet; listed one a line they bury
what matters. ``group_urls`` gives one ``UrlGroup`` per host and reason instead, biggest first;
the text, HTML and JUnit reports show the groups of a list longer than ``MAX_LISTED``, the CSV
and JSON reports every URL. Pure.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TypeVar
from urllib.parse import urlsplit

__all__ = ["EXAMPLES", "MAX_LISTED", "UrlGroup", "group_urls", "host_of"]

MAX_LISTED = 20
"""A list of more URLs than this is shown grouped."""
EXAMPLES = 3
"""URLs a group names."""

Item = TypeVar("Item")


@dataclass(frozen=True, slots=True)
class UrlGroup:
    """The URLs of one host waiting for one reason."""

    host: str
    reason: str
    count: int
    examples: tuple[str, ...]
    """The first ``EXAMPLES`` of its URLs, by URL."""
    first_until: datetime | None = None
    """The earliest time one of them waits for (None: none waits for a time)."""
    last_until: datetime | None = None


def host_of(url: str) -> str:
    """``host[:port]`` of ``url`` (the URL itself when it has none)."""
    return urlsplit(url).netloc.rpartition("@")[2] or url


def group_urls(
    items: Iterable[Item],
    *,
    url: Callable[[Item], str],
    reason: Callable[[Item], str],
    until: Callable[[Item], datetime | None] = lambda item: None,
) -> tuple[UrlGroup, ...]:
    """``items`` grouped by the host of ``url(item)`` and ``reason(item)``: the biggest group
    first, then by host and reason."""
    urls: dict[tuple[str, str], list[str]] = {}
    times: dict[tuple[str, str], list[datetime]] = {}
    for item in items:
        key = (host_of(url(item)), reason(item))
        urls.setdefault(key, []).append(url(item))
        if (moment := until(item)) is not None:
            times.setdefault(key, []).append(moment)
    groups = []
    for (host, why), members in urls.items():
        moments = times.get((host, why), [])
        groups.append(
            UrlGroup(
                host,
                why,
                len(members),
                tuple(heapq.nsmallest(EXAMPLES, members)),
                min(moments, default=None),
                max(moments, default=None),
            )
        )
    return tuple(sorted(groups, key=lambda group: (-group.count, group.host, group.reason)))
