"""``strict``, the default semantics: a URL is allowed only when both the draft's reading and RFC
9309's allow it [M7], on real sites' files and on the shapes that make the draft's letter alone
fetch what owners forbid (F4's blank line, several ``*`` groups, wildcards, longest match)."""

from __future__ import annotations

from pathlib import Path

import pytest

from politecrawl import CrawlConfig
from politecrawl.robots import DEFAULT_SEMANTICS, RequestRate, parse_robots

FILES = Path(__file__).with_name("robots_files")
DOCS_PYTHON = (FILES / "docs-python-org.txt").read_bytes()
GITLAB = (FILES / "gitlab.txt").read_bytes()
LONGEST_MATCH = "User-agent: *\nAllow: /example/page/\nDisallow: /example/page/disallowed.gif\n"
AGENT = "politecrawl/1.0 (+https://example.org/bot)"


def verdicts(robots: str | bytes, url: str) -> tuple[bool, bool, bool]:
    """(draft, rfc9309, strict) for ``url``."""
    policy = parse_robots(robots, semantics="strict")
    return tuple(  # type: ignore[return-value]
        policy.with_semantics(name).is_allowed(AGENT, url)
        for name in ("draft", "rfc9309", "strict")
    )


def test_m7_strict_is_the_default_of_the_engine_and_of_a_crawl():
    assert DEFAULT_SEMANTICS == "strict"
    assert parse_robots("").semantics == "strict"
    assert CrawlConfig().robots.semantics == "strict"


@pytest.mark.parametrize("version", ["2", "2.7", "3.0", "3.5", "3.7"])
def test_m7_f4_docs_python_org_rules_after_a_blank_line_are_obeyed(version):
    # The draft ends the record at the blank line (F4), orphaning the end-of-life rules.
    assert verdicts(DOCS_PYTHON, f"https://docs.python.org/{version}/library/") == (
        True,
        False,
        False,
    )


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/3.12/library/os.html", (True, True, True)),
        ("/dev/whatsnew/", (False, False, False)),
        ("/release/3.13/", (False, False, False)),
        ("/3.8/", (True, True, True)),
    ],
)
def test_m7_docs_python_org_what_both_allow_is_allowed(path, expected):
    assert verdicts(DOCS_PYTHON, "https://docs.python.org" + path) == expected


def test_m7_f6_a_sitemap_before_the_first_record_is_read_in_every_semantics():
    for name in ("strict", "draft", "rfc9309"):
        policy = parse_robots(DOCS_PYTHON, semantics=name)
        assert policy.sitemaps == ["https://docs.python.org/sitemap.xml"]


@pytest.mark.parametrize(
    "path",
    [
        "/gitlab-org/gitlab/raw/master/README.md",  # third "*" group, wildcard
        "/gitlab-org/gitlab/blame/master/Gemfile",
        "/gitlab-org/-/archive/v1.0.zip",
        "/s/abc123",  # second "*" group
        "/snippets/42/raw",
        "/groups/gitlab-org/edit",  # first group, but a wildcard
        "/gitlab-org/gitlab/commit/abc.patch",
    ],
)
def test_m7_m6_gitlab_repeated_star_groups_and_wildcards_are_obeyed(path):
    draft, rfc9309, strict = verdicts(GITLAB, "https://gitlab.example" + path)
    assert draft  # the draft's letter: only the first "*" record, wildcards literal
    assert not rfc9309
    assert not strict


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/gitlab-org/gitlab", (True, True, True)),
        ("/gitlab-org/gitlab/issues/1", (True, True, True)),
        ("/api/v4/projects", (False, False, False)),
        # RFC 9309's longest match allows the sign-in page; the draft's first match does not,
        # and strict keeps the draft's refusal (fetching less never breaks a reading).
        ("/users/sign_in", (False, True, False)),
    ],
)
def test_m7_gitlab_other_paths(path, expected):
    assert verdicts(GITLAB, "https://gitlab.example" + path) == expected


def test_m7_m1_a_longer_disallow_after_a_shorter_allow():
    url = "https://e.org/example/page/disallowed.gif"
    assert verdicts(LONGEST_MATCH, url) == (True, False, False)
    assert verdicts(LONGEST_MATCH, "https://e.org/example/page/index.html") == (True, True, True)


def test_m7_the_verdict_names_the_reading_and_line_that_forbade():
    policy = parse_robots(LONGEST_MATCH)
    verdict = policy.explain(AGENT, "/example/page/disallowed.gif")
    assert not verdict.allowed
    assert verdict.semantics == "strict"
    assert verdict.forbidden_by == ("rfc9309",)
    assert verdict.rule is not None
    assert (verdict.rule.line_number, verdict.rule.line) == (
        3,
        "Disallow: /example/page/disallowed.gif",
    )
    draft, rfc9309 = verdict.readings
    assert (draft.semantics, draft.allowed, draft.rule and draft.rule.line_number) == (
        "draft",
        True,
        2,
    )
    assert (rfc9309.semantics, rfc9309.allowed) == ("rfc9309", False)
    assert verdict.reason.startswith("rfc9309: line 3 (Disallow) decides")


def test_m7_both_readings_forbidding_are_both_named():
    policy = parse_robots("User-agent: *\nDisallow: /private\n")
    verdict = policy.explain(AGENT, "/private/x")
    assert verdict.forbidden_by == ("draft", "rfc9309")
    assert policy.explain(AGENT, "/public").allowed
    assert policy.explain(AGENT, "/public").forbidden_by == ()


def test_m7_a_draft_only_refusal_is_kept():
    # A2: the draft obeys the first record whose agent *contains* the token; RFC 9309 wants
    # the exact product token, so only the draft reads "politecrawler" as naming us.
    robots = "User-agent: politecrawler\nDisallow: /\n"
    assert verdicts(robots, "/anything") == (False, True, False)
    verdict = parse_robots(robots).explain(AGENT, "/anything")
    assert verdict.forbidden_by == ("draft",)


def test_m7_f6_strict_takes_the_slower_crawl_delay_and_request_rate():
    # The draft reads only the first "*" record; RFC 9309 merges both and keeps the slowest.
    robots = (
        "User-agent: *\nCrawl-delay: 1\nRequest-rate: 1/2\nDisallow: /a\n\n"
        "User-agent: *\nCrawl-delay: 5\nRequest-rate: 1/10\nDisallow: /b\n"
    )
    policy = parse_robots(robots)
    assert policy.with_semantics("draft").crawl_delay(AGENT) == 1
    assert policy.crawl_delay(AGENT) == 5
    assert policy.request_rate(AGENT) == RequestRate(1, 10.0)


def test_m7_disagreement_under_strict_is_draft_then_rfc9309():
    pair = parse_robots(LONGEST_MATCH).disagreement(AGENT, "/example/page/disallowed.gif")
    assert pair is not None
    assert [(v.semantics, v.allowed) for v in pair] == [("draft", True), ("rfc9309", False)]


def test_m7_the_draft_letter_stays_exact_under_draft():
    policy = parse_robots(LONGEST_MATCH, semantics="draft")
    assert policy.is_allowed(AGENT, "/example/page/disallowed.gif")
    assert policy.explain(AGENT, "/example/page/disallowed.gif").readings == ()


def test_f3_a_full_url_as_a_rule_matches_only_its_literal_path():
    policy = parse_robots("User-agent: *\nDisallow: http://other.example/\n")
    assert policy.is_allowed(AGENT, "https://e.org/")
    assert not policy.is_allowed(AGENT, "https://e.org/http://other.example/x")
    assert any("full URL" in warning.message for warning in policy.warnings)
