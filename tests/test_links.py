"""Links of a page [T6, T7, P4, C1, C2]: base resolution, rel=nofollow, schemes, de-duplication."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl.html import ParsedPage, RawLink, parse_html
from politecrawl.links import Link, extract_links
from politecrawl.urls import MAX_LINK_LENGTH, canonicalize


def page_with(*links: RawLink, base_href: str | None = None) -> ParsedPage:
    return ParsedPage(title=None, base_href=base_href, robots_metas=(), links=links)


def urls(page: ParsedPage, final_url: str) -> list[str]:
    return [link.url for link in extract_links(page, final_url)]


# T7: (base href, final URL after redirects, href, expected URL)
T7_RESOLUTION = [
    # no base: the final URL after redirects
    (None, "https://example.org/dir/page.html", "other.html", "https://example.org/dir/other.html"),
    (None, "https://example.org/dir/page.html", "../up.html", "https://example.org/up.html"),
    (None, "https://example.org/dir/page.html", "/root", "https://example.org/root"),
    (None, "https://example.org/dir/page.html", "?q=1", "https://example.org/dir/page.html?q=1"),
    (None, "https://example.org/dir/page.html", "//cdn.example/x", "https://cdn.example/x"),
    (None, "https://example.org/dir/", "", "https://example.org/dir/"),
    (None, "https://example.org/dir/page.html#top", "#section", "https://example.org/dir/page.html"),
    (None, "https://example.org/a", "HTTP://Other.Example:80/b", "http://other.example/b"),
    # base href absolute
    ("https://cdn.example/assets/", "https://example.org/dir/page.html", "x.html",
     "https://cdn.example/assets/x.html"),
    ("https://cdn.example/assets/", "https://example.org/dir/page.html", "/x",
     "https://cdn.example/x"),
    ("https://cdn.example/assets/", "https://example.org/dir/page.html", "http://abs.example/",
     "http://abs.example/"),
    ("https://cdn.example/assets/index.html", "https://example.org/", "x", "https://cdn.example/assets/x"),
    # base href relative: resolved against the final URL first
    ("/base/", "https://example.org/dir/page.html", "x.html", "https://example.org/base/x.html"),
    ("sub/", "https://example.org/dir/page.html", "x.html", "https://example.org/dir/sub/x.html"),
    ("../", "https://example.org/a/b/page.html", "x.html", "https://example.org/a/x.html"),
    ("//mirror.example/m/", "https://example.org/", "x", "https://mirror.example/m/x"),
    ("", "https://example.org/dir/page.html", "x", "https://example.org/dir/x"),
    # a base that does not parse, or is data: / javascript:, is ignored (as browsers do)
    ("http://[not-ipv6/", "https://example.org/dir/page.html", "x", "https://example.org/dir/x"),
    ("javascript:void(0)", "https://example.org/dir/page.html", "x", "https://example.org/dir/x"),
    ("data:text/html,hi", "https://example.org/dir/page.html", "x", "https://example.org/dir/x"),
]  # fmt: skip


@pytest.mark.parametrize(("base_href", "final_url", "href", "expected"), T7_RESOLUTION)
def test_t7_links_resolve_against_base_href_else_final_url(base_href, final_url, href, expected):
    page = page_with(RawLink(href, (), "a"), base_href=base_href)
    assert urls(page, final_url) == [expected]


def test_t7_final_url_after_redirect_is_the_base_not_the_requested_url():
    # Asked for http://example.org/old/, redirected to https://www.example.org/new/page
    page = parse_html(b'<a href="next">n</a><a href="/top">t</a>', content_type="text/html")
    assert page is not None
    assert urls(page, "https://www.example.org/new/page") == [
        "https://www.example.org/new/next",
        "https://www.example.org/top",
    ]


def test_t7_only_the_first_base_counts_in_real_html():
    body = b'<base href="/first/"><base href="/second/"><a href="x">x</a>'
    page = parse_html(body, content_type="text/html")
    assert page is not None
    assert urls(page, "https://example.org/") == ["https://example.org/first/x"]


def test_t7_base_with_a_scheme_we_never_fetch_keeps_only_absolute_links():
    page = page_with(
        RawLink("relative", (), "a"),
        RawLink("https://example.org/absolute", (), "a"),
        base_href="ftp://files.example/pub/",
    )
    assert urls(page, "https://example.org/") == ["https://example.org/absolute"]


P4_DROPPED = [
    "javascript:void(0)",
    "JavaScript:alert(1)",
    " javascript:go()",
    "java\nscript:go()",
    "mailto:webmaster@example.org",
    "MAILTO:x@example.org",
    "data:text/html,<a>",
    "tel:+1-555-0100",
    "ftp://ftp.example.org/pub/",
    "file:///etc/passwd",
    "news:comp.infosystems.www",
    "irc://irc.example/chan",
    "about:blank",
    "http://",
    "https://exa mple.org/",
    "http://[::1",
    "http://example.org:99999/",
    "https://example.org/" + "x" * MAX_LINK_LENGTH,  # C3: beyond what a link may be at all
]


@pytest.mark.parametrize("href", P4_DROPPED)
def test_p4_other_schemes_and_bad_urls_are_dropped(href):
    page = page_with(RawLink(href, (), "a"), RawLink("/kept", (), "a"))
    assert urls(page, "https://example.org/") == ["https://example.org/kept"]


@pytest.mark.parametrize("base_href", [None, "/dir/"])
def test_c3_a_link_longer_than_max_url_length_is_kept_for_the_trap_guard_to_record(base_href):
    long_path = "/" + "x" * 10_000
    page = page_with(
        RawLink(long_path, (), "a"),
        RawLink("https://example.org/" + "y" * 3000, (), "a"),
        base_href=base_href,
    )
    assert urls(page, "https://example.org/") == [
        "https://example.org" + long_path,
        "https://example.org/" + "y" * 3000,
    ]


def test_c3_a_crawl_records_a_10000_character_link_as_a_trap_in_the_report(tmp_path):
    from tests.site import Page, Site, serve
    from tests.site.model import OriginSpec

    from politecrawl import CrawlConfig, Crawler
    from politecrawl.report import build_report, render_text
    from politecrawl.store import open_database

    long_path = "/" + "a" * 10_000
    body = f'<a href="{long_path}">long</a> <a href="/short.html">short</a>'.encode()
    site = Site(
        0,
        (
            OriginSpec(
                "site", "127.0.0.76", {"/": Page(body), "/short.html": Page(b"<p>short</p>")}
            ),
        ),
        0.0,
    )
    database = str(tmp_path / "long.db")
    with serve(site) as web:
        with Crawler(CrawlConfig(database=database, delay_seconds=0.0)) as crawler:
            crawler.add_seeds([web.url("site")])
            crawler.run()
            summary = crawler.summary
        asked = [r.path_with_query for r in web.log if r.origin == web.base("site")]
        long_url, home = web.url("site", long_path), web.url("site")
    assert long_path not in asked  # never requested (C3)
    assert "/short.html" in asked
    assert summary.out_of_scope == 1
    opened = open_database(database)
    try:
        report = build_report(opened, agent="politecrawl")
    finally:
        opened.close()
    trapped = {row.url: row for row in report.out_of_scope}
    assert long_url in trapped
    assert trapped[long_url].reason == "trap"
    assert trapped[long_url].rule == f"URL is {len(long_url)} characters > max 2048"
    assert trapped[long_url].found_on == home
    assert "Out of scope and traps" in render_text(report)


@pytest.mark.parametrize(
    ("href", "expected"),
    [
        ("http://example.org/a", "http://example.org/a"),
        ("HTTPS://EXAMPLE.ORG/a", "https://example.org/a"),
        ("https://example.org/a#frag", "https://example.org/a"),
        ("https://example.org/%7euser/./x/../y", "https://example.org/~user/y"),
    ],
)
def test_c1_c2_http_links_are_kept_canonical_without_fragments(href, expected):
    assert urls(page_with(RawLink(href, (), "a")), "https://example.org/") == [expected]


def test_t6_rel_nofollow_marks_the_link():
    page = parse_html(
        b'<a href="/a" rel="nofollow">a</a><a href="/b" rel="NOFOLLOW noopener">b</a>'
        b'<a href="/c" rel="ugc sponsored">c</a><area href="/d" rel="nofollow"><a href="/e">e</a>',
        content_type="text/html",
    )
    assert page is not None
    assert extract_links(page, "https://example.org/") == [
        Link("https://example.org/a", nofollow=True, tag="a"),
        Link("https://example.org/b", nofollow=True, tag="a"),
        Link("https://example.org/c", nofollow=False, tag="a"),
        Link("https://example.org/d", nofollow=True, tag="area"),
        Link("https://example.org/e", nofollow=False, tag="a"),
    ]


def test_t6_setting_off_never_marks_nofollow():
    page = page_with(RawLink("/a", ("nofollow",), "a"), RawLink("/b", (), "a"))
    links = extract_links(page, "https://example.org/", honour_rel_nofollow=False)
    assert [link.nofollow for link in links] == [False, False]


def test_c2_duplicates_kept_once_at_first_occurrence_followable_if_any_is():
    page = page_with(
        RawLink("/x#one", ("nofollow",), "a"),
        RawLink("/y", (), "iframe"),
        RawLink("https://EXAMPLE.org/x#two", (), "area"),
        RawLink("/y", ("nofollow",), "a"),
        RawLink("/z", ("nofollow",), "a"),
        RawLink("/z", ("nofollow",), "a"),
    )
    assert extract_links(page, "https://example.org/") == [
        Link("https://example.org/x", nofollow=False, tag="a"),
        Link("https://example.org/y", nofollow=False, tag="iframe"),
        Link("https://example.org/z", nofollow=True, tag="a"),
    ]


def test_frames_and_iframes_are_links_and_link_elements_are_not():
    body = b"""<html><head>
      <link rel="alternate" hreflang="de" href="/de/">
      <link rel="alternate" type="application/atom+xml" href="/feed">
      <link rel="canonical" href="/canonical">
    </head><frameset><frame src="/frame"></frameset><iframe src="/iframe"></iframe></html>"""
    page = parse_html(body, content_type="text/html")
    assert page is not None
    assert extract_links(page, "https://example.org/") == [
        Link("https://example.org/frame", nofollow=False, tag="frame"),
        Link("https://example.org/iframe", nofollow=False, tag="iframe"),
    ]


@pytest.mark.parametrize("content_type", ["text/plain", "application/pdf", "image/svg+xml"])
def test_non_html_content_types_give_no_links(content_type):
    assert parse_html(b'<html><a href="/x">x</a></html>', content_type=content_type) is None


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=1500),
    st.sampled_from(["https://example.org/dir/page", "http://[::1]:8080/", "http://bad url/"]),
    st.booleans(),
)
def test_b1_extract_links_from_arbitrary_bytes_never_raises(body, final_url, honour):
    page = parse_html(body, content_type="text/html")
    assert page is not None
    for link in extract_links(page, final_url, honour_rel_nofollow=honour):
        assert link.url.startswith(("http://", "https://"))
        assert canonicalize(link.url) == link.url
        assert "#" not in link.url
        assert honour or not link.nofollow


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.text(max_size=30), st.sampled_from(["/a", "b", "#c", "javascript:x"])),
            st.sampled_from([(), ("nofollow",)]),
        ),
        max_size=10,
    ),
    st.one_of(st.none(), st.text(max_size=30)),
)
def test_c2_links_are_unique_canonical_and_never_raise(raw_links, base_href):
    page = page_with(*(RawLink(href, rel, "a") for href, rel in raw_links), base_href=base_href)
    links = extract_links(page, "https://example.org/dir/page")
    assert len({link.url for link in links}) == len(links)
    assert all(canonicalize(link.url) == link.url for link in links)


def test_l4_fragments_are_carried_only_when_asked_for():
    page = page_with(
        RawLink("a.html#install", (), "a"),
        RawLink("a.html#usage", (), "a"),
        RawLink("b.html", (), "a"),
    )
    carried = extract_links(page, "https://example.org/docs/")
    assert [(link.url, link.fragments) for link in carried] == [
        ("https://example.org/docs/a.html", ("install", "usage")),
        ("https://example.org/docs/b.html", ()),
    ]
    plain = extract_links(page, "https://example.org/docs/", with_fragments=False)
    assert [(link.url, link.fragments) for link in plain] == [
        ("https://example.org/docs/a.html", ()),
        ("https://example.org/docs/b.html", ()),
    ]
    assert all(link.canonical for link in plain)  # handed to the frontier as they are
