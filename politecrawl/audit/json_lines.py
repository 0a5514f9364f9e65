"""JSON-lines access logs: one object a line, fields found by name [G1].

The mapping (the first name present wins; a dotted name reaches into nested objects, as Caddy
writes them; ``""`` and ``"-"`` count as absent):

===========  ======================================================================
time         ``time``, ``timestamp``, ``@timestamp``, ``ts``, ``time_iso8601``, ``time_local``,
             ``msec``: ISO 8601, ``10/Oct/2000:13:55:36 -0700`` or seconds since the epoch
user agent   ``user_agent``, ``http_user_agent``, ``agent``, ``ua``,
             ``request.headers.User-Agent``
request      ``request`` (``GET /a?b HTTP/1.1``), else ``method`` / ``request_method`` with
             ``uri``, ``request_uri``, ``path`` or ``url`` (and ``query`` / ``args``), or
             ``request.method`` with ``request.uri``
status       ``status``, ``status_code``
duration     ``request_time``, ``duration``, ``response_time`` (seconds): the time is then the end
host         ``host``, ``http_host``, ``server_name``, ``request.host``; ``scheme`` beside it
retry after  ``retry_after``, ``sent_http_retry_after``, ``resp_headers.Retry-After``
===========  ======================================================================
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from politecrawl.audit.formats import parse_clf_time, split_request
from politecrawl.audit.records import LogRecord
from politecrawl.httpdates import parse_http_date

_TIME = ("time", "timestamp", "@timestamp", "ts", "time_iso8601", "time_local", "msec")
_AGENT = ("user_agent", "http_user_agent", "agent", "ua", "request.headers.User-Agent")
_METHOD = ("method", "request_method", "request.method")
_TARGET = ("uri", "request_uri", "path", "url", "request.uri")
_QUERY = ("query", "args", "query_string")
_STATUS = ("status", "status_code")
_DURATION = ("request_time", "duration", "response_time")
_HOST = ("host", "http_host", "server_name", "request.host")
_SCHEME = ("scheme", "request.scheme")
_RETRY_AFTER = ("retry_after", "sent_http_retry_after", "resp_headers.Retry-After")
_MAX_EPOCH_SECONDS = 1e11  # larger numbers are milliseconds


def _get(item: dict[str, Any], names: tuple[str, ...]) -> Any:
    for name in names:
        value: Any = item.get(name)
        if value is None and "." in name:
            value = item
            for part in name.split("."):
                value = value.get(part) if isinstance(value, dict) else None
        if isinstance(value, list):
            value = value[0] if value else None  # Caddy's headers are lists
        if value is not None and value not in ("", "-"):
            return value
    return None


def _time(value: Any) -> tuple[float, float] | None:
    """(seconds since the epoch, resolution) of a logged time, or None."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
        if seconds > _MAX_EPOCH_SECONDS:
            seconds /= 1000.0
        return seconds, 0.001
    if not isinstance(value, str):
        return None
    if value.replace(".", "", 1).isdigit():
        return _time(float(value))
    clf = parse_clf_time(value)
    if clf is not None:
        return clf
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)  # a log without an offset is taken as UTC
    return moment.timestamp(), (0.001 if moment.microsecond or "." in value else 1.0)


def _number(value: Any) -> float | None:
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def _retry_after(value: Any, now: float) -> float | None:
    seconds = _number(value)
    if seconds is not None:
        return max(seconds, 0.0)
    when = parse_http_date(str(value)) if value is not None else None
    return None if when is None else max(when.timestamp() - now, 0.0)


def parse_json_line(line: str) -> LogRecord | str:
    """One JSON object to a record, or the reason it is none (never raises)."""
    try:
        item = json.loads(line)
    except ValueError:
        return "not valid JSON"
    if not isinstance(item, dict):
        return "a JSON line that is not an object"
    when = _time(_get(item, _TIME))
    if when is None:
        return "a JSON line without a readable time (time, timestamp, ts, ...)"
    status = _number(_get(item, _STATUS))
    if status is None:
        return "a JSON line without a status"
    request = item.get("request")
    if isinstance(request, str) and request not in ("", "-"):
        method, target = split_request(request)
    else:
        method = str(_get(item, _METHOD) or "")
        raw = _get(item, _TARGET)
        target = None
        if isinstance(raw, str):
            _, target = split_request(f"GET {raw}")
            query = _get(item, _QUERY)
            if target is not None and query and "?" not in target:
                target += f"?{query}"
    host = _get(item, _HOST)
    scheme = _get(item, _SCHEME)
    origin = ""
    if host:  # "//host" when the scheme is not logged: the audit's site gives it
        origin = f"{str(scheme).lower() + ':' if scheme else ''}//{str(host).lower()}"
    retry_after = _get(item, _RETRY_AFTER)
    return LogRecord(
        when[0],
        str(_get(item, _AGENT) or ""),
        target,
        int(status),
        method,
        _number(_get(item, _DURATION)),
        origin,
        None if retry_after is None else _retry_after(retry_after, when[0]),
        when[1],
        str(_get(item, ("remote_addr", "remote_ip", "client_ip", "request.remote_ip")) or ""),
    )
