"""Conformance cases copied from the public test suites of peer robots.txt implementations.

Plain data: one ``PeerCase`` per assertion of a peer's suite, keeping the peer's test name, its
robots.txt text, agent and URL. ``tests/test_robots_peers.py`` runs them against our engine.

Sources (stored copies of the public repositories):

- CPython: ``python/cpython`` ``Lib/test/test_robotparser.py``, the newest stored copy (no commit
  recorded with it): the 2025 version that moved ``urllib.robotparser`` toward RFC 9309
  (``PercentEncodingTest``, the extended
  ``DisallowQueryStringTest``, ``LocalNetworkTestCase.testRead``). Each class's ``good`` and
  ``bad`` URLs, its ``site_maps``, and for ``BaseRequestRateTest`` classes its ``crawl_delay``
  and ``request_rate``. Not taken: ``StringFormattingTest`` (``str()`` of the parser),
  ``PasswordProtectedSiteTestCase`` (an HTTP 403, not a file) and ``NetworkTestCase`` (network).
  The local server origin of ``testRead`` is written ``http://127.0.0.1:8000``.
- Google: ``google/robotstxt`` ``robots_test.cc`` (commit c8ac4b1d93183ddcab30d09415356bf52550c6a5):
  every ``IsUserAgentAllowed`` expectation; ``ID_LinesNumbersAreCountedCorrectly`` and
  ``ID_UTF8ByteOrderMarkIsSkipped`` through the line of the deciding rule (``explain``);
  ``ID_NonStandardLineExample_Sitemap`` through ``sitemaps``. Not taken:
  ``ID_VerifyValidUserAgentsToObey``, ``TestGetPathParamsQuery`` and ``TestMaybeEscapePattern``
  (they test helper functions we do not have).
- Protego: ``scrapy/protego`` ``tests/test_protego.py`` (commit
  a6d84dd287f08ede6ea5fc0768bc35e2b905229a): every ``can_fetch``, ``crawl_delay``,
  ``request_rate`` (requests and seconds only) and ``sitemaps`` expectation. Not taken:
  ``test_no_preferred_host``, ``test_visit_time``, ``test_parse_time_period``,
  ``test_bytestrings`` (API we do not have) and the private counters of ``test_line_endings``.
  ``tests/test_on_google_spec.py`` is a port of Google's file, so it is not repeated.
- RFC 9309 (its XML source, ``google/robotstxt`` ``protocol-draft/rfc9309.xml``): the section 5
  examples (the prose of 5.1 says which URLs each robot may fetch; a
  concrete ``.gif`` URL, ``/picture.gif``, stands for its "all URLs with a .gif suffix"; 5.2's URI
  reads ``disallow.gif``, a typo for the rule's ``disallowed.gif``), and the example tables of
  2.2.2 and 2.2.3, each pattern wrapped as ``User-Agent: *`` / ``Disallow: <pattern>``.

Semantics: ``draft`` rows hold only under our draft semantics, ``rfc9309`` rows only under RFC
9309, ``both`` under either. A row whose ``why`` is set is one where SPEC.md deliberately differs
from the peer: its expectation is OURS (the peer expects the opposite), and ``why`` says which SPEC
rule decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Semantics = Literal["draft", "rfc9309", "both"]
Check = Literal["allowed", "crawl_delay", "request_rate", "sitemaps", "rule_line"]

CPYTHON = "cpython"
GOOGLE = "google"
PROTEGO = "protego"
RFC9309_SOURCE = "rfc9309"

DRAFT: Semantics = "draft"
RFC9309: Semantics = "rfc9309"
BOTH: Semantics = "both"

SOURCE_FILES = {
    CPYTHON: "python/cpython Lib/test/test_robotparser.py",
    GOOGLE: "google/robotstxt robots_test.cc",
    PROTEGO: "scrapy/protego tests/test_protego.py",
    RFC9309_SOURCE: "RFC 9309 sections 2.2.2, 2.2.3 and 5",
}


@dataclass(frozen=True)
class PeerCase:
    """One expectation of a peer's suite, as our engine should meet it."""

    source: str
    case_name: str
    """The peer's test name (class, TEST() or method; RFC section)."""
    robots_txt: str | bytes
    agent: str
    url_or_path: str
    expected_allowed: bool | None
    """For ``check == "allowed"``: our expectation. ``None`` for the other checks."""
    semantics: Semantics
    why: str = ""
    """Set when SPEC.md deliberately differs from the peer, whose expectation is the opposite."""
    check: Check = "allowed"
    expected_value: object = None
    """For the other checks: seconds, ``(requests, seconds)``, sitemap URLs, or a line number."""

    @property
    def peer_expected_allowed(self) -> bool | None:
        """What the peer's own suite expects."""
        if self.expected_allowed is None or not self.why:
            return self.expected_allowed
        return not self.expected_allowed


# --- why our expectation differs from the peer's ------------------------------------------------

WHY_CPYTHON_AGENT_REVERSED = (
    "SPEC A2: the draft obeys the first record whose value CONTAINS the name token, so "
    "'Googlebot-Mobile' skips 'User-agent: Googlebot' (rfc9309 matches the token exactly); "
    "CPython checks the reverse, the record's value inside the agent"
)
WHY_RFC_MERGES_STAR_GROUPS = (
    "SPEC M6: rfc9309 merges every group naming the same agent, '*' groups included "
    "(RFC 9309 2.2.1); CPython obeys only the first '*' record, as the draft does (A3)"
)
WHY_DRAFT_DECODES_RESERVED = (
    "SPEC M2: the draft decodes every %xx but %2F before comparing, so %3F, %3D and %26 equal "
    "'?', '=' and '&'; CPython keeps these escapes apart from the raw characters"
)
WHY_DRAFT_2F = (
    "SPEC M2: %2F stays encoded, so it never equals '/' (the draft's 3.2.2 table: /a%2fb.html "
    "does not match /a/b.html); politecrawl keeps this in both semantics, as Protego does, "
    "while this peer treats them as equal"
)
WHY_FRAGMENT = (
    "SPEC M4: the fragment is never part of the matched path, so '/x#f' is matched as '/x'; "
    "CPython matches the fragment too"
)
WHY_AGENT_FIRST_WORD = (
    "SPEC A1: the agent passed in is read as a User-Agent header value whose name token is its "
    "first product, 'Foo Bar' -> 'Foo'; Google matches the whole string 'Foo Bar'"
)
WHY_AGENT_PRODUCT_TOKEN = (
    "SPEC A1: the name token of 'Mozilla/5.0 (compatible; ...-bot/1.1)' is its first product, "
    "'Mozilla'; Protego finds the bot's token inside the comment"
)
WHY_URL_NOT_ENCODED_BY_CALLER = (
    "SPEC M5 and RFC 9309 2.2.2: non-ASCII characters of the URL are compared as their "
    "percent-encoded UTF-8 octets, so a raw 'ツ' equals %E3%83%84; Google leaves that encoding to "
    "its caller"
)
WHY_UNRESERVED_DECODED = (
    "RFC 9309 2.2.2 (last row of its table): %xx of unreserved characters are decoded before "
    "comparison, so /foo/bar/%62%61%7A matches /foo/bar/baz; Google compares escapes as written"
)
WHY_GOOGLE_INDEX_HTML = (
    "Google-only rule (an Allow ending in index.html also allows its directory); it is in "
    "neither SPEC.md nor RFC 9309"
)
WHY_DRAFT_SUBSTRING = (
    "SPEC A2: the draft obeys the first record whose value contains the name token, and "
    "'J\u00e4vla-Foobot' contains 'foobot'"
)
WHY_UNKNOWN_FIELD_KEEPS_GROUP = (
    "SPEC F3: unknown fields are ignored, so they do not end a record: '*' and 'ia_archiver' "
    "share the 'Disallow: /' (as Google's ID_LineSyntax_Groups_OtherRules expects); Protego "
    "ends the group at the unknown line"
)
WHY_NO_AGENT_WILDCARD = (
    "SPEC A2/A3: a '*' inside a User-agent value is no wildcard: 'foo*bot' neither contains "
    "'foobot' nor is the '*' record, so no record applies (A4)"
)
WHY_DOLLAR_ANCHORS = (
    "RFC 9309 2.2.3: a final '$' anchors the pattern, so 'Disallow: /x/abc$' matches /x/abc "
    "only; Protego also reads it as a literal '$' ('dual behaviour')"
)
WHY_DRAFT_EMPTY_RECORD = (
    "SPEC F4 and the draft's 3.3 grammar (record = agent lines, then 1*ruleline): a trailing "
    "'User-Agent: quxbot' without rule lines is no record, so the draft obeys the '*' record "
    "(the reading that fetches less)"
)


# --- row builders -------------------------------------------------------------------------------


def _allowed(
    source: str,
    case_name: str,
    robots_txt: str | bytes,
    agent: str,
    semantics: Semantics,
    *,
    allowed: list[str] | None = None,
    disallowed: list[str] | None = None,
    why: str = "",
) -> list[PeerCase]:
    rows = [
        PeerCase(source, case_name, robots_txt, agent, url, True, semantics, why)
        for url in allowed or []
    ]
    rows += [
        PeerCase(source, case_name, robots_txt, agent, url, False, semantics, why)
        for url in disallowed or []
    ]
    return rows


def _crawl_delay(
    source: str,
    case_name: str,
    robots_txt: str | bytes,
    semantics: Semantics,
    *,
    agent: str,
    seconds: float | None,
) -> PeerCase:
    return PeerCase(
        source, case_name, robots_txt, agent, "", None, semantics, "", "crawl_delay", seconds
    )


def _request_rate(
    source: str,
    case_name: str,
    robots_txt: str | bytes,
    semantics: Semantics,
    *,
    agent: str,
    rate: tuple[int, float] | None,
) -> PeerCase:
    return PeerCase(
        source, case_name, robots_txt, agent, "", None, semantics, "", "request_rate", rate
    )


def _sitemaps(
    source: str, case_name: str, robots_txt: str | bytes, semantics: Semantics, *, urls: list[str]
) -> PeerCase:
    return PeerCase(source, case_name, robots_txt, "", "", None, semantics, "", "sitemaps", urls)


def _rule_line(
    source: str,
    case_name: str,
    robots_txt: str | bytes,
    semantics: Semantics,
    *,
    agent: str,
    url: str,
    line: int | None,
) -> PeerCase:
    """The rule deciding for ``agent`` and ``url`` is on ``line`` (``None``: no rule decides)."""
    return PeerCase(
        source, case_name, robots_txt, agent, url, None, semantics, "", "rule_line", line
    )


def _google_long_lines() -> list[PeerCase]:
    """GoogleOnly_LineTooLong: the C++ test builds its lines in code; so do we, the same way."""
    eol_len = len("\n")
    max_line_len = 2083 * 8
    allow = "allow: "
    disallow = "disallow: "
    name = "GoogleOnly_LineTooLong"

    # Disallow rule pattern matches the URL after being cut off at max_line_len.
    longline = "/x/"
    max_length = max_line_len - len(longline) - len(disallow) + eol_len
    longline += "a" * (max_length - len(longline))
    robots = "user-agent: FooBot\n" + disallow + longline + "/qux\n"
    rows = _allowed(
        GOOGLE,
        name,
        robots,
        "FooBot",
        BOTH,
        allowed=["http://foo.bar/fux"],
        disallowed=["http://foo.bar" + longline + "/fux"],
    )

    longline_a = "/x/"
    longline_b = "/x/"
    max_length = max_line_len - len(longline_a) - len(allow) + eol_len
    longline_a += "a" * (max_length - len(longline_a))
    longline_b += "b" * (max_length - len(longline_b))
    robots = (
        "user-agent: FooBot\ndisallow: /\n"
        + allow
        + longline_a
        + "/qux\n"
        + allow
        + longline_b
        + "/qux\n"
    )
    rows += _allowed(GOOGLE, name, robots, "FooBot", BOTH, disallowed=["http://foo.bar/"])
    rows += _allowed(
        GOOGLE,
        name,
        robots,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar" + longline_a + "/qux",  # matches the allow rule exactly
            "http://foo.bar" + longline_b + "/fux",  # matches the cut-off allow rule
        ],
    )
    return rows


# --- the robots.txt files -----------------------------------------------------------------------

CPY_USER_AGENT_WILDCARD = (
    "User-agent: *\n"
    "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
    "Disallow: /tmp/ # these will soon disappear\n"
    "Disallow: /foo.html\n"
    "    "
)
CPY_CRAWL_DELAY_AND_CUSTOM_AGENT = (
    "# robots.txt for http://www.example.com/\n"
    "\n"
    "User-agent: *\n"
    "Crawl-delay: 1\n"
    "Request-rate: 3/15\n"
    "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
    "\n"
    "# Cybermapper knows where to go.\n"
    "User-agent: cybermapper\n"
    "Disallow:\n"
    "    "
)
CPY_SITEMAP = (
    "# robots.txt for http://www.example.com/\n"
    "\n"
    "User-agent: *\n"
    "Sitemap: http://www.gstatic.com/s2/sitemaps/profiles-sitemap.xml\n"
    "Sitemap: http://www.google.com/hostednews/sitemap_index.xml\n"
    "Request-rate: 3/15\n"
    "Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
    "\n"
    "    "
)
CPY_REJECT_ALL_ROBOTS = "# go away\nUser-agent: *\nDisallow: /\n    "
CPY_EMPTY_FILE = ""
CPY_CRAWL_DELAY_AND_REQUEST_RATE = (
    "User-agent: figtree\n"
    "Crawl-delay: 3\n"
    "Request-rate: 9/30\n"
    "Disallow: /tmp\n"
    "Disallow: /a%3cd.html\n"
    "Disallow: /a%2fb.html\n"
    "Disallow: /%7ejoe/index.html\n"
    "    "
)
CPY_INVALID_REQUEST_RATE = (
    "User-agent: *\n"
    "Disallow: /tmp/\n"
    "Disallow: /a%3Cd.html\n"
    "Disallow: /a/b.html\n"
    "Disallow: /%7ejoe/index.html\n"
    "Crawl-delay: 3\n"
    "Request-rate: 9/banana\n"
    "    "
)
CPY_INVALID_CRAWL_DELAY = "User-Agent: *\nDisallow: /.\nCrawl-delay: pears\n    "
CPY_ANOTHER_INVALID_REQUEST_RATE = (
    "User-agent: Googlebot\n"
    "Allow: /folder1/myfile.html\n"
    "Disallow: /folder1/\n"
    "Request-rate: whale/banana\n"
    "    "
)
CPY_USER_AGENT_ORDERING = (
    "User-agent: Googlebot\nDisallow: /\n\nUser-agent: Googlebot-Mobile\nAllow: /\n    "
)
CPY_GOOGLE_URL_ORDERING = (
    "User-agent: Googlebot\nAllow: /folder1/myfile.html\nDisallow: /folder1/\n    "
)
CPY_DISALLOW_QUERY_STRING = (
    "User-agent: *\n"
    "Disallow: /some/path?name=value\n"
    "Disallow: /another/path?\n"
    "Disallow: /yet/one/path?name=value&more\n"
    "    "
)
CPY_USE_FIRST_USER_AGENT_WILDCARD = (
    "User-agent: *\nDisallow: /some/path\n\nUser-agent: *\nDisallow: /another/path\n    "
)
CPY_PERCENT_ENCODING = (
    "User-agent: *\n"
    "Disallow: /a1/Z-._~ # unreserved characters\n"
    "Disallow: /a2/%5A%2D%2E%5F%7E # percent-encoded unreserved characters\n"
    "Disallow: /u1/%F0%9F%90%8D # percent-encoded ASCII Unicode character\n"
    "Disallow: /u2/%f0%9f%90%8d\n"
    "Disallow: /u3/\U0001f40d # raw non-ASCII Unicode character\n"
    "Disallow: /v1/%F0 # percent-encoded non-ASCII octet\n"
    "Disallow: /v2/%f0\n"
    "Disallow: /v3/\udcf0 # raw non-ASCII octet\n"
    "Disallow: /p1%xy # raw percent\n"
    "Disallow: /p2%\n"
    "Disallow: /p3%25xy # percent-encoded percent\n"
    "Disallow: /p4%2525xy # double percent-encoded percent\n"
    "Disallow: /john%20smith # space\n"
    "Disallow: /john doe\n"
    "Disallow: /trailingspace%20\n"
    "Disallow: /question%3Fq=v # not query\n"
    "Disallow: /hash%23f # not fragment\n"
    "Disallow: /dollar%24\n"
    "Disallow: /asterisk%2A\n"
    "Disallow: /sub/dir\n"
    "Disallow: /slash%2F\n"
    "Disallow: /query/question?q=%3F\n"
    "Disallow: /query/raw/question?q=?\n"
    "Disallow: /query/eq?q%3Dv\n"
    "Disallow: /query/amp?q=v%26a\n"
    "Disallow: /raw:\n"
    "Disallow: /pc%3A\n"
    "Disallow: /raw/\n"
    "Disallow: /pc%2F\n"
    "Disallow: /raw#\n"
    "Disallow: /pc%23\n"
    "Disallow: /raw[\n"
    "Disallow: /pc%5B\n"
    "Disallow: /raw]\n"
    "Disallow: /pc%5D\n"
    "Disallow: /raw@\n"
    "Disallow: /pc%40\n"
    "Disallow: /raw!\n"
    "Disallow: /pc%21\n"
    "Disallow: /raw$\n"
    "Disallow: /pc%24\n"
    "Disallow: /raw&\n"
    "Disallow: /pc%26\n"
    "Disallow: /raw'\n"
    "Disallow: /pc%27\n"
    "Disallow: /raw(\n"
    "Disallow: /pc%28\n"
    "Disallow: /raw)\n"
    "Disallow: /pc%29\n"
    "Disallow: /raw*\n"
    "Disallow: /pc%2A\n"
    "Disallow: /raw+\n"
    "Disallow: /pc%2B\n"
    "Disallow: /raw,\n"
    "Disallow: /pc%2C\n"
    "Disallow: /raw;\n"
    "Disallow: /pc%3B\n"
    "Disallow: /raw=\n"
    "Disallow: /pc%3D\n"
)
CPY_DEFAULT_ENTRY = (
    "User-agent: *\nCrawl-delay: 1\nRequest-rate: 3/15\nDisallow: /cyberworld/map/\n    "
)
CPY_LOCAL_NETWORK_CASE_READ = (
    b"User-agent: test_robotparser\n"
    b"Disallow: /utf8/\xf0\x9f\x90\x8d\n"
    b"Disallow: /non-utf8/\xf0\n"
    b"Disallow: //[spam]/path\n"
)
GOO_GOOGLE_ONLY_SYSTEM = ""
GOO_GOOGLE_ONLY_SYSTEM_2 = "user-agent: FooBot\ndisallow: /\n"
GOO_ID_LINE_SYNTAX_LINE = "foo: FooBot\nbar: /\n"
GOO_ID_LINE_SYNTAX_LINE_2 = "user-agent FooBot\ndisallow /\n"
GOO_ID_LINE_SYNTAX_GROUPS = (
    "allow: /foo/bar/\n"
    "\n"
    "user-agent: FooBot\n"
    "disallow: /\n"
    "allow: /x/\n"
    "user-agent: BarBot\n"
    "disallow: /\n"
    "allow: /y/\n"
    "\n"
    "\n"
    "allow: /w/\n"
    "user-agent: BazBot\n"
    "\n"
    "user-agent: FooBot\n"
    "allow: /z/\n"
    "disallow: /\n"
)
GOO_ID_LINE_SYNTAX_GROUPS_OTHER_RULES = (
    "User-agent: BarBot\nSitemap: https://foo.bar/sitemap\nUser-agent: *\nDisallow: /\n"
)
GOO_ID_LINE_SYNTAX_GROUPS_OTHER_RULES_2 = (
    "User-agent: FooBot\nInvalid-Unknown-Line: unknown\nUser-agent: *\nDisallow: /\n"
)
GOO_ID_REP_LINE_NAMES_CASE_INSENSITIVE = "USER-AGENT: FooBot\nALLOW: /x/\nDISALLOW: /\n"
GOO_ID_REP_LINE_NAMES_CASE_INSENSITIVE_2 = "user-agent: FooBot\nallow: /x/\ndisallow: /\n"
GOO_ID_REP_LINE_NAMES_CASE_INSENSITIVE_3 = "uSeR-aGeNt: FooBot\nAlLoW: /x/\ndIsAlLoW: /\n"
GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE = "User-Agent: FOO BAR\nAllow: /x/\nDisallow: /\n"
GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE_2 = "User-Agent: foo bar\nAllow: /x/\nDisallow: /\n"
GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE_3 = "User-Agent: FoO bAr\nAllow: /x/\nDisallow: /\n"
GOO_GOOGLE_ONLY_ACCEPT_USER_AGENT_UP_TO_FIRST_SPACE = (
    "User-Agent: *\nDisallow: /\nUser-Agent: Foo Bar\nAllow: /x/\nDisallow: /\n"
)
GOO_ID_GLOBAL_GROUPS_SECONDARY = "user-agent: *\nallow: /\nuser-agent: FooBot\ndisallow: /\n"
GOO_ID_GLOBAL_GROUPS_SECONDARY_2 = (
    "user-agent: FooBot\n"
    "allow: /\n"
    "user-agent: BarBot\n"
    "disallow: /\n"
    "user-agent: BazBot\n"
    "disallow: /\n"
)
GOO_ID_ALLOW_DISALLOW_VALUE_CASE_SENSITIVE = "user-agent: FooBot\ndisallow: /x/\n"
GOO_ID_ALLOW_DISALLOW_VALUE_CASE_SENSITIVE_2 = "user-agent: FooBot\ndisallow: /X/\n"
GOO_ID_LONGEST_MATCH = "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n"
GOO_ID_LONGEST_MATCH_2 = "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n"
GOO_ID_LONGEST_MATCH_3 = "user-agent: FooBot\ndisallow: \nallow: \n"
GOO_ID_LONGEST_MATCH_4 = "user-agent: FooBot\ndisallow: /\nallow: /\n"
GOO_ID_LONGEST_MATCH_5 = "user-agent: FooBot\ndisallow: /x\nallow: /x/\n"
GOO_ID_LONGEST_MATCH_6 = "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n"
GOO_ID_LONGEST_MATCH_7 = "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n"
GOO_ID_LONGEST_MATCH_8 = "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n"
GOO_ID_LONGEST_MATCH_9 = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n"
GOO_ID_ENCODING = (
    "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n"
)
GOO_ID_ENCODING_2 = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n"
GOO_ID_ENCODING_3 = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n"
GOO_ID_ENCODING_4 = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n"
GOO_ID_SPECIAL_CHARACTERS = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n"
GOO_ID_SPECIAL_CHARACTERS_2 = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n"
GOO_ID_SPECIAL_CHARACTERS_3 = (
    "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n"
)
GOO_GOOGLE_ONLY_INDEX_HTML_IS_DIRECTORY = (
    "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
)
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS = "user-agent: FooBot\ndisallow: /\nallow: /fish\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_2 = "user-agent: FooBot\ndisallow: /\nallow: /fish*\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_3 = "user-agent: FooBot\ndisallow: /\nallow: /fish/\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_4 = "user-agent: FooBot\ndisallow: /\nallow: /*.php\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_5 = "user-agent: FooBot\ndisallow: /\nallow: /*.php$\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_6 = "user-agent: FooBot\ndisallow: /\nallow: /fish*.php\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_7 = "user-agent: FooBot\nallow: /p\ndisallow: /\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_8 = "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_9 = "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n"
GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_10 = "user-agent: FooBot\nallow: /$\ndisallow: /\n"
GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY = (
    "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n"
)
GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_2 = (
    "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n"
)
GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_3 = (
    "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r"
)
GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_4 = (
    "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /"
)
GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_5 = (
    "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /"
)
GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED = b"\xef\xbb\xbfUser-Agent: foo\nAllow: /AnyValue\n"
GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_2 = b"\xef\xbbUser-Agent: foo\nAllow: /AnyValue\n"
GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_3 = b"\xefUser-Agent: foo\nAllow: /AnyValue\n"
GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_4 = b"\xef\x11\xbfUser-Agent: foo\nAllow: /AnyValue\n"
GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_5 = b"User-Agent: foo\n\xef\xbb\xbfAllow: /AnyValue\n"
GOO_ID_NON_STANDARD_LINE_EXAMPLE_SITEMAP = (
    "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nSitemap: http://foo.bar/sitemap.xml\n"
)
GOO_ID_NON_STANDARD_LINE_EXAMPLE_SITEMAP_2 = (
    "Sitemap: http://foo.bar/sitemap.xml\nUser-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\n"
)
PRO_ALLOWED = "User-agent: * \nDisallow: /disallowed \nAllow: /allowed \nCrawl-delay: 10"
PRO_ALLOWED_2 = "User-agent: * \nDisallow: /d \nCrawl-delay: 10"
PRO_MALFORMED_DISALLOW = (
    "User-agent: * \n"
    "Disallow: /one \n"
    "Dissallow: /two \n"
    "Dissalow: /three \n"
    "Disalow: /four \n"
    "Diasllow: /five \n"
    "Disallaw: /six \n"
)
PRO_LENGTH_BASED_PRECEDENCE = "User-agent: * \nDisallow: / \nAllow: /page"
PRO_LENGTH_BASED_PRECEDENCE_2 = "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/\n"
PRO_LENGTH_BASED_PRECEDENCE_3 = "user-agent: FooBot\nallow: /x/page.html\ndisallow: /x/\n"
PRO_LENGTH_BASED_PRECEDENCE_4 = "user-agent: FooBot\ndisallow: \nallow: \n"
PRO_LENGTH_BASED_PRECEDENCE_5 = "user-agent: FooBot\ndisallow: /\nallow: /\n"
PRO_LENGTH_BASED_PRECEDENCE_6 = "user-agent: FooBot\ndisallow: /x\nallow: /x/\n"
PRO_LENGTH_BASED_PRECEDENCE_7 = "user-agent: FooBot\ndisallow: /x/page.html\nallow: /x/page.html\n"
PRO_LENGTH_BASED_PRECEDENCE_8 = "user-agent: FooBot\nallow: /page\ndisallow: /*.html\n"
PRO_LENGTH_BASED_PRECEDENCE_9 = "user-agent: FooBot\nallow: /x/page.\ndisallow: /*.html\n"
PRO_LENGTH_BASED_PRECEDENCE_10 = "User-agent: *\nDisallow: /x/\nUser-agent: FooBot\nDisallow: /y/\n"
PRO_LENGTH_BASED_PRECEDENCE_11 = "user-agent: FooBot\nallow: /p\ndisallow: /\n"
PRO_LENGTH_BASED_PRECEDENCE_12 = "user-agent: FooBot\nallow: /folder\ndisallow: /folder\n"
PRO_LENGTH_BASED_PRECEDENCE_13 = "user-agent: FooBot\ndisallow: /folder\nallow: /folder\n"
PRO_LENGTH_BASED_PRECEDENCE_14 = "user-agent: FooBot\nallow: /page\ndisallow: /*.htm\n"
PRO_LENGTH_BASED_PRECEDENCE_15 = "user-agent: FooBot\nallow: /$\ndisallow: /\n"
PRO_ESCAPED_URL = "User-agent: * \nDisallow: / \nAllow: /a%3cd.html"
PRO_ESCAPED_URL_2 = "User-agent: * \nDisallow: / \nAllow: /a%3c*"
PRO_UNESCAPED_URL = "User-agent: * \nDisallow: / \nAllow: /a<d.html"
PRO_UNESCAPED_URL_2 = "User-agent: * \nDisallow: / \nAllow: /a<*"
PRO_URL_PARTS = "User-agent: * \nDisallow: /path;params?query \n"
PRO_URL_PARTS_2 = "User-agent: * \nDisallow: /? \n"
PRO_URL_PARTS_3 = "User-agent: * \nDisallow: /; \n"
PRO_SITEMAPS = (
    "User-agent: * \n"
    "Disallow: /disallowed \n"
    "Allow: /allowed \n"
    "Sitemap: https://site.local/sitemap.xml \n"
    "Allow: /another_allowed \n"
    "User-agent: testbot \n"
    "Sitemap: https://site.local/sitemap2.xml"
)
PRO_CRAWL_DELAY = (
    "User-agent: * \n"
    "Disallow: /disallowed \n"
    "Allow: /allowed \n"
    "Crawl-delay: 10 \n"
    "User-agent: testbot\n"
    "Crawl-delay: 15 \n"
)
PRO_MALFORMED_CRAWL_DELAY = (
    "User-agent: * \nDisallow: /disallowed \nAllow: /allowed \nCrawl-delay: random_word"
)
PRO_NO_CRAWL_DELAY = "User-agent: * \nDisallow: /disallowed \nAllow: /allowed"
PRO_REQUEST_RATE = (
    "\n"
    "        User-agent: one\n"
    "        Request-rate: 1/10s\n"
    "        User-agent: two\n"
    "        Request-rate: 100/15m\n"
    "        User-agent: three\n"
    "        Request-rate: 400/1h\n"
    "        User-agent: four\n"
    "        Request-rate: 9000/1d\n"
    "        User-agent: five\n"
    "        Request-rate: 1/10s 1820-1940\n"
    "        "
)
PRO_NO_REQUEST_RATE = (
    "\n"
    "        User-agent: one\n"
    "        Request-rate: 1/10s\n"
    "        User-agent: two\n"
    "        Disallow: /\n"
    "        "
)
PRO_EMPTY_RESPONSE = ""
PRO_ALLOWED_WILDCARDS = (
    "User-agent: first\n"
    "                     Disallow: /disallowed/*/end$\n"
    "                     Disallow: /protego*work\n"
    "\n"
    "                     User-agent: second\n"
    "                     Allow: /*allowed\n"
    "                     Disallow: /\n"
    "                "
)
PRO_ALLOWED_WILDCARDS_2 = (
    "\n"
    "        # robots.txt for http://www.example.com/\n"
    "\n"
    "        User-agent: Rule1TestBot\n"
    "        Disallow:  /foo*\n"
    "\n"
    "        User-agent: Rule2TestBot\n"
    "        Disallow:  /foo*/bar.html\n"
    "\n"
    "        # Disallows anything containing the letter m!\n"
    "        User-agent: Rule3TestBot\n"
    "        Disallow:  *m\n"
    "\n"
    "        User-agent: Rule4TestBot\n"
    "        Allow:  /foo/bar.html\n"
    "        Disallow: *\n"
    "\n"
    "        User-agent: Rule5TestBot\n"
    "        Disallow:  /foo*/*bar.html\n"
    "\n"
    "        User-agent: Rule6TestBot\n"
    "        Allow:  /foo$\n"
    "        Disallow:  /foo\n"
    "\n"
    "        # Exercise excessive wildcards\n"
    "        # https://bitbucket.org/philip_semanchuk/robotexclusionrulesparser/issues/1\n"
    "        User-agent: Rule7TestBot\n"
    "        Allow: *****************/****.js\n"
    "\n"
    "        "
)
PRO_ALLOWED_WILDCARDS_3 = "User-agent: FooBot\nDisallow: /foo/bar/quz\nAllow: /foo/*/qux\n"
PRO_ALLOWED_WILDCARDS_4 = "User-agent: FooBot\nDisallow: /foo/bar$\nAllow: /foo/bar/qux\n"
PRO_UNICODE_URL_AND_USERAGENT = (
    "\n"
    "        User-Agent: *\n"
    "        Disallow: /admin/\n"
    "        Disallow: /static/\n"
    "        # taken from https://en.wikipedia.org/robots.txt\n"
    "        Disallow: /wiki/K%C3%A4ytt%C3%A4j%C3%A4:\n"
    "        Disallow: /wiki/Käyttäjä:\n"
    "        Disallow: /wiki/Keskustelu_käyttäjästä:\n"
    "        User-Agent: UnicödeBöt\n"
    "        Disallow: /some/randome/page.html"
)
PRO_UNICODE_URL_AND_USERAGENT_2 = (
    "\n"
    "        # robots.txt for http://www.example.com/\n"
    "\n"
    "        User-Agent: Jävla-Foobot\n"
    "        Disallow: /\n"
    "\n"
    "        User-Agent: \u041b\u044c\u0432\u0456\u0432-bot\n"
    "        Disallow: /totalitarianism/\n"
    "\n"
    "        "
)
PRO_NO_LEADING_USER_AGENT = (
    "\n"
    "        Disallow: /withoutUA\n"
    "        Allow: /withoutUA/exception\n"
    "        Crawl-delay: 5.2\n"
    "        User-Agent: testbot\n"
    "        Disallow: /withUA\n"
    "        "
)
PRO_DEFAULT_USER_AGENT = (
    "\n"
    "        User-Agent: robot\n"
    "        Disallow: /ro-bot\n"
    "\n"
    "        User-Agent: *\n"
    "        Disallow: /default-UA\n"
    "\n"
    "        User-Agent: testbot\n"
    "        Disallow: /testbot\n"
    "        "
)
PRO_USER_AGENT_CASE_INSENSITIVITY = (
    "\n"
    "        User-Agent: testbot\n"
    "        Disallow: /testbot\n"
    "\n"
    "        User-Agent: *\n"
    "        Disallow: /default-UA\n"
    "        "
)
PRO_USER_AGENT_GROUPING = (
    "\n"
    "        User-Agent: one\n"
    "        User-Agent: two\n"
    "        Disallow: /success\n"
    "        User-Agent: *\n"
    "        Disallow: /failure\n"
    "        "
)
PRO_USER_AGENT_GROUPING_2 = (
    "allow: /foo/bar/\n"
    "\n"
    "user-agent: FooBot\n"
    "disallow: /\n"
    "allow: /x/\n"
    "user-agent: BarBot\n"
    "disallow: /\n"
    "allow: /y/\n"
    "\n"
    "\n"
    "allow: /w/\n"
    "user-agent: BazBot\n"
    "\n"
    "user-agent: FooBot\n"
    "allow: /z/\n"
    "disallow: /\n"
)
PRO_COMMENTS = (
    "\n"
    "        # comment 1\n"
    "        User-Agent: one # comment 2\n"
    "        # comment 3\n"
    "        User-Agent: two\n"
    "        Disallow: /one-two-bot\n"
    "        # Disallow: /commented\n"
    "        # comment 4\n"
    "        User-Agent: *\n"
    "        Disallow: /default-ua\n"
    "        "
)
PRO_COMMENTS_2 = "User-agent: FooBot\n# Disallow: /\nDisallow: /foo/quz#qux\nAllow: /\n"
PRO_SKIP_UNKNOWN_DIRECTIVES = (
    "\n"
    "        User-Agent: one\n"
    "        Disallow: /bot-one\n"
    "        Harry: Potter\n"
    "        User-Agent: two\n"
    "        Disallow: /bot-two\n"
    "        "
)
PRO_SKIP_MALFORMED_LINE = (
    "\n"
    "        User-Agent: one\n"
    "        Disallow: /bot-one\n"
    "        Harry Potter\n"
    "        User-Agent: two\n"
    "        Disallow: /bot-two\n"
    "        "
)
PRO_EMPTY_DISALLOW_ALLOW_DIRECTIVES = (
    "\n"
    "        User-Agent: one\n"
    "        Disallow:\n"
    "\n"
    "        User-Agent: two\n"
    "        Allow:\n"
    "        "
)
PRO_EMPTY_RECORD_GROUP = (
    "\n        User-Agent: harrybot\n        Disallow: /\n        User-Agent: testbot\n        "
)
PRO_1994RFC_EXAMPLE = (
    "\n"
    "        # robots.txt for http://www.example.com/\n"
    "        User-agent: *\n"
    "        Disallow: /cyberworld/map/ # This is an infinite virtual URL space\n"
    "        Disallow: /tmp/ # these will soon disappear\n"
    "        Disallow: /foo.html\n"
    "        "
)
PRO_1996RFC_EXAMPLES = (
    "\n"
    "        # robots.txt for http://www.example.com/\n"
    "\n"
    "        User-agent: 1bot\n"
    "        Allow: /tmp\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: 2bot\n"
    "        Allow: /tmp/\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: 3bot\n"
    "        Allow: /a%3cd.html\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: 4bot\n"
    "        Allow: /a%3Cd.html\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: 5bot\n"
    "        Allow: /a%2fb.html\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: 6bot\n"
    "        Allow: /a/b.html\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: 7bot\n"
    "        Allow: /%7ejoe/index.html\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: 8bot\n"
    "        Allow: /~joe/index.html\n"
    "        Disallow: /\n"
    "        "
)
PRO_1996RFC_EXAMPLES_2 = (
    "\n"
    "        # /robots.txt for http://www.example.org/\n"
    "        # comments to webmaster@example.org\n"
    "\n"
    "        User-agent: unhipbot\n"
    "        Disallow: /\n"
    "\n"
    "        User-agent: webcrawler\n"
    "        User-agent: excite\n"
    "        Disallow:\n"
    "\n"
    "        User-agent: *\n"
    "        Disallow: /org/plans.html\n"
    "        Allow: /org/\n"
    "        Allow: /serv\n"
    "        Allow: /~mak\n"
    "        Disallow: /\n"
    "        "
)
PRO_IMPLICIT_ALLOW = (
    "\n"
    "        # robots.txt for http://www.example.com/\n"
    "\n"
    "        User-agent: *\n"
    "        Disallow:    /\n"
    "\n"
    "        User-agent: foobot\n"
    "        Disallow:\n"
    "        "
)
PRO_GROUPING_UNKNOWN_KEYS = (
    "\n"
    "        User-agent: abc\n"
    "        Disallow: /content/2/\n"
    "        User-agent: *\n"
    "        Invalid_directive: /gb.html\n"
    "        Invalid_directive: /content/2/\n"
    "        User-agent: ia_archiver\n"
    "        Disallow: /\n"
    "        "
)
PRO_GENEROSITY = "\n        Foo: Foobot\n        Bar: /"
PRO_GENEROSITY_2 = (
    "\n"
    "        user-agent foobot\n"
    "        disallow /\n"
    "        user agent harry potter\n"
    "        disallow /horcrux\n"
    "        request rate 1/10s 1820-1940\n"
    "        "
)
PRO_GENEROSITY_3 = "\n        user-agent: foo*bot\n        disallow: /myprofile\n        "
PRO_DIRECTIVE_CASE_INSENSITIVITY = (
    "\n"
    "        USER-AGENT: onebot\n"
    "        ALLOW: /x\n"
    "        DISALLOW: /\n"
    "\n"
    "        user-agent: twobot\n"
    "        allow: /x\n"
    "        disallow: /\n"
    "\n"
    "        uSEr-aGEnT: threeBot\n"
    "        AlLoW: /x\n"
    "        DIsALlOw: /\n"
    "        "
)
PRO_LINE_ENDINGS = (
    "User-Agent: foo\r\nAllow: /some/path\r\nUser-Agent: bar\r\n\r\n\r\nDisallow: /\r\n"
)
PRO_LINE_ENDINGS_2 = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /\n"
PRO_LINE_ENDINGS_3 = "User-Agent: foo\rAllow: /some/path\rUser-Agent: bar\r\r\rDisallow: /\r"
PRO_LINE_ENDINGS_4 = "User-Agent: foo\nAllow: /some/path\nUser-Agent: bar\n\n\nDisallow: /"
PRO_LINE_ENDINGS_5 = "User-Agent: foo\nAllow: /some/path\r\nUser-Agent: bar\n\r\n\nDisallow: /"
PRO_INDEX_HTML_IS_DIRECTORY = "User-Agent: *\nAllow: /allowed-slash/index.html\nDisallow: /\n"
PRO_PERCENTAGE_ENCODING = (
    "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar?qux=taz&baz=http://foo.bar?tar&par\n"
)
PRO_PERCENTAGE_ENCODING_2 = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/ツ\n"
PRO_PERCENTAGE_ENCODING_3 = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%E3%83%84\n"
PRO_PERCENTAGE_ENCODING_4 = "User-agent: FooBot\nDisallow: /\nAllow: /foo/bar/%62%61%7A\n"
PRO_URL_CASE_SENSITIVITY = "user-agent: FooBot\ndisallow: /x/\n"
PRO_URL_CASE_SENSITIVITY_2 = "user-agent: FooBot\ndisallow: /X/\n"
PRO_NONTERMINAL_DOLLAR = (
    "user-agent: FooBot\n"
    "disallow: /x$/abc\n"
    "disallow: /y/abc$\n"
    "disallow: /x*x$/abc\n"
    "disallow: /y*y/abc$\n"
)
PRO_ESCAPED_SPECIAL_SYMBOLS = "user-agent: FooBot\ndisallow: /x/abc%24\ndisallow: /x%2Ax/abc\n"
PRO_SPECIAL_SYMBOLS_DUAL_BEHAVIOUR = "user-agent: FooBot\ndisallow: /x/abc$\ndisallow: /x*x/abc\n"
PRO_WITH_ABSOLUTE_URLS = "user-agent: *\ndisallow: http://ms-web00.walkerplus.com/\n"
PRO_SITEMAPS_COME_FIRST = (
    "Sitemap: https://www.foo.bar/sitmap.xml\nUser-Agent: FootBot\nDisallow: /something"
)
PRO_DISALLOW_TARGET_URL_PATH_IS_MISSING = "User-Agent: *\nDisallow: /\n"
PRO_DISALLOW_QUERY_WILDCARD = "User-agent: * \nDisallow: /*s="
PRO_LEADING_ASTERISK = "User-Agent: *\nallow: */p\ndisallow: /\n"
PRO_LEADING_ASTERISK_2 = "User-Agent: *\nallow: /page\ndisallow: */*.htm\n"
RFC_5_1_SIMPLE_EXAMPLE = (
    "User-Agent: *\n"
    "Disallow: *.gif$\n"
    "Disallow: /example/\n"
    "Allow: /publications/\n"
    "\n"
    "User-Agent: foobot\n"
    "Disallow:/\n"
    "Allow:/example/page.html\n"
    "Allow:/example/allowed.gif\n"
    "\n"
    "User-Agent: barbot\n"
    "User-Agent: bazbot\n"
    "Disallow: /example/page.html\n"
    "\n"
    "User-Agent: quxbot\n"
    "\n"
)
RFC_5_2_LONGEST_MATCH = (
    "User-Agent: foobot\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
)
RFC_2_2_2_TABLE_ROW_1 = "User-Agent: *\nDisallow: /foo/bar?baz=quz\n"
RFC_2_2_2_TABLE_ROW_2 = "User-Agent: *\nDisallow: /foo/bar?baz=https://foo.bar\n"
RFC_2_2_2_TABLE_ROW_3 = "User-Agent: *\nDisallow: /foo/bar/ツ\n"
RFC_2_2_2_TABLE_ROW_4 = "User-Agent: *\nDisallow: /foo/bar/%E3%83%84\n"
RFC_2_2_2_TABLE_ROW_5 = "User-Agent: *\nDisallow: /foo/bar/%62%61%7A\n"
RFC_2_2_3_TABLE_ROW_1 = "User-Agent: *\nDisallow: /path/file-with-a-%2A.html\n"
RFC_2_2_3_TABLE_ROW_2 = "User-Agent: *\nDisallow: /path/foo-%24\n"

# --- the cases -----------------------------------------------------------------------------------

CPYTHON_CASES: list[PeerCase] = [
    *_allowed(
        CPYTHON,
        "UserAgentWildcardTest",
        CPY_USER_AGENT_WILDCARD,
        "test_robotparser",
        BOTH,
        allowed=[
            "/",
            "/test.html",
        ],
        disallowed=[
            "/cyberworld/map/index.html",
            "/tmp/xxx",
            "/foo.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "CrawlDelayAndCustomAgentTest",
        CPY_CRAWL_DELAY_AND_CUSTOM_AGENT,
        "test_robotparser",
        BOTH,
        allowed=[
            "/",
            "/test.html",
        ],
        disallowed=[
            "/cyberworld/map/index.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "CrawlDelayAndCustomAgentTest",
        CPY_CRAWL_DELAY_AND_CUSTOM_AGENT,
        "cybermapper",
        BOTH,
        allowed=[
            "/cyberworld/map/index.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "SitemapTest",
        CPY_SITEMAP,
        "test_robotparser",
        BOTH,
        allowed=[
            "/",
            "/test.html",
        ],
        disallowed=[
            "/cyberworld/map/index.html",
        ],
    ),
    _sitemaps(
        CPYTHON,
        "SitemapTest",
        CPY_SITEMAP,
        BOTH,
        urls=[
            "http://www.gstatic.com/s2/sitemaps/profiles-sitemap.xml",
            "http://www.google.com/hostednews/sitemap_index.xml",
        ],
    ),
    *_allowed(
        CPYTHON,
        "RejectAllRobotsTest",
        CPY_REJECT_ALL_ROBOTS,
        "test_robotparser",
        BOTH,
        disallowed=[
            "/cyberworld/map/index.html",
            "/",
            "/tmp/",
        ],
    ),
    *_allowed(
        CPYTHON,
        "EmptyFileTest",
        CPY_EMPTY_FILE,
        "test_robotparser",
        BOTH,
        allowed=[
            "/foo",
        ],
    ),
    _crawl_delay(
        CPYTHON, "EmptyFileTest", CPY_EMPTY_FILE, BOTH, agent="test_robotparser", seconds=None
    ),
    _request_rate(
        CPYTHON, "EmptyFileTest", CPY_EMPTY_FILE, BOTH, agent="test_robotparser", rate=None
    ),
    *_allowed(
        CPYTHON,
        "CrawlDelayAndRequestRateTest",
        CPY_CRAWL_DELAY_AND_REQUEST_RATE,
        "figtree",
        BOTH,
        allowed=[
            "/foo.html",
        ],
        disallowed=[
            "/tmp",
            "/tmp.html",
            "/tmp/a.html",
            "/a%3cd.html",
            "/a%3Cd.html",
            "/a%2fb.html",
            "/~joe/index.html",
        ],
    ),
    _crawl_delay(
        CPYTHON,
        "CrawlDelayAndRequestRateTest",
        CPY_CRAWL_DELAY_AND_REQUEST_RATE,
        BOTH,
        agent="figtree",
        seconds=3,
    ),
    _request_rate(
        CPYTHON,
        "CrawlDelayAndRequestRateTest",
        CPY_CRAWL_DELAY_AND_REQUEST_RATE,
        BOTH,
        agent="figtree",
        rate=(9, 30),
    ),
    *_allowed(
        CPYTHON,
        "DifferentAgentTest",
        CPY_CRAWL_DELAY_AND_REQUEST_RATE,
        "figtree",
        BOTH,
        allowed=[
            "/foo.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "DifferentAgentTest",
        CPY_CRAWL_DELAY_AND_REQUEST_RATE,
        "FigTree Robot libwww-perl/5.04",
        BOTH,
        disallowed=[
            "/tmp",
            "/tmp.html",
            "/tmp/a.html",
            "/a%3cd.html",
            "/a%3Cd.html",
            "/a%2fb.html",
            "/~joe/index.html",
        ],
    ),
    _crawl_delay(
        CPYTHON,
        "DifferentAgentTest",
        CPY_CRAWL_DELAY_AND_REQUEST_RATE,
        BOTH,
        agent="FigTree Robot libwww-perl/5.04",
        seconds=3,
    ),
    _request_rate(
        CPYTHON,
        "DifferentAgentTest",
        CPY_CRAWL_DELAY_AND_REQUEST_RATE,
        BOTH,
        agent="FigTree Robot libwww-perl/5.04",
        rate=(9, 30),
    ),
    *_allowed(
        CPYTHON,
        "InvalidRequestRateTest",
        CPY_INVALID_REQUEST_RATE,
        "test_robotparser",
        BOTH,
        allowed=[
            "/tmp",
        ],
        disallowed=[
            "/tmp/",
            "/tmp/a.html",
            "/a%3cd.html",
            "/a%3Cd.html",
            "/a/b.html",
            "/%7Ejoe/index.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "InvalidCrawlDelayTest",
        CPY_INVALID_CRAWL_DELAY,
        "test_robotparser",
        BOTH,
        allowed=[
            "/foo.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "AnotherInvalidRequestRateTest",
        CPY_ANOTHER_INVALID_REQUEST_RATE,
        "Googlebot",
        BOTH,
        allowed=[
            "/folder1/myfile.html",
        ],
        disallowed=[
            "/folder1/anotherfile.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "UserAgentOrderingTest",
        CPY_USER_AGENT_ORDERING,
        "Googlebot",
        BOTH,
        disallowed=[
            "/something.jpg",
        ],
    ),
    *_allowed(
        CPYTHON,
        "UserAgentGoogleMobileTest",
        CPY_USER_AGENT_ORDERING,
        "Googlebot-Mobile",
        BOTH,
        allowed=[
            "/something.jpg",
        ],
        why=WHY_CPYTHON_AGENT_REVERSED,
    ),
    *_allowed(
        CPYTHON,
        "GoogleURLOrderingTest",
        CPY_GOOGLE_URL_ORDERING,
        "googlebot",
        BOTH,
        allowed=[
            "/folder1/myfile.html",
        ],
        disallowed=[
            "/folder1/anotherfile.html",
        ],
    ),
    *_allowed(
        CPYTHON,
        "DisallowQueryStringTest",
        CPY_DISALLOW_QUERY_STRING,
        "test_robotparser",
        BOTH,
        allowed=[
            "/some/path",
            "/some/path?",
            "/another/path",
        ],
        disallowed=[
            "/some/path?name=value/another/path?",
            "/another/path?name=value",
            "/yet/one/path?name=value&more",
        ],
    ),
    *_allowed(
        CPYTHON,
        "DisallowQueryStringTest",
        CPY_DISALLOW_QUERY_STRING,
        "test_robotparser",
        RFC9309,
        allowed=[
            "/some/path%3Fname=value",
            "/some/path?name%3Dvalue",
            "/another/path%3F",
            "/yet/one/path?name=value%26more",
        ],
    ),
    *_allowed(
        CPYTHON,
        "DisallowQueryStringTest",
        CPY_DISALLOW_QUERY_STRING,
        "test_robotparser",
        DRAFT,
        disallowed=[
            "/some/path%3Fname=value",
            "/some/path?name%3Dvalue",
            "/another/path%3F",
            "/yet/one/path?name=value%26more",
        ],
        why=WHY_DRAFT_DECODES_RESERVED,
    ),
    *_allowed(
        CPYTHON,
        "UseFirstUserAgentWildcardTest",
        CPY_USE_FIRST_USER_AGENT_WILDCARD,
        "test_robotparser",
        DRAFT,
        allowed=[
            "/another/path",
        ],
    ),
    *_allowed(
        CPYTHON,
        "UseFirstUserAgentWildcardTest",
        CPY_USE_FIRST_USER_AGENT_WILDCARD,
        "test_robotparser",
        RFC9309,
        disallowed=[
            "/another/path",
        ],
        why=WHY_RFC_MERGES_STAR_GROUPS,
    ),
    *_allowed(
        CPYTHON,
        "UseFirstUserAgentWildcardTest",
        CPY_USE_FIRST_USER_AGENT_WILDCARD,
        "test_robotparser",
        BOTH,
        disallowed=[
            "/some/path",
        ],
    ),
    *_allowed(
        CPYTHON,
        "PercentEncodingTest",
        CPY_PERCENT_ENCODING,
        "test_robotparser",
        BOTH,
        allowed=[
            "/u1/%F0",
            "/u1/%f0",
            "/u2/%F0",
            "/u2/%f0",
            "/u3/%F0",
            "/u3/%f0",
            "/p1%2525xy",
            "/p2%f0",
            "/p3%2525xy",
            "/p4%xy",
            "/p4%25xy",
            "/dollar",
            "/asterisk",
        ],
        disallowed=[
            "/a1/Z-._~",
            "/a1/%5A%2D%2E%5F%7E",
            "/a2/Z-._~",
            "/a2/%5A%2D%2E%5F%7E",
            "/u1/%F0%9F%90%8D",
            "/u1/%f0%9f%90%8d",
            "/u1/\U0001f40d",
            "/u2/%F0%9F%90%8D",
            "/u2/%f0%9f%90%8d",
            "/u2/\U0001f40d",
            "/u3/%F0%9F%90%8D",
            "/u3/%f0%9f%90%8d",
            "/u3/\U0001f40d",
            "/v1/%F0",
            "/v1/%f0",
            "/v1/\udcf0",
            "/v1/\U0001f40d",
            "/v2/%F0",
            "/v2/%f0",
            "/v2/\udcf0",
            "/v2/\U0001f40d",
            "/v3/%F0",
            "/v3/%f0",
            "/v3/\udcf0",
            "/v3/\U0001f40d",
            "/p1%xy",
            "/p1%25xy",
            "/p2%",
            "/p2%25",
            "/p2%2525",
            "/p2%xy",
            "/p3%xy",
            "/p3%25xy",
            "/p4%2525xy",
            "/john%20smith",
            "/john smith",
            "/john%20doe",
            "/john doe",
            "/trailingspace%20",
            "/trailingspace ",
            "/question%3Fq=v",
            "/hash%23f",
            "/dollar$",
            "/dollar%24",
            "/asterisk*",
            "/asterisk%2A",
            "/sub/dir",
            "/slash%2F",
            "/query/question?q=?",
            "/query/question?q=%3F",
            "/query/raw/question?q=?",
            "/query/raw/question?q=%3F",
            "/query/eq?q%3Dv",
            "/query/amp?q=v%26a",
            "/raw:",
            "/raw%3A",
            "/pc:",
            "/pc%3A",
            "/raw/",
            "/raw%2F",
            "/pc%2F",
            "/raw#",
            "/raw%23",
            "/pc%23",
            "/raw[",
            "/raw%5B",
            "/pc[",
            "/pc%5B",
            "/raw]",
            "/raw%5D",
            "/pc]",
            "/pc%5D",
            "/raw@",
            "/raw%40",
            "/pc@",
            "/pc%40",
            "/raw!",
            "/raw%21",
            "/pc!",
            "/pc%21",
            "/raw$",
            "/raw%24",
            "/pc$",
            "/pc%24",
            "/raw&",
            "/raw%26",
            "/pc&",
            "/pc%26",
            "/raw'",
            "/raw%27",
            "/pc'",
            "/pc%27",
            "/raw(",
            "/raw%28",
            "/pc(",
            "/pc%28",
            "/raw)",
            "/raw%29",
            "/pc)",
            "/pc%29",
            "/raw*",
            "/raw%2A",
            "/pc*",
            "/pc%2A",
            "/raw+",
            "/raw%2B",
            "/pc+",
            "/pc%2B",
            "/raw,",
            "/raw%2C",
            "/pc,",
            "/pc%2C",
            "/raw;",
            "/raw%3B",
            "/pc;",
            "/pc%3B",
            "/raw=",
            "/raw%3D",
            "/pc=",
            "/pc%3D",
        ],
    ),
    *_allowed(
        CPYTHON,
        "PercentEncodingTest",
        CPY_PERCENT_ENCODING,
        "test_robotparser",
        RFC9309,
        allowed=[
            "/question?q=v",
            "/query/eq?q=v",
            "/query/amp?q=v&a",
        ],
    ),
    *_allowed(
        CPYTHON,
        "PercentEncodingTest",
        CPY_PERCENT_ENCODING,
        "test_robotparser",
        DRAFT,
        disallowed=[
            "/question?q=v",
            "/query/eq?q=v",
            "/query/amp?q=v&a",
        ],
        why=WHY_DRAFT_DECODES_RESERVED,
    ),
    *_allowed(
        CPYTHON,
        "PercentEncodingTest",
        CPY_PERCENT_ENCODING,
        "test_robotparser",
        BOTH,
        allowed=[
            "/hash#f",
            "/pc#",
        ],
        why=WHY_FRAGMENT,
    ),
    *_allowed(
        CPYTHON,
        "PercentEncodingTest",
        CPY_PERCENT_ENCODING,
        "test_robotparser",
        BOTH,
        allowed=[
            "/sub%2Fdir",
            "/slash/",
            "/pc/",
        ],
        why=WHY_DRAFT_2F,
    ),
    *_allowed(
        CPYTHON,
        "DefaultEntryTest",
        CPY_DEFAULT_ENTRY,
        "test_robotparser",
        BOTH,
        allowed=[
            "/",
            "/test.html",
        ],
        disallowed=[
            "/cyberworld/map/index.html",
        ],
    ),
    _crawl_delay(
        CPYTHON, "DefaultEntryTest", CPY_DEFAULT_ENTRY, BOTH, agent="test_robotparser", seconds=1
    ),
    _request_rate(
        CPYTHON, "DefaultEntryTest", CPY_DEFAULT_ENTRY, BOTH, agent="test_robotparser", rate=(3, 15)
    ),
    *_allowed(
        CPYTHON,
        "LocalNetworkTestCase.testRead",
        CPY_LOCAL_NETWORK_CASE_READ,
        "test_robotparser",
        BOTH,
        allowed=[
            "http://127.0.0.1:8000/robots.txt",
            "http://127.0.0.1:8000/utf8/",
            "http://127.0.0.1:8000/non-utf8/",
        ],
        disallowed=[
            "http://127.0.0.1:8000/utf8/\U0001f40d",
            "http://127.0.0.1:8000/utf8/%F0%9F%90%8D",
            "http://127.0.0.1:8000/non-utf8/%F0",
            "http://127.0.0.1:8000/non-utf8/\U0001f40d",
        ],
    ),
    *_allowed(
        CPYTHON,
        "LocalNetworkTestCase.testRead",
        CPY_LOCAL_NETWORK_CASE_READ,
        "test_robotparser",
        BOTH,
        allowed=[
            "http://127.0.0.1:8000/%2F[spam]/path",
        ],
        why=WHY_DRAFT_2F,
    ),
]

GOOGLE_CASES: list[PeerCase] = [
    *_allowed(
        GOOGLE,
        "GoogleOnly_SystemTest",
        GOO_GOOGLE_ONLY_SYSTEM,
        "FooBot",
        BOTH,
        allowed=[
            "",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_SystemTest",
        GOO_GOOGLE_ONLY_SYSTEM,
        "",
        BOTH,
        allowed=[
            "",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_SystemTest",
        GOO_GOOGLE_ONLY_SYSTEM_2,
        "",
        BOTH,
        allowed=[
            "",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_SystemTest",
        GOO_GOOGLE_ONLY_SYSTEM_2,
        "FooBot",
        BOTH,
        disallowed=[
            "",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Line",
        GOO_GOOGLE_ONLY_SYSTEM_2,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Line",
        GOO_ID_LINE_SYNTAX_LINE,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Line",
        GOO_ID_LINE_SYNTAX_LINE_2,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups",
        GOO_ID_LINE_SYNTAX_GROUPS,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/b",
            "http://foo.bar/z/d",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups",
        GOO_ID_LINE_SYNTAX_GROUPS,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/y/c",
            "http://foo.bar/foo/bar/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups",
        GOO_ID_LINE_SYNTAX_GROUPS,
        "BarBot",
        RFC9309,
        allowed=[
            "http://foo.bar/y/c",
            "http://foo.bar/w/a",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups",
        GOO_ID_LINE_SYNTAX_GROUPS,
        "BarBot",
        BOTH,
        disallowed=[
            "http://foo.bar/z/d",
            "http://foo.bar/foo/bar/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups",
        GOO_ID_LINE_SYNTAX_GROUPS,
        "BazBot",
        BOTH,
        allowed=[
            "http://foo.bar/z/d",
        ],
        disallowed=[
            "http://foo.bar/foo/bar/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups_OtherRules",
        GOO_ID_LINE_SYNTAX_GROUPS_OTHER_RULES,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups_OtherRules",
        GOO_ID_LINE_SYNTAX_GROUPS_OTHER_RULES,
        "BarBot",
        BOTH,
        disallowed=[
            "http://foo.bar/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups_OtherRules",
        GOO_ID_LINE_SYNTAX_GROUPS_OTHER_RULES_2,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LineSyntax_Groups_OtherRules",
        GOO_ID_LINE_SYNTAX_GROUPS_OTHER_RULES_2,
        "BarBot",
        BOTH,
        disallowed=[
            "http://foo.bar/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_REPLineNamesCaseInsensitive",
        GOO_ID_REP_LINE_NAMES_CASE_INSENSITIVE,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_REPLineNamesCaseInsensitive",
        GOO_ID_REP_LINE_NAMES_CASE_INSENSITIVE_2,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_REPLineNamesCaseInsensitive",
        GOO_ID_REP_LINE_NAMES_CASE_INSENSITIVE_3,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_UserAgentValueCaseInsensitive",
        GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE,
        "Foo",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_UserAgentValueCaseInsensitive",
        GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE,
        "foo",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_UserAgentValueCaseInsensitive",
        GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE_2,
        "Foo",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_UserAgentValueCaseInsensitive",
        GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE_2,
        "foo",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_UserAgentValueCaseInsensitive",
        GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE_3,
        "Foo",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_UserAgentValueCaseInsensitive",
        GOO_ID_USER_AGENT_VALUE_CASE_INSENSITIVE_3,
        "foo",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_AcceptUserAgentUpToFirstSpace",
        GOO_GOOGLE_ONLY_ACCEPT_USER_AGENT_UP_TO_FIRST_SPACE,
        "Foo",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_AcceptUserAgentUpToFirstSpace",
        GOO_GOOGLE_ONLY_ACCEPT_USER_AGENT_UP_TO_FIRST_SPACE,
        "Foo Bar",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        why=WHY_AGENT_FIRST_WORD,
    ),
    *_allowed(
        GOOGLE,
        "ID_GlobalGroups_Secondary",
        GOO_GOOGLE_ONLY_SYSTEM,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_GlobalGroups_Secondary",
        GOO_ID_GLOBAL_GROUPS_SECONDARY,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_GlobalGroups_Secondary",
        GOO_ID_GLOBAL_GROUPS_SECONDARY,
        "BarBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_GlobalGroups_Secondary",
        GOO_ID_GLOBAL_GROUPS_SECONDARY_2,
        "QuxBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_AllowDisallow_Value_CaseSensitive",
        GOO_ID_ALLOW_DISALLOW_VALUE_CASE_SENSITIVE,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_AllowDisallow_Value_CaseSensitive",
        GOO_ID_ALLOW_DISALLOW_VALUE_CASE_SENSITIVE_2,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_2,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
        disallowed=[
            "http://foo.bar/x/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_3,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_4,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_5,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_5,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_6,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_7,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://foo.bar/page.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_7,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/page",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_8,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_8,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://foo.bar/x/y.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_LongestMatch",
        GOO_ID_LONGEST_MATCH_9,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page",
        ],
        disallowed=[
            "http://foo.bar/y/page",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_2,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/%E3%83%84",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_2,
        "FooBot",
        DRAFT,
        disallowed=[
            "http://foo.bar/foo/bar/ツ",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_2,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/ツ",
        ],
        why=WHY_URL_NOT_ENCODED_BY_CALLER,
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_3,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/%E3%83%84",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_3,
        "FooBot",
        DRAFT,
        disallowed=[
            "http://foo.bar/foo/bar/ツ",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_3,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/ツ",
        ],
        why=WHY_URL_NOT_ENCODED_BY_CALLER,
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_4,
        "FooBot",
        DRAFT,
        disallowed=[
            "http://foo.bar/foo/bar/baz",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_4,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/baz",
        ],
        why=WHY_UNRESERVED_DECODED,
    ),
    *_allowed(
        GOOGLE,
        "ID_Encoding",
        GOO_ID_ENCODING_4,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/%62%61%7A",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_SpecialCharacters",
        GOO_ID_SPECIAL_CHARACTERS,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/foo/quz",
            "http://foo.bar/foo//quz",
            "http://foo.bar/foo/bax/quz",
        ],
        disallowed=[
            "http://foo.bar/foo/bar/quz",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_SpecialCharacters",
        GOO_ID_SPECIAL_CHARACTERS_2,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://foo.bar/foo/bar",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_SpecialCharacters",
        GOO_ID_SPECIAL_CHARACTERS_2,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/foo/bar/qux",
            "http://foo.bar/foo/bar/",
            "http://foo.bar/foo/bar/baz",
        ],
    ),
    *_allowed(
        GOOGLE,
        "ID_SpecialCharacters",
        GOO_ID_SPECIAL_CHARACTERS_3,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/foo/bar",
        ],
        disallowed=[
            "http://foo.bar/foo/quz",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_IndexHTMLisDirectory",
        GOO_GOOGLE_ONLY_INDEX_HTML_IS_DIRECTORY,
        "foobot",
        BOTH,
        disallowed=[
            "http://foo.com/allowed-slash/",
        ],
        why=WHY_GOOGLE_INDEX_HTML,
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_IndexHTMLisDirectory",
        GOO_GOOGLE_ONLY_INDEX_HTML_IS_DIRECTORY,
        "foobot",
        BOTH,
        allowed=[
            "http://foo.com/allowed-slash/index.html",
        ],
        disallowed=[
            "http://foo.com/allowed-slash/index.htm",
            "http://foo.com/anyother-url",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/bar",
            "http://foo.bar/Fish.asp",
            "http://foo.bar/catfish",
            "http://foo.bar/?id=fish",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/fish",
            "http://foo.bar/fish.html",
            "http://foo.bar/fish/salmon.html",
            "http://foo.bar/fishheads",
            "http://foo.bar/fishheads/yummy.html",
            "http://foo.bar/fish.html?id=anything",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_2,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/bar",
            "http://foo.bar/Fish.bar",
            "http://foo.bar/catfish",
            "http://foo.bar/?id=fish",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_2,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/fish",
            "http://foo.bar/fish.html",
            "http://foo.bar/fish/salmon.html",
            "http://foo.bar/fishheads",
            "http://foo.bar/fishheads/yummy.html",
            "http://foo.bar/fish.html?id=anything",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_3,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/bar",
            "http://foo.bar/fish",
            "http://foo.bar/fish.html",
            "http://foo.bar/Fish/Salmon.html",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_3,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/fish/",
            "http://foo.bar/fish/salmon",
            "http://foo.bar/fish/?salmon",
            "http://foo.bar/fish/salmon.html",
            "http://foo.bar/fish/?id=anything",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_4,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/bar",
            "http://foo.bar/php/",
            "http://foo.bar/index?php",
            "http://foo.bar/windows.PHP",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_4,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/filename.php",
            "http://foo.bar/folder/filename.php",
            "http://foo.bar/folder/filename.php?parameters",
            "http://foo.bar//folder/any.php.file.html",
            "http://foo.bar/filename.php/",
            "http://foo.bar/index?f=filename.php/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_5,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/bar",
            "http://foo.bar/filename.php?parameters",
            "http://foo.bar/filename.php/",
            "http://foo.bar/filename.php5",
            "http://foo.bar/php/",
            "http://foo.bar/filename?php",
            "http://foo.bar/aaaphpaaa",
            "http://foo.bar//windows.PHP",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_5,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/filename.php",
            "http://foo.bar/folder/filename.php",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_6,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/bar",
            "http://foo.bar/Fish.PHP",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_6,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/fish.php",
            "http://foo.bar/fishheads/catfish.php?parameters",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_7,
        "FooBot",
        BOTH,
        allowed=[
            "http://example.com/page",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_8,
        "FooBot",
        BOTH,
        allowed=[
            "http://example.com/folder/page",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_9,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://example.com/page.htm",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_10,
        "FooBot",
        RFC9309,
        allowed=[
            "http://example.com/",
        ],
    ),
    *_allowed(
        GOOGLE,
        "GoogleOnly_DocumentationChecks",
        GOO_GOOGLE_ONLY_DOCUMENTATION_CHECKS_10,
        "FooBot",
        BOTH,
        disallowed=[
            "http://example.com/page.html",
        ],
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY,
        BOTH,
        agent="foo",
        url="http://foo.bar/some/path",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY,
        BOTH,
        agent="bar",
        url="http://foo.bar/some/path",
        line=6,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_2,
        BOTH,
        agent="foo",
        url="http://foo.bar/some/path",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_2,
        BOTH,
        agent="bar",
        url="http://foo.bar/some/path",
        line=6,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_3,
        BOTH,
        agent="foo",
        url="http://foo.bar/some/path",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_3,
        BOTH,
        agent="bar",
        url="http://foo.bar/some/path",
        line=6,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_4,
        BOTH,
        agent="foo",
        url="http://foo.bar/some/path",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_4,
        BOTH,
        agent="bar",
        url="http://foo.bar/some/path",
        line=6,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_5,
        BOTH,
        agent="foo",
        url="http://foo.bar/some/path",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_LinesNumbersAreCountedCorrectly",
        GOO_ID_LINES_NUMBERS_ARE_COUNTED_CORRECTLY_5,
        BOTH,
        agent="bar",
        url="http://foo.bar/some/path",
        line=6,
    ),
    _rule_line(
        GOOGLE,
        "ID_UTF8ByteOrderMarkIsSkipped",
        GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED,
        BOTH,
        agent="foo",
        url="http://foo.bar/AnyValue",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_UTF8ByteOrderMarkIsSkipped",
        GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_2,
        BOTH,
        agent="foo",
        url="http://foo.bar/AnyValue",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_UTF8ByteOrderMarkIsSkipped",
        GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_3,
        BOTH,
        agent="foo",
        url="http://foo.bar/AnyValue",
        line=2,
    ),
    _rule_line(
        GOOGLE,
        "ID_UTF8ByteOrderMarkIsSkipped",
        GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_4,
        BOTH,
        agent="foo",
        url="http://foo.bar/AnyValue",
        line=None,
    ),
    _rule_line(
        GOOGLE,
        "ID_UTF8ByteOrderMarkIsSkipped",
        GOO_ID_UTF8_BYTE_ORDER_MARK_IS_SKIPPED_5,
        BOTH,
        agent="foo",
        url="http://foo.bar/AnyValue",
        line=None,
    ),
    _sitemaps(
        GOOGLE,
        "ID_NonStandardLineExample_Sitemap",
        GOO_ID_NON_STANDARD_LINE_EXAMPLE_SITEMAP,
        BOTH,
        urls=[
            "http://foo.bar/sitemap.xml",
        ],
    ),
    _sitemaps(
        GOOGLE,
        "ID_NonStandardLineExample_Sitemap",
        GOO_ID_NON_STANDARD_LINE_EXAMPLE_SITEMAP_2,
        BOTH,
        urls=[
            "http://foo.bar/sitemap.xml",
        ],
    ),
    *_google_long_lines(),
]

PROTEGO_CASES: list[PeerCase] = [
    *_allowed(
        PROTEGO,
        "test_allowed",
        PRO_ALLOWED,
        "*",
        BOTH,
        allowed=[
            "https://www.site.local/allowed",
        ],
        disallowed=[
            "https://www.site.local/disallowed",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed",
        PRO_ALLOWED_2,
        "*",
        BOTH,
        allowed=[
            "https://www.site.local/abc/d",
        ],
        disallowed=[
            "https://www.site.local/disallowed",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_malformed_disallow",
        PRO_MALFORMED_DISALLOW,
        "*",
        BOTH,
        disallowed=[
            "https://www.site.local/one",
            "https://www.site.local/two",
            "https://www.site.local/three",
            "https://www.site.local/four",
            "https://www.site.local/five",
            "https://www.site.local/six",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE,
        "*",
        RFC9309,
        allowed=[
            "https://www.site.local/page",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE,
        "*",
        BOTH,
        disallowed=[
            "https://www.site.local/elsewhere",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_2,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_3,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
        disallowed=[
            "http://foo.bar/x/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_4,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_5,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_6,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_6,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_7,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_8,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/page",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_8,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://foo.bar/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_9,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_9,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://foo.bar/x/y.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_10,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/page",
        ],
        disallowed=[
            "http://foo.bar/y/page",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_11,
        "FooBot",
        BOTH,
        allowed=[
            "http://example.com/page",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_12,
        "FooBot",
        BOTH,
        allowed=[
            "http://example.com/folder/page",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_13,
        "FooBot",
        RFC9309,
        allowed=[
            "http://example.com/folder/page",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_14,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://example.com/page.htm",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_15,
        "FooBot",
        RFC9309,
        allowed=[
            "http://example.com/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_length_based_precedence",
        PRO_LENGTH_BASED_PRECEDENCE_15,
        "FooBot",
        BOTH,
        disallowed=[
            "http://example.com/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_escaped_url",
        PRO_ESCAPED_URL,
        "*",
        RFC9309,
        allowed=[
            "https://www.site.local/a<d.html",
            "https://www.site.local/a%3cd.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_escaped_url",
        PRO_ESCAPED_URL_2,
        "*",
        RFC9309,
        allowed=[
            "https://www.site.local/a<d.html",
            "https://www.site.local/a%3cd.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unescaped_url",
        PRO_UNESCAPED_URL,
        "*",
        RFC9309,
        allowed=[
            "https://www.site.local/a<d.html",
            "https://www.site.local/a%3cd.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unescaped_url",
        PRO_UNESCAPED_URL_2,
        "*",
        RFC9309,
        allowed=[
            "https://www.site.local/a<d.html",
            "https://www.site.local/a%3cd.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_url_parts",
        PRO_URL_PARTS,
        "*",
        BOTH,
        disallowed=[
            "http://userinfo@exmaple.com:10/path;params?query#fragment",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_url_parts",
        PRO_URL_PARTS_2,
        "*",
        BOTH,
        allowed=[
            "/",
        ],
        disallowed=[
            "/?query",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_url_parts",
        PRO_URL_PARTS_3,
        "*",
        BOTH,
        allowed=[
            "/",
        ],
        disallowed=[
            "/;params",
        ],
    ),
    _sitemaps(
        PROTEGO,
        "test_sitemaps",
        PRO_SITEMAPS,
        BOTH,
        urls=[
            "https://site.local/sitemap.xml",
            "https://site.local/sitemap2.xml",
        ],
    ),
    _sitemaps(PROTEGO, "test_no_sitemaps", PRO_ALLOWED, BOTH, urls=[]),
    _crawl_delay(PROTEGO, "test_crawl_delay", PRO_CRAWL_DELAY, BOTH, agent="*", seconds=10.0),
    _crawl_delay(PROTEGO, "test_crawl_delay", PRO_CRAWL_DELAY, BOTH, agent="testbot", seconds=15.0),
    _crawl_delay(
        PROTEGO,
        "test_malformed_crawl_delay",
        PRO_MALFORMED_CRAWL_DELAY,
        BOTH,
        agent="*",
        seconds=None,
    ),
    _crawl_delay(PROTEGO, "test_no_crawl_delay", PRO_NO_CRAWL_DELAY, BOTH, agent="*", seconds=None),
    _request_rate(PROTEGO, "test_request_rate", PRO_REQUEST_RATE, BOTH, agent="one", rate=(1, 10)),
    _request_rate(
        PROTEGO, "test_request_rate", PRO_REQUEST_RATE, BOTH, agent="two", rate=(100, 900)
    ),
    _request_rate(
        PROTEGO, "test_request_rate", PRO_REQUEST_RATE, BOTH, agent="three", rate=(400, 3600)
    ),
    _request_rate(
        PROTEGO, "test_request_rate", PRO_REQUEST_RATE, BOTH, agent="four", rate=(9000, 86400)
    ),
    _request_rate(PROTEGO, "test_request_rate", PRO_REQUEST_RATE, BOTH, agent="five", rate=(1, 10)),
    _request_rate(
        PROTEGO, "test_no_request_rate", PRO_NO_REQUEST_RATE, BOTH, agent="two", rate=None
    ),
    *_allowed(
        PROTEGO,
        "test_empty_response",
        PRO_EMPTY_RESPONSE,
        "*",
        BOTH,
        allowed=[
            "https://site.local/",
            "https://site.local/index.html",
            "https://site.local/disallowed",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_empty_response",
        PRO_EMPTY_RESPONSE,
        "chrome",
        BOTH,
        allowed=[
            "https://site.local/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS,
        "first",
        BOTH,
        allowed=[
            "https://www.site.local/disallowed",
            "https://www.site.local/disallowed/xyz/endinglater",
            "https://www.site.local/rotego_does_work",
            "https://www.site.local/protego_does_wor",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS,
        "first",
        RFC9309,
        disallowed=[
            "https://www.site.local/disallowed/xyz/end",
            "https://www.site.local/disallowed/abc/end",
            "https://www.site.local/protegoworks",
            "https://www.site.local/protego_works",
            "https://www.site.local/protego/works",
            "https://www.site.local/protego_does_work",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS,
        "second",
        RFC9309,
        allowed=[
            "https://www.site.local/allowed",
            "https://www.site.local/is_still_allowed",
            "https://www.site.local/is_allowed_too",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule1TestBot",
        BOTH,
        allowed=[
            "/fo.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule1TestBot",
        RFC9309,
        disallowed=[
            "/foo.html",
            "/food",
            "/foo/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule2TestBot",
        BOTH,
        allowed=[
            "/fo.html",
            "/food/xyz.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule2TestBot",
        RFC9309,
        disallowed=[
            "/foo/bar.html",
            "/food/bar.html",
            "/foo/a/b/c/x/y/z/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule3TestBot",
        RFC9309,
        disallowed=[
            "/foo.htm",
            "/foo.html",
            "/foom",
            "/moo",
            "/foo/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule3TestBot",
        BOTH,
        allowed=[
            "/foo",
            "/foo/bar.txt",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule4TestBot",
        RFC9309,
        disallowed=[
            "/fo.html",
            "/foo.html",
            "/foo",
            "/foo/bar.txt",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule4TestBot",
        BOTH,
        allowed=[
            "/foo/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule5TestBot",
        RFC9309,
        disallowed=[
            "/foo/bar.html",
            "/food/rebar.html",
            "/foo/a/b/c/rebar.html",
            "/foo/a/b/c/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule5TestBot",
        BOTH,
        allowed=[
            "/food/rebarf.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule6TestBot",
        RFC9309,
        allowed=[
            "/foo",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule6TestBot",
        BOTH,
        disallowed=[
            "/foo/",
            "/foo/bar.html",
            "/fooey",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_2,
        "Rule7TestBot",
        BOTH,
        allowed=[
            "xyz/foo.js",
            "/inlife/daily/fashion-20160727/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_3,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/foo/quz",
            "http://foo.bar/foo//quz",
            "http://foo.bar/foo/bax/quz",
        ],
        disallowed=[
            "http://foo.bar/foo/bar/quz",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_4,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://foo.bar/foo/bar",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_allowed_wildcards",
        PRO_ALLOWED_WILDCARDS_4,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/foo/bar/qux",
            "http://foo.bar/foo/bar/",
            "http://foo.bar/foo/bar/baz",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT,
        "*",
        BOTH,
        allowed=[
            "https://site.local/",
            "https://site.local/some/randome/page.html",
        ],
        disallowed=[
            "https://site.local/admin/",
            "https://site.local/static/",
            "https://site.local/wiki/K%C3%A4ytt%C3%A4j%C3%A4:",
            "https://site.local/wiki/Käyttäjä:",
            "https://site.local/wiki/Keskustelu_k%C3%A4ytt%C3%A4j%C3%A4st%C3%A4:",
            "https://site.local/wiki/Keskustelu_käyttäjästä:",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT,
        "UnicödeBöt",
        BOTH,
        allowed=[
            "https://site.local/admin/",
        ],
        disallowed=[
            "https://site.local/some/randome/page.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT_2,
        "jävla-fanbot",
        BOTH,
        allowed=[
            "/foo/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT_2,
        "jävla-foobot",
        BOTH,
        disallowed=[
            "/foo/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT_2,
        "foobot",
        RFC9309,
        allowed=[
            "/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT_2,
        "foobot",
        DRAFT,
        disallowed=[
            "/",
        ],
        why=WHY_DRAFT_SUBSTRING,
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT_2,
        "Mozilla/5.0 (compatible; \u041b\u044c\u0432\u0456\u0432-bot/1.1)",
        BOTH,
        allowed=[
            "/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_unicode_url_and_useragent",
        PRO_UNICODE_URL_AND_USERAGENT_2,
        "Mozilla/5.0 (compatible; \u041b\u044c\u0432\u0456\u0432-bot/1.1)",
        BOTH,
        allowed=[
            "/totalitarianism/foo.htm",
        ],
        why=WHY_AGENT_PRODUCT_TOKEN,
    ),
    *_allowed(
        PROTEGO,
        "test_no_leading_user_agent",
        PRO_NO_LEADING_USER_AGENT,
        "mybot",
        BOTH,
        allowed=[
            "https://site.local/withoutUA",
            "https://site.local/withUA",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_no_leading_user_agent",
        PRO_NO_LEADING_USER_AGENT,
        "testbot",
        BOTH,
        allowed=[
            "https://site.local/withoutUA",
        ],
        disallowed=[
            "https://site.local/withUA",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_no_leading_user_agent",
        PRO_NO_LEADING_USER_AGENT,
        "*",
        BOTH,
        allowed=[
            "https://site.local/withoutUA",
        ],
    ),
    _crawl_delay(
        PROTEGO,
        "test_no_leading_user_agent",
        PRO_NO_LEADING_USER_AGENT,
        BOTH,
        agent="testbot",
        seconds=None,
    ),
    _crawl_delay(
        PROTEGO,
        "test_no_leading_user_agent",
        PRO_NO_LEADING_USER_AGENT,
        BOTH,
        agent="*",
        seconds=None,
    ),
    *_allowed(
        PROTEGO,
        "test_default_user_agent",
        PRO_DEFAULT_USER_AGENT,
        "mybot",
        BOTH,
        disallowed=[
            "https://site.local/default-UA",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_default_user_agent",
        PRO_DEFAULT_USER_AGENT,
        "testbot",
        BOTH,
        allowed=[
            "https://site.local/default-UA",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_default_user_agent",
        PRO_DEFAULT_USER_AGENT,
        "robot",
        BOTH,
        allowed=[
            "https://site.local/default-UA",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_case_insensitivity",
        PRO_USER_AGENT_CASE_INSENSITIVITY,
        "TESTbot",
        BOTH,
        allowed=[
            "https://site.local/default-UA",
        ],
        disallowed=[
            "https://site.local/testbot",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_case_insensitivity",
        PRO_USER_AGENT_CASE_INSENSITIVITY,
        "testbot",
        BOTH,
        allowed=[
            "https://site.local/default-UA",
        ],
        disallowed=[
            "https://site.local/testbot",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_case_insensitivity",
        PRO_USER_AGENT_CASE_INSENSITIVITY,
        "tEStbOt",
        BOTH,
        allowed=[
            "https://site.local/default-UA",
        ],
        disallowed=[
            "https://site.local/testbot",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_grouping",
        PRO_USER_AGENT_GROUPING,
        "one",
        BOTH,
        allowed=[
            "https://site.local/failure",
        ],
        disallowed=[
            "https://site.local/success",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_grouping",
        PRO_USER_AGENT_GROUPING,
        "two",
        BOTH,
        allowed=[
            "https://site.local/failure",
        ],
        disallowed=[
            "https://site.local/success",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_grouping",
        PRO_USER_AGENT_GROUPING_2,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/b",
            "http://foo.bar/z/d",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_grouping",
        PRO_USER_AGENT_GROUPING_2,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/y/c",
            "http://foo.bar/foo/bar/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_grouping",
        PRO_USER_AGENT_GROUPING_2,
        "BarBot",
        RFC9309,
        allowed=[
            "http://foo.bar/y/c",
            "http://foo.bar/w/a",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_grouping",
        PRO_USER_AGENT_GROUPING_2,
        "BarBot",
        BOTH,
        disallowed=[
            "http://foo.bar/z/d",
            "http://foo.bar/foo/bar/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_user_agent_grouping",
        PRO_USER_AGENT_GROUPING_2,
        "BazBot",
        BOTH,
        allowed=[
            "http://foo.bar/z/d",
        ],
        disallowed=[
            "http://foo.bar/foo/bar/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_comments",
        PRO_COMMENTS,
        "one",
        BOTH,
        allowed=[
            "https://site.local/commented",
            "https://site.local/default-ua",
        ],
        disallowed=[
            "https://site.local/one-two-bot",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_comments",
        PRO_COMMENTS,
        "two",
        BOTH,
        allowed=[
            "https://site.local/commented",
            "https://site.local/default-ua",
        ],
        disallowed=[
            "https://site.local/one-two-bot",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_comments",
        PRO_COMMENTS_2,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/foo/bar",
        ],
        disallowed=[
            "http://foo.bar/foo/quz",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_skip_unknown_directives",
        PRO_SKIP_UNKNOWN_DIRECTIVES,
        "one",
        BOTH,
        allowed=[
            "https://site.local/bot-two",
        ],
        disallowed=[
            "https://site.local/bot-one",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_skip_unknown_directives",
        PRO_SKIP_UNKNOWN_DIRECTIVES,
        "two",
        BOTH,
        allowed=[
            "https://site.local/bot-one",
        ],
        disallowed=[
            "https://site.local/bot-two",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_skip_malformed_line",
        PRO_SKIP_MALFORMED_LINE,
        "one",
        BOTH,
        allowed=[
            "https://site.local/bot-two",
        ],
        disallowed=[
            "https://site.local/bot-one",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_skip_malformed_line",
        PRO_SKIP_MALFORMED_LINE,
        "two",
        BOTH,
        allowed=[
            "https://site.local/bot-one",
        ],
        disallowed=[
            "https://site.local/bot-two",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_empty_disallow_allow_directives",
        PRO_EMPTY_DISALLOW_ALLOW_DIRECTIVES,
        "one",
        BOTH,
        allowed=[
            "https://site.local/path1",
            "https://site.local/path2",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_empty_disallow_allow_directives",
        PRO_EMPTY_DISALLOW_ALLOW_DIRECTIVES,
        "two",
        BOTH,
        allowed=[
            "https://site.local/path1",
            "https://site.local/path2",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_empty_record_group",
        PRO_EMPTY_RECORD_GROUP,
        "testbot",
        BOTH,
        allowed=[
            "https://site.local/path1",
            "https://site.local/path2",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1994rfc_example",
        PRO_1994RFC_EXAMPLE,
        "CrunchyFrogBot",
        BOTH,
        allowed=[
            "/",
            "/foo.htm",
            "/foo.shtml",
            "/cyberworld/index.html",
        ],
        disallowed=[
            "/foo.html",
            "/foo.htmlx",
            "/tmp/foo.html",
            "http://example.com/foo.html",
            "http://www.example.com/foo.html",
            "http://www.example.org/foo.html",
            "https://www.example.org/foo.html",
            "ftp://example.net/foo.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "1bot",
        BOTH,
        allowed=[
            "/tmp.html",
            "/tmp",
            "/tmp/a.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "2bot",
        BOTH,
        allowed=[
            "/tmp/",
            "/tmp/a.html",
        ],
        disallowed=[
            "/tmp",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "3bot",
        BOTH,
        allowed=[
            "/a%3cd.html",
            "/a%3Cd.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "4bot",
        BOTH,
        allowed=[
            "/a%3cd.html",
            "/a%3Cd.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "5bot",
        BOTH,
        allowed=[
            "/a%2fb.html",
        ],
        disallowed=[
            "/a/b.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "6bot",
        BOTH,
        allowed=[
            "/a/b.html",
        ],
        disallowed=[
            "/a%2fb.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "7bot",
        BOTH,
        allowed=[
            "/~joe/index.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES,
        "8bot",
        BOTH,
        allowed=[
            "/%7Ejoe/index.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES_2,
        "unhipbot",
        BOTH,
        disallowed=[
            "http://www.example.org/",
            "http://www.example.org/index.html",
            "http://www.example.org/server.html",
            "http://www.example.org/services/fast.html",
            "http://www.example.org/services/slow.html",
            "http://www.example.org/orgo.gif",
            "http://www.example.org/org/about.html",
            "http://www.example.org/org/plans.html",
            "http://www.example.org/%7Ejim/jim.html",
            "http://www.example.org/%7Emak/mak.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES_2,
        "webcrawler",
        BOTH,
        allowed=[
            "http://www.example.org/",
            "http://www.example.org/index.html",
            "http://www.example.org/server.html",
            "http://www.example.org/services/fast.html",
            "http://www.example.org/services/slow.html",
            "http://www.example.org/orgo.gif",
            "http://www.example.org/org/about.html",
            "http://www.example.org/org/plans.html",
            "http://www.example.org/%7Ejim/jim.html",
            "http://www.example.org/%7Emak/mak.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES_2,
        "excite",
        BOTH,
        allowed=[
            "http://www.example.org/",
            "http://www.example.org/index.html",
            "http://www.example.org/server.html",
            "http://www.example.org/services/fast.html",
            "http://www.example.org/services/slow.html",
            "http://www.example.org/orgo.gif",
            "http://www.example.org/org/about.html",
            "http://www.example.org/org/plans.html",
            "http://www.example.org/%7Ejim/jim.html",
            "http://www.example.org/%7Emak/mak.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_1996rfc_examples",
        PRO_1996RFC_EXAMPLES_2,
        "OtherBot",
        BOTH,
        allowed=[
            "http://www.example.org/server.html",
            "http://www.example.org/services/fast.html",
            "http://www.example.org/services/slow.html",
            "http://www.example.org/org/about.html",
            "http://www.example.org/%7Emak/mak.html",
        ],
        disallowed=[
            "http://www.example.org/",
            "http://www.example.org/index.html",
            "http://www.example.org/orgo.gif",
            "http://www.example.org/org/plans.html",
            "http://www.example.org/%7Ejim/jim.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_implicit_allow",
        PRO_IMPLICIT_ALLOW,
        "foobot",
        BOTH,
        allowed=[
            "/",
            "/bar.html",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_implicit_allow",
        PRO_IMPLICIT_ALLOW,
        "SomeOtherBot",
        BOTH,
        disallowed=[
            "/",
            "/blahblahblah",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_grouping_unknown_keys",
        PRO_GROUPING_UNKNOWN_KEYS,
        "agent",
        BOTH,
        disallowed=[
            "/foo",
            "/foobar",
            "/content/2",
        ],
        why=WHY_UNKNOWN_FIELD_KEEPS_GROUP,
    ),
    *_allowed(
        PROTEGO,
        "test_grouping_unknown_keys",
        PRO_GROUPING_UNKNOWN_KEYS,
        "ia_archiver",
        BOTH,
        disallowed=[
            "/bar",
            "/foo",
            "/foobar",
            "/content/2",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_generosity",
        PRO_GENEROSITY,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_generosity",
        PRO_GENEROSITY_2,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_generosity",
        PRO_GENEROSITY_2,
        "harry potter",
        BOTH,
        allowed=[
            "http://foo.bar/abc",
        ],
        disallowed=[
            "http://foo.bar/horcrux",
        ],
    ),
    _request_rate(
        PROTEGO, "test_generosity", PRO_GENEROSITY_2, BOTH, agent="harry potter", rate=(1, 10)
    ),
    *_allowed(
        PROTEGO,
        "test_generosity",
        PRO_GENEROSITY_3,
        "foo*bot",
        BOTH,
        disallowed=[
            "http://foo.bar/myprofile",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_generosity",
        PRO_GENEROSITY_3,
        "foobot",
        BOTH,
        allowed=[
            "http://foo.bar/myprofile",
        ],
        why=WHY_NO_AGENT_WILDCARD,
    ),
    *_allowed(
        PROTEGO,
        "test_directive_case_insensitivity",
        PRO_DIRECTIVE_CASE_INSENSITIVITY,
        "onebot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
        disallowed=[
            "http://foo.bar/a/b",
            "http://foo.bar/a/b",
            "http://foo.bar/a/b",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_directive_case_insensitivity",
        PRO_DIRECTIVE_CASE_INSENSITIVITY,
        "twobot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_directive_case_insensitivity",
        PRO_DIRECTIVE_CASE_INSENSITIVITY,
        "threebot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS,
        "foo",
        BOTH,
        allowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS,
        "bar",
        BOTH,
        disallowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_2,
        "foo",
        BOTH,
        allowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_2,
        "bar",
        BOTH,
        disallowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_3,
        "foo",
        BOTH,
        allowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_3,
        "bar",
        BOTH,
        disallowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_4,
        "foo",
        BOTH,
        allowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_4,
        "bar",
        BOTH,
        disallowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_5,
        "foo",
        BOTH,
        allowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_line_endings",
        PRO_LINE_ENDINGS_5,
        "bar",
        BOTH,
        disallowed=[
            "http://site.local/some/path/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_index_html_is_directory",
        PRO_INDEX_HTML_IS_DIRECTORY,
        "footbot",
        BOTH,
        disallowed=[
            "http://foo.com/allowed-slash/",
        ],
        why=WHY_GOOGLE_INDEX_HTML,
    ),
    *_allowed(
        PROTEGO,
        "test_index_html_is_directory",
        PRO_INDEX_HTML_IS_DIRECTORY,
        "footbot",
        BOTH,
        allowed=[
            "http://foo.com/allowed-slash/index.html",
        ],
        disallowed=[
            "http://foo.com/allowed-slash/index.htm",
            "http://foo.com/anyother-url",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_percentage_encoding",
        PRO_PERCENTAGE_ENCODING,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar?qux=taz&baz=http://foo.bar?tar&par",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_percentage_encoding",
        PRO_PERCENTAGE_ENCODING_2,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/%E3%83%84",
            "http://foo.bar/foo/bar/ツ",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_percentage_encoding",
        PRO_PERCENTAGE_ENCODING_3,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/%E3%83%84",
            "http://foo.bar/foo/bar/ツ",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_percentage_encoding",
        PRO_PERCENTAGE_ENCODING_4,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/foo/bar/baz",
            "http://foo.bar/foo/bar/%62%61%7A",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_url_case_sensitivity",
        PRO_URL_CASE_SENSITIVITY,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_url_case_sensitivity",
        PRO_URL_CASE_SENSITIVITY_2,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/y",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_nonterminal_dollar",
        PRO_NONTERMINAL_DOLLAR,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/y/abcdef",
            "http://foo.bar/yabcy/abcdef",
        ],
        disallowed=[
            "http://foo.bar/x$/abcdef",
            "http://foo.bar/x%24/abcdef",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_nonterminal_dollar",
        PRO_NONTERMINAL_DOLLAR,
        "FooBot",
        RFC9309,
        disallowed=[
            "http://foo.bar/y/abc",
            "http://foo.bar/xabcx$/abcdef",
            "http://foo.bar/xabcx%24/abcdef",
            "http://foo.bar/yabcy/abc",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_escaped_special_symbols",
        PRO_ESCAPED_SPECIAL_SYMBOLS,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/x/abc",
            "http://foo.bar/xabcx/abc",
        ],
        disallowed=[
            "http://foo.bar/x/abc$abc",
            "http://foo.bar/x/abc$",
            "http://foo.bar/x*x/abc",
            "http://foo.bar/x*x/abcdef",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_special_symbols_dual_behaviour",
        PRO_SPECIAL_SYMBOLS_DUAL_BEHAVIOUR,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/x*x/abc",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_special_symbols_dual_behaviour",
        PRO_SPECIAL_SYMBOLS_DUAL_BEHAVIOUR,
        "FooBot",
        DRAFT,
        disallowed=[
            "http://foo.bar/x/abc$",
            "http://foo.bar/x/abc%24",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_special_symbols_dual_behaviour",
        PRO_SPECIAL_SYMBOLS_DUAL_BEHAVIOUR,
        "FooBot",
        RFC9309,
        allowed=[
            "http://foo.bar/x/abc$",
            "http://foo.bar/x/abc%24",
        ],
        why=WHY_DOLLAR_ANCHORS,
    ),
    *_allowed(
        PROTEGO,
        "test_with_absolute_urls",
        PRO_WITH_ABSOLUTE_URLS,
        "FooBot",
        BOTH,
        disallowed=[
            "http://foo.bar/http://ms-web00.walkerplus.com/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_with_absolute_urls",
        PRO_WITH_ABSOLUTE_URLS,
        "FooBot",
        BOTH,
        allowed=[
            "http://foo.bar/",
        ],
    ),
    _sitemaps(
        PROTEGO,
        "test_sitemaps_come_first",
        PRO_SITEMAPS_COME_FIRST,
        BOTH,
        urls=[
            "https://www.foo.bar/sitmap.xml",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_disallow_target_url_path_is_missing",
        PRO_DISALLOW_TARGET_URL_PATH_IS_MISSING,
        "FooBot",
        BOTH,
        disallowed=[
            "http://example.com/",
            "http://example.com",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_disallow_query_wildcard",
        PRO_DISALLOW_QUERY_WILDCARD,
        "*",
        BOTH,
        allowed=[
            "https://www.site.local/",
            "https://www.site.local/s/",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_disallow_query_wildcard",
        PRO_DISALLOW_QUERY_WILDCARD,
        "*",
        RFC9309,
        disallowed=[
            "https://www.site.local/?s=asd",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_leading_asterisk",
        PRO_LEADING_ASTERISK,
        "*",
        RFC9309,
        allowed=[
            "http://example.com/page",
        ],
    ),
    *_allowed(
        PROTEGO,
        "test_leading_asterisk",
        PRO_LEADING_ASTERISK_2,
        "*",
        RFC9309,
        disallowed=[
            "https://example.com/page.htm",
        ],
    ),
]

RFC9309_CASES: list[PeerCase] = [
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "ExampleBot",
        BOTH,
        allowed=[
            "https://www.example.com/publications/",
        ],
        disallowed=[
            "https://www.example.com/example/",
            "https://www.example.com/example/page.html",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "ExampleBot",
        RFC9309,
        disallowed=[
            "https://www.example.com/picture.gif",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "foobot",
        RFC9309,
        allowed=[
            "https://www.example.com/example/page.html",
            "https://www.example.com/example/allowed.gif",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "foobot",
        BOTH,
        disallowed=[
            "https://www.example.com/publications/",
            "https://www.example.com/",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "barbot",
        BOTH,
        allowed=[
            "https://www.example.com/example/allowed.gif",
        ],
        disallowed=[
            "https://www.example.com/example/page.html",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "bazbot",
        BOTH,
        allowed=[
            "https://www.example.com/publications/",
        ],
        disallowed=[
            "https://www.example.com/example/page.html",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "quxbot",
        RFC9309,
        allowed=[
            "https://www.example.com/example/page.html",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "quxbot",
        DRAFT,
        disallowed=[
            "https://www.example.com/example/page.html",
        ],
        why=WHY_DRAFT_EMPTY_RECORD,
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.1 Simple Example",
        RFC_5_1_SIMPLE_EXAMPLE,
        "quxbot",
        BOTH,
        allowed=[
            "https://www.example.com/picture.gif",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.2 Longest Match",
        RFC_5_2_LONGEST_MATCH,
        "foobot",
        RFC9309,
        disallowed=[
            "https://www.example.com/example/page/disallowed.gif",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "5.2 Longest Match",
        RFC_5_2_LONGEST_MATCH,
        "foobot",
        BOTH,
        allowed=[
            "https://www.example.com/example/page/",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "2.2.2 table row 1",
        RFC_2_2_2_TABLE_ROW_1,
        "ExampleBot",
        BOTH,
        disallowed=[
            "https://www.example.com/foo/bar?baz=quz",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "2.2.2 table row 2",
        RFC_2_2_2_TABLE_ROW_2,
        "ExampleBot",
        BOTH,
        allowed=[
            "https://www.example.com/foo/bar?baz=https%3A%2F%2Ffoo.bar",
        ],
        why=WHY_DRAFT_2F,
    ),
    *_allowed(
        RFC9309_SOURCE,
        "2.2.2 table row 3",
        RFC_2_2_2_TABLE_ROW_3,
        "ExampleBot",
        BOTH,
        disallowed=[
            "https://www.example.com/foo/bar/%E3%83%84",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "2.2.2 table row 4",
        RFC_2_2_2_TABLE_ROW_4,
        "ExampleBot",
        BOTH,
        disallowed=[
            "https://www.example.com/foo/bar/%E3%83%84",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "2.2.2 table row 5",
        RFC_2_2_2_TABLE_ROW_5,
        "ExampleBot",
        BOTH,
        disallowed=[
            "https://www.example.com/foo/bar/baz",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "2.2.3 table row 1",
        RFC_2_2_3_TABLE_ROW_1,
        "ExampleBot",
        BOTH,
        disallowed=[
            "https://www.example.com/path/file-with-a-*.html",
        ],
    ),
    *_allowed(
        RFC9309_SOURCE,
        "2.2.3 table row 2",
        RFC_2_2_3_TABLE_ROW_2,
        "ExampleBot",
        BOTH,
        disallowed=[
            "https://www.example.com/path/foo-$",
        ],
    ),
]

ALL_CASES: list[PeerCase] = CPYTHON_CASES + GOOGLE_CASES + PROTEGO_CASES + RFC9309_CASES
