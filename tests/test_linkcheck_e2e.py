"""``politecrawl check`` on the shared test web, judged from the servers' log and the report
[L1-L5, P1-P2, P4, O2].

The "linkcheck" origin links to outbound hosts answering 200, 404, 410, 500, a 301 chain, a
server that refuses HEAD (405, 501), a robots.txt forbidding the linked path, a Crawl-delay host
and a page slower than the time-out; it has resources and #fragment links. The ground truth is
the test web's oracle (tests/site/truth.py), never politecrawl's own reading.
"""

from __future__ import annotations

import itertools
import json
import socket
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

import pytest
from tests.site import Page, Site, audit, build_site, serve
from tests.site.canonical import host_of, origin_of
from tests.site.model import NOT_FOUND, OriginSpec
from tests.test_crawl_e2e import GUARD, crawl_config

from politecrawl import CrawlConfig, Crawler
from politecrawl.report import broken_count, build_report, render_text
from politecrawl.store import open_database
from politecrawl.store.reading import broken_checks

DELAY = 0.05
TIMEOUT = 1.0  # the slow outbound page answers after 3 s


def linkcheck_truth(web):
    return web.truth(
        seeds=[web.url("linkcheck")],
        guard=GUARD,
        check_outbound=True,
        check_resources=True,
        check_fragments=True,
        response_timeout_seconds=TIMEOUT,
    )


@pytest.fixture(scope="module")
def checked(tmp_path_factory):
    """One check of the linkcheck origin (the settings ``politecrawl check`` turns on)."""
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as web:
        database = str(tmp_path_factory.mktemp("linkcheck") / "check.db")
        config = crawl_config(
            database,
            delay_seconds=DELAY,
            check_outbound=True,
            check_resources=True,
            check_fragments=True,
            response_timeout_seconds=TIMEOUT,
            max_retries=1,
        )
        with Crawler(config) as crawler:
            crawler.add_seeds([web.url("linkcheck")])
            crawler.run()
            summary = crawler.summary
        opened = open_database(database)
        try:
            report = build_report(opened, agent="politecrawl")
        finally:
            opened.close()
        yield web, web.log.snapshot(), linkcheck_truth(web), report, summary


def test_l1_l3_t6_every_check_is_made_and_nothing_forbidden_nofollow_or_too_close_is_requested(
    checked,
):
    _, log, truth, _, _ = checked
    result = audit(log, truth, delays=truth.delays(DELAY))
    assert result.ok, result.report()
    requested = {request.url for request in log}
    assert set(truth.checked) <= requested
    assert not requested & set(truth.checked_forbidden)


def test_l1_o2_robots_txt_first_on_every_outbound_origin_and_never_a_second_level(checked):
    web, log, truth, _, _ = checked
    first: dict[str, int] = {}
    for index, request in enumerate(log):
        first.setdefault(request.origin, index)
    for origin in {origin_of(url) for url in truth.checked}:
        assert log[first[origin]].path_with_query == "/robots.txt", origin
    deeper = [url for url, why in truth.never.items() if why.startswith("L1")]
    assert deeper
    assert not {request.url for request in log} & set(deeper)
    outbound = {origin_of(url) for url in truth.checked} - {web.base("linkcheck")}
    assert not [r for r in log if r.origin in outbound and r.path_with_query == "/sitemap.xml"]


def test_p4_l2_checks_ask_with_head_and_get_only_where_head_is_refused(checked):
    _, log, truth, _, _ = checked
    methods: dict[str, list[str]] = {}
    for request in log:
        if request.url in truth.checked:
            methods.setdefault(request.url, []).append(request.method)
    for url, asked in methods.items():
        assert asked[0] == "HEAD", url
        if url in truth.head_then_get:
            assert "GET" in asked, url
        else:
            assert "GET" not in asked, url
    assert truth.head_then_get


def test_p1_p2_a_crawl_delay_host_is_checked_one_request_at_a_time_at_its_pace(checked):
    web, log, truth, _, _ = checked
    host = web.host("out-delay")
    times = [(r.started_at, r.finished_at) for r in log if host_of(r.url) == host]
    assert len(times) >= 4
    wanted = truth.delays(DELAY)[host]
    for (_, done), (start, _) in itertools.pairwise(times):
        assert start - done >= wanted * 0.95


def test_l1_l4_the_report_names_what_the_truth_says_is_broken(checked):
    _, _, truth, report, summary = checked
    checks = report.checks
    assert {item.url for item in checks.broken} == set(truth.checked_broken)
    assert {item.url for item in checks.robots_forbidden} == set(truth.checked_forbidden)
    missing = {(item.url, item.fragment) for item in checks.missing_fragments}
    assert missing == {(target, fragment) for _, target, fragment in truth.missing_fragments}
    updates = {item.url: item.new_url for item in checks.redirects}
    assert updates == dict(truth.permanent_redirects)
    for item in checks.broken:  # every referring page, with the link's line and text
        expected = truth.checked[item.url].referrers
        assert {ref.url for ref in item.referrers if not ref.redirect} == {
            ref.page for ref in expected
        }
        assert all(ref.line for ref in item.referrers if not ref.redirect)
    assert summary.broken_checks == len(truth.checked_broken)
    assert broken_count(report) >= len(truth.checked_broken) + len(truth.missing_fragments)
    text = render_text(report)
    assert "Broken outbound links and resources" in text
    assert "Missing fragments" in text


def test_l1_each_link_is_checked_once(checked):
    _, log, truth, _, _ = checked
    heads = Counter(r.url for r in log if r.method == "HEAD" and r.url in truth.checked)
    retried = {url for url in truth.checked if url in truth.repeatable}
    assert all(count == 1 for url, count in heads.items() if url not in retried), heads


def test_l5_politecrawl_check_exits_1_with_a_junit_report_and_rechecks_nothing_fresh(tmp_path):
    with serve(build_site(crawl_delay_seconds=0.05, slow_seconds=0.3)) as web:
        database = tmp_path / "site.db"
        junit = tmp_path / "links.xml"

        def politecrawl(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
            return subprocess.run(
                [sys.executable, "-m", "politecrawl", *args],
                capture_output=True, text=True, timeout=300, check=False,
                env={"POLITECRAWL_MAX_RETRIES": "0", "PATH": "/usr/bin:/bin", **env},
            )  # fmt: skip

        def check(*extra: str, **env: str) -> subprocess.CompletedProcess[str]:
            return politecrawl(
                "check", web.url("linkcheck"), "--db", str(database), "--delay", "0.05",
                "--timeout", str(TIMEOUT), "--quiet", *extra, **env,
            )  # fmt: skip

        first = check("--format", "junit", "--out", str(junit))
        assert first.returncode == 1, first.stderr
        suite = ET.parse(junit).getroot().find("testsuite")
        assert suite is not None
        truth = linkcheck_truth(web)
        failures = {case.get("name") for case in suite if case.find("failure") is not None}
        assert set(truth.checked_broken) <= failures
        assert int(suite.get("failures", "0")) == len(failures)
        assert "broken links found" in first.stderr
        checked_once = {r.url for r in web.log if r.url in truth.checked}

        web.log.clear()
        second = check()  # the next check of the site: a recrawl pass
        assert second.returncode == 1
        again = {r.url for r in web.log if r.url in truth.checked and r.method == "HEAD"}
        passed = {url for url, found in truth.checked.items() if 200 <= (found.status or 0) < 300}
        assert passed
        assert not again & checked_once & passed  # checks that passed a moment ago stand
        assert set(truth.checked_broken) - again <= set(truth.repeatable)  # broken: asked again
        assert "Broken outbound links and resources" in second.stdout

        # A link that broke and one that was fixed since, with checks never fresh: the change
        # report says so.
        ok, missing = web.url("out-status", "/ok.html"), web.url("out-status", "/missing.html")
        web.set_page("out-status", "/ok.html", NOT_FOUND)
        web.set_page("out-status", "/missing.html", Page(b"<p>back</p>"))
        third = check("--format", "junit", POLITECRAWL_CHECK_FRESH_SECONDS="0.001")
        assert third.returncode == 1
        names = {case.get("name") for case in ET.fromstring(third.stdout).iter("testcase")}
        assert ok in names  # standard output is the report alone: the summary is on stderr
        assert missing not in names
        compared = politecrawl("report", "--db", str(database), "--compare", "--format", "json")
        changes = json.loads(compared.stdout)["urls"]
        assert ok in changes["gone"] or ok in changes["newly_broken"]
        assert missing in changes["fixed"]


def test_l5_check_exits_0_on_a_site_with_nothing_broken(tmp_path):
    with serve(build_site(crawl_delay_seconds=0.05, slow_seconds=0.3)) as web:
        result = subprocess.run(
            [sys.executable, "-m", "politecrawl", "check", web.url("robots-real-docs"), "--db",
             str(tmp_path / "docs.db"), "--delay", "0.05", "--quiet"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
    assert result.returncode in (0, 1), result.stderr
    assert ("nothing broken" in result.stderr) == (result.returncode == 0)


def test_l5_without_db_the_check_is_kept_in_the_cache_directory(tmp_path, monkeypatch):
    from politecrawl.cli.check import default_database

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = default_database("http://127.0.0.25:8080/docs/")
    assert path == tmp_path / "cache" / "politecrawl" / "127.0.0.25_8080.db"
    assert path.parent.is_dir()
    assert Path(default_database("https://www.example.org/")).name == "www.example.org.db"


def test_l5_check_of_a_site_robots_txt_keeps_out_is_not_a_pass(tmp_path):
    with serve(build_site(crawl_delay_seconds=0.05, slow_seconds=0.3)) as web:
        result = subprocess.run(
            [sys.executable, "-m", "politecrawl", "check", web.url("robots-disallow-all"),
             "--db", str(tmp_path / "closed.db"), "--delay", "0.05", "--quiet"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        requested = [
            r.path_with_query for r in web.log if r.origin == web.base("robots-disallow-all")
        ]
    assert requested == ["/robots.txt"]
    assert result.returncode == 1, result.stderr
    assert "the check is incomplete" in result.stderr


def test_l1_a_link_removed_since_the_last_check_is_no_longer_reported(tmp_path):
    def home(*links: str) -> Page:
        anchors = "".join(f'<a href="{link}">{link}</a>' for link in links)
        return Page(f"<html><body>{anchors}</body></html>".encode())

    site = Site(
        0,
        (
            OriginSpec("site", "127.0.0.71", {"/": home("@@elsewhere@@/gone.html")}),
            OriginSpec("elsewhere", "127.0.0.72", {}, seeded=False),
        ),
        0.0,
    )
    database = str(tmp_path / "removed.db")
    config = CrawlConfig(
        database=database, delay_seconds=0.0, check_outbound=True, check_fresh_seconds=0.001
    )

    def broken_now() -> set[str]:
        opened = open_database(database)
        try:
            return {item.url for item in build_report(opened, agent="politecrawl").checks.broken}
        finally:
            opened.close()

    with serve(site) as web:
        with Crawler(config) as crawler:
            crawler.add_seeds([web.url("site")])
            crawler.run()
        assert broken_now() == {web.url("elsewhere", "/gone.html")}
        web.set_page("site", "/", home("/"))  # the site owner removed the link
        with Crawler(config) as crawler:
            for _ in crawler.recrawl():
                pass
        assert broken_now() == set()


def test_l1_c4_a_checked_link_that_redirects_back_into_the_site_leads_to_a_crawled_page(
    tmp_path,
):
    site = Site(
        0,
        (
            OriginSpec(
                "site",
                "127.0.0.73",
                {
                    "/": Page(b'<a href="@@apex@@/new.html">the apex spelling</a>'),
                    "/new.html": Page(b'<a href="/behind.html">on</a>'),
                    "/behind.html": Page(b"<p>reached only through the redirect</p>"),
                },
            ),
            OriginSpec(
                "apex",
                "127.0.0.74",
                {"/new.html": Page(b"", status=301, headers=(("Location", "@@site@@/new.html"),))},
                seeded=False,
            ),
        ),
        0.0,
    )
    config = CrawlConfig(database=str(tmp_path / "apex.db"), delay_seconds=0.0, check_outbound=True)
    with serve(site) as web:
        with Crawler(config) as crawler:
            crawler.add_seeds([web.url("site")])
            crawler.run()
        asked = [(r.method, r.path_with_query) for r in web.log if r.origin == web.base("site")]
    assert ("GET", "/new.html") in asked  # crawled as a page, not only checked
    assert ("GET", "/behind.html") in asked  # its links followed


class _NamesThatDoNotExist:
    """``socket.getaddrinfo`` for one test: a name under ``.invalid`` (RFC 6761: never exists)
    is answered "no such name" (NXDOMAIN) here, with no DNS query leaving the machine; any other
    lookup goes to the real function. The answers are held back until ``released()`` says so
    (the site's pages are all served): a resolver as slow as the one of issue 38, while the
    site's pages are ready. Held at most ``HOLD_SECONDS`` in all, so that a crawl whose workers
    all wait here still ends; an answer given then is counted in ``answered_first``."""

    HOLD_SECONDS = 20.0

    def __init__(self, real, released):
        self.real = real
        self.released = released
        self.lookups: Counter[str] = Counter()
        self.answered_first = 0
        self._lock = threading.Lock()
        self._give_up_at: float | None = None

    def __call__(self, host, *args, **kwargs):
        if not str(host).endswith(".invalid"):
            return self.real(host, *args, **kwargs)
        with self._lock:
            self.lookups[str(host)] += 1
            if self._give_up_at is None:
                self._give_up_at = time.monotonic() + self.HOLD_SECONDS
        while not self.released():
            if time.monotonic() >= self._give_up_at:
                with self._lock:
                    self.answered_first += 1
                break
            time.sleep(0.01)
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")


def test_l1_o6_links_to_names_that_do_not_resolve_are_broken_at_once_and_never_starve_the_site(
    tmp_path, monkeypatch
):
    # Issue 38: every worker on outbound hosts whose names did not resolve, the site's own
    # pages ready and waiting. A name that does not exist is a finding of the check (one
    # lookup: robots.txt's request; no retry, no back-off), and one worker keeps to the site.
    pages = {f"/p{n}.html": [f"http://n{n}-{k}.invalid/page" for k in range(3)] for n in range(12)}
    pages["/p0.html"].append("http://n1-0.invalid/another")  # a second link to a known host
    links = [link for targets in pages.values() for link in targets]
    home = "".join(f'<a href="{path}">{path}</a>' for path in pages).encode()
    site = Site(
        0,
        (
            OriginSpec(
                "site",
                "127.0.0.77",
                {
                    "/": Page(home),
                    **{
                        path: Page("".join(f'<a href="{t}">{t}</a>' for t in targets).encode())
                        for path, targets in pages.items()
                    },
                },
            ),
        ),
        0.0,
    )
    config = CrawlConfig(
        database=str(tmp_path / "nxdomain.db"),
        delay_seconds=0.05,
        workers=4,
        check_outbound=True,
        robots_retry_seconds=600.0,  # a second lookup of a name would be a retry: none is due
    )
    with serve(site) as web:
        base = web.base("site")
        wanted = {"/", *pages}

        def site_served() -> bool:
            return wanted <= {r.path_with_query for r in web.log.snapshot() if r.origin == base}

        resolver = _NamesThatDoNotExist(socket.getaddrinfo, site_served)
        monkeypatch.setattr(socket, "getaddrinfo", resolver)
        with Crawler(config) as crawler:
            crawler.add_seeds([web.url("site")])
            crawler.run()
            summary = crawler.summary
        asked = [r.path_with_query for r in web.log if r.origin == base]
    assert wanted <= set(asked)  # the server's own log: every page of the site was fetched
    assert resolver.answered_first == 0  # ... before any outbound name was answered
    hosts = {host_of(link) for link in links}
    assert resolver.lookups == Counter(dict.fromkeys(hosts, 1))  # one lookup a name, no retry
    opened = open_database(config.storage.database)
    try:
        broken = {item.row.url: item.row for item in broken_checks(opened)}
    finally:
        opened.close()
    assert set(broken) == set(links)
    for row in broken.values():
        assert "host not found" in (row.error or ""), row
        assert row.attempts == 1, row  # recorded at once, never retried
    assert summary.broken_checks == len(links)
    assert summary.deferred == 0
