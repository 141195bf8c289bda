"""Study families on a SQLite file and a real PostgreSQL (issue 26, item 2): a follow-up
study is the next version of its study's family with the same settings plus the
follow-up experiment, its own id and link; starting it again (a double press, two tabs at
once) makes no second study; the family lists every version in order; and family,
version and each experiment's ``targets`` go out in an export and come back in an import."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from sqlalchemy import Engine

from analytics.data import UNNAMED_GAME
from playtest import services
from playtest.games.registry import game_names, game_plugin
from playtest.storage import exchange
from playtest.storage import repository as repo
from playtest.storage.errors import ImportRejected
from playtest.study_config import StudyConfig, study_record_problem

GAMES = sorted(game_names())


def _experiment(key: str, point: str = "rule:walled") -> dict[str, Any]:
    """A follow-up experiment every game's board uses (its speed), made for ``point``."""
    return {"key": key, "target": "ui:speed", "variants": {"today": 2, "remedy": 1},
            "targets": point}


def _source(engine: Engine, game: str, study_id: str = "lab") -> repo.Study:
    config = StudyConfig.model_validate(
        {"game": game, "games_per_tester": 3, "audience": "adults", "ai_think_ms": 0,
         "experiments": [{"key": "pace", "target": "ui:speed",
                          "variants": {"slow": 1, "fast": 3}}]},
        context={"game": game})
    return services.create_study(engine, title="Lab", config=config, study_id=study_id)


@pytest.mark.parametrize("game", GAMES)
def test_a_follow_up_is_the_next_version_with_the_same_settings(
        engine: Engine, game: str) -> None:
    source = _source(engine, game)
    made = services.start_follow_up_study(engine, source, _experiment("fix_walled"))

    assert made.study_id == "lab-v2" and made.open and made.game == game
    assert made.title == "Lab (version 2)"
    assert (services.family_id(made), services.family_version(made)) == ("lab", 2)
    before, after = services.study_config(source), services.study_config(made)
    assert after.model_dump(exclude={"experiments", "family", "version"}) == \
        before.model_dump(exclude={"experiments", "family", "version"})
    # "pace" varies the same ui:speed: the follow-up's arm would decide it, so it is left
    # out (and said: replaced_in_follow_up); the source study is kept as it was
    assert services.replaced_in_follow_up(before, _experiment("fix_walled")) == ["pace"]
    assert [(e.key, e.targets) for e in after.experiments] == [("fix_walled", "rule:walled")]
    assert repo.get_study(engine, "lab") == source
    assert services.family_words(made) == "Version 2 of family lab"


def test_starting_it_again_makes_no_second_study_and_versions_count_up(
        engine: Engine) -> None:
    source = _source(engine, GAMES[0])
    first = services.start_follow_up_study(engine, source, _experiment("fix_walled"))
    again = services.start_follow_up_study(engine, source, _experiment("fix_walled"))
    assert again.study_id == first.study_id
    assert services.existing_follow_up(engine, source, "fix_walled") == first
    # another point's follow-up from version 2 is version 3 of the same family
    third = services.start_follow_up_study(engine, first, _experiment("fix_brown",
                                                                       "rule:brown"))
    assert (third.study_id, services.family_version(third)) == ("lab-v3", 3)
    # fix_brown varies the same ui:speed as fix_walled, so it replaces it there
    assert [e["key"] for e in third.experiment_records] == ["fix_brown"]
    family = [s.study_id for s in services.study_family(engine, source)]
    assert family == ["lab", "lab-v2", "lab-v3"]
    assert [s.study_id for s in services.study_family(engine, third)] == family
    assert len(repo.list_studies(engine)) == 3


def test_two_tabs_at_once_make_one_study(engine: Engine) -> None:
    source = _source(engine, GAMES[-1])
    with ThreadPoolExecutor(2) as pool:
        made = list(pool.map(lambda _: services.start_follow_up_study(
            engine, source, _experiment("fix_walled")), range(2)))
    assert made[0].study_id == made[1].study_id == "lab-v2"
    assert len(repo.list_studies(engine)) == 2


def test_an_id_taken_outside_the_family_is_passed_over(engine: Engine) -> None:
    source = _source(engine, GAMES[0])
    services.create_study(engine, title="Someone else's", config=StudyConfig(),
                          study_id="lab-v2")
    made = services.start_follow_up_study(engine, source, _experiment("fix_walled"))
    assert made.study_id == "lab-v2-2"
    assert services.family_version(made) == 2
    assert [s.study_id for s in services.study_family(engine, source)] == ["lab", "lab-v2-2"]


def _records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def test_family_version_and_targets_travel_in_export_and_import(
        engine: Engine, tmp_path: Path) -> None:
    source = _source(engine, GAMES[0])
    made = services.start_follow_up_study(engine, source, _experiment("fix_walled"))
    out = tmp_path / "v2.jsonl"
    exchange.export_jsonl(engine, made.study_id, out)
    (study,) = [r for r in _records(out) if r["record"] == "study"]
    assert (study["family"], study["version"]) == ("lab", 2)
    assert study["experiments"][0]["targets"] == "rule:walled"
    # the CSV and Parquet tables carry them too
    for fmt in ("csv", "parquet"):
        table = exchange.export_tables(engine, made.study_id, tmp_path / f"v2.{fmt}", fmt)
        frame = (pd.read_csv if fmt == "csv" else pd.read_parquet)(table["study"])
        assert (frame["family"][0], int(frame["version"][0])) == ("lab", 2)
        assert "rule:walled" in frame["experiments"][0]
    # a study without a family exports neither key (they are optional)
    exchange.export_jsonl(engine, source.study_id, tmp_path / "v1.jsonl")
    (plain,) = [r for r in _records(tmp_path / "v1.jsonl") if r["record"] == "study"]
    assert "family" not in plain and "version" not in plain

    # into another database (this one, its studies renamed): family, version, targets back
    moved = {**study, "study_id": "elsewhere-v2", "family": "elsewhere"}
    back = tmp_path / "moved.jsonl"
    back.write_text(json.dumps(moved) + "\n", "utf-8")
    exchange.import_jsonl(engine, back, check_study=study_record_problem)
    imported = repo.get_study(engine, "elsewhere-v2")
    assert imported is not None
    config = services.study_config(imported)
    assert (config.family, config.version) == ("elsewhere", 2)
    assert config.experiments[0].targets == "rule:walled"
    assert "family" not in (imported.extra or {})  # stored with the settings
    # exported again, the same keys
    exchange.export_jsonl(engine, "elsewhere-v2", tmp_path / "again.jsonl")
    (again,) = [r for r in _records(tmp_path / "again.jsonl") if r["record"] == "study"]
    assert (again["family"], again["version"]) == ("elsewhere", 2)
    assert again["experiments"] == moved["experiments"]


@pytest.mark.parametrize(("change", "said"), [
    ({"family": "<script>alert(1)</script>"}, "family must be a study id"),
    ({"family": "x" * 65}, "family must be a study id"),
    ({"family": ["lab"]}, "family must be a study id"),
    ({"version": 0}, "version must be a whole number from 1"),
    ({"version": "2"}, "version must be a whole number from 1"),
    ({"family": None, "version": 2}, "version 2 needs a family"),
    ({"experiments": [{"key": "fix", "target": "ui:speed", "variants": ["a", "b"],
                       "payloads": {"a": 1, "b": 3}, "targets": "javascript:alert(1)"}]},
     "targets must be a confusion point id"),
])
@pytest.mark.parametrize("checked", [True, False], ids=["app-check", "storage-alone"])
def test_hostile_family_values_are_refused_and_nothing_is_stored(
        engine: Engine, tmp_path: Path, change: dict[str, Any], said: str,
        checked: bool) -> None:
    record = {"record": "study", "study_id": "hostile", "title": "H", "game": UNNAMED_GAME,
              "rules": game_plugin(UNNAMED_GAME).default_rules, "experiments": [], "family": "lab", "version": 2,
              **change}
    path = tmp_path / "hostile.jsonl"
    path.write_text(json.dumps(record) + "\n", "utf-8")
    with pytest.raises(ImportRejected) as refused:
        exchange.import_jsonl(engine, path,
                              check_study=study_record_problem if checked else None)
    lines = str(refused.value).splitlines()
    assert any(said in line for line in lines), lines
    assert repo.get_study(engine, "hostile") is None
    assert repo.list_studies(engine) == []


def test_a_study_record_without_family_still_imports(engine: Engine, tmp_path: Path) -> None:
    record = {"record": "study", "study_id": "old", "title": "Old", "rules": "standard",
              "experiments": [{"key": "pace", "target": "ui:speed", "variants": ["a", "b"],
                               "payloads": {"a": 1, "b": 3}}]}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(record) + "\n", "utf-8")
    exchange.import_jsonl(engine, path, check_study=study_record_problem)
    old = repo.get_study(engine, "old")
    assert old is not None
    assert services.family_words(old) == "Version 1 of family old"
    assert services.study_config(old).experiments[0].targets is None
