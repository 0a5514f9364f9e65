"""A server's pace as plain arithmetic: which server an address is, its gap, its slot at claim,
and when a host's address is learnt again [P6]."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.politeness import (
    address_is_stale,
    exempt_networks,
    server_delay,
    server_of,
    server_slot_at_claim,
    slot_at_claim,
)

E0 = datetime(2026, 1, 1, tzinfo=UTC).timestamp()


@pytest.mark.parametrize(
    ("address", "server"),
    [
        ("127.0.0.70", "127.0.0.70"),
        ("2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"),
        ("[2001:db8:1:2::9]", "2001:db8:1:2::/64"),
        ("::ffff:192.0.2.7", "192.0.2.7"),  # an IPv4 address written as IPv6 is that address
        ("not an address", None),
    ],
)
def test_p6_a_server_is_an_ipv4_address_or_an_ipv6_slash_64(address, server):
    assert server_of(address) == server


def test_p6_an_address_of_an_exempt_network_is_no_server():
    exempt = exempt_networks(["192.0.2.0/24", " 2001:db8::/32 "])
    assert server_of("192.0.2.7", exempt) is None
    assert server_of("2001:db8:5::1", exempt) is None
    assert server_of("198.51.100.1", exempt) == "198.51.100.1"


def test_p6_the_server_gap_is_the_setting_or_the_smallest_delay_of_its_hosts():
    # Hosts at the configured 1 s, one asking 5 s (a Crawl-delay): the others' 1 s.
    assert server_delay(None, 1.0, [0.0, 5.0, 0.0]) == 1.0
    # Every host asking more: the smallest of what they ask.
    assert server_delay(None, 1.0, [3.0, 5.0]) == 3.0
    assert server_delay(0.5, 1.0, [3.0, 5.0]) == 0.5
    assert server_delay(None, 1.0, []) == 0.0


def test_p6_a_claim_starts_when_host_and_server_are_both_due():
    # The server is due later than the host: the lease waits for the server.
    start, host_next, server_next = server_slot_at_claim(
        E0, E0 + 0.4, E0, host_delay_seconds=1.0, server_delay_seconds=0.5
    )
    assert (start - E0, host_next - E0, server_next - E0) == pytest.approx((0.4, 1.4, 0.9))
    # Both due in the past: now.
    start, host_next, server_next = server_slot_at_claim(
        E0 - 5, E0 - 3, E0, host_delay_seconds=1.0, server_delay_seconds=2.0
    )
    assert (start, host_next, server_next) == (E0, E0 + 1.0, E0 + 2.0)


def test_p6_a_server_due_no_later_than_its_host_claims_it_as_the_host_alone():
    """A server with one host name (its gap the host's delay) never moves the host's slot."""
    for host_due, server_due in ((E0, E0), (E0 + 0.3, E0 + 0.1), (E0 - 1, E0 - 2)):
        start, host_next, _ = server_slot_at_claim(
            host_due, server_due, E0, host_delay_seconds=1.0, server_delay_seconds=1.0
        )
        assert (start, host_next) == slot_at_claim(host_due, E0, 1.0)


def test_p6_an_address_is_learnt_again_once_older_than_the_setting():
    now = datetime(2026, 1, 1, tzinfo=UTC)
    assert address_is_stale(None, now, max_age_seconds=300)
    assert not address_is_stale(now - timedelta(seconds=299), now, max_age_seconds=300)
    assert address_is_stale(now - timedelta(seconds=300), now, max_age_seconds=300)
