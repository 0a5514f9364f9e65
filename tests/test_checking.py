"""A link check's request: HEAD, and GET only when HEAD is refused, at the host's pace [L2, P4].

``responses`` answers; a fake clock shows when the GET is sent after a refused HEAD.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
import requests
import responses
import urllib3

from politecrawl.crawl.checking import GET_BODY_BYTES, request_check
from politecrawl.errors import FetchError
from politecrawl.fetch import Fetcher
from politecrawl.testing import FakeClock

URL = "http://check.test/page"


@pytest.fixture
def mock():
    with responses.RequestsMock(assert_all_requests_are_fired=False) as mocked:
        yield mocked


def check(clock: FakeClock, *, pause: float = 1.5):
    gets: list[float | None] = []

    def get_at(finished, head):
        gets.append(None if head is None else head.elapsed_seconds)
        return finished + timedelta(seconds=pause)

    with Fetcher(user_agent="politecrawl/test") as fetcher:
        return request_check(fetcher, clock, URL, get_at=get_at), gets


def test_p4_l2_a_check_asks_with_head_and_nothing_more_when_head_is_answered(mock):
    mock.add(responses.HEAD, URL, status=404)
    clock = FakeClock()
    start = clock.monotonic()
    answer, gets = check(clock)
    assert (answer.method, answer.result.status) == ("HEAD", 404)
    assert [call.request.method for call in mock.calls] == ["HEAD"]
    assert gets == []
    assert clock.monotonic() == start  # no pause: one request


@pytest.mark.parametrize("refusal", [405, 501])
def test_l2_a_head_refused_with_405_or_501_is_asked_again_with_get_after_the_hosts_pause(
    mock, refusal
):
    mock.add(responses.HEAD, URL, status=refusal)
    mock.add(responses.GET, URL, status=200, body=b"x" * (GET_BODY_BYTES * 2))
    clock = FakeClock()
    start = clock.monotonic()
    answer, gets = check(clock, pause=1.5)
    assert [call.request.method for call in mock.calls] == ["HEAD", "GET"]
    assert (answer.method, answer.result.status) == ("HEAD,GET", 200)
    assert len(answer.result.body) <= GET_BODY_BYTES  # a check reads no more than it needs
    assert clock.monotonic() - start == pytest.approx(1.5)  # P2 between the two requests
    assert gets == [pytest.approx(gets[0])]
    assert gets[0] is not None  # paced by the HEAD's response time


def test_l2_a_head_that_breaks_the_connection_is_asked_again_with_get(mock):
    reset = requests.exceptions.ConnectionError(
        urllib3.exceptions.ProtocolError("Connection aborted.", ConnectionResetError(104, "reset"))
    )
    mock.add(responses.HEAD, URL, body=reset)
    mock.add(responses.GET, URL, status=200)
    answer, gets = check(FakeClock())
    assert answer.result is not None
    assert (answer.method, answer.result.status) == ("HEAD,GET", 200)
    assert gets == [None]  # no response time to pace by


@pytest.mark.parametrize(
    "failure",
    [
        requests.exceptions.ReadTimeout("slow"),
        requests.exceptions.ConnectionError("[Errno 111] Connection refused"),
    ],
)
def test_l2_a_head_that_times_out_or_is_refused_is_not_asked_again(mock, failure):
    mock.add(responses.HEAD, URL, body=failure)
    mock.add(responses.GET, URL, status=200)
    answer, gets = check(FakeClock())
    assert (answer.result, answer.method) == (None, "HEAD")
    assert isinstance(answer.error, FetchError)
    assert [call.request.method for call in mock.calls] == ["HEAD"]  # not asked twice
    assert gets == []


def test_l2_a_get_that_fails_after_a_refused_head_says_so(mock):
    mock.add(responses.HEAD, URL, status=405)
    mock.add(responses.GET, URL, body=requests.exceptions.ReadTimeout("slow"))
    answer, _ = check(FakeClock())
    assert (answer.result, answer.method) == (None, "HEAD,GET")
    assert answer.error is not None
    assert answer.error.timed_out
