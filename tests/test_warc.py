"""WARC output (``--warc DIR``): what the crawl fetched, as archivists' tools read it, checked
against the server's own log [C5, C7, E3]; and a full disk under it (``tests/full_disk.py``)
[W2, C5, B1]."""

from __future__ import annotations

import collections
import gzip
import io
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from tests.full_disk import IS_SUPPORTED as FULL_DISK_SUPPORTED, FullDisk
from tests.site import build_site, serve

from politecrawl import CrawlConfig, Crawler
from politecrawl.errors import ArchiveError
from politecrawl.fetch import Exchange, FetchResult
from politecrawl.warc import WarcArchive, iter_records, read_index, recover

WARCIO = Path(sys.executable).with_name("warcio")
FULL_DISK = Path(__file__).with_name("full_disk.py")
needs_full_disk = pytest.mark.skipif(
    not FULL_DISK_SUPPORTED, reason="tests/full_disk.py needs /proc/self/fd (Linux)"
)


@pytest.fixture(scope="module")
def web():
    with serve(build_site(crawl_delay_seconds=0.05, slow_seconds=0.1)) as running:
        yield running


@pytest.fixture(scope="module")
def archived(web, tmp_path_factory):
    """One crawl of the test web with WARC output (a 1 MiB body cap): its directory, its
    database's directory and the requests the server answered."""
    start = len(web.log)
    home = tmp_path_factory.mktemp("archived")
    directory = crawl(web, home, max_body_bytes=1 << 20)
    return directory, home, list(web.log)[start:]


def crawl(web, tmp_path: Path, **settings) -> Path:
    config = CrawlConfig(
        database=str(tmp_path / "crawl.db"),
        delay_seconds=0.02,
        warc_dir=str(tmp_path / "warc"),
        contact="https://example.org/bot",
        **settings,
    )
    with Crawler(config) as crawler:
        crawler.add_seeds(web.seeds)
        crawler.run()
    return tmp_path / "warc"


def uri_of(record) -> str:
    return record.rec_headers.get_header("WARC-Target-URI")


def records(directory: Path) -> list:
    found = []
    for path in sorted(directory.glob("*.warc.gz")):
        for record in iter_records(path):
            body = record.raw_stream.read()  # the payload as received (still content-coded)
            found.append((path.name, record, body))
    return found


def warcio_check(directory: Path) -> subprocess.CompletedProcess:
    files = [str(path) for path in sorted(directory.glob("*.warc.gz"))]
    command = [WARCIO, "check", "-v", *files]
    return subprocess.run(command, check=False, capture_output=True, text=True)


def test_w1_every_exchange_is_a_request_and_a_response_record_that_agree_with_the_server(
    web, archived
):
    directory, _, served = archived
    found = records(directory)
    kinds = collections.Counter(record.rec_type for _, record, _ in found)
    assert kinds["warcinfo"] == 1
    # One request record and one response (or revisit) record per request the server answered,
    # robots.txt included, with the status the server logged.
    assert kinds["request"] == len(served)
    assert kinds["response"] + kinds["revisit"] == len(served)
    logged = collections.Counter(
        (request.origin + request.path_with_query, request.status) for request in served
    )
    answered = collections.Counter(
        (
            record.rec_headers.get_header("WARC-Target-URI"),
            int(record.http_headers.get_statuscode()),
        )
        for _, record, _ in found
        if record.rec_type in ("response", "revisit")
    )
    assert answered == logged
    assert any(uri.endswith("/robots.txt") for uri, _ in answered)
    check = warcio_check(directory)  # block and payload digests
    assert check.returncode == 0, check.stdout + check.stderr

    # The request record is what was sent: the server saw the same User-Agent.
    agents = {dict(request.headers).get("User-Agent") for request in served}
    sent = {
        record.http_headers.get_header("User-Agent")
        for _, record, _ in found
        if record.rec_type == "request"
    }
    assert sent == agents
    # A request record points at its response; a metadata record carries the decision.
    ids = {record.rec_headers.get_header("WARC-Record-ID") for _, record, _ in found}
    for _, record, _body in found:
        if record.rec_type == "request":
            assert record.rec_headers.get_header("WARC-Concurrent-To") in ids
    home = web.url("main", "/")
    metadata = [
        json.loads(body)
        for _, record, body in found
        if record.rec_type == "metadata"
        and record.rec_headers.get_header("WARC-Target-URI") == home
    ]
    assert metadata
    assert metadata[0]["depth"] == 0
    assert metadata[0]["links"]
    # The index lists every capture with its file and offset.
    captures = read_index(directory)
    assert len(captures) == len(served)
    first = captures[0]
    with (directory / first.filename).open("rb") as handle:
        handle.seek(first.offset)
        member = gzip.decompress(handle.read(first.length))
    assert member.startswith(b"WARC/1.1\r\n")
    assert first.record_id.encode() in member


def test_w1_c7_a_gzip_bomb_is_archived_as_far_as_it_was_read_and_marked_truncated(web, archived):
    directory, _, _ = archived
    bomb = web.url("main", "/big/bomb.html")
    (record, body) = next(
        (record, body)
        for _, record, body in records(directory)
        if record.rec_type == "response"
        and record.rec_headers.get_header("WARC-Target-URI") == bomb
    )
    assert record.rec_headers.get_header("WARC-Truncated") == "length"
    assert record.http_headers.get_header("Content-Encoding") == "gzip"
    inflated = gzip.GzipFile(fileobj=io.BytesIO(body)).read(2 << 20)
    assert len(inflated) >= 1 << 20  # the coded bytes as read: they inflate past the cap


def test_w1_e3_a_recrawl_writes_revisits_that_point_at_the_first_capture(web, archived, tmp_path):
    shutil.copytree(archived[1], tmp_path, dirs_exist_ok=True)
    directory = tmp_path / "warc"
    originals = {
        capture.url: capture for capture in read_index(directory) if capture.kind == "response"
    }
    config = CrawlConfig(
        database=str(tmp_path / "crawl.db"),
        delay_seconds=0.02,
        max_body_bytes=1 << 20,
        warc_dir=str(directory),
        contact="https://example.org/bot",
    )
    with Crawler(config) as crawler:
        for _ in crawler.recrawl():
            pass
    second_run = [
        record
        for name, record, _ in records(directory)
        if "run000002" in name and record.rec_type == "revisit"
    ]
    not_modified = [
        record
        for record in second_run
        if record.rec_headers.get_header("WARC-Profile").endswith("/server-not-modified")
    ]
    assert not_modified, "a 304 in the recrawl is a server-not-modified revisit"
    for record in not_modified:
        url = record.rec_headers.get_header("WARC-Target-URI")
        original = originals[url]
        assert record.http_headers.get_statuscode() == "304"
        assert record.rec_headers.get_header("WARC-Refers-To") == original.record_id
        assert record.rec_headers.get_header("WARC-Refers-To-Date") == original.timestamp
        assert record.rec_headers.get_header("WARC-Payload-Digest") == original.digest
    # A body answered again unchanged (a 404 page, say: no validators) is an
    # identical-payload-digest revisit of the first capture, not a second copy.
    identical = [
        record
        for record in second_run
        if record.rec_headers.get_header("WARC-Profile").endswith("/identical-payload-digest")
    ]
    assert identical
    for record in identical:
        original = originals[uri_of(record)]
        assert record.rec_headers.get_header("WARC-Payload-Digest") == original.digest
        assert record.rec_headers.get_header("WARC-Refers-To") == original.record_id
    check = warcio_check(directory)
    assert check.returncode == 0, check.stdout + check.stderr


def test_w2_recover_cuts_a_half_written_record_and_indexes_what_remains(archived, tmp_path):
    directory = archived[0]
    whole = next(directory.glob("*.warc.gz"))
    data = whole.read_bytes()
    captures = read_index(directory)
    last = max(captures, key=lambda capture: capture.offset)
    stale = tmp_path / (whole.name + ".open")
    stale.write_bytes(data[: last.offset + last.length // 2])  # killed inside a record
    closed = recover(tmp_path)
    assert closed == [tmp_path / whole.name]
    assert (tmp_path / whole.name).stat().st_size <= last.offset
    assert all(True for _ in records(tmp_path))  # reads to the end without an error
    assert len(read_index(tmp_path)) == len(captures) - 1


@pytest.mark.timeout(300)
def test_w2_c5_killed_mid_crawl_every_done_page_has_its_records_and_every_file_reads(tmp_path):
    with serve(build_site(crawl_delay_seconds=0.05, slow_seconds=0.3)) as web:
        seeds = tmp_path / "seeds.txt"
        seeds.write_text("\n".join(web.seeds) + "\n")
        command = [
            sys.executable,
            str(Path(__file__).with_name("crawl_process.py")),
            str(tmp_path / "crawl.db"),
            str(seeds),
            "0.05",
            f"warc_dir={tmp_path / 'warc'}",
            "response_timeout_seconds=30",
        ]
        rng = random.Random(7)
        kills = 0
        for _ in range(3):
            child = subprocess.Popen(command)
            time.sleep(1.5 + rng.random() * 2)
            if child.poll() is None:
                child.send_signal(signal.SIGKILL)
                child.wait()
                kills += 1
        assert subprocess.run(command, timeout=240, check=False).returncode == 0
    assert kills >= 2
    directory = tmp_path / "warc"
    assert not list(directory.glob("*.open"))  # the killed runs' files were closed on resume
    archived = collections.Counter()
    for _, record, _ in records(directory):  # every file reads to its end
        if record.rec_type in ("response", "revisit"):
            archived[record.rec_headers.get_header("WARC-Target-URI")] += 1
    with sqlite3.connect(tmp_path / "crawl.db") as connection:
        done = [url for (url,) in connection.execute("SELECT url FROM urls WHERE state = 'done'")]
    assert done
    assert [url for url in done if not archived[url]] == []
    check = warcio_check(directory)
    assert check.returncode == 0, check.stdout + check.stderr
    for index in directory.glob("*.cdxj"):  # the killed runs' indexes, rebuilt sorted
        assert_sorted_cdxj(index)


def test_files_rotate_at_their_size_each_opening_with_warcinfo(tmp_path):
    body = random.Random(1).randbytes(4000)  # incompressible: each record about 4 KiB
    exchange = Exchange(
        "GET /p HTTP/1.1",
        (("Host", "h.example"), ("User-Agent", "politecrawl")),
        "HTTP/1.1",
        "OK",
        body,
        datetime.now(UTC),
    )
    headers = (("Content-Type", "text/html"), ("Content-Length", str(len(body))))
    with WarcArchive(tmp_path, run="run000001", info={}, max_file_bytes=4096) as archive:
        for index in range(5):
            url = f"http://h.example/p{index}"
            result = FetchResult(url, 200, headers, body, False, 0.01, None, exchange)
            assert archive.record(result)
    files = sorted(tmp_path.glob("*.warc.gz"))
    assert len(files) == 5  # each file passed 4 KiB with its first page
    assert [name.name.split("-")[3] for name in files] == [
        "00001",
        "00002",
        "00003",
        "00004",
        "00005",
    ]
    for path in files:
        kinds = [record.rec_type for record in iter_records(path)]
        assert kinds == ["warcinfo", "response", "request"]
    assert len(read_index(tmp_path)) == 5


def assert_sorted_cdxj(index: Path) -> None:
    """Sorted as replay tools (pywb) look lines up: by bytes, so by SURT key, then time."""
    lines = index.read_bytes().splitlines()
    assert lines, f"{index.name} is empty"
    assert lines == sorted(lines), f"{index.name} is not sorted"


def exchange_result(url: str, body: bytes) -> FetchResult:
    exchange = Exchange(
        f"GET {urlsplit(url).path} HTTP/1.1",
        (("Host", urlsplit(url).netloc), ("User-Agent", "politecrawl")),
        "HTTP/1.1",
        "OK",
        body,
        datetime.now(UTC),
    )
    headers = (("Content-Type", "text/html"), ("Content-Length", str(len(body))))
    return FetchResult(url, 200, headers, body, False, 0.01, None, exchange)


def leftovers(directory: Path) -> list[str]:
    """Files that are empty, or still being written (``.open``)."""
    return sorted(
        path.name
        for path in directory.iterdir()
        if path.stat().st_size == 0 or path.name.endswith(".open")
    )


def test_w1_each_cdxj_index_is_sorted_as_replay_tools_expect(archived, tmp_path):
    directory = archived[0]
    indexes = sorted(directory.glob("*.cdxj"))
    assert indexes
    for index in indexes:
        assert_sorted_cdxj(index)
    # Written in the crawl's order, the lines would not be: the test web's pages come in
    # another order than their keys.
    captures = read_index(directory)
    assert [c.cdxj() for c in captures] == sorted(c.cdxj() for c in captures)
    # An index rebuilt from a file a killed process left open is sorted too (W2).
    whole = next(directory.glob("*.warc.gz"))
    (tmp_path / (whole.name + ".open")).write_bytes(whole.read_bytes())
    recover(tmp_path)
    assert_sorted_cdxj(next(tmp_path.glob("*.cdxj")))


def test_warc_files_and_indexes_are_created_with_the_umask_s_mode_not_executable(tmp_path):
    before = os.umask(0o022)
    try:
        with WarcArchive(tmp_path, run="run000001", info={}) as archive:
            archive.record(exchange_result("http://h.example/p", b"<p>hello</p>"))
            being_written = sorted(tmp_path.iterdir())
            assert being_written
            for path in being_written:
                assert path.stat().st_mode & 0o777 == 0o644, path.name
    finally:
        os.umask(before)
    closed = sorted(tmp_path.iterdir())
    assert {path.suffix for path in closed} == {".gz", ".cdxj"}
    for path in closed:
        assert path.stat().st_mode & 0o777 == 0o644, path.name


def test_w1_records_carry_the_ip_address_the_connection_used(tmp_path, archived):
    # A host *name* resolved to 127.0.0.1 (the `resolve` setting): the address comes from the
    # connection, not from the URL.
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b"User-agent: *\nDisallow:\n" if self.path == "/robots.txt" else b"<p>hi</p>"
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        config = CrawlConfig(
            database=str(tmp_path / "crawl.db"),
            delay_seconds=0.01,
            warc_dir=str(tmp_path / "warc"),
            contact="https://example.org/bot",
            resolve=("archive-ip.test:127.0.0.1",),
        )
        with Crawler(config) as crawler:
            crawler.add_seeds([f"http://archive-ip.test:{server.server_address[1]}/"])
            crawler.run()
    finally:
        server.shutdown()
        server.server_close()
    exchanges = [
        record
        for _, record, _ in records(tmp_path / "warc")
        if record.rec_type in ("request", "response")
    ]
    paths = {urlsplit(uri_of(record)).path for record in exchanges}
    assert {"/", "/robots.txt"} <= paths
    for record in exchanges:
        assert record.rec_headers.get_header("WARC-IP-Address") == "127.0.0.1"
    # Over the whole test web: each origin's own loopback address, on responses and revisits.
    for _, record, _ in records(archived[0]):
        if record.rec_type in ("request", "response", "revisit"):
            host = urlsplit(uri_of(record)).hostname
            assert record.rec_headers.get_header("WARC-IP-Address") == host


@needs_full_disk
def test_w2_b1_a_write_the_disk_refuses_cuts_the_file_to_its_last_whole_record(
    tmp_path, monkeypatch
):
    directory = tmp_path / "warc"
    directory.mkdir()
    body = random.Random(2).randbytes(3000)  # incompressible: each exchange about 3.5 KiB
    disk = FullDisk(directory, capacity_bytes=8000)  # the warcinfo and one exchange fit
    monkeypatch.setattr(os, "write", disk.write)
    monkeypatch.setattr(os, "pwrite", disk.pwrite)
    archive = WarcArchive(directory, run="run000001", info={})
    assert archive.record(exchange_result("http://h.example/1", body))
    with pytest.raises(ArchiveError) as raised:
        archive.record(exchange_result("http://h.example/2", body))
    message = str(raised.value)
    assert "\n" not in message
    assert str(directory) in message
    assert "No space left on device" in message
    assert disk.refused
    # The file is closed at its last whole exchange, its index sorted beside it: nothing
    # empty, nothing half-written, nothing left open.
    assert leftovers(directory) == []
    (path,) = directory.glob("*.warc.gz")
    assert [record.rec_type for record in iter_records(path)] == [
        "warcinfo",
        "response",
        "request",
    ]
    assert [capture.url for capture in read_index(directory)] == ["http://h.example/1"]
    check = warcio_check(directory)
    assert check.returncode == 0, check.stdout + check.stderr
    # The archive stays stopped: no new file is begun for the next page (nor its metadata).
    with pytest.raises(ArchiveError):
        archive.record(exchange_result("http://h.example/3", b"small"))
    with pytest.raises(ArchiveError):
        archive.record_metadata("http://h.example/3", "<urn:uuid:x>", {"depth": 0})
    archive.close()
    assert {p.name for p in directory.iterdir()} == {path.name, path.stem[:-5] + ".cdxj"}


@needs_full_disk
@pytest.mark.parametrize("capacity_bytes", [0, 1500])  # nothing fits; only the warcinfo fits
def test_w2_b1_a_file_that_never_got_a_whole_record_is_removed(
    tmp_path, monkeypatch, capacity_bytes
):
    disk = FullDisk(tmp_path, capacity_bytes=capacity_bytes)
    monkeypatch.setattr(os, "write", disk.write)
    monkeypatch.setattr(os, "pwrite", disk.pwrite)
    with (
        WarcArchive(tmp_path, run="run000001", info={}) as archive,
        pytest.raises(ArchiveError, match="No space left on device"),
    ):
        archive.record(exchange_result("http://h.example/1", random.randbytes(3000)))
    assert list(tmp_path.iterdir()) == []


@needs_full_disk
@pytest.mark.timeout(300)
def test_w2_c5_b1_a_full_disk_stops_the_crawl_in_one_line_and_resume_fetches_the_rest(tmp_path):
    warc = tmp_path / "warc"
    with serve(build_site(crawl_delay_seconds=0.05, slow_seconds=0.1)) as web:
        seeds = tmp_path / "seeds.txt"
        seeds.write_text(web.url("main", "/") + "\n")
        options = ("--db", "crawl.db", "--delay", "0.02", "--quiet")
        full = subprocess.run(
            [sys.executable, str(FULL_DISK), str(warc), "60000", "run", str(seeds), *options,
             "--contact", "https://example.org/bot", "--warc", str(warc)],
            capture_output=True, text=True, timeout=240, cwd=tmp_path, check=False,
        )  # fmt: skip
        first_run = list(web.log)
        # As for the crawl database on a full disk: one line naming the file and the cause,
        # exit status 2, no traceback.
        assert full.returncode == 2, full.stderr
        assert "Traceback" not in full.stderr
        (line,) = full.stderr.strip().splitlines()
        assert line.startswith("politecrawl: ")
        assert str(warc) in line
        assert "No space left on device" in line
        # Nothing empty or half-written is left; what was archived reads to its end.
        assert leftovers(warc) == []
        archived = {
            uri_of(record)
            for _, record, _ in records(warc)
            if record.rec_type in ("response", "revisit")
        }
        assert archived
        check = warcio_check(warc)
        assert check.returncode == 0, check.stdout + check.stderr
        for index in warc.glob("*.cdxj"):
            assert_sorted_cdxj(index)
        # The pages being written when the disk filled are not failed: still queued, as the
        # server's log and the archive tell.
        with sqlite3.connect(tmp_path / "crawl.db") as connection:
            states = dict(connection.execute("SELECT url, state FROM urls").fetchall())
            errors = connection.execute("SELECT error FROM urls WHERE error IS NOT NULL")
            assert not [error for (error,) in errors if "internal error" in error]
        # The server answered them; their records (or the metadata after them) could not be
        # written. None is done without its response record (W2).
        answered = {request.url for request in first_run if request.url in states}
        queued = {url for url in answered if states[url] == "queued"}
        assert queued, "the disk filled while a page was being written"
        assert answered - archived <= queued
        assert [
            url for url, state in states.items() if state == "done" and url not in archived
        ] == []
        # Space returns (the disk is the real one again): resume fetches them.
        start = len(web.log)
        resumed = subprocess.run(
            [sys.executable, "-m", "politecrawl", "resume", "--db", "crawl.db", "--quiet"],
            capture_output=True, text=True, timeout=240, cwd=tmp_path, check=False,
        )  # fmt: skip
        assert resumed.returncode in (0, 1), resumed.stderr  # 1: the test web's broken pages
        assert queued <= {request.url for request in list(web.log)[start:]}
    assert leftovers(warc) == []
    with sqlite3.connect(tmp_path / "crawl.db") as connection:
        states = dict(connection.execute("SELECT url, state FROM urls").fetchall())
    archived = {
        uri_of(record)
        for _, record, _ in records(warc)
        if record.rec_type in ("response", "revisit")
    }
    assert queued <= archived
    assert [url for url, state in states.items() if state == "done" and url not in archived] == []
    assert not [url for url, state in states.items() if state in ("queued", "leased")]
    check = warcio_check(warc)
    assert check.returncode == 0, check.stdout + check.stderr
