"""What must hold for every valid exchange file (issue 22, item 1), checked end to end on
a real SQLite file: ``playtest import`` exits 0 and stores the file once (importing it
again adds nothing), ``playtest report`` writes its three files, every designer page
renders in AppTest, and the numbers agree:

- the counts the file implies are the ones shown: testers and completions in the plan,
  the funnel's steps on the Overview page, each arm's testers on the Experiments page
  and in the plan;
- every interval contains its estimate (experiment effects, confusion points' shrunk
  rates, the hardest facts, questionnaire means and pre/post changes);
- the Experiments page says the verdict the plan says, in the same sentence, and the Confusion page ranks the
  points the plan ranks.
"""

from __future__ import annotations

import math
import re
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from analytics.text_safety import markdown_literal
from playtest.display_words import step_words
from tests.app.designer_support import designer_page
from tests.generated.cli_runs import import_clean, report_files
from tests.generated.strategies import PAGES, write_file

DESIGNER_PAGES = ("overview", "confusion", "questionnaires", "experiments", "replay",
                  "balance", "report")
KINDS = ("study", "participant", "assignment", "event", "response")


@dataclass(frozen=True)
class Expected:
    """What a file's records say the pages must show."""

    study_id: str
    records: dict[str, int]  # record kind → lines of that kind
    participants: int  # all participant records
    consented: int
    completed: int
    reached: dict[str, int]  # funnel page step → testers who reached it
    arms: dict[str, dict[str, int]]  # experiment → variant → testers

    @classmethod
    def of(cls, records: list[dict[str, Any]]) -> Expected:
        kinds = Counter(str(r["record"]) for r in records)
        study = next(r for r in records if r["record"] == "study")
        consented = {r["participant_id"] for r in records
                     if r["record"] == "participant" and r["consented_at"] is not None}
        pages: dict[str, set[str]] = {page: set() for page in PAGES}
        for r in records:
            if r["record"] == "event" and r["type"] == "page":
                pages[r["props"]["page"]].add(r["participant_id"])
        arms = {str(e["key"]): {str(v): 0 for v in e["variants"]}
                for e in study["experiments"]}
        for r in records:
            if r["record"] == "assignment":
                arms[r["experiment"]][r["variant"]] += 1
        reached = {page: len(pages[page]) for page in ("pre_survey", "post_survey", "done")}
        reached["consent"] = kinds["participant"]
        games = Counter(r["participant_id"] for r in records
                        if r["record"] == "event" and r["type"] == "game_start")
        for k in range(1, max(games.values(), default=0) + 1):
            reached[f"game {k}"] = sum(1 for n in games.values() if n >= k)
        return cls(str(study["study_id"]), {k: kinds[k] for k in KINDS},
                   kinds["participant"], len(consented), len(pages["done"] & consented),
                   reached, arms)


def added_counts(summary: str) -> dict[str, int]:
    """``imported F: added 1 study, 3 participants, …`` → {kind: n}."""
    added = summary.split(": added ", 1)[1]
    counts = {}
    for number, word in re.findall(r"(\d+) (studies|study|participants?|assignments?|"
                                   r"events?|responses?)\b", added):
        kind = "study" if word.startswith("stud") else word.rstrip("s")
        counts[kind] = int(number)
    return counts


def check_file(records: list[dict[str, Any]], folder: Path, template: Path,
               monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Every check of the module docstring on one file (``folder``: a fresh folder;
    ``template``: a migrated empty SQLite file, copied for this file alone)."""
    database = folder / "playtest.sqlite"
    shutil.copyfile(template, database)
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{database}")
    monkeypatch.chdir(folder)
    expected = Expected.of(records)
    path = write_file(records, folder / "study.jsonl")

    first = import_clean(capsys, path)
    assert added_counts(first.out) == expected.records, first.out
    again = import_clean(capsys, path)
    assert set(added_counts(again.out).values()) == {0}, again.out

    report = report_files(capsys, expected.study_id, folder)
    assert report["participants"] == expected.consented
    assert report["completed"] == expected.completed
    assert {e["key"]: e["counts"] for e in report["experiments"]} == expected.arms
    check_intervals(report)

    pages = {page: designer_page(page, expected.study_id) for page in DESIGNER_PAGES}
    if expected.participants:
        check_overview(pages["overview"], expected)
        check_confusion(pages["confusion"], report)
        check_questionnaires(pages["questionnaires"])
    check_experiments(pages["experiments"], report, expected)


def _finite(*values: Any) -> bool:
    return all(isinstance(v, int | float) and math.isfinite(v) for v in values)


def contains(low: Any, estimate: Any, high: Any, what: str) -> None:
    """``low ≤ estimate ≤ high`` when all three are numbers (a float's last bit aside)."""
    if not _finite(low, estimate, high):
        return
    slack = 1e-9 * max(1.0, abs(estimate))
    assert low - slack <= estimate <= high + slack, f"{what}: {estimate} not in [{low}, {high}]"


def check_intervals(report: dict[str, Any]) -> None:
    """Every interval of the plan contains its estimate."""
    for experiment in report["experiments"]:
        for metric in experiment["metrics"]:
            low, high = metric["ci95"]
            contains(low, metric["effect"], high,
                     f"{experiment['key']} {metric['metric']} effect")
    for point in report["confusion_points"]:
        low, high = point.get("interval") or (None, None)
        contains(low, point["evidence"].get("shrunk_rate"), high, f"{point['id']} rate")
    for fact in report.get("hardest_facts", []):
        low, high = fact.get("interval") or (None, None)
        contains(low, fact.get("shrunk_rate"), high, f"fact {fact['fact']}")


def _frames(at: AppTest) -> list[pd.DataFrame]:
    return [element.value for element in at.dataframe]


def _frame_with(at: AppTest, column: str) -> pd.DataFrame | None:
    return next((frame for frame in _frames(at) if column in frame.columns), None)


def check_overview(at: AppTest, expected: Expected) -> None:
    """The funnel counts the testers the file has at each step."""
    table = _frame_with(at, "reached")
    assert table is not None, "the Overview page shows no funnel table"
    reached = dict(zip(table["step"], table["reached"], strict=True))
    for step, count in expected.reached.items():
        # a game beyond the study's games per tester is an optional step
        shown = reached.get(step_words(step), reached.get(step_words(f"{step} (optional)"), 0))
        assert shown == count, f"funnel step {step}: {shown} shown, {count} in the file"


def check_confusion(at: AppTest, report: dict[str, Any]) -> None:
    """The Confusion page ranks the plan's points, in the plan's order."""
    table = _frame_with(at, "Confusion point")
    shown = [] if table is None else list(table["Confusion point"])
    assert shown == [p["label"] for p in report["confusion_points"]]


def check_questionnaires(at: AppTest) -> None:
    """Every mean and every pre/post change lies in its interval."""
    for frame in _frames(at):
        for estimate, low, high in (("mean", "ci_low", "ci_high"),
                                    ("change", "ci95_low", "ci95_high")):
            if {estimate, low, high} <= set(frame.columns):
                for row in frame[[estimate, low, high]].itertuples(index=False):
                    contains(row[1], row[0], row[2], f"questionnaire {estimate}")


def check_experiments(at: AppTest, report: dict[str, Any], expected: Expected) -> None:
    """Each arm's testers and each verdict as the plan says."""
    if not report["experiments"]:
        return
    if not expected.participants:
        return  # the page says no tester has taken part yet
    shown_counts = {m.label.removeprefix("Testers with "): int(m.value)
                    for m in at.metric if m.label.startswith("Testers with ")}
    for experiment in report["experiments"]:
        for variant, count in experiment["counts"].items():
            # a label is Markdown: the name as the page escapes it
            assert shown_counts.get(markdown_literal(variant)) == count, (variant, shown_counts)
    boxes = [str(node.value) for node in at.main  # the verdicts, in the page's order
             if node.type in ("success", "info", "warning") and _verdict_box(str(node.value))]
    # the plan's sentence, its headline in bold (variant names and texts escaped)
    assert [text.split("**")[1] for text in boxes] == [
        markdown_literal(e["headline"]) for e in report["experiments"]]
    assert [text.replace("**", "", 2) for text in boxes] == [
        markdown_literal(e["summary"]) for e in report["experiments"]]
    # and the headline says the report's verdict
    for experiment in report["experiments"]:
        assert _says(experiment["headline"], experiment["verdict"]), experiment


def _verdict_box(text: str) -> bool:
    """Whether a box is an experiment's verdict: it opens with its headline in bold
    (:mod:`analytics.verdicts`)."""
    return text.startswith("**")


def _says(headline: str, verdict: str) -> bool:
    """Whether a verdict's headline says ``verdict`` (the report's word for it): a
    variant better, or better by less than is worth acting on; no difference; too few."""
    if verdict.endswith(" better"):
        return headline in (f"{verdict.removesuffix(' better')} is better",
                            "No change worth acting on")
    if verdict == "no difference":
        return headline == "No difference"
    return headline == "Too few testers yet"
