"""What one access-log line says, as the audit reads it: a request, or why the line was not one.

[G1] One value per line, built by the format readers (``formats``, ``json_lines``) and consumed
by the checks (``checks``). Times are seconds since the epoch (floats: a million lines are
compared many times over, and a float costs a fraction of an aware datetime); the results hand
out aware UTC datetimes (``results``).
"""

from __future__ import annotations

from typing import NamedTuple


class LogRecord(NamedTuple):
    """One request as the server logged it."""

    time: float
    """When the server logged it, seconds since the epoch (see ``start``)."""
    user_agent: str
    target: str | None
    """The request target, path and query (``/a?b``); None when the request line was not
    HTTP (a TLS handshake on a plain port, ``-`` for a connection closed before a request)."""
    status: int
    method: str = ""
    duration: float | None = None
    """Seconds the server spent on it (nginx ``$request_time``), when logged."""
    origin: str = ""
    """``scheme://host[:port]`` when the line says (JSON lines); "" for the audit's ``site``."""
    retry_after: float | None = None
    """The Retry-After the response carried, in seconds, when logged."""
    time_resolution: float = 1.0
    """How precise ``time`` is: 1 s for ``[10/Oct/2000:13:55:36 -0700]``, 0.001 for
    milliseconds. A gap is called too short only when it is shorter by more than this."""
    remote: str = ""

    @property
    def start(self) -> float:
        """When the request started: with a duration, the log time is its end (nginx writes a
        line when the response is done), so the start is that much earlier."""
        return self.time - self.duration if self.duration is not None else self.time


class BadLine(NamedTuple):
    """A line that is not a request in any known format: where, why, and how it began."""

    source: str
    line_number: int
    reason: str
    excerpt: str
