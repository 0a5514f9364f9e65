"""A host kept by the worker that finished its page: its next URL, leased ahead of the host's
next start, on SQLite and on PostgreSQL [P1, P2]."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from politecrawl.store import Completion, Frontier, Lease, PageOutcome, Wait

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


@pytest.fixture
def frontier(database):
    return Frontier(database, default_delay_seconds=0.0, lease_seconds=60.0)


def claim(frontier: Frontier, seconds: float, worker: str = "w1") -> Lease:
    lease = frontier.claim(worker, now=at(seconds))
    assert isinstance(lease, Lease), lease
    return lease


def finish(
    frontier: Frontier, lease: Lease, seconds: float, next_start: float, *, keep: bool
) -> Lease | Wait:
    """Complete ``lease`` at ``seconds`` with the host's next start at ``next_start`` (its delay
    is what lies between), and claim the worker's next lease."""
    completion = Completion(
        lease,
        PageOutcome(200),
        next_fetch_at=at(next_start),
        host_delay_seconds=next_start - seconds,
    )
    recorded, following = frontier.complete_and_claim(
        completion, worker=lease.owner, now=at(seconds), keep_host=keep
    )
    assert recorded
    return following


def two_hosts(frontier: Frontier) -> tuple[Lease, Lease]:
    """slow.example (two URLs) and fast.example (two URLs), one lease of each, slow first."""
    frontier.add(["http://slow.example/1", "http://slow.example/2"], now=T0)
    frontier.add(["http://fast.example/1", "http://fast.example/2"], now=T0)
    first, second = claim(frontier, 0), claim(frontier, 0, "w2")
    slow, fast = sorted((first, second), key=lambda lease: lease.host != "slow.example")
    return slow, fast


def test_p2_a_kept_hosts_next_url_is_leased_for_its_next_start(frontier):
    slow, fast = two_hosts(frontier)
    assert finish(frontier, fast, 0.001, 0.001, keep=False).host == "fast.example"  # due now
    kept = finish(frontier, slow, 0.01, 0.03, keep=True)
    # fast.example is due, but the worker keeps slow.example: its next URL, not before 0.03 s.
    assert isinstance(kept, Lease)
    assert (kept.url, kept.owner, kept.claimed_at) == ("http://slow.example/2", "w1", at(0.03))
    # P1: the slot is taken; P2: the host's next start after this request counts from 0.03 s.
    assert frontier.claim("w3", now=at(0.5)) == Wait(at(60.001), "requests in flight")
    assert frontier.complete(kept, PageOutcome(200), now=at(0.04), next_fetch_at=at(0.06))


def test_p2_a_host_not_kept_waits_for_the_next_claim(frontier):
    slow, _fast = two_hosts(frontier)
    following = finish(frontier, slow, 0.01, 0.03, keep=False)
    assert isinstance(following, Wait)  # fast.example is leased, slow.example not due yet
    assert following == Wait(at(0.03), "politeness delay")


def test_p1_a_host_with_nothing_queued_is_not_kept_and_the_usual_claim_follows(frontier):
    frontier.add(["http://slow.example/1"], now=T0)
    frontier.add(["http://fast.example/1"], now=T0)
    slow = claim(frontier, 0)
    assert slow.host == "slow.example"
    following = finish(frontier, slow, 0.01, 0.03, keep=True)
    assert isinstance(following, Lease)
    assert (following.host, following.claimed_at) == ("fast.example", at(0.01))
    # slow.example has no slot held: a URL queued later is leased at its next start.
    frontier.add(["http://slow.example/2"], now=at(0.02))
    assert frontier.claim("w2", now=at(0.02)) == Wait(at(0.03), "politeness delay")
    assert claim(frontier, 0.03, "w2").url == "http://slow.example/2"


def test_p2_a_host_whose_next_start_another_request_pushed_later_is_not_kept(database):
    # Two requests in flight allowed, the host's delay 1 s: the second, claimed at 1 s, holds
    # the host's next start at 2 s; the first then finishes asking for 1.03 s. Kept, it would
    # start a third request before the second's delay is over.
    frontier = Frontier(
        database, default_delay_seconds=1.0, lease_seconds=60.0, max_in_flight_per_host=2
    )
    frontier.add([f"http://a.example/{n}" for n in range(4)], now=T0)
    first = claim(frontier, 0)
    claim(frontier, 1, "w2")
    following = finish(frontier, first, 1.01, 1.03, keep=True)
    assert following == Wait(at(2), "politeness delay")


@pytest.mark.parametrize("ending", ["released", "excluded"])
def test_p2_a_kept_lease_ended_without_a_request_leaves_the_host_due_at_its_next_start(
    frontier, ending
):
    frontier.add([f"http://slow.example/{n}" for n in range(3)], now=T0)
    kept = finish(frontier, claim(frontier, 0), 0.01, 0.03, keep=True)
    assert isinstance(kept, Lease)
    # Stopped before the start (the worker gives back the lease's claimed_at), or ended
    # without a request (out of scope): the host is due at 0.03 s, not when the lease was taken.
    if ending == "released":
        assert frontier.release(kept, now=at(0.02), next_fetch_at=kept.claimed_at)
    else:
        assert frontier.end(
            frontier.excluded(kept, state="out_of_scope", reason="scope"), now=at(0.02)
        )
    assert frontier.claim("w2", now=at(0.02)) == Wait(at(0.03), "politeness delay")
    assert claim(frontier, 0.03, "w2").host == "slow.example"


def test_p2_with_room_for_two_requests_the_next_after_a_kept_one_waits_its_delay(database):
    # The kept request starts at 0.03 s: the host's next start after it is 0.03 + 0.02, so a
    # second request (room for two) does not start alongside it.
    frontier = Frontier(
        database, default_delay_seconds=0.02, lease_seconds=60.0, max_in_flight_per_host=2
    )
    frontier.add([f"http://a.example/{n}" for n in range(4)], now=T0)
    kept = finish(frontier, claim(frontier, 0), 0.01, 0.03, keep=True)
    assert isinstance(kept, Lease)
    assert kept.claimed_at == at(0.03)
    assert frontier.claim("w2", now=at(0.03)) == Wait(at(0.05), "politeness delay")


@pytest.mark.parametrize("other_due_at", [0.0, 0.02, 0.03])
def test_p2_a_host_is_not_kept_while_another_is_due_by_its_start(frontier, other_due_at):
    # other.example is due before slow.example's next start (or at it): the worker serves it,
    # rather than wait for slow.example while it waits (a thread kept from work it could do).
    frontier.add(["http://slow.example/1", "http://slow.example/2"], now=T0)
    frontier.add(["http://other.example/1", "http://other.example/2"], now=T0)
    slow, other = claim(frontier, 0), claim(frontier, 0, "w2")
    slow, other = sorted((slow, other), key=lambda lease: lease.host != "slow.example")
    assert frontier.complete(other, PageOutcome(200), now=at(0.005), next_fetch_at=at(other_due_at))
    following = finish(frontier, slow, 0.01, 0.03, keep=True)
    if other_due_at <= 0.01:
        assert isinstance(following, Lease)
        assert (following.host, following.claimed_at) == ("other.example", at(0.01))
    else:  # due after now but by the start: not kept, the worker is told to wait for it
        assert following == Wait(at(other_due_at), "politeness delay")


def test_p2_a_host_is_kept_when_the_others_are_due_only_after_its_start(frontier):
    frontier.add(["http://slow.example/1", "http://slow.example/2"], now=T0)
    frontier.add(["http://other.example/1", "http://other.example/2"], now=T0)
    slow, other = claim(frontier, 0), claim(frontier, 0, "w2")
    slow, other = sorted((slow, other), key=lambda lease: lease.host != "slow.example")
    assert frontier.complete(other, PageOutcome(200), now=at(0.005), next_fetch_at=at(0.031))
    kept = finish(frontier, slow, 0.01, 0.03, keep=True)
    assert isinstance(kept, Lease)
    assert (kept.host, kept.claimed_at) == ("slow.example", at(0.03))
