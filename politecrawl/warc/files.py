"""The WARC files on disk: one being written (``NAME.open``, appended a whole record at a time,
its CDXJ lines journalled beside it in ``NAME.cdxj.open`` in the order written), closed by
sorting its index and renaming both; what a failed write leaves (cut back to the last whole
record, or removed when the file holds nothing but its warcinfo); and the recovery of files a
killed process left open, cut back to their last whole record, their index rebuilt sorted."""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from warcio.archiveiterator import ArchiveIterator

from politecrawl.warc.index import Capture, capture_of, sorted_cdxj

OPEN = ".open"  # the suffix of a file being written
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation of gzip or CDXJ bytes
_CREATE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | _BINARY
_MODE = 0o666  # a plain file: the umask decides (0644 under 022), never executable


class OpenFile:
    """A WARC file being written (``NAME.open``), begun with its warcinfo record, and the
    journal of its CDXJ lines (``NAME.cdxj.open``). A file that never gets a record beyond its
    warcinfo archives nothing, and is removed rather than closed."""

    def __init__(self, final: Path, warcinfo: bytes) -> None:
        self.final = final
        self.final_name = final.name
        self.path = final.with_name(final.name + OPEN)
        self.index_path = index_of(final)
        self.journal = self.index_path.with_name(self.index_path.name + OPEN)
        self.size = 0
        self._journal_size = 0
        self._descriptors: list[int] = []
        created: list[Path] = []  # only these are ours to remove (O_EXCL: never another's)
        try:
            for path in (self.path, self.journal):
                self._descriptors.append(os.open(path, _CREATE, _MODE))
                created.append(path)
            self.append(warcinfo)
        except OSError:
            self._close_descriptors()
            for path in created:
                path.unlink(missing_ok=True)
            raise
        self._warcinfo_size = self.size

    @property
    def has_records(self) -> bool:
        """Whether a record beyond the warcinfo is in the file."""
        return self.size > self._warcinfo_size

    def mark(self) -> tuple[int, int]:
        """Where the file and its journal end now: what ``abandon`` cuts them back to."""
        return self.size, self._journal_size

    def append(self, data: bytes) -> tuple[int, int]:
        """Write one whole record (one ``write``: a kill leaves it whole or absent); its offset
        and length."""
        offset = self.size
        _write_all(self._descriptors[0], data)
        self.size += len(data)
        return offset, len(data)

    def index(self, capture: Capture) -> None:
        """Journal ``capture``'s CDXJ line (one ``write``; sorted when the file is closed)."""
        line = (capture.cdxj() + "\n").encode("utf-8")
        _write_all(self._descriptors[1], line)
        self._journal_size += len(line)

    def close(self) -> None:
        """Sort the index into ``NAME.cdxj``, then rename the file from ``.open``: until that
        last rename, ``recover`` rebuilds the index from the records, so a kill at any point
        leaves a usable index. A file without a record beyond its warcinfo is removed. An
        ``OSError`` leaves the file ``.open``, for ``recover`` to close."""
        self._close_descriptors()
        if not self.has_records:
            self._remove()
            return
        _sort_in_place(self.journal)
        self.journal.replace(self.index_path)
        self.path.replace(self.final)

    def abandon(self, mark: tuple[int, int]) -> None:
        """After a write failed: cut the file and its journal back to ``mark`` (whole records
        and their lines), then close it as ``close`` does. An ``OSError`` (the cut failed too)
        leaves the file ``.open``, for ``recover`` to cut back."""
        try:
            for descriptor, size in zip(self._descriptors, mark, strict=True):
                os.ftruncate(descriptor, size)
        except OSError:
            self._close_descriptors()
            raise
        self.size, self._journal_size = mark
        self.close()

    def _close_descriptors(self) -> None:
        descriptors, self._descriptors = self._descriptors, []
        for descriptor in descriptors:
            os.close(descriptor)

    def _remove(self) -> None:
        self.path.unlink(missing_ok=True)
        self.journal.unlink(missing_ok=True)


def index_of(warc: Path) -> Path:
    """The CDXJ index beside a WARC file: ``NAME.cdxj`` for ``NAME.warc.gz``."""
    return warc.with_name(warc.name.removesuffix(".warc.gz") + ".cdxj")


def _write_all(descriptor: int, data: bytes) -> None:
    written = os.write(descriptor, data)
    while written < len(data):  # a short write (a full disk, a signal): finish it, or fail
        written += os.write(descriptor, data[written:])


def _sort_in_place(journal: Path) -> None:
    """Write the journal's lines back sorted over its own bytes: the same bytes in another
    order need no new space, so a full disk (but for a copy-on-write file system) still lets
    a file be closed; a kill in the middle leaves the file ``.open``, and ``recover`` rebuilds
    its index from the records."""
    ordered = sorted_cdxj(journal.read_text(encoding="utf-8").splitlines()).encode("utf-8")
    descriptor = os.open(journal, os.O_WRONLY | _BINARY)
    try:
        _write_all(descriptor, ordered)
    finally:
        os.close(descriptor)


def recover(directory: Path) -> list[Path]:
    """Close the files a killed process left ``.open`` (those of running processes are left
    alone): cut each back to its last whole record, rebuild its index (sorted) from what
    remains, and rename it; one without a record beyond its warcinfo is removed. Returns the
    files closed."""
    closed = []
    for stale in sorted(directory.glob(f"*.warc.gz{OPEN}")):
        if _writer_is_alive(stale):
            continue  # another process of the crawl is writing it
        final = stale.with_name(stale.name.removesuffix(OPEN))
        index = index_of(final)
        with stale.open("r+b") as handle:
            handle.truncate(_whole_members_length(stale))
        captures, has_records = _scan(stale, final.name)
        if not has_records:  # nothing but a warcinfo, or not even that: nothing archived
            stale.unlink()
            index.with_name(index.name + OPEN).unlink(missing_ok=True)
            continue
        index.write_text(sorted_cdxj(c.cdxj() for c in captures), encoding="utf-8")
        index.with_name(index.name + OPEN).unlink(missing_ok=True)
        stale.replace(final)  # last, as in OpenFile.close
        closed.append(final)
    return closed


def _scan(path: Path, filename: str) -> tuple[list[Capture], bool]:
    """The captures of a WARC file of whole records (``_whole_members_length`` cut it so), and
    whether it holds any record beyond a warcinfo."""
    captures: list[Capture] = []
    has_records = False
    with path.open("rb") as stream:
        records = ArchiveIterator(stream)
        for record in records:
            record.raw_stream.read()  # as stored: a coded body need not be decoded here
            offset, length = records.get_record_offset(), records.get_record_length()
            has_records = has_records or record.rec_type != "warcinfo"
            if record.rec_type in ("response", "revisit"):
                captures.append(capture_of(record, filename, offset, length))
    return captures, has_records


def _writer_is_alive(path: Path) -> bool:
    """Is the process named in a file's name (``...-<pid>.warc.gz.open``) still running?"""
    pid = path.name.removesuffix(f".warc.gz{OPEN}").rsplit("-", 1)[-1]
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


def iter_records(path: Path) -> Iterator[Any]:
    """The records of one WARC file (warcio's ``ArchiveIterator``), for tests and tools."""
    with path.open("rb") as stream:
        yield from ArchiveIterator(stream)
