"""The exception tree: errors politecrawl raises on purpose, grouped by what the caller does next.

    PolitecrawlError        root: catch this to catch everything of ours
    +-- UserInputError      a person's mistake (file, line); the CLI prints one line, exit 2
    |   +-- ConfigError     an impossible or unknown setting, named by ``key`` (B1)
    |   +-- InvalidURL      a URL politecrawl will not fetch (also a ``ValueError``)
    +-- FetchError          an HTTP attempt failed; ``temporary`` says whether to defer (O6)
    +-- StoreError          the crawl database cannot be used safely; stop, lose nothing
    +-- ArchiveError        the WARC archive cannot be written; stop as on a StoreError

Each is exported from ``politecrawl``; ``politecrawl.config.ConfigError`` and
``politecrawl.urls.InvalidURL`` are the same classes. (``politecrawl.fetch``'s
``HostNotFoundError`` is a ``FetchError``.)

Verdicts such as "disallowed by robots.txt" or "out of scope" are values, never exceptions.
"""

from __future__ import annotations

from pathlib import Path


class PolitecrawlError(Exception):
    """The root of every error politecrawl raises deliberately."""


class UserInputError(PolitecrawlError):
    """Bad input from a person: a file, a URL, an option. Carries the file and line when known."""

    def __init__(
        self, message: str, *, path: str | Path | None = None, line: int | None = None
    ) -> None:
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        super().__init__(self.one_line())

    def one_line(self) -> str:
        """The message as one line, prefixed with ``file:line:`` when known (B1)."""
        where = ""
        if self.path is not None:
            where = self.path if self.line is None else f"{self.path}:{self.line}"
            where += ": "
        return where + self.message


class ConfigError(UserInputError):
    """An impossible or unknown setting; ``key`` names it when known, and the file when known."""

    def __init__(
        self,
        message: str,
        *,
        key: str | None = None,
        related: tuple[str, ...] = (),
        path: str | Path | None = None,
        line: int | None = None,
    ) -> None:
        self.key = key
        self.related = related
        """Other settings the error is about (the other half of an impossible pair)."""
        super().__init__(message, path=path, line=line)


class InvalidURL(UserInputError, ValueError):  # noqa: N818 (the name the crawl code and users expect)
    """A URL politecrawl will not fetch: ``url`` as given, ``reason`` in a few words (C1, C3).

    Also a ``ValueError``, as it was before the tree held it, for callers that catch that."""

    def __init__(self, url: str, reason: str) -> None:
        self.url = url
        self.reason = reason
        shown = url if len(url) <= 100 else url[:97] + "..."
        super().__init__(f"invalid URL {shown!r}: {reason}")
        self.args = (url, reason)  # both, so that the error pickles across processes

    def __str__(self) -> str:
        return self.message


class FetchError(PolitecrawlError):
    """A request that produced no usable response; ``temporary`` failures are retried later.

    ``host_trouble`` says the server itself seems in trouble (a time-out, a refused or reset
    connection, P3), rather than this one response being unusable (a body that does not
    decode); it defaults to ``temporary``."""

    def __init__(
        self,
        message: str,
        *,
        url: str,
        temporary: bool,
        host_trouble: bool | None = None,
        timed_out: bool = False,
        garbled: bool = False,
        cut_off: bool = False,
        closed_early: bool | None = None,
    ) -> None:
        self.url = url
        self.temporary = temporary
        self.host_trouble = temporary if host_trouble is None else host_trouble
        self.timed_out = timed_out
        """No answer in time (connect or response deadline), as opposed to a refused, reset or
        garbled one."""
        self.garbled = garbled
        """The server took the request and then broke the exchange (a reset connection, an
        answer that is not HTTP): some servers do that to a HEAD only (L2)."""
        self.cut_off = cut_off
        """The response deadline passed while its headers or body were still arriving (C7): the
        server answers, only too slowly, so another attempt would hold its host as long again."""
        self.closed_early = cut_off if closed_early is None else closed_early
        """We closed the exchange while the server was still in it (a time-out, a body that
        does not decode): the server ends the request later than we do (P2)."""
        super().__init__(f"{url}: {message}")


class StoreError(PolitecrawlError):
    """The crawl database is missing, foreign, too new or broken; nothing was changed."""


class ArchiveError(PolitecrawlError):
    """The WARC archive cannot be written (a full disk, a directory gone or read-only): not the
    page's fault, so the crawl stops as on a ``StoreError``: the URLs being archived stay
    queued, and what was recorded is kept (W2)."""
