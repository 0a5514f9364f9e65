"""A robots.txt redirect cannot steer the crawler into a non-public address [O7, O6, C1, C4].

Issue 38, item 2: a public origin whose /robots.txt answers ``301 Location:`` a metadata-like
address made politecrawl request it and keep its answer as the origin's robots.txt. Here the
public origins are names answered by ``--resolve`` (never real DNS), the "metadata service" is
a trap server on 127.0.0.1 with its own request log, and each command is run as a user runs it
(a subprocess): ``run --scope any``, ``check``, ``robots explain --fetch``, then ``robots show``.
The trap is reached three ways: written as an IPv4 address, as an IPv4-mapped IPv6 address, and
by a name answered as 127.0.0.1 (refused at connect time: once, not once per retry).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.test_steering import Server

TRAP_PATH = "/latest/meta-data/robots.txt"
TRAP_BODY = "User-agent: *\nAllow: /\n# TRAP: instance credentials\n"
FORMS = ("ipv4", "mapped", "name")


@pytest.fixture
def trap() -> Iterator[Server]:
    server = Server("127.0.0.1", {TRAP_PATH: (200, TRAP_BODY, {"Content-Type": "text/plain"})})
    yield server
    server.close()


def trap_location(form: str, trap: Server) -> str:
    host = {"ipv4": "127.0.0.1", "mapped": "[::ffff:127.0.0.1]", "name": "metadata.test"}[form]
    return f"http://{host}:{trap.port}{TRAP_PATH}"


def steering_site(form: str, trap: Server, address: str) -> Server:
    """A public origin (on ``address``) whose robots.txt redirects into the trap."""
    robots = (301, "", {"Location": trap_location(form, trap)})
    return Server(address, {"/robots.txt": robots, "/": (200, '<a href="/a">a</a>', {})})


def politecrawl(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "politecrawl", *args],
        capture_output=True,
        text=True,
        timeout=90,
        cwd=tmp_path,
        env={**os.environ, "POLITECRAWL_CONFIG": ""},
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def resolving(names: dict[str, str]) -> list[str]:
    return [arg for name, address in names.items() for arg in ("--resolve", f"{name}:{address}")]


def assert_asked_robots_once(site: Server) -> None:
    """One request, for /robots.txt: no retry of a refused redirect (O7), no page (O2)."""
    assert [path for _, path in site.requests] == ["/robots.txt"]


@pytest.mark.timeout(120)
def test_o7_c4_run_scope_any_never_follows_a_robots_redirect_into_the_trap(tmp_path, trap):
    sites = {form: steering_site(form, trap, f"127.0.0.{31 + i}") for i, form in enumerate(FORMS)}
    names = {f"public-{form}.test": f"127.0.0.{31 + i}" for i, form in enumerate(FORMS)}
    seeds = tmp_path / "seeds.txt"
    origins = [f"http://public-{form}.test:{site.port}" for form, site in sites.items()]
    seeds.write_text("".join(f"{origin}/\n" for origin in origins))
    try:
        politecrawl(
            tmp_path,
            *("run", str(seeds), "--db", "crawl.db", "--scope", "any", "--delay", "0.05"),
            *resolving(names | {"metadata.test": "127.0.0.1"}),
        )
        shown = [politecrawl(tmp_path, "robots", "show", o, "--db", "crawl.db") for o in origins]
    finally:
        for site in sites.values():
            site.close()
    assert trap.requests == []
    for site in sites.values():
        assert_asked_robots_once(site)
    for show in shown:
        assert "TRAP" not in show.stdout
        assert "anti-steering guard" in show.stdout
        assert "not retried" in show.stdout
        assert "unreachable after" not in show.stdout  # a refusal, not 4 failed attempts


@pytest.mark.timeout(120)
@pytest.mark.parametrize("form", FORMS)
def test_o7_l5_check_never_follows_a_robots_redirect_into_the_trap(tmp_path, trap, form):
    site = steering_site(form, trap, "127.0.0.34")
    try:
        result = politecrawl(
            tmp_path,
            *("check", f"http://public.test:{site.port}/", "--db", "crawl.db"),
            *("--delay", "0.05", "--format", "text"),
            *resolving({"public.test": "127.0.0.34", "metadata.test": "127.0.0.1"}),
        )
    finally:
        site.close()
    assert trap.requests == []
    assert_asked_robots_once(site)
    assert "TRAP" not in result.stdout
    assert result.returncode == 1  # nothing of the site was checked: a CI gate must not pass
    assert "anti-steering guard" in result.stdout  # the report's deferred origin says why
    assert "is incomplete" not in result.stderr  # a finding, said as one
    assert "needs a request politecrawl refuses to make" in result.stderr


@pytest.mark.timeout(120)
@pytest.mark.parametrize("form", FORMS)
def test_o7_robots_explain_fetch_never_follows_a_redirect_into_the_trap(tmp_path, trap, form):
    site = steering_site(form, trap, "127.0.0.35")
    try:
        result = politecrawl(
            tmp_path,
            *("robots", "explain", f"http://public.test:{site.port}/a", "--fetch"),
            *resolving({"public.test": "127.0.0.35", "metadata.test": "127.0.0.1"}),
        )
    finally:
        site.close()
    assert trap.requests == []
    assert_asked_robots_once(site)
    assert "ALLOWED" not in result.stdout
    assert "anti-steering guard" in result.stdout
    assert result.returncode == 1, result.stdout + result.stderr
