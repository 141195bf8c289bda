"""The app's use cases, between the Streamlit pages and the storage layer.

Pages call these and draw; nothing here touches Streamlit, so the same calls serve the
tester pages, the demo-data generator and the tests.
"""

from __future__ import annotations

import contextlib
import dataclasses
import random
import re
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Engine

from analytics.data import UNNAMED_GAME
from playtest.games.registry import game_plugin
from playtest.panels import hold_ms
from playtest.storage import game_writes
from playtest.storage import repository as repo
from playtest.storage.errors import ConflictError
from playtest.storage.events import EventLogger
from playtest.storage.game_counts import LEFT, RESTARTED
from playtest.storage.game_writes import GameWrites
from playtest.storage.models import events, game_actions
from playtest.study_config import (
    EffectiveConfig,
    StudyConfig,
    StudyConfigError,
    check_experiments_change_the_game,
    config_document,
    effective_config,
    parse_study_config,
)
from surveys import SurveyDefinition, list_surveys, load_survey
from surveys.model import Answer
from surveys.progress import SavedProgress


def now_ms() -> float:
    return time.time() * 1000.0


# -- studies ------------------------------------------------------------------------------


def study_config(study: repo.Study) -> StudyConfig:
    """The validated config of a stored study (its settings document and its game)."""
    return parse_study_config({**study.config, "game": study.game})


def study_columns(config: StudyConfig) -> dict[str, Any]:
    """The storage columns of a study from its config (inverse of :func:`study_config`)."""
    return {"game": config.game, "config": config_document(config)}


def create_study(engine: Engine, *, title: str, config: StudyConfig,
                 study_id: str | None = None, open: bool = True) -> repo.Study:
    return repo.create_study(engine, title=title, study_id=study_id, open=open,
                             **study_columns(config))


# -- study families ------------------------------------------------------------------------
# Every version of one study shares a family id (telemetry-format.md's study record): the
# first version's study id. Both are settings of the study (StudyConfig.family/version),
# so they travel with its settings, its export and its import.

#: How many times :func:`start_follow_up_study` tries again when another tab took the id.
_TRIES = 5
_VERSION_SUFFIX = re.compile(r" \(version \d+\)$")


def family_id(study: repo.Study) -> str:
    """The id of the study's family: its stored ``family``, else its own study id (a
    study without one is version 1 of its own family)."""
    family = study.config.get("family") if isinstance(study.config, dict) else None
    return family if isinstance(family, str) and family else study.study_id


def family_version(study: repo.Study) -> int:
    """The study's version in its family (1 without one)."""
    version = study.config.get("version") if isinstance(study.config, dict) else None
    return version if isinstance(version, int) and not isinstance(version, bool) \
        and version >= 1 else 1


def family_words(study: repo.Study) -> str:
    """The study's place in its family, as the Studies page says it.

    >>> from datetime import UTC, datetime
    >>> study = repo.Study("demo-v2", "Demo", UNNAMED_GAME, {"family": "demo", "version": 2},
    ...                    True, datetime.now(UTC))
    >>> family_words(study)
    'Version 2 of family demo'
    """
    return f"Version {family_version(study)} of family {family_id(study)}"


def with_family_of(study: repo.Study, config: StudyConfig) -> StudyConfig:
    """``config`` (a study's settings as its form saves them, which has no field for the
    family) with the family and version ``study`` has."""
    version = family_version(study)
    family = family_id(study)
    return config.model_copy(update={
        "family": None if family == study.study_id and version == 1 else family,
        "version": version})


def study_family(engine: Engine, study: repo.Study) -> list[repo.Study]:
    """Every version of the study's family (the study among them), ordered by version
    (then by when each was made)."""
    family = family_id(study)
    members = [s for s in repo.list_studies(engine) if family_id(s) == family]
    return sorted(members, key=lambda s: (family_version(s), s.created_at, s.study_id))


def replaced_in_follow_up(config: StudyConfig, experiment: Mapping[str, Any]) -> list[str]:
    """The keys of ``config``'s experiments a follow-up study with ``experiment`` leaves
    out: the one of the same key, and any that varies the same target (the follow-up's
    arm would decide it, so it would compare nothing).

    >>> from playtest.study_config import Experiment
    >>> config = StudyConfig(experiments=[Experiment(key="pace", target="ui:speed",
    ...     variants={"slow": 1, "fast": 3})])
    >>> replaced_in_follow_up(config, {"key": "fix", "target": "ui:speed"})
    ['pace']
    >>> replaced_in_follow_up(config, {"key": "fix", "target": "rules"})
    []
    """
    return [e.key for e in config.experiments
            if e.key == experiment.get("key") or e.target == experiment.get("target")]


def existing_follow_up(engine: Engine, study: repo.Study, key: str) -> repo.Study | None:
    """The follow-up study already started from ``study``'s family with the experiment
    ``key`` (a later version than ``study`` that runs it), or None."""
    return _running(study_family(engine, study), study, key)


def _running(members: list[repo.Study], study: repo.Study, key: str) -> repo.Study | None:
    """The first of ``members`` later than ``study`` that runs the experiment ``key``."""
    return next((s for s in members if family_version(s) > family_version(study)
                 and any(e.get("key") == key for e in s.experiment_records)), None)


def _follow_up_title(study: repo.Study, version: int) -> str:
    """``"Demo (version 3)"`` from ``"Demo (version 2)"`` or ``"Demo"``."""
    return f"{_VERSION_SUFFIX.sub('', study.title)} (version {version})"


def _free_study_id(engine: Engine, family: str, version: int) -> str | None:
    """``<family>-v<version>`` (cut to fit 64 characters), or with ``-2``, ``-3``… when
    another study holds that id (one made by hand, or imported); None when this version
    of the family holds it (another tab made it meanwhile: look again)."""
    suffix = f"-v{version}"
    base = f"{family[:64 - len(suffix)]}{suffix}"
    candidate, number = base, 1
    while (taken := repo.get_study(engine, candidate)) is not None:
        if family_id(taken) == family and family_version(taken) == version:
            return None
        number += 1
        tail = f"-{number}"
        candidate = f"{base[:64 - len(tail)]}{tail}"
    return candidate


def start_follow_up_study(engine: Engine, study: repo.Study, experiment: Mapping[str, Any],
                          *, title: str | None = None) -> repo.Study:
    """A new, open version of ``study``'s family that runs ``experiment``: the same
    settings as ``study`` (game, rules, seats, surveys, audience, panel…) and its
    experiments, but the ones :func:`replaced_in_follow_up` names, plus ``experiment``;
    ``family`` the family's id and ``version`` the highest of the family's + 1; its own
    study id (``<family>-v<version>``) and so its own tester link.

    Idempotent on family and experiment key: when a later version than ``study`` runs
    ``experiment``'s key already (a double press, a second tab, even at the same
    moment), that study is returned and nothing is made. :class:`StudyConfigError` says
    why the follow-up cannot run (``study``'s settings need correcting, or the
    experiment does not fit them).
    """
    key = str(experiment.get("key"))
    try:
        config = study_config(study)
    except StudyConfigError as err:
        raise StudyConfigError(f"this study's settings need correcting on the Studies page "
                               f"first: {err}") from None
    family = family_id(study)
    replaced = set(replaced_in_follow_up(config, experiment))
    document = config_document(config)
    kept = [e for e in document["experiments"] if e.get("key") not in replaced]
    for _ in range(_TRIES):
        members = study_family(engine, study)  # one read: what runs, and the next version
        existing = _running(members, study, key)
        if existing is not None:
            return existing
        version = max(map(family_version, members)) + 1
        follow_up = parse_study_config({**document, "game": config.game,
                                        "experiments": [*kept, dict(experiment)],
                                        "family": family, "version": version})
        check_experiments_change_the_game(follow_up)
        study_id = _free_study_id(engine, family, version)
        if study_id is None:
            continue
        try:
            return create_study(engine, title=title or _follow_up_title(study, version),
                                config=follow_up, study_id=study_id)
        except ConflictError:
            continue  # another tab made a study of that id first: look again
    raise ConflictError(f"could not start a follow-up study of {study.study_id!r}: other "
                        "studies were being made at the same time; try again")


# -- participants ------------------------------------------------------------------------


@dataclass(frozen=True)
class Tester:
    """A consented participant with their study and what they get from it."""

    participant: repo.Participant
    study: repo.Study
    config: StudyConfig
    effective: EffectiveConfig
    #: The rows it was built from, as the driver gave them
    #: (:func:`repo.participant_with_study_stamp`): tells a later run whether to rebuild.
    stamp: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)

    @property
    def code(self) -> str:
        return self.participant.participant_id

    @property
    def is_child(self) -> bool:
        return bool(self.participant.consent.get("child"))


def consent(engine: Engine, study: repo.Study, details: Mapping[str, Any],
            rng: random.Random | None = None) -> repo.Participant:
    """Create the participant at the moment of consent and assign their variants."""
    participant = register_consent(engine, study, details)
    assign_variants(engine, study, participant.participant_id, rng)
    return participant


def register_consent(engine: Engine, study: repo.Study,
                     details: Mapping[str, Any]) -> repo.Participant:
    """The consent row alone, once the study's settings are known to be valid (a study
    that fails its check raises ``StudyConfigError`` before anyone is stored)."""
    study_config(study)
    return repo.create_consented_participant(engine, study.study_id, dict(details))


def assign_variants(engine: Engine, study: repo.Study, participant_id: str,
                    rng: random.Random | None = None) -> None:
    """Give a consented tester their variant of every experiment (sticky: a second call,
    e.g. after a database fault half-way through, keeps what was assigned), balanced
    among completers (:mod:`playtest.storage.allocation`; ``rng`` is not used)."""
    config = study_config(study)
    for experiment in config.experiments:
        repo.assign_balanced(engine, study.study_id, participant_id,
                             experiment.key, list(experiment.variants),
                             hold_ms=hold_ms(config.quota))


def finish_consent(engine: Engine, study: repo.Study, participant_id: str) -> None:
    """Everything after the consent row, idempotent: variants, then the pre-play stage.

    The consent page calls it; so does loading a tester still at ``consent`` (a fault
    stopped their consent half-way), so a retry finishes the same tester's consent.
    """
    assign_variants(engine, study, participant_id)
    with contextlib.suppress(ConflictError):
        repo.advance_stage(engine, participant_id, "consent", "pre_survey")


def load_tester(engine: Engine, code: str, previous: Tester | None = None) -> Tester | None:
    """The tester behind a resume code, or None for an unknown or tampered code.

    Every run of a tester's page calls this, so it reads the tester and their study in
    one query. With ``previous`` (the tester this browser session loaded last time):
    when neither row changed, ``previous`` is returned as it is, without validating the
    study's settings again or reading the assignments (they are fixed at consent, which
    moves the tester's stage on). Any change of either row (a stage, a finished game, a
    study the designer closed or edited) loads everything afresh.
    """
    stamp = repo.participant_with_study_stamp(engine, code)
    if stamp is None:
        return None
    if previous is not None and previous.stamp == stamp and previous.code == code:
        return previous  # neither row changed: nothing decoded, validated or built
    found = repo.get_participant_with_study(engine, code)
    if found is None:
        return None
    participant, study = found
    if study is None:
        return None
    if (previous is not None and previous.participant == participant
            and previous.study == study):
        return dataclasses.replace(previous, stamp=stamp)
    config = study_config(study)
    stored = repo.get_assignments(engine, participant.participant_id) if config.experiments \
        else {}
    assigned = {e.key: stored[e.key] for e in config.experiments if stored.get(e.key)}
    return Tester(participant, study, config, effective_config(config, assigned), stamp)


def survey_id_for(survey_id: str, phase: str, *, child: bool,
                  game: str = UNNAMED_GAME) -> str:
    """The form of a study's survey that a tester answers, from what consent recorded.

    Children get the children's form: the survey's own ``<id>_child`` where one is
    bundled, else the game's (its plug-in names it: ``child_surveys``).
    Adults (consent said "An adult", or an adults-only study) get the survey's
    ``<id>_adult`` form where one is bundled: it does not ask again who is playing, nor
    offer children's answers ("A child player", "under 6").

    >>> plugin = game_plugin(UNNAMED_GAME)  # its surveys have adults' and children's forms
    >>> survey_id_for(plugin.pre_survey, "pre", child=False) == f"{plugin.pre_survey}_adult"
    True
    >>> survey_id_for(plugin.pre_survey, "pre", child=True) == plugin.child_surveys["pre"]
    True
    >>> survey_id_for(plugin.post_survey, "post", child=False) == plugin.post_survey
    True
    """
    if child:
        if survey_id.endswith("_child"):
            return survey_id
        if f"{survey_id}_child" in list_surveys():  # the study's own survey's children's form
            return f"{survey_id}_child"
        return game_plugin(game).child_surveys.get(phase, survey_id)
    adult = f"{survey_id}_adult"
    return adult if adult in list_surveys() else survey_id


def survey_for(tester: Tester, phase: str,
               engine: Engine | None = None) -> SurveyDefinition | None:
    """The pre- or post-play survey this tester answers (:func:`survey_id_for`).

    With ``engine``: a tester who already began the study's own form (answers stored
    before the adults' form existed) carries on with it, so nothing they gave is lost.
    """
    survey_id = tester.config.pre_survey if phase == "pre" else tester.config.post_survey
    if survey_id is None:
        return None
    chosen = survey_id_for(survey_id, phase, child=tester.is_child, game=tester.config.game)
    if engine is not None and chosen != survey_id and not tester.is_child and (
            repo.load_responses(engine, tester.code, survey_id)
            or submitted_pages(engine, tester.code, survey_id)):
        chosen = survey_id
    return load_survey(chosen)


def submitted_pages(engine: Engine, participant_id: str, survey_id: str) -> dict[str, float]:
    """Survey pages this tester submitted (from their ``survey_page`` events): page → s."""
    table = events
    with engine.connect() as conn:
        rows = conn.execute(
            select(table.c.props).where(table.c.participant_id == participant_id)
            .where(table.c.type == "survey_page")).all()
    return {str(r.props["page"]): float(r.props.get("seconds") or 0.0) for r in rows
            if r.props.get("survey") == survey_id and "page" in r.props}


class DbResponseStore:
    """A survey's answers for one tester, kept in the database page by page."""

    def __init__(self, engine: Engine, tester: Tester, definition: SurveyDefinition,
                 phase: str, logger: EventLogger, session_id: str) -> None:
        self.engine = engine
        self.tester = tester
        self.definition = definition
        self.phase = phase
        self.logger = logger
        self.session_id = session_id

    def load(self) -> SavedProgress:
        code = self.tester.code
        answers = repo.load_responses(self.engine, code, self.definition.id)
        timings = dict(repo.page_timings(self.engine, code, self.definition.id))
        # A page can be completed without storing an answer (an information page, or
        # optional questions left blank): its submit event says so.
        timings.update({page: seconds for page, seconds in
                        submitted_pages(self.engine, code, self.definition.id).items()
                        if page not in timings})
        return SavedProgress(answers=answers, completed_pages=tuple(timings),
                             seconds_per_page=timings)

    def save_page(self, page_id: str, answers: Mapping[str, Answer],
                  seconds_on_page: float) -> None:
        d = self.definition
        self.logger.admit(self.tester.code)  # one input: refused before anything is stored
        repo.save_responses(self.engine, self.tester.code, d.id, d.version, d.content_hash,
                            self.phase, page_id, dict(answers), seconds_on_page,
                            language=self.tester.config.language)
        self.logger.log(self.session_id, self.tester.code, "survey_page",
                        {"survey": d.id, "phase": self.phase, "page": page_id,
                         "seconds": round(seconds_on_page, 3)},
                        client_event_id=f"{self.tester.code}:{d.id}:{page_id}:submit",
                        admitted=True)
        # The bundled surveys ask it as "demo.age_band"; a study's own may say "age_band".
        age_band = answers.get("demo.age_band", answers.get("age_band"))
        if isinstance(age_band, str):
            repo.set_attributes(self.engine, self.tester.code, age_band=age_band)


# -- games ------------------------------------------------------------------------------


class DbGameSink:
    """A game's actions and telemetry, stored as they happen.

    Inside :meth:`batch` they are collected instead and stored together, in one
    transaction, when the batch ends (:mod:`playtest.storage.game_writes`).
    """

    def __init__(self, engine: Engine, logger: EventLogger, *, participant_id: str,
                 session_id: str, game_id: str) -> None:
        self.engine = engine
        self.logger = logger
        self.participant_id = participant_id
        self.session_id = session_id
        self.game_id = game_id
        self._writes: GameWrites | None = None

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        """Every action, event and the finish written inside: one transaction at the end.

        Inside, :meth:`append_action` answers True at once (the claim of the indices is
        made at the commit); the commit raises :class:`ConflictError` when another tab
        stored an action there first, and then nothing of the batch is stored. An
        exception inside the batch stores nothing of it either. Nested batches are one.
        """
        if self._writes is not None or not game_writes.supports(self.engine):
            yield
            return
        writes = GameWrites(self.game_id, self.participant_id, self.session_id,
                            self.logger.study_of(self.participant_id))
        self._writes = writes
        try:
            yield
        finally:
            self._writes = None
        if not writes.empty:  # a batch that stores something is one input of the tester's
            self.logger.admit(self.participant_id)
        game_writes.commit_game_writes(self.engine, writes)

    def append_action(self, index: int, action: list[Any]) -> bool:
        if self._writes is not None:
            self._writes.add_action(index, action)
            return True
        return repo.append_game_action(self.engine, self.game_id, index, action)

    def stored_actions(self) -> int:
        """How many actions the stored record holds (more than a tab has: it is stale)."""
        with self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(game_actions)
                                    .where(game_actions.c.game_id == self.game_id)).scalar_one())

    def log(self, type_: str, props: dict[str, Any], client_event_id: str | None = None) -> None:
        if self._writes is not None:
            self._writes.add_event(type_, props, client_event_id)
            return
        self.logger.log(self.session_id, self.participant_id, type_, props,
                        client_event_id=client_event_id, game_id=self.game_id)

    def finish(self, winner: int | None, reason: str, turns: int) -> None:
        if self._writes is not None:
            self._writes.set_finish(winner, reason, turns)
            return
        repo.finish_game(self.engine, self.game_id, winner, reason, turns)

    def expose(self, experiment: str, variant: str, context: dict[str, Any]) -> None:
        """The tester's ``variant`` of ``experiment`` was shown (a message on the board)."""
        repo.log_exposure(self.engine, self.participant_id, experiment, variant, context)


#: ``game_end`` reasons of games the tester did not play to the end.
UNFINISHED_REASONS = (RESTARTED, LEFT)


def games_finished(engine: Engine, tester: Tester) -> int:
    """Games played to the end (a game restarted or left from the menu does not count
    towards the study's games)."""
    return repo.count_finished_games(engine, tester.code, except_reasons=UNFINISHED_REASONS)

