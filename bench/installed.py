"""Start-up as users get it: politecrawl's modules compiled to bytecode before a timed run.

pip compiles every module of a package it installs (Scrapy's, LinkChecker's), so their commands
start from bytecode. An editable install of politecrawl is compiled only as it is imported, and
not at all where ``PYTHONDONTWRITEBYTECODE`` is set (this workplace sets it): every politecrawl
process of a benchmark would pay about 0.2 s compiling that no installed copy pays.
"""

from __future__ import annotations

import compileall
from pathlib import Path

import politecrawl


def compile_politecrawl() -> None:
    """Write the bytecode of every politecrawl module (``__pycache__``, ignored by git)."""
    compileall.compile_dir(Path(politecrawl.__file__).parent, quiet=1)
