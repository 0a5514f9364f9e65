"""A page's own use preferences, read from its response headers and metas [U2], and what
applies to a URL before it is fetched [U5].

Read per page, for one robot:

- ``Content-Usage`` headers (an RFC 9651 dictionary in the vocabulary of draft-ietf-aipref-vocab-08;
  several header lines are one field, joined with commas as RFC 9110 combines them);
- ``Content-Signal`` headers (the Content Signals value, as Cloudflare sends with Markdown);
- TDMRep's ``tdm-reservation`` and ``tdm-policy`` headers and ``<meta name="tdm-reservation">``
  and ``<meta name="tdm-policy">``: a header wins over the meta (SPEC U2), each property on its
  own, and a meta the header overrides is noted;
- ``noai`` and ``noimageai`` in META robots, a META named after the robot, and ``X-Robots-Tag``
  (agent-scoped as ``directives`` reads them, T3, T4). ``noai`` refuses AI input and training;
  ``noimageai`` does so for a response that is an image, and is only recorded for a page, whose
  own images it speaks of.

A crawl, which parses a page once and reads its robots tags once (``directives.robots_tags``),
reads its preferences from those with ``read_page_preferences``, after what its URL's robots.txt
and tdmrep.json said. ``url_preferences`` joins what robots.txt and tdmrep.json say of a URL,
the two sources a crawl consults before fetching it (U5). Pure (L1), never raises on content.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from politecrawl.directives import applicable_robots_tags
from politecrawl.html import ParsedPage, as_parsed_page
from politecrawl.preferences.tdmrep import TdmRepFile
from politecrawl.robots.preferences import RobotsPreferences
from politecrawl.usage.statements import (
    NOAI_USES,
    read_content_signal,
    read_content_usage,
    read_tdm_reservation,
    shorten,
    tdm_stances,
)
from politecrawl.usage.values import (
    NO_PREFERENCES,
    Protocol,
    Signal,
    Stance,
    UsageWarning,
    UsePreferences,
    signal,
)

Headers = Mapping[str, str] | Iterable[tuple[str, str]]
_WORDS = re.compile(r"[^\s,]+")


def page_preferences(
    html: ParsedPage | str | bytes | None, headers: Headers, agent: str
) -> UsePreferences:
    """Read a response's use preferences for ``agent`` (a name token or User-Agent value).

    ``html`` is a parsed page, its text, its body bytes (read as the headers' Content-Type
    says), or ``None`` for a response that is not HTML; ``headers`` a mapping (names compared
    case-insensitively) or ``(name, value)`` pairs, which keep repeated headers apart."""
    pairs = _pairs(headers)
    page = as_parsed_page(html, content_type=_header(_lowered(pairs), "content-type"))
    return read_page_preferences(page, pairs, applicable_robots_tags(page, pairs, agent))


def read_page_preferences(
    page: ParsedPage | None,
    headers: Iterable[tuple[str, str]],
    tags: Iterable[tuple[str, str]],
    known: UsePreferences = NO_PREFERENCES,
) -> UsePreferences:
    """``page_preferences`` of a page parsed already (``None``: not HTML), its headers as
    ``(name, value)`` pairs and the robots tags that apply to the robot
    (``directives.robots_tags``), after what was ``known`` of its URL (robots.txt's,
    tdmrep.json's): a crawl reads a page's tags once, for its directives and these."""
    pairs = _lowered(headers)
    signals: list[Signal] = list(known.signals)
    warnings: list[UsageWarning] = list(known.warnings)
    _read_content_usage(pairs, signals, warnings)
    _read_content_signal(pairs, signals, warnings)
    _read_tdmrep(page, pairs, signals, warnings)
    _read_noai(pairs, tags, signals)
    return UsePreferences(tuple(signals), tuple(warnings))


def url_preferences(
    robots: RobotsPreferences | None, tdmrep: TdmRepFile | None, agent: str, url: str
) -> UsePreferences:
    """What robots.txt and tdmrep.json say of ``url`` for ``agent``: the signals a crawl with a
    purpose consults before fetching it (U5). ``None``: that file is not known or not needed."""
    found = robots.for_url(agent, url) if robots is not None else UsePreferences()
    return found.merged(tdmrep.for_url(url)) if tdmrep is not None else found


def _pairs(headers: Headers) -> list[tuple[str, str]]:
    return list(headers.items() if isinstance(headers, Mapping) else headers)


def _lowered(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    return [(name.strip().lower(), value) for name, value in pairs]


def _header(pairs: list[tuple[str, str]], name: str) -> str | None:
    return next((value for key, value in pairs if key == name), None)


def _values(pairs: list[tuple[str, str]], name: str) -> list[str]:
    return [value for key, value in pairs if key == name]


def _read_content_usage(
    pairs: list[tuple[str, str]], signals: list[Signal], warnings: list[UsageWarning]
) -> None:
    values = _values(pairs, "content-usage")
    if not values:
        return
    where = "Content-Usage header"
    joined = ", ".join(values)  # one field, however many lines (RFC 9110 5.3)
    stances, notes = read_content_usage(joined)
    warnings.extend(UsageWarning(where, None, note) for note in notes)
    signals.append(signal(Protocol.CONTENT_USAGE, where, shorten(joined), stances))


def _read_content_signal(
    pairs: list[tuple[str, str]], signals: list[Signal], warnings: list[UsageWarning]
) -> None:
    where = "Content-Signal header"
    for value in _values(pairs, "content-signal"):
        stances, notes = read_content_signal(value)
        warnings.extend(UsageWarning(where, None, note) for note in notes)
        signals.append(signal(Protocol.CONTENT_SIGNAL, where, shorten(value), stances))


def _read_tdmrep(
    page: ParsedPage | None,
    pairs: list[tuple[str, str]],
    signals: list[Signal],
    warnings: list[UsageWarning],
) -> None:
    metas = page.robots_metas if page is not None else ()
    header_reservation, header_text = _reservation(
        "tdm-reservation header", _values(pairs, "tdm-reservation"), warnings
    )
    meta_values = [content for name, content in metas if name == "tdm-reservation"]
    meta_reservation, meta_text = _reservation("meta tdm-reservation", meta_values, warnings)
    header_policy = _header(pairs, "tdm-policy")
    meta_policy = next((content for name, content in metas if name == "tdm-policy"), None)
    if header_reservation is not None:
        reservation, where, text = header_reservation, "tdm-reservation header", header_text
        if meta_reservation is not None and meta_reservation != header_reservation:
            warnings.append(
                UsageWarning(
                    "meta tdm-reservation",
                    None,
                    f"{meta_reservation} is overridden by the tdm-reservation header "
                    f"{header_reservation} (a header wins over the meta, U2)",
                )
            )
    elif meta_reservation is not None:
        reservation, where, text = meta_reservation, "meta tdm-reservation", meta_text
    else:
        return  # unset: a policy alone reserves nothing
    policy = (header_policy or meta_policy or "").strip() or None
    if reservation == 0:
        policy = None  # TDMRep: not used when rights are not reserved
    statement = f"tdm-reservation: {text}" + (f"; tdm-policy: {policy}" if policy else "")
    signals.append(
        signal(Protocol.TDMREP, where, shorten(statement), tdm_stances(reservation), policy=policy)
    )


def _reservation(
    where: str, values: list[str], warnings: list[UsageWarning]
) -> tuple[int | None, str]:
    """The reservation of one source's values: several that disagree give the reserving one."""
    found: list[int] = []
    for value in values:
        reservation, notes = read_tdm_reservation(value)
        warnings.extend(UsageWarning(where, None, note) for note in notes)
        if reservation is not None:
            found.append(reservation)
    if not found:
        return None, ""
    if len(set(found)) > 1:
        warnings.append(UsageWarning(where, None, "given as both 0 and 1: 1 applies"))
    return max(found), ", ".join(shorten(value) for value in values)


def _read_noai(
    pairs: list[tuple[str, str]], tags: Iterable[tuple[str, str]], signals: list[Signal]
) -> None:
    is_image = (_header(pairs, "content-type") or "").strip().lower().startswith("image/")
    for source, content in tags:
        words = {word.lower() for word in _WORDS.findall(content)}
        refuses = "noai" in words or ("noimageai" in words and is_image)
        if refuses or "noimageai" in words:
            stances = dict.fromkeys(NOAI_USES, Stance.REFUSED) if refuses else {}
            signals.append(signal(Protocol.NOAI, source, shorten(content), stances))
