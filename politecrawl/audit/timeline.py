"""Requests over time per crawler, in a fixed number of buckets [G3, the HTML report's picture].

The log's span is not known until its end, and memory must not grow with it: every crawler
counts its requests in at most ``BUCKETS`` buckets of one shared width; when a request falls
past the last bucket, the width doubles and neighbouring buckets merge, for every crawler.
"""

from __future__ import annotations

BUCKETS = 120
_FIRST_WIDTH_SECONDS = 1.0  # doubled as the log goes on: a short log gets fine buckets


class Timeline:
    """Shared bucket width and start; each crawler's counts are lists kept here by name."""

    def __init__(self) -> None:
        self.start: float | None = None
        self.width = _FIRST_WIDTH_SECONDS
        self.counts: dict[str, list[int]] = {}
        self.forbidden: dict[str, list[int]] = {}

    def add(self, name: str, time: float, *, forbidden: bool) -> None:
        """Count one request of crawler ``name`` at ``time`` (seconds since the epoch)."""
        if self.start is None:
            self.start = time - time % self.width
        index = int((time - self.start) // self.width)
        while index >= BUCKETS:
            self._double()
            index = int((time - self.start) // self.width)
        index = max(index, 0)  # a line a little out of order, before the first
        counts = self.counts.get(name)
        if counts is None:
            counts = self.counts[name] = [0] * BUCKETS
            self.forbidden[name] = [0] * BUCKETS
        counts[index] += 1
        if forbidden:
            self.forbidden[name][index] += 1

    def _double(self) -> None:
        self.width *= 2
        for series in (*self.counts.values(), *self.forbidden.values()):
            merged = [series[i] + series[i + 1] for i in range(0, BUCKETS, 2)]
            series[:] = merged + [0] * (BUCKETS - len(merged))

    def series(self, name: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """A crawler's request counts and forbidden counts, bucket by bucket, trimmed to the
        buckets the log reached."""
        used = self._used()
        counts = self.counts.get(name, [0] * BUCKETS)
        forbidden = self.forbidden.get(name, [0] * BUCKETS)
        return tuple(counts[:used]), tuple(forbidden[:used])

    def _used(self) -> int:
        last = 0
        for series in self.counts.values():
            for index in range(BUCKETS - 1, last - 1, -1):
                if series[index]:
                    last = index
                    break
        return last + 1
