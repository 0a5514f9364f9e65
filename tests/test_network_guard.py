import socket

import pytest


def test_a_test_cannot_reach_beyond_loopback():
    with (
        socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock,
        pytest.raises(OSError, match="loopback"),
    ):
        sock.connect(("192.0.2.1", 80))  # TEST-NET-1: never routed; refused before sending
