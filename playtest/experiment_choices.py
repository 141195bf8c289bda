"""What a study's game offers an experiment to vary, for the Studies page's experiment form:
its messages (each wording with the text testers read), its rules (presets and options)
and its display settings (each value with its label); the variants a new experiment
starts from; the metrics that can decide it. Nothing here draws: the page asks, then
shows the answers.

>>> from analytics.data import UNNAMED_GAME
>>> from playtest.games.registry import game_plugin
>>> plugin = game_plugin(UNNAMED_GAME)
>>> [str(t.target) for t in targets_offered(plugin)][:2]
['rules', 'message:turn_computer']
>>> [(v.name, v.payload) for v in starting_variants(plugin, ExperimentTarget.ui("speed"))]
[('slow', 'slow'), ('medium', 'medium'), ('fast', 'fast')]
>>> from playtest.games.registry import games
>>> one = next(p for p in games() if len(p.presets) == 1)  # a game of one preset
>>> rows = starting_variants(one, ExperimentTarget.parse("rules"))
>>> len(rows), rows[1].payload.startswith('{"base": ')
(2, True)
>>> payload_of(plugin, ExperimentTarget.ui("speed"), "fast"), shown(plugin,
...     ExperimentTarget.message("extra_turn"), "formal")
(3, "Player …'s EXTRA turn")
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analytics.metrics import LEARNING_GAIN, Metric, check_primary, metrics_for_target
from analytics.targets import ExperimentTarget, TargetError
from playtest.games.registry import GamePlugin
from playtest.games.ui_settings import UiSetting
from playtest.study_config import StudyConfigError, message_catalog
from playtest.study_form_checks import check_experiment


def ui_settings(plugin: GamePlugin) -> tuple[UiSetting, ...]:
    """The display settings ``plugin``'s board offers (its plug-in's declared
    :attr:`~playtest.games.plugin.GamePlugin.ui_settings`): the one place the Studies
    page and its experiment form learn them.

    >>> from analytics.data import UNNAMED_GAME
    >>> from playtest.games.registry import game_plugin
    >>> [s.name for s in ui_settings(game_plugin(UNNAMED_GAME))]
    ['highlight_options', 'show_computer_dice', 'speed']
    """
    return plugin.ui_settings


def ui_setting(plugin: GamePlugin, name: str) -> UiSetting | None:
    return plugin.ui_setting(name)


def shown_messages(plugin: GamePlugin) -> tuple[str, ...]:
    """The catalog keys an experiment may vary: the messages ``plugin``'s board shows
    (its catalog's ``shown``, :attr:`~playtest.games.plugin.GamePlugin.shown_messages`),
    in the catalog's order."""
    catalog = message_catalog(plugin.name)
    return tuple(key for key in catalog.keys if key in catalog.shown)


@dataclass(frozen=True)
class TargetChoice:
    """A target the form offers, with its label in words."""

    target: ExperimentTarget
    label: str


def targets_offered(plugin: GamePlugin) -> list[TargetChoice]:
    """The rules, every message the board shows (with its default text), every display
    setting the board offers."""
    offered = [TargetChoice(ExperimentTarget.parse("rules"),
                            f"The rules (presets: {', '.join(plugin.presets)})")]
    offered += [TargetChoice(ExperimentTarget.message(key),
                             f"Message “{key}”: {shown(plugin, ExperimentTarget.message(key))}")
                for key in shown_messages(plugin)]
    offered += [TargetChoice(ExperimentTarget.ui(s.name), f"Display: {s.label}")
                for s in ui_settings(plugin)]
    return offered


@dataclass(frozen=True)
class VariantRow:
    """One variant as the form shows it: its name, its payload as typed, what it shows."""

    name: str
    payload: str
    shows: str


def starting_variants(plugin: GamePlugin, target: ExperimentTarget) -> list[VariantRow]:
    """The variants a new experiment on ``target`` starts from: every wording of the
    message, the game's first two presets, every value of the display setting."""
    if target.is_message:
        entry = message_catalog(plugin.name).entry(target.name)
        names = list(entry.variants)
    elif target.is_rules:
        names = list(dict.fromkeys([plugin.default_rules, *plugin.presets]))[:2]
        if len(names) < 2:  # one preset: a second variant changes its first option
            rows = [VariantRow(name, name, shown(plugin, target, name)) for name in names]
            option = next(((k, v[1]) for k, v in plugin.rule_options.items()
                           if k != "base" and len(v) > 1), None)
            if option is not None:
                other = {"base": plugin.default_rules, option[0]: option[1]}
                rows.append(VariantRow(f"{option[0]} {option[1]}", payload_text(other),
                                       shown(plugin, target, other)))
            return rows
    else:
        setting = ui_setting(plugin, target.name)
        names = [c.label for c in setting.choices] if setting else []
    return [VariantRow(name, name, shown(plugin, target, name)) for name in names]


def payload_of(plugin: GamePlugin, target: ExperimentTarget, text: str) -> Any:
    """A payload typed in the form as the experiment stores it: a display setting's
    label (or value) as its value; a rules object typed as JSON as an object; else the
    text (a wording name, a text of your own, a preset)."""
    text = text.strip()
    if target.is_ui:
        setting = ui_setting(plugin, target.name)
        for choice in setting.choices if setting else ():
            if text.lower() in (choice.label.lower(), str(choice.value).lower()):
                return choice.value
        return text
    if target.is_rules and text.startswith("{"):
        try:
            return json.loads(text)
        except json.JSONDecodeError as err:
            raise StudyConfigError(f"rules object: not valid JSON ({err.msg}, "
                                   f"column {err.colno})") from None
    return text


def payload_text(payload: Any) -> str:
    """A stored payload as the form shows it (the inverse of :func:`payload_of`)."""
    return json.dumps(payload) if isinstance(payload, dict) else str(payload)


def shown(plugin: GamePlugin, target: ExperimentTarget, payload: Any = "default") -> str:
    """What testers see with ``payload``: a message's text ({values} as "…"), a setting's
    label, a preset's or rules object's name."""
    if target.is_message:
        catalog = message_catalog(plugin.name)
        try:
            entry = catalog.entry(target.name)
        except KeyError:
            return "(not a message of this game)"
        blanks = dict.fromkeys(entry.values, "…")
        if payload in catalog.variants:
            return catalog.render(target.name, str(payload), **blanks).text
        try:
            return str(payload).format(**blanks)
        except (KeyError, ValueError, IndexError):
            return str(payload)
    if target.is_ui:
        setting = ui_setting(plugin, target.name)
        if setting is None:
            return str(payload)
        value = payload_of(plugin, target, payload) if isinstance(payload, str) else payload
        return setting.label_of(value)
    if isinstance(payload, dict):
        return "rules: " + ", ".join(f"{k} = {v}" for k, v in payload.items())
    return f"preset “{payload}”"


def metric_options(target: ExperimentTarget) -> tuple[list[Metric], str]:
    """The metrics that can decide an experiment on ``target`` (better in one direction)
    and the key of the one that does when none is chosen: the learning gain last (it
    needs the fluency probe in the forms before and after play).

    >>> [m.key for m in metric_options(ExperimentTarget.parse("rules"))[0]][-2:]
    ['quiz_correct', 'learning_gain']
    """
    options = [m for m in metrics_for_target(str(target)) if m.direction != "neither"]
    return [*options, LEARNING_GAIN], check_primary(str(target), None).key


def target_in_words(text: str) -> str:
    """An experiment's target text as people read it.

    >>> target_in_words("message:extra_turn"), target_in_words("rules"), target_in_words("x")
    ('the wording of message “extra_turn”', 'the rules', 'x')
    """
    try:
        target = ExperimentTarget.parse(text)
    except TargetError:
        return str(text)
    if target.is_message:
        return f"the wording of message “{target.name}”"
    if target.is_rules:
        return "the rules"
    return f"the display setting “{target.name}”"


def metric_choice_rows() -> list[dict[str, Any]]:
    """Every metric an experiment's ``primary_metric`` may name, per kind of target,
    with its definition (the table beside the experiments' YAML)."""
    rows = []
    for target in ("message:<key>", "rules", "ui:<setting>"):
        concrete = target.replace("<key>", "x").replace("<setting>", "speed")
        options, default = metric_options(ExperimentTarget.parse(concrete))
        rows += [{"target": target, "primary_metric": metric.key, "name": metric.name,
                  "default": "yes" if metric.key == default else "", "unit": metric.unit,
                  "better": metric.direction, "default min_effect": metric.min_effect,
                  "definition": metric.definition} for metric in options]
    rows.append({"target": "any", "primary_metric": "score:<questionnaire>",
                 "name": "Questionnaire score (e.g. score:sus)", "default": "",
                 "unit": "points", "better": "higher (lower for workload)",
                 "default min_effect": 5.0,
                 "definition": "The tester's post-play total score on that questionnaire."})
    rows.append({"target": "any", "primary_metric": "quiz:<item>",
                 "name": "One rules-quiz item (e.g. quiz:quiz.capture)", "default": "",
                 "unit": "share", "better": "higher", "default min_effect": 0.15,
                 "definition": "Share of testers who answered that quiz item correctly."})
    rows.append({"target": "any", "primary_metric": "trouble:<point>",
                 "name": "One confusion point's trouble rate (e.g. trouble:rule:walled)",
                 "default": "", "unit": "share", "better": "lower",
                 "default min_effect": 0.1,
                 "definition": "Share of the testers who met that confusion point who had "
                               "trouble on at least one of its occasions."})
    return rows


def default_key(target: ExperimentTarget) -> str:
    """A key for a new experiment on ``target`` (the designer may change it)."""
    return f"{target.name}_wording" if target.is_message else (target.name or "rules_variant")


def experiment_from_form(plugin: GamePlugin, key: str, target: ExperimentTarget,
                         variants: list[tuple[str, str]], primary: str | None,
                         least: float | None, listed: Sequence[Any] = ()) -> dict[str, Any]:
    """The experiment the form describes (variants as ``(name, payload as typed)``),
    checked as saving the study checks it, its key unique among ``listed``; else
    :class:`StudyConfigError` in the page's words.

    >>> from analytics.data import UNNAMED_GAME
    >>> from playtest.games.registry import game_plugin
    >>> plugin = game_plugin(UNNAMED_GAME)
    >>> experiment_from_form(plugin, "pace", ExperimentTarget.ui("speed"),
    ...                      [("slow", "slow"), ("fast", "fast")], None, None)
    {'key': 'pace', 'target': 'ui:speed', 'variants': {'slow': 1, 'fast': 3}}
    >>> experiment_from_form(plugin, "w", ExperimentTarget.message("extra_turn"),
    ...                      [("A", "default")], None, None)
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: Experiment (“w”), its variants: an experiment compares at least 2 variants (this one has 1): add another
    """
    names = [name for name, _ in variants]
    if any(not name for name in names):
        raise StudyConfigError("every variant needs a name")
    if len(set(names)) < len(names):
        raise StudyConfigError("two variants have the same name")
    experiment: dict[str, Any] = {
        "key": key.strip(), "target": str(target),
        "variants": {name: payload_of(plugin, target, payload) for name, payload in variants}}
    if primary:
        experiment["primary_metric"] = primary
    if least:
        experiment["min_effect"] = least
    check_experiment(plugin.name, experiment, listed)
    return experiment


def experiment_in_words(plugin: GamePlugin, experiment: dict[str, Any]) -> dict[str, str]:
    """One experiment of the form as a row people read: its key, what it varies, each
    variant with what testers see, the metric that decides it."""
    target = experiment.get("target")
    try:
        parsed: ExperimentTarget | None = ExperimentTarget.parse(target)
    except TargetError:
        parsed = None
    variants = experiment.get("variants")
    return {"key": str(experiment.get("key")), "varies": target_in_words(str(target)),
            "variants": "; ".join(f"{name}: {shown(plugin, parsed, payload)}" if parsed
                                  else f"{name}: {payload}" for name, payload in
                                  (variants.items() if isinstance(variants, dict) else [])),
            "decided by": str(experiment.get("primary_metric") or "the default metric")}
