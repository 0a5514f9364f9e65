"""A response's body, read within the response deadline and the byte cap (C7), its content
coding undone here: the only codings asked for are gzip and deflate, anything else defers.

The body is read raw and inflated here rather than by urllib3's decoders, because a WARC archive
needs the bytes as received (``raw_chunks``), and ``_Inflater`` stops a gzip bomb at the cap
whatever the coding's ratio.
"""

from __future__ import annotations

import socket
import time
import zlib
from typing import TYPE_CHECKING

import requests
from urllib3.exceptions import HTTPError as Urllib3Error

from politecrawl.errors import FetchError
from politecrawl.fetch.failures import failure, too_slow
from politecrawl.fetch.values import FetchLimits

if TYPE_CHECKING:
    from urllib3.response import BaseHTTPResponse

_READ_CHUNK_BYTES = 64 * 1024
_GZIP_WBITS = 16 + zlib.MAX_WBITS


def read_body(
    url: str,
    response: requests.Response,
    *,
    cap: int,
    deadline: float,
    limits: FetchLimits,
    raw_chunks: list[bytes] | None = None,
) -> tuple[bytes, bool]:
    """The decoded body, at most ``cap`` bytes, and whether it was cut; read by ``deadline``
    (``time.monotonic()``). ``raw_chunks``, if given, receives the coded bytes read when the
    body had a content coding (see the module's docstring)."""
    raw: BaseHTTPResponse = response.raw
    coding = raw.headers.get("Content-Encoding", "")
    inflater: _Inflater | None = None
    body = bytearray()
    received = 0  # bytes as sent (coded): any at all and the server is answering (C7 cut-off)
    try:
        while len(body) <= cap and not (inflater and inflater.is_done):
            remaining_seconds = deadline - time.monotonic()
            if remaining_seconds <= 0:
                raise too_slow(url, limits, arriving=_body_arriving(received))
            # No socket wait may outlast the deadline (urllib3 resets it on reuse).
            sock = getattr(raw.connection, "sock", None)
            if isinstance(sock, socket.socket):
                sock.settimeout(remaining_seconds)
            chunk = raw.read1(_READ_CHUNK_BYTES, decode_content=False)
            if not chunk:
                break
            received += len(chunk)
            inflater = inflater or _inflater_for(url, coding)  # only a body needs decoding
            if inflater is None:
                body += chunk[: cap + 1 - len(body)]
            else:
                if raw_chunks is not None:
                    raw_chunks.append(chunk)
                inflater.inflate_into(body, chunk, cap + 1 - len(body))
    except zlib.error as exc:
        message = "the body does not decode as its Content-Encoding says"
        raise FetchError(
            message, url=url, temporary=True, host_trouble=False, closed_early=True
        ) from exc
    except (requests.RequestException, Urllib3Error, OSError, ValueError) as exc:
        raise failure(url, exc, deadline, limits, arriving=_body_arriving(received)) from exc
    truncated = len(body) > cap
    del body[cap:]  # in place: a second copy of the body would double the memory bound
    return bytes(body), truncated


def _body_arriving(received: int) -> str:
    """What ``too_slow`` says of a body of which ``received`` bytes came: none, a stall."""
    return f"its body was arriving ({received:,} bytes read)" if received else ""


class _Inflater:
    """Undoes one gzip or deflate coding, never producing more than asked (C7: gzip bombs)."""

    def __init__(self, *, is_gzip: bool) -> None:
        self._is_gzip = is_gzip
        self._decompressor = zlib.decompressobj(_GZIP_WBITS) if is_gzip else None
        self._head = b""  # deflate: first bytes, held until zlib-wrapped and raw can be told apart
        self._members_done = 0
        self.is_done = False  # the coded stream has ended; whatever follows is not read

    def inflate_into(self, body: bytearray, data: bytes, max_length: int) -> None:
        """Append at most ``max_length`` (> 0) bytes decoded from ``data`` to ``body``.

        Fewer are appended only when all of ``data`` was used, so the caller stops reading once
        it got ``max_length``: input left over then is dropped, never decoded.
        """
        if self._decompressor is None:
            data = self._head + data
            if len(data) < 2:
                self._head = data
                return
            self._head = b""
            self._decompressor = zlib.decompressobj(_deflate_wbits(data))
        goal = len(body) + max_length
        while data and not self.is_done and len(body) < goal:
            decompressor = self._decompressor
            try:
                body += decompressor.decompress(data, goal - len(body))
            except zlib.error:
                if self._members_done == 0:
                    raise
                self.is_done = True  # garbage after a complete member is ignored, as browsers do
                return
            if not decompressor.eof:
                return
            self._members_done += 1
            data = decompressor.unused_data
            self.is_done = not self._is_gzip  # gzip may hold several members, deflate one stream
            self._decompressor = zlib.decompressobj(_GZIP_WBITS)


def _inflater_for(url: str, content_encoding: str) -> _Inflater | None:
    codings = [c.strip().lower() for c in content_encoding.split(",")]
    codings = [c for c in codings if c not in ("", "identity")]
    if not codings:
        return None
    if len(codings) == 1 and codings[0] in ("gzip", "x-gzip", "deflate"):
        return _Inflater(is_gzip=codings[0] != "deflate")
    # Only gzip and deflate are asked for; anything else would be read as garbage (a robots.txt
    # read as garbage allows everything), so it is a temporary failure: defer, don't guess.
    message = f"unsupported Content-Encoding {content_encoding!r}"
    raise FetchError(message, url=url, temporary=True, host_trouble=False, closed_early=True)


def _deflate_wbits(head: bytes) -> int:
    """Servers send "deflate" zlib-wrapped (RFC 9110) or raw; the zlib header tells them apart."""
    cmf, flg = head[0], head[1]
    is_zlib = cmf & 0x0F == 8 and cmf >> 4 <= 7 and (cmf << 8 | flg) % 31 == 0
    return zlib.MAX_WBITS if is_zlib else -zlib.MAX_WBITS
