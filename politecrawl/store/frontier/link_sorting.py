"""A page's links sorted out before its transaction: canonical, keyed, to queue or to record [C2].

``sort_links`` turns a page's links (any form) into ``SortedLinks``: the URLs to queue as
pages, the resources to queue as checks (L3), a row for every link target (for reports, L1)
and the fragments linked to (L4); ``canonical_urls`` does the same for a batch of URLs to add.
Pure, no database: the enqueuer's transaction then does the SQL, and ``new_urls`` for the few
URLs it does not know already (a site's menu names the same pages on every page).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import Any, NamedTuple

from politecrawl.store.frontier.values import FoundLink
from politecrawl.urls import InvalidURL, canonicalize, split_canonical, url_key

__all__ = [
    "LinkRow",
    "NewUrl",
    "SortedLinks",
    "canonical_urls",
    "link_rows",
    "new_urls",
    "sort_links",
]


class NewUrl(NamedTuple):
    """A canonical URL about to be queued, with its origin and host."""

    url: str
    origin: str
    host: str


LinkRow = tuple[bool, str | None, int | None, bool]
"""What the ``links`` table keeps of a link: ``(nofollow, text, line, resource)``. A plain
tuple, not a ``NamedTuple``: one is made for every link of every page, and a named one cost
0.4 us more each (its ``__new__`` runs in Python)."""


_TEXT = itemgetter(1)
_LINE = itemgetter(2)


@dataclass(frozen=True, slots=True)
class SortedLinks:
    """A page's links made ready for its transaction (canonical, keyed, sorted out), so that
    the work done while the database is locked is the SQL alone."""

    followable: dict[bytes, str]
    """The URLs to queue (canonical), by key, in the page's order."""
    recorded: dict[bytes, LinkRow]
    """Every link target by key: the rows for reports."""
    resources: dict[bytes, str] = dataclasses.field(default_factory=dict)
    """Resources to queue as checks (L3)."""
    fragments: tuple[tuple[bytes, str, int | None], ...] = ()
    """``(target key, fragment, line)`` for each fragment linked to (L4)."""


def sort_links(
    links: Sequence[FoundLink], *, follow_links: bool = True, record_only: bool = False
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
    earlier_of = recorded.get
    for link in links:
        canonical = link.url
        if not link.canonical:
            try:
                canonical = canonicalize(canonical)
            except InvalidURL:
                continue
        key = url_key(canonical)
        skipped = link.nofollow or not follow_links
        earlier = earlier_of(key)
        if earlier is None:
            nofollow = skipped and not record_only
            recorded[key] = (nofollow, link.text, link.line, link.resource)
        elif earlier[0] and not skipped:  # nofollow only if every occurrence is
            recorded[key] = (False, *earlier[1:])
        if link.fragments:
            fragments += [(key, fragment, link.line) for fragment in link.fragments]
        if record_only or skipped:
            continue
        if link.resource:
            resources[key] = canonical
        else:
            followable[key] = canonical
    return SortedLinks(
        followable,
        recorded,
        {key: url for key, url in resources.items() if key not in followable},
        tuple(fragments),
    )


def new_urls(found: dict[bytes, str]) -> dict[bytes, NewUrl]:
    """Canonical URLs by key, each with its origin and host."""
    return {key: NewUrl(url, *split_canonical(url)) for key, url in found.items()}


def canonical_urls(urls: Iterable[str]) -> tuple[dict[bytes, str], list[tuple[str, str]], int]:
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


def link_rows(
    from_id: int,
    recorded: Mapping[bytes, LinkRow],
    ids: Mapping[bytes, int],
    *,
    flags_as_int: bool,
) -> list[dict[str, Any]]:
    """The ``links`` rows of a page: one a target whose id is in ``ids`` (a target the crawl
    does not hold is not recorded, nor a link to the page itself).

    The text and line columns are left out when no link of the page has one (the insert then
    leaves them NULL and binds two values fewer a row). ``flags_as_int``: SQLite's driver
    binds an exact int as it is, but sends a bool through its adapter registry (measured: a
    row of an int and two flags inserted in 0.94 us with ints, 1.9 us with bools)."""
    rows: list[dict[str, Any]] = []
    every = recorded.values()
    with_text = list(map(_TEXT, every)).count(None) != len(every)
    with_line = list(map(_LINE, every)).count(None) != len(every)
    as_flag: Callable[[bool], Any] = int if flags_as_int else bool
    id_of = ids.get
    for key, (nofollow, text, line, resource) in recorded.items():
        to_id = id_of(key)
        if to_id is None or to_id == from_id:
            continue
        values: dict[str, Any] = {
            "from_id": from_id,
            "to_id": to_id,
            "nofollow": as_flag(nofollow),
            "resource": as_flag(resource),
        }
        if with_text:
            values["text"] = text
        if with_line:
            values["line"] = line
        rows.append(values)
    return rows
