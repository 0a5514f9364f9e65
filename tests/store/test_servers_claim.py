"""The claim takes a host's server slot with the host's, on SQLite and PostgreSQL [P6, P1, P2, C5].

Host names learn their server from an address a lease's end brings (here: a ``Released`` end,
as the crawl's first visit of a host makes it). Times are explicit: the store decides every
lease's start (``Lease.claimed_at``), so gaps are checked exactly, not timed.
"""

from __future__ import annotations

import itertools
import threading
from collections import Counter
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from politecrawl.politeness import HostPace
from politecrawl.store import (
    Frontier,
    HostAddress,
    Lease,
    ServerSettings,
    Wait,
    ends,
    open_database,
    worker_id,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
SHARED = "127.0.0.70"
ALONE = "127.0.0.71"
ADDRESSES = {"a.test": SHARED, "b.test": SHARED, "c.test": SHARED, "d.test": ALONE}


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


SERVERS = ServerSettings()


def frontier_on(database, servers: ServerSettings | None = SERVERS) -> Frontier:
    return Frontier(database, default_delay_seconds=1.0, lease_seconds=60.0, servers=servers)


def claim(frontier: Frontier, seconds: float, worker: str = "w1") -> Lease | Wait:
    return frontier.claim(worker, now=at(seconds))


def learn_servers(frontier: Frontier, seconds: float = 0.0) -> None:
    """Each host's first lease gives its address back, as the crawl's first visit does."""
    learn_servers_of(frontier, ADDRESSES, seconds)


def done(frontier: Frontier, lease: Lease, seconds: float) -> None:
    end = ends.Completed(lease, ends.PageOutcome(200), at(seconds + 1.0))
    assert frontier.record(end, now=at(seconds)).recorded


def queue(frontier: Frontier, pages: int = 3) -> None:
    urls = [f"http://{host}/p{page}" for host in ADDRESSES for page in range(pages)]
    frontier.add(urls, now=T0)


def server_row(database, address: str) -> tuple:
    with database.engine.connect() as connection:
        return connection.execute(
            text("SELECT in_flight, next_fetch_at, delay_seconds FROM servers WHERE address = :a"),
            {"a": address},
        ).one()


def test_p6_host_names_on_one_server_share_its_requests_in_flight_and_its_gap(database):
    frontier = frontier_on(database)
    queue(frontier)
    learn_servers(frontier)
    first = claim(frontier, 0)
    assert isinstance(first, Lease)
    assert first.server is not None
    alone = claim(frontier, 0)
    # The shared server took one request at 0: its other hosts wait for its gap (1 s, the
    # smallest delay of its hosts); the host on its own address goes on.
    assert isinstance(alone, Lease)
    assert {first.host, alone.host} == {"a.test", "d.test"}
    waiting = claim(frontier, 0.5)
    assert isinstance(waiting, Wait)
    assert waiting.until == at(1.0)
    second = claim(frontier, 1.0)
    assert isinstance(second, Lease)
    assert second.host in ("b.test", "c.test")
    assert second.claimed_at == at(1.0)
    # Two in flight on the server: the third host waits, however due, until one ends.
    assert isinstance(claim(frontier, 5.0), Wait)
    assert server_row(database, SHARED)[0] == 2
    done(frontier, first, 5.0)
    third = claim(frontier, 5.0)
    assert isinstance(third, Lease)
    assert third.host not in (first.host, second.host, "d.test")


def test_p6_politeness_unit_host_paces_each_host_alone(database):
    frontier = frontier_on(database, servers=None)
    queue(frontier)
    learn_servers(frontier)  # the addresses are not recorded: no server is known
    hosts = set()
    for _ in ADDRESSES:
        lease = claim(frontier, 0)
        assert isinstance(lease, Lease)
        assert lease.server is None
        hosts.add(lease.host)
    assert hosts == set(ADDRESSES)


def test_p6_a_server_with_one_host_name_paces_it_as_the_host_alone(database):
    """P6's promise: the host's own delay (end to start) decides; the server never does."""
    frontier = frontier_on(database)
    frontier.add([f"http://d.test/p{page}" for page in range(4)], now=T0)
    learn_servers_of(frontier, {"d.test": ALONE})
    seconds = 0.0
    for _ in range(3):
        lease = claim(frontier, seconds)
        assert isinstance(lease, Lease)
        assert lease.claimed_at == at(seconds)  # the host is due: so is its server
        done(frontier, lease, seconds + 0.3)  # ends at +1.3: due again 1 s later
        seconds += 2.3


def learn_servers_of(frontier: Frontier, addresses: dict[str, str], seconds: float = 0.0) -> None:
    """One lease of each host (none knows its server yet), each given back with its address."""
    leases = [claim(frontier, seconds) for _ in addresses]
    assert {lease.host for lease in leases if isinstance(lease, Lease)} == set(addresses)
    for lease in leases:
        assert isinstance(lease, Lease)
        assert lease.server is None
        address = HostAddress(addresses[lease.host], addresses[lease.host], at(seconds))
        end = ends.Released(lease, lease.claimed_at, address=address)
        assert frontier.record(end, now=at(seconds)).recorded


def test_p6_the_server_gap_is_the_smallest_delay_of_its_hosts_or_the_setting(database):
    frontier = frontier_on(database)
    queue(frontier)
    learn_servers(frontier)
    lease = claim(frontier, 0)
    assert isinstance(lease, Lease)
    # Its host asks for 5 s (a Crawl-delay): the server keeps the others' 1 s.
    pace = HostPace(5.0, at(6.0), 0, 0.0, None, "robots.txt", 0.01, 5.0)
    end = ends.Completed(lease, ends.PageOutcome(200), at(6.0), host_pace=pace)
    frontier.record(end, now=at(1.0))
    assert server_row(database, SHARED)[2] == 1.0

    fixed = Frontier(database, servers=ServerSettings(max_in_flight=2, delay_seconds=0.25))
    fixed.add(["http://e.test/"], now=T0)
    first = fixed.claim("w1", now=at(10))
    assert isinstance(first, Lease)
    address = HostAddress("127.0.0.72", "127.0.0.72", at(10))
    fixed.record(ends.Released(first, first.claimed_at, address=address), now=at(10))
    assert server_row(database, "127.0.0.72")[2] == 0.25


def test_p6_a_lease_without_a_request_gives_its_server_back_the_start_it_took(database):
    frontier = frontier_on(database)
    queue(frontier)
    learn_servers(frontier)
    lease = claim(frontier, 0)
    assert isinstance(lease, Lease)
    assert lease.server is not None
    _, taken, _ = server_row(database, lease.server.server)
    assert taken == at(1.0).timestamp()
    excluded = ends.Excluded(lease, state="excluded", reason="robots")
    frontier.record(excluded, now=at(0.1))
    in_flight, next_at, _ = server_row(database, lease.server.server)
    assert (in_flight, next_at) == (0, at(0).timestamp())


def test_p6_c5_a_lost_lease_frees_its_server_slot_and_the_server_keeps_its_gap(database):
    frontier = Frontier(database, lease_seconds=10.0, servers=ServerSettings())
    queue(frontier)
    learn_servers(frontier)
    lease = claim(frontier, 0)
    assert isinstance(lease, Lease)
    assert frontier.release_expired(now=at(30)) == 1
    in_flight, next_at, _ = server_row(database, SHARED)
    # The lost request may still be ending on the server: its gap runs again from now.
    assert (in_flight, next_at) == (0, at(31).timestamp())


def test_p6_an_exempt_address_is_no_server_and_a_new_address_moves_the_host(database):
    frontier = frontier_on(database)
    frontier.add(["http://cdn.test/1", "http://cdn.test/2", "http://cdn.test/3"], now=T0)
    lease = claim(frontier, 0)
    assert isinstance(lease, Lease)
    exempt = HostAddress("192.0.2.7", None, T0)  # politeness.server_of gave none: a CDN's
    frontier.record(ends.Released(lease, lease.claimed_at, address=exempt), now=T0)
    again = claim(frontier, 0)
    assert isinstance(again, Lease)
    assert again.server is None
    assert (again.address, again.address_resolved_at) == ("192.0.2.7", T0)
    moved = HostAddress("127.0.0.73", "127.0.0.73", at(400))
    end = ends.Completed(again, ends.PageOutcome(200), at(401), address=moved)
    frontier.record(end, now=at(400))
    third = claim(frontier, 401)
    assert isinstance(third, Lease)
    assert third.server is not None
    assert (third.server.server, third.address) == ("127.0.0.73", "127.0.0.73")


@pytest.mark.parametrize("threads", [8])
def test_p6_c5_threads_claiming_together_never_pass_a_servers_cap_or_gap(database_url, threads):
    """Concurrent claims on one database (PostgreSQL: read committed, SKIP LOCKED): the
    server's in flight never above its cap, its leases' starts never closer than its gap."""
    database = open_database(database_url)
    gap = 0.05
    try:
        frontier = Frontier(
            database,
            default_delay_seconds=0.0,
            lease_seconds=60.0,
            servers=ServerSettings(max_in_flight=2, delay_seconds=gap),
        )
        names = [f"h{index}.test" for index in range(12)]
        frontier.add([f"http://{name}/p{page}" for name in names for page in range(3)], now=T0)
        learn_servers_of(frontier, dict.fromkeys(names, SHARED))
        starts: list[datetime] = []
        in_flight = Counter[str]()
        most = Counter[str]()
        lock = threading.Lock()

        def work(index: int) -> None:
            me = worker_id(f"t{index}")
            while True:
                claimed = frontier.claim(me, now=lambda: datetime.now(UTC))
                if isinstance(claimed, Wait):
                    if claimed.until is None:
                        return
                    threading.Event().wait(0.005)
                    continue
                with lock:
                    in_flight[SHARED] += 1
                    most[SHARED] = max(most[SHARED], in_flight[SHARED])
                    starts.append(claimed.claimed_at)
                threading.Event().wait(0.08)  # the "request": longer than the gap, so the cap binds
                with lock:
                    in_flight[SHARED] -= 1
                end = ends.Completed(claimed, ends.PageOutcome(200), datetime.now(UTC))
                frontier.record(end, now=datetime.now(UTC))

        workers = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join(timeout=120)
        assert len(starts) == len(names) * 3
        assert most[SHARED] <= 2
        ordered = sorted(starts)
        gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(ordered)]
        assert min(gaps) >= gap - 1e-6, min(gaps)
        assert server_row(database, SHARED)[0] == 0
    finally:
        database.close()


def test_p6_c5_a_slot_freed_early_is_not_freed_again_when_its_lease_is_lost(database):
    """``Answered`` gives the server its slot back as soon as the response is read; should
    the lease then be lost (its process killed before the end), the slot is not given twice."""
    frontier = Frontier(database, lease_seconds=10.0, servers=ServerSettings())
    queue(frontier)
    learn_servers(frontier)
    first = claim(frontier, 0)
    assert isinstance(claim(frontier, 0), Lease)  # d.test, on its own server
    second = claim(frontier, 1.0)
    assert isinstance(first, Lease)
    assert isinstance(second, Lease)
    assert first.server is not None
    assert second.server is not None
    assert server_row(database, SHARED)[0] == 2
    pace = HostPace(1.0, at(2.0), 0, 0.0, None, "delay", 0.01, None)
    assert frontier.record(ends.Answered(first, pace), now=at(1.0)).recorded
    assert server_row(database, SHARED)[0] == 1
    assert frontier.release_expired(now=at(10.5)) == 2  # the first lease, lost (and d.test's)
    assert server_row(database, SHARED)[0] == 1  # the second's, still in flight
