"""A full file system for the WARC tests, at the OS-write boundary: ``os.write`` and
``os.pwrite`` to a file in one directory succeed only while that directory's files fit in a
capacity, as on a full disk.

Why not a real full file system: a small tmpfs or a loop device needs root, and ``/dev/full``
is a device, not a directory the archive can create files in. So this models one, and the
model is what a full ext4, XFS or tmpfs does: a write that would grow the directory's files
past the capacity writes what fits (a short write) and then fails with ENOSPC; bytes written
over a file's existing bytes need no new space; a truncated or removed file gives its space
back. Everything above the system call (the archive, the crawl, the CLI) runs unchanged.

``install`` patches the ``os`` module of this process; ``python tests/full_disk.py DIR BYTES
ARGS...`` runs ``politecrawl ARGS...`` on such a disk (the end-to-end tests). Linux only (it
names a descriptor's file through ``/proc/self/fd``).
"""

from __future__ import annotations

import errno
import fcntl
import os
import sys
from pathlib import Path

IS_SUPPORTED = Path("/proc/self/fd").is_dir()


class FullDisk:
    """``directory`` as if on a file system with ``capacity_bytes`` for its files."""

    def __init__(self, directory: Path, capacity_bytes: int) -> None:
        self.directory = directory.resolve()
        self.capacity_bytes = capacity_bytes
        self.refused = 0  # writes that failed with ENOSPC
        self._write = os.write
        self._pwrite = os.pwrite

    def install(self) -> None:
        os.write = self.write
        os.pwrite = self.pwrite

    def uninstall(self) -> None:
        os.write = self._write
        os.pwrite = self._pwrite

    def write(self, fd: int, data: bytes, /) -> int:
        size = os.fstat(fd).st_size
        appending = fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND
        start = size if appending else os.lseek(fd, 0, os.SEEK_CUR)
        return self._write(fd, self._fitting(fd, data, start, size))

    def pwrite(self, fd: int, data: bytes, offset: int, /) -> int:
        size = os.fstat(fd).st_size
        return self._pwrite(fd, self._fitting(fd, data, offset, size), offset)

    def _fitting(self, fd: int, data: bytes, start: int, size: int) -> bytes:
        """The part of ``data`` that fits when written at ``start`` of a file of ``size``;
        ENOSPC when nothing does."""
        if not data or not self._is_mine(fd):
            return data
        growth = max(0, start + len(data) - size)
        free = self.capacity_bytes - self._used()
        if growth <= free:
            return data
        fitting = len(data) - (growth - max(free, 0))
        if fitting <= 0:
            self.refused += 1
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return data[:fitting]

    def _is_mine(self, fd: int) -> bool:
        try:
            target = Path(f"/proc/self/fd/{fd}").readlink()
        except OSError:
            return False
        return target.parent == self.directory

    def _used(self) -> int:
        return sum(entry.stat().st_size for entry in os.scandir(self.directory) if entry.is_file())


def main() -> int:
    """``full_disk.py DIR BYTES ARGS...``: ``politecrawl ARGS...`` with DIR on a full disk."""
    directory, capacity, *arguments = sys.argv[1:]
    Path(directory).mkdir(parents=True, exist_ok=True)
    FullDisk(Path(directory), int(capacity)).install()
    from politecrawl.cli.main import main as politecrawl

    return politecrawl(arguments)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
