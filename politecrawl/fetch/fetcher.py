"""``Fetcher``: one hop over pooled connections (``connect``), the request as sent.

It owns the User-Agent on every request (P5), GET or HEAD only (P4), the validators of a
conditional request (E3), the response deadline and the byte cap of C7 (``body`` reads within
them), and one redirect hop per call: ``location`` is resolved, never followed (C4, O7).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urljoin, urlsplit

import requests
from requests.structures import CaseInsensitiveDict
from urllib3.exceptions import HTTPError as Urllib3Error

from politecrawl.errors import FetchError
from politecrawl.fetch.body import read_body
from politecrawl.fetch.connect import (
    AddressGuard,
    SteeringRefusedError,
    guarded_adapter,
    response_deadline,
)
from politecrawl.fetch.failures import failure, too_slow
from politecrawl.fetch.values import Exchange, FetchLimits, FetchRequest, FetchResult


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
        self._guard = None if session_factory is not None else guard
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
        _refuse_unsendable_host(url)
        cap = self._limits.max_body_bytes if max_bytes is None else max_bytes
        if method == "HEAD":
            cap = 0
        if cap < 0:
            raise ValueError(f"max_bytes must not be negative, not {cap}")
        before_send = getattr(self._local, "before_send", None)
        if before_send is not None:
            before_send()
        result = self._answer(FetchRequest(url, method, etag, last_modified, cap))
        if 300 <= result.status < 400 and result.status != 304:  # C4: followed hop by hop
            return replace(result, location=_resolve(url, result._first("Location")))
        return result

    @contextmanager
    def sending_after(self, wait: Callable[[], None]) -> Iterator[None]:
        """Within the block, each request of this thread is sent once ``wait()`` returns, called
        right before it: the crawl waits there for a lease's start, after the visit's own
        checks, so that the request leaves at that start rather than a moment after it (P2,
        P6: a server's gap runs between its requests' starts)."""
        self._local.before_send = wait
        try:
            yield
        finally:
            self._local.before_send = None

    def address_of(self, url: str) -> tuple[str, datetime] | None:
        """The address a request for ``url`` would connect to now, and when it was resolved
        (P6: a host learns its server before its first request); None when not known: the
        name does not resolve or may not be reached, or the sessions are the caller's."""
        if self._guard is None:
            return None
        try:
            parts = urlsplit(url)
            host, port = parts.hostname, parts.port
        except ValueError:
            return None
        if not host:
            return None
        return self._guard.resolved(host, port or (443 if parts.scheme == "https" else 80))

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
        if time.monotonic() >= deadline:  # the status line came, the rest was cut (C7)
            response.close()
            raise too_slow(url, self._limits, arriving="its headers were arriving")
        raw_chunks: list[bytes] | None = [] if self._keep_exchanges else None
        # Asked before the body is read: a connection read to its end goes back to its pool.
        peer_address, resolved_at = _peer_address(response)
        try:
            body, truncated = read_body(
                url,
                response,
                cap=request.max_bytes,
                deadline=deadline,
                limits=self._limits,
                raw_chunks=raw_chunks,
            )
            status = response.status_code
            raw_headers = tuple(response.raw.headers.iteritems())
        finally:
            response.close()
        elapsed_seconds = time.monotonic() - started
        exchange = None
        if raw_chunks is not None:
            exchange = _exchange(url, response, raw_chunks or [body], started_at, peer_address)
        return FetchResult(
            url,
            status,
            raw_headers,
            body,
            truncated,
            elapsed_seconds,
            None,
            exchange,
            peer_address=peer_address,
            resolved_at=resolved_at,
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
            request, env = prepare(session, method, url, headers)
            adapter = session.get_adapter(request.url or "")
            verify = True if env["verify"] is None else env["verify"]
            with response_deadline(deadline):  # C7: trickled handshake, headers: cut off
                return adapter.send(request, stream=True, timeout=timeout, verify=verify,
                                    cert=env["cert"], proxies=env["proxies"])  # fmt: skip
        except SteeringRefusedError as exc:
            raise FetchError(f"refused: {exc}", url=url, temporary=False) from exc
        except UnicodeError as exc:  # e.g. user:password@ outside Latin-1 (Basic auth)
            raise FetchError(f"cannot be requested: {exc}", url=url, temporary=False) from exc
        except (requests.RequestException, Urllib3Error, OSError) as exc:
            raise failure(url, exc, deadline, self._limits) from exc


def prepare(
    session: requests.Session, method: str, url: str, headers: dict[str, str]
) -> tuple[requests.PreparedRequest, dict[str, Any]]:
    """The request and its send options (verify, proxies, cert) as ``Session.prepare_request``
    and ``Session.merge_environment_settings`` make them. When the session brings nothing to
    merge but headers, cookies and hooks (no environment, auth or params: ``new_session``'s),
    they are made directly: requests' merging was a tenth of a page's CPU at delay 0."""
    if session.trust_env or session.auth is not None or session.params:
        request = session.prepare_request(requests.Request(method, url, headers=headers))
        env = session.merge_environment_settings(request.url, {}, True, None, None)
        return request, dict(env)
    merged = CaseInsensitiveDict(session.headers)
    merged.update(headers)
    for name in [name for name, value in merged.items() if value is None]:
        del merged[name]  # as merge_setting: None removes a session header
    request = requests.PreparedRequest()
    request.prepare(
        method=method, url=url, headers=merged, cookies=session.cookies, hooks=session.hooks
    )
    proxies = {scheme: proxy for scheme, proxy in session.proxies.items() if proxy is not None}
    return request, {"verify": True, "proxies": proxies, "cert": session.cert}


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


def _exchange(
    url: str,
    response: requests.Response,
    raw_chunks: list[bytes],
    started_at: datetime,
    peer_address: str | None,
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
        peer_address=peer_address,
    )


def _peer_address(response: requests.Response) -> tuple[str | None, datetime | None]:
    """The address ``response`` came from, and when its connection resolved it, as the
    connection (``connect``) keeps them; else its socket's peer; None when not known (an
    answer from a test double)."""
    connection = getattr(response.raw, "connection", None)
    known = getattr(connection, "peer_address", None)
    resolved_at = getattr(connection, "resolved_at", None)
    if not isinstance(resolved_at, datetime):
        resolved_at = None
    if isinstance(known, str):
        return known, resolved_at
    sock = getattr(connection, "sock", None)
    if sock is None:
        return None, None
    try:
        return str(sock.getpeername()[0]), resolved_at
    except (OSError, TypeError, IndexError):  # closed already, or not an internet socket
        return None, None


def _refuse_unsendable_host(url: str) -> None:
    """B1: a host holding white space or a control character is refused here, not left to the
    installed urllib3 (2.6.3, the lowest allowed, sends it percent-encoded)."""
    try:
        host = urlsplit(url).netloc.rpartition("@")[2]
    except ValueError:
        return  # e.g. an unclosed IPv6 bracket: requests refuses it as it prepares the request
    if not all(char.isprintable() and not char.isspace() for char in host):
        message = f"cannot be requested: its host {host!r} holds white space or a control character"
        raise FetchError(message, url=url, temporary=False)


def _resolve(url: str, location: str | None) -> str | None:
    try:
        return urljoin(url, location) if location else None
    except ValueError:  # e.g. an unclosed IPv6 bracket: no usable target
        return None


def _is_sendable(value: str) -> bool:
    stripped = value.strip()
    return bool(stripped) and stripped.isprintable() and all(ord(c) < 256 for c in stripped)
