"""Politeness per server: 20 host names on 2 addresses, politecrawl against Scrapy (issue 42, P6).

A web whose host names share machines, as shared hosting serves them: ``--names`` names
(``n00.bench``, ...) spread over ``--addresses`` loopback addresses (127.0.0.80, ...), all on
one port, served by Debian's nginx (one ``server`` block per name, its own log line per request
with the address and the name). Each name has an open robots.txt and ``--pages`` pages linked
in a chain from its home page. Every crawler crawls it from the names' home pages with the same
delay; the names are given to each as fixed answers (politecrawl ``--resolve``; Scrapy a resolver
of the same answers, with its DNS cache filled before the crawl, so its per-IP slots hold from the
first request). The crawlers:

- ``politecrawl``: as shipped, per server (at most 2 requests in flight to one address, its gap
  the hosts' delay between starts);
- ``politecrawl 1``: the same with ``max_in_flight_per_server = 1``, Scrapy's setting below;
- ``politecrawl host``: ``politeness_unit = "host"``, each name alone (the problem: every name
  a request stream of its own to one machine);
- ``scrapy``: ``CONCURRENT_REQUESTS_PER_IP = 1``, ``DOWNLOAD_DELAY`` the delay, robots.txt
  obeyed (``scrapy_spider.BenchSpider``).

From nginx's log (a request starts at ``$msec - $request_time``, to the millisecond), per
address: requests, the most in flight at once, the smallest gap between two starts, and the
violations: starts closer than the delay (less 2 ms for the log's resolution). And the useful
pages (2xx pages, robots.txt and sitemaps aside) per second of wall time.

    .venv/bin/pip install 'scrapy>=2.11'            # or: pip install -e '.[peers]'
    .venv/bin/python bench/servers.py [--names 20] [--addresses 2] [--pages 20] [--delay 0.1]

Prints a table (``--json FILE`` keeps the figures); asserts nothing.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_serve import NGINX, free_port

LOG_FORMAT = (
    '$msec $request_time $server_addr $host $status $body_bytes_sent "$request" "$http_user_agent"'
)
LOG_RESOLUTION = 0.002  # $msec and $request_time are to the millisecond: a start is +-1 ms
CRAWLERS = ("politecrawl", "politecrawl 1", "politecrawl host", "scrapy")


@dataclass(frozen=True)
class Web:
    names: dict[str, str]  # host name -> address
    port: int
    root: Path
    pages: int

    @property
    def seeds(self) -> list[str]:
        return [f"http://{name}:{self.port}/" for name in self.names]


def build_web(root: Path, *, names: int, addresses: int, pages: int, port: int) -> Web:
    """The site's files: per name an open robots.txt and a chain of pages from its home."""
    hosts = {f"n{index:02d}.bench": f"127.0.0.{80 + index % addresses}" for index in range(names)}
    for name in hosts:
        directory = root / name
        directory.mkdir(parents=True, exist_ok=True)
        (directory / "robots.txt").write_text("User-agent: *\nDisallow:\n")
        for page in range(pages + 1):
            following = [f"/p{page + 1}.html"] if page < pages else []
            links = "".join(f'<a href="{link}">next</a> ' for link in ["/", *following])
            body = f"<!doctype html><title>{name} {page}</title><p>{'text ' * 200}</p>{links}"
            path = "index.html" if page == 0 else f"p{page}.html"
            (directory / path).write_text(body)
    return Web(hosts, port, root, pages)


def nginx_config(web: Web, work: Path, log: Path) -> str:
    lines = [
        "worker_processes 1;",
        "daemon off;",
        f"pid {work / 'nginx.pid'};",
        f"error_log {work / 'error.log'} warn;",
        "events { worker_connections 4096; }",
        "http {",
        "    include /etc/nginx/mime.types;",
        "    default_type text/html;",
        f"    log_format servers '{LOG_FORMAT}';",
        f"    access_log {log} servers;",
        "    gzip off;",
        "    log_not_found off;",
        "    keepalive_timeout 75s;",
        f"    client_body_temp_path {work / 'tmp-body'};",
        f"    proxy_temp_path {work / 'tmp-proxy'};",
        f"    fastcgi_temp_path {work / 'tmp-fastcgi'};",
        f"    uwsgi_temp_path {work / 'tmp-uwsgi'};",
        f"    scgi_temp_path {work / 'tmp-scgi'};",
    ]
    for address in sorted(set(web.names.values())):
        lines.append(f"    server {{ listen {address}:{web.port} default_server; return 404; }}")
    for name, address in web.names.items():
        lines += [
            "    server {",
            f"        listen {address}:{web.port};",
            f"        server_name {name};",
            f"        root {web.root / name};",
            "        index index.html;",
            "    }",
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


class Nginx:
    """nginx serving ``web`` with its log in ``log`` until the context ends."""

    def __init__(self, web: Web, work: Path, log: Path) -> None:
        self.web, self.work, self.log = web, work, log
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Nginx:
        self.work.mkdir(parents=True, exist_ok=True)
        config = self.work / "nginx.conf"
        config.write_text(nginx_config(self.web, self.work, self.log))
        self.process = subprocess.Popen(
            [NGINX, "-c", str(config), "-p", str(self.work)],
            stdout=subprocess.DEVNULL,
            stderr=(self.work / "nginx.stderr").open("wb"),
        )
        address = next(iter(self.web.names.values()))
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                import socket  # noqa: PLC0415 (only to wait for nginx)

                with socket.create_connection((address, self.web.port), timeout=0.2):
                    return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not start: " + (self.work / "nginx.stderr").read_text())

    def __exit__(self, *exc: object) -> None:
        if self.process is not None and self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGQUIT)  # graceful: the log is complete after
            self.process.wait(timeout=15)


@dataclass(frozen=True)
class Request:
    start: float
    end: float
    address: str
    host: str
    status: int
    path: str


def read_log(path: Path) -> list[Request]:
    found = []
    for line in path.read_text().splitlines():
        parts = line.split(" ")
        end, took, address, host, status = parts[:5]
        request = line.split('"')[1].split(" ")
        path_of = request[1] if len(request) > 1 else ""
        ended = float(end)
        found.append(Request(ended - float(took), ended, address, host, int(status), path_of))
    return found


@dataclass(frozen=True)
class ServerFigures:
    address: str
    requests: int
    most_in_flight: int
    smallest_gap: float
    violations: int
    """Starts closer than the delay (less the log's resolution)."""
    gross: int
    """Starts closer than half the delay."""


def server_figures(requests: list[Request], address: str, delay: float) -> ServerFigures:
    mine = sorted((r for r in requests if r.address == address), key=lambda r: r.start)
    # In flight when each starts: itself, and those begun before that have not ended (a
    # request of 0 ms in the log, to the millisecond, still counts for itself).
    most = max(
        (1 + sum(1 for q in mine if q is not r and q.start <= r.start < q.end) for r in mine),
        default=0,
    )
    gaps = [b.start - a.start for a, b in itertools.pairwise(mine)]
    violations = sum(1 for gap in gaps if gap < delay - LOG_RESOLUTION)
    gross = sum(1 for gap in gaps if gap < delay / 2)
    return ServerFigures(address, len(mine), most, min(gaps, default=0.0), violations, gross)


@dataclass(frozen=True)
class Outcome:
    crawler: str
    seconds: float
    requests: int
    useful_pages: int
    servers: tuple[ServerFigures, ...]

    @property
    def pages_per_second(self) -> float:
        return self.useful_pages / self.seconds if self.seconds else 0.0


def run_politecrawl(web: Web, work: Path, delay: float, variant: str, workers: int) -> None:
    seeds = work / "seeds.txt"
    seeds.write_text("\n".join(web.seeds) + "\n")
    env = {**os.environ, "POLITECRAWL_SITEMAP_GUESS": "false"}
    if variant == "1":
        env["POLITECRAWL_MAX_IN_FLIGHT_PER_SERVER"] = "1"
    elif variant == "host":
        env["POLITECRAWL_POLITENESS_UNIT"] = "host"
    command = [
        sys.executable, "-m", "politecrawl", "run", str(seeds), "--db", str(work / "crawl.db"),
        "--quiet", "--contact", "https://example.org/bench", f"--delay={delay}",
        f"--workers={workers}", *(f"--resolve={name}:{ip}" for name, ip in web.names.items()),
    ]  # fmt: skip
    subprocess.run(command, env=env, check=False, stdout=subprocess.DEVNULL)


def run_scrapy(web: Web, work: Path, delay: float) -> None:
    seeds = work / "seeds.txt"
    seeds.write_text("\n".join(web.seeds) + "\n")
    answers = work / "answers.json"
    answers.write_text(json.dumps(web.names))
    command = [
        sys.executable, __file__, "scrapy", "--seeds", str(seeds), "--answers", str(answers),
        "--delay", str(delay), "--out", str(work / "items.jsonl"),
    ]  # fmt: skip
    subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def crawl_with(crawler: str, web: Web, work: Path, args: argparse.Namespace) -> Outcome:
    folder = work / crawler.replace(" ", "-")
    folder.mkdir(parents=True, exist_ok=True)
    log = folder / "access.log"
    with Nginx(web, folder / "nginx", log):
        started = time.monotonic()
        if crawler == "scrapy":
            run_scrapy(web, folder, args.delay)
        else:
            variant = crawler.partition(" ")[2]
            run_politecrawl(web, folder, args.delay, variant, args.workers)
        seconds = time.monotonic() - started
    requests = read_log(log)
    useful = sum(
        1 for r in requests if 200 <= r.status < 300 and not r.path.startswith("/robots.txt")
    )
    addresses = sorted(set(web.names.values()))
    figures = tuple(server_figures(requests, address, args.delay) for address in addresses)
    return Outcome(crawler, seconds, len(requests), useful, figures)


def print_table(outcomes: list[Outcome], args: argparse.Namespace) -> None:
    print(
        f"{args.names} names on {args.addresses} addresses, {args.pages + 1} pages each, "
        f"delay {args.delay:g} s; violations: starts to one address closer than the delay"
    )
    header = f"{'crawler':18} {'wall s':>7} {'pages/s':>8} {'requests':>9}  per address: "
    print(header + "requests, most in flight, smallest gap, violations (of which < delay/2)")
    for outcome in outcomes:
        per = "; ".join(
            f"{s.address} {s.requests}, {s.most_in_flight}, {s.smallest_gap:.3f} s, "
            f"{s.violations} ({s.gross})"
            for s in outcome.servers
        )
        print(
            f"{outcome.crawler:18} {outcome.seconds:7.1f} {outcome.pages_per_second:8.2f} "
            f"{outcome.requests:9d}  {per}"
        )


def bench(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--names", type=int, default=20)
    parser.add_argument("--addresses", type=int, default=2)
    parser.add_argument("--pages", type=int, default=20)
    parser.add_argument("--delay", type=float, default=0.1)
    parser.add_argument("--workers", type=int, default=8, help="politecrawl's threads")
    parser.add_argument("--only", choices=CRAWLERS, action="append")
    parser.add_argument("--work", type=Path, default=None, help="keep the web and logs here")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)
    if shutil.which(NGINX) is None and not Path(NGINX).exists():
        print("nginx is needed: apt-get install -y nginx", file=sys.stderr)
        return 2
    work = args.work or Path(tempfile.mkdtemp(prefix="politecrawl-servers-"))
    work.chmod(0o755)  # nginx's worker (another user) reads the site: mkdtemp makes it 0700
    addresses = [f"127.0.0.{80 + index}" for index in range(args.addresses)]
    web = build_web(
        work / "site",
        names=args.names,
        addresses=args.addresses,
        pages=args.pages,
        port=free_port(addresses),
    )
    crawlers = args.only or list(CRAWLERS)
    if "scrapy" in crawlers and not _has_scrapy():
        print("Scrapy is not installed: left out (pip install 'scrapy>=2.11')", file=sys.stderr)
        crawlers.remove("scrapy")
    outcomes = [crawl_with(crawler, web, work, args) for crawler in crawlers]
    print_table(outcomes, args)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(o) for o in outcomes], indent=2))
    if args.work is None:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _has_scrapy() -> bool:
    try:
        import scrapy  # noqa: F401, PLC0415
    except ImportError:
        return False
    return True


def scrapy_main(argv: list[str]) -> int:
    """Scrapy with CONCURRENT_REQUESTS_PER_IP = 1 on the bench web (a process of its own)."""
    from scrapy.crawler import CrawlerProcess  # noqa: PLC0415 (the peer, in its own process)
    from scrapy.resolver import CachingThreadedResolver, dnscache  # noqa: PLC0415
    from twisted.internet import defer  # noqa: PLC0415

    from scrapy_spider import AGENT, NO_JITTER, BenchSpider  # noqa: PLC0415

    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=Path, required=True)
    parser.add_argument("--answers", type=Path, required=True)
    parser.add_argument("--delay", type=float, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    answers: dict[str, str] = json.loads(args.answers.read_text())

    class FixedResolver(CachingThreadedResolver):
        """The bench's names answered from the list, as politecrawl's --resolve; the DNS cache
        filled first, so that Scrapy's per-IP slots hold from the first request."""

        def install_on_reactor(self) -> None:
            for name, address in answers.items():
                dnscache[name] = address
            super().install_on_reactor()

        def getHostByName(self, name, timeout=()):  # noqa: N802 (Twisted's name)
            if name in answers:
                return defer.succeed(answers[name])
            return super().getHostByName(name, timeout)

    sys.modules["__main__"].FixedResolver = FixedResolver  # type: ignore[attr-defined]
    seeds = [line.strip() for line in args.seeds.read_text().splitlines() if line.strip()]
    process = CrawlerProcess(
        settings={
            "BOT_NAME": AGENT,
            "USER_AGENT": f"{AGENT}/1.0 (+http://127.0.0.1/bench)",
            "ROBOTSTXT_OBEY": True,
            "CONCURRENT_REQUESTS": 32,
            "CONCURRENT_REQUESTS_PER_IP": 1,
            # Scrapy's default queue refuses per-IP slots (2.19: "does not support
            # CONCURRENT_REQUESTS_PER_IP"); the classic one takes them.
            "SCHEDULER_PRIORITY_QUEUE": "scrapy.pqueues.ScrapyPriorityQueue",
            "DOWNLOAD_DELAY": args.delay,
            **NO_JITTER,
            "AUTOTHROTTLE_ENABLED": False,
            "DNS_RESOLVER": "__main__.FixedResolver",
            "TELNETCONSOLE_ENABLED": False,
            "LOG_LEVEL": "WARNING",
            "FEEDS": {str(args.out): {"format": "jsonlines", "overwrite": True}},
        }
    )
    process.crawl(BenchSpider, seeds=seeds)
    process.start()
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["scrapy"]:
        raise SystemExit(scrapy_main(sys.argv[2:]))
    raise SystemExit(bench(sys.argv[1:]))
