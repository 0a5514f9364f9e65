"""Page directives: the ROBOTS META tag and the X-Robots-Tag header, read for one robot [T1-T4].

Owns ``page_directives`` and its answer, ``Directives``: may the page be indexed (T5 acts on it),
may its links be followed; a crawl, which parses a page once, reads its tags once
(``robots_tags``) for its directives (``directives_of``) and its use preferences. Terms
``all``, ``none``, ``index``, ``noindex``, ``follow`` and ``nofollow`` are read
case-insensitively, separated by commas or spaces (T1); every source that applies is combined
to the most restrictive reading, so ``noindex`` anywhere wins over ``index`` or ``all`` (T2).
Metas named ``robots`` or after the robot's own name token apply, others do not (T3).
X-Robots-Tag headers apply to any content type, each value optionally scoped by ``agent:``
prefixes (T4). Other terms (``noarchive``, ``max-snippet: 20``, ``unavailable_after: ...``) are
ignored.

Reading an X-Robots-Tag value: it is split at commas. A piece ``token: rest`` opens a new agent
scope when ``token`` is not a known directive and ``rest`` is empty or starts with one (so
``googlebot: noindex`` scopes, ``unavailable_after: 25 Jun 2010 15:00:00 PST`` and ``max-foo: 3``
do not). Later pieces stay in that scope until the next prefix, as in ``otherbot: noindex,
nofollow``; each header starts unscoped, and ``*:`` scopes to every robot. When pieces are
ambiguous the reading that applies more terms to us wins (fetch less). A headers mapping whose
client joined several headers with commas loses the boundaries between them; pass
``(name, value)`` pairs to keep them.

Pure (L1). A stable entry point for other tools (DESIGN.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from politecrawl.html import ParsedPage, as_parsed_page
from politecrawl.robots.match import agent_name_token
from politecrawl.robots.parse import text_to_octets

_HEADER = "x-robots-tag"
_NOINDEX = frozenset({"noindex", "none"})
_NOFOLLOW = frozenset({"nofollow", "none"})
_TERMS = frozenset({"all", "none", "index", "noindex", "follow", "nofollow"})
# Directive names deployed by search engines; none of them is an agent token (T4).
_KNOWN_DIRECTIVES = _TERMS | {
    "unavailable_after",
    "max-snippet",
    "max-image-preview",
    "max-video-preview",
    "noarchive",
    "nocache",
    "nosnippet",
    "noimageindex",
    "notranslate",
    "indexifembedded",
    "noodp",
    "noydir",
    "noai",  # use preferences (U2), read by politecrawl.preferences
    "noimageai",
}
_AGENT_PREFIX = re.compile(r"(\*|[A-Za-z][A-Za-z0-9_.\-]*)\s*:(.*)", re.DOTALL)
_FIRST_WORD = re.compile(r"[^\s:,]*")
_MAX_SOURCE_CHARS = 200  # a `why` report line, not a copy of the page


@dataclass(frozen=True, slots=True)
class Directives:
    """Whether a page may be indexed and its links followed, and what said so (for ``why``)."""

    index: bool
    follow: bool
    sources: tuple[str, ...]  # every applicable tag or header naming a term, in reading order


def page_directives(
    html: ParsedPage | str | bytes | None,
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
    agent: str,
) -> Directives:
    """Read the page's robots metas and X-Robots-Tag headers for ``agent`` [T1-T4].

    ``html`` is a parsed page, its text, its body bytes (read as the headers' Content-Type says,
    as HTML when none is given), or ``None`` for a response without a body or not HTML.
    ``headers`` is a mapping (names compared case-insensitively) or ``(name, value)`` pairs,
    which keep several X-Robots-Tag headers apart. ``agent`` is the robot's name token or a whole
    User-Agent value (``politecrawl/1.0 (+https://...)``). With nothing said: index and follow.
    Never raises on bad content.
    """
    return directives_of(applicable_robots_tags(html, headers, agent))


def directives_of(tags: Iterable[tuple[str, str]]) -> Directives:
    """The directives of the robots tags that apply to a robot (``robots_tags``), T1, T2."""
    found = [(source, terms) for source, content in tags if (terms := _terms(content))]
    return Directives(
        index=not any(terms & _NOINDEX for _, terms in found),  # T2: most restrictive wins
        follow=not any(terms & _NOFOLLOW for _, terms in found),
        sources=tuple(source for source, _ in found),
    )


def applicable_robots_tags(
    html: ParsedPage | str | bytes | None,
    headers: Mapping[str, str] | Iterable[tuple[str, str]],
    agent: str,
) -> list[tuple[str, str]]:
    """Every ROBOTS META content and X-Robots-Tag scope that applies to ``agent`` (T3, T4), as
    ``(source, content)`` in reading order: the tags ``page_directives`` reads its terms from, and
    the use preferences read ``noai`` from (U2). Arguments as for ``page_directives``."""
    pairs = list(headers.items() if isinstance(headers, Mapping) else headers)
    content_type = next((v for k, v in pairs if k.strip().lower() == "content-type"), None)
    page = as_parsed_page(html, content_type=content_type)
    return robots_tags(page, pairs, agent_name_token(agent))


def robots_tags(
    page: ParsedPage | None, headers: Iterable[tuple[str, str]], token: str
) -> list[tuple[str, str]]:
    """``applicable_robots_tags`` of a page parsed already (``None``: not HTML), its headers as
    ``(name, value)`` pairs and the robot's name token (``robots.match.agent_name_token``): a
    crawl reads them once a page, for its directives and its use preferences."""
    found: list[tuple[str, str]] = []
    if page is not None:
        for name, content in page.robots_metas:
            if name.strip().lower() == "robots" or _is_own(name, token):  # T3
                found.append((f'meta {name}: "{_shorten(content)}"', content))
    for name, value in headers:
        if name.strip().lower() == _HEADER:
            for prefix, pieces in _header_scopes(value):
                if prefix in (None, "*") or _is_own(prefix, token):  # T4
                    content = ", ".join(pieces)
                    shown = content if prefix is None else f"{prefix}: {content}"
                    found.append((f"X-Robots-Tag: {_shorten(shown)}", content))
    return found


def _terms(content: str) -> frozenset[str]:
    """The T1 terms in a comma- or space-separated list, lower-cased; others are dropped.

    A word holding a colon names a valued directive (``max-image-preview:none``); when the colon
    ends it, the next word is its value (``max-image-preview: none``) and not a term.
    """
    terms: set[str] = set()
    for piece in content.lower().split(","):
        is_value = False
        for word in piece.split():
            if is_value:
                is_value = False
            elif ":" in word:
                is_value = word.endswith(":")
            elif word in _TERMS:
                terms.add(word)
    return frozenset(terms)


def _header_scopes(value: str) -> list[tuple[str | None, list[str]]]:
    """Split one X-Robots-Tag value into ``(agent prefix or None, pieces)`` scopes."""
    scopes: list[tuple[str | None, list[str]]] = [(None, [])]
    for raw_piece in value.split(","):
        piece = raw_piece.strip()
        prefix = _AGENT_PREFIX.fullmatch(piece)
        if prefix is not None and _is_agent_prefix(prefix.group(1), prefix.group(2)):
            scopes.append((prefix.group(1), []))
            piece = prefix.group(2).strip()
        if piece:
            scopes[-1][1].append(piece)
    return scopes


def _is_agent_prefix(token: str, rest: str) -> bool:
    """Whether ``token:`` before ``rest`` names a robot rather than a valued directive."""
    if token.lower() in _KNOWN_DIRECTIVES:
        return False
    first = _FIRST_WORD.match(rest.strip())
    word = first.group().lower() if first else ""
    # An unknown "name: value" is a directive we do not know, not a robot: reading it as an agent
    # would take the pieces after it away from us.
    return not word or word in _KNOWN_DIRECTIVES


def _is_own(name: str, token: str) -> bool:
    """Whether a meta name or header prefix is the robot's own name token (T3), any case."""
    return bool(token) and text_to_octets(name.strip()).lower() == token


def _shorten(text: str) -> str:
    """One line of at most ``_MAX_SOURCE_CHARS`` characters."""
    line = " ".join(text.split())
    return line if len(line) <= _MAX_SOURCE_CHARS else line[: _MAX_SOURCE_CHARS - 3] + "..."
