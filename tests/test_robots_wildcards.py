"""RFC 9309 wildcards (``*``, a final ``$``) match as a plain regular expression would, but
without its backtracking [M4, M5].

Each ``*`` takes the leftmost place of the literal after it and keeps it (``robots.match``); a
plain ``.*`` tries every way of placing the literals, which on eBay's many-``*`` rules took 3 s
for one 2,000-character URL. Here the plain expression is the oracle, on paths short enough
for it.
"""

from __future__ import annotations

import random
import re

from politecrawl.robots import parse_robots

_ALPHABET = "ab/?=&"


def _oracle(pattern: str, path: str) -> bool:
    """True when ``pattern`` matches ``path`` by the plain reading: ``.*`` for each ``*``."""
    anchored = pattern.endswith("$")
    body = pattern[:-1] if anchored else pattern
    regex = ".*".join(re.escape(part) for part in body.split("*")) + (r"\Z" if anchored else "")
    return re.match(regex, path, re.DOTALL) is not None


def _random_text(rng: random.Random, most: int) -> str:
    return "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, most)))


def test_m4_m5_wildcard_rules_match_as_the_plain_expression_on_20000_random_cases():
    rng = random.Random(9309)
    checked = matched = 0
    for _ in range(2_000):
        pieces = [_random_text(rng, 3) for _ in range(rng.randint(2, 5))]
        pattern = "/" + "*".join(pieces) + ("$" if rng.random() < 0.4 else "")
        policy = parse_robots(f"User-agent: *\nDisallow: {pattern}\n", semantics="rfc9309")
        for _ in range(10):
            path = "/" + _random_text(rng, 14).lstrip("/")  # "//x" would name a host
            expected = _oracle(pattern, path)
            assert policy.is_allowed("bot", path) == (not expected), (pattern, path)
            checked += 1
            matched += expected
    assert checked == 20_000
    assert 500 < matched < 19_500  # both verdicts represented


def test_m4_a_long_url_against_many_wildcards_gets_its_verdict():
    """The shape that backtracked: eBay's ``/b/*?*iid=*&*var=*`` style, and a URL of 2,000
    characters that repeats every literal but the last."""
    rule = "/b/*?*iid=*&*var=*&*_sop=*"
    policy = parse_robots(f"User-agent: *\nDisallow: {rule}\n", semantics="rfc9309")
    path = ("/b/" + "?iid=&var=&" * 200)[:2000]
    assert policy.is_allowed("bot", path)
    assert not policy.is_allowed("bot", path + "_sop=1")


def test_f3_an_allow_path_without_a_leading_slash_allows_nothing():
    """Real files (cim.co.uk, becom.digital): an Allow written without its "/" must not
    outrank the Disallow it sits beside (RFC 9309 2.2; Google ignores it too). A Disallow
    without its "/" still gets one: reading it so fetches less."""
    text = "User-agent: *\nAllow: DependencyHandler.axd\nAllow: app/uploads/\nDisallow: /*.axd\n"
    text += "Disallow: /*?\nDisallow: private/\n"
    for semantics in ("strict", "rfc9309", "draft"):
        policy = parse_robots(text, semantics=semantics)  # type: ignore[arg-type]
        assert not policy.is_allowed("bot", "/private/x"), semantics
        if semantics != "draft":  # the draft has no wildcards
            assert not policy.is_allowed("bot", "/DependencyHandler.axd"), semantics
            assert not policy.is_allowed("bot", "/app/uploads/x.png?ver=2"), semantics
    warnings = [warning.message for warning in parse_robots(text).warnings]
    assert warnings.count("Allow path does not start with '/', line ignored") == 2
