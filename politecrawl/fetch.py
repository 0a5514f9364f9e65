"""One HTTP GET, one hop, within limits: the only module that talks to requests (layer L2).

It owns the User-Agent on every request (P5), GET only (P4), conditional requests (E3), one redirect
hop per call so that the crawler checks every hop against scope and robots (C4, O7), and the fetch
limits of C7: a connect time-out, a deadline on the whole response, and a cap on the decoded body
that a gzip bomb cannot get past. HTTP error statuses are results, not exceptions; a request that
produced no response raises ``FetchError``, temporary (defer, O6) or not. ``requests.Response``
never leaves this module: callers get a frozen ``FetchResult``.
"""

from __future__ import annotations

import math
import socket
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from http.client import HTTPException
from typing import TYPE_CHECKING, Any
from urllib.parse import urljoin, urlsplit

import requests
from urllib3.exceptions import HTTPError as Urllib3Error
from urllib3.exceptions import ProtocolError

from politecrawl.connect import (
    AddressGuard,
    SteeringRefusedError,
    guarded_adapter,
    response_deadline,
)
from politecrawl.errors import FetchError
from politecrawl.httpdates import parse_http_date

if TYPE_CHECKING:
    from urllib3.response import BaseHTTPResponse

_READ_CHUNK_BYTES = 64 * 1024
_GZIP_WBITS = 16 + zlib.MAX_WBITS
_LONGEST_RETRY_AFTER_SECONDS = 365 * 24 * 3600.0  # finite, so callers can add it to a datetime
_INVALID_URL = (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
                requests.exceptions.InvalidSchema, requests.exceptions.URLRequired)  # fmt: skip


@dataclass(frozen=True, slots=True)
class FetchLimits:
    """The C7 limits of one request; every figure is a setting."""

    connect_timeout_seconds: float = 10.0
    response_timeout_seconds: float = 30.0  # the whole response: a trickling server is cut off
    max_body_bytes: int = 10 * 1024 * 1024  # after decompression

    def __post_init__(self) -> None:
        for name in ("connect_timeout_seconds", "response_timeout_seconds"):
            seconds = getattr(self, name)
            if not (math.isfinite(seconds) and seconds > 0):
                raise ValueError(f"{name} must be a positive number of seconds, not {seconds!r}")
        if self.max_body_bytes < 0:
            raise ValueError(f"max_body_bytes must not be negative, not {self.max_body_bytes}")


@dataclass(frozen=True, slots=True)
class FetchRequest:
    """One hop as ``Fetcher.fetch`` settled it, passed whole to where the answer comes from."""

    url: str
    method: str  # GET, or HEAD for a link check (P4)
    etag: str | None  # E3: the validators of the last answer, as stored
    last_modified: str | None
    max_bytes: int  # the body's cap: the limit or the caller's, 0 for HEAD


@dataclass(frozen=True, slots=True)
class Exchange:
    """The request and the response as they went over the wire, for an archive (WARC): kept
    only when the fetcher is asked to (``keep_exchanges``)."""

    request_line: str  # "GET /path?query HTTP/1.1"
    request_headers: tuple[tuple[str, str], ...]  # as sent, Host first
    protocol: str  # of the response: "HTTP/1.1"
    reason: str  # "OK"
    raw_body: bytes  # as received: content coding kept, chunking undone; up to the limits
    started_at: datetime  # when the request was sent: the capture's date


@dataclass(frozen=True, slots=True)
class FetchResult:
    """What one hop answered. ``headers`` keeps every header line, repeated ones included."""

    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes  # decoded (gzip/deflate undone), at most the cap
    truncated: bool  # C7: the body was cut at the cap, and is recorded as such
    elapsed_seconds: float
    location: str | None  # for a redirect: Location resolved against ``url``
    exchange: Exchange | None = None
    archived_as: str | None = None  # the WARC-Record-ID of its response record, if archived

    def header(self, name: str) -> str | None:
        """The header's value, case-insensitively; repeated headers joined with ", "."""
        values = self._values(name)
        return ", ".join(values) if values else None

    # Single-valued headers: the first one counts (joined dates or types would mean nothing).
    @property
    def content_type(self) -> str | None:
        return self._first("Content-Type")

    @property
    def etag(self) -> str | None:
        return self._first("ETag")

    @property
    def last_modified(self) -> str | None:
        return self._first("Last-Modified")

    def retry_after_seconds(self, now: datetime) -> float | None:
        """P3: Retry-After as a wait in seconds (delay-seconds or HTTP-date), None if absent or bad.

        ``now`` is an aware datetime; a date in the past means no wait (0.0).
        """
        if now.tzinfo is None:
            raise ValueError("now must be an aware datetime")
        value = self._first("Retry-After") or ""
        if value.isascii() and value.isdigit():
            return min(float(value), _LONGEST_RETRY_AFTER_SECONDS)
        when = parse_http_date(value)
        if when is None:
            return None
        return min(max((when - now).total_seconds(), 0.0), _LONGEST_RETRY_AFTER_SECONDS)

    def _values(self, name: str) -> list[str]:
        wanted = name.lower()
        return [value for key, value in self.headers if key.lower() == wanted]

    def _first(self, name: str) -> str | None:
        values = self._values(name)
        return values[0].strip() if values else None


class Fetcher:
    """Fetches one hop at a time over pooled connections, one ``requests.Session`` per thread."""

    def __init__(
        self,
        *,
        user_agent: str,
        limits: FetchLimits = FetchLimits(),
        session_factory: Callable[[], requests.Session] | None = None,
        address_guard: AddressGuard | None = None,
        keep_exchanges: bool = False,
    ) -> None:
        """``address_guard`` checks the address of every connection (the anti-steering guard
        for host names, ``connect``); the default guard resolves with the system's resolver
        and lets no name reach a non-public address. Ignored with ``session_factory``.
        ``keep_exchanges``: every result carries its ``Exchange`` (for an archive)."""
        if not user_agent.strip() or not user_agent.isprintable() or not user_agent.isascii():
            raise ValueError(f"the User-Agent must be printable ASCII, not {user_agent!r}")
        self._user_agent = user_agent
        self._limits = limits
        guard = address_guard or AddressGuard()
        self._session_factory = session_factory or (lambda: new_session(guard))
        self._local = threading.local()
        self._sessions: list[requests.Session] = []
        self._lock = threading.Lock()
        self._is_closed = False
        self._keep_exchanges = keep_exchanges

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def fetch(
        self,
        url: str,
        *,
        etag: str | None = None,
        last_modified: str | None = None,
        max_bytes: int | None = None,
        method: str = "GET",
    ) -> FetchResult:
        """GET (or ``method``: HEAD for a link check, P4) ``url`` without following redirects;
        raise ``FetchError`` when there is no answer."""
        cap = self._limits.max_body_bytes if max_bytes is None else max_bytes
        if method == "HEAD":
            cap = 0
        if cap < 0:
            raise ValueError(f"max_bytes must not be negative, not {cap}")
        result = self._answer(FetchRequest(url, method, etag, last_modified, cap))
        if 300 <= result.status < 400 and result.status != 304:  # C4: followed hop by hop
            return replace(result, location=_resolve(url, result._first("Location")))
        return result

    def _answer(self, request: FetchRequest) -> FetchResult:
        """The answer to one settled request, from the network. The one place to change where
        answers come from (``testing.ScriptedFetcher``: a script) or what happens to them
        (``warc.ArchivingFetcher``: archived first); ``fetch`` keeps the rest the same."""
        url = request.url
        headers = {"User-Agent": self._user_agent, "Accept-Encoding": "gzip, deflate"}
        for name, value in (
            ("If-None-Match", request.etag),
            ("If-Modified-Since", request.last_modified),
        ):
            if value is not None and _is_sendable(value):  # E3; a mangled validator is dropped
                headers[name] = value.strip()
        started = time.monotonic()
        started_at = datetime.now(UTC)
        deadline = started + self._limits.response_timeout_seconds
        response = self._send(url, headers, deadline, request.method)
        raw_chunks: list[bytes] | None = [] if self._keep_exchanges else None
        try:
            body, truncated = self._read_body(
                url, response, request.max_bytes, deadline, raw_chunks
            )
            status = response.status_code
            raw_headers = tuple(response.raw.headers.iteritems())
        finally:
            response.close()
        elapsed_seconds = time.monotonic() - started
        exchange = None
        if raw_chunks is not None:
            exchange = _exchange(url, response, raw_chunks or [body], started_at)
        return FetchResult(
            url, status, raw_headers, body, truncated, elapsed_seconds, None, exchange
        )

    def close(self) -> None:
        """Close every thread's session; the fetcher cannot be used afterwards."""
        with self._lock:
            self._is_closed = True
            sessions, self._sessions = self._sessions, []
        for session in sessions:
            session.close()

    def _session(self) -> requests.Session:
        session: requests.Session | None = getattr(self._local, "session", None)
        with self._lock:
            if self._is_closed:
                raise RuntimeError("this Fetcher is closed")
            if session is None:
                session = self._local.session = self._session_factory()
                self._sessions.append(session)
        return session

    def _send(
        self, url: str, headers: dict[str, str], deadline: float, method: str = "GET"
    ) -> requests.Response:
        session = self._session()
        # Through the adapter, not session.get: Session.send reads a whole 3xx body (decoded,
        # uncapped, no deadline) to compute its next hop even with allow_redirects=False (C7).
        timeout = (self._limits.connect_timeout_seconds, self._limits.response_timeout_seconds)
        try:
            request = session.prepare_request(requests.Request(method, url, headers=headers))
            adapter = session.get_adapter(request.url or "")
            env = session.merge_environment_settings(request.url, {}, True, None, None)
            verify = True if env["verify"] is None else env["verify"]
            with response_deadline(deadline):  # C7: trickled handshake, headers: cut off
                return adapter.send(request, stream=True, timeout=timeout, verify=verify,
                                    cert=env["cert"], proxies=env["proxies"])  # fmt: skip
        except SteeringRefusedError as exc:
            raise FetchError(f"refused: {exc}", url=url, temporary=False) from exc
        except UnicodeError as exc:  # e.g. user:password@ outside Latin-1 (Basic auth)
            raise FetchError(f"cannot be requested: {exc}", url=url, temporary=False) from exc
        except (requests.RequestException, Urllib3Error, OSError) as exc:
            raise self._failure(url, exc, deadline) from exc

    def _read_body(
        self,
        url: str,
        response: requests.Response,
        cap: int,
        deadline: float,
        raw_chunks: list[bytes] | None = None,
    ) -> tuple[bytes, bool]:
        """The decoded body, at most ``cap`` bytes, and whether it was cut. ``raw_chunks``, if
        given, receives the coded bytes read when the body had a content coding."""
        # Read raw and inflate here: a WARC archive needs the bytes as received, and _Inflater
        # stops a gzip bomb at the cap whatever the coding's ratio.
        raw: BaseHTTPResponse = response.raw
        coding = raw.headers.get("Content-Encoding", "")
        inflater: _Inflater | None = None
        body = bytearray()
        try:
            while len(body) <= cap and not (inflater and inflater.is_done):
                remaining_seconds = deadline - time.monotonic()
                if remaining_seconds <= 0:
                    raise self._too_slow(url)
                # No socket wait may outlast the deadline (urllib3 resets it on reuse).
                sock = getattr(raw.connection, "sock", None)
                if isinstance(sock, socket.socket):
                    sock.settimeout(remaining_seconds)
                chunk = raw.read1(_READ_CHUNK_BYTES, decode_content=False)
                if not chunk:
                    break
                inflater = inflater or _inflater_for(url, coding)  # only a body needs decoding
                if inflater is None:
                    body += chunk[: cap + 1 - len(body)]
                else:
                    if raw_chunks is not None:
                        raw_chunks.append(chunk)
                    inflater.inflate_into(body, chunk, cap + 1 - len(body))
        except zlib.error as exc:
            message = "the body does not decode as its Content-Encoding says"
            raise FetchError(message, url=url, temporary=True, host_trouble=False) from exc
        except (requests.RequestException, Urllib3Error, OSError, ValueError) as exc:
            raise self._failure(url, exc, deadline) from exc
        truncated = len(body) > cap
        del body[cap:]  # in place: a second copy of the body would double the memory bound
        return bytes(body), truncated

    def _failure(self, url: str, exc: BaseException, deadline: float) -> FetchError:
        """Map an error to FetchError: only a URL that cannot be requested at all is permanent."""
        if isinstance(exc, _INVALID_URL):
            return FetchError(f"invalid URL: {_reason(exc)}", url=url, temporary=False)
        if time.monotonic() >= deadline:
            return self._too_slow(url)
        timed_out = True
        if isinstance(exc, requests.exceptions.ConnectTimeout):
            message = f"no connection within {self._limits.connect_timeout_seconds:g} s"
        elif isinstance(exc, requests.exceptions.ReadTimeout):
            message = f"no answer within {self._limits.response_timeout_seconds:g} s"
        else:
            message = f"request failed: {_reason(exc)}"
            timed_out = False
        return FetchError(
            message, url=url, temporary=True, timed_out=timed_out, garbled=_garbled(exc)
        )

    def _too_slow(self, url: str) -> FetchError:
        seconds = self._limits.response_timeout_seconds
        return FetchError(
            f"response took longer than {seconds:g} s", url=url, temporary=True, timed_out=True
        )


def _garbled(exc: BaseException) -> bool:
    """A reset connection or an answer that is not HTTP, anywhere in ``exc``'s chain (not a
    refused connection, a name that does not resolve or a certificate refused)."""
    seen: set[int] = set()
    stack: list[object] = [exc]
    while stack:
        item = stack.pop()
        if not isinstance(item, BaseException) or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, ProtocolError | ConnectionResetError | HTTPException):
            return True
        stack += [item.__cause__, item.__context__, *item.args]
    return False


def new_session(guard: AddressGuard | None = None) -> requests.Session:
    """The default session: no proxies, credentials or CA bundle taken from the environment
    (``trust_env`` off), so nothing but the asked URL is ever contacted; every connection
    through ``guard`` (``connect``)."""
    session = requests.Session()
    session.trust_env = False
    # One pool per host, for many hosts: requests' default keeps 10, and a crawl over more
    # hosts than that would open a new connection for most requests.
    adapter = guarded_adapter(guard or AddressGuard(), pool_connections=256, pool_maxsize=4)
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    return session


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
    raise FetchError(message, url=url, temporary=True, host_trouble=False)


def _deflate_wbits(head: bytes) -> int:
    """Servers send "deflate" zlib-wrapped (RFC 9110) or raw; the zlib header tells them apart."""
    cmf, flg = head[0], head[1]
    is_zlib = cmf & 0x0F == 8 and cmf >> 4 <= 7 and (cmf << 8 | flg) % 31 == 0
    return zlib.MAX_WBITS if is_zlib else -zlib.MAX_WBITS


def _exchange(
    url: str, response: requests.Response, raw_chunks: list[bytes], started_at: datetime
) -> Exchange:
    """What went over the wire for ``response`` (``raw_chunks``: its body as received)."""
    request = response.request
    sent = [("Host", urlsplit(url).netloc)]
    sent += [(name, str(value)) for name, value in request.headers.items()]
    version = getattr(response.raw, "version", 11)
    return Exchange(
        request_line=f"{request.method} {request.path_url} HTTP/1.1",
        request_headers=tuple(sent),
        protocol="HTTP/1.0" if version == 10 else "HTTP/1.1",
        reason=str(getattr(response.raw, "reason", "") or response.reason or ""),
        raw_body=b"".join(raw_chunks),
        started_at=started_at,
    )


def _resolve(url: str, location: str | None) -> str | None:
    try:
        return urljoin(url, location) if location else None
    except ValueError:  # e.g. an unclosed IPv6 bracket: no usable target
        return None


def _is_sendable(value: str) -> bool:
    stripped = value.strip()
    return bool(stripped) and stripped.isprintable() and all(ord(c) < 256 for c in stripped)


def _reason(exc: BaseException) -> str:
    """One short line for an error: the operating system's words when there are some."""
    chain: list[BaseException] = [exc]
    while len(chain) < 10:  # urllib3 nests its cause in .reason, Python in __context__
        nested: Any = getattr(chain[-1], "reason", None) or chain[-1].__context__
        if not isinstance(nested, BaseException):
            break
        chain.append(nested)
    words = [e.strerror for e in chain if isinstance(e, OSError) and e.strerror]
    text = words[-1] if words else str(exc) or type(exc).__name__
    return text.strip().splitlines()[0][:200] if text.strip() else type(exc).__name__
