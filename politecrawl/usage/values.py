"""Use preferences as values: the uses, the three stances, a signal, the combination rule [U4].

A ``Signal`` is one statement a site made about the use of its content (a robots.txt line, a
response header, a meta tag, a tdmrep.json rule), read onto the three uses a crawl can have:
``search`` (a search index), ``ai-input`` (content given to a model at answer time: RAG,
grounding) and ``ai-train`` (training or fine-tuning a model). For each use it says allowed,
refused or nothing (no preference). ``combine`` is the one rule that joins signals, the IETF
vocabulary's (draft-ietf-aipref-vocab-08, "Combining Preferences"): refused if any signal
refuses, else allowed if any allows, else no preference. So several signals combine to the most
restrictive, and no signal can undo another's refusal.

Preferences never widen what robots.txt allows: ``fetch_permitted`` is the only place the two
meet, and it can only take away (U1, U5). Pure values, no I/O: the crawl stores them (U6).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass


class Use(enum.StrEnum):
    """A use a crawl's content may be put to (a crawl's purpose, U5)."""

    SEARCH = "search"
    AI_INPUT = "ai-input"
    AI_TRAIN = "ai-train"


def use_of_purpose(purpose: str) -> Use | None:
    """The use a crawl's ``purpose`` setting names, or ``None`` for ``"none"`` (U5)."""
    if purpose == "none":
        return None
    try:
        return Use(purpose)
    except ValueError:
        choices = ", ".join(["none", *(use.value for use in Use)])
        raise ValueError(f"purpose {purpose!r} is not one of {choices}") from None


class Stance(enum.StrEnum):
    """What a signal, or the signals together, say of one use."""

    ALLOWED = "allowed"
    REFUSED = "refused"
    NONE = "no preference"


class Protocol(enum.StrEnum):
    """The convention a signal was written in (each maps onto the uses its own way)."""

    CONTENT_SIGNAL = "content-signal"
    """Content Signals (contentsignals.org; draft-romm-aipref-contentsignals-00)."""
    CONTENT_USAGE = "content-usage"
    """IETF AI preferences (draft-ietf-aipref-vocab-08, draft-ietf-aipref-attach-05)."""
    TDMREP = "tdmrep"
    """W3C TDM Reservation Protocol (community group final report, 2024)."""
    NOAI = "noai"
    """``noai`` / ``noimageai`` in META robots or X-Robots-Tag (a convention, no specification)."""


_RESTRICTIVENESS = {Stance.REFUSED: 2, Stance.ALLOWED: 1, Stance.NONE: 0}


@dataclass(frozen=True, slots=True)
class Signal:
    """One statement of preference, where it was seen, and what it says of each use (U6)."""

    protocol: Protocol
    source: str
    """Where it was read, for people and the record: ``robots.txt line 7``, ``Content-Usage
    header``, ``meta tdm-reservation``, ``tdmrep.json line 4``."""
    statement: str
    """The statement as written (one line, shortened when long)."""
    search: Stance = Stance.NONE
    ai_input: Stance = Stance.NONE
    ai_train: Stance = Stance.NONE
    line_number: int | None = None
    """The 1-based line of the file it is on (robots.txt, tdmrep.json); ``None`` for a page's
    headers and metas."""
    policy: str | None = None
    """A TDMRep ``tdm-policy`` URL: how to ask the rightsholder for a licence."""

    def stance(self, use: Use) -> Stance:
        """What this signal says of ``use``."""
        if use is Use.SEARCH:
            return self.search
        return self.ai_input if use is Use.AI_INPUT else self.ai_train

    @property
    def says_anything(self) -> bool:
        """True when it allows or refuses at least one use."""
        return any(self.stance(use) is not Stance.NONE for use in Use)

    def as_record(self) -> dict[str, object]:
        """The signal as plain values, for JSON (page output, WARC metadata, U6): each use's
        stance, ``None`` for no preference."""
        return {
            "protocol": self.protocol.value,
            "source": self.source,
            "statement": self.statement,
            "line": self.line_number,
            "policy": self.policy,
            **{use.value: _said(self.stance(use)) for use in Use},
        }

    def describe(self) -> str:
        """One line for people: where, what was written, and what it means."""
        said = ", ".join(
            f"{use.value} {self.stance(use).value}"
            for use in Use
            if self.stance(use) is not Stance.NONE
        )
        return f"{self.source}: {self.statement} ({said or 'no preference'})"


def _said(stance: Stance) -> str | None:
    return None if stance is Stance.NONE else stance.value


def signal(
    protocol: Protocol,
    source: str,
    statement: str,
    stances: dict[Use, Stance],
    *,
    line_number: int | None = None,
    policy: str | None = None,
) -> Signal:
    """A ``Signal`` from a mapping of uses to stances (uses left out: no preference)."""
    return Signal(
        protocol,
        source,
        statement,
        stances.get(Use.SEARCH, Stance.NONE),
        stances.get(Use.AI_INPUT, Stance.NONE),
        stances.get(Use.AI_TRAIN, Stance.NONE),
        line_number,
        policy,
    )


@dataclass(frozen=True, slots=True)
class UsageWarning:
    """Something a reader ignored or read leniently: where, the line when there is one, what."""

    where: str
    line_number: int | None
    message: str

    def describe(self) -> str:
        """``robots.txt line 4: ...`` or ``Content-Usage header: ...``."""
        line = "" if self.line_number is None else f" line {self.line_number}"
        return f"{self.where}{line}: {self.message}"


@dataclass(frozen=True, slots=True)
class UseVerdict:
    """The combined stance on one use, and the signals that decided it."""

    use: Use
    stance: Stance
    deciding: tuple[Signal, ...]
    """The signals that refuse (when refused) or allow (when allowed); empty with no preference."""

    @property
    def refused(self) -> bool:
        """True when some signal refuses the use."""
        return self.stance is Stance.REFUSED

    def describe(self) -> str:
        """One line for people: the stance and what said so."""
        if not self.deciding:
            return f"{self.use.value}: no preference (no signal says anything of it)"
        said = "; ".join(deciding.describe() for deciding in self.deciding)
        return f"{self.use.value}: {self.stance.value} by {said}"


def combine(signals: Iterable[Signal], use: Use) -> UseVerdict:
    """The most restrictive stance of ``signals`` on ``use`` (U4): refused if any refuses, else
    allowed if any allows, else no preference."""
    stance = Stance.NONE
    deciding: list[Signal] = []
    for one in signals:
        said = one.stance(use)
        if said is Stance.NONE:
            continue
        if _RESTRICTIVENESS[said] > _RESTRICTIVENESS[stance]:
            stance, deciding = said, []
        if said is stance:
            deciding.append(one)
    return UseVerdict(use, stance, tuple(deciding))


@dataclass(frozen=True, slots=True)
class UsePreferences:
    """Every signal that applies to one URL (or page), with what the readers noted (U6)."""

    signals: tuple[Signal, ...] = ()
    warnings: tuple[UsageWarning, ...] = ()

    def verdict(self, use: Use) -> UseVerdict:
        """The combined stance of every signal on ``use`` (U4)."""
        return combine(self.signals, use)

    def refuses(self, use: Use) -> bool:
        """True when some signal refuses ``use``."""
        return self.verdict(use).refused

    def merged(self, *others: UsePreferences) -> UsePreferences:
        """These signals and warnings followed by the others' (robots.txt, tdmrep.json, the
        page): combining them is most restrictive, so order does not change a verdict."""
        return UsePreferences(
            self.signals + tuple(one for other in others for one in other.signals),
            self.warnings + tuple(one for other in others for one in other.warnings),
        )


NO_PREFERENCES = UsePreferences()


def fetch_permitted(robots_allowed: bool, preferences: UsePreferences, purpose: Use | None) -> bool:
    """Whether a URL is fetched for a crawl with ``purpose`` (U1, U5): only when robots.txt
    allows it and, with a purpose, no signal refuses that use. A preference never grants what
    robots.txt forbids; without a purpose nothing is withheld."""
    if not robots_allowed:
        return False
    return purpose is None or not preferences.refuses(purpose)
