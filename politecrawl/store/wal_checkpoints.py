"""SQLite's write-ahead log copied back into the database outside the crawl's writer lock.

Left to itself, SQLite checkpoints inside the commit that takes the log past
``wal_autocheckpoint`` pages (1,000 by default): it copies them back into the database and
syncs both files, and politecrawl's ``WriterLock`` is still held, so every writer of every
process of the crawl waits. A page with 40 links writes about 30 pages of log, so that was
every 30th page. Instead, each process runs a PASSIVE checkpoint after every
``COMMITS_PER_CHECKPOINT`` of its write transactions, once the lock is released: the other
writers go on meanwhile (a PASSIVE checkpoint waits for nobody). SQLite's own checkpoint stays
as a bound, at ``AUTOCHECKPOINT_PAGES`` (one transaction may write more: a large seeds file).
"""

from __future__ import annotations

import sqlite3

__all__ = ["AUTOCHECKPOINT_PAGES", "COMMITS_PER_CHECKPOINT", "WalCheckpoints"]

COMMITS_PER_CHECKPOINT = 64
"""About 2,000 pages of log at a crawl's 30 a page: 8 MB of log at 4 KB a page."""
AUTOCHECKPOINT_PAGES = 10_000


class WalCheckpoints:
    """Counts a process's write transactions, and checkpoints after every ``every``-th."""

    def __init__(self, every: int = COMMITS_PER_CHECKPOINT) -> None:
        self.every = every
        self._commits = 0  # shared by the threads: a lost count only moves a checkpoint

    def committed(self, connection: sqlite3.Connection) -> None:
        """A write transaction on ``connection`` committed and the writer lock is released."""
        self._commits += 1
        if self._commits < self.every:
            return
        self._commits = 0
        try:
            connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        except sqlite3.Error:
            # The commit is done; a checkpoint that failed (a full disk) is tried again after
            # the next ``every`` commits, and SQLite's own bound still applies.
            return
