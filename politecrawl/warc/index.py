"""The CDXJ index beside each WARC file: one ``Capture`` a line (URL key, timestamp, and JSON
with url, status, digest, filename, offset, length), sorted (``sorted_cdxj``), for a replay tool
to find a capture and for the next run to find a URL's last capture (revisits)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit


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


def sorted_cdxj(lines: Iterable[str]) -> str:
    """CDXJ ``lines`` (without their newlines) as an index file: in the order replay tools
    search them (pywb's binary search, ``LC_ALL=C sort``), by their bytes, so by URL key, then
    timestamp, then the capture's full date (the JSON's first field). Code point order is the
    order of the UTF-8 bytes."""
    return "".join(line + "\n" for line in sorted(lines))


def read_index(directory: Path) -> list[Capture]:
    """Every capture in the CDXJ indexes of ``directory``, oldest file first; a URL's captures
    in a file in time order (the lines are sorted by URL key, then time)."""
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


def capture_of(record: Any, filename: str, offset: int, length: int) -> Capture:
    """The capture a response or revisit record read back (warcio's) stands for."""
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
