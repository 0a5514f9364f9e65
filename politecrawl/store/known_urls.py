"""URL keys this process knows are in the crawl database: a page's links to them skip the insert.

A site's menu links every page to the same pages, so most of a page's links name URLs the
crawl already holds; inserting them again (``ON CONFLICT DO NOTHING``) changed nothing and cost
most of a page's write. A URL row is never deleted, so a key once committed stays true. Keys
become known to every thread only when the transaction that inserted or met them commits, and
are forgotten if it rolls back. Bounded: the set is emptied when full (about 90 bytes a key,
measured: 9 MB at the limit).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

__all__ = ["KnownUrlKeys"]

_LIMIT = 100_000


class KnownUrlKeys:
    """Keys of URLs known to be in the crawl database (committed), shared by the threads."""

    def __init__(self, limit: int = _LIMIT) -> None:
        self._limit = limit
        self._committed: set[bytes] = set()
        self._local = threading.local()

    def __contains__(self, key: bytes) -> bool:
        return key in self._committed

    def met(self, keys: Iterable[bytes]) -> None:
        """This thread's open transaction inserted these keys or found them there."""
        pending: list[bytes] | None = getattr(self._local, "keys", None)
        if pending is None:
            pending = self._local.keys = []
        pending.extend(keys)

    def committed(self) -> None:
        """This thread's transaction committed: the keys it met are known to all."""
        pending: list[bytes] | None = getattr(self._local, "keys", None)
        if not pending:
            return
        if len(self._committed) + len(pending) > self._limit:
            self._committed = set()  # a fresh set: a reader in another thread keeps the old
        self._committed.update(pending[-self._limit :])  # a seeds file may bring more
        pending.clear()

    def rolled_back(self) -> None:
        """This thread's transaction rolled back: what it inserted may not exist."""
        pending: list[bytes] | None = getattr(self._local, "keys", None)
        if pending:
            pending.clear()
