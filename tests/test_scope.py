"""Scope, trap guards and the anti-steering guard (C1, C3): tables, then properties."""

from __future__ import annotations

import dataclasses
import ipaddress
import pickle
import re
import socket

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl.errors import UserInputError
from politecrawl.scope import Scope, ScopeVerdict, TrapGuards, check_scope
from politecrawl.urls import InvalidURL, canonicalize

SEEDS = ["http://127.0.0.2:8080/", "https://example.org/", "http://www.example.net/start"]
PUBLIC_PAGE = "https://example.org/page"


def verdict_of(url: str, scope: Scope, *, depth: int = 1, from_url: str | None = None):
    return check_scope(canonicalize(url), depth, scope, from_url=from_url)


def assert_verdict(verdict: ScopeVerdict, allowed: bool, reason: str | None, rule: str | None):
    assert verdict.allowed is allowed, verdict
    assert verdict.reason == reason, verdict
    if rule is None:
        assert verdict.rule is None
    else:
        assert verdict.rule is not None
        assert rule in verdict.rule, verdict


# --- C1: scope modes ------------------------------------------------------------------------

MODES = [
    # seeds: the seeds' origins, and a seed's http/https twin on the default port
    ("seeds", "http://127.0.0.2:8080/a/b?c=d", None),
    ("seeds", "http://127.0.0.2:8081/", "not a seed origin (http://127.0.0.2:8081)"),
    ("seeds", "https://127.0.0.2:8080/", "not a seed origin (https://127.0.0.2:8080)"),
    ("seeds", "http://127.0.0.2/", "not a seed origin (http://127.0.0.2)"),
    ("seeds", "https://example.org/anything", None),
    ("seeds", "http://example.org/upgrade-me", None),
    ("seeds", "HTTPS://EXAMPLE.ORG:443/", None),
    ("seeds", "http://example.org:8080/", "not a seed origin (http://example.org:8080)"),
    ("seeds", "https://sub.example.org/", "not a seed origin (https://sub.example.org)"),
    ("seeds", "https://www.example.net/", None),
    ("seeds", "https://example.net/", "not a seed origin (https://example.net)"),
    ("seeds", "https://elsewhere.example/", "not a seed origin (https://elsewhere.example)"),
    # domain: a seed host or its subdomains, any scheme and port
    ("domain", "https://example.org/", None),
    ("domain", "http://example.org:8443/", None),
    ("domain", "https://sub.example.org/", None),
    ("domain", "http://a.b.sub.example.org/x", None),
    ("domain", "https://www.example.net/", None),
    ("domain", "https://cdn.www.example.net/", None),
    ("domain", "https://example.net/", "not a seed host or its subdomain (example.net)"),
    ("domain", "https://notexample.org/", "not a seed host or its subdomain (notexample.org)"),
    ("domain", "https://example.org.evil.example/", "(example.org.evil.example)"),
    ("domain", "http://127.0.0.2:9999/", None),
    ("domain", "http://1.127.0.0.2/", "not a seed host or its subdomain (1.127.0.0.2)"),
    # any: every http(s) URL
    ("any", "https://anything.example/", None),
    ("any", "http://192.0.2.7:81/x", None),
    ("any", "http://[2001:db8::1]/", None),
]


@pytest.mark.parametrize(("mode", "url", "rule"), MODES)
def test_c1_scope_modes(mode, url, rule):
    scope = Scope.from_seeds(SEEDS, mode=mode)
    verdict = verdict_of(url, scope)
    assert_verdict(verdict, rule is None, None if rule is None else "scope", rule)


def test_c1_from_seeds_records_origins_and_hosts():
    scope = Scope.from_seeds(["HTTP://Example.ORG:80/a#x", "https://[::1]:8443/"])
    assert scope.seed_origins == {"http://example.org", "https://[::1]:8443"}
    assert scope.seed_hosts == {"example.org", "[::1]"}
    assert scope.mode == "seeds"


def test_c1_default_scope_is_the_seeds_and_empty_seeds_admit_nothing():
    assert Scope().mode == "seeds"
    verdict = verdict_of("https://example.org/", Scope())
    assert_verdict(verdict, False, "scope", "not a seed origin (https://example.org)")


@pytest.mark.parametrize("url", ["ftp://example.org/", "mailto:a@example.org", "/relative", ""])
def test_c1_only_http_and_https(url):
    verdict = check_scope(url, 0, Scope.from_seeds(SEEDS, mode="any"))
    assert_verdict(verdict, False, "scope", "not an http or https URL")


def test_c1_a_non_canonical_url_is_refused_not_raised():
    verdict = check_scope("http://example.org", 0, Scope.from_seeds(SEEDS, mode="any"))
    assert_verdict(verdict, False, "scope", "not a canonical URL")


# --- C1: include and exclude patterns --------------------------------------------------------

PATTERNS = [
    ("https://example.org/blog/post-1", None),
    ("https://example.org/about.html", None),
    ("https://example.org/shop/item", "matches no include pattern"),
    ("https://example.org/blog/private/diary", "exclude pattern '/private/'"),
    ("https://example.org/blog/x?sessionid=123", "exclude pattern '[?&]sessionid='"),
    ("https://example.org/blog/x?a=1&sessionid=123", "exclude pattern '[?&]sessionid='"),
    ("https://example.org/BLOG/upper", "matches no include pattern"),
]


@pytest.mark.parametrize(("url", "rule"), PATTERNS)
def test_c1_include_and_exclude_patterns(url, rule):
    scope = Scope.from_seeds(
        SEEDS, include=[r"/blog/", r"\.html$"], exclude=[r"/private/", r"[?&]sessionid="]
    )
    assert_verdict(verdict_of(url, scope), rule is None, None if rule is None else "scope", rule)


def test_c1_patterns_search_the_whole_canonical_url():
    scope = Scope.from_seeds(SEEDS, include=[r"^https://example\.org/docs/"])
    assert verdict_of("https://example.org/docs/a", scope).allowed
    assert not verdict_of("http://example.org/docs/a", scope).allowed  # in scope, not included
    assert not verdict_of("https://example.org/x/docs/a", scope).allowed


def test_c1_compiled_patterns_are_accepted():
    scope = Scope.from_seeds(SEEDS, exclude=[re.compile("secret", re.IGNORECASE)])
    assert_verdict(verdict_of("https://example.org/SECRET", scope), False, "scope", "'secret'")


@pytest.mark.parametrize(
    ("kind", "pattern"), [("include", "("), ("exclude", "[a-"), ("include", "*x")]
)
def test_b1_bad_pattern_is_a_user_error_naming_it(kind, pattern):
    with pytest.raises(UserInputError) as caught:
        Scope.from_seeds(SEEDS, **{kind: ["ok", pattern]})
    assert f"invalid {kind} pattern {pattern!r}" in str(caught.value)


# --- C1: depth --------------------------------------------------------------------------------

DEPTHS = [
    (None, 0, None),
    (None, 10_000, None),
    (0, 0, None),
    (0, 1, "depth 1 > max 0"),
    (4, 4, None),
    (4, 5, "depth 5 > max 4"),
]


@pytest.mark.parametrize(("max_depth", "depth", "rule"), DEPTHS)
def test_c1_max_depth(max_depth, depth, rule):
    scope = Scope.from_seeds(SEEDS, max_depth=max_depth, max_pages_per_host=10)
    verdict = verdict_of("https://example.org/deep", scope, depth=depth)
    assert_verdict(verdict, rule is None, None if rule is None else "scope", rule)
    assert scope.max_pages_per_host == 10  # carried for the crawler, which counts


@pytest.mark.parametrize(
    ("settings_", "message"),
    [
        ({"mode": "everything"}, "scope must be seeds, domain or any, not 'everything'"),
        ({"max_depth": -1}, "max depth must be 0 or more, not -1"),
        ({"max_pages_per_host": 0}, "max pages per host must be 1 or more, not 0"),
        ({"trusted_networks": ["10.0.0.0/33"]}, "invalid trusted network '10.0.0.0/33'"),
        ({"trusted_networks": ["intranet"]}, "invalid trusted network 'intranet'"),
    ],
)
def test_b1_bad_scope_settings_are_user_errors(settings_, message):
    with pytest.raises(UserInputError, match=re.escape(message)):
        Scope.from_seeds(SEEDS, **settings_)


@pytest.mark.parametrize("seed", ["ftp://example.org/", "example.org", "http://[::1/"])
def test_b1_bad_seed_is_a_user_error(seed):
    with pytest.raises(UserInputError, match="bad seed"):
        Scope.from_seeds([*SEEDS, seed])


# --- C3: trap guards --------------------------------------------------------------------------

ORIGIN = "https://example.org"


def segments(count: int) -> str:
    return "/" + "/".join(f"s{index}" for index in range(count))


def parameters(count: int) -> str:
    return "?" + "&".join(f"p{index}=1" for index in range(count))


def url_of_length(length: int) -> str:
    return ORIGIN + "/" + "a" * (length - len(ORIGIN) - 1)


TRAPS = [
    # calendars: a real date is fine; a relative link that loops piles up segments
    ("/cal/2024/01/02", None),
    ("/cal/2024/01/02/", None),
    ("/cal/2024/01/01/events/01", None),
    ("/cal/2024/01/02/01/02/01/02", None),
    ("/cal/2024/01/02/01/02/01/02/01", "path repeats segment '01' 4 times"),
    ("/cal/2024/cal/2024/cal/2024/cal/2024", "path repeats segment 'cal' 4 times"),
    # repeated segments
    ("/a/b/a/b/a/b", None),
    ("/a/b/a/b/a/b/a", "path repeats segment 'a' 4 times"),
    ("/x/x/x/x/x/x", "path repeats segment 'x' 6 times"),
    ("/a//b//c//d", None),
    ("/a/////", "path repeats segment '/' 4 times"),  # empty segments, the trailing one aside
    ("/A/a/A/a/A/a/A", "path repeats segment 'A' 4 times"),
    # path depth
    (segments(32), None),
    (segments(33), "path has 33 segments > max 32"),
    (segments(100), "path has 100 segments > max 32"),
    # query size and parameter count
    ("/search?" + "q" * 1024, None),
    ("/search?" + "q" * 1025, "query is 1025 bytes > max 1024"),
    ("/search" + parameters(32), None),
    ("/search" + parameters(33), "query has 33 parameters > max 32"),
    ("/search?a=1&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&&b=2", None),
    ("/search?" + "&" * 2000, "query is 2000 bytes > max 1024"),
    ("/?", None),
]


@pytest.mark.parametrize(("path", "rule"), TRAPS)
def test_c3_trap_guards(path, rule):
    scope = Scope.from_seeds(SEEDS)
    verdict = check_scope(ORIGIN + path, 1, scope)
    assert_verdict(verdict, rule is None, None if rule is None else "trap", rule)


@pytest.mark.parametrize(
    ("length", "rule"),
    [(2048, None), (2049, "URL is 2049 characters > max 2048"), (50_000, "50000 characters")],
)
def test_c3_url_length(length, rule):
    verdict = check_scope(url_of_length(length), 0, Scope.from_seeds(SEEDS))
    assert_verdict(verdict, rule is None, None if rule is None else "trap", rule)


CUSTOM_GUARDS = [
    ("max_url_length", 40, ORIGIN + "/" + "b" * 20, None),
    ("max_url_length", 30, ORIGIN + "/" + "b" * 20, "URL is 40 characters > max 30"),
    ("max_path_segments", 2, ORIGIN + "/a/b", None),
    ("max_path_segments", 2, ORIGIN + "/a/b/", None),  # a directory's trailing slash
    ("max_path_segments", 2, ORIGIN + "/a/b/c", "path has 3 segments > max 2"),
    ("max_repeated_segment", 1, ORIGIN + "/a/b/c", None),
    ("max_repeated_segment", 1, ORIGIN + "/a/b/a", "path repeats segment 'a' 2 times"),
    ("max_query_bytes", 3, ORIGIN + "/?abc", None),
    ("max_query_bytes", 3, ORIGIN + "/?abcd", "query is 4 bytes > max 3"),
    ("max_query_parameters", 1, ORIGIN + "/?a=1", None),
    ("max_query_parameters", 1, ORIGIN + "/?a=1&b=2", "query has 2 parameters > max 1"),
]


@pytest.mark.parametrize(("name", "limit", "url", "rule"), CUSTOM_GUARDS)
def test_c3_each_guard_is_a_setting(name, limit, url, rule):
    scope = Scope.from_seeds(SEEDS, trap_guards=TrapGuards(**{name: limit}))
    verdict = check_scope(url, 0, scope)
    assert_verdict(verdict, rule is None, None if rule is None else "trap", rule)


@pytest.mark.parametrize("name", [field.name for field in dataclasses.fields(TrapGuards)])
def test_c3_guards_must_be_positive(name):
    with pytest.raises(UserInputError, match=f"{name} must be at least 1, not 0"):
        TrapGuards(**{name: 0})


def test_c3_a_long_url_is_refused_before_patterns_run():
    scope = Scope.from_seeds(SEEDS, exclude=[r"(a+)+$"])  # catastrophic on a long run of "a"
    verdict = check_scope(url_of_length(100_000) + "!", 0, scope)
    assert_verdict(verdict, False, "trap", "URL is 100001 characters")


# --- the anti-steering guard ------------------------------------------------------------------

STEERING = [
    # public -> non-public literal: refused, whatever the spelling
    ("http://10.0.0.1/", PUBLIC_PAGE, "10.0.0.0/8"),
    ("http://10.255.255.255:8080/admin", PUBLIC_PAGE, "10.0.0.0/8"),
    ("http://127.0.0.1/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://127.9.9.9:631/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://172.16.5.4/", PUBLIC_PAGE, "172.16.0.0/12"),
    ("http://172.31.255.255/", PUBLIC_PAGE, "172.16.0.0/12"),
    ("http://192.168.1.1/", PUBLIC_PAGE, "192.168.0.0/16"),
    ("http://169.254.169.254/latest/meta-data/", PUBLIC_PAGE, "169.254.0.0/16"),
    ("http://100.100.100.200/latest/meta-data/", PUBLIC_PAGE, "100.64.0.0/10"),
    ("http://0.0.0.0:8080/", PUBLIC_PAGE, "0.0.0.0/8"),
    ("http://localhost/", PUBLIC_PAGE, "into localhost"),
    ("http://LOCALHOST.:3000/", PUBLIC_PAGE, "into localhost"),
    ("http://admin.localhost/", PUBLIC_PAGE, "into localhost"),
    # numeric spellings that socket libraries read as 127.0.0.1
    ("http://2130706433/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://0x7f.1/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://0x7f000001/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://127.1/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://0177.0.0.1/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://012.1/", PUBLIC_PAGE, "10.0.0.0/8"),
    # IPv6
    ("http://[::1]/", PUBLIC_PAGE, "::1/128"),
    ("http://[::1]:8080/", "http://[2001:db8::1]/", "::1/128"),
    ("http://[fd00:ec2::254]/", PUBLIC_PAGE, "fc00::/7"),
    ("http://[fc00::1]/", PUBLIC_PAGE, "fc00::/7"),
    ("http://[fe80::1]/", PUBLIC_PAGE, "fe80::/10"),
    ("http://[::]/", PUBLIC_PAGE, "::/128"),
    ("http://[::ffff:10.0.0.1]/", PUBLIC_PAGE, "10.0.0.0/8"),
    ("http://[::ffff:127.0.0.1]/", PUBLIC_PAGE, "127.0.0.0/8"),
    # issue 38: IPv4-compatible (deprecated) refused whole; NAT64's well-known prefix judged by
    # the IPv4 address it carries; the local-use NAT64 prefix (RFC 8215) refused whole
    ("http://[::127.0.0.1]/", PUBLIC_PAGE, "::/96"),
    ("http://[::a9fe:a9fe]/", PUBLIC_PAGE, "::/96"),
    ("http://[::8.8.8.8]/", PUBLIC_PAGE, "::/96"),
    ("http://[64:ff9b::127.0.0.1]/", PUBLIC_PAGE, "127.0.0.0/8"),
    ("http://[64:ff9b::a9fe:a9fe]/", PUBLIC_PAGE, "169.254.0.0/16"),
    ("http://[64:ff9b::10.0.0.1]/", PUBLIC_PAGE, "10.0.0.0/8"),
    ("http://[64:ff9b:1::a00:1]/", PUBLIC_PAGE, "64:ff9b:1::/48"),
    ("http://[64:ff9b:1:ffff::5db8:d822]/", PUBLIC_PAGE, "64:ff9b:1::/48"),
    # from a source we cannot read: taken as public
    ("http://10.0.0.1/", "not a url", "link from a public origin (an unreadable URL)"),
    # allowed: public targets, names, seeds, trusted networks, private sources
    ("http://172.32.0.1/", PUBLIC_PAGE, None),
    ("http://172.15.255.255/", PUBLIC_PAGE, None),
    ("http://192.169.0.1/", PUBLIC_PAGE, None),
    ("http://11.0.0.1/", PUBLIC_PAGE, None),
    ("http://[2001:db8::1]/", PUBLIC_PAGE, None),
    ("http://[fe00::1]/", PUBLIC_PAGE, None),
    ("http://[64:ff9b::93.184.216.34]/", PUBLIC_PAGE, None),  # NAT64 of a public address
    ("http://[64:ff9b:2::1]/", PUBLIC_PAGE, None),
    ("http://intranet.corp.example/", PUBLIC_PAGE, None),  # a name: the fetcher's concern
    ("http://localhost.example/", PUBLIC_PAGE, None),
    ("http://1.2.3.4.5/", PUBLIC_PAGE, None),
    ("http://127.0.0.2:8080/page", PUBLIC_PAGE, None),  # a seed origin
    ("http://192.168.50.7/", PUBLIC_PAGE, None),  # trusted 192.168.50.0/24
    ("http://[fd12:3456::5]/", PUBLIC_PAGE, None),  # trusted fd12::/16
    ("http://127.0.0.3/", "http://127.0.0.2:8080/", None),  # loopback -> loopback
    ("http://localhost:9000/", "http://127.0.0.2:8080/", None),
    ("http://[::1]/", "http://localhost/", None),
    ("http://10.0.0.1/", "http://10.0.0.2/", None),  # private -> private
    ("http://127.0.0.1/", "http://[fd00::1]/", None),
    ("http://10.0.0.1/", None, None),  # a seed or frontier entry: the user's choice
]


@pytest.mark.parametrize(("url", "from_url", "rule"), STEERING)
def test_c1_steering_guard(url, from_url, rule):
    scope = Scope.from_seeds(
        SEEDS, mode="any", trusted_networks=["192.168.50.0/24", ipaddress.ip_network("fd12::/16")]
    )
    verdict = verdict_of(url, scope, from_url=from_url)
    assert_verdict(verdict, rule is None, None if rule is None else "steering", rule)


def test_c1_steering_rule_names_the_source_and_the_network():
    verdict = verdict_of(
        "http://10.1.2.3/", Scope.from_seeds(SEEDS, mode="any"), from_url=PUBLIC_PAGE
    )
    assert verdict == ScopeVerdict(
        False, "steering", "link from a public origin (https://example.org) into 10.0.0.0/8"
    )


def test_c1_steering_is_reported_before_scope():
    verdict = verdict_of("http://10.0.0.1/", Scope.from_seeds(SEEDS), from_url=PUBLIC_PAGE)
    assert verdict.reason == "steering"


@pytest.mark.parametrize(
    ("trusted", "url", "allowed"),
    [
        ("127.0.0.0/8", "http://localhost/", True),
        ("::1/128", "http://localhost/", True),
        ("10.0.0.0/8", "http://localhost/", False),
        ("10.0.0.0/8", "http://[::ffff:10.1.1.1]/", True),
        ("0.0.0.0/0", "http://[::1]/", False),  # an IPv4 network never holds an IPv6 address
        ("::/0", "http://10.0.0.1/", False),
        ("127.0.0.1", "http://0x7f000001/", True),
    ],
)
def test_c1_steering_trusted_networks(trusted, url, allowed):
    scope = Scope.from_seeds(SEEDS, mode="any", trusted_networks=[trusted])
    assert verdict_of(url, scope, from_url=PUBLIC_PAGE).allowed is allowed


# --- values and properties -----------------------------------------------------------------------


def test_c1_scope_is_a_frozen_picklable_value():
    scope = Scope.from_seeds(SEEDS, mode="domain", include=["/a"], trusted_networks=["10.0.0.0/8"])
    assert pickle.loads(pickle.dumps(scope)) == scope
    assert hash(scope) == hash(
        Scope.from_seeds(SEEDS, mode="domain", include=["/a"], trusted_networks=["10.0.0.0/8"])
    )
    with pytest.raises(dataclasses.FrozenInstanceError):
        scope.mode = "any"  # type: ignore[misc]


URL_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=60)
HOSTS = st.sampled_from(
    ["example.org", "sub.example.org", "127.0.0.2:8080", "10.0.0.1", "[::1]", "localhost", "0x7f.1"]
)


@settings(max_examples=300, deadline=None)
@given(host=HOSTS, path=URL_TEXT, depth=st.integers(0, 50), source=st.none() | URL_TEXT)
def test_c1_c3_check_scope_never_raises_and_verdicts_are_consistent(host, path, depth, source):
    try:
        url = canonicalize(f"http://{host}/{path}")
    except InvalidURL:
        return
    for mode in ("seeds", "domain", "any"):
        scope = Scope.from_seeds(SEEDS, mode=mode, max_depth=10, exclude=["zz"])
        verdict = check_scope(url, depth, scope, from_url=source)
        assert (verdict.reason is None) is verdict.allowed is (verdict.rule is None)
        assert verdict.reason in (None, "scope", "trap", "steering")


@settings(max_examples=300, deadline=None)
@given(url=URL_TEXT, source=st.none() | URL_TEXT)
def test_c1_check_scope_never_raises_on_any_text(url, source):
    verdict = check_scope(url, 0, Scope.from_seeds(SEEDS, mode="any"), from_url=source)
    assert verdict.allowed is (verdict.reason is None)


def inet_aton(host: str) -> ipaddress.IPv4Address | None:
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except OSError:
        return None


@settings(max_examples=500, deadline=None)
@given(
    st.lists(
        st.from_regex(
            r"0x[0-9a-f]{0,9}|0[0-7]{0,12}|[1-9][0-9]{0,10}|[0-9a-gx]{1,4}", fullmatch=True
        ),
        min_size=1,
        max_size=5,
    )
)
def test_c1_steering_numeric_hosts_read_as_the_socket_library_reads_them(parts):
    # glibc's inet_aton, which getaddrinfo uses for numeric hosts, is the reading that connects.
    host = ".".join(parts)
    try:
        url = canonicalize(f"http://{host}/")
    except InvalidURL:
        return
    address = inet_aton(host)
    verdict = check_scope(url, 0, Scope(mode="any"), from_url=PUBLIC_PAGE)
    non_public = address is not None and any(
        address in ipaddress.ip_network(net)
        for net in (
            "0.0.0.0/8",
            "10.0.0.0/8",
            "100.64.0.0/10",
            "127.0.0.0/8",
            "169.254.0.0/16",
            "172.16.0.0/12",
            "192.168.0.0/16",
        )
    )
    if non_public:  # no spelling of a private address slips through
        assert verdict.reason == "steering", (host, address, verdict)
    elif verdict.reason == "steering":  # and the only extra refusals are WHATWG's "0x" (= 0)
        assert address is None
        assert "0x" in parts, (host, verdict)
