"""The seeds file: where a crawl starts [B1, C1].

Owns ``parse_seeds`` (text to canonical URLs plus the problems it skipped, with line numbers) and
``read_seeds`` (a path, or ``-`` for standard input, to the same; a file that cannot be used at
all is one ``UserInputError`` naming the file and, where there is one, the line).

The format: one http(s) URL a line; ``#`` starts a comment when it begins the line or follows
whitespace (``http://a.example/#top`` keeps its fragment, which canonicalisation drops); blank
lines and surrounding whitespace are ignored; lines end in LF, CRLF or CR; a UTF-8 BOM is ignored.
A bad line is reported and skipped, and the rest is used (lenient, like the robots parser).
Duplicates (after canonicalisation) are dropped silently, the first one kept.

Pure except ``read_seeds``, which reads the one file it is given.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

from politecrawl.errors import UserInputError
from politecrawl.urls import InvalidURL, canonicalize

__all__ = ["MAX_SEEDS_BYTES", "SeedProblem", "Seeds", "parse_seeds", "read_seeds"]

MAX_SEEDS_BYTES = 256 * 1024 * 1024  # millions of URLs; a bigger "seeds file" is a wrong path
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
_BYTE_LINE_BREAK = re.compile(rb"\r\n|\r|\n")
_COMMENT = re.compile(r"(?:^|\s)#")  # "#" after whitespace; "/page#part" is a fragment
_SHOWN = 120  # characters of a bad line kept in a problem


@dataclass(frozen=True, slots=True)
class SeedProblem:
    """A line that is not a usable seed: its 1-based number, its text (cut) and why."""

    line: int
    text: str
    reason: str


@dataclass(frozen=True, slots=True)
class Seeds:
    """Canonical seed URLs, de-duplicated, in file order, and the lines that were skipped."""

    urls: tuple[str, ...]
    problems: tuple[SeedProblem, ...] = ()
    source: str = "<seeds>"

    def warnings(self) -> tuple[str, ...]:
        """One line per problem, ``source:line: reason: 'text'``, for the CLI to print (B1)."""
        return tuple(
            f"{self.source}:{problem.line}: {problem.reason}: {problem.text!r}"
            for problem in self.problems
        )


def parse_seeds(text: str, *, source: str = "<seeds>") -> Seeds:
    """Read seed URLs from ``text``; never raises. ``source`` names it in ``Seeds.warnings``."""
    urls: dict[str, None] = {}  # an ordered set
    problems: list[SeedProblem] = []
    for number, line in enumerate(_LINE_BREAK.split(text.removeprefix("\ufeff")), start=1):
        comment = _COMMENT.search(line)
        value = (line if comment is None else line[: comment.start()]).strip()
        if not value:
            continue
        shown = value if len(value) <= _SHOWN else value[: _SHOWN - 3] + "..."
        reason = _problem(value)
        if reason is None:
            try:
                urls.setdefault(canonicalize(value), None)
            except InvalidURL as error:
                reason = error.reason
        if reason is not None:
            problems.append(SeedProblem(number, shown, reason))
    return Seeds(tuple(urls), tuple(problems), source)


def read_seeds(path: str | Path) -> Seeds:
    """Read the seeds file at ``path`` (``-`` is standard input); see the module docstring.

    Raises ``UserInputError`` when the file is missing, a directory, unreadable, too large, not
    UTF-8 text, or holds no usable URL at all. Bad lines beside good ones are ``problems``.
    """
    from_stdin = str(path) == "-"
    name = "<stdin>" if from_stdin else str(path)
    data = _read_bytes(None if from_stdin else Path(path), name)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise UserInputError("UTF-16 text; save the seeds file as UTF-8", path=name, line=1)
    nul = data.find(b"\x00")
    if nul >= 0:
        message = "a binary file, not a list of URLs (NUL byte)"
        raise UserInputError(message, path=name, line=_line_of(data, nul))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        message = f"not UTF-8 text (byte 0x{data[error.start]:02x})"
        raise UserInputError(message, path=name, line=_line_of(data, error.start)) from None
    seeds = parse_seeds(text, source=name)
    if not seeds.urls:
        if not seeds.problems:
            raise UserInputError("no seed URL (the file is empty or only comments)", path=name)
        first = seeds.problems[0]
        count = len(seeds.problems)
        raise UserInputError(
            f"no usable seed URL ({count} bad line{'s' if count > 1 else ''}; "
            f"the first: {first.reason}: {first.text!r})",
            path=name,
            line=first.line,
        )
    return seeds


def _problem(value: str) -> str | None:
    """A reason the line cannot be one URL, found before canonicalisation, or ``None``."""
    if any(char.isspace() for char in value.partition("#")[0]):  # the fragment is dropped
        return "more than one word on the line (one URL a line; a '#' comment follows a space)"
    if "://" not in value:  # "example.org", "//example.org/", "mailto:a@b.example"
        return "not an absolute http(s) URL; write http:// or https:// before it"
    return None  # canonicalize says the rest (scheme, host, port, length)


def _read_bytes(path: Path | None, name: str) -> bytes:
    """At most ``MAX_SEEDS_BYTES`` + 1 raw bytes of ``path`` (``None``: standard input)."""
    limit = MAX_SEEDS_BYTES + 1
    try:
        if path is None:
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:  # a text-only stdin (embedding, tests): take its text as UTF-8
                data = sys.stdin.read(limit).encode("utf-8", "surrogatepass")
            else:
                data = stream.read(limit)
        elif path.is_dir():
            raise UserInputError("is a directory, not a seeds file", path=name)
        else:
            with path.open("rb") as file:
                data = file.read(limit)
    except FileNotFoundError:
        raise UserInputError("no such seeds file", path=name) from None
    except PermissionError:
        raise UserInputError("cannot read the seeds file: permission denied", path=name) from None
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise UserInputError(f"cannot read the seeds file: {reason}", path=name) from None
    if len(data) > MAX_SEEDS_BYTES:
        message = f"larger than {MAX_SEEDS_BYTES >> 20} MiB: not a seeds file?"
        raise UserInputError(message, path=name)
    return bytes(data)


def _line_of(data: bytes, offset: int) -> int:
    """The 1-based line holding byte ``offset``; LF, CRLF and CR end lines, as in the parser."""
    return len(_BYTE_LINE_BREAK.findall(data, 0, offset)) + 1
