"""The report's "Use preferences" laid out: its tables and its CSV rows [U6]. Pure.

``use_tables`` gives two sections: per origin, what its pages' signals said of each use (pages
refused, allowed, with no preference), the statements that said so with the pages each applied
to, what the crawl's purpose withheld and the origin's tdmrep.json; then the pages whose own
signals contradict their site's files. A crawl in which nothing said anything gets one line
(``Table.empty``). ``use_csv_rows`` are the CSV rows, in the main report's columns. Cells carry
the crawl's data as written: renderers escape it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from politecrawl.report.model import Report
from politecrawl.report.tables import Cell, Line, Row, Table, link, plain
from politecrawl.report.use_model import OriginUse, UseDisagreement, UseReport, UseTally
from politecrawl.usage import Signal, Use

__all__ = ["NOTHING_SAID", "use_csv_rows", "use_tables"]

NOTHING_SAID = (
    "nothing said: no robots.txt line, tdmrep.json rule, header or meta of a fetched page "
    "spoke of search, ai-input or ai-train"
)


def _tally(tally: UseTally) -> Cell:
    parts = [
        f"{count} {word}"
        for count, word in (
            (tally.refused, "refused"),
            (tally.allowed, "allowed"),
            (tally.silent, "no preference"),
        )
        if count
    ]
    return plain(*parts) if parts else plain("no page")


def _said(signal: Signal) -> str:
    return f"{signal.source}: {signal.statement}"


def _origin(item: OriginUse, purpose: str) -> Row:
    about: Cell = (Line(item.origin, item.origin, f"{item.pages} pages"),)
    if item.excluded:
        about += (Line(f"{item.excluded} not fetched: refused for {purpose}"),)
    if item.refused_pages:
        about += (Line(f"{item.refused_pages} fetched, refused for {purpose}"),)
    said: Cell = tuple(
        Line(_said(entry.signal), note=f"{entry.pages} pages") for entry in item.said_by
    )
    if item.more_statements:
        said += (Line(f"and {item.more_statements} more statements"),)
    if item.tdmrep:
        said += (Line(f"tdmrep.json: {item.tdmrep}"),)
    return (about, *map(_tally, item.tallies), said or plain(""))


def _uses(uses: tuple[Use, ...]) -> str:
    return ", ".join(use.value for use in uses)


def _disagreement(item: UseDisagreement) -> Row:
    return link(item.url), plain(_uses(item.uses)), plain(_said(item.site)), plain(_said(item.page))


def use_tables(report: Report) -> tuple[Table, ...]:
    """The use-preference sections of ``report``: one line when nothing said anything."""
    found: UseReport = report.use_preferences
    columns = ("Origin", *(use.value for use in Use), "Said by")
    purpose = found.purpose
    if not found.said_anything:
        return (
            Table("use_preferences", "Use preferences", columns, (), empty=NOTHING_SAID,
                  tone="neutral"),
        )  # fmt: skip
    note = (
        f"the crawl's purpose: {purpose}"
        if purpose != "none"
        else "no purpose: everything was recorded, nothing withheld"
    )
    more = found.more_disagreements
    return (
        Table(
            "use_preferences",
            "Use preferences",
            columns,
            tuple(_origin(item, purpose) for item in found.origins),
            note + "; pages per use: refused by a signal, allowed by one, or no preference",
            tone="neutral",
        ),
        Table(
            "use_disagreements",
            "Use preferences: a page disagrees with its site",
            ("URL", "Uses", "Site says", "Page says"),
            tuple(map(_disagreement, found.disagreements)),
            f"and {more} more" if more else "the most restrictive applies (U4)",
            count=len(found.disagreements) + more,
        ),
    )


def use_csv_rows(report: Report) -> Iterator[Sequence[object]]:
    """One row per origin and use with something said, and per disagreement, in the main
    report's columns: section, url, status, reason, detail, related_url."""
    found = report.use_preferences
    for item in found.origins:
        statements = "; ".join(
            f"{_said(entry.signal)} ({entry.pages} pages)" for entry in item.said_by
        )
        for tally in item.tallies:
            if tally.refused or tally.allowed:
                reason = f"{tally.use.value}: {tally.refused} refused, {tally.allowed} allowed"
                yield ("use_preferences", item.origin, "", reason, statements, "")
        if item.excluded or item.refused_pages:
            reason = f"purpose {found.purpose}: {item.excluded} not fetched"
            detail = f"{item.refused_pages} fetched and refused"
            yield ("use_preferences", item.origin, "", reason, detail, "")
    for conflict in found.disagreements:
        reason = f"disagree on {_uses(conflict.uses)}"
        detail = f"site: {_said(conflict.site)} | page: {_said(conflict.page)}"
        yield ("use_disagreements", conflict.url, "", reason, detail, conflict.origin)
