"""How many of a process's worker threads work at once: all of them while the process waits,
fewer when it is bound by its own CPU.

A process's threads share one interpreter lock. While responses are slow (real sites: tens to
hundreds of milliseconds) every thread is needed to keep hosts busy. When responses come back
faster than a page is read and recorded (a site on the local network at delay 0), the process
is bound by its CPU, and threads beyond one only contend: a thread holding the crawl database's
write lock waits for the interpreter lock while another parses, and every writer of every
process waits behind it.

``ActiveWorkers`` lets ``limit`` threads hold a lease at once, and moves ``limit`` between 1
and the configured count once a ``window``, from the process's CPU time over the window's wall
time: above ``BUSY`` the limit halves, below ``IDLE`` it doubles. A thread over the limit
records its page and waits, holding no lease; waiting threads look again every window, so a
thread stuck on a page that hangs (the process then idle) holds up the others for about a
window. Real time and CPU time, not the crawl's clock: this is about the machine, and a
``FakeClock`` has no CPU.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["BUSY", "IDLE", "ActiveWorkers"]

BUSY = 0.85
"""CPU time over wall time above which the process is bound by its CPU: fewer threads."""
IDLE = 0.6
"""CPU time over wall time below which the process waits: more threads."""
_LOOK_AGAIN_SECONDS = 0.25


class ActiveWorkers:
    """The threads of a process that may hold a lease now: between 1 and ``most``."""

    def __init__(
        self,
        most: int,
        *,
        window: float = 0.5,
        wall: Callable[[], float] = time.monotonic,
        cpu: Callable[[], float] = time.process_time,
    ) -> None:
        self.most = most
        self.limit = most
        self._window = window
        self._wall = wall
        self._cpu = cpu
        self._condition = threading.Condition()
        self._active = 0
        self._window_wall = wall()
        self._window_cpu = cpu()

    def enter(self, over: Callable[[], bool]) -> bool:
        """Wait until this thread may work; False when ``over()`` (the run is over) first."""
        with self._condition:
            while self._active >= self.limit:
                if over():
                    return False
                self._condition.wait(min(self._window, _LOOK_AGAIN_SECONDS))
                self._adjust()
            self._active += 1
        return True

    def leave(self) -> None:
        """This thread stops working (it holds no lease)."""
        with self._condition:
            self._active -= 1
            self._condition.notify()

    def wake(self) -> None:
        """Threads standing by look again now (the run may be over)."""
        with self._condition:
            self._condition.notify_all()

    def over_limit(self) -> bool:
        """True when this working thread should record its page and leave."""
        with self._condition:
            self._adjust()
            return self._active > self.limit

    def _adjust(self) -> None:
        now = self._wall()
        elapsed = now - self._window_wall
        if elapsed < self._window:
            return
        cpu = self._cpu()
        busy = (cpu - self._window_cpu) / elapsed
        if busy > BUSY:
            self.limit = max(1, self.limit // 2)
        elif busy < IDLE and self.limit < self.most:
            self.limit = min(self.most, self.limit * 2)
            self._condition.notify_all()
        self._window_wall, self._window_cpu = now, cpu
