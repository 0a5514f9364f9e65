"""A worker that dies stops the crawl loudly, and the crawl resumes from the database [C5].

Before, a worker thread killed by a database error printed a traceback and vanished: the crawl
went on with fewer workers, its page stayed leased until the lease expired, and was then
fetched again.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
import time

import pytest
from tests.site import TrapGuard, audit, build_site, serve
from tests.test_crawl_e2e import DELAY, crawl_config

from politecrawl import Crawler
from politecrawl.crawl import crawler as crawler_module, workers as workers_module
from politecrawl.errors import StoreError
from politecrawl.store import Frontier, ends

GUARD = TrapGuard()


@pytest.fixture
def web():
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as running:
        yield running


@pytest.mark.timeout(300)
def test_c5_a_database_failure_in_a_worker_stops_the_crawl_and_resume_finishes_it(
    web, tmp_path, monkeypatch
):
    database = str(tmp_path / "crawl.db")
    record = Frontier.record
    calls = 0
    lock = threading.Lock()

    def failing_on_the_fifth(self, ending, *args, **kwargs):
        nonlocal calls
        # a page's record (robots.txt, exclusions: a ends.LeaseEnd; sitemaps and checks: no page)
        if isinstance(ending, ends.Completed) and ending.lease.kind == "page":
            with lock:
                calls += 1
                if calls == 5:
                    raise sqlite3.OperationalError("disk I/O error")
        return record(self, ending, *args, **kwargs)

    def finish_run_failing_too(*args, **kwargs):
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(Frontier, "record", failing_on_the_fifth)
    monkeypatch.setattr(crawler_module, "finish_run", finish_run_failing_too)
    # Leases outlast the test: only giving the failed worker's lease back lets the resumed
    # crawl below fetch its page at once.
    config = crawl_config(database, workers=3, lease_seconds=3600)
    with Crawler(config) as crawler:
        crawler.add_seeds(web.seeds)
        with pytest.raises(StoreError, match=r"crawl database failed: disk I/O error.*resume"):
            crawler.run()
        assert crawler.summary.stopped_because == "failed"
        first_run = crawler.summary.pages
    assert 5 <= first_run < 40  # stopped soon after the failure, not at the end

    monkeypatch.undo()
    with Crawler(crawl_config(database, lease_seconds=3600)) as crawler:
        summary = crawler.run()
    assert summary.stopped_because in ("finished", "only deferred work left")
    truth = web.truth(guard=GUARD)
    result = audit(web.log, truth, delays=truth.delays(DELAY))
    assert not result.missed, result.report()
    assert not result.forbidden, result.report()
    assert not result.robots_first, result.report()
    assert not result.overlaps, result.report()
    assert not result.gap_violations, result.report()
    # Only the page whose record failed was fetched again, and at once: its lease went back.
    assert len(result.duplicates) == 1, result.report()


def test_a_bug_in_a_worker_is_raised_as_it_is(web, tmp_path, monkeypatch):
    record = Frontier.record

    def broken(self, end, *, claim_for=None, **kwargs):
        if claim_for is not None:  # the crawl loop's record; the worker's give-back works
            raise RuntimeError("a bug in the crawl loop")
        return record(self, end, **kwargs)

    monkeypatch.setattr(Frontier, "record", broken)
    database = str(tmp_path / "crawl.db")
    with Crawler(crawl_config(database, workers=2)) as crawler:
        crawler.add_seeds(web.seeds)
        with pytest.raises(RuntimeError, match="a bug in the crawl loop"):
            crawler.run()
    # The page it was recording is failed with the error, not queued for the same bug again.
    with sqlite3.connect(database) as connection:
        rows = connection.execute("SELECT error FROM urls WHERE error IS NOT NULL").fetchall()
    errors = [row[0] for row in rows]
    assert errors
    assert set(errors) == {"internal error: RuntimeError: a bug in the crawl loop"}


@pytest.mark.timeout(120)
def test_leaving_the_iterator_early_with_a_full_event_queue_does_not_hang(
    web, tmp_path, monkeypatch
):
    """The consumer stops reading (``break``) while workers wait to hand out more pages: the
    crawl must still stop, its workers end, and what they fetched stays recorded."""

    class TinyQueue(queue.Queue):
        def __init__(self, maxsize: int = 0) -> None:
            super().__init__(maxsize=1)

    monkeypatch.setattr(workers_module.queue, "Queue", TinyQueue)
    database = str(tmp_path / "crawl.db")
    with Crawler(crawl_config(database, workers=4)) as crawler:
        crawler.add_seeds(web.seeds)
        pages = crawler.crawl()
        for _ in pages:
            time.sleep(0.5)  # let the workers fill the queue and block on it
            break
        pages.close()  # what leaving a for loop over it does when the generator is collected
    with sqlite3.connect(database) as connection:
        leased = connection.execute("SELECT count(*) FROM urls WHERE state = 'leased'").fetchone()
        done = connection.execute("SELECT count(*) FROM urls WHERE state = 'done'").fetchone()
    assert leased == (0,)
    assert done[0] >= 2
