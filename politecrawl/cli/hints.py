"""The commands the command line suggests (``politecrawl resume --db crawl.db`` continues),
written so that they run as printed.

After ``make demo`` only ``.venv/bin/politecrawl`` exists, and a test runs ``python -m
politecrawl``: a hint that says ``politecrawl`` then names a command the shell cannot find,
or another installation's. ``command`` names the running program the way it can be typed here:
``politecrawl`` when that is what ``PATH`` finds, else its script's path, else ``python -m
politecrawl`` with the interpreter that runs it.
"""

from __future__ import annotations

import shlex
import shutil
import sys
from pathlib import Path

PROGRAM = "politecrawl"


def command(*words: str) -> str:
    """``politecrawl`` and ``words`` as a line for a shell, ``politecrawl`` spelt as it can be
    run here (``program``); each word quoted as the shell needs."""
    return " ".join([program(), *(shlex.quote(word) for word in words)])


def program(argv0: str | None = None, *, path: str | None = None) -> str:
    """How to run this politecrawl: ``politecrawl`` when ``PATH`` (or ``path``) finds this one,
    else the path of its script (the one running, or the one beside this interpreter; relative
    to the working directory when under it), else ``python -m politecrawl`` with this
    interpreter (``argv0``: ``sys.argv[0]``)."""
    argv0 = sys.argv[0] if argv0 is None else argv0
    found = shutil.which(PROGRAM, path=path)
    script = Path(argv0)
    if script.name != "__main__.py" and script.is_file():  # the console script
        if found is not None and _same_file(found, script):
            return PROGRAM
        return shlex.quote(_shown(script))
    # python -m politecrawl: the script beside this interpreter is this politecrawl
    python = Path(sys.executable)
    if found is not None and Path(found).absolute().parent == python.parent:
        return PROGRAM
    if (python.parent / PROGRAM).is_file():
        return shlex.quote(_shown(python.parent / PROGRAM))
    on_path = shutil.which(python.name, path=path)
    # Not resolved: a virtual environment's python is a link to the system's, which lacks
    # the environment's packages.
    interpreter = python.name if on_path is not None and Path(on_path) == python else _shown(python)
    return f"{shlex.quote(interpreter)} -m {PROGRAM}"


def _same_file(found: str, script: Path) -> bool:
    try:
        return Path(found).samefile(script)
    except OSError:
        return False


def _shown(path: Path) -> str:
    """``path`` as typed here: relative to the working directory when under it and that is not
    ``/`` (with a slash, so that the shell does not look it up in ``PATH``)."""
    absolute = path.absolute()  # not resolved: a link is shown as the link
    here = Path.cwd()
    if here == Path(here.anchor):
        return str(absolute)
    try:
        relative = absolute.relative_to(here)
    except ValueError:
        return str(absolute)
    shown = str(relative)
    return shown if "/" in shown else f"./{shown}"
