"""Demo data: simulated testers who play real games and answer the real surveys.

Each simulated tester consents, is assigned variants (balanced), answers the pre-play
survey, plays whole games of the study's game and answers the post-play survey. The games
are played through the registry, so this module knows no game:

- a game whose plug-in's demo behaviour (:class:`~playtest.games.plugin.DemoBehaviour`)
  has ``play_game`` plays its testers' games itself (a game with a play screen model of
  its own and an error model that plants truths the dashboard should find: see the
  README, "What the demo should show");
- any other game is played through the engine core's clicks (:mod:`playtest.demo_play`:
  every click logged, refused ones with the engine's refusal reason), with the rest of
  its demo behaviour (``slip_targets``, ``computer_level``, ``game_rules``).

A game's demo study is its default rules, seats and surveys plus what its demo behaviour's
``settings`` set (:func:`game_demo_config`).

The records go through ``playtest import`` (validated, all or nothing), so a demo study
is also a test of the exchange format.

Speed: each tester is simulated from its own seed and its own (pre-computed, balanced)
variant assignment, so testers can be simulated in worker processes and the file is the
same whatever the number of workers (``generate(..., workers=1)`` equals ``workers=2``).
"""

from __future__ import annotations

import contextlib
import json
import math
import multiprocessing
import os
import random
import tempfile
import uuid
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from analytics.data import UNNAMED_GAME
from playtest import demo_play, demo_sequence, services
from playtest.games.plugin import DemoBehaviour
from playtest.games.registry import game_plugin, games
from playtest.storage import repository as repo
from playtest.storage.exchange import ImportReport, import_jsonl
from playtest.study_config import Experiment, StudyConfig, effective_config
from surveys import load_survey
from surveys.simulate import plausible_answers

DEMO_STUDY_ID = "demo"
#: Most simulated testers ``playtest up`` gives each other game's demo study.
GAME_DEMO_TESTERS = 20


class DemoUnavailableError(ValueError):
    """The study's game has no simulated testers (its states cannot be clicked through)."""


#: The game of the demo study :data:`DEMO_STUDY_ID` (the one that the lab began with and
#: that studies naming no game play: its link ``/?study=demo`` predates the other games).
DEMO_GAME = UNNAMED_GAME


def demo_config() -> StudyConfig:
    """The demo study :data:`DEMO_STUDY_ID` (:data:`DEMO_GAME`'s):
    :func:`game_demo_config`."""
    return game_demo_config(DEMO_GAME)


def ensure_demo_study(engine: Engine) -> repo.Study:
    """The demo study (simulated testers go here): :data:`DEMO_GAME`'s; ``playtest up``
    also makes :func:`ensure_game_demo_studies`."""
    study = repo.get_study(engine, DEMO_STUDY_ID)
    if study is not None:
        return study
    return services.create_study(engine, title=f"{game_plugin(DEMO_GAME).title} demo study",
                                 config=demo_config(), study_id=DEMO_STUDY_ID)


def ensure_game_demo_studies(engine: Engine) -> list[repo.Study]:
    """A demo study per registered game other than :data:`DEMO_GAME` (whose demo study is
    :data:`DEMO_STUDY_ID`): ``demo-<game>``, created once, with the game's default rules,
    seats and surveys (:func:`game_demo_config`), so each game can be tried at once from
    its tester link; ``playtest up`` fills them with simulated testers
    (:func:`fill_game_demo_studies`)."""
    studies = []
    for plugin in (p for p in games() if p.name != DEMO_GAME):
        study_id = f"{DEMO_STUDY_ID}-{plugin.name}"
        study = repo.get_study(engine, study_id) or services.create_study(
            engine, title=f"{plugin.title} demo study", study_id=study_id,
            config=game_demo_config(plugin.name))  # the game's default seats
        studies.append(study)
    return studies


def game_demo_config(game: str) -> StudyConfig:
    """A game's demo study: its default rules, seats and surveys, what the game's demo
    behaviour sets (:attr:`DemoBehaviour.settings
    <playtest.games.plugin.DemoBehaviour.settings>`: more games per tester, experiments
    of its own), and, unless it names its experiments or the game's board does not
    offer the setting, an experiment on highlighting the options, so the dashboard's
    experiment pages have arms to compare."""
    plugin = game_plugin(game)
    made = plugin.demo.settings
    settings: dict[str, Any] = dict(made()) if made is not None else {}
    if "experiments" in settings or plugin.ui_setting("highlight_options") is None:
        return StudyConfig(game=game, **settings)
    return StudyConfig(game=game, **settings, experiments=[
        Experiment(key="highlight", target="ui:highlight_options",
                   variants={"off": False, "on": True})])


def ensure_language_demo_study(engine: Engine, language: str,
                               game: str = DEMO_GAME) -> repo.Study:
    """A demo study of ``game`` whose testers are addressed in ``language`` (``de``):
    ``demo-<language>-<game>``, the game's demo settings (:func:`game_demo_config`) in
    that language, created once (``playtest demo --language de --game G``)."""
    from playtest.i18n import Language

    code = Language.parse(language).code  # LanguageError (a ValueError) saying which exist
    study_id = f"{DEMO_STUDY_ID}-{code}-{game}"
    config = game_demo_config(game).model_copy(update={"language": code})
    return repo.get_study(engine, study_id) or services.create_study(
        engine, title=f"{game_plugin(game).title} demo study ({language})",
        study_id=study_id, config=config)


def fill_game_demo_studies(engine: Engine, testers: int) -> list[tuple[repo.Study, ImportReport]]:
    """``playtest up``: simulated testers for each game's demo study that has none yet
    (:func:`ensure_game_demo_studies`), so the dashboard of every game has data."""
    filled = []
    for study in ensure_game_demo_studies(engine):
        if testers > 0 and not repo.list_participants(engine, study.study_id):
            filled.append((study, generate(engine, testers, study=study)))
    return filled


def check_simulated(study_id: str, config: StudyConfig) -> None:
    """Raise :class:`DemoUnavailableError` unless testers can be simulated on the study's
    game: a game that plays its demo games itself (a ``play_game`` hook), or a game whose
    states are clicked through the engine core (:class:`engine.core.PlayableState`)."""
    plugin = game_plugin(config.game)
    if plugin.demo.play_game is not None:
        return
    state = plugin.make_game(config.rules, len(config.seats)).new_initial_state()
    if not demo_play.supports(state):
        raise DemoUnavailableError(
            f"study {study_id} plays {config.game!r}, whose states cannot be clicked "
            f"through (play the study from its tester link instead)")


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


class EventRecorder:
    """A game sink that writes exchange-format event records on a simulated clock."""

    def __init__(self, out: list[dict[str, Any]], participant_id: str, session_id: str,
                 clock: list[float], seq: list[int], game_id: str | None) -> None:
        self.out = out
        self.participant_id = participant_id
        self.session_id = session_id
        self.clock = clock
        self.seq = seq
        self.game_id = game_id

    def append_action(self, index: int, action: list[Any]) -> bool:
        return True

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        self.seq[0] += 1
        self.clock[0] += 40
        record = {
            "record": "event", "participant_id": self.participant_id,
            "session_id": self.session_id, "seq": self.seq[0],
            "at": _iso(datetime.fromtimestamp(self.clock[0] / 1000, UTC)),
            "type": type_, "props": props,
        }
        if self.game_id is not None:
            record["game_id"] = self.game_id
        self.out.append(record)

    def finish(self, winner: int | None, reason: str, turns: int) -> None:
        return None

    def batch(self) -> contextlib.AbstractContextManager[None]:
        return contextlib.nullcontext()

    def expose(self, experiment: str, variant: str, context: dict[str, Any]) -> None:
        return None  # the exchange format has no exposure records

    def stored_actions(self) -> int:
        return -1  # nothing is stored in between: never behind


class SimulatedTester:
    """One simulated tester: a profile and a random stream.

    ``child``; ``maths``, ``rules`` (0 … 1: how good at the arithmetic a game asks, how
    sure of its rules); ``pace`` (a multiplier of every pause); ``enjoyment`` (0 … 1);
    ``player``: a slot for the game's hook (a habit it makes once per tester);
    ``moves_made``: moves so far (testers clicking through the engine core learn).
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.child = rng.random() < 0.55
        self.maths = min(max(rng.gauss(0.55 if self.child else 0.8, 0.15), 0.05), 0.98)
        self.rules = min(max(rng.gauss(0.55 if self.child else 0.75, 0.2), 0.05), 0.98)
        self.pace = math.exp(rng.gauss(0.0, 0.3)) * (1.3 if self.child else 1.0)
        self.enjoyment = min(max(rng.gauss(0.7, 0.15), 0.0), 1.0)
        self.player: Any = None  # a game's habit, made on the first move by its hook
        self.moves_made = 0  # other games' moves (playtest.demo_play's learning)


def assign_variants(config: StudyConfig, testers: int, rng: random.Random,
                    start: dict[str, dict[str, int]] | None = None) -> list[dict[str, str]]:
    """Balanced variant assignments for ``testers`` testers in arrival order.

    Each experiment gives the next tester its least-filled arm so far, ties broken at
    random (as the app does). Computed up front so testers can be simulated apart.
    ``start``: the study's arm counts before these testers (experiment → variant → n).

    >>> arms = assign_variants(demo_config(), 4, random.Random(1))
    >>> sorted(a["highlight"] for a in arms)
    ['off', 'off', 'on', 'on']
    """
    counts = {e.key: {v: (start or {}).get(e.key, {}).get(v, 0) for v in e.variants}
              for e in config.experiments}
    assignments: list[dict[str, str]] = []
    for _ in range(testers):
        assigned: dict[str, str] = {}
        for experiment in config.experiments:
            tally = counts[experiment.key]
            low = min(tally.values())
            variant = rng.choice([v for v, n in tally.items() if n == low])
            tally[variant] += 1
            assigned[experiment.key] = variant
        assignments.append(assigned)
    return assignments


def simulate_tester(index: int, study_id: str, config: StudyConfig, start: datetime,
                    rng: random.Random, assigned: dict[str, str],
                    behaviour: DemoBehaviour | None = None,
                    truths: Collection[str] | None = None) -> Iterator[dict[str, Any]]:
    """The exchange-format records of one simulated tester, in order.

    ``behaviour`` replaces the game's demo behaviour for games played through the engine
    core (:func:`playtest.demo_play.play_game`); ``truths`` names the planted
    truths a game that plays its demo games itself is to plant (None: all of its own;
    a calibration plants some, or none)."""
    tester = SimulatedTester(rng)
    participant_id = f"demo-{index:06d}-{rng.randrange(16**6):06x}"
    created = start + timedelta(minutes=index * 7 + rng.random() * 5)
    yield {"record": "participant", "study_id": study_id, "participant_id": participant_id,
           "created_at": _iso(created), "consented_at": _iso(created),
           "consent": {"child": tester.child, "parent_consent": tester.child}}
    for experiment in config.experiments:
        yield {"record": "assignment", "participant_id": participant_id,
               "experiment": experiment.key, "variant": assigned[experiment.key],
               "at": _iso(created)}
    effective = effective_config(config, assigned)
    out: list[dict[str, Any]] = []
    session_id = uuid.UUID(int=rng.getrandbits(128)).hex
    clock = [created.timestamp() * 1000]
    seq = [0]
    page_log = EventRecorder(out, participant_id, session_id, clock, seq, None)

    def page(name: str) -> None:
        page_log.log("page", {"page": name})

    def survey(phase: str, survey_id: str | None) -> None:
        if survey_id is None:
            return
        # The form the app gives this tester (children's, or adults' after "An adult").
        definition = load_survey(services.survey_id_for(survey_id, phase, child=tester.child,
                                                    game=config.game))
        profile = {"enjoyment": tester.enjoyment, "confusion": 1 - tester.rules, "skip": 0.2,
                   "maths": tester.maths, "pace": tester.pace}
        answers = plausible_answers(definition, rng, profile, seed=participant_id)
        clock[0] += rng.uniform(40_000, 150_000) * tester.pace
        for item, value in answers.items():
            out.append({"record": "response", "participant_id": participant_id,
                        "survey": definition.id, "survey_version": definition.version,
                        "phase": phase, "item": item, "value": value,
                        "at": _iso(datetime.fromtimestamp(clock[0] / 1000, UTC)),
                        # the language it was asked in (absent: English, as before)
                        **({"language": config.language} if config.language != "en" else {})})
        page_log.log("survey_page", {"survey": definition.id, "phase": phase, "page": "all",
                                     "seconds": round(rng.uniform(40, 150), 1)})

    page("consent")
    page("pre_survey")
    survey("pre", config.pre_survey)
    page("play")
    games = config.games_per_tester + (1 if rng.random() < 0.2 else 0)
    quits = rng.random() < 0.08 * (1 - tester.enjoyment)
    played: list[tuple[Any, int | None, str]] = []
    plugin = game_plugin(effective.game)
    next_rules = plugin.demo.game_rules
    own_play = plugin.demo.play_game
    for _ in range(games):
        game_id = uuid.UUID(int=rng.getrandbits(128)).hex
        recorder = EventRecorder(out, participant_id, session_id, clock, seq, game_id)
        seed = rng.randrange(1 << 31)
        if own_play is not None:  # the game's own screen and error model
            own_play(effective, seed=seed, game_id=game_id, tester=tester,
                     recorder=recorder, clock=clock,
                     **({} if truths is None else {"truths": truths}))
        else:  # through the engine core's clicks
            rules = effective.rules if next_rules is None else next_rules(effective.rules,
                                                                           played)
            demo_play.play_game(plugin, rules=rules,
                                seats=effective.seats, seed=seed, game_id=game_id,
                                tester=tester, highlight=effective.highlight_options,
                                log=recorder.log, clock=clock, played=played,
                                messages=effective.message_variants,
                                behaviour=behaviour)
        if quits:
            break
    if not quits:
        page("post_survey")
        survey("post", config.post_survey)
        page("done")
    yield from out


@dataclass(frozen=True)
class _TesterTask:
    """What a worker needs to simulate one tester (picklable)."""

    index: int
    seed: int
    study_id: str
    config: StudyConfig
    start: datetime
    assigned: dict[str, str]


def _tester_jsonl(task: _TesterTask) -> str:
    """One tester's records as JSONL text (runs in a worker process or in-process)."""
    records = simulate_tester(task.index, task.study_id, task.config, task.start,
                              random.Random(task.seed), task.assigned)
    dumps = json.JSONEncoder(separators=(",", ":")).encode
    return "".join(dumps(record) + "\n" for record in records)


def _default_workers(testers: int) -> int:
    # A pool costs ~0.5 s to start: worth it only for bigger studies. Two workers: the
    # importer (single process) then has the machine to itself anyway.
    if testers < 100:
        return 1
    return max(1, min(2, os.cpu_count() or 1))


CHUNK_TESTERS = 500


def _tester_chunks(tasks: Sequence[_TesterTask], workers: int) -> Iterator[list[str]]:
    """The tasks' JSONL texts, :data:`CHUNK_TESTERS` testers at a time, in task order.

    With workers, the next chunk is simulated while the caller imports this one, so
    simulating and importing (about equal shares at 10,000 testers) overlap.
    """
    size = CHUNK_TESTERS
    chunks = [list(tasks[i:i + size]) for i in range(0, len(tasks), size)]
    if workers <= 1:
        for chunk in chunks:
            yield [_tester_jsonl(task) for task in chunk]
        return
    # fork where available: the workers inherit the imported engines and catalogs.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else None)
    with context.Pool(workers) as pool:
        pending = pool.map_async(_tester_jsonl, chunks[0], chunksize=8) if chunks else None
        for index in range(len(chunks)):
            assert pending is not None
            texts = pending.get()
            if index + 1 < len(chunks):
                pending = pool.map_async(_tester_jsonl, chunks[index + 1], chunksize=8)
            yield texts


def generate(engine: Engine, testers: int, seed: int = 1,
             study: repo.Study | None = None, workers: int | None = None,
             now: datetime | None = None) -> ImportReport:
    """Fill the demo study (or ``study``) with ``testers`` simulated testers.

    Each tester gets its own seed (from ``seed``, the study and its place in it, so
    testers can be added to a study that has some: :mod:`playtest.demo_sequence`) and a
    balanced assignment, so the records do not depend on ``workers`` (processes
    simulating testers; default 2 for
    100 testers or more, else 1). Testers arrive about 7 minutes apart, the last an hour
    before ``now`` (default: the current time). The records are imported
    :data:`CHUNK_TESTERS` testers per file (each file all or nothing; a tester's records
    never span two files), and the reports are added up.
    """
    study = study or ensure_demo_study(engine)
    config = services.study_config(study)
    check_simulated(study.study_id, config)
    rng = random.Random(seed)
    # Testers added to a study that has some get places, seeds and arms of their own
    # (a tester's arrival time counts from its place: the last still an hour ago).
    first = demo_sequence.next_tester_index(engine, study.study_id)
    start = (now or datetime.now(UTC)) - timedelta(minutes=(first + testers) * 7 + 60)
    seeds = [demo_sequence.tester_seed(seed, study.study_id, first + i) for i in range(testers)]
    assignments = assign_variants(config, testers, random.Random(rng.getrandbits(64)),
                                  demo_sequence.assignment_tallies(engine, study.study_id))
    tasks = [_TesterTask(first + i, seeds[i], study.study_id, config, start, assignments[i])
             for i in range(testers)]
    total = ImportReport(path=f"{testers} simulated testers")
    with tempfile.TemporaryDirectory() as folder:
        chunks = _tester_chunks(tasks, workers or _default_workers(testers))
        for number, texts in enumerate(chunks):
            path = Path(folder) / f"demo-{number:04d}.jsonl"
            with path.open("w", encoding="utf-8") as handle:
                handle.writelines(texts)
            part = import_jsonl(engine, path)
            path.unlink()
            total.lines += part.lines
            for kind, count in part.added.items():
                total.added[kind] = total.added.get(kind, 0) + count
            for kind, count in part.read.items():
                total.read[kind] = total.read.get(kind, 0) + count
    return total
