"""Helpers for tests, ours and users': a clock that only moves when told to, and a fetcher
that answers from a script instead of the network [STYLE 6]."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from urllib.parse import urlsplit

from politecrawl.errors import FetchError
from politecrawl.fetch import Fetcher, FetchLimits, FetchRequest, FetchResult


class FakeClock:
    """A ``Clock`` whose time moves only by ``advance`` or ``sleep``: exact, instant tests."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._monotonic = 0.0
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """The fake current time (aware UTC)."""
        with self._lock:
            return self._now

    def monotonic(self) -> float:
        """Seconds advanced so far."""
        with self._lock:
            return self._monotonic

    def sleep(self, seconds: float) -> None:
        """Advance by ``seconds`` at once instead of waiting."""
        self.advance(seconds)

    def wait(self, event: threading.Event, seconds: float) -> bool:
        """Whether ``event`` is set; when it is not, advance by ``seconds`` first."""
        if not event.is_set():
            self.advance(seconds)
        return event.is_set()

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        if seconds <= 0:
            return
        with self._lock:
            self._now += timedelta(seconds=seconds)
            self._monotonic += seconds


@dataclass(frozen=True, slots=True)
class Answer:
    """What a ``ScriptedFetcher`` answers for one URL."""

    status: int = 200
    body: bytes | str = b""
    headers: tuple[tuple[str, str], ...] = (("Content-Type", "text/html; charset=utf-8"),)
    elapsed_seconds: float = 0.0


class ScriptedFetcher(Fetcher):
    """A ``Fetcher`` that answers from a script, never from the network: for tests of code
    that drives a ``Crawler`` (``Crawler(config, fetcher=ScriptedFetcher({...}))``).

    ``script`` maps absolute URLs to an ``Answer``, a list of them (given in turn, the last
    repeated: a page that fails, then works), or a ``FetchError`` to raise (a time-out, say). A
    URL not in the script answers 404, so a site without robots.txt needs no entry for it.
    ``requests`` lists every URL asked, in order. A redirect is an ``Answer`` with a 3xx status
    and a ``Location`` header, resolved against the URL as the real fetcher does. A body longer
    than ``limits.max_body_bytes`` is cut there, as the real fetcher cuts it. ``addresses``
    maps host names to the address they are on (P6: host names sharing a server); a host not
    in it has none known, and is paced alone.
    """

    def __init__(
        self,
        script: Mapping[str, Answer | list[Answer] | FetchError],
        *,
        user_agent: str = "politecrawl/test",
        limits: FetchLimits | None = None,
        addresses: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(user_agent=user_agent, limits=limits or FetchLimits())
        self._addresses = {host.lower(): address for host, address in (addresses or {}).items()}
        self._script = dict(script)
        self._served: dict[str, int] = {}
        self._log_lock = threading.Lock()
        self.requests: list[str] = []
        self.methods: list[str] = []
        """The method of each request, in the order of ``requests``."""

    def address_of(self, url: str) -> tuple[str, datetime] | None:
        """The address ``addresses`` gives the URL's host, resolved now; never DNS."""
        address = self._addresses.get((urlsplit(url).hostname or "").lower())
        return None if address is None else (address, datetime.now(UTC))

    def _answer(self, request: FetchRequest) -> FetchResult:
        """The scripted answer for the URL (404 when it has none); a HEAD gets its headers."""
        url, method, cap = request.url, request.method, request.max_bytes
        with self._log_lock:
            self.requests.append(url)
            self.methods.append(method)
            turn = self._served.get(url, 0)
            self._served[url] = turn + 1
        entry = self._script.get(url, Answer(404, "not found", (("Content-Type", "text/plain"),)))
        if isinstance(entry, FetchError):
            raise entry
        answer = entry[min(turn, len(entry) - 1)] if isinstance(entry, list) else entry
        body = answer.body.encode("utf-8") if isinstance(answer.body, str) else answer.body
        return FetchResult(
            url,
            answer.status,
            answer.headers,
            body[:cap],
            len(body) > cap and method != "HEAD",
            answer.elapsed_seconds,
            None,  # a redirect's Location: resolved by ``fetch``, as for the network
            peer_address=known[0] if (known := self.address_of(url)) is not None else None,
            resolved_at=known[1] if known is not None else None,
        )
