"""Access-log files to lines, in time order, gzip or not; and a line to a record [G1].

Streaming: a file is read a line at a time (gzip decompressed as it is read), so memory does not
grow with the log. Files are read oldest first (by the time of their first readable line), so
``access.log access.log.1 access.log.2.gz``, in the order a shell's glob gives them, reads as
the log was written. A gzip file that ends early (cut short while being copied or rotated) is
read up to where it ends, and said so; a file that is no access log (its first lines read in no
known format, or it holds binary data) is skipped, and said so, once.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from politecrawl.audit.formats import parse_combined
from politecrawl.audit.json_lines import parse_json_line
from politecrawl.audit.records import LogRecord

_GZIP_MAGIC = b"\x1f\x8b"
_PEEK_LINES = 50
UNKNOWN_FORMAT_LINES = 20
"""A file whose first this many lines are all unreadable is taken for no access log at all."""


def parse_line(line: str) -> LogRecord | str:
    """One log line, in whichever format it is written, to a record or the reason it is none."""
    if line.startswith("{"):
        return parse_json_line(line)
    return parse_combined(line)


@dataclass
class LogFile:
    """One file of the log, and what went wrong reading it."""

    path: Path
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        """The file as the user named it."""
        return str(self.path)

    def lines(self) -> Generator[str, None, None]:
        """The file's lines, without line ends; a problem ends them early and is noted."""
        try:
            with self._open() as text:
                for line in text:
                    yield line.rstrip("\r\n")
        except FileNotFoundError:
            self.problems.append(f"{self.name}: no such file")
        except IsADirectoryError:
            self.problems.append(f"{self.name}: is a directory, not a log file")
        except (EOFError, gzip.BadGzipFile, zlib.error) as error:
            self.problems.append(
                f"{self.name}: the gzip data ends early or is damaged ({error}); "
                "the lines before it were read"
            )
        except OSError as error:
            self.problems.append(f"{self.name}: cannot read: {error.strerror or error}")

    def _open(self) -> IO[str]:
        with self.path.open("rb") as raw:
            magic = raw.read(2)
        if magic == _GZIP_MAGIC:
            return gzip.open(self.path, "rt", encoding="utf-8", errors="replace")
        return self.path.open(encoding="utf-8", errors="replace")

    def first_time(self) -> float | None:
        """The time of the first readable line among the first few, for ordering files."""
        lines = self.lines()
        try:
            for _, line in zip(range(_PEEK_LINES), lines, strict=False):
                record = parse_line(line)
                if isinstance(record, LogRecord):
                    return record.time
        finally:
            lines.close()
        return None


def in_time_order(paths: list[Path]) -> list[LogFile]:
    """The files, oldest first by their first readable line; unreadable ones last, in the
    order given (their problems are found again when they are read)."""
    files = [LogFile(path) for path in paths]
    firsts = []
    for position, log_file in enumerate(files):
        first = log_file.first_time()
        log_file.problems.clear()  # said once, when the file is read
        firsts.append((first is None, first or 0.0, position))
    return [files[position] for _, _, position in sorted(firsts)]


def looks_binary(line: str) -> bool:
    """A line with NUL bytes is binary data, not a log."""
    return "\x00" in line
