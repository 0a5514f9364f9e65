"""The page sections of the report laid out: one ``Table`` per section of ``SECTION_TITLES``,
and the summary's counts of them.

Broken links with their first linking pages (the rest folded, ``tables.folded``), redirect
chains, robots.txt exclusions, out of scope URLs, noindex and nofollow pages, deferred origins
and URLs, slow pages, each origin's robots.txt and the URLs on which the draft and RFC 9309
disagree. A long list of deferred URLs shows as groups by host and reason, a long list of
origins as groups by robots.txt outcome (``grouping``; the CSV and JSON reports list every
one). Cells carry the crawl's data as written: renderers escape it. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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
    Report,
    RobotsExclusion,
    RobotsOutcomeRow,
    ScopeExclusion,
    SlowPage,
    counted,
)
from politecrawl.report.tables import (
    Cell,
    Count,
    CountGroup,
    Line,
    Row,
    Table,
    describe,
    link,
    number,
    plain,
    problem,
    referrer_lines,
    tone_of,
    verdict_cells,
    when,
)

__all__ = ["GROUPED_NOTE", "summary", "tables"]


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
    return (*verdict_cells(item), link(item.origin))


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
    columns = ("Host", "Reason", "URLs", "Until", "Examples")
    return _grouped("deferred_urls", columns, rows, "host and reason", len(report.deferred_urls))


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
    columns = ("Outcome", "Origins", "URLs", "Examples", "Why")
    return _grouped("robots_outcomes", columns, rows, "outcome", len(report.robots_outcomes))


def _grouped(
    key: str, columns: tuple[str, ...], rows: tuple[Row, ...], by: str, count: int
) -> Table:
    """Section ``key`` laid out a group a row (grouped ``by``), of ``count`` findings."""
    note = f"{counted(len(rows), 'group')} by {by}; {GROUPED_NOTE}"
    return Table(key, SECTION_TITLES[key], columns, rows, note, tone=tone_of(key), count=count)


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
