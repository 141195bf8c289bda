"""Definition format: bundled defaults, bad input with file + item + problem, schema."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from surveys import load_survey, parse_survey, quiz_results, score_definition_answers
from surveys.loader import SCHEMA_PATH, SurveyDefinitionError, json_schema_text, list_surveys
from surveys.model import Matrix

DEFAULT_IDS = ["dokusen_post_child", "dokusen_post_short", "dokusen_pre", "dokusen_pre_adult",
               "dokusen_pre_child", "morris_post", "morris_post_child", "morris_pre",
               "morris_pre_adult", "morris_pre_child", "vapoosh_post_child", "vapoosh_post_long",
               "vapoosh_post_short", "vapoosh_pre", "vapoosh_pre_adult", "vapoosh_pre_child",
               "vasco_post_child", "vasco_post_short", "vasco_pre", "vasco_pre_adult",
               "vasco_pre_child"]


def _doc(*pages: dict) -> dict:
    return {"id": "t", "version": "1", "title": "T", "pages": list(pages)}


def _page(pid: str, *items: dict, **extra: object) -> dict:
    return {"id": pid, "items": list(items), **extra}


def _fails(doc: dict, tmp_path: Path) -> SurveyDefinitionError:
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    with pytest.raises(SurveyDefinitionError) as info:
        load_survey(path)
    assert str(info.value).startswith(str(path))
    return info.value


def test_bundled_defaults_all_load() -> None:
    # Every game's folder (surveys/games/<game>/) is bundled; these games' ids among them.
    games = Path(sys.modules["surveys.loader"].__file__).parent / "games"  # type: ignore[arg-type]
    on_disk = sorted(path.stem for path in games.glob("*/*.yaml"))
    assert list_surveys() == on_disk
    assert set(DEFAULT_IDS) <= set(on_disk)
    for sid in on_disk:
        d = load_survey(sid)
        assert d.id == sid and d.version and len(d.content_hash) == 64


def test_content_hash_changes_with_content_not_with_formatting() -> None:
    base = _doc(_page("p", {"id": "a", "type": "yes_maybe_no", "text": "Again?"}))
    same = parse_survey(yaml.safe_dump(base, default_flow_style=True))
    assert parse_survey(json.dumps(base)).content_hash == same.content_hash
    base["pages"][0]["items"][0]["text"] = "Again? (edited)"
    assert parse_survey(json.dumps(base)).content_hash != same.content_hash


def test_unknown_type(tmp_path: Path) -> None:
    err = _fails(_doc(_page("p", {"id": "q1", "type": "essay", "text": "x"})), tmp_path)
    assert err.item_id == "q1" and "unknown type 'essay'" in err.problem


def test_duplicate_id(tmp_path: Path) -> None:
    doc = _doc(_page("p", {"id": "q1", "type": "yes_maybe_no"}),
               _page("p2", {"id": "q1", "type": "face_scale"}))
    err = _fails(doc, tmp_path)
    assert err.item_id == "q1" and "duplicate id" in err.problem


def test_duplicate_matrix_row_id(tmp_path: Path) -> None:
    doc = _doc(_page("p", {"id": "m", "type": "matrix", "points": 5,
                           "rows": [{"id": "r", "text": "a"}, {"id": "r", "text": "b"}]}))
    assert _fails(doc, tmp_path).item_id == "r"


def test_condition_on_a_later_item(tmp_path: Path) -> None:
    doc = _doc(_page("p1", {"id": "a", "type": "yes_maybe_no", "show_if": {"item": "b", "equals": "yes"}}),
               _page("p2", {"id": "b", "type": "yes_maybe_no"}))
    err = _fails(doc, tmp_path)
    assert err.item_id == "a" and "'b'" in err.problem and "earlier page" in err.problem


def test_condition_on_the_same_page_is_refused(tmp_path: Path) -> None:
    doc = _doc(_page("p1", {"id": "a", "type": "yes_maybe_no"},
                     {"id": "b", "type": "short_text", "show_if": {"item": "a", "equals": "yes"}}))
    err = _fails(doc, tmp_path)
    assert err.item_id == "b" and "earlier page" in err.problem


def test_condition_on_a_missing_item(tmp_path: Path) -> None:
    doc = _doc(_page("p1", {"id": "a", "type": "yes_maybe_no"}),
               _page("p2", {"id": "b", "type": "short_text", "show_if": {"item": "ghost", "answered": True}}))
    err = _fails(doc, tmp_path)
    assert err.item_id == "b" and "'ghost'" in err.problem and "does not exist" in err.problem


def test_page_condition_and_piping_checked(tmp_path: Path) -> None:
    doc = _doc(_page("p1", {"id": "a", "type": "short_text", "text": "Hi {answer:zzz}"}))
    assert "piping" in _fails(doc, tmp_path).problem
    doc2 = _doc(_page("p1", {"id": "a", "type": "yes_maybe_no"}, show_if={"item": "a", "answered": True}))
    assert _fails(doc2, tmp_path).item_id == "p1"


def test_likert_with_one_point(tmp_path: Path) -> None:
    err = _fails(_doc(_page("p", {"id": "lk", "type": "likert", "points": 1, "text": "x"})), tmp_path)
    assert err.item_id == "lk" and "points" in err.problem and "greater than or equal to 2" in err.problem


@pytest.mark.parametrize(
    ("item", "words"),
    [({"id": "lk", "type": "likert", "points": 5, "labels": ["a", "b", "c"]}, "labels must be 2"),
     ({"id": "mc", "type": "multiple_choice", "options": [{"value": 1, "label": "a"}, {"value": 2, "label": "b"}],
       "min_picks": 3}, "min_picks"),
     ({"id": "sc", "type": "single_choice", "options": [{"value": 1, "label": "a"}, {"value": 1, "label": "b"}]},
      "unique"),
     ({"id": "sc", "type": "single_choice", "options": [{"value": 1, "label": "a"}, {"value": 2, "label": "b"}],
       "correct": 3}, "not an option"),
     ({"id": "n", "type": "number", "min": 5, "max": 1}, "min is greater than max"),
     ({"id": "s", "type": "slider", "min": 5, "max": 5}, "min must be below max"),
     ({"id": "x", "type": "yes_maybe_no", "colour": "red"}, "colour"),
     ({"id": "x", "type": "yes_maybe_no", "instrument": "geq", "index": 1}, "unknown instrument"),
     ({"id": "x", "type": "face_scale", "instrument": "smileyometer", "index": 2}, "index 1..1"),
     ({"id": "x", "type": "yes_maybe_no", "show_if": {"item": "y"}}, "exactly one operator"),
     ({"id": "susm", "type": "matrix", "points": 5, "randomize": True,
       "rows": [{"id": "s1", "text": "a", "instrument": "sus", "index": 1}]}, "fixed order"),
     ({"id": "big", "type": "likert", "points": 22}, "less than or equal to 21")],
)
def test_bad_items_name_the_item(tmp_path: Path, item: dict, words: str) -> None:
    first = _page("p0", {"id": "y", "type": "yes_maybe_no"})
    err = _fails(_doc(first, _page("p", item)), tmp_path)
    assert err.item_id == item["id"], str(err)
    assert words in err.problem, str(err)


def test_not_yaml_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "x.yaml"
    bad.write_text("id: [unclosed", encoding="utf-8")
    with pytest.raises(SurveyDefinitionError, match="not valid YAML"):
        load_survey(bad)
    with pytest.raises(SurveyDefinitionError, match="no such survey"):
        load_survey(tmp_path / "nope.yaml")


def test_schema_file_is_up_to_date() -> None:
    assert SCHEMA_PATH.read_text(encoding="utf-8") == json_schema_text(), \
        "regenerate: python -m surveys schema > surveys/schema/survey.schema.json"


def test_schema_accepts_defaults_and_rejects_unknown_type() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    for sid in DEFAULT_IDS:
        games = Path(sys.modules["surveys.loader"].__file__).parent / "games"  # type: ignore[arg-type]
        (path,) = games.glob(f"*/{sid}.yaml")
        jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(_doc(_page("p", {"id": "a", "type": "essay"})), schema)


# ------------------------------------------------------------------ the Vapoosh! defaults
def test_post_short_instruments_and_quiz_are_tagged() -> None:
    d = load_survey("vapoosh_post_short")
    answers: dict[str, object] = {f"minipxi.{c}": 0 for c in ("AA_2", "CH_1", "EC_1", "GR_2", "PF_3", "AUT_1", "CUR_1", "IMM_3",
                                            "MAS_1", "MEA_1", "ENJ_3")}
    answers |= {"umux.1": 7, "umux.2": 6, "recommend": 9, "quiz.square_roll": "extra_turn",
                "quiz.both_own": "you_miss", "quiz.win": "four_or_square"}
    scores = score_definition_answers(d, answers)
    assert set(scores) == {"minipxi", "umux_lite", "recommend"}
    assert scores["minipxi"].scales["enjoyment"] == 0.0
    assert scores["umux_lite"].score == pytest.approx(11 * 100 / 12)
    assert scores["recommend"].grade == "promoter"
    assert quiz_results(d, answers) == {"quiz.square_roll": True, "quiz.both_own": False, "quiz.win": True,
                                        "quiz.capture": None}


def test_quiz_answers_follow_the_rules_page() -> None:
    d = load_survey("vapoosh_post_short")
    q = {it.id: it for _, it in d.items() if getattr(it, "correct", None) is not None}
    label = {k: next(o.label for o in v.options if o.value == v.correct) for k, v in q.items()}
    assert "another turn" in label["quiz.square_roll"]      # square roll -> extra turn
    assert "next player misses" in label["quiz.both_own"]   # both own -> next player misses
    assert "2×2 square" in label["quiz.win"] and "Four" in label["quiz.win"]
    assert "capture" in label["quiz.capture"]               # capture when blocked
    for item in q.values():
        assert item.randomize and item.options[-1].value == "dont_know" and item.options[-1].pinned


def test_post_long_scores_every_instrument_and_derives_minipxi() -> None:
    d = load_survey("vapoosh_post_long")
    answers: dict[str, object] = {}
    for _, item in d.items():
        if isinstance(item, Matrix):
            answers |= {r.id: item.start for r in item.rows}  # lowest point everywhere
    answers |= {f"tlx.{k}": 0 for k in ("mental", "physical", "temporal", "performance", "effort", "frustration")}
    answers |= {"recommend": 0}
    s = score_definition_answers(d, answers)
    assert set(s) == {"pxi", "minipxi", "umux_lite", "recommend", "raw_tlx", "sus", "ueq_s"}
    assert s["pxi"].scales["enjoyment"] == -3.0 and s["minipxi"].scales["enjoyment"] == -3.0
    assert s["sus"].score == 50.0  # all 1s: odd 0, even 4 each -> 20 * 2.5
    assert s["raw_tlx"].score == 0.0 and s["recommend"].score == 0.0
    assert s["ueq_s"].score == -3.0


def test_children_variants_use_faces_and_yes_maybe_no() -> None:
    types = {it.type for _, it in load_survey("vapoosh_post_child").items()}
    assert {"face_scale", "yes_maybe_no"} <= types and "matrix" not in types
    pre = load_survey("vapoosh_pre_child")
    assert {it.type for _, it in pre.items()} >= {"face_scale", "yes_maybe_no"}


def test_check_cli_on_defaults() -> None:
    path = Path(sys.modules["surveys.loader"].__file__).parent / "games" / "vapoosh" / "vapoosh_pre.yaml"  # type: ignore[arg-type]
    out = subprocess.run([sys.executable, "-m", "surveys", "check", str(path)], capture_output=True, text=True)
    assert out.returncode == 0 and "ok: vapoosh_pre 1.0.0" in out.stdout and out.stdout.count("\n") == 1


def test_response_records_match_the_telemetry_format() -> None:
    from surveys.responses import response_records

    d = load_survey("vapoosh_pre")
    recs = response_records(d, {"demo.role": "child", "expect.fun_0_10": 7, "expect.smileyometer_pre": 4,
                                "demo.age_band": None})
    assert [(r["item"], r["value"]) for r in recs] == [("demo.role", "child"), ("demo.age_band", None),
                                                       ("expect.smileyometer_pre", 4)]
    assert set(recs[0]) == {"survey", "survey_version", "survey_hash", "phase", "item", "value"}
    assert recs[0]["phase"] == "pre" and recs[0]["survey_hash"] == d.content_hash


@pytest.mark.parametrize("sid", DEFAULT_IDS)
def test_instrument_wording_in_defaults_matches_the_catalogue(sid: str) -> None:
    """Validated instruments must not be reworded (UEQ handbook, PXI guide)."""
    from surveys.instruments import INSTRUMENTS

    exact = {"pxi", "minipxi", "sus", "umux_lite", "ueq_s", "raw_tlx", "recommend"}
    for _, item in load_survey(sid).items():
        for unit in (item.rows if isinstance(item, Matrix) else [item]):
            if unit.instrument in exact:
                assert unit.index is not None
                assert unit.text == INSTRUMENTS[unit.instrument].items[unit.index - 1], unit.id
