"""``python -m politecrawl``: the command line."""

import sys

from politecrawl.cli import main

sys.exit(main())
