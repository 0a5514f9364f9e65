"""Access-log lines in the formats servers write by default, to ``LogRecord``s [G1].

- nginx and Apache ``combined``: ``host ident user [time] "request" status bytes "referer"
  "user agent"``, optionally followed by nginx's ``$request_time`` (seconds with milliseconds,
  ``0.123``, alone or as ``rt=0.123``): then the line's time is the request's end.
- ``common``: the same without referer and user agent (every request is then one unnamed agent).
- JSON lines (one object a line, as nginx ``escape=json``, Caddy and most log shippers write
  them) are ``json_lines``'s.

``parse_combined`` never raises: a line it cannot read comes back as a reason (a ``str``).
Strings in the log are kept as written (nginx writes ``\\x22`` for a quote, Apache ``\\"``).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

from politecrawl.audit.records import LogRecord

# The request line's usual shape ("GET /path HTTP/1.1") is split by the expression itself;
# anything else (absolute-form, garbage, "-") is kept whole for ``split_request``.
_COMBINED = re.compile(
    r'(\S+) \S+ \S+ \[([^\]]+)\] "(?:([A-Z]+) (/\S*)(?: HTTP/[\d.]+)?|((?:[^"\\]|\\.)*))" '
    r'(\d{3}) \S+(?: "(?:[^"\\]|\\.)*" "((?:[^"\\]|\\.)*)")?(.*)'
)
_REQUEST_TIME = re.compile(r'(?:^|\s)(?:rt=|request_time=)?"?(\d+\.\d{3})"?(?=\s|$)')
_MONTHS = {
    name: number
    for number, name in enumerate(
        ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1
    )
}
_CLF_TIME = re.compile(
    r"(\d\d)/(\w{3})/(\d{4}):(\d\d):(\d\d):(\d\d)(?:\.(\d+))? ([+-])(\d\d)(\d\d)"
)


_minutes: dict[str, float] = {}
"""``10/Oct/2000:13:55 -0700`` to its epoch seconds: a log's lines share their minute."""
_MAX_MINUTES = 4096


def parse_clf_time(text: str) -> tuple[float, float] | None:
    """``10/Oct/2000:13:55:36 -0700`` to (seconds since the epoch, resolution), or None."""
    if len(text) == 26 and text[17] == ":" and text[20] == " ":
        key = text[:17] + text[20:]
        minute = _minutes.get(key)
        seconds = text[18:20]
        if minute is not None and seconds.isdigit():
            return minute + int(seconds), 1.0
    found = _CLF_TIME.fullmatch(text)
    month = _MONTHS.get(found.group(2)) if found else None
    if found is None or month is None:
        return None
    day, _, year, hour, minute_text, second, fraction, sign, off_h, off_m = found.groups()
    offset = timedelta(hours=int(off_h), minutes=int(off_m))
    try:
        moment = datetime(
            int(year),
            month,
            int(day),
            int(hour),
            int(minute_text),
            tzinfo=timezone(-offset if sign == "-" else offset),
        )
    except ValueError:
        return None
    if int(second) > 60:
        return None
    value = moment.timestamp()
    if not fraction:
        if len(_minutes) >= _MAX_MINUTES:
            _minutes.clear()
        _minutes[text[:17] + text[20:]] = value
        return value + int(second), 1.0
    return value + int(second) + float("0." + fraction), 10.0 ** -len(fraction)


def split_request(request: str) -> tuple[str, str | None]:
    """``GET /a?b HTTP/1.1`` to (method, target path and query); (``""``, None) when the line
    is no HTTP request. An absolute-form target (``GET http://host/a``) keeps its path."""
    parts = request.split(" ")
    if len(parts) < 2 or not parts[0].isalpha():
        return "", None
    target = parts[1]
    if target.startswith(("http://", "https://", "HTTP://", "HTTPS://")):
        slash = target.find("/", target.find("//") + 2)
        target = "/" if slash < 0 else target[slash:]
    if not target.startswith("/"):
        return parts[0], None  # CONNECT host:443, OPTIONS *, garbage
    return parts[0], target


def parse_combined(line: str) -> LogRecord | str:
    """One combined or common log line to a record, or the reason it is none (never raises)."""
    found = _COMBINED.match(line)
    if found is None:
        return "not a combined, common or JSON log line"
    remote, when, method, target, request, status, agent, rest = found.groups()
    parsed_time = parse_clf_time(when)
    if parsed_time is None:
        return f"unreadable time [{when[:40]}]"
    if request is not None:
        method, target = split_request(request)
    duration = None
    if rest:
        timing = _REQUEST_TIME.search(rest)
        if timing is not None:
            duration = float(timing.group(1))
    return LogRecord(
        parsed_time[0],
        agent or "",
        target,
        int(status),
        method,
        duration,
        "",
        None,
        parsed_time[1],
        remote,
    )


def to_datetime(seconds: float) -> datetime:
    """Seconds since the epoch as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)
