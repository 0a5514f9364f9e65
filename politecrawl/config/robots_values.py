"""The plain values robots.txt reading is parametrised by: the semantics' names, the parser's
resource limits and what an outcome needs of the settings [M6, M7, O5-O8, E2, E4].

They are settings, so they live here, at the bottom (L0, stdlib only): ``config.conduct``
takes their defaults and ``config.groups`` validates them without importing
``politecrawl.robots``, and ``robots`` takes them as parameters. ``politecrawl.robots``
re-exports the public ones (``RobotsLimits``, ``SemanticsName``, ``SEMANTICS_NAMES``,
``DEFAULT_SEMANTICS``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

SemanticsName = Literal["strict", "draft", "rfc9309"]
SEMANTICS_NAMES: tuple[SemanticsName, ...] = ("strict", "draft", "rfc9309")
DEFAULT_SEMANTICS: SemanticsName = "strict"


@dataclass(frozen=True, slots=True)
class RobotsLimits:
    """Resources spent on one robots.txt (O8, draft section 6)."""

    max_bytes: int = 512 * 1024
    """Octets read; the rest of the file is ignored and the policy is marked truncated."""
    max_line_bytes: int = 16 * 1024
    """A longer line is cut to this length (a cut Disallow is kept, a cut Allow dropped)."""
    max_rules: int = 50_000
    """Allow and Disallow values read; lines after the limit are ignored."""


@dataclass(frozen=True, slots=True)
class OutcomeSettings:
    """The robots.txt settings an outcome needs (``politecrawl.robots.outcome``);
    ``RobotsSettings.outcome_settings`` makes them from the crawl's settings and holds their
    defaults."""

    min_lifetime_seconds: float
    max_lifetime_seconds: float
    denied_lifetime_seconds: float
    retry_seconds: float
    max_attempts: int
    unauthorized_means_allowed: bool
