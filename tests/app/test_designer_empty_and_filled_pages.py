"""Designer pages on an empty study say "No data yet" instead of drawing bare axes; the
Overview keeps optional games out of the drop-off; the Questionnaires page shows
expectation against experience once testers answered both surveys; the Balance page
gives tables and charts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from streamlit.testing.v1 import AppTest

from playtest import demo, services
from playtest.storage import repository as repo
from playtest.study_config import Experiment, StudyConfig

PAGE_APP = str(Path(__file__).parent / "apps" / "designer_page.py")
DATA_PAGES = ["overview", "confusion", "questionnaires", "experiments", "replay", "report"]


def _page(name: str, study_id: str) -> AppTest:
    at = AppTest.from_file(PAGE_APP, default_timeout=120)
    at.query_params["page"] = name
    at.session_state["designer_signed_in"] = True
    at.session_state["study_id"] = study_id
    return at.run()


def _charts(at: AppTest) -> list[dict[str, object]]:
    return [json.loads(chart.proto.spec) for chart in at.get("plotly_chart")]


def _infos(at: AppTest) -> list[str]:
    return [str(i.value) for i in at.info]


@pytest.fixture
def empty_study(db: Engine) -> repo.Study:
    config = StudyConfig(experiments=[Experiment(
        key="wording", target="message:extra_turn", variants={"A": "default", "B": "formal"})])
    return services.create_study(db, title="Nobody yet", config=config, study_id="empty")


@pytest.mark.parametrize("page", [*DATA_PAGES, "studies", "balance"])
def test_an_empty_study_says_no_data_yet_and_draws_no_axes(
    empty_study: repo.Study, page: str
) -> None:
    at = _page(page, empty_study.study_id)
    assert not at.exception, at.exception
    assert _charts(at) == []
    if page in DATA_PAGES:
        assert any(text.startswith("No data yet") for text in _infos(at)), _infos(at)
        assert not at.dataframe


def test_testers_without_clicks_get_a_note_per_chart_not_empty_charts(db: Engine) -> None:
    study = services.create_study(db, title="Consented only", study_id="early",
                                  config=StudyConfig())
    for _ in range(2):
        services.consent(db, study, {"child": False})
    at = _page("confusion", "early")
    assert not at.exception, at.exception
    assert _charts(at) == []
    notes = [text for text in _infos(at) if text.startswith("No data yet: ")]
    assert "No data yet: Wrong clicks by class." in notes and len(notes) >= 4


@pytest.fixture
def demo_study(db: Engine) -> repo.Study:
    study = demo.ensure_demo_study(db)
    demo.generate(db, 40, seed=3, workers=1)
    return study


def test_overview_counts_optional_games_apart(demo_study: repo.Study) -> None:
    at = _page("overview", demo_study.study_id)
    assert not at.exception, at.exception
    table = at.dataframe[0].value.set_index("step")
    optional = [step for step in table.index if "(optional)" in step]
    assert optional == ["Game 2 (optional)"]  # the demo asks for one game, some play two
    assert table.loc["Game 2 (optional)", "drop_off"] == 0
    assert table.loc["Survey after play", "drop_off"] == max(
        table.loc["Game 1", "reached"] - table.loc["Survey after play", "reached"], 0)
    # people's words for the steps, no raw key (pre_survey) in the table or the chart
    assert list(table.index[:2]) == ["Consent", "Survey before play"]
    (chart,) = _charts(at)
    bars = chart["data"][0]
    assert bars["x"][table.index.get_loc("Game 2 (optional)")] == "Game 2 (optional)"
    assert not {"pre_survey", "post_survey"} & set(bars["x"])
    assert "Games beyond the study's games per tester are optional" in " ".join(
        str(c.value) for c in at.caption)


def test_expectation_against_experience_has_rows_once_both_were_answered(
    demo_study: repo.Study,
) -> None:
    at = _page("questionnaires", demo_study.study_id)
    assert not at.exception, at.exception
    frames = [f.value for f in at.dataframe if "n_pairs" in f.value.columns]
    assert len(frames) == 1
    table = frames[0].set_index("measure")
    assert set(table.index) >= {"Fun, 0–10 (adults)", "How good, faces 1–5 (children)"}
    assert (table["n_pairs"] > 0).all()
    assert not any("no tester has answered both" in text for text in _infos(at))


def test_balance_gives_tables_and_charts(db: Engine) -> None:
    services.create_study(db, title="Rules", study_id="rules", config=StudyConfig())
    at = _page("balance", "rules")
    at.text_input(key="bal_seats").input("easy,medium")
    at.number_input(key="bal_games").set_value(40)
    at.button(key="FormSubmitter:balance-Simulate").click().run()
    assert not at.exception, at.exception
    seats = next(f.value for f in at.dataframe if "seat" in f.value.columns)
    assert list(seats["level"]) == ["easy", "medium"]
    assert seats["wins"].sum() <= 40 and (seats["ci95_low"] <= seats["share"]).all()
    rules = next(f.value for f in at.dataframe if "rule" in f.value.columns)
    assert len(rules) > 0 and rules["share_of_games"].between(0, 1).all()
    titles = [chart["layout"]["title"]["text"] for chart in _charts(at)]
    assert titles == ["Wins per seat, 95% interval", "Share of games with the rule",
                      "Game length in rolls"]
    assert [m.label for m in at.metric] == ["Games", "Draws", "First-seat advantage"]
    # The result stays on the page when the designer does something else.
    at.run()
    assert len(_charts(at)) == 3


def test_a_page_shows_new_testers_at_once_not_ten_minutes_later(db: Engine) -> None:
    """The study's data is cached by its fingerprint: a new tester is a new cache entry
    (the fingerprint was once an underscore argument, which Streamlit leaves out of the
    key, so pages kept the old data until the cache's 10-minute expiry)."""
    study = services.create_study(db, title="Growing", study_id="growing",
                                  config=StudyConfig())
    services.consent(db, study, {"child": False})
    first = _page("overview", "growing").dataframe[0].value.set_index("step")
    services.consent(db, study, {"child": False})
    again = _page("overview", "growing").dataframe[0].value.set_index("step")
    assert (first.loc["Consent", "reached"], again.loc["Consent", "reached"]) == (1, 2)


def test_questionnaire_tables_name_instruments_and_questions_in_words(
        demo_study: repo.Study) -> None:
    """Instrument ids (minipxi) show as their names and item ids (quiz.both_own) as the
    survey definition's question, in every questionnaire table and picker."""
    from playtest.display_words import question_words
    from playtest.games.registry import game_plugin
    from surveys.instruments import INSTRUMENTS

    at = _page("questionnaires", demo_study.study_id)
    assert not at.exception, at.exception
    plugin = game_plugin(demo_study.game)
    asked = question_words([demo_study.config.get("pre_survey") or plugin.pre_survey,
                            demo_study.config.get("post_survey") or plugin.post_survey,
                            *plugin.child_surveys.values()])
    assert asked  # the demo's surveys are bundled: their questions are known
    ids = set(asked) | set(INSTRUMENTS)
    frames = [frame.value for frame in at.dataframe]
    shown = {str(v) for f in frames for column in f.columns if f[column].dtype == object
             for v in f[column]}
    assert not shown & ids, shown & ids
    quiz = next(f for f in frames if "item" in f.columns and "share_correct" in f.columns)
    assert len(quiz) and set(quiz["item"]) <= set(asked.values())
    scores = frames[0]
    if len(scores):
        assert set(scores["instrument"]) <= {spec.name for spec in INSTRUMENTS.values()}
    picker = at.selectbox(key="dist_item")
    assert picker.value in asked  # the data keeps its key; the picker shows the words
    assert all(option in asked.values() for option in picker.options)
