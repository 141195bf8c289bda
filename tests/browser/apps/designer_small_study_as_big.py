"""The lab's app in which a study of 5 testers counts as big (page_results), so a browser
test sees the dashboard's "as of" notice after new data without 2,000 testers."""

import runpy
from pathlib import Path

from playtest import page_results

page_results.BACKGROUND_FROM_TESTERS = 5
runpy.run_path(str(Path(__file__).resolve().parents[3] / "playtest" / "app.py"),
               run_name="__main__")
