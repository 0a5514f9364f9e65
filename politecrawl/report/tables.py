"""The report as tables: the one layout the text and HTML renderers share.

Each section becomes a ``Table`` of rows of cells; a cell is one or more ``Line``s (a broken
URL's referrers, a redirect chain's URLs), and a line may carry a link (``href``) and a note
(``nofollow``). Renderers decide how to show them and must escape everything: the strings are
the crawl's data, written by whoever wrote the pages and robots.txt files. Pure.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from politecrawl.report.grouping import EXAMPLES, MAX_LISTED, UrlGroup, group_urls
from politecrawl.report.model import (
    SECTION_TITLES,
    BrokenLink,
    DeferredOrigin,
    DeferredUrl,
    DirectivePage,
    Disagreement,
    RedirectChain,
    Referrer,
    Report,
    RobotsExclusion,
    RobotsOutcomeRow,
    ScopeExclusion,
    SlowPage,
    counted,
)

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


def referrer_lines(referrers: tuple[Referrer, ...]) -> Cell:
    """A cell of linking pages, each linked, with its ``referrer_note``: the first
    ``MAX_REFERRERS_SHOWN``, then one line folding the rest."""
    return folded(tuple(Line(ref.url, ref.url, referrer_note(ref)) for ref in referrers))


def folded(lines: Cell, shown: int = MAX_REFERRERS_SHOWN) -> Cell:
    """The first ``shown`` of ``lines``, then ``and N more`` folding the rest (never ``and 1
    more``: one more line is shown instead)."""
    if len(lines) <= shown + 1:
        return lines
    rest = lines[shown:]
    return (*lines[:shown], Line(f"and {len(rest)} more", folded=rest))


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


def _broken(item: BrokenLink) -> Row:
    referrers = referrer_lines(item.referrers)
    return (
        link(item.url),
        plain(number(item.status)),
        problem(item.problem, item.from_pass),
        referrers or plain(_unlinked(item)),
    )


def _unlinked(item: BrokenLink) -> str:
    if item.listed_in:
        return "(no page links here: listed in " + ", ".join(item.listed_in) + ")"
    return "(no page links here: a seed or a redirect target)"


def _chain(chain: RedirectChain) -> Row:
    urls = tuple(Line(step.url, step.url) for step in chain.steps)
    statuses = tuple(step.outcome for step in chain.steps)
    return plain(str(chain.hops)), urls, plain(*statuses), plain(chain.problem or "ok")


def _robots(item: RobotsExclusion) -> Row:
    rule = item.text if item.text is not None else item.why
    line = "" if item.line is None else str(item.line)
    return link(item.url), plain(line), plain(rule), plain(item.semantics), link(item.origin)


def _scope(item: ScopeExclusion) -> Row:
    found_on = link(item.found_on) if item.found_on else plain("(seed)")
    return link(item.url), plain(item.reason), plain(item.rule), found_on


def _directive(item: DirectivePage) -> Row:
    flags = ("noindex" if item.noindex else "", "nofollow" if item.nofollow else "")
    return link(item.url), plain(number(item.status)), plain(flags[0]), plain(flags[1])


def _deferred_origin(item: DeferredOrigin) -> Row:
    return (
        link(item.origin),
        plain(str(item.urls)),
        plain(str(item.failures)),
        plain(when(item.retry_at, "next run")),
        plain(item.reason),
    )


def _deferred_url(item: DeferredUrl) -> Row:
    detail = describe(item.detail)
    if item.error:
        detail = f"{item.error}; {detail}" if detail else item.error
    return (
        link(item.url),
        plain(item.reason),
        plain(when(item.until, "next run")),
        plain(str(item.attempts)),
        plain(detail),
    )


def _slow(item: SlowPage) -> Row:
    return (
        link(item.url),
        plain(f"{item.elapsed_seconds:.2f}"),
        plain(number(item.status)),
        plain(number(item.size_bytes)),
    )


def _outcome(item: RobotsOutcomeRow) -> Row:
    return (
        link(item.origin),
        plain(item.outcome or "not fetched"),
        plain(number(item.status)),
        plain(str(item.urls)),
        plain(when(item.expires_at)),
        plain(str(item.warnings)),
        plain(item.reason),
    )


def _verdict(allowed: bool, line: int | None, text: str) -> Cell:
    word = "allowed" if allowed else "disallowed"
    return plain(word, f"line {line}: {text}" if line is not None else text)


def _disagreement(item: Disagreement) -> Row:
    return (
        link(item.url),
        _verdict(item.draft_allowed, item.draft_line, item.draft_text),
        _verdict(item.rfc9309_allowed, item.rfc9309_line, item.rfc9309_text),
    )


_LAYOUT: Mapping[str, tuple[tuple[str, ...], Callable[[Any], Row]]] = {
    "broken_links": (("URL", "Status", "Problem", "Linked from"), _broken),
    "redirect_chains": (("Hops", "Chain", "Status", "Problem"), _chain),
    "robots_excluded": (("URL", "Line", "Rule", "Semantics", "Origin"), _robots),
    "out_of_scope": (("URL", "Reason", "Rule", "Found on"), _scope),
    "directive_pages": (("URL", "Status", "noindex", "nofollow"), _directive),
    "deferred_origins": (("Origin", "URLs", "Failures", "Retry at", "Why"), _deferred_origin),
    "deferred_urls": (("URL", "Reason", "Until", "Attempts", "Detail"), _deferred_url),
    "slow_pages": (("URL", "Seconds", "Status", "Bytes"), _slow),
    "robots_outcomes": (
        ("Origin", "Outcome", "Status", "URLs", "Expires", "Warnings", "Why"),
        _outcome,
    ),
    "disagreements": (("URL", "Draft", "RFC 9309"), _disagreement),
}


def tables(report: Report) -> tuple[Table, ...]:
    """Every section of ``report`` as a table, in ``SECTION_TITLES`` order; a long list of
    deferred URLs grouped by host and reason, a long list of origins by robots.txt outcome."""
    laid_out = []
    for key, title in SECTION_TITLES.items():
        found = report.section(key)
        if key in _GROUPED and len(found) > MAX_LISTED:
            laid_out.append(_GROUPED[key](report))
            continue
        columns, row_of = _LAYOUT[key]
        rows = tuple(map(row_of, found))
        note = _NOTES.get(key, _no_note)(report)
        laid_out.append(Table(key, title, columns, rows, note, tone=tone_of(key)))
    return tuple(laid_out)


GROUPED_NOTE = "every one is in the CSV and JSON reports"


def _examples(urls: tuple[str, ...], count: int) -> Cell:
    lines = tuple(Line(url, url) for url in urls)
    return lines + ((Line(f"and {count - len(urls)} more"),) if count > len(urls) else ())


def _until(group: UrlGroup) -> str:
    first, last = when(group.first_until, "next run"), when(group.last_until, "next run")
    return first if first == last else f"{first} to {last}"


def _deferred_groups(report: Report) -> Table:
    """Deferred URLs by host and reason (O6, P3): how many, until when, a few of them."""
    groups = group_urls(
        report.deferred_urls,
        url=lambda item: item.url,
        reason=lambda item: item.reason,
        until=lambda item: item.until,
    )
    rows = tuple(
        (
            plain(group.host),
            plain(group.reason),
            plain(str(group.count)),
            plain(_until(group)),
            _examples(group.examples, group.count),
        )
        for group in groups
    )
    return Table(
        "deferred_urls",
        SECTION_TITLES["deferred_urls"],
        ("Host", "Reason", "URLs", "Until", "Examples"),
        rows,
        f"{counted(len(groups), 'group')} by host and reason; {GROUPED_NOTE}",
        tone=tone_of("deferred_urls"),
        count=len(report.deferred_urls),
    )


def _robots_groups(report: Report) -> Table:
    """Origins by robots.txt outcome and why: how many, their URLs, a few of them."""
    groups: dict[tuple[str, str], list[RobotsOutcomeRow]] = {}
    for item in report.robots_outcomes:
        groups.setdefault((item.outcome or "not fetched", item.reason), []).append(item)
    ordered = sorted(groups.items(), key=lambda pair: (-len(pair[1]), pair[0]))
    rows = tuple(
        (
            plain(outcome),
            plain(str(len(members))),
            plain(str(sum(item.urls for item in members))),
            _examples(tuple(item.origin for item in members[:EXAMPLES]), len(members)),
            plain(why),
        )
        for (outcome, why), members in ordered
    )
    return Table(
        "robots_outcomes",
        SECTION_TITLES["robots_outcomes"],
        ("Outcome", "Origins", "URLs", "Examples", "Why"),
        rows,
        f"{counted(len(ordered), 'group')} by outcome; {GROUPED_NOTE}",
        tone=tone_of("robots_outcomes"),
        count=len(report.robots_outcomes),
    )


_GROUPED: Mapping[str, Callable[[Report], Table]] = {
    "deferred_urls": _deferred_groups,
    "robots_outcomes": _robots_groups,
}


def _no_note(report: Report) -> str:
    return ""


def _strict_note(report: Report) -> str:
    """M7: what reading robots.txt strictly (both readings must allow) kept the crawl from."""
    if not report.disagreements:
        return ""
    draft_only = sum(1 for d in report.disagreements if d.draft_allowed)
    rfc9309_only = len(report.disagreements) - draft_only
    return (
        f"strict semantics (the default) fetches only what both readings allow: it skips "
        f"{draft_only} of these URLs that the draft alone would fetch, and {rfc9309_only} that "
        "RFC 9309 alone would fetch"
    )


_NOTES: Mapping[str, Callable[[Report], str]] = {"disagreements": _strict_note}


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


def summary(report: Report) -> tuple[CountGroup, ...]:
    """The counts of the page sections, in two groups: URLs by state (measures), and findings
    per section."""
    states = [Count("all URLs", report.total_urls, finding=False)]
    states += [
        Count(state.replace("_", " "), count, finding=False)
        for state, count in report.totals.items()
    ]
    findings = tuple(Count(SECTION_TITLES[key], count, key) for key, count in report.counts.items())
    return ("URLs by state", tuple(states)), ("Findings", findings)


def flatten(cells: Iterable[Cell]) -> list[str]:
    """Each cell as one string, lines joined by newlines."""
    return ["\n".join(line.shown for line in cell) for cell in cells]
