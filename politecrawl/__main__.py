"""``python -m politecrawl``: the command line."""

import sys

from politecrawl.cli import console

sys.exit(console())
