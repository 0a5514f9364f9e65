"""A small demo web on loopback, for ``politecrawl demo``: four origins, one idea per page.

    with DemoSite() as site:
        crawl(site.seeds)                 # the four home pages
        site.requests                     # [(time.monotonic(), origin, path), ...]

Each origin is a ``ThreadingHTTPServer`` on its own loopback address (127.0.0.2 ... 127.0.0.5,
a free port each; Linux routes all of 127.0.0.0/8 to lo). Where those addresses cannot be bound
(macOS) every origin listens on 127.0.0.1 with its own port; the origins then share one host,
and so one politeness slot. The content is data, ``demo_pages/site.toml``; every page says in
one sentence (``about``) what it demonstrates:

- ``shop``: robots.txt with a ``*`` record and a ``politecrawl`` record (``Crawl-delay: 0.2``,
  and ``Disallow: /news/`` before ``Allow: /news/public/``, which the 1996 draft and RFC 9309
  read differently); META noindex and nofollow, a rel="nofollow" link, a 404 linked from two
  pages, a 500, a 301 -> 302 redirect chain and a page that answers after a second; a sitemap
  (named by robots.txt) listing an orphan page and a page that does not exist.
- ``blog``: no robots.txt (404: no restrictions); META tags for politecrawl and for another robot.
- ``private``: robots.txt answers 403: the whole origin is disallowed.
- ``files``: an empty ``Disallow:``; X-Robots-Tag on a PDF and on an HTML page.

Standard library only; nothing listens beyond 127.0.0.0/8. Content is fixed (only the ports
change from run to run); one request per connection, so closing the site closes every socket.
"""

from __future__ import annotations

import threading
import time
import tomllib
from dataclasses import dataclass
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from itertools import pairwise
from socketserver import TCPServer
from types import TracebackType
from typing import Any, Final

__all__ = ["ORIGIN_NAMES", "SITE", "DemoPage", "DemoSite", "load_site"]

_HTML: Final = "text/html; charset=utf-8"


@dataclass(frozen=True, slots=True)
class DemoPage:
    """One resource of ``demo_pages/site.toml`` (its header comment describes the fields)."""

    title: str
    about: str
    links: tuple[str, ...] = ()
    status: int = 200
    location: str | None = None
    meta: tuple[tuple[str, str], ...] = ()
    headers: tuple[tuple[str, str], ...] = ()
    delay: float = 0.0
    type: str = _HTML
    body: bytes | None = None

    @classmethod
    def from_table(cls, table: dict[str, Any]) -> DemoPage:
        """A page from its TOML table."""
        body = table.get("body")
        location = table.get("location")
        return cls(
            title=str(table.get("title", "")),
            about=str(table.get("about", "")),
            links=tuple(str(link) for link in table.get("links", ())),
            status=int(table.get("status", 200)),
            location=None if location is None else str(location),
            meta=tuple((str(k), str(v)) for k, v in table.get("meta", {}).items()),
            headers=tuple((str(k), str(v)) for k, v in table.get("headers", {}).items()),
            delay=float(table.get("delay", 0.0)),
            type=str(table.get("type", _HTML)),
            body=None if body is None else str(body).encode("utf-8"),
        )


def load_site() -> dict[str, dict[str, DemoPage]]:
    """The demo web as written in ``demo_pages/site.toml``: origin name -> path -> page."""
    text = files("politecrawl").joinpath("demo_pages", "site.toml").read_text("utf-8")
    return {
        name: {path: DemoPage.from_table(table) for path, table in pages.items()}
        for name, pages in tomllib.loads(text).items()
    }


SITE: Final = load_site()
ORIGIN_NAMES: Final = tuple(SITE)
NOT_FOUND: Final = DemoPage("Not found", "Nothing here (404).", status=404)


def render(page: DemoPage, origins: dict[str, str]) -> bytes:
    """The bytes sent for ``page``; ``{name}`` in hrefs and bodies becomes that origin's base
    URL."""
    if page.body is not None:
        body = page.body
        for name, base in origins.items():
            body = body.replace(b"{" + name.encode() + b"}", base.encode())
        return body
    metas = "".join(f'<meta name="{escape(n)}" content="{escape(c)}">' for n, c in page.meta)
    items = []
    for link in page.links:
        rel = ' rel="nofollow"' if link.startswith("nofollow:") else ""
        href = escape(link.removeprefix("nofollow:").format(**origins))
        items.append(f'<li><a href="{href}"{rel}>{href}</a></li>')
    title = escape(page.title)
    html = (
        f"<!DOCTYPE html>\n<html><head><title>{title}</title>{metas}</head>\n"
        f"<body><h1>{title}</h1>\n<p>{escape(page.about)}</p>\n<ul>{''.join(items)}</ul>\n"
        "</body></html>\n"
    )
    return html.encode("utf-8")


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address: str, site: DemoSite, name: str) -> None:
        self.site = site
        self.name = name
        super().__init__((address, 0), _Handler)

    def server_bind(self) -> None:
        TCPServer.server_bind(self)  # not HTTPServer's: no reverse DNS look-up
        self.server_name, self.server_port = self.server_address[:2]  # type: ignore[assignment]


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "politecrawl-demo/1"
    sys_version = ""
    timeout = 10
    server: _Server

    def log_message(self, format: str, *args: object) -> None:
        pass  # quiet: DemoSite.requests is the log

    def do_GET(self) -> None:
        self._answer(with_body=True)

    def do_HEAD(self) -> None:
        self._answer(with_body=False)

    def _answer(self, *, with_body: bool) -> None:
        site, name = self.server.site, self.server.name
        site.record(name, self.path)
        page = site.page(name, self.path)
        if page.delay:
            time.sleep(page.delay)
        body = render(page, site.bases)
        self.send_response(page.status)
        self.send_header("Content-Type", page.type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")  # one request per connection
        if page.location is not None:
            self.send_header("Location", page.location)
        for key, value in page.headers:
            self.send_header(key, value)
        self.end_headers()
        if with_body:
            self.wfile.write(body)
        self.close_connection = True


class DemoSite:
    """The demo web, serving from construction until ``close()`` (or the ``with`` block's end).

    ``origins`` are the base URLs (``http://127.0.0.2:41234``) in ``ORIGIN_NAMES`` order,
    ``bases`` maps each name to its base URL, ``seeds`` are the home pages; ``requests`` is
    every request received: (``time.monotonic()`` at arrival, origin, path with query), in
    order of arrival."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._log: list[tuple[float, str, str]] = []
        self._servers = self._bind()
        self.bases: dict[str, str] = {
            name: f"http://{server.server_name}:{server.server_port}"
            for name, server in self._servers.items()
        }
        self._threads = [
            threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
            for s in self._servers.values()
        ]
        for thread in self._threads:
            thread.start()

    def _bind(self) -> dict[str, _Server]:
        """127.0.0.2, .3, ... each with a free port; all on 127.0.0.1 if those cannot be bound."""
        servers: dict[str, _Server] = {}
        try:
            for number, name in enumerate(ORIGIN_NAMES, start=2):
                servers[name] = _Server(f"127.0.0.{number}", self, name)
        except OSError:
            for server in servers.values():
                server.server_close()
            servers = {name: _Server("127.0.0.1", self, name) for name in ORIGIN_NAMES}
        return servers

    @property
    def origins(self) -> tuple[str, ...]:
        """Every origin's base URL, in ``ORIGIN_NAMES`` order."""
        return tuple(self.bases.values())

    @property
    def seeds(self) -> list[str]:
        """The home page of every origin."""
        return [f"{base}/" for base in self.bases.values()]

    def url(self, name: str, path: str = "/") -> str:
        """The absolute URL of ``path`` on origin ``name`` (``site.url("shop", "/cart/")``)."""
        return self.bases[name] + path

    @property
    def requests(self) -> list[tuple[float, str, str]]:
        """A snapshot of the request log."""
        with self._lock:
            return list(self._log)

    def record(self, name: str, path: str) -> None:
        """Log one request (called by the servers)."""
        with self._lock:
            self._log.append((time.monotonic(), self.bases[name], path))

    def page(self, name: str, path: str) -> DemoPage:
        """What origin ``name`` serves at ``path`` (with its query), else the 404 page."""
        pages = SITE[name]
        return pages.get(path) or pages.get(path.split("?", 1)[0]) or NOT_FOUND

    def about(self, url: str) -> str | None:
        """The sentence saying what the page at ``url`` demonstrates, if it is one of ours."""
        for name, base in self.bases.items():
            if url.startswith(base + "/"):
                page = self.page(name, url[len(base) :].split("#", 1)[0])
                return page.about if page is not NOT_FOUND else None
        return None

    def politeness(self) -> dict[str, tuple[int, float | None]]:
        """Per origin: requests received, and the shortest time between two arrivals."""
        arrivals: dict[str, list[float]] = {base: [] for base in self.bases.values()}
        for at, origin, _ in self.requests:
            arrivals[origin].append(at)
        return {
            origin: (len(times), min((b - a for a, b in pairwise(times)), default=None))
            for origin, times in arrivals.items()
        }

    def close(self) -> None:
        """Stop every server and close its port."""
        stoppers = [threading.Thread(target=s.shutdown) for s in self._servers.values()]
        for stopper in stoppers:  # all at once: each waits up to its poll interval
            stopper.start()
        for stopper in stoppers:
            stopper.join(timeout=5)
        for server in self._servers.values():
            server.server_close()
        for thread in self._threads:
            thread.join(timeout=5)

    def __enter__(self) -> DemoSite:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()
