"""A host name's address as the HTTP edge learns it: every answer says which address its
connection reached and when it was resolved; a pooled connection older than the setting is not
reused, so the name is resolved again [P6]."""

from __future__ import annotations

import socket
from datetime import UTC, datetime

import pytest
from tests.site import Page, Site, serve
from tests.site.model import OriginSpec

from politecrawl.errors import FetchError
from politecrawl.fetch import AddressGuard, Fetcher

ADDRESS = "127.0.0.71"


def one_origin() -> Site:
    pages = {"/": Page(b"<p>home</p>"), "/a.html": Page(b"<p>a</p>")}
    return Site(0, (OriginSpec("named", ADDRESS, pages),), 0.0)


def counting_guard(calls: list[str], *, max_age: float | None) -> AddressGuard:
    def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        return [ADDRESS]

    return AddressGuard(
        resolver=resolve, allowed_hosts=lambda: {"named.test"}, max_address_age_seconds=max_age
    )


def test_p6_an_answer_carries_the_address_its_connection_reached_and_when_it_was_resolved():
    calls: list[str] = []
    before = datetime.now(UTC)
    with (
        serve(one_origin()) as web,
        Fetcher(
            user_agent="politecrawl/test", address_guard=counting_guard(calls, max_age=None)
        ) as fetcher,
    ):
        port = web.site.origin("named").port
        first = fetcher.fetch(f"http://named.test:{port}/")
        second = fetcher.fetch(f"http://named.test:{port}/a.html")
    assert (first.peer_address, second.peer_address) == (ADDRESS, ADDRESS)
    assert first.resolved_at is not None
    assert first.resolved_at >= before
    # One connection, kept alive: resolved once, and the second answer says so.
    assert calls == ["named.test"]
    assert second.resolved_at == first.resolved_at


def test_p6_a_connection_older_than_the_address_age_is_not_reused_the_name_is_resolved_again():
    calls: list[str] = []
    with (
        serve(one_origin()) as web,
        Fetcher(
            user_agent="politecrawl/test", address_guard=counting_guard(calls, max_age=0.0)
        ) as fetcher,
    ):
        port = web.site.origin("named").port
        first = fetcher.fetch(f"http://named.test:{port}/")
        second = fetcher.fetch(f"http://named.test:{port}/a.html")
    assert calls == ["named.test", "named.test"]
    assert second.resolved_at is not None
    assert first.resolved_at is not None
    assert second.resolved_at >= first.resolved_at


def test_p6_the_fetcher_tells_a_host_names_address_before_any_request():
    calls: list[str] = []
    fetcher = Fetcher(
        user_agent="politecrawl/test", address_guard=counting_guard(calls, max_age=None)
    )
    found = fetcher.address_of("http://named.test:8080/page")
    assert found is not None
    assert found[0] == ADDRESS
    # A name that may not be reached, or does not resolve: none (its request will say why).
    refused = Fetcher(
        user_agent="politecrawl/test",
        address_guard=AddressGuard(resolver=lambda host, port: ["10.0.0.1"]),
    )
    assert refused.address_of("http://intranet.test/") is None
    assert (
        Fetcher(
            user_agent="politecrawl/test",
            address_guard=AddressGuard(resolver=lambda host, port: []),
        ).address_of("http://nowhere.test/")
        is None
    )


def test_p6_a_name_asked_before_its_first_request_is_looked_up_once_answer_or_failure():
    """The crawl asks a host's address before its first request, then connects: one look-up
    (issue 38: a name that does not resolve costs one look-up, however slow)."""
    calls: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        calls.append(host)
        if host == "missing.test":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return [ADDRESS]

    guard = AddressGuard(
        resolver=resolve, allowed_hosts=lambda: {"named.test"}, answer_reuse_seconds=30.0
    )
    with (
        serve(one_origin()) as web,
        Fetcher(user_agent="politecrawl/test", address_guard=guard) as fetcher,
    ):
        port = web.site.origin("named").port
        assert fetcher.address_of(f"http://named.test:{port}/") is not None
        assert fetcher.fetch(f"http://named.test:{port}/").peer_address == ADDRESS
        assert fetcher.address_of("http://missing.test/") is None
        with pytest.raises(FetchError, match="not"):
            fetcher.fetch("http://missing.test/")
    assert calls == ["named.test", "missing.test"]
