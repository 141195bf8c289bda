"""What a designer sets for a study, validated, and what one participant gets from it.

A study's stored settings are a :class:`StudyConfig`. Experiments vary one thing each
(``target`` as in telemetry-format.md: ``message:<key>``, ``rules`` or ``ui:<setting>``);
:func:`effective_config` applies a participant's assigned variants on top of the base.

>>> config = StudyConfig(experiments=[Experiment(key="extra_turn_wording",
...     target="message:extra_turn", variants={"A": "default", "B": "formal"})])
>>> effective_config(config, {"extra_turn_wording": "B"}).message_variants
{'extra_turn': 'formal'}
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SeatKind = str  # "human" or "ai:<level>"
AI_LEVELS = ("easy", "medium", "hard", "expert")
UI_SETTINGS = ("highlight_options", "show_computer_dice", "speed")


class StudyConfigError(ValueError):
    """A study setting that cannot work, in words a designer understands."""


class Experiment(BaseModel):
    """One experiment: what it varies and the payload of each named variant.

    ``variants`` maps a variant name to what that variant sets: for ``message:<key>`` the
    catalog wording name (or a literal text of your own), for ``rules`` a rules object or
    preset name, for ``ui:<setting>`` the setting's value.
    """

    model_config = ConfigDict(extra="forbid")

    key: str = Field(min_length=1, max_length=64, pattern=r"^[a-z0-9_\-]+$")
    target: str
    variants: dict[str, Any] = Field(min_length=2)
    # The metric the verdict comes from (a name from analytics' metric registry for this
    # target); None takes the target type's default. min_effect: the smallest difference
    # worth acting on, in the metric's unit; None takes the metric's default.
    primary_metric: str | None = Field(default=None, max_length=64)
    min_effect: float | None = Field(default=None, gt=0, allow_inf_nan=False)

    @field_validator("target")
    @classmethod
    def _target_is_known(cls, target: str) -> str:
        kind, _, name = target.partition(":")
        if kind == "rules" and not name:
            return target
        if kind == "message" and name:
            return target
        if kind == "ui" and name in UI_SETTINGS:
            return target
        raise ValueError(
            f"target {target!r}: use 'message:<key>', 'rules' or 'ui:<setting>' "
            f"(settings: {', '.join(UI_SETTINGS)})"
        )

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
        return record


class StudyConfig(BaseModel):
    """Everything a study sets for its testers."""

    model_config = ConfigDict(extra="forbid")

    rules: str | dict[str, Any] = "standard"
    seats: list[SeatKind] = Field(default_factory=lambda: ["human", "ai:easy"])
    games_per_tester: int = Field(default=1, ge=1, le=20)
    allow_more_games: bool = True
    audience: Literal["adults", "children", "mixed"] = "mixed"
    pre_survey: str | None = "vapoosh_pre"
    post_survey: str | None = "vapoosh_post_short"
    highlight_options: bool = False
    show_computer_dice: bool = True
    speed: int = Field(default=2, ge=1, le=3)
    # Computer think time in ms; None follows the speed setting. 0 plays at once, which
    # the browser tests and very young testers' studies use.
    ai_think_ms: int | None = Field(default=None, ge=0, le=10_000)
    experiments: list[Experiment] = Field(default_factory=list)

    @field_validator("seats")
    @classmethod
    def _seats_are_valid(cls, seats: list[str]) -> list[str]:
        if not 1 <= len(seats) <= 4:
            raise ValueError("a game has 1 to 4 seats")
        for seat in seats:
            if seat == "human":
                continue
            kind, _, level = seat.partition(":")
            if kind != "ai" or level not in AI_LEVELS:
                raise ValueError(
                    f"seat {seat!r}: use 'human' or 'ai:<level>' with a level from "
                    f"{', '.join(AI_LEVELS)}"
                )
        if "human" not in seats:
            raise ValueError("at least one seat must be a human tester")
        return seats

    @model_validator(mode="after")
    def _experiment_keys_unique(self) -> StudyConfig:
        keys = [e.key for e in self.experiments]
        if len(keys) != len(set(keys)):
            raise ValueError("experiment keys must be unique")
        return self


class EffectiveConfig(BaseModel):
    """What one participant actually gets: the base config with their variants applied."""

    model_config = ConfigDict(frozen=True)

    rules: str | dict[str, Any]
    seats: list[SeatKind]
    highlight_options: bool
    show_computer_dice: bool
    speed: int
    ai_think_ms: int | None
    message_variants: dict[str, str]
    # experiment key -> variant name, only for experiments this participant is in
    variants: dict[str, str]
    # which experiment varies what: "message:extra_turn" -> experiment key
    varied: dict[str, str]


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
        kind, _, name = experiment.target.partition(":")
        if kind == "message":
            messages[name] = str(payload)
        elif kind == "rules":
            rules = payload
        else:
            ui[name] = payload
    return EffectiveConfig(
        rules=rules,
        seats=list(config.seats),
        highlight_options=bool(ui["highlight_options"]),
        show_computer_dice=bool(ui["show_computer_dice"]),
        speed=int(ui["speed"]),
        ai_think_ms=config.ai_think_ms,
        message_variants=messages,
        variants={k: v for k, v in assigned.items()},
        varied=varied,
    )


def parse_study_config(raw: dict[str, Any]) -> StudyConfig:
    """Validate stored or edited settings; raise :class:`StudyConfigError` naming the field."""
    try:
        return StudyConfig.model_validate(raw)
    except ValueError as err:  # pydantic.ValidationError is a ValueError
        errors = getattr(err, "errors", None)
        if callable(errors):
            first = errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ())) or "settings"
            raise StudyConfigError(f"{where}: {first.get('msg', err)}") from None
        raise StudyConfigError(str(err)) from None
