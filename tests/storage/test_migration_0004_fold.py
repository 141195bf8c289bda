"""The pure helpers of migration 0004 (the study's five JSON columns folded into one
config document), loaded from the migration script itself."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = (Path(__file__).resolve().parents[2] / "playtest" / "storage" / "migrations"
          / "versions" / "0004_study_config_one_column.py")


@pytest.fixture(scope="module")
def migration() -> ModuleType:
    spec = importlib.util.spec_from_file_location("migration_0004", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_payloads_follow_the_order_of_the_variant_names(migration: ModuleType) -> None:
    # PostgreSQL's JSONB keeps no key order; the list of names is the order
    assert list(migration._ordered_payloads(["slow", "fast"], {"fast": 3, "slow": 1}).items()) \
        == [("slow", 1), ("fast", 3)]
    assert migration._ordered_payloads(["a", "b"], None) == {"a": "a", "b": "b"}


def test_the_old_columns_fold_into_one_document(migration: ModuleType) -> None:
    folded = migration.fold("house", {"audience": "adults"},
                            [{"key": "k", "target": "rules", "variants": ["a", "b"],
                              "payloads": {"a": "standard", "b": "house"}}],
                            2, True, {"speed": 3, "unknown": 1})
    assert folded["rules"] == "house"
    assert folded["games_per_tester"] == 2 and folded["allow_more_games"] is True
    assert folded["experiments"][0]["variants"] == {"a": "standard", "b": "house"}
