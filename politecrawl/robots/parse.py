"""robots.txt bytes to directives, in file order, within resource limits [F1-F6, O8].

The file is read as octets: it is decoded as latin-1, one character per byte, so any input parses
(F1) and paths keep the exact octets the site wrote (M2, M5). A line is turned into a
``Directive``; blank lines are kept as markers because the draft's records end at them (F4) while
RFC 9309 ignores them. How directives group into records is the semantics' business
(``robots.records``), and what paths a rule's value stands for in each reading is
``robots.rule_paths``'s, so one parse serves both readings.

Lenient, and when in doubt the reading that fetches less wins: misspelled field names, a missing
colon and a ``;`` or ``=`` typed for it are read as meant (F3); a Disallow cut short by a limit
is kept (a shorter prefix forbids more) while a cut Allow or User-agent line is dropped; a file
that goes on past the limits forbids what no rule read decides (O8, ``tail_unread``).
"""

from __future__ import annotations

import enum
import math
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from politecrawl.config.robots_values import RobotsLimits
from politecrawl.robots.rule_paths import BLANKS, WORDS, rule_paths

_UTF8_BOM = "\xef\xbb\xbf"  # the UTF-8 BOM seen through latin-1 (F1)
_PARTIAL_BOMS = (_UTF8_BOM, "\xef\xbb", "\xef")  # a cut BOM is skipped too, as Google does
# "n/seconds", an optional unit, and an optional time window ("1/10s 1820-1940") that is not
# honoured: the rate then applies all day, which is the slower reading.
_REQUEST_RATE = re.compile(
    r"(\d+)\s*/\s*(\d+(?:\.\d*)?)\s*([smhd]?)(?:\s+\d{4}\s*-\s*\d{4})?", re.IGNORECASE
)
# "Disallow; /path" (bancaditalia.it): a semicolon or equals sign typed for the colon (F3).
_MISTYPED_SEPARATOR = re.compile(r"[ \t\v\f]*([A-Za-z][A-Za-z -]*?)[ \t\v\f]*[;=](.*)")
_RATE_UNIT_SECONDS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}


class Field(enum.Enum):
    """The kinds of line the parser keeps."""

    USER_AGENT = "user-agent"
    ALLOW = "allow"
    DISALLOW = "disallow"
    CRAWL_DELAY = "crawl-delay"
    REQUEST_RATE = "request-rate"
    BLANK = "blank"


# F3: field names are case-insensitive; these misspellings are read as meant because reading
# them as unknown would let the robot fetch more (or faster). A misspelled Allow is not read,
# for the same reason.
_FIELD_NAMES: dict[str, Field | None] = {
    "user-agent": Field.USER_AGENT,
    "useragent": Field.USER_AGENT,
    "user agent": Field.USER_AGENT,
    "allow": Field.ALLOW,
    "disallow": Field.DISALLOW,
    "disalow": Field.DISALLOW,
    "dissallow": Field.DISALLOW,
    "dissalow": Field.DISALLOW,
    "diasllow": Field.DISALLOW,
    "disallaw": Field.DISALLOW,
    "crawl-delay": Field.CRAWL_DELAY,
    "crawl delay": Field.CRAWL_DELAY,
    "crawldelay": Field.CRAWL_DELAY,
    "request-rate": Field.REQUEST_RATE,
    "request rate": Field.REQUEST_RATE,
    "requestrate": Field.REQUEST_RATE,
    "sitemap": None,  # global, collected apart from the records (F6)
}


@dataclass(frozen=True, slots=True)
class RequestRate:
    """A ``Request-rate: n/seconds`` value: at most ``requests`` every ``seconds`` (F6)."""

    requests: int
    seconds: float


@dataclass(frozen=True, slots=True)
class ParseWarning:
    """Something the parser ignored or read leniently, with its line number (1-based)."""

    line_number: int
    message: str


class Directive(NamedTuple):
    """One meaningful line: its values (octets as latin-1 text, split per F5), its number, the
    line as written, for explanations, and a rule's paths in RFC 9309's reading. A NamedTuple,
    not a dataclass: one is made per line, and a frozen dataclass costs several times more to
    build."""

    field: Field
    values: tuple[str, ...]
    """The draft's reading: a Disallow or User-agent value split at blanks (F5)."""
    line_number: int
    line: str
    rfc9309_values: tuple[str, ...]
    """RFC 9309's reading of a rule line's value (``rule_paths``): its paths."""

    @property
    def display_line(self) -> str:
        """The line decoded as UTF-8 (undecodable octets replaced), for people."""
        return octets_to_text(self.line.strip(BLANKS))


@dataclass(frozen=True, slots=True)
class ParsedRobots:
    """A parsed robots.txt: directives in file order plus the file-wide facts."""

    directives: tuple[Directive, ...]
    sitemaps: tuple[str, ...]
    warnings: tuple[ParseWarning, ...]
    truncated: bool
    """True when a limit of ``RobotsLimits`` cut something off."""
    limits: RobotsLimits = field(default_factory=RobotsLimits)
    tail_unread: bool = False
    """True when the file went on past the byte or rule limit and what was read has a
    User-agent line: its unread part may forbid any URL, so a URL that no rule read decides is
    not allowed (O8: when in doubt, fetch less)."""
    unread_because: str = ""
    """Which limit left the tail unread, for explanations."""


def octets_to_text(octets: str) -> str:
    """Decode latin-1-carried octets as UTF-8, replacing what is not UTF-8."""
    return octets.encode("latin-1").decode("utf-8", "replace")


def text_to_bytes(text: str) -> bytes:
    """``text`` as UTF-8; a lone surrogate from ``surrogateescape`` decoding is its raw byte."""
    try:
        return text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a surrogate that stands for no byte: keep it, never raise
        return text.encode("utf-8", "surrogatepass")


def text_to_octets(text: str) -> str:
    """Carry ``text``'s UTF-8 octets as latin-1 text, so it compares with parsed values (M5)."""
    if text.isascii():
        return text
    return text_to_bytes(text).decode("latin-1")


def parse_crawl_delay(value: str) -> float | None:
    """Seconds (fractional allowed), or ``None`` unless a finite, non-negative number."""
    try:
        seconds = float(value)
    except ValueError:
        return None
    if not math.isfinite(seconds) or seconds < 0:
        return None
    return seconds


def parse_request_rate(value: str) -> RequestRate | None:
    """``n/seconds`` (an ``s``, ``m``, ``h`` or ``d`` unit may follow), or ``None`` when invalid."""
    match = _REQUEST_RATE.fullmatch(value.strip(BLANKS))
    if match is None:
        return None
    requests = int(match.group(1))
    seconds = float(match.group(2)) * _RATE_UNIT_SECONDS[match.group(3).lower()]
    if requests <= 0 or seconds <= 0 or not math.isfinite(seconds):
        return None
    return RequestRate(requests, seconds)


def _split_without_colon(line: str) -> tuple[str, str] | None:
    """``(field name, value)`` when a known field name is followed by a blank or a mistyped
    separator (``;`` or ``=``) instead of a colon (F3), else ``None``.

    Two-word names come first: ``user agent harry potter`` names harry and potter. A mistyped
    separator is read for every field but Allow: reading a mistyped Allow could fetch more.
    """
    mistyped = _MISTYPED_SEPARATOR.match(line)
    if mistyped is not None:
        name = mistyped.group(1).lower()
        if name in _FIELD_NAMES and _FIELD_NAMES[name] is not Field.ALLOW:
            return name, mistyped.group(2)
    words = line.strip(BLANKS).split(None, 2)
    if len(words) == 3 and f"{words[0]} {words[1]}".lower() in _FIELD_NAMES:
        return f"{words[0]} {words[1]}".lower(), words[2]
    if len(words) >= 2 and words[0].lower() in _FIELD_NAMES:
        return words[0].lower(), line.strip(BLANKS)[len(words[0]) :]
    return None


def split_lines(data: bytes, limits: RobotsLimits) -> list[str]:
    """The file's lines, octets carried as latin-1 text: the first ``limits.max_bytes`` octets, a
    (cut) UTF-8 BOM dropped, split at CR, LF or CRLF (F1, O8). Line ``i`` is line number ``i + 1``
    for every reader of the file (the robots rules here, the use preferences of U1)."""
    text = data[: limits.max_bytes].decode("latin-1")
    for bom in _PARTIAL_BOMS:
        if text.startswith(bom):
            text = text[len(bom) :]
            break
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def parse_robots_text(data: str | bytes, limits: RobotsLimits | None = None) -> ParsedRobots:
    """Parse robots.txt content into directives. Never raises on content (F1, O8)."""
    limits = limits or RobotsLimits()
    if isinstance(data, str):
        data = text_to_bytes(data)
    cut_at_max_bytes = len(data) > limits.max_bytes
    reader = _Reader(limits, tail_unread=cut_at_max_bytes)
    lines = split_lines(data, limits)
    last_index = len(lines) - 1
    for index, line in enumerate(lines):
        # The last line read from a file cut at max_bytes may be the start of a longer line.
        cut = cut_at_max_bytes and index == last_index
        if not reader.read_line(index + 1, line, cut=cut):
            break
    # An HTML error page over the limit is no robots.txt whose unread part might forbid.
    is_robots_txt = any(line.field is Field.USER_AGENT for line in reader.directives)
    return ParsedRobots(
        tuple(reader.directives),
        tuple(reader.sitemaps),
        tuple(reader.warnings),
        reader.truncated,
        limits,
        reader.tail_unread and is_robots_txt,
        reader.unread_because,
    )


class _Reader:
    """The parser's state while it reads lines."""

    def __init__(self, limits: RobotsLimits, *, tail_unread: bool) -> None:
        self.limits = limits
        self.truncated = self.tail_unread = tail_unread
        self.unread_because = f"it is longer than {limits.max_bytes:,} bytes" if tail_unread else ""
        self.directives: list[Directive] = []
        self.sitemaps: list[str] = []
        self.warnings: list[ParseWarning] = []
        self.rule_count = 0

    def warn(self, line_number: int, message: str) -> None:
        self.warnings.append(ParseWarning(line_number, message))

    def read_line(self, line_number: int, line: str, *, cut: bool) -> bool:
        """Read one line; False once a limit says to read no further."""
        if len(line) > self.limits.max_line_bytes:
            line = line[: self.limits.max_line_bytes]
            cut = self.truncated = True
            self.warn(line_number, "line longer than the limit, cut")
        hash_at = line.find("#")
        content = line if hash_at < 0 else line[:hash_at]
        if not content.strip(BLANKS):
            if hash_at < 0 and not cut:
                # A blank line; comment-only lines are not record boundaries (F2).
                self.directives.append(Directive(Field.BLANK, (), line_number, "", ()))
            return True
        colon = content.find(":")
        name = content[:colon].strip(BLANKS).lower() if colon >= 0 else ""
        if name in _FIELD_NAMES:
            value = content[colon + 1 :]
        else:
            split = _split_without_colon(content)
            if split is None:
                if colon < 0:
                    self.warn(line_number, "no field name, line ignored")
                return True  # else an extension we do not read (F3)
            name, value = split
        kind = _FIELD_NAMES[name]
        value = value.strip(BLANKS)
        if kind is None:
            self.read_sitemap(line_number, value, cut=cut)
            return True
        if cut and kind is not Field.DISALLOW:
            self.warn(line_number, f"{kind.value} line cut short, ignored")
            return True
        rfc9309_values: tuple[str, ...] = ()
        if kind is Field.ALLOW or kind is Field.DISALLOW:
            values, rfc9309_values, notes = rule_paths(value, is_allow=kind is Field.ALLOW)
            self.warnings.extend(ParseWarning(line_number, note) for note in notes)
            self.rule_count += len(values)
            if self.rule_count > self.limits.max_rules:
                self.truncated = self.tail_unread = True
                self.unread_because = f"it has more than {self.limits.max_rules:,} rules"
                self.warn(line_number, "too many rules, rest of file ignored")
                return False
        elif kind is Field.USER_AGENT:
            values = tuple(WORDS.findall(value))  # F5: "Copernicus Fred" names both
        else:
            values = (value,)
        self.directives.append(Directive(kind, values, line_number, line, rfc9309_values))
        return True

    def read_sitemap(self, line_number: int, value: str, *, cut: bool) -> None:
        if cut or not value.lower().startswith(("http://", "https://")):
            self.warn(line_number, "Sitemap is not an absolute URL, ignored")
            return
        sitemap = octets_to_text(value)
        if sitemap not in self.sitemaps:
            self.sitemaps.append(sitemap)
