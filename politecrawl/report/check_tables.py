"""The link checks (L1-L4) laid out: their tables, their summary counts and their CSV rows. Pure.

``check_tables`` gives the sections the text and HTML renderers show after the page sections:
the links leaving the site and resources that broke, the redirects to update, the checks
robots.txt forbids, and the missing fragments; each linking page with the link's line and
text. A crawl that checked nothing gets one section that says so in one line, and how to turn
checking on (``Table.empty``), not four empty tables. ``check_summary`` is the summary's "Link
checks" group (none when checking was off); ``check_csv_rows`` the CSV rows, in the main
report's columns. Cells carry the crawl's data as written: renderers escape it.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from politecrawl.report.check_model import (
    BrokenCheck,
    ForbiddenCheck,
    LinkChecks,
    MissingFragment,
    RedirectToUpdate,
    Referrer,
)
from politecrawl.report.model import Report, counted
from politecrawl.report.tables import (
    Cell,
    Count,
    CountGroup,
    Line,
    Row,
    Table,
    carried_note,
    link,
    number,
    plain,
    problem,
    referrer_detail,
    referrer_lines,
    toned,
    verdict_cells,
)

__all__ = ["CHECK_TITLES", "NOT_CHECKED", "check_csv_rows", "check_summary", "check_tables"]

NOT_CHECKED = (
    "outbound links, resources and #fragments were not checked (turn checking on with "
    "--check-outbound, --check-resources and --check-fragments, or run: politecrawl check SITE_URL)"
)
CHECK_TITLES = {
    "broken_checks": "Broken outbound links and resources",
    "redirects_to_update": "Redirects to update",
    "robots_forbidden_checks": "Not checked: disallowed by robots.txt",
    "missing_fragments": "Missing fragments",
}
"""The link-check sections (keys: the HTML ids and CSV sections), in the order shown."""


def _linked_from(referrers: tuple[Referrer, ...]) -> Cell:
    return referrer_lines(referrers) or plain("(no page links here: a seed or a redirect target)")


def _broken(item: BrokenCheck) -> Row:
    return (
        link(item.url),
        plain(number(item.status)),
        problem(item.problem, item.from_pass),
        plain(item.method or ""),
        _linked_from(item.referrers),
    )


def _redirect(item: RedirectToUpdate) -> Row:
    note = item.new_outcome if item.hops == 1 else f"{item.new_outcome}; {item.hops} redirects"
    new: Cell = (Line(item.new_url, item.new_url, note),) if item.new_url else plain(note)
    return link(item.url), plain(str(item.status)), new, _linked_from(item.referrers)


def _forbidden(item: ForbiddenCheck) -> Row:
    return (*verdict_cells(item), _linked_from(item.referrers))


def _fragment(item: MissingFragment) -> Row:
    return (
        link(item.url),
        problem(f"#{item.fragment}", item.from_pass),
        _linked_from(item.referrers),
    )


def _broken_note(checks: LinkChecks) -> str:
    made = counted(
        checks.checks_made,
        "link leaving the site or resource",
        "links leaving the site and resources",
    )
    note = f"{made} checked (HEAD, else GET)"
    if checks.checks_waiting:
        note += f"; {checks.checks_waiting} not checked yet (queued or deferred)"
    return note


def check_tables(report: Report) -> tuple[Table, ...]:
    """The link-check sections of ``report``: one line when the crawl checked nothing."""
    checks = report.checks
    if not checks.enabled:
        return (
            Table("link_checks", "Link checks", ("URL",), (), empty=NOT_CHECKED, tone="neutral"),
        )
    return toned(
        Table(
            "broken_checks",
            CHECK_TITLES["broken_checks"],
            ("URL", "Status", "Problem", "Method", "Linked from"),
            tuple(map(_broken, checks.broken)),
            _broken_note(checks),
        ),
        Table(
            "redirects_to_update",
            CHECK_TITLES["redirects_to_update"],
            ("URL", "Status", "Update to", "Linked from"),
            tuple(map(_redirect, checks.redirects)),
            "links to a URL that moved for good (301, 308): link to where it moved instead",
        ),
        Table(
            "robots_forbidden_checks",
            CHECK_TITLES["robots_forbidden_checks"],
            ("URL", "Line", "Rule", "Semantics", "Linked from"),
            tuple(map(_forbidden, checks.robots_forbidden)),
            "their robots.txt forbids politecrawl to request them, so they were not checked",
        ),
        Table(
            "missing_fragments",
            CHECK_TITLES["missing_fragments"],
            ("Page", "Fragment", "Linked from"),
            tuple(map(_fragment, checks.missing_fragments)),
            f"{counted(checks.fragments_checked, '#fragment link')} checked against the ids "
            "and <a name> anchors of their page",
        ),
    )


def check_summary(report: Report) -> tuple[CountGroup, ...]:
    """The summary's "Link checks" group, as ``tables.summary`` counts; empty when off."""
    checks = report.checks
    if not checks.enabled:
        return ()
    counts: list[Count] = [
        Count("Checks made", checks.checks_made, "broken_checks", finding=False),
        Count("Broken outbound links and resources", len(checks.broken), "broken_checks"),
        Count("Redirects to update", len(checks.redirects), "redirects_to_update"),
        Count("Not checked: robots.txt", len(checks.robots_forbidden), "robots_forbidden_checks"),
        Count("Fragment links checked", checks.fragments_checked, "missing_fragments", False),
        Count("Missing fragments", len(checks.missing_fragments), "missing_fragments"),
    ]
    if checks.checks_waiting:
        counts.insert(
            1, Count("Checks not made yet", checks.checks_waiting, "broken_checks", finding=False)
        )
    return (("Link checks", tuple(counts)),)


def _each_referrer(referrers: tuple[Referrer, ...]) -> tuple[Referrer | None, ...]:
    return referrers or (None,)


def _detail(ref: Referrer | None, *first: str) -> str:
    parts = [part for part in first if part]
    if ref is not None and (detail := referrer_detail(ref)):
        parts.append(detail)
    return "; ".join(parts)


def check_csv_rows(report: Report) -> Iterator[Sequence[object]]:
    """One row per finding and linking page, in the main report's columns: section, url,
    status, reason, detail (the link's line, text and kind), related_url (the linking page)."""
    checks = report.checks
    for item in checks.broken:
        method = f"method: {item.method}" if item.method else ""
        carried = carried_note(item.from_pass)
        for ref in _each_referrer(item.referrers):
            row = [
                number(item.status),
                item.problem,
                _detail(ref, carried, method),
                ref.url if ref else "",
            ]
            yield ("broken_checks", item.url, *row)
    for moved in checks.redirects:
        to = f"update to: {moved.new_url or ''} ({moved.new_outcome})"
        for ref in _each_referrer(moved.referrers):
            row = [
                str(moved.status),
                "redirects for good",
                _detail(ref, to),
                ref.url if ref else "",
            ]
            yield ("redirects_to_update", moved.url, *row)
    for forbidden in checks.robots_forbidden:
        reason = f"disallowed by robots.txt ({forbidden.semantics})"
        for ref in _each_referrer(forbidden.referrers):
            row = ["", reason, _detail(ref, forbidden.deciding), ref.url if ref else ""]
            yield ("robots_forbidden_checks", forbidden.url, *row)
    for missing in checks.missing_fragments:
        for ref in _each_referrer(missing.referrers):
            row = [
                "",
                f"missing fragment #{missing.fragment}",
                _detail(ref, carried_note(missing.from_pass)),
                ref.url if ref else "",
            ]
            yield ("missing_fragments", missing.link, *row)
