"""What ``politecrawl run`` tells a person and cron: its exit status and the hints it prints.

Each test serves a tiny site on 127.0.0.1 and runs the command line in a subprocess. Exit
status: 0 finished and nothing broken; 1 broken pages, failed or deferred work, or seeds that
robots.txt forbids; 2 a usage error; 130 interrupted (tested in tests/test_cli_crawl.py).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import politecrawl

OPEN_ROBOTS = "User-agent: *\nDisallow:\n"


def serve(pages: dict[str, tuple[int, str]]) -> Iterator[tuple[str, list[str]]]:
    requested: list[str] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requested.append(self.path)
            status, body = pages.get(self.path, (404, "not found"))
            data = body.encode()
            self.send_response(status)
            kind = "text/plain" if self.path == "/robots.txt" else "text/html"
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", requested
    finally:
        server.shutdown()
        server.server_close()


def run(tmp_path: Path, base: str, *extra: str) -> subprocess.CompletedProcess[str]:
    seeds = tmp_path / "seeds.txt"
    seeds.write_text(base + "/\n")
    return subprocess.run(
        [
            *(sys.executable, "-m", "politecrawl", "run", str(seeds), "--db", "crawl.db"),
            *("--delay", "0.05", "--quiet", "--contact", "https://example.org/bot", *extra),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "POLITECRAWL_ROBOTS_RETRY_SECONDS": "0.2"},
        check=False,
    )


@pytest.fixture
def broken_site():
    yield from serve(
        {
            "/robots.txt": (200, OPEN_ROBOTS),
            "/": (200, '<a href="/ok.html">ok</a> <a href="/missing.html">gone</a>'),
            "/ok.html": (200, "<p>fine</p>"),
        }
    )


def test_a_crawl_with_a_broken_link_exits_1_so_cron_can_tell(tmp_path, broken_site):
    base, requested = broken_site
    result = run(tmp_path, base)
    assert "/missing.html" in requested
    assert result.returncode == 1, result.stderr
    assert "1 error;" in result.stdout


def test_a_clean_crawl_exits_0(tmp_path):
    for base, _ in serve({"/robots.txt": (200, OPEN_ROBOTS), "/": (200, "<p>all fine</p>")}):
        result = run(tmp_path, base)
        assert result.returncode == 0, result.stderr


def test_running_a_finished_crawl_again_says_so_and_points_to_recrawl(tmp_path, broken_site):
    base, requested = broken_site
    assert run(tmp_path, base).returncode == 1
    count = len(requested)
    again = run(tmp_path, base)
    assert len(requested) == count  # nothing fetched twice
    assert again.returncode == 0  # this run found nothing broken: it did nothing
    # the seed, its broken link and the guessed /sitemap.xml (S1, a 404: no sitemap, no error)
    assert "was already finished (4 URLs fetched, 0 failed)" in again.stderr
    assert "politecrawl recrawl --db crawl.db" in again.stderr


def test_m7_a_seed_robots_txt_forbids_is_said_at_once_with_the_way_in(tmp_path):
    pages = {"/robots.txt": (200, "User-agent: *\nDisallow: /\n"), "/": (200, "<p>staging</p>")}
    for base, requested in serve(pages):
        result = run(tmp_path, base)
        assert requested == ["/robots.txt"]  # obeyed: the seed itself never fetched
    assert result.returncode == 1
    assert f"robots.txt forbids the seed {base}/ (line 2: Disallow: /)" in result.stderr
    assert "User-agent: politecrawl\n    Allow: /" in result.stderr


def test_help_shows_defaults_and_no_spec_ids():
    result = subprocess.run(
        [sys.executable, "-m", "politecrawl", "run", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0
    text = " ".join(result.stdout.split())
    for shown in (
        "(default: ./crawl.db)",
        "(default: politecrawl)",
        "(default: 1;",
        "(default: 4)",
    ):
        assert shown in text
    # SPEC ids stay in the code and the docs (docs/configuration.md cites them), not in --help
    assert not re.search(r"\([A-Z]\d+\)", text)


def test_the_common_limits_have_flags():
    from politecrawl.cli.main import build_parser
    from politecrawl.cli.run import effective_config

    args = build_parser().parse_args(
        ["run", "seeds.txt", "--max-pages-per-host", "3", "--max-duration", "60", "--timeout", "5"]
    )
    config = effective_config(args, None)
    assert (config.scope.max_pages_per_host, config.scope.max_duration_seconds) == (3, 60.0)
    assert config.fetching.response_timeout_seconds == 5.0


@pytest.mark.timeout(180)
def test_the_demo_keeps_its_database_where_the_user_can_open_it_again(tmp_path):
    # As after `make demo`: the program is the environment's script, and not on PATH.
    script = Path(sys.executable).parent / "politecrawl"
    program = [str(script)] if script.is_file() else [sys.executable, "-m", "politecrawl"]
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(politecrawl.__file__).parents[1])}
    demo = subprocess.run(
        [*program, "demo"],
        capture_output=True,
        text=True,
        timeout=170,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert demo.returncode == 0, demo.stderr
    assert "The crawl is in politecrawl-demo.db" in demo.stdout
    # The closing hint works as printed, in the shell the demo ran from.
    hint = re.search(r"try `([^`]+)`", demo.stdout)
    assert hint is not None, demo.stdout
    assert not hint[1].startswith("politecrawl "), hint[1]  # not on PATH: its path is given
    report = subprocess.run(
        hint[1],
        shell=True,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert report.returncode == 0, report.stderr
    assert (tmp_path / "report.html").read_text().lstrip().lower().startswith("<!doctype html>")
    status = subprocess.run(
        [*program, "status", "--db", "politecrawl-demo.db"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env=env,
        check=False,
    )
    assert status.returncode == 0, status.stderr
    assert "done" in status.stdout
