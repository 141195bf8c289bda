"""The UX design plan comes from Jinja2 templates; data is never markup or template code."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from pathlib import Path

from analytics import report
from analytics.synth import synthesize_scores_and_quiz, synthesize_study

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<script>alert(1)</script> [x](javascript:alert(1)) {{ 7*7 }} {% raw %} & \"'"


def _hostile_report() -> dict:
    data = synthesize_study(12, seed=5)
    scores, quiz = synthesize_scores_and_quiz(data, seed=5)
    built = json.loads(json.dumps(report.build_report(data, scores, quiz)))
    assert built["confusion_points"] and built["experiments"] and built["hardest_facts"]
    built["study_id"] = HOSTILE
    built["severity_definition"] = HOSTILE
    built["what_works"] = [{"theme": HOSTILE, "answers": 2, "item": HOSTILE, "share": 0.5}]
    for point in built["confusion_points"]:
        point.update(label=HOSTILE, action=HOSTILE)
    for fact in built["hardest_facts"]:
        fact["fact"] = HOSTILE
    for experiment in built["experiments"]:
        experiment.update(key=HOSTILE, verdict=HOSTILE, summary=HOSTILE, notes=[HOSTILE])
    return built


def test_a_hostile_string_is_escaped_in_the_html_plan() -> None:
    built = _hostile_report()
    page = report.report_html(built, {})
    assert "<script>alert" not in page and "<script" not in page  # no charts: no script at all
    escaped = "&lt;script&gt;alert(1)&lt;/script&gt;"
    # every place the string went shows it as text, quotes and ampersand escaped too
    places = 5 + 2 * len(built["confusion_points"]) + len(built["hardest_facts"])
    assert page.count(escaped) >= places
    assert "&amp; &#34;&#39;" in page
    assert "{{ 7*7 }}" in page and "49" not in page.split("<h2>Hardest facts")[0]
    assert "{% raw %}" in page  # printed, not run as a template tag


def test_a_hostile_string_is_escaped_in_the_markdown_plan() -> None:
    built = _hostile_report()
    text = report.report_markdown(built, [HOSTILE])
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert re.search(r"(?<!\\)\]\(", text) is None  # no link can be formed
    assert "\\[x\\](javascript:alert(1))" in text
    assert "{{ 7\\*7 }} {% raw %}" in text  # data is not template code
    assert text.splitlines()[0] == f"# UX design plan: study {report.escape_markdown(HOSTILE)}"


def test_the_templates_ship_in_the_wheel() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["analytics"]
    for template in report.TEMPLATES_DIR.glob("*.j2"):
        rel = f"templates/{template.name}"
        assert any(fnmatch.fnmatch(rel, pattern) for pattern in patterns), rel
    assert {p.name for p in report.TEMPLATES_DIR.glob("*.j2")} == {"plan.md.j2", "plan.html.j2"}
