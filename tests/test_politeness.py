"""A host's pace and a failing URL's retries: pure arithmetic [P2, P3, C7]."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.config import PolitenessSettings
from politecrawl.politeness import (
    CUT_SHORT_SECONDS,
    failure_of_status,
    pace_after,
    robots_delay_seconds,
    url_retry_at,
)
from politecrawl.robots import RequestRate

T0 = datetime(2026, 1, 1, tzinfo=UTC)
PACE = PolitenessSettings(delay_seconds=1.0, slowdown_factor=2.0, max_backoff_seconds=60.0)


def seconds(moment: datetime) -> float:
    return (moment - T0).total_seconds()


@pytest.mark.parametrize(
    ("crawl_delay", "rate", "expected"),
    [(None, None, 0.0), (5.0, None, 5.0), (None, RequestRate(1, 10.0), 10.0),
     (2.0, RequestRate(3, 30.0), 10.0), (20.0, RequestRate(2, 4.0), 20.0)],
)  # fmt: skip
def test_p2_robots_delay_is_crawl_delay_or_seconds_per_request(crawl_delay, rate, expected):
    assert robots_delay_seconds(crawl_delay, rate) == expected


def test_p2_the_delay_is_the_largest_of_the_floor_and_robots():
    assert pace_after(PACE, finished_at=T0).delay_seconds == 1.0
    assert pace_after(PACE, finished_at=T0, robots_delay=0.5).delay_seconds == 1.0
    paced = pace_after(PACE, finished_at=T0, robots_delay=7.0)
    assert (paced.delay_seconds, seconds(paced.next_start)) == (7.0, 7.0)
    assert paced.wait_reason == "robots.txt Crawl-delay or Request-rate"


def test_p3_slow_responses_slow_the_host_but_only_up_to_the_cap():
    assert pace_after(PACE, finished_at=T0, response_seconds=0.2).delay_seconds == 1.0
    assert pace_after(PACE, finished_at=T0, response_seconds=3.0).delay_seconds == 6.0
    # A page that took 29 s (a trickling body) costs at most max_slowdown_seconds.
    slow = pace_after(PACE, finished_at=T0, response_seconds=29.0)
    assert slow.delay_seconds == PACE.max_slowdown_seconds == 30.0
    assert slow.wait_reason.startswith("slow responses")


def test_p3_a_time_out_is_no_response_time_and_backs_off_once():
    # A time-out: no response time (None), the server's trouble: one back-off step, not
    # slowdown x 30 s doubled (the minute-long stall the pace issue measured).
    paced = pace_after(PACE, finished_at=T0, response_seconds=None, failure="host")
    assert paced.delay_seconds == 2.0
    assert paced.error_streak == 1


@pytest.mark.parametrize(("streak_before", "expected"), [(0, 2.0), (1, 4.0), (2, 8.0), (9, 60.0)])
def test_p3_consecutive_host_failures_back_off_exponentially_up_to_the_cap(streak_before, expected):
    paced = pace_after(PACE, finished_at=T0, failure="host", error_streak_before=streak_before)
    assert paced.delay_seconds == expected
    assert paced.error_streak == streak_before + 1
    assert paced.backoff_seconds == expected - 1.0
    assert paced.wait_reason.startswith("back-off after")


def test_p3_one_broken_page_among_healthy_ones_costs_the_host_nothing():
    # A 500 on one page, after successes: the page's problem, the host keeps its pace.
    paced = pace_after(PACE, finished_at=T0, failure="page", error_streak_before=0)
    assert paced.delay_seconds == 1.0
    assert paced.error_streak == 1
    # ... but a second failure in a row is one back-off step.
    assert (
        pace_after(PACE, finished_at=T0, failure="page", error_streak_before=1).delay_seconds == 2.0
    )


def test_p3_a_success_after_failures_restores_the_delay_for_the_very_next_request():
    after_failures = pace_after(PACE, finished_at=T0, failure="host", error_streak_before=5)
    assert after_failures.delay_seconds == 60.0
    success = pace_after(PACE, finished_at=T0, error_streak_before=after_failures.error_streak)
    assert (success.delay_seconds, success.error_streak, success.backoff_seconds) == (1.0, 0, 0.0)
    assert seconds(success.next_start) == 1.0


def test_p1_p2_a_response_cut_short_ends_for_the_server_a_margin_after_our_close():
    # The server notices our close at its next write, after it: its log must not show the
    # next request closer than the delay, nor overlapping (a delay of 0).
    for pace in (PACE, PolitenessSettings(delay_seconds=0.0)):
        whole = pace_after(pace, finished_at=T0, response_seconds=0.01)
        cut = pace_after(pace, finished_at=T0, response_seconds=0.01, cut_short=True)
        assert seconds(cut.next_start) == pytest.approx(
            seconds(whole.next_start) + CUT_SHORT_SECONDS
        )
        assert cut.delay_seconds == whole.delay_seconds
    failed = pace_after(PACE, finished_at=T0, failure="host", cut_short=True)
    assert seconds(failed.next_start) == pytest.approx(failed.delay_seconds + CUT_SHORT_SECONDS)


def test_p3_retry_after_pushes_the_next_start_and_says_so():
    paced = pace_after(PACE, finished_at=T0, failure="host", retry_after_seconds=30)
    assert seconds(paced.next_start) == 30
    assert paced.retry_after_until == T0 + timedelta(seconds=30)
    assert paced.wait_reason == "Retry-After"
    short = pace_after(PACE, finished_at=T0, robots_delay=10.0, retry_after_seconds=3)
    assert (seconds(short.next_start), short.retry_after_until) == (10.0, None)


def test_p3_robots_delay_is_never_undercut_by_a_capped_backoff():
    paced = pace_after(
        PACE, finished_at=T0, robots_delay=120.0, failure="host", error_streak_before=3
    )
    assert paced.delay_seconds == 120.0


@pytest.mark.parametrize(
    ("status", "expected"), [(429, "host"), (503, "host"), (500, "page"), (502, "page")]
)
def test_p3_whose_problem_a_failed_answer_is(status, expected):
    assert failure_of_status(status) == expected


def test_c7_p3_a_failing_url_has_its_own_doubling_retry_schedule():
    times = [
        seconds(url_retry_at(PACE, finished_at=T0, attempts_before=attempts))
        for attempts in range(4)
    ]
    assert times == [1.0, 2.0, 4.0, 8.0]
    assert (
        seconds(url_retry_at(PACE, finished_at=T0, attempts_before=0, retry_after_seconds=90)) == 90
    )
    capped = url_retry_at(PACE, finished_at=T0, attempts_before=20)
    assert seconds(capped) == PACE.max_backoff_seconds


def test_p2_p3_the_pace_carries_what_the_hosts_row_shows():
    """One pace value: the response time and robots.txt's delay it was decided from travel
    with it to the host's row (``politecrawl status``)."""
    paced = pace_after(PACE, finished_at=T0, robots_delay=7.0, response_seconds=0.25)
    assert (paced.last_response_seconds, paced.crawl_delay_seconds) == (0.25, 7.0)
    timed_out = pace_after(PACE, finished_at=T0, failure="host")
    assert (timed_out.last_response_seconds, timed_out.crawl_delay_seconds) == (None, None)
