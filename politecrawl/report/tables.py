"""The report as tables: the one layout the text and HTML renderers share.

Each section becomes a ``Table`` of rows of cells (``page_tables``, ``check_tables``,
``sitemap_tables`` lay them out); a cell is one or more ``Line``s (a broken URL's referrers, a
redirect chain's URLs), and a line may carry a link (``href``), a note (``nofollow``) and the
lines it folds (``and 524 more``). A summary is ``Count``s, each with its section's tone
(``tone_of``: broken, worth a look, neutral). Here too are the cells' shared pieces: the crawl's
data made printable, times, numbers, referrers, the pass's sentence. Renderers decide how to
show them and must escape everything: the strings are the crawl's data, written by whoever
wrote the pages and robots.txt files. Pure.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from politecrawl.report.check_model import RobotsVerdict
from politecrawl.report.model import Referrer, Report, counted

# Control characters (C0 but tab and line feed, DEL, C1), and the invisible bidirectional
# controls that reorder the text shown around them (U+061C, U+200E-U+200F, U+202A-U+202E,
# U+2066-U+2069): a link's text could otherwise make a URL beside it read backwards.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a cell: its text, the URL it links to, a short note shown after it.

    A line with ``folded`` lines stands for them (``and 524 more``): text shows it as it is,
    HTML as a closed disclosure holding them; CSV and JSON, which read the model, list all."""

    text: str
    href: str | None = None
    note: str = ""
    folded: tuple[Line, ...] = ()

    @property
    def shown(self) -> str:
        """The line as plain text: ``text (note)``."""
        return f"{self.text} ({self.note})" if self.note else self.text


Cell = tuple[Line, ...]
Row = tuple[Cell, ...]


@dataclass(frozen=True, slots=True)
class Table:
    """One section of the report, laid out."""

    key: str
    title: str
    columns: tuple[str, ...]
    rows: tuple[Row, ...]
    note: str = ""
    """A sentence shown under the title (what the section's findings add up to)."""
    empty: str = ""
    """What the section says, in one line and no table, when it has no rows ("" for the
    renderer's "none"): the sitemap section of a crawl without sitemaps."""
    tone: str = "warn"
    """How its findings read: ``bad`` (broken: ``politecrawl check`` fails), ``warn`` (worth
    a look), ``neutral`` (a description of the crawl); the change report adds ``good``,
    ``new`` and ``changed``."""
    count: int | None = None
    """The findings it stands for, when its rows group them (None: one row a finding)."""

    @property
    def total(self) -> int:
        """Its findings: ``count``, else its rows."""
        return len(self.rows) if self.count is None else self.count


def printable(text: str) -> str:
    """``text`` with control characters (ANSI escapes included) shown as ``\\xNN``, and
    bidirectional controls (U+202E, U+2066, ...) as ``\\uNNNN``: every renderer shows the
    crawl's data through it."""
    return _CONTROL.sub(_escaped, text)


def _escaped(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def when(value: datetime | None, missing: str = "") -> str:
    """An aware time as ISO 8601 to the second, or ``missing``."""
    return missing if value is None else value.isoformat(timespec="seconds")


def number(value: float | None) -> str:
    """An optional number as text (``""`` for None)."""
    return "" if value is None else f"{value:g}"


def describe(detail: Mapping[str, Any]) -> str:
    """``key: value; ...`` for a decoded reason_detail, keys sorted."""
    return "; ".join(f"{key}: {detail[key]}" for key in sorted(detail))


_SPEC_IDS = re.compile(r"\s*\([A-Z]\d+(?:-[A-Z]?\d+)?(?:,\s*[A-Z]\d+(?:-[A-Z]?\d+)?)*\)")


def without_spec_ids(text: str) -> str:
    """``text`` without the SPEC ids the crawl's reasons cite (``... disallowed (O5)``): they
    are for the code, the tests and the README, not for people reading a report."""
    return _SPEC_IDS.sub("", text)


def plain(*values: str) -> Cell:
    """A cell of plain text lines (SPEC ids left out)."""
    return tuple(Line(without_spec_ids(value)) for value in values) or (Line(""),)


def link(url: str, note: str = "") -> Cell:
    """A cell holding one URL, linked."""
    return (Line(url, url, note),)


def verdict_cells(verdict: RobotsVerdict) -> Row:
    """A URL robots.txt forbids, in the columns every such section starts with: the URL, the
    deciding line's number, its rule, the reading (O3-O5, M7)."""
    line = "" if verdict.line is None else str(verdict.line)
    return link(verdict.url), plain(line), plain(verdict.rule), plain(verdict.semantics)


MAX_TEXT_SHOWN = 60  # a link's text as a note; the JSON has all of it (at most 200 characters)


def referrer_note(ref: Referrer) -> str:
    """Where and what the link is, in a few words: ``line 12, "Docs", resource, nofollow``."""
    parts = [] if ref.line is None else [f"line {ref.line}"]
    if ref.text:
        shown = ref.text if len(ref.text) <= MAX_TEXT_SHOWN else ref.text[: MAX_TEXT_SHOWN - 3]
        parts.append(f'"{shown}"' if shown == ref.text else f'"{shown}..."')
    flags = (("resource", ref.resource), ("redirect", ref.redirect), ("nofollow", ref.nofollow))
    parts += [name for name, on in flags if on]
    return ", ".join(parts)


def referrer_detail(ref: Referrer) -> str:
    """The link for a CSV cell: ``line 12; text: Docs; resource; nofollow link`` (all its text)."""
    parts = [] if ref.line is None else [f"line {ref.line}"]
    if ref.text:
        parts.append(f"text: {ref.text}")
    flags = (
        ("resource", ref.resource),
        ("redirect", ref.redirect),
        ("nofollow link", ref.nofollow),
    )
    parts += [name for name, on in flags if on]
    return "; ".join(parts)


MAX_REFERRERS_SHOWN = 3
"""Linking pages a finding names; the rest fold into ``and N more`` (CSV and JSON list all)."""
MAX_FOLDED = 1000
"""Lines a fold holds (the HTML report's disclosure); past them, one line counts the rest."""

Item = TypeVar("Item")


def referrer_lines(referrers: tuple[Referrer, ...]) -> Cell:
    """A cell of linking pages, each linked, with its ``referrer_note``: the first
    ``MAX_REFERRERS_SHOWN``, then one line folding the rest."""
    return folded(referrers, lambda ref: Line(ref.url, ref.url, referrer_note(ref)))


def folded(
    items: Sequence[Item], line: Callable[[Item], Line], shown: int = MAX_REFERRERS_SHOWN
) -> Cell:
    """The first ``shown`` of ``items`` as lines, then ``and N more`` folding the next
    ``MAX_FOLDED`` (and, past them, a line counting the rest); never ``and 1 more``: the one
    more is shown. Only the lines shown or folded are made (a link on 100,000 pages)."""
    if len(items) <= shown + 1:
        return tuple(map(line, items))
    rest = items[shown:]
    inside = tuple(map(line, rest[:MAX_FOLDED]))
    if len(rest) > MAX_FOLDED:
        inside += (Line(f"and {len(rest) - MAX_FOLDED} more, in the CSV and JSON reports"),)
    return (*map(line, items[:shown]), Line(f"and {len(rest)} more", folded=inside))


def carried_note(from_pass: int | None) -> str:
    """What marks a finding an earlier pass made on a URL the current pass has not re-checked
    yet (L5); "" for the current pass's own."""
    return "" if from_pass is None else f"found by pass {from_pass}, not re-checked yet"


def problem(text: str, from_pass: int | None) -> Cell:
    """A finding's problem, with ``carried_note`` as its note."""
    return (Line(without_spec_ids(text), note=carried_note(from_pass)),)


def pass_note(report: Report) -> str:
    """One sentence on how far the current pass got (L5): complete, or what it still waits
    for, how the last run ended, and that findings of earlier passes are marked."""
    progress = report.progress
    if progress.complete:
        return f"Pass {progress.number} is complete: nothing left to fetch."
    note = f"Pass {progress.number} is incomplete: {', '.join(progress.incomplete_because)}."
    if progress.last_outcome == "":
        note += " A run has not ended (under way, or killed)."
    elif progress.last_outcome is not None:
        note += f" The last run ended: {progress.last_outcome}."
    if report.carried_count:
        note += (
            f" {counted(report.carried_count, 'finding')} of earlier passes, on URLs this pass "
            "has not re-checked yet, stand (marked with their pass)."
        )
    return note


@dataclass(frozen=True, slots=True)
class Count:
    """One number of a report's summary: a section's findings, or a measure of the crawl."""

    label: str
    count: int
    key: str | None = None
    """The section it counts or belongs to (its anchor in the HTML page)."""
    finding: bool = True
    """False: a measure (URLs by state, checks made), never a problem however large."""
    own_tone: str = ""
    """Its tone when it is not its section's (sitemaps not read: a warning in a neutral
    section)."""

    @property
    def tone(self) -> str:
        """``bad``, ``warn`` or ``neutral`` (``tone_of`` its section; a measure: neutral)."""
        if self.own_tone:
            return self.own_tone
        return tone_of(self.key) if self.finding and self.key else "neutral"


CountGroup = tuple[str, tuple[Count, ...]]
"""A heading and its counts."""

BROKEN_SECTIONS = frozenset(("broken_links", "broken_checks", "missing_fragments"))
"""The sections whose findings make ``politecrawl check`` fail (``model.broken_count``)."""
NEUTRAL_SECTIONS = frozenset(
    ("robots_outcomes", "redirect_chains", "directive_pages", "sitemaps", "redirects_to_update")
)
"""Sections that describe the crawl rather than problems: their counts are not alarming."""


def tone_of(key: str) -> str:
    """How a section's findings read: ``bad`` (broken), ``neutral`` or ``warn`` (the rest)."""
    if key in BROKEN_SECTIONS:
        return "bad"
    return "neutral" if key in NEUTRAL_SECTIONS else "warn"


def toned(*laid_out: Table) -> tuple[Table, ...]:
    """``laid_out`` with the tone of each one's section (``tone_of``)."""
    return tuple(dataclasses.replace(table, tone=tone_of(table.key)) for table in laid_out)


def flatten(cells: Iterable[Cell]) -> list[str]:
    """Each cell as one string, lines joined by newlines."""
    return ["\n".join(line.shown for line in cell) for cell in cells]
