"""The once-a-second housekeeping reads the partial indexes, however PostgreSQL plans it [C5].

psycopg prepares a statement it has run five times, and PostgreSQL may then plan it
generically, without the values of its parameters. A partial index (``WHERE state =
'leased'``) matches only a constant: with the state bound, the generic plan read every URL of
the crawl at each housekeeping (134 ms at 1.07 million URLs instead of 0.006 ms), and the
million-URL benchmark slowed from 318 to 165 requests a second as its frontier grew.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from sqlalchemy import func, select, text
from sqlalchemy.dialects import postgresql

from politecrawl.store import Frontier, open_database
from politecrawl.store.frontier.leases import due_deferred, expired_leases
from politecrawl.store.schema import DEFERRED, LEASED, in_state, urls_table

pytestmark = pytest.mark.postgres
NOW = datetime(2026, 1, 1, tzinfo=UTC)
URLS = urls_table.c
DEFERRED_INDEX = "ix_urls_deferred_until"


def generic_plan(connection, statement, given: dict | None = None) -> str:
    """EXPLAIN of ``statement`` prepared and planned without its parameters' values (``given``:
    those of parameters it does not bind itself)."""
    compiled = statement.compile(
        dialect=postgresql.psycopg.dialect(), compile_kwargs={"render_postcompile": True}
    )
    names: list[str] = []

    def positional(match: re.Match[str]) -> str:
        names.append(match[1])
        return f"${len(names)}"

    sql = re.sub(r"%\((\w+)\)s", positional, compiled.string)
    values = [(given or {}).get(name, compiled.params[name]) for name in names]
    values = [value.timestamp() if isinstance(value, datetime) else value for value in values]
    connection.execute(text("SET plan_cache_mode = force_generic_plan"))
    connection.exec_driver_sql(f"PREPARE housekeeping AS {sql}")
    try:
        arguments = ", ".join(repr(value) for value in values)
        call = f"EXECUTE housekeeping({arguments})" if values else "EXECUTE housekeeping"
        rows = connection.exec_driver_sql(f"EXPLAIN {call}").scalars()
        return "\n".join(rows)
    finally:
        connection.exec_driver_sql("DEALLOCATE housekeeping")


@pytest.fixture
def crowded(tmp_path):
    """A crawl database on PostgreSQL with 3,000 queued URLs on 30 hosts, analysed."""
    from tests.store.conftest import postgres_schema_url, require_postgres

    require_postgres()
    targets = postgres_schema_url()
    url = next(targets)
    database = open_database(url)
    try:
        frontier = Frontier(database)
        frontier.add([f"http://h{i % 30}.test/p{i}" for i in range(3000)], now=NOW, depth=0)
        with database.engine.begin() as connection:
            connection.execute(text("ANALYZE"))
        yield database
    finally:
        database.close()
        targets.close()


@pytest.mark.parametrize(
    ("statement", "index"),
    [
        (expired_leases(NOW, ["gone:1"]), "ix_urls_lease_expiry"),
        (select(URLS.id).where(due_deferred(NOW)), DEFERRED_INDEX),
        (
            select(func.min(URLS.next_attempt_at)).where(in_state(DEFERRED)),
            "ix_urls_deferred_until",
        ),
        (select(func.min(URLS.lease_expires_at)).where(in_state(LEASED)), "ix_urls_lease_expiry"),
    ],
    ids=["expired leases", "due deferred", "next deferred", "next expiry"],
)
def test_c5_housekeeping_reads_its_partial_index_in_a_generic_plan(crowded, statement, index):
    with crowded.engine.connect() as connection:
        plan = generic_plan(connection, statement)
    assert index in plan, plan
    assert "Seq Scan on urls" not in plan, plan


def test_c5_a_bound_state_would_not_read_the_partial_index(crowded):
    """The reason for ``in_state``: the same query with the state bound reads the table."""
    bound = select(URLS.id).where(URLS.state == LEASED, URLS.lease_expires_at < NOW)
    with crowded.engine.connect() as connection:
        plan = generic_plan(connection, bound)
    assert "ix_urls_lease_expiry" not in plan, plan


def test_p3_a_claim_after_a_failure_finds_its_url_through_the_claim_index(crowded):
    """The claim's two look-ups after a failure of the host (a fresh URL, else one to retry)
    both walk ix_urls_claim."""
    from politecrawl.store.frontier.claim_statements import LEASE_BEST_FRESH_URL_SQL

    given = {"for_host": 1, "owner": "w1", "expires_at": NOW, "server_id": 1}
    with crowded.engine.connect() as connection:
        plan = generic_plan(connection, LEASE_BEST_FRESH_URL_SQL, given)
    assert plan.count("ix_urls_claim") >= 2, plan
    assert "Seq Scan on urls" not in plan, plan
