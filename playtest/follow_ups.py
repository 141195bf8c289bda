"""The follow-up experiment of a confusion point, prefilled for the Confusion page, and
adding it to the running study (issue 26, item 2).

For each listed confusion point that one of its game's remedies fits
(:mod:`analytics.remedies`; worked out by :mod:`analytics.follow_ups`, which the design
plan lists too), :func:`proposals` prefills the experiment: control = today,
challenger = the remedy, primary metric = the point's own trouble rate
(``trouble:<point>``, :func:`analytics.metrics.trouble_metric`), the smallest effect worth
acting on (half of today's rate) and the testers per arm it needs for 80 % power
(:func:`analytics.remedies.always_valid_arm_size`), both from this study's own data.
:func:`experiment_of` makes the experiment the designer edited exactly as the Studies
page's form does (:func:`playtest.experiment_choices.experiment_from_form`, its checks);
:func:`add_to_study` stores it in the study's settings once (a second call finds it
there), and :func:`effect_on_running` says what that does to the experiments already
running.

>>> follow_up_key("rule:walled")
'fix_walled'
>>> follow_up_key("message:refused_walled@formal")
'fix_refused_walled_formal'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy.engine import Engine

from analytics.data import StudyData
from analytics.follow_ups import DEFINITIONS as DEFINITIONS  # re-exported: the page's
from analytics.follow_ups import ProposedFollowUp, proposed_follow_ups
from analytics.follow_ups import follow_up_key as follow_up_key  # re-exported
from analytics.game_analytics import for_study
from analytics.remedies import FollowUp, follow_up
from analytics.targets import ExperimentTarget
from playtest import services
from playtest.experiment_choices import experiment_from_form, payload_text, shown, ui_setting
from playtest.games.registry import GamePlugin, game_plugin
from playtest.storage import repository as repo
from playtest.study_config import (
    StudyConfig,
    StudyConfigError,
    check_experiments_change_the_game,
    parse_study_config,
)
from playtest.study_form_checks import config_to_correct, where_in_words

#: The names of the two arms of a follow-up experiment.
CONTROL, CHALLENGER = "today", "remedy"
#: Today's value of a remedy that names none (a message's default wording).
CONTROL_DEFAULT = "default"

def control_text(proposal: ProposedFollowUp) -> str:
    """Today's value of the remedy as the Studies page's form shows it."""
    return payload_text(CONTROL_DEFAULT if proposal.remedy.control is None
                        else proposal.remedy.control)


def challenger_text(proposal: ProposedFollowUp) -> str:
    """The remedy's value as the Studies page's form shows it."""
    return payload_text(proposal.remedy.challenger)


def sized(proposal: ProposedFollowUp, min_effect: float) -> FollowUp:
    """The follow-up with the designer's smallest effect: :class:`RemedyError` when it
    does not fit today's rate."""
    return follow_up(proposal.remedy, point=proposal.point, rate=proposal.plan.rate,
                     min_effect=min_effect, key=proposal.plan.key)


def today_text(plugin: GamePlugin, proposal: ProposedFollowUp, config: StudyConfig) -> str:
    """Today's value of what the remedy varies, as the Studies page's form takes it: a
    display setting's label as the study sets it, the study's rules, or the remedy's
    control (a message's wording; ``default`` when it names none)."""
    target = ExperimentTarget.parse(proposal.remedy.target)
    if target.is_ui and target.setting is not None:
        value = getattr(config, target.setting, proposal.remedy.control)
        setting = ui_setting(plugin, target.setting)
        return next((c.label for c in setting.choices if c.value == value),
                    payload_text(value)) if setting else payload_text(value)
    if target.is_rules:
        return payload_text(config.rules)
    return control_text(proposal)


def challenger_choices(plugin: GamePlugin, proposal: ProposedFollowUp) -> list[str] | None:
    """The values the remedy's display setting offers (labels), or None when the
    challenger is typed (a wording, a text of one's own, a rules object or preset)."""
    target = ExperimentTarget.parse(proposal.remedy.target)
    setting = ui_setting(plugin, target.setting) if target.setting is not None else None
    return [c.label for c in setting.choices] if setting is not None else None


def challenger_start(plugin: GamePlugin, proposal: ProposedFollowUp) -> str:
    """The remedy's value as the page's field starts with it (a setting's label)."""
    target = ExperimentTarget.parse(proposal.remedy.target)
    setting = ui_setting(plugin, target.setting) if target.setting is not None else None
    if setting is not None:
        return next((c.label for c in setting.choices if c.value == proposal.remedy.challenger),
                    challenger_text(proposal))
    return challenger_text(proposal)


def arms_shown(plugin: GamePlugin, experiment: dict[str, Any]) -> dict[str, str]:
    """What testers see in each arm of the experiment, in words."""
    target = ExperimentTarget.parse(str(experiment["target"]))
    return {name: shown(plugin, target, payload)
            for name, payload in dict(experiment["variants"]).items()}


def experiment_of(plugin: GamePlugin, proposal: ProposedFollowUp, config: StudyConfig,
                  challenger: str, min_effect: float,
                  listed: Sequence[Any] = ()) -> dict[str, Any]:
    """The follow-up as the Studies page's form would add it (variants ``today``, the
    study's value now, and ``remedy`` as typed; primary metric ``trouble:<point>``;
    ``min_effect``; ``targets`` the point), checked as saving the study checks it:
    :class:`StudyConfigError` in the page's words.

    >>> from analytics.remedies import Remedy, follow_up
    >>> from analytics.data import UNNAMED_GAME
    >>> remedy = Remedy(("rule:own_tile",), "ui:highlight_options", True, "t", "w", False)
    >>> plan = follow_up(remedy, point="rule:own_tile", rate=0.5, key="fix_own_tile")
    >>> experiment = experiment_of(game_plugin(UNNAMED_GAME), ProposedFollowUp(plan, "x", 10),
    ...                            StudyConfig(game=UNNAMED_GAME), "on", 0.25)
    >>> experiment["variants"], experiment["primary_metric"], experiment["min_effect"]
    ({'today': False, 'remedy': True}, 'trouble:rule:own_tile', 0.25)
    >>> experiment["targets"]
    'rule:own_tile'
    """
    target = ExperimentTarget.parse(proposal.remedy.target)
    experiment = experiment_from_form(plugin, proposal.plan.key, target,
                                      [(CONTROL, today_text(plugin, proposal, config)),
                                       (CHALLENGER, challenger)],
                                      proposal.plan.metric, min_effect, listed)
    return {**experiment, "targets": proposal.point}


@dataclass(frozen=True)
class Added:
    """What :func:`add_to_study` did: ``added`` False when the study had it already."""

    added: bool
    message: str


def stored_experiments(study: repo.Study) -> list[dict[str, Any]]:
    """The study's experiments as stored (each a mapping with its key)."""
    stored = study.config.get("experiments") if isinstance(study.config, dict) else None
    return [e for e in stored if isinstance(e, dict)] if isinstance(stored, list) else []


def add_to_study(engine: Engine, study_id: str, experiment: dict[str, Any]) -> Added:
    """Add ``experiment`` to the study's settings as saving the Studies page does (the
    whole settings checked again, then stored); when the study has an experiment of
    that key already, nothing changes (a second click adds nothing).
    :class:`StudyConfigError` says why it cannot be added."""
    study = repo.get_study(engine, study_id)
    if study is None:
        raise StudyConfigError(f"no study {study_id!r}")
    running = stored_experiments(study)
    key = experiment.get("key")
    if any(e.get("key") == key for e in running):
        return Added(False, f"“{key}” is in this study's experiments already: nothing "
                            "was added.")
    _, problem = config_to_correct(study.game, study.config)
    if problem:
        raise StudyConfigError(f"this study's settings need correcting on the Studies "
                               f"page first: {problem}")
    raw = {**study.config, "game": study.game,
           "experiments": [*running, experiment]}
    try:
        config = parse_study_config(raw)
        check_experiments_change_the_game(config)
    except StudyConfigError as err:
        raise StudyConfigError(where_in_words(str(err), raw["experiments"])) from None
    repo.update_study(engine, study_id, **services.study_columns(config))
    return Added(True, f"“{key}” was added to this study's experiments.")


#: What each of the follow-up's two buttons does, in one line.
CHOICES = ("“Add to this study” changes what new testers of this study see. “Start a "
           "follow-up study” starts fresh testers on a new link, as the next version of "
           "this study, and keeps this study as it is.")


@dataclass(frozen=True)
class Started:
    """What :func:`start_follow_up` did: the follow-up ``study`` (``started`` False when
    it had been started already) and what to tell the designer."""

    study: repo.Study
    started: bool
    message: str


def start_follow_up(engine: Engine, study_id: str, experiment: dict[str, Any]) -> Started:
    """Start the follow-up study of ``study_id`` with ``experiment``
    (:func:`playtest.services.start_follow_up_study`), once: when a later version of the
    family runs the experiment already, that one. :class:`StudyConfigError` says why not."""
    study = repo.get_study(engine, study_id)
    if study is None:
        raise StudyConfigError(f"no study {study_id!r}")
    key = str(experiment.get("key"))
    before = services.existing_follow_up(engine, study, key)
    made = before or services.start_follow_up_study(engine, study, experiment)
    where = services.family_words(made).replace("Version", "version", 1)
    if before is not None:
        return Started(made, False, f"The follow-up study {made.study_id} with “{key}” "
                                    f"was started already ({where}): nothing new was made.")
    return Started(made, True, f"Started the follow-up study {made.study_id} ({where}) "
                               f"with “{key}”; this study is kept as it is.")


def start_proposed(engine: Engine, study_id: str, point: str) -> Started:
    """Start the follow-up study the Confusion page proposes for ``point``, as proposed
    (the remedy's challenger, today's rate halved as the smallest effect):
    :func:`start_follow_up`. :class:`StudyConfigError` when no remedy of the study's
    game fits the point or the study is unknown."""
    from playtest.study_data import load_bundle

    study = repo.get_study(engine, study_id)
    if study is None:
        raise StudyConfigError(f"no study {study_id!r}")
    proposal = next((p for p in proposed_follow_ups(load_bundle(engine, study_id).data)
                     if p.point == point), None)
    if proposal is None:
        raise StudyConfigError(f"no follow-up is proposed for {point!r} in {study_id!r}")
    plugin = game_plugin(study.game)
    experiment = experiment_of(plugin, proposal, services.study_config(study),
                               challenger_start(plugin, proposal), proposal.plan.min_effect)
    return start_follow_up(engine, study_id, experiment)


def follow_up_replaces(study: repo.Study, experiment: dict[str, Any]) -> str | None:
    """What the follow-up study leaves out of this study's experiments, in words (None:
    nothing; it runs them all beside the follow-up)."""
    config, _ = config_to_correct(study.game, study.config)
    replaced = services.replaced_in_follow_up(config, experiment)
    if not replaced:
        return None
    names = ", ".join(f"“{k}”" for k in replaced)
    return (f"The follow-up study leaves out {names} of this study: it varies the same "
            f"{experiment.get('target')} as “{experiment.get('key')}”, whose arm would "
            "decide it there.")


def effect_on_running(running: Sequence[dict[str, Any]], experiment: dict[str, Any]
                      ) -> str:
    """What adding ``experiment`` does to the experiments already running (each new
    tester gets an arm of every experiment, each balanced on its own: they are crossed).

    >>> new = {"key": "fix_walled", "target": "ui:highlight_options"}
    >>> print(effect_on_running([], new))
    This study runs no experiment yet: from now on each new tester gets “today” or “remedy” of “fix_walled”, balanced. Testers who have already begun keep today's settings and are not counted in it.
    >>> print(effect_on_running([{"key": "w", "target": "message:x", "variants": ["A", "B"]}], new))
    Running now: “w” (2 arms). Experiments are crossed, not split: each new tester also gets “today” or “remedy” of “fix_walled”, balanced on its own, and still gets an arm of every running experiment, so their arms keep filling as before and hold both arms of “fix_walled” in about even shares. Testers who have already begun keep their arms, keep today's settings and are not counted in “fix_walled”.
    >>> print(effect_on_running([{"key": "h", "target": "ui:highlight_options",
    ...                           "variants": ["off", "on"]}], new).split(". ")[-1])
    Warning: “h” varies the same ui:highlight_options: for new testers “fix_walled”'s arm decides it, so “h” compares nothing for them from now on (end “h” on the Studies page first, or keep testing it instead).
    """
    key, target = experiment.get("key"), experiment.get("target")
    arms = f"“{CONTROL}” or “{CHALLENGER}” of “{key}”"
    if not running:
        return (f"This study runs no experiment yet: from now on each new tester gets "
                f"{arms}, balanced. Testers who have already begun keep today's settings "
                "and are not counted in it.")
    names = ", ".join(f"“{e.get('key')}” ({len(e.get('variants') or [])} arms)"
                      for e in running)
    said = (f"Running now: {names}. Experiments are crossed, not split: each new tester "
            f"also gets {arms}, balanced on its own, and still gets an arm of every "
            "running experiment, so their arms keep filling as before and hold both arms "
            f"of “{key}” in about even shares. Testers who have already begun keep their arms, "
            f"keep today's settings and are not counted in “{key}”.")
    for other in clashes(running, experiment):
        said += (f" Warning: “{other}” varies the same {target}: for new testers "
                 f"“{key}”'s arm decides it, so “{other}” compares nothing for them from "
                 f"now on (end “{other}” on the Studies page first, or keep testing it "
                 "instead).")
    return said


def clashes(running: Sequence[dict[str, Any]], experiment: dict[str, Any]) -> list[str]:
    """The keys of running experiments that vary what ``experiment`` varies.

    >>> clashes([{"key": "h", "target": "rules"}, {"key": "w", "target": "ui:speed"}],
    ...         {"key": "fix", "target": "rules"})
    ['h']
    """
    return [str(e.get("key")) for e in running if e.get("target") == experiment.get("target")]


def plugin_of(data: StudyData) -> GamePlugin:
    """The study's game plug-in."""
    return game_plugin(for_study(data).name)
