"""How many times a failed request is tried again: pages ``max_retries``, a request that timed
out ``max_timeout_retries``, a link check ``check_retries``, never more than ``max_retries``
[C7, P3, L1-L3]."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest

from politecrawl import CrawlConfig
from politecrawl.crawl.failures import Failures
from politecrawl.crawl.visit_result import CheckVisit, PageVisit, VisitResult
from politecrawl.errors import FetchError
from politecrawl.fetch import FetchResult, HostNotFoundError
from politecrawl.store import Lease
from politecrawl.testing import FakeClock

T0 = datetime(2026, 1, 1, tzinfo=UTC)
URL = "http://x.example/a"

REFUSED = FetchError("connection refused", url=URL, temporary=True)
TIMED_OUT = FetchError("no response in time", url=URL, temporary=True, timed_out=True)


def _lease(attempts: int, kind: str) -> Lease:
    return Lease(1, URL, "http://x.example", "x.example", 0, attempts, "w", T0, 1, T0, kind=kind)


def _answer(status: int) -> FetchResult:
    return FetchResult(URL, status, (), b"", False, 0.01, None)


def retries(attempt: Callable[[Lease], VisitResult], kind: str) -> int:
    """How many times the URL is tried again before it is recorded for good."""
    attempts = 0
    while True:
        result = attempt(_lease(attempts, kind))
        if isinstance(result, PageVisit | CheckVisit):  # recorded for good, not retried
            return attempts
        attempts += 1
        assert attempts < 20, "retried for ever"


def failures(**settings: int) -> Failures:
    config = CrawlConfig(**settings)  # type: ignore[arg-type]
    return Failures(
        config.politeness,
        FakeClock(),
        max_retries=config.fetching.max_retries,
        max_timeout_retries=config.fetching.max_timeout_retries,
        max_check_retries=config.checking.check_retries,
    )


def no_answer(failing: Failures, error: FetchError, kind: str) -> Callable[[Lease], VisitResult]:
    check_method = "HEAD" if kind == "check" else None
    return lambda lease: failing.no_answer(
        lease, error, started=T0, robots_delay=0.0, check_method=check_method
    )


def status(failing: Failures, code: int, kind: str) -> Callable[[Lease], VisitResult]:
    check_method = "HEAD" if kind == "check" else None
    return lambda lease: failing.failed_status(
        lease, _answer(code), started=T0, robots_delay=0.0, check_method=check_method
    )


def test_c7_l1_by_default_a_page_is_tried_three_times_more_a_check_once():
    assert CrawlConfig().checking.check_retries == 1
    failing = failures()
    assert retries(status(failing, 503, "page"), "page") == 3
    assert retries(status(failing, 503, "check"), "check") == 1
    assert retries(no_answer(failing, REFUSED, "page"), "page") == 3
    assert retries(no_answer(failing, REFUSED, "check"), "check") == 1


@pytest.mark.parametrize("code", [429, 500, 502, 503, 504])
def test_l1_check_retries_zero_asks_once_whatever_the_failure(code):
    failing = failures(check_retries=0)
    assert retries(status(failing, code, "check"), "check") == 0
    assert retries(no_answer(failing, REFUSED, "check"), "check") == 0
    assert retries(no_answer(failing, TIMED_OUT, "check"), "check") == 0
    assert retries(status(failing, code, "page"), "page") == 3  # pages keep max_retries


def test_c7_a_time_out_is_tried_again_the_fewest_times_of_its_limits():
    failing = failures(max_retries=3, max_timeout_retries=1, check_retries=2)
    assert retries(no_answer(failing, TIMED_OUT, "check"), "check") == 1
    assert retries(no_answer(failing, REFUSED, "check"), "check") == 2
    assert retries(no_answer(failing, TIMED_OUT, "page"), "page") == 1


def test_c7_check_retries_never_goes_beyond_max_retries():
    failing = failures(max_retries=2, check_retries=5)
    assert retries(status(failing, 500, "check"), "check") == 2
    assert retries(status(failing, 500, "page"), "page") == 2


def test_l1_o6_a_check_whose_host_name_does_not_exist_is_broken_at_once_a_page_is_retried():
    gone = HostNotFoundError(URL, "Name or service not known")
    assert retries(no_answer(failures(), gone, "check"), "check") == 0  # a finding (L1)
    assert retries(no_answer(failures(), gone, "page"), "page") == 3  # O6: DNS fails, defer
