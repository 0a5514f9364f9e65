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
time (its share of a core). The limit halves when the share is above ``BUSY``, or above
``SHARED_BUSY`` while the machine's cores are all busy (``SATURATED``: the crawl's other
processes and the web server on the same cores; more threads would not get more CPU). It
doubles when the share is below ``IDLE``: the threads wait on the network, and more of them keep
more hosts busy. A thread over the limit records its page and waits, holding no lease; waiting
threads look again each quarter second, so a thread stuck on a page that hangs (the process then
idle) holds the others up for about a window. Real time and CPU time, not the crawl's clock:
this is about the machine, and a ``FakeClock`` has no CPU.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["BUSY", "IDLE", "SATURATED", "SHARED_BUSY", "ActiveWorkers", "MachineLoad"]

BUSY = 0.85
"""The process's share of a core above which it is bound by its CPU: fewer threads."""
SHARED_BUSY = 0.5
"""The share above which it is bound by its CPU when the machine has none to spare."""
SATURATED = 0.9
"""The machine's busy share of all its cores above which it has no CPU to spare."""
IDLE = 0.4
"""The share below which the process waits on the network: more threads."""
_LOOK_AGAIN_SECONDS = 0.25


class MachineLoad:
    """The share of all the machine's cores busy since the last call, from ``/proc/stat``
    (Linux); None where it cannot be read."""

    def __init__(self, stat: Path = Path("/proc/stat")) -> None:
        self._stat = stat
        self._last = self._times()

    def _times(self) -> tuple[int, int] | None:
        """(idle, total) jiffies of all cores since boot."""
        try:
            with self._stat.open("rb") as file:
                fields = [int(value) for value in file.readline().split()[1:]]
        except (OSError, ValueError):
            return None
        if len(fields) < 4:
            return None
        idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
        return idle, sum(fields[:8])  # guest time is counted in user time already

    def __call__(self) -> float | None:
        now, last = self._times(), self._last
        self._last = now
        if now is None or last is None or now[1] <= last[1]:
            return None
        return 1.0 - (now[0] - last[0]) / (now[1] - last[1])


class ActiveWorkers:
    """The threads of a process that may hold a lease now: between 1 and ``most``."""

    def __init__(
        self,
        most: int,
        *,
        window: float = 0.5,
        wall: Callable[[], float] = time.monotonic,
        cpu: Callable[[], float] = time.process_time,
        machine: Callable[[], float | None] | None = None,
    ) -> None:
        """``wall``, ``cpu``: the process's clocks; ``machine``: the machine's busy share
        since its last call (``MachineLoad`` by default)."""
        self.most = most
        self.limit = most
        self._window = window
        self._wall = wall
        self._cpu = cpu
        self._machine = MachineLoad() if machine is None else machine
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
        share = (cpu - self._window_cpu) / elapsed
        machine = self._machine()
        if share > BUSY or (share > SHARED_BUSY and machine is not None and machine > SATURATED):
            self.limit = max(1, self.limit // 2)
        elif share < IDLE and self.limit < self.most:
            self.limit = min(self.most, self.limit * 2)
            self._condition.notify_all()
        self._window_wall, self._window_cpu = now, cpu
