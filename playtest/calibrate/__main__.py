"""``python -m playtest.calibrate --game G``: see :mod:`playtest.calibrate`."""

import sys

from playtest.calibrate.commands import main

sys.exit(main())
