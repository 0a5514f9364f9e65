"""The peer in the crawler benchmark: a plain Scrapy spider with robots.txt obeyed (issue 7).

What most users would write: follow every link the default ``LinkExtractor`` finds on pages of the
seeds' hosts, yield one item per page. Politeness is Scrapy's own: ``ROBOTSTXT_OBEY``, one request
in flight per domain, ``DOWNLOAD_DELAY`` without randomisation, AutoThrottle off, the same depth
limit as politecrawl. Its robot name is ``scrapybench``: the benchmark web's robots.txt records
name it together with ``politecrawl`` (or name neither), so both read the same record.

    python bench/scrapy_spider.py --seeds seeds.txt --delay 0 --depth 10 --out items.jsonl

Items (``url``, ``status``, ``indexable``) go to ``--out`` as JSON lines. Scrapy has no notion of
META robots, so every page it hands out counts as indexable.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from urllib.parse import urlsplit

import scrapy
from scrapy.crawler import CrawlerProcess
from scrapy.linkextractors import LinkExtractor
from scrapy.settings import default_settings

AGENT = "scrapybench"
# The delay without random variation: DOWNLOAD_DELAY_JITTER where Scrapy knows it (2.19 does,
# and warns about RANDOMIZE_DOWNLOAD_DELAY at every run); older releases know only the latter.
NO_JITTER = (
    {"DOWNLOAD_DELAY_JITTER": 0.0}
    if hasattr(default_settings, "DOWNLOAD_DELAY_JITTER")
    else {"RANDOMIZE_DOWNLOAD_DELAY": False}
)


class BenchSpider(scrapy.Spider):
    name = "bench"

    def __init__(self, seeds: list[str], **kwargs: object) -> None:
        super().__init__(**kwargs)
        self.start_urls = seeds
        self.allowed_domains = sorted({urlsplit(url).hostname or "" for url in seeds})
        self.links = LinkExtractor()

    def parse(self, response):
        yield {"url": response.url, "status": response.status, "indexable": True}
        if not hasattr(response, "text"):
            return
        for link in self.links.extract_links(response):
            yield response.follow(link.url, callback=self.parse)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="crawl the benchmark web with Scrapy")
    parser.add_argument("--seeds", type=Path, required=True)
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument("--depth", type=int, default=10)
    parser.add_argument("--concurrency", type=int, default=32, help="CONCURRENT_REQUESTS")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument(
        "--order",
        choices=("bfs", "dfs"),
        default="bfs",
        help="bfs: Scrapy's documented breadth-first settings, the order politecrawl crawls in "
        "(with a depth limit, the default depth-first order misses pages first met deep)",
    )
    args = parser.parse_args(argv)
    seeds = [line.strip() for line in args.seeds.read_text().splitlines() if line.strip()]
    order = {}
    if args.order == "bfs":  # the Scrapy FAQ's breadth-first settings
        order = {
            "DEPTH_PRIORITY": 1,
            "SCHEDULER_DISK_QUEUE": "scrapy.squeues.PickleFifoDiskQueue",
            "SCHEDULER_MEMORY_QUEUE": "scrapy.squeues.FifoMemoryQueue",
        }
    process = CrawlerProcess(
        settings={
            **order,
            "BOT_NAME": AGENT,
            "USER_AGENT": f"{AGENT}/1.0 (+http://127.0.0.1/bench)",
            "ROBOTSTXT_OBEY": True,
            "CONCURRENT_REQUESTS": args.concurrency,
            "CONCURRENT_REQUESTS_PER_DOMAIN": 1,
            "DOWNLOAD_DELAY": args.delay,
            **NO_JITTER,
            "AUTOTHROTTLE_ENABLED": False,
            "DOWNLOAD_TIMEOUT": 30,  # politecrawl's whole-response time-out (C7), for fairness
            "DEPTH_LIMIT": args.depth,
            "TELNETCONSOLE_ENABLED": False,
            "LOG_LEVEL": args.log_level,
            "FEEDS": {str(args.out): {"format": "jsonlines", "overwrite": True}},
        }
    )
    process.crawl(BenchSpider, seeds=seeds)
    process.start()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
