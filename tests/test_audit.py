"""``politecrawl.audit``: who crawls a site, read from its access log [G1-G4]."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from tests.audit_logs import (
    HAMMER,
    POLITE,
    ROBOTS,
    SITE,
    START,
    WILDCARD_URL,
    line,
    planted_log,
)

from politecrawl.audit import RobotsVersion, audit_log
from politecrawl.audit.crawlers import BROWSERS, crawler_name
from politecrawl.audit.formats import parse_combined
from politecrawl.audit.reading import parse_line
from politecrawl.audit.records import LogRecord
from politecrawl.robots import parse_robots


def by_name(result):
    return {crawler.name: crawler for crawler in result.crawlers}


def test_g3_the_audit_finds_exactly_what_the_generator_planted():
    planted = planted_log()
    result = audit_log(planted.lines, robots=ROBOTS, site=SITE, retry_after_seconds=60)
    crawlers = by_name(result)
    assert {name: crawler.verdict for name, crawler in crawlers.items()} == planted.verdicts
    for name, crawler in crawlers.items():
        forbidden = {url.target for url in crawler.forbidden}
        assert forbidden == planted.forbidden.get(name, set()), name
        assert crawler.short_gaps == planted.short_gaps.get(name, 0), name
        assert crawler.early_retries == planted.early_retries.get(name, 0), name
        assert crawler.rate_breaches == 0
        assert crawler.in_flight_overlaps == 0
    assert [bad.line_number for bad in result.bad_samples] == planted.bad_lines
    assert result.bad_lines == 2
    assert result.requests == len(planted.lines) - 2


def test_g3_a_wildcard_only_rfc9309_reads_is_forbidden_with_its_reading_and_line():
    result = audit_log(planted_log().lines, robots=ROBOTS, site=SITE)
    (url,) = by_name(result)["wildbot"].forbidden
    assert url.target == WILDCARD_URL
    assert url.forbidden_by == ("rfc9309",)
    assert url.deciding == ("rfc9309: line 7: Disallow: /*?sessionid=",)
    assert url.origin == SITE
    assert by_name(result)["wildbot"].forbidden_draft_only == 0


def test_g3_forbidden_by_the_draft_alone_is_said_so():
    robots = "User-agent: *\nDisallow: /a\n\nUser-agent: googlebot-news\nDisallow: /\n"
    agent = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
    lines = [line(START, agent, "/robots.txt"), line(START + timedelta(seconds=5), agent, "/b")]
    crawler = by_name(audit_log(lines, robots=robots))["googlebot"]
    # A2: the draft picks the first record whose User-agent contains "googlebot"
    assert crawler.forbidden[0].forbidden_by == ("draft",)
    assert crawler.verdict == "fetches what the draft's letter forbids"


def test_g3_robots_txt_read_late_is_a_fault_and_counts_the_requests_before_it():
    lines = [
        line(START, POLITE, "/a"),
        line(START + timedelta(seconds=20), POLITE, "/robots.txt"),
        line(START + timedelta(seconds=40), POLITE, "/b"),
    ]
    crawler = by_name(audit_log(lines, robots=ROBOTS, site=SITE))["politebot"]
    assert crawler.verdict == "reads robots.txt late"
    (reads,) = crawler.robots
    assert (reads.fetches, reads.requests_before) == (1, 1)


def test_g3_a_gap_is_short_only_by_more_than_the_logs_time_resolution():
    # Crawl-delay 10, times to the second: 10 s measured may be 9.01 s, not held against it;
    # 9 s measured was at most 9.99 s.
    lines = [line(START, POLITE, "/robots.txt")]
    lines += [line(START + timedelta(seconds=s), POLITE, f"/p{s}") for s in (1, 11, 20)]
    crawler = by_name(audit_log(lines, robots=ROBOTS))["politebot"]
    assert crawler.short_gaps == 1
    (incident,) = crawler.incidents
    assert (incident.measured_seconds, incident.required_seconds) == (9.0, 10.0)


def test_g3_request_rate_counts_requests_beyond_it_in_a_window():
    robots = "User-agent: *\nRequest-rate: 2/60\n"
    seconds = (0, 5, 10, 70, 75, 80, 200)
    lines = [line(START + timedelta(seconds=s), HAMMER, f"/p{s}") for s in seconds]
    crawler = by_name(audit_log(lines, robots=robots))["hammerbot"]
    assert crawler.rate_breaches == 2  # the third within 60 s, twice
    assert crawler.request_rate == "2/60s"
    assert crawler.verdict == "skips robots.txt; too fast"


def test_g3_a_429_retry_after_logged_in_json_lines_is_honoured_or_not():
    def entry(at, status, **more):
        return json.dumps(
            {
                "time": (START + timedelta(seconds=at)).isoformat(),
                "request": "GET /x HTTP/1.1",
                "status": status,
                "http_user_agent": HAMMER,
                **more,
            }
        )

    robots = "User-agent: *\nDisallow: /private\n"
    lines = [
        entry(0, 429, retry_after="30"),
        entry(10, 200),  # too soon: 30 s asked
        entry(20, 503, retry_after="5"),
        entry(26, 200),  # waited
    ]
    crawler = by_name(audit_log(lines, robots=robots))["hammerbot"]
    assert crawler.early_retries == 1
    assert crawler.incidents[0].required_seconds == 30


def test_g3_requests_in_flight_at_once_when_durations_are_logged():
    def entry(end, duration):
        return json.dumps(
            {
                "ts": START.timestamp() + end,
                "request": {"method": "GET", "uri": f"/p{end}", "host": "www.example.org"},
                "status": 200,
                "duration": duration,
                "user_agent": POLITE,
            }
        )

    lines = [entry(1.0, 0.5), entry(3.0, 2.5), entry(3.2, 1.0), entry(20.0, 0.1)]
    result = audit_log(lines, robots="User-agent: *\nDisallow:\n", site=SITE)
    crawler = by_name(result)["politebot"]
    assert crawler.in_flight_overlaps == 2  # 3.0 began at 0.5, 3.2 at 2.2: both overlap
    assert crawler.max_in_flight == 2
    assert crawler.robots[0].origin == SITE  # the host logged, the scheme the site's
    assert result.has_durations


def test_g4_a_robots_txt_that_changed_applies_from_when_it_took_effect():
    old = RobotsVersion(parse_robots("User-agent: *\nDisallow:\n"), "old.txt")
    new = RobotsVersion(
        parse_robots("User-agent: *\nDisallow: /b\n"),
        "new.txt",
        effective_from=START + timedelta(hours=1),
    )
    lines = [
        line(START, POLITE, "/robots.txt"),
        line(START + timedelta(minutes=1), POLITE, "/b"),  # allowed then
        line(START + timedelta(hours=2), POLITE, "/b"),  # forbidden now
    ]
    crawler = by_name(audit_log(lines, robots=[old, new]))["politebot"]
    assert crawler.forbidden_requests == 1
    assert crawler.forbidden[0].robots == "new.txt"


@pytest.mark.parametrize(
    ("agent", "name"),
    [
        ("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "googlebot"),
        (
            "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 "
            "(KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; "
            "+http://www.google.com/bot.html)",
            "googlebot",
        ),
        ("Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2)", "gptbot"),
        ("Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com)", "bytespider"),
        ("ClaudeBot/1.0; +claudebot@anthropic.com", "claudebot"),
        ("curl/8.5.0", "curl"),
        ("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/120", BROWSERS),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Version/17.0 Mobile/15E148",
            BROWSERS,
        ),
        ("-", "(no user agent)"),
    ],
)
def test_g2_a_crawler_is_its_product_token(agent, name):
    assert crawler_name(agent) == name


def test_g2_each_crawler_is_judged_by_the_group_that_names_it_and_keeps_its_user_agents():
    robots = "User-agent: *\nDisallow: /a\n\nUser-agent: gptbot\nDisallow: /\n"
    agents = ("Mozilla/5.0 (compatible; GPTBot/1.1)", "Mozilla/5.0 (compatible; GPTBot/1.2)")
    lines = [line(START, agent, "/b") for agent in agents]
    crawler = by_name(audit_log(lines, robots=robots))["gptbot"]
    assert crawler.forbidden_requests == 2
    assert "line 5: Disallow: /" in crawler.forbidden[0].deciding[0]
    assert sorted(agent for agent, _ in crawler.user_agents) == sorted(agents)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            '127.0.0.1 - frank [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326',
            ("/a.gif", 200, "", None),
        ),
        (
            '1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET /x?y=1 HTTP/1.1" 404 0 "-" "b/1" 0.250',
            ("/x?y=1", 404, "b/1", 0.25),
        ),
        (
            '1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "GET http://h.example/p HTTP/1.1" 200 1 '
            '"-" "a \\"quoted\\" agent/1" rt=1.500 uct="0.001"',
            ("/p", 200, 'a \\"quoted\\" agent/1', 1.5),
        ),
        (
            '1.2.3.4 - - [10/Oct/2000:13:55:36 +0000] "\\x16\\x03\\x01" 400 150 "-" "-"',
            (None, 400, "-", None),
        ),
    ],
)
def test_g1_combined_and_common_lines(text, expected):
    record = parse_combined(text)
    assert isinstance(record, LogRecord)
    assert (record.target, record.status, record.user_agent, record.duration) == expected


def test_g1_a_line_of_no_known_format_is_a_reason_never_an_exception():
    for text in ("", "{not json", "[]", '{"time": "x"}', "1.2.3.4 - - [bad] x", "\x00\x01"):
        assert isinstance(parse_line(text), str)


def test_g1_state_is_bounded_however_long_and_varied_the_log():
    from politecrawl.audit import Auditor
    from politecrawl.audit.timeline import BUCKETS

    auditor = Auditor([RobotsVersion(parse_robots("User-agent: *\nDisallow: /x\n"), "r")])
    auditor.names.max_crawlers = 50
    for number in range(20_000):
        at = START + timedelta(seconds=number * 37)
        auditor.add(parse_combined(line(at, f"Bot{number % 400}/1.0", f"/x/{number}")))
    result = auditor.result()
    assert len(result.crawlers) == 51  # 50 by name, the rest together
    assert any(crawler.name == "(other agents)" for crawler in result.crawlers)
    for crawler in result.crawlers:
        assert len(crawler.forbidden) <= 100
        assert len(crawler.timeline) <= BUCKETS
    assert sum(sum(crawler.forbidden_timeline) for crawler in result.crawlers) == 20_000
    assert sum(crawler.forbidden_requests for crawler in result.crawlers) == 20_000


def test_g4_an_origin_no_robots_txt_was_given_for_is_said():
    version = RobotsVersion(parse_robots("User-agent: *\nDisallow:\n"), "a.txt", None, SITE)
    result = audit_log([line(START, POLITE, "/a")], robots=[version])  # no --site
    assert result.problems == (
        "no robots.txt given for the log (name it with --site, or give its robots.txt): "
        "judged by a.txt",
    )
    assert audit_log([line(START, POLITE, "/a")], robots=[version], site=SITE).problems == ()
