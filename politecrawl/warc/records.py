"""WARC/1.1 records built in memory with warcio, each compressed as one gzip member, ready to be
appended whole: an exchange's ``request`` and ``response`` (or ``revisit``: a 304, or a body
identical to the URL's last capture), a page's ``metadata``, a file's ``warcinfo``. Building
needs no lock: zlib and sha1 let other threads run."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from politecrawl._version import VERSION
from politecrawl.fetch import Exchange, FetchResult
from politecrawl.warc.index import Capture

_NOT_MODIFIED = "http://netpreserve.org/warc/1.1/revisit/server-not-modified"
_IDENTICAL = "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"


@dataclass(frozen=True, slots=True)
class ExchangeRecords:
    """One exchange's two records, each one gzip member, and what its index line needs."""

    response: bytes  # the response, or revisit, record
    request: bytes
    record_id: str  # the response record's WARC-Record-ID
    date: str  # WARC-Date
    payload_digest: str
    kind: str  # response or revisit


def exchange_records(
    result: FetchResult, exchange: Exchange, earlier: Capture | None
) -> ExchangeRecords:
    """``result``'s request and response records; a revisit of ``earlier`` (the URL's last
    capture) for a 304 or an identical body."""
    date = _warc_date(exchange.started_at)
    http = StatusAndHeaders(
        f"{result.status} {exchange.reason}".strip(),
        list(result.headers),
        protocol=exchange.protocol,
    )
    digest = _payload_digest(exchange.raw_body)
    builder = _MemberWriter()
    # WARC 1.1 5.9: the address contacted, on the response and (as warcio's capture_http and
    # wget write it) on its request.
    address = {"WARC-IP-Address": exchange.peer_address} if exchange.peer_address else {}
    headers: dict[str, str] = {"WARC-Date": date, **address}
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
        warc_headers_dict={"WARC-Date": date, "WARC-Concurrent-To": record_id, **address},
    )
    return ExchangeRecords(
        response=builder.member(response),
        request=builder.member(request),
        record_id=record_id,
        date=date,
        payload_digest=str(response.rec_headers.get_header("WARC-Payload-Digest") or digest),
        kind=kind,
    )


def metadata_record(url: str, concurrent_to: str, fields: Mapping[str, Any]) -> bytes:
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
    return builder.member(record)


def warcinfo_record(filename: str, info: Mapping[str, str]) -> bytes:
    """The ``warcinfo`` record that opens file ``filename``: the software, then ``info``."""
    builder = _MemberWriter()
    record = builder.create_warcinfo_record(
        filename,
        {"software": f"politecrawl/{VERSION}", "format": "WARC File Format 1.1"} | dict(info),
    )
    return builder.member(record)


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
