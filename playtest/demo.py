"""Demo data: simulated testers who play real Vapoosh! and answer the real surveys.

Each simulated tester consents, is assigned variants (balanced), answers the pre-play
survey, plays games through the same :class:`PlayController` the app uses (so the events
are exactly what a real tester produces) with a human error model, and answers the
post-play survey. The error model:

- arithmetic slips, far more likely on the planted hard facts (:data:`PLANTED_HARD_FACTS`:
  6 × 7, 6 × 8, 7 × 8, 8 × 9) and for testers with weaker times tables; fewer when
  options are highlighted;
- rule misunderstandings: the planted misunderstood rule (:data:`PLANTED_RULE`,
  ``empty_priority``): on turns where it applies, testers unsure of the rules click the
  opponent's tile instead of the free one; other refusals are rare slips (2 %);
- hesitation: lognormal time to the first click, longer on hard facts and after the
  planted confusing wording (:data:`PLANTED_WORDING`: the default "Extra go!" text of
  ``extra_turn``), which is also followed by rules lookups 30 % of the time.

The designer's dashboard should find these three truths: see the README, "What the demo
should show".

Studies of the other registered games get simulated testers too: they consent, are
assigned, answer their game's surveys the same way, and play whole games of their
study's game through the engine core's clicks (:mod:`playtest.demo_play`: every click
logged, refused ones with the engine's refusal reason).

The records go through ``playtest import`` (validated, all or nothing), so a demo study
is also a test of the exchange format.

Speed: each tester is simulated from its own seed and its own (pre-computed, balanced)
variant assignment, so testers can be simulated in worker processes and the file is the
same whatever the number of workers (``generate(..., workers=1)`` equals ``workers=2``).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import random
import tempfile
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

from engine.players import make_player
from engine.vapoosh import Brown
from playtest import demo_play, demo_sequence, services
from playtest.games.registry import game_plugin, games
from playtest.games.vapoosh.controller import PlayController
from playtest.messages import MessageCatalog, MessageError, load_catalog, speed
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


def demo_config() -> StudyConfig:
    return StudyConfig(
        rules="standard",
        seats=["human", "ai:easy"],
        games_per_tester=1,
        allow_more_games=True,
        audience="mixed",
        pre_survey="vapoosh_pre",
        post_survey="vapoosh_post_short",
        experiments=[
            Experiment(key="extra_turn_wording", target="message:extra_turn",
                       variants={"A": "default", "B": "formal"}),
            Experiment(key="highlight", target="ui:highlight_options",
                       variants={"off": False, "on": True}),
        ],
    )


def ensure_demo_study(engine: Engine) -> repo.Study:
    """The demo study (simulated testers go here); ``playtest up`` also makes
    :func:`ensure_game_demo_studies`."""
    study = repo.get_study(engine, DEMO_STUDY_ID)
    if study is not None:
        return study
    return services.create_study(engine, title="Vapoosh! demo study", config=demo_config(),
                                 study_id=DEMO_STUDY_ID)


def ensure_game_demo_studies(engine: Engine) -> list[repo.Study]:
    """A demo study per registered game other than the first (whose demo study is
    :data:`DEMO_STUDY_ID`): ``demo-<game>``, created once, with the game's default rules,
    seats and surveys (:func:`game_demo_config`), so each game can be tried at once from
    its tester link; ``playtest up`` fills them with simulated testers
    (:func:`fill_game_demo_studies`)."""
    studies = []
    for plugin in games()[1:]:
        study_id = f"{DEMO_STUDY_ID}-{plugin.name}"
        study = repo.get_study(engine, study_id) or services.create_study(
            engine, title=f"{plugin.title} demo study", study_id=study_id,
            config=game_demo_config(plugin.name))  # the game's default seats
        studies.append(study)
    return studies


def game_demo_config(game: str) -> StudyConfig:
    """A game's demo study: its default rules, seats and surveys, what the game's
    ``demo_settings()`` hook sets (``playtest/games/<game>/demo.py``, e.g. more games per
    tester), and, when its board uses the setting, an experiment on highlighting the
    options, so the dashboard's experiment pages have arms to compare."""
    settings_hook = demo_play.demo_hook(game, "demo_settings")
    settings: dict[str, Any] = dict(settings_hook()) if settings_hook is not None else {}
    if "highlight_options" in game_plugin(game).ignored_ui:
        return StudyConfig(game=game, **settings)
    return StudyConfig(game=game, **settings, experiments=[
        Experiment(key="highlight", target="ui:highlight_options",
                   variants={"off": False, "on": True})])


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
    game: the dice-and-tiles screen's game, or a game whose states are clicked through
    the engine core (:class:`engine.core.PlayableState`)."""
    if config.game == demo_config().game:
        return
    plugin = game_plugin(config.game)
    state = plugin.make_game(config.rules, len(config.seats)).new_initial_state()
    if not demo_play.supports(state):
        raise DemoUnavailableError(
            f"study {study_id} plays {config.game!r}, whose states cannot be clicked "
            f"through (play the study from its tester link instead)")


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


class _Recorder:
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


_HARD = {6, 7, 8, 9}

#: Planted truth 1: the hardest single-digit products, known from research on the
#: "problem-size effect" (Campbell & Graham 1985; Chan, Au & Tang 2014): 6 × 7, 6 × 8,
#: 7 × 8 and 8 × 9 draw the most errors and the longest answers. Simulated testers slip
#: on these far more often than on any other fact.
PLANTED_HARD_FACTS = frozenset({(6, 7), (6, 8), (7, 8), (8, 9)})
#: Planted truth 2: the misunderstood rule. Testers unsure of the rules (most children)
#: believe they may capture even when the other rolled tile is free, so they click the
#: opponent's tile on many turns where ``empty_priority`` applies.
PLANTED_RULE = "empty_priority"
#: Planted truth 3: the confusing wording. The default "Extra go!" text of
#: ``extra_turn`` leaves testers unsure whose turn it is: a longer pause before the next
#: roll and click, and more rules lookups from it (variant B, the formal wording, does not).
PLANTED_WORDING = ("extra_turn", "default")


def fact_difficulty(p: int, g: int) -> float:
    """0 (easy: ×2, ×10, ×11, squares of small numbers) … 1 (the planted hard facts).

    >>> fact_difficulty(8, 7), fact_difficulty(2, 9)
    (1.0, 0.1)
    """
    a, b = sorted((p, g))
    if (a, b) in PLANTED_HARD_FACTS:
        return 1.0
    if a in (2, 10, 11) or b in (2, 10, 11):
        return 0.1
    if a == b:
        return 0.3 if a <= 6 else 0.4
    score = 0.15 + 0.1 * (a in _HARD) + 0.1 * (b in _HARD) + 0.1 * (b == 12)
    return min(score, 0.5)


class SimulatedTester:
    """One simulated tester: a profile and a random stream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.child = rng.random() < 0.55
        self.maths = min(max(rng.gauss(0.55 if self.child else 0.8, 0.15), 0.05), 0.98)
        self.rules = min(max(rng.gauss(0.55 if self.child else 0.75, 0.2), 0.05), 0.98)
        self.pace = math.exp(rng.gauss(0.0, 0.3)) * (1.3 if self.child else 1.0)
        self.enjoyment = min(max(rng.gauss(0.7, 0.15), 0.0), 1.0)
        self.player: Any = None  # made on the first move (see tester_player)
        self.moves_made = 0  # other games' moves (playtest.demo_play's learning)


def _wrong_tile(ctrl: PlayController, kind: str, rng: random.Random) -> tuple[int, int] | None:
    """A tile a tester would wrongly click, of the given kind, if there is one."""
    state = ctrl.state
    legal = ctrl.legal_tiles()
    options = list(state.options)
    p, g = (state.dice[0] + state.dice[1], state.dice[2] + state.dice[3]) if state.dice else (0, 0)
    if kind == "rule":
        forbidden = [o for o in options if o not in legal]
        return rng.choice(forbidden) if forbidden else None
    if kind == "same_product":
        same = [(c, r) for c in range(1, 13) for r in range(1, 13)
                if c * r == p * g and (c, r) not in options]
        return rng.choice(same) if same else None
    if kind == "near_miss":
        c, r = rng.choice(legal)
        near = [(c + dc, r + dr) for dc in (-1, 0, 1) for dr in (-1, 0, 1)
                if (dc or dr) and 1 <= c + dc <= 12 and 1 <= r + dr <= 12
                and (c + dc, r + dr) not in options]
        return rng.choice(near) if near else None
    # arithmetic: a wrong product near the right one (7×8 → 54 or 60). A slip by one
    # factor step (7×8 → 48) lands next to the answer, which the engine calls a near miss.
    slips = [(c, r) for c in range(1, 13) for r in range(1, 13)
             if 0 < abs(c * r - p * g) <= max(8, p + g) and (c, r) not in options
             and all(abs(c - oc) > 1 or abs(r - orr) > 1 for oc, orr in legal)]
    if slips:
        return rng.choice(slips)
    return _wrong_tile(ctrl, "near_miss", rng) if legal else None


def _human_turn(ctrl: PlayController, tester: SimulatedTester, highlight: bool,
                after_message: str | None, clock: list[float]) -> list[Any]:
    """Roll, maybe click wrong tiles, then place: returns the cues it caused."""
    rng = tester.rng
    # The pause before rolling: a moment to look at the board, and longer after the
    # planted wording, which leaves testers unsure whether it is their go (the metric
    # "response time" measures exactly this pause).
    wait = 700.0 + (4000.0 if after_message == "_".join(PLANTED_WORDING) else 0.0)
    clock[0] += rng.lognormvariate(math.log(wait * tester.pace), 0.35)
    cues = [ctrl.roll()]
    if not ctrl.human_to_act or ctrl.state.phase != "place":
        return cues  # blocked: the turn passed (or a re-roll is due)
    p = ctrl.state.dice[0] + ctrl.state.dice[1] if ctrl.state.dice else 2
    g = ctrl.state.dice[2] + ctrl.state.dice[3] if ctrl.state.dice else 2
    difficulty = fact_difficulty(p, g)
    base = 1800 + 4200 * difficulty * (1.2 - tester.maths)
    if highlight:
        base *= 0.55
    if after_message == "_".join(PLANTED_WORDING):
        base += 2500  # planted: "Extra go!" leaves some unsure whose turn it is
    elapsed = rng.lognormvariate(math.log(base * tester.pace), 0.35)
    # planted: the misunderstood rule bites only where it applies (empty_priority);
    # other refusals are rare slips
    misread = PLANTED_RULE in ctrl.refused_reasons()
    slips = {
        # planted: the hard facts trip even good calculators; others follow difficulty
        "arithmetic": ((0.3 + 0.4 * (1 - tester.maths)) if (min(p, g), max(p, g))
                       in PLANTED_HARD_FACTS else (1 - tester.maths) * difficulty * 0.6)
        * (0.4 if highlight else 1.0),
        "rule": (1 - tester.rules) * 0.9 if misread else 0.02,
        "near_miss": (1 - tester.maths) * 0.15,
        "same_product": (1 - tester.maths) * 0.1 * (0.2 if highlight else 1.0),
    }
    for kind, chance in slips.items():
        if rng.random() >= chance:
            continue
        tile = _wrong_tile(ctrl, kind, rng)
        if tile is None:
            continue
        clock[0] += elapsed
        cues.append(ctrl.click(*tile, client_ms=elapsed).cue)
        elapsed += rng.lognormvariate(math.log(1500 * tester.pace), 0.4)
    clock[0] += elapsed
    choice = tester_player(tester).choose(ctrl.state)
    brown = isinstance(choice.action, Brown)
    outcome = ctrl.click(choice.action.c, choice.action.r, brown=brown, client_ms=elapsed)
    cues.append(outcome.cue)
    return cues


def tester_player(tester: SimulatedTester) -> Any:
    """The move a tester chooses once the tile is found: a medium-strength habit.

    Kept on the tester (not in a table keyed by ``id(tester)``: ids are reused once a
    tester is freed, which handed a later tester the earlier one's player and made the
    output depend on memory layout).
    """
    if tester.player is None:
        tester.player = make_player("medium", seed=tester.rng.randrange(1 << 30), game="vapoosh")
    return tester.player


def _message_records(cues: list[Any], recorder: _Recorder, catalog: MessageCatalog,
                     variants: dict[str, str], ms_visible: int) -> str | None:
    """Log the message the screen would show for these cues; return its key+variant."""
    shown = [c for c in cues if c is not None and c.key]
    if not shown:
        return None
    cue = shown[-1]
    variant = variants.get(cue.key, "default")
    try:
        text = catalog.render(cue.key, variant, voice=cue.voice, **cue.values).text
    except MessageError:
        text, variant = cue.fallback_text, "fallback"
    recorder.log("message", {"key": cue.key, "variant": variant, "text": text,
                             "ms_visible": ms_visible})
    return f"{cue.key}_{variant}"


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
                    rng: random.Random, catalog: MessageCatalog,
                    assigned: dict[str, str]) -> Iterator[dict[str, Any]]:
    """The exchange-format records of one simulated tester, in order."""
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
    page_log = _Recorder(out, participant_id, session_id, clock, seq, None)

    def page(name: str) -> None:
        page_log.log("page", {"page": name})

    def survey(phase: str, survey_id: str | None) -> None:
        if survey_id is None:
            return
        # The form the app gives this tester (children's, or adults' after "An adult").
        definition = load_survey(services.survey_id_for(survey_id, phase, child=tester.child,
                                                    game=config.game))
        profile = {"enjoyment": tester.enjoyment, "confusion": 1 - tester.rules, "skip": 0.2}
        answers = plausible_answers(definition, rng, profile)
        clock[0] += rng.uniform(40_000, 150_000) * tester.pace
        for item, value in answers.items():
            out.append({"record": "response", "participant_id": participant_id,
                        "survey": definition.id, "survey_version": definition.version,
                        "phase": phase, "item": item, "value": value,
                        "at": _iso(datetime.fromtimestamp(clock[0] / 1000, UTC))})
        page_log.log("survey_page", {"survey": definition.id, "phase": phase, "page": "all",
                                     "seconds": round(rng.uniform(40, 150), 1)})

    page("consent")
    page("pre_survey")
    survey("pre", config.pre_survey)
    page("play")
    ms_visible = speed(effective.speed).message_ms
    controller_game = effective.game == demo_config().game  # the dice-and-tiles screen's
    games = config.games_per_tester + (1 if rng.random() < 0.2 else 0)
    quits = rng.random() < 0.08 * (1 - tester.enjoyment)
    played: list[tuple[Any, int | None, str]] = []
    next_rules = demo_play.demo_hook(effective.game, "game_rules")
    for _ in range(games):
        game_id = uuid.UUID(int=rng.getrandbits(128)).hex
        recorder = _Recorder(out, participant_id, session_id, clock, seq, game_id)
        seed = rng.randrange(1 << 31)
        if not controller_game:  # any other game: through the engine core's clicks
            rules = effective.rules if next_rules is None else next_rules(effective.rules,
                                                                           played)
            demo_play.play_game(game_plugin(effective.game), rules=rules,
                                seats=effective.seats, seed=seed, game_id=game_id,
                                tester=tester, highlight=effective.highlight_options,
                                log=recorder.log, clock=clock, played=played,
                                messages=effective.message_variants)
            if quits:
                break
            continue
        ctrl = PlayController(game_id=game_id, game=effective.game, rules=effective.rules,
                              seats=effective.seats,
                              seed=seed, actions=(), sink=recorder, clock_ms=lambda: clock[0],
                              highlight=effective.highlight_options)
        recorder.log("game_start", {"game_id": game_id, "game": effective.game,
                                    "rules": ctrl.game.rules_obj(),
                                    "seats": list(effective.seats), "seed": seed})
        ctrl.start()
        last: str | None = None
        for _turn in range(400):
            if ctrl.is_over:
                break
            if ctrl.computer_to_act:
                cues = ctrl.play_computers()
                clock[0] += 2500
            else:
                cues = _human_turn(ctrl, tester, effective.highlight_options, last, clock)
            last = _message_records(cues, recorder, catalog, effective.message_variants,
                                    ms_visible)
            lookup = 0.25 * (1 - tester.rules) if last and last.startswith(
                ("wrong_rule", "blocked", "reroll")) else 0.0
            if last == "_".join(PLANTED_WORDING):
                lookup = 0.3  # planted: testers look up whose turn it is
            if last and rng.random() < lookup:
                recorder.log("rules_open", {"context": last.rsplit("_", 1)[0]})
                clock[0] += rng.uniform(5000, 20000)
                recorder.log("rules_close", {"context": last.rsplit("_", 1)[0]})
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
                              random.Random(task.seed), load_catalog(), task.assigned)
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
    # fork where available: the workers inherit the imported engine and catalog.
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
