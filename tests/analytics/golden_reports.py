"""Fixed studies whose report JSON is kept as golden files (tests/analytics/golden/).

The golden files were written by the analytics code *before* the game plug-ins
(``python -m tests.analytics.golden_reports``, run once at that commit); the tests
compare today's report with them, apart from keys added since (``game``). They were
written again on purpose where a definition changed, and only there (every other number
is the same): message points per wording (``message:<key>@<variant>``) against the
testers' turns that do not follow the message, not the message itself (issue 22, item
3); the definitions of the turn after a message, measured where the wait happens (item
7: the numbers stayed); survey points named by their question's text; and experiment
verdicts in plain words (issue 23, item 7): each experiment gained ``headline`` and
``shows`` (what each variant shows testers) and its ``summary`` reads as
:mod:`analytics.verdicts` words it, every number, interval and verdict as it was.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from analytics import calibrate_confusion, planted
from analytics.data import empty_quiz, empty_scores
from analytics.report import build_report, report_chart_names

GOLDEN = Path(__file__).parent / "golden"
#: Keys the report gained with the game plug-ins, and since (not in the golden files).
NEW_KEYS = ("game", "learning", "follow_ups")


def confusion_report() -> dict[str, Any]:
    """The planted confusion study (calibrate_confusion's error model), 40 testers."""
    data = calibrate_confusion.planted_study(testers=40, seed=11)
    return build_report(data, empty_scores(), empty_quiz())


def experiment_report() -> dict[str, Any]:
    """The planted message-wording experiment with a large effect, 60 testers."""
    truth = planted.PlantedTruth(response_ratio=0.6, slip_after_b=0.02)
    data, scores = planted.planted_study(truth, testers=60, seed=5)
    return build_report(data, scores, empty_quiz(), seed=3)


def demo_report(database: Path) -> dict[str, Any]:
    """The demo study: 16 simulated testers (seed 4) in a fresh SQLite file."""
    from playtest import demo
    from playtest.storage.db import make_engine, upgrade
    from playtest.study_data import load_bundle
    from playtest.survey_items import annotate

    engine = make_engine(f"sqlite:///{database}")
    upgrade(engine)
    demo.generate(engine, testers=16, seed=4, workers=1,
                  now=datetime(2026, 3, 1, 12, 0, tzinfo=UTC))
    study = demo.ensure_demo_study(engine)
    bundle = load_bundle(engine, study.study_id)
    annotate(bundle.data)
    report = build_report(bundle.data, bundle.scores, bundle.quiz)
    engine.dispose()
    return report


def normalised(report: dict[str, Any]) -> dict[str, Any]:
    """The report as JSON text would hold it, without the keys added since the golden."""
    kept = {key: value for key, value in report.items() if key not in NEW_KEYS}
    result: dict[str, Any] = json.loads(json.dumps(kept))
    result["chart_names"] = report_chart_names(report)
    return result


def main(argv: list[str]) -> int:
    import tempfile

    GOLDEN.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        reports = {"confusion": confusion_report(), "experiment": experiment_report(),
                   "demo": demo_report(Path(folder) / "demo.sqlite")}
    for name, report in reports.items():
        path = GOLDEN / f"report_{name}.json"
        path.write_text(json.dumps(normalised(report), indent=1, sort_keys=True) + "\n",
                        encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
