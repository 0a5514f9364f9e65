"""The deadline thread of the fetcher's connections (``connect._Watchdog``) [C7].

One thread shuts sockets down at their deadlines; a request registers its socket and cancels
it when answered. It must wake for a deadline earlier than any it sleeps towards, and need not
wake for a later one (a wake-up a request was a thread switch on every page).
"""

from __future__ import annotations

import select
import socket
import threading
import time

from politecrawl.fetch.connect import _Watchdog


def _was_shut(peer: socket.socket, wait: float) -> bool:
    """True when ``peer``'s other end was shut down within ``wait`` seconds (it reads EOF)."""
    readable, _, _ = select.select([peer], [], [], wait)
    return bool(readable) and peer.recv(1) == b""


def test_c7_an_earlier_deadline_is_kept_though_the_thread_sleeps_towards_a_later_one():
    watchdog = _Watchdog()
    late, late_peer = socket.socketpair()
    early, early_peer = socket.socketpair()
    with late, late_peer, early, early_peer:
        watchdog.watch(time.monotonic() + 60, late)
        time.sleep(0.1)  # the thread is asleep until the 60 s deadline
        watchdog.watch(time.monotonic() + 0.2, early)
        assert _was_shut(early_peer, 30)
        assert not _was_shut(late_peer, 0)


def test_c7_later_deadlines_are_kept_in_order_and_cancelled_ones_are_not_shut():
    watchdog = _Watchdog()
    pairs = [socket.socketpair() for _ in range(3)]
    try:
        start = time.monotonic()
        tokens = [watchdog.watch(start + 0.2 * (i + 1), pairs[i][0]) for i in range(3)]
        watchdog.cancel(tokens[1])
        assert _was_shut(pairs[0][1], 30)
        assert _was_shut(pairs[2][1], 30)
        assert not _was_shut(pairs[1][1], 0)  # its deadline passed before the third's
    finally:
        for pair in pairs:
            for sock in pair:
                sock.close()


class _CountingCondition(threading.Condition):
    def __init__(self) -> None:
        super().__init__()
        self.notified = 0

    def notify(self, n: int = 1) -> None:
        self.notified += 1
        super().notify(n)


def test_c7_a_request_whose_deadline_is_not_the_first_does_not_wake_the_thread():
    watchdog = _Watchdog()
    watchdog._condition = counting = _CountingCondition()
    sockets = [socket.socketpair() for _ in range(20)]
    tokens = []
    try:
        start = time.monotonic()
        # None cancelled until the end: a cancelled first deadline may be dropped by the thread
        # at any moment, and the next request's deadline is then rightly the new first one.
        tokens = [watchdog.watch(start + 60 + i, sock) for i, (sock, _) in enumerate(sockets)]
        assert counting.notified == 1  # the first deadline only
    finally:
        for token in tokens:
            watchdog.cancel(token)
        for pair in sockets:
            for sock in pair:
                sock.close()
