"""How long each form of the report is, on a site where a few broken links are everywhere.

    .venv/bin/python bench/report_sizes.py [--pages 500] [--broken 3] [--demo]

Serves a generated site on 127.0.0.2 (Python's ``http.server``, one thread a request): an index
and ``--pages`` pages, each linking to the index, its neighbours and the same ``--broken``
missing pages (404), the shape of a documentation site whose menu links to a page that moved.
Crawls it with ``politecrawl check --delay 0`` into a fresh database, then writes the report in
every form (``politecrawl report --format ...``) and prints each one's lines and bytes, and the
time the text and HTML reports took. ``--demo`` does the same for the bundled demo site
(``politecrawl demo``). Prints; asserts nothing. Only 127.0.0.0/8.
"""

from __future__ import annotations

import argparse
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


def measure(database: Path, out: Path) -> list[tuple[str, int, int, float]]:
    """(format, lines, bytes, seconds) of each form of the report of ``database``."""
    rows = []
    for form in FORMATS:
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


if __name__ == "__main__":
    main()
