"""When a host may be asked next [P2, P3]."""

from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.politeness import Pace, delay_seconds, next_start, robots_delay_seconds
from politecrawl.robots import RequestRate

PACE = Pace(delay_seconds=1.0, slowdown_factor=2.0, max_backoff_seconds=60.0)
T0 = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("crawl_delay", "rate", "expected"),
    [
        (None, None, 0.0),
        (5.0, None, 5.0),
        (None, RequestRate(3, 15.0), 5.0),
        (2.0, RequestRate(1, 10.0), 10.0),
        (12.0, RequestRate(1, 10.0), 12.0),
    ],
)
def test_p2_robots_delay_is_the_slower_of_crawl_delay_and_request_rate(crawl_delay, rate, expected):
    assert robots_delay_seconds(crawl_delay, rate) == expected


def test_p2_the_configured_delay_is_the_floor_and_crawl_delay_raises_it():
    assert delay_seconds(PACE) == 1.0
    assert delay_seconds(PACE, robots_delay=0.5) == 1.0
    assert delay_seconds(PACE, robots_delay=7.0) == 7.0


def test_p3_a_slow_host_gets_a_multiple_of_its_response_time():
    assert delay_seconds(PACE, response_seconds=0.2) == 1.0
    assert delay_seconds(PACE, response_seconds=3.0) == 6.0


@pytest.mark.parametrize(
    ("streak", "expected"), [(0, 1.0), (1, 2.0), (2, 4.0), (5, 32.0), (6, 60.0), (40, 60.0)]
)
def test_p3_errors_back_off_exponentially_up_to_the_cap(streak, expected):
    assert delay_seconds(PACE, error_streak=streak) == expected


def test_p3_back_off_never_goes_below_what_robots_txt_asks():
    assert delay_seconds(PACE, robots_delay=120.0, error_streak=3) == 120.0


def test_p3_retry_after_pushes_the_next_start():
    assert next_start(T0, 1.0) == T0 + timedelta(seconds=1)
    assert next_start(T0, 1.0, retry_after_seconds=30) == T0 + timedelta(seconds=30)
    assert next_start(T0, 10.0, retry_after_seconds=3) == T0 + timedelta(seconds=10)
