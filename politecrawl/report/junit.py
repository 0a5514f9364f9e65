"""The report as JUnit XML, for CI: what broke fails a test case, an incomplete pass is an
error (L1-L5).

``render_junit(report)`` gives ``<testsuites>`` holding one ``<testsuite name="politecrawl">``:
one ``<testcase classname="ORIGIN" name="URL">`` with a ``<failure>`` per broken page, per
broken link leaving the site or resource, and per missing fragment (``name`` is then
``URL#fragment``), the first pages linking to it (with the link's line and text) in the
failure's text and how many more, and the earlier pass that found it when the current one has
not re-checked it yet. When the pass is incomplete (``PassProgress``), a ``<testcase
name="pass complete">`` with an ``<error type="incomplete">`` saying what it waits for, and a
``<skipped>`` test case per page or link not checked yet (a long list, one per host and
reason, with a few examples; the first ``MAX_UNCHECKED_LISTED``, then one for the rest): a
gate never passes a check that did not finish. The suite's ``timestamp``, ``time`` and
``properties`` say which site, when, how long, how many pages, the verdict and the pass.
Then one passing ``<testcase name="links">`` that says how many link targets were checked.
``tests``, ``failures``, ``errors`` and ``skipped`` count them: the failures are
``broken_count(report)``. Built with ``xml.etree.ElementTree`` (escaping is its job), after
the crawl's data has had its control characters shown (``\\x1b``) and what XML 1.0 cannot
carry replaced. Pure.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from politecrawl.report.check_model import Referrer
from politecrawl.report.grouping import MAX_LISTED, group_urls
from politecrawl.report.headline import crawled, verdict
from politecrawl.report.model import Report, counted
from politecrawl.report.tables import (
    MAX_REFERRERS_SHOWN,
    carried_note,
    pass_note,
    printable,
    referrer_note,
    without_spec_ids,
)
from politecrawl.urls import InvalidURL, origin_of

__all__ = ["SUITE", "render_junit"]

SUITE = "politecrawl"
# What XML 1.0 cannot hold once control characters are shown escaped: surrogates (from
# undecodable bytes) and the non-characters U+FFFE and U+FFFF.
_NOT_XML = re.compile("[\ud800-\udfff\ufffe\uffff]")

Case = tuple[str, str, str, str, str]
"""classname, name, failure message, failure type, failure text."""


def _xml(text: str) -> str:
    """``text`` as XML 1.0 can carry it: control characters shown as ``\\xNN`` (tab and line
    feed kept), surrogates and non-characters as ``\\uNNNN``."""
    return _NOT_XML.sub(lambda found: f"\\u{ord(found.group()):04x}", printable(text))


def _origin(url: str) -> str:
    try:
        return str(origin_of(url))
    except InvalidURL:
        return url


def _linked_from(referrers: tuple[Referrer, ...], nobody: str) -> str:
    """The first ``MAX_REFERRERS_SHOWN`` pages linking to a target, then how many more (the
    CSV and JSON reports name them all)."""
    if not referrers:
        return nobody
    lines = [f"linked from {len(referrers)} page{'s' if len(referrers) > 1 else ''}:"]
    shown = (
        referrers if len(referrers) <= MAX_REFERRERS_SHOWN + 1 else referrers[:MAX_REFERRERS_SHOWN]
    )
    for ref in shown:
        note = referrer_note(ref)
        lines.append(f"  {ref.url}" + (f" ({note})" if note else ""))
    if len(shown) < len(referrers):
        more = len(referrers) - len(shown)
        lines.append(f"  and {more} more (every one in the CSV and JSON reports)")
    return "\n".join(lines)


def _cases(report: Report) -> Iterator[Case]:
    """Every failing test case, in the report's order: pages, checks, fragments."""
    unlinked = "no page links here: a seed or a redirect target"
    for page in report.broken_links:
        text = _linked_from(page.referrers, unlinked)
        if not page.referrers and page.listed_in:
            text = "no page links here; listed in sitemaps:\n" + "\n".join(
                f"  {sitemap}" for sitemap in page.listed_in
            )
        message = _carried(f"broken link: {page.problem}", page.from_pass)
        yield _origin(page.url), page.url, message, "broken-link", text
    for check in report.checks.broken:
        what = "broken resource" if check.is_resource else "broken outbound link"
        text = _linked_from(check.referrers, unlinked)
        if check.method:
            text += f"\nchecked with {check.method}"
        message = _carried(f"{what}: {check.problem}", check.from_pass)
        yield check.origin, check.url, message, "broken-link", text
    for missing in report.checks.missing_fragments:
        message = f"missing fragment: no id or <a name> #{missing.fragment} on {missing.url}"
        text = _linked_from(missing.referrers, "")
        message = _carried(message, missing.from_pass)
        yield missing.origin, missing.link, message, "missing-fragment", text


def _carried(message: str, from_pass: int | None) -> str:
    note = carried_note(from_pass)
    return f"{message} ({note})" if note else message


def _skipped(report: Report, failing: set[str]) -> list[tuple[str, str, str]]:
    """(classname, name, message) of each page or link the incomplete pass has not checked
    yet, but those failing as an earlier pass found them; more than ``MAX_LISTED`` of them,
    one case per host and reason instead, named by its count, with a few examples; then one
    case for those not named."""
    progress = report.progress
    waiting = [item for item in progress.unchecked if item.url not in failing]
    if len(waiting) > MAX_LISTED:
        groups = group_urls(
            waiting,
            url=lambda item: item.url,
            reason=lambda item: _waiting(item.state, item.reason),
        )
        cases = [
            (
                group.host,
                f"{counted(group.count, 'URL')} of {group.host} {group.reason}",
                f"{group.reason}, such as " + ", ".join(group.examples),
            )
            for group in groups
        ]
    else:
        cases = [(item.origin, item.url, _waiting(item.state, item.reason)) for item in waiting]
    rest = progress.unchecked_total - len(progress.unchecked)
    if rest > 0:
        cases.append((SUITE, f"{counted(rest, 'more link')}", "not checked yet: not named here"))
    return cases


def _waiting(state: str, reason: str) -> str:
    what = {"queued": "queued", "leased": "in flight", "deferred": "deferred"}.get(state, state)
    return f"not checked yet: {what}" + (f" ({without_spec_ids(reason)})" if reason else "")


def _summary(report: Report) -> str:
    checks = report.checks
    targets = counted(checks.pages_checked + checks.checks_made, "link target")
    pages = counted(checks.pages_checked, "page")
    made = counted(
        checks.checks_made,
        "link leaving the site or resource",
        "links leaving the site and resources",
    )
    text = f"{targets} checked: {pages} crawled, {made}"
    if checks.fragments_checked:
        text += f"; {counted(checks.fragments_checked, '#fragment link')}"
    if not checks.enabled:
        text += " (outbound links, resources and #fragments were not checked)"
    return text


def _properties(suite: ET.Element, report: Report) -> None:
    """What the report says first, as the suite's properties: the site, when, how many pages,
    the verdict, the pass."""
    properties = ET.SubElement(suite, "properties")
    for name, value in (
        ("site", " ".join(report.overview.seed_origins)),
        ("crawled", crawled(report)),
        ("pages_fetched", str(report.checks.pages_checked)),
        ("verdict", verdict(report)),
        ("pass", pass_note(report)),
    ):
        ET.SubElement(properties, "property", {"name": name, "value": _xml(value)})


def render_junit(report: Report) -> str:
    """The report's failures as a JUnit XML document (UTF-8, with its declaration); the suite
    carries when the pass began (``timestamp``), how long its runs took (``time``) and the
    report's summary (``properties``)."""
    cases = list(_cases(report))
    progress = report.progress
    errors = 0 if progress.complete else 1
    skipped = [] if progress.complete else _skipped(report, {name for _, name, *_ in cases})
    counts = {
        "tests": str(len(cases) + errors + len(skipped) + 1),
        "failures": str(len(cases)),
        "errors": str(errors),
    }
    root = ET.Element("testsuites", {"name": SUITE, **counts})
    attributes = {"name": SUITE, **counts, "skipped": str(len(skipped))}
    if (started := report.overview.started_at) is not None:
        attributes["timestamp"] = started.strftime("%Y-%m-%dT%H:%M:%S")
        attributes["time"] = f"{report.overview.run_seconds:.3f}"
    suite = ET.SubElement(root, "testsuite", attributes)
    _properties(suite, report)
    for classname, name, message, kind, text in cases:
        case = ET.SubElement(suite, "testcase", {"classname": _xml(classname), "name": _xml(name)})
        failure = ET.SubElement(case, "failure", {"message": _xml(message), "type": kind})
        failure.text = _xml(text)
    if errors:
        case = ET.SubElement(suite, "testcase", {"classname": SUITE, "name": "pass complete"})
        message = f"pass {progress.number} incomplete: {', '.join(progress.incomplete_because)}"
        error = ET.SubElement(case, "error", {"message": _xml(message), "type": "incomplete"})
        error.text = _xml(pass_note(report))
    for classname, name, message in skipped:
        case = ET.SubElement(suite, "testcase", {"classname": _xml(classname), "name": _xml(name)})
        ET.SubElement(case, "skipped", {"message": _xml(message)})
    links = ET.SubElement(suite, "testcase", {"classname": SUITE, "name": "links"})
    ET.SubElement(links, "system-out").text = _summary(report)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'
