"""What a request that got no answer becomes: a ``FetchError``, temporary (defer, O6) unless
the URL cannot be requested at all, with one short line saying why.

A host name the resolver says does not exist (NXDOMAIN, or a name without an address) is a
``HostNotFoundError``: still temporary for a crawled origin (O6: a DNS failure defers), but a
link check records it as broken at once (L1), and no host backs off for it (no server is in
trouble). A resolver that timed out or failed (SERVFAIL) is an ordinary temporary failure: the
name may exist. ``host_not_found_in`` finds the error in a text made from it (a robots.txt
outcome's reason).
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from http.client import HTTPException
from typing import Any

import requests
from urllib3.exceptions import ProtocolError

from politecrawl.errors import FetchError
from politecrawl.fetch.values import FetchLimits

_INVALID_URL = (requests.exceptions.InvalidURL, requests.exceptions.MissingSchema,
                requests.exceptions.InvalidSchema, requests.exceptions.URLRequired)  # fmt: skip
HOST_NOT_FOUND = "host not found"
"""How the message of a ``HostNotFoundError`` begins."""
# getaddrinfo's answers for a name that does not exist, or has no address: NXDOMAIN, NODATA.
_NOT_FOUND = frozenset(
    code for code in (socket.EAI_NONAME, getattr(socket, "EAI_NODATA", None)) if code is not None
)


class HostNotFoundError(FetchError):
    """The URL's host name does not resolve: the resolver answered that it does not exist, or
    has no address (not a time-out: that is an ordinary temporary failure)."""

    def __init__(self, url: str, reason: str) -> None:
        super().__init__(
            f"{HOST_NOT_FOUND} ({reason})", url=url, temporary=True, host_trouble=False
        )


def host_not_found_in(text: str, url: str) -> str | None:
    """The ``HostNotFoundError`` message for ``url`` that ``text`` begins with (``str()`` of the
    error, or a robots.txt outcome's reason made from it), else None."""
    prefix = f"{url}: {HOST_NOT_FOUND}"
    if not text.startswith(prefix):
        return None
    message = text[len(url) + 2 :]
    reason, closed, _ = message.partition(")")
    return reason + closed if closed else HOST_NOT_FOUND


def failure(
    url: str, exc: BaseException, deadline: float, limits: FetchLimits, *, arriving: str = ""
) -> FetchError:
    """Map an error to FetchError: only a URL that cannot be requested at all is permanent.
    ``arriving``: what was still arriving, should the deadline have passed (``too_slow``)."""
    if isinstance(exc, _INVALID_URL):
        return FetchError(f"invalid URL: {_reason(exc)}", url=url, temporary=False)
    if _name_not_found(exc):  # the resolver's answer, however long it took
        return HostNotFoundError(url, _reason(exc))
    if time.monotonic() >= deadline:
        return too_slow(url, limits, arriving=arriving)
    timed_out = True
    if isinstance(exc, requests.exceptions.ConnectTimeout):
        message = f"no connection within {limits.connect_timeout_seconds:g} s"
    elif isinstance(exc, requests.exceptions.ReadTimeout):
        message = f"no answer within {limits.response_timeout_seconds:g} s"
    else:
        message = f"request failed: {_reason(exc)}"
        timed_out = False
    return FetchError(message, url=url, temporary=True, timed_out=timed_out, garbled=_garbled(exc))


def too_slow(url: str, limits: FetchLimits, *, arriving: str = "") -> FetchError:
    """The response deadline passed (C7): temporary, a time-out. ``arriving`` says what the
    server was still sending ("its body was arriving"): it was answering, too slowly (cut off)."""
    message = f"response took longer than {limits.response_timeout_seconds:g} s"
    if arriving:
        message += f": cut off while {arriving}"
    return FetchError(
        message,
        url=url,
        temporary=True,
        timed_out=True,
        cut_off=bool(arriving),
        closed_early=True,  # the server was still answering, or about to
    )


def _garbled(exc: BaseException) -> bool:
    """A reset connection or an answer that is not HTTP, anywhere in ``exc``'s chain (not a
    refused connection, a name that does not resolve or a certificate refused)."""
    return any(
        isinstance(item, ProtocolError | ConnectionResetError | HTTPException)
        for item in _chain(exc)
    )


def _name_not_found(exc: BaseException) -> bool:
    """A resolver's "no such name" (or "no address") anywhere in ``exc``'s chain."""
    return any(
        isinstance(item, socket.gaierror) and item.errno in _NOT_FOUND for item in _chain(exc)
    )


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc`` and every exception it holds, each once: its cause and context, the arguments
    requests wraps a cause in, and urllib3's ``reason``."""
    seen: set[int] = set()
    stack: list[object] = [exc]
    while stack:
        item = stack.pop()
        if not isinstance(item, BaseException) or id(item) in seen:
            continue
        seen.add(id(item))
        yield item
        stack += [item.__cause__, item.__context__, getattr(item, "reason", None), *item.args]


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
