"""The Vasco and Dokusen demo studies carry an experiment each, and their Experiments
page shows it with numbers: Vasco's A/B test of a message's wording (``forced_gap``, plain
words or the seed's terms), Dokusen's of a stage parameter (a ``rules`` experiment whose
variants are two courses: S1's orange only grows, or also plays).

The simulated testers are filled by ``playtest demo`` (:func:`playtest.demo.generate`) into
real SQLite files, as many as ``playtest up`` gives each (20); the page is drawn in
AppTest. The planted truths (the formal wording slows testers; an orange that plays makes
S1 harder) are checked on the same data, and the Vasco board's messages are logged in the
tester's variant by the real play step.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from analytics import experiments
from engine.players import make_player
from engine.vasco import VascoGame
from playtest import demo, services
from playtest.games.dokusen.demo import STAGE_EXPERIMENT
from playtest.games.vasco.demo import PLANTED_WORDING, WORDING_EXPERIMENT
from playtest.session.session import decision_seed
from playtest.storage import repository as repo
from playtest.storage.models import EventRow, exposures
from playtest.study_config import (
    Experiment,
    StudyConfig,
    StudyConfigError,
    check_experiments_change_the_game,
    parse_study_config,
)
from playtest.study_snapshot import load_prepared
from tests.app.conftest import APP
from tests.app.designer_support import demo_databases, designer_page, use_copy

TESTERS = demo.GAME_DEMO_TESTERS
#: game → (experiment key, its target, its variants in the study's order)
EXPECTED = {
    "vasco": ("forced_gap_wording", "message:forced_gap", ("plain", "formal")),
    "dokusen": ("s1_orange", "rules", ("orange_grows", "orange_plays")),
}


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One database per game with its demo study and :data:`TESTERS` simulated testers."""
    return demo_databases(tmp_path_factory, EXPECTED, testers=TESTERS, seed=5)


def _result(path: Path, game: str) -> experiments.ExperimentResult:
    from playtest.storage.db import make_engine

    engine = make_engine(f"sqlite:///{path}")
    bundle = load_prepared(engine, f"{demo.DEMO_STUDY_ID}-{game}").bundle
    engine.dispose()
    (result,) = experiments.analyze_experiments(bundle.data, bundle.scores, bundle.quiz)
    return result


def test_the_demo_studies_carry_an_experiment_their_game_can_show() -> None:
    for game, (key, target, variants) in EXPECTED.items():
        config = demo.game_demo_config(game)
        assert [(e.key, e.target, tuple(e.variants)) for e in config.experiments] == [
            (key, target, variants)]
        check_experiments_change_the_game(config)  # what the Studies page checks on save
        # the stored settings load back the same (what the app reads)
        assert parse_study_config(config.model_dump()) == config
    dokusen = demo.game_demo_config("dokusen").experiments[0]
    assert dokusen.primary_metric == "wins_vs_computer"


@pytest.mark.parametrize("game", list(EXPECTED))
def test_the_experiments_page_shows_the_demo_experiment_with_numbers(
    filled: dict[str, Path], game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    key, target, variants = EXPECTED[game]
    use_copy(filled[game], tmp_path, monkeypatch)
    at = designer_page("experiments", f"{demo.DEMO_STUDY_ID}-{game}", timeout=120)
    assert [h.value for h in at.subheader] == [f"{key} · {target}"]
    shown = "\n".join(str(e.value) for e in [*at.info, *at.success, *at.warning])
    assert "has no experiments" not in shown
    counts = {m.label: int(m.value) for m in at.metric if m.label.startswith("Testers with")}
    assert set(counts) == {f"Testers with {v}" for v in variants}
    assert sum(counts.values()) == TESTERS and min(counts.values()) == TESTERS // 2
    (table,) = [df.value for df in at.dataframe if "Role" in df.value.columns]
    primary = table[table["Role"] == "primary (decides)"].iloc[0]
    for variant in variants:  # a value and its testers for each arm
        assert re.search(r"\d.* \(\d+\)$", str(primary[f"{variant} (n)"])), primary
    difference = next(c for c in table.columns if c.startswith("Difference"))
    assert re.search(r"[+−-]\d.*\[.*\d.*\]", str(primary[difference])), primary


def test_the_planted_truths_show_in_the_demo_data(filled: dict[str, Path]) -> None:
    """Formal wording: testers take longer to act after the message. An orange that plays:
    fewer games won. (The point estimates' signs for these seeds: at 10 testers per arm
    the Dokusen estimate points this way about 93 times in 100, by simulation.)"""
    vasco = _result(filled["vasco"], "vasco").primary_result
    assert vasco is not None and vasco.metric.key == "response_time"
    assert tuple(vasco.compared) == ("plain", "formal")  # (control, treatment)
    assert vasco.effect > 0  # formal − plain, seconds
    dokusen = _result(filled["dokusen"], "dokusen").primary_result
    assert dokusen is not None and dokusen.metric.key == "wins_vs_computer"
    assert tuple(dokusen.compared) == ("orange_grows", "orange_plays")
    assert dokusen.effect < 0  # orange_plays − orange_grows, share of games won


def test_each_vasco_tester_reads_the_message_in_their_variant(filled: dict[str, Path]) -> None:
    from playtest.storage.db import make_engine

    engine = make_engine(f"sqlite:///{filled['vasco']}")
    table = EventRow.__table__  # type: ignore[attr-defined]
    with engine.connect() as conn:
        rows = conn.execute(select(table.c.participant_id, table.c.type, table.c.props)
                            .order_by(table.c.participant_id, table.c.seq)).all()
    variant_of = {code: repo.get_assignment(engine, code, "forced_gap_wording")
                  for code in {r.participant_id for r in rows}}
    engine.dispose()
    wording = WORDING_EXPERIMENT["variants"]
    seen: dict[str, int] = {}
    for code, kind, props in rows:
        if kind == "message" and props["key"] == "forced_gap":
            assert props["variant"] == wording[variant_of[code]]
            assert ("Auto move" in props["text"]) == (props["variant"] == PLANTED_WORDING[1])
            seen[code] = seen.get(code, 0) + 1
    assert len(seen) >= TESTERS - 2  # nearly every tester saw a tile slide into a gap


def test_message_and_rules_experiments_are_checked_against_the_study_s_game() -> None:
    wording = {"experiments": [dict(WORDING_EXPERIMENT)]}
    assert parse_study_config({"game": "vasco", **wording}).experiments[0].key == (
        "forced_gap_wording")
    with pytest.raises(StudyConfigError, match="no message 'forced_gap'"):
        parse_study_config(wording)  # the first game's screen has no such message
    stages = {"experiments": [dict(STAGE_EXPERIMENT)]}
    assert parse_study_config({"game": "dokusen", **stages}).experiments[0].key == "s1_orange"
    with pytest.raises(StudyConfigError, match="stages"):
        parse_study_config({"game": "vasco", **stages})
    # built in code (the demo's hooks): an experiment alone is checked against any game's,
    # the study against its own
    alone = Experiment(**WORDING_EXPERIMENT)
    assert StudyConfig(game="vasco", experiments=[alone]).experiments == [alone]
    with pytest.raises(ValueError, match="no message 'forced_gap'"):
        StudyConfig(game="dokusen", experiments=[alone])
    with pytest.raises(ValueError, match="no message 'nothing_like_it'"):
        Experiment(key="w", target="message:nothing_like_it",
                   variants={"a": "default", "b": "formal"})


def _forcing_actions(seed: int) -> list[list[Any]]:
    """A game's first moves up to a position where the computer (Blue, seat 2, at easy)
    of a game seeded ``seed`` slides a tile into a narrow gap, the game going on after
    it: its move is decided as the game session decides it (a player of its level seeded
    by :func:`decision_seed` from the game's seed and the action's number)."""
    import random

    rng = random.Random(11)
    for _ in range(200):
        game = VascoGame()
        state = game.new_initial_state()
        actions: list[list[Any]] = []
        while not state.is_terminal():
            if state.current_player() == 1:
                player = make_player("easy", seed=decision_seed(seed, len(actions)),
                                     game="vasco")
                after = state.clone()
                events = after.apply_action(player.decide(state).action)
                gap = any(e.kind == "auto" and e.data["constrained"] == 2 for e in events)
                if gap and not after.is_terminal():
                    return actions
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(game.action_to_json(action))
    raise AssertionError("no game had the computer force a tile into a gap on Blue's move")


def _events(db: Engine, code: str, kind: str) -> list[dict[str, Any]]:
    table = EventRow.__table__  # type: ignore[attr-defined]
    with db.connect() as conn:
        rows = conn.execute(select(table.c.props).where(table.c.participant_id == code,
                                                        table.c.type == kind)
                            .order_by(table.c.event_id)).all()
    return [r.props for r in rows]


@pytest.mark.parametrize("variant", ["plain", "formal"])
def test_the_play_step_shows_and_logs_the_message_in_the_tester_s_variant(
        db: Engine, make_study: Callable[..., repo.Study], variant: str) -> None:
    """The computer's move slides a tile into a gap: the board tells why in the tester's
    wording, once, and the tester counts as exposed."""
    experiment = Experiment(**{**WORDING_EXPERIMENT,
                               "variants": {variant: WORDING_EXPERIMENT["variants"][variant],
                                            "other": "default" if variant == "formal"
                                            else "formal"}})
    study = make_study(game="vasco", seats=["human", "ai:easy"], rules="standard",
                       pre_survey=None, post_survey=None, experiments=[experiment])
    code = ""
    for _ in range(4):  # balanced assignment: one of the first two testers gets `variant`
        code = services.consent(db, study, {"child": False}).participant_id
        if repo.get_assignment(db, code, experiment.key) == variant:
            break
    repo.advance_stage(db, code, "consent", "pre_survey")
    repo.advance_stage(db, code, "pre_survey", "play")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["p"] = code
    at.run()
    assert not at.exception, at.exception
    record = repo.latest_unfinished_game(db, code)
    assert record is not None and not record.actions
    # The game stored up to the computer's turn, as a tab closed while it was due: the
    # reload replays the record and the computer slides a tile into a gap.
    for index, action in enumerate(_forcing_actions(int(record.seed or 0))):
        assert repo.append_game_action(db, record.game_id, index, action)
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["p"] = code
    at.run()
    assert not at.exception, at.exception
    at.run()  # a rerun draws the same board: nothing is logged twice
    assert not at.exception, at.exception
    shown = [m for m in _events(db, code, "message") if m["key"] == "forced_gap"]
    wording = WORDING_EXPERIMENT["variants"][variant]
    assert len(shown) == 1 and shown[0]["variant"] == wording
    assert shown[0]["text"].startswith("Auto move at" if variant == "formal" else "A tile slid")
    with db.connect() as conn:
        exposed = conn.execute(select(exposures.c.experiment, exposures.c.variant)
                               .where(exposures.c.participant_id == code)).all()
    assert [tuple(row) for row in exposed] == [(experiment.key, variant)]
