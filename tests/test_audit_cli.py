"""``politecrawl audit``, run as a site owner runs it [G1-G4, B1]: files plain and gzip, in any
order, bad input said once and never fatal unless nothing could be read, every format, a
robots.txt fetched from a real server on 127.0.0.1, and a crawl database's stored copies."""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
import sys
import threading
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from tests.audit_logs import ROBOTS, SITE, START, planted_log, write_log

from politecrawl.cli.main import main


def run(*args: str):
    return subprocess.run(
        [sys.executable, "-m", "politecrawl", "audit", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.fixture
def site(tmp_path):
    """The planted log split in two rotated files (the older one gzip), and robots.txt."""
    lines = planted_log().lines
    robots = tmp_path / "robots.txt"
    robots.write_text(ROBOTS)
    older = write_log(tmp_path / "access.log.1.gz", lines[:30], compress=True)
    newer = write_log(tmp_path / "access.log", lines[30:])
    return robots, newer, older


def test_g1_rotated_files_gzip_or_not_are_read_oldest_first(site):
    robots, newer, older = site
    # given newest first, as a shell's glob gives them: read oldest first all the same
    result = run(
        str(newer), str(older), "--robots", str(robots), "--site", SITE, "--retry-after", "60"
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    for verdict in (
        "politebot: obeys",
        "skipbot: skips robots.txt",
        "fastbot: too fast",
        "hammerbot: ignores 429/503",
        "wildbot: ignores robots.txt",
    ):
        assert verdict in out
    assert "rfc9309: line 7: Disallow: /*?sessionid=" in out
    assert f"{older}:11: not a combined, common or JSON log line" in out
    assert (
        "skips robots.txt" not in out.split("politebot")[1]
    )  # politebot's first request is in the older file


def test_g1_a_truncated_gzip_is_read_to_where_it_ends_and_said_once(tmp_path, site):
    robots, _, _ = site
    data = gzip.compress(("\n".join(planted_log().lines) + "\n").encode())
    cut = tmp_path / "cut.log.gz"
    cut.write_bytes(data[: len(data) * 2 // 3])
    result = run(str(cut), "--robots", str(robots))
    assert result.returncode == 0, result.stderr
    (message,) = result.stderr.splitlines()
    assert message.startswith(f"politecrawl: {cut}: the gzip data ends early or is damaged")
    assert "politebot" in result.stdout


def test_g1_unknown_formats_are_one_message_each_and_exit_2_only_when_nothing_was_read(
    tmp_path, site
):
    robots, newer, _ = site
    binary = tmp_path / "image.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" * 50)
    prose = tmp_path / "notes.txt"
    prose.write_text("\n".join(f"meeting note {n}" for n in range(100)))
    missing = tmp_path / "missing.log"
    result = run(str(binary), str(prose), str(missing), "--robots", str(robots))
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 4, lines  # one per file, then why nothing was audited
    assert f"{binary}: not an access log in a known format" in lines[0] + lines[1] + lines[2]
    assert f"{prose}: not an access log in a known format" in result.stderr
    assert f"{missing}: no such file" in result.stderr
    assert "Traceback" not in result.stderr
    ok = run(str(prose), str(newer), "--robots", str(robots))
    assert ok.returncode == 0
    assert ok.stderr.count("\n") == 1


def test_b1_a_missing_robots_file_is_one_line_exit_2(tmp_path, site):
    _, newer, _ = site
    result = run(str(newer), "--robots", str(tmp_path / "nope.txt"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "nope.txt: cannot read robots.txt" in result.stderr


def test_g3_json_csv_and_html_reports(tmp_path, site, capsys):
    robots, newer, older = site
    common = [str(older), str(newer), "--robots", str(robots), "--site", SITE]
    assert main(["audit", *common, "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    verdicts = {crawler["name"]: crawler["verdict"] for crawler in data["crawlers"]}
    assert verdicts["wildbot"] == "ignores robots.txt"
    assert data["bad_lines"] == 2
    assert main(["audit", *common, "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    forbidden = [row for row in rows if row["finding"] == "forbidden"]
    assert [(row["crawler"], row["url"]) for row in forbidden] == [
        ("wildbot", f"{SITE}/products?sessionid=abc123")
    ]
    out = tmp_path / "audit.html"
    assert main(["audit", *common, "--format", "html", "--out", str(out)]) == 0
    page = out.read_text()
    assert page.count('<section id="crawler-') == 6
    assert '<svg class="timeline"' in page
    assert 'class="forbidden"' in page  # the forbidden request marked on the timeline
    assert "data-sortable" in page
    assert "<script>" in page
    assert "Content-Security-Policy" in page


def test_g3_html_escapes_what_strangers_wrote(tmp_path):
    robots = tmp_path / "robots.txt"
    robots.write_text("User-agent: *\nDisallow: /x\n")
    when = START.strftime("%d/%b/%Y:%H:%M:%S +0000")
    evil = f'1.2.3.4 - - [{when}] "GET /x<script>alert(1)</script> HTTP/1.1" 200 1 "-" "<b>bot/1"'
    log = write_log(tmp_path / "access.log", [evil])
    out = tmp_path / "audit.html"
    assert (
        main(["audit", str(log), "--robots", str(robots), "--format", "html", "--out", str(out)])
        == 0
    )
    page = out.read_text()
    assert "<script>alert(1)" not in page
    assert "&lt;script&gt;alert(1)" in page
    assert "<b>bot" not in page


class _Robots(BaseHTTPRequestHandler):
    body = ROBOTS.encode()

    def do_GET(self):
        status, body = (200, self.body) if self.path == "/robots.txt" else (404, b"")
        self.send_response(status)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def robots_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Robots)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_g3_robots_txt_fetched_from_the_site_through_the_fetcher(site, robots_server, capsys):
    _, newer, older = site
    code = main(["audit", str(older), str(newer), "--robots", f"{robots_server}/robots.txt"])
    assert code == 0
    out = capsys.readouterr().out
    assert "wildbot: ignores robots.txt" in out
    assert f"robots.txt of {robots_server}" in out  # the site defaults to the robots URL's


def test_g4_robots_versions_with_the_time_each_took_effect(tmp_path, capsys):
    old = tmp_path / "old.txt"
    old.write_text("User-agent: *\nDisallow:\n")
    new = tmp_path / "new.txt"
    new.write_text("User-agent: *\nDisallow: /b\n")
    from tests.audit_logs import POLITE, line

    log = write_log(
        tmp_path / "access.log",
        [
            line(START, POLITE, "/robots.txt"),
            line(START + timedelta(minutes=5), POLITE, "/b"),
            line(START + timedelta(hours=3), POLITE, "/b"),
        ],
    )
    took_effect = (START + timedelta(hours=1)).isoformat()
    code = main(["audit", str(log), "--robots", str(old), "--robots", f"{new}@{took_effect}"])
    assert code == 0
    out = capsys.readouterr().out
    assert "forbidden (strict reading): 1 request" in out
    assert f"by {new}" in out


def test_g4_robots_txt_read_from_a_crawl_database(tmp_path, site, capsys):
    from politecrawl.robots.outcome import RobotsOutcome
    from politecrawl.store import Frontier, RobotsOutcomeStore, open_database

    _, newer, older = site
    path = tmp_path / "crawl.db"
    database = open_database(str(path))
    try:
        Frontier(database).add([f"{SITE}/"], now=START)  # the crawl knows the origin
        outcome = RobotsOutcome("parsed", 200, ROBOTS.encode(), "O3", START, None, 0)
        RobotsOutcomeStore(database).put(SITE, outcome, now=START - timedelta(days=1))
    finally:
        database.close()
    assert main(["audit", str(older), str(newer), "--db", str(path)]) == 0
    out = capsys.readouterr().out
    assert "wildbot: ignores robots.txt" in out
    assert f"{path}: {SITE}/robots.txt (parsed" in out
