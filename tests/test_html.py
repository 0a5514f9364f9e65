"""One parse of a page (T1, T3, T6, T7, B1): HTML detection, what is collected, ugly input."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest
from bs4.dammit import EncodingDetector
from hypothesis import given, settings, strategies as st

from politecrawl.html import ParsedPage, RawLink, _declared_encoding, is_html, parse_html
from politecrawl.results import Page

PAGE = b"""<!DOCTYPE html>
<html><head>
  <title>  A   page
  title </title>
  <base href=" /docs/ ">
  <base href="/ignored/">
  <meta name="ROBOTS" content="NoIndex">
  <meta name=" PolITEcrawl " content="nofollow">
  <meta name="description" content="About things">
  <meta name="nocontent">
  <meta content="nameless">
  <meta charset="utf-8">
  <link rel="alternate" type="application/rss+xml" href="/feed.xml">
  <link rel="stylesheet" href="/style.css">
</head><body>
  <a href=" one.html " rel="NoFollow  UGC">one</a>
  <a name="anchor-without-href">no href</a>
  <map><area href="/area" alt=""></map>
  <frameset><frame src="frame.html"></frameset>
  <iframe src="//other.example/embed"></iframe>
  <a href="two.html"><b>bold <a href="nested.html">nested</a></b></a>
  <form action="/search"><input name="q"></form>
  <title>second title</title>
</body></html>
"""


def test_t7_parse_collects_title_first_base_metas_and_links_in_document_order():
    page = parse_html(PAGE, content_type="text/html; charset=utf-8")
    assert page == ParsedPage(
        title="A page title",
        base_href="/docs/",
        robots_metas=(
            ("robots", "NoIndex"),
            ("politecrawl", "nofollow"),
            ("description", "About things"),
        ),
        links=(
            RawLink("one.html", ("nofollow", "ugc"), "a"),
            RawLink("/area", (), "area"),
            RawLink("frame.html", (), "frame"),
            RawLink("//other.example/embed", (), "iframe"),
            RawLink("two.html", (), "a"),
            RawLink("nested.html", (), "a"),
        ),
    )


def test_link_elements_and_forms_are_not_links():
    page = parse_html(PAGE, content_type="text/html")
    assert page is not None
    hrefs = {link.href for link in page.links}
    assert "/feed.xml" not in hrefs
    assert "/style.css" not in hrefs
    assert "/search" not in hrefs


def test_empty_page_values():
    page = parse_html(b"<html><body><p>no links</p></body></html>", content_type="text/html")
    assert page == ParsedPage(title=None, base_href=None, robots_metas=(), links=())


def test_empty_title_is_none():
    page = parse_html(b"<title>   </title><a href=x>", content_type="text/html")
    assert page is not None
    assert page.title is None


IS_HTML = [
    ("text/html", b"", True),
    ("TEXT/HTML; charset=ISO-8859-1", b"", True),
    (" text/html ;charset=utf-8", b"anything", True),
    ("application/xhtml+xml", b"<html/>", True),
    ("text/plain", b"<!DOCTYPE html><html>", False),  # a declared type is believed
    ("application/json", b"<html>", False),
    ("image/png", b"\x89PNG<html>", False),
    ("application/octet-stream", b"<html>", False),
    ("text/xml", b"<html>", False),
    # no type (or an "unknown" one): sniff the start of the body
    (None, b"<!DOCTYPE html><html>", True),
    (None, b"<!doctype HTML>", True),
    (None, b"<HTML><body>", True),
    (None, b"\xef\xbb\xbf  \r\n\t<html>", True),
    (None, b'<?xml version="1.0"?>\n<!DOCTYPE html>', True),
    (None, b"<!-- generated -->\n<!-- twice --><html>", True),
    ("", b"<html>", True),
    ("*/*", b"<html>", True),
    ("unknown/unknown", b"<html>", True),
    ("application/unknown", b"plain text", False),
    (None, b"", False),
    (None, b"plain text <html>", False),
    (None, b"<!-- never closed <html>", False),
    (None, b"%PDF-1.4 <html>", False),
    (None, b"<div><a href=x></a></div>", False),
]


@pytest.mark.parametrize(("content_type", "body", "expected"), IS_HTML)
def test_is_html(content_type, body, expected):
    assert is_html(content_type, body) is expected


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/pdf", "image/png", "application/json", "text/css"]
)
def test_non_html_content_types_give_no_page(content_type):
    assert parse_html(b'<html><a href="/x">x</a></html>', content_type=content_type) is None


def test_untyped_html_is_sniffed():
    page = parse_html(b'<!doctype html><a href="/x">x</a>')
    assert page is not None
    assert page.links == (RawLink("/x", (), "a"),)
    assert parse_html(b'plain <a href="/x">') is None


def test_charset_from_content_type_is_honoured():
    body = '<html><title>café</title><a href="/é">x</a></html>'.encode("latin-1")
    page = parse_html(body, content_type="text/html; charset=ISO-8859-1")
    assert page is not None
    assert page.title == "café"
    assert page.links[0].href == "/é"


def test_charset_of_content_type_wins_over_meta_charset():
    body = '<meta charset="koi8-r"><title>naïve</title>'.encode()
    page = parse_html(body, content_type='text/html; charset="UTF-8"')
    assert page is not None
    assert page.title == "naïve"


def test_meta_charset_is_detected_without_a_header_charset():
    body = '<html><head><meta charset="koi8-r"><title>привет</title>'.encode("koi8-r")
    page = parse_html(body, content_type="text/html")
    assert page is not None
    assert page.title == "привет"


@pytest.mark.parametrize("charset", ["bogus", "x-unknown-42", "", "utf-8'"])
def test_unknown_charset_falls_back_to_detection(charset):
    body = "<title>café</title>".encode()
    page = parse_html(body, content_type=f"text/html; charset={charset}")
    assert page is not None
    assert page.title == "café"


BROKEN = [
    b"<a href='/one'>unclosed <a href=/two>",
    b"<html><body><a href=\"/one\"><div><a href='/two'>text",
    b"<a href=/one><table><a href=/two></td></tr></table></p></div></body></html></html>",
    b"<<<a href=/one>>> </a><a\nhref\n=\n/two\n>",
    b"\x00\xff\xfe<a href=/one>\x00</a>\x80\x81<a href=/two>",
    b"<A HREF=/one>UPPER</A><a href=/two HREF=/ignored>",
    b'<?xml version="1.0"?><root><a href="/one"/><a href="/two"/></root>',
]


@pytest.mark.parametrize("body", BROKEN)
def test_b1_broken_html_still_yields_its_links(body):
    page = parse_html(body, content_type="text/html")
    assert page is not None
    assert [link.href for link in page.links] == ["/one", "/two"]


@pytest.mark.parametrize(
    "body",
    [
        b"",
        b"http://example.org/page.html",  # bs4 would warn that this looks like a URL
        b"index.html",  # ... or like a file name
        b"<",
        b"<!--",
        b"<![CDATA[",
        b"<?xml",
        b"\xef\xbb\xbf",
        b"\xff\xfe<\x00a\x00",
        b"<" * 10_000,
        b"<div>" * 5_000,
        b"<a href='" + b"x" * 100_000,
    ],
)
def test_b1_ugly_bodies_never_raise_or_warn(body):
    page = parse_html(body, content_type="text/html")
    assert isinstance(page, ParsedPage)


CONTENT_TYPES = st.sampled_from(
    [None, "text/html", "text/html; charset=utf-8", "text/html; charset=shift_jis",
     "text/html; charset=utf-16", "application/xhtml+xml", "text/plain", "", "text/html; charset=x"]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=2000), CONTENT_TYPES)
def test_b1_parse_html_never_raises_on_arbitrary_bytes(body, content_type):
    page = parse_html(body, content_type=content_type)
    assert page is None or isinstance(page, ParsedPage)
    assert (page is not None) is is_html(content_type, body)


_HREF = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), max_size=30
).filter(lambda text: text == text.strip())


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["a", "area", "iframe"]), _HREF), max_size=8))
def test_links_round_trip_in_document_order(tags_and_hrefs):
    markup = "".join(
        f'<{tag} href="{_escape(href)}">'
        if tag != "iframe"
        else f'<iframe src="{_escape(href)}"></iframe>'  # an iframe's content is text
        for tag, href in tags_and_hrefs
    )
    page = parse_html(f"<html><body>{markup}</body></html>".encode(), content_type="text/html")
    assert page is not None
    assert [(link.tag, link.href) for link in page.links] == tags_and_hrefs


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")


def test_page_text_and_the_parse_read_a_body_in_the_same_encoding():
    # A page labelled ISO-8859-1 is read as windows-1252 by browsers: 0x80 is the euro sign.
    body = b"<html><title>price \x80 5</title><p>caf\xe9</p></html>"
    content_type = "text/html; charset=ISO-8859-1"
    page = Page(
        "http://e.org/",
        200,
        0,
        datetime(2026, 1, 1, tzinfo=UTC),
        0.1,
        body=body,
        content_type=content_type,
    )
    parsed = parse_html(body, content_type=content_type)
    assert parsed is not None
    assert parsed.title == "price \u20ac 5"
    assert "price \u20ac 5" in page.text
    assert "caf\u00e9" in page.text


def test_page_soup_is_built_on_request():
    page = Page(
        "http://e.org/",
        200,
        0,
        datetime(2026, 1, 1, tzinfo=UTC),
        0.1,
        body=b"<html><body><p id='x'>hello</p></body></html>",
        content_type="text/html",
    )
    assert page.soup().find(id="x").get_text() == "hello"


@pytest.mark.parametrize(
    ("srcset", "urls"),
    [
        ("/a.png 1x, /b.png 2x", ["/a.png", "/b.png"]),
        ("/a.png, /b.png 2x", ["/a.png", "/b.png"]),
        ("/a,b.png 2x", ["/a,b.png"]),  # a comma inside a URL is part of it (WHATWG)
        ("  /a.png  ,  /b.png   100w  ", ["/a.png", "/b.png"]),
        (
            "data:image/svg+xml,%3Csvg%3E%3C/svg%3E 1x, /real.png 2x",
            ["data:image/svg+xml,%3Csvg%3E%3C/svg%3E", "/real.png"],
        ),
        (
            "data:image/gif;base64,R0lGODlhAQABAAAAACw= 1x",
            ["data:image/gif;base64,R0lGODlhAQABAAAAACw="],
        ),
    ],
)
def test_l3_srcset_candidates_are_read_as_browsers_read_them(srcset, urls):
    page = parse_html(f'<img srcset="{srcset}">'.encode(), content_type="text/html", details=True)
    assert page is not None
    assert [resource.href for resource in page.resources] == urls


def test_the_declared_encoding_is_found_where_and_as_beautifulsoup_finds_it():
    """Our two patterns replace bs4's EncodingDetector (not imported for them): the same
    answers on declarations as pages write them and on random mixes of their pieces."""
    bodies = [
        b'<?xml version="1.0" encoding="ISO-8859-2"?><html>',
        b'<meta charset="windows-1251">',
        b"<META http-equiv=Content-Type content='text/html; charset=koi8-r'>",
        b"x" * 3000 + b"<meta charset=utf-8>",  # past the first 2048 bytes: not looked for
        b"x" * 60_000 + b"<meta charset=utf-8>",  # within the first twentieth: found
        b'<meta charset="">',
        b"<html><head><meta  charset = shift_jis />",
        b"<meta name=x>" * 10,
    ]
    pieces = [b"<", b">", b"meta", b" ", b"charset", b"=", b'"', b"'", b"utf-8", b"<?xml"]
    pieces += [b"?>", b"encoding", b"/", b";", b"x", b"\n"]
    rng = random.Random(9309)
    bodies += [b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 40))) for _ in range(5000)]
    for body in bodies:
        expected = EncodingDetector.find_declared_encoding(body, is_html=True)
        assert _declared_encoding(body) == expected, body
