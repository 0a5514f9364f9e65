"""The end-to-end test web itself: its servers, log, ground truth and auditors (tests/site/).

The site is checked with plain ``requests`` (no crawler code): every robots.txt outcome answers
as described, conditional requests, redirects, traps, slow, huge and gzip pages, sitemaps, the
log. The truth is spot-checked rule by rule (its sitemap reader too), and the auditors run on
synthetic logs and on a real one.
"""

from __future__ import annotations

import gzip
import sys
import threading
import time
import zlib
from email.utils import formatdate
from pathlib import Path
from urllib.parse import urljoin

# "tests.site", not "site": a bare "site" is the standard library's module.
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import pytest
import requests
from tests.site import (
    CheckTruth,
    Page,
    Request,
    TrapGuard,
    Truth,
    audit,
    build_site,
    fixtures,
    serve,
)
from tests.site.build_main import CHAIN_REDIRECTS, META_CASES
from tests.site.build_outbound import (
    FRAGMENTS,
    OUTBOUND_CRAWL_DELAY,
    OUTBOUND_KEYS,
    OUTBOUND_SLOW_SECONDS,
)
from tests.site.canonical import host_of, origin_of, path_of
from tests.site.model import redirect
from tests.site.pages import read_html
from tests.site.robots_rules import parse_robots as oracle_parse
from tests.site.sitemap_reader import lastmod_seconds, read_sitemap

from politecrawl.robots import parse_robots as engine_parse

web = fixtures.web  # the fixture, until tests/conftest.py imports it for every test
MiB = 1 << 20


def get(url: str, **options) -> requests.Response:
    options.setdefault("timeout", 10)
    options.setdefault("allow_redirects", False)
    return requests.get(url, **options)


# --- the description --------------------------------------------------------------------------


def test_build_is_deterministic_and_the_seed_shapes_it():
    one, again, other = build_site(0), build_site(0), build_site(1)
    assert one == again
    assert other != one
    ports = {origin.key: 40000 + n for n, origin in enumerate(one.origins)}
    assert one.bind(ports).truth() == again.bind(ports).truth()
    assert one.bind(ports).truth().must != other.bind(ports).truth().must


def test_truth_needs_ports():
    with pytest.raises(ValueError, match="bind"):
        build_site().truth()


def test_o1_each_origin_has_its_own_loopback_address(web):
    addresses = [origin.address for origin in web.site.origins]
    assert len(set(addresses)) == len(addresses) >= 15
    assert all(a.startswith("127.0.0.") and a != "127.0.0.1" for a in addresses)
    assert all(base.rsplit(":", 1)[1] != "0" for base in web.bases.values())
    assert web.url("outside") not in web.seeds
    unseeded = {"outside"} | OUTBOUND_KEYS  # C1, L1: out of the crawl's scope
    assert {o.key for o in web.site.origins if not o.seeded} == unseeded
    assert len(web.seeds) == len(addresses) - len(unseeded)


def test_truth_lists_are_disjoint_and_every_fetch_is_described(web):
    truth = web.truth()
    assert not truth.must & set(truth.never)
    assert not truth.may & (truth.must | set(truth.never))
    undescribed = {url for url in truth.must if web.site.page_at(url) is None}
    assert undescribed  # S1: each guessed /sitemap.xml the site has not got: a 404
    assert all(url.endswith("/sitemap.xml") for url in undescribed)
    assert all(truth.sitemaps[url].status == 404 for url in undescribed)
    assert truth.indexable | truth.noindex <= truth.must
    assert not truth.indexable & set(truth.sitemaps)  # S2: a sitemap is never a page


# --- robots.txt outcomes (O3-O8) -----------------------------------------------------------------

ROBOTS_STATUS = {
    "main": 200,
    "friend": 200,
    "robots-404": 404,
    "robots-410": 410,
    "robots-401": 401,
    "robots-403": 403,
    "robots-503": 503,
    "robots-redirect": 301,
    "robots-redirect-cross": 302,
    "robots-redirect-loop": 302,
    "robots-huge": 200,
    "robots-disallow-all": 200,
}


def test_o3_to_o7_each_robots_txt_answers_as_described(web):
    for key, status in ROBOTS_STATUS.items():
        assert get(web.url(key, "/robots.txt")).status_code == status, key
    assert "User-agent: politecrawl" in get(web.url("main", "/robots.txt")).text
    assert get(web.url("robots-disallow-all", "/robots.txt")).text.endswith("Disallow: /\n")
    assert get(web.url("robots-503", "/robots.txt")).headers["Retry-After"] == "1"
    assert "WWW-Authenticate" in get(web.url("robots-401", "/robots.txt")).headers


def test_o6_robots_fails_once_then_answers(web):
    url = web.url("robots-500-then-200", "/robots.txt")
    assert [get(url).status_code for _ in range(3)] == [500, 200, 200]
    assert "Disallow: /private/" in get(url).text


def test_o7_robots_redirects_local_cross_origin_and_loop(web):
    local = get(web.url("robots-redirect", "/robots.txt"), allow_redirects=True)
    assert local.url == web.url("robots-redirect", "/policies/robots.txt")
    assert "Disallow: /blocked-by-redirect/" in local.text
    cross = get(web.url("robots-redirect-cross", "/robots.txt"), allow_redirects=True)
    assert cross.url == web.url("friend", "/shared-robots.txt")
    assert "Disallow: /blocked-by-cross/" in cross.text
    with pytest.raises(requests.TooManyRedirects):
        get(web.url("robots-redirect-loop", "/robots.txt"), allow_redirects=True)


def test_o8_oversized_robots_has_its_rule_after_the_cut(web):
    body = get(web.url("robots-huge", "/robots.txt")).content
    assert len(body) > 512 * 1024
    assert body.index(b"Disallow: /early/") < 512 * 1024 < body.index(b"Disallow: /late/")


def test_o6_slow_robots_answers_late_and_the_log_says_so(web):
    started = time.monotonic()
    assert get(web.url("robots-slow", "/robots.txt")).status_code == 200
    assert time.monotonic() - started >= 0.95
    entry = web.log[-1]
    assert entry.finished_at - entry.started_at >= 0.95


# --- pages ---------------------------------------------------------------------------------------


def test_e3_conditional_requests_answer_304_until_the_page_changes(web):
    url = web.url("main", "/about.html")
    first = get(url)
    etag, modified = first.headers["ETag"], first.headers["Last-Modified"]
    assert get(url, headers={"If-None-Match": etag}).status_code == 304
    assert get(url, headers={"If-None-Match": '"other"'}).status_code == 200
    assert get(url, headers={"If-Modified-Since": modified}).status_code == 304
    assert get(url, headers={"If-Modified-Since": formatdate(0, usegmt=True)}).status_code == 200
    assert get(url, headers={"If-None-Match": etag}).content == b""
    web.set_body("main", "/about.html", "<p>changed</p>")
    changed = get(url, headers={"If-None-Match": etag, "If-Modified-Since": modified})
    assert changed.status_code == 200
    assert changed.text == "<p>changed</p>"
    assert changed.headers["ETag"] != etag
    assert changed.headers["Last-Modified"] != modified


def test_the_site_can_change_while_running(web):
    web.remove_page("main", "/about.html")
    assert get(web.url("main", "/about.html")).status_code == 404
    web.set_robots("friend", "User-agent: *\nDisallow: /\n")
    assert get(web.url("friend", "/robots.txt")).text == "User-agent: *\nDisallow: /\n"
    web.set_page("main", "/new.html", Page(b'<a href="@@friend@@/">friend</a>'))
    assert web.url("friend", "/") in get(web.url("main", "/new.html")).text
    assert web.url("main", "/new.html") in web.truth().never  # not linked: unreached
    web.set_robots("robots-503", "User-agent: *\nDisallow:\n")
    assert web.url("robots-503", "/p/1.html") in web.truth().must


def test_c2_escaped_and_unescaped_paths(web):
    assert get(web.url("main", "/%7Ejoe/")).text == get(web.url("main", "/~joe/")).text
    slash = get(web.url("main", "/a%2Fb/c.html"))
    assert slash.status_code == 200
    assert slash.text != get(web.url("main", "/a/b/c.html")).text


def test_c4_redirects(web):
    for code in (301, 302, 303, 307, 308):
        answer = get(web.url("main", f"/redir/{code}"))
        assert answer.status_code == code
        landed = get(web.url("main", f"/redir/{code}"), allow_redirects=True)
        assert landed.url == web.url("main", f"/redir/landing-{code}/index.html")
    assert (
        get(web.url("main", "/redir/to-friend")).headers["Location"].startswith(web.url("friend"))
    )
    url, hops = web.url("main", "/redir/chain/0"), 0
    while (answer := get(url)).is_redirect:
        url, hops = urljoin(url, answer.headers["Location"]), hops + 1
    assert hops == CHAIN_REDIRECTS > 10
    with pytest.raises(requests.TooManyRedirects):
        get(web.url("main", "/redir/loop-a"), allow_redirects=True)


def test_c3_traps_go_on_forever(web):
    deep = "/cal/2024-01/" + "".join(f"2024-{m:02d}/" for m in range(2, 13)) + "2025-01/"
    assert 'href="2025-02/"' in get(web.url("main", deep)).text
    assert 'href="x/"' in get(web.url("main", "/loop" + "/x" * 30 + "/")).text
    query = "/shop/list?sort=price" + "&sort=price" * 20
    assert get(web.url("main", query)).status_code == 200
    assert get(web.url("main", "/cal/2024-13/")).status_code == 404


def test_p3_slow_page(web):
    started = time.monotonic()
    assert get(web.url("main", "/slow.html")).status_code == 200
    assert time.monotonic() - started >= 0.95


def test_c7_huge_gzip_and_bomb_bodies(web):
    huge = get(web.url("main", "/big/huge.html"), stream=True)
    assert int(huge.headers["Content-Length"]) > 10 * MiB
    assert len(huge.raw.read(11 * MiB + 4096)) > 10 * MiB
    huge.close()
    zipped = get(web.url("main", "/gz/page.html"))
    assert zipped.headers["Content-Encoding"] == "gzip"
    assert 'href="from-gzip.html"' in zipped.text  # requests inflates it
    bomb = get(web.url("main", "/big/bomb.html"), stream=True)
    raw = bomb.raw.read(decode_content=False)
    bomb.close()
    assert len(raw) < 100 * 1024
    inflated = zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(raw, 10 * MiB + 1)
    assert len(inflated) > 10 * MiB


def test_errors_and_files(web):
    for path, status in [("missing", 404), ("gone", 410), ("broken", 500)]:
        assert get(web.url("main", f"/errors/{path}.html")).status_code == status
    assert get(web.url("main", "/no/such/page")).status_code == 404
    notes = get(web.url("main", "/files/notes.txt"))
    assert notes.headers["Content-Type"].startswith("text/plain")
    assert notes.headers["X-Robots-Tag"] == "noindex"
    assert get(web.url("main", "/files/logo.png")).content.startswith(b"\x89PNG")


def test_t1_to_t4_directives_are_served(web):
    for name, (metas, x_robots) in META_CASES.items():
        answer = get(web.url("main", f"/meta/{name}.html"))
        facts = read_html(answer.content)
        assert [(n.lower(), c) for n, c in metas] == list(facts.metas), name
        header = answer.headers.get("X-Robots-Tag")
        assert header == (", ".join(x_robots) or None), name  # requests joins repeated headers


# --- the log -------------------------------------------------------------------------------------


def test_log_records_every_request_with_both_clocks(web):
    before_wall = time.time()
    with requests.Session() as session:
        session.headers["User-Agent"] = "politecrawl/0 (+test)"
        session.get(web.url("main", "/robots.txt"), timeout=10)
        session.get(web.url("main", "/a%2Fb/c.html"), timeout=10)
        session.head(web.url("friend", "/"), timeout=10)
        session.post(web.url("main", "/form/submit"), data={"q": "x"}, timeout=10)
    entries = list(web.log)
    assert [(e.method, e.path_with_query, e.status) for e in entries] == [
        ("GET", "/robots.txt", 200),
        ("GET", "/a%2Fb/c.html", 200),
        ("HEAD", "/", 200),
        ("POST", "/form/submit", 405),
    ]
    assert entries[0].origin == web.base("main")
    assert entries[2].host == web.host("friend")
    assert all(e.header("user-agent") == "politecrawl/0 (+test)" for e in entries)
    assert all(e.started_at <= e.finished_at for e in entries)
    assert all(before_wall <= e.started_wall <= e.finished_wall <= time.time() for e in entries)
    assert [e.started_at for e in entries] == sorted(e.started_at for e in entries)


def test_log_is_complete_under_concurrency(web):
    urls = [web.url(key, "/") for key in web.bases if key != "outside"] * 4
    threads = [threading.Thread(target=get, args=(url,)) for url in urls]
    started = time.monotonic()
    for thread in threads:
        thread.start()
    get(web.url("main", "/slow.html"))  # one slow answer holds up no other request
    for thread in threads:
        thread.join()
    assert len(web.log) == len(urls) + 1
    assert time.monotonic() - started < 5


# --- the truth, rule by rule ---------------------------------------------------------------------


def short(web, urls) -> set[str]:
    """``main/about.html`` for ``http://127.0.0.2:PORT/about.html`` (other origins as they are:
    docs.python.org's robots.txt names its real sitemap, never fetched, C1)."""
    names = {base: key for key, base in web.bases.items()}
    return {names.get(origin_of(url), origin_of(url)) + path_of(url) for url in urls}


def test_truth_robots_rules_on_main_m1_m2_m4(web):
    must, never = short(web, web.truth().must), short(web, web.truth().never)
    assert {"main/private/open.html", "main/search", "main/a/b/c.html", "main/~joe/"} <= must
    assert {
        "main/private/secret.html",  # M1
        "main/docs/public.html",  # M1: first match (Disallow /docs/ before Allow)
        "main/~joe/private/diary.html",  # M2: %7E decoded
        "main/a%2Fb/c.html",  # M2: %2F kept
        "main/search?q=robots",  # M4
        "main/private/redirected.html",  # C4: a redirect hop into a disallowed path
    } <= never


def test_truth_directives_t1_to_t6(web):
    truth = web.truth()
    must, never, noindex = (
        short(web, truth.must),
        short(web, truth.never),
        short(web, truth.noindex),
    )
    followed = {
        "noindex",
        "all",
        "noindex-follow",
        "conflict-terms",
        "agent-case",
        "googlebot",
        "xrobots-other",
        "xrobots-two",
    }
    for name in META_CASES:
        target = f"main/meta/t/after-{name}.html"
        assert target in (must if name in followed else never), name
    assert {url for url in noindex if url.startswith("main/")} == {
        f"main/meta/{n}.html"
        for n in (
            "noindex",
            "none",
            "noindex-follow",
            "upper-spaces",
            "conflict-terms",
            "agent-case",
            "xrobots",
            "xrobots-two",
        )
    } | {"main/files/notes.txt"}
    assert "main/both.html" in must
    assert {
        "main/hidden/nofollowed.html",
        "main/hidden/external.html",
        "main/hidden/deeper.html",
    } <= never
    assert truth.never[web.url("main", "/hidden/nofollowed.html")].startswith("T6")
    assert truth.never[web.url("main", "/form/submit")].startswith("P4")


def test_truth_redirects_c4_and_base_t7(web):
    truth = web.truth()
    must, never = short(web, truth.must), short(web, truth.never)
    assert {f"main/redir/chain/{hop}" for hop in range(11)} <= must
    assert truth.never[web.url("main", "/redir/chain/11")].startswith("C4")
    assert {"main/redir/loop-a", "main/redir/loop-b", "friend/from-redirect.html"} <= must
    assert {f"main/redir/landing-{code}/next.html" for code in (301, 302, 303, 307, 308)} <= must
    assert {"main/base/target/page.html", "main/base/up.html"} <= must
    assert "outside/landing.html" in never
    shorter = web.truth(max_redirects=3)
    assert shorter.never[web.url("main", "/redir/chain/4")].startswith("C4")


def test_truth_traps_c3_and_limits_c7(web):
    truth = web.truth()
    must = short(web, truth.must)
    assert sum(url.startswith("main/cal/") for url in must) == 5  # depth 2..6
    assert sum(url.startswith("main/loop/") for url in must) == 3  # x at most 3 times
    assert sum(url.startswith("main/shop/") for url in must) == 5  # query up to 64
    deeper = web.truth(guard=TrapGuard(max_path_depth=8))
    assert sum(url.startswith(web.url("main", "/cal/")) for url in deeper.must) == 7
    assert truth.never[web.url("main", "/big/huge-tail.html")].startswith("C7")
    assert truth.never[web.url("main", "/big/bomb-tail.html")].startswith("C7")
    assert web.url("main", "/gz/from-gzip.html") in truth.must


def test_truth_robots_outcomes_o3_to_o8(web):
    truth = web.truth()
    kinds = {key: truth.outcomes[web.base(key)] for key in ROBOTS_STATUS}
    assert kinds["robots-404"] == kinds["robots-410"] == "allow-all"
    assert kinds["robots-401"] == kinds["robots-403"] == "disallow-all"
    assert kinds["robots-503"] == kinds["robots-redirect-loop"] == "deferred"
    must, never = short(web, truth.must), short(web, truth.never)
    assert {
        "robots-404/private/secret.html",
        "robots-410/private/secret.html",
        "robots-redirect-cross/private/secret.html",
        "friend/shared-robots.txt",
        "robots-redirect/policies/robots.txt",
    } <= must
    assert {
        "robots-401/",
        "robots-403/",
        "robots-503/",
        "robots-redirect-loop/",
        "robots-disallow-all/",
        "robots-500-then-200/private/secret.html",
        "robots-redirect/blocked-by-redirect/page.html",
        "robots-huge/early/page.html",
        # O8: the file goes on past 512 KiB, so what no rule read decides is not fetched.
        "robots-huge/",
        "robots-huge/late/page.html",
        "robots-redirect-cross/blocked-by-cross/page.html",
    } <= never
    assert {f"{key}/robots.txt" for key in ROBOTS_STATUS} <= must
    bigger = web.truth(robots_max_bytes=1 * MiB)
    assert web.url("robots-huge", "/late/page.html") in bigger.never
    assert web.url("robots-huge", "/") in bigger.must  # read whole, nothing is in doubt
    lenient = web.truth(disallow_on_401_403=False)  # O5's setting
    assert web.url("robots-401", "/") in lenient.must


def test_truth_scope_agents_and_delays_c1_a2_a3_p2(web):
    truth = web.truth()
    assert short(web, [u for u, why in truth.never.items() if why.startswith("C1")]) >= {
        "outside/",
        "outside/robots.txt",
    }
    alone = web.truth(seeds=[web.url("main")])
    assert web.url("friend", "/") in alone.never
    assert web.url("friend", "/robots.txt") not in alone.must
    assert web.url("main", "/about.html") not in web.truth(max_depth=0).must
    other = web.truth(agent="otherbot")  # A2: its own record, Disallow: /
    assert web.url("main", "/about.html") in other.never
    star = web.truth(agent="somebot")  # A3: the * record
    assert web.url("main", "/private/secret.html") in star.must
    assert web.url("main", "/products/") in star.never
    assert star.crawl_delays[web.host("main")] == 2
    assert truth.crawl_delays[web.host("main")] == 0.2
    assert truth.delays(1.0)[web.host("main")] == 1.0
    assert truth.delays(0.0)[web.host("main")] == 0.2
    assert web.truth(rel_nofollow=False).must >= {web.url("main", "/hidden/deeper.html")}


# --- sitemaps (S1-S4): the servers, the oracle's reader, the truth -------------------------------


def test_s1_s2_the_sitemap_origins_answer_as_described(web):
    robots = get(web.url("sitemaps", "/robots.txt")).text
    assert f"Sitemap: {web.url('sitemaps', '/sitemap_index.xml')}\n" in robots
    assert f"Sitemap: {web.url('sitemaps', '/sitemap-news.xml')}\n" in robots
    assert "Disallow: /private/" in robots
    index = get(web.url("sitemaps", "/sitemap_index.xml"))
    assert index.headers["Content-Type"] == "application/xml"
    assert f"<loc>{web.url('sitemaps', '/sitemaps/pages.xml.gz')}</loc>" in index.text
    zipped = get(web.url("sitemaps", "/sitemaps/pages.xml.gz"), stream=True)
    raw = zipped.raw.read(decode_content=False)
    assert zipped.headers["Content-Type"] == "application/gzip"
    assert "Content-Encoding" not in zipped.headers  # S2: gzip as a file, not as a transfer
    assert raw[:2] == b"\x1f\x8b"
    assert f"<loc>{web.url('sitemaps', '/orphan.html')}</loc>" in gzip.decompress(raw).decode()
    more = get(web.url("sitemaps", "/sitemaps/more.txt"))
    assert more.headers["Content-Type"].startswith("text/plain")
    assert web.url("sitemap-guess", "/listed-elsewhere.html") in more.text.splitlines()
    news = get(web.url("sitemaps", "/sitemap-news.xml")).text
    assert "/catalog?kind=news&amp;page=2\n" in news
    assert "<image:loc>" in news
    old = get(web.url("sitemaps", "/old.html"))
    assert (old.status_code, old.headers["Location"]) == (301, "/new.html")
    assert get(web.url("sitemaps", "/gone.html")).status_code == 404
    copy = read_html(get(web.url("sitemaps", "/canonical-elsewhere.html")).content)
    assert copy.canonical_href == web.url("sitemaps", "/a.html")
    assert get(web.url("sitemap-guess", "/robots.txt")).status_code == 404
    guessed = get(web.url("sitemap-guess", "/sitemap.xml")).text
    assert f"<loc>{web.url('sitemap-guess', '/orphan.html')}</loc>" in guessed
    elsewhere = get(web.url("sitemap-outside", "/robots.txt")).text
    assert f"Sitemap: {web.url('outside', '/sitemap.xml')}" in elsewhere
    assert get(web.url("friend", "/sitemap.xml")).status_code == 404  # S1: guessed, absent


def test_s2_the_gzip_bomb_sitemap_is_small_and_inflates_past_50_mib(web):
    robots = get(web.url("sitemap-bomb", "/robots.txt")).text
    url = web.url("sitemap-bomb", "/sitemaps/bomb.xml.gz")
    assert f"Sitemap: {url}" in robots
    answer = get(url, stream=True)
    raw = answer.raw.read(decode_content=False)
    assert answer.headers["Content-Type"] == "application/gzip"
    assert len(raw) < 100 * 1024
    inflater, inflated, tail, data = zlib.decompressobj(16 + zlib.MAX_WBITS), 0, b"", raw
    while data:  # a piece at a time: never 56 MiB at once
        piece = inflater.decompress(data, MiB)
        data, inflated, tail = inflater.unconsumed_tail, inflated + len(piece), piece[-200:]
    assert inflater.eof
    assert inflated > 50 * MiB
    assert web.url("sitemap-bomb", "/after-the-cut.html").encode() in tail


NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def named(web, url: str) -> str:
    """``short`` for one URL."""
    return next(iter(short(web, [url])))


def test_s2_the_oracle_reads_urlsets_indexes_gzip_and_text():
    urlset = (
        f'\ufeff<?xml version="1.0"?>\n<urlset {NS} xmlns:i="http://i.test/1">\n'
        "<url><loc>\n  http://a.test/x?a=1&amp;b=2\n</loc><lastmod>2024-05-01</lastmod>"
        "<i:image><i:loc>http://a.test/pic</i:loc></i:image></url>\n"
        "<url><loc><![CDATA[http://a.test/y]]></loc></url>\n</urlset>\n"
    ).encode()
    found = read_sitemap(urlset)
    assert found.format == "urlset"
    assert [(e.loc, e.lastmod, e.line) for e in found.entries] == [
        ("http://a.test/x?a=1&b=2", "2024-05-01", 3),
        ("http://a.test/y", None, 6),
    ]
    assert not found.problems
    assert not found.truncated
    assert read_sitemap(gzip.compress(urlset)) == found  # a gzip file
    assert read_sitemap(gzip.compress(urlset), content_encoding="gzip") == found
    index = f"<sitemapindex {NS}><sitemap><loc>http://a.test/s.xml</loc></sitemap></sitemapindex>"
    assert read_sitemap(index.encode()).format == "index"
    assert [e.loc for e in read_sitemap(index.encode()).entries] == ["http://a.test/s.xml"]
    text = read_sitemap(b"http://a.test/1\n\n  http://a.test/2  \r\n")
    assert (text.format, [e.loc for e in text.entries]) == (
        "text",
        ["http://a.test/1", "http://a.test/2"],
    )
    bad = read_sitemap(f"<urlset {NS}>\n<url><loc>http://a.test/1</loc></url>\n<url><loc>".encode())
    assert [e.loc for e in bad.entries] == ["http://a.test/1"]
    assert len(bad.problems) == 1
    assert bad.problems[0].startswith("line 3:")
    assert read_sitemap(b"<rss><channel/></rss>").format == "unknown"
    many = "".join(f"<url><loc>http://a.test/{n}</loc></url>" for n in range(5))
    capped = read_sitemap(f"<urlset {NS}>{many}</urlset>".encode(), max_entries=3)
    assert (len(capped.entries), capped.truncated) == (3, True)
    late = f"<urlset {NS}>" + " " * 5000 + "<url><loc>http://a.test/late</loc></url></urlset>"
    cut = read_sitemap(gzip.compress(late.encode()), max_bytes=4096)
    assert (cut.entries, cut.truncated, cut.beyond) == ((), True, ("http://a.test/late",))


def test_s3_the_oracle_reads_w3c_lastmod():
    assert lastmod_seconds("2024-01-01") == 1_704_067_200
    assert lastmod_seconds("2024-01-01T01:00:00+01:00") == 1_704_067_200
    assert lastmod_seconds("2024-01-01T00:00Z") == 1_704_067_200
    assert lastmod_seconds("2024-01-01T00:00:00.5Z") == 1_704_067_200
    assert lastmod_seconds("2024") == lastmod_seconds("2024-01") == 1_704_067_200
    for malformed in ("last Tuesday", "2024-02-30", "2024-13-01", "01/02/2024", ""):
        assert lastmod_seconds(malformed) is None, malformed


def test_s1_the_truth_fetches_named_and_guessed_sitemaps(web):
    truth = web.truth()
    sources = {
        named(web, url): (s.source, s.nesting, s.status, s.format)
        for url, s in truth.sitemaps.items()
    }
    assert sources["sitemaps/sitemap_index.xml"] == ("robots", 0, 200, "index")
    assert sources["sitemaps/sitemap-news.xml"] == ("robots", 0, 200, "urlset")
    assert sources["sitemaps/sitemaps/pages.xml.gz"] == ("index", 1, 200, "urlset")
    assert sources["sitemaps/sitemaps/more.txt"] == ("index", 1, 200, "text")
    assert sources["sitemap-guess/sitemap.xml"] == ("guess", 0, 200, "urlset")
    assert sources["main/sitemap.xml"] == ("robots", 0, 200, "urlset")
    assert sources["robots-longest/sitemap.xml"] == ("robots", 0, 404, None)  # named, absent
    assert sources["friend/sitemap.xml"] == ("guess", 0, 404, None)
    assert sources["robots-404/sitemap.xml"] == ("guess", 0, 404, None)  # O4: allow-all
    assert sources["robots-redirect-cross/sitemap.xml"][0] == "guess"  # O7: its robots.txt
    assert set(truth.sitemaps) <= truth.must
    never = truth.never
    assert never[web.url("outside", "/sitemap.xml")].startswith("C1")  # named by another
    assert never["https://docs.python.org/sitemap.xml"].startswith("C1")
    assert never[web.url("robots-disallow-all", "/sitemap.xml")].startswith("M7")
    for key in ("robots-401", "robots-403", "robots-503", "robots-redirect-loop", "outside"):
        assert web.url(key, "/sitemap.xml") not in truth.must, key  # O5/O6/C1: none queued
    vouching = {named(web, s.for_origin + "/") for s in truth.sitemaps.values()}
    assert not vouching & {"robots-401/", "robots-503/", "robots-disallow-all/", "outside/"}
    unguessed = web.truth(sitemap_guess=False)
    assert web.url("friend", "/sitemap.xml") not in unguessed.must | set(unguessed.never)
    assert web.url("sitemaps", "/sitemap_index.xml") in unguessed.must
    alone = web.truth(seeds=[web.url("sitemap-guess")])
    assert web.url("sitemap-guess", "/orphan.html") in alone.must
    assert web.url("main", "/sitemap.xml") not in alone.must  # main is out of scope


def test_s2_the_truth_reads_sitemaps_and_crawls_what_they_list(web):
    truth = web.truth()
    must, never = short(web, truth.must), truth.never
    assert {
        "sitemaps/orphan.html",  # listed only
        "sitemaps/orphan-child.html",  # then crawled like any page
        "sitemaps/gone.html",
        "sitemap-guess/orphan.html",
        "sitemap-bomb/sitemaps/bomb.xml.gz",
    } <= must
    assert never[web.url("sitemap-guess", "/listed-elsewhere.html")].startswith("S2")
    assert never[web.url("sitemap-bomb", "/after-the-cut.html")].startswith("S2")
    assert never[web.url("sitemaps", "/images/photo.html")].startswith("unreached")  # image:loc
    assert never[web.url("sitemaps", "/private/listed.html")].startswith("M7")
    bomb = truth.sitemaps[web.url("sitemap-bomb", "/sitemaps/bomb.xml.gz")]
    assert (bomb.listed, bomb.truncated) == ((), True)
    assert bomb.url not in truth.repeatable  # fetched once
    more = truth.sitemaps[web.url("sitemaps", "/sitemaps/more.txt")]
    assert more.other_origins == (web.url("sitemap-guess", "/listed-elsewhere.html"),)
    assert short(web, truth.listed) >= {
        "sitemaps/",
        "sitemaps/catalog?kind=news&page=2",  # &amp; unescaped, whitespace stripped
        "sitemaps/private/listed.html",
        "main/about.html",
    }
    assert not short(web, truth.listed) & {
        "sitemaps/images/photo.html",
        "sitemaps/sitemaps/more.txt",
    }
    shallow = web.truth(max_sitemap_nesting=0)  # the index's children are not read
    assert shallow.sitemaps[web.url("sitemaps", "/sitemap_index.xml")].children_ignored
    assert web.url("sitemaps", "/sitemaps/pages.xml.gz") in shallow.never
    assert web.url("sitemaps", "/orphan.html") in shallow.never
    assert web.url("main", "/about.html") not in web.truth(max_depth=0).must  # depth 0 + 1
    few = web.truth(max_sitemap_entries=1)
    assert few.sitemaps[web.url("sitemap-guess", "/sitemap.xml")].listed == (
        web.url("sitemap-guess"),
    )
    assert web.url("sitemap-guess", "/orphan.html") in few.never


def test_s2_a_failing_sitemap_is_retried_and_a_redirected_one_followed(web):
    guessed = web.url("sitemap-guess", "/sitemap.xml")
    body = web.site.page_at(guessed).body
    web.set_page("sitemap-guess", "/sitemap.xml", Page(b"busy", status=503))
    truth = web.truth()
    assert guessed in truth.repeatable & truth.must
    assert truth.sitemaps_failed[guessed] == "status 503"
    assert web.url("sitemap-guess", "/orphan.html") in truth.never
    web.set_page("sitemap-guess", "/sitemap.xml", redirect(301, "/maps/all.xml"))
    web.set_page("sitemap-guess", "/maps/all.xml", Page(body, content_type="application/xml"))
    moved = web.truth()
    target = moved.sitemaps[web.url("sitemap-guess", "/maps/all.xml")]
    assert (target.source, target.nesting, target.for_origin) == (
        "guess",
        0,
        web.base("sitemap-guess"),
    )
    assert guessed not in moved.sitemaps_failed
    assert web.url("sitemap-guess", "/orphan.html") in moved.must


def test_s4_the_truth_audits_the_sitemaps(web):
    truth = web.truth()

    def on_sitemaps(urls) -> set[str]:
        return {
            url.removeprefix("sitemaps") for url in short(web, urls) if url.startswith("sitemaps/")
        }

    assert on_sitemaps(truth.orphans) == {"/orphan.html", "/private/listed.html", "/gone.html"}
    assert short(web, truth.orphans) - {f"sitemaps{p}" for p in on_sitemaps(truth.orphans)} == {
        "sitemap-guess/orphan.html"
    }
    assert on_sitemaps(truth.listed_broken) == {"/gone.html"}
    assert on_sitemaps(truth.listed_redirected) == {"/old.html"}
    assert on_sitemaps(truth.listed_noindex) == {"/noindex.html"}
    assert on_sitemaps(truth.listed_disallowed) == {"/private/listed.html"}
    assert truth.listed_out_of_scope == frozenset()
    assert truth.listed_not_canonical == {
        web.url("sitemaps", "/canonical-elsewhere.html"): web.url("sitemaps", "/a.html")
    }
    assert on_sitemaps(truth.missing_from_sitemaps) == {"/unlisted.html", "/orphan-child.html"}
    assert web.url("main", "/team/people.html") in truth.missing_from_sitemaps
    assert not short(web, truth.missing_from_sitemaps) & {"friend/", "robots-404/p/1.html"}
    assert short(web, truth.lastmod_future) == {"sitemaps/a.html"}
    assert short(web, truth.lastmod_malformed) == {"sitemaps/b.html"}
    failed = {named(web, url): why for url, why in truth.sitemaps_failed.items()}
    assert failed["friend/sitemap.xml"] == "status 404"
    assert failed["sitemap-bomb/sitemaps/bomb.xml.gz"].endswith("nothing listed")
    assert not {"sitemaps/sitemap_index.xml", "main/sitemap.xml"} & set(failed)
    listed = truth.listed
    assert truth.orphans | truth.listed_broken | truth.listed_redirected <= listed
    assert (
        truth.listed_noindex | truth.listed_disallowed | set(truth.listed_not_canonical) <= listed
    )
    assert listed <= truth.must | set(truth.never)
    assert truth.listed_disallowed <= set(truth.never)
    assert truth.missing_from_sitemaps <= truth.indexable - listed


def test_s1_without_sitemaps_the_truth_is_the_old_one(web):
    on, off = web.truth(), web.truth(sitemaps=False)
    assert off.sitemaps == {}
    assert (off.listed, off.orphans, off.missing_from_sitemaps) == (frozenset(),) * 3
    assert off.sitemaps_failed == {}
    assert short(web, off.may) >= {  # F6: named by robots.txt, fetched or not
        "main/sitemap.xml",
        "robots-longest/sitemap.xml",
        "sitemaps/sitemap_index.xml",
        "sitemaps/sitemap-news.xml",
        "sitemap-bomb/sitemaps/bomb.xml.gz",
    }
    assert not any(url.endswith("/sitemap.xml") for url in off.must)  # nothing guessed
    only_listed = {
        "sitemaps/orphan.html",
        "sitemaps/orphan-child.html",
        "sitemaps/gone.html",
        "sitemap-guess/orphan.html",
    }
    assert short(web, on.must - off.must) == short(web, on.sitemaps) | only_listed
    assert off.must <= on.must
    assert off.indexable <= on.indexable
    assert (off.robots_chains, off.outcomes, off.crawl_delays) == (
        on.robots_chains,
        on.outcomes,
        on.crawl_delays,
    )
    assert all(
        why.startswith("unreached")
        for url, why in off.never.items()
        if url in on.must or on.never.get(url, why) != why
    )


# --- link checking (L1-L5): the servers, the truth -----------------------------------------------


def linkcheck_truth(web, **options) -> Truth:
    """The truth of ``politecrawl check <linkcheck>``: only that origin in scope (L5)."""
    for name in ("check_outbound", "check_resources", "check_fragments"):
        options.setdefault(name, True)
    return web.truth(seeds=[web.url("linkcheck")], **options)


def test_l1_the_outbound_origins_answer_as_described(web):
    for path, status in [("ok", 200), ("missing", 404), ("gone", 410), ("nofollowed", 200)]:
        assert get(web.url("out-status", f"/{path}.html")).status_code == status, path
    assert [get(web.url("out-status", "/broken.html")).status_code for _ in range(3)] == [500] * 3
    assert get(web.url("out-status", "/js/missing.js")).status_code == 404
    url, hops = web.url("out-redirect", "/old.html"), []
    while (answer := get(url)).is_redirect:
        hops.append(answer.status_code)
        url = urljoin(url, answer.headers["Location"])
    assert (hops, url, answer.status_code) == (
        [301, 301],
        web.url("out-status", "/moved-here.html"),
        200,
    )
    assert "Disallow: /private/" in get(web.url("out-robots", "/robots.txt")).text
    assert get(web.url("out-robots", "/private/page.html")).status_code == 200  # robots only asks
    delay = get(web.url("out-delay", "/robots.txt")).text
    assert f"Crawl-delay: {OUTBOUND_CRAWL_DELAY:g}\n" in delay
    assert get(web.url("out-redirect", "/robots.txt")).status_code == 404
    onward = read_html(get(web.url("out-status", "/ok.html")).content).anchors
    assert {href for href, _ in onward} == {
        web.url("out-status", "/deeper.html"),
        web.url("out-delay", "/from-outbound.html"),
    }


def test_l2_a_server_refusing_head_answers_get_and_the_log_has_both_methods(web):
    page = web.url("out-head", "/page.html")
    refused = requests.head(page, timeout=10)
    assert (refused.status_code, refused.headers["Allow"]) == (405, "GET")
    assert requests.head(web.url("out-head", "/page-501.html"), timeout=10).status_code == 501
    answered = get(page)
    assert answered.status_code == 200
    assert "GET only" in answered.text
    assert requests.head(web.url("out-status", "/ok.html"), timeout=10).status_code == 200
    assert [(e.method, e.path_with_query, e.status) for e in web.log] == [
        ("HEAD", "/page.html", 405),
        ("HEAD", "/page-501.html", 501),
        ("GET", "/page.html", 200),
        ("HEAD", "/ok.html", 200),
    ]


def test_l1_c7_a_client_giving_up_on_the_slow_page_is_logged_when_it_left(web):
    assert web.site.options["outbound_slow_seconds"] == OUTBOUND_SLOW_SECONDS == 3.0
    started = time.monotonic()
    with pytest.raises(requests.Timeout):
        requests.head(web.url("out-slow", "/slow.html"), timeout=0.5)
    deadline = time.monotonic() + 2
    while not len(web.log) and time.monotonic() < deadline:
        time.sleep(0.02)
    (entry,) = web.log
    assert (entry.method, entry.status) == ("HEAD", 499)
    assert 0.4 < entry.finished_at - entry.started_at < 1.5  # when it left, not after 3 s
    assert time.monotonic() - started < 2.5
    with serve(build_site(outbound_slow_seconds=0.3)) as quick:
        answer = requests.get(quick.url("out-slow", "/slow.html"), timeout=5)
        assert answer.status_code == 200
        assert quick.log[-1].finished_at - quick.log[-1].started_at >= 0.29


def test_l1_l3_l4_the_linkcheck_pages_link_out_and_hold_resources_and_anchors(web):
    def facts(path):
        return read_html(get(web.url("linkcheck", path)).content)

    home, docs = facts("/"), facts("/docs.html")
    hrefs = {href for href, _ in home.anchors}
    assert web.url("out-status", "/broken.html") in hrefs
    assert ("A nofollow outbound link") in home.anchor_texts
    assert (web.url("out-status", "/nofollowed.html"), "nofollow") in home.anchors
    assert [r.src for r in docs.resources] == [
        "/css/site.css",
        web.url("out-status", "/js/missing.js"),
        "/img/logo.png",
        "/img/missing.png",
        "/img/small.png",
        "/img/small.png",
        "/img/large.png",
    ]
    assert docs.resources[2].text == "The logo"
    assert facts("/anchors.html").ids >= {"present", "named", "café"}
    assert get(web.url("linkcheck", "/img/missing.png")).status_code == 404
    assert get(web.url("linkcheck", "/moved.html")).status_code == 308


def test_l1_without_checking_the_truth_never_leaves_the_site(web):
    truth = web.truth()
    outbound = {url for url in truth.never if origin_of(url) in outbound_bases(web)}
    assert outbound
    assert {truth.never[url][:2] for url in outbound} == {"C1", "T6"}  # T6: nofollowed.html
    assert not {url for url in truth.must if origin_of(url) in outbound_bases(web)}
    assert {"linkcheck/", "linkcheck/docs.html", "linkcheck/moved.html"} <= short(web, truth.must)
    assert short(web, truth.may) >= {  # resources, like any <img>: embedded, not links
        "linkcheck/img/logo.png",
        "linkcheck/img/missing.png",
        "linkcheck/img/large.png",
        "linkcheck/css/site.css",
    }
    assert (truth.checked, truth.checked_forbidden, truth.missing_fragments) == ({}, {}, set())
    assert truth.head_then_get == frozenset()


def outbound_bases(web) -> set[str]:
    return {web.base(key) for key in OUTBOUND_KEYS}


def test_l1_the_truth_checks_each_outbound_link_once_and_never_deeper(web):
    truth = linkcheck_truth(web, check_resources=False)
    assert short(web, truth.checked) == {
        "out-status/ok.html",
        "out-status/missing.html",
        "out-status/gone.html",
        "out-status/broken.html",
        "out-status/moved-here.html",  # the end of out-redirect's chain
        "out-redirect/old.html",
        "out-redirect/older.html",
        "out-head/page.html",
        "out-head/page-501.html",
        "out-robots/public.html",
        "out-delay/a.html",
        "out-delay/b.html",
        "out-delay/c.html",
        "out-delay/d.html",
        "out-slow/slow.html",
    }
    statuses = {named(web, url): found.status for url, found in truth.checked.items()}
    assert statuses["out-status/missing.html"] == 404
    assert statuses["out-status/gone.html"] == 410
    assert statuses["out-status/broken.html"] == 500
    assert statuses["out-slow/slow.html"] == 200  # 3 s < the default 30 s time-out
    assert short(web, truth.checked_broken) == {
        "out-status/missing.html",
        "out-status/gone.html",
        "out-status/broken.html",
    }
    assert web.url("out-status", "/broken.html") in truth.repeatable  # 5xx: retried
    assert set(truth.checked) <= truth.must
    assert {f"{key}/robots.txt" for key in OUTBOUND_KEYS} <= short(web, truth.must)  # O2
    forbidden = web.url("out-robots", "/private/page.html")
    assert truth.checked_forbidden == {forbidden: truth.never[forbidden]}
    assert truth.never[forbidden].startswith("M7")
    for url in ("out-status/deeper.html", "out-delay/from-outbound.html", "out-head/"):
        key, path = url.split("/", 1)
        assert truth.never[web.url(key, "/" + path)].startswith("L1"), url
    assert not any(
        path_of(url) == "/sitemap.xml"
        for url in truth.must - set(truth.checked)
        if origin_of(url) in outbound_bases(web)
    )  # L1: no sitemap read
    assert truth.crawl_delays[web.host("out-delay")] == OUTBOUND_CRAWL_DELAY
    assert truth.delays(0.1)[web.host("out-delay")] == OUTBOUND_CRAWL_DELAY
    assert truth.delays(0.1)[web.host("out-status")] == 0.1
    assert all(host_of(url).startswith("127.") for url in truth.must | set(truth.never))
    missing = truth.checked[web.url("out-status", "/missing.html")]
    assert [(named(web, r.page), r.text, r.resource) for r in missing.referrers] == [
        ("linkcheck/", "A missing outbound page", False),
        ("linkcheck/docs.html", "The missing page, again", False),
    ]
    assert all(r.line > 0 for r in missing.referrers)
    nofollowed = web.url("out-status", "/nofollowed.html")
    assert truth.never[nofollowed].startswith("T6")  # a check is a request: T6 holds
    assert nofollowed in linkcheck_truth(web, check_nofollow=True).checked  # as LinkChecker
    # the in-scope crawl is the same with or without checks
    plain = web.truth(seeds=[web.url("linkcheck")])
    assert plain.must == {u for u in truth.must if origin_of(u) == web.base("linkcheck")}


def test_l1_with_every_seed_main_links_and_redirects_to_outside_become_checks(web):
    truth = web.truth(check_outbound=True)
    assert {"outside/", "outside/landing.html"} <= short(web, truth.checked)
    assert truth.checked[web.url("outside", "/landing.html")].redirected_from == web.url(
        "main", "/redir/to-outside"
    )
    assert truth.never[web.url("outside", "/sitemap.xml")].startswith("C1")  # not a link
    assert truth.never[web.url("outside", "/p/1.html")].startswith("L1")
    assert truth.never["https://docs.python.org/sitemap.xml"].startswith("C1")
    plain = web.truth()
    assert plain.must <= truth.must
    assert all(u in truth.checked or path_of(u) == "/robots.txt" for u in truth.must - plain.must)
    assert all(host_of(url).startswith("127.") for url in truth.must)


def test_l2_head_then_get_and_a_time_out(web):
    truth = linkcheck_truth(web)
    assert short(web, truth.head_then_get) == {"out-head/page.html", "out-head/page-501.html"}
    methods = {named(web, url): found.method for url, found in truth.checked.items()}
    assert methods["out-head/page.html"] == methods["out-head/page-501.html"] == "HEAD,GET"
    assert {m for url, m in methods.items() if not url.startswith("out-head/")} == {"HEAD"}
    assert truth.checked[web.url("out-head", "/page.html")].status == 200
    impatient = linkcheck_truth(web, response_timeout_seconds=1.0)
    slow = impatient.checked[web.url("out-slow", "/slow.html")]
    assert (slow.status, slow.error, slow.method, slow.broken) == (None, "time-out", "HEAD", True)
    assert slow.url in impatient.checked_broken & impatient.repeatable
    assert slow.url not in impatient.head_then_get  # a time-out is not a refused HEAD


def test_l1_c4_a_redirect_chain_is_checked_hop_by_hop_and_permanent_ones_reported(web):
    truth = linkcheck_truth(web)
    old, older = web.url("out-redirect", "/old.html"), web.url("out-redirect", "/older.html")
    end = web.url("out-status", "/moved-here.html")
    assert (truth.checked[old].status, truth.checked[old].location) == (301, older)
    assert (truth.checked[older].location, truth.checked[older].redirected_from) == (end, old)
    assert (truth.checked[end].status, truth.checked[end].referrers) == (200, ())
    assert truth.permanent_redirects == {
        old: end,  # older.html is a hop, not a link on a page
        web.url("linkcheck", "/moved.html"): web.url("linkcheck", "/new-home.html"),
    }
    short_chain = linkcheck_truth(web, max_redirects=1)
    assert short_chain.never[end].startswith("C4")
    whole = web.truth()
    assert {named(web, u) for u in whole.permanent_redirects} >= {
        "main/redir/301",
        "main/redir/308",
        "main/redir/to-private",
        "sitemaps/old.html",
    }
    assert web.url("main", "/redir/302") not in whole.permanent_redirects
    assert whole.permanent_redirects[web.url("main", "/redir/to-private")] == web.url(
        "main", "/private/redirected.html"
    )


def test_l3_resources_are_checked_in_scope_and_out(web):
    truth = linkcheck_truth(web)
    resources = {
        "linkcheck/css/site.css": 200,
        "linkcheck/img/logo.png": 200,
        "linkcheck/img/missing.png": 404,
        "linkcheck/img/small.png": 200,  # src and srcset: one check
        "linkcheck/img/large.png": 200,  # srcset's second candidate
        "out-status/js/missing.js": 404,  # an outbound script
    }
    checked = {named(web, url): found for url, found in truth.checked.items()}
    assert {url: checked[url].status for url in resources} == resources
    assert all(checked[url].resource for url in resources)
    assert not checked["out-status/ok.html"].resource
    assert [r.text for r in checked["linkcheck/img/logo.png"].referrers] == ["The logo"]
    assert {"linkcheck/img/missing.png", "out-status/js/missing.js"} <= short(
        web, truth.checked_broken
    )
    pages_only = linkcheck_truth(web, check_resources=False)
    assert not set(resources) & short(web, set(pages_only.checked) | pages_only.must)
    everything = web.truth(check_resources=True)  # main's <img> too
    assert everything.checked[web.url("main", "/files/pixel.gif")].status == 200
    assert web.url("main", "/files/pixel.gif") not in everything.may


def test_l4_missing_fragments(web):
    truth = linkcheck_truth(web)
    docs, anchors, more = (
        web.url("linkcheck", p) for p in ("/docs.html", "/anchors.html", "/more.html")
    )
    assert truth.missing_fragments == {(docs, anchors, "absent"), (more, more, "nowhere")}
    assert [f for f, present in FRAGMENTS.items() if not present] == ["absent"]
    assert linkcheck_truth(web, check_fragments=False).missing_fragments == frozenset()
    assert linkcheck_truth(web, check_fragments=False).must == truth.must  # no request
    whole = web.truth(check_fragments=True)
    assert (web.url("main", "/"), web.url("main", "/about.html"), "team") in whole.missing_fragments


def test_l5_a_check_like_truth_is_consistent(web):
    truth = linkcheck_truth(web)
    assert not truth.must & set(truth.never)
    assert not truth.may & (truth.must | set(truth.never))
    assert set(truth.checked) <= truth.must
    assert set(truth.checked_forbidden) <= set(truth.never)
    assert truth.checked_broken <= set(truth.checked)
    assert truth.head_then_get <= set(truth.checked)
    assert web.url("linkcheck", "/sitemap.xml") in truth.sitemaps  # sitemaps on (L5)
    assert not truth.missing_from_sitemaps
    assert not truth.orphans
    assert not truth.indexable & set(truth.checked)  # a check is never a page


# --- the auditors, on synthetic logs -------------------------------------------------------------

A = "http://127.0.0.2:1000"
B = "http://127.0.0.3:1000"
TRUTH = Truth(
    agent="politecrawl",
    seeds=(A + "/",),
    must=frozenset({A + "/robots.txt", A + "/", A + "/a", B + "/robots.txt"}),
    never={A + "/private": "M1: robots.txt 'Disallow: /private'"},
    may=frozenset({A + "/sitemap.xml", A + "/err"}),
    indexable=frozenset({A + "/", A + "/a"}),
    noindex=frozenset(),
    repeatable=frozenset({A + "/robots.txt", B + "/robots.txt", A + "/err"}),
    crawl_delays={"127.0.0.2": 0.2, "127.0.0.3": None},
    robots_chains={A: (A + "/robots.txt",), B: (B + "/robots.txt",)},
    outcomes={A: "rules", B: "allow-all"},
)
DELAYS = {"127.0.0.2": 0.2, "127.0.0.3": 0.2}


def req(path, start, end, *, origin=A, method="GET", status=200):
    return Request(origin, method, path, (), start, end, 1e9 + start, 1e9 + end, status)


CLEAN = [
    req("/robots.txt", 0.0, 0.1),
    req("/robots.txt", 0.0, 0.1, origin=B),
    req("/", 0.3, 0.4),
    req("/a", 0.6, 0.7),
]


def test_audit_passes_a_clean_log():
    result = audit(CLEAN, TRUTH, delays=DELAYS)
    assert result.ok, result.report()
    assert result.report() == "clean"
    assert result.min_gap_seconds["127.0.0.2"] == pytest.approx(0.2)


@pytest.mark.parametrize(
    ("extra", "finding"),
    [
        ([req("/private", 1.0, 1.1)], "forbidden"),
        ([req("/elsewhere", 1.0, 1.1)], "unexpected"),
        ([req("/a", 1.0, 1.1)], "duplicates"),
        ([req("/", 0.65, 0.8)], "overlaps"),
        ([req("/sitemap.xml", 0.75, 0.8)], "gap_violations"),
        ([req("/err", 1.0, 1.1, method="POST")], "bad_methods"),
    ],
)
def test_audit_detects_each_violation(extra, finding):
    result = audit(CLEAN + extra, TRUTH, delays=DELAYS)
    assert not result.ok
    found = {
        name
        for name in (
            "forbidden",
            "unexpected",
            "duplicates",
            "overlaps",
            "gap_violations",
            "bad_methods",
            "missed",
            "robots_first",
        )
        if getattr(result, name)
    }
    assert finding in found
    assert result.report() != "clean"


def test_audit_missed_and_exemptions():
    result = audit(CLEAN[:3], TRUTH, delays=DELAYS)
    assert result.missed == (A + "/a",)
    again = [*CLEAN, req("/robots.txt", 1.0, 1.1), req("/err", 1.5, 1.6), req("/err", 2, 2.1)]
    assert audit(again, TRUTH, delays=DELAYS).ok  # robots refetch, retried 5xx (repeatable)
    escaped = audit([*CLEAN, req("/%61", 1.0, 1.1)], TRUTH, delays=DELAYS)
    assert escaped.duplicates == {A + "/a": 2}  # C2: %61 is a


def test_audit_robots_first_needs_an_answer_with_an_outcome():
    b_robots, page, page_a = CLEAN[1], CLEAN[2], CLEAN[3]
    late = audit([req("/robots.txt", 0.0, 0.5), b_robots, page, page_a], TRUTH, delays={})
    assert late.robots_first == (A + "/",)  # asked at 0.3, robots.txt answered at 0.5
    failed = [req("/robots.txt", 0.0, 0.1, status=503), b_robots, page, page_a]
    assert audit(failed, TRUTH, delays={}).robots_first == (A + "/", A + "/a")
    retried = [req("/robots.txt", 0.0, 0.05, status=500), req("/robots.txt", 0.1, 0.15)]
    assert audit([*retried, b_robots, page, page_a], TRUTH, delays={}).ok


# --- the auditors and link checks (L1, L2) -------------------------------------------------------

C = "http://127.0.0.4:1000"
CHECK_TRUTH = Truth(
    agent="politecrawl",
    seeds=(A + "/",),
    must=frozenset({A + "/robots.txt", A + "/", C + "/robots.txt", C + "/head", C + "/hater"}),
    never={C + "/private": "M7: robots.txt 'Disallow: /private'"},
    may=frozenset(),
    indexable=frozenset({A + "/"}),
    noindex=frozenset(),
    repeatable=frozenset({A + "/robots.txt", C + "/robots.txt"}),
    crawl_delays={"127.0.0.2": None, "127.0.0.4": 0.3},
    robots_chains={A: (A + "/robots.txt",), C: (C + "/robots.txt",)},
    outcomes={A: "rules", C: "rules"},
    checked={
        C + "/head": CheckTruth(C + "/head", 200),
        C + "/hater": CheckTruth(C + "/hater", 200, "HEAD,GET"),
    },
    checked_forbidden={C + "/private": "M7: robots.txt 'Disallow: /private'"},
    head_then_get=frozenset({C + "/hater"}),
)
CHECK_DELAYS = {"127.0.0.2": 0.2, "127.0.0.4": 0.3}
CHECK_CLEAN = [
    req("/robots.txt", 0.0, 0.1),
    req("/", 0.3, 0.4),
    req("/robots.txt", 0.5, 0.6, origin=C),
    req("/head", 1.0, 1.1, origin=C, method="HEAD"),
    req("/hater", 1.5, 1.6, origin=C, method="HEAD", status=405),
    req("/hater", 2.0, 2.1, origin=C),
]


def test_l2_audit_a_head_and_its_get_are_one_check_and_paced():
    result = audit(CHECK_CLEAN, CHECK_TRUTH, delays=CHECK_DELAYS)
    assert result.ok, result.report()
    close = [*CHECK_CLEAN[:5], req("/hater", 1.7, 1.8, origin=C)]  # GET 0.1 s after HEAD
    assert [g.after for g in audit(close, CHECK_TRUTH, delays=CHECK_DELAYS).gap_violations] == [
        C + "/hater"
    ]
    twice = [*CHECK_CLEAN, req("/head", 3.0, 3.1, origin=C, method="HEAD")]
    assert audit(twice, CHECK_TRUTH, delays=CHECK_DELAYS).duplicates == {f"{C}/head (HEAD)": 2}


@pytest.mark.parametrize(
    ("log", "finding"),
    [
        ([*CHECK_CLEAN[:3], req("/head", 1.0, 1.1, origin=C), *CHECK_CLEAN[4:]], "starts with"),
        ([*CHECK_CLEAN, req("/head", 3.0, 3.1, origin=C)], "no GET needed"),
        (CHECK_CLEAN[:5], "a GET must follow"),
    ],
)
def test_l2_audit_checks_head_first_and_get_only_after_a_refused_head(log, finding):
    result = audit(log, CHECK_TRUTH, delays=CHECK_DELAYS)
    assert not result.ok
    assert len(result.check_methods) == 1
    assert finding in result.check_methods[0]


def test_l1_audit_a_check_forbidden_by_robots_and_a_missed_check():
    forbidden = [*CHECK_CLEAN, req("/private", 3.0, 3.1, origin=C, method="HEAD")]
    assert audit(forbidden, CHECK_TRUTH, delays=CHECK_DELAYS).forbidden == (
        (C + "/private", "M7: robots.txt 'Disallow: /private'"),
    )
    missing = [r for r in CHECK_CLEAN if r.path_with_query != "/head"]
    assert audit(missing, CHECK_TRUTH, delays=CHECK_DELAYS).missed == (C + "/head",)
    gave_up = [req("/robots.txt", 0.0, 0.5, origin=C, status=499), *CHECK_CLEAN[3:]]
    early = audit([*CHECK_CLEAN[:2], *gave_up], CHECK_TRUTH, delays={})
    assert early.robots_first  # a robots.txt the client gave up on has no outcome (O2)


def test_l1_l2_a_polite_replay_of_a_check_audits_clean_and_a_second_level_fetch_does_not():
    site = build_site(crawl_delay_seconds=0.01, slow_seconds=0.1)
    with serve(site) as running, requests.Session() as session:
        truth = linkcheck_truth(running, response_timeout_seconds=1.0)
        delays = truth.delays(0.01)
        robots = {url for chain in truth.robots_chains.values() for url in chain}
        for origin, chain in sorted(truth.robots_chains.items()):
            for url in chain:
                session.get(url, allow_redirects=False, timeout=10)
            for url in sorted(u for u in truth.must - robots if u.startswith(origin + "/")):
                wait = delays[host_of(url)] + 0.005
                time.sleep(wait)
                if url not in truth.checked:
                    session.get(url, allow_redirects=False, timeout=10)
                    continue
                try:
                    session.head(url, allow_redirects=False, timeout=1.0)
                except requests.Timeout:
                    assert truth.checked[url].error == "time-out"
                    continue
                if url in truth.head_then_get:
                    time.sleep(wait)
                    session.get(url, allow_redirects=False, timeout=10)
        time.sleep(0.1)  # the slow server notices the client left
        result = audit(running.log, truth, delays=delays)
        assert result.ok, result.report()
        session.head(running.url("out-status", "/deeper.html"), timeout=10)
        bad = audit(running.log, truth, delays=delays)
        assert [why[:2] for _, why in bad.forbidden] == ["L1"]


# --- a real log: a polite replay of the truth, audited -------------------------------------------


def test_a_polite_replay_of_the_truth_audits_clean_and_a_bad_fetch_does_not():
    site = build_site(crawl_delay_seconds=0.01, slow_seconds=0.1)
    with serve(site) as running, requests.Session() as session:
        truth = running.truth()
        delays = truth.delays(0.0)
        robots = {url for chain in truth.robots_chains.values() for url in chain}
        for origin, chain in sorted(truth.robots_chains.items()):
            for url in chain:
                for _ in range(3):  # O6: retried until it answers with an outcome
                    answer = session.get(url, allow_redirects=False, timeout=10)
                    if answer.status_code < 500:
                        break
            for url in sorted(u for u in truth.must - robots if u.startswith(origin + "/")):
                time.sleep(delays[host_of(url)] + 0.002)
                with session.get(url, allow_redirects=False, stream=True, timeout=10) as answer:
                    answer.raw.read(decode_content=False)
        result = audit(running.log, truth, delays=delays)
        assert result.ok, result.report()
        session.get(running.url("main", "/private/secret.html"), timeout=10)
        bad = audit(running.log, truth, delays=delays)
        assert [why[:2] for _, why in bad.forbidden] == ["M7"]


@pytest.mark.parametrize(
    "key", ["robots-real-docs", "robots-real-gitlab", "robots-longest", "main"]
)
def test_m7_the_oracle_and_the_engine_agree_on_every_page_of_the_real_shapes(key):
    """Two independent strict readers (the oracle's, politecrawl's) on each page's path."""
    origin = build_site().origin(key)
    text = origin.page("/robots.txt").body.decode()
    oracle, engine = oracle_parse(text), engine_parse(text)
    paths = [path for path in origin.pages if path != "/robots.txt"]
    assert len(paths) > 5
    for path in paths:
        assert oracle.verdict("politecrawl", path)[0] == engine.is_allowed("politecrawl", path), (
            path
        )
