"""The sitemap parser on real-world shapes and hostile files [S2, S3]."""

from __future__ import annotations

import gzip
import zlib
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl.sitemaps import SitemapLimits, SitemapReader, parse_lastmod, parse_sitemap

NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'


def urls(parsed) -> list[str]:
    return [entry.url for entry in parsed.entries]


def test_s2_urlset_with_namespace_bom_whitespace_cdata_and_escapes():
    body = (
        "\ufeff<?xml version='1.0' encoding='UTF-8'?>\n"
        f"<urlset {NS}>\n"
        "  <url><loc>\n    https://e.org/a\n  </loc><lastmod>2024-05-01</lastmod></url>\n"
        "  <url><loc><![CDATA[https://e.org/b?x=1&y=2]]></loc></url>\n"
        "  <url><loc>https://e.org/c?x=1&amp;y=2</loc>"
        "<lastmod>2024-05-01T10:30:00+02:00</lastmod></url>\n"
        "</urlset>\n"
    ).encode()
    parsed = parse_sitemap(body)
    assert parsed.kind == "urlset"
    assert urls(parsed) == ["https://e.org/a", "https://e.org/b?x=1&y=2", "https://e.org/c?x=1&y=2"]
    assert parsed.entries[0].lastmod == datetime(2024, 5, 1, tzinfo=UTC)
    assert parsed.entries[2].lastmod == datetime(2024, 5, 1, 8, 30, tzinfo=UTC)
    assert parsed.entries[0].line == 3
    assert not parsed.problems
    assert not parsed.truncated


def test_s2_image_and_news_extensions_do_not_replace_the_page():
    body = (
        f'<urlset {NS} xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
        'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">'
        "<url><loc>https://e.org/page</loc>"
        "<image:image><image:loc>https://cdn.e.org/pic.jpg</image:loc></image:image>"
        "<news:news><news:publication_date>2024-01-01</news:publication_date></news:news>"
        "</url></urlset>"
    ).encode()
    assert urls(parse_sitemap(body)) == ["https://e.org/page"]


def test_s2_an_index_of_gzipped_sitemaps_and_a_gzipped_urlset():
    index = (
        f"<sitemapindex {NS}>"
        "<sitemap><loc>https://e.org/s1.xml.gz</loc><lastmod>2024-01-02</lastmod></sitemap>"
        "<sitemap><loc>https://e.org/s2.xml.gz</loc></sitemap>"
        "</sitemapindex>"
    ).encode()
    parsed = parse_sitemap(gzip.compress(index))
    assert parsed.kind == "index"
    assert urls(parsed) == ["https://e.org/s1.xml.gz", "https://e.org/s2.xml.gz"]
    urlset = f"<urlset {NS}><url><loc>https://e.org/x</loc></url></urlset>".encode()
    assert urls(parse_sitemap(gzip.compress(urlset))) == ["https://e.org/x"]


def test_s2_plain_text_sitemap():
    body = b"https://e.org/a\n\nhttps://e.org/b\r\nnot a url\nftp://e.org/c\n"
    parsed = parse_sitemap(body)
    assert parsed.kind == "text"
    assert urls(parsed) == ["https://e.org/a", "https://e.org/b"]
    assert [problem.line for problem in parsed.problems] == [4, 5]


def test_s2_rss_and_atom_feeds_named_as_sitemaps():
    rss = (
        b"<rss version='2.0'><channel><link>https://e.org/</link>"
        b"<item><link>https://e.org/post/1</link><pubDate>x</pubDate></item>"
        b"<item><title>no link</title></item></channel></rss>"
    )
    assert urls(parse_sitemap(rss)) == ["https://e.org/post/1"]
    atom = (
        b"<feed xmlns='http://www.w3.org/2005/Atom'>"
        b"<entry><link rel='self' href='https://e.org/feed/1'/>"
        b"<link href='https://e.org/post/1'/><updated>2024-03-01T00:00:00Z</updated></entry>"
        b"</feed>"
    )
    parsed = parse_sitemap(atom)
    assert parsed.kind == "feed"
    assert urls(parsed) == ["https://e.org/post/1"]
    assert parsed.entries[0].lastmod == datetime(2024, 3, 1, tzinfo=UTC)


def test_s2_broken_xml_keeps_what_came_before_and_names_the_line():
    body = (
        f"<urlset {NS}>\n<url><loc>https://e.org/a</loc></url>\n<url><loc>https://e.org/b</loc>\n"
        "</urlset>\n"
    ).encode()
    parsed = parse_sitemap(body)
    assert urls(parsed) == ["https://e.org/a"]
    assert len(parsed.problems) == 1
    assert parsed.problems[0].line == 4
    assert parsed.problems[0].describe().startswith("line 4: bad XML")


def test_s2_not_a_sitemap_and_empty():
    parsed = parse_sitemap(b"<html><body><a href='/x'>x</a></body></html>")
    assert parsed.kind == "unknown"
    assert parsed.failed
    assert "not a sitemap" in parsed.problems[0].message
    assert parse_sitemap(b"  \n").failed


def test_s2_entity_expansion_is_never_performed():
    body = (
        b'<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
        b'<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>'
        b"<urlset><url><loc>https://e.org/&lol2;</loc></url></urlset>"
    )
    parsed = parse_sitemap(body)
    assert all("lollol" not in url for url in urls(parsed))


def test_s2_entry_limit():
    body = f"<urlset {NS}>" + "".join(
        f"<url><loc>https://e.org/{i}</loc></url>" for i in range(120)
    )
    parsed = parse_sitemap((body + "</urlset>").encode(), limits=SitemapLimits(max_entries=100))
    assert len(parsed.entries) == 100
    assert parsed.truncated
    assert "more than 100 entries" in parsed.problems[-1].message


def test_s2_sixty_thousand_urls_stop_at_fifty_thousand():
    body = f"<urlset {NS}>" + "".join(
        f"<url><loc>https://e.org/p/{i}</loc></url>" for i in range(60_000)
    )
    parsed = parse_sitemap((body + "</urlset>").encode())
    assert len(parsed.entries) == 50_000
    assert parsed.truncated


def test_s2_a_gzip_bomb_is_cut_off_without_inflating_it():
    # 1 GiB of zeros compresses to about 1 MB; the limit stops inflation at 1 MiB.
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    chunk = b"\0" * (1 << 20)
    bomb = b"".join(compressor.compress(chunk) for _ in range(1024)) + compressor.flush()
    parsed = parse_sitemap(bomb, limits=SitemapLimits(max_bytes=1 << 20))
    assert parsed.truncated
    assert any("cut off" in problem.message for problem in parsed.problems)


def test_s2_damaged_gzip_is_a_problem_not_a_crash():
    parsed = parse_sitemap(b"\x1f\x8b\x08\x00garbage")
    assert parsed.failed


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("2024", datetime(2024, 1, 1, tzinfo=UTC)),
        ("2024-07", datetime(2024, 7, 1, tzinfo=UTC)),
        ("2024-07-16", datetime(2024, 7, 16, tzinfo=UTC)),
        ("2024-07-16T19:20+01:00", datetime(2024, 7, 16, 18, 20, tzinfo=UTC)),
        ("2024-07-16T19:20:30.45Z", datetime(2024, 7, 16, 19, 20, 30, tzinfo=UTC)),
        (" 2024-07-16T19:20:30-05:00 ", datetime(2024, 7, 17, 0, 20, 30, tzinfo=UTC)),
        ("2024-13-01", None),
        ("yesterday", None),
        ("2024-07-16 19:20", None),
        ("", None),
    ],
)
def test_s3_lastmod_w3c_datetime(text, expected):
    assert parse_lastmod(text) == expected


def test_s3_a_malformed_lastmod_is_kept_as_written_and_reported():
    body = f"<urlset {NS}><url><loc>https://e.org/a</loc><lastmod>soon</lastmod></url></urlset>"
    parsed = parse_sitemap(body.encode())
    assert parsed.entries[0].lastmod is None
    assert parsed.entries[0].lastmod_text == "soon"
    assert "malformed lastmod" in parsed.problems[0].message


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=3000))
def test_s2_arbitrary_bytes_never_raise(body):
    parsed = parse_sitemap(body)
    assert parsed.kind in ("urlset", "index", "text", "feed", "unknown")


# --- read as the bytes arrive (issue 38: lxml 6.2's iterparse yields nothing before a fault) ---


def _fed(body: bytes, cuts: list[int], limits: SitemapLimits | None = None):
    reader = SitemapReader(limits=limits)
    start = 0
    for cut in sorted(cuts):
        reader.feed(body[start:cut])
        start = cut
    reader.feed(body[start:])
    return reader.close()


_SHAPES = {
    "urlset": (
        f"\ufeff<?xml version='1.0'?>\n<urlset {NS}>\n"
        "<url><loc>https://e.org/a</loc><lastmod>2024-05-01</lastmod></url>\n"
        "<url><loc>https://e.org/b</loc></url>\n<url><lastmod>2024</lastmod></url>\n</urlset>\n"
    ).encode(),
    "broken tail": f"<urlset {NS}>\n<url><loc>https://e.org/a</loc></url>\n<url><loc>x</urlset>".encode(),
    "text": b"\n  https://e.org/a\r\nnot a url\rhttps://e.org/\xc3\xa9t\xc3\xa9\nhttps://e.org/z",
    "gzip": gzip.compress(
        f"<sitemapindex {NS}><sitemap><loc>https://e.org/s1.xml</loc></sitemap></sitemapindex>".encode()
    ),
    "blank": b"   \n\t ",
}


@pytest.mark.parametrize("shape", sorted(_SHAPES))
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_s2_a_file_read_in_any_pieces_reads_as_the_whole_file(shape, data):
    body = _SHAPES[shape]
    cuts = data.draw(st.lists(st.integers(0, len(body)), max_size=8))
    assert _fed(body, cuts) == parse_sitemap(body)


def test_s2_a_fault_far_into_a_large_file_keeps_every_entry_before_it():
    # The fault comes megabytes in, after many steps: the entries of the steps before it are
    # kept whatever the lxml release yields once it meets the fault.
    entries = "".join(f"<url><loc>https://e.org/p/{i}</loc></url>\n" for i in range(40_000))
    body = f"<urlset {NS}>\n{entries}<url><loc>https://e.org/late</loc>\0</url></urlset>"
    for parsed in (parse_sitemap(body.encode()), parse_sitemap(gzip.compress(body.encode()))):
        assert len(parsed.entries) >= 39_000
        assert urls(parsed)[:3] == ["https://e.org/p/0", "https://e.org/p/1", "https://e.org/p/2"]
        assert parsed.problems[-1].line == 40_002
        assert parsed.problems[-1].message.startswith("bad XML")


def test_s2_a_loc_with_an_entity_reference_is_refused_not_fetched_mangled():
    body = (
        '<?xml version="1.0"?>\n'
        '<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>\n'
        f"<urlset {NS}>\n"
        "<url><loc>https://e.org/xxe-&xxe;.html</loc></url>\n"
        "<url><loc>https://e.org/fine.html</loc></url>\n"
        "</urlset>\n"
    ).encode()
    parsed = parse_sitemap(body)
    assert urls(parsed) == ["https://e.org/fine.html"]
    assert [problem.describe() for problem in parsed.problems] == [
        "line 4: malformed <loc> (an entity reference or markup inside): entry ignored"
    ]


def test_s2_a_file_over_the_byte_limit_says_so_even_after_a_fault():
    # A bomb whose XML breaks early is still reported as over the limit (its bytes counted,
    # never parsed, never held).
    compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    head = f"<urlset {NS}><url><loc>https://e.org/a</loc></url>".encode()
    bomb = compressor.compress(head + b"\0") + compressor.compress(bytes(8 << 20))
    bomb += compressor.flush()
    parsed = parse_sitemap(bomb, limits=SitemapLimits(max_bytes=1 << 20))
    assert urls(parsed) == ["https://e.org/a"]
    assert parsed.truncated
    assert parsed.problems[-1].message == f"cut off at {1 << 20} bytes"
