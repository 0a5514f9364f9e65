"""What a numeric setting must be: the checks ``CrawlConfig.validate`` reads from each field's
metadata (B1), and the day in seconds that several defaults are counted in."""

from __future__ import annotations

import math
from dataclasses import dataclass

DAY_SECONDS = 86_400.0


@dataclass(frozen=True, slots=True)
class Check:
    """What a numeric setting must be; ``validate()`` reads it from the field's metadata."""

    minimum: int
    inclusive: bool  # the minimum itself is allowed
    seconds: bool  # a finite number of seconds, not a count

    def problem(self, value: float) -> str | None:
        """Why ``value`` is impossible, or None."""
        too_low = value < self.minimum if self.inclusive else value <= self.minimum
        if self.seconds and (not math.isfinite(value) or too_low):
            relation = ">=" if self.inclusive else ">"
            return f"must be a number of seconds {relation} {self.minimum}, not {value!r}"
        if not self.seconds and too_low:
            bound = "at least 1" if self.minimum == 1 else "0 or more"
            return f"must be {bound}, not {value!r}"
        return None


SECONDS_OR_ZERO = {"check": Check(0, inclusive=True, seconds=True)}
"""A field's metadata: a finite number of seconds, 0 or more."""
SECONDS = {"check": Check(0, inclusive=False, seconds=True)}
"""A field's metadata: a finite number of seconds above 0."""
COUNT = {"check": Check(1, inclusive=True, seconds=False)}
"""A field's metadata: a count, at least 1."""
COUNT_OR_ZERO = {"check": Check(0, inclusive=True, seconds=False)}
"""A field's metadata: a count, 0 or more."""
