"""A worker process for the concurrency and crash tests: claims and completes until done.

Usage: hammer_worker.py DATABASE LOG [--threads N] [--delay S] [--work S] [--together]
                        [--ahead S]

``--together``: each thread records a page with its next claim (``Frontier.record`` with
``claim_for``, as the crawl does), so that on SQLite the pages of several threads share a
transaction (group commit).
``--ahead``: with ``--together``, claims may take a host due that many seconds later, and the
thread waits for its lease's start before its "request", as the crawl's workers do.

Appends one JSON line per event to LOG, flushed at once: {"event": "start"|"done", "url_id",
"host", "at"} with wall-clock times, so the test can check politeness from the log.
"""

from __future__ import annotations

import argparse
import json
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from politecrawl.store import Frontier, Lease, Wait, ends, open_database, worker_id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database")
    parser.add_argument("log")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--delay", type=float, default=0.02)
    parser.add_argument("--work", type=float, default=0.002)
    parser.add_argument("--together", action="store_true")
    parser.add_argument("--ahead", type=float, default=0.0)
    args = parser.parse_args()
    database = open_database(args.database)
    frontier = Frontier(database, default_delay_seconds=args.delay, lease_seconds=30)
    lock = threading.Lock()
    log = Path(args.log).open("a", buffering=1)  # noqa: SIM115 (closed at exit; line-buffered)

    def write(event: str, lease: Lease, at: datetime) -> None:
        line = json.dumps(
            {"event": event, "url_id": lease.url_id, "host": lease.host, "at": at.timestamp()}
        )
        with lock:
            log.write(line + "\n")
            log.flush()

    def work(name: str) -> None:
        me = worker_id(name)
        while True:
            now = datetime.now(UTC)
            lease = frontier.claim(me, now=now)
            if not isinstance(lease, Lease):
                if lease.until is None:
                    return
                time.sleep(min(max((lease.until - now).total_seconds(), 0.001), 0.05))
                continue
            write("start", lease, now)
            time.sleep(args.work)  # the "request"
            end = datetime.now(UTC)
            if frontier.record(
                ends.Completed(lease, ends.PageOutcome(200), end + timedelta(seconds=args.delay)),
                now=end,
            ).recorded:
                write("done", lease, end)

    def work_together(name: str) -> None:
        me = worker_id(name)
        ahead = args.ahead
        claimed: Lease | Wait = frontier.claim(me, now=datetime.now(UTC), ahead_seconds=ahead)
        while True:
            if not isinstance(claimed, Lease):
                if claimed.until is None:
                    return
                now = datetime.now(UTC)
                time.sleep(min(max((claimed.until - now).total_seconds() - ahead, 0.001), 0.05))
                claimed = frontier.claim(me, now=datetime.now(UTC), ahead_seconds=ahead)
                continue
            lease = claimed
            if ahead:
                # The lease starts when its host is due; the log gets the moment it really did.
                time.sleep(max((lease.claimed_at - datetime.now(UTC)).total_seconds(), 0.0))
                write("start", lease, max(lease.claimed_at, datetime.now(UTC)))
            else:
                write("start", lease, lease.claimed_at)
            time.sleep(args.work)  # the "request"
            end = datetime.now(UTC)
            completion = ends.Completed(
                lease, ends.PageOutcome(200), next_fetch_at=end + timedelta(seconds=args.delay)
            )
            ended = frontier.record(completion, now=end, claim_for=me, ahead_seconds=ahead)
            recorded, claimed = ended.recorded, ended.following
            if recorded:
                write("done", lease, end)

    target = work_together if args.together else work
    threads = [threading.Thread(target=target, args=(f"t{i}",)) for i in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    database.close()


if __name__ == "__main__":
    main()
