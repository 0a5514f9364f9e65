"""Test-wide guards: no socket may reach beyond the loopback network (STYLE 12)."""

from __future__ import annotations

import ipaddress
import socket

import pytest
from tests.site.fixtures import web  # noqa: F401 (the end-to-end test web, for every test)

_real_connect = socket.socket.connect
_real_connect_ex = socket.socket.connect_ex


def _check_loopback(address: object) -> None:
    if isinstance(address, tuple) and address:
        host = str(address[0])
        try:
            is_loopback = ipaddress.ip_address(host).is_loopback
        except ValueError:
            is_loopback = host == "localhost"
        if not is_loopback:
            raise OSError(f"tests may only connect to loopback addresses, not {host!r}")


def _guarded_connect(self: socket.socket, address: object) -> None:
    _check_loopback(address)
    _real_connect(self, address)  # type: ignore[arg-type]


def _guarded_connect_ex(self: socket.socket, address: object) -> int:
    _check_loopback(address)
    return _real_connect_ex(self, address)  # type: ignore[arg-type]


@pytest.fixture(autouse=True, scope="session")
def _loopback_only():
    patch = pytest.MonkeyPatch()
    patch.setattr(socket.socket, "connect", _guarded_connect)
    patch.setattr(socket.socket, "connect_ex", _guarded_connect_ex)
    yield
    patch.undo()
