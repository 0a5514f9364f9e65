"""The command line: ``politecrawl run``, ``resume``, ``recrawl``, ``status``, ``report``,
``why``, ``robots``, ``db`` and ``demo`` (argparse).

``main`` builds the command tree (``options`` holds the crawl options); each command's module
is imported only when it runs: ``run`` (run, resume, recrawl, with ``progress``, the live
display), ``inspect`` (status, report, why, robots show, db upgrade), ``robots`` (robots
explain) and ``demo``. One line and exit status 2 for a user's mistake; ``--debug`` for the
traceback.
"""

from politecrawl.cli.main import console, main

__all__ = ["console", "main"]
