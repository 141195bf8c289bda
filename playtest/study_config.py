"""What a designer sets for a study, validated, and what one participant gets from it.

A study's stored settings are a :class:`StudyConfig`. Experiments vary one thing each
(``target`` as in telemetry-format.md: ``message:<key>``, ``rules`` or ``ui:<setting>``);
:func:`effective_config` applies a participant's assigned variants on top of the base.

>>> config = StudyConfig(experiments=[Experiment(key="extra_turn_wording",
...     target="message:extra_turn", variants={"A": "default", "B": "formal"})])
>>> effective_config(config, {"extra_turn_wording": "B"}).message_variants
{'extra_turn': 'formal'}

Every payload is checked against what play will do with it (one check per experiment
target, :data:`PAYLOAD_CHECKS`), so a study that validates cannot fail at play:

>>> parse_study_config({"experiments": [{"key": "pace", "target": "ui:speed",
...     "variants": {"A": "fast", "B": 3}}]})
Traceback (most recent call last):
...
playtest.study_config.StudyConfigError: experiments.0.variants.A: ui:speed must be 1, 2 or 3, not 'fast'

Text a designer types (the Studies page's YAML and JSON) goes through
:func:`load_settings_text`, which refuses YAML anchors and aliases (an alias bomb), nesting
deeper than :data:`MAX_DEPTH` and text longer than :data:`MAX_SETTINGS_CHARS`:

>>> load_settings_text("[&a [1, 2], *a]", "experiments")
Traceback (most recent call last):
...
playtest.study_config.StudyConfigError: experiments: YAML anchors and aliases (&a, *a) are not allowed
"""

from __future__ import annotations

import functools
import json
import math
import string
from collections.abc import Callable
from typing import Annotated, Any, Final, Literal

import yaml
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)

from analytics.data import UNNAMED_GAME
from analytics.targets import ExperimentTarget, TargetError
from engine.seats import Seat, SeatError
from playtest.games.registry import UnknownGameError, game_names, game_plugin
from playtest.i18n import ENGLISH, Language, LanguageError
from playtest.panels import PanelConfig, QuotaConfig
from playtest.storage.settings_document import exchange_fields as exchange_fields
from playtest.storage.settings_document import family_problem, raw_config, targets_problem

SeatKind = str  # "human" or "ai:<level>"


def ai_levels(game: str) -> tuple[str, ...]:
    """The levels a seat ``"ai:<level>"`` may name in a study of ``game`` (its plug-in's
    :meth:`~playtest.games.registry.GamePlugin.ai_levels`: the engine's registration).

    >>> ai_levels(UNNAMED_GAME)[:2]
    ('easy', 'medium')
    """
    return game_plugin(game).ai_levels()


UI_SETTINGS = ("highlight_options", "show_computer_dice", "speed")


def check_experiments_change_the_game(config: StudyConfig) -> None:
    """Refuse an experiment on a display setting the study's game's board does not use
    (:attr:`~playtest.games.registry.GamePlugin.ignored_ui`): its arms would look the
    same, and any difference measured would be noise. Checked when a designer saves a
    study, not when a stored study is read, so a study saved before this check still runs.

    >>> config = parse_study_config({"game": UNNAMED_GAME, "experiments": [
    ...     {"key": "h", "target": "ui:highlight_options", "variants": {"a": False, "b": True}}]})
    >>> check_experiments_change_the_game(config)  # the first game's board highlights
    """
    plugin = game_plugin(config.game)
    for experiment in config.experiments:
        setting = ExperimentTarget.parse(experiment.target).setting
        if setting is not None and setting in plugin.ignored_ui:
            raise StudyConfigError(
                f"experiment {experiment.key!r}: {plugin.title}'s board does not use "
                f"{experiment.target}, so its arms would look the same")
SPEEDS: Final = (1, 2, 3)
#: Longest literal message text a ``message:<key>`` variant may carry.
MAX_MESSAGE_CHARS: Final = 300
#: Most variants one experiment may have, and the longest variant name.
MAX_VARIANTS: Final = 8
MAX_VARIANT_NAME: Final = 64
#: Limits of settings text typed on the Studies page (YAML or JSON).
MAX_SETTINGS_CHARS: Final = 20_000
MAX_DEPTH: Final = 8


class StudyConfigError(ValueError):
    """A study setting that cannot work, in words a designer understands."""


class _VariantError(ValueError):
    """One variant's payload is refused; ``variant`` names it for the error's location."""

    def __init__(self, variant: str, message: str) -> None:
        super().__init__(message)
        self.variant = variant
        self.message = message


# -- one check per experiment target ------------------------------------------------------
# Each takes the target's name part (the message key, the UI setting) and one variant's
# payload; it returns the payload as play will use it or raises ValueError saying why.


def _check_rules(_name: str, payload: Any, game: str | None = None) -> Any:
    """A preset name or a rules object the game's engine builds (what play does)."""
    from engine.core import RulesError

    if not isinstance(payload, str | dict):
        raise ValueError("rules must be a preset name or an object of options")
    if isinstance(payload, str) and len(payload) > 64:
        raise ValueError(f"rules: unknown preset {payload[:40]!r}… (a preset name is short)")
    try:
        game_plugin(UNNAMED_GAME if game is None else game).checked_rules(payload)
    except (RulesError, TypeError, UnknownGameError) as err:
        raise ValueError(str(err)) from None
    return payload


def message_catalog(game: str | None) -> Any:
    """The message catalog of ``game``'s play screen (its plug-in's ``catalog_path``;
    :data:`~analytics.data.UNNAMED_GAME`'s when None or when the game has none)."""
    path = game_plugin(game).catalog_path if game is not None else None
    if path is None:
        path = game_plugin(UNNAMED_GAME).catalog_path
    return _catalog_at(str(path))


@functools.cache
def _catalog_at(path: str) -> Any:
    """A game's catalog file (checked for its format; the keys its play screen needs
    are its own module's business)."""
    from pathlib import Path

    from playtest.messages.catalog import MessageCatalog

    obj = yaml.safe_load(Path(path).read_text("utf-8"))
    return MessageCatalog.from_obj(obj, source=path, required=frozenset())


def _check_rules_of_any_game(name: str, payload: Any) -> Any:
    """Rules of an experiment built on its own (no study around it yet): the unnamed
    game's, else any registered game's; the study checks its own game's
    (:meth:`StudyConfig._variants_fit_the_game`)."""
    try:
        return _check_rules(name, payload)
    except ValueError as first:
        for game in game_names():
            try:
                return _check_rules(name, payload, game)
            except ValueError:
                continue
        raise first from None


def _check_message(key: str, payload: Any, game: str | None = None) -> str:
    """A wording name of the catalog, or a literal text whose {placeholders} the key has.

    ``game``: the study's game, whose catalog is read. Without it (an experiment built on
    its own) the unnamed game's catalog, else the first registered game's that has the key;
    the study then checks its own game's (:meth:`StudyConfig._messages_fit_the_game`).
    """
    from playtest.messages.catalog import MessageError

    catalog = message_catalog(game)
    if game is None and key not in catalog.keys:
        catalog = next((c for c in map(message_catalog, game_names()) if key in c.keys), catalog)
    try:
        entry = catalog.entry(key)
    except MessageError:
        whose = "" if game is None else f" (the {game_plugin(game).title} play screen's)"
        raise ValueError(f"message:{key}: the catalog has no message {key!r}{whose}") from None
    if game is not None and key not in catalog.shown:
        plugin = game_plugin(game)
        raise ValueError(
            f"message:{key}: {plugin.title}'s board never shows {key!r}, so no tester would "
            f"see its wording (it shows: {', '.join(sorted(catalog.shown))})")
    if not isinstance(payload, str) or not payload.strip():
        raise ValueError(
            f"message:{key}: a variant is a wording name ({', '.join(catalog.variants)}) "
            "or a text"
        )
    if payload in catalog.variants:
        return payload
    if len(payload) > MAX_MESSAGE_CHARS:
        raise ValueError(
            f"message:{key}: a text of your own has at most {MAX_MESSAGE_CHARS} characters "
            f"(this one has {len(payload)})"
        )
    try:
        fields = {f for _, f, _, _ in string.Formatter().parse(payload) if f is not None}
    except ValueError:
        raise ValueError(f"message:{key}: unbalanced {{ or }} in {payload[:40]!r}") from None
    unknown = sorted(fields - set(entry.values))
    if unknown:
        raise ValueError(
            f"message:{key}: the text uses {{{unknown[0]}}}, but this message only has "
            f"{', '.join('{' + v + '}' for v in entry.values) or 'no values'}"
        )
    return payload


def _check_speed(_name: str, payload: Any) -> int:
    if type(payload) is not int or payload not in SPEEDS:
        raise ValueError(f"ui:speed must be 1, 2 or 3, not {payload!r}")
    return payload


def _check_flag(name: str, payload: Any) -> bool:
    if not isinstance(payload, bool):
        raise ValueError(f"ui:{name} must be true or false, not {payload!r}")
    return payload


#: target kind (``rules``, ``message``, ``ui:<setting>``) → payload check.
PAYLOAD_CHECKS: Final[dict[str, Callable[[str, Any], Any]]] = {
    "rules": _check_rules,
    "message": _check_message,
    "ui:speed": _check_speed,
    "ui:highlight_options": _check_flag,
    "ui:show_computer_dice": _check_flag,
}


class Experiment(BaseModel):
    """One experiment: what it varies and the payload of each named variant.

    ``variants`` maps a variant name to what that variant sets: for ``message:<key>`` the
    catalog wording name (or a literal text of your own), for ``rules`` a rules object or
    preset name, for ``ui:<setting>`` the setting's value.
    """

    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9_\-]+$")
    target: str = Field(max_length=80)
    variants: dict[str, Any] = Field(min_length=2, max_length=MAX_VARIANTS)
    # The metric the verdict comes from (a name from analytics' metric registry for this
    # target); None takes the target type's default. min_effect: the smallest difference
    # worth acting on, in the metric's unit; None takes the metric's default.
    primary_metric: str | None = Field(default=None, max_length=64)
    min_effect: float | None = Field(default=None, gt=0, allow_inf_nan=False)
    # Rules-quiz items (survey item ids) whose correct-answer share is a metric of this
    # experiment, e.g. the quiz question about the rule a message explains.
    quiz_items: list[Annotated[str, Field(min_length=1, max_length=64)]] = Field(
        default_factory=list, max_length=20)
    # The confusion point id this experiment was made to fix (a follow-up experiment of
    # the Confusion page: ``rule:walled``); None for any other experiment.
    targets: str | None = None

    @field_validator("targets")
    @classmethod
    def _targets_is_a_point(cls, targets: str | None) -> str | None:
        problem = targets_problem(targets)
        if problem:
            raise ValueError(problem)
        return targets

    @field_validator("target")
    @classmethod
    def _target_is_known(cls, target: str) -> str:
        try:
            parsed = ExperimentTarget.parse(target)
        except TargetError:
            parsed = None
        if parsed is not None and (not parsed.is_ui or parsed.setting in UI_SETTINGS):
            return target
        raise ValueError(
            f"target {target!r}: use 'message:<key>', 'rules' or 'ui:<setting>' "
            f"(settings: {', '.join(UI_SETTINGS)})"
        )

    @field_validator("variants")
    @classmethod
    def _variant_names(cls, variants: dict[str, Any]) -> dict[str, Any]:
        for name in variants:
            if not isinstance(name, str) or not 0 < len(name) <= MAX_VARIANT_NAME or not (
                name.isprintable()
            ):
                raise ValueError(
                    f"variant name {str(name)[:40]!r}: 1 to {MAX_VARIANT_NAME} printable characters"
                )
        return variants

    @field_validator("variants")
    @classmethod
    def _payloads_work(cls, variants: dict[str, Any], info: ValidationInfo) -> dict[str, Any]:
        """Every variant's payload is one play can use (see :data:`PAYLOAD_CHECKS`)."""
        target = info.data.get("target")
        if not isinstance(target, str):
            return variants  # the target's own error is reported
        parsed = ExperimentTarget.parse(target)
        name = parsed.name
        check = PAYLOAD_CHECKS[target if parsed.is_ui else parsed.kind.value]
        game = None if parsed.is_ui else (info.context or {}).get("game")
        checked: dict[str, Any] = {}
        for variant, payload in variants.items():
            try:
                if parsed.is_message:  # the study's game's catalog
                    checked[variant] = _check_message(name, payload, game)
                elif parsed.is_rules and game is None:  # the study checks its game's
                    checked[variant] = _check_rules_of_any_game(name, payload)
                else:
                    checked[variant] = check(name, payload) if game is None else _check_rules(
                        name, payload, game)
            except ValueError as err:
                raise _VariantError(variant, str(err)) from None
        return checked

    @model_validator(mode="after")
    def _primary_fits_target(self) -> Experiment:
        """A named primary metric must be one the analysis can compute for this target."""
        if self.primary_metric is not None:
            # the metrics module brings pandas: imported when a study names a primary metric
            from analytics.metrics import MetricError, check_primary

            try:
                check_primary(self.target, self.primary_metric)
            except MetricError as err:
                raise ValueError(str(err)) from None
        return self

    def record(self) -> dict[str, Any]:
        """The exchange-format form: ``{key, variants: [names], target}`` plus payloads."""
        record: dict[str, Any] = {
            "key": self.key,
            "variants": list(self.variants),
            "target": self.target,
            "payloads": self.variants,
        }
        if self.primary_metric is not None:
            record["primary_metric"] = self.primary_metric
        if self.min_effect is not None:
            record["min_effect"] = self.min_effect
        if self.quiz_items:
            record["quiz_items"] = list(self.quiz_items)
        if self.targets is not None:
            record["targets"] = self.targets
        return record


class StudyConfig(BaseModel):
    """Everything a study sets for its testers."""

    model_config = ConfigDict(extra="forbid")

    # The game (a name in playtest.games.registry); its rules, presets and default
    # surveys are the ones below. Declared first: the checks after it read it.
    game: str = UNNAMED_GAME
    rules: str | dict[str, Any] = "standard"
    seats: list[SeatKind] = Field(default_factory=lambda: ["human", "ai:easy"])
    games_per_tester: int = Field(default=1, ge=1, le=20)
    allow_more_games: bool = True
    audience: Literal["adults", "children", "mixed"] = "mixed"
    # None: no survey. Left out: the game's default survey (see _game_defaults).
    pre_survey: str | None = Field(default_factory=lambda: game_plugin(UNNAMED_GAME).pre_survey)
    post_survey: str | None = Field(default_factory=lambda: game_plugin(UNNAMED_GAME).post_survey)
    highlight_options: StrictBool = False
    show_computer_dice: StrictBool = True
    speed: int = Field(default=2, ge=1, le=3, strict=True)
    # Computer think time in ms; None follows the speed setting. 0 plays at once, which
    # the browser tests and very young testers' studies use.
    ai_think_ms: int | None = Field(default=None, ge=0, le=10_000)
    experiments: list[Experiment] = Field(default_factory=list, max_length=20)
    # Remote studies (playtest.panels): the recruitment panel testers arrive from and go
    # back to, and the number of complete testers wanted (then "this study is full").
    panel: PanelConfig | None = None
    quota: QuotaConfig | None = None
    # The study family (telemetry-format.md's study record): the id every version of one
    # study shares and this study's version in it. None: the study is version 1 of its
    # own family, whose id is its study id (:func:`playtest.services.family_id`).
    family: str | None = None
    version: int = Field(default=1, strict=True)
    # The language testers are addressed in (playtest.i18n: a code of
    # available_languages()); every answer and message is stored in it. Left out: English.
    language: str = ENGLISH.code

    @field_validator("language")
    @classmethod
    def _language_is_available(cls, language: str) -> str:
        """A language the app's words are translated into.

        >>> parse_study_config({"language": "de"}).language
        'de'
        >>> parse_study_config({"language": "xx"})
        Traceback (most recent call last):
        ...
        playtest.study_config.StudyConfigError: language: unknown language 'xx' (available: en, de)
        """
        try:
            return Language.parse(language).code
        except LanguageError as err:
            raise ValueError(str(err)) from None

    @model_validator(mode="after")
    def _family_is_safe(self) -> StudyConfig:
        """``family`` a study id, ``version`` from 1 (and 1 without a family).

        >>> parse_study_config({"family": "demo", "version": 0})
        Traceback (most recent call last):
        ...
        playtest.study_config.StudyConfigError: settings: version must be a whole number from 1, not 0
        """
        problem = family_problem(self.family, self.version)
        if problem:
            raise ValueError(problem)
        return self

    @model_validator(mode="before")
    @classmethod
    def _game_defaults(cls, raw: Any) -> Any:
        """A study of another game starts from that game's default rules, seats and
        surveys."""
        if not isinstance(raw, dict) or not isinstance(raw.get("game"), str):
            return raw
        try:
            plugin = game_plugin(raw["game"])
        except UnknownGameError:
            return raw  # the game's own check names the problem
        defaults = {"rules": plugin.default_rules, "seats": list(plugin.default_seats),
                    "pre_survey": plugin.pre_survey, "post_survey": plugin.post_survey}
        return {**{k: v for k, v in defaults.items() if k not in raw}, **raw}

    @field_validator("game")
    @classmethod
    def _game_is_registered(cls, game: str) -> str:
        if game not in game_names():
            raise ValueError(f"unknown game {game[:40]!r} (known: {', '.join(game_names())})")
        return game

    @field_validator("rules")
    @classmethod
    def _rules_build(cls, rules: str | dict[str, Any],
                     info: ValidationInfo) -> str | dict[str, Any]:
        game = info.data.get("game")
        if not isinstance(game, str):
            return rules  # the game's own error is reported
        return _check_rules("", rules, game)

    @field_validator("pre_survey", "post_survey")
    @classmethod
    def _survey_is_bundled(cls, survey_id: str | None) -> str | None:
        from surveys.loader import list_surveys

        game_names()  # the registry read: its games' own survey folders bundled
        known = list_surveys()
        if survey_id is not None and survey_id not in known:
            raise ValueError(f"unknown survey {survey_id[:60]!r} (known: {', '.join(known)})")
        return survey_id

    @field_validator("seats")
    @classmethod
    def _seats_are_valid(cls, seats: list[str], info: ValidationInfo) -> list[str]:
        game = info.data.get("game")
        plugin = game_plugin(game) if game in game_names() else None
        low, high = plugin.seats if plugin is not None else (1, 4)
        if not low <= len(seats) <= high:
            raise ValueError(f"a game has {low} to {high} seats")
        levels = plugin.ai_levels() if plugin is not None else ()
        for seat in seats:
            try:
                parsed: Seat | None = Seat.parse(seat)
            except SeatError:
                parsed = None
            if parsed is not None and (parsed.is_human or parsed.level in levels):
                continue
            if plugin is None:
                raise ValueError(f"seat {seat[:40]!r}: the study's game is unknown")
            if not levels:
                raise ValueError(f"seat {seat[:40]!r}: {plugin.title} has no computer seats "
                                 "(use 'human')")
            raise ValueError(
                f"seat {seat[:40]!r}: use 'human' or 'ai:<level>' with a level of "
                f"{plugin.title} from {', '.join(levels)}"
            )
        if not any(Seat.parse(seat).is_human for seat in seats):
            raise ValueError("at least one seat must be a human tester")
        return seats

    @model_validator(mode="after")
    def _experiment_keys_unique(self) -> StudyConfig:
        keys = [e.key for e in self.experiments]
        if len(keys) != len(set(keys)):
            raise ValueError("experiment keys must be unique")
        return self

    @model_validator(mode="after")
    def _variants_fit_the_game(self) -> StudyConfig:
        """A ``message:<key>`` experiment varies a message of the study's game's catalog,
        a ``rules`` one the study's game's rules (an experiment built on its own was
        checked against any game's)."""
        for number, experiment in enumerate(self.experiments):
            target = ExperimentTarget.parse(experiment.target)
            if target.is_ui:
                continue
            for variant, payload in experiment.variants.items():
                try:
                    if target.is_message:
                        _check_message(target.name, payload, self.game)
                    else:
                        _check_rules(target.name, payload, self.game)
                except ValueError as err:
                    raise ValueError(f"experiments.{number}.variants.{variant}: {err}") from None
        return self


class EffectiveConfig(BaseModel):
    """What one participant actually gets: the base config with their variants applied."""

    model_config = ConfigDict(frozen=True)

    rules: str | dict[str, Any]
    seats: list[SeatKind]
    game: str = UNNAMED_GAME
    highlight_options: bool
    show_computer_dice: bool
    speed: int
    ai_think_ms: int | None
    message_variants: dict[str, str]
    # experiment key -> variant name, only for experiments this participant is in
    variants: dict[str, str]
    # which experiment varies what: "message:extra_turn" -> experiment key
    varied: dict[str, str]
    # the study's language (every message is read in it)
    language: str = "en"


def effective_config(config: StudyConfig, assigned: dict[str, str]) -> EffectiveConfig:
    """Apply assigned variants (experiment key → variant name) to the study's base config."""
    rules: str | dict[str, Any] = config.rules
    ui: dict[str, Any] = {
        "highlight_options": config.highlight_options,
        "show_computer_dice": config.show_computer_dice,
        "speed": config.speed,
    }
    messages: dict[str, str] = {}
    varied: dict[str, str] = {}
    for experiment in config.experiments:
        variant = assigned.get(experiment.key)
        if variant is None or variant not in experiment.variants:
            continue
        payload = experiment.variants[variant]
        varied[experiment.target] = experiment.key
        target = ExperimentTarget.parse(experiment.target)
        if target.is_message:
            messages[target.name] = str(payload)
        elif target.is_rules:
            rules = payload
        else:
            ui[target.name] = payload
    return EffectiveConfig(
        game=config.game,
        rules=rules,
        seats=list(config.seats),
        highlight_options=bool(ui["highlight_options"]),
        show_computer_dice=bool(ui["show_computer_dice"]),
        speed=int(ui["speed"]),
        ai_think_ms=config.ai_think_ms,
        message_variants=messages,
        variants={k: v for k, v in assigned.items()},
        varied=varied,
        language=config.language,
    )


def config_document(config: StudyConfig) -> dict[str, Any]:
    """The settings document a study stores (``studies.config``): every field but the game,
    which is a column of its own.

    >>> doc = config_document(StudyConfig(rules="house"))
    >>> doc["rules"], "game" in doc, parse_study_config(doc) == StudyConfig(rules="house")
    ('house', False, True)

    As the exchange format's study record and back (what an export and an import do):

    >>> fields = exchange_fields(config_document(StudyConfig(speed=3)))
    >>> parse_study_config(raw_config(**fields)) == StudyConfig(speed=3)
    True

    Left out when none: a panel, a quota, a family (and its version), an experiment's
    ``targets``:

    >>> doc = config_document(StudyConfig(experiments=[{"key": "k", "target": "rules",
    ...     "variants": {"a": "standard", "b": "standard"}}]))
    >>> "family" in doc, "version" in doc, "targets" in doc["experiments"][0]
    (False, False, False)
    """
    document = config.model_dump(mode="json", exclude={"game"})
    # A study without a panel, a quota or a family stores the document it stored before
    # they were settings (left out means none; without a family, version 1).
    if config.family is None:
        document.pop("version")
    # An English study stores what it stored before languages were a setting.
    if config.language == ENGLISH.code:
        document.pop("language")
    # An experiment that targets no confusion point stores what it stored before too.
    for experiment in document.get("experiments") or []:
        if experiment.get("targets") is None:
            experiment.pop("targets", None)
    return {k: v for k, v in document.items()
            if v is not None or k not in ("panel", "quota", "family")}


def study_record_problem(record: dict[str, Any]) -> str | None:
    """Why an exchange-format ``study`` record's settings would fail at play, or None.

    >>> study_record_problem({"rules": "standard", "experiments": [{"key": "s",
    ...     "target": "ui:speed", "variants": ["A", "B"], "payloads": {"A": 98, "B": 99}}]})
    'experiments.0.variants.A: ui:speed must be 1, 2 or 3, not 98'
    """
    problem = family_problem(record.get("family"), record.get("version"))
    if problem:
        return problem
    raw = raw_config(
        game=record.get("game", UNNAMED_GAME),
        rules=record.get("rules"),
        games_per_tester=record.get("games_per_tester") or 1,
        allow_more_games=bool(record.get("allow_more_games", False)),
        experiments=record.get("experiments"),
        surveys=record.get("surveys"),
        settings=record.get("settings"),
        family=record.get("family"),
        version=record.get("version"),
        language=record.get("language"),
    )
    try:
        parse_study_config(raw)
    except StudyConfigError as err:
        return str(err)
    return None


def parse_study_config(raw: dict[str, Any]) -> StudyConfig:
    """Validate stored or edited settings; raise :class:`StudyConfigError` naming the field.

    >>> parse_study_config({"highlight_options": "no"})
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: highlight_options: Input should be a valid boolean
    """
    if not isinstance(raw, dict):
        raise StudyConfigError("settings: must be an object of settings")
    problem = _too_deep(raw, MAX_DEPTH + 4)
    if problem:
        raise StudyConfigError(f"settings: {problem}")
    try:
        return StudyConfig.model_validate(raw, context={"game": raw.get("game", UNNAMED_GAME)})
    except ValidationError as err:
        first = err.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "settings"
        cause = (first.get("ctx") or {}).get("error")
        if isinstance(cause, _VariantError):
            raise StudyConfigError(f"{where}.{cause.variant}: {cause.message}") from None
        raise StudyConfigError(f"{where}: {_problem_in_words(first)}") from None
    except RecursionError:  # pragma: no cover - _too_deep refuses such input first
        raise StudyConfigError("settings: nested too deeply") from None


def _problem_in_words(error: Any) -> str:
    """A pydantic error's message in a designer's words where pydantic's own is obscure
    ("Dictionary should have at least 2 items after validation").

    >>> parse_study_config({"experiments": [{"key": "w", "target": "message:extra_turn",
    ...     "variants": {"A": "default"}}]})
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: experiments.0.variants: an experiment compares at least 2 variants (this one has 1): add another
    >>> parse_study_config({"experiments": [{"key": "Wording test", "target": "rules",
    ...     "variants": {"A": "standard", "B": "house"}}]})
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: experiments.0.key: use lower-case letters, digits, _ and - only (e.g. extra_turn_wording), not 'Wording test'
    """
    kind, field = error.get("type", ""), str((error.get("loc") or ("",))[-1])
    ctx, value = error.get("ctx") or {}, error.get("input")
    size = len(value) if isinstance(value, dict | list | str) else 0
    if kind == "too_short" and field == "variants":
        return (f"an experiment compares at least {ctx.get('min_length', 2)} variants "
                f"(this one has {size}): add another")
    if kind == "too_long" and field == "variants":
        return f"an experiment has at most {ctx.get('max_length')} variants (this one has {size})"
    if kind == "too_long":
        return f"at most {ctx.get('max_length')} entries (this has {size})"
    if kind == "string_too_short":
        return "must not be empty"
    if kind == "string_too_long":
        return f"at most {ctx.get('max_length')} characters (this has {size})"
    if kind == "string_pattern_mismatch" and field == "key":
        return ("use lower-case letters, digits, _ and - only (e.g. extra_turn_wording), "
                f"not {str(value)[:40]!r}")
    if kind == "missing":
        return "is missing"
    if kind == "extra_forbidden":
        return f"{field!r} is not a setting here (a typo?)"
    if kind in ("dict_type", "list_type"):
        return f"must be {'a list' if kind == 'list_type' else 'an object'} of settings"
    return str(error.get("msg", "")).removeprefix("Value error, ")


def _too_deep(value: Any, limit: int) -> str | None:
    """Why ``value`` nests deeper than ``limit`` levels, or None (walks without recursion).

    >>> _too_deep({"a": [[1]]}, 3), _too_deep({"a": [[[1]]]}, 3)
    (None, 'nested deeper than 3 levels')
    """
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            if depth >= limit:
                return f"nested deeper than {limit} levels"
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return None


def load_settings_text(text: str, field: str) -> Any:
    """Parse YAML (or JSON, which is YAML) a designer typed, within safe limits.

    Refuses text longer than :data:`MAX_SETTINGS_CHARS`, anchors and aliases, and nesting
    deeper than :data:`MAX_DEPTH` before anything is built from it, so neither an alias
    bomb nor a deep list can cost memory, time or a ``RecursionError``. Raises
    :class:`StudyConfigError` starting with ``field``.

    >>> load_settings_text('{"base": "standard", "surround": "group"}', "rules")
    {'base': 'standard', 'surround': 'group'}
    >>> load_settings_text("[" * 50 + "]" * 50, "rules")
    Traceback (most recent call last):
    ...
    playtest.study_config.StudyConfigError: rules: nested deeper than 8 levels
    """
    if len(text) > MAX_SETTINGS_CHARS:
        raise StudyConfigError(
            f"{field}: at most {MAX_SETTINGS_CHARS:,} characters (this has {len(text):,})"
        )
    depth = 0
    try:
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                name = getattr(event, "anchor", None) or "…"
                raise StudyConfigError(
                    f"{field}: YAML anchors and aliases (&{name}, *{name}) are not allowed"
                )
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise StudyConfigError(f"{field}: nested deeper than {MAX_DEPTH} levels")
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        value = yaml.safe_load(text)
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        problem = getattr(err, "problem", None) or str(err).splitlines()[0]
        raise StudyConfigError(f"{field}: not valid YAML or JSON{where}: {problem}") from None
    if isinstance(value, float) and not math.isfinite(value):
        raise StudyConfigError(f"{field}: {value} is not a setting")
    json.dumps(value, default=str)  # dates and the like become text, never a crash later
    return value
