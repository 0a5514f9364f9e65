"""The anti-steering guard at work: in the crawl, at connect time, through the CLI [C1, C4].

A public page must not steer the crawler into a loopback, private or link-local address (server-
side request forgery), whether the link writes the address (judged by scope with the page that
led there) or a name that resolves there (judged when connecting, the address pinned). Names
are answered by an injected resolver or ``--resolve``: never real DNS.
"""

from __future__ import annotations

import ipaddress
import os
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from politecrawl.errors import FetchError
from politecrawl.fetch import Fetcher
from politecrawl.fetch.connect import AddressGuard, SteeringRefusedError


class Server:
    """A tiny site on one loopback address, logging every request it gets."""

    def __init__(self, address: str, pages: dict[str, tuple[int, str, dict[str, str]]]) -> None:
        self.requests: list[tuple[str, str]] = []  # (Host header, path)
        log = self.requests

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as real servers

            def do_GET(self) -> None:
                log.append((self.headers.get("Host", ""), self.path))
                status, body, headers = pages.get(self.path, (404, "no", {}))
                data = body.encode()
                self.send_response(status)
                for name, value in {"Content-Type": "text/html", **headers}.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                pass

        self._server = ThreadingHTTPServer((address, 0), Handler)
        self.port = self._server.server_address[1]
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture
def secret_server() -> Iterator[Server]:
    server = Server("127.0.0.1", {"/secret": (200, "the admin page", {})})
    yield server
    server.close()


# --- the guard ----------------------------------------------------------------------------------


def resolver_of(answers: dict[str, list[str]]):
    asked: list[str] = []

    def resolve(host: str, port: int) -> list[str]:
        asked.append(host)
        return answers[host]

    return resolve, asked


def test_c1_a_name_resolving_to_a_private_address_is_refused():
    resolve, _ = resolver_of({"internal.test": ["10.1.2.3"], "metadata.test": ["169.254.169.254"]})
    guard = AddressGuard(resolver=resolve)
    for name in ("internal.test", "metadata.test"):
        with pytest.raises(SteeringRefusedError, match="non-public address"):
            guard.address_for(name, 80)


def test_c1_a_public_answer_is_pinned_and_exceptions_are_seeds_and_trusted_networks():
    resolve, asked = resolver_of({"public.test": ["93.184.216.34"], "staging.test": ["10.0.0.5"]})
    assert AddressGuard(resolver=resolve).address_for("public.test", 80) == "93.184.216.34"
    seeded = AddressGuard(resolver=resolve, allowed_hosts=lambda: {"staging.test"})
    assert seeded.address_for("staging.test", 80) == "10.0.0.5"
    trusted = AddressGuard(resolver=resolve, trusted_networks=(ipaddress.ip_network("10.0.0.0/8"),))
    assert trusted.address_for("STAGING.test", 80) == "10.0.0.5"
    assert asked == ["public.test", "staging.test", "staging.test"]


def test_c1_fixed_answers_come_first_and_public_addresses_pass_unresolved():
    resolve, asked = resolver_of({})
    guard = AddressGuard(resolver=resolve, fixed={"public.test": "93.184.216.34"})
    assert guard.address_for("public.test", 443) == "93.184.216.34"
    assert guard.address_for("93.184.216.34", 80) == "93.184.216.34"
    assert guard.address_for("[2606:2800:220:1::1]", 80) == "2606:2800:220:1::1"
    assert guard.address_for("[64:ff9b::5db8:d822]", 80) == "64:ff9b::5db8:d822"  # NAT64, public
    assert asked == []


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1",
        "[::1]",
        "[::ffff:127.0.0.1]",
        "[::127.0.0.1]",  # IPv4-compatible (::/96)
        "[64:ff9b::7f00:1]",  # NAT64's well-known prefix, carrying 127.0.0.1
        "[64:ff9b:1::a00:1]",  # the local-use NAT64 prefix
        "169.254.169.254",
        "[64:ff9b::a9fe:a9fe]",
        "10.0.0.5",
    ],
)
def test_c1_c4_an_address_written_out_is_refused_like_a_name_resolving_there(host):
    """Issue 38: the guard let a host written as an address through ("scope judged it"), and a
    robots.txt redirect hop was never judged by scope. No connection is made here."""
    with pytest.raises(SteeringRefusedError, match="non-public network"):
        AddressGuard().address_for(host, 80)


def test_c1_an_address_written_out_reaches_what_the_seeds_and_settings_name_only():
    seeds = frozenset({"127.0.0.2", "public.test", "[::1]"})
    trusted = (ipaddress.ip_network("10.0.0.0/8"),)
    guard = AddressGuard(allowed_hosts=lambda: seeds, trusted_networks=trusted)
    assert guard.address_for("127.0.0.2", 80) == "127.0.0.2"  # a seed
    assert guard.address_for("127.0.0.9", 80) == "127.0.0.9"  # a neighbour: the seed's network
    assert guard.address_for("[::1]", 80) == "::1"
    assert guard.address_for("10.1.2.3", 80) == "10.1.2.3"  # trusted
    for host in ("169.254.169.254", "192.168.1.1", "[::ffff:169.254.169.254]", "[fe80::1]"):
        with pytest.raises(SteeringRefusedError):
            guard.address_for(host, 80)
    # A name gets no neighbour's pass: it is judged at connect time only.
    named = AddressGuard(allowed_hosts=lambda: seeds, fixed={"evil.test": "127.0.0.1"})
    with pytest.raises(SteeringRefusedError, match=r"evil\.test resolves to 127\.0\.0\.1"):
        named.address_for("evil.test", 80)
    # A seed written as a name opens no network (the public origin, on loopback).
    by_name = AddressGuard(
        allowed_hosts=lambda: {"public.test"}, fixed={"public.test": "127.0.0.1"}
    )
    assert by_name.address_for("public.test", 80) == "127.0.0.1"
    with pytest.raises(SteeringRefusedError, match="not a seed host"):
        by_name.address_for("127.0.0.1", 80)


def test_c1_a_name_without_an_address_is_a_resolution_failure():
    resolve, _ = resolver_of({"nowhere.test": []})
    with pytest.raises(socket.gaierror):
        AddressGuard(resolver=resolve).address_for("nowhere.test", 80)


def test_c1_the_fetcher_never_connects_where_the_guard_refuses(secret_server):
    resolve, _ = resolver_of({"internal.test": ["127.0.0.1"]})
    url = f"http://internal.test:{secret_server.port}/secret"
    fetcher = Fetcher(user_agent="politecrawl/1", address_guard=AddressGuard(resolver=resolve))
    with fetcher, pytest.raises(FetchError, match=r"refused: internal\.test resolves to") as err:
        fetcher.fetch(url)
    assert not err.value.temporary
    assert secret_server.requests == []


def test_c1_a_seed_host_reaches_its_private_address_pinned(secret_server):
    resolve, asked = resolver_of({"internal.test": ["127.0.0.1"]})
    guard = AddressGuard(resolver=resolve, allowed_hosts=lambda: {"internal.test"})
    url = f"http://internal.test:{secret_server.port}/secret"
    with Fetcher(user_agent="politecrawl/1", address_guard=guard) as fetcher:
        assert fetcher.fetch(url).body == b"the admin page"
        assert fetcher.fetch(url).status == 200  # a kept-alive connection: no second lookup
    assert secret_server.requests == [(f"internal.test:{secret_server.port}", "/secret")] * 2
    assert asked == ["internal.test"]


# --- through the command line --------------------------------------------------------------------


def crawl_three_servers(
    tmp_path: Path, env: dict[str, str]
) -> tuple[Server, Server, Server, str, str]:
    """public.test (a seed, answered as 127.0.0.21 by --resolve) links to an address written out
    (127.0.0.22), to a name answered as a private address (internal.test), and redirects to
    both. Runs ``politecrawl run``, ``report`` and ``why`` (for the written-out link); returns
    the servers (closed, their request logs kept) and the two commands' output."""
    admin = Server("127.0.0.22", {"/admin": (200, "admin", {}), "/robots.txt": (404, "", {})})
    internal = Server("127.0.0.23", {"/secret": (200, "secret", {})})
    written = f"http://127.0.0.22:{admin.port}/admin"
    named = f"http://internal.test:{internal.port}/secret"
    links = (written, named, "/go", "/to")
    home = " ".join(f'<a href="{link}">{link}</a>' for link in links)
    public = Server(
        "127.0.0.21",
        {
            "/robots.txt": (200, "User-agent: *\nDisallow:\n", {}),
            "/": (200, home, {}),
            "/go": (302, "", {"Location": f"http://127.0.0.22:{admin.port}/admin?via=redirect"}),
            "/to": (302, "", {"Location": f"{named}?via=redirect"}),
        },
    )
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(f"http://public.test:{public.port}/\n")
    try:
        result = subprocess.run(
            [
                *(sys.executable, "-m", "politecrawl", "run", str(seeds), "--db", "crawl.db"),
                *("--scope", "any", "--delay", "0.05", "--quiet"),
                *("--resolve", "public.test:127.0.0.21", "--resolve", "internal.test:127.0.0.23"),
            ],
            capture_output=True,
            text=True,
            timeout=90,
            cwd=tmp_path,
            env={**os.environ, "POLITECRAWL_ROBOTS_MAX_ATTEMPTS": "1", **env},
            check=False,
        )
        report = subprocess.run(
            [sys.executable, "-m", "politecrawl", "report", "--db", "crawl.db"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
            check=False,
        )
        why = subprocess.run(
            [sys.executable, "-m", "politecrawl", "why", "--db", "crawl.db", written],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=tmp_path,
            check=False,
        )
    finally:
        for server in (public, admin, internal):
            server.close()
    assert "Traceback" not in result.stderr, result.stderr
    return public, admin, internal, report.stdout, why.stdout


@pytest.mark.timeout(120)
def test_c1_c4_a_public_page_cannot_steer_the_crawl_into_private_addresses(tmp_path: Path):
    """None of the private servers ever sees a request: not by a link, a name or a redirect."""
    public, admin, internal, report, why = crawl_three_servers(tmp_path, {})
    assert {path for _, path in public.requests} == {
        "/robots.txt",
        "/sitemap.xml",
        "/",
        "/go",
        "/to",
    }
    assert admin.requests == []
    assert internal.requests == []
    assert "link from a public origin" in report
    assert "into 127.0.0.0/8" in report
    assert "into 127.0.0.0/8" in why  # why names the rule for the refused URL


@pytest.mark.timeout(120)
def test_c1_c4_trusted_networks_let_the_crawl_into_that_network_only(tmp_path: Path):
    """trusted_networks (here 127.0.0.22/32, by its environment variable) reaches the crawl: the
    link and the redirect into the trusted address are followed; the name answered as another
    private address stays refused at connect time."""
    env = {"POLITECRAWL_TRUSTED_NETWORKS": "127.0.0.22/32"}
    public, admin, internal, report, why = crawl_three_servers(tmp_path, env)
    assert {path for _, path in public.requests} == {
        "/robots.txt",
        "/sitemap.xml",
        "/",
        "/go",
        "/to",
    }
    assert {path for _, path in admin.requests} >= {"/admin", "/admin?via=redirect"}
    assert internal.requests == []
    assert "into 127.0.0.0/8" not in report
    assert "into 127.0.0.0/8" not in why
