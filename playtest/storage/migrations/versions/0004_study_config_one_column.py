"""A study's settings are one document, ``studies.config`` (the StudyConfig model of
playtest/study_config.py, its game aside, which stays the ``game`` column), instead of
the columns ``rules``, ``surveys``, ``experiments``, ``games_per_tester``,
``allow_more_games`` and ``settings`` that every reader folded together by hand.

Existing rows are folded as they are, valid or not (a study saved before its settings
were checked as a whole keeps its problem, which the Studies page names). Downgrade
splits the document back into the columns.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects.postgresql import JSONB

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

JSON_TYPE = sa.JSON().with_variant(JSONB(), "postgresql")
#: The settings document is JSON text on every database: JSONB would lose the order of an
#: experiment's variants (a dict's keys), which the balanced assignment follows.
CONFIG_TYPE = sa.JSON()

# Frozen copies of the keys as they were when this revision was written.
SURVEY_KEYS = ("pre_survey", "post_survey", "audience")
SETTING_KEYS = ("seats", "highlight_options", "show_computer_dice", "speed", "ai_think_ms")
EXPERIMENT_EXTRAS = ("primary_metric", "min_effect", "quiz_items")
OLD_JSON = ("rules", "surveys", "experiments", "settings")


def _ordered_payloads(variants: Any, payloads: Any) -> Any:
    """An experiment record's variants as ``{name: payload}`` in the order of its list of
    names (PostgreSQL's JSONB keeps no key order; the list is the order); a record without
    payloads uses each name as its payload."""
    if isinstance(variants, list) and isinstance(payloads, dict) and \
            set(payloads) == {v for v in variants if isinstance(v, str)}:
        return {v: payloads[v] for v in variants}
    if payloads:
        return payloads
    if isinstance(variants, list):
        return {v: v for v in variants if isinstance(v, str)}
    return variants


def fold(rules: Any, surveys: Any, experiments: Any, games_per_tester: Any,
         allow_more_games: Any, settings: Any) -> dict[str, Any]:
    """The old columns as one config document (what playtest.study_config.raw_config did;
    tests/storage/test_storage_upgrades.py upgrades stored rows through it)."""
    surveys = surveys if isinstance(surveys, dict) else {}
    settings = settings if isinstance(settings, dict) else {}
    listed = experiments if isinstance(experiments, list) else [experiments]
    return {
        "rules": rules,
        "games_per_tester": games_per_tester,
        "allow_more_games": bool(allow_more_games),
        "experiments": [
            {"key": e.get("key"), "target": e.get("target"),
             "variants": _ordered_payloads(e.get("variants"), e.get("payloads")),
             **{k: e[k] for k in EXPERIMENT_EXTRAS if e.get(k) is not None}}
            if isinstance(e, dict) else e
            for e in listed if e is not None
        ],
        **{k: v for k, v in surveys.items() if k in SURVEY_KEYS},
        **{k: v for k, v in settings.items() if k in SETTING_KEYS},
    }


def split(config: Any) -> dict[str, Any]:
    """Inverse of :func:`fold` for downgrade: the old columns of a config document."""
    config = config if isinstance(config, dict) else {}
    experiments = []
    for e in config.get("experiments") or []:
        if not isinstance(e, dict):
            continue
        variants = e.get("variants")
        record = {"key": e.get("key"), "target": e.get("target"),
                  "variants": list(variants) if isinstance(variants, dict) else variants,
                  "payloads": variants}
        record.update({k: e[k] for k in EXPERIMENT_EXTRAS if e.get(k) is not None})
        experiments.append(record)
    return {
        "rules": config.get("rules", "standard"),
        "surveys": {k: config[k] for k in SURVEY_KEYS if k in config},
        "experiments": experiments,
        "games_per_tester": int(config.get("games_per_tester") or 1),
        "allow_more_games": bool(config.get("allow_more_games", False)),
        "settings": {k: config[k] for k in SETTING_KEYS if k in config},
    }


def _old_table() -> sa.TableClause:
    return sa.table("studies", sa.column("study_id", sa.String()),
                    *(sa.column(name, JSON_TYPE) for name in OLD_JSON),
                    sa.column("games_per_tester", sa.Integer()),
                    sa.column("allow_more_games", sa.Boolean()),
                    sa.column("config", CONFIG_TYPE))


# Plain ALTER TABLE (SQLite 3.35+ drops columns in place): a batch copy of ``studies``
# would drop the table the participants' foreign keys point at.
_DEFAULTS: dict[str, tuple[Any, str]] = {
    "rules": (JSON_TYPE, "\"standard\""),
    "surveys": (JSON_TYPE, "{}"),
    "experiments": (JSON_TYPE, "[]"),
    "settings": (JSON_TYPE, "{}"),
    "games_per_tester": (sa.Integer(), "1"),
    "allow_more_games": (sa.Boolean(), "0"),
}


def upgrade() -> None:
    op.add_column("studies", sa.Column("config", CONFIG_TYPE, nullable=False,
                                       server_default="{}"))
    studies = _old_table()
    conn = op.get_bind()
    for row in conn.execute(sa.select(studies)).all():
        conn.execute(sa.update(studies).where(studies.c.study_id == row.study_id).values(
            config=fold(row.rules, row.surveys, row.experiments, row.games_per_tester,
                        row.allow_more_games, row.settings)))
    for name in _DEFAULTS:
        op.drop_column("studies", name)


def downgrade() -> None:
    for name, (type_, default) in _DEFAULTS.items():
        if name == "allow_more_games" and op.get_bind().dialect.name == "postgresql":
            default = "false"
        op.add_column("studies", sa.Column(name, type_, nullable=False,
                                           server_default=sa.text(f"'{default}'")
                                           if type_ is JSON_TYPE else sa.text(default)))
    studies = _old_table()
    conn = op.get_bind()
    for row in conn.execute(sa.select(studies.c.study_id, studies.c.config)).all():
        conn.execute(sa.update(studies).where(studies.c.study_id == row.study_id)
                     .values(**split(row.config)))
    op.drop_column("studies", "config")
