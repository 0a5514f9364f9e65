"""WARC output (``--warc DIR``): what the crawl fetched, as archivists' tools read it, checked
against the server's own log [C5, C7, E3]."""

from __future__ import annotations

import collections
import gzip
import io
import json
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tests.site import build_site, serve

from politecrawl import CrawlConfig, Crawler
from politecrawl.fetch import Exchange, FetchResult
from politecrawl.warc import WarcArchive, iter_records, read_index, recover

WARCIO = Path(sys.executable).with_name("warcio")


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
