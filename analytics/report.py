"""The UX design plan: report JSON (telemetry-format.md), Markdown and offline HTML.

>>> from analytics.data import StudyData, empty_quiz, empty_scores
>>> report = build_report(StudyData.empty("s1"), empty_scores(), empty_quiz())
>>> sorted(report)
['completed', 'confusion_points', 'experiments', 'follow_ups', 'game', 'hardest_facts', 'learning', 'participants', 'severity_definition', 'study_id', 'what_works']
>>> from analytics.game_analytics import GENERIC
>>> sorted(build_report(StudyData.empty("s1"), empty_scores(), empty_quiz(), game=GENERIC))
['completed', 'confusion_points', 'experiments', 'follow_ups', 'game', 'learning', 'participants', 'severity_definition', 'study_id', 'what_works']
>>> "&lt;script&gt;" in report_html({**report, "study_id": "<script>"}, {})
True
"""

from __future__ import annotations

import html
import json
import math
import re
from pathlib import Path
from typing import Any, Final

import jinja2
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from markupsafe import Markup

from analytics import (
    confusion,
    experiments,
    figures,
    funnel,
    learning_view,
    questionnaires,
    severity,
)
from analytics.data import UNNAMED_GAME, StudyData, validate_study
from analytics.did_it_work import DEFINITIONS as DID_IT_WORK_DEFINITIONS
from analytics.figures import FILE_TEMPLATE
from analytics.follow_ups import DEFINITIONS as FOLLOW_UP_DEFINITIONS
from analytics.follow_ups import proposed_follow_ups, trouble_rate_text
from analytics.game_analytics import (
    GENERIC,
    GameAnalytics,
    for_study,
    game_of,
    load,
    turn_definition,
)
from analytics.metrics import PER_TURN_METRICS, completed_participants
from analytics.text_safety import break_bare_links, without_direction_controls
from analytics.verdicts import verdict_text

#: Characters that make inline Markdown markup (emphasis, code, links, tables, strike).
#: Line-start markup (``#``, ``-``, ``1.``) cannot occur: text is flattened to one line
#: and always follows a prefix; ``<``/``>``/``&`` are HTML-escaped. An underscore inside
#: a word (``empty_priority``) cannot start emphasis, so it stays as it is.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*\[\]|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")


def build_report(data: StudyData, scores: pd.DataFrame, quiz: pd.DataFrame,
                 seed: int = 0, top_facts: int = 10, min_attempts: int = 5,
                 game: GameAnalytics | None = None, *,
                 points: list[confusion.ConfusionPoint] | None = None,
                 experiment_results: list[experiments.ExperimentResult] | None = None,
                 ) -> dict[str, Any]:
    """The report JSON of telemetry-format.md.

    ``game``: the name of the game played; its plug-in (``game``, default the study's:
    :func:`analytics.game_analytics.for_study`) adds its own keys (``sections``: e.g.
    ``hardest_facts`` for a game that has facts; ``top_facts`` rows each).
    ``participants``: consented participants; ``completed``: those who reached the
    thank-you page (:func:`analytics.metrics.completed_participants`: the one
    definition);
    ``confusion_points``: ranked by severity (``severity_definition``), each with ``id,
    label, score, evidence, action, definition, interval``; ``what_works``: the themes
    of the answers to praise questions (see :func:`what_works`); ``follow_ups``: the
    follow-up experiment of each listed point a remedy of the game fits
    (:meth:`analytics.follow_ups.ProposedFollowUp.to_json`);
    ``hardest_facts``: ``fact, attempts, wrong_rate, median_ms, shrunk_rate, interval``
    (the rate shrunk toward the study's maths-error rate and its 95 % interval); ``experiments``: see
    :meth:`analytics.experiments.ExperimentResult.to_json`. JSON-safe (no NaN).
    Facts with fewer than ``min_attempts`` attempts are not ranked.
    ``points`` and ``experiment_results``: :func:`analytics.confusion.confusion_points`
    (the study's game) and :func:`analytics.experiments.analyze_experiments` (``seed``)
    of this data, when already computed (the dashboard's pages): used as they are.
    """
    validate_study(data)
    plugin = game or for_study(data)
    consented = data.participants[data.participants["consented_at"].notna()]
    ids = set(consented["participant_id"].astype(str))
    done = completed_participants(data)
    ranked = points if points is not None else confusion.confusion_points(
        data, min_attempts=min_attempts, game=plugin)
    report: dict[str, Any] = {
        "study_id": str(data.study.get("study_id", "")),
        # a game without analytics of its own is still named (its report is the core's)
        "game": game_of(data) if plugin is GENERIC else plugin.name,
        "participants": len(ids),
        "completed": len(ids & done),
        "confusion_points": [p.to_json() for p in ranked],
        "severity_definition": severity.severity_definition(plugin.occasions),
        "what_works": what_works(data),
        "follow_ups": [f.to_json() for f in proposed_follow_ups(data, plugin, ranked)],
    }
    for section in plugin.sections:
        report[section.key] = section.rows(data, top_facts, min_attempts)
    report["learning"] = learning_view.report_section(learning_view.learning_view(
        data, quiz, plugin.title if plugin is not GENERIC else report["game"],
        plugin.fact_attempts, plugin.reason_occasions))
    report["experiments"] = [e.to_json() for e in (
        experiment_results if experiment_results is not None
        else experiments.analyze_experiments(data, scores, quiz, seed=seed))]
    return report


def report_game(report: dict[str, Any]) -> GameAnalytics:
    """The plug-in of the game a report names (``game``; absent: the exchange format's
    :data:`analytics.data.UNNAMED_GAME`)."""
    name = report.get("game")
    return load(name if isinstance(name, str) and name else UNNAMED_GAME)


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
    game_charts = {chart.name: chart.build(data) for chart in report_game(report).charts
                   if chart.in_report}
    return report_figures_of(report, funnel.funnel(data), game_charts)


def report_figures_of(report: dict[str, Any], funnel_table: pd.DataFrame,
                      game_charts: dict[str, go.Figure]) -> dict[str, go.Figure]:
    """:func:`report_figures` from what they are drawn from: the study's funnel table
    (:func:`analytics.funnel.funnel`) and its game's charts by name (a superset will
    do). Raises KeyError if a game chart the report shows is not in ``game_charts``."""
    charts: dict[str, go.Figure] = {
        "Funnel": figures.funnel_figure(funnel_table),
    }
    for chart in report_game(report).charts:
        if chart.in_report:
            charts[chart.name] = game_charts[chart.name]
    for experiment in report.get("experiments", []):
        charts[f"Experiment {experiment['key']}"] = figures.experiment_effect_figure(experiment)
    return charts


def escape_markdown(text: Any) -> str:
    """Plain text safe inside Markdown: HTML-escaped, markup characters backslashed,
    line breaks flattened (a hostile answer cannot start a heading, link or tag), bare
    links broken and direction controls dropped (:mod:`analytics.text_safety`).

    >>> print(escape_markdown("[click](http://x) <script> *b*").replace("\\u2060", "⁞"))
    \\[click\\](http⁞://x) &lt;script&gt; \\*b\\*
    """
    flat = " ".join(without_direction_controls(text).split())
    return break_bare_links(_MARKDOWN_SPECIAL.sub(r"\\\1", html.escape(flat, quote=False)))


def _fmt(value: Any, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:.{digits}g}"
    return str(value)


def _markdown_cell(value: Any) -> str:
    """What a ``{{ value }}`` of the Markdown template prints: escaped unless marked safe."""
    return str(value) if isinstance(value, Markup) else escape_markdown(value)


def _html_cell(value: Any) -> Any:
    """What a ``{{ value }}`` of the HTML template prints (then autoescaped): without
    direction controls unless marked safe."""
    return value if isinstance(value, Markup) or not isinstance(value, str) \
        else without_direction_controls(value)


def _environment(*, markdown: bool) -> jinja2.Environment:
    """The plan's templates (``analytics/templates``): HTML with Jinja's autoescape, Markdown
    with every printed value passed through :func:`escape_markdown` (its finalize)."""
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=not markdown,
        finalize=_markdown_cell if markdown else _html_cell,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    environment.filters.update(
        f2=lambda value: f"{value:.2f}",
        pct=lambda value: f"{value:.0%}",
        num=lambda value, digits=3: _fmt(value, digits),
    )
    return environment


TEMPLATES_DIR: Final = Path(__file__).resolve().parent / "templates"
_MARKDOWN: Final = _environment(markdown=True)
_HTML: Final = _environment(markdown=False)


def _plan_context(report: dict[str, Any]) -> dict[str, Any]:
    """What both templates show, worked out once: evidence sentences, experiment rows."""
    follow = {row["point"]: row for row in report.get("follow_ups") or []}
    family = report.get("family")
    if isinstance(family, dict):  # the study's family: what changed, did it work?
        family = {**family, "definitions": list(DID_IT_WORK_DEFINITIONS.values())}
    else:
        family = None
    points = [{"action": "", **point, "evidence_text": confusion.evidence_text(point),
               "follow_up_text": follow_up_text(follow[point["id"]])
               if point.get("id") in follow else ""}
              for point in report["confusion_points"]]
    shown = []
    for experiment in report["experiments"]:
        rows = experiments.readable_rows(experiment)
        per_turn = any(m.get("metric") in PER_TURN_METRICS
                       for m in experiment.get("metrics") or [])
        turn_line = [turn_definition(report_game(report))] if per_turn else []
        variants = experiments.variant_rows(experiment)
        shown.append({"key": experiment["key"],
                      "headline": experiment.get("headline") or verdict_text(experiment).headline,
                      "intro": _experiment_intro(experiment) + turn_line, "rows": rows,
                      "header": list(rows[0]) if rows else [], "variants": variants,
                      "variant_header": list(variants[0]) if variants else []})
    sections = []
    for section in report_game(report).sections:
        rows = report.get(section.key) or []
        sections.append({"title": section.title, "empty": section.empty if not rows else "",
                         "headers": [column.header for column in section.columns],
                         "rows": [[_cell(column, row) for column in section.columns]
                                  for row in rows]})
    if report.get("learning"):  # did they learn? (analytics.learning_view)
        sections.append({"title": "Learning", "empty": "",
                         "headers": ["Measure", "Result (95% interval)", "Definition"],
                         "rows": [[row["measure"], row["result"], row["definition"]]
                                  for row in report["learning"]["rows"]]})
    return {"report": {"severity_definition": "", "what_works": [], **report},
            "points": points, "experiments": shown, "sections": sections,
            "follow_up_definitions": list(FOLLOW_UP_DEFINITIONS.values()) if follow else [],
            "family": family}


def _value_text(value: Any) -> str:
    """A remedy's value in words: on/off for a switch, a text (a wording's name or a
    message's text) in quotes, else JSON.

    >>> _value_text(True), _value_text("formal"), _value_text({"walls": False})
    ('on', '“formal”', '{"walls": false}')
    """
    if isinstance(value, bool):
        return "on" if value else "off"
    if value is None:
        return "today's"
    return f"“{value}”" if isinstance(value, str) else json.dumps(value, sort_keys=True)


def follow_up_text(row: dict[str, Any]) -> str:
    """The design plan's line for one follow-up (a ``follow_ups`` record of the report).

    >>> print(follow_up_text({"remedy": "Ring the points", "target": "ui:highlight_options",
    ...     "control": False, "challenger": True, "metric": "trouble:rule:occupied",
    ...     "rate": 0.75, "interval": [0.47, 0.91], "testers_met": 12, "min_effect": 0.375,
    ...     "per_arm": 55}))
    Ring the points: ui:highlight_options off (today) against on (the remedy), decided by trouble:rule:occupied (lower is better). Trouble rate today 75 % (95 % Wilson interval 47 % to 91 %, 12 testers who met the point); smallest effect worth acting on 37.5 percentage points; 55 testers per arm for 80 % power.
    """
    low, high = row["interval"]
    return (f"{row['remedy']}: {row['target']} {_value_text(row['control'])} (today) "
            f"against {_value_text(row['challenger'])} (the remedy), decided by "
            f"{row['metric']} (lower is better). "
            f"{trouble_rate_text(row['rate'], (low, high), row['testers_met'])}; smallest "
            f"effect worth acting on {row['min_effect'] * 100:.1f} percentage points; "
            f"{row['per_arm']} testers per arm for 80 % power.")


def report_markdown(report: dict[str, Any],
                    figures: dict[str, go.Figure] | list[str] | None = None) -> str:
    """The UX design plan as Markdown, from ``templates/plan.md.j2`` (every string from
    data is escaped: a hostile answer cannot make a heading, link or tag).

    >>> page = report_markdown({"study_id": "[x](javascript:1)", "participants": 0,
    ...     "completed": 0, "confusion_points": [], "hardest_facts": [], "experiments": []})
    >>> print(page.splitlines()[0])
    # UX design plan: study \\[x\\](javascript:1)
    """
    names = list(figures or [])
    return _MARKDOWN.get_template("plan.md.j2").render(**_plan_context(report),
                                                        chart_names=names)


def _cell(column: Any, row: dict[str, Any]) -> str:
    value = row.get(column.key)
    return "–" if value is None else column.show(value)


def _experiment_intro(experiment: dict[str, Any]) -> list[str]:
    """Plain-text lines under an experiment's heading (escape before use)."""
    counts = ", ".join(f"{name}: {n}" for name, n in (experiment.get("counts") or {}).items())
    lines = [str(experiment.get("summary") or verdict_text(experiment).text)]
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


def report_html(report: dict[str, Any], figures: dict[str, go.Figure] | None = None) -> str:
    """A self-contained HTML page from ``templates/plan.html.j2`` (autoescaped text,
    tables, and the Plotly charts with plotly.js inlined once: the file works offline).

    >>> page = report_html({"study_id": "<b>", "participants": 0, "completed": 0,
    ...     "confusion_points": [], "hardest_facts": [], "experiments": []})
    >>> "<title>UX design plan: &lt;b&gt;</title>" in page
    True
    """
    charts = []
    for number, (name, fig) in enumerate((figures or {}).items()):
        # plotly.js goes inline with the first chart only: offline, and loaded once.
        # Drawn from the figure rebuilt from its dict, which orders its keys one way: the
        # same markup whether it was just built or read back from a kept page result.
        spec = go.Figure(fig.to_dict()).to_plotly_json()
        spec["layout"] = {**spec.get("layout", {}), "template": FILE_TEMPLATE}
        drawn = pio.to_html(spec, full_html=False, include_plotlyjs=number == 0, validate=False)
        charts.append({"name": name, "html": Markup(drawn)})  # Plotly's own markup
    return _HTML.get_template("plan.html.j2").render(**_plan_context(report), charts=charts)
