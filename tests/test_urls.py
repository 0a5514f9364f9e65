"""URL canonicalisation, origins and keys (C1, C2, C3, O1, M4): tables, then properties."""

from __future__ import annotations

import dataclasses
import hashlib
import pickle

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl.urls import (
    MAX_URL_LENGTH,
    InvalidURL,
    LinkResolver,
    Origin,
    canonicalize,
    host_key,
    origin_of,
    robots_match_path,
    split_canonical,
    url_key,
)

CANONICAL = [
    # Scheme and host are lower-cased, default ports and userinfo dropped (C2, O1).
    ("http://example.org", "http://example.org/"),
    ("HTTP://EXAMPLE.org:80/", "http://example.org/"),
    ("HtTpS://Example.ORG:443/Path", "https://example.org/Path"),
    ("http://example.org:443/", "http://example.org:443/"),
    ("https://example.org:80/", "https://example.org:80/"),
    ("http://example.org:8080/", "http://example.org:8080/"),
    ("http://example.org:08080/", "http://example.org:8080/"),
    ("http://example.org:0080/", "http://example.org/"),
    ("http://example.org:/", "http://example.org/"),
    ("http://user:secret@example.org/", "http://example.org/"),
    ("http://a@b@example.org/", "http://example.org/"),
    ("http://example.org./a", "http://example.org/a"),
    ("http://my_host.example/", "http://my_host.example/"),
    ("http://exa%6Dple.org/", "http://example.org/"),
    ("http://127.0.0.1:8080/", "http://127.0.0.1:8080/"),
    # IDNA (UTS 46, non-transitional, as requests encodes)
    ("http://bücher.example/", "http://xn--bcher-kva.example/"),
    ("http://BÜCHER.example/", "http://xn--bcher-kva.example/"),
    ("http://xn--bcher-kva.example/", "http://xn--bcher-kva.example/"),
    ("https://faß.de/", "https://xn--fa-hia.de/"),
    ("https://例え.テスト/", "https://xn--r8jz45g.xn--zckzah/"),
    ("http://example\u3002org/", "http://example.org/"),
    ("http://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.org/", "http://example.org/"),
    # IPv6 literals
    ("http://[::1]/", "http://[::1]/"),
    ("http://[::1]:8080/x", "http://[::1]:8080/x"),
    ("http://[::1]:80/", "http://[::1]/"),
    ("http://[2001:DB8::A]/", "http://[2001:db8::a]/"),
    ("http://[2001:db8:0:0:0:0:0:1]/", "http://[2001:db8::1]/"),
    # percent-escapes
    ("http://example.org/%7Euser", "http://example.org/~user"),
    ("http://example.org/%7e", "http://example.org/~"),
    ("http://example.org/a%2fb", "http://example.org/a%2Fb"),
    ("http://example.org/%41%62%2D%2E%5F%30", "http://example.org/Ab-._0"),
    ("http://example.org/%c3%a9", "http://example.org/%C3%A9"),
    ("http://example.org/100%", "http://example.org/100%25"),
    ("http://example.org/%zz", "http://example.org/%25zz"),
    ("http://example.org/%4", "http://example.org/%254"),
    ("http://example.org/100%25", "http://example.org/100%25"),
    # dot segments and the empty path
    ("http://example.org/a/./b/../c", "http://example.org/a/c"),
    ("http://example.org/a/b/..", "http://example.org/a/"),
    ("http://example.org/a/b/.", "http://example.org/a/b/"),
    ("http://example.org/../../a", "http://example.org/a"),
    ("http://example.org/a/%2E%2e/b", "http://example.org/b"),
    ("http://example.org/a//b", "http://example.org/a//b"),
    ("http://example.org/a/..b/c.", "http://example.org/a/..b/c."),
    # characters a URL may not hold
    ("http://example.org/a b", "http://example.org/a%20b"),
    ("http://example.org/é", "http://example.org/%C3%A9"),
    ("http://example.org/日本", "http://example.org/%E6%97%A5%E6%9C%AC"),
    ('http://example.org/"<>\\^`{|}', "http://example.org/%22%3C%3E%5C%5E%60%7B%7C%7D"),
    ("http://example.org/a\x01b\x7f", "http://example.org/a%01b%7F"),
    ("http://example.org/!$&'()*+,;=:@[]~", "http://example.org/!$&'()*+,;=:@[]~"),
    ("http://example.org/\udcff", "http://example.org/%FF"),
    # query: escapes normalised, order kept, a bare ? dropped
    ("http://example.org/?b=2&a=1", "http://example.org/?b=2&a=1"),
    ("http://example.org/s?q=%7e&r=%2b&t=+", "http://example.org/s?q=~&r=%2B&t=+"),
    ("http://example.org/s?q=a b&c=é", "http://example.org/s?q=a%20b&c=%C3%A9"),
    ("http://example.org/s?q=/./a/../b", "http://example.org/s?q=/./a/../b"),
    ("http://example.org/s?", "http://example.org/s"),
    ("http://example.org/s??", "http://example.org/s??"),
    ("http://example.org?q", "http://example.org/?q"),
    # fragments
    ("http://example.org/a#frag", "http://example.org/a"),
    ("http://example.org/a?#frag", "http://example.org/a"),
    ("http://example.org#x?y/z", "http://example.org/"),
    # whitespace, as browsers do
    ("  http://example.org/a \n", "http://example.org/a"),
    ("\u3000\thttp://example.org/\xa0", "http://example.org/"),
    ("http://exa\tmple.org/a\nb\r", "http://example.org/ab"),
    ("http://example.org/a b ", "http://example.org/a%20b"),
]


@pytest.mark.parametrize(("url", "expected"), CANONICAL)
def test_c2_canonical_form(url, expected):
    assert canonicalize(url) == expected
    assert canonicalize(expected) == expected


# RFC 3986 5.4.1 and 5.4.2, then the cases a crawler meets; fragments dropped, paths never empty.
RFC_BASE = "http://a/b/c/d;p?q"
RESOLVED = [
    (RFC_BASE, "g", "http://a/b/c/g"),
    (RFC_BASE, "./g", "http://a/b/c/g"),
    (RFC_BASE, "g/", "http://a/b/c/g/"),
    (RFC_BASE, "/g", "http://a/g"),
    (RFC_BASE, "//g", "http://g/"),
    (RFC_BASE, "?y", "http://a/b/c/d;p?y"),
    (RFC_BASE, "g?y", "http://a/b/c/g?y"),
    (RFC_BASE, "#s", "http://a/b/c/d;p?q"),
    (RFC_BASE, "g#s", "http://a/b/c/g"),
    (RFC_BASE, "g?y#s", "http://a/b/c/g?y"),
    (RFC_BASE, ";x", "http://a/b/c/;x"),
    (RFC_BASE, "g;x", "http://a/b/c/g;x"),
    (RFC_BASE, "g;x?y#s", "http://a/b/c/g;x?y"),
    (RFC_BASE, "", "http://a/b/c/d;p?q"),
    (RFC_BASE, ".", "http://a/b/c/"),
    (RFC_BASE, "./", "http://a/b/c/"),
    (RFC_BASE, "..", "http://a/b/"),
    (RFC_BASE, "../", "http://a/b/"),
    (RFC_BASE, "../g", "http://a/b/g"),
    (RFC_BASE, "../..", "http://a/"),
    (RFC_BASE, "../../", "http://a/"),
    (RFC_BASE, "../../g", "http://a/g"),
    (RFC_BASE, "../../../g", "http://a/g"),
    (RFC_BASE, "../../../../g", "http://a/g"),
    (RFC_BASE, "/./g", "http://a/g"),
    (RFC_BASE, "/../g", "http://a/g"),
    (RFC_BASE, "g.", "http://a/b/c/g."),
    (RFC_BASE, ".g", "http://a/b/c/.g"),
    (RFC_BASE, "g..", "http://a/b/c/g.."),
    (RFC_BASE, "..g", "http://a/b/c/..g"),
    (RFC_BASE, "./../g", "http://a/b/g"),
    (RFC_BASE, "./g/.", "http://a/b/c/g/"),
    (RFC_BASE, "g/./h", "http://a/b/c/g/h"),
    (RFC_BASE, "g/../h", "http://a/b/c/h"),
    (RFC_BASE, "g;x=1/./y", "http://a/b/c/g;x=1/y"),
    (RFC_BASE, "g;x=1/../y", "http://a/b/c/y"),
    (RFC_BASE, "g?y/./x", "http://a/b/c/g?y/./x"),
    (RFC_BASE, "g?y/../x", "http://a/b/c/g?y/../x"),
    (RFC_BASE, "g#s/./x", "http://a/b/c/g"),
    (RFC_BASE, "g#s/../x", "http://a/b/c/g"),
    (RFC_BASE, "http:g", "http://a/b/c/g"),  # the non-strict reading, as browsers do
    ("http://example.org/a/b/d", "../c", "http://example.org/a/c"),
    ("http://example.org/a/b?old", "?q=1", "http://example.org/a/b?q=1"),
    ("http://example.org/a?x#f", "", "http://example.org/a?x"),
    ("http://example.org/a?x", "#frag", "http://example.org/a?x"),
    ("http://example.org", "g", "http://example.org/g"),
    ("https://example.org/", "//other.example/y", "https://other.example/y"),
    ("http://example.org/", "https://abs.example", "https://abs.example/"),
    ("http://example.org/", " /a b#c ", "http://example.org/a%20b"),
    ("HTTP://Example.ORG:80/a/./b/../c/%7Ed?x#y", "g", "http://example.org/a/c/g"),
    ("HTTP://Example.ORG:80/a/./b/../c/%7Ed?x#y", "", "http://example.org/a/c/~d?x"),
    ("http://example.org/a/b", "../../../x/%2e%2E/y", "http://example.org/y"),
    ("ftp://example.org/a/b", "http://example.org/c", "http://example.org/c"),
    ("not a base", "https://example.org/", "https://example.org/"),
]


@pytest.mark.parametrize(("base", "ref", "expected"), RESOLVED)
def test_c2_relative_resolution(base, ref, expected):
    assert canonicalize(ref, base) == expected


@pytest.mark.parametrize(("base", "ref", "expected"), RESOLVED)
def test_c2_a_link_resolver_answers_as_canonicalize_then_from_memory(base, ref, expected):
    assert LinkResolver(base).canonicalize(ref) == expected
    assert LinkResolver(base).canonicalize(ref) == expected  # the remembered answer


def _outcome(resolve, ref):
    try:
        return resolve(ref)
    except InvalidURL as error:
        return ("refused", error.url, error.reason)


# Bases that share an origin or a directory and differ in the rest: a remembered answer must
# never cross from one to another where the link means something else.
_NEIGHBOUR_BASES = [
    "http://a/b/c/d;p?q",
    "http://a/b/c/e?r",
    "http://a/b/x/d;p?q",
    "http://a/",
    "http://a",
    "https://a/b/c/d",
    "HTTP://A:80/b/c/d",
    "http://other/b/c/d",
    "http://a/b/c/d?q",
    "ftp://a/b/c/d",
    "not a base",
    "",
]
_REFS = [ref for _, ref, _ in RESOLVED] + [
    "javascript:void(0)", "mailto:x@y", "//", "http://", "http:", "https:g", "HTTP:g",
    "http:?q", "http:#f", "?", "#", " ", "\t/\n/x", "/\t/x", "g" * 3000, "http://ex\ample/",
]  # fmt: skip


@pytest.mark.parametrize("ref", _REFS)
def test_c2_a_link_resolver_never_lends_an_answer_to_a_base_where_it_means_otherwise(ref):
    for _ in range(2):  # fresh, then remembered
        for base in _NEIGHBOUR_BASES:
            expected = _outcome(lambda r, b=base: canonicalize(r, b), ref)
            assert _outcome(LinkResolver(base).canonicalize, ref) == expected, (base, ref)


INVALID = [
    ("mailto:someone@example.org", "scheme 'mailto' is not http or https"),
    ("javascript:alert(1)", "scheme 'javascript' is not http or https"),
    ("ftp://example.org/", "scheme 'ftp' is not http or https"),
    ("data:text/html,hi", "scheme 'data' is not http or https"),
    ("localhost:8080/a", "scheme 'localhost' is not http or https"),
    ("http://", "no host"),
    ("http:///a", "no host"),
    ("http://./", "no host"),
    ("http:example.org", "no host"),
    ("http://user@/", "no host"),
    ("http://host:99999/", "port out of range"),
    ("http://host:65536/", "port out of range"),
    ("http://host:0/", "port out of range"),
    ("http://host:" + "9" * 5000 + "/", "port out of range"),
    ("http://host:8x/", "port '8x' is not a number"),
    ("http://host:\u0661\u0662/", "is not a number"),
    ("http://host:80:80/", "is not a number"),
    ("", "empty URL"),
    (" \t\n", "empty URL"),
    ("not a url", "no scheme"),
    ("//example.org/", "no scheme"),
    ("/a/b", "no scheme"),
    ("http://[::1/", "invalid IPv6 address"),
    ("http://[::g]/", "invalid IPv6 address"),
    ("http://[::1]x/", "invalid IPv6 address"),
    ("http://[fe80::1%25eth0]/", "invalid IPv6 address"),
    ("http://[v1.x]/", "invalid IPv6 address"),
    ("http://exa mple.org/", "invalid host"),
    ("http://a..b/", "invalid host"),
    ("http://example.org../", "invalid host"),
    ("http://*.example.org/", "invalid host"),
    ("http://" + "a" * 64 + ".org/", "invalid host"),
    ("http://" + "a." * 127 + "org/", "host longer than 253 characters"),
    ("http://evil.example\\@good.example/", "backslash in host"),
    ("http://a\u200db.example/", "host is not a valid domain name"),
    ("http://\u2603.net/", "host is not a valid domain name"),
    ("http://%ff.example/", "host is not a valid domain name"),
    ("http://example.org/" + "a" * MAX_URL_LENGTH, f"URL longer than {MAX_URL_LENGTH} characters"),
]


@pytest.mark.parametrize(("url", "reason"), INVALID)
def test_c1_c3_invalid_urls_say_why(url, reason):
    with pytest.raises(InvalidURL) as caught:
        canonicalize(url)
    assert reason in caught.value.reason
    assert caught.value.url == url
    assert reason in str(caught.value)


def test_c1_relative_reference_needs_an_absolute_base():
    assert canonicalize("a", base="http://example.org/b") == "http://example.org/a"
    with pytest.raises(InvalidURL, match="no scheme"):
        canonicalize("a", base="/b")
    with pytest.raises(InvalidURL, match="scheme 'mailto'"):
        canonicalize("mailto:x@example.org", base="http://example.org/")


def test_c3_max_length_is_a_parameter_on_the_canonical_form():
    url = "http://example.org/" + "a" * (MAX_URL_LENGTH - 19)
    assert len(canonicalize(url)) == MAX_URL_LENGTH
    assert canonicalize("http://example.org/abc", max_length=22) == "http://example.org/abc"
    with pytest.raises(InvalidURL, match="URL longer than 21 characters"):
        canonicalize("http://example.org/abc", max_length=21)
    # the limit applies to the canonical form: dot segments do not count, escapes do
    assert canonicalize("http://example.org/./././abc", max_length=22) == "http://example.org/abc"
    with pytest.raises(InvalidURL):
        canonicalize("http://example.org/é", max_length=22)


def test_c1_invalid_url_is_a_value_error_that_pickles_and_stays_short():
    error = InvalidURL("http://" + "x" * 500, "no host")
    assert isinstance(error, ValueError)
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.url, copy.reason) == (error.url, error.reason)
    assert len(str(error)) < 150
    assert str(InvalidURL("ftp://a/", "scheme 'ftp' is not http or https")) == (
        "invalid URL 'ftp://a/': scheme 'ftp' is not http or https"
    )


def test_o1_origin_str_and_robots_url():
    origin = origin_of("https://Example.org/a/b?c#d")
    assert origin == Origin("https", "example.org", None)
    assert str(origin) == "https://example.org"
    assert origin.robots_url == "https://example.org/robots.txt"
    local = origin_of("http://127.0.0.1:8080/x")
    assert (str(local), local.port) == ("http://127.0.0.1:8080", 8080)
    assert local.robots_url == "http://127.0.0.1:8080/robots.txt"
    assert str(origin_of("http://[::1]:8080/")) == "http://[::1]:8080"
    assert origin_of("http://bücher.example/").host == "xn--bcher-kva.example"


def test_o1_http_and_https_are_different_origins():
    assert origin_of("http://a.example/") != origin_of("https://a.example/")
    assert origin_of("http://a.example:443/") != origin_of("https://a.example/")
    assert len({origin_of("http://a.example/"), origin_of("https://a.example/")}) == 2


def test_o1_default_ports_collapse_other_ports_do_not():
    assert origin_of("http://a.example:80/x") == origin_of("HTTP://A.example/y")
    assert origin_of("https://a.example:443/") == origin_of("https://a.example./")
    assert origin_of("https://a.example:443/").port is None
    assert origin_of("http://a.example:8080/") != origin_of("http://a.example/")


def test_o1_origin_is_frozen_and_rejects_what_canonicalize_rejects():
    origin = origin_of("http://a.example/")
    with pytest.raises(dataclasses.FrozenInstanceError):
        origin.host = "b.example"  # type: ignore[misc]
    with pytest.raises(InvalidURL, match="scheme 'ftp'"):
        origin_of("ftp://a.example/")


def test_p1_host_key_is_the_host_without_port():
    assert host_key("http://Example.org:8080/a") == "example.org"
    assert host_key("https://example.org/") == host_key("http://example.org:81/")
    assert host_key("http://[::1]:8080/") == "[::1]"
    assert host_key("http://bücher.example/") == "xn--bcher-kva.example"
    with pytest.raises(InvalidURL):
        host_key("mailto:a@example.org")


def test_c2_url_key_is_a_16_byte_blake2b_of_the_canonical_url():
    url = canonicalize("HTTP://Example.org:80/%7ea")
    key = url_key(url)
    assert key == hashlib.blake2b(b"http://example.org/~a", digest_size=16).digest()
    assert len(key) == 16
    assert url_key(canonicalize("http://example.org/~a")) == key
    assert url_key("http://example.org/~b") != key


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("http://example.org/search?#x", "/search"),
        ("http://example.org/search?q=1#x", "/search?q=1"),
        ("http://example.org#frag", "/"),
        ("https://example.org:8443/a%7eb?c=%2f", "/a~b?c=%2F"),
    ],
)
def test_m4_robots_match_path_of_a_canonical_url(url, path):
    assert robots_match_path(canonicalize(url)) == path


# --- properties -------------------------------------------------------------------------------

_HOSTS = st.sampled_from(
    [
        "example.org",
        "example.org",
        "Example.ORG",
        "EXAMPLE.org.",
        "bücher.example",
        "\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.org",
        "a_b.example",
        "127.0.0.1",
        "[::1]",
        "[2001:DB8::1]",
        "[::1",
        "exa%6Dple.org",
        "a..b",
        "\u2603.net",
        "",
        "x" * 70,
    ]
)
_PIECE = st.text(
    alphabet=st.sampled_from(list("aZ09-._~%/?#:@[]!$&'()*+,;= \t\n\"<>\\^`{|}é日\x00\x7f\udcff"))
    | st.characters(),
    max_size=30,
)


@st.composite
def url_like(draw: st.DrawFn) -> str:
    """A string built like a URL from ugly parts; valid often enough to test both outcomes."""
    lead = draw(st.sampled_from(["", "", "", " ", "\t\n", "\x00"]))
    scheme = draw(st.sampled_from(["http", "https", "HTTPS", "hTtp"] * 3 + ["ftp", "", "a b"]))
    separator = draw(st.sampled_from(["://"] * 8 + [":", ":/", "//"]))
    userinfo = draw(st.sampled_from(["", "", "", "user@", "u:p@", "a@b@"]))
    port = draw(st.sampled_from(["", "", "", ":", ":80", ":443", ":8080", ":0", ":99999", ":x"]))
    path = draw(st.sampled_from(["", "/", "/a/./b/../c", "/%7e%2f", "/.."])) + draw(_PIECE)
    query = draw(st.sampled_from(["", "?", "?b=2&a=1", "?q=%7E"])) + draw(_PIECE)
    return f"{lead}{scheme}{separator}{userinfo}{draw(_HOSTS)}{port}{path}{query}"


def _canonical_or_none(url: str, base: str | None = None) -> str | None:
    try:
        return canonicalize(url, base)
    except InvalidURL:
        return None


def _check_canonical(canonical: str | None) -> None:
    if canonical is None:
        return
    assert canonicalize(canonical) == canonical
    assert canonical.isascii()
    assert canonical.startswith(("http://", "https://"))
    assert "#" not in canonical
    assert not any(char.isspace() for char in canonical)
    assert len(canonical) <= MAX_URL_LENGTH
    assert canonical.startswith(str(origin_of(canonical)) + "/")


@given(st.text())
def test_c2_idempotent_and_raises_only_invalid_url_for_any_text(url):
    _check_canonical(_canonical_or_none(url))


@given(url_like())
@settings(max_examples=400)
def test_c2_idempotent_and_raises_only_invalid_url_for_url_like_text(url):
    _check_canonical(_canonical_or_none(url))


@given(st.one_of(url_like(), st.text()), st.one_of(url_like(), _PIECE))
@settings(max_examples=300)
def test_c2_resolution_is_idempotent_and_raises_only_invalid_url(base, ref):
    _check_canonical(_canonical_or_none(ref, base))


@given(st.one_of(url_like(), st.text()), st.lists(st.one_of(url_like(), _PIECE), max_size=8))
@settings(max_examples=300)
def test_c2_a_link_resolver_agrees_with_canonicalize_on_any_text(base, refs):
    resolver = LinkResolver(base)
    for ref in [*refs, *refs]:
        assert _outcome(resolver.canonicalize, ref) == _outcome(
            lambda r: canonicalize(r, base), ref
        )


@given(url_like())
def test_o1_origin_host_key_and_url_key_agree_with_the_canonical_form(url):
    canonical = _canonical_or_none(url)
    if canonical is None:
        with pytest.raises(InvalidURL):
            origin_of(url)
        return
    origin = origin_of(url)
    assert origin == origin_of(canonical)
    assert host_key(url) == origin.host
    assert origin.port != {"http": 80, "https": 443}[origin.scheme]
    assert url_key(canonical) == url_key(canonicalize(canonical))


@pytest.mark.parametrize(
    ("url", "path"),
    [
        ("http://a.example#f/x", "/"),
        ("http://a.example#f?x", "/"),
        ("https://a.example", "/"),
        ("https://a.example/p?q#f", "/p?q"),
        ("http://a.example?q", "/?q"),
        ("HTTP://A.EXAMPLE/x", "/x"),
        ("//a.example/x?y", "/x?y"),
        ("/x#y", "/x"),
        ("/search?", "/search?"),
    ],
)
def test_m4_robots_match_path_of_raw_urls(url, path):
    assert robots_match_path(url) == path


@settings(max_examples=300, deadline=None)
@given(
    url=st.sampled_from(
        [
            "http://a.example/x",
            "https://A.example:8443/p?q",
            "http://[::1]:8080/",
            "http://[::1]/a",
            "http://127.0.0.1:9/",
            "https://xn--fa-hia.de/",
            "http://h.example:80/z#f",
        ]
    ),
    suffix=st.text(max_size=10),
)
def test_o1_split_canonical_matches_origin_and_host_key(url, suffix):
    try:
        canonical = canonicalize(url + suffix)
    except InvalidURL:
        return
    assert split_canonical(canonical) == (str(origin_of(canonical)), host_key(canonical))
