"""A minimal Python crawler, for reference: ``requests`` and lxml in a loop that keeps nothing.

A benchmark's reference, never a crawler to use. One thread and one ``requests.Session`` (with
``trust_env`` off, as politecrawl's);
robots.txt read by CPython's ``urllib.robotparser`` (its statuses read as ``RobotFileParser.read``
reads them) and asked at each URL as it leaves the queue; every page parsed by ``lxml.html`` for
its ``<a href>`` links, which are resolved, stripped of their fragment and queued breadth-first in
memory when they stay on a seed's host. A link seen before under a base that gives it the same
meaning is resolved from memory, as politecrawl's ``urls.LinkResolver`` does (a site's menu repeats
on every page). No database, no crash recovery, no delay, no META robots, no redirects followed
beyond what ``requests`` does. What politecrawl spends above this loop is roughly the price of
what it keeps and checks; this loop is not the least a Python crawler could spend (another HTTP
client costs less a request than ``requests``, measured in ``docsite.py``).

    python bench/bare_crawl.py --seeds seeds.txt

Prints the pages fetched and the seconds spent in each part by the loop's own clock: the
requests (robots.txt's included), the parse, and the links (found, resolved and queued).

``parts_apart`` times the same parts one at a time over a list of URLs (and a GET with urllib3
beside ``requests``'s), for ``docsite.py`` to print beside the crawls.
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
import urllib3

AGENT = "barecrawl"


def lean_session() -> requests.Session:
    """A session that reads nothing from the environment (no proxies, no ``.netrc``, which
    requests otherwise looks up at every request), as politecrawl's own."""
    session = requests.Session()
    session.trust_env = False
    session.headers["User-Agent"] = f"{AGENT}/1.0"
    return session


def robots_rules(session: requests.Session, origin: str) -> RobotFileParser:
    """The origin's robots.txt, its status read as ``RobotFileParser.read`` reads it."""
    rules = RobotFileParser()
    answer = session.get(origin + "/robots.txt", timeout=30)
    if answer.status_code == 200:
        rules.parse(answer.text.splitlines())
    elif answer.status_code in (401, 403):
        rules.disallow_all = True
    elif 400 <= answer.status_code < 500:
        rules.allow_all = True
    else:
        rules.disallow_all = True
    return rules


def crawl(seeds: list[str]) -> tuple[int, dict[str, float]]:
    session = lean_session()
    robots: dict[str, RobotFileParser] = {}
    hosts = {urlsplit(seed).netloc for seed in seeds}
    seen = set(seeds)
    queue = deque(seeds)
    resolved: dict[tuple[str, str], str | None] = {}  # (base or origin, href) -> on-host URL
    fetched = 0
    spent = {"requests": 0.0, "parse": 0.0, "links": 0.0}
    clock = time.perf_counter
    while queue:
        url = queue.popleft()
        parts = urlsplit(url)
        origin = f"{parts.scheme}://{parts.netloc}"
        rules = robots.get(origin)
        if rules is None:
            started = clock()
            rules = robots[origin] = robots_rules(session, origin)
            spent["requests"] += clock() - started
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
        base = response.url
        base_parts = urlsplit(base)
        base_origin = f"{base_parts.scheme}://{base_parts.netloc}"
        for value in document.xpath("//a/@href"):
            href = str(value).strip()
            # An absolute path means the same under every page of the base's origin.
            absolute_path = href.startswith("/") and href[1:2] != "/"
            key = (base_origin, href) if absolute_path else (base, href)
            if key in resolved:
                link = resolved[key]
            else:
                link = urldefrag(urljoin(base, href)).url
                link = resolved[key] = link if urlsplit(link).netloc in hosts else None
            if link is not None and link not in seen:
                seen.add(link)
                queue.append(link)
        spent["links"] += clock() - linking
    return fetched, spent


def parts_apart(urls: list[str]) -> dict[str, float]:
    """Seconds for each part of a page's cost measured on its own over ``urls`` (served and
    warm): a ``requests.Session`` GET of each (``trust_env`` off), the same with urllib3's
    ``PoolManager`` (the client under ``requests``), the lxml parse of each body, and its
    ``//a/@href``."""
    clock = time.perf_counter
    spent: dict[str, float] = {}
    with lean_session() as session:
        for url in urls[:20]:  # the connection made, the code paths warm
            session.get(url, timeout=30)
        started = clock()
        bodies = [session.get(url, timeout=30).content for url in urls]
        spent["requests GET"] = clock() - started
    with urllib3.PoolManager() as pool:
        started = clock()
        for url in urls:
            pool.request("GET", url, timeout=30)
        spent["urllib3 GET"] = clock() - started
    started = clock()
    documents = [lxml.html.document_fromstring(body) for body in bodies]
    spent["lxml parse"] = clock() - started
    started = clock()
    for document in documents:
        document.xpath("//a/@href")
    spent["its //a/@href"] = clock() - started
    return spent


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
