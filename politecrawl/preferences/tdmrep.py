"""``/.well-known/tdmrep.json``: TDMRep's site-wide rules, read and matched against URLs [U2, U3].

The W3C TDM Reservation Protocol (community group final report, 2024) puts an array of rules at
``/.well-known/tdmrep.json``, each a ``location`` pattern, a ``tdm-reservation`` (1: text and
data mining rights reserved, 0: not reserved) and an optional ``tdm-policy`` URL. A location is
matched as robots.txt paths are (the report borrows ``*`` and ``$`` and points to Google's
reading): here exactly as RFC 9309 Allow and Disallow paths are, escapes decoded alike, case
sensitive. The report calls "the most specific match" "the first in sequence"; the two readings
part when a file lists ``/`` before ``/open/``, so both the first matching rule and the longest
matching one apply, and when they disagree the reservation wins (combined, U4).

Lenient, with warnings and line numbers: a single object instead of an array is read as one
rule; keys are read in any case; a rule without a location or a valid reservation (0 or 1, also
as ``"1"`` or ``true``) is ignored; a file that is no JSON says nothing. A 4xx answer means no
reservation (U3): ``NO_TDMREP``. Pure, never raises on content.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from politecrawl.robots.match import rfc9309_normalise
from politecrawl.robots.parse import text_to_octets
from politecrawl.robots.preferences import path_matcher
from politecrawl.urls import robots_match_path
from politecrawl.usage.statements import read_tdm_reservation, shorten, tdm_stances
from politecrawl.usage.values import Protocol, Signal, UsageWarning, UsePreferences, signal

_WHERE = "tdmrep.json"
MAX_TDMREP_BYTES = 512 * 1024
MAX_TDMREP_RULES = 50_000
_JSON_WHITESPACE = " \t\n\r"


@dataclass(frozen=True, slots=True)
class TdmRule:
    """One rule of tdmrep.json."""

    location: str
    reservation: int
    policy: str | None
    signal: Signal
    matches: Callable[[str], bool] = field(repr=False)
    """Whether the location matches a URL's normalised match path."""


@dataclass(frozen=True, slots=True)
class TdmRepFile:
    """The rules of one origin's tdmrep.json, in file order, and what reading them noted."""

    rules: tuple[TdmRule, ...] = ()
    warnings: tuple[UsageWarning, ...] = ()

    def for_url(self, url: str) -> UsePreferences:
        """The rules that decide ``url`` (absolute, or a path): the first matching one and the
        longest matching one; none matching means unset (no preference). The file's warnings
        are ``self.warnings``, not repeated for every URL."""
        path = rfc9309_normalise(robots_match_path(url))
        matching = [rule for rule in self.rules if rule.matches(path)]
        if not matching:
            return UsePreferences()
        first = matching[0]
        longest = max(matching, key=lambda rule: len(rule.location))
        chosen = (first,) if longest is first else (first, longest)
        return UsePreferences(tuple(rule.signal for rule in chosen))


NO_TDMREP = TdmRepFile()
"""No tdmrep.json (a 4xx answer, U3): nothing is reserved by it."""


def read_tdmrep(data: str | bytes, *, max_bytes: int = MAX_TDMREP_BYTES) -> TdmRepFile:
    """Read tdmrep.json content. Never raises on content."""
    warnings: list[UsageWarning] = []
    if isinstance(data, bytes):
        if len(data) > max_bytes:
            warnings.append(
                UsageWarning(_WHERE, None, f"longer than {max_bytes:,} bytes: not read")
            )
            return TdmRepFile((), tuple(warnings))
        text = data.decode("utf-8-sig", "replace")
    else:
        text = data[:max_bytes].removeprefix("\ufeff")
    try:
        top = json.loads(text)
    except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
        line = getattr(error, "lineno", None)
        message = getattr(error, "msg", "too deeply nested")
        warnings.append(UsageWarning(_WHERE, line, f"not JSON ({message}): nothing read"))
        return TdmRepFile((), tuple(warnings))
    if isinstance(top, dict):
        warnings.append(UsageWarning(_WHERE, 1, "an object, not an array: read as one rule"))
        entries = [(1, top)]
    elif isinstance(top, list):
        entries = list(zip(_element_lines(text), top, strict=False))
    else:
        warnings.append(UsageWarning(_WHERE, 1, "not an array of rules: nothing read"))
        entries = []
    rules: list[TdmRule] = []
    for line_number, entry in entries[:MAX_TDMREP_RULES]:
        rule = _read_rule(entry, line_number, warnings)
        if rule is not None:
            rules.append(rule)
    if len(entries) > MAX_TDMREP_RULES:
        warnings.append(
            UsageWarning(_WHERE, None, f"more than {MAX_TDMREP_RULES:,} rules: rest ignored")
        )
    return TdmRepFile(tuple(rules), tuple(warnings))


def _element_lines(text: str) -> list[int]:
    """The line each element of a JSON array (known to parse) starts on."""
    decoder = json.JSONDecoder()
    lines: list[int] = []
    index = _skip_whitespace(text, 0) + 1  # past "["
    while True:
        index = _skip_whitespace(text, index)
        if index >= len(text) or text[index] == "]":
            return lines
        lines.append(text.count("\n", 0, index) + 1)
        _, index = decoder.raw_decode(text, index)
        index = _skip_whitespace(text, index) + 1  # past ","


def _skip_whitespace(text: str, index: int) -> int:
    while index < len(text) and text[index] in _JSON_WHITESPACE:
        index += 1
    return index


def _read_rule(entry: Any, line_number: int, warnings: list[UsageWarning]) -> TdmRule | None:
    def warn(message: str) -> None:
        warnings.append(UsageWarning(_WHERE, line_number, message))

    if not isinstance(entry, dict):
        warn("a rule that is not an object, ignored")
        return None
    keys = {str(key).strip().lower(): value for key, value in entry.items()}
    location = keys.get("location")
    if not isinstance(location, str) or not location.strip():
        warn("a rule without a location, ignored")
        return None
    if "tdm-reservation" not in keys:
        warn("a rule without tdm-reservation, ignored")
        return None
    reservation, notes = read_tdm_reservation(keys["tdm-reservation"])
    for note in notes:
        warn(note)
    if reservation is None:
        return None
    policy = keys.get("tdm-policy")
    if policy is not None and not isinstance(policy, str):
        warn("tdm-policy is not a URL string, ignored")
        policy = None
    if policy is not None and reservation == 0:
        warn("tdm-policy with tdm-reservation 0 is not used")
        policy = None
    path = _location_path(location.strip(), warn)
    found = signal(
        Protocol.TDMREP,
        f"{_WHERE} line {line_number} (location {shorten(location)})",
        shorten(json.dumps(entry, ensure_ascii=False)),
        tdm_stances(reservation),
        line_number=line_number,
        policy=policy,
    )
    return TdmRule(location, reservation, policy, found, path_matcher(path))


def _location_path(location: str, warn: Callable[[str], None]) -> str:
    """The location as a path pattern, its octets carried as latin-1 text like robots paths."""
    if location.lower().startswith(("http://", "https://")):
        warn("a full URL as location: its path is matched")
        location = robots_match_path(location)
    elif not location.startswith(("/", "*")):
        warn("location does not start with '/', one added")
        location = "/" + location
    return text_to_octets(location)
