"""Claims under concurrency and after crashes: no URL twice, politeness held [C5, P1, P2]."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import text

from conftest import postgres_schema_url, require_postgres
from politecrawl.store import Frontier, open_database

WORKER = Path(__file__).with_name("hammer_worker.py")
HOSTS = 50
PAGES_PER_HOST = 8
DELAY = 0.02


def seed(target: str, hosts: int = HOSTS, pages: int = PAGES_PER_HOST) -> int:
    database = open_database(target)
    urls = [f"http://h{h}.example/p{p}" for h in range(hosts) for p in range(pages)]
    Frontier(database).add(urls, now=datetime.now(UTC))
    with database.engine.begin() as connection:
        # Every host gets the test's delay (hosts are created with the frontier's default).
        connection.execute(text("UPDATE hosts SET delay_seconds = :d"), {"d": DELAY})
    database.close()
    return len(urls)


def read_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def check_politeness(events: list[dict]) -> float:
    """No host with two requests at once, none closer than DELAY; returns the smallest gap."""
    by_host: dict[str, list[tuple[float, str]]] = defaultdict(list)
    for event in events:
        by_host[event["host"]].append((event["at"], event["event"]))
    smallest = float("inf")
    for host, timeline in by_host.items():
        timeline.sort()
        busy_since = None
        last_end = None
        for at, kind in timeline:
            if kind == "start":
                assert busy_since is None, f"{host}: two requests in flight"
                if last_end is not None:
                    gap = at - last_end
                    assert gap >= DELAY - 1e-3, f"{host}: {gap:.4f}s between requests"
                    smallest = min(smallest, gap)
                busy_since = at
            else:
                busy_since = None
                last_end = at
    return smallest


def run_workers(
    target: str,
    log: Path,
    processes: int,
    threads: int,
    *,
    together: bool = False,
    ahead: float = 0.0,
) -> None:
    children = [
        subprocess.Popen(
            [
                sys.executable,
                str(WORKER),
                target,
                str(log),
                "--threads",
                str(threads),
                "--delay",
                str(DELAY),
                *(["--together"] if together else []),
                *(["--ahead", str(ahead)] if ahead else []),
            ]
        )
        for _ in range(processes)
    ]
    for child in children:
        assert child.wait(timeout=120) == 0


def check_all_done_once(target: str, events: list[dict], total: int, kills: int = 0) -> None:
    """Every URL done in the database; none recorded twice. A kill between a commit and the
    log line loses that line, so up to ``kills`` done events may be missing from the log."""
    done = Counter(event["url_id"] for event in events if event["event"] == "done")
    assert total - kills <= len(done) <= total
    assert max(done.values()) == 1
    database = open_database(target)
    with database.engine.connect() as connection:
        states = dict(
            connection.execute(text("SELECT state, count(*) FROM urls GROUP BY state")).all()
        )
        in_flight = connection.execute(text("SELECT max(in_flight) FROM hosts")).scalar()
    database.close()
    assert states == {"done": total}
    assert in_flight == 0


@pytest.mark.parametrize(
    ("processes", "threads", "together", "ahead"),
    [
        (1, 8, False, 0.0),
        (3, 2, False, 0.0),
        (1, 8, True, 0.0),
        (3, 2, True, 0.0),
        (3, 2, True, 0.01),
    ],
    ids=[
        "eight-threads",
        "three-processes",
        "eight-threads-group-commit",
        "three-processes-group-commit",
        "three-processes-claiming-ahead",
    ],
)
def test_p1_threads_and_processes_on_one_sqlite_file(tmp_path, processes, threads, together, ahead):
    """``together``: pages recorded with the next claim, several threads' in one
    transaction (group commit): each still done once, no URL claimed twice, the pace held.
    ``ahead``: claims take hosts due up to that much later, as the crawl's workers do (P2);
    with fewer hosts than threads, so that most claims are made ahead."""
    target = str(tmp_path / "crawl.db")
    total = seed(target, hosts=4, pages=40) if ahead else seed(target)
    log = tmp_path / "events.jsonl"
    run_workers(target, log, processes=processes, threads=threads, together=together, ahead=ahead)
    events = read_log(log)
    check_all_done_once(target, events, total)
    starts = Counter(event["url_id"] for event in events if event["event"] == "start")
    assert max(starts.values()) == 1  # no URL claimed twice
    check_politeness(events)


@pytest.mark.postgres
@pytest.mark.parametrize("ahead", [0.0, 0.01], ids=["on-time", "claiming-ahead"])
def test_p1_four_processes_on_postgres(tmp_path, ahead):
    require_postgres()
    for target in postgres_schema_url():
        total = seed(target, hosts=4, pages=40) if ahead else seed(target)
        log = tmp_path / "events.jsonl"
        run_workers(target, log, processes=4, threads=2, together=bool(ahead), ahead=ahead)
        events = read_log(log)
        check_all_done_once(target, events, total)
        starts = Counter(event["url_id"] for event in events if event["event"] == "start")
        assert max(starts.values()) == 1
        check_politeness(events)


def _events(log: Path) -> int:
    return len(log.read_text().splitlines()) if log.exists() else 0


def _wait_for_events(log: Path, child: subprocess.Popen, *, more_than: int) -> None:
    deadline = time.monotonic() + 60
    while child.poll() is None and _events(log) <= more_than and time.monotonic() < deadline:
        time.sleep(0.002)


def test_c5_killed_with_sigkill_and_resumed(tmp_path):
    target = str(tmp_path / "crawl.db")
    total = seed(target)
    log = tmp_path / "events.jsonl"
    rng = random.Random(7)
    kills = 0
    for _ in range(5):
        child = subprocess.Popen(
            [sys.executable, str(WORKER), target, str(log), "--threads", "1", "--delay", str(DELAY)]
        )
        # Kill mid-work, a few URLs after this child's first: a fixed sleep let a fast machine
        # finish the whole frontier before the third kill.
        _wait_for_events(log, child, more_than=_events(log) + rng.randint(1, 20))
        if child.poll() is None:
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            kills += 1
    run_workers(target, log, processes=1, threads=2)  # resume to the end
    events = read_log(log)
    assert kills == 5
    # Every URL completed exactly once; a URL may have been started again only if a kill
    # interrupted it (one in flight per kill, the worker being single-threaded).
    starts = Counter(event["url_id"] for event in events if event["event"] == "start")
    assert set(starts) == set(range(1, total + 1))
    assert sum(starts.values()) - total <= kills
    check_all_done_once(target, events, total, kills)
