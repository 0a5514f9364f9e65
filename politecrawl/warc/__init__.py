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
