"""The UX design plan: report JSON (telemetry-format.md), Markdown and offline HTML.

>>> from analytics.data import StudyData, empty_quiz, empty_scores
>>> report = build_report(StudyData.empty("s1"), empty_scores(), empty_quiz())
>>> sorted(report)
['completed', 'confusion_points', 'experiments', 'game', 'hardest_facts', 'participants', 'severity_definition', 'study_id', 'what_works']
>>> from analytics.game_analytics import GENERIC
>>> sorted(build_report(StudyData.empty("s1"), empty_scores(), empty_quiz(), game=GENERIC))
['completed', 'confusion_points', 'experiments', 'game', 'participants', 'severity_definition', 'study_id', 'what_works']
>>> "&lt;script&gt;" in report_html({**report, "study_id": "<script>"}, {})
True
"""

from __future__ import annotations

import html
import math
import re
from typing import Any

import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio

from analytics import confusion, experiments, figures, funnel, questionnaires, severity
from analytics.data import DEFAULT_GAME, StudyData, validate_study
from analytics.figures import FILE_TEMPLATE
from analytics.game_analytics import (
    GENERIC,
    GameAnalytics,
    ReportSection,
    for_study,
    game_of,
    load,
)

#: Characters that make inline Markdown markup (emphasis, code, links, tables, strike).
#: Line-start markup (``#``, ``-``, ``1.``) cannot occur: text is flattened to one line
#: and always follows a prefix; ``<``/``>``/``&`` are HTML-escaped. An underscore inside
#: a word (``empty_priority``) cannot start emphasis, so it stays as it is.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")


def build_report(data: StudyData, scores: pd.DataFrame, quiz: pd.DataFrame,
                 seed: int = 0, top_facts: int = 10, min_attempts: int = 5,
                 game: GameAnalytics | None = None) -> dict[str, Any]:
    """The report JSON of telemetry-format.md.

    ``game``: the name of the game played; its plug-in (``game``, default the study's:
    :func:`analytics.game_analytics.for_study`) adds its own keys (``sections``: e.g.
    ``hardest_facts`` for a game that has facts; ``top_facts`` rows each).
    ``participants``: consented participants; ``completed``: those with a ``done`` page;
    ``confusion_points``: ranked by severity (``severity_definition``), each with ``id,
    label, score, evidence, action, definition, interval``; ``what_works``: the themes
    of the answers to praise questions (see :func:`what_works`);
    ``hardest_facts``: ``fact, attempts, wrong_rate, median_ms, shrunk_rate, interval``
    (the rate shrunk toward the study's maths-error rate and its 95 % interval); ``experiments``: see
    :meth:`analytics.experiments.ExperimentResult.to_json`. JSON-safe (no NaN).
    Facts with fewer than ``min_attempts`` attempts are not ranked.
    """
    validate_study(data)
    plugin = game or for_study(data)
    consented = data.participants[data.participants["consented_at"].notna()]
    ids = set(consented["participant_id"].astype(str))
    done = experiments.completed_participants(data)
    report: dict[str, Any] = {
        "study_id": str(data.study.get("study_id", "")),
        # a game without analytics of its own is still named (its report is the core's)
        "game": game_of(data) if plugin is GENERIC else plugin.name,
        "participants": len(ids),
        "completed": len(ids & done),
        "confusion_points": [p.to_json() for p in confusion.confusion_points(
            data, min_attempts=min_attempts, game=plugin)],
        "severity_definition": severity.severity_definition(plugin.occasions),
        "what_works": what_works(data),
    }
    for section in plugin.sections:
        report[section.key] = section.rows(data, top_facts, min_attempts)
    report["experiments"] = [e.to_json() for e in experiments.analyze_experiments(
        data, scores, quiz, seed=seed)]
    return report


def report_game(report: dict[str, Any]) -> GameAnalytics:
    """The plug-in of the game a report names (``game``; the default game if absent)."""
    name = report.get("game")
    return load(name if isinstance(name, str) and name else DEFAULT_GAME)


def what_works(data: StudyData) -> list[dict[str, Any]]:
    """Praise from free text: per praise item × theme, answers and share (never
    confusion: see :func:`analytics.questionnaires.what_works`)."""
    table = questionnaires.what_works(data.responses, data.study.get("text_items"),
                                      data.study.get("text_polarity"),
                                      data.study.get("text_themes"))
    return [{"item": str(row["item"]), "theme": str(row["theme"]),
             "answers": int(row["answers"]), "share": round(float(row["share"]), 4)}
            for row in table.to_dict("records")]


_CORE_CHARTS = ("Funnel",)


def report_chart_names(report: dict[str, Any]) -> list[str]:
    """The names :func:`report_figures` gives its charts, without drawing them: the
    core's, the game's (:attr:`GameAnalytics.charts`), one per experiment.

    >>> report_chart_names({"game": "generic", "experiments": [{"key": "wording"}]})
    ['Funnel', 'Experiment wording']
    """
    return [*_CORE_CHARTS, *(chart.name for chart in report_game(report).charts
                             if chart.in_report),
            *(f"Experiment {experiment['key']}" for experiment in report.get("experiments", []))]


def report_figures(data: StudyData, report: dict[str, Any]) -> dict[str, go.Figure]:
    """The charts of the report, by name, in reading order (see :func:`report_chart_names`)."""
    charts: dict[str, go.Figure] = {
        "Funnel": figures.funnel_figure(funnel.funnel(data)),
    }
    for chart in report_game(report).charts:
        if chart.in_report:
            charts[chart.name] = chart.build(data)
    for experiment in report.get("experiments", []):
        charts[f"Experiment {experiment['key']}"] = figures.experiment_effect_figure(experiment)
    return charts


def escape_markdown(text: Any) -> str:
    """Plain text safe inside Markdown: HTML-escaped, markup characters backslashed,
    line breaks flattened (a hostile answer cannot start a heading, link or tag).

    >>> print(escape_markdown("[click](http://x) <script> *b*"))
    \\[click\\](http://x) &lt;script&gt; \\*b\\*
    """
    flat = " ".join(str(text).split())
    return _MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(flat, quote=False))


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.{digits}g}"
    return str(value)


def report_markdown(report: dict[str, Any],
                    figures: dict[str, go.Figure] | list[str] | None = None) -> str:
    """The UX design plan as Markdown (all strings from data are escaped)."""
    e = escape_markdown
    lines = [f"# UX design plan: study {e(report['study_id'])}", "",
             f"Participants: {report['participants']}, completed: {report['completed']}.",
             "", "## Confusion points (most severe first)", ""]
    if report.get("severity_definition"):
        lines += [e(report["severity_definition"]), ""]
    if not report["confusion_points"]:
        lines.append("No confusion point has enough evidence to be listed.")
    for rank, point in enumerate(report["confusion_points"], start=1):
        lines += [f"{rank}. **{e(point['label'])}**: severity {point['score']:.2f} "
                  f"(id {e(point['id'])})",
                  f"    - Evidence: {e(confusion.evidence_text(point))}",
                  f"    - Action: {e(point.get('action', ''))}"]
    if report.get("what_works"):
        lines += ["", "## What works (praise from free text)", ""]
        lines += [f"- {e(row['theme'])}: {row['answers']} of the answers to {e(row['item'])} "
                  f"({row['share']:.0%})" for row in report["what_works"]]
    for section in report_game(report).sections:
        lines += _section_markdown(section, report.get(section.key) or [])
    lines += ["", "## Experiments", ""]
    for experiment in report["experiments"]:
        lines += _experiment_markdown(experiment)
    if figures:
        lines += ["## Charts", "", "Interactive in the HTML report: "
                  + ", ".join(e(name) for name in figures) + "."]
    return "\n".join(lines) + "\n"


def _cell(column: Any, row: dict[str, Any]) -> str:
    value = row.get(column.key)
    return "–" if value is None else column.show(value)


def _section_markdown(section: ReportSection, rows: list[dict[str, Any]]) -> list[str]:
    """A game's report section as a Markdown table (cells escaped)."""
    e = escape_markdown
    lines = ["", f"## {e(section.title)}", ""]
    if not rows and section.empty:
        return [*lines, e(section.empty)]
    lines += ["| " + " | ".join(e(c.header) for c in section.columns) + " |",
              "|" + "---|" * len(section.columns)]
    lines += ["| " + " | ".join(e(_cell(c, row)) for c in section.columns) + " |"
              for row in rows]
    return lines


def _section_html(section: ReportSection, rows: list[dict[str, Any]]) -> list[str]:
    """A game's report section as an HTML table (cells escaped)."""
    x = html.escape
    parts = [f"<h2>{x(section.title)}</h2>"]
    if not rows and section.empty:
        return [*parts, f"<p>{x(section.empty)}</p>"]
    parts.append("<table><tr>" + "".join(f"<th>{x(c.header)}</th>" for c in section.columns)
                 + "</tr>")
    parts += ["<tr>" + "".join(f"<td>{x(_cell(c, row))}</td>" for c in section.columns)
              + "</tr>" for row in rows]
    parts.append("</table>")
    return parts


def _experiment_intro(experiment: dict[str, Any]) -> list[str]:
    """Plain-text lines under an experiment's heading (escape before use)."""
    counts = ", ".join(f"{name}: {n}" for name, n in (experiment.get("counts") or {}).items())
    lines = [str(experiment.get("summary") or experiment["verdict"])]
    if experiment.get("definition"):
        lines.append(f"Primary metric: {experiment.get('definition')}")
    lines.append(f"Testers per variant: {counts or '–'}; sample-ratio check p = "
                 f"{_fmt(experiment.get('srm_p'))} (below 0.001: the split is broken).")
    if experiment.get("method"):
        lines.append(f"Method: the verdict uses an {experiment['method']}, valid however "
                     "often you look; other metrics use fixed-sample tests with Holm's "
                     "correction.")
    lines += [str(note) for note in experiment.get("notes") or []]
    return lines


def _experiment_markdown(experiment: dict[str, Any]) -> list[str]:
    e = escape_markdown
    lines = [f"### {e(experiment['key'])}: {e(experiment['verdict'])}", ""]
    lines += [f"{e(line)}  " for line in _experiment_intro(experiment)]
    rows = experiments.readable_rows(experiment)
    if rows:
        header = list(rows[0])
        lines += ["", "| " + " | ".join(e(h) for h in header) + " |",
                  "|" + "---|" * len(header)]
        lines += ["| " + " | ".join(e(row.get(h, "")) for h in header) + " |" for row in rows]
    return [*lines, ""]


def _experiment_html(experiment: dict[str, Any]) -> list[str]:
    x = html.escape
    parts = [f"<h3>{x(str(experiment['key']))}: {x(str(experiment['verdict']))}</h3>"]
    parts += [f"<p>{x(line)}</p>" for line in _experiment_intro(experiment)]
    rows = experiments.readable_rows(experiment)
    if rows:
        header = list(rows[0])
        parts.append("<table><tr>" + "".join(f"<th>{x(h)}</th>" for h in header) + "</tr>")
        parts += ["<tr>" + "".join(f"<td>{x(row.get(h, ''))}</td>" for h in header)
                  + "</tr>" for row in rows]
        parts.append("</table>")
    return parts


def report_html(report: dict[str, Any], figures: dict[str, go.Figure] | None = None) -> str:
    """A self-contained HTML page: escaped text, tables, and the Plotly charts with
    plotly.js inlined once (the file works offline)."""
    x = html.escape
    parts = ["<!DOCTYPE html>", "<html lang=\"en\"><head><meta charset=\"utf-8\">",
             f"<title>UX design plan: {x(str(report['study_id']))}</title>",
             "<style>body{font-family:system-ui,sans-serif;max-width:70rem;margin:auto;"
             "padding:1rem}table{border-collapse:collapse}td,th{border:1px solid #999;"
             "padding:.2rem .5rem}</style></head><body>",
             f"<h1>UX design plan: study {x(str(report['study_id']))}</h1>",
             f"<p>Participants: {report['participants']}, completed: "
             f"{report['completed']}.</p>", "<h2>Confusion points</h2>",
             f"<p>{x(report.get('severity_definition', ''))}</p><ol>"]
    for point in report["confusion_points"]:
        parts.append(f"<li><strong>{x(point['label'])}</strong>: severity "
                     f"{point['score']:.2f} (id <code>{x(point['id'])}</code>)<br>Evidence: "
                     f"{x(confusion.evidence_text(point))}<br>Action: "
                     f"{x(point.get('action', ''))}</li>")
    parts.append("</ol>")
    if report.get("what_works"):
        parts.append("<h2>What works (praise from free text)</h2><ul>")
        parts += [f"<li>{x(row['theme'])}: {row['answers']} answers to {x(row['item'])} "
                  f"({row['share']:.0%})</li>" for row in report["what_works"]]
        parts.append("</ul>")
    for section in report_game(report).sections:
        parts += _section_html(section, report.get(section.key) or [])
    parts.append("<h2>Experiments</h2>")
    for experiment in report["experiments"]:
        parts += _experiment_html(experiment)
    first = True
    for name, fig in (figures or {}).items():
        parts.append(f"<h2>{x(name)}</h2>")
        # plotly.js goes inline with the first chart only: offline, and loaded once.
        spec = fig.to_plotly_json()
        spec["layout"] = {**spec.get("layout", {}), "template": FILE_TEMPLATE}
        parts.append(pio.to_html(spec, full_html=False, include_plotlyjs=first,
                                 validate=False))
        first = False
    parts.append("</body></html>")
    return "\n".join(parts)
