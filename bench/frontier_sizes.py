"""Benchmark: what the crawl database stores per URL, table by table and index by index, on
SQLite and PostgreSQL, measured at 1,000,000 URLs and extrapolated (issue 40: ten million on
paper).

Run on demand: ``.venv/bin/python bench/frontier_sizes.py [--urls 1000000] [--hosts 200]
[--pages 50000] [--postgres postgresql+psycopg://postgres@127.0.0.1:5432/postgres]``. With
``--postgres`` the same is measured on a scratch database made on that server (and dropped
after). Prints, for each table and index: its size once ``--urls`` URLs are queued, the bytes a
queued URL costs, and what each fetched page adds (``--pages`` pages completed through
``complete_and_claim`` with 40 links each, 4 of them new, as ``frontier_bench.py``'s pages);
then those figures for 10,000,000 URLs all fetched. Sizes come from the engines themselves:
SQLite's ``dbstat`` (pages in use), PostgreSQL's ``pg_relation_size`` (heap or index, after a
``VACUUM ANALYZE``). Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

import sqlalchemy

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from politecrawl.store import Frontier, Lease, LinkOut, ends, open_database

_BATCH = 5_000
_LINKS = 40
_NEW_LINKS = 4
_TEN_MILLION = 10_000_000


def _urls(count: int, start: int, hosts: int) -> list[str]:
    return [
        f"http://www.h{i % hosts}.example/section/{i // hosts % 97}/page-{i}.html"
        for i in range(start, start + count)
    ]


def _fill(frontier: Frontier, count: int, hosts: int) -> float:
    now = datetime.now(UTC)
    started = time.perf_counter()
    for start in range(0, count, _BATCH):
        frontier.add(_urls(min(_BATCH, count - start), start, hosts), now=now)
    return time.perf_counter() - started


def _complete(frontier: Frontier, pages: int, total: int, hosts: int) -> float:
    """``pages`` pages fetched, each with 40 links: 36 to queued URLs (a menu), 4 new."""
    now = datetime.now(UTC)
    menu = [LinkOut(url, canonical=True) for url in _urls(_LINKS - _NEW_LINKS, 0, hosts)]
    lease = frontier.claim("sizes", now=now)
    started = time.perf_counter()
    for page in range(pages):
        assert isinstance(lease, Lease), lease
        new = _urls(_NEW_LINKS, total + page * _NEW_LINKS, hosts)
        links = (*menu, *(LinkOut(url, canonical=True) for url in new))
        outcome = ends.PageOutcome(
            200, content_type="text/html", content_hash="0" * 64, size_bytes=52_000
        )
        completion = ends.Completed(lease, outcome, next_fetch_at=now, links=links)
        ended = frontier.record(completion, now=now, claim_for="sizes")
        _, lease = ended.recorded, ended.following
    return time.perf_counter() - started


def _sqlite_sizes(engine: sqlalchemy.Engine) -> dict[str, int]:
    with engine.connect() as connection:
        rows = connection.exec_driver_sql(
            "SELECT name, SUM(pgsize - unused) FROM dbstat GROUP BY name"
        )
        # sqlite_autoindex_* are the unique and composite primary keys' indexes: kept.
        return {name: int(size) for name, size in rows if name != "sqlite_schema"}


def _postgres_sizes(engine: sqlalchemy.Engine) -> dict[str, int]:
    with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        connection.exec_driver_sql("VACUUM ANALYZE")
        rows = connection.exec_driver_sql(
            "SELECT c.relname, pg_relation_size(c.oid) FROM pg_class c "
            "JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'i')"
        )
        return {name: int(size) for name, size in rows}


def _measure(target: str, options: argparse.Namespace) -> None:
    database = open_database(target)
    sizes = _sqlite_sizes if database.is_sqlite else _postgres_sizes
    frontier = Frontier(database, default_delay_seconds=0.0)
    fill_seconds = _fill(frontier, options.urls, options.hosts)
    queued = sizes(database.engine)
    complete_seconds = _complete(frontier, options.pages, options.urls, options.hosts)
    fetched = sizes(database.engine)
    database.close()
    engine = "SQLite" if database.is_sqlite else "PostgreSQL"
    print(
        f"\n{engine}: {options.urls:,} URLs on {options.hosts} hosts queued in "
        f"{fill_seconds:.0f} s;"
        f" {options.pages:,} pages fetched ({_LINKS} links each, {_NEW_LINKS} new) in "
        f"{complete_seconds:.0f} s"
    )
    header = (
        f"{'table or index':<36} {'at ' + format(options.urls, ',') + ' queued':>18} "
        f"{'B a queued URL':>15} {'B a fetched page':>17} {'10M fetched':>12}"
    )
    print(header)
    total_queued = total_page = 0.0
    small = 0.0
    for name in sorted(fetched, key=lambda n: -fetched[n]):
        at_fill = queued.get(name, 0)
        per_url = at_fill / options.urls
        # What a page adds: its own row's growth, its links, and the 4 URLs it discovers; a
        # URL of a crawl whose every URL is fetched costs its queued row plus the rest.
        per_page = (fetched[name] - at_fill) / options.pages
        ten_million = _TEN_MILLION * (per_url + per_page - _NEW_LINKS * per_url)
        total_queued += per_url
        total_page += per_page
        if fetched[name] < 2**20:  # hosts, origins, runs, empty tables: a page or a few
            small += fetched[name]
            continue
        print(
            f"{name:<36} {at_fill / 2**20:>15.1f} MB {per_url:>15.1f} {per_page:>17.1f} "
            f"{ten_million / 2**30:>9.2f} GB"
        )
    print(f"{'(the other tables and indexes)':<36} {small / 2**20:>15.1f} MB")
    all_fetched = _TEN_MILLION * (total_queued + total_page - _NEW_LINKS * total_queued)
    print(
        f"{'all':<36} {sum(queued.values()) / 2**20:>15.1f} MB {total_queued:>15.1f} "
        f"{total_page:>17.1f} {all_fetched / 2**30:>9.2f} GB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--hosts", type=int, default=200)
    parser.add_argument("--pages", type=int, default=50_000)
    parser.add_argument("--postgres", help="a server URL; a scratch database is made there")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        _measure(str(Path(folder) / "sizes.db"), options)
    if options.postgres:
        scratch = f"politecrawl_sizes_{os.getpid()}"
        server = sqlalchemy.create_engine(options.postgres, isolation_level="AUTOCOMMIT")
        with server.connect() as connection:
            connection.exec_driver_sql(f"CREATE DATABASE {scratch}")
        try:
            url = sqlalchemy.make_url(options.postgres).set(database=scratch)
            _measure(url.render_as_string(hide_password=False), options)
        finally:
            with server.connect() as connection:
                connection.exec_driver_sql(f"DROP DATABASE {scratch} WITH (FORCE)")
            server.dispose()


if __name__ == "__main__":
    main()
