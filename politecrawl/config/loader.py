"""Where settings come from: flags > environment > file > stored run > defaults (B1, issue 5).

``load_config`` layers them into one validated ``CrawlConfig``; any mistake is ONE ``ConfigError``
line naming the setting and where it came from (file and line, ``POLITECRAWL_WORKERS``, ``--delay``
or "stored configuration"). Pure apart from reading the one file it is given.

- **File** (TOML, ``config/politecrawl.toml`` documents every setting): a setting is named by its
  field name, at top level or in its table (the ``CrawlConfig`` group of that name): ``[crawl]``
  who crawls, ``[politeness]`` how gently (P1-P3), ``[scope]`` what and how much (C1, C3),
  ``[fetching]`` page requests (C4, C7, T6), ``[robots]`` robots.txt (M6, O5-O8, E2, E4),
  ``[sitemaps]`` discovery and limits (S1-S3), ``[checking]`` link checking (L1-L4),
  ``[storage]`` the crawl database and its leases (C5), ``[archive]`` WARC.
  A setting in another table is an error, to catch a misreading.
- **Environment**: ``POLITECRAWL_<SETTING>`` upper-case; lists are comma-separated
  (``POLITECRAWL_INCLUDE=/a,/b``; a pattern holding a comma belongs in the file). Variables in
  ``ENV_RESERVED`` or starting ``POLITECRAWL_TEST_`` are not settings; any other is checked.
- **Flags**: field name -> value; None means not given; a string is parsed as in the environment.
- **Stored run** (``base``, for ``resume``): a ``CrawlConfig``, or its JSON form as read by
  ``config_from_dict``.

Values are checked against the field types: ints for floats are fine, floats for ints are not;
words for booleans (true/false, yes/no, on/off, 1/0) only in text. For an optional setting an
empty string means "not set" (TOML has no null), which is how ``config_to_toml`` writes None.
``extra`` is for front ends and not settable here.
"""

from __future__ import annotations

import difflib
import json
import re
import tomllib
import types
from collections.abc import Mapping
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Union, get_args, get_origin

from politecrawl.config.groups import GROUPS, TABLE_OF, CrawlConfig, setting_types
from politecrawl.errors import ConfigError

ENV_PREFIX = "POLITECRAWL_"
ENV_RESERVED = frozenset({"POLITECRAWL_CONFIG"})
"""Variables with the prefix that are not settings (the CLI's configuration file path)."""
_ENV_IGNORED_PREFIX = "POLITECRAWL_TEST_"  # the test suite's own variables
STORED = "stored configuration"

_TYPES = setting_types()
_BOOLEANS = {"true": True, "yes": True, "on": True, "1": True}
_BOOLEANS |= {"false": False, "no": False, "off": False, "0": False}
_HEADER = re.compile(r"\s*\[+\s*([^\]]+?)\s*\]")
_KEY = re.compile(r"\s*([\w\-.\"' ]+?)\s*=")
_TOML_ERROR = re.compile(r"(.*) \(at (?:line (\d+), column (\d+)|end of document)\)", re.DOTALL)

Layer = dict[str, tuple[object, "_Source"]]


@dataclass(frozen=True)
class _Source:
    """Where a value came from, and how an error about it begins."""

    label: str | None = None  # "POLITECRAWL_WORKERS", "--delay", STORED
    path: str | None = None
    line: int | None = None
    is_env: bool = False  # the label already names the setting
    is_text: bool = False  # environment and flags: a string is parsed ("4", "yes", "/a,/b")

    def error(self, message: str, *, key: str | None = None) -> ConfigError:
        message = f"{self.label}: {message}" if self.label else message
        return ConfigError(message, key=key, path=self.path, line=self.line)


class _BadValueError(Exception):
    """A value of the wrong type; the caller says where it came from."""


def load_config(
    *,
    file: str | Path | None = None,
    environ: Mapping[str, str] | None = None,
    flags: Mapping[str, object] | None = None,
    base: CrawlConfig | Mapping[str, object] | None = None,
    flag_names: Mapping[str, str] | None = None,
) -> CrawlConfig:
    """The effective configuration, validated; raises one ``ConfigError`` for any mistake (B1).

    ``flag_names`` maps a field to its option (``delay_seconds`` -> ``--delay``) for messages.
    A ``CrawlConfig`` base keeps its ``extra``.
    """
    layered: Layer = {}
    if isinstance(base, Mapping):
        layered |= _from_stored(base)
    if file is not None:
        layered |= _from_file(Path(file))
    layered |= _from_environ(environ or {})
    flagged: Layer = {}
    for name, value in (flags or {}).items():
        if value is not None:  # not given
            source = _Source(label=(flag_names or {}).get(name), is_text=True)
            _add(flagged, name, value, source)
    layered |= flagged
    return _build(base if isinstance(base, CrawlConfig) else CrawlConfig(), layered)


def config_from_dict(stored: Mapping[str, object]) -> CrawlConfig:
    """A configuration from its stored JSON form (``asdict`` without ``extra``; lists for tuples).

    Keys that are not settings are dropped (stored by a version that had a setting this one has
    not); missing ones take their defaults. A value of the wrong type is a ``ConfigError``.
    """
    return _build(CrawlConfig(), _from_stored(stored))


def config_to_toml(config: CrawlConfig) -> str:
    """The configuration as a TOML file, grouped; ``load_config`` reads it back equal."""
    lines = ["# politecrawl settings; config/politecrawl.toml says what each one does."]
    for table, names in GROUPS.items():
        lines += ["", f"[{table}]"]
        lines += [f"{name} = {_toml_value(config.value(name))}" for name in names]
    return "\n".join(lines) + "\n"


def _toml_value(value: object) -> str:
    if value is None:
        return '""  # not set'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):  # JSON's escapes are TOML's; TOML also wants DEL escaped
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, tuple):
        return "[" + ", ".join(_toml_value(item) for item in value) + "]"
    return repr(value)  # int and float (inf and nan too) are spelt alike in TOML


def _build(start: CrawlConfig, layered: Layer) -> CrawlConfig:
    changes: dict[str, Any] = {name: value for name, (value, _) in layered.items()}
    try:
        return start.replace(**changes)
    except ConfigError as error:
        for key in (error.key, *error.related):  # blame the layer that set it (B1)
            if key in layered:
                source = layered[key][1]
                message = error.message
                if source.label == STORED:  # a crawl stored before the check: say the way out
                    message += (
                        f"; give it anew: {ENV_PREFIX}{key.upper()}=... or a --config file "
                        "replaces the stored value"
                    )
                raise source.error(message, key=error.key) from None
        raise


def _from_stored(stored: Mapping[str, object]) -> Layer:
    source = _Source(label=STORED)
    return {
        name: (_checked(name, value, source), source)
        for name, value in stored.items()
        if name in _TYPES
    }


def _from_environ(environ: Mapping[str, str]) -> Layer:
    layer: Layer = {}
    for variable, text in sorted(environ.items()):
        if variable.startswith(ENV_PREFIX) and not (
            variable in ENV_RESERVED or variable.startswith(_ENV_IGNORED_PREFIX)
        ):
            source = _Source(label=variable, is_env=True, is_text=True)
            _add(layer, variable.removeprefix(ENV_PREFIX).lower(), text, source)
    return layer


def _from_file(path: Path) -> Layer:
    text, document = _read_toml(path)
    lines = _key_lines(text)
    layer: Layer = {}
    for key, value in document.items():
        if isinstance(value, dict) and key in GROUPS:
            for name, item in value.items():
                source = _Source(path=str(path), line=lines.get((key, name)))
                if TABLE_OF.get(name, key) != key:
                    raise source.error(f"setting {name} belongs in [{TABLE_OF[name]}], not [{key}]")
                _add(layer, name, item, source)
        elif isinstance(value, dict) and key not in _TYPES:
            match = _closest(key, GROUPS)
            hint = "" if match is None else f" (did you mean [{match}]?)"
            raise ConfigError(f"unknown table [{key}]{hint}", path=path, line=lines.get((key,)))
        else:
            _add(layer, key, value, _Source(path=str(path), line=lines.get((key,))))
    return layer


def _read_toml(path: Path) -> tuple[str, dict[str, Any]]:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ConfigError("no such configuration file", path=path) from None
    except IsADirectoryError:
        raise ConfigError("is a directory, not a configuration file", path=path) from None
    except OSError as error:
        reason = error.strerror or str(error)
        raise ConfigError(f"cannot read the configuration file: {reason}", path=path) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise ConfigError("not UTF-8 text", path=path, line=line) from None
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _TOML_ERROR.fullmatch(str(error))
        if found is None:
            raise ConfigError(f"not valid TOML: {error}", path=path) from None
        column = f" (column {found[3]})" if found[3] else " (at the end of the file)"
        line = int(found[2]) if found[2] else text.count("\n") + 1
        raise ConfigError(f"not valid TOML: {found[1]}{column}", path=path, line=line) from None


def _key_lines(text: str) -> dict[tuple[str, ...], int]:
    """The line of each table and key: tomllib gives values, not where they were (B1)."""
    lines: dict[tuple[str, ...], int] = {}
    table: tuple[str, ...] = ()
    for number, line in enumerate(text.split("\n"), start=1):
        if header := _HEADER.match(line):
            table = _dotted(header[1])
            lines.setdefault(table, number)
        elif key := _KEY.match(line):
            lines.setdefault(table + _dotted(key[1]), number)
    return lines


def _dotted(key: str) -> tuple[str, ...]:
    return tuple(part.strip().strip("\"'") for part in key.split("."))


def _add(layer: Layer, name: str, value: object, source: _Source) -> None:
    if name not in _TYPES:
        match = _closest(name, _TYPES)
        if match is not None and source.is_env:
            match = ENV_PREFIX + match.upper()
        hint = "" if match is None else f" (did you mean {match}?)"
        raise source.error(f"unknown setting {name!r}{hint}")
    if name in layer:  # only a file can say it twice: at top level and in its table
        raise source.error(f"setting {name} is given twice")
    layer[name] = (_checked(name, value, source), source)


def _closest(word: str, names: Mapping[str, object]) -> str | None:
    close = difflib.get_close_matches(word, names, n=1)
    close += [name for name in names if len(word) >= 4 and word in name]  # delay: delay_seconds
    return close[0] if close else None


def _checked(name: str, value: object, source: _Source) -> object:
    try:
        return _convert(_TYPES[name], value, text=source.is_text)
    except _BadValueError as bad:
        raise source.error(str(bad) if source.is_env else f"setting {name}: {bad}") from None


def _convert(hint: Any, value: object, *, text: bool) -> object:
    """The value as the field's type; with ``text``, a string is parsed first."""
    origin, args = get_origin(hint), get_args(hint)
    if origin in (Union, types.UnionType):  # X | None: empty means not set
        if value is None or value == "":
            return None
        return _convert(next(arg for arg in args if arg is not type(None)), value, text=text)
    if origin is Literal:
        if isinstance(value, str) and value in args:
            return value
        raise _BadValueError(f"{_show(value)} is not one of {', '.join(args)}")
    if origin is tuple:
        if text and isinstance(value, str):
            value = [part.strip() for part in value.split(",") if part.strip()]
        if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
            return tuple(value)
        raise _BadValueError(f"{_show(value)} is not a list of text")
    if hint is bool:
        if text and isinstance(value, str):
            value = _BOOLEANS.get(value.strip().lower(), value)
        if isinstance(value, bool):
            return value
        raise _BadValueError(f"{_show(value)} is not true or false")
    if hint is int or hint is float:
        if text and isinstance(value, str):
            with suppress(ValueError):
                value = hint(value.strip())
        if isinstance(value, int | float) and not isinstance(value, bool):
            if hint is float:
                return float(value)
            if isinstance(value, int):
                return value
        raise _BadValueError(
            f"{_show(value)} is not a {'number' if hint is float else 'whole number'}"
        )
    if isinstance(value, str):
        return value
    raise _BadValueError(f"{_show(value)} is not text")


def _show(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    return repr(value)
