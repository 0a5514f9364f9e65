"""The bundled demo web (``politecrawl demo``): each origin answers as its pages say, the
request log records every request, and closing the site closes every port."""

from __future__ import annotations

import http.client
import re
import socket
import time
from html import escape
from urllib.parse import urlsplit

import pytest

from politecrawl import CrawlConfig, Crawler, demo_site
from politecrawl.demo_site import ORIGIN_NAMES, SITE, DemoSite
from politecrawl.robots import parse_robots

HREF = re.compile(r'<a href="([^"]+)"( rel="nofollow")?>')


def get(url: str, method: str = "GET") -> tuple[int, http.client.HTTPMessage, bytes]:
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request(method, path, headers={"User-Agent": "politecrawl/test"})
        response = connection.getresponse()
        return response.status, response.headers, response.read()
    finally:
        connection.close()


@pytest.fixture(scope="module")
def site():
    with DemoSite() as running:
        yield running


def test_four_origins_on_loopback_each_seeded_with_its_home_page(site):
    assert list(site.bases) == list(ORIGIN_NAMES) == ["shop", "blog", "private", "files"]
    assert site.origins == tuple(site.bases.values())
    assert site.seeds == [f"{base}/" for base in site.origins]
    assert site.url("shop", "/cart/") == site.origins[0] + "/cart/"
    assert len(set(site.origins)) == 4
    for base in site.origins:
        assert urlsplit(base).hostname.startswith("127.")


def test_robots_outcomes_per_origin(site):
    status, headers, body = get(site.bases["shop"] + "/robots.txt")
    assert status == 200
    assert headers["Content-Type"].startswith("text/plain")
    shop = parse_robots(body)
    assert shop.crawl_delay("politecrawl") == 0.2
    assert not shop.is_allowed("politecrawl", "/cart/")
    assert not shop.is_allowed("politecrawl", "/search?q=tea")
    assert shop.is_allowed("politecrawl", "/search")
    assert not shop.is_allowed("otherbot", "/cart/")
    assert shop.is_allowed("otherbot", "/news/")  # the * record has no /news/ line
    assert get(site.bases["blog"] + "/robots.txt")[0] == 404
    assert get(site.bases["private"] + "/robots.txt")[0] == 403
    status, _, body = get(site.bases["files"] + "/robots.txt")
    assert status == 200
    assert parse_robots(body).is_allowed("politecrawl", "/internal/stock.html")


def test_shop_robots_draft_and_rfc9309_disagree_on_the_public_news(site):
    policy = parse_robots(get(site.bases["shop"] + "/robots.txt")[2])
    url = "/news/public/summer-sale.html"
    assert not policy.is_allowed("politecrawl", url)
    assert policy.with_semantics("rfc9309").is_allowed("politecrawl", url)
    assert policy.disagreement("politecrawl", url) is not None
    assert policy.disagreement("politecrawl", "/news/") is None


def test_every_page_has_a_title_a_sentence_and_resolved_links(site):
    for name, pages in SITE.items():
        for path, page in pages.items():
            status, _, body = get(site.bases[name] + path)
            assert status == page.status, (name, path)
            if page.body is not None:
                assert body == demo_site.render(page, site.bases)
                assert not [n for n in site.bases if f"{{{n}}}".encode() in body], (name, path)
                continue
            text = body.decode("utf-8")
            assert page.title, (name, path)
            assert page.about, (name, path)
            assert f"<title>{escape(page.title)}</title>" in text
            assert f"<p>{escape(page.about)}</p>" in text
            assert "{" not in text, (name, path)
            hrefs = HREF.findall(text)
            assert len(hrefs) == len(page.links)
            for href, _ in hrefs:
                assert href.startswith(("/", "http://127.")), href


def test_links_lead_only_to_listed_pages_except_the_broken_teapot(site):
    names = {base: name for name, base in site.bases.items()}
    linked_from: dict[tuple[str, str], list[str]] = {}
    for name, pages in SITE.items():
        for path, page in pages.items():
            for link in page.links:
                parts = urlsplit(link.removeprefix("nofollow:").format(**site.bases))
                origin = names[f"{parts.scheme}://{parts.netloc}"] if parts.netloc else name
                target = parts.path + (f"?{parts.query}" if parts.query else "")
                linked_from.setdefault((origin, target), []).append(f"{name}{path}")
    missing = {t for t in linked_from if site.page(*t) is demo_site.NOT_FOUND}
    assert missing == {("shop", "/products/teapot.html")}
    assert len(linked_from["shop", "/products/teapot.html"]) == 2  # broken from two pages


def test_shop_statuses_redirect_chain_and_slow_page(site):
    shop = site.bases["shop"]
    assert get(shop + "/products/teapot.html")[0] == 404
    assert get(shop + "/status.html")[0] == 500
    status, headers, _ = get(shop + "/old-offers.html")
    assert (status, headers["Location"]) == (301, "/offers-2024.html")
    status, headers, _ = get(shop + "/offers-2024.html")
    assert (status, headers["Location"]) == (302, "/offers.html")
    assert get(shop + "/offers.html")[0] == 200
    started = time.monotonic()
    assert get(shop + "/slow.html")[0] == 200
    assert time.monotonic() - started >= 0.9
    assert get(shop + "/search?q=tea")[0] == 200  # served: only robots.txt keeps a robot out


def test_page_directives(site):
    shop, blog, files = (site.bases[n] for n in ("shop", "blog", "files"))
    assert b'<meta name="robots" content="noindex">' in get(shop + "/products/gift-cards.html")[2]
    assert b'<meta name="robots" content="nofollow">' in get(shop + "/contact.html")[2]
    assert b'href="/terms.html" rel="nofollow"' in get(shop + "/about.html")[2]
    draft = get(blog + "/drafts/next-post.html")[2]
    assert b'<meta name="politecrawl" content="noindex, nofollow">' in draft
    assert b'<meta name="otherbot" content="noindex">' in get(blog + "/posts/tea-or-coffee.html")[2]
    status, headers, body = get(files + "/catalogue.pdf")
    assert (status, headers["Content-Type"], headers["X-Robots-Tag"]) == (
        200,
        "application/pdf",
        "noindex",
    )
    assert body.startswith(b"%PDF-")
    assert get(files + "/price-list.html")[1]["X-Robots-Tag"] == "politecrawl: nofollow"


def test_head_sends_headers_without_a_body(site):
    status, headers, body = get(site.bases["blog"] + "/", method="HEAD")
    assert (status, body) == (200, b"")
    assert int(headers["Content-Length"]) > 0


def test_about_describes_our_pages_only(site):
    assert "404" in (site.about(site.bases["blog"] + "/") or "")
    assert site.about(site.bases["shop"] + "/search?q=tea") == SITE["shop"]["/search"].about
    assert site.about(site.bases["shop"] + "/nowhere.html") is None
    assert site.about("http://example.org/") is None


def test_the_log_records_every_request_in_order():
    with DemoSite() as site:
        shop, blog = site.bases["shop"], site.bases["blog"]
        before = time.monotonic()
        get(shop + "/robots.txt")
        get(shop + "/search?q=tea")
        get(blog + "/missing.html")
        get(shop + "/")
        log = site.requests
        assert [(origin, path) for _, origin, path in log] == [
            (shop, "/robots.txt"),
            (shop, "/search?q=tea"),
            (blog, "/missing.html"),
            (shop, "/"),
        ]
        times = [at for at, _, _ in log]
        assert before <= times[0] <= times[1] <= times[2] <= times[3] <= time.monotonic()
        counts = site.politeness()
        assert counts[shop][0] == 3
        assert counts[blog] == (1, None)
        assert counts[site.bases["private"]] == (0, None)
        assert counts[shop][1] == pytest.approx(min(times[1] - times[0], times[3] - times[1]))


def _refused(base: str) -> bool:
    parts = urlsplit(base)
    try:
        socket.create_connection((parts.hostname, parts.port), timeout=1).close()
    except OSError:
        return True
    return False


def test_closing_stops_every_server_and_closes_its_port():
    with DemoSite() as site:
        bases = list(site.origins)
        assert get(site.seeds[0])[0] == 200
    assert all(_refused(base) for base in bases)


def test_falls_back_to_127_0_0_1_with_distinct_ports(monkeypatch):
    real = demo_site._Server

    class OnlyLocalhost(real):
        def __init__(self, address, site, name):
            if address != "127.0.0.1":
                raise OSError(49, "Can't assign requested address")
            super().__init__(address, site, name)

    monkeypatch.setattr(demo_site, "_Server", OnlyLocalhost)
    with DemoSite() as site:
        parts = [urlsplit(base) for base in site.origins]
        assert {p.hostname for p in parts} == {"127.0.0.1"}
        assert len({p.port for p in parts}) == 4
        assert get(site.bases["private"] + "/robots.txt")[0] == 403
    assert all(_refused(base) for base in site.origins)


def test_a_crawl_of_the_demo_finds_what_its_pages_promise(tmp_path):
    """The figures ``politecrawl demo`` shows, with its settings (0.1 s delay, no retries)."""
    config = CrawlConfig(
        database=str(tmp_path / "demo.db"), delay_seconds=0.1, max_retries=0, workers=4
    )
    excluded = []
    with DemoSite() as site, Crawler(config, on_excluded=excluded.append) as crawler:
        crawler.add_seeds(site.seeds)
        pages = {page.url: page for page in crawler.crawl()}
        summary = crawler.summary
        shop, private = site.bases["shop"], site.bases["private"]
        gaps = site.politeness()
    # S1: the shop's sitemap adds an orphan page (matcha) and a listed page that is gone
    # (kettle); the blog's and the files' /sitemap.xml answer 404 and are sitemaps, not pages,
    # and none read: the shop's is the one sitemap read.
    assert (summary.pages, summary.indexable, summary.noindex, summary.nofollow) == (25, 17, 3, 3)
    assert (summary.errors, summary.redirects, summary.robots_fetches) == (3, 2, 4)
    assert summary.sitemaps == 1
    assert {e.url for e in excluded if e.reason == "robots"} == {
        f"{private}/",
        f"{shop}/news/",
        f"{shop}/news/public/summer-sale.html",
        f"{shop}/cart/",
        f"{shop}/search?q=tea",
    }
    assert pages[f"{shop}/products/teapot.html"].status == 404
    assert pages[f"{shop}/status.html"].status == 500
    only_behind_nofollow = ("/terms.html", "/phone-list.html", "/unfinished.html", "/stock.html")
    assert not [url for url in pages if url.endswith(only_behind_nofollow)]
    assert gaps[shop][1] is not None
    assert gaps[shop][1] >= 0.2  # Crawl-delay: 0.2
    assert gaps[private][0] == 1  # robots.txt only
