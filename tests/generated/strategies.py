"""Hypothesis strategies of VALID exchange files (``telemetry-format.md``), every game.

A file is drawn in two steps, so that Hypothesis shrinks what matters:

1. a :class:`StudyPlan` (small frozen values: the game, the experiments, and per tester
   consent, arms, games, where they left, messages added, answers, free text), drawn by
   :func:`study_plans`;
2. its records, built deterministically from the plan by :func:`build_records`: each
   game is a legal game of the study's engine played as the app logs it (the demo's
   testers: :func:`playtest.demo_play.play_game` for the games clicked through the engine
   core, the first game's own play screen otherwise), so ``game_start``, every click with
   its refusals, the engine's events, ``ai_move`` and ``game_end`` are the app's own.

What the plans cover (issue 22, item 1): experiments of every target kind (message
wordings of the game's catalog or a text of one's own, rules presets, UI settings) with
arms nobody was assigned to or everyone in one arm, or no experiment at all; messages
added anywhere in a game, several before one turn, of keys the catalog has or not;
testers without consent, without a game, leaving in the middle of a game (no
``game_end``) or before the end of the study, coming back in a second session; answers to
the game's bundled surveys, to a survey the project does not know with or without its
definition, free text of every shape (empty, blank, long, markup, right-to-left, emoji).

Every file is valid: ``playtest import`` must take it whole. (An experiment of one
declared variant is not: the Studies page refuses it, and so does the import.)

>>> from hypothesis import find
>>> plan = find(study_plans(), lambda p: len(p.testers) >= 1)
>>> records = build_records(plan)
>>> records[0]["record"], records[1]["record"]
('study', 'participant')
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from analytics.metrics import primary_choices
from playtest import demo_play
from playtest.demo import EventRecorder, SimulatedTester
from playtest.games.registry import game_names, game_plugin
from playtest.study_config import (
    UI_SETTINGS,
    Experiment,
    StudyConfig,
    effective_config,
    message_catalog,
)
from surveys import load_survey
from surveys.loader import list_surveys
from surveys.model import LongText, ShortText
from surveys.simulate import plausible_answers

#: When the generated studies happen (all times are after each tester's consent).
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
PAGES = ("consent", "pre_survey", "play", "post_survey", "done")
#: The most events a simulated game logs before the tester is taken to have left
#: (games are legal whole games otherwise; a cut keeps the examples quick).
MAX_GAME_EVENTS = 400
SAFE_INT = 2**53 - 1
#: Event types of the exchange format's table and the games' engine events: the odd
#: events a tester's records may hold are of other types.
KNOWN_TYPES = frozenset({
    "page", "game_start", "roll", "click", "message", "rules_open", "rules_close",
    "setting", "game_end", "ai_move", "survey_page", "place", "capture",
    "surround_capture", "brown", "extra_turn", "blocked_own", "reroll", "miss_turn",
    "quad", "skip", "vapoosh", "win", "draw", "loss", "move", "wall", "remove", "auto",
    "grow", "meteor"})


# ----------------------------------------------------------------------------- texts

#: Free text a tester may type, beyond what Hypothesis draws: shapes that broke
#: renderers and tables elsewhere.
ODD_TEXTS = (
    "", " ", "\n\n", "\t", "ok", "0", "-1", "NaN", "null", "None", "true", "[]", "{}",
    "**bold** _it_ `code` # heading\n- list", "<script>alert(1)</script>", "<b>x</b> &amp;",
    "=SUM(A1:A2)", "+1", "@cmd", "$x^2$ and $$y$$", "a|b|c", "'; DROP TABLE events; --",
    "مرحبا بالعالم", "שלום", "日本語のテキスト", "🎲🎲 🧱 ❤️ 👍🏽", "e\u0301", "\u200b\u200d",
    "line one\r\nline two", "tab\tseparated\tvalues", "a" * 300,
    "confusing: when do I take a brick? the wall confused me",
)


#: Any character a JSON text may carry into the database: no NUL, no lone surrogate
#: (the exchange format refuses both).
STORABLE = st.characters(exclude_categories=("Cs",), exclude_characters="\x00")


def texts(min_size: int = 0, max_size: int = 20) -> st.SearchStrategy[str]:
    """Text of any storable characters."""
    return st.text(STORABLE, min_size=min_size, max_size=max_size)


def free_texts(max_size: int = 120) -> st.SearchStrategy[str]:
    """Free text of every shape, and now and then a long one."""
    drawn = texts(0, max_size)
    long = st.builds(lambda unit, n: (unit * n)[:20_000], texts(1, 8),
                     st.integers(200, 5000))
    return st.one_of(drawn, st.sampled_from(ODD_TEXTS), long)


def ids(max_size: int = 64) -> st.SearchStrategy[str]:
    """An id the format allows: any non-empty text up to the column's length."""
    return st.one_of(
        st.text(string.ascii_letters + string.digits + "-_", min_size=1, max_size=12),
        texts(1, max_size))


def answer_values() -> st.SearchStrategy[Any]:
    """An answer's value: a number, a string, a list or null (never an object)."""
    scalar = st.one_of(st.none(), st.booleans(), st.integers(-SAFE_INT, SAFE_INT),
                       st.floats(allow_nan=False, allow_infinity=False), free_texts(40))
    return st.one_of(scalar, st.lists(scalar, max_size=4))


# ----------------------------------------------------------------------------- plans


@dataclass(frozen=True)
class ExperimentPlan:
    """One experiment: what it varies, its variant names and payloads, and its metric."""

    key: str
    target: str
    variants: tuple[tuple[str, Any], ...]  # (name, payload)
    primary_metric: str | None = None
    min_effect: float | None = None

    def record(self) -> dict[str, Any]:
        record: dict[str, Any] = {"key": self.key, "target": self.target,
                                  "variants": [name for name, _ in self.variants],
                                  "payloads": dict(self.variants)}
        if self.primary_metric is not None:
            record["primary_metric"] = self.primary_metric
        if self.min_effect is not None:
            record["min_effect"] = self.min_effect
        return record


@dataclass(frozen=True)
class MessagePlan:
    """A ``message`` event added to a game: where (a share of the way through its
    events), its key (an index into the catalog's keys, or None for a key it lacks),
    variant, text and display time."""

    where: float
    key: int | None
    variant: str
    text: str
    ms_visible: int | None


@dataclass(frozen=True)
class GamePlan:
    """One game: its seed, and after how many events the tester left (None: played to
    its end), the messages added to it and the tester's extra rules lookups."""

    seed: int
    left_after: int | None
    messages: tuple[MessagePlan, ...] = ()
    lookups: tuple[float, ...] = ()


@dataclass(frozen=True)
class AnswerPlan:
    """Answers to one survey: ``known`` a bundled survey (plausible answers, free text
    replaced by ``texts``); otherwise a survey the project does not know, with
    ``values`` for its items and, if ``defined``, its definition in the file."""

    survey: str
    phase: str
    known: bool
    seed: int = 0
    texts: tuple[str, ...] = ()
    values: tuple[tuple[str, Any], ...] = ()


@dataclass(frozen=True)
class ParticipantPlan:
    """One tester (see the module docstring)."""

    participant_id: str
    consented: bool
    arms: tuple[int | None, ...]  # per experiment: index of the variant, None: not assigned
    seed: int
    last_page: str  # the furthest page reached
    games: tuple[GamePlan, ...]
    answers: tuple[AnswerPlan, ...]
    second_session_at: float | None  # share of the way through the events, None: one
    settings: tuple[tuple[str, Any], ...] = ()
    zone_minutes: int = 0  # the offset from UTC its times are written with
    attributes: dict[str, Any] | None = None  # the participant record's attributes
    odd_events: tuple[tuple[float, str, dict[str, Any]], ...] = ()  # (where, type, props)
    extra_keys: dict[str, Any] | None = None  # keys of no record kind: kept, ignored


@dataclass(frozen=True)
class StudyPlan:
    """A whole study: the study record's settings and its testers."""

    game: str
    study_id: str
    title: str
    rules: Any
    games_per_tester: int
    experiments: tuple[ExperimentPlan, ...]
    testers: tuple[ParticipantPlan, ...]
    unknown_defined: tuple[str, ...] = ()  # unknown surveys whose definition is in the file
    known_defined: bool = False  # the bundled surveys' definitions in the file too

    def config(self) -> StudyConfig:
        """The study's settings as the app holds them."""
        return StudyConfig(game=self.game, rules=self.rules,
                           games_per_tester=self.games_per_tester,
                           experiments=[Experiment(key=e.key, target=e.target,
                                                   variants=dict(e.variants))
                                        for e in self.experiments])


def _catalog_keys(game: str) -> tuple[str, ...]:
    return tuple(sorted(message_catalog(game).keys))


def _shown_keys(game: str) -> tuple[str, ...]:
    """The keys a wording experiment may target: those the game's board shows (a study
    on another key is refused, by the Studies page and by the import)."""
    return tuple(sorted(message_catalog(game).shown))


def _message_payloads(game: str) -> st.SearchStrategy[Any]:
    """A wording of the game's catalog, or a text of one's own (no placeholders)."""
    wordings = tuple(message_catalog(game).variants)
    own = free_texts(60).map(lambda t: t.replace("{", "(").replace("}", ")").strip()[:300])
    return st.one_of(st.sampled_from(wordings), own.filter(bool))


@st.composite
def experiment_plans(draw: st.DrawFn, game: str, key: str) -> ExperimentPlan:
    """One experiment of a study of ``game``, of any target kind."""
    plugin = game_plugin(game)
    kind = draw(st.sampled_from(("message", "rules", "ui")))
    names = draw(st.lists(st.text(st.characters(exclude_categories=("Cs", "Cc", "Zl", "Zp",
                                                                     "Cf", "Co", "Cn")),
                                  min_size=1, max_size=20).filter(str.isprintable),
                          min_size=2, max_size=3, unique=True))
    if kind == "message":
        target = f"message:{draw(st.sampled_from(_shown_keys(game)))}"
        payloads = [draw(_message_payloads(game)) for _ in names]
    elif kind == "rules":
        target = "rules"
        payloads = [draw(st.sampled_from(plugin.presets)) for _ in names]
    else:
        setting = draw(st.sampled_from(UI_SETTINGS))
        target = f"ui:{setting}"
        values: tuple[Any, ...] = (1, 2, 3) if setting == "speed" else (False, True)
        payloads = [draw(st.sampled_from(values)) for _ in names]
    primary = draw(st.one_of(st.none(), st.sampled_from(primary_choices(target))))
    min_effect = draw(st.one_of(st.none(), st.floats(0.001, 100.0)))
    return ExperimentPlan(key, target, tuple(zip(names, payloads, strict=True)), primary,
                          min_effect)


def message_plans(game: str) -> st.SearchStrategy[MessagePlan]:
    keys = _catalog_keys(game)
    return st.builds(
        MessagePlan,
        where=st.floats(0.0, 1.0),
        key=st.one_of(st.none(), st.integers(0, len(keys) - 1)),
        variant=st.one_of(st.sampled_from(("default", "formal")), texts(1, 10)),
        text=free_texts(60),
        ms_visible=st.one_of(st.none(), st.integers(0, 60_000)),
    )


def game_plans(game: str) -> st.SearchStrategy[GamePlan]:
    # several messages at one place: the same ``where`` drawn again
    places = st.lists(message_plans(game), max_size=4).flatmap(
        lambda ms: st.just(tuple(ms)) if len(ms) < 2 else st.booleans().map(
            lambda same: tuple(m if not same else MessagePlan(ms[0].where, m.key, m.variant,
                                                              m.text, m.ms_visible)
                               for m in ms)))
    return st.builds(
        GamePlan,
        seed=st.integers(0, 2**31 - 1),
        left_after=st.one_of(st.none(), st.integers(0, 120)),
        messages=places,
        lookups=st.lists(st.floats(0.0, 1.0), max_size=2).map(tuple),
    )


def _text_items(survey: str) -> list[str]:
    definition = load_survey(survey)
    return [item.id for _, item in definition.items() if isinstance(item, LongText | ShortText)]


@st.composite
def answer_plans(draw: st.DrawFn, game: str, unknown: tuple[str, ...]) -> AnswerPlan:
    plugin = game_plugin(game)
    phase = draw(st.sampled_from(("pre", "post")))
    if not unknown or draw(st.booleans()):
        own = [plugin.pre_survey if phase == "pre" else plugin.post_survey,
               plugin.child_surveys.get(phase)]
        survey = draw(st.sampled_from([s for s in own if s] + list(list_surveys())))
        texts = draw(st.lists(free_texts(), max_size=len(_text_items(survey))))
        return AnswerPlan(survey, phase, True, draw(st.integers(0, 2**31 - 1)), tuple(texts))
    survey = draw(st.sampled_from(unknown))
    items = draw(st.lists(st.tuples(st.sampled_from(("q1", "q2", "fun", "open.text", "nps")),
                                    answer_values()), max_size=4, unique_by=lambda t: t[0]))
    return AnswerPlan(survey, phase, False, values=tuple(items))


@st.composite
def participant_plans(draw: st.DrawFn, game: str, experiments: tuple[ExperimentPlan, ...],
                 unknown: tuple[str, ...], number: int) -> ParticipantPlan:
    consented = draw(st.sampled_from((True, True, True, False)))
    arms = tuple(draw(st.one_of(st.none(), st.integers(0, len(e.variants) - 1)))
                 for e in experiments)
    last_page = draw(st.sampled_from(PAGES))
    games = draw(st.lists(game_plans(game), max_size=2)) if last_page != "consent" else []
    # one answer per survey item and tester: the database keeps (tester, survey, item)
    answers = draw(st.lists(answer_plans(game, unknown), max_size=3,
                            unique_by=lambda a: a.survey))
    settings = draw(st.lists(st.tuples(st.sampled_from(("mute", "speed", "highlight")),
                                       st.one_of(st.booleans(), st.integers(1, 3))),
                             max_size=2))
    json_values = st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(-SAFE_INT, SAFE_INT),
                  st.floats(allow_nan=False, allow_infinity=False), free_texts(20)),
        lambda inner: st.one_of(st.lists(inner, max_size=3),
                                st.dictionaries(free_texts(8), inner, max_size=3)),
        max_leaves=6)
    odd_events = draw(st.lists(st.tuples(
        st.floats(0.0, 1.0),
        st.one_of(st.sampled_from(("hint", "menu_open", "resize", "focus_lost")),
                  texts(1, 20).filter(lambda t: t not in KNOWN_TYPES)),
        st.dictionaries(free_texts(10), json_values, max_size=3)), max_size=2))
    return ParticipantPlan(
        participant_id=draw(ids(60)) + f"#{number}",
        consented=consented, arms=arms, seed=draw(st.integers(0, 2**31 - 1)),
        last_page=last_page, games=tuple(games), answers=tuple(answers),
        second_session_at=draw(st.one_of(st.none(), st.floats(0.05, 0.95))),
        settings=tuple(settings),
        zone_minutes=draw(st.sampled_from((0, 0, 60, -300, 330, 840, -720))),
        attributes=draw(st.one_of(st.none(), st.fixed_dictionaries(
            {"age_band": st.sampled_from(("child", "adult", "7-9", "unknown"))},
            optional={"note": free_texts(20)}))),
        odd_events=tuple(odd_events),
        extra_keys=draw(st.one_of(st.none(), st.dictionaries(
            st.sampled_from(("site", "x_note", "batch")), json_values, max_size=2))))


@st.composite
def study_plans(draw: st.DrawFn, games: tuple[str, ...] = game_names(),
                max_testers: int = 6) -> StudyPlan:
    """A whole study of one of ``games`` (see the module docstring)."""
    game = draw(st.sampled_from(games))
    plugin = game_plugin(game)
    keys = draw(st.lists(st.from_regex(r"[a-z0-9_\-]{1,16}", fullmatch=True), max_size=3,
                         unique=True))
    experiments = tuple(draw(experiment_plans(game, key)) for key in keys)
    unknown = tuple(draw(st.lists(st.sampled_from(("their_survey", "site_b_post", "ueq_s_v2")),
                                  max_size=2, unique=True)))
    count = draw(st.integers(0, max_testers))
    testers = tuple(draw(participant_plans(game, experiments, unknown, n)) for n in range(count))
    return StudyPlan(
        game=game,
        study_id=draw(ids()),
        title=draw(free_texts(80)),
        rules=draw(st.sampled_from(plugin.presets)),
        games_per_tester=draw(st.integers(1, 3)),
        experiments=experiments,
        testers=testers,
        unknown_defined=tuple(s for s in unknown if draw(st.booleans())),
        known_defined=draw(st.booleans()),
    )


# ----------------------------------------------------------------------------- records


def _iso(ms: float, zone_minutes: int = 0) -> str:
    """ISO 8601 with milliseconds, written in the given offset from UTC."""
    zone = timezone(timedelta(minutes=zone_minutes))
    return datetime.fromtimestamp(ms / 1000, zone).isoformat(timespec="milliseconds")


class _Left(Exception):
    """The tester left the game (its events so far are kept; no ``game_end``)."""


class _LeavingRecorder(EventRecorder):
    """The demo's event sink, which stops the game after ``budget`` events."""

    def __init__(self, *args: Any, budget: int | None) -> None:
        super().__init__(*args)
        self.budget = MAX_GAME_EVENTS if budget is None else min(budget, MAX_GAME_EVENTS)

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        if self.budget <= 0:
            raise _Left
        self.budget -= 1
        super().log(type_, props, client_event_id)


def _play(plan: StudyPlan, tester: ParticipantPlan, profile: SimulatedTester, game: GamePlan,
          game_id: str, out: list[dict[str, Any]], clock: list[float],
          played: list[tuple[Any, int | None, str]]) -> bool:
    """One game's events into ``out``, as :func:`playtest.demo.simulate_tester` plays it
    (the game's own screen, else the engine core's clicks, the next stage of a course):
    True when it was played to its end."""
    assigned = {e.key: e.variants[arm][0] for e, arm in zip(plan.experiments, tester.arms,
                                                            strict=True) if arm is not None}
    effective = effective_config(plan.config(), assigned)
    recorder = _LeavingRecorder(out, tester.participant_id, "", clock, [0], game_id,
                                budget=game.left_after)
    own = game_plugin(plan.game).demo.play_game
    next_rules = game_plugin(plan.game).demo.game_rules
    try:
        if own is not None:
            own(effective, seed=game.seed, game_id=game_id, tester=profile,
                recorder=recorder, clock=clock)
        else:
            rules = effective.rules if next_rules is None else next_rules(effective.rules,
                                                                           played)
            demo_play.play_game(game_plugin(plan.game), rules=rules,
                                seats=effective.seats, seed=game.seed, game_id=game_id,
                                tester=profile, highlight=effective.highlight_options,
                                log=recorder.log, clock=clock, played=played,
                                messages=effective.message_variants)
    except _Left:
        return False
    return True


def _with_messages(plan: StudyPlan, game: GamePlan, events: list[dict[str, Any]]
                   ) -> list[dict[str, Any]]:
    """The game's events with its planned messages and lookups added in place (each at
    the time of the event before it)."""
    keys = _catalog_keys(plan.game)
    added: list[tuple[float, int, dict[str, Any]]] = []
    for order, message in enumerate(game.messages):
        key = keys[message.key] if message.key is not None else "not_in_catalog"
        added.append((message.where, order, {"type": "message", "props": {
            "key": key, "variant": message.variant, "text": message.text,
            "ms_visible": message.ms_visible}}))
    for order, where in enumerate(game.lookups):
        added.append((where, 100 + order, {"type": "rules_open",
                                           "props": {"context": "generated"}}))
    if not events or not added:
        return events
    result = list(events)
    # from the last place to the first, so earlier places keep their index
    for where, _, event in sorted(added, key=lambda a: (a[0], a[1]), reverse=True):
        place = max(1, round(where * len(events)))
        before = events[place - 1]
        result.insert(place, {**before, **event})
    return result


def _answers(plan: StudyPlan, tester: ParticipantPlan, answer: AnswerPlan, at: float
             ) -> list[dict[str, Any]]:
    if answer.known:
        definition = load_survey(answer.survey)
        values: dict[str, Any] = dict(plausible_answers(
            definition, random.Random(answer.seed), {"enjoyment": 0.5, "confusion": 0.5}))
        for item, text in zip(_text_items(answer.survey), answer.texts, strict=False):
            values[item] = text
        version: Any = definition.version
    else:
        values, version = dict(answer.values), "1.0"
    return [{"record": "response", "participant_id": tester.participant_id,
             "survey": answer.survey, "survey_version": version, "phase": answer.phase,
             "item": item, "value": value, "at": _iso(at)} for item, value in values.items()]


def _tester_records(plan: StudyPlan, tester: ParticipantPlan, number: int
                    ) -> Iterator[dict[str, Any]]:
    """The tester's records, every time written in the tester's own offset from UTC."""
    for record in _tester_records_utc(plan, tester, number):
        for key in ("at", "created_at", "consented_at"):
            if isinstance(record.get(key), str):
                record[key] = _iso(datetime.fromisoformat(record[key]).timestamp() * 1000,
                                   tester.zone_minutes)
        yield record


def _tester_records_utc(plan: StudyPlan, tester: ParticipantPlan, number: int
                        ) -> Iterator[dict[str, Any]]:
    pid = tester.participant_id
    joined = START.timestamp() * 1000 + number * 600_000
    participant = {"record": "participant", "study_id": plan.study_id,
                   "participant_id": pid, "created_at": _iso(joined),
                   "consented_at": _iso(joined + 1000) if tester.consented else None}
    if tester.attributes is not None:
        participant["attributes"] = dict(tester.attributes)
    yield {**(tester.extra_keys or {}), **participant}
    if not tester.consented:
        return  # nothing else of theirs may exist
    for experiment, arm in zip(plan.experiments, tester.arms, strict=True):
        if arm is not None:
            yield {**(tester.extra_keys or {}), "record": "assignment", "participant_id": pid,
                   "experiment": experiment.key, "variant": experiment.variants[arm][0],
                   "at": _iso(joined + 1000)}
    clock = [joined + 2000]
    events: list[dict[str, Any]] = []
    pages = PAGES[:PAGES.index(tester.last_page) + 1]
    page_log = EventRecorder(events, pid, "", clock, [0], None)
    profile = SimulatedTester(random.Random(tester.seed))
    played: list[tuple[Any, int | None, str]] = []
    responses: list[dict[str, Any]] = []
    for page in pages:
        page_log.log("page", {"page": page})
        if page in ("pre_survey", "post_survey"):
            phase = page.removesuffix("_survey")
            for answer in tester.answers:
                if answer.phase == phase:
                    clock[0] += 30_000
                    responses += _answers(plan, tester, answer, clock[0])
        if page == "play":
            for name, value in tester.settings:
                page_log.log("setting", {"name": name, "value": value})
            for index, game in enumerate(tester.games):
                game_id = f"{pid[:40]}-g{index}"
                game_events: list[dict[str, Any]] = []
                finished = _play(plan, tester, profile, game, game_id, game_events, clock,
                                 played)
                events += _with_messages(plan, game, game_events)
                if not finished:
                    break  # left in the middle of the game: nothing after it
            else:
                continue
            break
    yield from responses  # only those of the survey pages reached
    for where, kind, props in sorted(tester.odd_events, key=lambda e: e[0], reverse=True):
        if events:  # an event type the analysis does not know: kept, ignored
            place = max(1, round(where * len(events)))
            events.insert(place, {**events[place - 1], "type": kind, "props": props})
    yield from _sessions(pid, events, tester.second_session_at)


def _sessions(pid: str, events: list[dict[str, Any]], second_at: float | None
              ) -> Iterator[dict[str, Any]]:
    """The events in one session, or two (the second from ``second_at`` of the way),
    each numbered 1, 2, 3 … without gaps."""
    split = len(events) if second_at is None else round(second_at * len(events))
    for number, part in enumerate((events[:split], events[split:])):
        for seq, event in enumerate(part, start=1):
            yield {**event, "session_id": f"{pid[:50]}~s{number}", "seq": seq}


def build_records(plan: StudyPlan) -> list[dict[str, Any]]:
    """The exchange-format records of ``plan``, in the order a file holds them."""
    config = plan.config()
    study = {"record": "study", "study_id": plan.study_id, "title": plan.title,
             "game": plan.game, "rules": plan.rules,
             "games_per_tester": plan.games_per_tester,
             "experiments": [e.record() for e in plan.experiments]}
    assert config.game == plan.game
    records: list[dict[str, Any]] = [study]
    surveys: dict[tuple[str, str], dict[str, Any]] = {}
    for number, tester in enumerate(plan.testers):
        for record in _tester_records(plan, tester, number):
            records.append(record)
            if record["record"] == "response":
                surveys.setdefault((record["survey"], str(record["survey_version"])), record)
    for survey, version in sorted(surveys):
        known = survey in list_surveys()
        if known and plan.known_defined:
            definition = load_survey(survey).model_dump(mode="json", by_alias=True,
                                                        exclude_none=True)
        elif not known and survey in plan.unknown_defined:
            definition = _definition_named(survey, version)
        else:
            continue
        records.append({"record": "survey", "survey": survey, "survey_version": version,
                        "definition": definition})
    return records


def _definition_named(survey: str, version: str) -> dict[str, Any]:
    """A definition for a survey the project does not know: one question per item the
    generated answers use, of the kinds that take any value (free text)."""
    items = [{"id": item, "type": "long_text", "text": f"Question {item}"}
             for item in ("q1", "q2", "fun", "open.text", "nps")]
    return {"id": survey, "version": version, "title": survey,
            "pages": [{"id": "p1", "items": items}]}


def write_file(records: list[dict[str, Any]], path: Path) -> Path:
    """The records as a JSON Lines file (UTF-8, one object per line)."""
    dumps: Callable[[Any], str] = json.JSONEncoder(ensure_ascii=False).encode
    path.write_text("".join(dumps(r) + "\n" for r in records), encoding="utf-8")
    return path
