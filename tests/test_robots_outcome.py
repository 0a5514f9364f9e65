"""What a robots.txt answer means and how long it holds [O3-O7, E2-E4]."""

from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.config import RobotsSettings
from politecrawl.httpdates import parse_http_date
from politecrawl.robots.outcome import (
    freshness_seconds,
    outcome_of_failure,
    outcome_of_response,
    renewed,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
SETTINGS = RobotsSettings().outcome_settings
WEEK = 7 * 86_400.0


def answer(status, headers=None, body=b"", failures=0, retry_after=None):
    return outcome_of_response(
        status,
        headers or {},
        body,
        now=T0,
        failures_before=failures,
        settings=SETTINGS,
        retry_after_seconds=retry_after,
    )


def test_o3_2xx_is_parsed_and_kept_with_validators():
    outcome = answer(
        200,
        {"ETag": '"x"', "Last-Modified": "Mon, 01 Jan 2024 00:00:00 GMT"},
        b"User-agent: *\nDisallow: /\n",
    )
    assert (outcome.kind, outcome.body, outcome.etag) == (
        "parsed",
        b"User-agent: *\nDisallow: /\n",
        '"x"',
    )
    assert outcome.last_modified == "Mon, 01 Jan 2024 00:00:00 GMT"


@pytest.mark.parametrize("status", [404, 410, 400, 418])
def test_o4_missing_robots_means_no_restrictions(status):
    assert answer(status).kind == "allow_all"


@pytest.mark.parametrize("status", [401, 403])
def test_o5_unauthorized_disallows_the_whole_origin_for_a_shorter_time(status):
    outcome = answer(status)
    assert outcome.kind == "disallow_all"
    assert outcome.expires_at == T0 + timedelta(seconds=SETTINGS.denied_lifetime_seconds)


def test_o5_rfc9309_reading_is_a_setting():
    rules = RobotsSettings(unauthorized_means_allowed=True).outcome_settings
    outcome = outcome_of_response(403, {}, b"", now=T0, failures_before=0, settings=rules)
    assert outcome.kind == "allow_all"


@pytest.mark.parametrize("status", [500, 502, 503, 429])
def test_o6_temporary_failure_defers_with_doubling_back_off(status):
    first = answer(status)
    assert (first.kind, first.failures, first.retry_at) == (
        "deferred",
        1,
        T0 + timedelta(seconds=1),
    )
    second = answer(status, failures=1)
    assert second.retry_at == T0 + timedelta(seconds=2)
    third = answer(status, failures=2)
    assert third.retry_at == T0 + timedelta(seconds=4)
    last = answer(status, failures=3)
    assert (last.kind, last.retry_at, last.failures) == ("deferred", None, 4)


def test_o6_a_longer_retry_after_wins():
    assert answer(503, retry_after=120).retry_at == T0 + timedelta(seconds=120)


def test_o6_network_failure_is_deferred():
    outcome = outcome_of_failure("connection refused", now=T0, failures_before=0, settings=SETTINGS)
    assert outcome.kind == "deferred"
    assert "connection refused" in outcome.reason


@pytest.mark.parametrize(
    ("headers", "seconds"),
    [
        ({}, WEEK),
        ({"Cache-Control": "max-age=3600"}, 3600),
        ({"cache-control": "public, s-maxage=60"}, 60),
        ({"Cache-Control": "max-age=0"}, 1.0),
        ({"Cache-Control": "no-cache"}, 1.0),
        ({"Cache-Control": "max-age=99999999"}, WEEK),
        (
            {"Expires": "Thu, 01 Jan 2026 01:00:00 GMT", "Date": "Thu, 01 Jan 2026 00:00:00 GMT"},
            3600,
        ),
        ({"Expires": "0"}, 1.0),
    ],
)
def test_e2_freshness_from_headers_clamped(headers, seconds):
    assert freshness_seconds(headers, SETTINGS) == seconds


def test_e3_304_renews_the_policy():
    previous = answer(200, {"ETag": '"v1"'}, b"User-agent: *\nDisallow: /x\n")
    later = T0 + timedelta(days=8)
    fresh = renewed(previous, {"Cache-Control": "max-age=60"}, now=later, settings=SETTINGS)
    assert (fresh.kind, fresh.body, fresh.etag) == ("parsed", previous.body, '"v1"')
    assert fresh.expires_at == later + timedelta(seconds=60)


# --- HTTP dates: one reader for Expires, Date and Retry-After (E2, P3) -----------------------


@pytest.mark.parametrize(
    "text",
    [
        "Sun, 06 Nov 1994 08:49:37 GMT",  # IMF-fixdate
        "Sunday, 06-Nov-94 08:49:37 GMT",  # RFC 850
        "Sun Nov  6 08:49:37 1994",  # asctime: no zone, UTC
        "Sun, 06 Nov 1994 08:49:37 -0000",  # RFC 5322's "unknown zone": UTC in HTTP
        "Sun, 06 Nov 1994 09:49:37 +0100",
    ],
)
def test_e2_http_dates_in_every_format_are_utc(text):
    assert parse_http_date(text) == datetime(1994, 11, 6, 8, 49, 37, tzinfo=UTC)


@pytest.mark.parametrize("text", [None, "", "  ", "yesterday", "Sun, 32 Nov 1994 08:49:37 GMT"])
def test_e2_what_is_not_an_http_date(text):
    assert parse_http_date(text) is None


def test_e2_expires_without_date_counts_from_when_the_answer_arrived():
    now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
    headers = {"Expires": "Wed, 25 Nov 2026 13:00:00 GMT"}
    assert freshness_seconds(headers, SETTINGS, received_at=now) == 3600.0
    outcome = outcome_of_response(200, headers, b"", now=now, failures_before=0, settings=SETTINGS)
    assert outcome.expires_at == now + timedelta(hours=1)


def test_e2_an_expires_zone_written_minus_0000_is_utc():
    headers = {
        "Date": "Wed, 25 Nov 2026 12:00:00 GMT",
        "Expires": "Wed, 25 Nov 2026 14:00:00 -0000",
    }
    assert freshness_seconds(headers, SETTINGS) == 7200.0


def test_p3_retry_after_reads_dates_as_expires_does():
    from politecrawl.fetch import FetchResult

    now = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
    result = FetchResult(
        "http://e.org/",
        503,
        (("Retry-After", "Wed, 25 Nov 2026 12:01:00 -0000"),),
        b"",
        False,
        0.0,
        None,
    )
    assert result.retry_after_seconds(now) == 60.0
