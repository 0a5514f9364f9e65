"""HTTP dates (RFC 9110 5.6.7) as aware UTC datetimes: Expires, Date, Retry-After. Pure.

One reader for every header that carries a date, so that they agree: the three formats HTTP
allows (IMF-fixdate, RFC 850, asctime), and a zone written ``-0000`` or left out read as UTC,
as RFC 9110 says all HTTP dates are. Anything else is ``None``: the caller decides what an
unreadable date means (an invalid Expires means already expired, RFC 9111 5.3).
"""

from __future__ import annotations

import email.utils
from datetime import UTC, datetime


def parse_http_date(value: str | None) -> datetime | None:
    """``value`` as an aware UTC datetime, or ``None`` when it is not an HTTP date."""
    if not value or not value.strip():
        return None
    try:
        parsed = email.utils.parsedate_to_datetime(value.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if parsed.tzinfo is None:  # "-0000" (RFC 5322) and asctime's missing zone: UTC in HTTP
        return parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)
