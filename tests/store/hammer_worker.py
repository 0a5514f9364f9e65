"""A worker process for the concurrency and crash tests: claims and completes until done.

Usage: hammer_worker.py DATABASE LOG [--threads N] [--delay S] [--work S]

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

from politecrawl.store import Frontier, Lease, PageOutcome, open_database, worker_id


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("database")
    parser.add_argument("log")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--delay", type=float, default=0.02)
    parser.add_argument("--work", type=float, default=0.002)
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
            if frontier.complete(
                lease, PageOutcome(200), now=end, next_fetch_at=end + timedelta(seconds=args.delay)
            ):
                write("done", lease, end)

    threads = [threading.Thread(target=work, args=(f"t{i}",)) for i in range(args.threads)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    database.close()


if __name__ == "__main__":
    main()
