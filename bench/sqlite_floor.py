"""The least SQLite work a frontier page needs: the yardstick for ``frontier_bench.py``'s links.

``frontier_bench.py`` measures politecrawl's frontier (claim + complete + a page's links, one
commit a page) at a million queued URLs. Its target is an absolute time, and these machines
differ by 2x from one day to the next; this module measures, on the same machine in the same
run, what SQLite alone takes for the same page with the least a durable frontier must keep:

* a minimal schema: ``hosts`` (due time, in flight), ``urls`` (politecrawl's 16-byte ``url_key``,
  unique; state, depth and an index to claim by host, state and depth)
  and ``links`` (from, to: a ``WITHOUT ROWID`` primary key);
* Python's ``sqlite3`` driver directly (no SQLAlchemy), WAL with ``synchronous=NORMAL``,
  politecrawl's checkpoint interval and foreign keys checked (as politecrawl opens a crawl
  database: each new URL and link row looks up its parent rows), one ``BEGIN IMMEDIATE`` ...
  ``COMMIT`` a page;
* per page: the claimed URL marked done, the page's new URLs inserted (their ids kept in a dict,
  as politecrawl's cache of known URLs keeps them) and their hosts woken if set aside, one row a
  link, the host freed, and the next URL claimed from a due host: the work of
  ``Frontier.complete_and_claim``, without the state politecrawl also keeps (leases and their
  expiry, which a crawl that resumes after a crash needs; origins, outcomes, pace, passes);
* the time as ``frontier_bench.py`` gives it: one fixed moment a pass. A pass's first claims go
  to the hosts the pass before did not stamp with its moment, one host a page; once every host
  carries the pass's moment, the claims stay on the first host with URLs queued. politecrawl's
  claims take the same course in the bench.

Run alone: ``.venv/bin/python bench/sqlite_floor.py [--queued 1000000] [--pages 3000]``.
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

# politecrawl's own setting, so that both frontiers copy their logs back as often.
from politecrawl.store.dialects import _WAL_AUTOCHECKPOINT_PAGES
from politecrawl.urls import url_key

_SCHEMA = """
create table hosts (id integer primary key, next_at real not null, in_flight integer not null);
create index ix_hosts_due on hosts (in_flight, next_at);
create table urls (
    id integer primary key, url_key blob not null unique, url text not null,
    host_id integer not null references hosts (id), state integer not null,
    depth integer not null, status integer, fetched_at real
);
create index ix_urls_claim on urls (host_id, state, depth, id);
create table links (
    from_id integer not null references urls (id), to_id integer not null references urls (id),
    primary key (from_id, to_id)
) without rowid;
"""
_QUEUED, _LEASED, _DONE = 0, 1, 2
_NEVER = float("inf")  # the due time of a host with nothing queued


class MinimalFrontier:
    """The minimal schema on a fresh file, filled with ``queued`` URLs of ``urls(n)``."""

    def __init__(
        self, path: Path, urls: Callable[[int, int], list[str]], hosts: int, queued: int
    ) -> None:
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.execute(f"PRAGMA wal_autocheckpoint = {_WAL_AUTOCHECKPOINT_PAGES}")
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.executescript(_SCHEMA)
        self._known: dict[str, int] = {}
        self._db.execute("BEGIN")
        self._db.executemany(
            "insert into hosts values (?, 0, 0)", [(host,) for host in range(hosts)]
        )
        for start in range(0, queued, 50_000):
            batch = urls(min(50_000, queued - start), start)
            self._db.executemany(
                "insert into urls (url_key, url, host_id, state, depth) values (?, ?, ?, ?, 1)",
                [(url_key(u), u, (start + i) % hosts, _QUEUED) for i, u in enumerate(batch)],
            )
        self._db.execute("COMMIT")
        self._db.execute("BEGIN IMMEDIATE")
        self._lease = self._claim(time.time())
        self._db.execute("COMMIT")

    def know(self, urls: list[str]) -> None:
        """Remember the ids of ``urls`` (queued already), as politecrawl's cache does."""
        for url in urls:
            (self._known[url],) = self._db.execute(
                "select id from urls where url_key = ?", (url_key(url),)
            ).fetchone()

    def complete_and_claim(self, links: list[str], new: list[tuple[str, int]], now: float) -> None:
        """One page at ``now``: its URL done, ``new`` URLs (url, host) added, a row a link, the
        next claim."""
        url_id, host_id = self._lease
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        db.execute(
            "update urls set state = ?, status = 200, fetched_at = ? where id = ?",
            (_DONE, now, url_id),
        )
        for url, host in new:
            added = db.execute(
                "insert or ignore into urls (url_key, url, host_id, state, depth) "
                "values (?, ?, ?, ?, 2)",
                (url_key(url), url, host, _QUEUED),
            )
            if added.rowcount:
                self._known[url] = added.lastrowid or 0
        # A host set aside when it had nothing queued is due again (politecrawl: ``active``).
        db.executemany(
            "update hosts set next_at = ? where id = ? and next_at = ?",
            [(now, host, _NEVER) for host in sorted({host for _, host in new})],
        )
        db.executemany(
            "insert or ignore into links values (?, ?)",
            [(url_id, self._known[url]) for url in links],
        )
        db.execute("update hosts set in_flight = 0, next_at = ? where id = ?", (now, host_id))
        self._lease = self._claim(now)
        db.execute("COMMIT")

    def _claim(self, now: float) -> tuple[int, int]:
        """The best queued URL of the first due host; a due host found with none queued is set
        aside until a URL of it is added (as politecrawl clears a host's ``active`` flag)."""
        while True:
            due = self._db.execute(
                "select id from hosts where in_flight = 0 and next_at <= ? "
                "order by next_at limit 1",
                (now,),
            ).fetchone()
            if due is None:
                raise RuntimeError("no URL left to claim: queue more than the pages asked for")
            (host_id,) = due
            queued = self._db.execute(
                "select id from urls where host_id = ? and state = ? order by depth, id limit 1",
                (host_id, _QUEUED),
            ).fetchone()
            if queued is not None:
                break
            self._db.execute("update hosts set next_at = ? where id = ?", (_NEVER, host_id))
        (url_id,) = queued
        self._db.execute("update urls set state = ? where id = ?", (_LEASED, url_id))
        self._db.execute("update hosts set in_flight = 1, next_at = ? where id = ?", (now, host_id))
        return url_id, host_id

    def close(self) -> None:
        self._db.close()


def measure_floor(
    directory: Path,
    urls: Callable[[int, int], list[str]],
    *,
    hosts: int,
    queued: int,
    pages: int,
    links: int,
    new_links: int,
    repeats: int = 3,
) -> Floor:
    """The median milliseconds a page of ``repeats`` passes of ``pages`` pages, each with
    ``links`` links of which ``new_links`` new, over a minimal frontier of ``queued`` URLs, and
    the log pages a page writes; ``urls(count, start)`` names the URLs as ``frontier_bench``
    does."""
    path = directory / "floor.db"
    frontier = MinimalFrontier(path, urls, hosts, queued)
    try:
        menu = urls(links - new_links, 0)
        frontier.know(menu)
        next_new = queued

        def run(count: int, now: float) -> None:
            nonlocal next_new
            for _ in range(count):
                batch = urls(new_links, next_new)
                new = [(url, (next_new + i) % hosts) for i, url in enumerate(batch)]
                next_new += new_links
                frontier.complete_and_claim([*menu, *(url for url, _ in new)], new, now)

        passes = []
        for _ in range(repeats):
            now = time.time()  # one moment a pass, as frontier_bench.py's
            started = time.perf_counter()
            run(pages, now)
            passes.append(1000 * (time.perf_counter() - started) / pages)
        now = time.time()
        frames = log_frames_a_page(path, lambda count: run(count, now))
        return Floor(statistics.median(passes), frames)
    finally:
        frontier.close()


class Floor(NamedTuple):
    """The minimal frontier's page: its time and the log pages (4 KiB each) its commit writes."""

    ms_a_page: float
    log_frames_a_page: float


def log_frames_a_page(path: Path, run_pages: Callable[[int], None], pages: int = 100) -> float:
    """The WAL frames (changed pages, 4 KiB each) that each of ``pages`` pages of ``run_pages``
    writes to the log of the database at ``path``: the log is emptied first (a checkpoint that
    truncates it), then counted. Between two transactions only: every other connection to the
    file must be idle. Raises when the count cannot be trusted: when the log was copied back
    and begun again meanwhile (a checkpoint of its own: the file then holds more frames than
    the count), or when a checkpoint was refused."""
    side = sqlite3.connect(path, isolation_level=None)
    try:
        busy, _, _ = side.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        if busy:
            raise RuntimeError(f"{path}: the log could not be emptied (a transaction is open)")
        run_pages(pages)
        (page_size,) = side.execute("PRAGMA page_size").fetchone()
        busy, frames, _ = side.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        log_bytes = Path(f"{path}-wal").stat().st_size
        if busy or log_bytes != 32 + frames * (page_size + 24):  # the log's header, each frame's
            raise RuntimeError(
                f"{path}: {frames} frames counted, but the log holds {log_bytes:,} bytes "
                "(begun again meanwhile): count fewer pages"
            )
        return float(frames) / pages
    finally:
        side.close()


def main() -> None:
    from frontier_bench import HOSTS, LINKS, NEW_LINKS, urls  # noqa: PLC0415 (run alone)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queued", type=int, default=1_000_000)
    parser.add_argument("--pages", type=int, default=3_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        floor = measure_floor(
            Path(scratch), urls, hosts=HOSTS, queued=args.queued, pages=args.pages,
            links=LINKS, new_links=NEW_LINKS,
        )  # fmt: skip
    print(
        f"minimal frontier, raw sqlite3: {floor.ms_a_page:.3f} ms a page, "
        f"{floor.log_frames_a_page:.1f} log pages a page "
        f"({LINKS} links a page, {NEW_LINKS} new; {args.queued:,} queued)"
    )


if __name__ == "__main__":
    main()
