"""Use preferences of a page and of an origin's tdmrep.json [U2, U3, U4], and the readers'
robustness: none raises on arbitrary text or bytes (Hypothesis)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl.directives import page_directives
from politecrawl.preferences import (
    NO_TDMREP,
    page_preferences,
    read_tdmrep,
    url_preferences,
)
from politecrawl.robots.preferences import read_robots_preferences
from politecrawl.usage import Protocol, Stance, Use, UsePreferences
from politecrawl.usage.statements import read_content_signal, read_content_usage

FILES = Path(__file__).parent / "usage_files"
AGENT = "politecrawl/1.0 (+https://example.org/bot)"
A, R, N = Stance.ALLOWED, Stance.REFUSED, Stance.NONE
HTML = "text/html; charset=utf-8"


def stances(preferences: UsePreferences) -> tuple[Stance, Stance, Stance]:
    """(search, ai-input, ai-train)."""
    return tuple(preferences.verdict(use).stance for use in Use)  # type: ignore[return-value]


def page(head: str = "", body: str = "<p>text</p>") -> str:
    return f"<!doctype html><html><head>{head}<title>t</title></head><body>{body}</body></html>"


def warned(preferences) -> list[tuple[str, int | None, str]]:
    return [(w.where, w.line_number, w.message) for w in preferences.warnings]


# --- U2: Content-Usage and Content-Signal response headers --------------------------------------


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([("Content-Usage", "train-ai=n")], (N, N, R)),
        ([("content-usage", "train-ai=y, search=y, ai-use=n")], (A, R, A)),
        # several field lines are one field (RFC 9110 5.3): joined, the last key applies
        ([("Content-Usage", "train-ai=y"), ("Content-Usage", "train-ai=n")], (N, N, R)),
        ([("Content-Usage", "train-ai=n"), ("Content-Usage", "search=y")], (A, N, R)),
        ([("Content-Signal", "ai-train=yes, search=yes, ai-input=yes")], (A, A, A)),
        ([("Content-Signal", "ai-train=no"), ("Content-Usage", "search=y")], (A, N, R)),
        ([], (N, N, N)),
    ],
)
def test_u2_content_usage_and_content_signal_headers(headers, expected):
    assert stances(page_preferences(None, headers, AGENT)) == expected


def test_u2_a_header_mapping_is_read_case_insensitively():
    preferences = page_preferences(None, {"CONTENT-USAGE": "ai-use=n"}, AGENT)
    assert stances(preferences) == (N, R, N)
    (said,) = preferences.signals
    assert (said.protocol, said.source, said.statement) == (
        Protocol.CONTENT_USAGE,
        "Content-Usage header",
        "ai-use=n",
    )


@pytest.mark.parametrize(
    ("value", "expected", "message"),
    [
        ("Train-AI=n", (N, N, R), "not a structured-field dictionary"),
        ("train-ai=no", (N, N, R), "train-ai: no is not the token n; read as a refusal"),
        ("train-ai=yes", (N, N, N), "train-ai: yes is neither the token y nor n"),
        ("train-genai=n", (N, N, R), "train-genai=n is a label of an earlier aipref draft"),
    ],
)
def test_u2_malformed_content_usage_headers_are_warnings(value, expected, message):
    preferences = page_preferences(None, [("Content-Usage", value)], AGENT)
    assert stances(preferences) == expected
    assert [w.where for w in preferences.warnings] == ["Content-Usage header"]
    assert preferences.warnings[0].message.startswith(message)


# --- U2: TDMRep headers and metas; the header wins over the meta --------------------------------


@pytest.mark.parametrize(
    ("headers", "metas", "expected", "where"),
    [
        ([("tdm-reservation", "1")], "", (N, R, R), "tdm-reservation header"),
        ([("TDM-Reservation", " 0 ")], "", (N, A, A), "tdm-reservation header"),
        ([], '<meta name="tdm-reservation" content="1">', (N, R, R), "meta tdm-reservation"),
        ([], '<meta name="TDM-Reservation" content="0">', (N, A, A), "meta tdm-reservation"),
        # U2: the header wins over the meta, either way
        (
            [("tdm-reservation", "0")],
            '<meta name="tdm-reservation" content="1">',
            (N, A, A),
            "tdm-reservation header",
        ),
        (
            [("tdm-reservation", "1")],
            '<meta name="tdm-reservation" content="0">',
            (N, R, R),
            "tdm-reservation header",
        ),
        # a header that is no valid value leaves the meta in force
        (
            [("tdm-reservation", "yes")],
            '<meta name="tdm-reservation" content="1">',
            (N, R, R),
            "meta tdm-reservation",
        ),
    ],
)
def test_u2_tdm_reservation_header_and_meta(headers, metas, expected, where):
    preferences = page_preferences(page(metas), [("Content-Type", HTML), *headers], AGENT)
    assert stances(preferences) == expected
    assert [one.source for one in preferences.signals] == [where]


def test_u2_tdm_policy_is_kept_with_a_reservation():
    head = '<meta name="tdm-reservation" content="1">' + (
        '<meta name="tdm-policy" content="https://provider.example/policies/policy.json">'
    )
    (said,) = page_preferences(page(head), {"Content-Type": HTML}, AGENT).signals
    assert said.policy == "https://provider.example/policies/policy.json"
    assert said.statement == (
        "tdm-reservation: 1; tdm-policy: https://provider.example/policies/policy.json"
    )
    headers = [("tdm-reservation", "0"), ("tdm-policy", "https://provider.example/p")]
    (said,) = page_preferences(None, headers, AGENT).signals
    assert said.policy is None  # TDMRep: a policy is not used when nothing is reserved


def test_u2_tdm_conflicts_and_bad_values_are_warnings():
    headers = [("tdm-reservation", "0"), ("tdm-reservation", "1"), ("Content-Type", HTML)]
    meta = '<meta name="tdm-reservation" content="2">'
    preferences = page_preferences(page(meta), headers, AGENT)
    assert stances(preferences) == (N, R, R)
    assert warned(preferences) == [
        ("tdm-reservation header", None, "given as both 0 and 1: 1 applies"),
        ("meta tdm-reservation", None, "tdm-reservation '2' is neither 0 nor 1: unset"),
    ]
    overridden = page_preferences(
        page('<meta name="tdm-reservation" content="1">'),
        [("tdm-reservation", "0"), ("Content-Type", HTML)],
        AGENT,
    )
    assert warned(overridden) == [
        (
            "meta tdm-reservation",
            None,
            "1 is overridden by the tdm-reservation header 0 (a header wins over the meta, U2)",
        )
    ]


# --- U2: noai and noimageai in META robots and X-Robots-Tag --------------------------------------


@pytest.mark.parametrize(
    ("head", "headers", "expected", "sources"),
    [
        (
            '<meta name="robots" content="noai, noimageai">',
            [],
            (N, R, R),
            ['meta robots: "noai, noimageai"'],
        ),
        ('<meta name="robots" content="NOAI">', [], (N, R, R), ['meta robots: "NOAI"']),
        ('<meta name="politecrawl" content="noai">', [], (N, R, R), ['meta politecrawl: "noai"']),
        ('<meta name="otherbot" content="noai">', [], (N, N, N), []),
        ("", [("X-Robots-Tag", "noai")], (N, R, R), ["X-Robots-Tag: noai"]),
        (
            "",
            [("X-Robots-Tag", "politecrawl: noai, noimageai")],
            (N, R, R),
            ["X-Robots-Tag: politecrawl: noai, noimageai"],
        ),
        ("", [("X-Robots-Tag", "otherbot: noai")], (N, N, N), []),
        # noimageai on a page speaks of its images: recorded, the page itself not refused
        ("", [("X-Robots-Tag", "noimageai")], (N, N, N), ["X-Robots-Tag: noimageai"]),
        ('<meta name="robots" content="noindex">', [], (N, N, N), []),
    ],
)
def test_u2_noai_in_meta_and_header(head, headers, expected, sources):
    preferences = page_preferences(page(head), [("Content-Type", HTML), *headers], AGENT)
    assert stances(preferences) == expected
    assert [one.source for one in preferences.signals] == sources
    assert all(one.protocol is Protocol.NOAI for one in preferences.signals)


def test_u2_noimageai_refuses_an_image_response():
    headers = [("Content-Type", "image/jpeg"), ("X-Robots-Tag", "noimageai")]
    assert stances(page_preferences(None, headers, AGENT)) == (N, R, R)


def test_u2_noai_in_meta_and_header_together():
    head = '<meta name="robots" content="index, follow, noai">'
    headers = [("Content-Type", HTML), ("X-Robots-Tag", "noai, noimageai")]
    preferences = page_preferences(page(head).encode(), headers, AGENT)
    assert stances(preferences) == (N, R, R)
    assert len(preferences.verdict(Use.AI_TRAIN).deciding) == 2


def test_t4_noai_is_a_directive_so_an_agent_prefix_before_it_scopes():
    # "otherbot: noai, nofollow" speaks to otherbot only, as "otherbot: noindex, nofollow" does
    directives = page_directives(None, [("X-Robots-Tag", "otherbot: noai, nofollow")], AGENT)
    assert (directives.index, directives.follow) == (True, True)
    plain = page_directives(page('<meta name="robots" content="noai">'), {}, AGENT)
    assert (plain.index, plain.follow, plain.sources) == (True, True, ())


def test_u2_u6_every_signal_of_a_page_with_its_source():
    head = '<meta name="robots" content="noai"><meta name="tdm-reservation" content="1">'
    headers = [
        ("Content-Type", HTML),
        ("Content-Usage", "train-ai=n, search=y"),
        ("Content-Signal", "search=yes, ai-input=no"),
        ("X-Robots-Tag", "noimageai"),
    ]
    preferences = page_preferences(page(head), headers, AGENT)
    assert [(one.protocol, one.source) for one in preferences.signals] == [
        (Protocol.CONTENT_USAGE, "Content-Usage header"),
        (Protocol.CONTENT_SIGNAL, "Content-Signal header"),
        (Protocol.TDMREP, "meta tdm-reservation"),
        (Protocol.NOAI, 'meta robots: "noai"'),
        (Protocol.NOAI, "X-Robots-Tag: noimageai"),
    ]
    assert stances(preferences) == (A, R, R)
    assert preferences.warnings == ()


# --- U3: tdmrep.json ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected", "lines"),
    [
        ("/", (N, R, R), [2]),
        ("/news/today.html", (N, R, R), [2]),
        # "/" is first in sequence, "/open-data/" the longest match: the reservation wins
        ("/open-data/set.csv", (N, R, R), [2, 7]),
        ("/directory-a/paper.pdf", (N, R, R), [2, 11]),
        ("/directory-b/images/photo.jpg", (N, R, R), [2, 15]),
        ("/press/kit.pdf", (N, R, R), [2, 19]),
    ],
)
def test_u3_tdmrep_json_with_several_locations(path, expected, lines):
    tdmrep = read_tdmrep((FILES / "tdmrep.json").read_bytes())
    assert tdmrep.warnings == ()
    found = tdmrep.for_url(f"https://provider.example{path}")
    assert stances(found) == expected
    assert [one.line_number for one in found.signals] == lines
    assert found.signals[0].policy == "https://provider.example/policies/policy.json"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", (N, N, N)),  # no location matches: unset
        ("/open-data/set.csv", (N, A, A)),
        ("/directory-a/x", (N, R, R)),
        ("/directory-b/images/photo.jpg", (N, A, A)),
        ("/directory-b/images/photo.JPG", (N, N, N)),  # case sensitive
        ("/directory-b/images/photo.jpg.html", (N, A, A)),  # no "$": a prefix
        ("/press/kit.pdf", (N, A, A)),
        ("/press/kit.pdf?v=2", (N, N, N)),  # "$" ends the match
        ("/press/kit%2Epdf", (N, A, A)),  # unreserved escapes are decoded
        ("/everything/else", (N, R, R)),
    ],
)
def test_u3_tdmrep_locations_match_as_robots_paths(path, expected):
    rules = [
        {"location": "/open-data/", "tdm-reservation": 0},
        {"location": "/directory-a/", "tdm-reservation": 1},
        {"location": "/directory-b/images/*.jpg", "tdm-reservation": 0},
        {"location": "/press/*.pdf$", "tdm-reservation": 0},
        {"location": "/everything/", "tdm-reservation": 1},
    ]
    tdmrep = read_tdmrep(json.dumps(rules, indent=2))
    assert stances(tdmrep.for_url(path)) == expected


def test_u3_no_tdmrep_json_reserves_nothing():
    assert stances(NO_TDMREP.for_url("https://provider.example/x")) == (N, N, N)


@pytest.mark.parametrize(
    ("text", "expected_rules", "warnings"),
    [
        (
            "{not json",
            0,
            [(1, "not JSON (Expecting property name enclosed in double quotes): nothing read")],
        ),
        ("", 0, [(1, "not JSON (Expecting value): nothing read")]),
        (
            '{"location": "/", "tdm-reservation": 1}',
            1,
            [(1, "an object, not an array: read as one rule")],
        ),
        ('"tdm"', 0, [(1, "not an array of rules: nothing read")]),
        ('[\n {"tdm-reservation": 1}\n]', 0, [(2, "a rule without a location, ignored")]),
        ('[\n {"location": "/"}\n]', 0, [(2, "a rule without tdm-reservation, ignored")]),
        (
            '[\n 7,\n {"location": "/", "tdm-reservation": "yes"}\n]',
            0,
            [
                (2, "a rule that is not an object, ignored"),
                (3, "tdm-reservation 'yes' is neither 0 nor 1: unset"),
            ],
        ),
        ('[{"location": "/", "tdm-reservation": "1"}]', 1, []),
        (
            '[{"Location": "/", "TDM-Reservation": true}]',
            1,
            [(1, "tdm-reservation true read as 1")],
        ),
        (
            '[{"location": "/", "tdm-reservation": 0, "tdm-policy": "https://p"}]',
            1,
            [(1, "tdm-policy with tdm-reservation 0 is not used")],
        ),
        (
            '[{"location": "/", "tdm-reservation": 1, "tdm-policy": 5}]',
            1,
            [(1, "tdm-policy is not a URL string, ignored")],
        ),
        (
            '[{"location": "articles/", "tdm-reservation": 1}]',
            1,
            [(1, "location does not start with '/', one added")],
        ),
        (
            '[{"location": "https://provider.example/a/", "tdm-reservation": 1}]',
            1,
            [(1, "a full URL as location: its path is matched")],
        ),
        ("\ufeff[]", 0, []),
    ],
)
def test_u3_malformed_tdmrep_json_is_warnings_with_line_numbers(text, expected_rules, warnings):
    for data in (text, text.encode()):
        tdmrep = read_tdmrep(data)
        assert len(tdmrep.rules) == expected_rules
        assert [(w.line_number, w.message) for w in tdmrep.warnings] == warnings


def test_u3_a_lenient_location_still_matches():
    tdmrep = read_tdmrep('[{"location": "https://provider.example/a/", "tdm-reservation": 1}]')
    assert stances(tdmrep.for_url("/a/x")) == (N, R, R)
    tdmrep = read_tdmrep('[{"location": "articles/", "tdm-reservation": 1}]')
    assert stances(tdmrep.for_url("/articles/x")) == (N, R, R)


def test_u3_a_tdmrep_json_over_the_size_limit_is_not_read():
    tdmrep = read_tdmrep(b"[" + b" " * 100 + b"]", max_bytes=50)
    assert [(w.line_number, w.message) for w in tdmrep.warnings] == [
        (None, "longer than 50 bytes: not read")
    ]


# --- U5: what applies to a URL before it is fetched ----------------------------------------------


def test_u5_url_preferences_join_robots_txt_and_tdmrep_json():
    robots = read_robots_preferences((FILES / "cloudflare-managed.txt").read_bytes())
    tdmrep = read_tdmrep('[{"location": "/blog/", "tdm-reservation": 1}]')
    joined = url_preferences(robots, tdmrep, AGENT, "https://www.example.com/blog/post")
    assert stances(joined) == (A, R, R)
    assert [one.protocol for one in joined.verdict(Use.AI_TRAIN).deciding] == [
        Protocol.CONTENT_SIGNAL,
        Protocol.TDMREP,
    ]
    assert stances(url_preferences(None, None, AGENT, "/x")) == (N, N, N)
    assert stances(url_preferences(robots, None, AGENT, "/x")) == (A, N, R)


# --- B1: no reader raises, whatever the input ---------------------------------------------------

_TEXT_OR_BYTES = st.one_of(st.text(max_size=400), st.binary(max_size=400))
_ROBOTS_LINE = st.sampled_from(
    [
        "User-agent: *",
        "User-agent: politecrawl",
        "Content-Signal: ",
        "content-signals ",
        "Content-Usage: ",
        "Content-Usage: /",
        "Allow: /",
        "Disallow: /x",
        "",
        "# c",
    ]
)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=15), inner, max_size=4)
    ),
    max_leaves=12,
)
_RULE = st.fixed_dictionaries(
    {"location": st.text(max_size=20), "tdm-reservation": _JSON},
    optional={"tdm-policy": _JSON},
)
_HEADER_NAMES = st.sampled_from(
    [
        "Content-Usage",
        "Content-Signal",
        "tdm-reservation",
        "tdm-policy",
        "X-Robots-Tag",
        "Content-Type",
    ]
)
_HEADERS = st.lists(st.tuples(_HEADER_NAMES, st.text(max_size=60)), max_size=5)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_ROBOTS_LINE, st.text(max_size=40)), max_size=12), _TEXT_OR_BYTES)
def test_b1_robots_preferences_never_raise(lines, tail):
    text = "\n".join(head + value for head, value in lines)
    for data in (text, text.encode("utf-8", "surrogatepass"), tail):
        preferences = read_robots_preferences(data)
        for agent in (AGENT, "*", ""):
            stances(preferences.for_url(agent, "https://a.example/x?y"))


@settings(max_examples=300, deadline=None)
@given(_TEXT_OR_BYTES, st.one_of(_JSON, st.lists(_RULE, max_size=5)))
def test_b1_tdmrep_reader_never_raises(data, structured):
    for one in (data, json.dumps(structured)):
        stances(read_tdmrep(one).for_url("/a/b"))


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.none(), st.text(max_size=300), st.binary(max_size=300)), _HEADERS)
def test_b1_page_preferences_never_raise(html, headers):
    stances(page_preferences(html, headers, AGENT))


@settings(max_examples=300, deadline=None)
@given(_TEXT_OR_BYTES)
def test_b1_statement_readers_never_raise(value):
    read_content_usage(value)
    if isinstance(value, str):
        read_content_signal(value)


@settings(max_examples=200, deadline=None)
@given(_HEADERS, _HEADERS)
def test_u4_more_signals_never_loosen_a_refusal(headers, more):
    # Content-Usage lines are one dictionary whose last key applies (RFC 9651), and a second
    # tdm-reservation header is resolved as one value: every other header is a signal of its own.
    more = [
        (name, value) for name, value in more if name not in ("Content-Usage", "tdm-reservation")
    ]
    before = page_preferences(None, headers, AGENT)
    after = page_preferences(None, headers + more, AGENT)
    for use in Use:
        if before.refuses(use):
            assert after.refuses(use)
