"""The ids of URLs this process knows are in the crawl database: a page's links to them skip
the insert, and their link rows are written by id.

A site's menu links every page to the same pages, so most of a page's links name URLs the
crawl already holds; inserting them again (``ON CONFLICT DO NOTHING``) changed nothing and cost
most of a page's write, and a link row given its target's id skips the lookup by key inside
the insert (callgrind, the frontier bench's loop with 40 links a page: 5.0 -> 3.9 million
instructions a page, with the changes that came with it). A URL row is never deleted and never
changes its key, so a key's id once committed stays true. Ids become known to every thread only
when the transaction that met them commits, and are forgotten if it rolls back. Bounded: the
map is emptied when full (measured with tracemalloc: 133 bytes a key, 13 MB at the limit).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping

__all__ = ["KnownUrlIds"]

_LIMIT = 100_000


class KnownUrlIds:
    """URL key -> id of URLs known to be in the crawl database (committed), shared by the
    threads of a process."""

    def __init__(self, limit: int = _LIMIT) -> None:
        self._limit = limit
        self._committed: dict[bytes, int] = {}
        self._local = threading.local()

    def __contains__(self, key: bytes) -> bool:
        return key in self._committed

    def get(self, key: bytes) -> int | None:
        """The id of the URL with this key, if known."""
        return self._committed.get(key)

    def unknown(self, found: Mapping[bytes, str]) -> dict[bytes, str]:
        """The URLs of ``found`` (by key) whose ids are not known."""
        committed = self._committed
        return {key: url for key, url in found.items() if key not in committed}

    def split(self, keys: Iterable[bytes]) -> tuple[dict[bytes, int], list[bytes]]:
        """``keys`` sorted out: the ids of those known, and the keys of the others."""
        committed = self._committed
        keys = list(keys)
        known = {key: committed[key] for key in keys if key in committed}
        return known, [key for key in keys if key not in known]

    def met(self, ids: Mapping[bytes, int]) -> None:
        """This thread's open transaction inserted these URLs or found them there."""
        pending: dict[bytes, int] | None = getattr(self._local, "ids", None)
        if pending is None:
            pending = self._local.ids = {}
        pending.update(ids)

    def committed(self) -> None:
        """This thread's transaction committed: the ids it met are known to all."""
        pending: dict[bytes, int] | None = getattr(self._local, "ids", None)
        if not pending:
            return
        if len(self._committed) + len(pending) > self._limit:
            self._committed = {}  # a fresh map: a reader in another thread keeps the old
        if len(pending) > self._limit:  # one transaction may meet more (a seeds file)
            pending = dict(list(pending.items())[-self._limit :])
        self._committed.update(pending)
        self._local.ids = {}

    def rolled_back(self) -> None:
        """This thread's transaction rolled back: what it inserted may not exist."""
        pending: dict[bytes, int] | None = getattr(self._local, "ids", None)
        if pending:
            pending.clear()
