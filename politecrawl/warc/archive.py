"""``WarcArchive``: the WARC files of one crawl process, thread-safe (records built outside the
lock, appended under it, a file rotated at a size, a URL's last capture remembered for
revisits); and ``ArchivingFetcher``, the fetcher that archives every answer before returning
it, and so before the crawl database records the page.

A write that fails (a full disk, a directory gone) is not the page's fault: the file is cut
back to its last whole record (or removed, when it holds nothing but its warcinfo), the
archive stops (every later record, and every fetch of an ``ArchivingFetcher``, raises the same
``ArchiveError``), and the crawl stops as on a database that cannot be written: the page being
archived stays queued, for a resumed crawl to fetch (W2, C5, B1)."""

from __future__ import annotations

import os
import threading
from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NoReturn

from politecrawl.config import ArchiveSettings
from politecrawl.errors import ArchiveError
from politecrawl.fetch import Fetcher, FetchRequest, FetchResult
from politecrawl.warc.files import OPEN, OpenFile, recover
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
        self.directory = directory
        self._run = run
        self._info = dict(info)
        self._max_file_bytes = max_file_bytes
        self._lock = threading.Lock()
        self._serial = 0
        self._file: OpenFile | None = None
        self._stopped: str | None = None  # why the archive stopped (its ArchiveError)
        try:
            directory.mkdir(parents=True, exist_ok=True)
            recover(directory)
            # The last capture of each URL, for revisit records (from every file before this run).
            self._last: dict[str, Capture] = {
                capture.url: capture
                for capture in read_index(directory)
                if capture.kind == "response"
            }
        except OSError as error:
            reason = error.strerror or str(error)
            raise ArchiveError(f"cannot use the WARC directory {directory}: {reason}") from error

    def __enter__(self) -> WarcArchive:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def record(self, result: FetchResult) -> str | None:
        """Write ``result``'s request and response (or revisit) records; the response's
        WARC-Record-ID, or None when the result carries no exchange. The records are built
        and compressed outside the archive's lock; only the appends are serialised. Raises
        ``ArchiveError`` when they cannot be written (then and ever after)."""
        exchange = result.exchange
        if exchange is None:
            return None
        records = exchange_records(result, exchange, self._last.get(result.url))
        with self._lock:
            file = self._open()
            mark = file.mark()
            try:
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
                file.index(capture)
            except OSError as error:
                self._give_up(file, error, mark)
            if records.kind == "response":
                self._last[result.url] = capture
        return records.record_id

    def record_metadata(self, url: str, concurrent_to: str, fields: Mapping[str, Any]) -> None:
        """A ``metadata`` record for ``url`` (JSON), tied to its response record (in the same
        file, unless another thread's exchange came between them and rotated it)."""
        member = metadata_record(url, concurrent_to, fields)
        with self._lock:
            file = self._open()
            mark = file.mark()
            try:
                file.append(member)
            except OSError as error:
                self._give_up(file, error, mark)

    def raise_if_stopped(self) -> None:
        """Raise the archive's ``ArchiveError`` if a write failed: nothing more can be kept."""
        if self._stopped is not None:
            raise ArchiveError(self._stopped)

    def close(self) -> None:
        """Close the file being written (its index sorted, renamed from ``.open``)."""
        with self._lock:
            self._close_current()

    def _close_current(self) -> None:
        """Close the file being written, if one is; under the lock."""
        file, self._file = self._file, None
        if file is not None:
            try:
                file.close()
            except OSError as error:
                self._stop(file, error, f"left {OPEN}: the next run closes it")

    def _open(self) -> OpenFile:
        """The file being written: a new one (begun with its warcinfo record) if none is, or
        the one being written has reached its size; under the lock."""
        self.raise_if_stopped()
        if self._file is not None and self._file.size < self._max_file_bytes:
            return self._file
        # Rotated here, before an exchange, rather than after one: a page's metadata record
        # then follows its response into the same file, and no file holds only metadata.
        self._close_current()
        self._serial += 1
        stamp = datetime.now(UTC).strftime("%Y%m%d%H%M%S")
        name = f"politecrawl-{self._run}-{stamp}-{self._serial:05d}-{os.getpid()}.warc.gz"
        try:
            self._file = OpenFile(self.directory / name, warcinfo_record(name, self._info))
        except OSError as error:
            self._stop_at(self.directory / name, error, "removed: it held no record")
        return self._file

    def _give_up(self, file: OpenFile, error: OSError, mark: tuple[int, int]) -> NoReturn:
        """A write to ``file`` failed: cut it back to ``mark`` and close it, and stop."""
        self._file = None
        try:
            file.abandon(mark)
        except OSError:
            self._stop(file, error, f"left {OPEN}: the next run cuts it to its last whole record")
        if file.has_records:
            self._stop(file, error, "closed at its last whole record")
        self._stop(file, error, "removed: it held no record")

    def _stop(self, file: OpenFile, error: OSError, what_became_of_it: str) -> NoReturn:
        self._stop_at(file.final, error, what_became_of_it)

    def _stop_at(self, path: Path, error: OSError, what_became_of_it: str) -> NoReturn:
        reason = error.strerror or str(error)
        self._stopped = (
            f"cannot write the WARC file {path}: {reason} ({what_became_of_it}); the crawl "
            "stopped, everything recorded so far is kept, the pages not archived stay queued "
            "(resume fetches them)"
        )
        raise ArchiveError(self._stopped) from error


class ArchivingFetcher(Fetcher):
    """A ``Fetcher`` whose every answer is written to a ``WarcArchive`` before it is returned
    (and so before the crawl records it), with the record's id in ``archived_as``; once the
    archive has stopped, every fetch raises its ``ArchiveError``."""

    def __init__(self, archive: WarcArchive, **fetcher_options: Any) -> None:
        super().__init__(keep_exchanges=True, **fetcher_options)
        self.archive = archive

    def _answer(self, request: FetchRequest) -> FetchResult:
        self.archive.raise_if_stopped()  # an answer that cannot be kept is not asked for
        result = super()._answer(request)
        record_id = self.archive.record(result)
        return replace(result, exchange=None, archived_as=record_id)  # the raw bytes are kept

    def close(self) -> None:
        super().close()
        self.archive.close()
