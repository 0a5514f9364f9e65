"""Politeness per server, from the server's own log: host names on one address share its
requests in flight and its gap, while hosts on their own addresses crawl at their own pace
[P6, P1, P2, C5].

The test web serves a.test, b.test and c.test on one loopback address (127.0.0.70, a port
each: one machine), d.test and e.test on addresses of their own; the crawl's ``resolve``
setting names them, as curl's --resolve does. A server's gap runs between the starts of the
leases that hold its slot, and a request leaves at its lease's start; those starts are exact
(tests/store/test_servers_claim.py). The server's log takes a request's start once its head has
been read, after its connection was made, and a process waiting for the CPU at its lease's
start sends late while the next leaves on time: on this machine (two cores, a load of about
twelve) by up to a seventh of a second. So the log's gaps are checked as a rate, exactly (the
starts of N requests span at least N - 1 gaps, less ``START_SLACK_SECONDS`` for the first and
last), and pair by pair to within half a gap. The requests in flight are exact: the log takes
an end before its last bytes leave.
"""

from __future__ import annotations

import itertools
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests.site import Page, Site, serve
from tests.site.model import OriginSpec
from tests.site.pages import html_page
from tests.site.web import Request, RunningWeb
from tests.test_cli_crawl import ENV, politecrawl

from politecrawl import CrawlConfig, Crawler

SHARED = "127.0.0.70"
SHARED_NAMES = ("a", "b", "c")
OWN = {"d": "127.0.0.74", "e": "127.0.0.75"}
PAGES = 6
PAGE_SECONDS = 0.4  # each page takes longer than the server's gap: its cap of 2 binds
SERVER_GAP = 0.3
DELAY = 0.05
START_SLACK_SECONDS = 0.15


def shared_web(pages: int = PAGES, page_seconds: float = PAGE_SECONDS) -> Site:
    def origin_pages() -> dict[str, Page]:
        links = [f"/p{index}.html" for index in range(pages)]
        slow = {link: Page(html_page(link), delay_seconds=page_seconds) for link in links}
        return {"/": Page(html_page("home", links)), **slow}

    origins = [OriginSpec(name, SHARED, origin_pages()) for name in SHARED_NAMES]
    origins += [OriginSpec(name, address, origin_pages()) for name, address in OWN.items()]
    return Site(0, tuple(origins), 0.0)


def names_and_ports(web: RunningWeb) -> dict[str, int]:
    return {origin.key: origin.port for origin in web.site.origins}


def seeds_of(web: RunningWeb) -> list[str]:
    return [f"http://{key}.test:{port}/" for key, port in names_and_ports(web).items()]


def resolve_of(web: RunningWeb) -> tuple[str, ...]:
    return tuple(f"{origin.key}.test:{origin.address}" for origin in web.site.origins)


@dataclass(frozen=True)
class ServerLog:
    """One address's requests, as its log has them."""

    requests: tuple[Request, ...]

    @property
    def most_in_flight(self) -> int:
        events = [(r.started_at, 1) for r in self.requests]
        events += [(r.finished_at, -1) for r in self.requests]
        count = most = 0
        for _, change in sorted(events):  # an end before a start at the same instant
            count += change
            most = max(most, count)
        return most

    @property
    def smallest_start_gap(self) -> float:
        starts = sorted(r.started_at for r in self.requests)
        return min(b - a for a, b in itertools.pairwise(starts))

    def assert_paced(self, gap: float, *, pairwise: bool = True) -> None:
        """The starts at least ``gap`` apart as a rate, and (``pairwise``) pair by pair to
        within half of it (see the module's docstring)."""
        starts = sorted(r.started_at for r in self.requests)
        assert starts[-1] - starts[0] >= (len(starts) - 1) * gap - START_SLACK_SECONDS
        if pairwise:
            assert self.smallest_start_gap >= gap / 2

    @property
    def last_end(self) -> float:
        return max(r.finished_at for r in self.requests)


def server_log(web: RunningWeb, address: str) -> ServerLog:
    return ServerLog(tuple(r for r in web.log if r.host == address))


def crawl(web: RunningWeb, tmp_path: Path, *options: str, **env: str) -> None:
    """A crawl of the test web by the command line, in a process of its own: the servers'
    threads then share this process with no crawler, and log each request as it comes."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    seeds = write_seeds(web, tmp_path)
    args = run_args(web, seeds, str(tmp_path / "crawl.db"))
    result = run_cli("run", *args, f"--delay={DELAY}", *options, env=env)
    assert result.returncode == 0, result.stderr
    fetched = [r for r in web.log if r.status == 200]
    assert len(fetched) == len(web.site.origins) * (PAGES + 1)


def test_p6_host_names_on_one_address_never_pass_its_cap_or_gap_while_the_others_go_on(tmp_path):
    with serve(shared_web()) as web:
        crawl(web, tmp_path, POLITECRAWL_SERVER_DELAY_SECONDS=str(SERVER_GAP))
        shared = server_log(web, SHARED)
        alone = [server_log(web, address) for address in OWN.values()]
    assert len(shared.requests) >= 3 * (PAGES + 2)  # pages, home and robots.txt of each
    assert shared.most_in_flight == 2
    shared.assert_paced(SERVER_GAP)
    # The hosts on their own addresses were not held back: one host's pages through its own
    # server ended before three hosts' pages through one.
    for own in alone:
        assert own.most_in_flight == 1
        assert own.last_end < shared.last_end


def test_p6_the_default_gap_is_the_hosts_delay_and_politeness_per_host_alone_passes_the_cap(
    tmp_path,
):
    """Without server_delay_seconds the server's gap is its hosts' smallest delay; with
    politeness_unit = "host" nothing holds the three names together (the control: the log
    does see three requests at once to one machine then)."""
    with serve(shared_web()) as web:
        # A worker for every host: nothing but politeness keeps requests apart.
        crawl(web, tmp_path / "by-server", "--workers=6")
        by_server = server_log(web, SHARED)
        web.log.clear()
        crawl(web, tmp_path / "by-host", "--workers=6", POLITECRAWL_POLITENESS_UNIT="host")
        by_host = server_log(web, SHARED)
    assert by_server.most_in_flight == 2
    # A gap of 0.05 s, its hosts' delay, is within the log's noise pair by pair: as a rate.
    by_server.assert_paced(DELAY, pairwise=False)
    assert by_host.most_in_flight == 3


def test_p6_the_crawl_database_knows_each_hosts_server(tmp_path):
    with serve(shared_web(pages=1, page_seconds=0.0)) as web:
        config = CrawlConfig(
            database=str(tmp_path / "crawl.db"),
            delay_seconds=0.0,
            resolve=resolve_of(web),
            server_exempt_networks=(f"{OWN['e']}/32",),
        )
        with Crawler(config) as crawler:
            crawler.add_seeds(seeds_of(web))
            list(crawler.crawl())
    with sqlite3.connect(tmp_path / "crawl.db") as connection:
        rows = dict(
            connection.execute(
                "SELECT hosts.host, servers.address FROM hosts "
                "LEFT JOIN servers ON servers.id = hosts.server_id"
            ).fetchall()
        )
    assert rows == {
        "a.test": SHARED,
        "b.test": SHARED,
        "c.test": SHARED,
        "d.test": OWN["d"],
        "e.test": None,  # an exempt network: paced as a host alone
    }


def run_args(web: RunningWeb, seeds: Path, db: str) -> list[str]:
    resolve = [f"--resolve={pair}" for pair in resolve_of(web)]
    return [str(seeds), "--db", db, "--quiet", "--contact", "https://x.org/", *resolve]


def write_seeds(web: RunningWeb, tmp_path: Path) -> Path:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(seeds_of(web)) + "\n")
    return seeds


@pytest.mark.postgres
@pytest.mark.timeout(400)
def test_p6_c5_three_processes_on_postgresql_share_the_servers_cap_and_gap(tmp_path):
    from tests.store.conftest import postgres_schema_url, require_postgres

    require_postgres()
    targets = postgres_schema_url()
    url = next(targets)
    try:
        with serve(shared_web()) as web:
            seeds = write_seeds(web, tmp_path)
            env = {"POLITECRAWL_SERVER_DELAY_SECONDS": str(SERVER_GAP)}
            common = [f"--delay={DELAY}", "--processes=3", "--workers=2"]
            result = run_cli("run", *run_args(web, seeds, url), *common, env=env)
            assert result.returncode == 0, result.stderr
            shared = server_log(web, SHARED)
        assert len(shared.requests) >= 3 * (PAGES + 2)
        assert shared.most_in_flight <= 2
        shared.assert_paced(SERVER_GAP)
    finally:
        targets.close()


def run_cli(*args: str, env: dict[str, str], cwd: Path | None = None):
    return subprocess.run(
        [sys.executable, "-m", "politecrawl", *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env={**os.environ, **ENV, **env},
        check=False,
    )


@pytest.mark.timeout(400)
def test_p6_c5_a_crawl_killed_mid_request_and_resumed_keeps_the_servers_cap_and_gap(tmp_path):
    with serve(shared_web()) as web:
        seeds = write_seeds(web, tmp_path)
        env = {**os.environ, **ENV, "POLITECRAWL_SERVER_DELAY_SECONDS": str(SERVER_GAP)}
        child = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "politecrawl",
                "run",
                *run_args(web, seeds, "crawl.db"),
                f"--delay={DELAY}",
            ],
            cwd=tmp_path,
            env=env,
            start_new_session=True,
        )
        try:
            # Killed while the shared server has requests in flight (its pages take 0.3 s).
            deadline = time.monotonic() + 60
            while len(server_log_now(web, SHARED)) < 8 and time.monotonic() < deadline:
                time.sleep(0.05)
            assert child.poll() is None, "the crawl ended before the kill"
        finally:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
        before = len(web.log)
        again = politecrawl("resume", "--db", "crawl.db", "--quiet", cwd=tmp_path)
        assert again.returncode == 0, again.stderr
        assert len(web.log) > before
        shared = server_log(web, SHARED)
    assert shared.most_in_flight <= 2
    shared.assert_paced(SERVER_GAP)


def server_log_now(web: RunningWeb, address: str) -> list[Request]:
    """The requests logged so far, without waiting for those being answered."""
    return [request for request in web.log._items if request.host == address]
