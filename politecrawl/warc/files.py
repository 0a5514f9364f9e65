"""The WARC files on disk: one being written (``NAME.open``, appended a whole record at a time,
with its CDXJ lines), closed by renaming; and the recovery of files a killed process left open,
cut back to their last whole record."""

from __future__ import annotations

import os
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from warcio.archiveiterator import ArchiveIterator

from politecrawl.warc.index import Capture, capture_of

OPEN = ".open"  # the suffix of a file being written


class OpenFile:
    """A WARC file being written (``NAME.open``) and its CDXJ lines."""

    def __init__(self, final: Path) -> None:
        self.final = final
        self.final_name = final.name
        self.path = final.with_name(final.name + OPEN)
        self._descriptor = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND)
        self._index = final.with_name(final.name.removesuffix(".warc.gz") + ".cdxj" + OPEN)
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
        self._index.replace(self._index.with_name(self._index.name.removesuffix(OPEN)))


def recover(directory: Path) -> list[Path]:
    """Close the files a killed process left ``.open`` (those of running processes are left
    alone): cut each back to its last whole record, rebuild its index from what remains, and
    rename it. Returns the files closed."""
    closed = []
    for stale in sorted(directory.glob(f"*.warc.gz{OPEN}")):
        if _writer_is_alive(stale):
            continue  # another process of the crawl is writing it
        final = stale.with_name(stale.name.removesuffix(OPEN))
        with stale.open("r+b") as handle:
            handle.truncate(_whole_members_length(stale))
        captures = _scan(stale, final.name)
        stale.replace(final)
        index = final.with_name(final.name.removesuffix(".warc.gz") + ".cdxj")
        index.write_text("".join(c.cdxj() + "\n" for c in captures), encoding="utf-8")
        index.with_name(index.name + OPEN).unlink(missing_ok=True)
        closed.append(final)
    return closed


def _scan(path: Path, filename: str) -> list[Capture]:
    """The captures of a WARC file of whole records (``_whole_members_length`` cut it so)."""
    captures: list[Capture] = []
    with path.open("rb") as stream:
        records = ArchiveIterator(stream)
        for record in records:
            record.raw_stream.read()  # as stored: a coded body need not be decoded here
            offset, length = records.get_record_offset(), records.get_record_length()
            if record.rec_type in ("response", "revisit"):
                captures.append(capture_of(record, filename, offset, length))
    return captures


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
