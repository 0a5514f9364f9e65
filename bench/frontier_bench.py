"""Benchmark: the crawl database's frontier on SQLite (issue targets in brackets).

Run on demand, never as a test: ``.venv/bin/python bench/frontier_bench.py`` (a few minutes;
``--quick`` for a smaller run). Each figure is printed; nothing is asserted.

* enqueue: new URLs per second, added in batches of 5,000 over 1,000 hosts [>= 20,000/s].
* claim+complete: URLs per second across 1,000 ready hosts (delay 0), one worker, both as
  separate ``claim`` and ``complete`` transactions and as ``complete_and_claim`` (one commit per
  page, what the crawl loop uses) [>= 2,000/s].
* scaling: the claim+complete rate with 10,000 queued URLs and with 1,000,000 [within 2x: the
  scheduler must not scan the URL table].
* with links: ``complete_and_claim`` where each page brings ``LINKS`` links, ``NEW_LINKS`` of
  them to URLs not seen before and the rest to queued ones (a site's menu), at 1,000,000 queued:
  the frontier's whole cost per page, claim + complete + links [< 0.5 ms].
* log pages written: the WAL frames (changed 4 KiB pages) each page's commit writes, counted
  over 100 more pages from an emptied log (the bench's opening claim and any housekeeping
  transaction included: a frame or two in all).
* the least SQLite work: the same pages on a minimal schema through Python's ``sqlite3`` alone
  (``sqlite_floor.py``), in the same run, with its log pages a page, and politecrawl's page as
  a multiple of it: the yardstick for the target above, which is an absolute time on machines
  that differ by 2x.
* SQLite's share: one more pass of "with links" under cProfile, summing the time inside the
  ``sqlite3`` module's C functions (the statements and the commit: SQLite's work for this
  schema, one transaction a page, with the driver's binding of parameters and building of rows,
  and the WAL checkpoints some commits run). cProfile charges each call its hook's own overhead
  (well under a microsecond, some 30 calls a page) and inflates the Python around the calls
  far more: the unprofiled page costs what the line above says.
* memory: the peak RSS of this process while holding the 1,000,000-URL frontier [< 200 MB].

Every database is a fresh file in a temporary directory.
"""

from __future__ import annotations

import argparse
import cProfile
import platform
import pstats
import resource
import statistics
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from politecrawl.store import Frontier, Lease, LinkOut, ends, open_database
from sqlite_floor import log_frames_a_page, measure_floor

HOSTS = 1_000
BATCH = 5_000
LINKS = 40
NEW_LINKS = 4


def urls(count: int, start: int = 0) -> list[str]:
    return [
        f"http://h{i % HOSTS}.example/section/{i // HOSTS}/page-{i}.html"
        for i in range(start, start + count)
    ]


def fill(frontier: Frontier, count: int) -> float:
    """Add ``count`` URLs in batches; returns URLs per second."""
    now = datetime.now(UTC)
    started = time.perf_counter()
    for start in range(0, count, BATCH):
        frontier.add(urls(min(BATCH, count - start), start), now=now)
    return count / (time.perf_counter() - started)


def claim_complete_rate(frontier: Frontier, pairs: int) -> float:
    now = datetime.now(UTC)
    started = time.perf_counter()
    for _ in range(pairs):
        lease = frontier.claim("bench", now=now)
        assert isinstance(lease, Lease), lease
        frontier.record(ends.Completed(lease, ends.PageOutcome(200), now), now=now)
    return pairs / (time.perf_counter() - started)


def complete_and_claim_rate(
    frontier: Frontier,
    pairs: int,
    *,
    new_links_from: int | None = None,
    threads: int = 1,
    profile: cProfile.Profile | None = None,
) -> float:
    """Pages a second through ``complete_and_claim``; with ``new_links_from``, each page brings
    ``LINKS`` links: ``NEW_LINKS`` new URLs (numbered from there on) and the rest to URLs queued
    already. ``threads``: that many workers at once, as a crawl's threads (their pages share
    transactions: group commit). ``profile``: profiles the (one) worker thread."""
    now = datetime.now(UTC)
    menu = [LinkOut(url, canonical=True) for url in urls(LINKS - NEW_LINKS)]
    share = pairs // threads
    assert profile is None or threads == 1, "one Profile is not to be shared between threads"

    def work(number: int) -> None:
        worker = f"bench{number}"
        lease = frontier.claim(worker, now=now)
        if profile is not None:
            profile.enable()  # this thread only (before Python 3.12's sys.monitoring)
        for page in range(number * share, (number + 1) * share):
            assert isinstance(lease, Lease), lease
            links: tuple[LinkOut, ...] = ()
            if new_links_from is not None:
                new = urls(NEW_LINKS, new_links_from + page * NEW_LINKS)
                links = (*menu, *(LinkOut(url, canonical=True) for url in new))
            completion = ends.Completed(
                lease, ends.PageOutcome(200), next_fetch_at=now, links=links
            )
            ended = frontier.record(completion, now=now, claim_for=worker)
            _, lease = ended.recorded, ended.following
        if profile is not None:
            profile.disable()

    workers = [threading.Thread(target=work, args=(number,)) for number in range(threads)]
    started = time.perf_counter()
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    return share * threads / (time.perf_counter() - started)


def sqlite_seconds(profile: cProfile.Profile) -> dict[str, float]:
    """Seconds spent inside the ``sqlite3`` module's C functions, by function."""
    # key: (file, line, function); entry: (calls, primitive calls, own time, cumulative, callers)
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    return {key[2]: entry[2] for key, entry in stats.items() if "sqlite3." in key[2]}


def fresh_frontier(directory: Path, name: str) -> Frontier:
    return Frontier(open_database(str(directory / f"{name}.db")), default_delay_seconds=0.0)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, a few seconds")
    args = parser.parse_args()
    small, large = (10_000, 100_000) if args.quick else (10_000, 1_000_000)
    pairs = 1_000 if args.quick else 3_000
    repeats = 3

    print(
        f"python {platform.python_version()}, {platform.machine()}, "
        f"{_cpu_model()}, SQLite file in a temporary directory"
    )
    with tempfile.TemporaryDirectory() as scratch:
        directory = Path(scratch)
        enqueue = [
            fill(fresh_frontier(directory, f"enqueue{i}"), 100_000 if not args.quick else 20_000)
            for i in range(repeats)
        ]
        print(
            f"enqueue                      {statistics.median(enqueue):>10,.0f} URLs/s   "
            "[target >= 20,000]"
        )

        def filled(name: str, count: int) -> Frontier:
            frontier = fresh_frontier(directory, name)
            fill(frontier, count)
            return frontier

        separate = statistics.median(
            claim_complete_rate(filled(f"small-s{i}", small), pairs) for i in range(repeats)
        )
        combined_small = statistics.median(
            complete_and_claim_rate(filled(f"small-c{i}", small), pairs) for i in range(repeats)
        )
        print(f"claim + complete             {separate:>10,.0f} URLs/s   (two transactions)")
        print(
            f"complete_and_claim           {combined_small:>10,.0f} URLs/s   "
            f"[target >= 2,000] ({small:,} queued, {HOSTS:,} hosts)"
        )

        frontier = fresh_frontier(directory, "large")
        fill(frontier, large)
        combined_large = statistics.median(
            complete_and_claim_rate(frontier, pairs) for _ in range(repeats)
        )
        ratio = combined_small / combined_large
        print(
            f"complete_and_claim           {combined_large:>10,.0f} URLs/s   "
            f"({large:,} queued): {small:,}-queued rate / this = {ratio:.2f}x "
            "[target <= 2x]"
        )
        with_links = statistics.median(
            complete_and_claim_rate(frontier, pairs, new_links_from=large + i * pairs * NEW_LINKS)
            for i in range(repeats)
        )
        print(
            f"complete_and_claim + links   {with_links:>10,.0f} URLs/s   "
            f"({1000 / with_links:.2f} ms a page; {LINKS} links a page, {NEW_LINKS} new; "
            f"{large:,} queued) [target < 0.5 ms]"
        )
        profile = cProfile.Profile()
        profiled_from = large + repeats * pairs * NEW_LINKS
        complete_and_claim_rate(frontier, pairs, new_links_from=profiled_from, profile=profile)
        in_sqlite = sqlite_seconds(profile)
        commit = sum(total for name, total in in_sqlite.items() if "'commit'" in name)
        per_page = 1000 * sum(in_sqlite.values()) / pairs
        print(
            f"  of which in SQLite's calls {per_page:>10.2f} ms a page "
            f"(the commit {1000 * commit / pairs:.2f} ms; cProfile, one more pass)"
        )
        next_new = profiled_from + pairs * NEW_LINKS
        counted = 100
        frames = log_frames_a_page(
            directory / "large.db",
            lambda count: complete_and_claim_rate(frontier, count, new_links_from=next_new),
            pages=counted,
        )
        print(f"  log pages written          {frames:>10.1f} a page   (4 KiB each, by the commit)")
        floor = measure_floor(
            directory, urls, hosts=HOSTS, queued=large, pages=pairs, links=LINKS,
            new_links=NEW_LINKS, repeats=repeats,
        )  # fmt: skip
        print(
            f"  the least SQLite work      {floor.ms_a_page:>10.2f} ms a page   (the same pages "
            f"on a minimal schema, raw sqlite3: sqlite_floor.py, {floor.log_frames_a_page:.1f} "
            f"log pages a page); politecrawl / that = {1000 / with_links / floor.ms_a_page:.2f}x"
        )
        threads = 4
        first_new = next_new + counted * NEW_LINKS
        together = statistics.median(
            complete_and_claim_rate(
                frontier,
                pairs,
                new_links_from=first_new + i * pairs * NEW_LINKS,
                threads=threads,
            )
            for i in range(repeats)
        )
        print(
            f"  the same, {threads} threads        {together:>10,.0f} URLs/s   "
            f"({1000 / together:.2f} ms a page: pages that finish together share a commit)"
        )
        print(
            f"peak RSS                     {peak_rss_mb():>10,.0f} MB       "
            f"holding the {large:,}-URL frontier [target < 200 MB]"
        )


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


if __name__ == "__main__":
    main()
