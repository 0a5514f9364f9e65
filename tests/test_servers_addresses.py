"""How the crawl learns a host's server, and sends a server's requests [P6]: the first lease of a
host gives itself back with the host's address before any request; an answer's address is news
when it differs or the stored one grew old; a request holding a server slot leaves no sooner
than the server's gap after this process's last one, however late its thread woke."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from politecrawl.config import PolitenessSettings
from politecrawl.crawl.addresses import Addresses, servers_of
from politecrawl.crawl.visit_result import Ended
from politecrawl.fetch import FetchResult
from politecrawl.store import Lease, ServerSettings, ends
from politecrawl.store.frontier.values import ServerSlot
from politecrawl.testing import FakeClock, ScriptedFetcher

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def lease(host: str = "a.test", **fields) -> Lease:
    values = {
        "url_id": 1,
        "url": f"http://{host}/",
        "origin": f"http://{host}",
        "host": host,
        "depth": 0,
        "attempts": 0,
        "owner": "w1",
        "expires_at": T0 + timedelta(minutes=2),
        "pass_number": 1,
        "claimed_at": T0,
    }
    return Lease(**(values | fields))


def addresses(clock: FakeClock, **settings) -> Addresses:
    fetcher = ScriptedFetcher({}, addresses={"a.test": "127.0.0.70", "cdn.test": "192.0.2.9"})
    return Addresses(PolitenessSettings(**settings), fetcher, clock)


def answer(peer: str | None, resolved_at: datetime | None) -> FetchResult:
    return FetchResult(
        "http://a.test/", 200, (), b"", False, 0.01, None, None, None, peer, resolved_at
    )


def test_p6_a_hosts_first_lease_gives_itself_back_with_the_hosts_address():
    clock = FakeClock(T0)
    learnt = addresses(clock).before_first_request(lease())
    assert isinstance(learnt, Ended)
    assert isinstance(learnt.end, ends.Released)
    assert learnt.end.next_fetch_at == T0  # no request was made: the host is due again
    address = learnt.end.address
    assert address is not None
    assert (address.address, address.server) == ("127.0.0.70", "127.0.0.70")


def test_p6_no_address_is_learnt_twice_nor_for_an_unknown_name_nor_per_host():
    clock = FakeClock(T0)
    known = lease(address="127.0.0.70", address_resolved_at=T0)
    assert addresses(clock).before_first_request(known) is None
    assert addresses(clock).before_first_request(lease("nowhere.test")) is None
    assert addresses(clock, politeness_unit="host").before_first_request(lease()) is None
    assert servers_of(PolitenessSettings(politeness_unit="host")) is None


def test_p6_an_exempt_network_gives_an_address_but_no_server():
    clock = FakeClock(T0)
    learnt = addresses(clock, server_exempt_networks=("192.0.2.0/24",)).before_first_request(
        lease("cdn.test")
    )
    assert isinstance(learnt, Ended)
    assert isinstance(learnt.end, ends.Released)
    assert learnt.end.address is not None
    assert learnt.end.address.server is None


def test_p6_an_answers_address_is_news_when_another_or_when_the_stored_one_grew_old():
    clock = FakeClock(T0)
    learning = addresses(clock, address_max_age_seconds=300.0)
    known = lease(address="127.0.0.70", address_resolved_at=T0)
    assert learning.seen(known, answer("127.0.0.70", T0)) is None
    moved = learning.seen(known, answer("127.0.0.71", T0 + timedelta(seconds=5)))
    assert moved is not None
    assert (moved.server, moved.resolved_at) == ("127.0.0.71", T0 + timedelta(seconds=5))
    clock.advance(301)
    renewed = learning.seen(known, answer("127.0.0.70", T0 + timedelta(seconds=301)))
    assert renewed is not None
    assert renewed.resolved_at == T0 + timedelta(seconds=301)
    assert learning.seen(known, answer(None, None)) is None  # a scripted answer: no address


def test_p6_a_server_gets_its_gap_after_this_processs_last_request_whatever_its_leases_say():
    clock = FakeClock(T0)
    sending = addresses(clock)
    slot = ServerSlot(1, "127.0.0.70", 0.0, 1.0)
    first = lease(server=slot, claimed_at=T0)
    second = lease("b.test", server=slot, claimed_at=T0 + timedelta(seconds=1))
    clock.advance(0.3)  # the first thread woke late for its start: its request leaves now
    sending.wait_to_send(first)
    assert clock.now() == T0 + timedelta(seconds=0.3)
    sending.wait_to_send(second)  # its lease starts at 1.0: the server's gap says 1.3
    assert clock.now() == T0 + timedelta(seconds=1.3)
    alone = lease("d.test", claimed_at=T0 + timedelta(seconds=2))
    sending.wait_to_send(alone)  # no server slot: its start only
    assert clock.now() == T0 + timedelta(seconds=2)


def test_p6_a_server_never_allows_fewer_in_flight_than_one_host():
    settings = PolitenessSettings(max_in_flight_per_server=2, max_in_flight_per_host=4)
    assert servers_of(settings) == ServerSettings(max_in_flight=4, delay_seconds=None)
    assert servers_of(PolitenessSettings(server_delay_seconds=0.5)) == ServerSettings(2, 0.5)
