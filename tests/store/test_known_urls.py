"""Links to URLs the process knows the database holds skip the insert, and lose nothing [C2, L1].

On SQLite and PostgreSQL: a known URL's link is still recorded for reports, by its id; a URL
inserted by a transaction that rolled back is inserted again, and its id is not trusted; a
full map of ids starts over; link rows keep their text, line and flags, whatever the number
of targets to look up.
"""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from politecrawl.store import Frontier, Lease, LinkOut, ends
from politecrawl.store.frontier.known_urls import KnownUrlIds
from politecrawl.store.frontier.link_sorting import sort_links
from politecrawl.urls import url_key

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _complete_next(frontier: Frontier, seconds: float, links: list[str | LinkOut]) -> Lease:
    """Claim the next URL and complete it with ``links`` (a URL alone is a plain link)."""
    lease = frontier.claim("w1", now=T0 + timedelta(seconds=seconds))
    assert isinstance(lease, Lease), lease
    frontier.record(
        ends.Completed(
            lease,
            ends.PageOutcome(200, content_type="text/html"),
            T0 + timedelta(seconds=seconds),
            links=[LinkOut(link) if isinstance(link, str) else link for link in links],
        ),
        now=T0 + timedelta(seconds=seconds),
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
    frontier.add(["http://a.example/"], now=T0)
    lost = "http://a.example/lost"

    def link_then_fail(connection):
        links = sort_links([LinkOut(lost)])
        frontier._enqueuer.record_links(connection, 1, 0, links, T0)
        assert url_key(lost) not in frontier._enqueuer.known  # not before the commit
        raise RuntimeError("the transaction fails after the insert")

    with pytest.raises(RuntimeError):
        frontier._write(link_then_fail)
    assert url_key(lost) not in frontier._enqueuer.known
    _complete_next(frontier, 1, [lost])
    with database.engine.connect() as connection:
        lost_id = connection.execute(text(f"SELECT id FROM urls WHERE url = '{lost}'")).scalar()
    assert lost_id is not None
    assert frontier._enqueuer.known.get(url_key(lost)) == lost_id
    assert _links_by_page(database) == {"http://a.example/": [lost]}


def test_c2_l1_link_rows_keep_text_line_and_flags_past_the_longest_id_lookup(database):
    frontier = Frontier(database, default_delay_seconds=0.0, lease_seconds=60.0)
    frontier.add(["http://a.example/"], now=T0)
    many = [f"http://a.example/p{index}" for index in range(300)]  # past 256: two lookups
    _complete_next(
        frontier,
        0,
        [
            LinkOut("http://a.example/p0", text="first", line=7),
            *many[1:],
            LinkOut("http://a.example/style.css", resource=True),
            LinkOut("http://a.example/p1", nofollow=True),  # followed once: followable
        ],
    )
    # p0 next: its links are all known by now
    second_page = _complete_next(frontier, 0, [LinkOut(url, nofollow=True) for url in many[:4]])
    assert second_page.url == many[0]
    with database.engine.connect() as connection:
        rows = connection.execute(
            text(
                "SELECT f.url, t.url, l.text, l.line, l.nofollow, l.resource FROM links l "
                "JOIN urls f ON f.id = l.from_id JOIN urls t ON t.id = l.to_id"
            )
        ).all()
    first = {target: rest for page, target, *rest in rows if page == "http://a.example/"}
    assert len(first) == 301
    assert first[many[0]] == ["first", 7, False, False]
    assert first[many[1]] == [None, None, False, False]  # nofollow once, followed once
    assert first[many[2]] == [None, None, False, False]
    assert first["http://a.example/style.css"] == [None, None, False, True]
    second = {target: rest for page, target, *rest in rows if page == many[0]}
    # A link to the page itself is not a link; the others keep nofollow, with no text or line.
    assert second == {url: [None, None, True, False] for url in many[1:4]}


def test_c2_known_ids_are_shared_only_once_committed_and_start_over_when_full():
    known = KnownUrlIds(limit=3)
    known.met({b"a": 1, b"b": 2})
    assert b"a" not in known  # not committed yet
    known.committed()
    assert (known.get(b"a"), known.get(b"b")) == (1, 2)
    known.met({b"c": 3, b"d": 4})
    known.committed()  # four would pass the limit: the map starts over with these
    assert b"a" not in known
    assert known.get(b"d") == 4
    known.met({b"e": 5})
    known.rolled_back()
    known.committed()
    assert known.get(b"e") is None
    known.met({key: index for index, key in enumerate((b"f", b"g", b"h", b"i", b"j"))})
    known.committed()  # more than the limit at once: the last ones are kept
    assert [known.get(key) for key in (b"f", b"g", b"h", b"i", b"j")] == [None, None, 2, 3, 4]


def test_c2_ids_met_by_one_thread_become_known_only_when_that_thread_commits():
    known = KnownUrlIds()
    met = threading.Event()
    commit = threading.Event()

    def other_thread() -> None:
        known.met({b"theirs": 7})
        met.set()
        commit.wait(10)
        known.committed()

    thread = threading.Thread(target=other_thread)
    thread.start()
    assert met.wait(10)
    known.met({b"mine": 8})
    known.committed()  # this thread's transaction: not the other's
    assert (known.get(b"mine"), known.get(b"theirs")) == (8, None)
    known.rolled_back()  # nothing of this thread's is pending; the other's stays pending
    commit.set()
    thread.join(10)
    assert known.get(b"theirs") == 7
