"""Time as a parameter (STYLE 6): the ``Clock`` protocol and the real ``SystemClock``.

Pure modules take ``now`` as an argument; the crawler holds a ``Clock``, so tests can run expiry,
back-off, leases and delays on ``politecrawl.testing.FakeClock`` exactly and without sleeping.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Protocol


class Clock(Protocol):
    """Aware UTC wall time, a monotonic counter, and a way to wait (and, optionally, a way to
    wait that an event cuts short: ``wait(event, seconds)``, see ``wait_for_event``)."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        ...

    def monotonic(self) -> float:
        """Seconds from an arbitrary start, never going back."""
        ...

    def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` (returns at once for zero or less)."""
        ...


def wait_for_event(clock: Clock, event: threading.Event, seconds: float) -> bool:
    """Wait ``seconds`` on ``clock``, or less if ``event`` is set meanwhile; whether it is set.

    Through the clock's own ``wait(event, seconds)`` when it has one (``SystemClock``,
    ``FakeClock``); a clock with only ``sleep`` sleeps the whole time."""
    own: Callable[[threading.Event, float], bool] | None = getattr(clock, "wait", None)
    if own is not None:
        return own(event, seconds)
    clock.sleep(seconds)
    return event.is_set()


class SystemClock:
    """The machine's clock."""

    def now(self) -> datetime:
        """The current time, aware, in UTC."""
        return datetime.now(UTC)

    def monotonic(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        """``time.sleep`` for positive durations."""
        if seconds > 0:
            time.sleep(seconds)

    def wait(self, event: threading.Event, seconds: float) -> bool:
        """``event.wait(seconds)``."""
        return event.wait(seconds) if seconds > 0 else event.is_set()
