"""The audit's formats by name, for the command line: text, csv, json, html."""

from __future__ import annotations

from typing import TYPE_CHECKING

from politecrawl.audit.html import render_html
from politecrawl.audit.text import render_csv, render_json, render_text

if TYPE_CHECKING:
    from collections.abc import Callable

    from politecrawl.audit.results import AuditResult

FORMATS: dict[str, Callable[[AuditResult], str]] = {
    "text": render_text,
    "csv": render_csv,
    "json": render_json,
    "html": render_html,
}


def render(result: AuditResult, format_name: str) -> str:
    """The result in ``format_name`` (one of ``FORMATS``)."""
    return FORMATS[format_name](result)
