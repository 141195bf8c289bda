"""``python -m surveys`` — see :mod:`surveys.cli`."""

from __future__ import annotations

import sys

from surveys.cli import main

if __name__ == "__main__":
    sys.exit(main())
