"""Which record applies and which rule decides, in the draft's and in RFC 9309's semantics.

[A1-A4, M1-M7] Both readings answer through one small protocol: ``records`` groups the
directives, ``select`` picks the records that apply to a robot, ``compile`` turns their rules into
a ``RuleMatcher`` whose ``first_match`` returns the deciding rule. The third semantics, ``strict``
(M7, the default), is no reading of its own: it asks both and allows only what both allow, which
``RobotsPolicy`` does; ``READINGS`` names the two it combines.

Both reduce to "the best-placed rule that matches": the draft places rules in file order (M1);
RFC 9309's longest match with Allow winning ties is the best-placed match once rules are sorted
by length, Allow first. So one compiled form, ``RuleMatcher``, serves both.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Sequence
from typing import Literal, Protocol

from politecrawl.robots.parse import Directive, text_to_octets
from politecrawl.robots.records import Record, Rule, group_records

ReadingName = Literal["draft", "rfc9309"]
Pattern = tuple[bool, str]
"""A normalised rule path: ``(False, literal prefix)`` or ``(True, regular expression)``."""
READINGS: tuple[ReadingName, ...] = ("draft", "rfc9309")
"""The two readings of a file; ``strict`` allows what both allow (M7)."""

_NAME_TOKEN = re.compile(r"[^\s/]*")


def agent_name_token(user_agent: str) -> str:
    """The robot's name token from a User-Agent header value or a bare token (A1).

    ``FigTree/0.1 Robot libwww-perl/5.04`` gives ``figtree``: the product name before the first
    ``/`` or space, lower-cased, as octets.
    """
    match = _NAME_TOKEN.match(user_agent.strip())
    return text_to_octets(match.group() if match else "").lower()


class RuleMatcher:
    """Rules compiled for fast matching; ``first_match`` takes a raw robots match path.

    Rules come in priority order: position 0 wins. Literal prefixes, the bulk of every real
    file, are kept sorted, each with a link to its longest proper prefix among them (its
    parent). Every rule that is a prefix of a path is an ancestor of the greatest rule not
    after the path, so a check is one binary search and a short walk up the parents; each rule
    also keeps the best position along its chain of ancestors. That makes a check cost about
    the same for 10 rules or 50,000, and building it is a sort (a regular expression with one
    group per rule takes seconds to compile for 50,000 rules and milliseconds to match).
    Wildcard patterns (RFC 9309 only) are one regular expression whose alternatives are in
    priority order, so ``lastindex`` names the first that matches.
    """

    __slots__ = (
        "_chain_best",
        "_keys",
        "_normalise",
        "_parents",
        "_rules",
        "_verdicts",
        "_wildcard",
        "_wildcard_positions",
    )

    def __init__(
        self,
        ordered_rules: Sequence[Rule],
        patterns: Sequence[Pattern],
        normalise: Callable[[str], str],
        *,
        allowed_when_no_rule_matches: bool = True,
    ) -> None:
        """``patterns[i]`` is rule i's normalised path: a literal prefix or a regex."""
        self._rules = tuple(ordered_rules)
        # A verdict per position, and at position len(rules) the verdict when no rule matched:
        # allowed (M1), unless the file's unread tail might forbid it (O8).
        self._verdicts = (*(rule.allow for rule in ordered_rules), allowed_when_no_rule_matches)
        self._normalise = normalise
        literals: dict[str, int] = {}
        wildcard: list[tuple[int, str]] = []
        for position, (is_regex, pattern) in enumerate(patterns):
            if is_regex:
                wildcard.append((position, pattern))
            elif pattern not in literals:
                literals[pattern] = position
        self._keys = sorted(literals)
        parents: list[int] = []
        chain_best: list[int] = []
        open_prefixes: list[int] = []  # indexes of the keys that prefix the current one
        for index, key in enumerate(self._keys):
            while open_prefixes and not key.startswith(self._keys[open_prefixes[-1]]):
                open_prefixes.pop()
            parent = open_prefixes[-1] if open_prefixes else -1
            parents.append(parent)
            best = literals[key]
            chain_best.append(best if parent < 0 else min(best, chain_best[parent]))
            open_prefixes.append(index)
        self._parents = tuple(parents)
        self._chain_best = tuple(chain_best)
        self._wildcard_positions = tuple(position for position, _ in wildcard)
        joined = "|".join(f"({regex})" for _, regex in wildcard)
        self._wildcard = re.compile(joined, re.DOTALL).match if wildcard else None

    def position(self, path: str) -> int | None:
        """The position of the deciding rule for a raw match path, or ``None``."""
        best = self._best_position(path)
        return None if best == len(self._rules) else best

    def _best_position(self, path: str) -> int:
        """As ``position``, but ``len(rules)`` for no match: the hot path, no branches."""
        path = self._normalise(path)
        keys = self._keys
        best = len(self._rules)
        index = bisect_right(keys, path) - 1
        while index >= 0:
            if path.startswith(keys[index]):
                best = self._chain_best[index]
                break
            index = self._parents[index]
        if self._wildcard is not None:
            match = self._wildcard(path)
            if match is not None:
                best = min(best, self._wildcard_positions[match.lastindex - 1])  # type: ignore[operator]
        return best

    def first_match(self, path: str) -> Rule | None:
        """The deciding rule for ``path`` (path plus ``?query``), or ``None`` when none matches."""
        position = self.position(path)
        return None if position is None else self._rules[position]

    def is_allowed(self, path: str) -> bool:
        """True unless the deciding rule is a Disallow (M1)."""
        return self._verdicts[self._best_position(path)]


class Reading(Protocol):
    """What differs between the two readings of robots.txt."""

    name: ReadingName

    def records(self, directives: tuple[Directive, ...]) -> tuple[Record, ...]:
        """Group directives into records."""
        ...

    def select(self, records: tuple[Record, ...], token: str) -> tuple[Record, ...]:
        """The records whose rules apply to the robot with name ``token`` (empty: none)."""
        ...

    def compile(self, rules: Sequence[Rule], *, tail_unread: bool = False) -> RuleMatcher:
        """Compile the applicable rules; with ``tail_unread``, a path none matches is not
        allowed (O8)."""
        ...


# --- the draft ---------------------------------------------------------------------------------


def _escape_table(kept: frozenset[int]) -> dict[str, str]:
    """Every two-hex-digit escape body, in any case, to its octet, or upper-cased if ``kept``."""
    digits = "0123456789abcdefABCDEF"
    table = {}
    for high in digits:
        for low in digits:
            octet = int(high + low, 16)
            table[high + low] = f"%{octet:02X}" if octet in kept else chr(octet)
    return table


# M2: %2F stays encoded ("/" has meaning in a path); "%" stays encoded too, so that a decoded
# "%" followed by "2F" is never taken for an encoded "/".
_DRAFT_ESCAPES = _escape_table(frozenset((0x2F, 0x25)))
# RFC 9309 2.2.2 keeps reserved characters encoded where they delimit: "?" in the path (not a
# query), "&" and "=" in the query (not a parameter). "/" as in the draft.
_RFC_PATH_ESCAPES = _escape_table(frozenset((0x2F, 0x25, 0x3F)))
_RFC_QUERY_ESCAPES = _escape_table(frozenset((0x2F, 0x25, 0x26, 0x3D)))


def _decode(octets: str, table: dict[str, str]) -> str:
    first, *rest = octets.split("%")
    decoded = [first]
    for part in rest:
        octet = table.get(part[:2])
        if octet is None:
            decoded.append("%25")  # a lone "%" is the octet "%" itself
            decoded.append(part)
        else:
            decoded.append(octet)
            decoded.append(part[2:])
    return "".join(decoded)


def draft_decode(octets: str) -> str:
    """M2: every ``%xx`` decoded except ``%2F`` (and ``%25``); ``octets`` as latin-1 text."""
    return _decode(octets, _DRAFT_ESCAPES) if "%" in octets else octets


def rfc9309_decode(octets: str, *, in_query: bool = False) -> str:
    """RFC 9309 2.2.2: ``%xx`` decoded except delimiters; ``in_query`` after a raw ``?``."""
    if "%" not in octets:
        return octets
    if in_query:
        return _decode(octets, _RFC_QUERY_ESCAPES)
    path, mark, query = octets.partition("?")
    decoded = _decode(path, _RFC_PATH_ESCAPES)
    return decoded + mark + _decode(query, _RFC_QUERY_ESCAPES) if mark else decoded


def draft_normalise(path: str) -> str:
    """M2, M5: a URL's path as UTF-8 octets, then decoded as ``draft_decode`` does."""
    if not path.isascii():
        path = text_to_octets(path)
    return _decode(path, _DRAFT_ESCAPES) if "%" in path else path


def rfc9309_normalise(path: str) -> str:
    """RFC 9309 2.2.2: a URL's path as UTF-8 octets, then decoded as ``rfc9309_decode`` does."""
    if not path.isascii():
        path = text_to_octets(path)
    return rfc9309_decode(path) if "%" in path else path


class DraftReading:
    """The 1996 draft: first matching record, first matching rule in file order, prefixes."""

    name: ReadingName = "draft"

    def records(self, directives: tuple[Directive, ...]) -> tuple[Record, ...]:
        """Records end at blank lines once they have a rule line (F4)."""
        return group_records(directives, draft=True)

    def select(self, records: tuple[Record, ...], token: str) -> tuple[Record, ...]:
        """A2: the first record naming a value that contains the token; A3: else the first ``*``."""
        if token:
            for record in records:
                if any(token in agent for agent in record.agents):
                    return (record,)
        for record in records:
            if "*" in record.agents:
                return (record,)
        return ()

    def compile(self, rules: Sequence[Rule], *, tail_unread: bool = False) -> RuleMatcher:
        """M1-M3: file order, octet prefixes, empty values never match."""
        kept = [rule for rule in rules if rule.path]
        patterns = [(False, draft_decode(rule.path)) for rule in kept]
        return RuleMatcher(
            kept, patterns, draft_normalise, allowed_when_no_rule_matches=not tail_unread
        )


# --- RFC 9309 ----------------------------------------------------------------------------------


def rfc9309_pattern(path: str) -> Pattern:
    """A rule path as a literal prefix, or, with ``*`` or a final ``$``, a regular expression.

    Each literal part is decoded as URLs are (``rfc9309_decode``), so ``%2A`` and ``%24`` in a
    pattern match a literal ``*`` and ``$`` (RFC 9309 2.2.3). ``%2F`` stays apart from ``/``
    in both semantics.

    Each ``*`` finds the leftmost place of the literal after it and keeps it (an atomic group):
    the leftmost places leave the most of the path to the rest, so a pattern matches when they
    do, and a path is read once per ``*``. A plain ``.*`` between the literals backtracks
    through every way of placing them: eBay's rules took 3 s for one 2,000-character URL.
    With ``$`` the last literal must end the path instead.
    """
    anchored = path.endswith("$")
    if not anchored and "*" not in path:
        return (False, rfc9309_decode(path))
    if anchored:
        path = path[:-1]
    literals = []
    in_query = False
    for part in re.sub(r"\*+", "*", path).split("*"):
        literals.append(re.escape(rfc9309_decode(part, in_query=in_query)))
        in_query = in_query or "?" in part
    first, *rest = literals
    last = rest.pop() if anchored and rest else None
    regex = first + "".join(f"(?>.*?{part})" for part in rest)
    if last is not None:
        regex += ".*" + last
    return (True, regex + r"\Z" if anchored else regex)


# Google reads the leading run of letters, "-" and "_" of a User-agent line as the robot's name
# (RFC 9309 2.2.1's product token), so "politecrawl," and "politecrawl*" name us.
_LEADING_NAME = re.compile(r"[A-Za-z_-]*")


def _product_name(agent: str) -> str:
    match = _NAME_TOKEN.match(agent)
    return match.group() if match else ""


def _leading_name(agent: str) -> str:
    match = _LEADING_NAME.match(agent)
    return match.group() if match else ""


def _is_named_in(record: Record, token: str) -> bool:
    """RFC 9309: does ``record`` name the robot ``token``? A User-agent line's first word
    names it by its leading name (Google's reading) too; every word (F5: ``Copernicus Fred``)
    names it by its product name (a name with digits or non-ASCII letters, ``UnicödeBöt``), so
    "(compatible with Googlebot)" names nobody."""
    return any(_leading_name(first) == token for first in record.first_agents) or any(
        _product_name(agent) == token for agent in record.agents
    )


class Rfc9309Reading:
    """RFC 9309: matching groups merged, longest match, Allow wins ties, ``*`` and ``$``."""

    name: ReadingName = "rfc9309"

    def records(self, directives: tuple[Directive, ...]) -> tuple[Record, ...]:
        """Blank lines do not end groups."""
        return group_records(directives, draft=False)

    def select(self, records: tuple[Record, ...], token: str) -> tuple[Record, ...]:
        """Every group naming the product token exactly (case-insensitively); else every ``*``."""
        if token:
            named = tuple(record for record in records if _is_named_in(record, token))
            if named:
                return named
        return tuple(record for record in records if "*" in record.agents)

    def compile(self, rules: Sequence[Rule], *, tail_unread: bool = False) -> RuleMatcher:
        """Longest normalised pattern first, Allow before Disallow at equal length."""
        ranked = sorted(
            (rule for rule in rules if rule.path),
            key=lambda rule: (-len(rule.path), not rule.allow),
        )
        patterns = [rfc9309_pattern(rule.path) for rule in ranked]
        return RuleMatcher(
            ranked, patterns, rfc9309_normalise, allowed_when_no_rule_matches=not tail_unread
        )


READING: dict[ReadingName, Reading] = {
    "draft": DraftReading(),
    "rfc9309": Rfc9309Reading(),
}
