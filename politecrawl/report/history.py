"""One URL's story for ``politecrawl why``, as the crawl database recorded it [O3-O6, M6, S4, L2].

``render_history`` tells a URL's state and the reason as recorded, who links to it, its
origin's robots.txt and what that says of the URL now in each semantics; for a page, the
sitemaps listing it; for a sitemap, what reading it found; for a check, that it is one and how
it was asked. Pure: the store's ``url_history`` reads the values it takes.
"""

from __future__ import annotations

from politecrawl.report.checks import referrer
from politecrawl.report.sitemaps import named_by, sitemap_outcome
from politecrawl.report.tables import (
    describe,
    number,
    printable,
    referrer_note,
    when,
    without_spec_ids,
)
from politecrawl.robots import RobotsLimits, Verdict, parse_robots
from politecrawl.store.reading import SitemapEntryRow, SitemapRow, UrlHistory, UrlRow

__all__ = ["render_history"]


def render_history(
    history: UrlHistory, *, agent: str | None = None, robots_limits: RobotsLimits | None = None
) -> str:
    """One URL's story for ``politecrawl why``: its state and the reason as recorded, who
    links to it, its origin's robots.txt, and (with ``agent``) what that robots.txt says of it
    now in both semantics, read under ``robots_limits`` (the crawl's, O8); the sitemaps listing
    it, each with the entry's line and lastmod; for a sitemap, that it is one and what reading
    it found (S4)."""
    row = history.row
    facts: list[tuple[str, str]] = []
    if history.sitemap is not None:
        facts += _sitemap_facts(history.sitemap)
    if row.kind == "check":
        facts.append(("kind", "check (a link leaving the site or a resource: status only)"))
    facts += [
        ("state", row.state + (f" ({row.reason})" if row.reason else "")),
        ("checked with", row.check_method or ""),
        ("detail", without_spec_ids(describe(row.detail))),
        ("status", number(row.status)),
        ("redirects to", row.final_url or ""),
        ("error", row.error or ""),
        ("attempts", str(row.attempts)),
        ("fetched at", when(row.fetched_at)),
        ("next attempt", when(row.next_attempt_at, "next run" if row.state == "deferred" else "")),
        ("noindex/nofollow", _flags(row)),
        ("depth", str(row.depth)),
        ("found on", "" if history.sitemap else row.discovered_from or "(a seed)"),
        ("canonical", row.canonical_url or ""),
        ("discovered at", when(row.discovered_at)),
    ]
    origin = history.origin
    if origin is not None:
        outcome = origin.outcome or "not fetched yet"
        said = f"; {origin.reason}" if origin.reason else ""
        facts.append(
            ("robots.txt", f"{origin.origin}/robots.txt: {outcome}{without_spec_ids(said)}")
        )
        if agent is not None and origin.body is not None and origin.outcome == "parsed":
            policy = parse_robots(origin.body, limits=robots_limits)
            for semantics in ("draft", "rfc9309", "strict"):
                verdict = policy.explain(agent, row.url, semantics=semantics)
                facts.append((f"{semantics} now", without_spec_ids(_verdict_now(verdict))))
    width = max(len(label) for label, _ in facts)
    out = [printable(row.url)]
    out += [f"  {label.ljust(width)}  {printable(value)}" for label, value in facts if value]
    out.append(f"  linked from ({len(history.referrers)}):")
    notes = [referrer_note(referrer(ref)) for ref in history.referrers]
    out += [
        f"    {printable(ref.url)}" + (f" ({printable(note)})" if note else "")
        for ref, note in zip(history.referrers, notes, strict=True)
    ] or ["    nobody"]
    if history.listings:
        out.append(f"  listed in sitemaps ({len(history.listings)}):")
        out += [f"    {printable(_listed_at(item))}" for item in history.listings]
    return "\n".join(out) + "\n"


def _sitemap_facts(item: SitemapRow) -> list[tuple[str, str]]:
    """What ``why`` says first of a sitemap: that it is one, who named it, what reading found."""
    outcome, reason = sitemap_outcome(item)
    named = {"robots": "named by robots.txt", "guess": "guessed", "index": "listed by an index"}
    kind = "sitemap (read for the URLs it lists, not a page)"
    if item.source:
        kind += f"; {named.get(item.source, item.source)}"
    if where := named_by(item):
        kind += f": {where}"
    read = [outcome + (f": {reason}" if reason else "")]
    if item.format is not None:
        read.append(item.format)
    if item.entries is not None:
        read.append(f"{item.entries} entries")
    if item.truncated:
        read.append("truncated")
    if item.other_origins:
        read.append(f"{item.other_origins} entries of other origins ignored")
    facts = [("kind", kind), ("sitemap", ", ".join(read))]
    facts += [("problem", problem) for problem in item.problems]
    return facts


def _listed_at(item: SitemapEntryRow) -> str:
    """A sitemap listing a URL: ``sitemap (line N, lastmod ...)``."""
    where = [f"line {item.line}"] if item.line is not None else []
    if item.lastmod is not None:
        where.append(f"lastmod {when(item.lastmod)}")
    elif item.lastmod_text is not None:
        where.append(f"lastmod {item.lastmod_text!r} (malformed)")
    return item.sitemap + (f" ({', '.join(where)})" if where else "")


def _verdict_now(verdict: Verdict) -> str:
    if verdict.semantics != "strict":
        return verdict.describe()
    if verdict.allowed:
        return "fetched: both readings allow it"
    return f"not fetched: forbidden by {' and '.join(verdict.forbidden_by)}"


def _flags(row: UrlRow) -> str:
    return " ".join(
        name for name, on in (("noindex", row.noindex), ("nofollow", row.nofollow)) if on
    )
