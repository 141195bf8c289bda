"""Hostile import files and study payloads (issue 11 items 1, 6, 8; issue 10 item 16).

The corpus is ``tests/reliability/hostile/``: ``imports/`` (files, with the line and
message each is refused with in ``imports.yaml``), ``studies.yaml`` (study settings) and
``page_texts.yaml`` (text typed into the Studies page). Every input is refused with its
one-line message, and the database's table counts are unchanged, on a SQLite file and on
a real PostgreSQL server (``tests/pg_server.py``; under ``CI=true`` it must run).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from sqlalchemy import Engine, func, select

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playtest.cli import main  # noqa: E402
from playtest.storage.db import dispose_engines, make_engine, upgrade  # noqa: E402
from playtest.storage.errors import ImportRejected  # noqa: E402
from playtest.storage.exchange import (  # noqa: E402
    MAX_LINE_BYTES,
    MAX_TEXT_CHARS,
    export_jsonl,
    import_jsonl,
)
from playtest.storage.models import ALL_TABLES  # noqa: E402
from playtest.study_config import (  # noqa: E402
    MAX_SETTINGS_CHARS,
    StudyConfigError,
    load_settings_text,
    parse_study_config,
    study_record_problem,
)
from playtest.study_form_checks import where_in_words  # noqa: E402
from tests.databases import empty_database, migrated  # noqa: E402
from tests.pg_server import postgres_url_or_skip  # noqa: E402

CORPUS = Path(__file__).parent / "hostile"
IMPORTS: dict[str, dict[str, Any]] = yaml.safe_load((CORPUS / "imports.yaml").read_text())
STUDIES: dict[str, dict[str, Any]] = yaml.safe_load((CORPUS / "studies.yaml").read_text())
PAGE_TEXTS: dict[str, dict[str, str]] = yaml.safe_load((CORPUS / "page_texts.yaml").read_text())
VALID_START = (CORPUS / "imports" / "before_consent.jsonl").read_text().splitlines()[:3]


@pytest.fixture(scope="session")
def postgres_server_url() -> Iterator[str]:
    yield from postgres_url_or_skip()


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    """A migrated database holding one valid study with a tester and an event."""
    with empty_database(request, tmp_path, "postgres_server_url") as url, migrated(url) as engine:
        valid = tmp_path / "valid.jsonl"
        valid.write_text(
            "\n".join(line.replace('"h"', '"valid"').replace('"p1"', '"v1"')
                      .replace('"s1"', '"w1"') for line in VALID_START) + "\n")
        import_jsonl(engine, valid)
        yield engine


def _counts(engine: Engine) -> dict[str, int]:
    with engine.connect() as conn:
        return {
            table.__tablename__: conn.execute(select(func.count()).select_from(table)).scalar_one()
            for table in ALL_TABLES
        }


def _generated(tmp_path: Path) -> dict[str, tuple[Path, int, str]]:
    """Hostile files too big to keep in the repository: name → (file, line, message)."""
    start = "\n".join(VALID_START) + "\n"

    def event(props: str) -> str:
        return ('{"record":"event","participant_id":"p1","session_id":"s1","seq":2,'
                f'"at":"2026-01-01T09:00:02.000Z","type":"click","props":{props}}}\n')

    made = {
        # 3 MiB in one value (the 200 MB value, smaller: the limit is what counts)
        "long_line.jsonl": (start + event('{"t":"' + "x" * (3 * MAX_LINE_BYTES) + '"}'),
                            4, f"line longer than {MAX_LINE_BYTES:,} bytes"),
        "long_text.jsonl": (start + event('{"t":"' + "y" * (MAX_TEXT_CHARS + 1) + '"}'),
                            4, f"a text of {MAX_TEXT_CHARS + 1:,} characters"),
        "long_line_without_newline.jsonl": (start + event('{"t":"' + "z" * MAX_LINE_BYTES
                                                          + '"}').rstrip("\n"),
                                            4, "line longer than"),
    }
    out = {}
    for name, (text, line, message) in made.items():
        path = tmp_path / name
        path.write_text(text)
        out[name] = (path, line, message)
    return out


def _all_imports(tmp_path: Path) -> dict[str, tuple[Path, int, str]]:
    corpus = {name: (CORPUS / "imports" / name, spec["line"], spec["message"])
              for name, spec in IMPORTS.items()}
    return {**corpus, **_generated(tmp_path)}


# -------------------------------------------------------------------- import files


def test_every_hostile_import_file_is_refused_with_its_line_and_nothing_is_stored(
    engine: Engine, tmp_path: Path
) -> None:
    files = _all_imports(tmp_path)
    before = _counts(engine)
    refused: list[str] = []
    for name, (path, line, message) in files.items():
        with pytest.raises(ImportRejected) as caught:
            import_jsonl(engine, path, check_study=study_record_problem)
        problems = caught.value.problems
        assert any(n == line and message in text for n, text in problems), (name, problems)
        assert "\n" not in str(caught.value), name
        assert _counts(engine) == before, name
        refused.append(name)
    assert len(refused) == len(files) >= 30
    print(f"\nhostile import files on {engine.dialect.name}: {len(files)} tried, "
          f"{len(refused)} refused, table counts unchanged")


def test_the_cli_refuses_each_hostile_file_in_one_line_without_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'cli.sqlite'}")
    try:
        for name, (path, line, message) in _all_imports(tmp_path).items():
            status = main(["import", str(path)])
            err = capsys.readouterr().err
            assert status == 2, (name, err)
            assert "Traceback" not in err and len(err.strip().splitlines()) == 1, (name, err)
            assert f"{path}:{line}: " in err and message in err, (name, err)
            assert "nothing of this file was stored" in err
    finally:
        dispose_engines()


def test_lawful_edge_cases_are_kept(engine: Engine, tmp_path: Path) -> None:
    """The checks refuse what breaks a limit only: data at the moment of consent, the
    largest exact integer, an escaped emoji (a surrogate pair), the text "\\u0000", a
    float with an exponent and a byte order mark all import."""
    path = tmp_path / "edge.jsonl"
    lines = [*VALID_START,
             '{"record":"event","participant_id":"p1","session_id":"s1","seq":2,'
             '"at":"2026-01-01T09:00:00.000Z","type":"page","props":{"n":9007199254740991,'
             '"m":-9007199254740991,"e":"\\ud83d\\ude00","lit":"\\\\u0000","f":1.5e-7}}']
    path.write_bytes(b"\xef\xbb\xbf" + ("\n".join(lines) + "\n").encode())
    assert import_jsonl(engine, path).added["event"] == 2
    out = tmp_path / "out.jsonl"
    export_jsonl(engine, "h", out)
    props = [json.loads(line) for line in out.read_text().splitlines()][-1]["props"]
    assert props == {"n": 2**53 - 1, "m": -(2**53 - 1), "e": "😀", "lit": "\\u0000", "f": 1.5e-7}


def test_an_export_of_a_demo_study_passes_the_new_checks(engine: Engine, tmp_path: Path) -> None:
    """The limits refuse hostile files, not the app's own exports (a simulated study)."""
    from playtest import demo

    demo.generate(engine, 3, seed=5)
    out = tmp_path / "demo.jsonl"
    counts = export_jsonl(engine, demo.DEMO_STUDY_ID, out)
    fresh_url = f"sqlite:///{tmp_path / 'fresh.sqlite'}"
    fresh = make_engine(fresh_url)
    upgrade(fresh)
    try:
        assert import_jsonl(fresh, out).added == counts
    finally:
        fresh.dispose()


# -------------------------------------------------------------------- study payloads


@pytest.mark.parametrize("name", sorted(STUDIES))
def test_every_hostile_study_setting_is_refused_naming_its_field(name: str) -> None:
    case = STUDIES[name]
    with pytest.raises(StudyConfigError) as caught:
        parse_study_config(case["settings"])
    text = str(caught.value)
    assert text.startswith(f"{case['field']}: ") and case["message"] in text, text
    assert "\n" not in text


def _study_record(settings: dict[str, Any]) -> dict[str, Any]:
    """An exchange-format study record carrying these settings (as an export writes them)."""
    experiments = [
        {"key": e["key"], "target": e["target"], "variants": list(e["variants"]),
         "payloads": e["variants"]}
        for e in settings.get("experiments", [])
    ]
    surveys = {k: settings[k] for k in ("pre_survey", "post_survey") if k in settings}
    ui = {k: settings[k] for k in ("highlight_options", "show_computer_dice", "speed")
          if k in settings}
    return {"record": "study", "study_id": "hostile", "title": "Hostile", "game": "vapoosh",
            "rules": settings.get("rules", "standard"), "experiments": experiments,
            "surveys": surveys, "settings": ui}


def test_every_hostile_study_setting_is_refused_at_import(engine: Engine, tmp_path: Path) -> None:
    before = _counts(engine)
    tried = 0
    for name, case in STUDIES.items():
        if case["field"].endswith("variants") and "at least 2" in case["message"]:
            continue  # one variant: the exchange format cannot even say it differently
        tried += 1
        path = tmp_path / f"{name}.jsonl"
        path.write_text(json.dumps(_study_record(case["settings"])) + "\n")
        with pytest.raises(ImportRejected) as caught:
            import_jsonl(engine, path, check_study=study_record_problem)
        assert caught.value.problems[0][0] == 1
        assert case["message"] in caught.value.problems[0][1], (name, caught.value.problems)
        assert _counts(engine) == before, name
    print(f"\nhostile study records on {engine.dialect.name}: {tried} tried, {tried} refused")


@pytest.mark.parametrize("name", sorted(PAGE_TEXTS))
def test_text_typed_on_the_studies_page_is_refused_before_it_is_built(name: str) -> None:
    case = PAGE_TEXTS[name]
    experiments: Any = None
    with pytest.raises(StudyConfigError) as caught:
        experiments = load_settings_text(case["text"], "experiments")
        parse_study_config({"experiments": experiments})
    # the Studies page names an experiment's part in its words (as test_hostile_study_pages)
    said = where_in_words(caught.value, experiments if isinstance(experiments, list) else None)
    assert case["message"] in said


def test_a_very_long_or_very_deep_text_is_refused_without_recursion_error() -> None:
    with pytest.raises(StudyConfigError, match="at most 20,000 characters"):
        load_settings_text("x" * (MAX_SETTINGS_CHARS + 1), "experiments")
    with pytest.raises(StudyConfigError, match="nested deeper than 8 levels"):
        load_settings_text("[" * 5000 + "]" * 5000, "rules")
    with pytest.raises(StudyConfigError, match="nested deeper than 8 levels"):
        load_settings_text("- " * 3000 + "x", "experiments")
    with pytest.raises(StudyConfigError, match="settings: nested deeper than"):
        deep: Any = 1
        for _ in range(5000):
            deep = [deep]
        parse_study_config({"rules": deep})


def test_valid_payloads_still_pass() -> None:
    config = parse_study_config({
        "rules": {"base": "standard", "surround": "group"},
        "experiments": [
            {"key": "w", "target": "message:extra_turn",
             "variants": {"A": "default", "B": "Player {seat}: go again!"}},
            {"key": "s", "target": "ui:speed", "variants": {"slow": 1, "fast": 3}},
            {"key": "h", "target": "ui:highlight_options", "variants": {"on": True, "off": False}},
            {"key": "r", "target": "rules", "variants": {"A": "standard", "B": {"base": "house"}}},
        ],
    })
    assert [e.key for e in config.experiments] == ["w", "s", "h", "r"]
