"""What a crawl costs its PostgreSQL server, per page (issue 14: where a bigger deployment's
ceiling is): ``run.py --postgres`` prints it after politecrawl's run.

``ServerLoad(url, schema)`` takes a snapshot when entered and another when left: the CPU time of
every ``postgres`` process on this machine (the server must run here), the database's commits,
rows and WAL bytes (``pg_stat_database``, ``pg_stat_wal``), and, for the bench's own schema,
rows inserted and updated per table and how many updates were HOT (heap-only: no index entry
written, possible only when no indexed column changes). ``report(pages)`` divides by the
requests the crawl made. Every figure but the per-table ones counts all the server's clients:
measure on a server nothing else uses meanwhile. A backend flushes its statistics at the latest
when it ends (the crawl's connections end with its processes); the snapshot after the run waits
a second for that.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import psutil

_DATABASE = """
SELECT xact_commit, tup_inserted, tup_updated, tup_deleted, blks_read + blks_hit
FROM pg_stat_database WHERE datname = current_database()
"""
_WAL = "SELECT wal_bytes FROM pg_stat_wal"
_TABLES = """
SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables
WHERE schemaname = %s ORDER BY relname
"""


@dataclass
class _Snapshot:
    cpu_seconds: float
    commits: int
    inserted: int
    updated: int
    deleted: int
    blocks: int
    wal_bytes: int


@dataclass
class ServerLoad:
    """The server's work between entering and leaving (see the module docstring)."""

    url: str  # libpq URL of the database
    schema: str
    before: _Snapshot | None = None
    after: _Snapshot | None = None
    tables: list[tuple[str, int, int, int]] = field(default_factory=list)

    def __enter__(self) -> ServerLoad:
        self.before = self._snapshot()
        return self

    def __exit__(self, *_exc: object) -> None:
        time.sleep(1.0)  # let every backend flush its statistics
        self.after = self._snapshot(with_tables=True)

    def _snapshot(self, *, with_tables: bool = False) -> _Snapshot:
        import psycopg  # noqa: PLC0415 (only with --postgres)

        with psycopg.connect(self.url, autocommit=True) as connection:
            connection.execute("SELECT pg_stat_clear_snapshot()")
            database = connection.execute(_DATABASE).fetchone()
            wal = connection.execute(_WAL).fetchone()
            if with_tables:
                rows = connection.execute(_TABLES, (self.schema,))
                self.tables = [tuple(row) for row in rows]
        assert database is not None
        assert wal is not None
        return _Snapshot(_server_cpu_seconds(), *map(int, database), int(wal[0]))

    def report(self, pages: int) -> str:
        """The figures per page, and what one server core could take at that cost."""
        assert self.before is not None
        assert self.after is not None
        if pages <= 0:
            return "PostgreSQL server: no pages"
        b, a = self.before, self.after

        def each(name: str) -> float:
            return (getattr(a, name) - getattr(b, name)) / pages

        cpu_ms = each("cpu_seconds") * 1000
        lines = [
            f"PostgreSQL server, per request of the crawl ({pages:,} requests):",
            f"  server CPU {cpu_ms:.2f} ms (every postgres process on this machine: "
            f"one server core takes about {1000 / cpu_ms:,.0f} requests/s at this cost)"
            if cpu_ms > 0
            else "  server CPU: not measured",
            f"  commits {each('commits'):.2f}, rows inserted {each('inserted'):.2f}, updated "
            f"{each('updated'):.2f}, deleted {each('deleted'):.2f}; buffers touched "
            f"{each('blocks'):.0f}; WAL {each('wal_bytes'):,.0f} bytes",
        ]
        for name, inserted, updated, hot in self.tables:
            if inserted or updated:
                share = f" ({hot / updated:.0%} HOT)" if updated else ""
                lines.append(
                    f"  {name:<22} inserted {inserted / pages:6.2f}  updated "
                    f"{updated / pages:6.2f}{share}"
                )
        return "\n".join(lines)


def _server_cpu_seconds() -> float:
    """User and system CPU of every process named postgres (the server and its backends), with
    their reaped children's (a backend that ended is counted in the postmaster's)."""
    total = 0.0
    for process in psutil.process_iter(["name", "cpu_times"]):
        if process.info["name"] == "postgres" and process.info["cpu_times"] is not None:
            times = process.info["cpu_times"]
            total += times.user + times.system + times.children_user + times.children_system
    return total
