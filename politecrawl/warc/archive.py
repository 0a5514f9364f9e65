"""``WarcArchive``: the WARC files of one crawl process, thread-safe (records built outside the
lock, appended under it, a file rotated at a size, a URL's last capture remembered for
revisits); and ``ArchivingFetcher``, the fetcher that archives every answer before returning
it, and so before the crawl database records the page."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from politecrawl.config import ArchiveSettings
from politecrawl.fetch import Fetcher, FetchRequest, FetchResult
from politecrawl.warc.files import OpenFile, recover
from politecrawl.warc.index import Capture, read_index
from politecrawl.warc.records import exchange_records, metadata_record, warcinfo_record

DEFAULT_MAX_FILE_BYTES = ArchiveSettings().warc_max_file_bytes


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
        self._file: OpenFile | None = None
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
        and compressed outside the archive's lock; only the appends are serialised."""
        exchange = result.exchange
        if exchange is None:
            return None
        records = exchange_records(result, exchange, self._last.get(result.url))
        with self._lock:
            file = self._open()
            offset, length = file.append(records.response)
            file.append(records.request)
            capture = Capture(
                result.url,
                records.date,
                result.status,
                records.payload_digest,
                file.final_name,
                offset,
                length,
                records.record_id,
                records.kind,
            )
            if records.kind == "response":
                self._last[result.url] = capture
            file.index(capture)
            self._rotate_if_full()
        return records.record_id

    def record_metadata(self, url: str, concurrent_to: str, fields: Mapping[str, Any]) -> None:
        """A ``metadata`` record for ``url`` (JSON), tied to its response record."""
        member = metadata_record(url, concurrent_to, fields)
        with self._lock:
            self._open().append(member)
            self._rotate_if_full()

    def close(self) -> None:
        """Close the file being written (renamed from ``.open``)."""
        with self._lock:
            if self._file is not None:
                self._file.close()
                self._file = None

    def _open(self) -> OpenFile:
        """The file being written, begun (with its warcinfo record) if none is; under the lock."""
        if self._file is not None:
            return self._file
        self._serial += 1
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        name = f"politecrawl-{self._run}-{stamp}-{self._serial:05d}-{os.getpid()}.warc.gz"
        self._file = OpenFile(self.directory / name)
        self._file.append(warcinfo_record(name, self._info))
        return self._file

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
