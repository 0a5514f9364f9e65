"""Which crawler sent a request: the product token of its User-Agent, as robots.txt names it [G2].

A crawler is known by the token it is meant to find in robots.txt (A1; RFC 9309 2.2.1): the
name before ``/`` in its User-Agent header, lower-cased. Many crawlers hide it behind a
browser's tokens (``Mozilla/5.0 (compatible; Googlebot/2.1; +http://...)``), so the name is the
first product token that no browser sends (``Mozilla``, ``AppleWebKit``, ``Chrome``, ...), or
the word after ``compatible;``. A User-Agent made of browser tokens alone is a browser: people
are not bound by robots.txt, and the audit does not judge them.
"""

from __future__ import annotations

import re

from politecrawl.robots import agent_name_token

BROWSERS = "(browsers)"
"""The name of the one group every browser's requests go to."""
NO_AGENT = "(no user agent)"

# Product tokens browsers (and their engines, platforms) send; none names a crawler.
_BROWSER_TOKENS = frozenset(
    (
        "mozilla",
        "applewebkit",
        "chrome",
        "chromium",
        "crios",
        "fxios",
        "safari",
        "gecko",
        "firefox",
        "version",
        "mobile",
        "khtml",
        "build",
        "edg",
        "edge",
        "edga",
        "edgios",
        "opr",
        "opera",
        "presto",
        "trident",
        "samsungbrowser",
        "yabrowser",
        "ucbrowser",
        "vivaldi",
        "brave",
        "electron",
        "msie",
        "rv",
        "windows",
        "linux",
        "android",
    )
)
_PRODUCT = re.compile(r"(?<![\w.+-])([A-Za-z][\w.-]*)/")
_COMPATIBLE = re.compile(r"compatible;\s*([A-Za-z][\w.-]*)", re.IGNORECASE)
_MAX_CACHED = 8192


class CrawlerNames:
    """User-Agent strings to crawler names, with the names' bound: beyond ``max_crawlers``
    distinct crawlers, new ones are counted together (a hostile log of random names must not
    grow the audit's memory)."""

    OTHERS = "(other agents)"

    def __init__(self, *, max_crawlers: int = 1000) -> None:
        self.max_crawlers = max_crawlers
        self._known: set[str] = set()
        self._cache: dict[str, str] = {}

    def name(self, user_agent: str) -> str:
        """The crawler's name for a User-Agent header value."""
        name = self._cache.get(user_agent)
        if name is not None:
            return name
        name = crawler_name(user_agent)
        if name not in self._known:
            if len(self._known) >= self.max_crawlers:
                name = self.OTHERS
            else:
                self._known.add(name)
        if len(self._cache) >= _MAX_CACHED:
            self._cache.clear()
        self._cache[user_agent] = name
        return name


def crawler_name(user_agent: str) -> str:
    """The crawler's product token (lower-cased), ``BROWSERS``, or ``NO_AGENT``."""
    agent = user_agent.strip()
    if not agent or agent == "-":
        return NO_AGENT
    for found in _PRODUCT.finditer(agent):
        token = found.group(1).lower()
        if token not in _BROWSER_TOKENS:
            return token
    compatible = _COMPATIBLE.search(agent)
    if compatible is not None and compatible.group(1).lower() not in _BROWSER_TOKENS:
        return compatible.group(1).lower()
    first = agent_name_token(agent)
    if first in _BROWSER_TOKENS or not first:
        return BROWSERS
    return first


def is_judged(name: str) -> bool:
    """Browsers are people: the audit counts them but holds them to no robots rule."""
    return name != BROWSERS
