"""The report as JUnit XML, for CI: what broke fails a test case (L1-L5).

``render_junit(report)`` gives ``<testsuites>`` holding one ``<testsuite name="politecrawl">``:
one ``<testcase classname="ORIGIN" name="URL">`` with a ``<failure>`` per broken page, per
broken link leaving the site or resource, and per missing fragment (``name`` is then
``URL#fragment``), the pages linking to it (with the link's line and text) in the failure's
text; then one passing ``<testcase name="links">`` that says how many link targets were
checked. ``tests`` and ``failures`` count them: the failures are ``broken_count(report)``.
Built with ``xml.etree.ElementTree`` (escaping is its job), after the crawl's data has had its
control characters shown (``\\x1b``) and what XML 1.0 cannot carry replaced. Pure.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator

from politecrawl.report.check_model import Referrer
from politecrawl.report.model import Report
from politecrawl.report.tables import printable, referrer_note
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
    if not referrers:
        return nobody
    lines = [f"linked from {len(referrers)} page{'s' if len(referrers) > 1 else ''}:"]
    for ref in referrers:
        note = referrer_note(ref)
        lines.append(f"  {ref.url}" + (f" ({note})" if note else ""))
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
        yield _origin(page.url), page.url, f"broken link: {page.problem}", "broken-link", text
    for check in report.checks.broken:
        what = "broken resource" if check.is_resource else "broken outbound link"
        text = _linked_from(check.referrers, unlinked)
        if check.method:
            text += f"\nchecked with {check.method}"
        yield check.origin, check.url, f"{what}: {check.problem}", "broken-link", text
    for missing in report.checks.missing_fragments:
        message = f"missing fragment: no id or <a name> #{missing.fragment} on {missing.url}"
        text = _linked_from(missing.referrers, "")
        yield missing.origin, missing.link, message, "missing-fragment", text


def _summary(report: Report) -> str:
    checks = report.checks
    counted = checks.pages_checked + checks.checks_made
    text = (
        f"{counted} link targets checked: {checks.pages_checked} pages crawled, "
        f"{checks.checks_made} links leaving the site and resources"
    )
    if checks.fragments_checked:
        text += f"; {checks.fragments_checked} #fragment links"
    if not checks.enabled:
        text += " (outbound links, resources and #fragments were not checked)"
    return text


def render_junit(report: Report) -> str:
    """The report's failures as a JUnit XML document (UTF-8, with its declaration)."""
    cases = list(_cases(report))
    counts = {"tests": str(len(cases) + 1), "failures": str(len(cases)), "errors": "0"}
    root = ET.Element("testsuites", {"name": SUITE, **counts})
    suite = ET.SubElement(root, "testsuite", {"name": SUITE, **counts, "skipped": "0"})
    for classname, name, message, kind, text in cases:
        case = ET.SubElement(suite, "testcase", {"classname": _xml(classname), "name": _xml(name)})
        failure = ET.SubElement(case, "failure", {"message": _xml(message), "type": kind})
        failure.text = _xml(text)
    links = ET.SubElement(suite, "testcase", {"classname": SUITE, "name": "links"})
    ET.SubElement(links, "system-out").text = _summary(report)
    ET.indent(root)
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'
