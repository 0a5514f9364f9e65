"""``politecrawl demo``: serve the bundled demo site on loopback, crawl it, print the report.

A one-minute tour: robots.txt read before anything else (and the line that excluded each URL),
META robots honoured, broken links with the pages that link to them, one request at a time per
host with the delay kept (the demo prints the smallest gap it saw per host), and the URLs where
the 1996 draft and RFC 9309 would read robots.txt differently.
"""

from __future__ import annotations

import argparse
import itertools
from collections import defaultdict
from pathlib import Path

from politecrawl.cli.hints import command
from politecrawl.config import CrawlConfig
from politecrawl.crawl.crawler import Crawler
from politecrawl.demo_site import DemoSite
from politecrawl.report import build_report, render_text
from politecrawl.report.model import counted
from politecrawl.store import open_database

DEMO_DELAY_SECONDS = 0.1
DEFAULT_DEMO_DATABASE = "politecrawl-demo.db"


def demo_command(args: argparse.Namespace) -> int:
    """Crawl the demo site into ``--db`` (``politecrawl-demo.db`` here, made anew each time, by
    default) and print the report; the database stays, for ``report``, ``why`` and ``status``."""
    database = args.db or DEFAULT_DEMO_DATABASE
    if args.db is None:
        for stale in Path().glob(DEFAULT_DEMO_DATABASE + "*"):  # the last demo's, with -wal/-shm
            stale.unlink()
    with DemoSite() as site:
        config = CrawlConfig(
            agent="politecrawl",
            contact="https://example.org/politecrawl-demo",
            database=database,
            delay_seconds=DEMO_DELAY_SECONDS,
            max_retries=1,  # the demo's 500 page is retried once, not three times
            workers=4,
            warc_dir=args.warc,
        )
        print(f"Serving the demo site on {', '.join(site.origins)}; crawling it politely...")
        with Crawler(config) as crawler:
            crawler.add_seeds(site.seeds)
            for page in crawler.crawl(handle_signals=True):
                mark = "indexable" if page.indexable else "not indexable"
                print(f"  {page.status} {page.url} ({mark})")
            summary = crawler.summary
        requests = list(site.requests)
    print()
    print(_politeness(requests))
    opened = open_database(database)
    try:
        report = build_report(opened, agent=config.user_agent)
    finally:
        opened.close()
    print(render_text(report))
    # A sitemap that answered 404 was not read: no sitemap, no count (S1).
    sitemaps = f"; {counted(summary.sitemaps, 'sitemap')} read" if summary.sitemaps else ""
    print(
        f"{counted(summary.pages, 'page')} in {summary.duration_seconds:.1f} s; "
        f"{counted(summary.excluded_by_robots, 'URL')} excluded by robots.txt, "
        f"{summary.noindex} noindex{sitemaps}."
    )
    report_command = command("report", "--db", database, "--format", "html", "--out", "report.html")
    print(
        f"The crawl is in {database}: try `{report_command}` or "
        f"`{command('why', 'URL', '--db', database)}`."
    )
    if args.warc:
        print(f"Every request and response is in WARC files in {args.warc} (index: *.cdxj).")
    return 0


def _politeness(requests: list[tuple[float, str, str]]) -> str:
    """The smallest gap between the starts of two requests to each origin, as the site saw."""
    by_origin: dict[str, list[float]] = defaultdict(list)
    for at, origin, _ in requests:
        by_origin[origin].append(at)
    lines = [
        f"The site saw {counted(len(requests), 'request')}; smallest gap between two per host:"
    ]
    for origin, times in sorted(by_origin.items()):
        times.sort()
        gaps = [later - earlier for earlier, later in itertools.pairwise(times)]
        smallest = f", {min(gaps):.3f} s" if gaps else ""
        lines.append(f"  {origin}: {counted(len(times), 'request')}{smallest}")
    return "\n".join(lines)
