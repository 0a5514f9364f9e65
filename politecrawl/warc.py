"""WARC output: what a crawl fetched, as ISO 28500 WARC/1.1 files that replay tools read.

``WarcArchive`` owns a directory of ``.warc.gz`` files (one gzip member per record, written
with warcio). Every HTTP exchange becomes a ``request`` and a ``response`` record (the status
line and headers as received, the body as received up to the fetch limits, ``WARC-Truncated``
when it was cut), robots.txt included; a 304 in a recrawl becomes a ``revisit`` record (profile
server-not-modified) and a body identical to the URL's last capture an identical-payload-digest
``revisit``; ``metadata`` records carry the crawl's decision for a page. Each file starts with
a ``warcinfo`` record (software, agent, the run's configuration).

Files are named ``politecrawl-<run>-<timestamp>-<serial>-<pid>.warc.gz`` (every process of a
crawl writes its own) and rotated at a size. Crash safety: a record is built in memory and
reaches the file in one ``write``, before the crawl database records the page, so a killed
process leaves no page recorded as done without its records; a file being written is named
``*.open`` and renamed when closed. A file left ``.open`` by a killed process is cut back to its
last complete record and closed when the next run opens the directory; a new run never appends
to an old file. Beside each file, a CDXJ index (url key, timestamp, JSON with url, status,
digest, filename, offset, length) lets a replay tool find a capture; ``read_index`` merges them.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import threading
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from politecrawl._version import VERSION
from politecrawl.fetch import Fetcher, FetchRequest, FetchResult

DEFAULT_MAX_FILE_BYTES = 1 << 30
_OPEN = ".open"
_NOT_MODIFIED = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
_IDENTICAL = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"


@dataclass(frozen=True, slots=True)
class Capture:
    """Where one URL's response (or revisit) record is: a line of the CDXJ index."""

    url: str
    timestamp: str  # WARC-Date: 2026-11-26T01:02:03.456789Z
    status: int
    digest: str  # WARC-Payload-Digest: sha1:BASE32
    filename: str
    offset: int
    length: int
    record_id: str
    kind: str  # response or revisit

    def cdxj(self) -> str:
        fields = {
            "url": self.url,
            "date": self.timestamp,
            "status": str(self.status),
            "digest": self.digest,
            "filename": self.filename,
            "offset": str(self.offset),
            "length": str(self.length),
            "record_id": self.record_id,
        }
        if self.kind == "revisit":
            fields["mime"] = "warc/revisit"  # as pywb's indexes mark a revisit
        stamp = "".join(ch for ch in self.timestamp if ch.isdigit())[:14]
        return f"{_surt(self.url)} {stamp} {json.dumps(fields, sort_keys=True)}"


class WarcArchive:
    """The WARC files of one crawl's process; thread-safe. Use ``close`` (or ``with``)."""

    def __init__(
        self,
        directory: Path,
        *,
        run: str,
        info: Mapping[str, str],
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    ) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        recover(directory)
        self.directory = directory
        self._run = run
        self._info = dict(info)
        self._max_file_bytes = max_file_bytes
        self._lock = threading.Lock()
        self._serial = 0
        self._file: _OpenFile | None = None
        # The last capture of each URL, for revisit records (from every file before this run).
        self._last: dict[str, Capture] = {
            capture.url: capture for capture in read_index(directory) if capture.kind == "response"
        }

    def __enter__(self) -> WarcArchive:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def record(self, result: FetchResult) -> str | None:
        """Write ``result``'s request and response (or revisit) records; the response's
        WARC-Record-ID, or None when the result carries no exchange. The records are built
        and compressed outside the archive's lock (zlib and sha1 let other threads run); only
        the appends are serialised."""
        exchange = result.exchange
        if exchange is None:
            return None
        date = _warc_date(exchange.started_at)
        http = StatusAndHeaders(
            f"{result.status} {exchange.reason}".strip(),
            list(result.headers),
            protocol=exchange.protocol,
        )
        digest = _payload_digest(exchange.raw_body)
        builder = _MemberWriter()
        earlier = self._last.get(result.url)
        headers: dict[str, str] = {"WARC-Date": date}
        kind = "revisit"
        if result.status == 304 and earlier is not None:
            response = builder.create_revisit_record(
                result.url, earlier.digest, earlier.url, earlier.timestamp, http, headers
            )
            response.rec_headers.replace_header("WARC-Profile", _NOT_MODIFIED)
            response.rec_headers.add_header("WARC-Refers-To", earlier.record_id)
        elif (
            earlier is not None
            and earlier.digest == digest
            and result.status == earlier.status
            and exchange.raw_body
        ):
            response = builder.create_revisit_record(
                result.url, digest, earlier.url, earlier.timestamp, http, headers
            )
            response.rec_headers.replace_header("WARC-Profile", _IDENTICAL)
            response.rec_headers.add_header("WARC-Refers-To", earlier.record_id)
        else:
            if result.truncated:
                headers["WARC-Truncated"] = "length"
            headers["WARC-Payload-Digest"] = digest  # computed once, above
            response = builder.create_warc_record(
                result.url,
                "response",
                payload=io.BytesIO(exchange.raw_body),
                length=len(exchange.raw_body),
                http_headers=http,
                warc_headers_dict=headers,
            )
            kind = "response"
        record_id = str(response.rec_headers.get_header("WARC-Record-ID"))
        request = builder.create_warc_record(
            result.url,
            "request",
            payload=io.BytesIO(b""),
            length=0,
            http_headers=StatusAndHeaders(
                exchange.request_line, list(exchange.request_headers), is_http_request=True
            ),
            warc_headers_dict={"WARC-Date": date, "WARC-Concurrent-To": record_id},
        )
        response_member = builder.member(response)
        request_member = builder.member(request)
        payload_digest = str(response.rec_headers.get_header("WARC-Payload-Digest") or digest)
        with self._lock:
            self._open()
            offset, length = self._current().append(response_member)
            self._current().append(request_member)
            capture = Capture(
                result.url,
                date,
                result.status,
                payload_digest,
                self._current().final_name,
                offset,
                length,
                record_id,
                kind,
            )
            if kind == "response":
                self._last[result.url] = capture
            self._current().index(capture)
            self._rotate_if_full()
        return record_id

    def record_metadata(self, url: str, concurrent_to: str, fields: Mapping[str, Any]) -> None:
        """A ``metadata`` record for ``url`` (JSON), tied to its response record."""
        payload = json.dumps(fields, sort_keys=True, default=str).encode("utf-8")
        builder = _MemberWriter()
        record = builder.create_warc_record(
            url,
            "metadata",
            payload=io.BytesIO(payload),
            length=len(payload),
            warc_content_type="application/json",
            warc_headers_dict={"WARC-Concurrent-To": concurrent_to},
        )
        member = builder.member(record)
        with self._lock:
            self._open()
            self._current().append(member)
            self._rotate_if_full()

    def close(self) -> None:
        """Close the file being written (renamed from ``.open``)."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    # --- files ------------------------------------------------------------------------------

    def _current(self) -> _OpenFile:
        assert self._file is not None
        return self._file

    def _open(self) -> None:
        """Begin a file (with its warcinfo record) unless one is open; under the lock."""
        if self._file is not None:
            return
        self._serial += 1
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        name = f"politecrawl-{self._run}-{stamp}-{self._serial:05d}-{os.getpid()}.warc.gz"
        self._file = _OpenFile(self.directory / name)
        builder = _MemberWriter()
        info = builder.create_warcinfo_record(
            name,
            {"software": f"politecrawl/{VERSION}", "format": "WARC File Format 1.1"} | self._info,
        )
        self._file.append(builder.member(info))

    def _rotate_if_full(self) -> None:
        if self._file is not None and self._file.size >= self._max_file_bytes:
            self._file.close()
            self._file = None


class ArchivingFetcher(Fetcher):
    """A ``Fetcher`` whose every answer is written to a ``WarcArchive`` before it is returned
    (and so before the crawl records it), with the record's id in ``archived_as``."""

    def __init__(self, archive: WarcArchive, **fetcher_options: Any) -> None:
        super().__init__(keep_exchanges=True, **fetcher_options)
        self.archive = archive

    def _answer(self, request: FetchRequest) -> FetchResult:
        result = super()._answer(request)
        record_id = self.archive.record(result)
        return replace(result, exchange=None, archived_as=record_id)  # the raw bytes are kept

    def close(self) -> None:
        super().close()
        self.archive.close()


class _OpenFile:
    """A WARC file being written (``NAME.open``) and its CDXJ lines."""

    def __init__(self, final: Path) -> None:
        self.final = final
        self.final_name = final.name
        self.path = final.with_name(final.name + _OPEN)
        self._descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND)
        self._index = final.with_name(final.name.removesuffix(".warc.gz") + ".cdxj" + _OPEN)
        self._index_file = self._index.open("a", encoding="utf-8")
        self.size = 0

    def append(self, data: bytes) -> tuple[int, int]:
        """Write one whole record (one ``write``: a kill leaves it whole or absent)."""
        offset = self.size
        written = os.write(self._descriptor, data)
        while written < len(data):  # a short write (a full disk, a signal): finish it
            written += os.write(self._descriptor, data[written:])
        self.size += len(data)
        return offset, len(data)

    def index(self, capture: Capture) -> None:
        self._index_file.write(capture.cdxj() + "\n")
        self._index_file.flush()

    def close(self) -> None:
        os.close(self._descriptor)
        self._index_file.close()
        self.path.replace(self.final)
        self._index.replace(self._index.with_name(self._index.name.removesuffix(_OPEN)))


def recover(directory: Path) -> list[Path]:
    """Close the files a killed process left ``.open`` (those of running processes are left
    alone): cut each back to its last whole record, rebuild its index from what remains, and
    rename it. Returns the files closed."""
    closed = []
    for stale in sorted(directory.glob(f"*.warc.gz{_OPEN}")):
        if _writer_is_alive(stale):
            continue  # another process of the crawl is writing it
        final = stale.with_name(stale.name.removesuffix(_OPEN))
        with stale.open("r+b") as handle:
            handle.truncate(_whole_members_length(stale))
        captures = _scan(stale, final.name)
        stale.replace(final)
        index = final.with_name(final.name.removesuffix(".warc.gz") + ".cdxj")
        index.write_text("".join(c.cdxj() + "\n" for c in captures), encoding="utf-8")
        index.with_name(index.name + _OPEN).unlink(missing_ok=True)
        closed.append(final)
    return closed


def read_index(directory: Path) -> list[Capture]:
    """Every capture in the CDXJ indexes of ``directory``, oldest file first."""
    captures = []
    for index in sorted(directory.glob("*.cdxj")):  # names sort by run, time and serial
        for line in index.read_text(encoding="utf-8").splitlines():
            _key, stamp, fields = line.split(" ", 2)
            data = json.loads(fields)
            captures.append(
                Capture(
                    data["url"],
                    data.get("date") or _stamp_to_date(stamp),
                    int(data["status"]),
                    data["digest"],
                    data["filename"],
                    int(data["offset"]),
                    int(data["length"]),
                    data["record_id"],
                    "revisit" if data.get("mime") == "warc/revisit" else "response",
                )
            )
    return captures


def _scan(path: Path, filename: str) -> list[Capture]:
    """The captures of a WARC file of whole records (``_whole_members_length`` cut it so)."""
    captures: list[Capture] = []
    with path.open("rb") as stream:
        records = ArchiveIterator(stream)
        for record in records:
            record.raw_stream.read()  # as stored: a coded body need not be decoded here
            offset, length = records.get_record_offset(), records.get_record_length()
            if record.rec_type in ("response", "revisit"):
                captures.append(_capture_of(record, filename, offset, length))
    return captures


def _writer_is_alive(path: Path) -> bool:
    """Is the process named in a file's name (``...-<pid>.warc.gz.open``) still running?"""
    pid = path.name.removesuffix(f".warc.gz{_OPEN}").rsplit("-", 1)[-1]
    if not pid.isdigit() or int(pid) == os.getpid():
        return False
    if os.name == "nt":
        return True  # no harmless signal 0 there: such files stay .open, never cut short
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # someone else's process
    return True


def _whole_members_length(path: Path) -> int:
    """How many leading bytes of ``path`` are whole gzip members (records): a member cut short
    by a kill, or garbage after the last whole one, is not counted."""
    end = 0  # where the last whole member ends
    fed = 0  # bytes of the file given to the inflater so far
    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
    with path.open("rb") as handle:
        while chunk := handle.read(1 << 20):
            fed += len(chunk)
            pending = chunk
            while pending:
                try:
                    inflater.decompress(pending, 1 << 16)  # the output is not needed
                except zlib.error:
                    return end
                if inflater.eof:
                    pending = inflater.unused_data
                    end = fed - len(pending)
                    inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
                else:
                    pending = inflater.unconsumed_tail
    return end


def _capture_of(record: Any, filename: str, offset: int, length: int) -> Capture:
    headers = record.rec_headers
    http = record.http_headers
    return Capture(
        str(headers.get_header("WARC-Target-URI")),
        str(headers.get_header("WARC-Date")),
        int(http.get_statuscode() or 0) if http else 0,
        str(headers.get_header("WARC-Payload-Digest") or ""),
        filename,
        offset,
        length,
        str(headers.get_header("WARC-Record-ID")),
        record.rec_type,
    )


class _MemberWriter(WARCWriter):  # type: ignore[misc]
    """warcio's record builder and writer, one record at a time into memory as one gzip member
    (gzip's default level 6: warcio's own wrapper uses 9, which cost a third of the crawl's
    speed for a few percent of size)."""

    def __init__(self) -> None:
        super().__init__(io.BytesIO(), gzip=False, warc_version="1.1")

    def member(self, record: Any) -> bytes:
        self.out = io.BytesIO()
        self.write_record(record)
        compressor = zlib.compressobj(6, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
        return compressor.compress(self.out.getvalue()) + compressor.flush()


def _payload_digest(body: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(body).digest()).decode("ascii")  # noqa: S324


def _warc_date(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _stamp_to_date(stamp: str) -> str:
    return f"{stamp[0:4]}-{stamp[4:6]}-{stamp[6:8]}T{stamp[8:10]}:{stamp[10:12]}:{stamp[12:14]}Z"


def _surt(url: str) -> str:
    """The sort-friendly URL key of CDXJ: host labels reversed, then the path."""
    parts = urlsplit(url)
    host = ",".join(reversed((parts.hostname or "").split(".")))
    port = f":{parts.port}" if parts.port else ""
    path = parts.path or "/"
    query = f"?{parts.query}" if parts.query else ""
    return f"{host}{port}){path}{query}".lower()


def iter_records(path: Path) -> Iterator[Any]:
    """The records of one WARC file (warcio's ``ArchiveIterator``), for tests and tools."""
    with path.open("rb") as stream:
        yield from ArchiveIterator(stream)
