"""A crawl in a process of its own, for the kill-and-resume tests.

Usage: crawl_process.py DATABASE SEEDS_FILE DELAY [KEY=VALUE ...] (CrawlConfig settings, ints
and floats parsed). Exits 0 when the crawl ends.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from politecrawl import CrawlConfig, Crawler


def _value(text: str) -> object:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main() -> None:
    database, seeds_file, delay, *settings = sys.argv[1:]
    extra = {key: _value(value) for key, value in (item.split("=", 1) for item in settings)}
    config = CrawlConfig(database=database, delay_seconds=float(delay), **extra)  # type: ignore[arg-type]
    with Crawler(config) as crawler:
        crawler.add_seeds(Path(seeds_file).read_text().split())
        crawler.run()


if __name__ == "__main__":
    main()
