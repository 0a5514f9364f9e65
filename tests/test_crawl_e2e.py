"""The crawler end to end against the loopback test web, judged from the servers' own log.

[O1-O8, T1-T7, P1-P3, C1-C5] Nothing disallowed requested; robots.txt first on every origin;
no host with two requests in flight or two closer than its delay; every allowed, reachable page
fetched exactly once; nothing reachable only through nofollow fetched; noindex never indexable.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from tests.site import TrapGuard, audit, build_site, serve

from politecrawl import CrawlConfig, Crawler

GUARD = TrapGuard()  # the truth's trap guard; the crawler is configured to match it
DELAY = 0.05


def crawl_config(database: str, **changes) -> CrawlConfig:
    values = {
        "database": database,
        "delay_seconds": DELAY,
        "workers": 6,
        "robots_retry_seconds": 0.2,
        "robots_max_attempts": 3,
        "max_url_length": GUARD.max_url_length,
        "max_path_segments": GUARD.max_path_depth,
        "max_repeated_segment": GUARD.max_segment_repeats,
        "max_query_bytes": GUARD.max_query_length,
        "response_timeout_seconds": 30.0,  # on a loaded machine a time-out would mean a retry
    }
    values.update(changes)
    return CrawlConfig(**values)


@pytest.fixture
def fast_web():
    with serve(build_site(crawl_delay_seconds=0.1, slow_seconds=0.3)) as running:
        yield running


@pytest.mark.timeout(300)
def test_full_crawl_obeys_robots_meta_and_politeness(fast_web, tmp_path, capsys):
    web = fast_web
    pages = []
    with Crawler(crawl_config(str(tmp_path / "crawl.db"))) as crawler:
        crawler.add_seeds(web.seeds)
        pages = list(crawler.crawl())
        summary = crawler.summary
    truth = web.truth(guard=GUARD)
    result = audit(web.log, truth, delays=truth.delays(DELAY))
    assert result.ok, result.report()
    indexable = {page.url for page in pages if page.indexable}
    assert indexable <= set(truth.indexable)
    assert not indexable & set(truth.noindex)  # T5: noindex never handed out as indexable
    assert set(truth.indexable) - indexable == set()
    assert summary.stopped_because in ("finished", "only deferred work left")
    with capsys.disabled():
        gaps = sorted(result.min_gap_seconds.items())
        print(
            f"\ne2e: {len(pages)} pages yielded, {len(web.log)} requests, "
            f"{summary.excluded_by_robots} excluded by robots, deferred {summary.deferred}, "
            f"min gap per host: " + ", ".join(f"{h}={g:.3f}s" for h, g in gaps)
        )


@pytest.mark.timeout(400)
def test_c5_killed_with_sigkill_and_resumed_fetches_each_page_once(fast_web, tmp_path):
    web = fast_web
    seeds = tmp_path / "seeds.txt"
    seeds.write_text("\n".join(web.seeds))
    database = str(tmp_path / "crawl.db")
    guard = crawl_config(database)
    settings = [
        f"{name}={guard.value(name)}"
        for name in (
            "workers",
            "robots_retry_seconds",
            "robots_max_attempts",
            "max_url_length",
            "max_path_segments",
            "max_repeated_segment",
            "max_query_bytes",
            "response_timeout_seconds",
        )
    ]
    command = [
        sys.executable,
        str(Path(__file__).with_name("crawl_process.py")),
        database,
        str(seeds),
        str(DELAY),
        *settings,
    ]
    rng = random.Random(4)
    kills = 0
    for _ in range(4):
        child = subprocess.Popen(command)
        time.sleep(1.5 + rng.random() * 2.5)  # start-up takes about a second; then mid-crawl
        if child.poll() is None:
            child.send_signal(signal.SIGKILL)
            child.wait()
            kills += 1
    finished = subprocess.run(command, timeout=240, check=False)
    assert finished.returncode == 0
    assert kills >= 3
    truth = web.truth(guard=GUARD)
    result = audit(web.log, truth, delays=truth.delays(DELAY))
    # The same pages as an uninterrupted crawl; a page fetched twice only if a kill cut it off
    # in flight (at most one per worker per kill); politeness held across the restarts.
    in_flight_at_kills = kills * guard.crawl.workers
    assert len(result.duplicates) <= in_flight_at_kills, result.report()
    assert not result.forbidden, result.report()
    assert not result.missed, result.report()
    assert not result.robots_first, result.report()
    assert not result.overlaps, result.report()
    assert not result.gap_violations, result.report()
    print(
        f"\ncrash test: {kills} kills, {len(web.log)} requests, "
        f"{len(result.duplicates)} fetched again (limit {in_flight_at_kills})"
    )


def test_callbacks_limits_stop_and_resume(fast_web, tmp_path):
    web = fast_web
    seeds = [web.url("robots-404", "/"), web.url("friend", "/")]
    database = str(tmp_path / "crawl.db")
    seen, errors, excluded = [], [], []
    config = crawl_config(database, max_pages=4, workers=2)
    with Crawler(
        config, on_page=seen.append, on_error=errors.append, on_excluded=excluded.append
    ) as crawler:
        crawler.add_seeds(seeds)
        summary = crawler.run()
    assert summary.stopped_because == "max_pages"
    assert (
        4 <= summary.pages <= 4 + config.crawl.workers
    )  # in-flight requests finish after the limit
    assert len(seen) + len(errors) == summary.pages
    assert summary.queued > 0

    # stop() from another thread: claiming stops, in-flight work is recorded.
    with Crawler(crawl_config(database)) as crawler:
        pages = crawler.crawl()
        first = next(pages)
        assert first.url
        crawler.stop()
        rest = list(pages)
        assert crawler.summary.stopped_because in ("stopped", "finished")
        assert crawler.stats().by_state["leased"] == 0  # no lease left waiting to expire
    stopped_total = 1 + len(rest)

    # Re-opening the same database continues the crawl to the end (C5), nothing twice.
    with Crawler(crawl_config(database)) as crawler:
        summary = crawler.run()
    assert summary.stopped_because in ("finished", "only deferred work left")
    truth = web.truth(guard=GUARD, seeds=seeds)
    result = audit(web.log, truth, delays=truth.delays(DELAY))
    assert result.ok, result.report()
    assert stopped_total >= 1
    assert all(item.reason for item in excluded)  # every exclusion says why


def test_c5_interrupt_stops_the_crawl_and_records_it_as_interrupted(fast_web, tmp_path):
    # From another thread (a helper process's signal watcher) as the crawl runs, and before it
    # starts: either way claiming stops, nothing stays leased, and the run says interrupted.
    database = tmp_path / "crawl.db"
    with Crawler(crawl_config(str(database))) as crawler:
        crawler.add_seeds(fast_web.seeds)
        for count, _ in enumerate(crawler.crawl(), start=1):
            if count == 3:
                threading.Thread(target=crawler.interrupt).start()
        assert crawler.summary.stopped_because == "interrupted"
        assert crawler.stats().by_state.get("leased", 0) == 0
        assert crawler.stats().by_state.get("queued", 0) > 0  # it stopped early
        crawler.interrupt()  # before the next crawl starts: it stops at once
        assert list(crawler.crawl()) == []
        assert crawler.summary.stopped_because == "interrupted"
        third = crawler.crawl()  # and only that once
        assert next(third, None) is not None
        third.close()
    with sqlite3.connect(database) as connection:
        outcomes = [row[0] for row in connection.execute("SELECT outcome FROM crawl_runs")]
    assert outcomes[:2] == ["interrupted", "interrupted"]


@pytest.mark.parametrize("stop_signal", [signal.SIGTERM, signal.SIGINT])
def test_c5_a_signal_during_the_callers_loop_records_the_run_as_interrupted(
    fast_web, tmp_path, stop_signal
):
    # The signal arrives while the caller's loop body runs, not inside the crawl generator:
    # the KeyboardInterrupt is raised in the caller's code and the generator sees only
    # GeneratorExit, yet the run is recorded as interrupted and nothing stays leased.
    database = tmp_path / "crawl.db"
    with Crawler(crawl_config(str(database))) as crawler:
        crawler.add_seeds(fast_web.seeds)
        pages = crawler.crawl(handle_signals=True)

        def signal_from_the_loop_body() -> None:
            for _ in pages:
                os.kill(os.getpid(), stop_signal)

        with pytest.raises(KeyboardInterrupt):
            signal_from_the_loop_body()
        pages.close()
        assert crawler.summary.stopped_because == "interrupted"
        assert crawler.stats().by_state.get("leased", 0) == 0
    with sqlite3.connect(database) as connection:
        outcomes = [row[0] for row in connection.execute("SELECT outcome FROM crawl_runs")]
    assert outcomes == ["interrupted"]
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL  # the handlers are put back
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
