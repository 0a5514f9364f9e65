"""Servers as people see them: ``status`` and the live display say when hosts wait for their
server, ``why`` names the server a URL waited for, the report lists servers with more than one
host name [P6]."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.cli.main import main
from politecrawl.cli.progress import describe_wait
from politecrawl.politeness import SERVER_WAIT, HostQueue, time_left
from politecrawl.report import build_report, render_json, render_text
from politecrawl.store import (
    Frontier,
    HostAddress,
    Lease,
    ServerSettings,
    ends,
    open_database,
)
from politecrawl.store.reading import host_waits, server_of_host, shared_servers

T0 = datetime(2026, 1, 1, tzinfo=UTC)
SHARED = "127.0.0.70"
ADDRESSES = {"a.test": SHARED, "b.test": SHARED, "c.test": SHARED, "d.test": "127.0.0.71"}


@pytest.fixture
def crawl_db(tmp_path):
    """A crawl whose a, b and c share 127.0.0.70, d on its own; a.test's lease in flight now,
    so that b.test and c.test wait for their server (its gap: an hour)."""
    path = str(tmp_path / "crawl.db")
    database = open_database(path)
    frontier = Frontier(database, servers=ServerSettings(max_in_flight=2, delay_seconds=3600.0))
    frontier.add([f"http://{host}/p{page}" for host in ADDRESSES for page in range(3)], now=T0)
    now = datetime.now(UTC)
    leases = [frontier.claim("w1", now=now) for _ in ADDRESSES]
    for lease in leases:
        assert isinstance(lease, Lease)
        address = HostAddress(ADDRESSES[lease.host], ADDRESSES[lease.host], now)
        frontier.record(ends.Released(lease, lease.claimed_at, address=address), now=now)
    first = frontier.claim("w1", now=now)
    assert isinstance(first, Lease)
    assert first.host == "a.test"
    database.close()
    return path


def test_p6_status_says_which_hosts_wait_for_their_server(crawl_db, capsys):
    assert main(["status", "--db", crawl_db]) == 0
    out = capsys.readouterr().out
    assert f"b.test: 3 queued, 0 deferred; its server {SHARED} (3600 s between its" in out
    assert f"2 hosts waiting for their server: {SHARED}" in out
    assert "d.test: 3 queued, 0 deferred; ready" in out


def test_p6_why_names_the_server_a_url_waited_for(crawl_db, capsys):
    assert main(["why", "http://b.test/p1", "--db", crawl_db]) == 0
    out = capsys.readouterr().out
    assert f"server: {SHARED}, shared by 3 host names (a.test, b.test, c.test)" in out
    assert "at most 2 in flight, 3600 s between their starts (P6)" in out
    # A host alone on its server: nothing to say.
    assert main(["why", "http://d.test/p1", "--db", crawl_db]) == 0
    assert "server:" not in capsys.readouterr().out


def test_p6_the_report_lists_servers_with_more_than_one_host_name(crawl_db):
    database = open_database(crawl_db, create=False)
    try:
        assert [server.server for server in shared_servers(database)] == [SHARED]
        alone = server_of_host(database, "d.test")
        assert alone is not None
        assert alone.hosts == ("d.test",)
        report = build_report(database, agent="politecrawl")
    finally:
        database.close()
    text = render_text(report)
    assert "Servers shared by host names" in text
    line = next(line for line in text.splitlines() if line.strip().startswith(SHARED))
    assert "a.test" in line
    assert "at most 2 in flight, 3600 s between starts" in line
    assert '"shared_servers"' in render_json(report)


def test_p6_host_waits_say_the_server_is_full_when_it_is(crawl_db):
    database = open_database(crawl_db, create=False)
    try:
        now = datetime.now(UTC)
        waits = {wait.host: wait for wait in host_waits(database)}
    finally:
        database.close()
    assert waits["a.test"].server_wait(now) is None  # its own request is in flight
    assert waits["c.test"].server == SHARED
    assert waits["d.test"].server_wait(now) is None


def test_p6_the_live_display_counts_hosts_waiting_for_their_server_and_the_time_it_bounds():
    now = T0
    on_server = [
        HostQueue(name, 10, 0, 1.0, now, SERVER_WAIT, SHARED, 1.0) for name in ("a", "b", "c")
    ]
    alone = HostQueue("d", 12, 0, 1.0, now, "delay", "127.0.0.71", 1.0)
    # Three names of ten pages through one server's 1 s gap: 29 s, more than d's 11 s alone.
    assert time_left([*on_server, alone], now=now) == (29.0, SHARED)
    text = describe_wait([*on_server, alone], now)
    assert text.startswith(f"~29s (busiest {SHARED}: 30 queued on 3 host names, 1 s apart)")
    assert text.endswith("3 hosts waiting: 3 for their server")
    later = HostQueue("e", 2, 0, 1.0, now + timedelta(seconds=5), "delay")
    assert time_left([later], now=now) == (6.0, "e")
