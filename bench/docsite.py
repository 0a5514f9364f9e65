"""Benchmark: one documentation site, crawled whole at delay 0, politecrawl against its peers.

Run on demand (nginx and wget installed: ``apt-get install -y nginx wget``; Scrapy from the
``peers`` extra: ``pip install -e '.[peers]'``; a peer that is missing is left out, said so):

    .venv/bin/python bench/docsite.py [--pages 530] [--kib 52] [--only politecrawl]

A site owner's crawl of their own site is one host, so one request at a time: the cost per page
is the crawl. The generated site has the shape of a Sphinx documentation build (the issue's
530-page site, 52 KB median page): every page has the global table of contents (a link to
every section index and its pages' neighbours), prev/next/up links, a body of paragraphs with
inline links, and stylesheet and script references. Every crawler reads robots.txt (which
allows everything) and is timed from outside; the figures come from nginx's log. Beside GNU
wget, the same run times Scrapy (``scrapy_spider.py``: one request at a time to the one host,
delay 0) and a minimal Python crawler on requests and lxml (``bare_crawl.py``: a loop that keeps
nothing), then the parts of a page's cost measured apart (a GET with ``requests`` and with
urllib3, the lxml parse), so that the target can be read against peers measured on the same
machine in the same minute. Prints pages fetched, wall time, the crawl span (first request to
last, from nginx's log: the process's start-up and shut-down left out), CPU time and the ratios;
asserts nothing. A ratio is printed only for a peer that fetched every page politecrawl
fetched (a peer's exit status is shown when it is not 0: wget's is 8 when a link answers 404).
``--only politecrawl`` leaves the peers out (for pairs of politecrawl's own versions).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import random
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from audit_log import read_log
from bare_crawl import parts_apart
from installed import compile_politecrawl
from web_serve import Nginx

BIN = Path(sys.executable).parent
HERE = Path(__file__).resolve().parent
ADDRESS = "127.0.0.2"
_WORDS = [
    "the",
    "crawler",
    "reads",
    "robots",
    "txt",
    "before",
    "any",
    "page",
    "of",
    "an",
    "origin",
    "and",
    "keeps",
    "the",
    "delay",
    "between",
    "requests",
    "to",
    "a",
    "host",
    "while",
    "the",
    "frontier",
    "stores",
    "every",
    "url",
    "with",
    "its",
    "state",
    "and",
    "its",
    "depth",
]


def page_html(index: int, count: int, sections: int, rng: random.Random, kib: int) -> str:
    per_section = count // sections
    section = index // per_section
    toc = [
        f'<li class="toctree-l1"><a class="reference internal" href="/s{s}/index.html">'
        f"Section {s}</a></li>"
        for s in range(sections)
    ]
    toc += [
        f'<li class="toctree-l2"><a href="/s{section}/p{n}.html">Page {n}</a></li>'
        for n in range(section * per_section, min((section + 1) * per_section, count))
    ]
    nav = [
        f'<a href="/s{max(index - 1, 0) // per_section}/p{max(index - 1, 0)}.html">prev</a>',
        f'<a href="/s{min(index + 1, count - 1) // per_section}/p{min(index + 1, count - 1)}'
        '.html">next</a>',
        f'<a href="/s{section}/index.html">up</a>',
        '<a href="/genindex.html">index</a>',
    ]
    body: list[str] = []
    size = 0
    while size < kib * 1024:
        words = " ".join(rng.choice(_WORDS) for _ in range(80))
        target = rng.randrange(count)
        link = f'<a href="/s{target // per_section}/p{target}.html#id{rng.randrange(9)}">see</a>'
        paragraph = f"<p>{words} {link}. <code>crawl.db</code> {words}</p>"
        body.append(paragraph)
        size += len(paragraph)
    return (
        "<!DOCTYPE html>\n<html><head><meta charset='utf-8'><title>Page "
        f"{index}</title><link rel='stylesheet' href='/_static/pygments.css'>"
        "<script src='/_static/doctools.js'></script></head><body>"
        f"<div class='related'>{' '.join(nav)}</div><div class='sphinxsidebar'><ul>"
        + "".join(toc)
        + "</ul></div><div class='body'>"
        + "\n".join(body)
        + "</div></body></html>\n"
    )


def build(root: Path, count: int, kib: int, port: int) -> int:
    rng = random.Random(530)
    sections = max(count // 40, 1)
    per_section = count // sections
    count = sections * per_section
    (root / "_static").mkdir(parents=True)
    (root / "robots.txt").write_text("User-agent: *\nDisallow:\n", encoding="utf-8")
    (root / "index.html").write_text(page_html(0, count, sections, rng, 4), encoding="utf-8")
    (root / "genindex.html").write_text(page_html(1, count, sections, rng, 4), encoding="utf-8")
    for section in range(sections):
        folder = root / f"s{section}"
        folder.mkdir()
        (folder / "index.html").write_text(
            page_html(section * per_section, count, sections, rng, 4), encoding="utf-8"
        )
    for index in range(count):
        path = root / f"s{index // per_section}" / f"p{index}.html"
        path.write_text(page_html(index, count, sections, rng, kib), encoding="utf-8")
    host = {
        "address": ADDRESS,
        "root": str(root),
        "robots_status": 200,
        "redirects": {},
        "headers": {},
        "trap": None,
    }
    site = {"port": port, "hosts": [host]}
    (root / "site.json").write_text(json.dumps(site), encoding="utf-8")
    return count + sections + 2


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((ADDRESS, 0))
        return int(probe.getsockname()[1])


class Timed(NamedTuple):
    wall: float
    span: float
    """The crawl span in nginx's log: the first request's start to the last one's end."""
    cpu: float
    """User and system time of all its processes: steadier than the wall time."""
    pages: int
    printed: str
    exit_status: int


def timed(command: list[str], root: Path, work: Path, name: str) -> Timed:
    """``command`` run against the site, timed from outside and read from nginx's log."""
    with Nginx(root, work / f"nginx-{name}", log_name=f"{name}.log") as server:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        done = subprocess.run(command, cwd=work, check=False, capture_output=True, text=True)
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        requests = read_log(server.log_path)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    pages = sum(1 for r in requests if r.url.endswith(".html") and r.status == 200)
    span = max(r.end for r in requests) - min(r.start for r in requests) if requests else 0.0
    return Timed(wall, span, cpu, pages, done.stdout, done.returncode)


def missing_peer(name: str) -> str | None:
    """Why the peer ``name`` cannot run on this machine, or None."""
    if name == "wget" and shutil.which("wget") is None:
        return "not installed (apt-get install -y wget)"
    if name == "scrapy" and importlib.util.find_spec("scrapy") is None:
        return "not installed (pip install -e '.[peers]')"
    return None


def print_runs(runs: dict[str, Timed], left_out: dict[str, str]) -> None:
    """The table of runs, then politecrawl's ratio to each peer that ran cleanly and whole."""
    print(f"{'':12} {'pages':>6} {'wall (s)':>9} {'crawl span (s)':>15} {'CPU (s)':>8}")
    for name, run in runs.items():
        status = "" if run.exit_status == 0 else f"  (exit status {run.exit_status})"
        print(
            f"{name:12} {run.pages:>6} {run.wall:>9.2f} {run.span:>15.2f} {run.cpu:>8.2f}{status}"
        )
    for name, why in left_out.items():
        print(f"{name:12} left out: {why}")
    if "bare loop" in runs:
        print(f"bare loop, its own clock: {runs['bare loop'].printed.strip()}")
    ours = runs["politecrawl"]
    for name, run in runs.items():
        if name == "politecrawl":
            continue
        if run.pages < ours.pages:  # wget's status is 8 when a link answers 404: not a failure
            print(f"politecrawl / {name}: no ratio ({name} fetched fewer pages)")
            continue
        target = " (target <= 2x)" if name == "wget" else ""
        print(
            f"politecrawl / {name}: wall {ours.wall / run.wall:.2f}x{target}, "
            f"CPU {ours.cpu / run.cpu:.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=530)
    parser.add_argument("--kib", type=int, default=52, help="body size of a page")
    parser.add_argument(
        "--profile", type=Path, default=None, help="py-spy raw profile of politecrawl here"
    )
    parser.add_argument("--workers", type=int, default=None, help="politecrawl --workers")
    parser.add_argument("--processes", type=int, default=None, help="politecrawl --processes")
    parser.add_argument(
        "--only", choices=("politecrawl",), default=None, help="leave the peers out"
    )
    args = parser.parse_args()
    compile_politecrawl()
    work = Path(tempfile.mkdtemp(prefix="politecrawl-docsite-"))
    work.chmod(0o755)  # nginx's unprivileged workers must read the site
    try:
        port = free_port()
        total = build(work / "site", args.pages, args.kib, port)
        seed = f"http://{ADDRESS}:{port}/index.html"
        (work / "seeds.txt").write_text(seed + "\n", encoding="utf-8")
        politecrawl = [
            str(BIN / "politecrawl"), "run", "seeds.txt", "--db", "docs.db", "--delay", "0",
            "--quiet", "--contact", "https://example.org/bench",
            *(["--workers", str(args.workers)] if args.workers else []),
            *(["--processes", str(args.processes)] if args.processes else []),
        ]  # fmt: skip
        if args.profile is not None:  # Python's CPU time only (--gil): waits left out
            politecrawl = [
                str(BIN / "py-spy"), "record", "--rate", "500", "--format", "raw", "--gil",
                "--threads", "--nonblocking", "-o", str(args.profile.resolve()), "--",
                *politecrawl,
            ]  # fmt: skip
        peers = {
            "wget": [
                "wget", "--recursive", "--level=inf", "--execute", "robots=on", "--no-verbose",
                "--directory-prefix", "wget-out", seed,
            ],
            "scrapy": [
                sys.executable, str(HERE / "scrapy_spider.py"), "--seeds", "seeds.txt",
                "--delay", "0", "--depth", "0", "--concurrency", "1", "--out", "scrapy.jsonl",
                "--log-level", "WARNING",
            ],
            "bare loop": [sys.executable, str(HERE / "bare_crawl.py"), "--seeds", "seeds.txt"],
        }  # fmt: skip
        runs = {"politecrawl": timed(politecrawl, work / "site", work, "politecrawl")}
        left_out = {}
        if args.only is None:
            for name, command in peers.items():
                why = missing_peer(name)
                if why is None:
                    runs[name] = timed(command, work / "site", work, name.replace(" ", "-"))
                else:
                    left_out[name] = why
        size = sorted(p.stat().st_size for p in (work / "site").rglob("p*.html"))
        print(
            f"documentation site: {total} pages, median {size[len(size) // 2] / 1024:.0f} KiB, "
            f"one host, delay 0"
        )
        print_runs(runs, left_out)
        if args.only is None:
            pages = sorted((work / "site").rglob("*.html"))
            urls = [f"http://{ADDRESS}:{port}/{page.relative_to(work / 'site')}" for page in pages]
            with Nginx(work / "site", work / "nginx-apart", log_name="apart.log"):
                apart = parts_apart(urls)
            spent = ", ".join(f"{part} {seconds:.2f} s" for part, seconds in apart.items())
            print(f"measured apart, {len(urls)} pages: {spent}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
