"""A log generator for the access-log audit [G1-G3]: combined-format logs of crawlers whose
faults are planted, against a real-shaped robots.txt, and what the audit must find.

Each planted crawler has one fault or none, and the generator returns, per crawler, the verdict
and the evidence it planted, so a test asserts the audit finds exactly that and nothing more.
"""

from __future__ import annotations

import gzip
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROBOTS = """\
# robots.txt for www.example.org (shaped like real ones: wildcards, a blank line inside a
# group, several groups, an extension)
User-agent: *
Disallow: /search
Disallow: /cart/

Disallow: /*?sessionid=
Allow: /search/about$
Crawl-delay: 10

User-agent: GPTBot
Disallow: /

User-agent: FastBot
Crawl-delay: 30
Disallow: /private/

User-agent: HammerBot
Disallow: /cart/

Sitemap: https://www.example.org/sitemap.xml
"""
SITE = "https://www.example.org"
START = datetime(2025, 6, 1, 8, 0, 0, tzinfo=UTC)

POLITE = "Mozilla/5.0 (compatible; PoliteBot/1.0; +https://polite.example/bot)"
SKIPPER = "SkipBot/2.1 (+https://skip.example)"
FAST = "FastBot/0.9 (+https://fast.example/bot)"
HAMMER = "HammerBot/1.0"
WILD = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; WildBot/3.0)"
BROWSER = "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0"
WILDCARD_URL = "/products?sessionid=abc123"


@dataclass
class Planted:
    """What the generator wrote: per crawler its verdict, and the evidence planted."""

    verdicts: dict[str, str] = field(default_factory=dict)
    forbidden: dict[str, set[str]] = field(default_factory=dict)
    short_gaps: dict[str, int] = field(default_factory=dict)
    early_retries: dict[str, int] = field(default_factory=dict)
    bad_lines: list[int] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)


def line(at: datetime, agent: str, target: str, status: int = 200, ip: str = "192.0.2.1") -> str:
    """One combined-format line (as nginx and Apache write it by default)."""
    when = at.strftime("%d/%b/%Y:%H:%M:%S +0000")
    return f'{ip} - - [{when}] "GET {target} HTTP/1.1" {status} 512 "-" "{agent}"'


def _pages(count: int, prefix: str = "/articles/") -> list[str]:
    return [f"{prefix}{number}" for number in range(count)]


def planted_log(seed: int = 7) -> Planted:
    """The mix of crawlers of issue 43, interleaved in time order, with two malformed lines."""
    rng = random.Random(seed)
    planted = Planted()
    events: list[tuple[datetime, str]] = []

    def crawl(agent: str, start: datetime, gap: float, targets: list[str], robots: bool) -> None:
        at = start
        if robots:
            events.append((at, line(at, agent, "/robots.txt")))
            at += timedelta(seconds=gap)
        for target in targets:
            events.append((at, line(at, agent, target)))
            at += timedelta(seconds=gap + rng.choice((0, 1)))

    crawl(POLITE, START, 12, _pages(20), robots=True)
    planted.verdicts["politebot"] = "obeys"
    crawl(SKIPPER, START + timedelta(seconds=3), 15, _pages(10), robots=False)
    planted.verdicts["skipbot"] = "skips robots.txt"
    # FastBot's own group asks 30 s; it comes every 5-6 s: every gap but the first is short.
    crawl(FAST, START + timedelta(seconds=5), 5, _pages(8), robots=True)
    planted.verdicts["fastbot"] = "too fast"
    planted.short_gaps["fastbot"] = 7
    # HammerBot: its group asks no delay; it is answered 429 (Retry-After 60 s, the site's
    # setting) and comes back 2 s later.
    at = START + timedelta(seconds=7)
    events.append((at, line(at, HAMMER, "/robots.txt")))
    for number in range(5):
        at += timedelta(seconds=3)
        events.append((at, line(at, HAMMER, f"/news/{number}", 429 if number == 2 else 200)))
    planted.verdicts["hammerbot"] = "ignores 429/503"
    planted.early_retries["hammerbot"] = 1
    # WildBot: polite, but fetches one URL only RFC 9309's wildcard forbids.
    crawl(WILD, START + timedelta(seconds=9), 11, [*_pages(3), WILDCARD_URL], robots=True)
    planted.verdicts["wildbot"] = "ignores robots.txt"
    planted.forbidden["wildbot"] = {WILDCARD_URL}
    # A person: fast, into /search; not judged.
    crawl(BROWSER, START + timedelta(seconds=2), 1, ["/search?q=robots", "/cart/", "/"], False)
    planted.verdicts["(browsers)"] = "browser: not judged (people are not bound by robots.txt)"
    events.sort(key=lambda event: event[0])
    lines = [text for _, text in events]
    lines.insert(10, "this line is no log line")
    lines.insert(25, '192.0.2.9 - - [31/Foo/2025:00:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"')
    planted.bad_lines = [11, 26]
    planted.lines = lines
    return planted


def write_log(path: Path, lines: list[str], *, compress: bool = False) -> Path:
    """Write lines to ``path``, gzip-compressed when asked."""
    data = ("\n".join(lines) + "\n").encode()
    path.write_bytes(gzip.compress(data) if compress else data)
    return path


_BENCH_AGENTS = (POLITE, SKIPPER, FAST, HAMMER, WILD, BROWSER, "curl/8.5.0", "GPTBot/1.2")
_BENCH_TARGETS = ("/articles/", "/search?q=", "/cart/", "/products?sessionid=", "/img/", "/")


def bench_lines(count: int, seed: int = 1):
    """``count`` combined-format lines from a mix of crawlers, a second apart on average,
    generated as they are written (for the million-line benchmark)."""
    rng = random.Random(seed)
    start = START.timestamp()
    stamp = ""
    last_second = -1
    for number in range(count):
        second = int(start + number * 0.5)
        if second != last_second:
            last_second = second
            stamp = datetime.fromtimestamp(second, UTC).strftime("%d/%b/%Y:%H:%M:%S +0000")
        agent = _BENCH_AGENTS[rng.randrange(len(_BENCH_AGENTS))]
        target = _BENCH_TARGETS[rng.randrange(len(_BENCH_TARGETS))] + str(rng.randrange(50_000))
        if rng.random() < 0.001:
            target = "/robots.txt"
        status = 429 if rng.random() < 0.001 else 200
        yield (
            f'198.51.100.{number % 250} - - [{stamp}] "GET {target} HTTP/1.1" {status} 2048 '
            f'"-" "{agent}"'
        )
