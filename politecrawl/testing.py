"""Helpers for tests, ours and users': a clock that only moves when told to [STYLE 6]."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta


class FakeClock:
    """A ``Clock`` whose time moves only by ``advance`` or ``sleep``: exact, instant tests."""

    def __init__(self, start: datetime | None = None) -> None:
        self._now = start or datetime(2026, 1, 1, tzinfo=UTC)
        self._monotonic = 0.0
        self._lock = threading.Lock()

    def now(self) -> datetime:
        """The fake current time (aware UTC)."""
        with self._lock:
            return self._now

    def monotonic(self) -> float:
        """Seconds advanced so far."""
        with self._lock:
            return self._monotonic

    def sleep(self, seconds: float) -> None:
        """Advance by ``seconds`` at once instead of waiting."""
        self.advance(seconds)

    def advance(self, seconds: float) -> None:
        """Move time forward."""
        if seconds <= 0:
            return
        with self._lock:
            self._now += timedelta(seconds=seconds)
            self._monotonic += seconds
