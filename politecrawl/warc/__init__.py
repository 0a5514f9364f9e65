"""WARC output: what a crawl fetched, as ISO 28500 WARC/1.1 files that replay tools read.

``WarcArchive`` owns a directory of ``.warc.gz`` files (one gzip member per record, written
with warcio). Every HTTP exchange becomes a ``request`` and a ``response`` record (the status
line and headers as received, the body as received up to the fetch limits, ``WARC-Truncated``
when it was cut), robots.txt included; a 304 in a recrawl becomes a ``revisit`` record (profile
server-not-modified) and a body identical to the URL's last capture an identical-payload-digest
``revisit``; ``metadata`` records carry the crawl's decision for a page. Each file starts with
a ``warcinfo`` record (software, agent, the run's configuration).

Files are named ``politecrawl-<run>-<timestamp>-<serial>-<pid>.warc.gz`` (every process of a
crawl writes its own; mode 0666 less the umask) and rotated at a size. Crash safety: a record
is built in memory and reaches the file in one ``write``, before the crawl database records the
page, so a killed process leaves no page recorded as done without its records; a file being
written is named ``*.open`` and renamed when closed. A file left ``.open`` by a killed process is
cut back to its last complete record and closed when the next run opens the directory; a new
run never appends to an old file. Beside each file, a CDXJ index (url key, timestamp, JSON with
url, status, digest, filename, offset, length) lets a replay tool find a capture; it is
journalled in the order written and sorted (as pywb searches it) when its file is closed, or
rebuilt sorted from the records by the next run after a kill. ``read_index`` merges them.
Response, revisit and request records carry ``WARC-IP-Address``, the address the connection
reached. A write that fails (a full disk) stops the archive with an ``ArchiveError``, the file
cut back to its last whole record (removed if it held none), and the crawl stops as on a
database failure: the page stays queued (``archive``).

- ``archive``: ``WarcArchive`` (threads, rotation, revisits) and ``ArchivingFetcher``;
- ``records``: the records, built in memory, one gzip member each;
- ``files``: a file being written, and the recovery of one a killed process left open;
- ``index``: ``Capture``, a line of the CDXJ index, and ``read_index``.
"""

from politecrawl.warc.archive import DEFAULT_MAX_FILE_BYTES, ArchivingFetcher, WarcArchive
from politecrawl.warc.files import iter_records, recover
from politecrawl.warc.index import Capture, read_index

__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "ArchivingFetcher",
    "Capture",
    "WarcArchive",
    "iter_records",
    "read_index",
    "recover",
]
