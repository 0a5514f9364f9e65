"""Hostile and arbitrary robots.txt input: never a crash, always within the O8 limits [F1, O8].

How long these take is measured by ``bench/robots_bench.py --hostile`` (no timed assertions in
tests): each parses in a fraction of a second because the limits cut the work short.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from politecrawl.robots import RobotsLimits, parse_robots

SEMANTICS = ["draft", "rfc9309"]


def parse_and_ask(data: bytes, semantics: str):
    policy = parse_robots(data, semantics=semantics)
    policy.is_allowed("politecrawl", "/some/path?q=1")  # the first question compiles the rules
    return policy


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_o8_fifty_megabytes(semantics):
    data = b"User-agent: *\nDisallow: /private\n" + b"Disallow: /x/y/z\n" * 3_000_000
    assert len(data) > 50_000_000
    policy = parse_and_ask(data, semantics)
    assert policy.truncated
    assert not policy.is_allowed("a", "/private")


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_o8_one_ten_megabyte_line(semantics):
    data = b"User-agent: *\nDisallow: /" + b"a" * 10_000_000 + b"\nDisallow: /never-read\n"
    policy = parse_and_ask(data, semantics)
    assert policy.truncated
    # The cut Disallow keeps its first max_line_bytes: a shorter prefix forbids more.
    assert not policy.is_allowed("a", "/" + "a" * 20_000)
    # The file goes on past max_bytes: what no rule read decides is not fetched (O8).
    assert not policy.is_allowed("a", "/b")
    assert policy.is_allowed("a", "/robots.txt")


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_o8_nul_bytes_and_invalid_utf8(semantics):
    data = b"\x00" * 1000 + b"\nUser-agent: *\nDisallow: /a\x00b\n" + bytes(range(256)) * 100
    policy = parse_and_ask(data, semantics)
    assert not policy.is_allowed("a", "/a\x00b")


@pytest.mark.parametrize("semantics", SEMANTICS)
def test_o8_hundred_thousand_rules(semantics):
    rules = "".join(f"Disallow: /r{i}/\n" for i in range(100_000))
    data = ("User-agent: *\n" + rules).encode()
    policy = parse_robots(data, semantics=semantics, limits=RobotsLimits(max_bytes=10**8))
    assert not policy.is_allowed("a", "/r42/")
    assert policy.truncated  # max_rules stopped the reading
    assert any("too many rules" in warning.message for warning in policy.warnings)
    # Past the limit, never read: no rule read decides it, so it is not fetched.
    assert not policy.is_allowed("a", "/r99999")
    assert "more than 50,000 rules" in policy.explain("a", "/r99999").reason


def test_o8_default_limits_are_the_spec_values():
    limits = RobotsLimits()
    assert limits.max_bytes == 512 * 1024
    assert parse_robots(b"").truncated is False


# --- properties -------------------------------------------------------------------------------

paths = st.text(alphabet=st.characters(codec="utf-8"), max_size=30).map(lambda s: "/" + s)


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=2000), path=paths)
@pytest.mark.parametrize("semantics", SEMANTICS)
def test_f1_arbitrary_bytes_never_raise(semantics, data, path):
    policy = parse_robots(data, semantics=semantics)
    verdict = policy.explain("politecrawl", path)
    assert policy.is_allowed("politecrawl", path) is verdict.allowed
    policy.crawl_delay("politecrawl")
    policy.request_rate("*")
    policy.disagreement("politecrawl", path)


robots_lines = st.lists(
    st.sampled_from(
        [
            "User-agent: *",
            "User-agent: politecrawl",
            "User-agent: other",
            "Disallow: /a",
            "Disallow: /a/b",
            "Allow: /a",
            "Allow: /",
            "Disallow:",
            "",
            "# comment",
            "Crawl-delay: 1",
            "Disallow: /%7Ex",
            "Allow: /a%2Fb",
            "Disallow: /*.gif$",
        ]
    ),
    max_size=20,
)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(st.sampled_from(["Disallow: /a", "Allow: /a", "Crawl-delay: 1", "# c"])),
    path=st.sampled_from(["/", "/a", "/a/b", "/b", "/robots.txt"]),
)
@pytest.mark.parametrize("semantics", SEMANTICS)
def test_a4_a_policy_without_records_allows_everything(semantics, lines, path):
    assert parse_robots("\n".join(lines), semantics=semantics).is_allowed("politecrawl", path)


@settings(max_examples=400, deadline=None)
@given(
    lines=robots_lines,
    extra=st.sampled_from(["/", "/a", "/a/b", "/b", "/%7ex", "/a%2fb", "/x.gif"]),
    path=st.sampled_from(["/", "/a", "/a/b", "/b", "/~x", "/a%2Fb", "/a/b/c", "/x.gif"]),
    agent=st.sampled_from(["politecrawl", "other", "someone"]),
)
def test_m1_a_disallow_added_at_the_end_of_a_draft_record_never_allows_more(
    lines, extra, path, agent
):
    before = parse_robots("\n".join(lines))
    records = before.records
    if not records:
        return
    # Insert the new Disallow right after the last line of the record that applies.
    verdict = before.explain(agent, path)
    if verdict.record_line is None:
        return
    record = next(r for r in records if r.line_number == verdict.record_line)
    if not record.rules:
        return  # after its User-agent lines a Disallow could split the record; not this property
    last_line = max(rule.line_number for rule in record.rules)
    new_lines = [*lines[:last_line], f"Disallow: {extra}", *lines[last_line:]]
    after = parse_robots("\n".join(new_lines))
    if not before.is_allowed(agent, path):
        assert not after.is_allowed(agent, path)
