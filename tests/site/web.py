"""The running test web: one threaded HTTP server per origin, each on its own loopback address
(127.0.0.2, 127.0.0.3, ...; Linux routes all of 127.0.0.0/8 to lo) with a free port, and a
log of every request, written by the servers themselves.

``serve(build_site())`` is a context manager yielding ``RunningWeb``. The servers honour
If-None-Match / If-Modified-Since with 304 (E3); the site can be changed while running
(``set_page``, ``set_body``, ``remove_page``, ``set_robots``) for recrawl tests. HEAD is
answered with the GET answer's head, or with the page's own ``head`` (a server that refuses
HEAD, L2), and logged with its method. A slow page whose client gives up (closes the
connection) is logged at that moment with status 499 (``CLIENT_CLOSED``).
"""

from __future__ import annotations

import dataclasses
import select
import socket
import socketserver
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from email.utils import formatdate, parsedate_to_datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import TYPE_CHECKING, Any

from .build import build_site
from .canonical import request_key
from .model import NOT_FOUND, TEXT, Page

if TYPE_CHECKING:
    from types import TracebackType

    from .model import Site
    from .truth import Truth

__all__ = ["CLIENT_CLOSED", "Request", "RequestLog", "RunningWeb", "build_site", "serve"]

_CHUNK_BYTES = 1 << 20
CLIENT_CLOSED = 499
"""The status logged for a request whose client closed the connection before the answer
(nginx's 499): a client time-out on a slow page."""


@dataclass(frozen=True)
class Request:
    """One request as the server saw it. ``started_at``/``finished_at`` are time.monotonic()
    (for gaps and overlaps), ``*_wall`` the same instants in time.time(). ``finished_at`` is
    taken just before the last bytes of the answer are written, so a client can never start
    its next request before the previous one's ``finished_at``; for a slow answer the client
    gave up on, it is when the client closed the connection, and ``status`` is 499
    (``CLIENT_CLOSED``); for a body the client cut off (C7), the start of the last write that
    went through."""

    origin: str  # http://127.0.0.2:41234
    method: str
    path_with_query: str  # as sent on the wire
    headers: tuple[tuple[str, str], ...]
    started_at: float
    finished_at: float
    started_wall: float = 0.0
    finished_wall: float = 0.0
    status: int = 200

    @property
    def url(self) -> str:
        return self.origin + self.path_with_query

    @property
    def host(self) -> str:
        return self.origin.split("://", 1)[1].rsplit(":", 1)[0]

    def header(self, name: str) -> str | None:
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)


class RequestLog:
    """A thread-safe, append-only list of ``Request`` (iterating takes a snapshot).

    A snapshot waits (a few seconds at most) for the requests still being answered: a server
    notices a client that gave up on a trickling or slow answer only at its next write, a
    moment after the client has moved on, and a crawl that ends then must not be judged on a
    log that lacks its last request."""

    SETTLE_SECONDS = 10.0

    def __init__(self) -> None:
        self._items: list[Request] = []
        self._lock = threading.Lock()
        self._answering = 0
        self._idle = threading.Condition(self._lock)

    def begin(self) -> None:
        """A request is being answered (``end`` when it is logged or dropped)."""
        with self._lock:
            self._answering += 1

    def end(self) -> None:
        with self._lock:
            self._answering -= 1
            if not self._answering:
                self._idle.notify_all()

    def append(self, request: Request) -> None:
        with self._lock:
            self._items.append(request)

    def snapshot(self) -> tuple[Request, ...]:
        with self._lock:
            self._idle.wait_for(lambda: not self._answering, timeout=self.SETTLE_SECONDS)
            return tuple(self._items)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()

    def __iter__(self) -> Any:
        return iter(self.snapshot())

    def __len__(self) -> int:
        with self._lock:  # no waiting: tests poll the length while a crawl runs
            return len(self._items)

    def __getitem__(self, index: int) -> Request:
        return self.snapshot()[index]


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: str, web: RunningWeb, key: str) -> None:
        self.web = web
        self.origin_key = key
        super().__init__((address, 0), _Handler)

    def server_bind(self) -> None:
        socketserver.TCPServer.server_bind(self)  # not HTTPServer's: no reverse DNS look-up
        self.server_name, self.server_port = self.server_address[:2]  # type: ignore[assignment]

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A crawler that cuts a body short (C7) resets the connection: expected, not news.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def _is_fresh(page: Page, headers: Any) -> bool:
    """E3: does a conditional request match this page (If-None-Match wins, RFC 9110)?"""
    if_none_match = headers.get("If-None-Match")
    if if_none_match is not None:
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return "*" in tags or page.etag in tags
    if_modified_since = headers.get("If-Modified-Since")
    if if_modified_since is not None:
        try:
            return page.last_modified <= parsedate_to_datetime(if_modified_since).timestamp()
        except (TypeError, ValueError):
            return False
    return False


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "politecrawl-testweb/1"
    timeout = 10  # an idle keep-alive connection is dropped after this
    server: _Server

    def log_message(self, format: str, *args: Any) -> None:
        pass  # the RequestLog is the log

    def do_GET(self) -> None:
        self._answering(with_body=True)

    def do_HEAD(self) -> None:
        self._answering(with_body=False)

    def _answering(self, *, with_body: bool) -> None:
        log = self.server.web.log
        log.begin()
        try:
            self._answer(with_body=with_body)
        finally:
            log.end()

    def _refuse(self) -> None:
        """P4: the site has no forms to post to; any other method is answered 405."""
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(min(length, 1 << 20))
        self.close_connection = True
        self._answer(with_body=True, page=Page(b"no\n", status=405, content_type=TEXT))

    # http.server dispatches on do_<METHOD>:
    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _refuse  # noqa: N815

    def _answer(self, *, with_body: bool, page: Page | None = None) -> None:
        started, started_wall = time.monotonic(), time.time()
        web, key = self.server.web, self.server.origin_key
        if page is None:
            page = web.answer_for(key, request_key(self.path))
        if not with_body and page.head is not None:
            page = page.head  # L2: a server that refuses HEAD
        if page.delay_seconds and not self._wait(page.delay_seconds):
            # The client gave up (its time-out) and closed the connection: logged as nginx
            # does, 499 at the moment it left, so a retry is not an overlap (P1).
            web.log.append(self._request(started, started_wall, CLIENT_CLOSED))
            self.close_connection = True
            return
        status, body = page.status, page.body
        headers = [("Content-Type", page.content_type), *page.headers]
        if status == 200:
            last_modified = formatdate(page.last_modified, usegmt=True)
            headers += [("ETag", page.etag), ("Last-Modified", last_modified)]
            if _is_fresh(page, self.headers):
                status, body = 304, b""
                headers = [h for h in headers if h[0].lower() != "content-type"]
        if status != 304:
            headers.append(("Content-Length", str(len(body))))
        if self.close_connection:
            headers.append(("Connection", "close"))
        reason = HTTPStatus(status).phrase if status in HTTPStatus._value2member_map_ else ""
        lines = [f"HTTP/1.1 {status} {reason}", f"Date: {formatdate(usegmt=True)}"]
        lines += [f"Server: {self.server_version}"] + [f"{k}: {v}" for k, v in headers]
        head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        payload = memoryview(head + body if with_body else head)
        pieces = [payload[i : i + _CHUNK_BYTES] for i in range(0, len(payload), _CHUNK_BYTES)]
        pause = 0.0
        if page.trickle_seconds and with_body and body:
            pieces = [payload[: len(head)]] + [
                payload[i : i + 1] for i in range(len(head), len(payload))
            ]
            pause = page.trickle_seconds / len(body)
        recorded = False
        last_write = (time.monotonic(), time.time())
        try:
            for piece in pieces[:-1]:
                writing = (time.monotonic(), time.time())
                self.wfile.write(piece)
                last_write = writing
                if pause:
                    self.wfile.flush()
                    time.sleep(pause)
            web.log.append(self._request(started, started_wall, status))
            recorded = True  # before the last write: the client cannot see the answer earlier
            self.wfile.write(pieces[-1])
        except OSError:  # the client went away (a cut-off huge body): logged, then dropped
            if not recorded:
                # The client closed during or after the last write that went through. Its end
                # is logged at the *start* of that write, in the crawler's favour like every
                # end here: the time after a write returns is late when this thread is
                # descheduled on a busy machine (a false P2 gap of 0.096 s for 0.1 s was seen).
                web.log.append(self._request(started, started_wall, status, ended=last_write))
            self.close_connection = True

    def _wait(self, seconds: float) -> bool:
        """Sleep ``seconds`` before answering; False as soon as the client closes the
        connection (it timed out). A client sending more bytes meanwhile is just waited for."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            readable, _, _ = select.select([self.connection], [], [], min(left, 0.05))
            if not readable:
                continue
            try:
                peeked = self.connection.recv(1, socket.MSG_PEEK)
            except OSError:
                return False
            if not peeked:
                return False
            time.sleep(max(deadline - time.monotonic(), 0.0))  # data: no more polling
        return True

    def _request(
        self,
        started: float,
        started_wall: float,
        status: int,
        *,
        ended: tuple[float, float] | None = None,
    ) -> Request:
        finished, finished_wall = ended or (time.monotonic(), time.time())
        return Request(
            self.server.web.base(self.server.origin_key),
            self.command,
            self.path,
            tuple(self.headers.items()),
            started,
            finished,
            started_wall,
            finished_wall,
            status,
        )


class RunningWeb:
    """The served site: base URLs, seeds, the request log, and live mutations."""

    def __init__(self, site: Site) -> None:
        self.log = RequestLog()
        self._lock = threading.Lock()
        self._counts: Counter[tuple[str, str]] = Counter()
        self._servers = {o.key: _Server(o.address, self, o.key) for o in site.origins}
        self._site = site.bind({k: s.server_address[1] for k, s in self._servers.items()})
        self._threads = [
            threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
            for s in self._servers.values()
        ]
        for thread in self._threads:
            thread.start()

    @property
    def site(self) -> Site:
        """The site as it is being served now (a frozen snapshot, with ports)."""
        return self._site

    @property
    def seeds(self) -> tuple[str, ...]:
        return self._site.seeds

    @property
    def bases(self) -> dict[str, str]:
        return {origin.key: origin.base for origin in self._site.origins}

    def base(self, key: str) -> str:
        return self._site.origin(key).base

    def url(self, key: str, path: str = "/") -> str:
        return self._site.url(key, path)

    def host(self, key: str) -> str:
        return self._site.host(key)

    def truth(self, agent: str = "politecrawl", **options: Any) -> Truth:
        return self._site.truth(agent, **options)

    def answer_for(self, key: str, path: str) -> Page:
        """The page to answer with now: a described or trap page (or 404), and for a page
        with ``first`` answers, the one due for this request."""
        with self._lock:
            page = self._site.origin(key).page(path) or NOT_FOUND
            if page.first:
                count = self._counts[key, path]
                self._counts[key, path] += 1
                if count < len(page.first):
                    page = page.first[count]
            return page

    def set_page(self, key: str, path: str, page: Page) -> None:
        """Add or replace a page (placeholders in it are filled in); its answer count resets."""
        with self._lock:
            self._site = self._site.with_page(key, path, page)
            self._counts.pop((key, request_key(path)), None)

    def set_body(self, key: str, path: str, body: bytes | str) -> None:
        """Change a page's body; Last-Modified moves a day on, and the ETag follows the body."""
        page = self._site.origin(key).pages[request_key(path)]
        data = body.encode("utf-8") if isinstance(body, str) else body
        new = dataclasses.replace(
            page, body=data, last_modified=page.last_modified + 86400, gzip=None
        )
        self.set_page(key, path, new)

    def remove_page(self, key: str, path: str) -> None:
        """From now on the page answers 404."""
        with self._lock:
            self._site = self._site.with_page(key, path, None)

    def set_robots(
        self, key: str, text: str, *, status: int = 200, headers: tuple[tuple[str, str], ...] = ()
    ) -> None:
        self.set_page(key, "/robots.txt", Page(text.encode(), status, TEXT, headers))

    def close(self) -> None:
        stoppers = [threading.Thread(target=s.shutdown) for s in self._servers.values()]
        for stopper in stoppers:  # all at once: each waits for its server's poll interval
            stopper.start()
        for stopper in stoppers:
            stopper.join(timeout=5)
        for server in self._servers.values():
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)

    def __enter__(self) -> RunningWeb:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def serve(site: Site) -> RunningWeb:
    """Start one server per origin of ``site``; use as a context manager to stop them."""
    return RunningWeb(site)
