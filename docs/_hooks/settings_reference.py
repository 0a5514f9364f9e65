"""MkDocs hook: the configuration reference, written at build time from the settings' own
docstrings, so that the page cannot drift from the code.

``docs/configuration.md`` holds the prose around the reference and one marker line,
``<!-- settings -->``; this hook replaces the marker with a section per TOML table
(``politecrawl.config.GROUP_TYPES``, in their order): each setting's default, its command-line
flag (``politecrawl.cli.options``), its environment variable and its docstring (the string
literal under the field, in ``politecrawl/config/conduct.py`` or ``coverage.py``). The build
fails when the marker is missing or a setting has no docstring. Each table sits in a
``<div class="settings">``, which ``docs/stylesheets/settings.css`` keeps from breaking names
and defaults mid-word.
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import html
import inspect
import re
import typing
from itertools import pairwise
from typing import Any

from politecrawl.cli.options import FLAG_FIELDS, add_crawl_options
from politecrawl.config import GROUP_TYPES, setting_types
from politecrawl.config.loader import ENV_PREFIX

MARKER = "<!-- settings -->"
PAGE = "configuration.md"
_CODE_SPAN = re.compile(r"(`+).+?\1", re.DOTALL)
_UNITS = ((86_400, "day"), (3_600, "hour"), (60, "minute"))


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Replace the marker on the configuration page with the generated reference."""
    if page.file.src_uri != PAGE:
        return markdown
    if MARKER not in markdown:
        raise RuntimeError(f"{PAGE} has lost its {MARKER!r} line: the settings have nowhere to go")
    return markdown.replace(MARKER, settings_reference())


def settings_reference() -> str:
    """Every settings group as a Markdown section with a table of its settings."""
    flags = _flags_by_setting()
    hints = setting_types()
    sections = []
    for table, group in GROUP_TYPES.items():
        docstrings = _attribute_docstrings(group)
        summary = _group_summary(group, table)
        rows = [
            "| setting | default | what it does |",
            "|---|---|---|",
        ]
        for setting in dataclasses.fields(group):
            name = setting.name
            if name not in docstrings:
                raise RuntimeError(f"{group.__name__}.{name} has no docstring to document it by")
            where = [f"`{flag}`" for flag in flags.get(name, ())]
            where.append(f"`{ENV_PREFIX}{name.upper()}`")
            rows.append(
                f"| `{name}` | {_default(name, setting.default, hints[name])} "
                f"| {_markdown(docstrings[name])}<br>{' · '.join(where)} |"
            )
        table_html = "\n".join(rows)
        sections.append(
            f"## `[{table}]`\n\n{summary}\n\n"
            f'<div class="settings" markdown="1">\n\n{table_html}\n\n</div>\n'
        )
    return "\n".join(sections)


def _attribute_docstrings(group: type) -> dict[str, str]:
    """The string literal written under each field of a dataclass, by field name."""
    tree = ast.parse(inspect.getsource(group))
    (definition,) = tree.body
    assert isinstance(definition, ast.ClassDef)
    body = definition.body
    found: dict[str, str] = {}
    for statement, following in pairwise(body):
        if (
            isinstance(statement, ast.AnnAssign)
            and isinstance(statement.target, ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            found[statement.target.id] = inspect.cleandoc(following.value.value)
    return found


def _group_summary(group: type, table: str) -> str:
    """The group's docstring without its ``[table]:`` lead, as a sentence."""
    text = inspect.cleandoc(group.__doc__ or "")
    text = text.removeprefix(f"[{table}]:").strip()
    return _markdown(text[:1].upper() + text[1:])


def _flags_by_setting() -> dict[str, list[str]]:
    """The options of ``politecrawl run`` that set each setting."""
    parser = argparse.ArgumentParser()
    add_crawl_options(parser)
    flags: dict[str, list[str]] = {}
    for action in parser._actions:
        setting = FLAG_FIELDS.get(action.dest)
        if setting is not None:
            flags.setdefault(setting, []).extend(action.option_strings)
    return flags


def _default(name: str, value: object, hint: object) -> str:
    """A default as it is written in the TOML file, with a reading for large units."""
    if value is dataclasses.MISSING or value is None:
        return "not set"
    if isinstance(value, bool):
        shown = "true" if value else "false"
    elif isinstance(value, str):
        shown = f'"{value}"'
    elif isinstance(value, tuple):
        shown = "[" + ", ".join(f'"{item}"' for item in value) + "]"
    else:
        shown = repr(value)
    text = f"`{shown}`"
    if isinstance(value, int | float) and not isinstance(value, bool):
        text += _reading(name, value)
    choices = typing.get_args(hint) if typing.get_origin(hint) is typing.Literal else ()
    if choices:
        text += "<br>(" + " or ".join(f"`{choice}`" for choice in choices) + ")"
    return text


def _reading(name: str, value: float) -> str:
    """`` (1 day)`` for 86400 seconds, `` (10 MiB)`` for 10485760 bytes; else nothing."""
    if name.endswith("_seconds"):
        for size, unit in _UNITS:
            if value >= size and value % size == 0:
                count = int(value // size)
                return f" ({count} {unit}{'' if count == 1 else 's'})"
    if name.endswith("_bytes"):
        for size, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
            if value >= size and value % size == 0:
                return f" ({int(value // size)} {unit})"
    return ""


def _markdown(text: str) -> str:
    """A docstring as one table cell: one line, ``<`` and ``|`` escaped outside code spans."""
    text = " ".join(text.split())
    pieces = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        pieces.append(_escape(text[last : span.start()]))
        pieces.append(span.group(0))
        last = span.end()
    pieces.append(_escape(text[last:]))
    return "".join(pieces)


def _escape(text: str) -> str:
    return html.escape(text, quote=False).replace("|", "\\|")
