"""ROBOTS META tags and X-Robots-Tag headers [T1-T4]: term tables, agents, headers, properties."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl.directives import Directives, page_directives
from politecrawl.html import ParsedPage, parse_html

AGENT = "politecrawl/1.0 (+https://example.org/bot)"
INDEX_FOLLOW = (True, True)
NOINDEX_FOLLOW = (False, True)
INDEX_NOFOLLOW = (True, False)
NOINDEX_NOFOLLOW = (False, False)


def meta_page(*metas: tuple[str, str]) -> ParsedPage:
    return ParsedPage(title=None, base_href=None, robots_metas=metas, links=())


def verdict(directives: Directives) -> tuple[bool, bool]:
    return directives.index, directives.follow


# T1: every term, alone and combined, in every spelling the article allows.
T1_TERMS = [
    ("", INDEX_FOLLOW),
    ("   ", INDEX_FOLLOW),
    ("all", INDEX_FOLLOW),
    ("ALL", INDEX_FOLLOW),
    ("none", NOINDEX_NOFOLLOW),
    ("NONE", NOINDEX_NOFOLLOW),
    ("None", NOINDEX_NOFOLLOW),
    ("index", INDEX_FOLLOW),
    ("INDEX", INDEX_FOLLOW),
    ("noindex", NOINDEX_FOLLOW),
    ("NOINDEX", NOINDEX_FOLLOW),
    ("NoIndex", NOINDEX_FOLLOW),
    ("follow", INDEX_FOLLOW),
    ("FOLLOW", INDEX_FOLLOW),
    ("nofollow", INDEX_NOFOLLOW),
    ("NOFOLLOW", INDEX_NOFOLLOW),
    ("noFollow", INDEX_NOFOLLOW),
    ("index,follow", INDEX_FOLLOW),
    ("INDEX, FOLLOW", INDEX_FOLLOW),
    ("noindex,nofollow", NOINDEX_NOFOLLOW),
    ("noindex, nofollow", NOINDEX_NOFOLLOW),
    ("noindex nofollow", NOINDEX_NOFOLLOW),
    ("noindex\tnofollow", NOINDEX_NOFOLLOW),
    (" noindex ,\n nofollow ", NOINDEX_NOFOLLOW),
    ("noindex,,, ,nofollow,", NOINDEX_NOFOLLOW),
    ("index, nofollow", INDEX_NOFOLLOW),
    ("noindex, follow", NOINDEX_FOLLOW),
    # unknown terms are ignored; known ones are whole words
    ("noarchive, nosnippet", INDEX_FOLLOW),
    ("noindexes, nofollowing, index-follow, no-index", INDEX_FOLLOW),
    ("max-snippet:-1, max-image-preview:large", INDEX_FOLLOW),
    ("max-image-preview: none", INDEX_FOLLOW),  # "none" is the value here, not the term
    ("max-image-preview:none, noindex", NOINDEX_FOLLOW),
    ("unavailable_after: 25 Jun 2010 15:00:00 PST", INDEX_FOLLOW),
    ("noarchive nofollow", INDEX_NOFOLLOW),
]


@pytest.mark.parametrize(("content", "expected"), T1_TERMS)
def test_t1_meta_robots_terms(content, expected):
    assert verdict(page_directives(meta_page(("robots", content)), {}, AGENT)) == expected


@pytest.mark.parametrize(("content", "expected"), T1_TERMS)
def test_t1_meta_robots_terms_in_real_html(content, expected):
    html = f'<html><head><META NAME="Robots" CONTENT="{content}"></head></html>'
    assert verdict(page_directives(html, {}, AGENT)) == expected


def test_t1_default_is_index_follow_with_no_sources():
    assert page_directives(None, {}, AGENT) == Directives(index=True, follow=True, sources=())
    assert page_directives(meta_page(), [], AGENT) == Directives(True, True, ())
    page = meta_page(("description", "noindex"), ("keywords", "none"))
    assert page_directives(page, {}, AGENT) == Directives(True, True, ())


# T2: several tags or contradicting terms give the most restrictive reading.
T2_COMBINATIONS = [
    (["noindex", "index"], NOINDEX_FOLLOW),
    (["index", "noindex"], NOINDEX_FOLLOW),
    (["all", "noindex"], NOINDEX_FOLLOW),
    (["all, noindex"], NOINDEX_FOLLOW),
    (["noindex, all"], NOINDEX_FOLLOW),
    (["index, noindex"], NOINDEX_FOLLOW),
    (["follow, nofollow"], INDEX_NOFOLLOW),
    (["nofollow, follow"], INDEX_NOFOLLOW),
    (["all, nofollow"], INDEX_NOFOLLOW),
    (["all", "none"], NOINDEX_NOFOLLOW),
    (["none, all"], NOINDEX_NOFOLLOW),
    (["none, index, follow"], NOINDEX_NOFOLLOW),
    (["noindex", "nofollow"], NOINDEX_NOFOLLOW),
    (["noindex, follow", "index, nofollow"], NOINDEX_NOFOLLOW),
    (["index", "follow", "all"], INDEX_FOLLOW),
    (["", "noindex"], NOINDEX_FOLLOW),
    (["noarchive", "nofollow", "index"], INDEX_NOFOLLOW),
]


@pytest.mark.parametrize(("contents", "expected"), T2_COMBINATIONS)
def test_t2_most_restrictive_reading_wins(contents, expected):
    page = meta_page(*(("robots", content) for content in contents))
    assert verdict(page_directives(page, {}, AGENT)) == expected


@pytest.mark.parametrize(("contents", "expected"), T2_COMBINATIONS)
def test_t2_combines_across_meta_and_header(contents, expected):
    *metas, last = contents
    page = meta_page(*(("robots", content) for content in metas))
    assert verdict(page_directives(page, {"X-Robots-Tag": last}, AGENT)) == expected


# T3: a meta named after the robot's own name token applies; other robots' names do not.
T3_METAS = [
    ("<meta name=POLITECRAWL content=noindex>", NOINDEX_FOLLOW),
    ("<meta name=politecrawl content=nofollow>", INDEX_NOFOLLOW),
    ("<meta name=' PoliteCrawl ' content='none'>", NOINDEX_NOFOLLOW),
    ("<meta name=googlebot content=noindex>", INDEX_FOLLOW),
    ("<meta name=otherbot content=none>", INDEX_FOLLOW),
    ("<meta name=politecrawler content=noindex>", INDEX_FOLLOW),  # a name, not a substring
    ("<meta name=polite content=noindex>", INDEX_FOLLOW),
    ("<meta name=googlebot content=noindex><meta name=politecrawl content=nofollow>",
     INDEX_NOFOLLOW),
    ("<meta name=robots content=index><meta name=politecrawl content=noindex>", NOINDEX_FOLLOW),
    ("<meta name=robots content=noindex><meta name=politecrawl content=index>", NOINDEX_FOLLOW),
]  # fmt: skip


@pytest.mark.parametrize(("html", "expected"), T3_METAS)
@pytest.mark.parametrize("agent", [AGENT, "politecrawl", "PoliteCrawl/2.0", " politecrawl "])
def test_t3_own_token_metas_apply_and_other_robots_do_not(html, expected, agent):
    assert verdict(page_directives(html, {}, agent)) == expected


def test_t3_another_agent_reads_its_own_meta():
    html = "<meta name=googlebot content=noindex><meta name=politecrawl content=nofollow>"
    assert verdict(page_directives(html, {}, "Googlebot/2.1")) == NOINDEX_FOLLOW


# T4: X-Robots-Tag headers, as (name, value) pairs; each row's header list is one response.
T4_HEADERS = [
    ([("X-Robots-Tag", "noindex")], NOINDEX_FOLLOW),
    ([("x-robots-tag", "NOFOLLOW")], INDEX_NOFOLLOW),
    ([("X-ROBOTS-TAG", "none")], NOINDEX_NOFOLLOW),
    ([("X-Robots-Tag", "noindex, nofollow")], NOINDEX_NOFOLLOW),
    ([("X-Robots-Tag", "noindex nofollow")], NOINDEX_NOFOLLOW),
    ([("X-Robots-Tag", "all")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "noindex"), ("X-Robots-Tag", "nofollow")], NOINDEX_NOFOLLOW),
    ([("X-Robots-Tag", "index"), ("X-Robots-Tag", "noindex")], NOINDEX_FOLLOW),
    # agent prefixes
    ([("X-Robots-Tag", "politecrawl: nofollow")], INDEX_NOFOLLOW),
    ([("X-Robots-Tag", "PoliteCrawl:noindex")], NOINDEX_FOLLOW),
    ([("X-Robots-Tag", "googlebot: noindex")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "otherbot: noindex, nofollow")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "otherbot: none")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "googlebot: noindex"), ("X-Robots-Tag", "nofollow")], INDEX_NOFOLLOW),
    ([("X-Robots-Tag", "googlebot: noindex"), ("X-Robots-Tag", "politecrawl: none")],
     NOINDEX_NOFOLLOW),
    ([("X-Robots-Tag", "googlebot: noindex, politecrawl: nofollow")], INDEX_NOFOLLOW),
    ([("X-Robots-Tag", "politecrawl: nofollow, googlebot: noindex")], INDEX_NOFOLLOW),
    ([("X-Robots-Tag", "noindex, googlebot: nofollow")], NOINDEX_FOLLOW),
    ([("X-Robots-Tag", "googlebot: noindex nofollow")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "politecrawler: noindex")], INDEX_FOLLOW),
    # terms with values, and their colons, are neither terms nor agents
    ([("X-Robots-Tag", "unavailable_after: 25 Jun 2010 15:00:00 PST")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "unavailable_after: Friday, 25-Jun-10 15:00:00 PST, noindex")],
     NOINDEX_FOLLOW),
    ([("X-Robots-Tag", "unavailable_after: 2010-06-25T15:00:00Z, nofollow")], INDEX_NOFOLLOW),
    ([("X-Robots-Tag", "max-image-preview: none")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "max-snippet: -1, noindex")], NOINDEX_FOLLOW),
    ([("X-Robots-Tag", "politecrawl: unavailable_after: 25 Jun 2010 15:00:00 PST")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "googlebot: max-snippet: 20, noindex")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "noarchive, nosnippet, notranslate")], INDEX_FOLLOW),
    # an unknown "name: value" is not a robot: it does not take later terms away from us
    ([("X-Robots-Tag", "max-foo: 3, noindex")], NOINDEX_FOLLOW),
    ([("X-Robots-Tag", "*: noindex")], NOINDEX_FOLLOW),
    # other headers are not read
    ([("X-Robots", "noindex"), ("Robots", "none"), ("Content-Type", "text/html")], INDEX_FOLLOW),
    ([("X-Robots-Tag", "")], INDEX_FOLLOW),
]  # fmt: skip


@pytest.mark.parametrize(("headers", "expected"), T4_HEADERS)
def test_t4_x_robots_tag_header_pairs(headers, expected):
    assert verdict(page_directives(None, headers, AGENT)) == expected


@pytest.mark.parametrize(("headers", "expected"), T4_HEADERS)
def test_t4_x_robots_tag_applies_to_any_content_type(headers, expected):
    pdf = [("Content-Type", "application/pdf"), *headers]
    assert verdict(page_directives(b"%PDF-1.4 <meta>", pdf, AGENT)) == expected


@pytest.mark.parametrize(
    "header_name", ["X-Robots-Tag", "x-robots-tag", "X-ROBOTS-TAG", " x-Robots-Tag "]
)
def test_t4_header_mapping_is_read_case_insensitively(header_name):
    assert verdict(page_directives(None, {header_name: "noindex"}, AGENT)) == NOINDEX_FOLLOW


def test_t4_header_mapping_with_comma_joined_values():
    # A client that joins repeated headers ("noindex" and "politecrawl: nofollow") with commas.
    headers = {"X-Robots-Tag": "noindex, politecrawl: nofollow", "Content-Type": "text/html"}
    assert verdict(page_directives(None, headers, AGENT)) == NOINDEX_NOFOLLOW


def test_t4_header_pairs_may_be_any_iterable():
    pairs = iter([("X-Robots-Tag", "noindex"), ("X-Robots-Tag", "politecrawl: nofollow")])
    assert verdict(page_directives(b"", pairs, AGENT)) == NOINDEX_NOFOLLOW


def test_t4_sources_name_what_applied_for_the_why_report():
    html = '<meta name=robots content="noindex"><meta name=googlebot content=nofollow>'
    headers = [
        ("X-Robots-Tag", "googlebot: noindex, politecrawl: nofollow"),
        ("X-Robots-Tag", "noarchive"),
        ("X-Robots-Tag", "index,  follow"),
    ]
    assert page_directives(html, headers, AGENT) == Directives(
        index=False,
        follow=False,
        sources=(
            'meta robots: "noindex"',
            "X-Robots-Tag: politecrawl: nofollow",
            "X-Robots-Tag: index, follow",
        ),
    )


def test_t4_long_sources_are_one_short_line():
    html = '<meta name=robots content="noindex\n' + "x" * 1000 + '">'
    (source,) = page_directives(html, {}, AGENT).sources
    assert "\n" not in source
    assert len(source) < 250


def test_html_may_be_parsed_page_text_or_bytes():
    body = b'<html><meta name="robots" content="noindex"></html>'
    page = parse_html(body, content_type="text/html")
    expected = NOINDEX_FOLLOW
    assert verdict(page_directives(page, {}, AGENT)) == expected
    assert verdict(page_directives(body.decode(), {}, AGENT)) == expected
    assert verdict(page_directives(body, {}, AGENT)) == expected  # no Content-Type: read as HTML
    assert verdict(page_directives(body, {"content-type": "text/html"}, AGENT)) == expected


def test_bytes_are_decoded_with_the_headers_charset():
    body = '<title>é</title><meta name="robots" content="noindex">'.encode("utf-16")
    headers = {"Content-Type": "text/html; charset=utf-16"}
    assert verdict(page_directives(body, headers, AGENT)) == NOINDEX_FOLLOW


def test_metas_in_a_body_that_is_not_html_are_not_read():
    body = b'<meta name="robots" content="noindex">'
    headers = {"Content-Type": "text/plain"}
    assert verdict(page_directives(body, headers, AGENT)) == INDEX_FOLLOW


def test_directives_are_frozen():
    directives = page_directives(None, {}, AGENT)
    with pytest.raises(dataclasses.FrozenInstanceError):
        directives.index = False  # type: ignore[misc]


_HEADER_VALUES = st.one_of(
    st.text(max_size=80),
    st.lists(
        st.sampled_from(
            ["noindex", "NOFOLLOW", "none", "all", "index", "follow", "politecrawl:", "googlebot:",
             "unavailable_after: 25 Jun 2010 15:00:00 PST", "max-snippet:", ",", " ", ":", "-1"]
        ),
        max_size=8,
    ).map("".join),
)  # fmt: skip
_HEADER_NAMES = st.sampled_from(["X-Robots-Tag", "x-robots-tag", "Content-Type", "Other"])
_HEADERS = st.lists(st.tuples(_HEADER_NAMES, _HEADER_VALUES), max_size=4)
_METAS = st.lists(
    st.tuples(st.sampled_from(["robots", "politecrawl", "googlebot"]), _HEADER_VALUES), max_size=4
)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), st.binary(max_size=1000), st.text(max_size=300)), _HEADERS)
def test_b1_page_directives_never_raises(html, headers):
    directives = page_directives(html, headers, AGENT)
    assert isinstance(directives.index, bool)
    assert isinstance(directives.follow, bool)
    assert all(isinstance(source, str) for source in directives.sources)


@settings(max_examples=300, deadline=None)
@given(_HEADERS, _HEADERS)
def test_t2_more_headers_never_loosen_the_verdict(headers, more):
    before = page_directives(None, headers, AGENT)
    after = page_directives(None, headers + more, AGENT)
    assert after.index <= before.index
    assert after.follow <= before.follow


@settings(max_examples=200, deadline=None)
@given(_METAS, _METAS)
def test_t2_more_metas_never_loosen_the_verdict(metas, more):
    before = page_directives(meta_page(*metas), {}, AGENT)
    after = page_directives(meta_page(*metas, *more), {}, AGENT)
    assert after.index <= before.index
    assert after.follow <= before.follow
