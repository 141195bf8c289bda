"""``python -m playtest``: the same command line as the ``playtest`` script."""

from __future__ import annotations

import sys

from playtest.cli import main

if __name__ == "__main__":
    sys.exit(main())
