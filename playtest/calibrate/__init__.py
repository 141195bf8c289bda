"""Calibration of every game on realistic simulated studies (issue 22, item 4).

``python -m playtest.calibrate --game G [--seeds 10] [--testers 40]`` (also
``playtest calibrate``) simulates, per seed, two studies of ``G`` with the demo's human
model (:mod:`playtest.demo`: real games of the engine, every click and refusal logged as
the app does, surveys answered), imports them as ``playtest import`` does, reads them
with the report's own analysis and prints the table of
:func:`analytics.calibrate_games.game_checks` (exit status 1 when a target is missed):

- a **planted** study: testers unsure of the rules misread one rule of the game (they
  click, where it applies, a target the rule refuses), and one of the game's own
  messages, in one of its two catalog wordings, leaves testers puzzled (a longer pause
  before their next click, more rules lookups); the study's wording experiment gives
  half the testers each wording;
- a **null** study: the same testers' model with nothing planted (both wordings read
  alike, nobody misreads a rule beyond the demo's everyday slips).

Both studies also run an **A/A** experiment (two arms of the same rules), and both are
assigned as the app assigns (balanced, at random).

What is planted is each game's :data:`PLANT` in ``playtest/games/<game>/calibration.py``
(a :class:`GamePlant`): the rule, the message and its puzzling wording. A game that plays
its demo games itself plants them in its own play model (``own_truths``); the others
get them through their demo behaviour (:func:`behaviour`): ``planted_clicks`` for the rule, and
``message_effect`` (and ``messages_shown``, for a game whose demo shows no message yet:
the message is logged where its board shows it, with the tester's wording) for the
wording, at the level the analysis reads: ``message`` events with their variant, and the
tester's reactions to them.
"""

from __future__ import annotations

import dataclasses
import importlib
import random
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the analytics (pandas, plotly) are imported when a calibration runs:
    # ``playtest`` loads this package's commands for every command it runs
    from analytics.calibrate import CheckResult
    from analytics.calibrate_games import GameTruth, StudyReading
    from playtest.games.plugin import DemoBehaviour

#: Testers less sure of the rules than this misread the planted rule (about half of
#: the demo's testers: most children, some adults).
UNSURE = 0.6
WORDING_EXPERIMENT = "wording"
AA_EXPERIMENT = "aa"
#: The arms of a wording most games plant: the catalog's default as ``plain``, its
#: formal wording as ``formal`` (the puzzling one).
PLAIN_OR_FORMAL: Mapping[str, str] = MappingProxyType({"plain": "default", "formal": "formal"})


@dataclass(frozen=True)
class Wording:
    """A message of the game's catalog worded two ways, one of them puzzling.

    ``arms``: arm name → the catalog's wording (the first arm is the control; by default
    :data:`PLAIN_OR_FORMAL`); ``puzzling``: the wording (by default ``formal``) that leaves testers unsure (``pause_ms`` more before their
    next click, a rules lookup with chance ``lookups``; the other wording: 300 ms and
    3 %); ``shown_after``: for a game whose demo shows no message yet, the engine events
    after which its board shows it (empty: the game's demo shows it).
    """

    key: str
    arms: Mapping[str, str] = field(default_factory=lambda: dict(PLAIN_OR_FORMAL))
    puzzling: str = "formal"
    pause_ms: float = 2500.0
    lookups: float = 0.25
    shown_after: tuple[str, ...] = ()

    @property
    def right(self) -> str:
        """The arm that should be named better: the one not puzzling."""
        return next(arm for arm, wording in self.arms.items() if wording != self.puzzling)

    @property
    def wrong(self) -> str:
        return next(arm for arm, wording in self.arms.items() if wording == self.puzzling)


@dataclass(frozen=True)
class GamePlant:
    """A game's planted truths: the refusal ``rule`` misread (clicked, where it applies,
    with chance ``misread`` per move by a tester unsure of the rules) and the puzzling
    ``wording``. ``own_truths``: the names of the game's own demo play model's truths
    that plant both (it plants these alone, and none for a null study; empty: the game
    is played through the engine core, planted by :func:`behaviour`). ``settings``: the
    study's settings beyond the
    game's defaults (games per tester). ``targets(state, selection)``: targets the tester
    sees besides those the demo's testers know of (e.g. a tray of tiles)."""

    rule: str
    wording: Wording
    misread: float = 0.8
    own_truths: frozenset[str] = frozenset()
    settings: Mapping[str, Any] = field(default_factory=dict)
    targets: Callable[[Any, Sequence[str]], Sequence[str]] | None = None
    #: The misread move selects first (a cell, then a tile that does not fit it there).
    two_clicks: bool = False

    def truth(self) -> GameTruth:
        from analytics.calibrate_games import GameTruth

        return GameTruth(f"rule:{self.rule}", WORDING_EXPERIMENT, self.wording.right,
                         self.wording.wrong, AA_EXPERIMENT)


class CalibrationUnavailableError(ValueError):
    """The game has no planted truths (no ``calibration.py`` in its folder)."""


def plant_of(game: str) -> GamePlant:
    """The game's :data:`PLANT` (``playtest/games/<game>/calibration.py``)."""
    from playtest.games.registry import game_plugin

    plugin = game_plugin(game)
    try:
        module = importlib.import_module(f"playtest.games.{plugin.name}.calibration")
    except ModuleNotFoundError as err:
        raise CalibrationUnavailableError(f"{plugin.title} has no planted truths for "
                                          "calibration (its calibration.py)") from err
    plant: GamePlant = module.PLANT
    return plant


def behaviour(game: str, plant: GamePlant, planted: bool) -> DemoBehaviour:
    """The game's demo behaviour planting ``plant`` (``planted``) or nothing (a null
    study): its ``message_effect``, ``messages_shown`` (when the wording is shown after
    given events) and ``planted_clicks`` replaced."""
    from playtest.games.registry import game_plugin

    wording = plant.wording
    result: dict[str, Callable[..., Any] | None] = {"planted_clicks": None}

    def message_effect(key: str, variant: str) -> tuple[float, float]:
        if planted and (key, variant) == (wording.key, wording.puzzling):
            return wording.pause_ms, wording.lookups
        return 300.0, 0.03

    result["message_effect"] = message_effect
    if wording.shown_after:
        template = _templates(game, wording.key)

        def messages_shown(events: Sequence[Any], variants: Mapping[str, str]
                           ) -> list[dict[str, str]]:
            if not any(event.kind in wording.shown_after for event in events):
                return []
            variant = variants.get(wording.key, "default")
            return [{"key": wording.key, "variant": variant,
                     "text": template.get(variant, wording.key)}]

        result["messages_shown"] = messages_shown
    if planted:
        def planted_clicks(state: Any, selection: Sequence[str], candidates: Sequence[str],
                           tester: Any) -> list[str]:
            if tester.rules >= UNSURE:
                return []
            tries = _misread(state, tuple(selection), candidates, plant)
            if not tries or tester.rng.random() >= plant.misread:
                return []
            return list(tester.rng.choice(tries))

        result["planted_clicks"] = planted_clicks
    return dataclasses.replace(game_plugin(game).demo, **result)


def _misread(state: Any, selection: tuple[str, ...], candidates: Sequence[str],
             plant: GamePlant) -> list[tuple[str, ...]]:
    """The clicks the rule refuses from ``selection``: one target, or (``two_clicks``)
    a target that selects and then one the rule refuses."""
    def seen(held: tuple[str, ...]) -> list[str]:
        extra = plant.targets(state, held) if plant.targets else ()
        return sorted(set(candidates) | set(extra))

    def refused(held: tuple[str, ...]) -> list[str]:
        return [t for t in seen(held) if _reason(state.click(t, held)) == plant.rule]

    tries: list[tuple[str, ...]] = [(t,) for t in refused(selection)]
    if plant.two_clicks and not selection:
        for first in seen(selection):
            result = state.click(first, selection)
            if result.refusal is None and result.action is None and result.selection:
                tries += [(first, t) for t in refused(tuple(result.selection))]
    return tries


def _reason(result: Any) -> str | None:
    return None if result.refusal is None else str(result.refusal.reason)


def _templates(game: str, key: str) -> dict[str, str]:
    """The message's text in each of the catalog's wordings (placeholders kept)."""
    from playtest.study_config import message_catalog

    entry = message_catalog(game).entry(key)
    return {variant: entry.text(variant) for variant in message_catalog(game).variants}


def study_config(game: str, plant: GamePlant) -> Any:
    """The calibration study's settings: the game's defaults and the plant's settings,
    the wording experiment and the A/A experiment (both arms the game's default rules)."""
    from playtest.games.registry import game_plugin
    from playtest.study_config import Experiment, StudyConfig

    plugin = game_plugin(game)
    return StudyConfig(game=game, ai_think_ms=0, **dict(plant.settings), experiments=[
        Experiment(key=WORDING_EXPERIMENT, target=f"message:{plant.wording.key}",
                   variants=dict(plant.wording.arms)),
        Experiment(key=AA_EXPERIMENT, target="rules",
                   variants={"A": plugin.default_rules, "B": plugin.default_rules})])


def simulate_study(game: str, testers: int, seed: int, planted: bool,
                   folder: Path) -> StudyReading:
    """One study of ``testers`` simulated testers, imported into a SQLite file in
    ``folder`` and read (:func:`analytics.calibrate_games.read_study`)."""
    import json

    from analytics.calibrate_games import read_study
    from playtest import demo, services
    from playtest.storage.db import make_engine, upgrade
    from playtest.storage.exchange import import_jsonl
    from playtest.study_data import load_bundle
    from playtest.survey_items import annotate

    plant = plant_of(game)
    config = study_config(game, plant)
    engine = make_engine(f"sqlite:///{folder / f'study-{seed}-{int(planted)}.sqlite'}")
    try:
        upgrade(engine)
        study = services.create_study(engine, title="Calibration", config=config,
                                      study_id="calibration")
        rng = random.Random(seed * 2 + planted)
        arms = demo.assign_variants(config, testers, random.Random(rng.getrandbits(64)))
        start = datetime(2026, 5, 4, 9, 0, tzinfo=UTC)
        planting = None if plant.own_truths else behaviour(game, plant, planted)
        path = folder / f"study-{seed}-{int(planted)}.jsonl"
        with path.open("w", encoding="utf-8") as handle:
            for index in range(testers):
                for record in demo.simulate_tester(
                        index, study.study_id, config, start,
                        random.Random(rng.getrandbits(64)), arms[index], behaviour=planting,
                        truths=(plant.own_truths if planted else frozenset())
                        if plant.own_truths else None):
                    handle.write(json.dumps(record) + "\n")
        import_jsonl(engine, path)
        bundle = load_bundle(engine, study.study_id)
        annotate(bundle.data)  # as the dashboard and the plan do: free-text items named
        return read_study(bundle.data, bundle.scores, bundle.quiz)
    finally:
        engine.dispose()


def calibrate_game(game: str, seeds: int = 10, testers: int = 40, seed: int = 1,
                   progress: Callable[[str], None] | None = None) -> list[CheckResult]:
    """The checks of :func:`analytics.calibrate_games.game_checks` over ``seeds`` planted
    and ``seeds`` null studies of ``testers`` testers each."""
    from analytics.calibrate_games import game_checks

    plant = plant_of(game)
    planted: list[StudyReading] = []
    null: list[StudyReading] = []
    with tempfile.TemporaryDirectory() as folder:
        for number in range(seeds):
            for kind, readings in ((True, planted), (False, null)):
                readings.append(simulate_study(game, testers, seed * 1000 + number, kind,
                                               Path(folder)))
                if progress is not None:
                    progress(f"{game}: seed {number + 1}/{seeds} "
                             f"{'planted' if kind else 'null'}: top 3 "
                             f"{', '.join(readings[-1].top) or '–'}; verdicts "
                             f"{dict(readings[-1].verdicts)}")
    return game_checks(plant.truth(), planted, null)
