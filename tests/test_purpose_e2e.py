"""A crawl's purpose end to end on the loopback test web (issue 41), judged from the servers'
own logs [U1-U6, O2, P2].

Four origins on their own addresses: a Cloudflare-managed robots.txt refusing ai-train for the
whole site; a site with overlapping Content-Usage paths, a tdmrep.json with several locations
and pages refusing training in their own meta or headers; a site with no tdmrep.json; a site
whose tdmrep.json fails once. With ``purpose = "ai-train"``: no request for a URL whose
robots.txt or tdmrep.json refuses training, tdmrep.json once per origin in the host's pace,
pages refused by their own meta or header fetched once and recorded as refused, and the WARC
metadata record carrying the signals. Without a purpose: no tdmrep.json, nothing withheld, and
the very requests a crawl makes with the preference machinery switched off.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest
from tests.site import Page, Site, serve
from tests.site.model import TEXT, OriginSpec

from politecrawl import CrawlConfig, Crawler
from politecrawl.crawl.preferences_visit import PreferenceVisits
from politecrawl.usage import NO_PREFERENCES
from politecrawl.warc import iter_records

DELAY = 0.05
USAGE_FILES = Path(__file__).parent / "usage_files"
TDMREP = "/.well-known/tdmrep.json"
JSON = "application/json"


def html(*links: str, head: str = "") -> Page:
    anchors = "".join(f'<a href="{link}">{link}</a>\n' for link in links)
    body = f"<!DOCTYPE html><html><head>{head}</head><body>{anchors}</body></html>"
    return Page(body.encode())


def text(body: str, **fields) -> Page:
    return Page(body.encode(), content_type=TEXT, **fields)


MIXED_ROBOTS = """\
# Content-Usage rules overlap: the longest matching path decides (aipref-attach-05, 3)
User-agent: *
Allow: /
Content-Usage: /train-no/ train-ai=n
Content-Usage: /train-no/but-yes/ train-ai=y
"""
MIXED_TDMREP = """[
  {"location": "/tdm/*", "tdm-reservation": 1, "tdm-policy": "https://example.org/tdm"},
  {"location": "/tdm-free/", "tdm-reservation": 0},
  {"location": "/", "tdm-reservation": 0}
]
"""
MIXED_PAGES = (
    "/open.html",
    "/train-no/a.html",
    "/train-no/but-yes/b.html",
    "/tdm/c.html",
    "/tdm-free/d.html",
    "/meta-noai.html",
    "/header-noai.html",
    "/usage-header.html",
    "/tdm-meta.html",
)


def preference_web() -> Site:
    cloudflare = (USAGE_FILES / "cloudflare-managed.txt").read_text(encoding="utf-8")
    mixed = {
        "/robots.txt": text(MIXED_ROBOTS),
        TDMREP: Page(MIXED_TDMREP.encode(), content_type=JSON),
        "/": html(*MIXED_PAGES),
        "/open.html": html(),
        "/train-no/a.html": html(),
        "/train-no/but-yes/b.html": html(),
        "/tdm/c.html": html(),
        "/tdm-free/d.html": html(),
        "/meta-noai.html": html(head='<meta name="robots" content="noai, noimageai">'),
        "/header-noai.html": Page(html().body, headers=(("X-Robots-Tag", "noai"),)),
        "/usage-header.html": Page(html().body, headers=(("Content-Usage", "train-ai=n"),)),
        "/tdm-meta.html": html(head='<meta name="tdm-reservation" content="1">'),
    }
    flaky_tdmrep = Page(
        b'[{"location": "/reserved/*", "tdm-reservation": 1}]',
        content_type=JSON,
        first=(text("busy", status=503),),
    )
    return Site(
        seed=41,
        origins=(
            OriginSpec(
                "cloudflare",
                "127.0.0.141",
                {"/robots.txt": text(cloudflare), "/": html("/a.html"), "/a.html": html()},
            ),
            OriginSpec("mixed", "127.0.0.142", mixed),
            OriginSpec(
                "plain",
                "127.0.0.143",
                {
                    "/robots.txt": text("User-agent: *\nAllow: /\n"),
                    "/": html("/x.html"),
                    "/x.html": html(),
                },
            ),
            OriginSpec(
                "flaky",
                "127.0.0.144",
                {
                    "/robots.txt": text("User-agent: *\nAllow: /\n"),
                    TDMREP: flaky_tdmrep,
                    "/": html("/reserved/r.html", "/y.html"),
                    "/reserved/r.html": html(),
                    "/y.html": html(),
                },
            ),
        ),
        crawl_delay_seconds=0.0,
    )


@pytest.fixture
def web():
    with serve(preference_web()) as running:
        yield running


def crawl(web, tmp_path: Path, name: str, **settings):
    config = CrawlConfig(
        database=str(tmp_path / f"{name}.db"),
        delay_seconds=DELAY,
        workers=4,
        robots_retry_seconds=0.2,
        response_timeout_seconds=30.0,
        **settings,
    )
    with Crawler(config) as crawler:
        crawler.add_seeds(web.seeds)
        pages = list(crawler.crawl())
    return pages, crawler.summary


def requested(web, key: str) -> list[str]:
    base = web.base(key)
    return [request.path_with_query for request in web.log if request.origin == base]


def min_gap_seconds(web) -> float:
    """The shortest time between a request's end and the next start on one host (P2)."""
    gaps = []
    by_host: dict[str, list] = {}
    for request in web.log:
        by_host.setdefault(request.host, []).append(request)
    for requests in by_host.values():
        ordered = sorted(requests, key=lambda request: request.started_at)
        gaps += [b.started_at - a.finished_at for a, b in itertools.pairwise(ordered)]
    return min(gaps)


@pytest.mark.timeout(240)
def test_u5_ai_train_never_requests_what_robots_txt_or_tdmrep_json_refuse(web, tmp_path, capsys):
    pages, summary = crawl(web, tmp_path, "train", purpose="ai-train", warc_dir=str(tmp_path / "w"))
    log = {key: requested(web, key) for key in ("cloudflare", "mixed", "plain", "flaky")}
    # robots.txt refuses training for the whole site: only robots.txt itself is asked (U5)
    assert log["cloudflare"] == ["/robots.txt"]
    # robots.txt first on every origin (O2), tdmrep.json once per origin it was needed for (U3)
    for key in ("mixed", "plain", "flaky"):
        assert log[key][0] == "/robots.txt"
    assert Counter(log["mixed"])[TDMREP] == 1
    assert Counter(log["plain"])[TDMREP] == 1  # a 404: no reservation, the site is crawled
    assert "/x.html" in log["plain"]
    # refused by Content-Usage (the longest path) or by a tdmrep.json location: never asked
    for refused in ("/train-no/a.html", "/tdm/c.html"):
        assert refused not in log["mixed"]
    assert "/train-no/but-yes/b.html" in log["mixed"]  # the longer path allows it
    assert "/tdm-free/d.html" in log["mixed"]
    # refused by their own meta or headers: fetched once, recorded as refused (U5, U6)
    got = {page.url: page for page in pages}
    for path in ("/meta-noai.html", "/header-noai.html", "/usage-header.html", "/tdm-meta.html"):
        assert Counter(log["mixed"])[path] == 1
        page = got[web.url("mixed", path)]
        assert page.refused
        assert not page.indexable
    assert got[web.url("mixed", "/open.html")].indexable
    # a tdmrep.json that failed once: asked again after its back-off, no page before it
    assert log["flaky"][:3] == ["/robots.txt", TDMREP, TDMREP]
    assert "/reserved/r.html" not in log["flaky"]
    assert "/y.html" in log["flaky"]
    # every request in its host's pace, tdmrep.json's included (P2)
    assert min_gap_seconds(web) >= DELAY - 0.01
    # recorded in the database: the refused pages, and the excluded URLs with their reason
    connection = sqlite3.connect(tmp_path / "train.db")
    try:
        refused_rows = connection.execute(
            "SELECT count(*) FROM urls WHERE use_refused = 1"
        ).fetchone()
        excluded = connection.execute(
            "SELECT count(*) FROM urls WHERE reason = 'use-preference'"
        ).fetchone()
    finally:
        connection.close()
    assert refused_rows == (4,)
    assert excluded[0] == summary.excluded_by_preferences
    # the WARC metadata record beside a page's response carries its signals (U6)
    noai_url = web.url("mixed", "/meta-noai.html")
    metadata = [
        json.loads(record.raw_stream.read())
        for path in sorted((tmp_path / "w").glob("*.warc.gz"))
        for record in iter_records(path)
        if record.rec_type == "metadata"
        and record.rec_headers.get_header("WARC-Target-URI") == noai_url
    ]
    assert metadata[0]["use_refused"] is True
    assert metadata[0]["use_signals"][-1]["protocol"] == "noai"
    with capsys.disabled():
        print(
            f"\npurpose ai-train: {len(web.log)} requests "
            + ", ".join(f"{key} {len(paths)}" for key, paths in log.items())
            + f"; {summary.excluded_by_preferences} URLs not fetched, "
            f"{summary.refused} pages refused"
        )


def _as_before_use_preferences(monkeypatch: pytest.MonkeyPatch) -> None:
    """The crawl as it was before use preferences: nothing judged, nothing known."""
    monkeypatch.setattr(PreferenceVisits, "before_fetch", lambda *_args, **_kw: NO_PREFERENCES)


@pytest.mark.timeout(240)
def test_u5_without_a_purpose_the_crawl_makes_the_very_requests_it_made_before(
    web, tmp_path, monkeypatch, capsys
):
    pages, summary = crawl(web, tmp_path, "none")
    with_preferences = Counter((r.method, r.url) for r in web.log)
    assert not any(url.endswith(TDMREP) for _, url in with_preferences)
    assert summary.excluded_by_preferences == summary.refused == 0
    assert all(page.indexable for page in pages if page.ok)
    assert (("GET", web.url("cloudflare", "/a.html"))) in with_preferences
    assert (("GET", web.url("mixed", "/tdm/c.html"))) in with_preferences
    # the same crawl with the preference machinery switched off, on a fresh database
    web.log.clear()
    with monkeypatch.context() as patched:
        _as_before_use_preferences(patched)
        crawl(web, tmp_path, "before")
    before = Counter((r.method, r.url) for r in web.log)
    assert with_preferences == before
    with capsys.disabled():
        print(f"\nno purpose: {sum(before.values())} requests, the same with and without")
