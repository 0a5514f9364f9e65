"""Benchmark: what a recrawl costs the site compared with the first crawl (issue 6).

Run on demand: ``.venv/bin/python bench/recrawl_bench.py`` (``--pages 2000 --changed 0.05``).
Serves a generated site of N pages over 10 hosts on 127.0.0.2-11 (ETag and Last-Modified on
every page, 304 on a matching conditional request), crawls it with politecrawl, changes a
fraction of the pages, recrawls, and prints the bytes the server sent (bodies and headers as
counted by the server) and the wall time of both passes, with their ratio. Goal: the recrawl
transfers at most 10% of the first crawl's bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from politecrawl import CrawlConfig, Crawler

HOSTS = 10
FILLER = "politecrawl benchmark filler text. "


class Site:
    """Pages per host, their bodies, and the bytes sent so far."""

    def __init__(self, pages: int, page_kib: float) -> None:
        self.per_host = max(pages // HOSTS, 1)
        self.padding = "<p>" + FILLER * int(page_kib * 1024 / len(FILLER)) + "</p>"
        self.version: dict[tuple[int, int], int] = {}
        self.bytes_sent = 0
        self.requests = 0
        self.lock = threading.Lock()

    def body(self, host: int, page: int) -> bytes:
        links = "".join(
            f'<a href="/p/{(page * 7 + k) % self.per_host}.html">next</a>' for k in range(1, 4)
        )
        version = self.version.get((host, page), 0)
        return (
            f"<html><title>host {host} page {page} v{version}</title>{links}{self.padding}</html>"
        ).encode()

    def count_bytes(self, sent: int) -> None:
        with self.lock:
            self.bytes_sent += sent

    def count_request(self) -> None:
        with self.lock:
            self.requests += 1


def handler_for(site: Site, host: int) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def setup(self) -> None:
            super().setup()
            raw = self.wfile

            class Counting:  # every byte written to the socket, status line and headers too
                def write(self, data: bytes) -> int:
                    site.count_bytes(len(data))
                    return raw.write(data)

                def flush(self) -> None:
                    raw.flush()

            self.wfile = Counting()  # type: ignore[assignment]

        def do_GET(self) -> None:
            if self.path == "/robots.txt":
                self._send(200, b"User-agent: *\nDisallow: /private/\n", None)
                return
            name = self.path.removeprefix("/p/").removesuffix(".html")
            if self.path == "/":
                name = "0"
            if not name.isdigit() or int(name) >= site.per_host:
                self._send(404, b"not found", None)
                return
            body = site.body(host, int(name))
            etag = '"' + hashlib.sha256(body).hexdigest()[:16] + '"'
            if self.headers.get("If-None-Match") == etag:
                self._send(304, b"", etag)
                return
            self._send(200, body, etag)

        def _send(self, status: int, body: bytes, etag: str | None) -> None:
            self.send_response(status)
            self.send_header("Content-Type", "text/html" if etag else "text/plain")
            if etag:
                self.send_header("ETag", etag)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            site.count_request()

    return Handler


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=2000)
    parser.add_argument("--changed", type=float, default=0.05, help="fraction of pages changed")
    parser.add_argument("--delay", type=float, default=0.0)
    parser.add_argument(
        "--page-kib", type=float, default=20.0, help="page size (default 20 KiB, a typical page)"
    )
    args = parser.parse_args()
    site = Site(args.pages, args.page_kib)
    servers = []
    for host in range(HOSTS):
        server = ThreadingHTTPServer((f"127.0.0.{host + 2}", 0), handler_for(site, host))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
    seeds = [f"http://127.0.0.{h + 2}:{s.server_address[1]}/" for h, s in enumerate(servers)]
    with tempfile.TemporaryDirectory() as scratch:
        config = CrawlConfig(
            database=str(Path(scratch) / "c.db"), delay_seconds=args.delay, workers=8
        )
        started = time.perf_counter()
        with Crawler(config) as crawler:
            crawler.add_seeds(seeds)
            first_pages = sum(1 for _ in crawler.crawl())
        first_seconds, first_bytes, first_requests = (
            time.perf_counter() - started,
            site.bytes_sent,
            site.requests,
        )
        changed = 0
        for host in range(HOSTS):
            for page in range(site.per_host):
                if (host * site.per_host + page) % round(1 / args.changed) == 0:
                    site.version[(host, page)] = 1
                    changed += 1
        site.bytes_sent = site.requests = 0
        started = time.perf_counter()
        with Crawler(config) as crawler:
            second_pages = sum(1 for _ in crawler.recrawl())
        second_seconds = time.perf_counter() - started
    for server in servers:
        server.shutdown()
    print(
        f"site: {site.per_host * HOSTS} pages of {args.page_kib:g} KiB on {HOSTS} hosts, "
        f"{changed} changed ({args.changed:.0%}), delay {args.delay} s; bytes are everything "
        "the server wrote, status lines and headers included"
    )
    print(f"{'pass':<10}{'pages':>8}{'requests':>10}{'bytes sent':>14}{'seconds':>10}")
    print(
        f"{'first':<10}{first_pages:>8}{first_requests:>10}{first_bytes:>14,}{first_seconds:>10.1f}"
    )
    print(
        f"{'recrawl':<10}{second_pages:>8}{site.requests:>10}{site.bytes_sent:>14,}"
        f"{second_seconds:>10.1f}"
    )
    print(
        f"recrawl / first: bytes {site.bytes_sent / first_bytes:.1%} [goal <= 10%], "
        f"time {second_seconds / first_seconds:.1%}"
    )


if __name__ == "__main__":
    main()
