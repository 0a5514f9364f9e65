"""The audit for a terminal, and as CSV and JSON [G3].

Everything from the log is a stranger's text (paths, User-Agent strings): control characters
are shown as ``\\xNN`` (``report.tables.printable``), never sent to the terminal.
"""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

from politecrawl.audit.results import as_plain
from politecrawl.report.tables import printable

if TYPE_CHECKING:
    from datetime import datetime

    from politecrawl.audit.results import AuditResult, CrawlerAudit, Incident

_KIND_WORDS = {
    "gap": "gaps shorter than the Crawl-delay",
    "rate": "requests beyond the Request-rate",
    "retry": "requests sooner than a Retry-After or back-off after 429/503",
    "in_flight": "requests while another was in flight",
}


def _when(value: datetime | None) -> str:
    return "" if value is None else value.isoformat(timespec="seconds")


def plural(count: int, word: str) -> str:
    """``1 request``, ``2 requests``."""
    return f"{count:,} {word}{'' if count == 1 else 's'}"


def _incident(incident: Incident) -> str:
    where = printable(f"{incident.origin}{incident.target}")
    if incident.kind == "in_flight":
        return f"{_when(incident.at)} {where}: {incident.detail}"
    return (
        f"{_when(incident.at)} {where}: {incident.measured_seconds:g} s, "
        f"{incident.required_seconds:g} s asked ({incident.detail})"
    )


def crawler_lines(crawler: CrawlerAudit) -> list[str]:
    """One crawler's section: verdict, counts, then the evidence."""
    lines = [f"{printable(crawler.name)}: {crawler.verdict}"]
    span = f"{_when(crawler.first_at)} to {_when(crawler.last_at)}"
    lines.append(f"  {plural(crawler.requests, 'request')}, {span}")
    for agent, count in crawler.user_agents:
        lines.append(f"  user agent ({count:,}): {printable(agent)}")
    if not crawler.judged:
        return lines
    for reads in crawler.robots:
        if reads.fetches == 0:
            said = f"never fetched ({plural(reads.requests_before, 'other request')})"
        elif reads.requests_before:
            said = (
                f"fetched {plural(reads.fetches, 'time')}, first at {_when(reads.first_at)}, "
                f"after {plural(reads.requests_before, 'other request')}"
            )
        else:
            said = f"read first ({plural(reads.fetches, 'fetch')})"
        lines.append(f"  robots.txt of {printable(reads.origin or 'the site')}: {said}")
    asked = []
    if crawler.crawl_delay_seconds is not None:
        asked.append(f"Crawl-delay {crawler.crawl_delay_seconds:g} s")
    if crawler.request_rate is not None:
        asked.append(f"Request-rate {crawler.request_rate}")
    if asked:
        lines.append(f"  its group asks: {', '.join(asked)}")
    if crawler.forbidden_requests:
        draft_only = ""
        if crawler.forbidden_draft_only:
            draft_only = f", {crawler.forbidden_draft_only:,} of them by the draft's letter only"
        lines.append(
            f"  forbidden (strict reading): {plural(crawler.forbidden_requests, 'request')}"
            f"{draft_only}"
        )
        for url in crawler.forbidden:
            lines.append(
                f"    {printable(url.origin + url.target)}  x{url.requests:,}, first "
                f"{_when(url.first_at)} ({url.first_status}), by {url.robots}"
            )
            lines.extend(f"      {printable(line)}" for line in url.deciding)
    counts = {
        "gap": crawler.short_gaps,
        "rate": crawler.rate_breaches,
        "retry": crawler.early_retries,
        "in_flight": crawler.in_flight_overlaps,
    }
    for kind, count in counts.items():
        if count:
            lines.append(f"  {plural(count, 'request')}: {_KIND_WORDS[kind]}")
            lines.extend(
                f"    {_incident(incident)}"
                for incident in crawler.incidents
                if incident.kind == kind
            )
    return lines


def summary_lines(result: AuditResult) -> list[str]:
    """What was read and against which robots.txt."""
    lines = [
        f"politecrawl audit: {plural(result.lines, 'line')} read, "
        f"{plural(result.requests, 'request')}"
        + (f" ({_when(result.first_at)} to {_when(result.last_at)})" if result.first_at else ""),
        "robots.txt: " + "; ".join(result.robots_sources),
    ]
    judged = [crawler for crawler in result.crawlers if crawler.judged]
    faulty = sum(1 for crawler in judged if crawler.faults)
    lines.append(
        f"{plural(len(judged), 'crawler')}: {faulty:,} with faults, {len(judged) - faulty:,} obey"
    )
    lines.extend(f"problem: {printable(problem)}" for problem in result.problems)
    if result.bad_lines:
        lines.append(f"unreadable lines: {result.bad_lines:,} (not fatal; the first ones:)")
        lines.extend(
            f"  {printable(bad.source)}:{bad.line_number}: {bad.reason}: {printable(bad.excerpt)}"
            for bad in result.bad_samples
        )
    return lines


def render_text(result: AuditResult) -> str:
    """The whole audit as plain text."""
    lines = summary_lines(result)
    for crawler in result.crawlers:
        lines.append("")
        lines.extend(crawler_lines(crawler))
    return "\n".join(lines) + "\n"


def render_json(result: AuditResult) -> str:
    """The whole audit as one JSON document (``as_plain``)."""
    return json.dumps(as_plain(result), indent=2, ensure_ascii=False) + "\n"


CSV_COLUMNS = ("crawler", "verdict", "finding", "at", "url", "count", "detail")


def render_csv(result: AuditResult) -> str:
    """One row per crawler (``finding`` = ``crawler``), then one per piece of evidence."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for crawler in result.crawlers:
        row = (crawler.name, crawler.verdict)
        writer.writerow((*row, "crawler", _when(crawler.first_at), "", crawler.requests, ""))
        for reads in crawler.robots:
            detail = f"fetched {reads.fetches}; {reads.requests_before} other requests before"
            writer.writerow((*row, "robots.txt", _when(reads.first_at), reads.origin, "", detail))
        for url in crawler.forbidden:
            writer.writerow(
                (
                    *row,
                    "forbidden",
                    _when(url.first_at),
                    url.origin + url.target,
                    url.requests,
                    " | ".join(url.deciding),
                )
            )
        for incident in crawler.incidents:
            writer.writerow(
                (
                    *row,
                    incident.kind,
                    _when(incident.at),
                    incident.origin + incident.target,
                    "",
                    _incident(incident),
                )
            )
    for bad in result.bad_samples:
        writer.writerow(
            ("", "", "unreadable line", "", f"{bad.source}:{bad.line_number}", "", bad.reason)
        )
    return out.getvalue()
