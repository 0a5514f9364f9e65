"""When a host may be asked next outside a response's pace: at claim time, after a lost lease,
a hold, a give-back, a busy host and robots.txt's retries: pure arithmetic [P1, P2, C5, O6, O7]."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.config import PolitenessSettings
from politecrawl.politeness import (
    CUT_SHORT_SECONDS,
    busy_retry_at,
    claim_order,
    hold_until,
    next_start_after,
    next_start_after_lost,
    pace_after,
    robots_retry_at,
    slot_at_claim,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)
E0 = T0.timestamp()


def seconds(moment: datetime | None) -> float:
    assert moment is not None
    return (moment - T0).total_seconds()


@pytest.mark.parametrize("cut_short", [False, True])
@pytest.mark.parametrize(("delay", "robots_delay"), [(1.0, 0.0), (1.0, 5.0), (0.0, 0.0)])
def test_p2_a_request_with_no_pace_of_its_own_waits_what_pace_after_gives_it(
    delay, robots_delay, cut_short
):
    """robots.txt, its redirect hops and a give-back: the same next start as ``pace_after``
    for a request with no response time and no failure."""
    settings = PolitenessSettings(delay_seconds=delay)
    paced = pace_after(settings, finished_at=T0, robots_delay=robots_delay, cut_short=cut_short)
    plain = next_start_after(
        T0, delay_seconds=delay, robots_delay=robots_delay, cut_short=cut_short
    )
    assert plain == paced.next_start
    expected = max(delay, robots_delay) + (CUT_SHORT_SECONDS if cut_short else 0.0)
    assert seconds(plain) == pytest.approx(expected)


def test_p2_of_due_hosts_the_one_waiting_longest_counting_its_delay_twice_goes_first():
    quick = claim_order(E0 + 1.0, 0.0)  # due at 1 s, no delay: its last request ended at 1 s
    slow = claim_order(E0 + 2.0, 2.0)  # due at 2 s, 2 s delay: its last request ended at 0 s
    assert slow < quick
    # The same delay: the turns since their last requests.
    assert claim_order(E0 + 1.0, 1.0) < claim_order(E0 + 1.5, 1.0)


def test_p1_p2_a_lease_starts_when_its_host_is_due_and_takes_the_next_slot_at_once():
    # Claimed a moment ahead of the host's next start: the lease starts then.
    assert slot_at_claim(E0 + 0.004, E0, 1.5) == (E0 + 0.004, E0 + 1.504)
    # The host was due before: the lease starts now.
    assert slot_at_claim(E0 - 10.0, E0, 1.5) == (E0, E0 + 1.5)


def test_c5_p2_a_host_whose_leases_were_lost_gets_its_delay_again_from_now():
    now = T0 + timedelta(seconds=100)
    early = next_start_after_lost(now, next_start=T0, delay_seconds=2.0)
    assert seconds(early) == 102.0
    late = next_start_after_lost(now, next_start=T0 + timedelta(seconds=500), delay_seconds=2.0)
    assert seconds(late) == 500.0


def test_c5_o7_a_host_held_outside_a_lease_is_held_past_the_request_then_its_delay():
    assert seconds(hold_until(T0, hold_seconds=31.0, delay_seconds=2.0)) == 33.0


@pytest.mark.parametrize(("delay", "expected"), [(1.0, 1.0), (0.0, 0.1), (0.05, 0.1)])
def test_o7_an_origin_redirecting_to_a_busy_host_tries_again_after_about_one_delay(delay, expected):
    assert seconds(busy_retry_at(T0, delay_seconds=delay)) == pytest.approx(expected)


def test_o6_robots_txt_retries_double_and_a_later_retry_after_wins():
    times = [
        seconds(robots_retry_at(T0, failures=failures, retry_seconds=1.0, max_attempts=5))
        for failures in range(1, 5)
    ]
    assert times == [1.0, 2.0, 4.0, 8.0]
    later = robots_retry_at(
        T0, failures=1, retry_seconds=1.0, max_attempts=5, retry_after_seconds=30
    )
    assert seconds(later) == 30.0
    sooner = robots_retry_at(
        T0, failures=3, retry_seconds=1.0, max_attempts=5, retry_after_seconds=2
    )
    assert seconds(sooner) == 4.0


def test_o6_robots_txt_is_not_tried_again_in_the_run_once_its_attempts_are_used():
    assert robots_retry_at(T0, failures=5, retry_seconds=1.0, max_attempts=5) is None
