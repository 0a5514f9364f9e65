"""The connections ``fetch`` opens: a host name resolved once, checked, and pinned [C1, C4];
and the one deadline of a response, from the connection to its last header [C7].

The anti-steering guard of ``scope`` sees only what a URL says, and only where a page led to
it; a *name* that resolves to a loopback, private or link-local address is invisible to it.
Here every connection first resolves its host name (through an injectable resolver, so tests
never use real DNS, and with the ``resolve`` setting's fixed answers first, as curl's
``--resolve`` does), refuses a non-public address unless the host is one the crawl was seeded
with or the address is in ``trusted_networks``, and connects to exactly the address it checked,
so a second DNS answer cannot steer the connection elsewhere (DNS rebinding). A host written as
an address is checked the same way, and may also be a neighbour of a seed written as a
non-public address (its network, ``scope.seed_networks``: a crawl of a loopback or intranet site
reaches the hosts next to it, as ``scope`` lets its pages link to them). Nothing else opens an
address: a redirect, a link or a robots.txt hop never does. Every request goes through it:
pages, redirect hops, robots.txt and its hops, sitemaps, checks (HEAD and GET).

A socket time-out bounds each read, not a response: a server that sends its status line and
headers a byte at a time would hold a worker (and its host's one slot) for as long as it likes.
So the fetcher sets a deadline (``response_deadline``) for the request it sends, and while a
connection is made (TCP and a TLS handshake, which a server can trickle too) and while it waits
for the headers, a timer shuts its socket down at that deadline; ``fetch`` bounds the body.

A host name's address is politeness's too (P6: host names on one address share its pace): a
connection keeps the address it reached and when it resolved it, which ``fetch`` hands on with
every answer; and a pooled connection older than ``max_address_age_seconds`` is not reused, so
the name is resolved again (the system resolver does not tell an answer's lifetime; its cache
honours it). ``AddressGuard.resolved`` answers before any request, as a connection would.

Part of the HTTP edge (``politecrawl.fetch``): ``fetcher`` mounts its adapter on every session.
"""

from __future__ import annotations

import contextlib
import functools
import heapq
import itertools
import socket
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import ConnectTimeoutError, NameResolutionError, NewConnectionError
from urllib3.util.connection import create_connection

from politecrawl.scope import Network, address_in, non_public_network, seed_networks

Resolver = Callable[[str, int], list[str]]
"""``(host name, port)`` to the addresses to try, in order."""
_MAX_ANSWERS_KEPT = 100_000


class SteeringRefusedError(Exception):
    """A connection the anti-steering guard refused: a non-public address the seeds and the
    settings did not name, written out or resolved from a name. Never retried."""


def system_resolver(host: str, port: int) -> list[str]:
    """The system's answer (``getaddrinfo``), addresses in its order, without repeats."""
    found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in found))


@dataclass(frozen=True)
class AddressGuard:
    """Resolves a host name and decides which of its addresses may be connected to."""

    resolver: Resolver = system_resolver
    fixed: Mapping[str, str] = field(default_factory=dict)
    """Host name -> address, answered before the resolver (the ``resolve`` setting)."""
    trusted_networks: tuple[Network, ...] = ()
    allowed_hosts: Callable[[], Iterable[str]] = tuple
    """The crawl's seed hosts (canonical): these may resolve anywhere, and those written as
    non-public addresses let addresses written out reach their networks."""
    max_address_age_seconds: float | None = None
    """A pooled connection resolved longer ago than this is not reused (P6); None: no limit."""
    answer_reuse_seconds: float = 0.0
    """The resolver's answer for a name (or its failure) is reused this long: the crawl asks
    a host's address before its first request (P6) and then connects, with one look-up."""
    _answers: dict[str, tuple[float, list[str] | OSError]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def resolved(self, host: str, port: int) -> tuple[str, datetime] | None:
        """The address ``host`` would be connected to now, and when it was resolved; None when
        it has none that may be reached (the connection would fail: let it say why)."""
        try:
            return self.address_for(host, port), datetime.now(UTC)
        except (OSError, SteeringRefusedError, UnicodeError):
            return None

    def address_for(self, host: str, port: int) -> str:
        """The address to connect ``host`` to; raises ``SteeringRefusedError`` (or
        ``socket.gaierror`` when the name does not resolve)."""
        name = host.strip("[]").lower()
        if _is_address(name):
            # Written as an address: checked like a name's answer. Scope judged it only where a
            # page led to it; a robots.txt hop, say, has no page (issue 38: SSRF through it).
            network = non_public_network(name)
            if network is None or self._may_reach_private(name, name, written=True):
                return name
            raise SteeringRefusedError(
                f"{name} is in {network}, a non-public network; not a seed host, nor in a seed's "
                "network or trusted_networks (anti-steering guard)"
            )
        fixed = self.fixed.get(name)
        addresses = [fixed] if fixed is not None else self._resolve(name, port)
        if not addresses:
            raise socket.gaierror(f"{name} has no address")
        refused = []
        for address in addresses:
            network = non_public_network(address)
            if network is None or self._may_reach_private(name, address, written=False):
                return address
            refused.append(f"{address} ({network})")
        raise SteeringRefusedError(
            f"{name} resolves to {', '.join(refused)}, a non-public address; not a seed host "
            "and not in trusted_networks (anti-steering guard)"
        )

    def _resolve(self, name: str, port: int) -> list[str]:
        """The resolver's answer, or the one it gave within ``answer_reuse_seconds``."""
        if self.answer_reuse_seconds <= 0:
            return self.resolver(name, port)
        now = time.monotonic()
        known = self._answers.get(name)
        if known is not None and now - known[0] < self.answer_reuse_seconds:
            answer = known[1]
        else:
            if len(self._answers) > _MAX_ANSWERS_KEPT:
                self._answers.clear()  # a crawl of very many names: start afresh
            try:
                answer = self.resolver(name, port)
            except OSError as error:  # gaierror: no such name, or no answer
                answer = error
            self._answers[name] = (now, answer)
        if isinstance(answer, OSError):
            raise answer
        return answer

    def _may_reach_private(self, name: str, address: str, *, written: bool) -> bool:
        """A seed host, a trusted network, or (for an address written out) a seed's network.
        A name gets no such pass: it is judged here only, with no page to judge it by."""
        if address_in(address, self.trusted_networks):
            return True
        hosts = self.allowed_hosts()
        seeds = hosts if isinstance(hosts, frozenset) else frozenset(hosts)
        if name in seeds or f"[{name}]" in seeds:
            return True
        return written and address_in(address, _seed_networks(seeds))


@functools.lru_cache(maxsize=8)
def _seed_networks(hosts: frozenset[str]) -> tuple[Network, ...]:
    """``scope.seed_networks``, once per set of seeds (asked at every non-public connection)."""
    return seed_networks(hosts)


def guarded_adapter(guard: AddressGuard, **options: Any) -> HTTPAdapter:
    """A requests adapter whose every connection goes through ``guard``."""
    adapter = HTTPAdapter(**options)
    adapter.poolmanager.pool_classes_by_scheme = _pool_classes(guard)
    return adapter


def _connect(connection: HTTPConnection, guard: AddressGuard) -> socket.socket:
    """urllib3's ``HTTPConnection._new_conn``, to the address the guard checked (pinned: no
    second lookup). The connection's host name is left as it is, for the Host header and TLS."""
    try:
        address = guard.address_for(connection.host, connection.port)
        return create_connection(
            (address, connection.port),
            connection.timeout,
            source_address=connection.source_address,
            socket_options=connection.socket_options,
        )
    except socket.gaierror as error:
        raise NameResolutionError(connection.host, connection, error) from error
    except TimeoutError as error:
        raise ConnectTimeoutError(
            connection, f"Connection to {connection.host} timed out ({connection.timeout})"
        ) from error
    except OSError as error:
        message = f"Failed to establish a connection: {error}"
        raise NewConnectionError(connection, message) from error


_deadline = threading.local()


@contextmanager
def response_deadline(deadline: float) -> Iterator[None]:
    """Within the block, a connection of this thread being made (TCP, TLS) or waiting for a
    response's headers is cut off at ``deadline`` (``time.monotonic()`` seconds)."""
    _deadline.at = deadline
    try:
        yield
    finally:
        _deadline.at = None


class _Watchdog:
    """One thread that shuts sockets down at their deadlines: a request costs a heap push, not
    a timer thread of its own (about 0.2 ms each, on the hot path)."""

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._heap: list[tuple[float, int, socket.socket]] = []
        self._cancelled: set[int] = set()
        self._tokens = itertools.count()
        self._thread: threading.Thread | None = None

    def watch(self, deadline: float, sock: socket.socket) -> int:
        """Shut ``sock`` down at ``deadline`` (``time.monotonic()``) unless cancelled."""
        with self._condition:
            token = next(self._tokens)
            heapq.heappush(self._heap, (deadline, token, sock))
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="politecrawl-deadlines", daemon=True
                )
                self._thread.start()
            if self._heap[0][1] == token:
                # The new first deadline: the thread sleeps until a later one, or for ever.
                # (A later deadline needs no wake-up: the thread wakes for the first one and
                # looks again; waking it for every request cost a thread switch each.)
                self._condition.notify()
            return token

    def cancel(self, token: int) -> None:
        with self._condition:
            self._cancelled.add(token)

    def _run(self) -> None:
        with self._condition:
            while True:
                while self._heap and self._heap[0][1] in self._cancelled:
                    self._cancelled.discard(heapq.heappop(self._heap)[1])
                if not self._heap:
                    self._condition.wait()
                    continue
                deadline, _, sock = self._heap[0]
                wait = deadline - time.monotonic()
                if wait > 0:
                    self._condition.wait(wait)
                    continue
                heapq.heappop(self._heap)
                _shut(sock)


_WATCHDOG = _Watchdog()


def _connected_within_deadline(connect: Callable[[], None]) -> None:
    """``connect()`` (the connection's own), any socket it opens shut down at the deadline: a
    TLS handshake is as slow as the server likes to make it."""
    if getattr(_deadline, "at", None) is None:
        connect()
        return
    watched: list[tuple[int, socket.socket]] = []
    _deadline.watched = watched
    try:
        connect()
    finally:
        _deadline.watched = None
        for token, duplicate in watched:
            _WATCHDOG.cancel(token)  # under the watchdog's lock: it is done with the duplicate
            duplicate.close()


def _watched(sock: socket.socket) -> socket.socket:
    """``sock``, watched until its connection is made when a deadline is set (see above).

    The watchdog gets a duplicate: wrapping a socket in TLS detaches the object ``_new_conn``
    returned (shutting it down would do nothing), while a duplicate descriptor shuts down the
    same connection and cannot be reused by another socket until it is closed."""
    deadline = getattr(_deadline, "at", None)
    watched: list[tuple[int, socket.socket]] | None = getattr(_deadline, "watched", None)
    if deadline is not None and watched is not None:
        duplicate = sock.dup()
        watched.append((_WATCHDOG.watch(deadline, duplicate), duplicate))
    return sock


def _headers_within_deadline(connection: HTTPConnection, read: Callable[[], Any]) -> Any:
    """``read()`` (the connection's ``getresponse``), its socket shut down at the deadline."""
    deadline = getattr(_deadline, "at", None)
    sock = connection.sock
    if deadline is None or sock is None:
        return read()
    token = _WATCHDOG.watch(deadline, sock)
    try:
        return read()
    finally:
        _WATCHDOG.cancel(token)


def _shut(sock: socket.socket) -> None:
    with contextlib.suppress(OSError):  # already closed: nothing to cut
        sock.shutdown(socket.SHUT_RDWR)


class _GuardedConnection(HTTPConnection):
    """An urllib3 connection to the address its ``guard`` checked, made and answered within
    the response deadline; the HTTPS one is the same with TLS (``_pool_classes``)."""

    guard: AddressGuard
    peer_address: str | None = None
    """The address the connection reached (its socket's peer), kept for the responses it
    carries (an archive's ``WARC-IP-Address``, the host's server: P6) after urllib3 drops the
    socket of a response that ends the connection."""
    resolved_at: datetime | None = None
    """When its host name was resolved (the connection was made)."""
    _resolved_monotonic: float | None = None

    def _new_conn(self) -> socket.socket:
        self.resolved_at, self._resolved_monotonic = datetime.now(UTC), time.monotonic()
        sock = _watched(_connect(self, self.guard))
        with contextlib.suppress(OSError):  # no peer after all: the request itself will fail
            self.peer_address = str(sock.getpeername()[0])
        return sock

    @property
    def is_connected(self) -> bool:
        """urllib3's question before reusing a pooled connection: no, once its address is
        older than the guard allows (P6: the name is resolved again)."""
        limit = self.guard.max_address_age_seconds
        resolved = self._resolved_monotonic
        if limit is not None and resolved is not None and time.monotonic() - resolved >= limit:
            return False
        return bool(super().is_connected)

    def connect(self) -> None:
        _connected_within_deadline(super().connect)

    def getresponse(self) -> Any:
        return _headers_within_deadline(self, super().getresponse)


def _pool_classes(address_guard: AddressGuard) -> dict[str, type[HTTPConnectionPool]]:
    class GuardedHTTPConnection(_GuardedConnection):
        guard = address_guard

    class GuardedHTTPSConnection(_GuardedConnection, HTTPSConnection):
        guard = address_guard

    class GuardedHTTPConnectionPool(HTTPConnectionPool):
        ConnectionCls = GuardedHTTPConnection

    class GuardedHTTPSConnectionPool(HTTPSConnectionPool):
        ConnectionCls = GuardedHTTPSConnection

    return {"http": GuardedHTTPConnectionPool, "https": GuardedHTTPSConnectionPool}


def _is_address(name: str) -> bool:
    try:
        socket.inet_pton(socket.AF_INET6 if ":" in name else socket.AF_INET, name)
    except OSError:
        return False
    return True
