"""The ``web`` fixture: the whole test web served on loopback for one test, then stopped.

Function-scoped on purpose: each test gets fresh servers, an empty log, and fresh state (the
robots.txt that fails once, mutations). Building is cached, so a fixture costs milliseconds.
"""

from __future__ import annotations

import pytest

from .build import build_site
from .web import serve


@pytest.fixture
def web():
    """A ``RunningWeb`` serving ``build_site()``; see tests/site/web.py."""
    with serve(build_site()) as running:
        yield running
