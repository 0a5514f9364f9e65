"""The floor of a Python crawler: what ``requests`` and lxml alone cost a page, with nothing kept.

A benchmark's reference, never a crawler to use: one thread, one ``requests.Session``, robots.txt
read by CPython's ``urllib.robotparser``, every page parsed by ``lxml.html`` for its ``<a href>``
links, which are resolved, stripped of their fragment and queued breadth-first in memory when they
stay on a seed's host and robots.txt allows them. No database, no crash recovery, no delay, no META
robots, no redirects followed beyond what ``requests`` does. Whatever politecrawl spends above
this line is the price of what it keeps and checks; what this line spends is Python's and its
libraries', and no crawler built on them goes below it.

    python bench/bare_crawl.py --seeds seeds.txt

Prints the pages fetched and the seconds spent in each part: the requests (robots.txt's
included), the parse, and the links (found, resolved, checked against robots.txt and queued).
"""

from __future__ import annotations

import argparse
import time
from collections import deque
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlsplit
from urllib.robotparser import RobotFileParser

import lxml.html
import requests

AGENT = "barecrawl"


def crawl(seeds: list[str]) -> tuple[int, dict[str, float]]:
    session = requests.Session()
    session.headers["User-Agent"] = f"{AGENT}/1.0"
    robots: dict[str, RobotFileParser] = {}
    hosts = {urlsplit(seed).netloc for seed in seeds}
    seen = set(seeds)
    queue = deque(seeds)
    fetched = 0
    spent = {"requests": 0.0, "parse": 0.0, "links": 0.0}
    clock = time.perf_counter
    while queue:
        url = queue.popleft()
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        rules = robots.get(origin)
        if rules is None:
            rules = RobotFileParser()
            started = clock()
            answer = session.get(origin + "/robots.txt", timeout=30)
            spent["requests"] += clock() - started
            rules.parse(answer.text.splitlines() if answer.status_code == 200 else [])
            robots[origin] = rules
        if not rules.can_fetch(AGENT, url):
            continue
        started = clock()
        response = session.get(url, timeout=30)
        parsing = clock()
        spent["requests"] += parsing - started
        fetched += 1
        if "html" not in response.headers.get("Content-Type", "") or not response.content:
            continue
        document = lxml.html.document_fromstring(response.content)
        linking = clock()
        spent["parse"] += linking - parsing
        for href in document.xpath("//a/@href"):
            link = urldefrag(urljoin(response.url, str(href).strip())).url
            if link not in seen and urlsplit(link).netloc in hosts:
                seen.add(link)
                queue.append(link)
        spent["links"] += clock() - linking
    return fetched, spent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=Path, required=True)
    args = parser.parse_args(argv)
    seeds = [line.strip() for line in args.seeds.read_text().splitlines() if line.strip()]
    fetched, spent = crawl(seeds)
    parts = ", ".join(f"{part} {seconds:.2f} s" for part, seconds in spent.items())
    print(f"{fetched} pages; {parts}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
