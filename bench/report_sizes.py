"""How long each form of the report is, on a site where a few broken links are everywhere.

    .venv/bin/python bench/report_sizes.py [--pages 500] [--broken 3] [--demo]

Serves a generated site on 127.0.0.2 (Python's ``http.server``, one thread a request): an index
and ``--pages`` pages, each linking to the index, its neighbours and the same ``--broken``
missing pages (404), the shape of a documentation site whose menu links to a page that moved.
Crawls it with ``politecrawl check --delay 0`` into a fresh database, then writes the report in
every form (``politecrawl report --format ...``) and prints each one's lines and bytes, and the
time each took (the command's whole run). ``--demo`` does the same for the bundled demo site
(``politecrawl demo``). ``--large N`` writes a crawl database of N fetched pages on 20 hosts
straight into the schema (no crawl: a page every 0.1 s, one in fifty a 404, each linking to the
same 3 broken pages) and measures its reports: whether a report stays fast at 100k URLs.
Prints; asserts nothing. Only 127.0.0.0/8.
"""

from __future__ import annotations

import argparse
import hashlib
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

BIN = Path(sys.executable).parent
FORMATS = ("text", "html", "csv", "json", "junit")
ADDRESS = "127.0.0.2"


def build_site(root: Path, pages: int, broken: int) -> None:
    """``index.html`` and ``page-N.html``; every page links to the ``missing-K.html`` pages."""
    missing = "".join(
        f'<li><a href="/missing-{k}.html">Moved page {k}</a></li>' for k in range(broken)
    )
    (root / "robots.txt").write_text("User-agent: *\nAllow: /\n", encoding="utf-8")
    index = "".join(f'<li><a href="/page-{n}.html">Page {n}</a></li>' for n in range(pages))
    (root / "index.html").write_text(
        f"<!DOCTYPE html><title>Docs</title><ul>{missing}</ul><ul>{index}</ul>", encoding="utf-8"
    )
    for n in range(pages):
        near = "".join(
            f'<a href="/page-{m}.html">Page {m}</a> ' for m in (n - 1, n + 1) if 0 <= m < pages
        )
        (root / f"page-{n}.html").write_text(
            f"<!DOCTYPE html><title>Page {n}</title>\n<nav>\n<ul>{missing}</ul>\n</nav>\n"
            f'<p><a href="/">Index</a> {near}</p>\n',
            encoding="utf-8",
        )


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def measure(
    database: Path, out: Path, formats: tuple[str, ...] = FORMATS
) -> list[tuple[str, int, int, float]]:
    """(format, lines, bytes, seconds) of each form of the report of ``database``."""
    rows = []
    for form in formats:
        target = out / f"report.{form}"
        began = time.perf_counter()
        command = [str(BIN / "politecrawl"), "report", "--db", str(database), "--format", form]
        subprocess.run([*command, "--out", str(target)], check=True, capture_output=True)
        seconds = time.perf_counter() - began
        data = target.read_bytes()
        rows.append((form, data.count(b"\n"), len(data), seconds))
    return rows


def crawl_generated(work: Path, pages: int, broken: int) -> Path:
    site = work / "site"
    site.mkdir()
    build_site(site, pages, broken)
    handler = partial(_Quiet, directory=str(site))
    server = ThreadingHTTPServer((ADDRESS, 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    database = work / "site.db"
    try:
        url = f"http://{ADDRESS}:{server.server_address[1]}/"
        command = [str(BIN / "politecrawl"), "check", url, "--db", str(database), "--delay", "0"]
        subprocess.run([*command, "--quiet", "--format", "json"], capture_output=True, check=False)
    finally:
        server.shutdown()
        server.server_close()
    return database


def crawl_demo(work: Path) -> Path:
    database = work / "demo.db"
    command = [str(BIN / "politecrawl"), "demo", "--db", str(database)]
    subprocess.run(command, capture_output=True, check=True)
    return database


def build_large(work: Path, pages: int, hosts: int = 20) -> Path:
    """A crawl database of ``pages`` fetched pages, written row by row into the schema."""
    from politecrawl.store import open_database  # noqa: PLC0415 (the schema, by migration)

    database = work / "large.db"
    open_database(str(database)).close()
    start = 1_767_225_600.0  # 2026-01-01
    connection = sqlite3.connect(database)
    with connection:
        connection.execute(
            "INSERT INTO crawl_runs (pass_number, started_at, ended_at, config_json,"
            " counters_json, outcome) VALUES (1, ?, ?, '{}', '{}', 'finished')",
            (start, start + pages * 0.1 + 1),
        )
        for host in range(1, hosts + 1):
            connection.execute(
                "INSERT INTO hosts (id, host, active, next_fetch_at, in_flight, max_in_flight,"
                " delay_seconds, backoff_seconds, error_streak) VALUES (?, ?, 0, ?, 0, 1, 1.0,"
                " 0, 0)",
                (host, f"h{host}.test", start),
            )
            connection.execute(
                "INSERT INTO origins (id, origin, host_id, robots_outcome, robots_status,"
                " robots_fetched_at, robots_failures) VALUES (?, ?, ?, 'allow_all', 404, ?, 0)",
                (host, f"http://h{host}.test", host, start),
            )

        def url_row(index: int, host: int, path: str, status: int) -> tuple[object, ...]:
            url = f"http://h{host}.test/{path}"
            key = hashlib.blake2b(url.encode(), digest_size=16).digest()
            fetched = start + index * 0.1 + 0.05
            depth = 0 if index == 4 else 1  # one seed
            return (index, key, url, host, host, depth, status, fetched)

        rows = [url_row(n, 1, f"missing-{n}", 404) for n in range(1, 4)]
        for n in range(4, pages + 4):
            rows.append(url_row(n, n % hosts + 1, f"p{n}", 404 if n % 50 == 0 else 200))
        connection.executemany(
            "INSERT INTO urls (id, url_key, url, origin_id, host_id, depth, priority, state,"
            " pass_number, discovered_at, attempts, redirect_hops, status, fetched_at,"
            " elapsed_seconds, kind) VALUES (?, ?, ?, ?, ?, ?, 0, 'done', 1, 0, 1, 0, ?, ?,"
            " 0.05, 'page')",
            rows,
        )
        connection.executemany(
            "INSERT INTO links (from_id, to_id, nofollow, line, resource) VALUES (?, ?, 0, 7, 0)",
            [(page, target) for page in range(4, pages + 4) for target in (1, 2, 3)],
        )
    connection.close()
    return database


def _print(title: str, rows: list[tuple[str, int, int, float]]) -> None:
    print(title)
    print(f"  {'FORMAT':<6}  {'LINES':>7}  {'BYTES':>10}  {'SECONDS':>7}")
    for form, lines, size, seconds in rows:
        print(f"  {form:<6}  {lines:>7,}  {size:>10,}  {seconds:>7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=500)
    parser.add_argument("--broken", type=int, default=3)
    parser.add_argument("--demo", action="store_true", help="also the bundled demo site")
    parser.add_argument("--keep", type=Path, help="write the databases and reports here")
    parser.add_argument("--large", type=int, help="also a database of this many pages")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        work = args.keep or Path(temporary)
        work.mkdir(parents=True, exist_ok=True)
        generated = work / "generated"
        generated.mkdir(exist_ok=True)
        database = crawl_generated(generated, args.pages, args.broken)
        title = f"{args.pages} pages, each linking to the same {args.broken} broken pages"
        _print(title, measure(database, generated))
        if args.demo:
            demo = work / "demo"
            demo.mkdir(exist_ok=True)
            _print("the demo site (politecrawl demo)", measure(crawl_demo(demo), demo))
        if args.large:
            large = work / "large"
            large.mkdir(exist_ok=True)
            title = f"{args.large:,} pages on 20 hosts, written into the schema"
            _print(title, measure(build_large(large, args.large), large))


if __name__ == "__main__":
    main()
