"""A study's settings document (``studies.config``) and the exchange format's ``study``
record fields: one translated into the other, with nothing of the app (the checks of a
study's settings live above storage, in :mod:`playtest.study_config`).

A record's experiments carry their variants as a list of names and their payloads apart;
the document keeps each experiment's variants as ``{name: payload}``:

>>> doc = raw_config(rules="standard", games_per_tester=2, allow_more_games=True,
...     experiments=[{"key": "s", "target": "ui:speed", "variants": ["A", "B"],
...                   "payloads": {"B": 3, "A": 1}}],
...     surveys={"audience": "children"}, settings={"speed": 2}, game=None)
>>> doc["experiments"][0]["variants"], doc["audience"], "game" in doc
({'A': 1, 'B': 3}, 'children', False)
>>> fields = exchange_fields(doc)
>>> fields["experiments"][0]["variants"], fields["surveys"], fields["settings"]
(['A', 'B'], {'audience': 'children'}, {'speed': 2})
"""

from __future__ import annotations

from typing import Any

from analytics.data import UNNAMED_GAME

#: The study record's ``settings`` object: the display and play settings, the panel and
#: the quota.
SETTING_KEYS = ("seats", "highlight_options", "show_computer_dice", "speed", "ai_think_ms",
                "panel", "quota")


def _ordered_payloads(variants: Any, payloads: Any) -> Any:
    """An experiment record's variants as ``{name: payload}`` in the order of its list of
    names (PostgreSQL's JSONB keeps no key order; the list is the order); a record without
    payloads uses each name as its payload.

    >>> _ordered_payloads(["slow", "fast"], {"fast": 3, "slow": 1})
    {'slow': 1, 'fast': 3}
    """
    if isinstance(variants, list) and isinstance(payloads, dict) and \
            set(payloads) == {v for v in variants if isinstance(v, str)}:
        return {v: payloads[v] for v in variants}
    if payloads:
        return payloads
    if isinstance(variants, list):
        return {v: v for v in variants if isinstance(v, str)}
    return variants


def raw_config(*, rules: Any, games_per_tester: Any, allow_more_games: Any,
               experiments: Any, surveys: Any, settings: Any,
               game: Any = UNNAMED_GAME) -> dict[str, Any]:
    """The settings of a study's stored columns (or exchange record) as one raw mapping.

    ``experiments`` are exchange-format records (``key``, ``target``, ``variants`` as
    names, ``payloads``); a record without payloads uses each variant's name as its
    payload. Anything malformed is passed on as it is, for
    :func:`playtest.study_config.parse_study_config` to name. ``game=None`` leaves the
    game out (the settings document a study stores).
    """
    surveys = surveys if isinstance(surveys, dict) else {}
    settings = settings if isinstance(settings, dict) else {}
    raw: dict[str, Any] = {
        **({"game": game} if game is not None else {}),
        "rules": rules,
        "games_per_tester": games_per_tester,
        "allow_more_games": allow_more_games,
        "experiments": [
            {"key": e.get("key"), "target": e.get("target"),
             "variants": _ordered_payloads(e.get("variants"), e.get("payloads")),
             **{k: e[k] for k in ("primary_metric", "min_effect", "quiz_items")
                if e.get(k) is not None}}
            if isinstance(e, dict) else e
            for e in (experiments if isinstance(experiments, list) else [experiments])
        ],
        **{k: v for k, v in surveys.items() if k in ("pre_survey", "post_survey", "audience")},
        **{k: v for k, v in settings.items()
           if k in SETTING_KEYS},
    }
    return raw


def exchange_fields(document: Any) -> dict[str, Any]:
    """A stored settings document as the exchange format's ``study`` record fields
    (``rules``, ``experiments`` as records, ``surveys``, ``games_per_tester``,
    ``allow_more_games``, ``settings``); inverse of :func:`raw_config` for what it keeps.

    >>> fields = exchange_fields({"rules": "standard", "speed": 3, "audience": "mixed"})
    >>> fields["rules"], fields["settings"]["speed"], fields["surveys"]["audience"]
    ('standard', 3, 'mixed')
    """
    doc = document if isinstance(document, dict) else {}
    experiments = doc.get("experiments")
    records = []
    for e in experiments if isinstance(experiments, list) else []:
        if not isinstance(e, dict):
            continue
        variants = e.get("variants")
        record = {"key": e.get("key"),
                  "variants": list(variants) if isinstance(variants, dict) else variants,
                  "target": e.get("target"), "payloads": variants}
        record.update({k: e[k] for k in ("primary_metric", "min_effect", "quiz_items")
                       if e.get(k)})
        records.append(record)
    return {
        "rules": doc.get("rules", "standard"),
        "experiments": records,
        "surveys": {k: doc[k] for k in ("pre_survey", "post_survey", "audience") if k in doc},
        "games_per_tester": doc.get("games_per_tester", 1),
        "allow_more_games": doc.get("allow_more_games", True),
        "settings": {k: doc[k] for k in SETTING_KEYS if k in doc},
    }
