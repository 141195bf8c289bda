"""The Studies page's form checked: its fields as typed become a study's title and
:class:`~playtest.study_config.StudyConfig` (:func:`config_from_form`), an experiment of
the experiment form is checked as saving the study checks it (:func:`check_experiment`),
and every refusal names its place as the page does (:func:`where_in_words`). Also what
the form starts from (:func:`config_to_correct`) and which surveys a study asks
(:func:`asked_surveys`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

import yaml

from playtest.games.registry import game_plugin
from playtest.panels import RemoteForm
from playtest.study_config import (
    Experiment,
    StudyConfig,
    StudyConfigError,
    check_experiments_change_the_game,
    load_settings_text,
    parse_study_config,
)

#: The parts of an experiment as the Studies page names them (:func:`where_in_words`).
_EXPERIMENT_PARTS: Final = {"key": "its key", "target": "what it varies",
                            "variants": "its variants", "primary_metric": "its primary metric",
                            "min_effect": "its smallest difference worth acting on",
                            "quiz_items": "its quiz items"}


#: The recruitment panel's and quota's fields as the Studies page names them.
_REMOTE_PARTS: Final = {
    "panel": "Recruitment panel", "panel.completion_code": "Prolific completion code",
    "panel.screenout_code": "Prolific screen-out code",
    "panel.completion_url": "Completion address", "panel.screenout_url": "Screen-out address",
    "quota.completes": "Complete testers wanted", "quota.hold_minutes": "Minutes a place is held"}
_PATTERN: Final = re.compile(r"String should match pattern '.*'")
_ID_WORDS: Final = "use 1-64 letters, digits, '_' or '-' (as the panel shows it)"


def where_in_words(error: StudyConfigError | str, experiments: list[Any] | None = None) -> str:
    """A settings error with an experiment's part named as the Studies page names it:
    "Experiment 1 (“wording”), variant “B”: …" instead of "experiments.0.variants.B: …"
    (the other fields keep their names: the form's help and the YAML use them).

    >>> where_in_words("experiments.0.variants.B: ui:speed must be 1, 2 or 3, not 98",
    ...                [{"key": "pace"}])
    'Experiment 1 (“pace”), variant “B”: ui:speed must be 1, 2 or 3, not 98'
    >>> where_in_words("panel.completion_code: String should match pattern '^[A-Z]$'")
    "Prolific completion code: use 1-64 letters, digits, '_' or '-' (as the panel shows it)"
    >>> where_in_words("rules: nested deeper than 8 levels")
    'rules: nested deeper than 8 levels'
    """
    where, colon, problem = str(error).partition(": ")
    if not colon:
        return str(error)
    if where in _REMOTE_PARTS:
        return f"{_REMOTE_PARTS[where]}: {_PATTERN.sub(_ID_WORDS, problem)}"
    parts = where.split(".")
    if parts[0] == "experiments" and len(parts) > 1 and parts[1].isdigit():
        number = int(parts[1])
        named = experiments[number] if experiments and number < len(experiments) else None
        key = named.get("key") if isinstance(named, dict) else getattr(named, "key", None)
        said = f"Experiment {number + 1}" + (f" (“{key}”)" if isinstance(key, str) else "")
        if len(parts) > 3 and parts[2] == "variants":
            said += f", variant “{'.'.join(parts[3:])}”"
        elif len(parts) > 2:
            said += f", {_EXPERIMENT_PARTS.get(parts[2], parts[2])}"
        return f"{said}: {problem}"
    return str(error)


@dataclass(frozen=True)
class StudyForm:
    """The Studies page's form as filled in: texts as typed, choices as chosen."""

    game: str
    title: str
    rules: str
    seats: str
    games_per_tester: int
    allow_more_games: bool
    audience: str
    pre_survey: str | None
    post_survey: str | None
    highlight_options: bool
    show_computer_dice: bool
    speed: int
    ai_think_ms: int | None
    experiments: str
    remote: RemoteForm = RemoteForm()  # the recruitment panel and the quota
    language: str = "en"  # the language testers read (playtest.i18n)


def config_from_form(form: StudyForm) -> tuple[str, StudyConfig]:
    """The title and settings of a filled-in Studies form, checked as saving them is:
    :class:`StudyConfigError` says why not, in the page's words.

    >>> from analytics.data import UNNAMED_GAME
    >>> form = StudyForm(game=UNNAMED_GAME, title=" Wording ", rules="house",
    ...     seats="human, ai:hard", games_per_tester=2, allow_more_games=True,
    ...     audience="children", pre_survey=None, post_survey=None, highlight_options=False,
    ...     show_computer_dice=True, speed=2, ai_think_ms=None, experiments="")
    >>> title, config = config_from_form(form)
    >>> title, config.rules, config.seats
    ('Wording', 'house', ['human', 'ai:hard'])
    >>> config_from_form(form.__class__(**{**form.__dict__, "experiments":
    ...     "- {key: w, target: 'message:extra_turn', variants: {A: default}}"}))
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: Experiment 1 (“w”), its variants: an experiment compares at least 2 variants (this one has 1): add another
    >>> config_from_form(form.__class__(**{**form.__dict__, "title": "  "}))
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: give the study a title
    """
    from engine.core import EngineError

    experiments: Any = []
    try:
        rules: Any = form.rules.strip()
        if rules.startswith("{"):
            rules = load_settings_text(rules, "rules")
        if form.experiments.strip():
            experiments = load_settings_text(form.experiments, "experiments")
        config = parse_study_config({
            "game": form.game, "rules": rules,
            "seats": [s.strip() for s in form.seats.split(",") if s.strip()],
            "games_per_tester": int(form.games_per_tester),
            "allow_more_games": form.allow_more_games, "audience": form.audience,
            "pre_survey": form.pre_survey, "post_survey": form.post_survey,
            "highlight_options": form.highlight_options,
            "show_computer_dice": form.show_computer_dice, "speed": int(form.speed),
            "ai_think_ms": form.ai_think_ms, "experiments": experiments or [],
            "language": form.language,
            **dict(zip(("panel", "quota"), form.remote.settings(), strict=True))})
        check_experiments_change_the_game(config)
    except (StudyConfigError, EngineError) as err:
        named = experiments if isinstance(experiments, list) else None
        raise StudyConfigError(where_in_words(str(err), named)) from None
    if not form.title.strip():
        raise StudyConfigError("give the study a title")
    return form.title.strip(), config


def check_experiment(game: str, raw: dict[str, Any], others: Sequence[Any] = ()) -> Experiment:
    """One experiment of a study of ``game``, checked as saving the study checks it (its
    key unique among ``others``): :class:`StudyConfigError` in the page's words.

    >>> from analytics.data import UNNAMED_GAME
    >>> check_experiment(UNNAMED_GAME, {"key": "pace", "target": "ui:speed",
    ...     "variants": {"slow": 1, "fast": 3}}).variants
    {'slow': 1, 'fast': 3}
    >>> check_experiment(UNNAMED_GAME, {"key": "pace", "target": "ui:speed",
    ...     "variants": {"slow": 1, "fast": 3}}, [{"key": "pace"}])
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: Experiment “pace”: this study has an experiment of that key already; choose another key
    """
    if any(isinstance(o, dict) and o.get("key") == raw.get("key") for o in others):
        raise StudyConfigError(f"Experiment “{raw.get('key')}”: this study has an "
                               "experiment of that key already; choose another key")
    try:
        config = parse_study_config({"game": game, "experiments": [raw]})
        check_experiments_change_the_game(config)
    except StudyConfigError as err:
        said = where_in_words(str(err), [raw])
        raise StudyConfigError(said.replace("Experiment 1 ", "Experiment ", 1)) from None
    return config.experiments[0]


def experiments_text(experiments: list[Any]) -> str:
    """Experiments as the Studies page's YAML shows them (payloads as stored).

    >>> print(experiments_text([{"key": "pace", "target": "ui:speed",
    ...     "variants": {"slow": 1, "fast": 3}}]), end="")
    - key: pace
      target: ui:speed
      variants:
        slow: 1
        fast: 3
    """
    if not experiments:
        return ""
    return yaml.safe_dump([e.model_dump(exclude_defaults=True)
                           if isinstance(e, Experiment) else e for e in experiments],
                          sort_keys=False, allow_unicode=True)



def config_to_correct(game: str, document: Any) -> tuple[StudyConfig, str | None]:
    """A stored study's settings for its form: its config, or, when its stored settings
    fail the check (a study saved before they were checked as a whole), what of them
    passes on its own (the experiments left out, the defaults at worst) and why.

    >>> from analytics.data import UNNAMED_GAME
    >>> config, problem = config_to_correct(UNNAMED_GAME, {"rules": "house", "experiments": [
    ...     {"key": "pace", "target": "ui:speed", "variants": {"A": 98, "B": 99}}]})
    >>> config.rules, config.experiments, problem
    ('house', [], 'experiments.0.variants.A: ui:speed must be 1, 2 or 3, not 98')
    """
    document = document if isinstance(document, dict) else {}
    try:
        return parse_study_config({**document, "game": game}), None
    except StudyConfigError as err:
        problem = str(err)
    try:
        return parse_study_config({**document, "game": game, "experiments": []}), problem
    except StudyConfigError:
        return StudyConfig(), problem


def asked_surveys(game: str, document: Any) -> list[str]:
    """The surveys a study of ``game`` asks: its settings' (``document``, the stored
    settings), its game's defaults and the children's forms; where its item ids'
    questions are written.

    >>> from analytics.data import UNNAMED_GAME
    >>> asked_surveys(UNNAMED_GAME, {"pre_survey": None})[:1] == [
    ...     game_plugin(UNNAMED_GAME).pre_survey]
    True
    """
    plugin = game_plugin(game)
    document = document if isinstance(document, dict) else {}
    named = [document.get("pre_survey"), document.get("post_survey"), plugin.pre_survey,
             plugin.post_survey, *plugin.child_surveys.values()]
    return list(dict.fromkeys(str(s) for s in named if isinstance(s, str) and s))
