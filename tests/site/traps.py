"""Crawler traps: infinite families of pages generated on demand (C3).

Each trap is endless on the server and only a trap guard stops a crawler in it:

- ``calendar`` (``/cal/2024-01/``): a month page whose "next month" link is the classic broken
  relative link ``2024-02/``, so each hop is one segment deeper: ``/cal/2024-01/2024-02/...``.
  Stopped by the path depth guard.
- ``repeat`` (``/loop/x/``): links to ``x/``, so ``/loop/x/x/x/...``; stopped by the repeated
  segment guard (before the depth guard would).
- ``query`` (``/shop/list?sort=price``): links to the same query with ``&sort=price`` appended;
  stopped by the query length guard.
"""

from __future__ import annotations

import re

from .pages import Link, html_page

CALENDAR_START = "/cal/2024-01/"
REPEAT_START = "/loop/x/"
QUERY_START = "/shop/list?sort=price"

_MONTH = re.compile(r"(\d{4})-(0[1-9]|1[0-2])")


def _calendar(path: str) -> bytes | None:
    segments = path.removeprefix("/cal/").rstrip("/").split("/")
    if not path.endswith("/") or not all(_MONTH.fullmatch(s) for s in segments):
        return None
    year, month = (int(part) for part in segments[-1].split("-"))
    following = f"{year + month // 12}-{month % 12 + 1:02d}"
    return html_page(f"Calendar {segments[-1]}", [Link(f"{following}/", text="next month")])


def _repeat(path: str) -> bytes | None:
    if not re.fullmatch(r"/loop(/x)+/", path):
        return None
    return html_page("Again", [Link("x/", text="again")])


def _query(path: str) -> bytes | None:
    if not re.fullmatch(r"/shop/list\?sort=price(&sort=price)*", path):
        return None
    query = path.partition("?")[2]
    return html_page("Sorted list", [Link(f"?{query}&sort=price", text="sort again")])


TRAPS = {"calendar": _calendar, "repeat": _repeat, "query": _query}


def trap_body(kinds: tuple[str, ...], path: str) -> bytes | None:
    """The HTML of a trap page at ``path`` (a canonical path with query), or ``None``."""
    for kind in kinds:
        body = TRAPS[kind](path)
        if body is not None:
            return body
    return None
