"""The report's "Use preferences" read from a crawl database [U3-U6].

``build_use_report(database, purpose=...)`` asks ``politecrawl.store.reading`` (never SQL) what
each page's signals were when it was fetched, and sums them per origin into a ``UseReport``:
for each use the pages whose signals refuse it, allow it or say nothing, the statements that
said so (a robots.txt line, a tdmrep.json rule, a header or meta) with how many pages each
applied to, what the crawl's purpose withheld, the origin's tdmrep.json, and the pages whose own
signals contradict their site's files. ``render_page_use`` tells one URL's signals for
``politecrawl why``.
"""

from __future__ import annotations

from collections import defaultdict

from politecrawl.report.tables import printable, without_spec_ids
from politecrawl.report.use_model import (
    MAX_CONFLICTS_SHOWN,
    MAX_STATEMENTS_SHOWN,
    OriginUse,
    SaidBy,
    UseDisagreement,
    UseReport,
    UseTally,
)
from politecrawl.store import Database
from politecrawl.store.reading import (
    PageUse,
    origin_use_states,
    use_conflicts,
    use_page_counts,
    use_statements,
)
from politecrawl.usage import Use, UsePreferences

__all__ = ["build_use_report", "render_page_use"]


def build_use_report(database: Database, *, purpose: str = "none") -> UseReport:
    """Every origin's use preferences as the crawl recorded them, for a crawl with
    ``purpose``."""
    states = origin_use_states(database)
    statements: defaultdict[str, list[SaidBy]] = defaultdict(list)
    for item in use_statements(database):
        statements[item.origin].append(SaidBy(item.signal, item.pages))
    counts = {(item.origin, item.use): item for item in use_page_counts(database)}
    origins = []
    for state in states:
        tallies = []
        for use in Use:
            found = counts.get((state.origin, use))
            refused = found.refused if found else 0
            allowed = found.allowed if found else 0
            tallies.append(UseTally(use, refused, allowed, max(state.pages - refused - allowed, 0)))
        said = statements.get(state.origin, [])
        tdmrep = ""
        if state.tdmrep_outcome is not None:
            tdmrep = without_spec_ids(state.tdmrep_reason or state.tdmrep_outcome)
        origins.append(
            OriginUse(
                state.origin,
                state.pages,
                tuple(tallies),
                tuple(said[:MAX_STATEMENTS_SHOWN]),
                max(len(said) - MAX_STATEMENTS_SHOWN, 0),
                state.excluded,
                state.refused_pages,
                tdmrep,
            )
        )
    conflicts, total = use_conflicts(database, limit=MAX_CONFLICTS_SHOWN)
    return UseReport(
        purpose,
        tuple(origins),
        tuple(
            UseDisagreement(item.url, item.origin, item.uses, item.site, item.page)
            for item in conflicts
        ),
        max(total - len(conflicts), 0),
    )


def render_page_use(found: PageUse, purpose: str = "none") -> str:
    """The lines ``politecrawl why`` adds for one URL: its signals as recorded when it was
    fetched, each with its source, what they say of each use, and what the crawl made of it."""
    out = []
    said = UsePreferences(found.signals)
    if found.signals:
        out.append(f"  use preferences when fetched ({len(found.signals)} signals):")
        out += [f"    {printable(one.describe())}" for one in found.signals]
        verdicts = "; ".join(f"{use.value} {said.verdict(use).stance.value}" for use in Use)
        out.append(f"    together: {verdicts}")
    elif found.state == "done":
        out.append("  use preferences when fetched: none (no signal said anything)")
    if found.refused:
        out.append(f"  refused for the crawl's purpose ({purpose}): recorded, never indexable")
    if found.tdmrep is not None:
        out.append(f"  tdmrep.json of {found.origin}: {without_spec_ids(found.tdmrep)}")
    return "\n".join(out) + "\n" if out else ""
