"""Links to URLs the process knows the database holds skip the insert, and lose nothing [C2, L1].

On SQLite and PostgreSQL: a known URL's link is still recorded for reports, a URL inserted
by a transaction that rolled back is inserted again, and a full set of keys starts over.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from politecrawl.store import Frontier, Lease, LinkOut, PageOutcome
from politecrawl.store.known_urls import KnownUrlKeys
from politecrawl.urls import url_key

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _complete_next(frontier: Frontier, seconds: float, links: list[str]) -> Lease:
    lease = frontier.claim("w1", now=T0 + timedelta(seconds=seconds))
    assert isinstance(lease, Lease), lease
    frontier.complete(
        lease,
        PageOutcome(200, content_type="text/html"),
        now=T0 + timedelta(seconds=seconds),
        next_fetch_at=T0 + timedelta(seconds=seconds),
        links=[LinkOut(url) for url in links],
    )
    return lease


def _links_by_page(database) -> dict[str, list[str]]:
    with database.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT f.url, t.url FROM links l JOIN urls f ON f.id = l.from_id "
                "JOIN urls t ON t.id = l.to_id ORDER BY f.id, t.id"
            )
        ).all()
    found: dict[str, list[str]] = {}
    for page, target in rows:
        found.setdefault(page, []).append(target)
    return found


def test_c2_l1_links_to_known_urls_are_recorded_and_nothing_is_queued_twice(database):
    frontier = Frontier(database, default_delay_seconds=0.0, lease_seconds=60.0)
    menu = [f"http://a.example/{name}" for name in ("", "about", "docs")]
    frontier.add(["http://a.example/"], now=T0)
    pages = [_complete_next(frontier, i, menu) for i in range(3)]
    assert all(url_key(url) in frontier._enqueuer.known for url in menu)
    with database.engine.connect() as connection:
        count = connection.execute(text("SELECT count(*) FROM urls")).scalar()
    assert count == 3
    links = _links_by_page(database)
    # Each page records its links to the other two (a link to itself is not a link).
    assert links == {page.url: [url for url in menu if url != page.url] for page in pages}


def test_c2_a_url_inserted_by_a_transaction_that_rolled_back_is_inserted_again(database):
    frontier = Frontier(database, default_delay_seconds=0.0, lease_seconds=60.0)

    def add_then_fail(connection):
        frontier._enqueuer.add(connection, ["http://a.example/lost"], now=T0, depth=0)
        raise RuntimeError("the transaction fails after the insert")

    with pytest.raises(RuntimeError):
        frontier._write(add_then_fail)
    assert url_key("http://a.example/lost") not in frontier._enqueuer.known
    result = frontier.add(["http://a.example/lost"], now=T0)
    assert (result.added, result.known) == (1, 0)
    assert url_key("http://a.example/lost") in frontier._enqueuer.known


def test_c2_known_keys_are_shared_only_once_committed_and_start_over_when_full():
    known = KnownUrlKeys(limit=3)
    known.met([b"a", b"b"])
    assert b"a" not in known  # not committed yet
    known.committed()
    assert b"a" in known
    assert b"b" in known
    known.met([b"c", b"d"])
    known.committed()  # five would pass the limit: the set starts over with these
    assert b"a" not in known
    assert b"d" in known
    known.met([b"e"])
    known.rolled_back()
    known.committed()
    assert b"e" not in known
    known.met([b"f", b"g", b"h", b"i", b"j"])  # more than the limit at once
    known.committed()
    assert [key in known for key in (b"f", b"g", b"h", b"i", b"j")] == [
        False,
        False,
        True,
        True,
        True,
    ]
